"""The guia de recolhimento of the school transport fees (Lei nº 4.515/2007, arts. 3º,
§ 1º; 13, § 3º; 16): ``guia-recolhimento-taxa-escolar`` (GUIA-ESC).

The amount is the pack's amount rule for the fee of art. 16 (10, 1 or 30 UFESP); the
renewal and the transfer rest on an alvará read from the registry and paid by its
holder; the renewal falls due on the alvará's last day, the others before their act
(the pack's reading). The issued guia is read back with poppler and verified. Dates are
explicit, never the clock's.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from formcases import example
from historycases import FakeHistory
from issuers import dev_issuer

from lavra.checking.computations import PriorRecord, find_computation
from lavra.checking.report import Report, Status
from lavra.cli.demo import current_example
from lavra.documents import Engine
from lavra.issuing import Issuer
from lavra_americana import pacote
from lavra_americana.comum.amounts import load_sources
from lavra_americana.transporte_escolar import guia_taxa
from lavra_americana.transporte_escolar.fees import escolar_fee

GUIA = "guia-recolhimento-taxa-escolar"
ALV = "alvara-transporte-escolar"
ON = date(2026, 3, 3)
CPF = "529.982.247-25"


def data(kind: str, alvara: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"guia": {"data_emissao": ON.isoformat()}, "taxa": kind,
                             "contribuinte": {"nome": "José Exemplo dos Santos", "cpf": CPF},
                             "processo": {"numero": "PA 1234/2026"}}
    if alvara is not None:
        found["alvara"] = {"numero": alvara}
    return found


def on_file(holder: str = CPF, cancelled: bool = False) -> FakeHistory:
    return FakeHistory(PriorRecord("0005/2025", date(2025, 3, 10), {"titular": {"cpf": holder}},
                                   form=ALV, series="ALV-ESC", valid_until=date(2026, 3, 9),
                                   cancelled=cancelled))


def prepare(engine: Engine, given: dict[str, Any], history: Any = None) -> Any:
    return engine.prepare(GUIA, given, issued_on=ON, history=history, example_values=True)


def at(report: Report, field: str) -> Any:
    return next((i for i in report.pending if i.field == field), None)


def test_the_form_is_a_numbered_guia_with_its_computation(engine: Engine) -> None:
    form = engine.content.form(GUIA)
    assert form.series == "GUIA-ESC" and not form.fillable
    assert find_computation(pacote(), "guia_taxa_escolar") is guia_taxa.guia_taxa_escolar
    assert guia_taxa.IMPLEMENTED == ("transporte-escolar#art16_par1u",)


@pytest.mark.parametrize(("kind", "inciso"), [("expedicao", 1), ("transferencia", 3)])
def test_the_amount_is_the_packs_fee_and_due_before_the_act(
    engine: Engine, pack_dir: Path, kind: str, inciso: int
) -> None:
    given = data(kind, "ALV-ESC nº 0005/2025" if kind == "transferencia" else None)
    prepared = prepare(engine, given, on_file())
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    citation = f"transporte-escolar#art16_inc{inciso}"
    fee = escolar_fee(citation, ON, load_sources(pack_dir, exemplo=True))
    assert prepared.computed["taxa"]["valor"] == fee.value
    assert prepared.computed["taxa"]["valor_extenso"] == fee.in_words
    assert prepared.computed["vencimento"] is None
    assert prepared.computed["vencimento_explicacao"].startswith("Antes d")
    assert citation in prepared.computed["fundamento"]


def test_the_renewal_is_due_on_the_alvaras_last_day(engine: Engine) -> None:
    prepared = prepare(engine, data("renovacao", "ALV-ESC nº 0005/2025"), on_file())
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["vencimento"] == date(2026, 3, 9)
    assert prepared.computed["alvara"]["numero"] == "ALV-ESC nº 0005/2025"


@pytest.mark.parametrize(("given", "history", "field", "status", "fragment"), [
    (data("renovacao"), None, "/alvara/numero", Status.MISSING, "Informe o número do alvará"),
    (data("renovacao", "ALV-ESC nº 0009/2025"), on_file(), "/alvara/numero", Status.INVALID,
     "não consta do registro"),
    (data("transferencia", "ALV-ESC nº 0005/2025"), on_file(cancelled=True), "/alvara/numero",
     Status.INVALID, "foi cancelado"),
    (data("renovacao", "ALV-ESC nº 0005/2025"), on_file("111.444.777-35"), "/contribuinte/cpf",
     Status.INVALID, "paga pelo licenciado"),
], ids=["no alvará", "not in the registry", "cancelled", "another holder"])
def test_an_alvara_the_fee_cannot_rest_on(
    engine: Engine, given: dict[str, Any], history: Any, field: str, status: Status,
    fragment: str,
) -> None:
    found = at(prepare(engine, given, history).report, field)
    assert found is not None and found.status is status and fragment in found.message
    assert "art. 16" in found.message


@pytest.fixture(scope="module")
def registry(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Issuer]:
    issuer = dev_issuer(engine, tmp_path_factory.mktemp("guia-taxa") / "dados")
    try:
        yield issuer
    finally:
        issuer.close()


def test_issued_read_back_and_verified(engine: Engine, registry: Issuer) -> None:
    given, _ = current_example(engine.content.form(GUIA), example(engine, GUIA))
    result = registry.issue(GUIA, given, example_values=True)
    assert result.record.printed.startswith("GUIA-ESC nº ")
    assert registry.verify(result.pdf).valid
    out = subprocess.run(["pdftotext", "-", "-"], input=result.pdf, capture_output=True,
                         check=True).stdout.decode("utf-8")
    text = " ".join(out.split())
    for expected in ("Guia de Recolhimento de Taxa do Transporte Escolar",
                     "José Exemplo dos Santos", "529.982.247-25", "10 UFESPs",
                     "Total a recolher: R$ ", "Antes da expedição do alvará",
                     "Fundo Municipal de Trânsito, instituído pela Lei nº 3.564",
                     "Documento de Arrecadação Municipal (DAM) não consta das fontes"):
        assert expected in text, expected
