"""The requests a run reads from the registry: the requerimentos filed online.

    found = filed_requests(registry, "requerimento-renovacao",
                           since=date(2026, 1, 1), until=date(2026, 12, 6))

Each filing (:mod:`lavra.registry.filings`) of the form ``form`` not yet decided
(received, under review or pending in the staff inbox, :mod:`lavra.registry.inbox`),
filed on a local day from ``since`` to ``until``, becomes a :class:`FiledRequest`, in
the order it was filed (the latest last): its protocol number (the processo it opened,
which the act cites), who filed it, when, the printed number of the licence it is tied
to, the staff's conferência of its attachments (:class:`Conference`: each attachment's
standing review, who accepted the last and when), and its data read again through
the one strict reader of data from outside
(:func:`lavra.inputs.reading.load_json`, :func:`~lavra.inputs.reading.check_values`),
the same rules as a line of a ``--pedidos`` file: a filing the reader refuses keeps
its ``problem`` (a pt-BR reason naming the protocol and the field), for the pack to
fail its item, never to drop it.

Which form a run reads and over which days is the pack's to say (:class:`FiledScope`,
from :meth:`lavra.batch.model.BatchRun.filed`); the engine knows no law.

:func:`filings_stamp` is what of those filings the run's fingerprint covers: each
filing's id and its last change by the applicant or staff (its latest attachment
review, the draft prepared from it in the inbox), whatever its status. A request filed
or reviewed since the last run changes it; the run's own settling of a filing (its
act or notice, :mod:`lavra.registry.filing_status`) does not, so that an interrupted
run resumes and a finished one, run again, is found again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.inputs.reading import check_values, load_json
from lavra.registry.drafts import DraftStatus
from lavra.registry.filing_status import FilingStatus
from lavra.registry.inbox import ACCEPTED
from lavra.registry.records import LOCAL_TZ
from lavra.registry.store import Registry
from lavra.registry.tables import (
    DraftRow,
    FilingAttachmentRow,
    FilingProgressRow,
    FilingReviewRow,
    FilingRow,
    LicenceRow,
)

__all__ = ["Conference", "FiledRequest", "FiledScope", "filed_requests", "filings_stamp"]


@dataclass(frozen=True)
class FiledScope:
    """The requests filed online a run reads: of ``form``, filed from ``since`` to
    ``until`` (local days, both included)."""

    form: str
    since: date
    until: date


@dataclass(frozen=True)
class Conference:
    """The staff's review of a filing's attachments, as the inbox left it: the
    attachments no one reviewed yet, those whose standing review refused them
    (``item: reason``) with the last day to supply them, and, when every attachment
    stands accepted, who accepted the last and on which local day (the conferência)."""

    unreviewed: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    deadline: date | None = None
    checked_by: str | None = None
    checked_on: date | None = None

    @property
    def done(self) -> bool:
        """Every attachment (at least one) accepted by staff."""
        return self.checked_by is not None


@dataclass(frozen=True)
class FiledRequest:
    """One requerimento filed online, as a run reads it (module docstring)."""

    protocol: str
    form: str
    cpf_cnpj: str
    name: str
    filed_at: datetime
    licence: str | None
    data: Mapping[str, Any] | None
    problem: str | None = None
    conference: Conference = Conference()
    draft: int | None = None
    """The draft of the act staff are preparing from the filing in the inbox ("Preparar
    ato"), still a rascunho or in the signing queue; None when there is none."""

    @property
    def label(self) -> str:
        """The request as the summary names it: ``protocolo PROT nº 0001/2026``."""
        return f"protocolo {self.protocol}"


def _bound(day: date) -> datetime:
    return datetime.combine(day, time(0), LOCAL_TZ).astimezone(UTC)


def _strict(protocol: str, data: object) -> tuple[Mapping[str, Any] | None, str | None]:
    try:
        value = check_values(load_json(json.dumps(data, ensure_ascii=False),
                                       source="o requerimento"))
    except InputError as error:
        text = error.message
        if error.field and error.field != "/":
            text = text.replace(error.field, f"«{pointers.dotted(error.field)}»")
        return None, (f"O requerimento do protocolo {protocol} foi recusado na leitura: "
                      f"{text[:1].lower()}{text[1:]}")
    if not isinstance(value, Mapping):
        return None, (f"O requerimento do protocolo {protocol} não traz os dados como "
                      "um objeto JSON.")
    return value, None


def filed_requests(registry: Registry, form: str, *, since: date,
                   until: date) -> list[FiledRequest]:
    """The filings of ``form`` received from ``since`` to ``until`` (local days, both
    included), the earliest first (module docstring)."""
    query = (
        select(FilingRow, LicenceRow.printed)
        .outerjoin(LicenceRow, LicenceRow.id == FilingRow.licence_id)
        .where(FilingRow.form == form, FilingRow.status != FilingStatus.DECIDED.value,
               FilingRow.filed_at >= _bound(since),
               FilingRow.filed_at < _bound(until + timedelta(days=1)))
        .order_by(FilingRow.filed_at, FilingRow.id)
    )
    found: list[FiledRequest] = []
    with registry.database_errors(), registry.read_session() as session:
        for row, printed in session.execute(query).all():
            data, problem = _strict(row.protocol, row.data)
            found.append(FiledRequest(
                protocol=row.protocol, form=row.form, cpf_cnpj=row.cpf_cnpj,
                name=row.name, filed_at=row.filed_at, licence=printed, data=data,
                problem=problem, conference=_conference(session, row.id),
                draft=_draft(session, row.id)))
    return found


def _draft(session: Session, filing: int) -> int | None:
    """The draft prepared from ``filing`` not yet issued nor discarded, if any."""
    found = session.scalar(select(DraftRow.id).join(
        FilingProgressRow, FilingProgressRow.draft_id == DraftRow.id).where(
        FilingProgressRow.filing_id == filing,
        DraftRow.status.in_((DraftStatus.DRAFT.value, DraftStatus.FORWARDED.value))))
    return None if found is None else int(found)


def _conference(session: Session, filing: int) -> Conference:
    """The standing review of each attachment of ``filing`` (:class:`Conference`)."""
    attachments = session.execute(select(FilingAttachmentRow.id, FilingAttachmentRow.item)
                                  .where(FilingAttachmentRow.filing_id == filing)
                                  .order_by(FilingAttachmentRow.id)).all()
    standing: dict[int, FilingReviewRow] = {}
    for review in session.scalars(select(FilingReviewRow).where(
            FilingReviewRow.filing_id == filing).order_by(FilingReviewRow.id)):
        standing[review.attachment_id] = review  # the last review of each stands
    unreviewed = tuple(item for ident, item in attachments if ident not in standing)
    refused = tuple(f"{item}: {standing[ident].reason}" for ident, item in attachments
                    if ident in standing and standing[ident].decision != ACCEPTED)
    progress = session.get(FilingProgressRow, filing)
    deadline = progress.deadline if progress is not None and refused else None
    if refused and progress is not None and progress.missing:
        refused = tuple(progress.missing)  # as the inbox words them: each by its title
    if not attachments or unreviewed or refused:
        return Conference(unreviewed, refused, deadline)
    last = max((standing[ident] for ident, _ in attachments), key=lambda r: r.id)
    return Conference(checked_by=last.reviewed_by,
                      checked_on=last.reviewed_at.astimezone(LOCAL_TZ).date())


def filings_stamp(registry: Registry, scope: FiledScope) -> list[tuple[int, int, int]]:
    """(filing id, latest review id, draft id; 0 for none) of every filing in ``scope``,
    whatever its status, by id (module docstring)."""
    latest = func.coalesce(func.max(FilingReviewRow.id), 0)
    draft = func.coalesce(FilingProgressRow.draft_id, 0)
    query = (
        select(FilingRow.id, latest, draft)
        .outerjoin(FilingReviewRow, FilingReviewRow.filing_id == FilingRow.id)
        .outerjoin(FilingProgressRow, FilingProgressRow.filing_id == FilingRow.id)
        .where(FilingRow.form == scope.form,
               FilingRow.filed_at >= _bound(scope.since),
               FilingRow.filed_at < _bound(scope.until + timedelta(days=1)))
        .group_by(FilingRow.id, FilingProgressRow.draft_id)
        .order_by(FilingRow.id)
    )
    with registry.database_errors(), registry.read_session() as session:
        return [(int(a), int(b), int(c)) for a, b, c in session.execute(query).all()]
