"""The authorisations «Preparar ato» drafts from the requerimentos of fretamento filed
online (Lei nº 4.419/2006), besides the alvará and its renewal
(:mod:`lavra_americana.fretamento.alvara_protocolo`), each with every field the request
or the registry knows. What neither knows is the staff's to complete on the draft.

- **Alteration of the vehicle** (art. 10, § 3º: the characteristics "não poderão ser
  alteradas sem prévia autorização"): ``requerimento-autorizacao-alteracao-veiculo`` →
  the ``autorizacao-previa-alteracao-veiculo`` with the company, the alvará of the
  vehicle (its validity from the registry), the vehicle and the alteration as filed.
- **A third party's vehicle** (art. 10, § 4º: the substitution by another company's
  vehicle, authorised for a period): ``requerimento-autorizacao-veiculo-terceiro`` →
  the ``autorizacao-veiculo-terceiro`` with the company and its alvará, the cedente, the
  vehicle and its alvará (each alvará's validity from the registry), the inspection, the
  period, the reason and the service as filed.

Both are refused, naming the field, when the registry's alvará the request names as the
company's own is another company's: the act would authorise on someone else's licence.

Both name the processo as the protocol opened it (its PA once linked) and the day of the
request; the day of the act is the day it is prepared. Reading chosen: the conferência
of an alvará in the original is only for an alvará issued before the registry (the
schema's own reading), so an alvará the registry holds carries none; one it lacks leaves
the conferência for the staff, who saw the original.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.errors import InputError
from lavra.filedacts import ActSource
from lavra.inputs.formats import only_digits

__all__ = ["IMPLEMENTED", "alteracao_veiculo", "held_by", "veiculo_terceiro"]

IMPLEMENTED = ("fretamento#art10_par3", "fretamento#art10_par4")

_COMPANY = ("razao_social", "cnpj", "endereco")


def alteracao_veiculo(source: ActSource) -> dict[str, Any]:
    """The prior authorisation of an alteration (art. 10, § 3º; module docstring)."""
    req = source.request.data
    held_by(source, req.get("requerente", {}).get("cnpj"), "/alvara/numero")
    return {
        "empresa": _pick(req.get("requerente"), _COMPANY),
        "alvara": _alvara(source, req.get("alvara")),
        "veiculo": dict(req.get("veiculo") or {}),
        "alteracao": dict(req.get("alteracao") or {}),
        "processo": _processo(source),
        "data": source.on.isoformat(),
    }


def veiculo_terceiro(source: ActSource) -> dict[str, Any]:
    """The authorisation of a third party's vehicle (art. 10, § 4º; module docstring)."""
    req = source.request.data
    company = _pick(req.get("requerente"), _COMPANY)
    held_by(source, company.get("cnpj"), "/requerente/alvara/numero")
    company["alvara"] = _alvara(source, req.get("requerente", {}).get("alvara"))
    data: dict[str, Any] = {
        "empresa": company,
        "cedente": _pick(req.get("cedente"), _COMPANY),
        "veiculo": dict(req.get("veiculo") or {}),
        "alvara_veiculo": _alvara(source, req.get("alvara_veiculo"), own=False),
        "periodo": dict(req.get("periodo") or {}),
        "motivo": req.get("motivo"),
        "servico": req.get("servico"),
        "processo": _processo(source),
        "data": source.on.isoformat(),
    }
    inspection = req.get("documentos", {}).get("inspecao_veicular")
    if isinstance(inspection, Mapping):
        data["inspecao_veicular"] = dict(inspection)
    return {k: v for k, v in data.items() if v is not None}


def _alvara(source: ActSource, named: object, *, own: bool = True) -> dict[str, Any]:
    """The alvará the request names, its number and validity as the registry holds it:
    the licence the filing names (``own``) or another looked up by its number."""
    alvara = _pick(named, ("numero", "valido_ate"))
    licence = source.licence
    if not own:
        number = alvara.get("numero")
        licence = (source.registry.licence_by_number(number)
                   if source.registry is not None and isinstance(number, str) and number
                   else None)
    if licence is not None:
        alvara["numero"] = licence.printed
        if licence.valid_until is not None:
            alvara["valido_ate"] = licence.valid_until.isoformat()
    return alvara


def held_by(source: ActSource, document: object, field: str,
            other: str = "outra empresa") -> None:
    """Refused when the registry's alvará the filing names is not of ``document`` (the
    CPF or CNPJ the act names as its holder): it is ``other``'s (module docstring).
    Not the engine's check that the licence is the filer's (:mod:`lavra.filedacts`, run
    first): this one reads the holder typed in the request (the cedente of a transfer),
    which may differ from the filer who holds the licence."""
    licence = source.licence
    if licence is None or not licence.holder or not isinstance(document, str):
        return
    if only_digits(licence.holder) != only_digits(document):
        raise InputError(
            f"O alvará {licence.printed}, indicado no requerimento, é de {other}: o ato "
            "só se prepara sobre o alvará do próprio titular. Prepare o indeferimento, "
            "se for o caso.", field=field)


def _processo(source: ActSource) -> dict[str, Any]:
    day = source.request.data.get("data_requerimento")
    return {"numero": source.request.processo,
            "data_requerimento": day if isinstance(day, str) and day
            else source.request.filed_on.isoformat()}


def _pick(value: object, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        return {}
    return {k: value[k] for k in keys if k in value}
