"""Eligibility: vehicle age (fretamento art. 10, I; escolar art. 17, I, art. 5º, II) and
the school-transport candidate (art. 7º; art. 9º, § 1º; art. 4º; art. 14; art. 15, § 2º)."""

from __future__ import annotations

import dataclasses
import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lavra.checking.checks import CheckSpec, run_checks
from lavra.checking.report import Status
from lavra.errors import InputError, ParameterError
from lavra.law.model import load_laws
from lavra.law.params import load_parameters
from lavra.law.statutory import deadline_for, load_statutory_context
from lavra_americana.comum import checks
from lavra_americana.comum import vehicle_age as vehicle_age_rules
from lavra_americana.comum.checks import CHECKS
from lavra_americana.comum.periods import anniversary, bar_lifted, free_from, has_elapsed
from lavra_americana.comum.vehicle_age import vehicle_age, vehicle_age_years
from lavra_americana.transporte_escolar.candidate import (
    CNH_CATEGORIES_D,
    Candidate,
    Role,
    TrafficInfraction,
    Vehicle,
)
from lavra_americana.transporte_escolar.eligibility import candidate_eligibility

_PACK = Path(__file__).resolve().parent.parent
PARAMS = load_parameters(_PACK)
LAWS = load_laws(_PACK)
ON = date(2026, 3, 10)


def _candidate(**changes: Any) -> Candidate:
    """A candidate who meets every requirement on ON; rows change one thing."""
    base = Candidate(
        name="Maria Aparecida Souza",
        birth_date=date(1980, 5, 14),
        cnh_category="D",
        resident_since=date(2010, 1, 4),
        no_criminal_record=True,
        course_completed=True,
        infractions=(),
        vehicle=Vehicle(
            year_of_manufacture=2020,
            plate="FAB1C23",
            licensed_in_municipality=True,
            inspection_report=True,
            insured=True,
            tyres_compliant=True,
        ),
        edital_requirements_met=True,
    )
    return dataclasses.replace(base, **changes)


def _vehicle(**changes: Any) -> Vehicle:
    car = _candidate().vehicle
    assert car is not None
    return dataclasses.replace(car, **changes)


def _item(result: Any, requirement: str) -> Any:
    found = [i for i in result.items if i.requirement == requirement]
    assert len(found) == 1, [i.requirement for i in result.items]
    return found[0]


def test_base_candidate_is_eligible() -> None:
    result = candidate_eligibility(_candidate(), ON, "titular", params=PARAMS, laws=LAWS)
    assert result.eligible, [i.message for i in result.pending]
    assert result.explanation == (
        "Maria Aparecida Souza atende, em 10/03/2026, aos requisitos para a inscrição como "
        "condutor titular do transporte escolar (art. 7º da Lei nº 4.515/2007)."
    )
    # Every inciso of art. 7º is reported, each citing itself.
    cited = {c for item in result.items for c in item.basis}
    assert {f"transporte-escolar#art7_inc{n}" for n in range(1, 10)} <= cited


def _infr(on: date, gravity: str) -> TrafficInfraction:
    return TrafficInfraction(on, gravity)  # type: ignore[arg-type]


# (changes, reference date, requirement, status, text in message, citation)
CANDIDATE_ROWS = [
    pytest.param({"birth_date": date(2005, 3, 10)}, ON, "data_nascimento", Status.MET,
                 "21 anos completos em 10/03/2026", "transporte-escolar#art7_inc1",
                 id="transporte-escolar#art7_inc1 21st birthday itself qualifies"),
    pytest.param({"birth_date": date(2005, 3, 11)}, ON, "data_nascimento", Status.INVALID,
                 "completará 21 anos em 11/03/2026", "transporte-escolar#art7_inc1",
                 id="transporte-escolar#art7_inc1 one day short of 21"),
    pytest.param({"birth_date": date(2004, 2, 29)}, date(2025, 2, 28), "data_nascimento",
                 Status.MET, "21 anos completos", "transporte-escolar#art7_inc1",
                 id="transporte-escolar#art7_inc1 born 29 Feb completes on 28 Feb"),
    pytest.param({"birth_date": date(2004, 2, 29)}, date(2025, 2, 27), "data_nascimento",
                 Status.INVALID, "completará 21 anos em 28/02/2025",
                 "transporte-escolar#art7_inc1",
                 id="transporte-escolar#art7_inc1 born 29 Feb, day before"),
    pytest.param({"birth_date": None}, ON, "data_nascimento", Status.MISSING,
                 "não informada", "transporte-escolar#art7_inc1",
                 id="transporte-escolar#art7_inc1 birth date not proven"),
    pytest.param({"cnh_category": "E"}, ON, "cnh_categoria", Status.MET, "abrange",
                 "transporte-escolar#art7_inc2", id="transporte-escolar#art7_inc2 E covers D"),
    pytest.param({"cnh_category": "ad"}, ON, "cnh_categoria", Status.MET, "“AD”",
                 "transporte-escolar#art7_inc2", id="transporte-escolar#art7_inc2 AD, lower case"),
    pytest.param({"cnh_category": "AE"}, ON, "cnh_categoria", Status.MET, "“AE”",
                 "transporte-escolar#art7_inc2", id="transporte-escolar#art7_inc2 AE"),
    pytest.param({"cnh_category": "C"}, ON, "cnh_categoria", Status.INVALID,
                 "exige a categoria “D”", "transporte-escolar#art7_inc2",
                 id="transporte-escolar#art7_inc2 C does not qualify"),
    pytest.param({"cnh_category": "AB"}, ON, "cnh_categoria", Status.INVALID, "“AB”",
                 "transporte-escolar#art7_inc2", id="transporte-escolar#art7_inc2 AB refused"),
    pytest.param({"cnh_category": None}, ON, "cnh_categoria", Status.MISSING, "não informada",
                 "transporte-escolar#art7_inc2", id="transporte-escolar#art7_inc2 not proven"),
    pytest.param({"resident_since": date(2023, 3, 10)}, ON, "residente_desde", Status.MET,
                 "3 anos completos", "transporte-escolar#art7_inc3",
                 id="transporte-escolar#art7_inc3 exactly 3 years of residence"),
    pytest.param({"resident_since": date(2023, 3, 11)}, ON, "residente_desde", Status.INVALID,
                 "completará 3 anos de residência em 11/03/2026",
                 "transporte-escolar#art7_inc3",
                 id="transporte-escolar#art7_inc3 one day short of 3 years"),
    pytest.param({"resident_since": date(2026, 4, 1)}, ON, "residente_desde", Status.INVALID,
                 "posterior à data de referência", "transporte-escolar#art7_inc3",
                 id="transporte-escolar#art7_inc3 residence starting in the future"),
    pytest.param({"resident_since": None}, ON, "residente_desde", Status.MISSING,
                 "não informado", "transporte-escolar#art7_inc3",
                 id="transporte-escolar#art7_inc3 not proven"),
    pytest.param({"vehicle": _vehicle(year_of_manufacture=2016)}, ON, "veiculo.ano_fabricacao",
                 Status.MET, "10 anos de fabricação", "transporte-escolar#art17_inc1",
                 id="transporte-escolar#art7_inc4 art17_inc1 10 years old is within"),
    pytest.param({"vehicle": _vehicle(year_of_manufacture=2015)}, ON, "veiculo.ano_fabricacao",
                 Status.INVALID, "acima do máximo de 10 anos", "transporte-escolar#art17_inc1",
                 id="transporte-escolar#art7_inc4 art17_inc1 11 years old is out"),
    pytest.param({"vehicle": _vehicle(licensed_in_municipality=False)}, ON,
                 "veiculo.licenciado_no_municipio", Status.INVALID, "não licenciado",
                 "transporte-escolar#art17_inc2",
                 id="transporte-escolar#art7_inc4 art17_inc2 licensed elsewhere"),
    pytest.param({"vehicle": _vehicle(insured=None)}, ON, "veiculo.seguro_vigente",
                 Status.MISSING, "Não comprovado o seguro", "transporte-escolar#art17_inc4",
                 id="transporte-escolar#art7_inc4 art17_inc4 insurance not proven"),
    pytest.param({"vehicle": _vehicle(tyres_compliant=False)}, ON, "veiculo.pneus_regulares",
                 Status.INVALID, "remoldados", "transporte-escolar#art17_inc5",
                 id="transporte-escolar#art7_inc4 art17_inc5 retreaded tyres"),
    pytest.param({"vehicle": None}, ON, "veiculo", Status.MISSING, "Veículo não informado",
                 "transporte-escolar#art7_inc4", id="transporte-escolar#art7_inc4 no vehicle"),
    pytest.param({"no_criminal_record": False}, ON, "sem_antecedentes_criminais",
                 Status.INVALID, "Registra antecedentes", "transporte-escolar#art7_inc5",
                 id="transporte-escolar#art7_inc5 criminal record"),
    pytest.param({"no_criminal_record": None}, ON, "sem_antecedentes_criminais",
                 Status.MISSING, "Não comprovada", "transporte-escolar#art7_inc5",
                 id="transporte-escolar#art7_inc5 certificate not presented"),
    pytest.param({"course_completed": False}, ON, "curso_condutor_escolar", Status.INVALID,
                 "Não concluído", "transporte-escolar#art7_inc6",
                 id="transporte-escolar#art7_inc6 course not completed"),
    pytest.param({"vehicle": _vehicle(inspection_report=None)}, ON,
                 "veiculo.laudo_vistoria_ciretran", Status.MISSING, "CIRETRAN",
                 "transporte-escolar#art7_inc7", id="transporte-escolar#art7_inc7 no report"),
    pytest.param({"infractions": (_infr(date(2025, 3, 10), "grave"),)}, ON, "infracoes",
                 Status.MET, "Sem infração grave", "transporte-escolar#art7_inc8",
                 id="transporte-escolar#art7_inc8 grave exactly 12 months before no longer counts"),
    pytest.param({"infractions": (_infr(date(2025, 3, 11), "grave"),)}, ON, "infracoes",
                 Status.INVALID, "grave em 11/03/2025", "transporte-escolar#art7_inc8",
                 id="transporte-escolar#art7_inc8 grave 12 months less a day before"),
    pytest.param({"infractions": (_infr(date(2026, 1, 5), "gravissima"),)}, ON, "infracoes",
                 Status.INVALID, "gravíssima em 05/01/2026", "transporte-escolar#art7_inc8",
                 id="transporte-escolar#art7_inc8 gravissima"),
    pytest.param({"infractions": (_infr(date(2025, 9, 1), "media"),)}, ON, "infracoes",
                 Status.MET, "Sem infração", "transporte-escolar#art7_inc8",
                 id="transporte-escolar#art7_inc8 a single media is no repeat"),
    pytest.param({"infractions": (_infr(date(2025, 6, 1), "media"),
                                  _infr(date(2025, 9, 1), "media"))}, ON, "infracoes",
                 Status.INVALID, "reincidência em infrações médias (01/06/2025, 01/09/2025)",
                 "transporte-escolar#art7_inc8",
                 id="transporte-escolar#art7_inc8 two medias within 12 months"),
    pytest.param({"infractions": (_infr(date(2025, 3, 10), "media"),
                                  _infr(date(2025, 9, 1), "media"))}, ON, "infracoes",
                 Status.MET, "Sem infração", "transporte-escolar#art7_inc8",
                 id="transporte-escolar#art7_inc8 first media exactly 12 months before"),
    pytest.param({"infractions": tuple(_infr(date(2025, m, 1), "leve") for m in (4, 5, 6))},
                 ON, "infracoes", Status.MET, "Sem infração", "transporte-escolar#art7_inc8",
                 id="transporte-escolar#art7_inc8 leves do not bar"),
    pytest.param({"infractions": (_infr(date(2026, 3, 11), "gravissima"),)}, ON, "infracoes",
                 Status.MET, "Sem infração", "transporte-escolar#art7_inc8",
                 id="transporte-escolar#art7_inc8 infraction after the reference date"),
    pytest.param({"infractions": None}, ON, "infracoes", Status.MISSING,
                 "Prontuário de infrações de trânsito não apresentado",
                 "transporte-escolar#art7_inc8",
                 id="transporte-escolar#art7_inc8 traffic record not presented"),
    pytest.param({"edital_requirements_met": False}, ON, "exigencias_edital", Status.INVALID,
                 "Não atendidas", "transporte-escolar#art7_inc9",
                 id="transporte-escolar#art7_inc9 edital requirements not met"),
    pytest.param({"active_licences": 1}, ON, "licencas_ativas", Status.INVALID,
                 "vedada a concessão de mais de uma licença", "transporte-escolar#art14",
                 id="transporte-escolar#art14 already holds a licence"),
    # the bar includes its last day, the 3rd anniversary (Lei nº 9.784/1999, art. 66, § 3º;
    # the deadline table's reading): barred on it, free the day after
    pytest.param({"transferred_licence_on": date(2023, 3, 9)}, ON, "transferencia_licenca_em",
                 Status.MET, "cessou o impedimento em 10/03/2026",
                 "transporte-escolar#art15_par2",
                 id="transporte-escolar#art15_par2 the day after the 3rd anniversary"),
    pytest.param({"transferred_licence_on": date(2023, 3, 10)}, ON, "transferencia_licenca_em",
                 Status.INVALID, "dura até 10/03/2026, inclusive, e cessa em 11/03/2026",
                 "transporte-escolar#art15_par2",
                 id="transporte-escolar#art15_par2 on the 3rd anniversary: still barred"),
    pytest.param({"transferred_licence_on": date(2023, 3, 11)}, ON, "transferencia_licenca_em",
                 Status.INVALID, "cessa em 12/03/2026", "transporte-escolar#art15_par2",
                 id="transporte-escolar#art15_par2 a day before 3 years"),
    pytest.param({"transferred_licence_on": date(2024, 2, 29)}, date(2027, 2, 28),
                 "transferencia_licenca_em", Status.INVALID,
                 "dura até 28/02/2027, inclusive, e cessa em 01/03/2027",
                 "transporte-escolar#art15_par2",
                 id="transporte-escolar#art15_par2 from 29 February: barred on 28/02"),
    pytest.param({"transferred_licence_on": date(2024, 2, 29)}, date(2027, 3, 1),
                 "transferencia_licenca_em", Status.MET, "cessou o impedimento em 01/03/2027",
                 "transporte-escolar#art15_par2",
                 id="transporte-escolar#art15_par2 from 29 February: free on 01/03"),
    pytest.param({"revoked_licence_on": date(2025, 12, 1)}, ON, "cassacao_licenca_em",
                 Status.NOT_APPLICABLE, "não impede a inscrição", "transporte-escolar#art23_inc3",
                 id="transporte-escolar#art23_inc3 no bar after revocation in this law"),
]


@pytest.mark.parametrize(
    ("changes", "on", "requirement", "status", "text", "citation"), CANDIDATE_ROWS
)
def test_candidate_titular(changes: dict[str, Any], on: date, requirement: str, status: Status,
                           text: str, citation: str) -> None:
    result = candidate_eligibility(_candidate(**changes), on, "titular",
                                   params=PARAMS, laws=LAWS)
    item = _item(result, requirement)
    assert item.status is status, item.message
    assert text in item.message
    assert citation in item.basis
    assert "Lei nº 4.515/2007" in item.message
    assert result.eligible is not any(i.pending for i in result.items)
    if status in (Status.MISSING, Status.INVALID):
        assert not result.eligible
        assert "não atende" in result.explanation
        assert item.message.rstrip(".")[1:] in result.explanation
    else:
        assert result.eligible, [i.message for i in result.pending]


# (role, changes, requirement, status, text, citation)
ROLE_ROWS = [
    pytest.param("auxiliar", {"vehicle": None}, "veiculo", Status.NOT_APPLICABLE,
                 "dispensado para o condutor auxiliar (art. 9º, § 1º",
                 "transporte-escolar#art9_par1",
                 id="transporte-escolar#art9_par1 auxiliary needs no vehicle (art7_inc4)"),
    pytest.param("auxiliar", {"vehicle": None}, "veiculo.laudo_vistoria_ciretran",
                 Status.NOT_APPLICABLE, "dispensado para o condutor auxiliar",
                 "transporte-escolar#art7_inc7",
                 id="transporte-escolar#art9_par1 auxiliary needs no CIRETRAN report (art7_inc7)"),
    pytest.param("auxiliar", {"edital_requirements_met": None}, "exigencias_edital",
                 Status.MISSING, "Edital", "transporte-escolar#art7_inc9",
                 id="transporte-escolar#art9_par1 auxiliary still meets art7_inc9"),
    pytest.param("auxiliar", {"cnh_category": "B"}, "cnh_categoria", Status.INVALID,
                 "“B”", "transporte-escolar#art7_inc2",
                 id="transporte-escolar#art9_par1 auxiliary still needs category D"),
    pytest.param("auxiliar", {"active_licences": 1}, "licencas_ativas",
                 Status.NOT_APPLICABLE, "não se aplica ao condutor auxiliar",
                 "transporte-escolar#art14",
                 id="transporte-escolar#art14 does not bind the auxiliary"),
    pytest.param("substituto", {"vehicle": None}, "veiculo", Status.NOT_APPLICABLE,
                 "dispensado para o condutor substituto (art. 4º, caput e parágrafo único, I",
                 "transporte-escolar#art4_par1u_inc1",
                 id="transporte-escolar#art4_par1u_inc1 substitute needs no vehicle"),
    pytest.param("substituto", {"edital_requirements_met": None}, "exigencias_edital",
                 Status.NOT_APPLICABLE, "dispensado para o condutor substituto",
                 "transporte-escolar#art4",
                 id="transporte-escolar#art4 substitute exempt from art7_inc9"),
    pytest.param("substituto", {"course_completed": None}, "curso_condutor_escolar",
                 Status.MISSING, "curso", "transporte-escolar#art7_inc6",
                 id="transporte-escolar#art4 substitute still needs the course"),
    pytest.param("substituto", {"transferred_licence_on": date(2025, 1, 1)},
                 "transferencia_licenca_em", Status.NOT_APPLICABLE,
                 "não se aplica ao condutor substituto", "transporte-escolar#art15_par2",
                 id="transporte-escolar#art15_par2 does not bind the substitute"),
]


@pytest.mark.parametrize(("role", "changes", "requirement", "status", "text", "citation"),
                         ROLE_ROWS)
def test_candidate_roles(role: Role, changes: dict[str, Any], requirement: str, status: Status,
                         text: str, citation: str) -> None:
    result = candidate_eligibility(_candidate(**changes), ON, role, params=PARAMS, laws=LAWS)
    item = _item(result, requirement)
    assert item.status is status, item.message
    assert text in item.message
    assert citation in item.basis
    assert result.eligible is (status not in (Status.MISSING, Status.INVALID))


def test_auxiliary_explanation_names_the_exemptions() -> None:
    result = candidate_eligibility(_candidate(vehicle=None), ON, "auxiliar",
                                   params=PARAMS, laws=LAWS)
    assert result.eligible
    assert result.explanation == (
        "Maria Aparecida Souza atende, em 10/03/2026, aos requisitos para a inscrição como "
        "condutor auxiliar do transporte escolar (art. 7º, c/c o art. 9º, § 1º, da Lei nº "
        "4.515/2007), dispensados os incisos IV e VII do art. 7º."
    )
    titular = candidate_eligibility(_candidate(vehicle=None), ON, "titular",
                                    params=PARAMS, laws=LAWS)
    assert not titular.eligible


def test_substitute_explanation_lists_three_exemptions() -> None:
    result = candidate_eligibility(_candidate(vehicle=None, edital_requirements_met=None), ON,
                                   "substituto", params=PARAMS, laws=LAWS)
    assert result.eligible
    assert "dispensados os incisos IV, VII e IX do art. 7º" in result.explanation


def test_ineligible_explanation_lists_every_failure() -> None:
    result = candidate_eligibility(
        _candidate(birth_date=date(2006, 1, 1), cnh_category="B"), ON, "titular",
        params=PARAMS, laws=LAWS,
    )
    assert not result.eligible
    assert [i.requirement for i in result.pending] == ["data_nascimento", "cnh_categoria"]
    assert result.explanation.startswith(
        "Maria Aparecida Souza não atende, em 10/03/2026, aos requisitos para a inscrição "
        "como condutor titular do transporte escolar (art. 7º da Lei nº 4.515/2007): "
        "nascimento em 01/01/2006: 20 anos completos"
    )
    assert "; habilitado na categoria “B”" in result.explanation


def test_bad_role_and_future_transfer_are_input_errors() -> None:
    with pytest.raises(InputError) as info:
        candidate_eligibility(_candidate(), ON, "motorista",  # type: ignore[arg-type]
                              params=PARAMS, laws=LAWS)
    assert info.value.field == "/papel"
    with pytest.raises(InputError) as info:
        candidate_eligibility(_candidate(transferred_licence_on=date(2026, 4, 1)), ON,
                              "titular", params=PARAMS, laws=LAWS)
    assert info.value.field == "/transferencia_licenca_em"


def test_cnh_categories_match_the_shared_schema() -> None:
    """The rule accepts exactly the categories the schema definition cnh_categoria_d does."""
    schema = json.loads((_PACK / "schemas" / "comum.json").read_text(encoding="utf-8"))
    enum = schema["$defs"]["cnh_categoria_d"]["properties"]["categoria"]["enum"]
    assert sorted(enum) == sorted(CNH_CATEGORIES_D)


# ---------------------------------------------------------------- vehicle age

# (law, kind, year, on, within, limit)
VEHICLE_ROWS = [
    pytest.param("fretamento", "onibus_rodoviario", 2006, date(2026, 12, 31), True, 20,
                 id="fretamento#art10_inc1 onibus rodoviario 20 years within"),
    pytest.param("fretamento", "onibus_rodoviario", 2005, date(2026, 1, 1), False, 20,
                 id="fretamento#art10_inc1 onibus rodoviario 21 years out"),
    pytest.param("fretamento", "microonibus", 2016, date(2026, 6, 1), True, 10,
                 id="fretamento#art10_inc1 microonibus 10 years within"),
    pytest.param("fretamento", "microonibus", 2015, date(2026, 6, 1), False, 10,
                 id="fretamento#art10_inc1 microonibus 11 years out"),
    pytest.param("fretamento", "outro", 2021, date(2026, 12, 31), True, 5,
                 id="fretamento#art10_inc1 other 5 years within"),
    pytest.param("fretamento", "outro", 2020, date(2026, 1, 1), False, 5,
                 id="fretamento#art10_inc1 other 6 years out on 1 January"),
    pytest.param("transporte-escolar", None, 2016, date(2026, 12, 31), True, 10,
                 id="transporte-escolar#art17_inc1 last day of the 10th year"),
    pytest.param("transporte-escolar", None, 2016, date(2027, 1, 1), False, 10,
                 id="transporte-escolar#art17_inc1 first day of the 11th year"),
    pytest.param("transporte-escolar-substituto", None, 2016, date(2026, 3, 1), True, 10,
                 id="transporte-escolar#art5_inc2 substitute vehicle 10 years"),
    pytest.param("transporte-escolar-substituto", None, 2015, date(2026, 3, 1), False, 10,
                 id="transporte-escolar#art5_inc2 substitute vehicle 11 years"),
]


@pytest.mark.parametrize(("law", "kind", "year", "on", "within", "limit"), VEHICLE_ROWS)
def test_vehicle_age(law: Any, kind: str | None, year: int, on: date, within: bool,
                     limit: int) -> None:
    result = vehicle_age(year, on, law=law, kind=kind, params=PARAMS, laws=LAWS, plate="ABC1D23")
    assert result.age == on.year - year
    assert result.limit == limit
    assert result.within is within
    (item,) = result.items
    assert item.status is (Status.MET if within else Status.INVALID)
    assert item.message.startswith(f"Veículo de placa ABC1D23, fabricado em {year}")
    assert f"31/12/{year + limit}" in item.message
    assert item.message == result.explanation
    assert item.basis and all(c.startswith(law.removesuffix("-substituto")) for c in item.basis)


def test_vehicle_age_years_counts_the_calendar_year_only() -> None:
    assert vehicle_age_years(2016, date(2026, 1, 1)) == 10
    assert vehicle_age_years(2016, date(2026, 12, 31)) == 10
    assert vehicle_age_years(2027, date(2026, 12, 31)) == -1
    with pytest.raises(InputError):
        vehicle_age_years(True, date(2026, 1, 1))


def test_vehicle_age_bad_inputs() -> None:
    future = vehicle_age(2027, date(2026, 5, 1), law="transporte-escolar",
                         params=PARAMS, laws=LAWS)
    assert future.within is None
    assert future.items[0].status is Status.INVALID
    assert "posterior à data de referência" in future.explanation
    with pytest.raises(InputError) as info:
        vehicle_age(2020, date(2026, 5, 1), law="fretamento", kind="caminhao",
                    params=PARAMS, laws=LAWS)
    assert "microonibus" in info.value.message
    # The limit of art. 17, I, is known only in the wording of Lei nº 6.324/2019.
    with pytest.raises(ParameterError):
        vehicle_age(2010, date(2018, 5, 1), law="transporte-escolar", params=PARAMS, laws=LAWS)


@pytest.mark.parametrize(
    ("year", "on", "status"),
    [
        pytest.param(2015, date(2026, 11, 29), Status.INVALID, id="fretamento#art10_inc1 out"),
        pytest.param(2016, date(2026, 12, 31), Status.MET, id="fretamento#art10_inc1 limit"),
        pytest.param(2027, date(2026, 12, 31), Status.INVALID, id="fretamento#art10_inc1 future"),
    ],
)
def test_form_check_applies_the_same_rule_and_message(year: int, on: date,
                                                      status: Status) -> None:
    """The forms' check ``idade_veiculo`` is :func:`vehicle_age`, not a copy of it."""
    spec = CheckSpec("idade_veiculo", "/veiculos/*", ("fretamento#art10_inc1",),
                     "fretamento.idade_maxima_veiculo")
    data = {"veiculos": [{"placa": "DEF4G56", "tipo": "microonibus", "ano_fabricacao": year}]}
    [found] = run_checks([spec], data, on, PARAMS, CHECKS)
    rule = vehicle_age(year, on, law="fretamento", kind="microonibus", params=PARAMS,
                       plate="DEF4G56", field="/veiculos/0/ano_fabricacao")
    assert found == rule.items[0]
    assert found.status is status
    assert (found.requirement, found.field) == ("veiculos.0.ano_fabricacao",
                                                "/veiculos/0/ano_fabricacao")
    assert found.basis == ("fretamento#art10_inc1",)
    if year == 2015:
        assert "11 anos" in found.message and "10 anos" in found.message
        assert "poderia circular até 31/12/2025" in found.message
        # Without the laws, the parameter's own source is cited.
        assert "Lei nº 4.419/2006, art. 10, I" in found.message


def test_form_check_reports_a_limit_not_in_force() -> None:
    spec = CheckSpec("idade_veiculo", "/veiculo", ("fretamento#art10_inc1",),
                     "fretamento.idade_maxima_veiculo")
    data = {"veiculo": {"tipo": "microonibus", "ano_fabricacao": 2010}}
    [found] = run_checks([spec], data, date(2018, 6, 2), PARAMS, CHECKS)
    assert found.status is Status.INVALID and found.field == "/veiculo/ano_fabricacao"
    assert "2018" in found.message


def test_vehicle_age_by_parameter_name() -> None:
    by_law = vehicle_age(2016, date(2026, 6, 1), law="transporte-escolar", params=PARAMS,
                         laws=LAWS)
    by_name = vehicle_age(2016, date(2026, 6, 1), params=PARAMS, laws=LAWS,
                          parameter="transporte-escolar.idade_maxima_veiculo")
    assert by_name == by_law
    with pytest.raises(InputError):
        vehicle_age(2016, date(2026, 6, 1), params=PARAMS)
    with pytest.raises(InputError):
        vehicle_age(2016, date(2026, 6, 1), law="transporte-escolar",
                    parameter="transporte-escolar.idade_maxima_veiculo", params=PARAMS)


def test_vehicle_age_rationale_is_stated_right() -> None:
    """Year difference = made on 31 December (most favourable); 1 January = strictest."""
    for doc in (vehicle_age_rules.__doc__ or "", checks.__doc__ or ""):
        text = " ".join(doc.split())
        assert "31 December of its year, the latest" in text
        assert "most favourable to the holder" in text
        assert "1 January, the earliest possible day, would be the strictest" in text


# ---------------------------------------------------------------- counting


@given(st.dates(min_value=date(1950, 1, 1), max_value=date(2100, 12, 31)),
       st.integers(min_value=0, max_value=40), st.integers(min_value=0, max_value=11))
def test_period_is_complete_from_the_anniversary_on(start: date, years: int,
                                                    months: int) -> None:
    end = anniversary(start, years=years, months=months)
    assert has_elapsed(start, end, years=years, months=months)
    assert has_elapsed(start, end + timedelta(days=400), years=years, months=months)
    if years or months:
        assert not has_elapsed(start, end - timedelta(days=1), years=years, months=months)


@given(st.dates(min_value=date(1950, 1, 1), max_value=date(2100, 12, 31)),
       st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=11))
def test_a_bar_holds_through_the_anniversary(start: date, years: int, months: int) -> None:
    end = anniversary(start, years=years, months=months)
    assert free_from(start, years=years, months=months) == end + timedelta(days=1)
    assert not bar_lifted(start, end, years=years, months=months)
    assert bar_lifted(start, end + timedelta(days=1), years=years, months=months)


_STATUTORY = load_statutory_context(_PACK)


@pytest.mark.parametrize(
    ("citation", "parameter"),
    [("transporte-escolar#art15_inc1", "carencia_transferencia"),
     ("transporte-escolar#art15_par2", "carencia_nova_licenca_apos_transferencia")],
    ids=["art15_inc1 the 2 years", "art15_par2 the 3-year bar"],
)
@pytest.mark.parametrize(
    "start", [date(2024, 2, 29), date(2023, 3, 10), date(2025, 12, 31), date(2026, 1, 1)],
    ids=str,
)
def test_the_rules_and_the_deadline_table_count_the_carencia_alike(
    citation: str, parameter: str, start: date
) -> None:
    """One reading (comum.periods): the table's first allowed day is the rules' free day."""
    years = int(PARAMS.value(f"transporte-escolar.{parameter}", start).value)
    table = deadline_for(citation, start, context=_STATUTORY)
    assert table.last_day == anniversary(start, years=years)
    assert table.first_allowed_day == free_from(start, years=years)


@given(st.dates(min_value=date(1940, 1, 1), max_value=date(2030, 12, 31)),
       st.dates(min_value=date(2008, 1, 1), max_value=date(2060, 12, 31)))
def test_age_requirement_is_monotonic(born: date, on: date) -> None:
    """Once 21 is reached the requirement stays met; never met before the 21st birthday."""
    on = max(on, born)
    result = candidate_eligibility(_candidate(birth_date=born), on, "auxiliar",
                                   params=PARAMS, laws=LAWS)
    met = _item(result, "data_nascimento").status is Status.MET
    assert met is (on >= anniversary(born, years=21))
    if met:
        later = candidate_eligibility(_candidate(birth_date=born), on + timedelta(days=1),
                                      "auxiliar", params=PARAMS, laws=LAWS)
        assert _item(later, "data_nascimento").status is Status.MET


# ---------------------------------------------------------------- JSON input


def test_candidate_from_json() -> None:
    data = {
        "nome": "João Batista",
        "data_nascimento": "1979-08-03",
        "cnh_categoria": "E",
        "residente_desde": "2001-02-01",
        "sem_antecedentes_criminais": True,
        "curso_condutor_escolar": True,
        "infracoes": [{"data": "2025-11-20", "gravidade": "media", "descricao": "art. 181"}],
        "veiculo": {"ano_fabricacao": 2019, "placa": "ABC1D23",
                    "licenciado_no_municipio": True, "laudo_vistoria_ciretran": True,
                    "seguro_vigente": True, "pneus_regulares": True},
        "exigencias_edital": True,
        "licencas_ativas": 0,
        "transferencia_licenca_em": None,
        "cassacao_licenca_em": "2022-01-10",
    }
    candidate = Candidate.from_json(data)
    assert candidate.birth_date == date(1979, 8, 3)
    assert candidate.infractions == (TrafficInfraction(date(2025, 11, 20), "media", "art. 181"),)
    assert candidate.vehicle == Vehicle(2019, "ABC1D23", True, True, True, True)
    assert candidate.revoked_licence_on == date(2022, 1, 10)
    result = candidate_eligibility(candidate, ON, "titular", params=PARAMS, laws=LAWS)
    assert result.eligible, [i.message for i in result.pending]
    # Absent proofs stay "not proven".
    bare = Candidate.from_json({"nome": "Ana"})
    assert bare.infractions is None and bare.vehicle is None and bare.birth_date is None
    assert not candidate_eligibility(bare, ON, "titular", params=PARAMS, laws=LAWS).eligible


@pytest.mark.parametrize(
    ("data", "field"),
    [
        pytest.param({"nome": "Ana", "data_nascimento": "1980-02-30"}, "/data_nascimento",
                     id="impossible date"),
        pytest.param({"nome": "Ana", "idade": 40}, "/idade", id="unknown key"),
        pytest.param({"nome": "Ana", "infracoes": [{"data": "2025-01-01", "gravidade": "x"}]},
                     "/infracoes/0", id="unknown gravity"),
        pytest.param({"nome": "Ana", "veiculo": {"ano_fabricacao": "2019"}},
                     "/veiculo/ano_fabricacao", id="year as text"),
        pytest.param({"nome": "Ana", "curso_condutor_escolar": "sim"},
                     "/curso_condutor_escolar", id="flag as text"),
        pytest.param({"nome": "Ana", "licencas_ativas": -1}, "/licencas_ativas",
                     id="negative licence count"),
        pytest.param({"data_nascimento": "1980-01-01"}, "/nome", id="no name"),
    ],
)
def test_candidate_from_json_errors(data: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as info:
        Candidate.from_json(data)
    assert info.value.field == field
