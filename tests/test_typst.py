"""Typst as the renderer of issued documents (lavra.toml: renderizador = "typst").

The wording travels to Typst as data, never as markup; the PDF is PDF/A-2a with the
language, the title and the fonts of the page; the signature box is found where the
program reserved it; the configuration key is checked; an issued document verifies.
The words of every issuable form against WeasyPrint and the DOCX: tests/test_parity.py.
"""

from __future__ import annotations

import csv
import html
import io
import json
import logging
import re
import shutil
import subprocess
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pypdf
import pytest
import segno
import zxingcpp
from issuers import dev_issuer
from PIL import Image

from lavra.checking.content import Content
from lavra.config import default_renderer, load_config
from lavra.documents import Engine
from lavra.errors import ConfigError, ContentPackError, RenderError
from lavra.issuing import Issuer
from lavra.render.pdf import SIGNATURE_BOX_MM, PageFrame
from lavra.render.task import DocumentRenderer, RenderJob, render_job
from lavra.render.typstpdf import PAGE_FILE, TypstRenderer, document_tree
from lavra.render.typstwidths import ESTIMATED_WIDTHS, column_weights
from lavra.signing.verification import qr_png

ON = date(2026, 11, 29)
QR = qr_png("https://verifica.example.invalid/verificar?c=ABCD")
FRAME = PageFrame(
    municipio="Prefeitura Municipal de Americana",
    orgao="Secretaria de Transportes e Sistema Viário",
    titulo="Alvará de Teste",
    numero="ALV-T nº 0001/2026",
    qr_png=QR,
)
HOSTILE = (
    '#set text(red) *negrito* _itálico_ $x^2$ [colchete] @ref <rotulo> \\ barra '
    '#read("/etc/passwd") #import "@preview/x:0.1.0" // comentário /* bloco */ `crase` '
    "~ til -- traço = igual + mais"
)
PT_PER_MM = 72 / 25.4


@pytest.fixture(scope="module")
def assets(pack_dir: Path) -> Path:
    return pack_dir / "forms" / "_base"


@pytest.fixture(scope="module")
def typst_renderer(assets: Path) -> TypstRenderer:
    return TypstRenderer(assets)


def reader(pdf: bytes) -> pypdf.PdfReader:
    assert pdf.startswith(b"%PDF-")
    return pypdf.PdfReader(io.BytesIO(pdf))


def text_of(pdf: bytes) -> list[str]:
    return [page.extract_text() or "" for page in reader(pdf).pages]


# ------------------------------------------------------------------ the data, not markup


def test_document_tree_collapses_spaces_and_keeps_structure() -> None:
    tree = document_tree(
        "<h2> Título  da\n seção </h2><p class='centro x'>Um <strong> dois </strong>"
        "<em>três</em><br> quatro </p><ul><li>a</li><li>b <ol><li>c</li></ol></li></ul>"
        "<table><tr><th>Nome</th><td>Ana</td><td>x</td></tr>"
        "<tr><td colspan='2'>largo</td></tr></table>"
    )
    assert tree[0] == {"t": "h", "n": 2, "r": [{"x": "Título da seção", "b": False, "i": False}]}
    assert tree[1] == {"t": "p", "k": ["centro", "x"], "r": [
        {"x": "Um ", "b": False, "i": False}, {"x": "dois ", "b": True, "i": False},
        {"x": "três", "b": False, "i": True}, {"br": True},
        {"x": "quatro", "b": False, "i": False},
    ]}
    lista = tree[2]
    assert lista["t"] == "lista" and not lista["o"] and len(lista["itens"]) == 2
    assert lista["itens"][1][1]["t"] == "lista" and lista["itens"][1][1]["o"]
    table = tree[3]
    assert table["n"] == 3
    assert [(c["s"], c["th"]) for c in table["c"]] == [
        (1, True), (1, False), (1, False), (2, False), (1, False)  # the short row is filled
    ]


def test_codes_and_addresses_are_unbreakable_words_are_not() -> None:
    [paragraph] = document_tree(
        "<p>o para-brisa, o código ABCD-EFGH-JKLM, a placa ABC-1D23 em "
        "https://exemplo.invalid/verificar.</p>"
    )
    unbreakable = [r["x"] for r in paragraph["r"] if r.get("u")]
    assert unbreakable == ["ABCD-EFGH-JKLM,", "ABC-1D23", "https://exemplo.invalid/verificar."]
    assert "".join(r["x"] for r in paragraph["r"]) == (
        "o para-brisa, o código ABCD-EFGH-JKLM, a placa ABC-1D23 em "
        "https://exemplo.invalid/verificar."
    )


def test_hostile_text_prints_literally(typst_renderer: TypstRenderer) -> None:
    frame = replace(FRAME, titulo=f"Título {HOSTILE}", municipio=f"Município {HOSTILE}")
    quoted = html.escape(HOSTILE)  # the wording is HTML: its templates escape the data
    body = f"<p>{quoted}</p><table><tr><td>{quoted}</td></tr></table>"
    laid = typst_renderer.pdf_for_signing(body, frame)
    text = "".join("".join(text_of(laid.pdf)).split())  # line breaks fall anywhere
    needle = "".join(HOSTILE.split())
    assert text.count(needle) == 4  # header, title, paragraph, cell
    assert "root:" not in text
    assert reader(laid.pdf).metadata.title == frame.titulo  # type: ignore[union-attr]


FACT = "Veículo em serviço sem a expressão exigida. " * 6
WIDE_TABLE = (
    "<table><tr><th>Nº</th><th>Dispositivo infringido (Lei nº 4.419/2006)</th>"
    "<th>Descrição do fato</th><th>Valor da multa</th></tr>"
    + "".join(
        f"<tr><td>{n}</td><td>art. 15, I</td><td>{FACT}"
        f"</td><td>R$\u00a0{n}.857,31</td></tr>"
        for n in (1, 2)
    )
    + "<tr><td colspan=\"3\">Total</td><td>R$\u00a02.228,77</td></tr></table>"
)


def test_columns_are_sized_as_a_browser_sizes_a_full_width_table(
    typst_renderer: TypstRenderer,
) -> None:
    from lxml import html as lxml_html

    table = lxml_html.fragment_fromstring(WIDE_TABLE)
    rows = [[c for c in tr if c.tag in {"td", "th"}] for tr in table.iter("tr")]
    for widths in (typst_renderer.widths, ESTIMATED_WIDTHS):
        weights = column_weights(rows, 4, widths)
        assert weights is not None
        assert weights.index(max(weights)) == 2  # the long description takes the room left
        # no column narrower than its longest word (a no-break space joins "R$ 2.228,77")
        assert weights[3] >= widths.of("R$\u00a02.228,77", False)
        assert weights[1] >= widths.of("Dispositivo", True) and weights[0] < weights[1]
    # the page's own fonts: a bold "Requerimento" (31 mm) is wider than 12 average letters
    measured = typst_renderer.widths
    assert measured is not ESTIMATED_WIDTHS
    assert measured.of("Requerimento", True) > measured.of("Requerimento", False) > 25
    short = lxml_html.fragment_fromstring("<table><tr><td>Nome</td><td>Ana</td></tr></table>")
    # both fit on one line: the width shared in proportion to each one's text plus padding
    nome, ana = (measured.of(word, False) + 4.4 for word in ("Nome", "Ana"))
    weights = column_weights([list(short.iter("th", "td"))], 2, measured)
    assert weights == pytest.approx([nome, ana], abs=0.01)
    # a row's label (th + td) is at least 36 mm, as pagina.css gives it (issue 23): the
    # content's width, the cell's padding and rule on top of it, as WeasyPrint sizes it
    label = lxml_html.fragment_fromstring("<table><tr><th>Nome</th><td>Ana</td></tr></table>")
    weights = column_weights([list(label.iter("th", "td"))], 2, measured)
    assert weights == pytest.approx([36.0 + 4.4, ana], abs=0.01)


def test_a_cells_widest_line_ends_at_a_break_and_strong_words_are_bold(
    typst_renderer: TypstRenderer,
) -> None:
    """A browser sizes a column by its cell's longest line, not by its whole text: the
    description of an infraction, three lines cut by ``br``, does not take the valor's
    room; a ``strong`` total is measured in bold (issue 24: the auto's columns)."""
    from lxml import html as lxml_html

    measured = typst_renderer.widths
    cell = lxml_html.fragment_fromstring(
        "<td>Veículo sem a expressão<br><em>Conduta prevista</em></td>"
    )
    assert column_weights([[cell]], 1, measured) == pytest.approx(
        [measured.of("Veículo sem a expressão", False) + 4.4], abs=0.01
    )
    total = lxml_html.fragment_fromstring("<td><strong>R$ 2.228,77</strong></td>")
    assert column_weights([[total]], 1, measured) == pytest.approx(
        [measured.of("R$ 2.228,77", True) + 4.4], abs=0.01
    )


def test_a_table_of_words_wider_than_the_line_keeps_typsts_own_sizing(
    typst_renderer: TypstRenderer,
) -> None:
    """Seven columns whose longest words side by side exceed the line (the vehicles of a
    fretamento requerimento): no shares (they would cut columns under their words), and
    on the page every cell's text stays apart from its neighbour's."""
    from lxml import html as lxml_html

    heads = ["Placa", "RENAVAM", "Marca/modelo", "Tipo", "Ano", "Lugares", "Posse"]
    cells = ["ABC1D23", "80549125947", "Mercedes-Benz", "rodoviário", "2018", "44", "Arrendamento"]
    table = (
        "<table><tr>" + "".join(f"<th>{h}</th>" for h in heads) + "</tr><tr>"
        + "".join(f"<td>{c}</td>" for c in cells) + "</tr></table>"
    )
    element = lxml_html.fragment_fromstring(table)
    rows = [[c for c in tr if c.tag in {"td", "th"}] for tr in element.iter("tr")]
    assert column_weights(rows, 7, typst_renderer.widths) is None
    [text] = text_of(typst_renderer.pdf_for_signing(table, FRAME).pdf)
    found = text.split()
    for word in ("ABC1D23", "80549125947", "2018", "44", "Placa", "RENAVAM", "Lugares"):
        assert word in found, (word, text)


def test_a_wide_table_stays_inside_the_text_area(typst_renderer: TypstRenderer) -> None:
    laid = typst_renderer.pdf_for_signing(WIDE_TABLE, FRAME)
    chunks: list[tuple[float, str]] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if text.strip():
            chunks.append((tm[4] * cm[0] + cm[4], text))

    reader(laid.pdf).pages[0].extract_text(visitor_text=visit)
    values = [x for x, text in chunks if "857,31" in text or "2.228,77" in text]
    assert len(values) == 3
    # the value column starts well inside the right margin (190 mm) and keeps its words
    assert all(x <= (190 - 25) * PT_PER_MM for x in values), values
    assert all(x >= 30 * PT_PER_MM for x, _ in chunks)


# ------------------------------------------------------------------ PDF/A-2a, frame, box


def test_pdf_is_tagged_pdfa_2a_in_portuguese_with_embedded_fonts(
    typst_renderer: TypstRenderer,
) -> None:
    pdf = typst_renderer.pdf_for_signing("<h2>Seção</h2><p>Texto <strong>forte</strong>.</p>",
                                         FRAME).pdf
    document = reader(pdf)
    root = document.trailer["/Root"]
    assert root["/Lang"] == "pt-BR"
    assert "/OutputIntents" in root and "/StructTreeRoot" in root
    assert bool(root["/MarkInfo"]["/Marked"])
    xmp = document.xmp_metadata
    assert xmp is not None
    xml = xmp.rdf_root.toxml()
    assert "<pdfaid:part>2</pdfaid:part>" in xml
    assert "<pdfaid:conformance>A</pdfaid:conformance>" in xml
    assert document.metadata is not None and document.metadata.title == FRAME.titulo
    fonts = set()
    for page in document.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            assert "/FontFile2" in descriptor or "/FontFile3" in descriptor
            fonts.add(str(font["/BaseFont"]).split("+")[-1])
    assert fonts == {"DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSans-Bold", "DejaVuSans"}


def test_frame_on_every_page_and_the_box_at_the_end(typst_renderer: TypstRenderer) -> None:
    body = "".join(f"<p>Parágrafo número {n} do documento longo.</p>" for n in range(90))
    laid = typst_renderer.pdf_for_signing(body, FRAME)
    pages = text_of(laid.pdf)
    assert len(pages) >= 2
    for index, text in enumerate(pages, start=1):
        assert text.startswith("Prefeitura Municipal de Americana")
        assert FRAME.numero in text
        assert text.rstrip().endswith(f"Página {index} de {len(pages)}")
    assert laid.signature_page == len(pages) - 1
    x1, y1, x2, y2 = laid.signature_box
    assert (round(x2 - x1, 1), round(y2 - y1, 1)) == tuple(
        round(v * PT_PER_MM, 1) for v in SIGNATURE_BOX_MM
    )
    # inside the text area (30 mm left margin, 25 mm bottom margin), right of the QR code
    assert x1 == pytest.approx((30 + 24 + 4) * PT_PER_MM, abs=1)
    assert y1 >= 25 * PT_PER_MM - 0.5 and x2 <= (210 - 20) * PT_PER_MM + 0.5
    # nothing printed in the box: every text of the last page lies above it or in the footer
    positions: list[tuple[float, float, str]] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if text.strip():
            positions.append((tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], text))

    reader(laid.pdf).pages[-1].extract_text(visitor_text=visit)
    assert positions
    for x, y, text in positions:
        assert not (x1 <= x <= x2 and y1 <= y <= y2), (text, x, y)


def test_brasao_is_embedded_and_names_outside_are_refused(assets: Path, tmp_path: Path) -> None:
    own = tmp_path / "base"
    shutil.copytree(assets, own)
    segno.make("brasao").save(str(own / "brasao.png"), scale=4)
    (own / "fora.png").symlink_to("/etc/passwd")
    local = TypstRenderer(own)
    pdf = local.pdf_for_signing("<p>x</p>", replace(FRAME, brasao="brasao.png")).pdf
    images = [
        x for page in reader(pdf).pages
        for x in page["/Resources"].get("/XObject", {}).values()
        if x.get_object()["/Subtype"] == "/Image"
    ]
    assert len(images) == 2  # the brasão and the QR code
    for bad in ("../pagina.css", "/etc/passwd", "fora.png", "nao_existe.png", "c:x.png"):
        with pytest.raises(RenderError):
            local.pdf_for_signing("<p>x</p>", replace(FRAME, brasao=bad))


def test_refusals(typst_renderer: TypstRenderer, tmp_path: Path) -> None:
    with pytest.raises(RenderError, match="minuta"):
        typst_renderer.pdf_for_signing("<p>x</p>", replace(FRAME, minuta=True))
    with pytest.raises(RenderError, match="QR"):
        typst_renderer.pdf_for_signing("<p>x</p>", replace(FRAME, qr_png=None))
    with pytest.raises(RenderError, match="idioma"):
        typst_renderer.pdf_for_signing("<p>x</p>", FRAME, lang='pt"><x')
    (tmp_path / "sem").mkdir()
    with pytest.raises(ContentPackError, match=PAGE_FILE):
        TypstRenderer(tmp_path / "sem")


def test_each_document_gets_its_own_data_and_qr(
    typst_renderer: TypstRenderer, tmp_path: Path
) -> None:
    """The data and the QR are files the warm compiler re-reads at each document: one
    after another, alternately, each PDF holds its own (nothing stale is reused)."""
    urls = {name: f"https://verifica.example.invalid/verificar?c={name}" for name in "AB"}
    for name in "ABAB":
        frame = replace(FRAME, numero=f"ALV-T nº 000{name}/2026", qr_png=qr_png(urls[name]))
        pdf = typst_renderer.pdf_for_signing(f"<p>Titular {name}.</p>", frame).pdf
        [text] = text_of(pdf)
        other = "B" if name == "A" else "A"
        assert f"Titular {name}." in text and f"Titular {other}." not in text
        assert f"000{name}/2026" in text and f"000{other}/2026" not in text
        assert decoded_qr(pdf, tmp_path) == [urls[name]]


def decoded_qr(pdf: bytes, folder: Path) -> list[str]:
    """The QR codes a reader (zxing-cpp) finds on the first page drawn at 150 dpi by
    poppler's pdftoppm, as a phone camera would see the printed page."""
    (folder / "doc.pdf").write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", "150", "-gray", "-singlefile", "-png", str(folder / "doc.pdf"),
         str(folder / "pagina")],
        capture_output=True, check=True,
    )
    with Image.open(folder / "pagina.png") as page:
        return [code.text for code in zxingcpp.read_barcodes(page)]


def test_draft_has_the_minuta_notice_and_mark_on_every_page(typst_renderer: TypstRenderer) -> None:
    draft = replace(FRAME, minuta=True, numero=None, qr_png=None)
    body = "".join(f"<p>Parágrafo número {n} da minuta longa.</p>" for n in range(90))
    pdf = typst_renderer.pdf(body, draft)
    pages = text_of(pdf)
    assert len(pages) >= 2
    for index, text in enumerate(pages, start=1):
        assert "MINUTA — documento sem valor oficial" in text
        assert text.count("MINUTA") == 2  # the notice and the mark behind the text
        assert text.rstrip().endswith(f"Página {index} de {len(pages)}")
    document = reader(pdf)
    assert "<pdfaid:conformance>A</pdfaid:conformance>" in document.xmp_metadata.rdf_root.toxml()  # type: ignore[union-attr]
    for page in document.pages:  # no QR code, no signature field
        assert "/XObject" not in page["/Resources"] and "/Annots" not in page
    with pytest.raises(RenderError, match="minuta"):
        typst_renderer.pdf("<p>x</p>", FRAME)


def test_engine_drafts_with_typst_list_what_is_pending(pack_dir: Path) -> None:
    engine = Engine(Content(pack_dir), pool=False)
    engine.final_renderer = "typst"
    form = "alvara-transporte-escolar"
    spec = engine.content.form(form)
    assert spec.example is not None
    data = json.loads(spec.example.read_text(encoding="utf-8"))
    del data["veiculo"]
    rendered = engine.draft(form, data, ON, example_values=True)
    assert reader(rendered.pdf).metadata.creator.startswith("Typst")  # type: ignore[union-attr]
    assert rendered.report.pending
    text = " ".join(" ".join(text_of(rendered.pdf)).split())
    assert "Minuta – pendências para a emissão" in text
    for item in rendered.report.pending:
        assert " ".join(item.message.split()) in text
    # The blank signature line starts at the left margin, like the place and date above
    # it, and 15 mm lower, as WeasyPrint lays it out (the p keeps its own alignment inside
    # the centred .assinatura box): the line at x = 85.0 pt, 57.9 pt below in WeasyPrint.
    bbox = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=rendered.pdf,
                          capture_output=True, check=True).stdout.decode()
    words = [  # xMin, yMin, the word, the page; the MINUTA mark (over 20 pt high) left out
        (float(w.group(1)), float(w.group(2)), w.group(4), page)
        for page, text in enumerate(bbox.split("<page ")[1:])
        for w in re.finditer(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<',
            text,
        )
        if float(w.group(3)) - float(w.group(2)) < 20
    ]
    at = next(i for i, w in enumerate(words) if w[2] == "_" * 38)  # not a blank field
    line = words[at]
    place = next(w for w in reversed(words[:at]) if w[2] == "Americana,")  # local e data
    assert line[0] == pytest.approx(place[0], abs=0.5)
    assert line[1] - place[1] == pytest.approx(57.9, abs=1.5)

    # «Minuta – pendências» is as far below the signer's office as «Fundamento legal» is
    # below the line above it: an h2's 5 mm over a paragraph's 3 mm, as in pagina.css
    # (the .pendencias section around it once swallowed them: 5.6 pt too close).
    def gap_above(heading: str, after: int = 0) -> float:
        _, top, _, page = next(w for w in words[after:] if w[2] == heading)
        return top - max(w[1] for w in words if w[3] == page and w[1] < top - 1)

    assert gap_above("Minuta", after=at) == pytest.approx(gap_above("Fundamento"), abs=0.3)


# ------------------------------------------------------------------ configuration, workers


def test_config_key_chooses_the_renderer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LAVRA_CONFIG", raising=False)
    # no key: Typst, where the pack ships its page (issue 24); WeasyPrint, where it does not
    config = load_config(tmp_path)
    assert config.renderer is None and config.issuing_renderer == "typst"
    assert default_renderer(config.pack_dir) == "typst"
    assert default_renderer(tmp_path) == "weasyprint"
    (tmp_path / "lavra.toml").write_text('renderizador = "weasyprint"\n', encoding="utf-8")
    assert load_config(tmp_path).issuing_renderer == "weasyprint"
    (tmp_path / "lavra.toml").write_text('renderizador = "typst"\n', encoding="utf-8")
    assert load_config(tmp_path).issuing_renderer == "typst"
    (tmp_path / "lavra.toml").write_text('renderizador = "latex"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"renderizador.*latex.*weasyprint ou typst"):
        load_config(tmp_path)


def _job(engine: Engine, renderer: str) -> RenderJob:
    form = "alvara-transporte-escolar"
    spec = engine.content.form(form)
    assert spec.example is not None
    data = json.loads(spec.example.read_text(encoding="utf-8"))
    prepared = engine.prepare(form, data, ON, example_values=True, draft=False)
    context = engine._context(prepared, draft=False, number="ALV-ESC nº 0001/2026")
    context["autenticacao"] = {"codigo": "ABCD-EFGH-JKLM", "url": "https://x.invalid/v"}
    frame = engine._frame(prepared.form, draft=False, number="ALV-ESC nº 0001/2026")
    return RenderJob(str(engine.content.root.resolve()), engine.content.version, form, False,
                     context, frame, QR, False, renderer)


def test_the_worker_keeps_typst_warm_and_renders_with_it(pack_dir: Path) -> None:
    engine = Engine(Content(pack_dir), pool=False)
    laid, docx = render_job(_job(engine, "typst"))
    assert docx is None and not isinstance(laid, bytes)
    assert reader(laid.pdf).metadata.creator.startswith("Typst")  # type: ignore[union-attr]
    weasy, _ = render_job(_job(engine, "weasyprint"))
    assert not isinstance(weasy, bytes)
    assert "Typst" not in (reader(weasy.pdf).metadata.creator or "")  # type: ignore[union-attr]


def test_a_wording_typst_cannot_lay_out_falls_back_to_weasyprint(
    pack_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    engine = Engine(Content(pack_dir), pool=False)
    local = DocumentRenderer(engine.content.root, engine.content.laws)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise RenderError("Não foi possível gerar o PDF: teste")

    monkeypatch.setattr(local.typst, "pdf_for_signing", refuse)
    with caplog.at_level(logging.WARNING, logger="lavra.render.task"):
        laid, _ = local.render(_job(engine, "typst"))
    assert not isinstance(laid, bytes)
    assert "Typst" not in (reader(laid.pdf).metadata.creator or "")  # type: ignore[union-attr]
    assert "usado o WeasyPrint" in caplog.text


# ------------------------------------------------------------------ issued and verified


@pytest.mark.parametrize("form", ["alvara-fretamento", "notificacao-pendencias-renovacao"])
def test_issued_with_typst_signs_and_verifies(pack_dir: Path, tmp_path: Path, form: str) -> None:
    engine = Engine(Content(pack_dir), pool=False)
    issuer: Issuer = dev_issuer(engine, tmp_path / "dados")
    issuer.config = replace(issuer.config, renderer="typst")
    engine.final_renderer = "typst"
    try:
        spec = engine.content.form(form)
        assert spec.example is not None
        data = json.loads(spec.example.read_text(encoding="utf-8"))
        result = issuer.issue(form, data, ON, example_values=True, docx=False)
        document = reader(result.pdf)
        assert document.metadata.creator.startswith("Typst")  # type: ignore[union-attr]
        check = issuer.verify(result.pdf)
        assert check.valid, check.problems
        assert check.number == result.record.formatted
        # the visible stamp lies in the reserved box of the last page
        widget = next(
            a.get_object() for a in document.pages[-1]["/Annots"]
            if a.get_object().get("/FT") == "/Sig"
        )
        assert widget["/Rect"][2] - widget["/Rect"][0] == pytest.approx(
            SIGNATURE_BOX_MM[0] * PT_PER_MM, abs=1
        )
        # the autouse fixture of conftest.py runs pdfsig and qpdf on this PDF
    finally:
        issuer.close()


def test_the_renewal_run_issues_with_typst_when_configured(pack_dir: Path, tmp_path: Path) -> None:
    """renderizador = "typst" reaches the batch workers: the renewed alvará, its selo and
    the notice are Typst's and verify; the prefilled requerimento stays a fillable PDF."""
    from batchcases import RUN_DAY, YEAR, envelope, seed, write_jsonl

    from lavra.batch.model import RunRequest
    from lavra.batch.output import CSV_NAME
    from lavra.batch.runner import find_kind, run_batch
    from lavra.issuing import registry_url

    engine = Engine(Content(pack_dir), pool=None)
    issuer: Issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        numbers = seed(issuer, 2)
        issuer.config = replace(issuer.config, renderer="typst")
        engine.final_renderer = "typst"
        pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [envelope(0, numbers[0])])
        kind = "renovacao-transporte-escolar"
        request = RunRequest(kind, {"ano": YEAR}, date.fromisoformat(RUN_DAY), None, pedidos)
        folder = tmp_path / "saida"
        summary = run_batch(issuer, find_kind(issuer, kind), request, folder,
                            database_url=registry_url(issuer.config), workers=1)
        assert summary.complete
        with open(folder / CSV_NAME, encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        forms = {r["formulario"]: r for r in rows if r["papel"] == "documento"}
        assert set(forms) == {"alvara-transporte-escolar", "selo-identificacao",
                              "notificacao-pendencias-renovacao"}
        for row in forms.values():
            pdf = (folder / row["arquivo"]).read_bytes()
            assert reader(pdf).metadata.creator.startswith("Typst")  # type: ignore[union-attr]
            check = issuer.verify(pdf)
            assert check.valid, (row["formulario"], check.problems)
        [anexo] = [r for r in rows if r["papel"] != "documento"]
        assert reader((folder / anexo["arquivo"]).read_bytes()).get_fields()
    finally:
        issuer.close()
