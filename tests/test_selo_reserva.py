"""The selo of a school alvará issued one at a time (escolar art. 3º, § 2º): its
SELO-ESC number is reserved with the alvará's, printed in it, and taken by the selo
issued later (lavra.registry.companions); a reservation never issued is voided with
the alvará's cancellation, and the series stays gapless. SQLite and PostgreSQL (the
reservation takes the companion series' counter lock)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from batchcases import kept_staff_values
from click.testing import CliRunner
from formcases import at, example, pdf_text
from identities import cpf_for, set_person, set_vehicle
from issuers import VERIFICATION_URL

from lavra.checking.report import Status
from lavra.cli.main import main
from lavra.config import Config
from lavra.documents import Engine
from lavra.issuing import IncompleteError, Issuer, ensure_dev_pki
from lavra.registry.database import database_url
from lavra.registry.store import open_registry
from lavra_americana.transporte_escolar.selo import selo_data_from_alvara

ALV = "alvara-transporte-escolar"
SELO = "selo-identificacao"
NOW = datetime(2026, 3, 10, 15, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _staff_values_of_the_module(engine: Engine) -> Iterator[None]:
    yield from kept_staff_values(engine)


@contextmanager
def _issuer(engine: Engine, tmp_path: Path, url: str) -> Iterator[Issuer]:
    config = Config(pack_dir=engine.content.root, data_dir=tmp_path / "dados",
                    verification_url=VERIFICATION_URL)
    ensure_dev_pki(config, engine.content, valid_from=NOW - timedelta(days=30))
    issuer = Issuer(engine, open_registry(url), config, clock=lambda: NOW)
    try:
        yield issuer
    finally:
        issuer.close()


@pytest.fixture
def issuer(engine: Engine, registry_url: str, tmp_path: Path) -> Iterator[Issuer]:
    """An issuer over SQLite, then PostgreSQL (the reservation takes a counter lock)."""
    with _issuer(engine, tmp_path, registry_url) as issuer:
        yield issuer


def _alvara(engine: Engine, placa: str) -> dict[str, Any]:
    """The example alvará for a vehicle and a titular of their own (no auxiliary)."""
    data = example(engine, ALV)
    set_vehicle(data["veiculo"], placa)
    set_person(data["titular"], cpf_for(placa))
    data["titular"]["nome"] = f"Titular {placa}"
    data.pop("auxiliar", None)
    return data


def _selo(alvara: dict[str, Any], printed: str) -> dict[str, Any]:
    return selo_data_from_alvara(alvara, printed, date(2026, 12, 31), date(2026, 3, 10))


def test_the_alvara_reserves_and_prints_its_selo_which_takes_that_number(
    engine: Engine, issuer: Issuer
) -> None:
    first = _alvara(engine, "SEL1A01")
    issued = issuer.issue(ALV, first)
    assert issued.record.printed == "ALV-ESC nº 0001/2026"
    assert "SELO-ESC nº 0001/2026" in pdf_text(issued.pdf)
    assert issued.record.data["selo_identificacao"] == "SELO-ESC 0001/2026"
    # A second alvará, issued before the first one's selo, reserves the next number;
    # typed, only that number is accepted (0001 is the first alvará's, 0005 nobody's).
    second = _alvara(engine, "SEL1A02")
    for typed, said in (("SELO-ESC 0001/2026",
                         "está reservado para o alvará ALV-ESC nº 0001/2026"),
                        ("SELO-ESC 0005/2026", "não está reservado para este alvará")):
        second["selo_identificacao"] = typed
        with pytest.raises(IncompleteError) as refused:
            issuer.issue(ALV, second)
        item = at(refused.value.report, "/selo_identificacao")
        assert item.status is Status.INVALID and "transporte-escolar#art3_par2" in item.basis
        assert f"«{typed}» {said}" in item.message and "art. 3º, § 2º" in item.message
    second["selo_identificacao"] = "SELO-ESC 0002/2026"
    other = issuer.issue(ALV, second)
    assert "SELO-ESC nº 0002/2026" in pdf_text(other.pdf)
    # Held reservations are explained numbers, not gaps.
    assert issuer.registry.numbering_gaps() == ()
    # The selo of the second takes its reserved number, not the next of the series.
    selo = issuer.issue(SELO, _selo(second, other.record.printed))
    assert selo.record.printed == "SELO-ESC nº 0002/2026"
    selo = issuer.issue(SELO, _selo(first, issued.record.printed))
    assert selo.record.printed == "SELO-ESC nº 0001/2026"
    [report] = [r for r in issuer.registry.numbering_report() if r.series == "SELO-ESC"]
    assert report.text == "SELO-ESC 2026, até o nº 0002/2026: sem lacunas."
    # Its reservation used, a second selo for the alvará keeps the one-selo rule.
    again = issuer.prepare(SELO, _selo(first, issued.record.printed))
    assert at(again.report, "/alvara/numero").status is Status.INVALID


def test_a_reservation_never_issued_is_voided_with_its_alvara_or_by_staff(
    engine: Engine, tmp_path: Path
) -> None:
    with _issuer(engine, tmp_path, database_url(tmp_path / "dados")) as issuer:
        issuer.issue(ALV, _alvara(engine, "SEL3A01"))
        issuer.issue(ALV, _alvara(engine, "SEL3A02"))
        registry = issuer.registry
        issuer.cancel("0001/2026", "Emitido com dados errados.", "Fulana de Tal", "ALV-ESC")
        voided = registry.voided("SELO-ESC", 2026, 1)
        assert voided is not None and voided.by == "Fulana de Tal"
        assert "ALV-ESC nº 0001/2026, cancelado: Emitido com dados errados." in voided.reason
        # The second alvará's reservation, voided by staff with the numbering-void act
        # (`lavra cadastro inutilizar`); an issued act's number is not voided but cancelled.
        url = database_url(tmp_path / "dados")
        runner = CliRunner()
        issued = runner.invoke(main, ["cadastro", "inutilizar", "ALV-ESC 0002/2026",
                                      "--motivo", "Engano.", "--responsavel", "Beltrano",
                                      "--registro", url])
        assert issued.exit_code == 2
        assert "corresponde a documento emitido; para desfazê-lo, cancele" in issued.output
        other = runner.invoke(main, ["cadastro", "inutilizar", "ALV-ESC 0002/2026",
                                     "--serie", "selo-esc", "--motivo", "Engano.",
                                     "--responsavel", "Beltrano", "--registro", url])
        assert "é da série ALV-ESC, não de SELO-ESC" in other.output
        done = runner.invoke(main, ["cadastro", "inutilizar", "0002/2026", "--serie",
                                    "selo-esc", "--motivo", "Selo extraviado na gráfica.",
                                    "--responsavel", "Beltrano", "--registro", url])
        assert done.exit_code == 0, done.output
        assert done.output.startswith("Número inutilizado: SELO-ESC nº 0002/2026: ")
        assert "por Beltrano: Selo extraviado na gráfica." in done.output
        assert registry.voided("SELO-ESC", 2026, 2) is not None
        assert registry.numbering_gaps() == ()
        # Nothing is held any more: a typed 0002 is refused in a new alvará.
        third = _alvara(engine, "SEL3A03")
        third["selo_identificacao"] = "SELO-ESC 0002/2026"
        item = at(issuer.prepare(ALV, third).report, "/selo_identificacao")
        assert "«SELO-ESC 0002/2026» teve a numeração inutilizada" in item.message
        # The next number of another year's series: refused at the field by the draft
        # check, as the issue refuses it (the selo is numbered in the alvará's year).
        third["selo_identificacao"] = "SELO-ESC 0001/2027"
        item = at(issuer.prepare(ALV, third).report, "/selo_identificacao")
        assert item.status is Status.INVALID and "transporte-escolar#art3_par2" in item.basis
        assert "«SELO-ESC 0001/2027» não é o reservado para este ato" in item.message
        assert "art. 3º, § 2º" in item.message and "ano do alvará, 2026" in item.message
        with pytest.raises(IncompleteError) as refused:
            issuer.issue(ALV, third)
        issued = at(refused.value.report, "/selo_identificacao").message
        assert "«SELO-ESC 0001/2027» não é o reservado para este ato" in issued
        # A number no counter gives is refused in the report, not as a registry error.
        third["selo_identificacao"] = "SELO-ESC 0/2026"
        item = at(issuer.prepare(ALV, third).report, "/selo_identificacao")
        assert "«SELO-ESC 0/2026» não está reservado para este alvará" in item.message


def test_a_draft_shows_the_selo_number_as_not_yet_assigned(engine: Engine) -> None:
    text = pdf_text(engine.draft(ALV, example(engine, ALV)).pdf)
    assert "número a ser atribuído na emissão do alvará" in text
    assert "SELO-ESC" not in text
