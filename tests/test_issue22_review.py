"""Defects of issue 22 found by the read-only review (h/review22), each shown by a test
marked ``xfail(strict=True)``: when a fix lands, the test passes, the strict mark makes
it fail, and whoever fixed it removes the mark. Over the imported sample
(``exemplos/cadastro-importacao.csv``), on SQLite; every date is fixed."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from test_cadastro_import import load, sample_with

from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.errors import ImportRefusedError
from lavra.issuing import RegistryHistory
from lavra.registry.store import Registry

ON = date(2026, 1, 15)
CEDENTE = "043.048.184-57"  # ALV-ESC nº 0019/2023, transferred by TRF-ESC nº 0003/2025


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


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_an_import_row_dated_after_the_import_is_refused(registry: Registry) -> None:
    row = ("auto-fretamento,0001/2099,2099-03-01,,65.563.842/0001-05,Viação,FRE1A11"
           + "," * 14 + "fretamento#art16_inc1,,não,,")
    with pytest.raises(ImportRefusedError):
        load(registry, sample_with(row))
    assert registry.get("AIF-FRET", 2099, 1) is None


def test_the_school_renewal_run_reads_holders_from_the_state(tmp_path: Path) -> None:
    from issuers import dev_issuer
    from test_cadastro_import import REPO

    from lavra.batch.model import RunRequest
    from lavra.batch.runner import find_kind, run_batch
    from lavra.checking.content import Content
    from lavra.issuing import registry_url

    issuer = dev_issuer(Engine(Content(REPO), pool=None), tmp_path / "dados")
    try:
        load(issuer.registry)
        # Dated 15/12/2027, over the alvarás due on 31/12/2027: ALV-ESC nº 0018/2023
        # (José) and nº 0019/2023, Marta's since the TRF-ESC nº 0003/2025.
        request = RunRequest("renovacao-transporte-escolar", {"ano": 2028},
                             date(2027, 12, 15), None, None)
        summary = run_batch(issuer, find_kind(issuer, "renovacao-transporte-escolar"),
                            request, tmp_path / "saida",
                            database_url=registry_url(issuer.config), simulate=True)
    finally:
        issuer.close()
    holders = {r.holder: r.outcome for r in summary.rows}
    names = {r.holder: r.name for r in summary.rows}
    assert "04304818457" not in holders  # the cedente, barred until 02/06/2028
    assert names.get("62614722464") == "Marta Exemplo Cessionária"
    assert holders.get("62614722464") == "notificado"  # the cessionária
    assert holders.get("52998224725") == "notificado"
