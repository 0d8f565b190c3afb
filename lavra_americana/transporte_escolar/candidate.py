"""The school-transport candidate as the rules read it: what was proved at
registration for art. 7º of Lei nº 4.515/2007, and what the registry knows.

The roles (art. 4º, caput; art. 9º, § 1º), the gravities of the traffic record (CTB
art. 258) and the CNH categories that meet art. 7º, II. The rules themselves are in
:mod:`lavra_americana.transporte_escolar.eligibility`; this module implements no
provision by itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal, get_args

from lavra.errors import InputError

__all__ = [
    "CNH_CATEGORIES_D",
    "GRAVITIES",
    "IMPLEMENTED",
    "ROLES",
    "Candidate",
    "Gravity",
    "Role",
    "TrafficInfraction",
    "Vehicle",
]

Role = Literal["titular", "auxiliar", "substituto"]
ROLES: tuple[Role, ...] = get_args(Role)
Gravity = Literal["leve", "media", "grave", "gravissima"]
GRAVITIES: tuple[Gravity, ...] = get_args(Gravity)
CNH_CATEGORIES_D: tuple[str, ...] = ("D", "E", "AD", "AE")
"""CNH categories that meet "habilitado na categoria D" (as schemas/comum.json)."""


IMPLEMENTED: tuple[str, ...] = ()
"""The candidate's data only: its rules are in the eligibility module."""


@dataclass(frozen=True)
class TrafficInfraction:
    """One infraction of the candidate's traffic record (CTB art. 258 gravities)."""

    on: date
    gravity: Gravity
    description: str | None = None


@dataclass(frozen=True)
class Vehicle:
    """The candidate's vehicle (art. 7º, IV, with art. 17); None means not proven."""

    year_of_manufacture: int | None
    plate: str | None = None
    licensed_in_municipality: bool | None = None
    inspection_report: bool | None = None
    insured: bool | None = None
    tyres_compliant: bool | None = None


@dataclass(frozen=True)
class Candidate:
    """What a candidate proved at registration (art. 7º) and what the registry knows.

    ``None`` in a proof means "not proven" (the item is ``missing``); ``False`` means
    proven not to hold (``invalid``). ``infractions`` None means the traffic record
    was not presented; an empty tuple, a clean record. ``active_licences`` counts the
    school-transport licences the person holds (art. 14); ``transferred_licence_on``
    and ``revoked_licence_on`` are the dates of the last transfer and of the last
    cassação or revogação of a licence of theirs, if any.
    """

    name: str
    birth_date: date | None
    cnh_category: str | None
    resident_since: date | None
    no_criminal_record: bool | None
    course_completed: bool | None
    infractions: tuple[TrafficInfraction, ...] | None
    vehicle: Vehicle | None = None
    edital_requirements_met: bool | None = None
    active_licences: int = 0
    transferred_licence_on: date | None = None
    revoked_licence_on: date | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Candidate:
        """Build from JSON data with the pack's vocabulary; :class:`InputError` naming
        the field when a value is malformed. Keys::

            nome, data_nascimento, cnh_categoria, residente_desde,
            sem_antecedentes_criminais, curso_condutor_escolar,
            infracoes: [{data, gravidade, descricao?}] | null,
            veiculo: {ano_fabricacao, placa?, licenciado_no_municipio?,
                      laudo_vistoria_ciretran?, seguro_vigente?, pneus_regulares?} | null,
            exigencias_edital, licencas_ativas, transferencia_licenca_em,
            cassacao_licenca_em
        """
        reader = _Reader(data, "")
        reader.only(
            "nome", "data_nascimento", "cnh_categoria", "residente_desde",
            "sem_antecedentes_criminais", "curso_condutor_escolar", "infracoes", "veiculo",
            "exigencias_edital", "licencas_ativas", "transferencia_licenca_em",
            "cassacao_licenca_em",
        )
        name = reader.text("nome")
        if name is None:
            raise InputError("Informe o nome do candidato.", field="/nome")
        infractions: tuple[TrafficInfraction, ...] | None = None
        raw_infractions = data.get("infracoes")
        if raw_infractions is not None:
            if not isinstance(raw_infractions, list):
                raise InputError("As infrações devem ser uma lista.", field="/infracoes")
            found = []
            for index, raw in enumerate(raw_infractions):
                item = _Reader(raw, f"/infracoes/{index}")
                item.only("data", "gravidade", "descricao")
                day = item.day("data")
                gravity = item.text("gravidade")
                if day is None or gravity not in GRAVITIES:
                    raise InputError(
                        "Cada infração deve ter 'data' (AAAA-MM-DD) e 'gravidade' (uma de: "
                        f"{', '.join(GRAVITIES)}).",
                        field=f"/infracoes/{index}",
                    )
                found.append(TrafficInfraction(day, gravity, item.text("descricao")))
            infractions = tuple(found)
        vehicle: Vehicle | None = None
        if data.get("veiculo") is not None:
            car = _Reader(data["veiculo"], "/veiculo")
            car.only(
                "ano_fabricacao", "placa", "licenciado_no_municipio",
                "laudo_vistoria_ciretran", "seguro_vigente", "pneus_regulares",
            )
            vehicle = Vehicle(
                year_of_manufacture=car.integer("ano_fabricacao"),
                plate=car.text("placa"),
                licensed_in_municipality=car.flag("licenciado_no_municipio"),
                inspection_report=car.flag("laudo_vistoria_ciretran"),
                insured=car.flag("seguro_vigente"),
                tyres_compliant=car.flag("pneus_regulares"),
            )
        licences = reader.integer("licencas_ativas")
        return cls(
            name=name,
            birth_date=reader.day("data_nascimento"),
            cnh_category=reader.text("cnh_categoria"),
            resident_since=reader.day("residente_desde"),
            no_criminal_record=reader.flag("sem_antecedentes_criminais"),
            course_completed=reader.flag("curso_condutor_escolar"),
            infractions=infractions,
            vehicle=vehicle,
            edital_requirements_met=reader.flag("exigencias_edital"),
            active_licences=0 if licences is None else licences,
            transferred_licence_on=reader.day("transferencia_licenca_em"),
            revoked_licence_on=reader.day("cassacao_licenca_em"),
        )


class _Reader:
    """Typed access to one JSON object, raising :class:`InputError` with the pointer."""

    def __init__(self, data: Any, pointer: str) -> None:
        if not isinstance(data, Mapping):
            raise InputError("Esperava-se um objeto JSON.", field=pointer or "/")
        self.data: Mapping[str, Any] = data
        self.pointer = pointer

    def _where(self, key: str) -> str:
        return f"{self.pointer}/{key}"

    def only(self, *keys: str) -> None:
        unknown = sorted(set(self.data) - set(keys))
        if unknown:
            raise InputError(
                f"Campo(s) desconhecido(s): {', '.join(unknown)}.",
                field=self._where(unknown[0]),
            )

    def text(self, key: str) -> str | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise InputError("Esperava-se um texto não vazio.", field=self._where(key))
        return value.strip()

    def day(self, key: str) -> date | None:
        value = self.text(key)
        if value is None:
            return None
        try:
            return date.fromisoformat(value)
        except ValueError:
            raise InputError(
                f"Data inválida: {value!r} (use AAAA-MM-DD).", field=self._where(key)
            ) from None

    def flag(self, key: str) -> bool | None:
        value = self.data.get(key)
        if value is None or isinstance(value, bool):
            return value
        raise InputError("Esperava-se verdadeiro ou falso.", field=self._where(key))

    def integer(self, key: str) -> int | None:
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InputError("Esperava-se um número inteiro não negativo.",
                             field=self._where(key))
        return value
