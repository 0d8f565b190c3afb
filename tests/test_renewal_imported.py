"""An alvará imported from before lavra (``exemplos/cadastro-importacao.csv``) renewed by
the school renewal run (issue 22, § 4, and issue 24): what the renewed alvará prints and
the renewal request does not give (the prontuário, the inscription in the Cadastro de
Atividades, the vehicle's type and municipality) comes from the import's optional
columns; the insurance and the tyres from the request. SQLite; the sample's alvará one
exercise earlier (vencimento 31/12/2025, as ``batchcases`` moves the examples), the run
dated 10/12/2025: nothing depends on today."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from types import SimpleNamespace

import pytest
from batchcases import RUN_DAY, YEAR, request, write_jsonl
from formcases import pdf_text
from issuers import dev_issuer
from test_cadastro_import import SAMPLE, load

from lavra.batch.inputs import parse_lines
from lavra.batch.model import RunRequest
from lavra.batch.runner import find_kind, run_batch
from lavra.documents import Engine
from lavra.issuing import registry_url
from lavra.registry.importing import plan_import
from lavra.registry.store import Registry
from lavra_americana import pacote
from lavra_americana.comum.lote import as_held
from lavra_americana.transporte_escolar.renovacao_lote import HOLDER, _prefill

ALVARA = "ALV-ESC nº 0018/2023"
JOSE = {"nome": "José Exemplo dos Santos", "cpf": "529.982.247-25"}


def _sample_due_in_2025() -> bytes:
    """The sample, ALV-ESC nº 0018/2023 expiring on 31/12/2025 instead of 2027."""
    lines = SAMPLE.read_text("utf-8").split("\n")
    return "\n".join(line.replace(",2027-12-31,", ",2025-12-31,")
                     if line.startswith(f"alvara-escolar,{ALVARA},") else line
                     for line in lines).encode("utf-8")


def test_an_imported_alvara_with_a_complete_request_is_renewed(
    engine: Engine, tmp_path: Path
) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    bound = engine.staff_values
    try:
        lines = parse_lines(_sample_due_in_2025(), SAMPLE.name, "/arquivo")
        issuer.registry.import_acts(plan_import(lines, pacote().imports, SAMPLE.name),
                                    pack_version="americana", on=date(2025, 12, 1))
        asked = request(0, "ALV-ESC 0018/2023")  # the public form's example, 2025
        asked["requerente"].update(JOSE)
        asked["requerente"]["cnh"]["numero"] = "85263635330"
        del asked["requerente"]["prontuario"]  # the registry's, from the import
        asked["veiculo"]["placa"] = "ESC-4D44"
        assert engine.check("requerimento-renovacao-escolar", asked).complete
        pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [asked])
        run = RunRequest("renovacao-transporte-escolar", {"ano": YEAR},
                         date.fromisoformat(RUN_DAY), None, pedidos)
        summary = run_batch(issuer, find_kind(issuer, run.kind), run, tmp_path / "saida",
                            database_url=registry_url(issuer.config), workers=1)
    finally:
        issuer.close()
        engine.staff_values = bound
    outcomes = [(r.holder, r.outcome, r.form, r.reason) for r in summary.rows]
    assert outcomes[0][:3] == ("52998224725", "renovado", "alvara-transporte-escolar"), outcomes
    [alvara] = [r for r in summary.rows if r.form == "alvara-transporte-escolar"]
    text = pdf_text((tmp_path / "saida" / alvara.file).read_bytes())
    for printed in ("renovando o alvará ALV-ESC nº 0018/2023", "José Exemplo dos Santos",
                    "CPF 529.982.247-25 Prontuário TE-0018", "CNH nº 85263635330",
                    "Cadastro de Atividades CA-54321", "Placa ESC4D44",
                    "Licenciamento Município de Americana",
                    "Seguro Seguradora Exemplo S.A., apólice nº APL-2026-000123"):
        assert printed in text, (printed, text)
    assert [r.form for r in summary.rows] == ["alvara-transporte-escolar", "selo-identificacao"]


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_the_cessionarios_cnh_is_the_states_driver(registry: Registry) -> None:
    """ALV-ESC nº 0019/2023, transferred to Marta by TRF-ESC nº 0003/2025: the state's
    driver is hers (the transfer's ``cessionario_cnh``), and the prefilled renewal
    request names her CNH, never the cedente's; her prontuário is not the cedente's."""
    load(registry)
    view = registry.licence_by_number("ALV-ESC nº 0019/2023")
    assert view is not None and view.driver_cnh == "62870568804"
    in_force = registry.licences_in_force("alvara-transporte-escolar", date(2026, 1, 15))
    [record] = [r for r in in_force if r.printed == "ALV-ESC nº 0019/2023"]
    [(_, cpf, data)] = as_held(SimpleNamespace(registry=registry),  # type: ignore[arg-type]
                               "alvara-transporte-escolar", [record], HOLDER)
    prefill = _prefill(data, record.printed, date(2027, 12, 31))
    assert cpf == "62614722464" and "prontuario" not in prefill["requerente"]
    assert prefill["requerente"]["cnh"] == {"numero": "62870568804"}
    assert prefill["requerente"]["nome"] == "Marta Exemplo Cessionária"
