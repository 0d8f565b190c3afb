"""How long a licence of either law lasts, and the acts it rests on.

A licence's end date is the earliest of every limit that applies (its own term, the
vehicle's age limit, the act it depends on, a document's validity): :class:`Limit`
names one, :func:`earliest` picks the binding one and :func:`validity_explanation`
prints which limit set the date and what the others were. On a tie the limit listed
first wins (the licence's own term first), so the reason printed is the most natural.

An act that rests on another (a Licença Temporária or an advertising licence on the
alvará of the vehicle) checks that act in the registry (:func:`parent_act_items`): it
exists, is not cancelled, is in force on the date of issue and is the vehicle's; the
dependent act ends no later than it. The validity the registry records wins over the
one written in the data: a difference is an *invalid* item. Without the registry's
record the condition is *missing*, never met: lavra does not certify an act it cannot
see. A licence for a vehicle that already holds one of the same kind in force is
refused unless it renews or replaces that one (:func:`duplicate_items`).

Helpers only: each item cites the provision of the computation that asked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any

from num2words import num2words

from lavra.checking.computations import History, PriorRecord, clean_text, item_at
from lavra.checking.report import Item, Status
from lavra.errors import InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.model import Law
from lavra.law.statutory import StatutoryContext
from lavra.registry.state import plate_forms
from lavra.textutil import format_date
from lavra_americana.comum.citing import numbered, short
from lavra_americana.comum.guards import bare_number, standing_items
from lavra_americana.comum.vehicle_age import VehicleLaw, vehicle_age

__all__ = [
    "IMPLEMENTED",
    "Limit",
    "act_at",
    "bare_number",
    "duplicate_items",
    "earliest",
    "in_full",
    "parent_act_items",
    "same_plate",
    "validity_explanation",
    "vehicle_limit",
]

IMPLEMENTED: tuple[str, ...] = ()
"""Helpers only: each item cites the rule that made it."""


@dataclass(frozen=True)
class Limit:
    """One limit on a licence's validity: its last day and, in pt-BR, what sets it
    (``"o prazo de 5 (cinco) anos do alvará (art. 8º)"``)."""

    end: date
    reason: str
    basis: tuple[str, ...] = ()


def in_full(amount: int, unit: str) -> str:
    """``"5 (cinco) anos"``: a count in figures and words, as official acts write it."""
    return f"{amount} ({_words(amount)}) {unit}"


@lru_cache(maxsize=256)
def _words(amount: int) -> str:
    """``amount`` in pt-BR words (the same few terms and ages in every check of a run:
    num2words builds its converter on each call)."""
    return str(num2words(amount, lang="pt_BR"))


def earliest(limits: Sequence[Limit]) -> Limit:
    """The limit that binds: the earliest end; on a tie, the one listed first."""
    return min(limits, key=lambda limit: limit.end)


def validity_explanation(limits: Sequence[Limit]) -> str:
    """``"O vencimento em 31/12/2026 é o primeiro dos limites aplicáveis: …; os demais
    vencem depois: …"``: which limit set the date, and the others."""
    chosen = earliest(limits)
    others = [limit for limit in limits if limit is not chosen]
    text = (
        f"O vencimento em {format_date(chosen.end)} é o primeiro dos limites aplicáveis: "
        f"{chosen.reason}"
    )
    if others:
        listed = "; ".join(f"{limit.reason}, em {format_date(limit.end)}" for limit in others)
        verb = "os demais terminariam" if len(others) > 1 else "o outro terminaria"
        text += f"; {verb} depois: {listed}"
    return text + "."


def vehicle_limit(
    data: Mapping[str, Any],
    pointer: str,
    start: date,
    context: StatutoryContext,
    law: VehicleLaw,
    *,
    kind: str | None = None,
    what: str = "do veículo",
) -> Limit | None:
    """The last day the vehicle at ``pointer`` is within its age limit, as a :class:`Limit`.

    None when the year of manufacture is not given or the limit cannot be read (the
    form's age check reports either).
    """
    year = pointers.get(data, pointer + "/ano_fabricacao")
    if isinstance(year, bool) or not isinstance(year, int):
        return None
    try:
        age = vehicle_age(year, start, law=law, kind=kind, params=context.parameters)
    except LavraError:
        return None
    cited = age.basis[0] if age.basis else None
    ref = f" ({short(context.laws, cited)})" if cited else ""
    return Limit(
        age.last_day,
        f"o limite de {in_full(age.limit, 'anos')} de fabricação {what}, fabricado em {year}"
        + ref,
        age.basis,
    )


def same_plate(one: Any, other: Any) -> bool | None:
    """Whether two plates are the same vehicle; None when either is unknown. An old plate
    and its Mercosul form are one vehicle (the state keeps the form it bears now)."""
    first, second = clean_text(one), clean_text(other)
    if first is None or second is None:
        return None
    try:
        return bool(set(plate_forms(first)) & set(plate_forms(second)))
    except InputError:
        return first.replace("-", "").upper() == second.replace("-", "").upper()


def parent_act_items(
    history: History | None,
    form: str,
    number: Any,
    stated: date | None,
    on: date,
    what: str,
    basis: tuple[str, ...],
    *,
    number_field: str,
    until_field: str,
    plate: Any = None,
    in_force: bool = True,
    consequence: str = "o ato que dele depende não pode ser expedido",
    feminine: bool = False,
    holder: Any = None,
    holder_field: str | None = None,
    laws: Mapping[str, Law],
) -> tuple[PriorRecord | None, list[Item]]:
    """The act ``form`` nº ``number`` (stated valid to ``stated``) checked in the registry.

    Returns the registry's record (None when it lacks the act) and the items:
    *missing* when the registry does not have it (or is not consulted), *invalid* when
    it is cancelled, not in force on ``on`` (when ``in_force``), another vehicle's, or
    registered with another validity than ``stated``; *met* otherwise. ``feminine``:
    ``what`` is worded in the feminine ("a Licença Temporária … cancelada").

    When the licensing state follows ``form``, its answer decides first
    (:func:`lavra_americana.comum.guards.standing_items`): a number of lavra's own series
    the registry lacks, or a licence it holds ended (cassado, revogado, recolhido...),
    is *invalid*, citing ``basis`` (in the message too, through ``laws``); so is, with
    ``holder_field``, a CPF/CNPJ ``holder`` other than the licence's holder in the state
    (:func:`lavra_americana.comum.guards.holder_items`).
    """
    the, it, ending = ("A", "ela", "a") if feminine else ("O", "ele", "o")
    wanted = clean_text(number)
    if wanted is None:
        return None, []  # the schema reports the number missing
    found: PriorRecord | None = None if history is None else history.document(form, wanted)
    field = number_field
    view = None
    if found is None or not found.cancelled:  # a cancelled act: said below
        view, refused = standing_items(history, wanted, on, kind=form, what=what,
                                        field=field, basis=basis, laws=laws, feminine=feminine,
                                        holder=holder, holder_field=holder_field)
        if refused:
            return found, refused
    if found is None:
        return None, [
            item_at(
                field,
                Status.MISSING,
                f"{the} {numbered(what, wanted)} não consta do registro de documentos emitidos: "
                f"sem conferir no registro que {it} existe, está em vigor e não foi "
                f"cancelad{ending}, "
                f"{consequence}.",
                *basis,
            )
        ]
    items: list[Item] = []
    label = f"{the} {what} {found.printed}"
    if found.cancelled:
        reason = f" ({found.cancel_reason})" if found.cancel_reason else ""
        items.append(
            item_at(field, Status.INVALID, f"{label} foi cancelad{ending}{reason}.", *basis)
        )
    elif in_force and not found.in_force(on):
        until = format_date(found.valid_until) if found.valid_until else "sem validade registrada"
        items.append(
            item_at(
                field,
                Status.INVALID,
                f"{label} não está em vigor em {format_date(on)} (válid{ending} de "
                f"{format_date(found.reference_date)} até {until}).",
                *basis,
            )
        )
    # The vehicle the licence has now, as the state holds it (a change of vehicle,
    # escolar art. 17, § 1º, replaced the one its act named); the act's own otherwise.
    parent_plate = (view.placa if view is not None and view.placa
                    and view.vehicle_changed_on is not None
                    else pointers.get(found.data, "/veiculo/placa"))
    if same_plate(plate, parent_plate) is False:
        items.append(
            item_at(
                field,
                Status.INVALID,
                f"{label} é do veículo de placa {parent_plate}, não deste.",
                *basis,
            )
        )
    if found.valid_until is not None and stated is not None and stated != found.valid_until:
        items.append(
            item_at(
                until_field,
                Status.INVALID,
                f"{label} vale, segundo o registro, até {format_date(found.valid_until)}; "
                "corrija a validade informada.",
                *basis,
            )
        )
    if not items:
        until = format_date(found.valid_until) if found.valid_until else "-"
        items.append(
            item_at(
                field,
                Status.MET,
                f"{label} consta do registro, válid{ending} até {until} e não cancelad{ending}.",
                *basis,
            )
        )
    return found, items


def act_at(
    history: History | None,
    form: str,
    data: Mapping[str, Any],
    pointer: str,
    on: date,
    what: str,
    basis: tuple[str, ...],
    *,
    in_force: bool = True,
    holder_at: str | None = None,
    laws: Mapping[str, Law],
) -> tuple[PriorRecord | None, list[Item]]:
    """:func:`parent_act_items` for the act the data name at ``pointer`` (an object with
    ``numero`` and ``valido_ate``), of the data's vehicle (``/veiculo/placa``) and, with
    ``holder_at``, of the holder whose CPF/CNPJ the data give there."""
    return parent_act_items(
        history,
        form,
        pointers.get(data, pointer + "/numero"),
        maybe_date(pointers.get(data, pointer + "/valido_ate")),
        on,
        what,
        basis,
        number_field=pointer + "/numero",
        until_field=pointer + "/valido_ate",
        plate=pointers.get(data, "/veiculo/placa"),
        in_force=in_force,
        holder=None if holder_at is None else pointers.get(data, holder_at),
        holder_field=holder_at,
        laws=laws,
    )


def duplicate_items(
    history: History | None,
    form: str,
    plate: Any,
    on: date,
    allowed: Sequence[str],
    field: str,
    what: str,
    basis: tuple[str, ...],
) -> list[Item]:
    """*Invalid* when the vehicle already holds a ``form`` in force on ``on`` that is not
    one of ``allowed`` (the numbers this one renews or replaces)."""
    wanted = clean_text(plate)
    if history is None or wanted is None:
        return []
    kept = {bare_number(number) for number in allowed if clean_text(number)}
    items = []
    for record in history.in_force(wanted, form, on):
        if bare_number(record.number) in kept:
            continue
        items.append(
            item_at(
                field,
                Status.INVALID,
                f"O veículo de placa {wanted} já tem {what} em vigor ({record.printed}, "
                f"válido até {format_date(record.valid_until) if record.valid_until else '-'}): "
                "outro só se expede para renová-lo ou substituí-lo; informe-o como alvará "
                "anterior.",
                *basis,
            )
        )
    return items

