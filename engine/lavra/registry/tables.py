"""The registry's tables: documents, counters (one per series and year), events and
the values staff keep over the pack's data.

The ORM classes here are what the Alembic migrations of :mod:`lavra.registry.migrations`
build; ``metadata`` is what ``env.py`` compares against when a revision is written.
Instants are stored in UTC on every backend (:class:`UTCDateTime`).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    Date,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from lavra.registry.name_index import folded_default

__all__ = [
    "NAMING_CONVENTION", "BarRow", "Base", "BatchItemRow", "BatchRunRow", "CounterRow",
    "DocumentRow", "DraftRow", "DriverRow", "EventRow", "FilingAttachmentRow",
    "FilingProgressRow", "FilingReviewRow", "FilingRow", "LicenceRow", "PartyNameRow",
    "PartyRow", "ProcessoActRow", "ProcessoLinkRow", "ProcessoRow", "StaffValueRow",
    "StateChangeRow", "StateMetaRow", "UTCDateTime", "VehicleRow", "VoidedNumberRow", "metadata",
]

# ============================================================================ schema
class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware instant stored in UTC on every backend.

    SQLite has no timezone type: the UTC wall time is stored and UTC is attached again
    when read back. PostgreSQL stores ``timestamptz``.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the registry")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class DocumentRow(Base):
    """One issued document, as issued (data, computed values, files) and its status."""

    __tablename__ = "documents"
    __table_args__ = (
        UniqueConstraint("series", "year", "number"),
        # A number cited without its series (0007/2026, "history.document"): indexed.
        Index("ix_documents_number_year", "number", "year"),
        CheckConstraint("status IN ('issued', 'cancelled')", name="status"),
        CheckConstraint("number > 0", name="number_positive"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series: Mapped[str] = mapped_column(String(40))
    year: Mapped[int] = mapped_column(Integer, index=True)  # the year-only filter
    number: Mapped[int] = mapped_column(Integer)
    form: Mapped[str] = mapped_column(String(120), index=True)
    data: Mapped[Any] = mapped_column(JSON)
    computed: Mapped[Any] = mapped_column(JSON)
    reference_date: Mapped[date] = mapped_column(Date, index=True)
    valid_until: Mapped[date | None] = mapped_column(Date, index=True)
    sha256: Mapped[str] = mapped_column(String(64))
    verification_code: Mapped[str] = mapped_column(String(64), unique=True)
    signer_subject: Mapped[str] = mapped_column(String(500))
    signer_name: Mapped[str | None] = mapped_column(String(500), index=True)
    """The certificate's CN, unescaped (the signer filter); None when the subject has
    none (an imported act)."""
    signer_serial: Mapped[str] = mapped_column(String(100))
    pack_version: Mapped[str] = mapped_column(String(100))
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    status: Mapped[str] = mapped_column(String(12))
    cancel_reason: Mapped[str | None] = mapped_column(Text)
    cancelled_by: Mapped[str | None] = mapped_column(String(200))
    cancelled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    idempotency_key: Mapped[str | None] = mapped_column(String(200), unique=True)
    request_sha256: Mapped[str | None] = mapped_column(String(64))
    pdf: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    docx: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    cpf_cnpj: Mapped[str | None] = mapped_column(String(14), index=True)
    placa: Mapped[str | None] = mapped_column(String(7), index=True)
    origin: Mapped[str | None] = mapped_column(Text)
    """An act from before lavra, imported: where it came from (file and line); its
    ``pdf`` is empty. None for a document lavra issued."""


class CounterRow(Base):
    """The last number taken in one series and year."""

    __tablename__ = "counters"
    __table_args__ = (CheckConstraint("last_number >= 0", name="last_number_not_negative"),)

    series: Mapped[str] = mapped_column(String(40), primary_key=True)
    year: Mapped[int] = mapped_column(Integer, primary_key=True)
    last_number: Mapped[int] = mapped_column(Integer)


class EventRow(Base):
    """One step of a document's history: issued, cancelled, verified..."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), index=True)
    kind: Mapped[str] = mapped_column(String(40))
    actor: Mapped[str] = mapped_column(String(500))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    detail: Mapped[str | None] = mapped_column(Text)
    occurred_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    """When the recorded fact happened (a ciência, a notice received, a payment), as
    opposed to ``at``, when it was recorded; ``None`` for the registry's own steps."""
    data: Mapped[Any | None] = mapped_column(JSON)
    """Structured content of a recorded fact (e.g. the means of a notice)."""


class StaffValueRow(Base):
    """A value staff keep over the pack's shipped data, with the act that fixed it.

    ``kind`` says what it overlays (a calendar day, a parameter period); ``key`` names
    it (an ISO date, a parameter name); ``value`` is its JSON content; ``since`` and
    ``until`` bound its validity. Rows are never deleted: a wrong one is revoked, with
    who, when and why.
    """

    __tablename__ = "staff_values"
    __table_args__ = (
        CheckConstraint("revoked_at IS NULL OR revoked_by IS NOT NULL", name="revoked_by"),
        # One row in force per day, or per parameter and year (revoked rows do not count).
        Index("uq_staff_values_in_force", "kind", "key", "since", unique=True,
              sqlite_where=text("revoked_at IS NULL"),
              postgresql_where=text("revoked_at IS NULL")),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(40), index=True)
    key: Mapped[str] = mapped_column(String(200), index=True)
    value: Mapped[Any] = mapped_column(JSON)
    since: Mapped[date | None] = mapped_column(Date)
    until: Mapped[date | None] = mapped_column(Date)
    act: Mapped[str] = mapped_column(Text)
    recorded_by: Mapped[str] = mapped_column(String(500))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_by: Mapped[str | None] = mapped_column(String(500))
    revoke_reason: Mapped[str | None] = mapped_column(Text)


class BatchRunRow(Base):
    """One planned batch run (:mod:`lavra.registry.runs`): its kind, the key naming it
    (what it renews), the fingerprint of its inputs, its reference date and the year of
    the series its numbers were reserved in."""

    __tablename__ = "batch_runs"
    __table_args__ = (CheckConstraint("status IN ('planned', 'done')", name="status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(80))
    key: Mapped[str] = mapped_column(String(200), index=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    params: Mapped[Any] = mapped_column(JSON)
    reference_date: Mapped[date] = mapped_column(Date)
    year: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12))
    actor: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class BatchItemRow(Base):
    """One output of a batch run, in input order (``position``, then ``seq``): a
    document under the number the plan reserved, an unsigned companion file, or a
    refused record with its reason."""

    __tablename__ = "batch_items"
    __table_args__ = (
        UniqueConstraint("run_id", "position", "seq"),
        UniqueConstraint("series", "year", "number"),
        CheckConstraint("status IN ('pending', 'done', 'abandoned')", name="status"),
        CheckConstraint("role IN ('documento', 'anexo', 'recusado')", name="role"),
        # The claim takes the first pending item of a run in plan order through this
        # index, whatever the number of items done (migration 0008).
        Index("ix_batch_items_pending", "run_id", "position", "seq",
              sqlite_where=text("status = 'pending'"),
              postgresql_where=text("status = 'pending'")),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("batch_runs.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    holder: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(200))
    outcome: Mapped[str] = mapped_column(String(40))
    role: Mapped[str] = mapped_column(String(12))
    form: Mapped[str | None] = mapped_column(String(120))
    series: Mapped[str | None] = mapped_column(String(40))
    year: Mapped[int | None] = mapped_column(Integer)
    number: Mapped[int | None] = mapped_column(Integer)
    data: Mapped[Any | None] = mapped_column(JSON)
    reason: Mapped[str | None] = mapped_column(Text)
    file: Mapped[str | None] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(12), index=True)
    document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    content: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    done_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    failed_field: Mapped[str | None] = mapped_column(String(500))
    """The field its last failure named (a JSON pointer into ``data``), if any."""
    filing_id: Mapped[int | None] = mapped_column(ForeignKey("filings.id"), index=True)
    """The filing the item answers, held while it is pending (registry.filing_holds)."""


class BatchCorrectionRow(Base):
    """One field of a batch item's data corrected by staff before the run resumes: the
    pointer, the value before and after (``op`` ``replace`` or ``remove``), who and when
    (:mod:`lavra.registry.corrections`). The item keeps its reserved number."""

    __tablename__ = "batch_corrections"
    __table_args__ = (CheckConstraint("op IN ('replace', 'remove')", name="op"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("batch_items.id"), index=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("batch_runs.id"), index=True)
    pointer: Mapped[str] = mapped_column(String(500))
    op: Mapped[str] = mapped_column(String(12))
    previous: Mapped[Any | None] = mapped_column(JSON)
    value: Mapped[Any | None] = mapped_column(JSON)
    failure: Mapped[str | None] = mapped_column(Text)
    """The item's failure the correction answered, as staff read it."""
    corrected_by: Mapped[str] = mapped_column(String(200))
    corrected_at: Mapped[datetime] = mapped_column(UTCDateTime)


class VoidedNumberRow(Base):
    """A number taken from a series counter that will never be issued, voided by a
    recorded act (numeração inutilizada): the reason, who decided and when, and the
    batch run that had reserved it, if any. With the documents, it keeps every number
    up to the counter explained (:meth:`lavra.registry.voiding.RegistryVoids.numbering_gaps`)."""

    __tablename__ = "voided_numbers"
    __table_args__ = (
        UniqueConstraint("series", "year", "number"),
        CheckConstraint("number > 0", name="number_positive"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series: Mapped[str] = mapped_column(String(40))
    year: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text)
    voided_by: Mapped[str] = mapped_column(String(200))
    voided_at: Mapped[datetime] = mapped_column(UTCDateTime)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("batch_runs.id"), index=True)


class BatchRenewalRow(Base):
    """What a batch run planned for a holder (lavra.registry.once): the run's key (its
    kind and period), the holder and the outcome (renewed, notified...). Unique: the
    same renewal, or the same notice, is planned once, by whichever run inserts it
    first, whatever the inputs or the processes racing (migration 0008)."""

    __tablename__ = "batch_renewals"
    __table_args__ = (UniqueConstraint("key", "holder", "outcome"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200))
    holder: Mapped[str] = mapped_column(String(200))
    outcome: Mapped[str] = mapped_column(String(40))
    run_id: Mapped[int] = mapped_column(ForeignKey("batch_runs.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)


# ============================================================================ licensing state
# The current view of the licensing state (lavra.registry.state): derived from the
# issued acts, rebuilt from them by ``lavra cadastro reconstruir``.


class PartyRow(Base):
    """A person (CPF) or company (CNPJ) the acts name; ``name`` the last one registered."""

    __tablename__ = "parties"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    doc: Mapped[str] = mapped_column(String(14), unique=True)
    name: Mapped[str | None] = mapped_column(String(300))


class PartyNameRow(Base):
    """Each name a CPF or CNPJ was registered under, with the act that first used it."""

    __tablename__ = "party_names"
    __table_args__ = (UniqueConstraint("party_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    party_id: Mapped[int] = mapped_column(ForeignKey("parties.id"), index=True)
    name: Mapped[str] = mapped_column(String(300))
    document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    since: Mapped[date | None] = mapped_column(Date)
    search_name: Mapped[str] = mapped_column(Text, default=folded_default)  # name_index


class VehicleRow(Base):
    """A vehicle by its plate, with its RENAVAM (a RENAVAM on one plate: races end here)."""

    __tablename__ = "vehicles"
    __table_args__ = (Index("uq_vehicles_renavam", "renavam", unique=True, sqlite_where=text(
        "renavam IS NOT NULL"), postgresql_where=text("renavam IS NOT NULL")),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    placa: Mapped[str] = mapped_column(String(7), unique=True)
    renavam: Mapped[str | None] = mapped_column(String(11))


class DriverRow(Base):
    """A driver by the number of the CNH, and the person who holds it."""

    __tablename__ = "drivers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    cnh: Mapped[str] = mapped_column(String(20), unique=True)
    party_id: Mapped[int | None] = mapped_column(ForeignKey("parties.id"), index=True)


class LicenceRow(Base):
    """An alvará, licença, autorização or selo: its act, holder, vehicle, driver, validity,
    status, the licence it rests on, its facts (:mod:`lavra.registry.licence_facts`)."""
    __tablename__ = "licences"
    __table_args__ = (
        # One licence in force per vehicle in its group (operating alvarás), and per
        # holder in its group (one school licence per person): races end here.
        Index("uq_licences_vehicle_in_force", "vehicle_id", "exclusive", unique=True,
              sqlite_where=text("status = 'active' AND exclusive IS NOT NULL"),
              postgresql_where=text("status = 'active' AND exclusive IS NOT NULL")),
        Index("uq_licences_holder_in_force", "holder_id", "per_holder", unique=True,
              sqlite_where=text("status = 'active' AND per_holder IS NOT NULL"),
              postgresql_where=text("status = 'active' AND per_holder IS NOT NULL")),
        Index("ix_licences_kind_valid_until", "kind", "valid_until"),  # due: a run's holders
        Index("ix_licences_holder_id_kind", "holder_id", "kind"),  # a holder's, of a kind
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), unique=True)
    kind: Mapped[str] = mapped_column(String(120), index=True)
    printed: Mapped[str] = mapped_column(String(80))
    holder_id: Mapped[int | None] = mapped_column(ForeignKey("parties.id"))
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"), index=True)
    driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"), index=True)
    base_id: Mapped[int | None] = mapped_column(ForeignKey("licences.id"), index=True)
    valid_from: Mapped[date] = mapped_column(Date)
    valid_until: Mapped[date | None] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(20), index=True)
    status_document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    status_since: Mapped[date | None] = mapped_column(Date)
    exclusive: Mapped[str | None] = mapped_column(String(60))
    """The group in which a vehicle holds one licence at a time (operating alvarás)."""
    per_holder: Mapped[str | None] = mapped_column(String(60))
    """The group in which a person holds one licence at a time (school licences)."""
    facts: Mapped[Any | None] = mapped_column(JSON)


class BarRow(Base):
    """A bar on a party (the impedimento after a cassação), until a date."""

    __tablename__ = "bars"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    party_id: Mapped[int] = mapped_column(ForeignKey("parties.id"), index=True)
    scope: Mapped[str] = mapped_column(String(60))
    until: Mapped[date] = mapped_column(Date)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), index=True)
    citation: Mapped[str | None] = mapped_column(String(200))


class ProcessoRow(Base):
    """An administrative process tying requerimentos and acts together: its number in
    lavra (the protocol's) and the municipality's PA number staff linked to it, one PA
    to one processo (migration 0021; :mod:`lavra.registry.processos`)."""

    __tablename__ = "processos"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    numero: Mapped[str] = mapped_column(String(80), unique=True)
    pa: Mapped[str | None] = mapped_column(String(80), unique=True)


class ProcessoLinkRow(Base):
    """Staff linked the PA ``pa`` to a processo: who and when (migration 0021). The
    processo's ``pa`` is its last link's; a rebuild of the state reads it from here."""

    __tablename__ = "processo_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    processo_id: Mapped[int] = mapped_column(ForeignKey("processos.id"), index=True)
    pa: Mapped[str] = mapped_column(String(80))
    linked_by: Mapped[str] = mapped_column(String(200))
    linked_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ProcessoActRow(Base):
    __tablename__ = "processo_acts"
    __table_args__ = (UniqueConstraint("processo_id", "document_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    processo_id: Mapped[int] = mapped_column(ForeignKey("processos.id"), index=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), index=True)


class StateChangeRow(Base):
    """One change an act made to the state: what it did, to which licence or party,
    and what the licence was before (so that cancelling the act can undo it)."""

    __tablename__ = "state_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), index=True)
    kind: Mapped[str] = mapped_column(String(40))
    licence_id: Mapped[int | None] = mapped_column(ForeignKey("licences.id"), index=True)
    party_id: Mapped[int | None] = mapped_column(ForeignKey("parties.id"), index=True)
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"), index=True)
    on: Mapped[date] = mapped_column(Date)
    detail: Mapped[str] = mapped_column(Text)
    before: Mapped[Any | None] = mapped_column(JSON)


class StateMetaRow(Base):
    """Facts about the view itself (when it was last built from the acts)."""

    __tablename__ = "state_meta"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


metadata = Base.metadata


class DraftRow(Base):
    """A draft staff keep before issuing (lavra.registry.drafts): the form, the data as
    typed, a title staff see, who created and last changed it and when, its status, the
    signer role it goes to, the document issued from it, and the version an update must
    name (optimistic check: a stale save is refused). Migration 0009; the signing
    queue's columns (the signer account, who forwarded and when, a return): 0011."""

    __tablename__ = "drafts"
    __table_args__ = (
        CheckConstraint("status IN ('rascunho', 'encaminhado', 'emitido', 'descartado')",
                        name="status"),
        CheckConstraint("version > 0", name="version_positive"),
        Index("ix_drafts_status_form", "status", "form"),
        Index("ix_drafts_status_signer_role", "status", "signer_role"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    form: Mapped[str] = mapped_column(String(100))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    title: Mapped[str] = mapped_column(String(300))
    status: Mapped[str] = mapped_column(String(20))
    signer_role: Mapped[str | None] = mapped_column(String(100))
    document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    created_by: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_by: Mapped[str] = mapped_column(String(200))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    version: Mapped[int] = mapped_column(Integer)
    # the signing queue (migration 0011)
    signer_account: Mapped[str | None] = mapped_column(String(80))
    forwarded_by: Mapped[str | None] = mapped_column(String(200))
    forwarded_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    returned_reason: Mapped[str | None] = mapped_column(String(1000))
    returned_by: Mapped[str | None] = mapped_column(String(200))
    returned_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class FilingRow(Base):
    """A requerimento filed online (lavra.registry.filings): its protocol number (the
    receipt's number in the protocol series), the form, the data as filed, who filed it,
    when, its status, and the processo it opened. Migration 0012; the statuses of the
    staff inbox (em análise, pendente, decidido): 0013."""

    __tablename__ = "filings"
    __table_args__ = (CheckConstraint(
        "status IN ('recebido', 'em_analise', 'pendente', 'decidido')", name="status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    receipt_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), unique=True)
    protocol: Mapped[str] = mapped_column(String(80), unique=True)
    form: Mapped[str] = mapped_column(String(100), index=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    cpf_cnpj: Mapped[str] = mapped_column(String(14), index=True)
    name: Mapped[str] = mapped_column(String(300))
    filed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(String(20))
    complete: Mapped[bool] = mapped_column()
    pending: Mapped[list[str]] = mapped_column(JSON)
    processo_id: Mapped[int] = mapped_column(ForeignKey("processos.id"), index=True)
    party_id: Mapped[int] = mapped_column(ForeignKey("parties.id"), index=True)
    licence_id: Mapped[int | None] = mapped_column(ForeignKey("licences.id"), index=True)


class FilingAttachmentRow(Base):
    """One document attached to a filing, kept in the database (every web worker reads
    the same bytes): the checklist item it answers, the name it was sent under, the type
    read from its bytes, its size and SHA-256. Migration 0012. A document the applicant
    sent again in place of a refused one names the one it replaces and when it came
    (null for those sent with the filing). Migration 0016."""

    __tablename__ = "filing_attachments"
    __table_args__ = (CheckConstraint("size > 0", name="size_positive"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    filing_id: Mapped[int] = mapped_column(ForeignKey("filings.id"), index=True)
    item: Mapped[str] = mapped_column(String(300))
    original_name: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str] = mapped_column(String(40))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    content: Mapped[bytes] = mapped_column(LargeBinary)
    replaces_id: Mapped[int | None] = mapped_column(ForeignKey("filing_attachments.id"),
                                                    index=True, unique=True)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class FilingReviewRow(Base):
    """A staff review of one attachment of a filing (lavra.registry.inbox): accepted or
    refused, the reason (a refusal always has one), who and when. Every review is kept;
    the last one of an attachment is its standing. Migration 0013."""

    __tablename__ = "filing_reviews"
    __table_args__ = (
        CheckConstraint("decision IN ('aceito', 'recusado')", name="decision"),
        CheckConstraint("decision = 'aceito' OR reason IS NOT NULL", name="refusal_reason"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    filing_id: Mapped[int] = mapped_column(ForeignKey("filings.id"), index=True)
    attachment_id: Mapped[int] = mapped_column(ForeignKey("filing_attachments.id"),
                                               index=True)
    decision: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str | None] = mapped_column(String(1000))
    reviewed_by: Mapped[str] = mapped_column(String(200))
    reviewed_at: Mapped[datetime] = mapped_column(UTCDateTime)


class FilingProgressRow(Base):
    """Where the staff's handling of a filing stands (lavra.registry.inbox): what is
    missing and the last day to supply it while it is pendente, the draft of the act
    prepared from it, and the act that decided it. Migration 0013; the ciência of the
    refusal, migration 0022."""

    __tablename__ = "filing_progress"

    filing_id: Mapped[int] = mapped_column(ForeignKey("filings.id"), primary_key=True)
    missing: Mapped[list[str]] = mapped_column(JSON)
    deadline: Mapped[date | None] = mapped_column(Date)
    draft_id: Mapped[int | None] = mapped_column(ForeignKey("drafts.id"), index=True)
    act_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_by: Mapped[str] = mapped_column(String(200))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ciencia_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ciencia_means: Mapped[str | None] = mapped_column(String(20))
    ciencia_by: Mapped[str | None] = mapped_column(String(200))
