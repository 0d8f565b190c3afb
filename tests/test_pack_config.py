"""Choosing the content pack by configuration: the installed pack's name, or a folder.

Every command reads the pack from the same place (``LAVRA_PACK``, else the key
``pacote`` of ``lavra.toml``, else the one installed pack): ``lavra law`` and
``lavra deadline`` included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lavra.cli.main import main
from lavra.config import load_config
from lavra.errors import ContentPackError
from lavra_americana import ROOT


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("LAVRA_PACK", raising=False)
    monkeypatch.delenv("LAVRA_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_one_installed_pack_is_the_default(workdir: Path) -> None:
    assert load_config(workdir).pack_dir == ROOT


def test_the_configuration_names_an_installed_pack(workdir: Path) -> None:
    (workdir / "lavra.toml").write_text('pacote = "americana"\n', encoding="utf-8")
    assert load_config(workdir).pack_dir == ROOT


def test_an_unknown_pack_name_is_refused_in_portuguese_by_every_command(workdir: Path) -> None:
    (workdir / "lavra.toml").write_text('pacote = "inexistente"\n', encoding="utf-8")
    with pytest.raises(ContentPackError, match="«inexistente» não instalado"):
        load_config(workdir)
    runner = CliRunner()
    for args in (["law", "coverage"], ["law", "list", "fretamento"], ["deadline", "--list"],
                 ["pack", "check"]):
        result = runner.invoke(main, args)
        assert result.exit_code == 2, (args, result.output)
        assert "Pacote de conteúdo «inexistente» não instalado (instalados: americana" in (
            result.output
        ), args
        assert "Traceback" not in result.output


def test_the_law_commands_read_the_configured_folder(workdir: Path) -> None:
    (workdir / "lavra.toml").write_text(f'pacote = "{ROOT}"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["law", "coverage", "--json"])
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.output)["leis"]) == {"fretamento", "transporte-escolar"}


def test_a_folder_that_is_not_a_pack_says_what_is_missing(workdir: Path) -> None:
    (workdir / "vazio").mkdir()
    (workdir / "lavra.toml").write_text('pacote = "./vazio"\n', encoding="utf-8")
    with pytest.raises(ContentPackError, match="faltam as pastas legal_text, schemas, forms"):
        load_config(workdir)
