"""The renewal requerimento of the fretamento alvará (Lei nº 4.419/2006, art. 8º).

``requerimento_renovacao_alvara_fretamento`` — a
:data:`lavra.checking.computations.Computation`. The company "se manifeste nesse
sentido com 30 (trinta) dias de antecedência da data do vencimento" (art. 8º): the
date of the requerimento (the form's reference date) is judged against the vencimento
of the alvará being renewed (``/alvara_anterior/valido_ate``) with the deadline
``fretamento#art8`` (:func:`lavra.checking.timeliness.check_timeliness`; the 30th day
before the vencimento is still timely). When the registry holds that alvará it must be
the vehicle's and not cancelled, and its vencimento is the registry's. The alvará the
renewal would give is computed as the alvará itself computes it
(:func:`lavra_americana.fretamento.alvara.limits_from`): from the day after the
vencimento, to the earlier of 5 years and the vehicle's age limit (art. 10, I); a
vehicle already past its limit then cannot be renewed (*invalid*), and the applicant
learns it before filing.
"""

from __future__ import annotations

from datetime import timedelta

from lavra.checking.computations import Computation, Computed, ComputeInput, item_at
from lavra.checking.report import Status
from lavra.checking.timeliness import check_timeliness
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.textutil import format_date
from lavra_americana.comum.computing import data_of
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import act_at, earliest, validity_explanation
from lavra_americana.fretamento.alvara import AGE, FORM, TERM, late_renewal, limits_from
from lavra_americana.fretamento.renovacao_requisitos import request_items as printed_items

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "requerimento_renovacao_alvara_fretamento"]

IMPLEMENTED: tuple[str, ...] = ()
"""Applies art. 8º, already counted by :mod:`lavra_americana.fretamento.alvara`."""


def requerimento_renovacao_alvara_fretamento(request: ComputeInput) -> Computed:
    """The 30 days' notice (art. 8º) and the validity the renewal would give.

    ``values``: ``prazo`` (``ultimo_dia``, ``explicacao``), ``inicio_vigencia``,
    ``valido_ate``, ``vigencia_explicacao`` (None when not computed).
    """
    data = data_of(request)
    context = statutory_context(request)
    stated = maybe_date(pointers.get(data, "/alvara_anterior/valido_ate"))
    found, items = act_at(
        request.history, FORM, data, "/alvara_anterior", request.on, "alvará a renovar",
        (TERM,), in_force=False, holder_at="/requerente/cnpj", laws=context.laws,
    )
    if found is None:
        items = []  # a paper alvará: the vencimento the applicant states
    items.extend(printed_items(data))  # what the renewed alvará prints from it
    expiry = found.valid_until if found is not None and found.valid_until else stated
    values: dict[str, object] = {
        "prazo": None, "inicio_vigencia": None, "valido_ate": None, "vigencia_explicacao": None
    }
    if expiry is None:
        return Computed(values, tuple(items))
    field = "/data_requerimento"
    try:
        judged = check_timeliness(TERM, expiry, request.on, context=context, field=field)
        start = expiry + timedelta(days=1)
        limits = limits_from(data, start, context)
    except LavraError as error:
        items.append(item_at(field, Status.MISSING, error.message, TERM))
        return Computed(values, tuple(items))
    items.extend(late_renewal(judged, context))
    chosen = earliest(limits)
    if chosen.end < start:
        items.append(
            item_at(
                "/veiculo/ano_fabricacao",
                Status.INVALID,
                f"O veículo estará acima do limite de idade no início do novo período "
                f"({format_date(start)}): o alvará não pode ser renovado para ele.",
                AGE,
            )
        )
    values.update(
        prazo={"ultimo_dia": judged.deadline.last_day, "explicacao": judged.explanation},
        inicio_vigencia=start,
        valido_ate=chosen.end,
        vigencia_explicacao=validity_explanation(limits),
    )
    return Computed(values, tuple(items))


COMPUTATIONS: dict[str, Computation] = {
    "requerimento_renovacao_alvara_fretamento": requerimento_renovacao_alvara_fretamento,
}
"""The computation of this module a form may name under ``"calculos"``."""
