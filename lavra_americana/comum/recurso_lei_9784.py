"""The recorrente's own form of the Lei nº 9.784/1999 appeal against an escolar
revogação "por motivo fundamentado" (Lei nº 4.515/2007, art. 3º), an escolar refusal
outside the selection (IND) or a declaração de vacância (DV-ESC, art. 13):
``recurso-lei-9784``,
fillable, no series, the piece the condutor files (on paper, or online from the tracking
page, :mod:`lavra_americana.comum.recurso_online`).

Which appeal, and why this one, is :mod:`lavra_americana.comum.recurso_9784`'s reading:
10 days from the ciência of the revogação (art. 59), addressed to the Secretário who
decided, who reconsiders it within 5 days or forwards it to the Prefeito (art. 56,
§ 1º). This module checks the piece before it is filed, as the decisions will:

- the decision appealed is named by its number *with its series* (``REV-ESC nº
  0001/2026``, the schema's pattern); when the registry holds it, it must be a
  revogação by motivo fundamentado still in force (a revogação that applied a penalty
  has the appeal of arts. 25 and 26 instead, and the item says so:
  :func:`lavra_americana.comum.recurso_9784.kind_items`), not cancelled, of the stated
  date;
- the same for a refusal (IND) or a declaração de vacância (DV-ESC), the act told by
  the series of its number (:data:`lavra_americana.comum.recurso_9784.ACTS`): it must
  be in the registry, not cancelled, of the stated date, and, a refusal, one whose
  appeal is this one (it cites art. 59: the refusal of a requerimento of transporte
  escolar outside the selection, :mod:`lavra_americana.comum.indeferimento`; the
  fretamento refusal has art. 24's, the inscription's art. 11's);
- the period runs from the ciência the registry holds for the decision (recorded on its
  entry, ``lavra fato ciencia``, or by electronic access); a different typed day is
  *invalid* (:func:`lavra_americana.comum.ciencia_recorrido.appealed_ciencia`). With no
  ciência on record, the typed day is used (a ciência proved on paper);
- **reading chosen**, as for the penalty appeal: an appeal dated after the last day is
  *invalid* and says so before it is filed — it may still be filed (the right of
  petition is not taken away), but it is not known (Lei nº 9.784/1999, art. 63, I),
  save for a review of the administration's own motion (§ 2º); an appeal filed before
  the ciência is timely (the period has not begun). The filing date may not be after
  the day the form is drafted (no future facts).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    item_at,
    period_words,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.textutil import format_date
from lavra_americana.comum import indeferimento as refusal
from lavra_americana.comum import recurso_9784 as federal
from lavra_americana.comum.ciencia_recorrido import appealed_ciencia
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import (
    after_issue,
    data_of,
    date_at,
    deadline_values,
    period_of,
)
from lavra_americana.comum.guards import FORMS
from lavra_americana.comum.sources import statutory_context

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "recurso_lei_9784", "refusal_appeal"]

DEADLINE = "lei-9784-1999#art59"
IMPLEMENTED: tuple[str, ...] = ()
"""Arts. 56 and 59 are claimed by :mod:`lavra_americana.comum.indeferimento`, art. 3º's
appeal by :mod:`lavra_americana.comum.recurso_9784`; this form module applies them to
the recorrente's piece and cites them in its items."""

ACT_NUMBER = "/ato_recorrido/numero"
ACT_DATE = "/ato_recorrido/data"
CIENCIA = "/ato_recorrido/data_ciencia"
FILED = "/data_recurso"


OPENINGS = {
    "REV-ESC": "Da revogação por motivo fundamentado",
    "IND": "Do indeferimento de requerimento do transporte escolar fora do processo "
           "seletivo",
    "DV-ESC": "Da declaração de vacância",
}
"""How the rule printed names the act appealed, by its series (the articles: the act's
own, :attr:`lavra_americana.comum.recurso_9784.AppealedAct.article`)."""
TITLES = {
    "REV-ESC": "Recurso contra a Revogação do Alvará por Motivo Fundamentado",
    "IND": "Recurso contra o Indeferimento de Requerimento",
    "DV-ESC": "Recurso contra a Declaração de Vacância",
}


def _series(data: Mapping[str, Any]) -> str:
    number = clean_text(pointers.get(data, ACT_NUMBER))
    return next((s for s in OPENINGS if number and number.upper().startswith(s + " ")),
                "REV-ESC")


def _rule(request: ComputeInput, on: date) -> str:
    context = statutory_context(request)
    laws = context.laws
    period = period_of(context, DEADLINE, on)
    length, counted = period_words(*period) if period else ("o prazo", "contado")
    series = _series(data_of(request))
    article = federal.ACTS[series].article
    return (
        f"{OPENINGS[series]}{f' ({short(laws, article)})' if article else ''} "
        f"cabe recurso no prazo de {length} {counted} da ciência da decisão "
        f"({short(laws, DEADLINE)}), dirigido ao Secretário que a proferiu, que poderá "
        "reconsiderá-la em 5 (cinco) dias e, se não o fizer, encaminhará o recurso ao "
        f"Prefeito Municipal ({short(laws, federal.RECONSIDERED)})."
    )


def refusal_appeal(data: Mapping[str, Any]) -> str | None:
    """The deadline of the appeal against a refusal, by the law and stage of the
    requerimento it refused (:mod:`lavra_americana.comum.indeferimento`)."""
    form = clean_text(pointers.get(data, "/requerimento/formulario"))
    if form is None:
        return None
    if form in refusal.STAGE_APPEALS:
        return refusal.STAGE_APPEALS[form][0]
    try:
        spec = json.loads((FORMS / form / "formulario.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    found = refusal.APPEALS.get(str(spec.get("lei"))) if isinstance(spec, dict) else None
    return None if found is None else found[0]


def _registry_items(request: ComputeInput, data: Mapping[str, Any]) -> list[Item]:
    """The decision appealed, as the registry holds it (module doc)."""
    number = clean_text(pointers.get(data, ACT_NUMBER))
    if request.history is None or number is None:
        return []
    series = _series(data)
    record = request.history.document(federal.ACTS[series].form, number)
    if record is None:
        return [item_at(
            ACT_NUMBER, Status.INVALID,
            f"A decisão {number} não consta do registro: o número é da série {series} e "
            "nenhum ato expedido ou importado o tem. Confira o número impresso na "
            "decisão.", federal.RECONSIDERED)]
    if record.cancelled:
        return [item_at(
            ACT_NUMBER, Status.INVALID,
            f"A decisão {record.printed} foi cancelada: não há decisão a recorrer.",
            federal.RECONSIDERED)]
    found = federal.kind_items(request, statutory_context(request).laws,
                               federal.RECONSIDERED)
    if series == "IND" and refusal_appeal(record.data) != DEADLINE:
        found.append(item_at(
            ACT_NUMBER, Status.INVALID,
            f"O indeferimento {record.printed} não é de requerimento do transporte escolar "
            "fora do processo seletivo: dele cabe o recurso que a própria decisão indica "
            "(art. 24 da Lei nº 4.419/2006, no fretamento; art. 11 da Lei nº 4.515/2007, "
            "na inscrição no processo seletivo), não o desta peça "
            f"({short(statutory_context(request).laws, DEADLINE)}).", DEADLINE))
    stated = date_at(data, ACT_DATE)
    decided = date_at(record.data, "/decisao/data") or record.reference_date
    if stated is not None and stated != decided:
        found.append(item_at(
            ACT_DATE, Status.INVALID,
            f"A decisão {record.printed} é de {format_date(decided)}, não de "
            f"{format_date(stated)}.", federal.RECONSIDERED))
    return found


def recurso_lei_9784(request: ComputeInput) -> Computed:
    """The appeal's last day (art. 59) and its timeliness (module doc).

    ``values``: ``regra`` (printed), ``ultimo_dia`` (date or None), ``prazo`` (the
    deadline values or None), ``tempestivo`` (bool or None), ``ciencia_registrada``
    (where the registry holds the ciência, or None).
    """
    data = data_of(request)
    context = statutory_context(request)
    filed = date_at(data, FILED)
    items = _registry_items(request, data)
    recorded = appealed_ciencia(request, federal.RECONSIDERED)
    items.extend(recorded.items)
    ciencia = recorded.on
    if filed is not None:
        items.extend(after_issue(filed, request.issued_on, FILED, "data do recurso",
                                 DEADLINE))
    decided = date_at(data, ACT_DATE)
    if ciencia is not None and decided is not None and ciencia < decided:
        items.append(item_at(
            CIENCIA, Status.INVALID,
            f"A data da ciência ({format_date(ciencia)}) é anterior à da decisão "
            f"({format_date(decided)}).", DEADLINE))
    values: dict[str, Any] = {
        "titulo_documento": TITLES[_series(data)],
        "regra": _rule(request, ciencia or request.on), "ultimo_dia": None,
        "prazo": None, "tempestivo": None, "ciencia_registrada": recorded.source,
    }
    if ciencia is None:
        return Computed(values, unique_items(items))
    deadline, problems = deadline_values(DEADLINE, ciencia, context, CIENCIA)
    items.extend(problems)
    if deadline is None:
        return Computed(values, unique_items(items))
    last: date = deadline["ultimo_dia"]
    values.update(prazo=deadline, ultimo_dia=last)
    if filed is not None:
        timely = filed <= last
        values["tempestivo"] = timely
        cited = short(context.laws, DEADLINE)
        items.append(item_at(
            FILED, Status.MET if timely else Status.INVALID,
            f"Recurso de {format_date(filed)}, até o último dia do prazo "
            f"({format_date(last)}), contado da ciência dada em {format_date(ciencia)}: "
            f"tempestivo ({cited})." if timely else
            f"O prazo de recurso, contado da ciência dada em {format_date(ciencia)}, "
            f"terminou em {format_date(last)} ({cited}): o recurso de {format_date(filed)} "
            "é intempestivo. Pode ser protocolado, mas dele não se conhecerá, salvo "
            "revisão de ofício (Lei nº 9.784/1999, art. 63, I e § 2º).",
            DEADLINE))
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {"recurso_lei_9784": recurso_lei_9784}
"""The computation of this module a form may name under ``"calculos"``."""
