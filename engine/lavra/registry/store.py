"""The registry of issued documents: gapless numbering, the record, the case history.

    registry = open_registry(database_url(config.data_dir))
    record = registry.issue("ALV-TAXI", 2026, "alvara-taxi", build,
                            idempotency_key=request_id)
    record.formatted                 # "0001/2026"
    registry.autos_for_vehicle("ABC1D23", "auto-", since=six_months_ago)

Storage is a SQLite file ``<data_dir>/registro.sqlite3`` by default (WAL mode, with a
busy timeout so concurrent processes wait for each other), or PostgreSQL when
``LAVRA_DATABASE_URL`` (or the URL passed in) says so. The schema is owned by the
Alembic migrations shipped in :mod:`lavra.registry.migrations`; opening a registry
migrates it to head (:mod:`lavra.registry.database`). The tables are in
:mod:`lavra.registry.tables`, the values a query returns in
:mod:`lavra.registry.records`, the queries in :mod:`lavra.registry.queries`.

Issuing is one transaction: the counter row of the series and year is locked
(``SELECT ... FOR UPDATE`` on PostgreSQL; ``BEGIN IMMEDIATE`` on SQLite takes the
writer lock before the counter is read), the next number is handed to ``build``
(which renders and signs), and the document, its first event and the counter update
are committed together. If ``build`` fails, or the process dies, nothing is written
and the number is still free: numbers are never skipped and never reused, cancelled
documents included.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from lavra.errors import InputError, LavraError
from lavra.inputs.textnorm import clean_text
from lavra.registry import companions
from lavra.registry.database import Conflict, database_url, engine_for, migrate
from lavra.registry.drafts import DraftStore
from lavra.registry.facts import RegistryFacts
from lavra.registry.first_event import insert_with_event
from lavra.registry.importing import RegistryImports
from lavra.registry.plain_rows import insert_row, table_insert
from lavra.registry.records import (
    LOCAL_TZ,
    Built,
    Event,
    EventKind,
    IssuedRecord,
    Status,
    check_ident,
    check_number,
    check_series,
    check_text,
    check_year,
    event_of,
    format_number,
    normalize_cpf_cnpj,
    normalize_plate,
    printed_number,
    record_of,
    subject_cn,
)
from lavra.registry.staff_values import StaffValueStore
from lavra.registry.standing import locked
from lavra.registry.tables import CounterRow, DocumentRow, EventRow
from lavra.registry.voiding import RegistryVoids, void_companions
from lavra.textutil import format_datetime

__all__ = ["Registry", "open_default_registry", "open_registry"]

_ISSUED = table_insert(EventRow)[0]  # executed with a dict: one plain INSERT


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    raise TypeError(type(value).__name__)


def _to_json(value: Mapping[str, Any], what: str) -> Any:
    try:
        return json.loads(json.dumps(value, default=_json_default, ensure_ascii=False))
    except (TypeError, ValueError) as error:
        raise LavraError(
            f"Os {what} do documento não podem ser gravados no registro: valor de tipo "
            f"{error} não é representável em JSON."
        ) from None


def _fingerprint(value: Mapping[str, Any]) -> str:
    canonical = json.dumps(
        _to_json(value, "dados"), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _valid_until(computed: Mapping[str, Any]) -> date | None:
    value = computed.get("valido_ate")
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise LavraError(f"Validade do documento ilegível: «{value}» (esperada uma data).")


def _check_built(built: object, formatted: str) -> Built:
    if not isinstance(built, Built):
        raise LavraError(
            f"A geração do documento nº {formatted} não devolveu um documento pronto (Built)."
        )
    if not isinstance(built.pdf, bytes) or not built.pdf:
        raise LavraError(f"O documento nº {formatted} foi gerado sem PDF.")
    if built.docx is not None and not isinstance(built.docx, bytes):
        raise LavraError(f"O DOCX do documento nº {formatted} não é um arquivo.")
    if not isinstance(built.reference_date, date) or isinstance(built.reference_date, datetime):
        raise LavraError(f"O documento nº {formatted} não tem data de referência válida.")
    if built.issued_at is not None and (
        not isinstance(built.issued_at, datetime) or built.issued_at.utcoffset() is None
    ):
        raise LavraError(f"O documento nº {formatted} tem momento de emissão sem fuso horário.")
    for name, value, limit in (
        ("código de verificação", built.verification_code, 64),
        ("titular do certificado do signatário", built.signer_subject, 500),
        ("número de série do certificado do signatário", built.signer_serial, 100),
        ("versão do pacote de conteúdo", built.pack_version, 100),
    ):
        if not isinstance(value, str) or not value.strip() or len(value) > limit:
            raise LavraError(f"O documento nº {formatted} foi gerado sem {name} válido.")
    if not isinstance(built.data, Mapping) or not isinstance(built.computed, Mapping):
        raise LavraError(f"O documento nº {formatted} foi gerado sem dados.")
    return built


def _key_lookup(session: Session, key: str) -> tuple[IssuedRecord, str | None] | None:
    row = session.scalars(
        select(DocumentRow).where(DocumentRow.idempotency_key == key)
    ).one_or_none()
    return None if row is None else (record_of(row), row.request_sha256)


def _same_request(
    found: tuple[IssuedRecord, str | None],
    key: str,
    series: str,
    year: int,
    form: str,
    request: str | None,
) -> IssuedRecord:
    """The record issued under ``key``, if the retry asks for the same document.

    A document cancelled since is not handed back as if it were in force: the retry is
    refused with its number and when it was cancelled (nothing written, no number taken).
    """
    record, stored = found
    if record.cancelled:
        when = record.cancelled_at_local
        raise InputError(
            f"A chave de idempotência «{key}» emitiu o documento {record.printed}, que foi "
            "cancelado" + ("" if when is None else f" em {format_datetime(when)}")
            + "; o documento cancelado não é entregue de novo. Para emitir um novo "
            "documento, use uma chave nova.",
            field="/chave_idempotencia",
        )
    same = (record.series, record.year, record.form) == (series, year, form)
    if same and request is not None and stored is not None:
        same = stored == request
    if not same:
        raise InputError(
            f"A chave de idempotência «{key}» já foi usada no documento {record.printed}, "
            "emitido com outros dados; use uma chave nova para um documento novo.",
            field="/chave_idempotencia",
        )
    return record


# ============================================================================ registry
class Registry(RegistryFacts, StaffValueStore, RegistryImports, RegistryVoids, DraftStore):
    """The registry of issued documents over one database. Safe to share in a process.

    Facts recorded after the issue (ciência, notice, payment) are the methods of
    :class:`lavra.registry.facts.RegistryFacts`; the values staff keep over the pack's
    data, those of :class:`lavra.registry.staff_values.StaffValueStore`; the licensing
    state the acts create, those of :class:`lavra.registry.licensing.RegistryState`; the
    import of acts from before lavra, :class:`lavra.registry.importing.RegistryImports`;
    the numbering-void act, :class:`lavra.registry.voiding.RegistryVoids`; the drafts
    staff keep before issuing, :class:`lavra.registry.drafts.DraftStore`.
    """

    # ------------------------------------------------------------ issuing
    def issue(
        self,
        series: str,
        year: int,
        form: str,
        build: Callable[[int, str], Built],
        idempotency_key: str | None = None,
        *,
        data: Mapping[str, Any] | None = None,
        actor: str | None = None,
        reserved_for: tuple[str, int, int] | None = None,
    ) -> IssuedRecord:
        """Take the next number of ``series``/``year``, build the document, record it.

        ``build(number, formatted)`` renders and signs the document that carries that
        number; whatever it raises rolls everything back (no number consumed) and is
        re-raised as a LavraError. With ``idempotency_key``, a retry returns the record
        already issued under that key; reusing the key for another series, year, form
        or (when ``data``, the input, is given) other data is an InputError.
        ``actor`` names who issued it in the history (default: the signer).
        ``reserved_for`` (series, year, number of another act): the number of ``series``
        held for that act (:mod:`lavra.registry.companions`) is taken instead of the
        next one, when one is held.
        """
        return self.issue_with_companion(
            series, year, form, lambda number, formatted, _: build(number, formatted),
            idempotency_key, data=data, actor=actor, reserved_for=reserved_for)

    def issue_with_companion(
        self,
        series: str,
        year: int,
        form: str,
        build: Callable[[int, str, str | None], Built],
        idempotency_key: str | None = None,
        *,
        data: Mapping[str, Any] | None = None,
        actor: str | None = None,
        companion: str | None = None,
        reserved_for: tuple[str, int, int] | None = None,
    ) -> IssuedRecord:
        """:meth:`issue`, with ``companion``: the next number of that series is reserved
        for this document in the same transaction and handed, printed, to ``build`` as
        its third argument (None without ``companion``)."""
        series, year = check_series(series), check_year(year)
        form = check_text(form, "o formulário", "/formulario", 120)
        key = None if idempotency_key is None else clean_text(
            check_text(idempotency_key, "a chave de idempotência", "/chave_idempotencia", 200),
            field="/chave_idempotencia", what="A chave de idempotência",
        )
        who = None if actor is None else check_text(actor, "o responsável", "/responsavel", 500)
        request = None if data is None else _fingerprint(data)
        if key is not None:
            earlier = self._by_key(key)
            if earlier is not None:
                return _same_request(earlier, key, series, year, form, request)
        try:
            with self.database_errors(), self.write_session() as session:
                held = None if reserved_for is None else companions.reserved_for(
                    session, series, reserved_for)
                if held is not None:
                    year = held[0]
                counter = self.lock_counter(session, series, year)
                if key is not None:
                    found = _key_lookup(session, key)
                    if found is not None:
                        return _same_request(found, key, series, year, form, request)
                number = counter.last_number + 1 if held is None else held[1]
                mate = None if companion is None else printed_number(
                    companion, companions.reserve(session, companion, year,
                                                  (series, year, number)), year)
                built = self._build(lambda n, f: build(n, f, mate), number,
                                    format_number(number, year))
                row = self.record_reserved(
                    session, series, year, number, form, built, key=key, request=request,
                    actor=who,
                )
                counter.last_number = max(counter.last_number, number)
                record = record_of(row)
        except Conflict as conflict:
            if key is not None:
                earlier = self._by_key(key)
                if earlier is not None:
                    return _same_request(earlier, key, series, year, form, request)
            raise LavraError(
                "Não foi possível gravar o documento no registro: "
                f"{conflict.what}. Nenhum número foi consumido."
            ) from None
        return record

    def record_reserved(
        self,
        session: Session,
        series: str,
        year: int,
        number: int,
        form: str,
        built: Built,
        *,
        key: str | None = None,
        request: str | None = None,
        actor: str | None = None,
        detail: str | None = None,
    ) -> DocumentRow:
        """Record ``built`` under ``number``, already taken from the counter of
        ``series``/``year`` (by :meth:`issue`, or reserved by a batch plan,
        :mod:`lavra.registry.runs`), with its first event, in ``session``."""
        formatted = format_number(number, year)
        built = _check_built(built, formatted)
        row = self._new_row(series, year, number, form, built, key, request, formatted)
        event = {"kind": EventKind.ISSUED.value, "actor": actor or built.signer_subject.strip(),
                 "at": row.issued_at,
                 "detail": detail or f"Emitido sob o nº {formatted}, série {series}."}
        if session.get_bind().dialect.name == "postgresql":
            insert_with_event(session, row, event)  # the row and its first event: one WITH
        else:  # one plain INSERT (not kept in the session), then its first event
            insert_row(session, row)
            session.execute(_ISSUED, {"document_id": row.id, **event})
        # The act's effects on the licensing state commit with its record, or neither.
        self.apply_effects(session, row)
        return row

    @staticmethod
    def _build(build: Callable[[int, str], Built], number: int, formatted: str) -> Built:
        try:
            built = build(number, formatted)
        except LavraError:
            raise
        except Exception as error:
            raise LavraError(
                f"Falha ao gerar o documento nº {formatted} ({type(error).__name__}: {error}); "
                "nenhum número foi consumido."
            ) from error
        return _check_built(built, formatted)

    @staticmethod
    def _new_row(
        series: str,
        year: int,
        number: int,
        form: str,
        built: Built,
        key: str | None,
        request: str | None,
        formatted: str,
    ) -> DocumentRow:
        data = _to_json(built.data, "dados")
        computed = _to_json(built.computed, "valores calculados")
        try:
            holder = normalize_cpf_cnpj(built.cpf_cnpj) if built.cpf_cnpj else None
            plate = normalize_plate(built.placa) if built.placa else None
        except InputError as error:
            raise LavraError(f"Documento nº {formatted}: {error.message}") from None
        return DocumentRow(
            series=series,
            year=year,
            number=number,
            form=form,
            data=data,
            computed=computed,
            reference_date=built.reference_date,
            valid_until=_valid_until(built.computed),
            sha256=hashlib.sha256(built.pdf).hexdigest(),
            verification_code=built.verification_code.strip(),
            signer_subject=built.signer_subject.strip(),
            signer_name=subject_cn(built.signer_subject.strip()),
            signer_serial=built.signer_serial.strip(),
            pack_version=built.pack_version.strip(),
            issued_at=(built.issued_at or datetime.now(UTC)).astimezone(UTC),
            status=Status.ISSUED.value,
            idempotency_key=key,
            request_sha256=(request or _fingerprint(built.data)) if key is not None else None,
            pdf=built.pdf,
            docx=built.docx,
            cpf_cnpj=holder,
            placa=plate,
        )

    def by_key(self, key: str) -> IssuedRecord | None:
        """The document issued under the idempotency key ``key``, if any."""
        found = self._by_key(key)
        return None if found is None else found[0]

    def _by_key(self, key: str) -> tuple[IssuedRecord, str | None] | None:
        with self.database_errors(), self.read_session() as session:
            return _key_lookup(session, key)

    def next_number(self, series: str, year: int) -> int:
        """The number the next document of ``series``/``year`` would get (not reserved)."""
        series, year = check_series(series), check_year(year)
        with self.database_errors(), self.read_session() as session:
            last = session.scalar(
                select(CounterRow.last_number).where(
                    CounterRow.series == series, CounterRow.year == year
                )
            )
        return (last or 0) + 1

    # ------------------------------------------------------------ cancelling, events
    def cancel(
        self, series: str, year: int, number: int, *, reason: str, by: str
    ) -> IssuedRecord:
        """Cancel an issued document: it stays in the registry with the reason."""
        series, year, number = check_series(series), check_year(year), check_number(number)
        why = check_text(reason, "o motivo do cancelamento", "/motivo", 2000)
        who = check_text(by, "quem cancela o documento", "/responsavel", 200)
        formatted = format_number(number, year)
        with self.database_errors(), self.write_session() as session:
            row = session.scalars(
                select(DocumentRow).where(
                    DocumentRow.series == series,
                    DocumentRow.year == year,
                    DocumentRow.number == number,
                )
            ).one_or_none()
            if row is None:
                raise InputError(
                    f"Documento nº {formatted} da série {series} não consta do registro.",
                    field="/numero",
                )
            # Locked and read again: a cancellation or a citing act committed meanwhile
            # is seen below.
            row = locked(session, row)
            if row.status == Status.CANCELLED.value:
                raise InputError(
                    f"O documento nº {formatted} da série {series} já foi cancelado em "
                    f"{_local_text(row.cancelled_at)} por {row.cancelled_by}.",
                    field="/numero",
                )
            # Its effects on the licensing state are undone with it (or the cancellation
            # is refused while a later act rests on them).
            self.undo_effects(session, row)
            # A number reserved with it and never issued is voided with the reason.
            void_companions(session, (row.series, row.year, row.number), reason=why, by=who)
            now = datetime.now(UTC)
            row.status = Status.CANCELLED.value
            row.cancel_reason, row.cancelled_by, row.cancelled_at = why, who, now
            session.add(
                EventRow(
                    document_id=row.id,
                    kind=EventKind.CANCELLED.value,
                    actor=who,
                    at=now,
                    detail=why,
                )
            )
            session.flush()
            return record_of(row)

    def record_event(
        self, document_id: int, kind: str, actor: str, detail: str | None = None
    ) -> Event:
        """Add a step to a document's history (e.g. ``verified`` by the public page)."""
        ident = check_ident(document_id)
        what = check_text(kind, "o tipo de evento", "/evento", 40)
        who = check_text(actor, "o autor do evento", "/responsavel", 500)
        note = (None if detail is None
                else check_text(detail, "o detalhe do evento", "/detalhe", 4000))
        with self.database_errors(), self.write_session() as session:
            if session.get(DocumentRow, ident) is None:
                raise InputError(f"Documento {ident} não consta do registro.", field="/documento")
            now = datetime.now(UTC)
            row = EventRow(document_id=ident, kind=what, actor=who, at=now, detail=note)
            session.add(row)
            session.flush()
            return event_of(row)

    def history(self, document_id: int) -> tuple[Event, ...]:
        """The document's events, oldest first."""
        ident = check_ident(document_id)
        with self.database_errors(), self.read_session() as session:
            if session.get(DocumentRow, ident) is None:
                raise InputError(f"Documento {ident} não consta do registro.", field="/documento")
            rows = session.scalars(
                select(EventRow)
                .where(EventRow.document_id == ident)
                .order_by(EventRow.at, EventRow.id)
            ).all()
            return tuple(event_of(row) for row in rows)



def _local_text(moment: datetime | None) -> str:
    if moment is None:
        return "data desconhecida"
    return moment.astimezone(LOCAL_TZ).strftime("%d/%m/%Y %H:%M")



def open_registry(url: str) -> Registry:
    """Open (and migrate to head) the registry at ``url``: SQLite file or PostgreSQL."""
    engine = engine_for(url)
    try:
        migrate(engine)
    except Conflict as conflict:
        engine.dispose()
        raise LavraError(f"Falha ao preparar o registro de documentos: {conflict.what}.") from None
    except LavraError:
        engine.dispose()
        raise
    except Exception as error:  # alembic reports script problems with its own errors
        engine.dispose()
        raise LavraError(
            f"Falha ao preparar o registro de documentos ({type(error).__name__}: {error})."
        ) from None
    return Registry(engine)


def open_default_registry(data_dir: Path) -> Registry:
    """The registry named by ``LAVRA_DATABASE_URL``, else ``<data_dir>/registro.sqlite3``."""
    return open_registry(database_url(data_dir))
