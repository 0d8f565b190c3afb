"""The alvarás «Preparar ato» drafts from a requerimento-alvara-fretamento filed online
(arts. 7º, 8º and 11 of Lei nº 4.419/2006), with every field the request or the
registry knows.

- **One alvará per vehicle** (art. 8º: "a SETRANSV emitirá, para cada veículo, o Alvará
  de Licença de Circulação"): one draft per vehicle of the request, in its order, each
  with the company, the services, the inspection and the processo opened by the
  protocol. Preparing again, once the first draft is discarded, drafts only the vehicles
  no draft of this request still holds (``item_at``/``processo_at`` of the choice in
  :mod:`lavra_americana.comum.protocolos`). Reading chosen: a vehicle is its plate; a
  draft open or issued into an alvará not cancelled holds it; a discarded draft, or a
  cancelled alvará, leaves the vehicle to be drafted again.
- **The vehicle as the registry knows it.** Where the registry holds an earlier
  alvará of the same plate (and RENAVAM, when both have one), the characteristics its
  vistoria found (art. 10: seats, doors, tachograph…) and its number of order are
  carried; what the request says wins. Reading chosen: the staff confirm them in the
  vistoria of this request before the draft is signed (the alvará's own checks rerun
  on the draft); the request's form does not ask them.
- **The conferência of the request** (art. 7º: the alvará is issued "atendidos os
  requisitos arrolados no artigo anterior"): when staff accepted every document of the
  request in the inbox, that review is the servant's conferência — the last reviewer,
  the day of the last review, "completo". Reading chosen: an unreviewed document leaves
  the conferência for the staff to fill on the draft.
- **The client of a continuous service** (art. 11, I, c: its name on the front sign):
  the contratante of the company's contract of continuous fretamento the registry holds
  (``termo-conferencia-contrato-fretamento``, not cancelled, in force on the day of the
  act, the most recent); none, or a request without continuous service: left empty.
- **The renewal** (art. 8º: "renovável por igual período"), from a
  ``requerimento-renovacao-alvara-fretamento``: the alvará it names, as the registry
  holds it (its data, its expiry), renewed as the renewal run renews it
  (:func:`~lavra_americana.fretamento.renovacao_lote.renewed_alvara`), with the
  processo opened by the protocol and the conferência above. Refused, naming the field,
  when the request names no alvará of the registry. An alvará of another company is
  refused before this is built, by the engine's check that a licence an act grants on
  is the filer's (:mod:`lavra.filedacts`), with the same message for every renewal.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from lavra.errors import InputError
from lavra.filedacts import ActSource
from lavra.inputs.formats import only_digits as digits
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry

__all__ = ["IMPLEMENTED", "alvaras_fretamento", "conferencia", "renovacao_fretamento"]

IMPLEMENTED = ("fretamento#art7", "fretamento#art8", "fretamento#art11_inc1_ali3")

ALVARA = "alvara-fretamento"
CONTRATO = "termo-conferencia-contrato-fretamento"
_COMPANY = ("razao_social", "nome_fantasia", "cnpj", "endereco", "telefone")


def alvaras_fretamento(source: ActSource) -> tuple[dict[str, Any], ...]:
    """One alvará per vehicle of the request (module docstring)."""
    req = source.request.data
    company = req.get("requerente", {})
    vehicles = [v for v in req.get("veiculos") or () if isinstance(v, Mapping)] or [{}]
    inspection = req.get("documentos", {}).get("inspecao_veicular")
    services = list(req.get("servicos", []))
    processo: dict[str, Any] = {
        "numero": source.request.processo,
        "data_requerimento": req.get("data_requerimento",
                                     source.request.filed_on.isoformat()),
        "renovacao": False}
    review = conferencia(source)
    if review is not None:
        processo["conferencia_requerimento"] = review
    cliente = None
    if "continuo" in services and source.registry is not None:
        cliente = _cliente(source.registry, str(company.get("cnpj", "")), source.on)
    acts = []
    for vehicle in vehicles:
        data: dict[str, Any] = {
            "categoria": req.get("categoria", "fretamento"),
            "servicos": services,
            "empresa": {k: company[k] for k in _COMPANY if k in company},
            "veiculo": _vehicle(source.registry, vehicle),
            "processo": dict(processo),
        }
        if isinstance(inspection, dict):
            data["inspecao_veicular"] = dict(inspection)
        if cliente:
            data["cliente"] = cliente
        acts.append(data)
    return tuple(acts)


def renovacao_fretamento(source: ActSource) -> dict[str, Any]:
    """The alvará the request names, renewed (art. 8º; module docstring)."""
    from lavra_americana.fretamento.renovacao_lote import Licence, renewed_alvara

    licence, previous = source.licence, source.licence_data
    if licence is None or previous is None or licence.valid_until is None:
        raise InputError(
            "O requerimento não indica um alvará de fretamento do cadastro a renovar: a "
            "renovação parte dos dados do alvará anterior. Prepare o alvará pelo "
            "formulário da equipe ou o indeferimento.", field="/alvara_anterior/numero")
    data = dict(source.request.data)
    data.setdefault("data_requerimento", source.request.filed_on.isoformat())
    envelope: dict[str, Any] = {"requerimento": data, "processo": source.request.processo}
    review = conferencia(source)
    if review is not None:
        envelope["conferencia"] = {k: review[k] for k in ("responsavel", "data")}
    return renewed_alvara(Licence(licence.printed, digits(licence.holder or ""),
                                  licence.valid_until, previous), envelope)


def _vehicle(registry: Registry | None, vehicle: Mapping[str, Any]) -> dict[str, Any]:
    """The request's vehicle, completed by the registry's last alvará of its plate."""
    plate = vehicle.get("placa")
    if registry is None or not isinstance(plate, str) or not plate.strip():
        return dict(vehicle)
    for view in reversed(registry.licence_views(placa=plate)):
        record = (None if view.document_id is None
                  else registry.get_by_id(view.document_id))
        if record is None or record.cancelled or record.form != ALVARA:
            continue
        known = record.data.get("veiculo")
        if not isinstance(known, Mapping) or _other_vehicle(known, vehicle):
            continue
        return {**known, **vehicle}
    return dict(vehicle)


def _other_vehicle(known: Mapping[str, Any], vehicle: Mapping[str, Any]) -> bool:
    """Same plate, but another RENAVAM: another vehicle (a plate is reassigned)."""
    a, b = known.get("renavam"), vehicle.get("renavam")
    return bool(a and b and digits(str(a)) != digits(str(b)))


def conferencia(source: ActSource) -> dict[str, Any] | None:
    """The inbox's review of every document as the conferência of art. 7º, or None."""
    standing: dict[int, Any] = {}
    for review in source.reviews:
        standing[review.attachment_id] = review
    if not standing or len(standing) < source.attachments:
        return None
    reviews = sorted(standing.values(), key=lambda r: r.at)
    if not all(r.accepted for r in reviews):
        return None
    last = reviews[-1]
    name = last.by.rsplit(" (", 1)[0].strip() or last.by
    return {"responsavel": name, "data": last.at_local.date().isoformat(),
            "completo": True}


def _cliente(registry: Registry, cnpj: str, on: date) -> str | None:
    """The contratante of the company's contract of continuous service in force."""
    if not digits(cnpj):
        return None
    for record in registry.by_holder(cnpj, CONTRATO):
        if _in_force(record, cnpj, on):
            name = record.data.get("contratante", {}).get("razao_social")
            if isinstance(name, str) and name.strip():
                return name.strip()
    return None


def _in_force(record: IssuedRecord, cnpj: str, on: date) -> bool:
    data = record.data
    if record.cancelled or record.form != CONTRATO or data.get("modalidade") != "continuo":
        return False
    if digits(str(data.get("contratada", {}).get("cnpj", ""))) != digits(cnpj):
        return False
    vigencia = data.get("contrato", {}).get("vigencia", {})
    start, end = vigencia.get("inicio"), vigencia.get("fim")
    return (not start or date.fromisoformat(start) <= on) and (
        not end or on <= date.fromisoformat(end))
