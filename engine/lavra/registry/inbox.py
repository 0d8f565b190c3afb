"""The staff inbox of filed requerimentos: list, open, review attachments, link the act.

    inbox = Inbox(registry)
    page = inbox.listing(form="requerimento-x", since=date(...), status="pendente", page=1)
    case = inbox.case(filing_id)                    # the filing, its reviews, its progress
    inbox.review(filing_id, attachment_id, accepted=False, reason="Ilegível.",
                 deadline=date(2026, 12, 21), by="Clara")
    inbox.prepared(filing_id, draft_id=7, by="Clara")   # the draft of the act
    inbox.resend(filing_id, attachment_id, Attachment(...), on=date(...), by="Fulano")

A filing goes ``recebido`` → ``em_analise`` (the first review) → ``pendente`` (while
an attachment stands refused: what is missing and the last day are kept for the
applicant's tracking page) → ``em_analise`` again (every refused attachment accepted
since) → ``decidido`` (the act prepared from it was issued:
:func:`lavra.registry.filing_status.settle`, called in the transaction that marks its
draft issued). The last review of an attachment is its
standing; every review is kept. ``decidido`` is final.

The applicant may send a refused document again (:meth:`Inbox.resend`) until the last
day given with the refusal, inclusive: the new file is kept beside the refused one
(which it names as the one it replaces), the refused one no longer counts as missing,
and the new one waits for its review ("reenviado"); with nothing refused left the
filing is em análise again. One replacement per refusal: a refused replacement can be
replaced in turn.

**The ciência of a refusal** (:meth:`Inbox.acknowledge`). A refusal may leave its last
day open (``from_ciencia``): the period then runs from the applicant's ciência of the
refusal, recorded once (the first counts; later ones change nothing) with its instant,
its means and who recorded it, and the last day is the caller's period counted from the
day of that ciência. Until then the document may be sent again (nothing has started to
run). Each new refusal is a new intimação of everything still missing: it clears the
ciência on record, and the period of all that is missing runs from the next one.

The registry knows no law: the period to supply what is missing is the caller's (the
pack's) to give as ``deadline``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.registry.drafted_items import drafted_items, item_key
from lavra.registry.drafts import Draft, DraftStatus, add_forwarded
from lavra.registry.filing_holds import lock_filing, open_draft, refuse_if_held
from lavra.registry.filing_status import FilingStatus
from lavra.registry.filings import Attachment, Filed, Filings, StoredAttachment
from lavra.registry.records import LOCAL_TZ, check_ident, check_text
from lavra.registry.store import Registry
from lavra.registry.tables import (
    FilingAttachmentRow,
    FilingProgressRow,
    FilingReviewRow,
    FilingRow,
)

__all__ = [
    "PAGE_SIZE",
    "Case",
    "FilingStatus",
    "Inbox",
    "Listing",
    "Review",
    "Summary",
]

PAGE_SIZE = 25


ACCEPTED, REFUSED = "aceito", "recusado"


@dataclass(frozen=True)
class Summary:
    """One row of the inbox."""

    id: int
    protocol: str
    form: str
    name: str
    cpf_cnpj: str
    filed_at: datetime
    status: FilingStatus
    resent: int = 0
    """How many documents the applicant sent again await their review."""

    @property
    def filed_at_local(self) -> datetime:
        return self.filed_at.astimezone(LOCAL_TZ)


@dataclass(frozen=True)
class Listing:
    """One page of the inbox, newest first, and how many filings match in all."""

    rows: tuple[Summary, ...]
    total: int
    page: int
    pages: int


@dataclass(frozen=True)
class Review:
    """A review of one attachment: accepted or refused (with the reason), who, when."""

    attachment_id: int
    accepted: bool
    reason: str | None
    by: str
    at: datetime

    @property
    def at_local(self) -> datetime:
        return self.at.astimezone(LOCAL_TZ)


@dataclass(frozen=True)
class Case:
    """A filing as the inbox opens it: the filing, the standing review of each
    attachment, what is missing and the last day (while pendente), the draft prepared
    and the act that decided it."""

    filed: Filed
    status: FilingStatus
    reviews: tuple[Review, ...]
    missing: tuple[str, ...]
    deadline: date | None
    draft_id: int | None
    act_id: int | None
    ciencia_at: datetime | None = None
    """When the applicant took ciência of the standing refusal (module docstring)."""
    ciencia_means: str | None = None
    ciencia_by: str | None = None

    @property
    def ciencia_at_local(self) -> datetime | None:
        return None if self.ciencia_at is None else self.ciencia_at.astimezone(LOCAL_TZ)

    @property
    def awaiting_ciencia(self) -> bool:
        """A document stands refused and its period waits for the ciência to run."""
        return bool(self.refused) and self.deadline is None and self.ciencia_at is None

    def standing(self, attachment: StoredAttachment) -> Review | None:
        """The last review of ``attachment``, if any."""
        found = [r for r in self.reviews if r.attachment_id == attachment.id]
        return found[-1] if found else None

    def replacement(self, attachment: StoredAttachment) -> StoredAttachment | None:
        """The document the applicant sent in place of ``attachment``, if any."""
        return next((a for a in self.filed.attachments if a.replaces == attachment.id), None)

    @property
    def refused(self) -> tuple[StoredAttachment, ...]:
        """The attachments that stand refused and were not sent again."""
        return tuple(a for a in self.filed.attachments
                     if (r := self.standing(a)) is not None and not r.accepted
                     and self.replacement(a) is None)

    @property
    def resent(self) -> tuple[StoredAttachment, ...]:
        """The documents sent again that await their review."""
        return tuple(a for a in self.filed.attachments
                     if a.replaces is not None and self.standing(a) is None)


def _status(value: object) -> FilingStatus:
    try:
        return FilingStatus(str(value))
    except ValueError:
        raise InputError(f"Situação de protocolo desconhecida: «{value}».",
                         field="/situacao") from None


def _reason(value: object) -> str:
    text = " ".join(check_text(value, "o motivo da recusa", "/motivo", 1000).split())
    if len(text) < 5:
        raise InputError("Informe o motivo da recusa do documento (ao menos 5 caracteres).",
                         field="/motivo")
    return text


def _who(value: object) -> str:
    return check_text(value, "quem analisa o protocolo", "/responsavel", 200)


def _moment(day: date, end: bool) -> datetime:
    local = datetime.combine(day + timedelta(days=1) if end else day, time(), LOCAL_TZ)
    return local.astimezone(UTC)


class Inbox:
    """The filings of one registry as staff handle them (module docstring)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.filings = Filings(registry)

    def listing(self, *, form: str | None = None, since: date | None = None,
                until: date | None = None, status: str | None = None, page: int = 1,
                per_page: int = PAGE_SIZE) -> Listing:
        """The filings matching, newest first, page ``page`` (from 1) of ``per_page``.
        ``since`` and ``until`` are days of the secretariat's calendar, both included."""
        stmt = select(FilingRow)
        if form:
            stmt = stmt.where(FilingRow.form == form)
        if status:
            stmt = stmt.where(FilingRow.status == _status(status).value)
        if since is not None:
            stmt = stmt.where(FilingRow.filed_at >= _moment(since, False))
        if until is not None:
            stmt = stmt.where(FilingRow.filed_at < _moment(until, True))
        size = max(1, min(per_page, 100))
        with self.registry.database_errors(), self.registry.read_session() as session:
            total = int(session.execute(
                select(func.count()).select_from(stmt.subquery())).scalar_one())
            pages = max(1, -(-total // size))
            current = max(1, min(page, pages))
            rows = session.scalars(stmt.order_by(FilingRow.filed_at.desc(),
                                                 FilingRow.id.desc())
                                   .offset((current - 1) * size).limit(size)).all()
            resent = self._resent(session, [r.id for r in rows])
            return Listing(tuple(Summary(r.id, r.protocol, r.form, r.name, r.cpf_cnpj,
                                         r.filed_at, FilingStatus(r.status),
                                         resent.get(r.id, 0)) for r in rows),
                           total, current, pages)

    def case(self, filing_id: int) -> Case | None:
        ident = check_ident(filing_id)
        with self.registry.database_errors(), self.registry.read_session() as session:
            row = session.get(FilingRow, ident)
            return None if row is None else self._case(session, row)

    def case_of_draft(self, draft_id: int) -> Case | None:
        """The filing whose act is prepared in the draft ``draft_id``, if any."""
        with self.registry.database_errors(), self.registry.read_session() as session:
            found = session.scalars(select(FilingRow).join(
                FilingProgressRow, FilingProgressRow.filing_id == FilingRow.id).where(
                FilingProgressRow.draft_id == check_ident(draft_id))).first()
            return None if found is None else self._case(session, found)

    def review(self, filing_id: int, attachment_id: int, *, accepted: bool,
               reason: str | None, deadline: date | None, by: str,
               titles: Mapping[str, str] | None = None, now: datetime | None = None,
               from_ciencia: bool = False) -> Case:
        """Accept or refuse one attachment; a refusal needs its reason and the last day
        to supply the document (``deadline``), or ``from_ciencia``: the period runs from
        the applicant's ciência of the refusal (:meth:`acknowledge`). The filing is then
        pendente while any attachment stands refused, em análise otherwise. What is
        missing names each refused document by ``titles`` (checklist item → its title,
        as the applicant reads it), with the reason."""
        text = _reason(reason) if not accepted else (
            " ".join(str(reason).split())[:1000] or None if reason else None)
        if not accepted and deadline is None and not from_ciencia:
            raise InputError("Informe o último dia para apresentar o documento.",
                             field="/prazo")
        who, moment = _who(by), now or datetime.now(UTC)
        ident, attachment = check_ident(filing_id), check_ident(attachment_id)
        with self.registry.database_errors(), self.registry.write_session() as session:
            row = self._open(session, ident)
            found = session.get(FilingAttachmentRow, attachment)
            if found is None or found.filing_id != row.id:
                raise InputError("O documento não pertence a este protocolo.",
                                 field="/anexo")
            session.add(FilingReviewRow(
                filing_id=row.id, attachment_id=attachment,
                decision=ACCEPTED if accepted else REFUSED, reason=text,
                reviewed_by=who, reviewed_at=moment))
            session.flush()
            progress = self._progress(session, row.id, who, moment)
            if not accepted:  # a new intimação: its period runs from its own ciência
                progress.deadline = None if from_ciencia else deadline
                progress.ciencia_at = progress.ciencia_means = progress.ciencia_by = None
            return self._settle(session, row, progress, titles)

    def resend(self, filing_id: int, attachment_id: int, replacement: Attachment, *,
               on: date, by: str, titles: Mapping[str, str] | None = None,
               max_attachment_bytes: int = 10 * 1024 * 1024,
               max_total_bytes: int = 25 * 1024 * 1024, now: datetime | None = None) -> Case:
        """Keep ``replacement``, sent by the applicant on day ``on`` in place of the
        refused attachment ``attachment_id``, within the last day of the refusal and the
        limits of a filing (per file; all the filing's standing files together)."""
        who, moment = _who(by), (now or datetime.now(UTC)).astimezone(UTC)
        ident, refused_id = check_ident(filing_id), check_ident(attachment_id)
        limit = f"{max_attachment_bytes / (1024 * 1024):.0f} MiB"
        if not replacement.content:
            raise InputError(f"O arquivo «{replacement.name}» está vazio.", field="/arquivo")
        if replacement.size > max_attachment_bytes:
            raise InputError(f"O arquivo «{replacement.name}» excede o tamanho máximo de "
                             f"{limit} por arquivo.", field="/arquivo")
        kind = replacement.content_type  # refuses what is not PDF, PNG or JPEG
        name = check_text(replacement.name, "o nome do arquivo", "/arquivo", 255)
        with self.registry.database_errors(), self.registry.write_session() as session:
            row = self._open(session, ident)
            old = session.get(FilingAttachmentRow, refused_id)
            if old is None or old.filing_id != row.id:
                raise InputError("O documento não pertence a este protocolo.", field="/anexo")
            case = self._case(session, row)
            stored = next(a for a in case.filed.attachments if a.id == old.id)
            if case.replacement(stored) is not None:
                raise InputError("Este documento já foi reenviado e aguarda a análise da "
                                 "Secretaria.", field="/anexo")
            if stored not in case.refused:
                raise InputError("Este documento não foi recusado pela Secretaria: não há o "
                                 "que reenviar.", field="/anexo")
            if case.deadline is not None and on > case.deadline:
                raise InputError(
                    "O prazo para reenviar este documento terminou em "
                    f"{case.deadline.strftime('%d/%m/%Y')}. O documento não foi recebido; "
                    "procure a Secretaria, citando o número de protocolo.", field="/anexo")
            standing = sum(a.size for a in case.filed.attachments
                           if a.id != old.id and case.replacement(a) is None)
            if standing + replacement.size > max_total_bytes:
                raise InputError(
                    "Com este arquivo, os documentos do requerimento somariam mais que o "
                    f"máximo de {max_total_bytes / (1024 * 1024):.0f} MiB.", field="/arquivo")
            session.add(FilingAttachmentRow(
                filing_id=row.id, item=old.item, original_name=name, content_type=kind,
                size=replacement.size, sha256=replacement.sha256,
                content=replacement.content, replaces_id=old.id, sent_at=moment))
            session.flush()
            progress = self._progress(session, row.id, who, moment)
            return self._settle(session, row, progress, titles)

    def acknowledge(self, filing_id: int, *, at: datetime, means: str, by: str,
                    last_day: Callable[[date], date], with_time: bool = True
                    ) -> tuple[Case, bool]:
        """Record the applicant's ciência of the standing refusal at the instant ``at``
        (by ``means``, recorded by ``by``) and its last day, ``last_day`` of the day of
        the ciência in the secretariat's calendar (``with_time`` False: ``at`` gives the
        day alone, compared day by day); under the filing's row lock, once:
        True when recorded now, False when nothing awaited it (module docstring)."""
        who = _who(by)
        kind = check_text(means, "o meio da ciência", "/meio", 20)
        moment = at.astimezone(UTC)
        with self.registry.database_errors(), self.registry.write_session() as session:
            lock_filing(session, ident=check_ident(filing_id))
            row = self._open(session, check_ident(filing_id))
            case = self._case(session, row)
            if not case.awaiting_ciencia:
                return case, False
            refused_at = max((r.at for r in case.reviews if not r.accepted), default=moment)
            if (moment < refused_at if with_time else
                    moment.astimezone(LOCAL_TZ).date() < refused_at.astimezone(LOCAL_TZ).date()):
                raise InputError("A ciência não pode ser anterior à recusa do documento.",
                                 field="/data")
            progress = self._progress(session, row.id, who, datetime.now(UTC))
            progress.ciencia_at, progress.ciencia_means, progress.ciencia_by = (
                moment, kind, who)
            progress.deadline = last_day(moment.astimezone(LOCAL_TZ).date())
            session.flush()
            return self._case(session, row), True

    def prepared(self, filing_id: int, *, draft_id: int, by: str,
                 now: datetime | None = None) -> Case:
        """Record that the act deciding the filing is prepared in draft ``draft_id``;
        refused while a batch run holds the filing, or another draft of it is open
        (decided under the filing's row lock: :mod:`lavra.registry.filing_holds`)."""
        who, moment = _who(by), now or datetime.now(UTC)
        with self.registry.database_errors(), self.registry.write_session() as session:
            row = self._claim(session, check_ident(filing_id))
            return self._link(session, row, check_ident(draft_id), who, moment)

    def prepare(self, filing_id: int, form: str, data: Mapping[str, Any], *, title: str,
                signer_role: str, by: str, now: datetime | None = None,
                reopen: bool = False,
                more: Sequence[tuple[str, Mapping[str, Any]]] = (),
                item_at: str | None = None, processo_at: str | None = None) -> Draft:
        """«Preparar ato» in one transaction: under the filing's row lock, refused
        while a batch run holds the filing (:class:`~lavra.registry.filing_holds.FilingHeld`,
        naming the run) or another draft of it is open; else the draft, forwarded to
        ``signer_role``, and the filing's link to it. Nothing is written when refused.
        ``reopen``: the act of the next instance on a filing decided by an act that
        forwarded it (:mod:`lavra.filedacts`): the filing stays decided by that act
        until this one is issued and decides it in turn; refused for a filing not
        decided. ``more``: the (title, data) of further acts deciding the request with
        this one (one per vehicle), drafts forwarded alike and not linked to the filing
        (:mod:`lavra.filedacts`). With ``item_at`` (the item's pointer in each act's
        data) and ``processo_at`` (the processo's): of those acts, only the items no
        draft from this filing still holds (:mod:`lavra.registry.drafted_items`); the
        first left is linked; refused when none is left."""
        who, moment = _who(by), now or datetime.now(UTC)
        acts = [(title, data), *more]
        with self.registry.database_errors(), self.registry.write_session() as session:
            row = self._claim(session, check_ident(filing_id), reopen=reopen)
            if item_at is not None and processo_at is not None:
                acts = _undrafted(session, row, form, acts, item_at, processo_at)
            drafts = [add_forwarded(session, form, act, title=name, signer_role=signer_role,
                                    by=who, now=moment) for name, act in acts]
            self._link(session, row, drafts[0].id, who, moment)
            return drafts[0]

    def _claim(self, session: Session, ident: int, reopen: bool = False) -> FilingRow:
        """The filing, locked, when no run holds it and no draft of it is open (and,
        to ``reopen``, decided by the act that forwarded it)."""
        lock_filing(session, ident=ident)
        # refused when unknown, or decided (to reopen: when not decided)
        row = self._decided(session, ident) if reopen else self._open(session, ident)
        refuse_if_held(session, row)
        current = open_draft(session, row.id)
        if current is not None:
            raise InputError(
                f"O ato deste protocolo já está preparado na minuta nº {current.id} "
                f"({DraftStatus(current.status).label}). Abra a minuta ou descarte-a antes "
                "de preparar outro ato.", field="/ato")
        return row

    def _link(self, session: Session, row: FilingRow, draft_id: int, who: str,
              moment: datetime) -> Case:
        progress = self._progress(session, row.id, who, moment)
        progress.draft_id = draft_id
        if row.status == FilingStatus.RECEIVED.value:
            row.status = FilingStatus.REVIEWING.value
        session.flush()
        return self._case(session, row)

    # ------------------------------------------------------------ internals
    @staticmethod
    def _resent(session: Session, filings: Sequence[int]) -> dict[int, int]:
        """Filing id → how many of its documents sent again await their review."""
        if not filings:
            return {}
        reviewed = select(FilingReviewRow.attachment_id).where(
            FilingReviewRow.filing_id.in_(filings))
        rows = session.execute(
            select(FilingAttachmentRow.filing_id, func.count()).where(
                FilingAttachmentRow.filing_id.in_(filings),
                FilingAttachmentRow.replaces_id.is_not(None),
                FilingAttachmentRow.id.not_in(reviewed))
            .group_by(FilingAttachmentRow.filing_id)).all()
        return {int(filing): int(count) for filing, count in rows}

    def _settle(self, session: Session, row: FilingRow, progress: FilingProgressRow,
                titles: Mapping[str, str] | None) -> Case:
        """What is missing and the status, from the attachments that stand refused:
        pendente while any does (the last day kept), em análise otherwise."""
        session.flush()
        refused = self._case(session, row).refused
        named = titles or {}
        progress.missing = [f"{named.get(a.item, a.item)}: {r.reason}" for a in refused
                            if (r := self._last(session, a.id)) is not None]
        if refused:
            row.status = FilingStatus.PENDING.value
        else:
            progress.deadline = None
            row.status = FilingStatus.REVIEWING.value
        session.flush()
        return self._case(session, row)

    @staticmethod
    def _filing(session: Session, ident: int) -> FilingRow:
        row = session.get(FilingRow, ident)
        if row is None:
            raise InputError(f"O protocolo nº {ident} não consta do registro.",
                             field="/protocolo")
        return row

    @staticmethod
    def _decided(session: Session, ident: int) -> FilingRow:
        row = Inbox._filing(session, ident)
        if row.status != FilingStatus.DECIDED.value:
            raise InputError(f"O protocolo {row.protocol} ainda não foi decidido pela "
                             "instância que o encaminha.", field="/protocolo")
        return row

    @staticmethod
    def _open(session: Session, ident: int) -> FilingRow:
        row = Inbox._filing(session, ident)
        if row.status == FilingStatus.DECIDED.value:
            raise InputError(f"O protocolo {row.protocol} já foi decidido; não pode mais "
                             "ser alterado.", field="/protocolo")
        return row

    @staticmethod
    def _progress(session: Session, ident: int, who: str,
                  moment: datetime) -> FilingProgressRow:
        progress = session.get(FilingProgressRow, ident)
        if progress is None:
            progress = FilingProgressRow(filing_id=ident, missing=[], updated_by=who,
                                         updated_at=moment)
            session.add(progress)
        progress.updated_by, progress.updated_at = who, moment
        return progress

    @staticmethod
    def _last(session: Session, attachment: int) -> Review | None:
        row = session.scalars(select(FilingReviewRow).where(
            FilingReviewRow.attachment_id == attachment).order_by(
            FilingReviewRow.id.desc()).limit(1)).first()
        return None if row is None else _review(row)

    @staticmethod
    def _case(session: Session, row: FilingRow) -> Case:
        reviews: Sequence[FilingReviewRow] = session.scalars(
            select(FilingReviewRow).where(FilingReviewRow.filing_id == row.id)
            .order_by(FilingReviewRow.id)).all()
        progress = session.get(FilingProgressRow, row.id)
        return Case(
            filed=Filings._filed(session, row), status=FilingStatus(row.status),
            reviews=tuple(_review(r) for r in reviews),
            missing=tuple(progress.missing) if progress else (),
            deadline=progress.deadline if progress else None,
            draft_id=progress.draft_id if progress else None,
            act_id=progress.act_id if progress else None,
            ciencia_at=progress.ciencia_at if progress else None,
            ciencia_means=progress.ciencia_means if progress else None,
            ciencia_by=progress.ciencia_by if progress else None)


def _review(row: FilingReviewRow) -> Review:
    return Review(row.attachment_id, row.decision == ACCEPTED, row.reason,
                  row.reviewed_by, row.reviewed_at)


def _undrafted(session: Session, row: FilingRow, form: str,
               acts: list[tuple[str, Mapping[str, Any]]], item_at: str, processo_at: str
               ) -> list[tuple[str, Mapping[str, Any]]]:
    """The acts whose item no draft from the filing holds (:meth:`Inbox.prepare`)."""
    held = drafted_items(session, row, form, item_at=item_at, processo_at=processo_at)
    left = [(name, act) for name, act in acts if item_key(act, item_at) not in held]
    if not left:
        numbers = ", ".join(str(ident) for ident in sorted(set(held.values())))
        raise InputError(
            f"Cada ato do protocolo {row.protocol} já está preparado ou emitido "
            f"(minutas nº {numbers}): não há ato a preparar de novo.", field="/ato")
    return left
