"""The autos de infração started from the vehicle's plate: what the licensing state
fills in each (``ContentPack.prefills``, :mod:`lavra.registry.prefill`).

The agent types the plate; the engine finds the vehicle's licence and hands it here.

- The agent's name and matrícula come from the signed-in account (the auto identifies
  the agent who draws it up: CTB, art. 280, V, by analogy, as both autos already cite).
- With a licence holding the vehicle's place on the day (in force or suspended):
  its number, its holder and the vehicle as its alvará recorded them.
- With none: only the vehicle, as the most recent alvará recorded it; neither holder
  nor licence number, which would name a licence no longer in force. The auto may
  still be drawn up: in fretamento, a vehicle circulates only with its alvará current
  (art. 10, § 5º); an expired one is fined by art. 16, II, an unregistered vehicle by
  art. 17, I. In transporte escolar the service depends on the alvará (art. 2º), and
  exploiting it without the licence is an infraction sanctioned under Lei nº
  3.149/1998 (art. 19).

Reading chosen where the law is silent: the escolar auto's driver (``condutor``) is
filled with the alvará's holder as ``titular``, the usual case; when the auxiliary
driver (art. 9º) was at the wheel, the agent changes it. The vehicle's description is
taken from the alvará only when the alvará named this plate (old or Mercosul form):
after a change of vehicle the act describes another vehicle. The selo is not copied
from the alvará (its number there was typed, and stays after a change of vehicle): the
auto's computation reads the selo in force from the registry
(:func:`lavra_americana.transporte_escolar.selo.selo_do_veiculo`).

The holder is the state's, not the alvará's typed copy (issue 22, § 3): after a transfer
(escolar art. 15; fretamento, the cessão of the alvará) the act that granted the licence
still names the cedente, so the auto is filled with the holder the state holds (name
and CPF/CNPJ; the address, which only the cedente's act recorded, is left to the agent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.errors import InputError
from lavra.registry.prefill import PlateFinding, Prefill, StaffMember
from lavra.registry.state import plate_forms

__all__ = ["IMPLEMENTED", "PREFILLS"]

IMPLEMENTED: tuple[str, ...] = ()
"""No article is implemented here: the module only fills fields the autos already check."""

ESCOLAR_KINDS = ("alvara-transporte-escolar",)
"""The licences an escolar auto looks at: the alvará (art. 2º)."""
FRETAMENTO_KINDS = ("alvara-fretamento", "alvara-servico-particular-fretamento")
"""The licences a fretamento auto looks at: the Alvará de Licença de Circulação of a
vehicle (art. 10, § 5º), of the service to third parties or of the private one."""


def _agent(member: StaffMember) -> dict[str, str]:
    agent = {"nome": member.full_name}
    if member.registration:
        agent["matricula"] = member.registration
    return agent


def _section(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    found = data.get(key)
    return found if isinstance(found, Mapping) else {}


def _vehicle(finding: PlateFinding) -> Mapping[str, Any]:
    """The vehicle the act recorded, when it recorded this plate; else nothing."""
    vehicle = _section(finding.act_data, "veiculo")
    placa = vehicle.get("placa")
    if not isinstance(placa, str):
        return {}
    try:
        same = finding.placa in plate_forms(placa)
    except InputError:  # a malformed plate in old data: not this vehicle
        return {}
    return vehicle if same else {}


def _text(source: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {key: source[key] for key in keys if source.get(key) not in (None, "")}


def _holder(finding: PlateFinding, section: str, name: str, doc: str) -> Mapping[str, Any]:
    """The holder as the alvará recorded it, or, once it was transferred, as the state
    holds it (module docstring)."""
    licence = finding.in_force
    if licence is None or licence.transferred_by is None:
        return _section(finding.act_data, section)
    return {key: value for key, value in ((name, licence.holder_name), (doc, licence.holder))
            if value}


def auto_escolar(finding: PlateFinding, member: StaffMember) -> Mapping[str, Any]:
    """``auto-infracao-escolar`` from the state (module docstring)."""
    vehicle = _vehicle(finding)
    data: dict[str, Any] = {
        "veiculo": {"placa": finding.placa, **_text(vehicle, "marca_modelo")},
        "agente": _agent(member),
    }
    licence = finding.in_force
    if licence is not None:
        holder = _holder(finding, "titular", "nome", "cpf")
        data["condutor"] = {
            **_text(holder, "nome", "cpf", "endereco"),
            "condicao": "titular",
            "alvara": licence.printed,
        }
    return data


def auto_fretamento(finding: PlateFinding, member: StaffMember) -> Mapping[str, Any]:
    """``auto-infracao-fretamento`` from the state (module docstring)."""
    vehicle = _vehicle(finding)
    data: dict[str, Any] = {
        "veiculo": {"placa": finding.placa,
                    **_text(vehicle, "marca_modelo", "tipo", "numero_ordem")},
        "agente": _agent(member),
    }
    licence = finding.in_force
    if licence is not None:
        data["veiculo"]["alvara"] = licence.printed
        company = _holder(finding, "empresa", "razao_social", "cnpj")
        data["empresa"] = _text(company, "razao_social", "cnpj", "endereco")
    return data


PREFILLS: Mapping[str, Prefill] = {
    "auto-infracao-escolar": Prefill(kinds=ESCOLAR_KINDS, fill=auto_escolar),
    "auto-infracao-fretamento": Prefill(kinds=FRETAMENTO_KINDS, fill=auto_fretamento),
}
