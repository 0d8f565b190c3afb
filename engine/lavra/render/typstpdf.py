"""Issued documents laid out by Typst: the same wording, about ten times faster than WeasyPrint.

The wording is the restricted HTML of :mod:`lavra.render.htmlblocks`. It is never turned
into Typst markup: :func:`document_tree` reads the sanitized tree into plain data
(blocks holding runs of text with their bold/italic flags), and that data travels to a
fixed Typst program as a JSON file of its root. The program builds the content from
the data with ``text(...)``, so no user string is ever parsed by Typst: ``#``, ``[``,
``$``, ``*``, ``@``, ``<`` or a backslash in a name print as themselves.

The page (fonts, margins, header, footer, the look of each class a wording uses) is the
content pack's, in ``pagina.typ`` beside ``pagina.css`` in the assets dir; the engine's
program imports from it ``moldura`` (page set-up around the body), ``titulo`` (the
document's title) and ``bloco`` (a paragraph or a box with the wording's classes).

Output: PDF/A-2a (tagged), the document language and title in the catalog and the XMP,
the fonts of the assets dir only (no system font), embedded. Issued documents
(:meth:`TypstRenderer.pdf_for_signing`: the QR code and the reserved signature box) and
drafts (:meth:`TypstRenderer.pdf`: the MINUTA notice and mark) use this renderer, and so
do staff reports, which are no act (:meth:`TypstRenderer.report`: a batch run's summary,
whatever renders the documents); the DOCX and the fillable requerimentos (AcroForm
fields) keep WeasyPrint and python-docx.

One :class:`TypstRenderer` per process: it keeps one warm ``typst.Compiler`` (fonts
parsed once, layout memoized between documents) and is not meant for threads.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import weakref
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from lxml import etree  # type: ignore[import-untyped, unused-ignore]

from lavra.errors import ContentPackError, RenderError
from lavra.render.assets import AssetPaths
from lavra.render.htmlblocks import _field_text, _rows, _span, collapse_space, sanitize_tree
from lavra.render.pdf import (
    _LANG,
    SIGNATURE_ANCHOR,
    SIGNATURE_BOX_MM,
    LaidOutPdf,
    PageFrame,
)
from lavra.render.typstwidths import ESTIMATED_WIDTHS, TextWidths, column_weights

__all__ = ["PAGE_FILE", "PDF_STANDARD", "TypstRenderer", "document_tree"]

#: The pack's page for Typst, in the assets dir (beside pagina.css).
PAGE_FILE = "pagina.typ"
#: Tagged PDF/A-2 (level A: the structure tree, the language, the alt texts).
PDF_STANDARD: Final = "a-2a"

#: A token with a hyphen: the line may break after it. Typst repeats the hyphen at the
#: start of the next line in Portuguese (Acordo Ortográfico, Base XX), right for words
#: ("para-/-brisa"), wrong for codes: a verification code, number or plate must read
#: back from the text as printed. Those (no lowercase letter, or a digit) never break,
#: nor does an address ("://"), which Typst would break after any dot.
_HYPHENATED = re.compile(r"[^ ]*(?:-|://)[^ ]*")

_HEADINGS = {"h1": 1, "h2": 2, "h3": 3}
_BLOCKS = frozenset({"h1", "h2", "h3", "p", "ul", "ol", "li", "table", "div", "section"})
_MAIN = "documento.typ"
#: What changes between documents, written in the root before each compile: the data
#: (JSON) and the QR code (PNG). Typst re-reads every file it uses at each compile and
#: keeps what it made of one whose bytes did not change (a content fingerprint, not a
#: date), so a new document re-lays out only what differs from the last ones. Passing
#: the data as ``sys.inputs`` instead would rebuild Typst's standard library at every
#: compile and throw away everything memoized (the page, the paragraphs that did not
#: change): three times the time.
_DATA = "dados.json"
#: An empty page, compiled to age out what Typst memoized (:meth:`TypstRenderer.forget`).
_EMPTY = "vazio.typ"
#: typst-py drops, after every compile, what the process's last ten compiles did not
#: use (comemo's ``evict(10)``), and has no call to drop it sooner.
_MEMO_AGE: Final = 10
_QR = "qr.png"

# The engine's program: the data come as JSON in a file of the root; every text is
# shown by text(...) from a string, never evaluated as markup.
_PROGRAM = r"""
#import "pagina.typ": moldura, titulo, bloco
#let d = json("/@DADOS@")
#set document(title: d.titulo)
#set text(lang: d.lingua, region: d.regiao)

#let corrida(r) = if r.at("br", default: false) { linebreak() } else {
  let c = text(r.x)
  if r.at("b", default: false) { c = strong(c) }
  if r.at("i", default: false) { c = emph(c) }
  if r.at("u", default: false) { box(c) } else { c }
}
#let linha(rs) = rs.map(corrida).join()

#let blocos(bs) = for b in bs {
  if b.at("s", default: false) {
    block(sticky: true, width: 100%, blocos((b + (s: false),)))
    continue
  }
  let t = b.t
  if t == "texto" { linha(b.r) }
  else if t == "h" { heading(level: b.n, outlined: false, linha(b.r)) }
  else if t == "p" { bloco("p", b.k, linha(b.r)) }
  else if t == "div" { bloco("div", b.k, blocos(b.b)) }
  else if t == "lista" {
    let itens = b.itens.map(i => blocos(i))
    if b.o { enum(..itens) } else { list(..itens) }
  }
  else if t == "tabela" {
    // b.w: the columns' relative widths; none when their longest words do not fit on
    // the line side by side, then Typst's own sizing (auto columns, the last one 1fr).
    let colunas = if b.w != none { b.w.map(x => x * 1fr) } else if b.n > 1 {
      (auto,) * (b.n - 1) + (1fr,)
    } else { (1fr,) }
    table(columns: colunas, ..b.c.map(c => {
      let corpo = blocos(c.b)
      table.cell(colspan: c.s, if c.th { strong(corpo) } else { corpo })
    }))
  }
}

// The page's set rules are in the style of every paragraph: what they hold must be
// the same from one document to the next, or nothing memoized is reused. The
// document's number is read when the header is laid out, not given as a value.
#let quadro = d.quadro
#if quadro.numero != none {
  quadro.numero = context json("/@DADOS@").quadro.numero
}
#show: moldura.with(quadro)
#titulo(d.titulo)
#blocos(d.corpo)
#if d.reserva != none { block(breakable: false, above: 6mm, {
  box(image("/@QR@", width: 24mm, height: 24mm, alt: "Código QR de verificação"))
  h(4mm)
  box(width: d.reserva.at(0) * 1mm, height: d.reserva.at(1) * 1mm, context [
    #metadata((pos: here().position(), altura: page.height)) <RESERVA>
  ])
}) }
""".replace("RESERVA", SIGNATURE_ANCHOR).replace("@DADOS@", _DATA).replace("@QR@", _QR)

_PT_PER_MM = 72 / 25.4


# --------------------------------------------------------------------------- the data


@dataclass
class _Runs:
    """The inline content of one block: runs of text, whitespace collapsed as HTML does."""

    runs: list[dict[str, Any]] = field(default_factory=list)
    space_before: bool = True

    def text(self, text: str | None, bold: bool, italic: bool) -> None:
        if not text:
            return
        text = collapse_space(text, self.space_before)
        if not text:
            return
        last = self.runs[-1] if self.runs else None
        if last is not None and "x" in last and last["b"] == bold and last["i"] == italic:
            last["x"] += text
        else:
            self.runs.append({"x": text, "b": bold, "i": italic})
        self.space_before = text.endswith(" ")

    def line_break(self) -> None:
        self.strip_end()
        self.runs.append({"br": True})
        self.space_before = True

    def strip_end(self) -> None:
        if self.runs and "x" in self.runs[-1]:
            self.runs[-1]["x"] = self.runs[-1]["x"].rstrip(" ")
            if not self.runs[-1]["x"]:
                self.runs.pop()

    def take(self) -> list[dict[str, Any]]:
        self.strip_end()
        runs, self.runs, self.space_before = self.runs, [], True
        return [piece for run in runs for piece in _unbreakable_codes(run)]


def _is_code(token: str) -> bool:
    return (
        "://" in token
        or any(c.isdigit() for c in token)
        or not any(c.islower() for c in token)
    )


def _unbreakable_codes(run: dict[str, Any]) -> list[dict[str, Any]]:
    """``run`` split so that each code with a hyphen is a run of its own, marked "u"."""
    text = run.get("x")
    if not text or ("-" not in text and "://" not in text):
        return [run]
    pieces: list[dict[str, Any]] = []
    start = 0
    for match in _HYPHENATED.finditer(text):
        if not _is_code(match.group()):
            continue
        if match.start() > start:
            pieces.append({**run, "x": text[start : match.start()]})
        pieces.append({**run, "x": match.group(), "u": True})
        start = match.end()
    if start < len(text):
        pieces.append({**run, "x": text[start:]})
    return pieces


def _classes(element: etree._Element) -> list[str]:
    return (element.get("class") or "").split()


class _TreeWriter:
    """The sanitized tree as JSON-ready blocks (see the Typst program above)."""

    def __init__(self, widths: TextWidths) -> None:
        self.widths = widths

    def flow(self, element: etree._Element, bold: bool = False) -> list[dict[str, Any]]:
        """The blocks inside ``element``: loose inline content becomes a "texto" block."""
        blocks: list[dict[str, Any]] = []
        pending = _Runs()

        def flush() -> None:
            runs = pending.take()
            if runs:
                blocks.append({"t": "texto", "r": runs})

        pending.text(element.text, bold, False)
        for child in element:
            if str(child.tag) in _BLOCKS:
                flush()
                blocks.extend(self.block(child, bold))
            else:
                self.inline(child, pending, bold, False)
            pending.text(child.tail, bold, False)
        flush()
        return blocks

    def inline(self, element: etree._Element, runs: _Runs, bold: bool, italic: bool) -> None:
        tag = str(element.tag)
        if tag == "br":
            runs.line_break()
            return
        if tag in {"input", "textarea", "select"}:
            runs.text(f" {_field_text(element)} ", bold, italic)
            return
        if tag == "option":
            return
        if tag in {"strong", "b", "th"}:
            bold = True
        elif tag in {"em", "i"}:
            italic = True
        runs.text(element.text, bold, italic)
        for child in element:
            if str(child.tag) in _BLOCKS:  # a block inside an inline tag: its text, inline
                self.inline_all(child, runs, bold, italic)
            else:
                self.inline(child, runs, bold, italic)
            runs.text(child.tail, bold, italic)

    def inline_all(self, element: etree._Element, runs: _Runs, bold: bool, italic: bool) -> None:
        runs.text(" ", bold, italic)
        self.inline(element, runs, bold, italic)
        runs.text(" ", bold, italic)

    def paragraph(self, element: etree._Element, bold: bool) -> list[dict[str, Any]]:
        runs = _Runs()
        runs.text(element.text, bold, False)
        for child in element:
            if str(child.tag) in _BLOCKS:
                self.inline_all(child, runs, bold, False)
            else:
                self.inline(child, runs, bold, False)
            runs.text(child.tail, bold, False)
        return runs.take()

    def block(self, element: etree._Element, bold: bool) -> list[dict[str, Any]]:
        tag = str(element.tag)
        if tag in _HEADINGS:
            runs = self.paragraph(element, bold)
            return [{"t": "h", "n": _HEADINGS[tag], "r": runs}] if runs else []
        if tag == "p":
            runs = self.paragraph(element, bold)
            return [{"t": "p", "k": _classes(element), "r": runs}] if runs else []
        if tag in {"ul", "ol"}:
            items = [self.flow(item, bold) for item in element if isinstance(item.tag, str)]
            if not items:
                return []
            return [{"t": "lista", "o": tag == "ol", "k": _classes(element), "itens": items}]
        if tag == "table":
            return self.table(element, bold)
        # div, section; a li met outside a list is a box of its own
        return [{"t": "div", "k": _classes(element), "b": self.flow(element, bold)}]

    def table(self, element: etree._Element, bold: bool) -> list[dict[str, Any]]:
        rows = list(_rows(element))
        columns = max((sum(_span(cell) for cell in row) for row in rows), default=0)
        if columns == 0:
            return []
        cells: list[dict[str, Any]] = []
        for row in rows:
            used = 0
            for cell in row:
                span = min(_span(cell), columns - used)
                if span <= 0:
                    break
                used += span
                header = cell.tag == "th"
                cells.append(
                    {"s": span, "th": header, "b": self.flow(cell, bold or header)}
                )
            if used < columns:  # a short row: empty cells, as a browser draws them
                cells.append({"s": columns - used, "th": False, "b": []})
        weights = column_weights(rows, columns, self.widths)
        return [{"t": "tabela", "n": columns, "w": weights, "c": cells}]


#: The body's font family in pagina.typ, whose widths size the tables' columns.
_SERIF = re.compile(r'^#let serifa = "([^"\\]+)"', re.MULTILINE)


def document_tree(
    content_html: str, widths: TextWidths = ESTIMATED_WIDTHS
) -> list[dict[str, Any]]:
    """The sanitized wording of ``content_html`` as plain data for the Typst program
    (``widths``: the body font's, to size the tables' columns)."""
    return _TreeWriter(widths).flow(sanitize_tree(content_html))


#: The class of the paragraph that opens a document's closing (place and date).
CLOSING_CLASS = "local-data"


def _closing_kept(blocks: list[dict[str, Any]], frame: PageFrame) -> list[dict[str, Any]]:
    """The blocks of an issued document with its closing kept with its text: the block
    before the place and date, and every block from it on, stick to the next one (a
    page break never falls between them), so that the QR code and the signature never
    stand alone on a last page (the pack's CSS asks WeasyPrint the same)."""
    if frame.minuta:
        return blocks
    starts = [i for i, b in enumerate(blocks) if CLOSING_CLASS in b.get("k", ())]
    if not starts:
        return blocks
    first = max(starts[-1] - 1, 0)
    return [{**b, "s": True} if i >= first else b for i, b in enumerate(blocks)]


# --------------------------------------------------------------------------- rendering


class TypstRenderer:
    """Lays out issued documents with Typst, with the page of ``assets_dir/pagina.typ``.

    Typst reads files only under its root: a private folder of this process holding the
    engine's program, the pack's page and the images the frames name (copied from the
    assets dir after :class:`AssetPaths`'s checks), so nothing else is reachable.
    """

    def __init__(self, assets_dir: Path) -> None:
        import typst

        self.assets_dir = assets_dir.resolve(strict=True)
        page = self.assets_dir / PAGE_FILE
        if not page.is_file():
            raise ContentPackError(
                f"O pacote não traz a página do gerador Typst ({PAGE_FILE} em {assets_dir}): "
                "use o gerador «weasyprint»."
            )
        self.fetcher = AssetPaths(self.assets_dir)
        self._root = Path(tempfile.mkdtemp(prefix="lavra-typst-"))
        # Removed with the renderer (an engine made per web run drops its own), or at exit.
        weakref.finalize(self, shutil.rmtree, self._root, True)
        shutil.copyfile(page, self._root / PAGE_FILE)
        family = _SERIF.search(page.read_text(encoding="utf-8"))
        self.widths = (
            TextWidths.of_fonts(self.assets_dir, family.group(1)) if family else ESTIMATED_WIDTHS
        )
        (self._root / _MAIN).write_text(_PROGRAM, encoding="utf-8")
        self._images: dict[str, str] = {}
        self._empty: Any = None
        self._compiler = typst.Compiler(
            str(self._root / _MAIN),
            root=str(self._root),
            font_paths=[str(self.assets_dir)],
            ignore_system_fonts=True,
        )

    def _image(self, name: str) -> str:
        """The root path of the image ``name`` of the assets dir, copied on first use."""
        found = self._images.get(name)
        if found is None:
            source = self.fetcher.resolve_name(name)
            found = f"imagens/{len(self._images)}{source.suffix.lower()}"
            (self._root / "imagens").mkdir(exist_ok=True)
            shutil.copyfile(source, self._root / found)
            self._images[name] = found
        return "/" + found

    def data(self, content_html: str, frame: PageFrame, *, lang: str = "pt-BR") -> dict[str, Any]:
        """What the Typst program receives for this document (the QR goes beside it):
        an issued document ends with its QR code and the reserved signature box, a
        draft (``frame.minuta``) has neither, and the MINUTA mark on every page."""
        if not _LANG.match(lang):
            raise RenderError(f'Código de idioma inválido: "{lang[:40]}".')
        language, _, region = lang.partition("-")
        return {
            "titulo": frame.titulo,
            "lingua": language.lower(),
            "regiao": region.upper() or None,
            "quadro": {
                "municipio": frame.municipio,
                "orgao": frame.orgao,
                "numero": frame.numero,
                "brasao": self._image(frame.brasao) if frame.brasao else None,
                "minuta": frame.minuta,
            },
            "corpo": _closing_kept(document_tree(content_html, self.widths), frame),
            "reserva": None if frame.minuta else list(SIGNATURE_BOX_MM),
        }

    def _compile(self, data: dict[str, Any], qr_png: bytes | None) -> tuple[bytes, list[Any]]:
        """The PDF of ``data`` and what the program put under the signature anchor
        (nothing for a draft, which has no anchor: then no query)."""
        _overwrite(self._root / _DATA, json.dumps(data, ensure_ascii=False).encode())
        if qr_png is not None:
            _overwrite(self._root / _QR, qr_png)
        try:
            result = self._compiler.compile(
                format="pdf",
                pdf_standards=[PDF_STANDARD],
                timestamp=int(datetime.now(UTC).timestamp()),
            )
            # The same world, compiled again: every step is memoized, only the
            # introspection runs (well under a millisecond).
            found = [] if qr_png is None else json.loads(
                self._compiler.query(f"<{SIGNATURE_ANCHOR}>", field="value", format="json")
            )
        except RuntimeError as exc:  # typst.TypstError, or a query's plain RuntimeError
            raise RenderError(f"Não foi possível gerar o PDF: {_message(exc)}") from exc
        if not isinstance(result, bytes) or not isinstance(found, list):
            raise RenderError("Não foi possível gerar o PDF: o gerador não devolveu dados.")
        return result, found

    def pdf_for_signing(
        self, content_html: str, frame: PageFrame, *, lang: str = "pt-BR"
    ) -> LaidOutPdf:
        """The PDF/A-2a of an issued document and the place of its reserved signature box
        (PDF points, origin bottom-left, as :meth:`lavra.render.pdf.Renderer.pdf_for_signing`)."""
        if frame.minuta:
            raise RenderError("Uma minuta não se assina: não tem código QR nem assinatura.")
        if frame.qr_png is None:
            raise RenderError("Documento a assinar sem código QR de verificação.")
        result, found = self._compile(self.data(content_html, frame, lang=lang), frame.qr_png)
        if len(found) != 1:
            raise RenderError("Não foi possível reservar o espaço da assinatura.")
        where = found[0]["pos"]
        height = _points(found[0]["altura"])
        x1, top = _points(where["x"]), height - _points(where["y"])
        width_mm, height_mm = SIGNATURE_BOX_MM
        box = (x1, top - height_mm * _PT_PER_MM, x1 + width_mm * _PT_PER_MM, top)
        return LaidOutPdf(result, int(where["page"]) - 1, box)

    def pdf(self, content_html: str, frame: PageFrame, *, lang: str = "pt-BR") -> bytes:
        """The PDF/A-2a of a draft: the MINUTA notice in the header and the mark on
        every page, as :meth:`lavra.render.pdf.Renderer.pdf` draws them."""
        if not frame.minuta:
            raise RenderError("Só a minuta é gerada sem código QR e sem assinatura.")
        return self._compile(self.data(content_html, frame, lang=lang), None)[0]

    def forget(self) -> None:
        """Let go what Typst memoized laying out the last documents. A one-off report
        (a run's summary: some 16 MiB for 200 rows) would otherwise stay in the memory
        of a long-lived process, the web server, until ten more compiles: typst-py evicts
        only at the end of a compile (:data:`_MEMO_AGE`), so ten compiles of an empty
        page (a few milliseconds in all) age it out."""
        import typst

        if self._empty is None:
            (self._root / _EMPTY).write_text("", encoding="utf-8")
            self._empty = typst.Compiler(
                str(self._root / _EMPTY), root=str(self._root), ignore_system_fonts=True
            )
        for _ in range(_MEMO_AGE):
            self._empty.compile(format="pdf")

    def report(self, content_html: str, frame: PageFrame, *, lang: str = "pt-BR") -> bytes:
        """The PDF/A-2a of a staff report that is no act (a batch run's summary): the
        page frame (header, footer) around the body, with no number, QR code, signature
        box or MINUTA mark, as :meth:`lavra.render.pdf.Renderer.pdf` draws such a frame."""
        if frame.minuta or frame.numero or frame.qr_png is not None:
            raise RenderError("Um relatório não tem número, código QR, assinatura nem minuta.")
        data = self.data(content_html, frame, lang=lang)
        data["reserva"] = None
        return self._compile(data, None)[0]


def _overwrite(path: Path, data: bytes) -> None:
    """``path`` holding ``data``: written over its old bytes in place, then cut to length.
    Truncating first (``write_bytes``) makes a disk file system (ext4) free and allocate
    the blocks again at every document, ten times the CPU. Typst reads the file only
    while it compiles, in this thread: it never sees one half written."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        left = memoryview(data)
        while left:
            left = left[os.write(fd, left):]
        os.ftruncate(fd, len(data))
    finally:
        os.close(fd)


def _points(length: str) -> float:
    if not length.endswith("pt"):
        raise RenderError("Não foi possível reservar o espaço da assinatura.")
    return float(length[:-2])


def _message(error: Exception) -> str:
    return str(getattr(error, "message", "") or error).splitlines()[0][:300]
