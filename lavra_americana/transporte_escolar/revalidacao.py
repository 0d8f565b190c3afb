"""The semiannual revalidation of the school-transport alvará, Lei nº 4.515/2007, art.
13, § 6º: "O alvará de que trata este artigo deverá ser revalidado pelo interessado
semestralmente, nos meses de maio e de novembro de cada ano."

``termo_revalidacao_semestral`` — its computation
    The alvará is checked in the registry
    (:func:`lavra_americana.comum.validity.act_at`): it exists, is not cancelled, is in
    force on the date of the revalidation and is the vehicle's. The date must fall in
    May or November (the window of ``legal_text/prazos.json``,
    ``transporte-escolar#art13_par6``); outside them the termo is *invalid* (a
    revalidation out of season does not stand for the month missed: the law names the
    months). One revalidation per alvará and window: another termo of the same alvará
    in the same month is *invalid*. The law does not say what the revalidation checks;
    the termo records the servant's conference of the driver's CNH and the vehicle's
    insurance, both in force on the date (``verificacoes``), and the inspector who
    made it — the least that keeps the alvará's conditions (arts. 7º, II, and 17, IV)
    true between renewals.
    Validity: a revalidation stands until the end of the next window (the next May or
    November), never beyond the alvará's vencimento.
    The date after the day the termo is actually issued is *invalid*.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.law.statutory import deadline_for
from lavra.textutil import format_act_number, format_date, month_name
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, issue_items, licence_pending
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import act_at

__all__ = ["COMPUTATIONS", "FORM", "IMPLEMENTED", "termo_revalidacao_semestral"]

REVALIDATION = "transporte-escolar#art13_par6"
FORM = "termo-revalidacao-semestral"
ALVARA_FORM = "alvara-transporte-escolar"
DATE = "/revalidacao/data"

IMPLEMENTED: tuple[str, ...] = (REVALIDATION,)
"""Citations this computation applies (coverage): the revalidation in May and November."""


def termo_revalidacao_semestral(request: ComputeInput) -> Computed:
    """The alvará in the registry, the month (May/November), one per window, validity.

    ``values``: ``mes``, ``valido_ate``, ``vigencia_explicacao``, ``proxima``
    (``de``, ``ate``), ``pendente``.
    """
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    laws = context.laws
    ref = short(laws, REVALIDATION)
    items: list[Item] = list(issue_items(on, request.issued_on, DATE, "o termo", REVALIDATION))
    found, checked = act_at(
        request.history, ALVARA_FORM, data, "/alvara", on,
        "Alvará para exploração de serviços de Transporte Escolar", (REVALIDATION,),
        holder_at="/titular/cpf", laws=laws,
    )
    items.extend(checked)
    try:
        window = deadline_for(REVALIDATION, on, context=context)
        after = deadline_for(REVALIDATION, window.last_day + timedelta(days=1), context=context)
    except LavraError as error:
        items.append(item_at(DATE, Status.MISSING, error.message, REVALIDATION))
        return Computed(licence_pending(error.message), unique_items(items))
    first = window.first_day or on
    if not (first <= on <= window.last_day):
        items.append(item_at(
            DATE, Status.INVALID,
            f"A revalidação semestral faz-se nos meses de maio e de novembro ({ref}); "
            f"{format_date(on)} não está em nenhum deles. O próximo período é "
            f"{month_name(first)} de {first.year}, de {format_date(first)} a "
            f"{format_date(window.last_day)}.",
            REVALIDATION,
        ))
    items.extend(_one_per_window(request, data, first, window.last_day, ref))
    alvara_end = found.valid_until if found is not None else None
    until = after.last_day if alvara_end is None else min(after.last_day, alvara_end)
    next_month = month_name(after.first_day or until)
    why = ("o vencimento do alvará" if alvara_end is not None and alvara_end <= after.last_day
           else f"o fim do período de revalidação seguinte ({next_month})")
    values: dict[str, Any] = {
        "mes": f"{month_name(first)} de {first.year}",
        "valido_ate": until,
        "proxima": {"de": after.first_day, "ate": after.last_day},
        "vigencia_explicacao": (
            f"Revalidação de {month_name(first)} de {first.year} ({ref}), válida até "
            f"{format_date(until)}: {why}."
        ),
        "pendente": None,
    }
    return Computed(values, unique_items(items))


def _one_per_window(
    request: ComputeInput, data: Any, first: date, last: date, ref: str
) -> list[Item]:
    """No other termo of the same alvará with its date in this window (not cancelled)."""
    plate = clean_text(pointers.get(data, "/veiculo/placa"))
    number = clean_text(pointers.get(data, "/alvara/numero")) or ""
    if request.history is None or plate is None:
        return []
    for record in request.history.prior_autos(plate, FORM, first, last + timedelta(days=1)):
        theirs = clean_text(pointers.get(record.data, "/alvara/numero")) or ""
        if theirs.split()[-1:] == number.split()[-1:]:
            return [item_at(
                DATE, Status.INVALID,
                f"O alvará {format_act_number(number)} já foi revalidado neste período (termo "
                f"{format_act_number(record.printed)}, de {format_date(record.reference_date)}; "
                f"{ref}).",
                REVALIDATION,
            )]
    return []


COMPUTATIONS: dict[str, Computation] = {
    "termo_revalidacao_semestral": termo_revalidacao_semestral,
}
"""The computation of this module a form may name under ``"calculos"``."""
