"""Choosing the content pack by configuration: the installed pack's name, or a folder.

Every command reads the pack from the same place (``LAVRA_PACK``, else the key
``pacote`` of ``lavra.toml``, else the one installed pack): ``lavra law`` and
``lavra deadline`` included.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner
from issuers import dev_issuer

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
    # the two laws, and the laws they send to, cited only (no text): issue 10
    assert set(json.loads(result.output)["leis"]) == {
        "fretamento", "transporte-escolar", "ctb", "lei-3149-1998", "lei-3564-2001",
        "lei-3610-2001", "lei-9784-1999", "lei-estadual-11258-2002",
        "resolucao-contran-73-1998"}


def test_a_folder_that_is_not_a_pack_says_what_is_missing(workdir: Path) -> None:
    (workdir / "vazio").mkdir()
    (workdir / "lavra.toml").write_text('pacote = "./vazio"\n', encoding="utf-8")
    with pytest.raises(ContentPackError, match="faltam as pastas legal_text, schemas, forms"):
        load_config(workdir)


def test_the_signature_stamp_is_drawn_with_the_pack_font_without_system_fonts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from pypdf import PdfReader

    from lavra.checking.content import Content
    from lavra.documents import Engine
    from lavra.signing import pades
    from lavra_americana import pacote

    # No system font at all: the stamp can only come from the pack's own file.
    monkeypatch.setattr(pades, "STAMP_FONT_CANDIDATES", ())
    pack = pacote()
    assert pack.stamp_font_path == ROOT / "forms" / "_base" / "fontes" / "DejaVuSans.ttf"
    issuer = dev_issuer(Engine(Content(pack)), tmp_path / "dados")
    try:
        example = ROOT / "forms" / "alvara-fretamento" / "exemplo.json"
        data = json.loads(example.read_text("utf-8"))
        result = issuer.issue("alvara-fretamento", data, date(2026, 11, 29))
    finally:
        issuer.close()
    reader = PdfReader(io.BytesIO(result.pdf))
    widget = next(
        annot.get_object()
        for page in reader.pages
        for annot in page.get("/Annots", [])
        if annot.get_object().get("/FT") == "/Sig"
    )
    fonts = widget["/AP"]["/N"]["/Resources"]["/Font"]
    names = {str(font.get_object()["/BaseFont"]) for font in fonts.values()}
    assert any("DejaVuSans" in name for name in names), names


def test_a_stamp_font_the_pack_lacks_is_a_pack_error() -> None:
    from dataclasses import replace

    from lavra_americana import pacote

    broken = replace(pacote(), stamp_font="forms/_base/fontes/nao-existe.ttf")
    with pytest.raises(ContentPackError, match=r"fonte forms/_base/fontes/nao-existe\.ttf"):
        _ = broken.stamp_font_path
