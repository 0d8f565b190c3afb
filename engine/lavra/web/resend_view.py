"""What the tracking page shows of the staff's review of the attachments: each document
refused (why, the last day, whether it may still be sent again today) and each document
sent again that awaits its review (:meth:`lavra.registry.inbox.Inbox.resend`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lavra.registry.facts import MEANS_LABELS
from lavra.textutil import format_date
from lavra.web.context import WebContext
from lavra.web.pages_inbox import item_titles


@dataclass(frozen=True)
class RefusedView:
    """A refused document: its attachment id, title, the reason, the last day (dd/mm/aaaa)
    and whether a replacement is still received today."""

    attachment_id: int
    title: str
    name: str
    reason: str
    last_day: str | None
    open: bool


@dataclass(frozen=True)
class ResentView:
    """A document sent again, awaiting the staff's review."""

    title: str
    name: str
    sent_at: str


@dataclass(frozen=True)
class ResendView:
    refused: tuple[RefusedView, ...]
    resent: tuple[ResentView, ...]
    period: str | None = None
    """While the ciência of the refusal is awaited: the period that will run from it."""
    ciencia: str | None = None
    """The ciência on record (when, by what means), once taken."""


def resend_view(ctx: WebContext, found: Any) -> ResendView | None:
    """The view for a :class:`lavra.web.pages_tracking.Tracking`, None when nothing was
    refused nor sent again."""
    case = getattr(found, "case", None)
    if case is None or (not case.refused and not case.resent):
        return None
    titles = item_titles(ctx.schema(case.filed.form))
    today = ctx.today()
    refused = []
    for attachment in case.refused:
        review = case.standing(attachment)
        refused.append(RefusedView(
            attachment_id=attachment.id, title=titles.get(attachment.item, attachment.item),
            name=attachment.name, reason=review.reason or "" if review else "",
            last_day=format_date(case.deadline) if case.deadline else None,
            open=case.deadline is None or today <= case.deadline))
    resent = tuple(
        ResentView(title=titles.get(a.item, a.item), name=a.name,
                   sent_at=a.sent_at_local.strftime("%d/%m/%Y %H:%M") if a.sent_at_local
                   else "")
        for a in case.resent)
    period = None
    if case.awaiting_ciencia:
        period = ctx.engine.content.pack.filing_period_terms or "contado da ciência da recusa"
    ciencia = None
    if case.ciencia_at_local is not None and case.refused:
        means = MEANS_LABELS.get(case.ciencia_means or "", case.ciencia_means or "")
        ciencia = f"{case.ciencia_at_local:%d/%m/%Y às %H:%M} (horário de Brasília), {means}"
    return ResendView(tuple(refused), resent, period, ciencia)
