"""Issuing official documents: number → render → sign → record, all or nothing.

    issuer = Issuer.from_config()
    result = issuer.issue("alvara-taxi", data)      # IncompleteError when not complete
    check = issuer.verify(result.pdf)                        # signature + registry record

The number of the series is taken, the document rendered with that number, its
verification code and QR code, signed, and recorded in one registry transaction: a
failure anywhere leaves neither a number nor a record behind (see lavra.registry.store).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any

from lavra.checking.backdating import bounded
from lavra.checking.computations import item_at
from lavra.checking.content import Content, loaded_content
from lavra.checking.holder_questions import answer
from lavra.checking.report import Report, Status
from lavra.config import Config, load_config
from lavra.documents import Engine, Prepared, Rendered
from lavra.draftstate import DraftStateChecks
from lavra.errors import InputError, LavraError
from lavra.inputs.reading import TIMEZONE
from lavra.inputs.textnorm import clean_text
from lavra.registry import companions
from lavra.registry.companions import Companion
from lavra.registry.facts import Fact
from lavra.registry.licence_reads import BY_NUMBER, OF_HOLDER, OF_VEHICLE, LicenceQuestions
from lavra.registry.licensing import LicenceView
from lavra.registry.numbered_acts import numbered_acts
from lavra.registry.records import (
    Built,
    IssuedRecord,
    normalize_plate,
    parse_number,
    printed_number,
    search_keys,
)
from lavra.registry.store import Registry, open_registry
from lavra.signers import SignerKey, Signers
from lavra.signing.pki import DevPki, KeySource, init_dev_pki, new_rsa_key
from lavra.signing.verification import (
    new_code,
    normalize_code,
    qr_png,
    verification_url,
)
from lavra.staff import RegistryStaffValues
from lavra.verifying import VerificationResult, Verifier, registry_url

if TYPE_CHECKING:
    from lavra.checking.computations import FiledProtocol, PriorRecord
    from lavra.law.overlay import StaffOverlay


class IncompleteError(LavraError):
    """The completeness report is not complete: nothing may be issued."""

    def __init__(self, report: Report, *, reserved: bool = False) -> None:
        pending = len(report.pending)
        # A batch item's number was reserved by its plan: only what follows the number
        # (signing, recording) did not happen; the caller says what became of it.
        after = ("Nada foi assinado nem registrado." if reserved
                 else "Nada foi numerado nem registrado.")
        super().__init__(
            f"O documento não pode ser emitido: há {pending} pendência(s) no relatório de "
            f"completude. {after}"
        )
        self.report = report


@dataclass(frozen=True)
class IssueResult:
    record: IssuedRecord
    pdf: bytes
    docx: bytes | None
    report: Report


_PRINTED_NUMBER = re.compile(r"(\d{1,9})\s*/\s*(\d{4})\s*$")


def _prior(record: IssuedRecord, facts: Iterable[Fact] = (),
           annulled: tuple[str, date] | None = None) -> PriorRecord:
    from lavra.checking.computations import PriorRecord, RecordedFact

    return PriorRecord(
        record.formatted,
        record.reference_date,
        record.data,
        form=record.form,
        series=record.series,
        valid_until=record.valid_until,
        cancelled=record.cancelled,
        cancel_reason=record.cancel_reason,
        facts=tuple(
            RecordedFact(f.kind, f.on, f.occurred_at if f.with_time else None, f.means,
                         f.amount, f.reference, f.recorded_by, f.recorded_at)
            for f in facts if not f.revoked
        ),
        annulled_by=None if annulled is None else annulled[0],
        annulled_on=None if annulled is None else annulled[1],
    )


class RegistryHistory(DraftStateChecks):
    """The registry as the case history the computations look at (earlier autos, the
    acts another act rests on, the licences a vehicle holds, what it says of a draft:
    :class:`lavra.draftstate.DraftStateChecks`)."""

    def __init__(self, registry: Registry, *, retry_of: str | None = None) -> None:
        self.registry = registry
        # The idempotency key of the request being issued: a retry is judged without the
        # document it would return (it is not an earlier auto, nor a duplicate of itself).
        self.retry_of = retry_of

    def _kept(self, records: Iterable[IssuedRecord]) -> list[PriorRecord]:
        kept = [r for r in records if self.retry_of is None or r.idempotency_key != self.retry_of]
        facts = self.registry.facts_of(r.id for r in kept)
        annulled = self.registry.annulled_acts(r.id for r in kept)
        return [_prior(r, facts.get(r.id, ()), annulled.get(r.id)) for r in kept]

    def prior_autos(self, placa: str, form: str, since: date, before: date) -> list[PriorRecord]:
        start = datetime.combine(since, datetime.min.time(), TIMEZONE)
        end = datetime.combine(before, datetime.min.time(), TIMEZONE)
        found = self._kept(self.registry.autos_for_vehicle(placa, form, start, before=end))
        return [r for r in found if r.annulled_by is None]  # an auto annulled on appeal

    def document(self, form: str, number: str) -> PriorRecord | None:
        match = _PRINTED_NUMBER.search(number) if isinstance(number, str) else None
        if match is None:
            return None
        # the act, its facts and its annulment in one statement (numbered_acts); only
        # the first kept is answered, and each act's facts and marks are its own
        records, facts, annulled = numbered_acts(self.registry, form, int(match.group(1)),
                                                 int(match.group(2)))
        kept = [r for r in records if self.retry_of is None or r.idempotency_key != self.retry_of]
        return _prior(kept[0], facts.get(kept[0].id, ()), annulled.get(kept[0].id)) if kept \
            else None

    def in_force(self, placa: str, form: str, on: date) -> list[PriorRecord]:
        plate = normalize_plate(placa)
        if form in self.registry.tracked_kinds:  # the licensing state: indexed, with status
            return self._kept(self.registry.licences_in_force(form, on, placa=plate))
        return self._kept(self.registry.active_licences(form, on, placa=plate))

    def by_holder(self, cpf_cnpj: str, form: str) -> list[PriorRecord]:
        try:
            found = self.registry.by_holder(cpf_cnpj, form)
        except InputError:  # not a CPF or CNPJ: nobody's documents
            return []
        return self._kept(r for r in found if r.form == form)

    def filing(self, protocol: str) -> FiledProtocol | None:
        from lavra.checking.computations import FiledProtocol
        from lavra.registry.filings import Filings, parse_protocol
        from lavra.textutil import act_series

        series = act_series(protocol) if isinstance(protocol, str) else None
        printed = None if series is None else parse_protocol(protocol, series)
        found = None if printed is None else Filings(self.registry).by_protocol(printed)
        if found is None:
            return None
        return FiledProtocol(found.protocol, found.form, found.filed_at_local.date(),
                             found.cpf_cnpj, found.processo, found.data)

    def filed_by(self, cpf_cnpj: str, form: str) -> list[FiledProtocol]:
        from lavra.checking.computations import FiledProtocol
        from lavra.registry.filings import Filings

        try:
            found = Filings(self.registry).by_filer(cpf_cnpj, form)
        except InputError:  # not a CPF or CNPJ: nobody's filings
            return []
        return [FiledProtocol(f.protocol, f.form, f.filed_at_local.date(), f.cpf_cnpj,
                              f.processo, f.data) for f in found]

    # ------------------------------------------------ the licensing state (LicensingHistory)
    def tracks(self, kind: str) -> bool:
        return kind in self.registry.tracked_kinds

    def number_state(self, series: str, year: int, number: int) -> companions.NumberState:
        return self.registry.number_state(series, year, number)

    #: The answers :meth:`answering` read for one check: the questions, and the views
    #: of each (every status, oldest first).
    _answers: tuple[LicenceQuestions, dict[int, tuple[LicenceView, ...]]] | None = None

    def answering(self, questions: LicenceQuestions) -> RegistryHistory:
        """This history with the licence lookups of ``questions`` read in one statement
        (:mod:`lavra.registry.licence_reads`): a copy whose :meth:`licence_status`,
        :meth:`holder_licences` and :meth:`vehicle_licences` answer exactly those
        questions from what it read, as each would have read it, and read the registry
        for any other. For one check, in its read scope (the same snapshot)."""
        answers = self.registry.licence_answers(questions)
        if answers is None:
            return self
        answered = copy.copy(self)
        answered._answers = (questions, answers)
        return answered

    def _answered(self, tag: int, asked: Callable[[LicenceQuestions], bool]
                  ) -> tuple[LicenceView, ...] | None:
        if self._answers is None:
            return None
        questions, answers = self._answers
        found = answers.get(tag)
        return found if found is not None and asked(questions) else None

    def licence_status(self, number: str, kind: str | None = None) -> LicenceView | None:
        if not isinstance(number, str):
            return None
        found = self._answered(BY_NUMBER, lambda q: (q.number, q.kind) == (number, kind))
        if found is not None:  # as licence_by_number: one licence, or none (ambiguous)
            return found[0] if len(found) == 1 else None
        return self.registry.licence_by_number(number, kind)

    def holder_knows(self, number: str, kind: str, cpf_cnpj: str, pointer: str) -> bool | None:
        # the public page's question (lavra.checking.holder_questions), asked alike here
        return answer(self.licence_status(number, kind), cpf_cnpj, pointer)

    def bars(self, cpf_cnpj: str, scope: str, on: date) -> list[tuple[date, str]]:
        try:
            found = self.registry.bars_of(cpf_cnpj, on)
        except InputError:  # not a CPF or CNPJ: nobody is barred
            return []
        return sorted(((until, act) for kind, until, act in found if kind == scope),
                      reverse=True)

    def holder_licences(self, cpf_cnpj: str, on: date,
                        kind: str | None = None) -> tuple[LicenceView, ...]:
        found = self._answered(OF_HOLDER, lambda q: (q.holder, q.holder_kind) == (cpf_cnpj, kind))
        if found is not None:
            return self._others(tuple(view for view in found if view.holds(on)))
        try:
            return self._others(self.registry.licences_held(on, holder=cpf_cnpj, kind=kind))
        except InputError:
            return ()

    def vehicle_licences(self, placa: str, on: date) -> tuple[LicenceView, ...]:
        found = self._answered(OF_VEHICLE, lambda q: q.placa == placa)
        if found is not None:
            return self._others(tuple(view for view in found if view.holds(on)))
        try:
            return self._others(self.registry.licences_held(on, placa=placa))
        except InputError:
            return ()

    @cached_property
    def _own(self) -> int | None:
        """The document already issued under the request's idempotency key, if any."""
        found = None if self.retry_of is None else self.registry.by_key(self.retry_of)
        return None if found is None else found.id

    def _others(self, views: tuple[LicenceView, ...]) -> tuple[LicenceView, ...]:
        """A retry is judged without the licence its own first attempt granted."""
        own = self._own
        return views if own is None else tuple(v for v in views if v.document_id != own)


def _jsonable(value: Any) -> Any:
    """Computed values as JSON (dates as ISO text, decimals as strings)."""
    return json.loads(json.dumps(value, default=str))


Clock = Callable[[], datetime]
"""The moment "now", timezone-aware: injected only by ``lavra demo`` and the tests."""


class Issuer:
    """Numbers, signs and records documents; verifies and cancels them.

    ``clock`` (``lavra demo`` and the tests only; a real signing always uses the real
    time, and no command of staff passes one) gives the moment of issue: the date the
    law is applied on when the form has no date of its own, the year of the number, the
    signing time and the moment the registry records.
    """

    def __init__(
        self, engine: Engine, registry: Registry, config: Config, *, clock: Clock | None = None
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.registry = registry
        self.config = config
        engine.final_renderer = config.issuing_renderer
        self.staff_values = RegistryStaffValues(registry)
        engine.use_staff_values(self.staff_values)
        # The acts' effects on the licensing state, as the pack declares them; a
        # registry from before the state gets its view built from its documents.
        registry.use_effects(engine.content.pack.effects)
        registry.ensure_state()
        self.signers = Signers(
            config,
            engine.content.organization.roles,
            stamp_font=engine.content.pack.stamp_font_path,
        )

    def signer_for(
        self, account: str, full_name: str, role: str, passphrase: str | None = None
    ) -> SignerKey:
        """The key the staff ``account`` signs with as ``role``
        (:meth:`lavra.signers.Signers.for_account`)."""
        return self.signers.for_account(account, full_name, role, valid_from=self._moment(),
                                        passphrase=passphrase)

    @classmethod
    def from_config(cls, config: Config | None = None) -> Issuer:
        config = config or load_config()
        engine = Engine(loaded_content(config.pack_dir))
        return cls(engine, open_registry(registry_url(config)), config)

    @cached_property
    def history(self) -> RegistryHistory:
        return RegistryHistory(self.registry)

    def prepare(
        self,
        form_id: str,
        data: Mapping[str, Any],
        on: date | None = None,
        *,
        example_values: bool = False,
        retry_of: str | None = None,
        staff_values: StaffOverlay | None = None,
        history: RegistryHistory | None = None,
    ) -> Prepared:
        """Check with the registry as history (repeat offences, the acts a document rests
        on, licences in force), as issuing will; ``retry_of``: the idempotency key of the
        request, whose own document the history leaves out; ``staff_values``: the
        Secretaria's values as the caller already read them (a run's plan reads them
        once), else read now; ``history``: the registry as the caller reads it (a run's
        plan: :class:`lavra.batch.model.PlanHistory`), else :attr:`history`."""
        if history is None:
            history = self.history if retry_of is None else RegistryHistory(
                self.registry, retry_of=retry_of
            )
        # One check, one read of the registry: its dozen lookups share a session and a
        # snapshot (Registry.read_scope), not one transaction each.
        with self.registry.read_scope():
            prepared = self.engine.prepare(
                form_id, data, on, history=history, example_values=example_values,
                draft=False,
                staff_values=self.staff_values() if staff_values is None else staff_values,
                issued_at=self._moment(),
            )
        return replace(prepared, report=self._bounded(prepared.report, on))

    def _bounded(self, report: Report, on: date | None) -> Report:
        """``report`` with the bound on backdating (:mod:`lavra.checking.backdating`):
        the act is signed today (the injected clock's day), and the item sits where the
        date came from (the ``on`` option, else the form's date field)."""
        field = "/on" if on is not None else (
            self.engine.content.form(report.form).reference_date_field or "/on")
        signed_on = (self._moment() or datetime.now(TIMEZONE)).date()
        return bounded(report, signed_on, self.config.backdating_days, field)

    def check(self, form_id: str, data: Mapping[str, Any], on: date | None = None) -> Report:
        """The completeness report staff read before signing: the registry as history
        (a cassação's bar, a licence in force, a fine paid), so that every item
        :meth:`issue` would refuse on is there, with its article, before anything is
        numbered. A draft's check: a value the pack lacks is pending, not an error."""
        with self.registry.read_scope():
            return self._bounded(self.engine.check(form_id, data, on, history=self.history), on)

    def draft(self, form_id: str, data: Mapping[str, Any], on: date | None = None, *,
              docx: bool = False) -> Rendered:
        """The MINUTA of ``data`` with :meth:`check`'s report: the registry's items are
        its pendências (no number, no signature)."""
        return self.engine.draft(form_id, data, on, docx=docx, history=self.history)

    def _moment(self) -> datetime | None:
        """The injected clock's now (None: the real time, taken where it is used)."""
        if self.clock is None:
            return None
        moment = self.clock()
        if moment.utcoffset() is None:
            raise LavraError("O relógio injetado deu um momento sem fuso horário.")
        return moment.astimezone(TIMEZONE)

    def issue(
        self,
        form_id: str,
        data: Mapping[str, Any],
        on: date | None = None,
        *,
        idempotency_key: str | None = None,
        actor: str | None = None,
        docx: bool = True,
        example_values: bool = False,
        signer: SignerKey | None = None,
    ) -> IssueResult:
        """Number, render, sign and record; or refuse (IncompleteError) and record nothing.

        ``signer``: the key of the person who signs (their name and the form's cargo
        are printed and stamped); without it, the role's certificate signs."""
        form = self.engine.content.form(form_id)
        if form.series is None or form.signer_role is None:
            raise InputError(
                f"O formulário «{form.title}» é um requerimento do interessado: não é emitido "
                "nem numerado pela Secretaria."
            )
        # A first check outside the transaction refuses incomplete data at once; the
        # authoritative one runs again inside it (under the numbering lock), so that an
        # auto issued concurrently for the same vehicle is seen by the repeat rule.
        prepared = self.prepare(
            form_id, data, on, example_values=example_values, retry_of=idempotency_key
        )
        if not prepared.report.complete:
            raise IncompleteError(prepared.report)
        data = prepared.data  # cleaned (NFC): what is recorded is what was checked and signed
        series = form.series
        files: dict[str, bytes | None] = {}
        declared = self.engine.content.pack.companions
        companion = declared.get(form.id)
        mate_of = companions.principal_of(declared, form.id, data)

        def build(number: int, formatted: str, mate: str | None) -> Built:
            # Printed with its series, as the registry keeps it: two series never show
            # the same number ("ALV-FRET nº 0001/2026").
            document = data
            if companion is not None and mate is not None:
                document = self._with_reserved(companion, data, mate, prepared.report)
            built = self.build_document(
                form_id, document, prepared.on,
                printed_number(series, *parse_number(formatted)),
                docx=docx, example_values=example_values, retry_of=idempotency_key,
                signer=signer,
            )
            files["pdf"], files["docx"] = built.pdf, built.docx
            return built

        year = (self._moment() or datetime.now(TIMEZONE)).year
        # The idempotency fingerprint covers everything that shapes the document.
        request = {"dados": dict(data), "data_referencia": prepared.on.isoformat(),
                   "valores_de_exemplo": example_values}
        record = self.registry.issue_with_companion(
            form.series, year, form.id, build, idempotency_key, data=request, actor=actor,
            companion=None if companion is None else companion.series,
            reserved_for=mate_of[1] if mate_of is not None and mate_of[0] == series else None,
        )
        pdf = files.get("pdf") or self.registry.pdf(record.id)
        stored_docx = files.get("docx") if "pdf" in files else self.registry.docx(record.id)
        return IssueResult(record, pdf, stored_docx, prepared.report)

    @staticmethod
    def _with_reserved(companion: Companion, data: Mapping[str, Any], mate: str,
                       report: Report) -> dict[str, Any]:
        """``data`` with the number reserved for it at the companion's field; a number
        typed there that is not this one is refused (nothing recorded)."""
        value = data.get(companion.field.lstrip("/"))
        typed = value.strip() if isinstance(value, str) and value.strip() else None
        if typed is not None and not companions.same_number(typed, mate):
            cited = mate.replace(" nº ", " ")
            raise IncompleteError(Report(report.form, report.on, (item_at(
                companion.field, Status.INVALID,
                f"O número «{typed}» não é o reservado para este ato: ao emiti-lo, o "
                f"registro reservou o {cited}, que ele imprime; deixe o campo em branco.",
                companion.basis),)))
        return companions.with_companion(data, companion.field, mate)

    def build_document(
        self,
        form_id: str,
        data: Mapping[str, Any],
        on: date | None,
        printed: str,
        *,
        docx: bool = True,
        example_values: bool = False,
        retry_of: str | None = None,
        reserved: bool = False,
        signer: SignerKey | None = None,
    ) -> Built:
        """Check, render and sign the document that carries the number ``printed`` (with
        its series): what :meth:`issue` records, and what a batch run records under the
        number its plan reserved (``reserved``). IncompleteError when the data are not
        complete."""
        form = self.engine.content.form(form_id)
        if form.signer_role is None:
            raise InputError(f"O formulário «{form.title}» não é assinado pela Secretaria.")
        document_signer, name = (
            self.signers.get(form.signer_role) if signer is None
            else self.signers.for_key(signer, form.signer_role)
        )
        current = self.prepare(form_id, data, on, example_values=example_values,
                               retry_of=retry_of)
        if not current.report.complete:
            raise IncompleteError(current.report, reserved=reserved)
        moment = self._moment()
        code = new_code()
        page = verification_url(self.config.verification_url, code)
        laid, docx_bytes = self.engine.render_final(
            current,
            number=printed,
            code=code,
            url=self.config.verification_url,
            qr_png=qr_png(page),
            signer_name=name,
            docx=docx,
        )
        signed = document_signer.sign(
            laid.pdf,
            signer_name=name,
            field_box=laid.signature_box,
            reason=f"Emissão de {current.computed.get('titulo_documento') or form.title} "
            f"{printed}",
            location=f"{self.engine.content.organization.cidade} – "
            f"{self.engine.content.organization.uf}",
            signing_time=moment,
        )
        holder, plate = search_keys(current.data)
        return Built(
            pdf=signed.pdf,
            docx=docx_bytes,
            data=dict(current.data),
            computed=_jsonable(current.computed),
            reference_date=current.on,
            verification_code=code,
            signer_subject=signed.signer_subject,
            signer_serial=signed.signer_serial,
            pack_version=self.engine.content.version,
            cpf_cnpj=holder,
            placa=plate,
            issued_at=moment,
        )

    # ----------------------------------------------------------------- verifying
    def lookup_code(self, code: str) -> IssuedRecord | None:
        return self.registry.by_code(normalize_code(code))

    def verify(self, pdf: bytes, *, on: date | None = None) -> VerificationResult:
        """Signature and registry record of this PDF, and with ``on`` the status of the
        licence it granted (:meth:`lavra.verifying.Verifier.verify`)."""
        return Verifier(self.registry, self.config).verify(pdf, on=on)

    def cancel(self, number: str, reason: str, by: str, series: str | None = None) -> IssuedRecord:
        """Mark a document cancelled (it stays in the registry, with the reason)."""
        reason = clean_text(reason, what="O motivo do cancelamento", field="/reason")
        by = clean_text(by, what="O nome de quem cancela", field="/by")
        parse_number(number)
        record = self.registry.by_number(number, series=series)
        if record is None:
            raise InputError(f"Documento nº {number} não encontrado no registro.", field="/numero")
        return self.registry.cancel(record.series, record.year, record.number, reason=reason, by=by)

    def close(self) -> None:
        self.registry.close()


def ensure_dev_pki(
    config: Config, content: Content, *, valid_from: datetime | None = None,
    new_key: KeySource = new_rsa_key,
) -> DevPki:
    """Create (or reuse) the development PKI for every role of the pack (its new
    certificates valid from ``valid_from``, default now; their keys from ``new_key``,
    default fresh ones)."""
    return init_dev_pki(config.pki_dir, content.organization.roles, valid_from=valid_from,
                        new_key=new_key)


__all__ = [
    "IncompleteError",
    "IssueResult",
    "Issuer",
    "SignerKey",
    "VerificationResult",
    "ensure_dev_pki",
    "registry_url",
]
