"""Whether an act met a statutory deadline: the judgment, its pt-BR wording and report item.

:func:`check_timeliness` counts the deadline with :func:`lavra.law.statutory.deadline_for`
and judges an act dated ``filed`` against it, with the explanation printed in decisions
("Recurso interposto em 12/03/2026; o prazo de 15 dias, contado da infração ocorrida em
20/02/2026 (art. 23 da Lei nº 4.419/2006), encerrou-se em 09/03/2026: recurso
intempestivo.") and a completeness-report item (``met`` when timely, ``invalid``
otherwise). An act before the start event is timely (see :mod:`lavra.law.statutory`
for the kinds and the decisions taken where the law is silent); an act before a
window opens is premature (``prematuro``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal

from lavra.checking.report import Item, Status
from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.law.deadline_table import DeadlineRule
from lavra.law.deadlines import check_date
from lavra.law.statutory import (
    StatutoryContext,
    StatutoryDeadline,
    deadline_for,
    load_statutory_context,
    period_size,
)
from lavra.textutil import format_date, format_datetime, month_name

__all__ = ["Outcome", "StatutoryTimeliness", "check_timeliness"]

Outcome = Literal["atende", "nao_atende", "prematuro"]


@dataclass(frozen=True)
class StatutoryTimeliness:
    """Whether an act on ``filed`` met the deadline, with its explanation and report item."""

    deadline: StatutoryDeadline
    filed: date | datetime
    timely: bool
    outcome: Outcome
    explanation: str
    items: tuple[Item, ...]

    @property
    def basis(self) -> tuple[str, ...]:
        return self.deadline.basis

    def to_json(self) -> dict[str, Any]:
        return {
            **self.deadline.to_json(),
            "deadline_explanation": self.deadline.explanation,
            "filed": self.filed.isoformat(),
            "timely": self.timely,
            "outcome": self.outcome,
            "explanation": self.explanation,
            "items": [item.to_json() for item in self.items],
        }



def check_timeliness(
    citation: str,
    start: date | datetime,
    filed: date | datetime,
    *,
    context: StatutoryContext | None = None,
    pack_dir: Path | None = None,
    field: str = "",
) -> StatutoryTimeliness:
    """Whether an act on ``filed`` met the deadline ``citation`` sets from ``start``.

    The explanation follows the table's wording, e.g. "Recurso interposto em
    12/03/2026; o prazo de 15 dias, contado da infração ocorrida em 20/02/2026 (art.
    23 da Lei nº 4.419/2006), encerrou-se em 09/03/2026: recurso intempestivo." The
    report item concerns ``field`` (a JSON pointer of the form data, e.g. the filing
    date) and is ``met`` when timely, ``invalid`` otherwise.
    """
    ctx = context if context is not None else load_statutory_context(pack_dir)
    deadline = deadline_for(citation, start, context=ctx)
    rule = ctx.rules[deadline.citation]
    if deadline.end is not None:
        if not isinstance(filed, datetime):
            raise InputError(
                f"O prazo do {deadline.reference} é contado em horas: informe a data e a "
                "hora do ato (AAAA-MM-DDTHH:MM).",
                field="/protocolo",
            )
        zone = deadline.end.tzinfo
        filed_at: date | datetime = (
            filed.replace(tzinfo=zone) if filed.tzinfo is None else filed.astimezone(zone)
        )
    else:
        filed_at = check_date(filed, "/protocolo")
    outcome, explanation = _judge(rule, deadline, filed_at)
    timely = outcome == "atende"
    requirement = pointers.dotted(field) if field else deadline.citation
    item = Item(
        requirement=requirement,
        status=Status.MET if timely else Status.INVALID,
        field=field,
        message=explanation,
        basis=deadline.basis,
    )
    return StatutoryTimeliness(deadline, filed_at, timely, outcome, explanation, (item,))



def _judge(rule: DeadlineRule, deadline: StatutoryDeadline, filed: date | datetime
           ) -> tuple[Outcome, str]:
    """The outcome and the explanation of an act on ``filed``.

    For hour deadlines ``filed`` and ``deadline.start`` are aware datetimes and
    ``deadline.end`` is set; otherwise all are dates.
    """
    ref = deadline.reference
    size = "" if deadline.period is None else period_size(deadline.period, rule)

    def close(outcome: Outcome, when: str, text: str) -> tuple[Outcome, str]:
        word = {"atende": rule.outcomes.met, "nao_atende": rule.outcomes.unmet,
                "prematuro": rule.outcomes.early or rule.outcomes.unmet}[outcome]
        return outcome, f"{rule.act_done} em {when}; {text}: {word}."

    if deadline.end is not None:
        assert isinstance(filed, datetime) and isinstance(deadline.start, datetime)
        head = f"{rule.event_dated} {format_datetime(deadline.start)} ({ref})"
        when = format_datetime(filed)
        if rule.kind == "duracao" and filed < deadline.start:
            return close("nao_atende", when, f"antes do início do prazo de {size}, contado {head}")
        met = filed <= deadline.end
        tense = "encerra-se" if met else "encerrou-se"
        return close("atende" if met else "nao_atende", when,
                     f"o prazo de {size}, contado {head}, {tense} em "
                     f"{format_datetime(deadline.end)}")

    assert not isinstance(filed, datetime)
    start = check_date(deadline.start, "/inicio")
    when = format_date(filed)
    head = f"{rule.event_dated} {format_date(start)} ({ref})"
    last = format_date(deadline.last_day)
    kind = rule.kind
    if kind == "carencia":
        assert deadline.first_allowed_day is not None
        if filed >= deadline.first_allowed_day:
            return close("atende", when,
                         f"o prazo de carência de {size}, contado {head}, encerrou-se em {last}")
        return close("nao_atende", when,
                     f"o prazo de carência de {size}, contado {head}, estende-se até {last}")
    if kind == "prazo_minimo":
        return close("atende" if filed >= deadline.last_day else "nao_atende", when,
                     f"o prazo mínimo de {size}, contado {head}, completa-se em {last}")
    if kind in ("janela", "meses_do_ano"):
        assert deadline.first_day is not None
        tense = "correu" if filed > deadline.last_day else "corre"
        span = f"{tense} de {format_date(deadline.first_day)} a {last}"
        if kind == "janela":
            text = f"o prazo, com até {size} de antecedência {head}, {span}"
        else:
            text = (f"o período de {month_name(deadline.first_day)} de "
                    f"{deadline.first_day.year} ({ref}) {span}")
        if filed < deadline.first_day:
            return close("prematuro", when, text)
        return close("atende" if filed <= deadline.last_day else "nao_atende", when, text)
    met = filed <= deadline.last_day
    tense = "encerra-se" if met else "encerrou-se"
    if kind == "fim_do_ano":
        return close("atende" if met else "nao_atende", when,
                     f"o prazo do exercício de {start.year}, até o último dia útil do ano "
                     f"({ref}), {tense} em {last}")
    if kind == "duracao" and filed < start:
        return close("nao_atende", when, f"antes do início do prazo de {size}, contado {head}")
    if rule.direction == "antes":
        text = f"o prazo, com antecedência mínima de {size} {head}, {tense} em {last}"
    else:
        text = f"o prazo de {size}, contado {head}, {tense} em {last}"
    return close("atende" if met else "nao_atende", when, text)


