"""The candidate's appeal against the choice of the school-transport selection, Lei nº
4.515/2007, art. 11: "Do ato de escolha caberá recurso escrito dirigido ao Prefeito
Municipal, no prazo de 5 (cinco) dias, findo os quais a escolha será havida como
definitiva."

``recurso_classificacao`` — its computation (a requerimento the candidate fills)
    The 5 days count from the publication of the result (``legal_text/prazos.json``,
    ``transporte-escolar#art11``: excluded the day of publication, the last day moved
    to the next business day). The form prints the last day; a filing after it is
    *invalid* (the recurso is intempestivo: the choice was already final). The
    protocol still receives it — refusing to receive a petition is not lawful (Lei
    federal nº 9.784/1999, art. 6º, parágrafo único) — but the report tells the
    candidate, who may correct the date if the publication was later. A filing before
    the publication is *invalid*.

    Against the refusal of the inscription (``indeferimento``: the choice that leaves
    the candidate out, the reading in :mod:`lavra_americana.comum.indeferimento`) the
    same 5 days count from the ciência of the refusal, as the refusal states (a filing
    dated before that ciência is *invalid*, as one before the publication).
"""

from __future__ import annotations

from dataclasses import replace

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.checking.timeliness import check_timeliness
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.textutil import format_date
from lavra_americana.comum.ciencia_recorrido import from_refusal
from lavra_americana.comum.computing import data_of
from lavra_americana.comum.sources import statutory_context

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "recurso_classificacao"]

APPEAL = "transporte-escolar#art11"
FILED = "/interposicao/data"

IMPLEMENTED: tuple[str, ...] = (APPEAL,)
"""Citations this computation applies (coverage): the appeal of art. 11 and its term."""


def recurso_classificacao(request: ComputeInput) -> Computed:
    """The last day to appeal and whether the filing meets it.

    ``values``: ``ultimo_dia``, ``prazo_explicacao``, ``tempestivo``.
    """
    data = data_of(request)
    ciencia = maybe_date(pointers.get(data, "/indeferimento/data_ciencia"))
    published = ciencia or maybe_date(pointers.get(data, "/edital_resultado/data_publicacao"))
    filed = maybe_date(pointers.get(data, FILED))
    values: dict[str, object] = {"ultimo_dia": None, "prazo_explicacao": None,
                                 "tempestivo": None}
    if published is None or filed is None:
        return Computed(values, ())  # the schema reports what is missing
    items: list[Item] = []
    if filed < published:
        items.append(item_at(
            FILED, Status.INVALID,
            f"O recurso não pode ser interposto em {format_date(filed)}, antes da "
            + (f"ciência do indeferimento, em {format_date(published)}." if ciencia else
               f"publicação do resultado, em {format_date(published)}."),
            APPEAL,
        ))
        return Computed(values, tuple(items))
    try:
        judged = check_timeliness(
            APPEAL, published, filed, context=statutory_context(request), field=FILED
        )
    except LavraError as error:
        return Computed(values, (item_at(FILED, Status.MISSING, error.message, APPEAL),))
    said = from_refusal if ciencia is not None else str
    values.update(
        ultimo_dia=judged.deadline.last_day,
        prazo_explicacao=said(judged.explanation),
        tempestivo=judged.timely,
    )
    return Computed(values, unique_items([
        *items, *(replace(i, message=said(i.message)) for i in judged.items)]))


COMPUTATIONS: dict[str, Computation] = {"recurso_classificacao": recurso_classificacao}
"""The computation of this module a form may name under ``"calculos"``."""
