"""An auto de infração annulled on appeal no longer counts: fretamento arts. 18, 22, II,
23, 24 and 26 (Lei nº 4.419/2006); transporte escolar arts. 23, 25 and 27 (Lei nº
4.515/2007).

A decision that grants in full the appeal against an auto (the Secretário's under
fretamento art. 23, the Prefeito's under art. 24 reforming a decision that kept it, the
Prefeito's under escolar art. 25, the reconsideração of art. 27) reverses the auto's
effect (:mod:`lavra_americana.comum.recurso_estado`): the registry marks the auto
annulled on appeal, with the decision that annulled it, and the mark goes away if that
decision is cancelled or reformed by a higher instance
(:attr:`lavra.checking.computations.PriorRecord.annulled_by`).

An annulled auto is no fine and no infraction that stands. Hence, each rule reading it:

- it does not count for the repeat offence (fretamento art. 18; escolar art. 23, I, II
  and parágrafo único), nor among the autos a revalidação or an auxiliary's alvará
  weighs: the registry's ``prior_autos`` leaves it out;
- it is not one of the three fines after which the alvará is revoked (escolar art. 23,
  III), nor an unpaid fine for the cassação (fretamento art. 22, II), nor a fine a guia
  collects (art. 26): an act citing it as a fact (the revogação, its defence notice,
  the cassação, the guia, an earlier infraction typed in an escolar auto) is refused by
  an *invalid* item naming the decision that annulled it (:func:`annulled_item`).

Reading chosen where the law is silent: *a decision granting the appeal only in part*
("parcialmente provido"; the reconsideração "em parte") keeps the auto. It reduces or
changes the penalty, as its determinações say, but the infraction was found to stand:
it counts for the repeat offence, the third fine and the cassação as any auto not
annulled. Neither law speaks of it; the repeat is of "a mesma infração" (fretamento art.
18) and of the infraction's date (escolar art. 23, parágrafo único), which a partial
grant leaves in place. The amount it sets is free text in the decision (its
determinações), which lavra does not compute: the guia of such an auto (art. 26), which
would charge the auto's own amount, is refused, naming the decision
(:func:`partial_decision`); the fine is then collected as the decision says, outside
lavra.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.checking.computations import History, PriorRecord, clean_text, item_at
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.registry.state import parse_printed
from lavra.textutil import format_date

__all__ = ["IMPLEMENTED", "annulled", "annulled_item", "listed_items", "partial_decision",
           "situacao"]

DECISIONS = ("decisao-recurso-secretario", "decisao-recurso-prefeito")
"""The decisions on appeal (fretamento arts. 23 and 24; escolar arts. 25 and 27)."""
PARTIAL = "parcialmente_provido"
DENIED = "nao_provido"

IMPLEMENTED: tuple[str, ...] = ()
"""A predicate and its refusal; each caller cites the article it applies (arts. 18,
22, II and 26 of fretamento; art. 23 of escolar)."""


def annulled(record: PriorRecord | None) -> bool:
    """Whether the registry holds ``record`` annulled on appeal (the auto no longer
    stands)."""
    return record is not None and record.annulled_by is not None


def situacao(record: PriorRecord) -> str:
    """``"anulado em recurso (DEC-SETRANSV nº 0001/2026, de 20/03/2026)"``; empty while
    the auto stands."""
    if record.annulled_by is None:
        return ""
    when = "" if record.annulled_on is None else f", de {format_date(record.annulled_on)}"
    return f"anulado em recurso ({record.annulled_by}{when})"


def annulled_item(record: PriorRecord | None, pointer: str, consequence: str,
                  *basis: str) -> Item | None:
    """*Invalid* at ``pointer`` when ``record`` (an auto cited as a fact) was annulled on
    appeal: the message names the decision, then ``consequence`` (what the act cannot
    do), citing ``basis``; None while it stands."""
    if record is None or not annulled(record):
        return None
    return item_at(pointer, Status.INVALID,
                   f"O Auto de Infração {record.printed} foi {situacao(record)}: não "
                   f"subsiste, e {consequence}", *basis)


def listed_items(history: History | None, form: str, data: Mapping[str, Any], at: str,
                 key: str, consequence: str, *basis: str) -> list[Item]:
    """:func:`annulled_item` for each auto of ``form`` numbered under ``key`` in the list
    at ``at`` (an escolar auto's earlier infractions) that the registry holds."""
    listed = pointers.get(data, at)
    if history is None or not isinstance(listed, list):
        return []
    items: list[Item] = []
    for index, entry in enumerate(listed):
        number = clean_text(entry.get(key)) if isinstance(entry, Mapping) else None
        found = None if number is None else history.document(form, number)
        void = annulled_item(found, f"{at}/{index}/{key}", consequence, *basis)
        if void is not None:
            items.append(void)
    return items


def _key(number: object) -> tuple[str, int, int] | None:
    parsed = parse_printed(number) if isinstance(number, str) else None
    if parsed is None or parsed[0] is None:
        return None
    return parsed[0].upper(), parsed[1], parsed[2]


def partial_decision(history: History | None, auto: PriorRecord,
                     appellant: object) -> PriorRecord | None:
    """The decision, not cancelled, that granted only in part the appeal of
    ``appellant`` (CPF or CNPJ) against ``auto``, or against a decision that denied it
    (the Prefeito's of fretamento art. 24); None when there is none (module doc)."""
    if history is None or not isinstance(appellant, str) or not appellant.strip():
        return None
    decisions = sorted((d for form in DECISIONS for d in history.by_holder(appellant, form)
                        if not d.cancelled), key=lambda d: (d.reference_date, d.printed))
    ruled = {key for key in (_key(auto.printed),) if key is not None}
    for decision in decisions:
        if _key(pointers.get(decision.data, "/ato_recorrido/numero")) not in ruled:
            continue
        result = pointers.get(decision.data, "/decisao/resultado")
        if result == PARTIAL:
            return decision
        own = _key(decision.printed)
        if result == DENIED and own is not None:
            ruled.add(own)  # a higher instance may grant the appeal against it in part
    return None
