"""Fact dates of the licences and alvarás against the moment of issue (issue 10, class 2):
each refused when after it, the day of issue admitted, the hour compared on that day."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from lavra.checking.computations import ComputeInput
from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.inputs import pointers
from lavra.registry.records import LOCAL_TZ
from lavra_americana.comum.fact_dates import datas_de_fatos

REPO = Path(__file__).resolve().parent.parent
ISSUED_AT = datetime(2026, 6, 10, 11, 15, tzinfo=LOCAL_TZ)


def _set(data: dict[str, Any], pointer: str, value: str) -> None:
    *parents, last = pointers.split(pointer)
    target: Any = data
    for token in parents:
        target = target[int(token)] if isinstance(target, list) else target[token]
    target[last] = value


def _example(form: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (REPO / "forms" / form / "exemplo.json").read_text(encoding="utf-8"))
    return data


def _invalid(form: str, data: dict[str, Any]) -> dict[str, str]:
    result = datas_de_fatos(ComputeInput(
        form, data, ISSUED_AT.date(), REPO, None, True,
        issued_on=ISSUED_AT.date(), issued_at=ISSUED_AT))
    return {i.field: i.message for i in result.items if i.status is Status.INVALID}


CASES = [
    ("licenca-temporaria-escolar", "/ocorrencia/data", "/ocorrencia/hora"),
    ("licenca-temporaria-escolar", "/ocorrencia/comparecimento/data",
     "/ocorrencia/comparecimento/hora"),
    ("licenca-temporaria-escolar", "/veiculo_substituto/vistoria/data",
     "/veiculo_substituto/vistoria/hora"),
    ("alvara-transporte-escolar", "/processo/data_requerimento", None),
    ("alvara-transporte-escolar", "/processo/data_pagamento_taxa", None),
    ("alvara-transporte-escolar", "/veiculo/laudo_vistoria_ciretran/data_emissao", None),
    ("alvara-transporte-escolar", "/selecao/data_ciencia_classificacao", None),
    ("alvara-fretamento", "/processo/data_requerimento", None),
    ("alvara-fretamento", "/processo/conferencia_requerimento/data", None),
    ("alvara-fretamento", "/inspecao_veicular/data_emissao", None),
    ("autorizacao-publicidade-escolar", "/requerimento/data", None),
    ("autorizacao-publicidade-escolar", "/croqui/data_emissao", None),
    ("licenca-especial-escolar", "/documentos/crlv/data_emissao", None),
    ("alvara-condutor-auxiliar", "/processo/data_requerimento", None),
    ("alvara-servico-particular-fretamento", "/processo/data_requerimento", None),
]


@pytest.mark.parametrize(("form", "pointer", "hour"), CASES)
def test_a_fact_after_the_issue_is_invalid_the_day_of_issue_is_not(
        form: str, pointer: str, hour: str | None) -> None:
    data = _example(form)
    _set(data, pointer, "2026-06-11")
    found = _invalid(form, data)
    assert pointer in found and "posterior à data de emissão" in found[pointer]
    _set(data, pointer, "2026-06-10")
    if hour is not None:
        _set(data, hour, "11:15")
    assert pointer not in _invalid(form, data) and (hour is None or hour not in _invalid(
        form, data))
    if hour is not None:
        _set(data, hour, "11:16")
        assert "posterior ao momento" in _invalid(form, data)[hour]


def test_the_validity_the_act_sets_is_not_a_fact() -> None:
    data = _example("alvara-transporte-escolar")
    for key in ("valido_ate", "inicio_vigencia"):
        data[key] = "2027-12-31"
    assert all("valido" not in field for field in _invalid("alvara-transporte-escolar", data))


def test_engine_refuses_a_licenca_temporaria_inspected_after_its_issue(
        engine: Engine) -> None:
    data = _example("licenca-temporaria-escolar")
    on = date.fromisoformat(data["data_expedicao"])
    data["veiculo_substituto"]["vistoria"]["data"] = "2026-12-31"
    report = engine.prepare("licenca-temporaria-escolar", data, on, issued_on=on,
                            issued_at=datetime(on.year, on.month, on.day, 18,
                                               tzinfo=LOCAL_TZ)).report
    assert any(i.field == "/veiculo_substituto/vistoria/data" and i.status is Status.INVALID
               for i in report.items)
