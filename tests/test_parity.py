"""One wording source: for every form, the PDF and the DOCX say the same words.

The comparison takes the body only: the page header and footer (repeated on every
PDF page, once in the DOCX header part) and the MINUTA watermark are set aside, and a
word broken across lines of a narrow table cell ("Mercedes-" / "Benz") is joined.
"""

from __future__ import annotations

import io
import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import docx
import pytest
from pypdf import PdfReader

from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.signing.verification import qr_png

WORD = re.compile(r"\S+")
FORMS = sorted(
    path.parent.name
    for path in (Path(__file__).resolve().parent.parent / "forms").glob("*/formulario.json")
)


@pytest.fixture(scope="module")
def engine(pack_dir: Path) -> Engine:
    """WeasyPrint's engine; the tests that compare Typst's layout ask for it by name."""
    found = Engine(Content(pack_dir))
    found.final_renderer = "weasyprint"
    return found


def words(text: str) -> list[str]:
    # list markers ("1.", "•") are drawn by the PDF and numbered by Word: set aside
    # pypdf may glue a bullet to the word before it ("2007•"): a marker, not a word
    tokens = [
        w
        for w in WORD.findall(text.replace("•", " "))
        if re.search(r"\w", w) and w != "MINUTA" and not re.fullmatch(r"\d+\.", w)
    ]
    joined: list[str] = []
    for token in tokens:
        if joined and joined[-1].endswith(("-", "/")) and not joined[-1].endswith(" -"):
            joined[-1] += token
        else:
            joined.append(token)
    return joined


def pdf_body_words(pdf: bytes, frame_words: list[str]) -> list[str]:
    body: list[str] = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        page_words = words(page.extract_text() or "")
        footer = re.compile(r"^\d+$")
        # the margin boxes come last: header words, then "Página x de y"
        assert page_words[-4] == "Página" and footer.match(page_words[-1]), page_words[-6:]
        page_words = page_words[:-4]
        assert page_words[-len(frame_words) :] == frame_words, page_words[-15:]
        body += page_words[: -len(frame_words)]
    return body


def docx_body_words(data: bytes) -> list[str]:
    document = docx.Document(io.BytesIO(data))
    parts: list[str] = []
    for block in document.iter_inner_content():
        if hasattr(block, "rows"):
            for row in block.rows:
                seen: set[int] = set()
                for cell in row.cells:  # a merged cell appears once per grid column
                    if id(cell._tc) not in seen:
                        seen.add(id(cell._tc))
                        parts.append(cell.text)
        else:
            parts.append(block.text)
    return words("\n".join(parts))


@pytest.mark.parametrize("form", FORMS)
def test_pdf_and_docx_of_every_form_say_the_same_words(engine: Engine, form: str) -> None:
    spec = engine.content.form(form)
    assert spec.example is not None
    data: Any = json.loads(spec.example.read_text(encoding="utf-8"))
    rendered = engine.draft(form, data, date(2026, 11, 29), docx=True, example_values=True)
    assert rendered.docx is not None
    org = engine.content.organization
    body = spec.issuing_body or org.orgao  # the issuing body a form may name (Prefeito)
    frame = words(f"{org.municipio} {body} documento sem valor oficial")
    frame = [w for w in frame if w != "—"]
    pdf_words = pdf_body_words(rendered.pdf, frame)
    assert pdf_words == docx_body_words(rendered.docx)


# ------------------------------------------------------------------ issued: Typst too

#: Issued acts whose text is read from the registry, not from their example: the fine's
#: guia prints the auto of infração the registry holds (its date, plate, amounts), and
#: without a registry it is not issuable. tests/test_forms_guia_multa.py issues it over
#: a registry; its Typst layout is not compared here.
READ_FROM_REGISTRY = frozenset({"guia-recolhimento-multa-fretamento"})

ISSUED = [  # the acts the administration numbers and signs
    f for f in FORMS
    if json.loads((Path(__file__).resolve().parent.parent / "forms" / f / "formulario.json")
                  .read_text(encoding="utf-8")).get("serie") and f not in READ_FROM_REGISTRY
]


def typst_body_words(pdf: bytes, frame_words: list[str]) -> list[str]:
    """Typst draws the header first and the footer last on every page. A word broken at
    its hyphen repeats the hyphen on the next line, as Portuguese does ("para-/-brisa")."""
    body: list[str] = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        page_words = words(re.sub(r"-[ ]*\n-", "-\n", page.extract_text() or ""))
        assert page_words[-4] == "Página" and re.fullmatch(r"\d+", page_words[-1]), page_words
        assert page_words[: len(frame_words)] == frame_words, page_words[:15]
        body += page_words[len(frame_words) : -4]
    return body


def _issued(engine: Engine, form: str, renderer: str) -> tuple[bytes, bytes | None]:
    spec = engine.content.form(form)
    assert spec.example is not None
    data: Any = json.loads(spec.example.read_text(encoding="utf-8"))
    prepared = engine.prepare(form, data, date(2026, 11, 29), example_values=True, draft=False)
    engine.final_renderer = renderer
    try:
        laid, docx_bytes = engine.render_final(
            prepared, number=f"{spec.series} nº 0007/2026", code="ABCD-EFGH-JKLM",
            url="https://verifica.example.invalid/verificar", qr_png=qr_png("https://x.invalid/v"),
            signer_name="Fulana de Tal", docx=renderer == "weasyprint",
        )
    finally:
        engine.final_renderer = "weasyprint"
    return laid.pdf, docx_bytes


def test_every_issuable_form_is_listed() -> None:
    assert {"alvara-transporte-escolar", "selo-identificacao", "alvara-fretamento",
            "notificacao-pendencias-renovacao",
            "notificacao-pendencias-renovacao-fretamento"} <= set(ISSUED)


@pytest.mark.parametrize("form", ISSUED)
def test_issued_typst_weasyprint_and_docx_say_the_same_words(engine: Engine, form: str) -> None:
    """The issued document laid out by Typst carries the words of WeasyPrint's and of the
    DOCX, from the one wording (the renderer of issued documents is a configuration)."""
    spec = engine.content.form(form)
    weasy, docx_bytes = _issued(engine, form, "weasyprint")
    typst_pdf, _ = _issued(engine, form, "typst")
    assert docx_bytes is not None
    assert b"Typst" in typst_pdf and b"Typst" not in weasy  # no silent fallback
    org = engine.content.organization
    frame = words(f"{org.municipio} {spec.issuing_body or org.orgao} {spec.series} nº 0007/2026")
    weasy_words = pdf_body_words(weasy, frame)
    assert typst_body_words(typst_pdf, frame) == weasy_words
    # the same page geometry, line breaking and table columns: as many pages (issue 24)
    pages = [len(PdfReader(io.BytesIO(pdf)).pages) for pdf in (weasy, typst_pdf)]
    assert pages[0] == pages[1], f"WeasyPrint {pages[0]} páginas, Typst {pages[1]}"
    assert weasy_words == docx_body_words(docx_bytes)


@pytest.mark.parametrize("form", FORMS)
def test_typst_draft_of_every_form_says_the_words_of_the_docx(engine: Engine, form: str) -> None:
    """renderizador = "typst" lays out the drafts too: the words of the DOCX, with the
    MINUTA notice in the header of every page (the mark behind the text set aside)."""
    spec = engine.content.form(form)
    assert spec.example is not None
    data: Any = json.loads(spec.example.read_text(encoding="utf-8"))
    engine.final_renderer = "typst"
    try:
        rendered = engine.draft(form, data, date(2026, 11, 29), docx=True, example_values=True)
    finally:
        engine.final_renderer = "weasyprint"
    assert rendered.docx is not None
    assert b"Typst" in rendered.pdf  # no silent fallback
    org = engine.content.organization
    frame = words(f"{org.municipio} {spec.issuing_body or org.orgao} documento sem valor oficial")
    frame = [w for w in frame if w != "—"]
    assert typst_body_words(rendered.pdf, frame) == docx_body_words(rendered.docx)
