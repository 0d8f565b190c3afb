"""The autos de infração of Lei nº 4.419/2006 another act cites, read from the registry.

Issue 22, § 3: an act takes the facts of an earlier act from the registry, not from a
typed copy. The cassação of art. 22, II lists the autos whose fines were not paid
(:mod:`lavra_americana.fretamento.cassacao`), and the notice that opens its defence
states the facts in free text (:mod:`lavra_americana.comum.notificacao_defesa`); both
cite autos of lavra's own series (``AIF-FRET``). Each such auto must be one the registry
holds (drawn up by lavra or imported), not cancelled, drawn up against the same company
(its CNPJ) and dated no later than the act that cites it; otherwise the citing act is
*invalid*, naming the auto and the article. An auto on paper, outside the series and not
imported, is not checked here: the act keeps its typed facts (the paper case of § 3).

:func:`auto_amount` is the auto's total as the registry's auto computes it (the same
answer the guia of art. 26 prints), so that the cassação prints the registry's value.

Implements no provision by itself: each item cites the article of the act that asked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from lavra.checking.computations import (
    ComputeInput,
    History,
    PriorRecord,
    clean_text,
    filed_by_party,
    item_at,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.formats import only_digits_and_letters
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import StatutoryContext, deadline_for
from lavra.registry.state import parse_printed
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum.auto_anulado import annulled_item
from lavra_americana.comum.guards import series_of
from lavra_americana.fretamento.auto_infracao import auto_infracao_fretamento

__all__ = ["AUTO_FORM", "IMPLEMENTED", "auto_amount", "auto_computed", "cited_in_text",
           "pending_appeal", "registered_auto", "second_appeal_open"]

AUTO_FORM = "auto-infracao-fretamento"
APPEAL_FORM = "recurso-fretamento"
SECRETARY = "decisao-recurso-secretario"
PREFECT = "decisao-recurso-prefeito"
DECISIONS = (SECRETARY, PREFECT)
UNPAID = "fretamento#art22_inc2"
SECOND_APPEAL = "fretamento#art24"
COMPANY = "/empresa/cnpj"

IMPLEMENTED: tuple[str, ...] = ()
"""Helpers only: each item cites the article of the act that asked."""


def _digits(value: Any) -> str:
    return only_digits_and_letters(value) if isinstance(value, str) else ""


def _in_series(number: str) -> bool:
    series = series_of(AUTO_FORM)
    return bool(series) and re.match(
        rf"\s*{re.escape(str(series))}(?![A-Z-])", number, re.IGNORECASE) is not None


def registered_auto(
    history: History | None, typed: Any, *, company: Any, on: date, field: str,
    basis: Sequence[str], act: str,
) -> tuple[PriorRecord | None, list[Item]]:
    """The auto ``typed`` as the registry holds it, and the items that refuse citing it.

    ``act`` names the citing act in the messages ("a cassação"); ``on`` is its date;
    ``company`` the CNPJ it is addressed to. ``(None, [])`` for an auto on paper (outside
    lavra's series) or without a registry."""
    number = clean_text(typed)
    if history is None or number is None:
        return None, []
    found = history.document(AUTO_FORM, number)
    if found is None:
        if not _in_series(number):
            return None, []
        return None, [item_at(
            field, Status.INVALID,
            f"O Auto de Infração {format_act_number(number)} não consta do registro: o "
            f"número é da série {series_of(AUTO_FORM)} do lavra e nenhum auto lavrado ou "
            f"importado o tem; {act} não pode apoiar-se nele. Confira o número.", *basis)]
    label = f"O Auto de Infração {found.printed}"
    problems: list[str] = []
    if found.cancelled:
        reason = f" ({found.cancel_reason})" if found.cancel_reason else ""
        problems.append(f"{label} foi cancelado{reason}: não subsiste, e {act} não pode "
                        "apoiar-se nele.")
    held, wanted = _digits(pointers.get(found.data, COMPANY)), _digits(company)
    if held and wanted and held != wanted:
        name = clean_text(pointers.get(found.data, "/empresa/razao_social")) or "outra empresa"
        problems.append(f"{label} foi lavrado contra {name} (outro CNPJ), não contra a "
                        f"empresa a que se dirige {act}.")
    if found.reference_date > on:
        problems.append(f"{label} registra infração de {format_date(found.reference_date)}, "
                        f"posterior à data do ato ({format_date(on)}): {act} não pode citar "
                        "auto ainda não lavrado.")
    return found, [item_at(field, Status.INVALID, p, *basis) for p in problems]


def cited_in_text(
    history: History | None, text: Any, *, company: Any, on: date, field: str,
    basis: Sequence[str], act: str,
) -> list[Item]:
    """Each number of lavra's auto series written in free ``text`` (``AIF-FRET nº
    0001/2026``, ``AIF-FRET 1/2026``), checked as :func:`registered_auto` checks a listed
    one: a fact stated in prose is no less a citation; and one annulled on appeal is
    refused too (:func:`lavra_americana.comum.auto_anulado.annulled_item`): it no longer
    stands, and no act may state its fine as a fact."""
    series = series_of(AUTO_FORM)
    if history is None or not isinstance(text, str) or not series:
        return []
    pattern = re.compile(
        rf"{re.escape(series)}(?![A-Z-])\s*(?:n\s*[º°o.]\s*)?(\d{{1,9}})\s*/\s*(\d{{4}})",
        re.IGNORECASE)
    items: list[Item] = []
    seen: set[str] = set()
    for match in pattern.finditer(text):
        number = f"{series} nº {int(match.group(1)):04d}/{match.group(2)}"
        if number in seen:
            continue
        seen.add(number)
        found, refused = registered_auto(history, number, company=company, on=on,
                                         field=field, basis=basis, act=act)
        items.extend(refused)
        void = None if refused else annulled_item(
            found, field, f"{act} não pode apoiar-se nele.", *basis)
        if void is not None:
            items.append(void)
    return items


def auto_computed(request: ComputeInput, auto: PriorRecord) -> Mapping[str, Any]:
    """The values of ``auto`` computed as it was issued, on the date of its infraction
    (its infractions and fines: arts. 14, 18 and 20, the pack's amount rules)."""
    day = auto.reference_date
    return auto_infracao_fretamento(ComputeInput(
        form_id=AUTO_FORM, data=auto.data, on=day, pack_dir=request.pack_dir,
        history=request.history, draft=True, example_values=request.example_values,
        issued_on=day, staff_values=request.staff_values,
    )).values


def auto_amount(request: ComputeInput, auto: PriorRecord) -> str | None:
    """The total of the fines of ``auto`` (``"140.00"``, :func:`auto_computed`); None when
    it cannot be computed (an imported auto without its infractions)."""
    total = auto_computed(request, auto).get("total")
    return None if total is None else f"{Decimal(str(total)):.2f}"


def _key(number: object) -> tuple[str, int, int] | None:
    parsed = parse_printed(number) if isinstance(number, str) else None
    if parsed is None or parsed[0] is None:
        return None
    return parsed[0].upper(), parsed[1], parsed[2]


def pending_appeal(history: History | None, auto: PriorRecord, company: Any,
                   on: date) -> tuple[str, str] | None:
    """The recurso of ``company`` against ``auto`` still undecided on ``on``: (its
    protocol, the act it appeals, as printed), or None.

    A recurso is one filed (protocolado) on or before ``on`` as ``recurso-fretamento``
    naming as ``/ato_recorrido/numero`` the auto (art. 23) or a decision on appeal that
    kept it (art. 24); it is decided when the registry holds, not cancelled and dated on
    or before ``on``, a decision on appeal whose ``/ato_recorrido/numero`` is the act it
    appeals. A decision that granted it annulled the auto (:mod:`lavra_americana.comum.
    auto_anulado`); one that kept it is itself appealable to the Prefeito (art. 24), so
    the chain is followed down from the auto."""
    finder = filed_by_party(history)
    if history is None or finder is None or not isinstance(company, str):
        return None
    appeals = [f for f in finder.filed_by(company, APPEAL_FORM) if f.filed_on <= on]
    if not appeals:
        return None
    decisions = sorted((d for form in DECISIONS for d in history.by_holder(company, form)
                        if not d.cancelled and d.reference_date <= on),
                       key=lambda d: (d.reference_date, d.printed))
    ruled: dict[tuple[str, int, int], str] = {}
    wanted = _key(auto.printed)
    if wanted is None:
        return None
    ruled[wanted] = auto.printed
    decided: set[tuple[str, int, int]] = set()
    for decision in decisions:
        appealed = _key(pointers.get(decision.data, "/ato_recorrido/numero"))
        own = _key(decision.printed)
        if appealed in ruled:
            decided.add(appealed)
            if own is not None:
                ruled[own] = decision.printed
    for filed in appeals:
        appealed = _key(pointers.get(filed.data, "/ato_recorrido/numero"))
        if appealed in ruled and appealed not in decided:
            return filed.protocol, ruled[appealed]
    return None


def _decided(history: History, company: str, form: str, on: date) -> list[PriorRecord]:
    return sorted((d for d in history.by_holder(company, form)
                   if not d.cancelled and d.reference_date <= on),
                  key=lambda d: (d.reference_date, d.printed))


def _ciencia(decision: PriorRecord, on: date) -> tuple[date | None, str]:
    """The ciência of ``decision`` the registry holds on ``on`` (the one the act gives
    itself, else the one recorded on its entry) and how it was given; None when none
    on or before ``on``."""
    own = maybe_date(pointers.get(decision.data, "/ciencia/data"))
    if own is not None:
        return (own if own <= on else None), "dada no próprio ato"
    fact = decision.fact("ciencia")
    if fact is None or fact.on > on:
        return None, ""
    return fact.on, "registrada no registro do ato"


def second_appeal_open(history: History | None, auto: PriorRecord, company: Any, on: date,
                       context: StatutoryContext, field: str) -> Item | None:
    """*Invalid* when, on ``on``, the Secretário's decision that kept the fine of ``auto``
    on the appeal of art. 23 may still be appealed to the Prefeito (art. 24: "no mesmo
    prazo", 15 days "a contar da ciência da decisão anterior"): no decision of the
    Prefeito on it, and either its ciência is on record and the 15 days run through
    ``on``, or no ciência is on record by ``on``. A recurso already filed against it and
    undecided is :func:`pending_appeal`'s case, asked first.

    The readings kept (art. 22, II; art. 24): a decision that keeps the fine opens the
    appeal of art. 24; while it may still be brought, the company has not yet left the
    fine unpaid "sem interposição de recurso", any more than during the 15 days of art.
    23, and the fine is not final. With no ciência of the decision on record the period
    has not begun, so it cannot be said closed: the cassação is refused until the ciência
    is recorded and the 15 days have run — the law is silent, and due process comes
    before the adverse act (CF art. 5º, LV): a company never told of the decision cannot
    have let the appeal lapse. A decision of the Prefeito (keeping the fine) ends the
    chain; one granting the appeal annulled the auto, refused before this is asked."""
    wanted = _key(auto.printed)
    if history is None or not isinstance(company, str) or wanted is None:
        return None
    kept = [d for d in _decided(history, company, SECRETARY, on)
            if _key(pointers.get(d.data, "/ato_recorrido/numero")) == wanted]
    if not kept:
        return None
    reviewed = {_key(pointers.get(d.data, "/ato_recorrido/numero"))
                for d in _decided(history, company, PREFECT, on)}
    open_ = [d for d in kept if _key(d.printed) not in reviewed]
    if not open_:
        return None
    decision = open_[-1]
    said = (f"O Auto de Infração {auto.printed} foi mantido pela decisão {decision.printed}, "
            f"de {format_date(decision.reference_date)}, no recurso do art. 23")
    unpaid = ("ainda não se pode afirmar que a multa deixou de ser recolhida sem "
              "interposição de recurso, e ela não é hipótese de cassação (art. 22, II)")
    ciencia, how = _ciencia(decision, on)
    if ciencia is None:
        return item_at(field, Status.INVALID, (
            f"{said}, e não consta do registro a ciência dessa decisão até a data da "
            f"cassação ({format_date(on)}): o prazo de 15 dias do recurso ao Prefeito, "
            "contado da ciência (art. 24), não começou a correr, e não se pode dizê-lo "
            f"encerrado; {unpaid}. Registre a ciência da decisão e aguarde o fim do prazo."),
            UNPAID, SECOND_APPEAL)
    try:
        last = deadline_for(SECOND_APPEAL, ciencia, context=context).last_day
    except LavraError as error:
        return item_at(field, Status.MISSING, (
            f"Não foi possível calcular o prazo do recurso ao Prefeito contra a decisão "
            f"{decision.printed} (art. 24): {error.message}"), UNPAID, SECOND_APPEAL)
    if last < on:
        return None
    return item_at(field, Status.INVALID, (
        f"{said}, com ciência {how} em {format_date(ciencia)}: o prazo do recurso ao "
        f"Prefeito (art. 24) corre até {format_date(last)}, inclusive; na data da cassação "
        f"({format_date(on)}) {unpaid}."), UNPAID, SECOND_APPEAL)
