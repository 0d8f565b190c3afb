"""``lavra amount`` for the Americana laws: the fine or fee a cited provision sets on a date.

The dates given with ``--anterior`` are earlier infractions of the same provision by
the same vehicle (fretamento, art. 18 of Lei nº 4.419/2006) or holder (transporte
escolar, art. 23 of Lei nº 4.515/2007); they decide repeat offences. The rules are
those of :mod:`lavra_americana.fretamento.fines`, :mod:`lavra_americana.fretamento.penalties`,
:mod:`lavra_americana.transporte_escolar.fees` and
:mod:`lavra_americana.transporte_escolar.penalties`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

from lavra.checking.computations import AmountQuery
from lavra.errors import InputError
from lavra.law.model import resolve
from lavra.law.overlay import overlay_parameters
from lavra.render.templating import format_moeda
from lavra.textutil import format_date
from lavra_americana.comum.amounts import (
    FRETAMENTO,
    TRANSPORTE_ESCOLAR,
    Amount,
    AmountSources,
    load_sources,
    money_words,
)
from lavra_americana.comum.infractions import PriorInfraction
from lavra_americana.fretamento.penalties import fretamento_penalty, temporary_impediment
from lavra_americana.transporte_escolar.fees import escolar_fee, is_escolar_fee
from lavra_americana.transporte_escolar.penalties import escolar_sanction

__all__ = ["IMPLEMENTED", "answer", "compute"]

IMPLEMENTED: tuple[str, ...] = ()
"""The answer applies the rules of the fines, fees and penalties modules, which cite
the provisions."""

_SUBJECT = "sujeito-informado"


def _money(value: Decimal | None) -> dict[str, Any]:
    shown = value if value is not None else Decimal("0.00")
    return {
        "amount": f"{shown:.2f}",
        "amount_figures": format_moeda(shown),
        "amount_words": money_words(shown),
    }


def _from_amount(result: Amount) -> dict[str, Any]:
    return {
        **_money(result.value),
        "doubled": result.doubled,
        "explanation": result.explanation,
        "basis": list(result.basis),
        "example": result.example,
    }


def answer(query: AmountQuery) -> dict[str, Any]:
    """The answer of ``lavra amount`` for the Americana laws (see :class:`AmountQuery`)."""
    sources = load_sources(query.pack_dir, exemplo=query.example_values)
    if query.staff_values:
        sources = replace(sources, parameters=overlay_parameters(sources.parameters,
                                                                 query.staff_values))
    return compute(query.citation, query.on, query.previous, sources)


def compute(
    citation: str, on: date, previous: tuple[date, ...], sources: AmountSources
) -> dict[str, Any]:
    """The JSON answer of ``lavra amount`` (also used for the text output)."""
    resolve(sources.laws, citation)
    later = [day for day in previous if day > on]
    if later:
        raise InputError(
            f"A infração anterior de {format_date(later[0])} é posterior à data "
            f"informada em --data ({format_date(on)}).",
            field="/previous",
        )
    law_id = citation.partition("#")[0]
    priors = [PriorInfraction(day, citation, _SUBJECT) for day in previous]
    answer: dict[str, Any] = {"citation": citation, "on": on.isoformat()}
    if law_id == FRETAMENTO:
        penalty = fretamento_penalty(citation, on, _SUBJECT, priors, sources)
        impediment = temporary_impediment([citation], sources.laws)
        answer.update(_from_amount(penalty.amount))
        answer["explanation"] = penalty.explanation
        answer["basis"] = list(penalty.basis)
        answer["impediment"] = {
            "applies": impediment.applies,
            "explanation": impediment.explanation,
            "basis": list(impediment.basis),
        }
        if impediment.applies:
            answer["explanation"] += " " + impediment.explanation
        return answer
    if law_id == TRANSPORTE_ESCOLAR and is_escolar_fee(citation):
        if previous:
            raise InputError(
                "A opção --anterior não se aplica a taxas: só multas têm reincidência.",
                field="/previous",
            )
        answer.update(_from_amount(escolar_fee(citation, on, sources)))
        return answer
    if law_id == TRANSPORTE_ESCOLAR:
        sanction = escolar_sanction(citation, on, priors, sources, holder=_SUBJECT)
        answer.update(_money(None if sanction.amount is None else sanction.amount.value))
        answer.update({
            "doubled": sanction.doubled,
            "sanction": sanction.kind.value,
            "explanation": sanction.explanation,
            "basis": list(sanction.basis),
            "example": False,
        })
        return answer
    raise InputError(
        f"A citação {citation!r} não fixa multa nem taxa: use um dispositivo da lei de "
        "fretamento (arts. 15 a 17) ou da lei de transporte escolar (art. 16, taxas; "
        "infrações, art. 23).",
        field="/citacao",
    )
