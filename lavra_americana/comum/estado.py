"""What the acts of both laws do to the licensing state: reading the parties, vehicles,
drivers, dates and cited acts out of an act's data, for the effect functions each law
declares beside its articles (``fretamento.estado``, ``transporte_escolar.estado``).

An effect function reads only what the act itself recorded (its data as issued and the
values it computed); a value the act lacks gives no effect rather than a guess.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from lavra.inputs.pointers import get as pointer_get
from lavra.registry.effects import (
    Act,
    Cites,
    DriverRef,
    Facts,
    Identify,
    InProcesso,
    PartyRef,
    VehicleRef,
)
from lavra.registry.identifiers import parse_printed

__all__ = ["CITED_KEYS", "IMPLEMENTED", "basis", "cited", "date_at", "driver_at", "facts_at",
           "in_series", "named", "party_at", "processo", "start_of", "text_at", "vehicle_at"]

IMPLEMENTED: tuple[str, ...] = ()
"""Reading only: each effect function cites the article it implements."""



def _get(data: Mapping[str, Any], pointer: str) -> Any:
    try:
        return pointer_get(data, pointer)
    except (KeyError, IndexError, TypeError, ValueError):
        return None


def text_at(data: Mapping[str, Any], pointer: str) -> str | None:
    value = _get(data, pointer)
    return value.strip() if isinstance(value, str) and value.strip() else None


def date_at(values: Mapping[str, Any], pointer: str) -> date | None:
    value = _get(values, pointer)
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


def facts_at(data: Mapping[str, Any], kept: Sequence[str], *,
             at: Mapping[str, str] | None = None) -> Facts:
    """The licence's facts ``kept`` (pointers into the licence's data, ``/veiculo/tipo``)
    as the act states them: each read at the same pointer, or where ``at`` says the act
    writes the object it begins with (``{"/veiculo": "/veiculo_novo"}``) or the fact
    itself (``{"/titular/cadastro_atividades": "/cadastro/inscricao"}``). A value the
    act lacks (or not a string or number) is left out: no fact rather than a guess."""
    found: list[tuple[str, Any]] = []
    for pointer in kept:
        head = "/" + pointer.split("/")[1]
        source = (at or {}).get(pointer) or (at or {}).get(head, head) + pointer[len(head):]
        value = _get(data, source)
        if isinstance(value, str) and value.strip():
            found.append((pointer, value.strip()))
        elif isinstance(value, int) and not isinstance(value, bool):
            found.append((pointer, value))
    return tuple(found)


def party_at(data: Mapping[str, Any], base: str) -> PartyRef | None:
    """The person (``cpf``, ``nome``) or company (``cnpj``, ``razao_social``) at ``base``."""
    doc = text_at(data, f"{base}/cnpj") or text_at(data, f"{base}/cpf")
    if doc is None:
        return None
    return PartyRef(doc, text_at(data, f"{base}/razao_social") or text_at(data, f"{base}/nome"))


def vehicle_at(data: Mapping[str, Any], base: str) -> VehicleRef | None:
    placa = text_at(data, f"{base}/placa")
    return None if placa is None else VehicleRef(placa, text_at(data, f"{base}/renavam"))


def driver_at(data: Mapping[str, Any], base: str) -> DriverRef | None:
    """The driver at ``base``: the CNH number and the person (``cpf``, ``nome``)."""
    cnh = text_at(data, f"{base}/cnh/numero")
    return None if cnh is None else DriverRef(cnh, party_at(data, base))


def processo(act: Act) -> list[InProcesso]:
    """The act's processo (``/processo/numero``), when it names one."""
    numero = text_at(act.data, "/processo/numero")
    return [] if numero is None else [InProcesso(numero)]


CITED_KEYS = ("auto", "autos", "notificacao")
"""Where an act's data names the autos and the notice of defence it rests on (a
cassação's or revogação's hypotheses and defence, a guia's auto), each by ``numero``."""


def in_series(number: str | None, form: str) -> str | None:
    """``number`` as the registry cites it. Typed without its series (``0003/2026``), it is
    read in the series of ``form``: the form's own checks read it so (they look it up
    among the acts of that form, :meth:`lavra.issuing.RegistryHistory.document`), and an
    act they accepted on it must rest on it as well. With its series, or not a number:
    as typed."""
    from lavra_americana.comum.guards import series_of

    parsed = None if number is None else parse_printed(number)
    series = series_of(form)
    if number is None or parsed is None or parsed[0] is not None or series is None:
        return number
    return f"{series} nº {parsed[1]:04d}/{parsed[2]}"


def _cited_numbers(value: Any, forms: Mapping[str, str], under: str | None = None
                   ) -> list[str]:
    if isinstance(value, list):
        return [n for item in value for n in _cited_numbers(item, forms, under)]
    if not isinstance(value, Mapping):
        return []
    found: list[str] = []
    if under is not None and isinstance(value.get("numero"), str) and value["numero"].strip():
        number = value["numero"].strip()
        found.append(number if under not in forms else in_series(number, forms[under])
                     or number)
    for key, item in value.items():
        if isinstance(item, (Mapping, list)):
            found.extend(_cited_numbers(item, forms, key if key in CITED_KEYS else None))
    return found


def cited(act: Act, citation: str, *numbers: str | None,
          forms: Mapping[str, str] | None = None) -> list[Cites]:
    """The acts ``act`` cites and rests on: ``numbers``, and every auto and notice its
    data names (:data:`CITED_KEYS`); the registry keeps the link while the act stands
    (:class:`~lavra.registry.effects.Cites`). ``forms``: for a key of :data:`CITED_KEYS`,
    the form whose series a number typed there without one is read in
    (:func:`in_series`)."""
    found = [n for n in numbers if n] + _cited_numbers(act.data, forms or {})
    return [Cites(tuple(dict.fromkeys(found)), citation, basis(citation))] if found else []


def start_of(act: Act) -> date:
    """The first day of a licence's validity: ``inicio_vigencia`` as computed, else the
    act's reference date."""
    return date_at(act.computed, "/inicio_vigencia") or act.reference_date


def named(act: Act, party: str, vehicle: str = "/veiculo", *, citation: str = "") -> Identify:
    """The party at ``party`` and the vehicle at ``vehicle`` an act names (an auto), under
    the provision ``citation``."""
    found_party = party_at(act.data, party)
    found_vehicle = vehicle_at(act.data, vehicle)
    return Identify(parties=() if found_party is None else (found_party,),
                    vehicles=() if found_vehicle is None else (found_vehicle,),
                    citation=citation)


def basis(*citations: str) -> str:
    """The provisions as a document cites them (``"art. 14 da Lei nº 4.515/2007"``), from
    the pack's laws (the law's number is data, not written here)."""
    from lavra_americana import ROOT
    from lavra_americana.comum.citing import cite_many
    from lavra_americana.comum.sources import statutory_context

    return cite_many(statutory_context(ROOT).laws, *citations)
