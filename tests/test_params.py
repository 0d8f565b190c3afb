"""Legal parameters read as of a date."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from lavra.errors import ContentPackError, InputError, ParameterError
from lavra.law.model import load_laws, resolve
from lavra.law.params import Parameters, load_parameters, parameters_from_document


@pytest.fixture(scope="module")
def params(pack_dir: Path) -> Parameters:
    return load_parameters(pack_dir)


@pytest.mark.parametrize(
    ("name", "on", "value", "unit", "basis"),
    [
        ("fretamento.validade_alvara", date(2006, 11, 17), 5, "anos", "fretamento#art8"),
        ("fretamento.antecedencia_renovacao", date(2024, 5, 2), 30, "dias", "fretamento#art8"),
        ("fretamento.idade_maxima_veiculo.onibus_rodoviario", date(2019, 8, 29), 20, "anos",
         "fretamento#art10_inc1"),
        ("fretamento.idade_maxima_veiculo.microonibus", date(2025, 1, 1), 10, "anos",
         "fretamento#art10_inc1"),
        ("fretamento.idade_maxima_veiculo.outro", date(2020, 3, 1), 5, "anos",
         "fretamento#art10_inc1"),
        ("fretamento.lotacao_minima_sentados", date(2010, 1, 1), 8, "passageiros",
         "fretamento#art10_inc4"),
        ("fretamento.periodicidade_inspecao", date(2010, 1, 1), 12, "meses",
         "fretamento#art7_inc11"),
        ("fretamento.frota_minima", date(2010, 1, 1), 2, "veículos", "fretamento#art7_inc8"),
        ("transporte-escolar.validade_alvara", date(2007, 8, 3), 12, "meses",
         "transporte-escolar#art3"),
        ("transporte-escolar.idade_maxima_veiculo", date(2019, 8, 9), 10, "anos",
         "transporte-escolar#art17_inc1"),
        ("transporte-escolar.idade_maxima_veiculo_substituto", date(2008, 1, 1), 10, "anos",
         "transporte-escolar#art5_inc2"),
        ("transporte-escolar.idade_minima_condutor", date(2015, 6, 1), 21, "anos",
         "transporte-escolar#art7_inc1"),
        ("transporte-escolar.residencia_minima", date(2015, 6, 1), 3, "anos",
         "transporte-escolar#art7_inc3"),
        ("transporte-escolar.habitantes_por_alvara", date(2015, 6, 1), 2500, "habitantes",
         "transporte-escolar#art6"),
    ],
)
def test_values_as_of_date(params: Parameters, name: str, on: date, value: int, unit: str,
                           basis: str) -> None:
    found = params.value(name, on)
    assert found.value == value and isinstance(found.value, int)
    assert found.unit == unit
    assert basis in found.basis
    assert found.since <= on and (found.until is None or on <= found.until)
    assert found.source


@pytest.mark.parametrize(
    ("name", "day", "shown"),
    [
        ("fretamento.idade_maxima_veiculo.onibus_rodoviario", date(2019, 8, 28), "28/08/2019"),
        ("fretamento.idade_maxima_veiculo.outro", date(2010, 1, 1), "01/01/2010"),
        ("transporte-escolar.idade_maxima_veiculo", date(2019, 8, 8), "08/08/2019"),
        ("fretamento.validade_alvara", date(2006, 11, 16), "16/11/2006"),
    ],
)
def test_no_value_before_the_first_period(params: Parameters, name: str, day: date,
                                          shown: str) -> None:
    with pytest.raises(ParameterError) as info:
        params.value(name, day)
    assert name in info.value.message
    assert shown in info.value.message
    assert "não tem valor vigente" in info.value.message


def test_amended_age_limit_explains_missing_period(params: Parameters) -> None:
    with pytest.raises(ParameterError) as info:
        params.value("fretamento.idade_maxima_veiculo.microonibus", date(2019, 8, 28))
    assert "Lei nº 6.335" in info.value.message
    found = params.value("fretamento.idade_maxima_veiculo.microonibus", date(2019, 8, 29))
    assert found.since == date(2019, 8, 29) and found.until is None
    assert "6.335" in found.source


def test_money_is_decimal_and_closed_period(params: Parameters) -> None:
    fine = params.value("fretamento.multa.art16", date(2006, 12, 31))
    assert fine.value == Decimal("280.00") and isinstance(fine.value, Decimal)
    assert fine.unit == "BRL"
    assert str(fine.value) == "280.00"
    with pytest.raises(ParameterError) as info:
        params.value("fretamento.multa.art16", date(2007, 1, 1))
    assert "01/01/2007" in info.value.message


def test_unknown_parameter(params: Parameters) -> None:
    with pytest.raises(ParameterError) as info:
        params.value("fretamento.inexistente", date(2020, 1, 1))
    assert "fretamento.inexistente" in info.value.message
    assert "fretamento.validade_alvara" in params
    assert "fretamento.inexistente" not in params


def test_datetime_is_refused(params: Parameters) -> None:
    with pytest.raises(InputError):
        params.value("fretamento.validade_alvara", datetime(2020, 1, 1, 12, 0))


def test_every_basis_resolves(pack_dir: Path, params: Parameters) -> None:
    laws = load_laws(pack_dir)
    for name in params:
        param = params.parameter(name)
        assert param.basis, name
        for citation in param.basis:
            assert resolve(laws, citation).fragment is not None


def _doc(periods: list[dict[str, Any]], unit: str = "dias", **extra: Any) -> dict[str, Any]:
    return {"parametros": {"lei.prazo": {
        "descricao": "Prazo de teste", "unidade": unit, "fundamento": ["lei#art1"],
        "vigencias": periods, **extra}}}


def test_several_periods_and_a_gap() -> None:
    params = parameters_from_document(_doc([
        {"desde": "2000-01-01", "ate": "2009-12-31", "valor": 10, "fonte": "Lei A"},
        {"desde": "2012-01-01", "ate": None, "valor": 15, "fonte": "Lei B"},
    ]))
    assert params.value("lei.prazo", date(2009, 12, 31)).value == 10
    assert params.value("lei.prazo", date(2012, 1, 1)).source == "Lei B"
    with pytest.raises(ParameterError) as info:
        params.value("lei.prazo", date(2011, 6, 30))
    assert "30/06/2011" in info.value.message
    assert "de 01/01/2000 a 31/12/2009" in info.value.message


_FIRST = "/parametros/lei.prazo/vigencias/0"


@pytest.mark.parametrize(
    ("document", "pointer", "words"),
    [
        (_doc([{"desde": "2000-01-01", "ate": None, "valor": 1, "fonte": "A"},
               {"desde": "2005-01-01", "ate": None, "valor": 2, "fonte": "B"}]),
         "/parametros/lei.prazo/vigencias/1", "sem sobreposição"),
        (_doc([{"desde": "2000-02-30", "ate": None, "valor": 1, "fonte": "A"}]),
         f"{_FIRST}/desde", "data inválida «2000-02-30» (use AAAA-MM-DD)"),
        (_doc([{"desde": "2000-01-01", "ate": None, "valor": 1.5, "fonte": "A"}]),
         f"{_FIRST}/valor", "use um inteiro"),
        (_doc([{"desde": "2000-01-01", "ate": None, "valor": 1.0, "fonte": "A"}]),
         f"{_FIRST}/valor", "use um inteiro"),
        (_doc([{"desde": "2000-01-01", "ate": None, "valor": "1,5", "fonte": "A"}]),
         f"{_FIRST}/valor", "valor numérico inválido «1,5»"),
        (_doc([{"desde": "2000-01-01", "ate": None, "valor": "abc", "fonte": "A",
                "extra": 1}]),
         f"{_FIRST}/extra", "«extra»: chave desconhecida"),
        (_doc([{"desde": "2000-01-01", "ate": None, "valor": 1}]),
         f"{_FIRST}/fonte", "Campo obrigatório não informado"),
        (_doc([{"desde": "2000-01-01", "ate": None, "valor": 1, "fonte": " "}]),
         f"{_FIRST}/fonte", "esperava-se um texto não vazio"),
        (_doc([{"desde": "2000-01-01", "ate": "1999-01-01", "valor": 1, "fonte": "A"}]),
         _FIRST, "termina antes de começar"),
        (_doc([]), "/parametros/lei.prazo/vigencias", "lista não vazia"),
        ({"parametros": {"Sem Ponto": {}}}, "/parametros/Sem Ponto",
         "nome de parâmetro inválido"),
        ({"outros": {}}, "/outros", "«outros»: chave desconhecida"),
    ],
)
def test_invalid_parameter_documents(document: dict[str, Any], pointer: str,
                                     words: str) -> None:
    with pytest.raises(ContentPackError) as info:
        parameters_from_document(document)
    assert info.value.field == pointer
    assert info.value.message.startswith(
        f"Parâmetros inválidos em legal_text/parametros.json ({pointer}): ")
    assert words in info.value.message


def test_money_written_as_integer_becomes_decimal() -> None:
    params = parameters_from_document(_doc(
        [{"desde": "2000-01-01", "ate": None, "valor": 140, "fonte": "A"}], unit="BRL"))
    assert params.value("lei.prazo", date(2001, 1, 1)).value == Decimal(140)
    assert isinstance(params.value("lei.prazo", date(2001, 1, 1)).value, Decimal)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ContentPackError) as info:
        load_parameters(tmp_path)
    assert "parâmetros legais" in info.value.message


def test_every_fretamento_vehicle_type_a_schema_accepts_has_its_age_limit(
    pack_dir: Path, params: Parameters
) -> None:
    """The check ``idade_veiculo`` passes over a type without a limit (a value its form's
    schema refuses, said once by the schema's item): so every type a schema accepts has
    its ``fretamento.idade_maxima_veiculo.<tipo>`` (art. 10, I)."""
    import json

    def enums(node: Any) -> Any:
        if isinstance(node, dict):
            if isinstance(node.get("enum"), list):
                yield node["enum"]
            for child in node.values():
                yield from enums(child)
        elif isinstance(node, list):
            for child in node:
                yield from enums(child)

    kinds = {value for path in (pack_dir / "schemas").glob("*.json")
             for values in enums(json.loads(path.read_text("utf-8")))
             if "onibus_rodoviario" in values for value in values}
    assert kinds >= {"onibus_rodoviario", "microonibus", "outro"}
    assert {k for k in kinds if f"fretamento.idade_maxima_veiculo.{k}" not in params} == set()
