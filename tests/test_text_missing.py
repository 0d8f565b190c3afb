"""Provisions in force whose text the source lacks (issue 10, class 5).

Fretamento art. 10, VII (Lei nº 6.390/2019) and art. 28-A (Lei nº 5.499/2013), and
escolar art. 1º, § 4º (Lei nº 6.324/2019), are in force, but the source only records
their inclusion. They are not "nothing to implement": coverage lists them apart
(``texto_ausente``), and :func:`lavra.checking.checks.missing_text_findings` gives the
pending item a document they concern shows: the text must be registered before the
provision can be applied. Escolar art. 28-A was
revoked (Lei nº 6.324/2019): it stays ``marcado`` and concerns no document.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from lavra.checking.checks import missing_text_findings
from lavra.checking.report import Status
from lavra.cli.law import law as law_cli
from lavra.documents import Engine
from lavra.law.coverage import (
    COVERED_BY_CHILDREN,
    IMPLEMENTED,
    MARKED,
    PENDING,
    STATUSES,
    TEXT_MISSING,
    compute_coverage,
)
from lavra.law.model import load_laws, without_text

REPO = Path(__file__).resolve().parent.parent
IN_FORCE_WITHOUT_TEXT = {
    ("fretamento", "art10_inc7"),
    ("fretamento", "art28a"),
    ("transporte-escolar", "art1_par4"),
}
def test_coverage_lists_them_apart(pack_dir: Path) -> None:
    report = compute_coverage(pack_dir)
    found = {(f.law, f.fragment) for f in report.with_status(TEXT_MISSING)}
    assert found == IN_FORCE_WITHOUT_TEXT
    statuses = {(f.law, f.fragment): f.status for f in report.fragments}
    assert statuses[("transporte-escolar", "art28a")] == MARKED  # revoked
    assert TEXT_MISSING in STATUSES and sum(report.counts().values()) == len(report.fragments)
    for entry in report.with_status(TEXT_MISSING):
        assert entry.reason is not None and "Sem o texto, não há o que implementar" not in (
            entry.reason)
        assert "deve ser registrado antes de o dispositivo ser aplicado" in entry.reason


def test_a_cited_provision_without_text_is_still_texto_ausente(tmp_path: Path) -> None:
    # citing it (a pending item's basis, a form's fundamento) does not implement it, and
    # it does not count as done for its parent
    for folder in ("legal_text", "schemas", "forms"):
        (tmp_path / folder).mkdir()
    document = json.loads((REPO / "legal_text" / "fretamento.json").read_text("utf-8"))
    for frag in document["fragmentos"]:
        if frag["id"].startswith("art10_inc") and frag["id"] != "art10_inc7":
            frag["sem_implementacao"] = "teste"
    (tmp_path / "legal_text" / "fretamento.json").write_text(
        json.dumps(document, ensure_ascii=False), encoding="utf-8")
    meta = {"titulo": "X", "schema": "s.json", "fundamento": ["fretamento#art10_inc7"]}
    (tmp_path / "forms" / "f").mkdir()
    (tmp_path / "forms" / "f" / "formulario.json").write_text(json.dumps(meta), "utf-8")
    report = compute_coverage(tmp_path, "fretamento")
    statuses = {f.fragment: f.status for f in report.fragments}
    assert statuses["art10_inc7"] == TEXT_MISSING
    assert statuses["art10_inc1"] == MARKED
    # art. 10 has paragraphs too; with every other child done, inc. VII keeps it pending
    assert statuses["art10"] in (PENDING, IMPLEMENTED)
    assert statuses["art10"] != COVERED_BY_CHILDREN


def test_cli_coverage_prints_and_counts_them(pack_dir: Path) -> None:
    runner = CliRunner(env={"LAVRA_PACK": str(pack_dir), "LAVRA_CONFIG": None})
    result = runner.invoke(law_cli, ["coverage"])
    assert "3 em vigor sem texto." in result.output
    assert "Em vigor, sem texto na fonte (registrar o texto antes de aplicar):" in result.output
    assert "fretamento#art10_inc7" in result.output.split("Em vigor, sem texto na fonte")[1]
    data = json.loads(runner.invoke(law_cli, ["coverage", "--json"]).output)
    assert data["totais"][TEXT_MISSING] == 3
    assert {(d["lei"], d["dispositivo"]) for d in data["dispositivos"]
            if d["situacao"] == TEXT_MISSING} == IN_FORCE_WITHOUT_TEXT


def test_without_text_reaches_the_provisions_under_a_citation(pack_dir: Path) -> None:
    laws = load_laws(pack_dir)
    assert [c.citation for c in without_text(laws, ["fretamento#art10"])] == [
        "fretamento#art10_inc7"]
    assert without_text(laws, ["fretamento#art10_inc1", "transporte-escolar#art28a"]) == ()
    assert without_text(laws, ["nao-existe#art1"]) == ()
    (item,) = missing_text_findings(["fretamento#art10"], laws)
    # a notice: the document does not apply the provision (issue 10, class 5)
    assert item.status is Status.NOT_APPLICABLE and item.basis == ("fretamento#art10_inc7",)
    assert "não pode ser aplicado até que o seu texto seja registrado" in item.message
    (blocking,) = missing_text_findings(["fretamento#art10"], laws, blocking=True)
    assert blocking.status is Status.MISSING
    assert item.message.startswith(
        "O texto do art. 10, VII, da Lei nº 4.419/2006, em vigor, não está registrado")
    assert "Lei nº 6.390, de 20/12/2019" in item.message


def _registered(tmp_path: Path) -> Path:
    """The pack's laws after staff registered the text of art. 10, VII (a test text)."""
    pack = tmp_path / "pacote"
    shutil.copytree(REPO / "legal_text", pack / "legal_text")
    for folder in ("schemas", "forms"):
        (pack / folder).mkdir()
    path = pack / "legal_text" / "fretamento.json"
    document = json.loads(path.read_text("utf-8"))
    for frag in document["fragmentos"]:
        if frag["id"] == "art10_inc7":
            frag["texto"] = "texto de teste registrado pela Secretaria;"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return pack


def test_once_registered_the_item_is_gone(tmp_path: Path, engine: Engine) -> None:
    pack = _registered(tmp_path)
    basis = engine.content.form("alvara-fretamento").basis
    assert list(missing_text_findings(basis, load_laws(pack))) == []
    assert list(missing_text_findings(basis, engine.content.laws))  # the shipped pack
    coverage = {f.fragment: f.status for f in compute_coverage(pack, "fretamento").fragments}
    assert coverage["art10_inc7"] == MARKED  # its sem_implementacao, until a rule cites it
    assert coverage["art28a"] == TEXT_MISSING


def test_a_document_relying_on_the_article_reaches_its_provisions_without_text(
    pack_dir: Path,
) -> None:
    from lavra.checking.checks import concerned_without_text

    laws = load_laws(pack_dir)
    found = [c.citation for c in concerned_without_text(laws, ["fretamento#art10_inc1"])]
    assert found == ["fretamento#art10_inc7"]
    # art. 28-A was inserted after art. 28 (inspection) and completes it
    assert [c.citation for c in concerned_without_text(laws, ["fretamento#art28"])] == [
        "fretamento#art28a"]
    assert [c.citation for c in concerned_without_text(
        laws, ["transporte-escolar#art1_par1"])] == ["transporte-escolar#art1_par4"]
    assert concerned_without_text(laws, ["fretamento#art22", "transporte-escolar#art28"]) == ()


@pytest.mark.parametrize(
    ("form", "citation", "words"),
    [
        ("alvara-fretamento", "fretamento#art10_inc7", "art. 10, VII, da Lei"),
        ("auto-infracao-fretamento", "fretamento#art28a", "art. 28-A da Lei"),
        ("termo-impedimento-fretamento", "fretamento#art28a", "art. 28-A da Lei"),
        ("alvara-transporte-escolar", "transporte-escolar#art1_par4", "art. 1º, § 4º, da Lei"),
    ],
)
def test_documents_show_the_notice_and_stay_issuable(
    engine: Engine, form: str, citation: str, words: str
) -> None:
    from formcases import example, pdf_text

    data = example(engine, form)
    report = engine.prepare(form, data, example_values=True).report
    notices = [i for i in report.items if i.requirement == f"texto.{citation}"]
    assert notices and notices[0].status is Status.NOT_APPLICABLE
    assert notices[0] not in report.pending  # a notice, not a blocking item
    draft = pdf_text(engine.draft(form, data, example_values=True).pdf)
    assert "Aviso (não impede a emissão)" in draft
    assert "não pode ser aplicado até que o seu texto seja registrado" in draft
    assert "Este ato não aplica o " in draft and words in draft


def test_a_document_that_does_not_rely_on_them_shows_nothing(engine: Engine) -> None:
    from formcases import example, pdf_text

    form = "decisao-cassacao-fretamento"
    report = engine.prepare(form, example(engine, form)).report
    assert not [i for i in report.items if i.requirement.startswith("texto.")]
    assert "Este ato não aplica" not in pdf_text(engine.draft(form, example(engine, form)).pdf)
