"""The licensing state's guards, read before anything is numbered.

The registry refuses, when it records an act, a grant the state forbids (a vehicle
or a person that already holds a licence in force, a holder still barred) and an act
resting on a licence it does not hold (:mod:`lavra.registry.state`). Each check of a
form asks the same question of the state first (:class:`lavra.checking.computations.
LicensingHistory`), so that staff see the answer in the draft as an item citing the
article, and nothing is rendered or signed in vain:

- :func:`bar_items`: the holder is barred (a cassação, a transfer) until a day;
- :func:`held_items`: the vehicle (or the person) holds a licence in force of the
  same group (one operating alvará per vehicle; one school licence per person);
- :func:`standing_items`: the licence an act rests on, as the state holds it: in the
  registry and not ended (cassado, revogado, recolhido...), and held by the titular the
  act names (:func:`holder_items`, issue 22, § 3: after a transfer the act that granted
  the licence still names the cedente; an act resting on the licence is expedited to,
  or against, whoever holds it now, each form citing the article that ties it to the
  alvará's holder).

Without the state (no registry, or a form the state does not follow) each returns no
item: the form's own checks answer, as before. Helpers only: each item cites the
provision of the computation that asked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import date
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lavra.checking.computations import History, clean_text, item_at, licensing
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.law.model import Law
from lavra.registry.effects import LicenceStatus
from lavra.registry.records import normalize_cpf_cnpj
from lavra.textutil import format_date
from lavra_americana.comum.citing import cite_many

if TYPE_CHECKING:
    from lavra.registry.licensing import LicenceView

__all__ = ["IMPLEMENTED", "bar_items", "bare_number", "held_items", "holder_items",
           "series_of", "standing_items", "state_holder"]

FORMS = Path(__file__).resolve().parent.parent / "forms"

IMPLEMENTED: tuple[str, ...] = ()
"""Helpers only: each item cites the rule that made it."""


def _cited(laws: Mapping[str, Law] | None, basis: Sequence[str]) -> str:
    return cite_many(laws, *basis) if basis and laws is not None else ""


def _paren(laws: Mapping[str, Law] | None, basis: Sequence[str]) -> str:
    cited = _cited(laws, basis)
    return f" ({cited})" if cited else ""


@cache
def series_of(form: str) -> str | None:
    """The series lavra numbers the acts of ``form`` in (its ``formulario.json``)."""
    try:
        spec = json.loads((FORMS / form / "formulario.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    series = spec.get("serie") if isinstance(spec, dict) else None
    return series if isinstance(series, str) else None


def bare_number(number: str) -> str:
    """``"0001/2026"`` from ``"ALV-X nº 0001/2026"`` or ``"1/2026"``."""
    text = number.strip()
    tail = text.split()[-1] if text else text
    head, _, year = tail.partition("/")
    digits = head.lstrip("nº°o.")
    return f"{int(digits):04d}/{year}" if digits.isdigit() and year.isdigit() else text


def _until(view: LicenceView) -> str:
    return "" if view.valid_until is None else f", válido até {format_date(view.valid_until)}"


def bar_items(
    history: History | None,
    cpf_cnpj: Any,
    scope: str,
    on: date,
    *,
    who: str,
    what: str,
    by: str,
    field: str,
    basis: Sequence[str],
    laws: Mapping[str, Law],
) -> list[Item]:
    """*Invalid* when the state bars ``cpf_cnpj`` from ``scope`` on ``on``: names the last
    day of the bar, the article (``basis``) and the act that barred, after ``by`` ("pela
    cassação", "pelo termo de transferência")."""
    state = licensing(history)
    doc = clean_text(cpf_cnpj)
    if state is None or doc is None:
        return []
    found = state.bars(doc, scope, on)
    if not found:
        return []
    until, act = found[0]
    return [item_at(
        field, Status.INVALID,
        f"{who} está impedid{'a' if who.startswith('A ') else 'o'} de obter {what} até "
        f"{format_date(until)}{_paren(laws, basis)}, {by} {act}: o ato não pode ser "
        "expedido antes do dia seguinte.",
        *basis,
    )]


def held_items(
    history: History | None,
    on: date,
    *,
    placa: Any = None,
    cpf_cnpj: Any = None,
    group: str,
    allowed: Sequence[Any] = (),
    who: str,
    field: str,
    basis: Sequence[str],
    laws: Mapping[str, Law],
) -> list[Item]:
    """*Invalid* for each licence of ``group`` the vehicle ``placa`` (or the person
    ``cpf_cnpj``) holds in force on ``on``, other than those ``allowed`` (the licence
    the act renews or replaces, as printed or bare): names it and the article."""
    state = licensing(history)
    if state is None:
        return []
    plate, doc = clean_text(placa), clean_text(cpf_cnpj)
    if plate is not None:
        held = state.vehicle_licences(plate, on)
    elif doc is not None:
        held = state.holder_licences(doc, on)
    else:
        return []
    kept = {bare_number(str(number)) for number in allowed if clean_text(number)}
    items = []
    for view in held:
        if group not in (view.exclusive, view.per_holder) or bare_number(view.printed) in kept:
            continue
        items.append(item_at(
            field, Status.INVALID,
            f"{who} já tem licença em vigor: {view.printed}{_until(view)}. Outra não pode ser "
            f"expedida enquanto ela vigorar ({_cited(laws, basis)}); encerre-a antes "
            "(renovação, cassação, revogação, devolução ou transferência).",
            *basis,
        ))
    return items


def standing_items(
    history: History | None,
    number: Any,
    on: date,
    *,
    kind: str,
    what: str,
    field: str,
    basis: Sequence[str],
    laws: Mapping[str, Law],
    feminine: bool = False,
    holder: Any = None,
    holder_field: str | None = None,
) -> tuple[LicenceView | None, list[Item]]:
    """The licence ``kind`` nº ``number`` an act rests on, as the state holds it.

    *Invalid* when the number is in lavra's own series of ``kind`` and the state lacks it
    ("não consta do registro"), or when the state holds it ended (cassado, revogado,
    recolhido, vago, transferido...) on ``on``; and, with ``holder_field``, when the
    CPF/CNPJ ``holder`` the act names is not the licence's holder (:func:`holder_items`).
    No item otherwise (the caller checks validity and vehicle). ``(None, [])`` without
    the state or the number."""
    state = licensing(history)
    wanted = clean_text(number)
    if state is None or wanted is None or not state.tracks(kind):
        return None, []
    the = "A" if feminine else "O"
    view = state.licence_status(wanted, kind)
    cited = _paren(laws, basis)
    series = series_of(kind)
    if view is None:
        if series is None or not wanted.upper().lstrip().startswith(series.upper()):
            return None, []  # a paper act outside lavra's series: the form's own check
        return None, [item_at(
            field, Status.INVALID,
            f"{the} {what} {wanted} não consta do registro: o número é da série {series} "
            f"do lavra e nenhum ato expedido ou importado o tem; o ato que dele depende não "
            f"pode ser expedido{cited}.",
            *basis,
        )]
    if view.status in (LicenceStatus.ACTIVE, LicenceStatus.RENEWED):
        # a renewed licence stands until its own last day
        mismatch = ([] if holder_field is None else
                    holder_items(view, holder, field=holder_field, basis=basis, laws=laws))
        return view, mismatch
    return view, [item_at(
        field, Status.INVALID,
        f"{the} {what} {view.printed} não está em vigor: {view.describe(on)}; o ato que "
        f"dele depende não pode ser expedido{cited}.",
        *basis,
    )]



def holder_items(view: LicenceView, typed: Any, *, field: str, basis: Sequence[str],
                 laws: Mapping[str, Law] | None) -> list[Item]:
    """*Invalid* at ``field`` when the CPF/CNPJ ``typed`` is not the holder the state
    holds for the licence ``view`` (issue 22, § 3): names the holder and, after a
    transfer, the act that made it. No item when either is unknown (the schema reports
    a missing or malformed CPF/CNPJ; a licence imported without holder is not judged)."""
    text = clean_text(typed)
    if text is None or not view.holder:
        return []
    try:
        if normalize_cpf_cnpj(text) == normalize_cpf_cnpj(view.holder):
            return []
    except LavraError:
        return []  # the schema names the malformed CPF/CNPJ
    who = view.holder_name or "outra pessoa"
    since = ("" if view.transferred_by is None
             else f", a quem foi transferido pelo {view.transferred_by}"
                  + ("" if view.transferred_on is None
                     else f" em {format_date(view.transferred_on)}"))
    return [item_at(
        field, Status.INVALID,
        f"O titular informado não é o do {view.printed}: segundo o registro, o titular é "
        f"{who}{since}. O ato que dele depende é expedido em nome do titular da licença"
        f"{_paren(laws, basis)}; corrija o titular.",
        *basis,
    )]


def state_holder(history: History | None, number: Any, kind: str) -> str | None:
    """The CPF/CNPJ (digits) of the holder the state holds for the licence ``kind`` nº
    ``number``; None without the state, the licence or its holder. A check that compared
    the typed titular with the act that granted the licence asks this first: after a
    transfer that act names the cedente."""
    state = licensing(history)
    wanted = clean_text(number)
    if state is None or wanted is None or not state.tracks(kind):
        return None
    view = state.licence_status(wanted, kind)
    return None if view is None else view.holder
