"""PDF/A and DOCX rendering of one wording, read back with pypdf and python-docx."""

from __future__ import annotations

import re
import shutil
import zipfile
from io import BytesIO
from pathlib import Path
from typing import Any

import docx
import pypdf
import pytest
import segno
from lxml import etree
from weasyprint import HTML

from lavra.errors import ContentPackError, RenderError
from lavra.render.pdf import AssetFetcher, PageFrame, Renderer
from lavra.render.templating import make_environment, render_string

HOSTILE = {
    "a": '<img src="file:///etc/passwd">',
    "b": '<link rel="attachment" href="file:///etc/passwd">',
    "c": "{{7*7}}",
    "d": "</w:t></w:r>",
}

BODY = (
    "<h2>Do pedido</h2>"
    "<p>O requerente <strong>João da Silva</strong> solicita a <em>renovação</em> "
    "do alvará do veículo de placa ABC1D23.</p>"
    "<ul><li>Cópia da CNH</li><li>Certificado de vistoria</li></ul>"
    "<table><thead><tr><th>Placa</th><th>Ano</th></tr></thead>"
    "<tbody><tr><td>ABC1D23</td><td>2020</td></tr></tbody></table>"
    "<p class=\"assinatura\">Americana, 29 de novembro de 2026.</p>"
    "<marquee>texto de etiqueta desconhecida</marquee>"
    "<script>segredo()</script>"
)
FRAME = PageFrame(
    municipio="Prefeitura Municipal de Americana",
    orgao="Secretaria de Transportes e Sistema Viário",
    titulo="Requerimento de Renovação",
    numero="REQ nº 123/2026",  # printed with its series, as the registry keeps it
)
DRAFT = PageFrame(**{**FRAME.__dict__, "minuta": True, "numero": None})


@pytest.fixture(scope="module")
def assets(pack_dir: Path) -> Path:
    return pack_dir / "forms" / "_base"


@pytest.fixture(scope="module")
def renderer(assets: Path) -> Renderer:
    return Renderer(assets)


@pytest.fixture()
def own_assets(assets: Path, tmp_path: Path) -> Path:
    """A copy of the assets with a PNG (the brasão) and a symlink pointing outside."""
    target = tmp_path / "base"
    shutil.copytree(assets, target)
    segno.make("brasao").save(str(target / "brasao.png"), scale=4)
    (target / "fora.png").symlink_to("/etc/passwd")
    return target


def pdf_reader(data: bytes) -> pypdf.PdfReader:
    assert data.startswith(b"%PDF-")
    return pypdf.PdfReader(BytesIO(data))


def pdf_text(data: bytes) -> list[str]:
    return [page.extract_text() for page in pdf_reader(data).pages]


def docx_document(data: bytes) -> Any:
    return docx.Document(BytesIO(data))


def docx_body_text(document: Any) -> str:
    """Paragraphs and table cells, in document order."""
    parts: list[str] = []
    for block in document.iter_inner_content():
        if hasattr(block, "rows"):
            parts.extend(cell.text for row in block.rows for cell in row.cells)
        else:
            parts.append(block.text)
    return "\n".join(parts)


def image_xobjects(reader: pypdf.PdfReader) -> int:
    count = 0
    for page in reader.pages:
        resources = page.get("/Resources") or {}
        xobjects = resources.get("/XObject") or {}
        for ref in xobjects.values():
            if ref.get_object().get("/Subtype") == "/Image":
                count += 1
    return count


WORD = re.compile(r"[\wº/.,:-]+")


def words(text: str) -> list[str]:
    """Normalized word sequence: list markers (bullets) and punctuation-only tokens out."""
    return [w for w in WORD.findall(text) if re.search(r"\w", w)]


# ------------------------------------------------------------------------------ PDF


def test_pdf_is_pdfa_with_frame_and_body(renderer: Renderer) -> None:
    data = renderer.pdf(BODY, FRAME)
    reader = pdf_reader(data)
    text = "\n".join(pdf_text(data))
    for expected in (
        "Requerimento de Renovação",
        "João da Silva",
        "Cópia da CNH",
        "ABC1D23",
        "Prefeitura Municipal de Americana",
        "REQ nº 123/2026",
        "Página 1 de 1",
        "texto de etiqueta desconhecida",
    ):
        assert expected in text
    assert "segredo" not in text
    assert "MINUTA" not in text
    xmp = reader.xmp_metadata
    assert xmp is not None
    description = xmp.rdf_root.getElementsByTagNameNS(
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "Description"
    )
    parts = {d.getAttributeNS("http://www.aiim.org/pdfa/ns/id/", "part") for d in description}
    conformance = {
        d.getAttributeNS("http://www.aiim.org/pdfa/ns/id/", "conformance") for d in description
    }
    assert "2" in parts and "B" in conformance
    assert "/OutputIntents" in reader.trailer["/Root"]
    assert reader.metadata is not None and reader.metadata.title == FRAME.titulo


def test_draft_has_minuta_on_every_page_and_counts_pages(renderer: Renderer) -> None:
    long_body = "".join(f"<p>Parágrafo número {n} do documento longo.</p>" for n in range(120))
    pages = pdf_text(renderer.pdf(long_body, DRAFT))
    assert len(pages) >= 2
    for index, text in enumerate(pages, start=1):
        assert f"Página {index} de {len(pages)}" in text
        assert "MINUTA — documento sem valor oficial" in text
        # the big diagonal mark is a separate text object on each page
        assert text.count("MINUTA") >= 2
        assert "Prefeitura Municipal de Americana" in text
    assert "Nº" not in pages[0]


def test_fillable_pdf_has_fields_and_is_not_pdfa(renderer: Renderer) -> None:
    body = (
        '<p>Nome: <input type="text" name="nome" value="Ana"></p>'
        '<p>Declaro: <input type="checkbox" name="declaro"></p>'
        '<p><textarea name="obs"></textarea></p>'
    )
    reader = pdf_reader(renderer.pdf(body, FRAME, fillable=True))
    fields = reader.get_fields() or {}
    assert {"nome", "declaro", "obs"} <= set(fields)
    xmp = reader.xmp_metadata
    assert xmp is None or "pdfaid" not in xmp.rdf_root.toxml()


def test_brasao_image_is_embedded(own_assets: Path) -> None:
    local = Renderer(own_assets)
    frame = PageFrame(**{**FRAME.__dict__, "brasao": "brasao.png"})
    assert image_xobjects(pdf_reader(local.pdf("<p>x</p>", frame))) == 1
    assert image_xobjects(pdf_reader(local.pdf("<p>x</p>", FRAME))) == 0
    with zipfile.ZipFile(BytesIO(local.docx("<p>x</p>", frame))) as package:
        assert any(name.startswith("word/media/") for name in package.namelist())
    for bad in ("../pagina.css", "/etc/passwd", "fora.png", "nao_existe.png"):
        with pytest.raises(RenderError):
            local.pdf("<p>x</p>", PageFrame(**{**FRAME.__dict__, "brasao": bad}))


# ------------------------------------------------------------------------------ DOCX


def test_docx_has_body_header_footer(renderer: Renderer) -> None:
    document = docx_document(renderer.docx(BODY, FRAME))
    body = docx_body_text(document)
    for expected in ("Requerimento de Renovação", "Do pedido", "João da Silva",
                     "Certificado de vistoria", "Placa", "2020",
                     "texto de etiqueta desconhecida"):
        assert expected in body
    assert "segredo" not in body and "{{" not in body
    styles = {p.style.name for p in document.paragraphs}
    assert {"Title", "Heading 2", "List Bullet"} <= styles
    bold = [r.text for p in document.paragraphs for r in p.runs if r.bold]
    assert "João da Silva" in bold
    header = [p.text for p in document.sections[0].header.paragraphs]
    assert header == [FRAME.municipio, FRAME.orgao, "REQ nº 123/2026"]
    footer = document.sections[0].footer
    assert footer.paragraphs[0].text == "Página 1 de 1"
    instructions = footer._element.xpath(".//w:instrText/text()")
    assert [i.strip() for i in instructions] == ["PAGE", "NUMPAGES"]
    assert document.core_properties.title == FRAME.titulo


def test_docx_draft_has_minuta_notice_and_watermark(renderer: Renderer) -> None:
    document = docx_document(renderer.docx(BODY, DRAFT))
    header = document.sections[0].header
    assert "MINUTA — documento sem valor oficial" in [p.text for p in header.paragraphs]
    textpaths = header._element.xpath(
        ".//*[local-name()='textpath' and @string='MINUTA']"
    )
    assert len(textpaths) == 1
    final = docx_document(renderer.docx(BODY, FRAME)).sections[0].header
    assert not final._element.xpath(".//*[local-name()='textpath']")


def test_pdf_and_docx_say_the_same_words(renderer: Renderer) -> None:
    pdf_words = words("\n".join(pdf_text(renderer.pdf(BODY, FRAME))))
    document = docx_document(renderer.docx(BODY, FRAME))
    section = document.sections[0]
    header = words("\n".join(p.text for p in section.header.paragraphs))
    footer = words("\n".join(p.text for p in section.footer.paragraphs))
    body = words(docx_body_text(document))
    # WeasyPrint draws the page (body) first, then the margin boxes: header, footer.
    assert pdf_words == body + header + footer


# ------------------------------------------------------------------------------ hostile


def test_hostile_data_is_shown_literally(renderer: Renderer) -> None:
    env = make_environment([])
    content = render_string(
        env, "<p>A: {{ a }}</p><p>B: {{ b }}</p><p>C: {{ c }}</p><p>D: {{ d }}</p>", HOSTILE
    )
    frame = PageFrame(**{**FRAME.__dict__, "titulo": HOSTILE["d"], "orgao": HOSTILE["a"]})

    data = renderer.pdf(content, frame)
    reader = pdf_reader(data)
    text = "\n".join(pdf_text(data))
    for value in HOSTILE.values():
        assert value in text
    assert "49" not in text
    assert image_xobjects(reader) == 0
    assert not reader.attachments
    assert "/EmbeddedFiles" not in str(reader.trailer["/Root"].get("/Names", {}))
    assert b"root:" not in data

    package = renderer.docx(content, frame)
    with zipfile.ZipFile(BytesIO(package)) as archive:
        for name in archive.namelist():
            if name.endswith(".xml") or name.endswith(".rels"):
                etree.fromstring(archive.read(name))  # raises if not well-formed
        assert not any(n.startswith("word/media/") for n in archive.namelist())
    document = docx_document(package)
    body = docx_body_text(document)
    for key in "abcd":
        assert f"{key.upper()}: {HOSTILE[key]}" in body
    assert document.paragraphs[0].text == HOSTILE["d"]
    assert HOSTILE["a"] in [p.text for p in document.sections[0].header.paragraphs]


def test_fetcher_refuses_everything_outside_the_assets(own_assets: Path) -> None:
    fetcher = AssetFetcher(own_assets)
    inside = (own_assets / "pagina.css").as_uri()
    assert fetcher.resolve(inside) == (own_assets / "pagina.css").resolve()
    refused = [
        "file:///etc/passwd",
        "http://127.0.0.1/",
        "https://example.org/x.png",
        "data:image/png;base64,iVBORw0KGgo=",
        own_assets.as_uri() + "/../base/pagina.css",
        own_assets.as_uri() + "/%2e%2e/base/pagina.css",
        own_assets.as_uri() + "/fora.png",  # symlink to /etc/passwd
        own_assets.as_uri() + "/modelo.docx",  # not a served type
        "file://outro-host" + str(own_assets / "pagina.css"),
        inside + "?x=1",
    ]
    for url in refused:
        with pytest.raises(RenderError):
            fetcher.resolve(url)
        with pytest.raises(RenderError):
            fetcher.fetch(url)


class RecordingFetcher(AssetFetcher):
    def __init__(self, assets_dir: Path) -> None:
        super().__init__(assets_dir)
        self.asked: list[tuple[str, bool]] = []

    def fetch(self, url: str, headers: Any = None) -> Any:
        try:
            response = super().fetch(url, headers)
        except RenderError:
            self.asked.append((url, False))
            raise
        self.asked.append((url, True))
        return response


def test_fetcher_in_weasyprint_skips_raw_html_references(own_assets: Path) -> None:
    fetcher = RecordingFetcher(own_assets)
    raw = (
        '<html><head><link rel="attachment" href="file:///etc/passwd">'
        '<link rel="stylesheet" href="http://127.0.0.1:9/x.css"></head><body>'
        '<img src="file:///etc/passwd"><img src="http://127.0.0.1:9/x.png">'
        '<img src="../../../../../../etc/passwd"><img src="brasao.png">'
        '<p style="background: url(../fora.png)">texto</p></body></html>'
    )
    data = HTML(
        string=raw, base_url=own_assets.as_uri() + "/", url_fetcher=fetcher
    ).write_pdf()
    reader = pdf_reader(data)
    assert image_xobjects(reader) == 1  # only the brasão inside the assets
    assert not reader.attachments
    assert b"root:" not in data
    allowed = [url for url, ok in fetcher.asked if ok]
    denied = [url for url, ok in fetcher.asked if not ok]
    assert allowed == [(own_assets / "brasao.png").resolve().as_uri()]
    assert "file:///etc/passwd" in denied
    assert any(url.startswith("http://127.0.0.1") for url in denied)


def test_renderer_needs_its_base_files(tmp_path: Path) -> None:
    with pytest.raises(ContentPackError):
        Renderer(tmp_path)


def test_bad_language_code_is_refused(renderer: Renderer) -> None:
    with pytest.raises(RenderError):
        renderer.pdf("<p>x</p>", FRAME, lang='pt"><script>')
