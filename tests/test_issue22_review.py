"""Defects of issue 22 found by the read-only review (h/review22), each shown by a test
marked ``xfail(strict=True)``: when a fix lands, the test passes, the strict mark makes
it fail, and whoever fixed it removes the mark. Over the imported sample
(``exemplos/cadastro-importacao.csv``), on SQLite; every date is fixed."""

from __future__ import annotations

from datetime import date

import pytest
from test_cadastro_import import load, sample_with

from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.errors import ImportRefusedError
from lavra.issuing import RegistryHistory
from lavra.registry.store import Registry

ON = date(2026, 1, 15)
CEDENTE = "043.048.184-57"  # ALV-ESC nº 0019/2023, transferred by TRF-ESC nº 0003/2025


@pytest.mark.xfail(strict=True, reason=(
    "review22: an accessory act (ALV-AUX, APE-ESC) on a transferred alvará is issued "
    "naming the cedente as titular: standing_items (comum/guards.py) checks the alvará "
    "is in force, not that the typed titular is the holder the state holds"))
@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_an_auxiliary_alvara_names_the_holder_the_state_holds(
    registry: Registry, engine: Engine
) -> None:
    from test_notificacao_defesa import example as form_example

    form = "alvara-condutor-auxiliar"
    load(registry)
    data = form_example(engine, form)
    data["alvara_titular"] = {"numero": "ALV-ESC nº 0019/2023", "valido_ate": "2027-12-31"}
    data["titular"] = {"nome": "Pedro Exemplo Cedente", "cpf": CEDENTE, "prontuario": "T-1"}
    data["veiculo"]["placa"] = "ESC5E55"
    data["data_expedicao"] = ON.isoformat()
    report = engine.prepare(form, data, issued_on=ON, history=RegistryHistory(registry)).report
    refused = [i.message for i in report.items if i.status is Status.INVALID
               and (i.field.startswith("/titular") or i.field.startswith("/alvara_titular"))]
    assert any("Marta Exemplo Cessionária" in m or "TRF-ESC nº 0003/2025" in m
               for m in refused), refused


@pytest.mark.xfail(strict=True, reason=(
    "review22: the import accepts an act dated after the import itself (an 'ato "
    "anterior ao lavra' of 2099), a future fact that moves the 2099 counter"))
@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_an_import_row_dated_after_the_import_is_refused(registry: Registry) -> None:
    row = ("auto-fretamento,0001/2099,2099-03-01,,65.563.842/0001-05,Viação,FRE1A11"
           + "," * 14 + "fretamento#art16_inc1,,não,,")
    with pytest.raises(ImportRefusedError):
        load(registry, sample_with(row))
    assert registry.get("AIF-FRET", 2099, 1) is None
