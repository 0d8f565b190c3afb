"""(Re)build ``forms/_base/modelo.docx``, the DOCX base every form is rendered into.

Run from the repository root::

    python tools/make_docx_base.py [destination]

The base holds the page (A4, margins like ``pagina.css``), the styles, a header with
the docxtpl variables ``municipio``, ``orgao``, ``numero``, ``brasao`` and ``minuta``,
the title ``titulo``, the body placeholder ``{{p corpo }}`` and a footer
"Página X de Y" made of PAGE / NUMPAGES fields. Legal staff may restyle it in Word
(see ``forms/_base/README.md``) as long as the variables stay.
"""

from __future__ import annotations

import sys
from pathlib import Path

from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from docx.shared import Cm, Pt, RGBColor
from docx.text.paragraph import Paragraph

SERIF = "DejaVu Serif"
SANS = "DejaVu Sans"
BLACK = RGBColor(0, 0, 0)
GREY = RGBColor(0x59, 0x59, 0x59)
RED = RGBColor(0xA0, 0x00, 0x00)

#: Word's own kind of text watermark (a VML WordArt shape anchored in the header, so it
#: repeats on every page), light grey, rotated 315° (diagonal).
WATERMARK_XML = (
    f"<w:r {nsdecls('w')} "
    'xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:o="urn:schemas-microsoft-com:office:office" '
    'xmlns:w10="urn:schemas-microsoft-com:office:word">'
    "<w:pict>"
    '<v:shapetype id="_x0000_t136" coordsize="21600,21600" o:spt="136" adj="10800" '
    'path="m@7,l@8,m@5,21600l@6,21600e">'
    '<v:formulas><v:f eqn="sum #0 0 10800"/><v:f eqn="prod #0 2 1"/>'
    '<v:f eqn="sum 21600 0 @1"/><v:f eqn="sum 0 0 @2"/><v:f eqn="sum 21600 0 @3"/>'
    '<v:f eqn="if @0 @3 0"/><v:f eqn="if @0 21600 @1"/><v:f eqn="if @0 0 @2"/>'
    '<v:f eqn="if @0 @4 21600"/><v:f eqn="mid @5 @6"/><v:f eqn="mid @8 @5"/>'
    '<v:f eqn="mid @7 @8"/><v:f eqn="mid @6 @7"/><v:f eqn="sum @6 0 @5"/></v:formulas>'
    '<v:path textpathok="t" o:connecttype="custom" '
    'o:connectlocs="@9,0;@10,10800;@11,21600;@12,10800" '
    'o:connectangles="270,180,90,0"/>'
    '<v:textpath on="t" fitshape="t"/>'
    '<v:handles><v:h position="#0,bottomRight" xrange="6629,14971"/></v:handles>'
    '<o:lock v:ext="edit" text="t" shapetype="t"/>'
    "</v:shapetype>"
    '<v:shape id="MarcaMinuta" o:spid="_x0000_s1025" type="#_x0000_t136" '
    'style="position:absolute;margin-left:0;margin-top:0;width:468pt;height:117pt;'
    "rotation:315;z-index:-251657216;mso-position-horizontal:center;"
    "mso-position-horizontal-relative:margin;mso-position-vertical:center;"
    'mso-position-vertical-relative:margin" fillcolor="#d9d9d9" stroked="f">'
    '<v:textpath style="font-family:&quot;DejaVu Sans&quot;;font-size:1pt" '
    'string="MINUTA"/>'
    '<w10:wrap anchorx="margin" anchory="margin"/>'
    "</v:shape>"
    "</w:pict>"
    "</w:r>"
)


def _field(paragraph: Paragraph, instruction: str, cached: str) -> None:
    """Append a complex field (``PAGE``, ``NUMPAGES``) showing ``cached`` until Word
    updates it."""
    for xml in (
        f'<w:r {nsdecls("w")}><w:fldChar w:fldCharType="begin"/></w:r>',
        f'<w:r {nsdecls("w")}><w:instrText xml:space="preserve"> {instruction} '
        "</w:instrText></w:r>",
        f'<w:r {nsdecls("w")}><w:fldChar w:fldCharType="separate"/></w:r>',
        f'<w:r {nsdecls("w")}><w:t>{cached}</w:t></w:r>',
        f'<w:r {nsdecls("w")}><w:fldChar w:fldCharType="end"/></w:r>',
    ):
        paragraph._p.append(parse_xml(xml))


def _styles(document: Document) -> None:
    styles = document.styles
    normal = styles["Normal"]
    normal.font.name = SERIF
    normal.font.size = Pt(11)
    normal.paragraph_format.space_after = Pt(6)
    normal.paragraph_format.line_spacing = 1.15
    for name, size in (("Heading 1", 14), ("Heading 2", 12), ("Heading 3", 11)):
        style = styles[name]
        style.font.name = SANS
        style.font.size = Pt(size)
        style.font.bold = True
        style.font.italic = False
        style.font.color.rgb = BLACK
        style.paragraph_format.space_before = Pt(12)
        style.paragraph_format.space_after = Pt(6)
    title = styles["Title"]
    title.font.name = SANS
    title.font.size = Pt(15)
    title.font.bold = True
    title.font.color.rgb = BLACK
    title.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.CENTER
    title.paragraph_format.space_after = Pt(18)
    # Title in python-docx's default template has a bottom border; drop it.
    ppr = title.element.pPr
    if ppr is not None:
        for border in ppr.findall(
            "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}pBdr"
        ):
            ppr.remove(border)
    for name in ("List Bullet", "List Bullet 2", "List Bullet 3", "List Number",
                 "List Number 2", "List Number 3"):
        styles[name].font.name = SERIF
    if "Cabecalho" not in [s.name for s in styles]:
        header = styles.add_style("Cabecalho", WD_STYLE_TYPE.PARAGRAPH)
        header.base_style = styles["Normal"]
        header.font.name = SANS
        header.font.size = Pt(10)
        header.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.CENTER
        header.paragraph_format.space_after = Pt(0)


def _line(container: object, text: str, *, style: str | None = None,
          bold: bool = False, size: float | None = None,
          color: RGBColor | None = None) -> Paragraph:
    paragraph: Paragraph = container.add_paragraph(style=style)  # type: ignore[attr-defined]
    if text:
        run = paragraph.add_run(text)
        run.bold = bold or None
        if size is not None:
            run.font.size = Pt(size)
        if color is not None:
            run.font.color.rgb = color
    return paragraph


def build(destination: Path) -> None:
    document = Document()
    _styles(document)
    section = document.sections[0]
    section.page_width, section.page_height = Cm(21), Cm(29.7)
    section.top_margin, section.bottom_margin = Cm(2.5), Cm(2.5)
    section.left_margin, section.right_margin = Cm(3), Cm(2)
    section.header_distance, section.footer_distance = Cm(1.0), Cm(1.0)

    header = section.header
    header.is_linked_to_previous = False
    first = header.paragraphs[0]
    first.style = document.styles["Cabecalho"]
    first.add_run("{%p if brasao %}")
    _line(header, "{{ brasao }}", style="Cabecalho")
    _line(header, "{%p endif %}", style="Cabecalho")
    _line(header, "{{ municipio }}", style="Cabecalho", bold=True, size=12)
    _line(header, "{{ orgao }}", style="Cabecalho")
    _line(header, "{%p if numero %}", style="Cabecalho")
    _line(header, "{{ numero }}", style="Cabecalho", bold=True)
    _line(header, "{%p endif %}", style="Cabecalho")
    _line(header, "{%p if minuta %}", style="Cabecalho")
    mark = _line(header, "", style="Cabecalho")
    mark._p.append(parse_xml(WATERMARK_XML))
    run = mark.add_run("MINUTA — documento sem valor oficial")
    run.bold = True
    run.font.size = Pt(12)
    run.font.color.rgb = RED
    _line(header, "{%p endif %}", style="Cabecalho")

    footer = section.footer
    footer.is_linked_to_previous = False
    page = footer.paragraphs[0]
    page.style = document.styles["Cabecalho"]
    page.add_run("Página ")
    _field(page, "PAGE", "1")
    page.add_run(" de ")
    _field(page, "NUMPAGES", "1")
    for run in page.runs:
        run.font.size = Pt(9)
        run.font.color.rgb = GREY

    _line(document, "{{ titulo }}", style="Title")
    # Replaced as a whole by the body (a docxtpl subdoc) at render time.
    _line(document, "{{p corpo }}")

    core = document.core_properties
    core.author = "lavra"
    core.title = ""
    core.comments = "Modelo-base DOCX gerado por tools/make_docx_base.py"
    destination.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(destination))


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parent.parent
    destination = Path(argv[1]) if len(argv) > 1 else root / "forms" / "_base" / "modelo.docx"
    build(destination)
    print(f"Modelo gravado em {destination}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
