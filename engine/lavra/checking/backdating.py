"""A bound on backdating final acts (issue 22, defect 9: an ALV-AUX dated, and valid from,
16/03/2026 was signed on 07/12/2026; the checks read the licensing state of the day of
signing against a date nine months old).

The law is silent; the reading chosen: an administrative act bears the date of its
making, and the date the law is applied on may fall before the signature only by the
time a Secretaria takes to type and sign what it decided. A final act (issued, in a
batch run, from the staff pages or the API) whose reference date is more than
``retroacao_maxima_dias`` days (:data:`lavra.config.DEFAULT_BACKDATING_DAYS`) before the
day it is signed is refused: an INCOMPLETO item at the field the date came from, naming
both dates and the limit. ``"sem limite"`` lifts it. An act from before lavra is not
issued but imported, with its own date (``lavra cadastro importar``).
"""

from __future__ import annotations

from datetime import date, timedelta

from lavra.checking.report import Item, Report, Status
from lavra.textutil import format_date

__all__ = ["REQUIREMENT", "backdating_item", "bounded"]

REQUIREMENT = "data.retroacao"


def backdating_item(on: date, signed_on: date, days: int | None, field: str) -> Item | None:
    """*Invalid* at ``field`` when ``on`` is more than ``days`` days before
    ``signed_on``; None within the bound, or without one (``days`` None)."""
    if days is None or (signed_on - on).days <= days:
        return None
    earliest = signed_on - timedelta(days=days)
    limit = "no mesmo dia" if days == 0 else f"até {_days(timedelta(days=days))} antes"
    return Item(REQUIREMENT, Status.INVALID, field, (
        f"A data do ato ({format_date(on)}) é anterior em {_days(signed_on - on)} ao dia "
        f"da assinatura ({format_date(signed_on)}): pela configuração do lavra, um ato só "
        f"pode ser datado {limit} do dia em que é assinado. Corrija a data do ato (a partir "
        f"de {format_date(earliest)}), ou peça ao administrador que reveja o limite."))


def _days(span: timedelta) -> str:
    return "1 dia" if span.days == 1 else f"{span.days} dias"


def bounded(report: Report, signed_on: date, days: int | None, field: str) -> Report:
    """``report`` with :func:`backdating_item` added when due."""
    item = backdating_item(report.on, signed_on, days, field)
    return report if item is None else Report(report.form, report.on, (*report.items, item))
