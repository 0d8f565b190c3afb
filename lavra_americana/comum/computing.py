"""What the computations of both laws' forms share: reading the data, report items.

Each computation of the pack (``COMPUTATIONS`` of the modules of
:mod:`lavra_americana.fretamento` and :mod:`lavra_americana.transporte_escolar`) is a pure
function of its :class:`lavra.checking.computations.ComputeInput` that never raises for
what the data or the pack lack; these helpers build the *missing* and *invalid* items it
reports instead, read dates and deadlines, and check a vehicle's age at a form's field.
Implements no provision by itself: each item cites the article of the rule that made it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date, time
from pathlib import Path
from typing import Any

from lavra.checking.computations import (
    ComputeInput,
    clean_text,
    item_at,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import TIMEZONE, maybe_date
from lavra.law.statutory import (
    StatutoryContext,
    deadline_for,
)
from lavra.textutil import format_date
from lavra_americana.comum.vehicle_age import VehicleLaw, vehicle_age

__all__ = [
    "IMPLEMENTED",
    "MUNICIPALITY_NAMES",
    "after_issue",
    "appeal_from_ciencia",
    "ciencia_after_signature",
    "data_of",
    "date_at",
    "deadline_values",
    "fact_after_issue",
    "invalid",
    "issue_items",
    "licence_pending",
    "missing",
    "on_the_spot_items",
    "period_of",
    "vehicle_age_items",
]

IMPLEMENTED: tuple[str, ...] = ()
"""Helpers only: each item cites the rule that made it."""


def data_of(request: ComputeInput) -> Mapping[str, Any]:
    return request.data if isinstance(request.data, Mapping) else {}


def period_of(context: StatutoryContext, citation: str, on: date) -> tuple[int, str] | None:
    """``(amount, unit)`` of the deadline ``citation`` sets, as in force on ``on``."""
    rule = context.rules.get(citation)
    if rule is None or rule.parameter is None:
        return None
    try:
        value = context.parameters.value(rule.parameter, on)
    except LavraError:
        return None
    return int(value.value), str(value.unit)


def form_title(pack_dir: Path, form_id: str) -> str | None:
    """The title a person reads for ``form_id`` (its ``formulario.json``), never the
    id; None when the pack has no such form."""
    try:
        spec = json.loads((pack_dir / "forms" / form_id / "formulario.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    title = spec.get("titulo") if isinstance(spec, dict) else None
    return title if isinstance(title, str) and title.strip() else None


def invalid(requirement: str, pointer: str, message: str, *basis: str) -> Item:
    return Item(requirement, Status.INVALID, pointer, message, tuple(basis))


def missing(requirement: str, pointer: str, message: str, *basis: str) -> Item:
    return Item(requirement, Status.MISSING, pointer, message, tuple(basis))


def date_at(data: Mapping[str, Any], pointer: str) -> date | None:
    return maybe_date(pointers.get(data, pointer))


def after_issue(on: date, issued_on: date, pointer: str, what: str, basis: str) -> list[Item]:
    if on <= issued_on:
        return []
    return [
        Item(
            pointers.dotted(pointer),
            Status.INVALID,
            pointer,
            f"A {what} ({format_date(on)}) é posterior à data de emissão do documento "
            f"({format_date(issued_on)}): o documento registra fato já ocorrido. Corrija a data.",
            (basis,),
        )
    ]


def _hour(value: Any) -> time | None:
    if not isinstance(value, str):
        return None
    try:
        return time.fromisoformat(value.strip())
    except ValueError:
        return None


def fact_after_issue(
    request: ComputeInput,
    day: date | None,
    pointer: str,
    what: str,
    *basis: str,
    hour: Any = None,
    hour_pointer: str | None = None,
) -> list[Item]:
    """An *invalid* item when the fact at ``pointer`` (and its ``hour``, "HH:MM") comes
    after the moment of issue: a signed act records only what has already happened.

    The date is compared with ``request.issued_on``; on the day of issue, the time of day
    with ``request.issued_at`` (America/Sao_Paulo) when the engine knows the moment.
    """
    if day is None:
        return []
    if day > request.issued_on:
        return [
            item_at(
                pointer,
                Status.INVALID,
                f"A {what} ({format_date(day)}) é posterior à data de emissão do documento "
                f"({format_date(request.issued_on)}): o ato registra apenas fatos já "
                "ocorridos. Corrija a data, ou emita o ato depois do fato.",
                *basis,
            )
        ]
    at = _hour(hour)
    moment = request.issued_at.astimezone(TIMEZONE) if request.issued_at else None
    if at is None or moment is None or day != moment.date():
        return []
    if (at.hour, at.minute) <= (moment.hour, moment.minute):
        return []
    return [
        item_at(
            hour_pointer or pointer,
            Status.INVALID,
            f"A {what} ({format_date(day)}, às {at.strftime('%H:%M')}) é posterior ao momento "
            f"da emissão do documento ({format_date(moment.date())}, às "
            f"{moment.strftime('%H:%M')}, horário de Brasília): o ato registra apenas fatos já "
            "ocorridos. Corrija a hora, ou emita o ato depois do fato.",
            *basis,
        )
    ]


OCCURRENCE_DATE = "/ocorrencia/data"
OCCURRENCE_HOUR = "/ocorrencia/hora"
CIENCIA_DATE = "/ciencia/data"


def on_the_spot_items(request: ComputeInput, what: str, *basis: str) -> list[Item]:
    """Facts of an act issued on the spot (auto, advertência, termo) against its issue.

    The time of the occurrence (``/ocorrencia/hora``) on the day of issue may not be
    later than the moment of issue; the ciência written in the act (``/ciencia/data``)
    is the one given when the act is handed over, so it may not be after the issue
    either (a later ciência, by notification, is documented apart — recorded on the
    entry with ``lavra fato ciencia`` — and the appeal runs from it). An occurrence
    *date* after the issue is the caller's to report (each act words it): only its hour
    is judged here.

    Reading kept (issue 23, class 1), for the acts drawn up with the party present —
    auto-infracao-escolar and auto-infracao-fretamento (fretamento art. 14; transporte
    escolar art. 25: penalties applied "através da fiscalização"),
    termo-impedimento-fretamento (fretamento art. 21, § 1º: the irregularity "sanada no
    local da infração"), recibo-recolhimento-alvara (art. 21, § 2º: the alvará withdrawn
    when the irregularity cannot be remedied "no local") and termo-devolucao-alvara (art.
    21, § 4º): their "tomei ciência em" keeps its date. The ciência they print is the one
    given at the moment of the act, in the agent's presence, on the via handed over there;
    it is never later than the signature in lavra (a ciência after the issue is *invalid*
    here, and the act then takes the branch "a ciência será dada por notificação"), so it is
    a fact already known when the act is signed, not a future one. The decisions and notices
    signed in the office (cassação, indeferimento, revogação, notificacao-fretamento) are
    different: the party is not there when they are signed, and their line is blank
    (``forms/_modelos/ciencia_em_branco.html``). Keeping the date also keeps the escolar
    auto's appeal (arts. 25 and 26: 10 days from the day the offender learned of the
    penalty) counted from the ciência given in the auto, which
    :mod:`lavra_americana.comum.ciencia_recorrido` reads as the ciência "dada no próprio
    ato". A ciência before the occurrence is each act's to report.
    """
    data = data_of(request)
    day = date_at(data, OCCURRENCE_DATE)
    found: list[Item] = []
    if day is not None and day <= request.issued_on:
        found.extend(
            fact_after_issue(
                request, day, OCCURRENCE_DATE, what, *basis,
                hour=pointers.get(data, OCCURRENCE_HOUR), hour_pointer=OCCURRENCE_HOUR,
            )
        )
    ciencia = date_at(data, CIENCIA_DATE)
    if ciencia is not None and ciencia > request.issued_on:
        found.append(
            item_at(
                CIENCIA_DATE,
                Status.INVALID,
                f"A data da ciência ({format_date(ciencia)}) é posterior à data de emissão do "
                f"ato ({format_date(request.issued_on)}): a ciência escrita no ato é a dada na "
                "sua entrega. A ciência posterior, dada por notificação, não se escreve no ato "
                "assinado: documenta-se à parte (aviso de recebimento), e dela se conta o prazo.",
                *basis,
            )
        )
    return found


def deadline_values(
    citation: str, start: date, context: StatutoryContext, pointer: str
) -> tuple[dict[str, Any] | None, list[Item]]:
    try:
        deadline = deadline_for(citation, start, context=context)
    except LavraError as error:
        message = f"Não foi possível calcular o prazo ({citation}): {error.message}"
        return None, [Item(f"prazo.{citation}", Status.MISSING, pointer, message, (citation,))]
    values = {
        "ultimo_dia": deadline.last_day,
        "primeiro_dia_permitido": deadline.first_allowed_day,
        "prorrogado": deadline.moved,
        "explicacao": deadline.explanation,
        "contagem": deadline.counting,
        "referencia": deadline.reference,
        "prazo": deadline.period.amount if deadline.period is not None else None,
        "unidade": deadline.period.unit if deadline.period is not None else None,
    }
    return values, []


def appeal_from_ciencia(
    request: ComputeInput,
    on: date,
    context: StatutoryContext,
    citation: str,
    rule: str,
    pointer: str = "/ciencia/data",
) -> tuple[dict[str, Any], list[Item]]:
    """The appeal a decision of ``on`` prints: its ``regra`` (the period, counted from the
    ciência), never a last day.

    The ciência is a fact after the signature: the act leaves its line blank, for the
    day to be written by hand when the party takes ciência, and the ciência is recorded
    afterwards on the document's entry (``lavra fato ciencia``), from which the registry
    counts the last day (:class:`lavra.recording.FactRecorder`). A ciência date typed in
    the data (``pointer``) would print as fact what has not happened: it is *invalid*.
    ``values``: ``regra``, ``ultimo_dia`` (always None), ``explicacao`` (None).
    ``on`` and ``context`` are kept for the callers' symmetry with the other deadlines.
    """
    del on, context
    appeal: dict[str, Any] = {"regra": rule, "ultimo_dia": None, "explicacao": None}
    ciencia = date_at(data_of(request), pointer)
    if ciencia is None:
        return appeal, []
    return appeal, [item_at(pointer, Status.INVALID, ciencia_after_signature(ciencia), citation)]


def ciencia_after_signature(ciencia: date) -> str:
    """The message for a ciência date typed in an act that is signed before it."""
    return (
        f"A data da ciência ({format_date(ciencia)}) não se escreve no ato: a ciência é "
        "fato posterior à assinatura. O ato sai com a linha de ciência em branco, para a "
        "data ser lançada à mão no momento em que o interessado toma ciência, e a ciência "
        "é depois registrada no registro do documento («Registrar fato», na página do "
        "documento; na linha de comando, lavra fato ciencia), que conta dela "
        "o último dia do prazo. Retire a data da ciência dos dados (o nome de quem a toma "
        "pode ficar)."
    )


MUNICIPALITY_NAMES = ("americana",)
"""How the licensing municipality is written in the data (the schemas accept these)."""


def issue_items(on: date, issued_on: date, field: str, what: str, basis: str) -> list[Item]:
    if on <= issued_on:
        return []
    return [
        item_at(
            field,
            Status.INVALID,
            f"A data de expedição ({format_date(on)}) é posterior à data de emissão "
            f"({format_date(issued_on)}): {what} não pode ser pós-datada.",
            basis,
        )
    ]


def licence_pending(reason: str, **extra: Any) -> dict[str, Any]:
    return {"valido_ate": None, "vigencia_explicacao": None, "pendente": reason, **extra}


def vehicle_age_items(
    data: Mapping[str, Any],
    pointer: str,
    on: date,
    context: StatutoryContext,
    law: VehicleLaw,
    *basis: str,
) -> list[Item]:
    year = pointers.get(data, pointer + "/ano_fabricacao")
    if isinstance(year, bool) or not isinstance(year, int):
        return []
    field = pointer + "/ano_fabricacao"
    try:
        found = vehicle_age(
            year,
            on,
            law=law,
            params=context.parameters,
            laws=context.laws,
            plate=clean_text(pointers.get(data, pointer + "/placa")),
            field=field,
            basis=basis or None,
        )
    except LavraError as error:
        fallback = ("transporte-escolar#art17_inc1",)
        return [item_at(field, Status.INVALID, error.message, *(basis or fallback))]
    return list(found.items)
