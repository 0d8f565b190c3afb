"""Issue 22, defect 9: an act is never dated before what it rests on
(:mod:`lavra.registry.rests_on_dates`). Over the imported sample
(``exemplos/cadastro-importacao.csv``: ALV-ESC nº 0019/2023 of 10/03/2023, transferred by
TRF-ESC nº 0003/2025 of 02/06/2025; AIE-ESC nº 0011/2025 of 01/08/2025), on SQLite;
every date is fixed, the imported acts count from their own dates."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from test_cadastro_import import load
from test_notificacao_defesa import example

from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.issuing import RegistryHistory
from lavra.registry.store import Registry

ISSUED = date(2026, 1, 15)
TITULAR = "ALV-ESC nº 0019/2023"


def _refused(engine: Engine, registry: Registry, form: str, data: dict[str, Any],
             on: date | None = None) -> dict[str, str]:
    """The items on an earlier act the draft's date precedes: field → message."""
    report = engine.prepare(form, data, on, issued_on=ISSUED,
                            history=RegistryHistory(registry)).report
    return {i.field: i.message for i in report.items
            if i.requirement.startswith("data.anterior.") and i.status is Status.INVALID}


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_an_act_is_not_dated_before_what_it_rests_on(
    registry: Registry, engine: Engine
) -> None:
    form = "alvara-condutor-auxiliar"
    data = example(engine, form)
    data["alvara_titular"] = {"numero": TITULAR, "valido_ate": "2027-12-31"}
    data["titular"] = {"nome": "Marta Exemplo Cessionária", "cpf": "626.147.224-64",
                       "prontuario": "T-1"}
    data["veiculo"]["placa"] = "ESC5E55"
    data["data_expedicao"] = "2023-01-10"
    assert _refused(engine, registry, form, data) == {}  # a fresh registry: nothing to rest on
    load(registry)
    before = _refused(engine, registry, form, data)
    assert before == {"/data_expedicao": (
        "A data do ato (10/01/2023) é anterior à expedição do ALV-ESC nº 0019/2023, em "
        "10/03/2023, em que ele se apoia: um ato administrativo leva a data em que é "
        "praticado e não pode fundar-se em ato que ainda não existia. Corrija a data do "
        "ato.")}
    data["data_expedicao"] = "2025-06-01"  # after the alvará, the day before its transfer
    assert "o TRF-ESC nº 0003/2025, em 02/06/2025" in _refused(
        engine, registry, form, data)["/data_expedicao"]
    assert "(01/06/2025)" in _refused(engine, registry, form, data, date(2025, 6, 1))["/on"]
    data["data_expedicao"] = "2025-06-02"  # the same day: accepted
    assert _refused(engine, registry, form, data) == {}
    report = engine.prepare(form, data, date(2023, 1, 10), issued_on=ISSUED,
                            history=RegistryHistory(registry)).report
    assert not report.complete  # the item blocks: INCOMPLETO
    [item] = [i for i in report.items if i.requirement.startswith("data.anterior.")]
    assert item.basis == ("transporte-escolar#art9",)  # the article tying it to the alvará


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_a_notice_and_a_renewal_are_not_dated_before_the_auto_or_the_last_event(
    registry: Registry, engine: Engine
) -> None:
    load(registry)
    notice = example(engine, "notificacao-penalidade")
    notice["auto"]["numero"] = "AIE-ESC nº 0011/2025"
    notice["notificacao"]["data"] = "2025-07-31"
    assert "anterior à expedição do AIE-ESC nº 0011/2025, em 01/08/2025" in _refused(
        engine, registry, "notificacao-penalidade", notice)["/notificacao/data"]
    notice["notificacao"]["data"] = "2025-08-01"
    assert _refused(engine, registry, "notificacao-penalidade", notice) == {}

    form = "alvara-transporte-escolar"
    renewal = example(engine, form)
    renewal["modalidade"] = "renovacao"
    renewal["alvara_anterior"] = {"numero": TITULAR}
    found = _refused(engine, registry, form, renewal, date(2025, 5, 2))
    assert found == {"/on": (
        "A data do ato (02/05/2025) é anterior ao último registro sobre o ALV-ESC nº "
        "0019/2023: o TRF-ESC nº 0003/2025, em 02/06/2025. O ato não pode ser datado antes "
        "do estado da licença em que se apoia. Corrija a data do ato.")}
    assert _refused(engine, registry, form, renewal, date(2025, 6, 2)) == {}
