"""Coverage of the laws by the content pack, and dangling citations."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lavra.cli.law import law as law_cli
from lavra.errors import CitationError
from lavra.law.coverage import (
    COVERED_BY_CHILDREN,
    IMPLEMENTED,
    MARKED,
    PENDING,
    TEXT_MISSING,
    compute_coverage,
    find_citations,
)
from lavra.law.model import load_laws

REPO = Path(__file__).resolve().parent.parent


def _fake_pack(tmp_path: Path, files: dict[str, Any]) -> Path:
    for folder in ("legal_text", "schemas", "forms"):
        (tmp_path / folder).mkdir()
    shutil.copy(REPO / "legal_text" / "fretamento.json", tmp_path / "legal_text")
    for rel, content in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content, ensure_ascii=False), encoding="utf-8")
    return tmp_path


SCHEMA = {
    "type": "object",
    "properties": {
        "veiculos": {
            "type": "array",
            "items": {"properties": {"ano": {"x-fundamento": ["fretamento#art10_inc1"]}}},
        },
        "a/b": {"x-fundamento": ["fretamento#art7_inc4", "fretamento#art99"]},
    },
}
FORM_META = {
    "titulo": "Alvará",
    "schema": "s.json",
    "fundamento": ["fretamento#art8", "fretamento"],
}


def test_finds_citations_with_file_and_pointer(tmp_path: Path) -> None:
    pack = _fake_pack(
        tmp_path, {"schemas/s.json": SCHEMA, "forms/alvara/formulario.json": FORM_META}
    )
    uses, malformed = find_citations(pack)
    found = {(u.citation, u.file, u.pointer) for u in uses}
    assert (
        "fretamento#art10_inc1",
        "schemas/s.json",
        "/properties/veiculos/items/properties/ano/x-fundamento/0",
    ) in found
    assert ("fretamento#art7_inc4", "schemas/s.json", "/properties/a~1b/x-fundamento/0") in found
    assert ("fretamento#art8", "forms/alvara/formulario.json", "/fundamento/0") in found
    assert len(uses) == 5 and not malformed


def test_report_statuses_and_dangling(tmp_path: Path) -> None:
    pack = _fake_pack(
        tmp_path, {"schemas/s.json": SCHEMA, "forms/alvara/formulario.json": FORM_META}
    )
    report = compute_coverage(pack)
    by_id = {f.fragment: f for f in report.fragments}
    assert by_id["art10_inc1"].status == IMPLEMENTED
    assert by_id["art10_inc1"].uses[0].location == (
        "schemas/s.json#/properties/veiculos/items/properties/ano/x-fundamento/0"
    )
    assert by_id["art8"].status == IMPLEMENTED
    # strict: citing an inciso does not implement its caput, nor the other incisos
    assert by_id["art10"].status == PENDING
    assert by_id["art10_inc2"].status == PENDING
    assert by_id["art31"].status == MARKED and by_id["art31"].reason
    # in force, text absent from the source: not "nothing to implement" (issue 10)
    assert by_id["art10_inc7"].status == TEXT_MISSING
    assert "cap1" not in by_id
    assert not report.ok
    [dangling] = report.dangling
    assert dangling.use.citation == "fretamento#art99"
    assert dangling.use.location == "schemas/s.json#/properties/a~1b/x-fundamento/1"
    assert "não existe" in dangling.message
    counts = report.counts()
    assert sum(counts.values()) == len(report.fragments)
    assert counts[IMPLEMENTED] == 3


def test_caput_covered_when_every_child_is(tmp_path: Path) -> None:
    partial = {"x-fundamento": ["fretamento#art3_inc1", "fretamento#art3_inc2"]}
    pack = _fake_pack(tmp_path, {"schemas/s.json": partial, "forms/f/formulario.json": FORM_META})
    by_id = {f.fragment: f for f in compute_coverage(pack).fragments}
    assert by_id["art3"].status == PENDING
    full = {"x-fundamento": [*partial["x-fundamento"], "fretamento#art3_inc3"]}
    (pack / "schemas" / "s.json").write_text(json.dumps(full), encoding="utf-8")
    by_id = {f.fragment: f for f in compute_coverage(pack).fragments}
    assert by_id["art3"].status == COVERED_BY_CHILDREN
    assert by_id["art3"].uses == ()


def test_malformed_fundamento_is_reported(tmp_path: Path) -> None:
    bad = {"properties": {"x": {"fundamento": "fretamento#art8"}, "y": {"fundamento": [7]}}}
    pack = _fake_pack(tmp_path, {"forms/f/meta.json": bad})
    report = compute_coverage(pack)
    locations = {d.use.location for d in report.dangling}
    assert locations == {
        "forms/f/meta.json#/properties/x/fundamento",
        "forms/f/meta.json#/properties/y/fundamento/0",
    }


def test_unknown_law_filter(tmp_path: Path) -> None:
    pack = _fake_pack(tmp_path, {})
    with pytest.raises(CitationError):
        compute_coverage(pack, "transporte-escolar")


def test_real_pack_has_no_dangling_citation(pack_dir: Path) -> None:
    report = compute_coverage(pack_dir)
    assert report.dangling == (), [(d.use.location, d.message) for d in report.dangling]


def test_real_pack_marks(pack_dir: Path) -> None:
    laws = load_laws(pack_dir)
    report = compute_coverage(pack_dir)
    statuses = {(f.law, f.fragment): f.status for f in report.fragments}
    for law in laws.values():
        for frag in law.fragments.values():
            if frag.text is None and frag.kind != "capitulo":
                assert frag.no_implementation, frag.id
    # forms and rule modules implement provisions
    assert statuses[("fretamento", "art8")] == IMPLEMENTED
    assert statuses[("transporte-escolar", "art6")] == IMPLEMENTED
    # incisos implemented by the fee rule (lavra_americana.transporte_escolar.fees), the
    # paragraph marked: caput covered
    assert statuses[("transporte-escolar", "art16")] in (IMPLEMENTED, COVERED_BY_CHILDREN)
    assert statuses[("transporte-escolar", "art30")] == MARKED
    assert set(report.laws) == set(laws)


def test_cli_coverage(tmp_path: Path) -> None:
    pack = _fake_pack(tmp_path, {"schemas/s.json": SCHEMA, "forms/f/formulario.json": FORM_META})
    runner = CliRunner(env={"LAVRA_PACK": str(pack)})
    result = runner.invoke(law_cli, ["coverage", "fretamento"])
    assert result.exit_code == 1  # a dangling citation
    assert "Citações que não se resolvem" in result.output
    assert "fretamento#art99" in result.output
    assert "art. 10, I, da Lei nº 4.419/2006" in result.output
    data = json.loads(runner.invoke(law_cli, ["coverage", "--json"]).output)
    assert data["totais"][IMPLEMENTED] == 3
    assert data["citacoes_invalidas"][0]["local"].startswith("schemas/s.json#")
    (pack / "schemas" / "s.json").write_text('{"x-fundamento": ["fretamento#art8"]}', "utf-8")
    assert runner.invoke(law_cli, ["coverage"]).exit_code == 0
    missing = runner.invoke(law_cli, ["coverage", "inexistente"])
    assert missing.exit_code == 2 and missing.stderr.startswith("Erro: ")


def test_rule_modules_named_by_the_pack_count_as_implementations(pack_dir: Path) -> None:
    from lavra.law.coverage import code_citations

    uses = code_citations(pack_dir)
    found = {(u.citation, u.file) for u in uses}
    assert ("transporte-escolar#art6", "lavra_americana/transporte_escolar/population.py") in found
    assert ("fretamento#art18", "lavra_americana/fretamento/penalties.py") in found
    report = compute_coverage(pack_dir, "transporte-escolar")
    by_id = {f.fragment: f for f in report.fragments}
    assert by_id["art7_inc8"].status == IMPLEMENTED


def test_a_rule_module_without_implemented_is_a_pack_error(tmp_path: Path) -> None:
    from lavra.errors import ContentPackError
    from lavra.law.coverage import code_citations

    root = tmp_path / "pacote_sem_implemented"
    for name in ("legal_text", "schemas", "forms"):
        (root / name).mkdir(parents=True)
    (root / "regras.py").write_text("VALOR = 1\n", encoding="utf-8")
    (root / "__init__.py").write_text(
        "from pathlib import Path\n"
        "from lavra.pack import ContentPack\n"
        "from . import regras\n"
        "def pacote():\n"
        "    return ContentPack('sem-implemented', Path(__file__).parent,\n"
        "                       rule_modules=(regras,))\n",
        encoding="utf-8",
    )
    with pytest.raises(ContentPackError, match="IMPLEMENTED"):
        code_citations(root)


def test_values_and_unreached_definitions_do_not_implement(tmp_path: Path) -> None:
    shared = {
        "$defs": {
            "usada": {"x-fundamento": ["fretamento#art10_inc2"]},
            "solta": {"x-fundamento": ["fretamento#art10_inc3"]},
        }
    }
    schema = {"properties": {"x": {"$ref": "comum.json#/$defs/usada"}}}
    params = {"parametros": {"p": {"fundamento": ["fretamento#art10_inc4"]}}}
    pack = _fake_pack(
        tmp_path,
        {
            "schemas/s.json": schema,
            "schemas/comum.json": shared,
            "forms/f/formulario.json": FORM_META,
            "legal_text/parametros.json": params,
        },
    )
    by_id = {f.fragment: f for f in compute_coverage(pack).fragments}
    assert by_id["art10_inc2"].status == IMPLEMENTED
    assert by_id["art10_inc3"].status == PENDING  # a definition no form reaches
    assert by_id["art10_inc4"].status == PENDING  # a parameter is data, not a rule
    assert by_id["art10_inc4"].uses == ()
