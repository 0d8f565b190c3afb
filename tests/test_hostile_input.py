"""Text that is not what it shows, repeated JSON keys, characters no font draws.

Each class is refused (or flagged in the report) on every path data takes into the
engine: JSON files (CLI), the engine's API, fillable PDFs read back, CLI text options.
The web and JSON API paths are in tests/web/test_api_hostile.py.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import time
import unicodedata
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader, PdfWriter

from lavra.checking.content import Content
from lavra.checking.report import Status
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.inputs.reading import load_json, parse_data
from lavra.inputs.textnorm import clean_text
from lavra.render.glyphs import coverage_of, undrawable

REPO = Path(__file__).resolve().parent.parent
ALV = "alvara-fretamento"
REQ = "requerimento-alvara-fretamento"
ON = date(2026, 11, 30)

#: One of each class that passed the old control-character filter.
HIDDEN = {
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u202a": "LEFT-TO-RIGHT EMBEDDING",
    "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\u2069": "POP DIRECTIONAL ISOLATE",
    "\u200e": "LEFT-TO-RIGHT MARK",
    "\u200f": "RIGHT-TO-LEFT MARK",
    "\u061c": "ARABIC LETTER MARK",
    "\u200b": "ZERO WIDTH SPACE",
    "\u200d": "ZERO WIDTH JOINER",
    "\ufeff": "ZERO WIDTH NO-BREAK SPACE",
    "\u00ad": "SOFT HYPHEN",
    "\u0085": "NEXT LINE (NEL)",
    "\u009b": "",  # C1 control (CSI), no name
    "\ue000": "",  # private use
    "\U000f0000": "",  # supplementary private use
    "\u0378": "",  # unassigned
    "\ud800": "",  # lone surrogate
}


@cache
def engine() -> Engine:
    return Engine(Content(REPO))


def example(form: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((REPO / "forms" / form / "exemplo.json").read_text("utf-8"))
    return data


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=True)  # \\uXXXX escapes, lone surrogates too


# ------------------------------------------------------------------ hidden characters
@pytest.mark.parametrize("char", list(HIDDEN), ids=[f"U+{ord(c):04X}" for c in HIDDEN])
def test_hidden_characters_are_refused_naming_field_code_and_name(char: str) -> None:
    data = example(ALV)
    data["empresa"]["razao_social"] = f"Viação{char} Exemplo"
    with pytest.raises(InputError) as caught:
        parse_data(_json(data), source="dados.json")
    error = caught.value
    assert error.field == "/empresa/razao_social"
    assert f"U+{ord(char):04X}" in error.message
    assert HIDDEN[char] in error.message
    assert "posição 7" in error.message and "/empresa/razao_social" in error.message


def test_hidden_characters_in_keys_and_lists_are_refused() -> None:
    with pytest.raises(InputError) as caught:
        parse_data(_json({"servicos": ["continuo", "evento\u202e"]}))
    assert caught.value.field == "/servicos/1"
    with pytest.raises(InputError) as key:
        parse_data(_json({"empresa": {"razao\u200b_social": "x"}}))
    assert key.value.field == "/empresa" and "U+200B" in key.value.message


def test_tabs_and_line_breaks_are_kept() -> None:
    assert parse_data(_json({"a": "linha 1\r\nlinha\t2"})) == {"a": "linha 1\r\nlinha\t2"}


def test_decomposed_accents_are_stored_composed() -> None:
    decomposed = unicodedata.normalize("NFD", "José Conceição Ltda.")
    assert decomposed != "José Conceição Ltda."
    data = parse_data(_json({"empresa": {"razao_social": decomposed}, "cliente": decomposed}))
    assert data == {
        "empresa": {"razao_social": "José Conceição Ltda."},
        "cliente": "José Conceição Ltda.",
    }
    # A key written both ways is one key said twice.
    with pytest.raises(InputError, match="duas vezes"):
        parse_data('{"cafe\\u0301": 1, "caf\\u00e9": 2}')


def test_the_engine_cleans_data_given_directly() -> None:
    """Python callers go through the same normaliser (Engine.prepare)."""
    data = example(ALV)
    data["empresa"]["razao_social"] = unicodedata.normalize("NFD", "Viação Paulistânia Ltda.")
    prepared = engine().prepare(ALV, data, ON)
    assert prepared.data["empresa"]["razao_social"] == "Viação Paulistânia Ltda."
    data["empresa"]["razao_social"] = "Via\u202eção"
    with pytest.raises(InputError) as caught:
        engine().check(ALV, data, ON)
    assert caught.value.field == "/empresa/razao_social"


def test_cli_check_refuses_a_data_file_with_a_bidi_override(tmp_path: Path) -> None:
    data = example(ALV)
    data["empresa"]["razao_social"] = "Viação \u202eLtda."
    path = tmp_path / "dados.json"
    path.write_text(_json(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", ALV, str(path), "--on", "2026-11-30"])
    assert result.exit_code == 2, result.output
    assert "U+202E (RIGHT-TO-LEFT OVERRIDE)" in result.output
    # The field by its form's label, never the JSON pointer (issue 25).
    assert "O campo «Empresa ou entidade autorizada › Razão social» contém" in result.output
    assert not re.search(r"(?<![\w.])/\w", result.output), result.output


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["--motivo", "Erro material\u202e no documento", "--responsavel", "clara"], "--motivo"),
        # the English names of before still work; the message names the option in pt-BR
        (["--reason", "Erro material no documento", "--by", "cla\u200bra"], "--responsavel"),
        (["--motivo", "Erro material\u0085 no documento", "--responsavel", "clara"], "U+0085"),
    ],
)
def test_cli_text_options_are_refused_before_anything_is_done(
    args: list[str], shown: str, tmp_path: Path
) -> None:
    result = CliRunner().invoke(
        main, ["cancel", "0001/2026", *args], env={"LAVRA_DATA": str(tmp_path / "dados")}
    )
    assert result.exit_code == 2, result.output
    assert shown in result.output and "não é permitido" in result.output
    assert not (tmp_path / "dados").exists()  # refused before the registry was opened


def test_cli_user_names_are_refused_with_hidden_characters(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["users", "add", "ana", "--role", "redator", "--nome", "Ana\u202e Silva"],
        env={"LAVRA_DATA": str(tmp_path / "dados"), "LAVRA_SENHA": "senha-de-teste-123"},
    )
    assert result.exit_code == 2, result.output
    assert "--nome" in result.output and "U+202E" in result.output


def test_clean_text_names_an_option() -> None:
    with pytest.raises(InputError, match=r"^O motivo \(--reason\) contém") as caught:
        clean_text("a\u2066b", what="O motivo (--reason)", field="--reason")
    assert caught.value.field == "--reason"


# ------------------------------------------------------------ fillable PDF read-back
def _filled(values: dict[str, str]) -> bytes:
    pdf = engine().prefill(REQ, {})
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.update_page_form_field_values(None, values, auto_regenerate=False)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_read_back_refuses_hidden_characters_naming_the_field() -> None:
    pdf = _filled({"requerente/razao_social": "Viação \u202eExemplo"})
    with pytest.raises(InputError) as caught:
        engine().read(pdf, on=ON)
    assert caught.value.field == "/requerente/razao_social"
    assert "U+202E" in caught.value.message


def test_read_back_stores_composed_accents() -> None:
    typed = unicodedata.normalize("NFD", "Viação Conceição")
    pdf = _filled({"requerente/razao_social": typed})
    back = engine().read(pdf, on=ON)
    assert back.data["requerente"]["razao_social"] == "Viação Conceição"


# ---------------------------------------------------------------------- repeated keys
def test_repeated_keys_are_refused_naming_the_pointer() -> None:
    text = '{"empresa": {"cnpj": "65.563.842/0001-05", "razao_social": "A", "cnpj": "1"}}'
    with pytest.raises(InputError) as caught:
        parse_data(text, source="dados.json")
    assert caught.value.field == "/empresa/cnpj"
    assert "/empresa/cnpj aparece mais de uma vez" in caught.value.message
    assert "dados.json" in caught.value.message
    with pytest.raises(InputError) as listed:
        load_json('{"veiculos": [{"placa": "A"}, {"placa": "B", "placa": "C"}]}')
    assert listed.value.field == "/veiculos/1/placa"


def test_cli_refuses_a_data_file_with_a_repeated_key(tmp_path: Path) -> None:
    text = (REPO / "forms" / ALV / "exemplo.json").read_text("utf-8")
    text = text.replace('"cliente": ', '"cliente": "Outro cliente S.A.",\n "cliente": ', 1)
    path = tmp_path / "dados.json"
    path.write_text(text, encoding="utf-8")
    for command in (["check", ALV, str(path)], ["draft", ALV, str(path), "-o",
                                                str(tmp_path / "m.pdf")]):
        result = CliRunner().invoke(main, [*command, "--on", "2026-11-30"])
        assert result.exit_code == 2, result.output
        assert ("O campo «Cliente do fretamento contínuo (letreiro frontal)» aparece mais de "
                "uma vez") in result.output
        assert "/cliente" not in result.output
    assert not (tmp_path / "m.pdf").exists()


# ----------------------------------------------------------- characters no font draws
def test_characters_no_font_draws_are_invalid_in_the_report() -> None:
    data = example(ALV)
    data["empresa"]["razao_social"] = "株式会社 Exemplo"
    report = engine().check(ALV, data, ON)
    items = [i for i in report.items if i.field == "/empresa/razao_social" or (
        "/empresa/razao_social".startswith(i.field + "/") and "株" in i.message)]
    assert items and items[0].status is Status.INVALID, report.to_json()
    message = items[0].message
    assert "não desenham: 株, 式, 会, 社" in message
    assert "Razão social" in message
    assert not report.complete


def test_the_draft_lists_them_pending() -> None:
    data = example(ALV)
    data["cliente"] = "東京 Indústria"
    rendered = engine().draft(ALV, data, ON)
    assert any("東, 京" in item.message for item in rendered.report.pending)
    # poppler reads the page as a viewer does; pypdf 7 decodes this draft's fonts as
    # UTF-16 garbage once a fallback font for the undrawable characters is embedded.
    text = subprocess.run(["pdftotext", "-", "-"], input=rendered.pdf, capture_output=True,
                          check=True).stdout.decode("utf-8")
    assert "não desenham" in " ".join(text.split())  # the MINUTA lists the pending item


def test_prefill_refuses_what_its_field_font_cannot_draw() -> None:
    with pytest.raises(InputError) as caught:
        engine().prefill(REQ, {"requerente": {"razao_social": "株式会社"}})
    assert caught.value.field == "/requerente/razao_social"
    assert "株" in caught.value.message


def test_every_pack_example_is_drawable_and_portuguese_is_covered() -> None:
    coverage = engine().coverage
    for path in sorted((REPO / "forms").glob("*/exemplo.json")):
        assert undrawable(json.loads(path.read_text("utf-8")), coverage) == (), path
    assert coverage.missing("Ação, pão, maçã, Conceição, à, ü, º, ª, €, “”, –, —, …") == ()
    assert coverage.missing("Nguyễn Łódź Ørsted") == ()
    assert coverage.missing("株式") == ("株", "式")


def test_the_coverage_is_cheap_once_per_pack() -> None:
    """Reading the cmaps costs tens of milliseconds once; a document's check, microseconds."""
    start = time.perf_counter()
    coverage = coverage_of(REPO / "forms" / "_base")
    first = time.perf_counter() - start
    start = time.perf_counter()
    again = coverage_of(REPO / "forms" / "_base")
    cached = time.perf_counter() - start
    assert again is coverage and len(coverage.codepoints) > 3000
    data = example(ALV)
    start = time.perf_counter()
    for _ in range(100):
        undrawable(data, coverage)
    per_document = (time.perf_counter() - start) / 100
    assert first < 2.0 and cached < 0.05 and per_document < 0.005, (first, cached, per_document)


# ------------------------------------------------------------------------ issuing
@pytest.fixture
def issuer(tmp_path: Path) -> Any:
    from issuers import dev_issuer

    made = dev_issuer(engine(), tmp_path / "dados")
    yield made
    made.close()


def test_issue_refuses_undrawable_characters_and_records_composed_text(issuer: Any) -> None:
    from lavra.issuing import IncompleteError

    data = example(ALV)
    data["empresa"]["razao_social"] = "株式会社 Exemplo"
    with pytest.raises(IncompleteError) as caught:
        issuer.issue(ALV, data, ON, docx=False)
    assert any("não desenham: 株" in i.message for i in caught.value.report.pending)
    assert issuer.registry.search("65563842000105") == ()  # nothing was recorded

    data["empresa"]["razao_social"] = unicodedata.normalize("NFD", "Viação Conceição Ltda.")
    result = issuer.issue(ALV, data, ON, docx=False)
    stored = issuer.registry.get_by_id(result.record.id)
    assert len(issuer.registry.search("65563842000105")) == 1  # the search above could find it
    assert stored.data["empresa"]["razao_social"] == "Viação Conceição Ltda."
    text = " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(result.pdf)).pages)
    assert "Viação Conceição Ltda." in unicodedata.normalize("NFC", text)

    with pytest.raises(InputError) as refused:
        issuer.cancel(result.record.formatted, "Erro material \u202eno documento", "clara")
    assert refused.value.field == "/reason" and "U+202E" in refused.value.message
    assert not issuer.registry.get_by_id(result.record.id).cancelled


def test_the_fillable_fields_are_drawn_with_a_font_of_the_pack() -> None:
    """The prefill rule is the documents' rule: its AcroForm fields use a pack font
    (embedded), whose characters include every character the coverage accepts."""
    from fontTools.ttLib import TTFont

    reader = PdfReader(io.BytesIO(engine().prefill(REQ, example(REQ))))
    acroform = reader.trailer["/Root"]["/AcroForm"]
    fonts = acroform["/DR"]["/Font"]
    used = set()
    for field in acroform["/Fields"]:
        if field.get_object().get("/FT") == "/Btn":
            continue  # a tick or radio mark is a ZapfDingbats glyph, not typed text
        appearance = str(field.get_object().get("/DA", ""))
        used.update(name for name in fonts if f"{name} " in appearance)
    assert used, "os campos não indicam fonte"
    base = REPO / "forms" / "_base" / "fontes"
    for name in used:
        family = str(fonts[name].get_object()["/BaseFont"]).split("+", 1)[-1]
        assert family.startswith("Lavra-"), family  # @font-face of pagina.css, not a system font
        path = base / f"DejaVu{family.removeprefix('Lavra-')}.ttf"  # Lavra-Serif: DejaVuSerif
        assert path.is_file(), family
        with TTFont(path, lazy=True) as ttf:
            assert engine().coverage.codepoints <= set(ttf.getBestCmap())
