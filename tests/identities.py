"""Identities that agree with each other, for tests that vary the pack's examples: a
vehicle has one RENAVAM and a CNH one holder (the licensing state refuses otherwise), so
a test that gives an example another plate or another person gives it the matching
RENAVAM or CNH too. Deterministic: the same plate always gets the same RENAVAM."""

from __future__ import annotations

import hashlib
from typing import Any

from validate_docbr import CNH, CNPJ, CPF, RENAVAM

__all__ = ["cnh_for", "cnpj_for", "cpf_for", "renavam_for", "set_person", "set_vehicle"]


def _digits(seed: str, count: int) -> str:
    number = int(hashlib.sha256(seed.encode()).hexdigest(), 16)
    return f"{number % 10 ** count:0{count}d}"


def renavam_for(placa: str) -> str:
    """A valid RENAVAM, the same for the same plate."""
    base = _digits("renavam " + placa.upper().replace("-", ""), 10)
    return next(base + d for d in "0123456789" if RENAVAM().validate(base + d))


def cpf_for(seed: str) -> str:
    """A valid CPF (masked), the same for the same seed."""
    base = _digits("cpf " + seed, 9)
    raw = next(base + f"{d:02d}" for d in range(100) if CPF().validate(base + f"{d:02d}"))
    return f"{raw[:3]}.{raw[3:6]}.{raw[6:9]}-{raw[9:]}"


def cnpj_for(seed: str) -> str:
    """A valid CNPJ (masked, a head office: 0001), the same for the same seed."""
    base = _digits("cnpj " + seed, 8) + "0001"
    raw = next(base + f"{d:02d}" for d in range(100) if CNPJ().validate(base + f"{d:02d}"))
    return f"{raw[:2]}.{raw[2:5]}.{raw[5:8]}/{raw[8:12]}-{raw[12:]}"


def cnh_for(cpf: str) -> str:
    """A valid CNH number, the same for the same CPF."""
    base = _digits("cnh " + "".join(c for c in cpf if c.isdigit()), 9)
    return next(base + f"{d:02d}" for d in range(100) if CNH().validate(base + f"{d:02d}"))


def set_vehicle(vehicle: dict[str, Any], placa: str) -> dict[str, Any]:
    """Give ``vehicle`` (an example's ``veiculo``) the plate and its own RENAVAM."""
    vehicle["placa"] = placa
    if "renavam" in vehicle:
        vehicle["renavam"] = renavam_for(placa)
    return vehicle


def set_person(person: dict[str, Any], cpf: str) -> dict[str, Any]:
    """Give ``person`` the CPF and, when it has a CNH, a CNH of its own."""
    person["cpf"] = cpf
    if isinstance(person.get("cnh"), dict):
        person["cnh"]["numero"] = cnh_for(cpf)
    return person
