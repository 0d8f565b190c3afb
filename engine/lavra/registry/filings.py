"""Requerimentos filed online: the protocol number, the receipt, the attachments, the processo.

    filings = Filings(registry)
    filed = filings.file(FilingInput(...), build)   # one transaction
    filed.protocol                                   # "PROT nº 0001/2026"
    filings.by_protocol("PROT nº 0001/2026")
    filings.find("0001/2026", "65.563.842/0001-05", series="PROT")  # the tracking page
    filings.acts(filed)                              # what the processo holds since

A filing may carry an idempotency ``token`` (the web form issues one with the page): a
second filing with the same token returns the first (no new number), so a double click
or a resent request protocols once. The token is kept as the receipt's idempotency key
(``protocolo:<token>`` in ``documents.idempotency_key``, unique), so no column of its own
is needed; the counter's lock serializes two concurrent sends of the same token.

Filing is one write transaction, as issuing is (:mod:`lavra.registry.store`): the
counter of the protocol series and year is locked, the next number is handed to
``build`` (which renders and seals the receipt, the comprovante de protocolo, with that
number and its verification code), and the receipt (a document of the registry, so
that the public verification page finds its code), the filing, its attachments (bytes
included: every web worker and machine reads the same files), the party and the
processo the protocol opens commit together, or nothing does and the number stays
free. Numbers are gap-free on SQLite and PostgreSQL for the same reason as the acts'.

The registry knows no law: which form may be filed, what the checklist asks and what
is pending are the caller's to decide.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from lavra.errors import InputError, LavraError
from lavra.inputs.reading import parse_data
from lavra.registry.act_dates import order_by_act
from lavra.registry.database import Conflict
from lavra.registry.records import (
    LOCAL_TZ,
    Built,
    IssuedRecord,
    Status,
    check_series,
    check_text,
    format_number,
    normalize_cpf_cnpj,
    printed_number,
    record_of,
)
from lavra.registry.state import StateWriter, normalize_processo
from lavra.registry.store import Registry
from lavra.registry.tables import (
    DocumentRow,
    FilingAttachmentRow,
    FilingRow,
    LicenceRow,
    PartyNameRow,
    PartyRow,
    ProcessoActRow,
    ProcessoRow,
)

__all__ = [
    "RECEIVED",
    "Attachment",
    "Filed",
    "FilingInput",
    "Filings",
    "StoredAttachment",
    "parse_protocol",
    "sniff_type",
]

RECEIVED = "recebido"
#: The content types an attachment may have, read from its first bytes (never its name).
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "application/pdf"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
)


def sniff_type(content: bytes) -> str | None:
    """``application/pdf``, ``image/png`` or ``image/jpeg`` from the file's first bytes;
    None for anything else. A PDF's header may follow a little junk (readers accept up
    to 1 KiB of it), images must start with their signature."""
    for magic, kind in _SIGNATURES:
        if content.startswith(magic):
            return kind
    if b"%PDF-" in content[:1024]:
        return "application/pdf"
    return None


@dataclass(frozen=True)
class Attachment:
    """A document attached to a filing, as received: the checklist item it answers
    (a JSON pointer of the form's data, e.g. ``/documentos/crlv``), the name it was
    sent under, and its bytes."""

    item: str
    name: str
    content: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.content).hexdigest()

    @property
    def size(self) -> int:
        return len(self.content)

    @property
    def content_type(self) -> str:
        kind = sniff_type(self.content)
        if kind is None:
            raise InputError(
                f"O arquivo «{self.name}» não é PDF, PNG nem JPEG (o tipo é lido do "
                "conteúdo do arquivo, não do nome).", field=self.item)
        return kind


@dataclass(frozen=True)
class StoredAttachment:
    """An attachment as kept; ``replaces``/``sent_at``: for a document the applicant sent
    again in place of a refused one, that one's id and when it came (None otherwise)."""

    id: int
    item: str
    name: str
    content_type: str
    size: int
    sha256: str
    replaces: int | None = None
    sent_at: datetime | None = None

    @property
    def sent_at_local(self) -> datetime | None:
        return self.sent_at.astimezone(LOCAL_TZ) if self.sent_at is not None else None


@dataclass(frozen=True)
class FilingInput:
    """What the applicant files: the protocol ``series``, the form, the data, who files
    it (CPF/CNPJ and name), the attachments, what the report leaves pending (empty when
    complete), the printed number of the licence it concerns, if any, and the
    idempotency ``token`` of the page it was sent from, if any."""

    series: str
    form: str
    data: dict[str, object]
    cpf_cnpj: str
    name: str
    attachments: tuple[Attachment, ...]
    pending: tuple[str, ...] = ()
    licence: str | None = None
    token: str | None = None
    processo: str | None = None
    """The number of a processo already open (a recurso joins the processo of the act it
    appeals); None: the protocol opens its own, numbered after it."""
    title: str = ""
    """The form's title as the applicant reads it, for the registry's event (the form's
    id when absent: callers of the API that give none)."""
    max_attachment_bytes: int = 10 * 1024 * 1024
    max_total_bytes: int = 25 * 1024 * 1024
    max_attachments: int = 30


@dataclass(frozen=True)
class Filed:
    """A filing as the registry holds it."""

    id: int
    protocol: str
    form: str
    data: dict[str, object]
    cpf_cnpj: str
    name: str
    filed_at: datetime
    status: str
    complete: bool
    pending: tuple[str, ...]
    processo: str
    licence: str | None
    receipt: IssuedRecord
    attachments: tuple[StoredAttachment, ...]
    pa: str | None = None
    """The municipality's PA number staff linked to the processo, if any
    (:mod:`lavra.registry.processos`)."""

    @property
    def filed_at_local(self) -> datetime:
        return self.filed_at.astimezone(LOCAL_TZ)


Build = Callable[[int, str, datetime], Built]
"""``build(number, printed, filed_at)``: the sealed receipt that carries the protocol."""


def _checked(entry: FilingInput) -> tuple[FilingInput, dict[str, object], str, str]:
    entry = replace(entry, series=check_series(entry.series),
                    form=check_text(entry.form, "o formulário", "/formulario", 100))
    doc = normalize_cpf_cnpj(entry.cpf_cnpj)
    name = " ".join(check_text(entry.name, "o nome do requerente", "/requerente_nome",
                               300).split())
    data = parse_data(json.dumps(entry.data, ensure_ascii=False), source="do requerimento")
    if len(entry.attachments) > entry.max_attachments:
        raise InputError(f"Anexe no máximo {entry.max_attachments} arquivos.", field="/anexos")
    total = 0
    for attachment in entry.attachments:
        if not attachment.content:
            raise InputError(f"O arquivo «{attachment.name}» está vazio.", field=attachment.item)
        if attachment.size > entry.max_attachment_bytes:
            raise InputError(
                f"O arquivo «{attachment.name}» excede o tamanho máximo de "
                f"{_mib(entry.max_attachment_bytes)} por arquivo.", field=attachment.item)
        attachment.content_type  # noqa: B018 - refuses what is not PDF, PNG or JPEG
        check_text(attachment.item, "o item da lista de documentos", "/anexos", 300)
        check_text(attachment.name, "o nome do arquivo", attachment.item, 255)
        total += attachment.size
    if total > entry.max_total_bytes:
        raise InputError(
            f"Os arquivos anexados somam mais que o máximo de {_mib(entry.max_total_bytes)} "
            "por requerimento.", field="/anexos")
    return entry, data, doc, name


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.0f} MiB".replace(".", ",")


class Filings:
    """Files requerimentos and reads them back, over one registry."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    def file(self, entry: FilingInput, build: Build, *, receipt_form: str,
             now: datetime | None = None) -> Filed:
        """Number, seal and record the filing, its receipt, attachments and processo.

        ``receipt_form``: the form id the receipt is recorded under; ``now`` (tests and
        demos only): the moment of filing, default the real time."""
        entry, data, doc, name = _checked(entry)
        key = _token_key(entry.token)
        if key is not None:
            earlier = self._by_key(key, doc)
            if earlier is not None:
                return earlier
        moment = (now or datetime.now(UTC)).astimezone(UTC)
        year = moment.astimezone(LOCAL_TZ).year
        licence_document = None
        if entry.licence:
            view = self.registry.licence_by_number(entry.licence)
            # A licence held by another CPF/CNPJ answers as an unknown one: the filer
            # learns neither that it exists nor whose it is.
            if view is None or view.document_id is None or (
                    view.holder is not None and view.holder != doc):
                raise InputError(
                    f"A licença «{entry.licence}» não consta do cadastro em nome do CPF/CNPJ "
                    "do requerente. Confira o número.", field="/licenca")
            licence_document = view.document_id
        registry = self.registry
        try:
            with registry.database_errors(), registry.write_session() as session:
                counter = registry.lock_counter(session, entry.series, year)
                if key is not None:
                    found = session.scalars(select(FilingRow).join(
                        DocumentRow, DocumentRow.id == FilingRow.receipt_id).where(
                        DocumentRow.idempotency_key == key)).one_or_none()
                    if found is not None:
                        return self._same_filer(self._filed(session, found), doc)
                number = counter.last_number + 1
                printed = printed_number(entry.series, number, year)
                built = registry._build(
                    lambda n, formatted: build(n, printed, moment), number,
                    format_number(number, year))
                receipt = registry.record_reserved(
                    session, entry.series, year, number, receipt_form, built, key=key,
                    actor=name,
                    detail=f"Protocolo nº {format_number(number, year)}, série "
                    f"{entry.series}: {entry.title or f'requerimento «{entry.form}»'} recebido.")
                counter.last_number = number
                writer = StateWriter(session)
                party = writer._upsert(PartyRow, PartyRow.doc, doc, {"doc": doc, "name": name})
                if party.name is None:
                    party.name = name
                if session.scalars(select(PartyNameRow.id).where(
                        PartyNameRow.party_id == party.id)).first() is None:
                    # a party not known before: the filing gives its first name
                    session.add(PartyNameRow(
                        party_id=party.id, name=party.name, document_id=receipt.id,
                        since=moment.astimezone(LOCAL_TZ).date()))
                processo = self._processo(session, entry.processo, printed)
                session.add(ProcessoActRow(processo_id=processo.id, document_id=receipt.id))
                licence_id = None
                if licence_document is not None:
                    licence_id = session.scalars(select(LicenceRow.id).where(
                        LicenceRow.document_id == licence_document)).first()
                row = FilingRow(
                    receipt_id=receipt.id, protocol=printed, form=entry.form, data=data,
                    cpf_cnpj=doc, name=name, filed_at=moment, status=RECEIVED,
                    complete=not entry.pending, pending=list(entry.pending),
                    processo_id=processo.id, party_id=party.id, licence_id=licence_id)
                session.add(row)
                session.flush()
                for attachment in entry.attachments:
                    session.add(FilingAttachmentRow(
                        filing_id=row.id, item=attachment.item,
                        original_name=attachment.name, content_type=attachment.content_type,
                        size=attachment.size, sha256=attachment.sha256,
                        content=attachment.content))
                session.flush()
                filed = self._filed(session, row)
        except Conflict as conflict:
            earlier = None if key is None else self._by_key(key, doc)
            if earlier is not None:
                return earlier
            raise LavraError(
                f"Não foi possível protocolar o requerimento: {conflict.what}. Nenhum número "
                "de protocolo foi consumido; envie de novo.") from None
        return filed

    @staticmethod
    def _processo(session: Session, joined: str | None, printed: str) -> ProcessoRow:
        """The processo the filing joins (it must exist), or a new one numbered after
        the protocol."""
        if joined is not None:
            numero = normalize_processo(joined)
            found = session.scalars(select(ProcessoRow).where(
                (ProcessoRow.numero == numero) | (ProcessoRow.pa == numero))
                .order_by(ProcessoRow.pa.is_(None)).limit(1)).first()
            if found is None:
                raise InputError(f"O processo {joined} não consta do registro.",
                                 field="/processo")
            return found
        processo = ProcessoRow(numero=normalize_processo(printed))
        session.add(processo)
        session.flush()
        return processo

    def by_protocol(self, protocol: str) -> Filed | None:
        with self.registry.read_session() as session:
            row = session.scalars(
                select(FilingRow).where(FilingRow.protocol == " ".join(protocol.split()))
            ).one_or_none()
            return None if row is None else self._filed(session, row)

    def find(self, protocol: str, cpf_cnpj: str, *, series: str) -> Filed | None:
        """The filing of protocol ``protocol`` (``PROT nº 0001/2026``, ``PROT 0001/2026``
        or ``0001/2026``, of ``series``) filed by ``cpf_cnpj`` (masked or digits); None
        when either is unknown or they do not belong together (the same answer, so that
        the pair cannot be used to learn which protocols exist)."""
        printed = parse_protocol(protocol, series)
        try:
            doc = normalize_cpf_cnpj(cpf_cnpj)
        except InputError:
            doc = None
        found = None if printed is None else self.by_protocol(printed)
        if found is None or doc is None:
            return None
        return found if hmac.compare_digest(found.cpf_cnpj, doc) else None

    def by_filer(self, cpf_cnpj: str, form: str) -> tuple[Filed, ...]:
        """The filings of ``form`` by ``cpf_cnpj``, oldest first (indexed on the filer)."""
        doc = normalize_cpf_cnpj(cpf_cnpj)
        with self.registry.read_session() as session:
            rows = session.scalars(
                select(FilingRow).where(FilingRow.cpf_cnpj == doc, FilingRow.form == form)
                .order_by(FilingRow.filed_at, FilingRow.id)).all()
            return tuple(self._filed(session, row) for row in rows)

    def acts(self, filed: Filed) -> tuple[IssuedRecord, ...]:
        """The registry's documents tied to the filing's processo (an act whose data names
        the processo's number, :class:`lavra.registry.effects.InProcesso`), its receipt
        left out, cancelled ones included (the caller says so), in the order of their acts'
        dates: an act imported from before lavra at its own date
        (:mod:`lavra.registry.act_dates`), not the day the import wrote it."""
        with self.registry.read_session() as session:
            rows = session.scalars(
                select(DocumentRow).join(ProcessoActRow,
                                         ProcessoActRow.document_id == DocumentRow.id)
                .join(ProcessoRow, ProcessoRow.id == ProcessoActRow.processo_id)
                .where(ProcessoRow.numero == filed.processo,
                       DocumentRow.id != filed.receipt.id)
                .order_by(*order_by_act(newest_first=False))).all()
            return tuple(record_of(row) for row in rows)

    def by_token(self, token: str, cpf_cnpj: str) -> Filed | None:
        """The filing sent earlier with the idempotency ``token`` by ``cpf_cnpj``."""
        key = _token_key(token)
        return None if key is None else self._by_key(key, normalize_cpf_cnpj(cpf_cnpj))

    def _by_key(self, key: str, doc: str) -> Filed | None:
        with self.registry.read_session() as session:
            row = session.scalars(select(FilingRow).join(
                DocumentRow, DocumentRow.id == FilingRow.receipt_id).where(
                DocumentRow.idempotency_key == key)).one_or_none()
            return None if row is None else self._same_filer(self._filed(session, row), doc)

    @staticmethod
    def _same_filer(filed: Filed, doc: str) -> Filed:
        """The earlier filing of the token, when ``doc`` filed it and it stands.

        Reading chosen: a resend after the receipt was cancelled is refused, saying
        which protocol was cancelled, when and why, and to file again from a new page
        (a fresh token): the cancelled receipt is never presented as the filing, and the
        registry does not protocol anew by itself what staff cancelled (an applicant
        who meant it files it again, knowing why it was cancelled)."""
        if filed.cpf_cnpj != doc:
            raise InputError(
                "Este formulário de protocolo já foi enviado por outro requerente. Abra o "
                "requerimento de novo e protocole-o.", field="/documento")
        receipt = filed.receipt
        if receipt.status == Status.CANCELLED:
            when = ("" if receipt.cancelled_at is None else
                    f" em {receipt.cancelled_at.astimezone(LOCAL_TZ):%d/%m/%Y}")
            why = (receipt.cancel_reason or "").strip().rstrip(".")
            raise InputError(
                f"Este formulário já foi protocolado sob o {filed.protocol}, cancelado"
                f"{when}{f' (motivo: {why})' if why else ''}. Para protocolá-lo, abra o "
                "requerimento de novo e envie-o.",
                field="/token")
        return filed

    def by_receipt(self, document_id: int) -> Filed | None:
        """The filing whose receipt is the registry's document ``document_id``."""
        with self.registry.read_session() as session:
            row = session.scalars(
                select(FilingRow).where(FilingRow.receipt_id == document_id)).one_or_none()
            return None if row is None else self._filed(session, row)

    def attachment(self, attachment_id: int) -> tuple[StoredAttachment, bytes] | None:
        with self.registry.read_session() as session:
            row = session.get(FilingAttachmentRow, attachment_id)
            return None if row is None else (_stored(row), row.content)

    @staticmethod
    def _filed(session: Session, row: FilingRow) -> Filed:
        receipt = session.get(DocumentRow, row.receipt_id)
        processo = session.get(ProcessoRow, row.processo_id)
        if receipt is None or processo is None:  # pragma: no cover - foreign keys
            raise LavraError(f"O protocolo {row.protocol} está incompleto no registro.")
        found = None if row.licence_id is None else session.get(LicenceRow, row.licence_id)
        licence = found.printed if found is not None else None
        attachments: Sequence[FilingAttachmentRow] = session.scalars(
            select(FilingAttachmentRow).where(FilingAttachmentRow.filing_id == row.id)
            .order_by(FilingAttachmentRow.id)).all()
        return Filed(
            id=row.id, protocol=row.protocol, form=row.form, data=dict(row.data),
            cpf_cnpj=row.cpf_cnpj, name=row.name, filed_at=row.filed_at, status=row.status,
            complete=row.complete, pending=tuple(row.pending), processo=processo.numero,
            pa=processo.pa, licence=licence, receipt=record_of(receipt),
            attachments=tuple(_stored(a) for a in attachments))


_PROTOCOL = re.compile(
    r"(?:(?P<series>[A-Z][A-Z0-9-]{0,38})\s*(?:N\s*[º°O.]\s*\.?\s*)?)?"
    r"(?P<number>\d{1,6})\s*/\s*(?P<year>\d{4})")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,100}")


def parse_protocol(text: str, series: str) -> str | None:
    """``PROT nº 0001/2026`` from what a person types (``PROT nº 0001/2026``, ``PROT
    0001/2026``, ``prot n. 1/2026``, ``0001/2026``); None when it is no protocol of
    ``series``."""
    found = _PROTOCOL.fullmatch(" ".join(str(text).split()).upper())
    if found is None or (found.group("series") or series) != series:
        return None
    number, year = int(found.group("number")), int(found.group("year"))
    return printed_number(series, number, year) if number > 0 else None


def _token_key(token: str | None) -> str | None:
    if token is None or token == "":
        return None
    if not _TOKEN.fullmatch(token):
        raise InputError("O formulário de protocolo está incompleto. Abra o requerimento de "
                         "novo e protocole-o.", field="/token")
    return f"protocolo:{token}"


def _stored(row: FilingAttachmentRow) -> StoredAttachment:
    return StoredAttachment(id=row.id, item=row.item, name=row.original_name,
                            content_type=row.content_type, size=row.size, sha256=row.sha256,
                            replaces=row.replaces_id, sent_at=row.sent_at)
