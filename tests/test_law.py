"""The laws as structured data: verbatim fidelity, citations, validation, CLI."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lavra.cli.law import law as law_cli
from lavra.errors import CitationError, ContentPackError, InputError
from lavra.law.importer import int_to_roman, parse_law_text, roman_to_int
from lavra.law.model import Law, linearize, load_laws, resolve

REPO = Path(__file__).resolve().parent.parent
SHARED_SOURCES = REPO.parent / "shared" / "legal-sources"
LAW_IDS = ("fretamento", "transporte-escolar")
# Written independently of lavra.law.model.FRAGMENT_ID on purpose.
LEXML_ID = re.compile(r"^(cap\d+|art\d+[a-z]?(_par(\d+|1u))?(_inc\d+)?(_ali\d+)?)$")


@pytest.fixture(scope="module")
def laws(pack_dir: Path) -> dict[str, Law]:
    return load_laws(pack_dir)


def _source_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# ---------------------------------------------------------------- verbatim


@pytest.mark.parametrize("law_id", LAW_IDS)
def test_every_source_line_appears_in_order(laws: dict[str, Law], pack_dir: Path,
                                            law_id: str) -> None:
    law = laws[law_id]
    source = pack_dir / "legal_text" / law.source
    lines = linearize(law)
    expected = _source_lines(source)
    # In order: each source line is found after the previous one.
    position = 0
    for line in expected:
        assert line in lines[position:], f"linha ausente ou fora de ordem: {line!r}"
        position = lines.index(line, position) + 1
    # And nothing invented: the linearized law is exactly the source.
    assert lines == expected


@pytest.mark.parametrize("law_id", LAW_IDS)
def test_verbatim_against_shared_sources(laws: dict[str, Law], law_id: str) -> None:
    if not SHARED_SOURCES.is_dir():
        pytest.skip("pasta ../shared/legal-sources ausente neste ambiente")
    law = laws[law_id]
    shared = SHARED_SOURCES / Path(law.source).name
    assert shared.is_file()
    assert linearize(law) == _source_lines(shared)


@pytest.mark.parametrize("law_id", LAW_IDS)
def test_importer_reproduces_the_maintained_json(pack_dir: Path, law_id: str) -> None:
    document = json.loads((pack_dir / "legal_text" / f"{law_id}.json").read_text("utf-8"))
    parsed = parse_law_text((pack_dir / "legal_text" / document["fonte"]).read_text("utf-8"))
    assert parsed.closing == document["fecho"]
    structural = ("id", "tipo", "rotulo", "texto", "pai", "capitulo", "notas", "revogado")
    assert [{k: f[k] for k in structural} for f in parsed.fragments] == [
        {k: f[k] for k in structural} for f in document["fragmentos"]
    ]


# ---------------------------------------------------------------- structure


@pytest.mark.parametrize("law_id", LAW_IDS)
def test_fragment_ids_unique_and_lexml(pack_dir: Path, law_id: str) -> None:
    document = json.loads((pack_dir / "legal_text" / f"{law_id}.json").read_text("utf-8"))
    ids = [f["id"] for f in document["fragmentos"]]
    assert len(ids) == len(set(ids))
    assert all(LEXML_ID.match(fid) for fid in ids), [i for i in ids if not LEXML_ID.match(i)]


def test_metadata(laws: dict[str, Law]) -> None:
    fret, esc = laws["fretamento"], laws["transporte-escolar"]
    assert fret.urn == "urn:lex:br;sao.paulo;americana:municipal:lei:2006-11-17;4419"
    assert fret.number == "4.419" and fret.number_note is None
    assert fret.date.isoformat() == "2006-11-17"
    assert esc.urn == "urn:lex:br;sao.paulo;americana:municipal:lei:2007-08-03;4515"
    assert esc.number == "4.515"
    assert esc.number_note is not None and "Câmara" in esc.number_note
    assert esc.closing == "Prefeitura Municipal de Americana, aos 3 de agosto de 2007."


def test_inline_note_is_stripped_from_text(laws: dict[str, Law]) -> None:
    frag = laws["fretamento"].fragments["art10_inc1"]
    assert frag.text is not None and frag.text.endswith("5 (cinco) anos para os demais;")
    assert "Alterado" not in frag.text
    assert [(n.text, n.position) for n in frag.notes] == [
        ("Alterado pela Lei nº 6.335, de 29/08/2019", "inline")
    ]
    caput = laws["fretamento"].fragments["art10"]
    assert caput.text == "Os veículos deverão ter as seguintes características:"
    assert caput.label == "Art. 10."


def test_own_line_note_follows_its_fragment(laws: dict[str, Law]) -> None:
    art1 = laws["fretamento"].fragments["art1"]
    assert [(n.text, n.position) for n in art1.notes] == [
        ("Alterado pela Lei n° 5499, de 10/07/2013", "apos")
    ]


@pytest.mark.parametrize(
    ("law_id", "fid", "parent", "revoked"),
    [
        ("fretamento", "art10_inc7", "art10", False),
        ("fretamento", "art28a", None, False),
        ("transporte-escolar", "art1_par4", "art1", False),
        ("transporte-escolar", "art28a", None, True),
    ],
)
def test_included_provisions_without_text(laws: dict[str, Law], law_id: str, fid: str,
                                          parent: str | None, revoked: bool) -> None:
    frag = laws[law_id].fragments[fid]
    assert frag.text is None
    assert frag.parent == parent
    assert frag.revoked is revoked
    assert frag.notes and frag.notes[0].position == "apos"
    assert frag.no_implementation is not None
    assert ("revogado" if revoked else "não consta da fonte") in frag.no_implementation


def test_document_order_of_included_fragments(laws: dict[str, Law]) -> None:
    ids = list(laws["fretamento"].fragments)
    assert ids.index("art10_inc6") < ids.index("art10_inc7") < ids.index("art10_par1")
    ids = list(laws["transporte-escolar"].fragments)
    assert ids.index("art1_par3") < ids.index("art1_par4") < ids.index("art2")
    assert ids.index("art28") < ids.index("art28a") < ids.index("art29")


def test_quirks(laws: dict[str, Law]) -> None:
    fret, esc = laws["fretamento"], laws["transporte-escolar"]
    # incisos on consecutive lines (no blank line between them)
    assert esc.fragments["art24_inc1"].text is not None
    assert esc.fragments["art24_inc2"].text == (
        "não tratar com urbanidade os usuários e colegas de profissão;"
    )
    # alíneas directly under the caput
    assert [f.id for f in fret.children("art14")] == [
        "art14_ali1", "art14_ali2", "art14_ali3", "art14_ali4", "art14_par1u"
    ]
    assert fret.fragments["art21_ali3"].parent == "art21"
    # alíneas under an inciso under a paragraph
    assert esc.fragments["art17_par2_inc1_ali4"].parent == "art17_par2_inc1"
    # chapters
    assert esc.fragments["cap2"].text == "DA INSCRIÇÃO DOS CANDIDATOS"
    assert esc.fragments["art7_inc1"].chapter == "cap2"
    assert all(f.chapter is None for f in fret.fragments.values())


# ---------------------------------------------------------------- citations


@pytest.mark.parametrize(
    ("citation", "reference", "short"),
    [
        ("fretamento#art7_inc4",
         "art. 7º, inciso IV, da Lei Municipal nº 4.419, de 17 de novembro de 2006",
         "art. 7º, IV, da Lei nº 4.419/2006"),
        ("fretamento#art4_par3",
         "art. 4º, § 3º, da Lei Municipal nº 4.419, de 17 de novembro de 2006",
         "art. 4º, § 3º, da Lei nº 4.419/2006"),
        ("fretamento#art5_par1u",
         "art. 5º, parágrafo único, da Lei Municipal nº 4.419, de 17 de novembro de 2006",
         "art. 5º, parágrafo único, da Lei nº 4.419/2006"),
        ("fretamento#art11_inc1_ali3",
         "art. 11, inciso I, alínea c, da Lei Municipal nº 4.419, de 17 de novembro de 2006",
         "art. 11, I, c, da Lei nº 4.419/2006"),
        ("fretamento#art14_ali1",
         "art. 14, alínea a, da Lei Municipal nº 4.419, de 17 de novembro de 2006",
         "art. 14, a, da Lei nº 4.419/2006"),
        ("fretamento#art10",
         "art. 10 da Lei Municipal nº 4.419, de 17 de novembro de 2006",
         "art. 10 da Lei nº 4.419/2006"),
        ("transporte-escolar#art13_par5_inc3",
         "art. 13, § 5º, inciso III, da Lei Municipal nº 4.515, de 3 de agosto de 2007",
         "art. 13, § 5º, III, da Lei nº 4.515/2007"),
        ("transporte-escolar#art28a",
         "art. 28-A da Lei Municipal nº 4.515, de 3 de agosto de 2007",
         "art. 28-A da Lei nº 4.515/2007"),
        ("transporte-escolar#cap2",
         "Capítulo II da Lei Municipal nº 4.515, de 3 de agosto de 2007",
         "Capítulo II da Lei nº 4.515/2007"),
        ("fretamento",
         "Lei Municipal nº 4.419, de 17 de novembro de 2006",
         "Lei nº 4.419/2006"),
    ],
)
def test_citation_formatting(laws: dict[str, Law], citation: str, reference: str,
                             short: str) -> None:
    cit = resolve(laws, citation)
    assert cit.reference == reference
    assert cit.short == short
    assert cit.citation == citation


def test_citation_text_is_verbatim(laws: dict[str, Law]) -> None:
    cit = resolve(laws, "fretamento#art7_inc4")
    assert cit.text == "certidão negativa de débito sindical (patronal e empregados);"
    assert cit.fragment is not None and cit.fragment.label == "IV"


def test_full_text_of_an_article(laws: dict[str, Law]) -> None:
    full = resolve(laws, "fretamento#art10").full_text().splitlines()
    assert full[0] == "Art. 10. Os veículos deverão ter as seguintes características:"
    assert full[1].startswith("I - no máximo, 20 (vinte) anos")
    assert "VII - [texto não consta da fonte]" in full
    assert full[-1] == "§ 6º Os veículos ônibus deverão ter 1 (uma) porta e poltronas rodoviárias."
    assert not any("Alterado" in line for line in full)
    inciso = resolve(laws, "fretamento#art7_inc4")
    assert inciso.full_text() == (
        "IV - certidão negativa de débito sindical (patronal e empregados);"
    )


def test_every_fragment_resolves(laws: dict[str, Law]) -> None:
    for law in laws.values():
        for fid, frag in law.fragments.items():
            cit = resolve(laws, f"{law.id}#{fid}")
            assert cit.fragment is frag
            assert cit.reference.endswith(f"da {law.title}")
            assert cit.short.endswith(f"da {law.short_title}")


@pytest.mark.parametrize(
    "citation",
    ["", "   ", "#art7", "fretamento#", "fretamento#art7#inc4", "fretamento#artigo7",
     "Fretamento#art7", "fretamento#art7_inc0", "fretamento#art07", "fretamento #art7"],
)
def test_malformed_citations(laws: dict[str, Law], citation: str) -> None:
    with pytest.raises(CitationError) as info:
        resolve(laws, citation)
    assert "Citação" in info.value.message


@pytest.mark.parametrize(
    ("citation", "words"),
    [
        ("municipal#art1", "não consta do pacote"),
        ("fretamento#art99", "não existe na Lei Municipal nº 4.419"),
        ("fretamento#art7_inc13", "não existe"),
        ("transporte-escolar#art1_par5", "não existe na Lei Municipal nº 4.515"),
    ],
)
def test_unknown_citations(laws: dict[str, Law], citation: str, words: str) -> None:
    with pytest.raises(CitationError) as info:
        resolve(laws, citation)
    assert words in info.value.message


def test_roman_numerals() -> None:
    for value in (1, 4, 9, 14, 40, 99, 2019):
        assert roman_to_int(int_to_roman(value)) == value
    assert int_to_roman(12) == "XII"
    with pytest.raises(InputError):
        roman_to_int("IIII")


# ---------------------------------------------------------------- validation


def _pack_with(tmp_path: Path, mutate: Any) -> Path:
    for folder in ("legal_text", "schemas", "forms"):
        (tmp_path / folder).mkdir()
    document = json.loads((REPO / "legal_text" / "fretamento.json").read_text("utf-8"))
    mutate(document)
    (tmp_path / "legal_text" / "fretamento.json").write_text(
        json.dumps(document, ensure_ascii=False), encoding="utf-8"
    )
    return tmp_path


def _add_unknown_key(doc: dict[str, Any]) -> None:
    doc["fragmentos"][3]["comentario"] = "x"


def _duplicate(doc: dict[str, Any]) -> None:
    doc["fragmentos"].append(dict(doc["fragmentos"][0]))


def _dangling_parent(doc: dict[str, Any]) -> None:
    frag = next(f for f in doc["fragmentos"] if f["id"] == "art7_inc4")
    frag["id"], frag["pai"] = "art70_inc4", "art70"


def _wrong_label(doc: dict[str, Any]) -> None:
    next(f for f in doc["fragmentos"] if f["id"] == "art7_inc4")["rotulo"] = "V"


def _unmarked_null_text(doc: dict[str, Any]) -> None:
    next(f for f in doc["fragmentos"] if f["id"] == "art10_inc7")["sem_implementacao"] = None


def _law_unknown_key(doc: dict[str, Any]) -> None:
    doc["autor"] = "x"


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (_add_unknown_key, "chave(s) desconhecida(s): comentario"),
        (_duplicate, "identificador repetido 'art1'"),
        (_dangling_parent, "o pai 'art70' de 'art70_inc4' não existe"),
        (_wrong_label, "não corresponde ao identificador"),
        (_unmarked_null_text, "deve declarar sem_implementacao"),
        (_law_unknown_key, "chave(s) desconhecida(s): autor"),
    ],
)
def test_invalid_law_files(tmp_path: Path, mutate: Any, words: str) -> None:
    pack = _pack_with(tmp_path, mutate)
    with pytest.raises(ContentPackError) as info:
        load_laws(pack)
    assert words in info.value.message
    assert "fretamento.json" in info.value.message


def test_non_law_json_files_are_ignored(tmp_path: Path) -> None:
    pack = _pack_with(tmp_path, lambda doc: None)
    (pack / "legal_text" / "feriados.json").write_text('{"feriados": []}', encoding="utf-8")
    assert list(load_laws(pack)) == ["fretamento"]


# ---------------------------------------------------------------- CLI


def test_cli_show() -> None:
    result = CliRunner().invoke(law_cli, ["show", "fretamento#art10_inc1"])
    assert result.exit_code == 0, result.output
    assert "art. 10, inciso I, da Lei Municipal nº 4.419" in result.output
    assert "20 (vinte) anos de fabricação" in result.output
    assert "Nota: Alterado pela Lei nº 6.335, de 29/08/2019" in result.output


def test_cli_show_json_and_full_text() -> None:
    result = CliRunner().invoke(law_cli, ["show", "fretamento#art7", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["referencia_curta"] == "art. 7º da Lei nº 4.419/2006"
    assert data["texto_completo"].splitlines()[4] == (
        "IV - certidão negativa de débito sindical (patronal e empregados);"
    )
    full = CliRunner().invoke(law_cli, ["show", "transporte-escolar#art24", "--completo"])
    assert "II - não tratar com urbanidade" in full.output
    assert "Observação sobre o número da lei" in full.output


def test_cli_list() -> None:
    result = CliRunner().invoke(law_cli, ["list", "transporte-escolar", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    ids = [row["id"] for row in data["dispositivos"]]
    assert ids[0] == "cap1" and "art28a" in ids
    text = CliRunner().invoke(law_cli, ["list", "fretamento"])
    assert "art7_inc4" in text.output and "certidão negativa de débito sindical" in text.output


@pytest.mark.parametrize("args", [["show", "fretamento#art99"], ["list", "inexistente"],
                                  ["show", "fretamento#"]])
def test_cli_errors_are_pt_br_without_traceback(args: list[str]) -> None:
    result = CliRunner().invoke(law_cli, args)
    assert result.exit_code == 2
    assert result.stderr.startswith("Erro: ")
    assert "Traceback" not in result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_broken_pack(tmp_path: Path) -> None:
    pack = _pack_with(tmp_path, _duplicate)
    shutil.copy(REPO / "legal_text" / "transporte-escolar.json", pack / "legal_text")
    result = CliRunner(env={"LAVRA_PACK": str(pack)}).invoke(law_cli, ["show", "fretamento"])
    assert result.exit_code == 2
    assert "identificador repetido" in result.stderr
