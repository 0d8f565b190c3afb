"""``lavra check`` and ``lavra draft`` read the configured registry as ``lavra issue``
does: a company barred by a cassação (fretamento art. 22, parágrafo único) is INCOMPLETO
before signing, not refused at it; without a registry, none is created and the output
says the registry was not consulted."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner
from issuers import state_registry
from pypdf import PdfReader
from test_licensing_state import alvara_fretamento, cassacao

from lavra.cli.main import main
from lavra.cli.staffcheck import NOT_CONSULTED
from lavra.registry.database import SQLITE_FILE, database_url

ALV = "alvara-fretamento"
BAR = "art. 22, parágrafo único, da Lei nº 4.419/2006"


@pytest.fixture
def example_file(pack_dir: Path) -> Path:
    return pack_dir / "forms" / ALV / "exemplo.json"


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data folder the CLI is configured with (no database URL, no config file)."""
    folder = tmp_path / "dados"
    for name in ("LAVRA_DATABASE_URL", "LAVRA_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LAVRA_DATA", str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


@pytest.fixture
def barred(data_dir: Path) -> str:
    """The example's company, its alvará cassado on 20/04/2026: barred until 20/04/2027."""
    for registry in state_registry(database_url(data_dir)):
        old = alvara_fretamento(registry, on=date(2026, 3, 2))
        printed: str = cassacao(registry, old, on=date(2026, 4, 20)).printed
    return printed


def test_check_reads_the_registry_bar_as_issue_does(barred: str, example_file: Path) -> None:
    result = CliRunner().invoke(main, ["check", ALV, str(example_file), "--data", "2026-12-01"])
    assert result.exit_code == 1, result.output
    assert ": INCOMPLETO" in result.output
    [line] = [x for x in result.output.splitlines() if barred in x]
    assert line.lstrip().startswith("IRREGULAR") and BAR in line and "20/04/2027" in line
    assert NOT_CONSULTED not in result.output
    as_json = CliRunner().invoke(main, ["check", ALV, str(example_file), "--data",
                                        "2026-12-01", "--json"])
    payload = json.loads(as_json.output)
    assert payload["complete"] is False and "unchecked" not in payload
    assert any("fretamento#art22_par1u" in i["basis"] for i in payload["items"])


def test_draft_lists_the_bar_as_a_pendencia(barred: str, example_file: Path,
                                            tmp_path: Path) -> None:
    out = tmp_path / "minuta.pdf"
    result = CliRunner().invoke(main, ["draft", ALV, str(example_file), "-o", str(out),
                                       "--data", "2026-12-01"])
    assert result.exit_code == 0, result.output
    assert "; 1 pendência(s)." in result.output and NOT_CONSULTED not in result.output
    text = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert "MINUTA" in text and barred in text


def test_without_a_registry_none_is_created_and_the_output_says_so(
    data_dir: Path, example_file: Path, tmp_path: Path
) -> None:
    result = CliRunner().invoke(main, ["check", ALV, str(example_file), "--data", "2026-12-01"])
    assert result.exit_code == 0, result.output
    assert ": COMPLETO" in result.output
    assert result.output.rstrip().endswith(NOT_CONSULTED)
    payload = json.loads(CliRunner().invoke(main, ["check", ALV, str(example_file), "--json",
                                                   "--data", "2026-12-01"]).output)
    assert payload["complete"] is True and payload["unchecked"] == NOT_CONSULTED
    out = tmp_path / "minuta.pdf"
    drafted = CliRunner().invoke(main, ["draft", ALV, str(example_file), "-o", str(out),
                                        "--data", "2026-12-01"])
    assert "; 0 pendência(s).\n" + NOT_CONSULTED in drafted.output
    assert not (data_dir / SQLITE_FILE).exists() and not data_dir.exists()
