"""The SETRANSV's conference of a contract of fretamento (Lei nº 4.419/2006, arts. 1º, 4º
and 5º): form ``termo-conferencia-contrato-fretamento``, numbered in its own series
(``TCC-FRET``) and signed by the Secretário, head of the SETRANSV that licenses,
disciplines and inspects the service (art. 2º); the servant who checked the contract is
named in it.

The law asks of the contract, and the schema carries each requirement with its basis:
the names of both companies and of their legal representatives, their functions,
qualifications and addresses, the CNPJs, origin, destination, schedules and periods of
duration (art. 4º, § 1º); no standing passengers and no individual or single fares (art.
1º, § 2º); no conflict with services already regulated by concession, permission,
authorisation or licence (art. 1º, § 1º: the servant's finding); for the fretamento
contínuo a determined number of trips and defined passengers linked to the contracting
company (art. 4º and § 2º); for the fretamento eventual a single trip with its date and
the nota fiscal, whose carriage is compulsory (art. 5º and parágrafo único).

``termo_conferencia_contrato_fretamento`` — a
:data:`lavra.checking.computations.Computation` — judges what lies between fields:

- the intermediate stops (art. 4º, § 3º): each at least 400.00 m from the point before
  it (the departure, for the first); 400 m exactly is allowed ("não seja inferior"). The
  distances are data the contract (or its itinerary annex) gives, one per stop in the
  itinerary's order. The law speaks of stops the parties "poderão definir" in the
  fretamento contínuo; a fretamento eventual is a single trip "com pontos de saída e
  chegada determinados" (art. 5º), so stops in it are *invalid*.
- the return (art. 4º, § 4º): the places of alighting on the way back "quando possível"
  coincide with those of boarding. Reading: the law does not forbid a different place,
  it asks for the coincidence where possible; so a contract that does not make them
  coincide is accepted when the conference states why it is not possible (*missing*
  until it does), and the termo prints the reason.
- the fretamento eventual is "para uma única viagem": a number of trips other than 1 is
  *invalid*; the trip is within the contract's period when one is given.
- the contínuo's period: its end not before its start; a contract already ended on the
  day of the conference cannot be certified (*invalid*: there is nothing left to
  execute).
- the nota fiscal: from before the trip or on its day (it must be carried on the trip);
  the contract signed before or on the conference; nothing after the issue (the nota's
  date is judged by ``datas_de_fatos``, listed after this computation).

- the places where passengers board and alight (art. 17, VIII; art. 1º, § 1º): the
  origin, the destination and each stop carry the kind of place (``origem_tipo``,
  ``destino_tipo``, ``paradas[].tipo``). Art. 17, VIII fines the company that "embarcar
  ou desembarcar passageiro em pontos de ônibus, pontos de táxis, terminais urbanos,
  terminais rodoviários e paradas de transporte escolar". Reading: what the law fines
  the company for doing, the SETRANSV cannot certify as conforming; and those places
  belong to services already regulated by concession, permission or licence, with
  which the contract may not conflict (art. 1º, § 1º). A contract that makes any of
  them its origin, destination or stop is *invalid* (the termo reports it as not met,
  citing both), whatever the servant ticked under ``conflito_servicos``.

The termo certifies that the contract conforms: any failure above, or of the schema,
keeps it a MINUTA listing what is missing; what a contract must correct is asked of the
company by a notificação (``notificacao-fretamento``), not certified here.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from babel.numbers import format_decimal

from lavra.checking.computations import Computation, Computed, ComputeInput, item_at
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.textutil import format_date
from lavra_americana.comum.computing import after_issue, data_of, date_at

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "termo_conferencia_contrato_fretamento"]

LAW = "fretamento"
CONTENTS = f"{LAW}#art4_par1"
STOPS = f"{LAW}#art4_par3"
RETURN = f"{LAW}#art4_par4"
CONTINUOUS = f"{LAW}#art4"
EVENTUAL = f"{LAW}#art5"
INVOICE = f"{LAW}#art5_par1u"

FORBIDDEN_PLACES = f"{LAW}#art17_inc8"
CONFLICT = f"{LAW}#art1_par1"

#: art. 17, VIII: the places where the fretamento may not board nor alight passengers,
#: with the words the termo prints.
FORBIDDEN_KINDS: dict[str, str] = {
    "ponto_onibus": "ponto de ônibus",
    "ponto_taxi": "ponto de táxi",
    "terminal_urbano": "terminal urbano",
    "terminal_rodoviario": "terminal rodoviário",
    "parada_transporte_escolar": "parada de transporte escolar",
}

#: art. 4º, § 3º: "a distância entre as paradas não seja inferior a 400,00m".
MINIMUM_STOP_DISTANCE = Decimal("400.00")

IMPLEMENTED: tuple[str, ...] = (
    f"{LAW}#art1",
    f"{LAW}#art1_par1",
    f"{LAW}#art1_par2",
    CONTENTS,
    f"{LAW}#art4_par2",
    STOPS,
    FORBIDDEN_PLACES,
    RETURN,
    INVOICE,
)
"""Citations this form applies (coverage): the contract of transport and its vetoes
(art. 1º, §§ 1º–2º), its compulsory contents (art. 4º, § 1º), the passengers' link
(§ 2º), the stops (§ 3º), the return (§ 4º), the nota fiscal (art. 5º, parágrafo
único)."""


def _metres(value: Any) -> str:
    """A distance in pt-BR, to the centimetre, as the law writes it ("400,00m")."""
    return f"{format_decimal(Decimal(str(value)), format='#,##0.00', locale='pt_BR')} m"


def _stop_items(data: Any, eventual: bool) -> tuple[list[dict[str, Any]], list[Item]]:
    stops = pointers.get(data, "/itinerario/paradas") or []
    if not isinstance(stops, list):
        return [], []
    if eventual and stops:
        return [], [
            item_at(
                "/itinerario/paradas",
                Status.INVALID,
                "O fretamento eventual é uma única viagem com pontos de saída e chegada "
                "determinados (art. 5º): paradas intermediárias são próprias do fretamento "
                "contínuo (art. 4º, § 3º).",
                EVENTUAL,
            )
        ]
    shown: list[dict[str, Any]] = []
    items: list[Item] = []
    for index, stop in enumerate(stops):
        if not isinstance(stop, dict) or not isinstance(
            stop.get("distancia_anterior_m"), (int, float)
        ):
            continue  # the schema reports it
        distance = Decimal(str(stop["distancia_anterior_m"]))
        before = "do ponto de saída" if index == 0 else "da parada anterior"
        shown.append({"local": stop.get("local"), "distancia": _metres(distance),
                      "referencia": before, "tipo": stop.get("tipo")})
        if distance < MINIMUM_STOP_DISTANCE:
            items.append(
                item_at(
                    f"/itinerario/paradas/{index}/distancia_anterior_m",
                    Status.INVALID,
                    f"A parada «{stop.get('local')}» fica a {_metres(distance)} {before}: "
                    "a distância entre as paradas não pode ser inferior a 400,00 m "
                    "(art. 4º, § 3º).",
                    STOPS,
                )
            )
    return shown, items


def _place_items(data: Any) -> list[Item]:
    """Origin, destination and stops at a place art. 17, VIII forbids (see the module's
    reading): each *invalid*, citing art. 17, VIII and art. 1º, § 1º."""
    places: list[tuple[str, Any, str]] = [
        ("/contrato/origem_tipo", pointers.get(data, "/contrato/origem"), "ponto de saída"),
        ("/contrato/destino_tipo", pointers.get(data, "/contrato/destino"),
         "ponto de chegada"),
    ]
    stops = pointers.get(data, "/itinerario/paradas") or []
    if isinstance(stops, list):
        for index, stop in enumerate(stops):
            where = stop.get("local") if isinstance(stop, dict) else None
            places.append((f"/itinerario/paradas/{index}/tipo", where, f"parada {index + 1}"))
    items: list[Item] = []
    for pointer, where, role in places:
        kind = FORBIDDEN_KINDS.get(str(pointers.get(data, pointer)))
        if kind is None:
            continue
        items.append(
            item_at(
                pointer,
                Status.INVALID,
                f"Não atendido: o contrato prevê embarque ou desembarque em {kind} "
                f"(«{where}», {role}). É vedado ao fretamento embarcar ou desembarcar "
                "passageiro em pontos de ônibus, pontos de táxis, terminais urbanos, "
                "terminais rodoviários e paradas de transporte escolar (art. 17, VIII), "
                "e o contrato não pode conflitar com os serviços regulamentados a que eles "
                "servem (art. 1º, § 1º).",
                FORBIDDEN_PLACES,
                CONFLICT,
            )
        )
    return items


def _return_items(data: Any, eventual: bool) -> list[Item]:
    coincide = pointers.get(data, "/itinerario/desembarque_coincide")
    reason = pointers.get(data, "/itinerario/justificativa_desembarque")
    if eventual or coincide is not False or reason:
        return []
    return [
        item_at(
            "/itinerario/justificativa_desembarque",
            Status.MISSING,
            "Os locais de desembarque no retorno devem, quando possível, coincidir com os "
            "de embarque na ida (art. 4º, § 4º): informe por que a coincidência não é "
            "possível neste contrato.",
            RETURN,
        )
    ]


def _period_items(data: Any, conferred: date | None, eventual: bool) -> list[Item]:
    start = date_at(data, "/contrato/vigencia/inicio")
    end = date_at(data, "/contrato/vigencia/fim")
    items: list[Item] = []
    if start is not None and end is not None and end < start:
        items.append(
            item_at("/contrato/vigencia/fim", Status.INVALID,
                    f"O término do contrato ({format_date(end)}) é anterior ao seu início "
                    f"({format_date(start)}).", CONTENTS)
        )
    elif end is not None and conferred is not None and end < conferred:
        items.append(
            item_at("/contrato/vigencia/fim", Status.INVALID,
                    f"O contrato terminou em {format_date(end)}, antes da conferência "
                    f"({format_date(conferred)}): não há serviço a executar que se possa "
                    "conferir.", CONTENTS)
        )
    trip = date_at(data, "/contrato/data_viagem")
    if eventual:
        trips = pointers.get(data, "/contrato/numero_viagens")
        if isinstance(trips, int) and trips != 1:
            items.append(
                item_at("/contrato/numero_viagens", Status.INVALID,
                        f"O fretamento eventual é prestado para uma única viagem (art. 5º); "
                        f"o contrato prevê {trips}.", EVENTUAL)
            )
        if trip is not None and start is not None and end is not None and not (
            start <= trip <= end
        ):
            items.append(
                item_at("/contrato/data_viagem", Status.INVALID,
                        f"A viagem ({format_date(trip)}) fica fora do período do contrato "
                        f"({format_date(start)} a {format_date(end)}).", EVENTUAL)
            )
        invoice = date_at(data, "/nota_fiscal/data_emissao")
        if invoice is not None and trip is not None and invoice > trip:
            items.append(
                item_at("/nota_fiscal/data_emissao", Status.INVALID,
                        f"A nota fiscal ({format_date(invoice)}) é posterior à viagem "
                        f"({format_date(trip)}): seu porte na viagem é obrigatório "
                        "(art. 5º, parágrafo único).", INVOICE)
            )
    signed = date_at(data, "/contrato/data_assinatura")
    if signed is not None and conferred is not None and signed > conferred:
        items.append(
            item_at("/contrato/data_assinatura", Status.INVALID,
                    f"O contrato, assinado em {format_date(signed)}, não pode ser conferido "
                    f"em {format_date(conferred)}, antes de existir.", CONTENTS)
        )
    return items


def termo_conferencia_contrato_fretamento(request: ComputeInput) -> Computed:
    """The stops with their distances, the return, the periods and dates.

    ``values``: ``paradas`` (each ``local``, ``distancia`` in pt-BR metres,
    ``referencia``, ``tipo``), ``modalidade_texto``.
    """
    data = data_of(request)
    eventual = pointers.get(data, "/modalidade") == "eventual"
    conferred = date_at(data, "/data")
    stops, items = _stop_items(data, eventual)
    items.extend(_place_items(data))
    items.extend(_return_items(data, eventual))
    items.extend(_period_items(data, conferred, eventual))
    if conferred is not None:
        items.extend(after_issue(conferred, request.issued_on, "/data",
                                 "data da conferência", CONTENTS))
    signed = date_at(data, "/contrato/data_assinatura")
    if signed is not None:
        items.extend(after_issue(signed, request.issued_on, "/contrato/data_assinatura",
                                 "data de assinatura do contrato", CONTENTS))
    values = {
        "paradas": stops,
        "modalidade_texto": (
            "fretamento eventual (art. 5º)" if eventual else "fretamento contínuo (art. 4º)"
        ),
    }
    return Computed(values, tuple(items))


COMPUTATIONS: dict[str, Computation] = {
    "termo_conferencia_contrato_fretamento": termo_conferencia_contrato_fretamento,
}
"""The computation of this module a form may name under ``"calculos"``."""
