"""The restricted HTML of a form's wording: sanitizing it, and turning it into DOCX blocks.

A form's template produces a small subset of HTML (see :data:`ALLOWED_TAGS`). Before it
reaches WeasyPrint or Word it passes through :func:`sanitize`, which keeps the allowed
tags with a few safe attributes, drops dangerous elements together with their content
(``script``, ``style``, ``img``, ``link``, ``svg``, ...) and unwraps every other tag,
keeping its text. The PDF is made from the sanitized HTML; :func:`write_docx` writes the
same tree as python-docx paragraphs and tables, so every text goes through the XML
library and is escaped by it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_BREAK
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml import etree  # type: ignore[import-untyped, unused-ignore]

from lavra.errors import RenderError

__all__ = [
    "ALLOWED_TAGS", "BLANK_FIELD", "collapse_space", "sanitize", "sanitize_tree", "write_docx"
]

#: Tags a wording may use; anything else is unwrapped (its text kept).
ALLOWED_TAGS = frozenset(
    {
        "h1", "h2", "h3", "p", "strong", "b", "em", "i", "br", "ul", "ol", "li",
        "table", "thead", "tbody", "tfoot", "tr", "th", "td", "div", "span", "section",
        "input", "textarea", "select", "option",
    }
)
#: Tags removed together with everything inside them.
DROPPED_TAGS = frozenset(
    {
        "script", "style", "template", "noscript", "head", "title", "meta", "link",
        "base", "img", "picture", "source", "iframe", "frame", "frameset", "object",
        "embed", "applet", "svg", "math", "audio", "video", "track", "canvas", "map",
        "area", "form", "button",
    }
)
_ATTRIBUTES: dict[str, frozenset[str]] = {
    "input": frozenset({"type", "name", "value", "checked", "maxlength", "size"}),
    "textarea": frozenset({"name", "rows", "cols"}),
    "select": frozenset({"name"}),
    "option": frozenset({"value", "selected"}),
    "td": frozenset({"colspan", "rowspan"}),
    "th": frozenset({"colspan", "rowspan"}),
}
#: The same, in the order they are copied (sorted once, not for every element).
_ATTRIBUTE_ORDER: dict[str, tuple[str, ...]] = {
    tag: tuple(sorted(names)) for tag, names in _ATTRIBUTES.items()
}
_INPUT_TYPES = frozenset({"text", "checkbox", "radio", "date", "number", "email", "tel"})
_CLASS_TOKEN = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,40}$")
_NUMBER = re.compile(r"^[0-9]{1,3}$")
_SPACE = re.compile(r"[ \t\n\r\f]+")
#: libxml2's HTML parser as lxml.html sets it up, less lxml.html's element classes: the
#: same tree, without a Python class lookup for every element the walk meets.
_PARSER = etree.HTMLParser()
#: A text that is a whole page already (lxml.html's test): it is not wrapped in one.
_FULL_HTML = re.compile(r"^\s*<(?:html|!doctype)", re.IGNORECASE)

#: How an empty fillable field looks in the DOCX.
BLANK_FIELD = "________"

_BLOCK_TAGS = frozenset({"h1", "h2", "h3", "p", "ul", "ol", "li", "table", "div", "section"})
_HEADING_STYLES = {"h1": "Heading 1", "h2": "Heading 2", "h3": "Heading 3"}
_ALIGNMENT_CLASSES = {
    "centro": WD_ALIGN_PARAGRAPH.CENTER,
    "assinatura": WD_ALIGN_PARAGRAPH.CENTER,
    "direita": WD_ALIGN_PARAGRAPH.RIGHT,
    "justificado": WD_ALIGN_PARAGRAPH.JUSTIFY,
}


# --------------------------------------------------------------------------- sanitizing


def collapse_space(text: str, after_space: bool) -> str:
    """``text`` with its whitespace runs as one space, as HTML lays it out; without its
    leading space when what came before ends with one (``after_space``)."""
    text = _SPACE.sub(" ", text)
    return text.lstrip(" ") if after_space else text


def _append_text(parent: etree._Element, text: str | None) -> None:
    if not text:
        return
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def _safe_attributes(tag: str, source: etree._Element) -> dict[str, str]:
    kept: dict[str, str] = {}
    names = _ATTRIBUTE_ORDER.get(tag, ())
    given = source.get("class")
    if given:
        classes = [c for c in given.split() if _CLASS_TOKEN.match(c)]
        if classes:
            kept["class"] = " ".join(classes)
    for name in names:
        value = source.get(name)
        if value is None:
            continue
        if name in {"colspan", "rowspan", "rows", "cols", "maxlength", "size"}:
            if not _NUMBER.match(value.strip()):
                continue
            value = value.strip()
        if name == "type":
            value = value.strip().lower()
            if value not in _INPUT_TYPES:
                value = "text"
        kept[name] = value
    return kept


def _copy_children(source: etree._Element, target: etree._Element) -> None:
    _append_text(target, source.text)
    for child in source:
        _copy_child(child, target)


def _copy_child(child: etree._Element, target: etree._Element) -> None:
    tag = child.tag if isinstance(child.tag, str) else None  # comments, PIs
    if tag is not None:
        tag = tag.lower()
        if tag in ALLOWED_TAGS:
            new = etree.SubElement(target, tag, _safe_attributes(tag, child))
            _copy_children(child, new)
        elif tag not in DROPPED_TAGS:
            _copy_children(child, target)  # unknown tag: keep its text
    _append_text(target, child.tail)


def sanitize_tree(content_html: str) -> etree._Element:
    """Parse ``content_html`` and return a ``<div class="corpo">`` holding only allowed
    tags and attributes."""
    root = etree.Element("div", {"class": "corpo"})
    if not content_html.strip():
        return root
    body = _parse_body(content_html)
    if body.text and body.text.strip():  # as lxml.html's fragment: blank lead text goes
        _append_text(root, body.text)
    for child in body:
        _copy_child(child, root)
    return root


def _parse_body(content_html: str) -> etree._Element:
    """The ``body`` of ``content_html`` parsed as a page, as
    ``lxml.html.fragment_fromstring`` reads a fragment (without its element classes)."""
    if not _FULL_HTML.match(content_html):
        content_html = f"<html><body>{content_html}</body></html>"
    try:
        document = etree.fromstring(content_html, _PARSER)
    except (etree.ParserError, ValueError) as exc:
        raise RenderError("O texto do documento não é um HTML legível.") from exc
    bodies = [] if document is None else [e for e in document if e.tag == "body"]
    if len(bodies) != 1:
        raise RenderError("O texto do documento não é um HTML legível.")
    return bodies[0]


def sanitize(content_html: str) -> str:
    """The restricted HTML of ``content_html``, serialized (text escaped by lxml)."""
    return str(etree.tostring(sanitize_tree(content_html), method="html", encoding="unicode"))


# --------------------------------------------------------------------------- DOCX


@dataclass(frozen=True)
class _Format:
    bold: bool = False
    italic: bool = False


@dataclass
class _Flow:
    """Where text currently goes: a container (document, subdoc or cell) and the open
    paragraph in it."""

    container: Any
    style: str | None = None
    alignment: Any = None
    paragraph: Paragraph | None = None
    reusable: Paragraph | None = None  # the empty paragraph a new table cell starts with
    space_before: bool = True  # whether the text written so far ends with a space


def _alignment_of(element: etree._Element, inherited: Any) -> Any:
    for name in (element.get("class") or "").split():
        if name in _ALIGNMENT_CLASSES:
            return _ALIGNMENT_CLASSES[name]
    return inherited


class _DocxWriter:
    def __init__(self) -> None:
        self.list_depth = 0

    # ---- text

    def _open(self, flow: _Flow) -> Paragraph:
        if flow.paragraph is None:
            if flow.reusable is not None:
                flow.paragraph, flow.reusable = flow.reusable, None
                if flow.style:
                    flow.paragraph.style = flow.style
            else:
                flow.paragraph = flow.container.add_paragraph(style=flow.style)
            if flow.alignment is not None:
                flow.paragraph.alignment = flow.alignment
            flow.space_before = True
        return flow.paragraph

    def _text(self, flow: _Flow, text: str | None, fmt: _Format) -> None:
        if not text:
            return
        text = collapse_space(text, flow.space_before)
        if not text:
            return
        paragraph = self._open(flow)
        run = paragraph.add_run(text)
        if fmt.bold:
            run.bold = True
        if fmt.italic:
            run.italic = True
        flow.space_before = text.endswith(" ")

    def _close(self, flow: _Flow) -> None:
        paragraph = flow.paragraph
        if paragraph is not None and paragraph.runs:
            last = paragraph.runs[-1]
            if last.text.endswith(" "):
                last.text = last.text.rstrip(" ")
        flow.paragraph = None
        flow.space_before = True

    # ---- walking

    def inline(self, element: etree._Element, flow: _Flow, fmt: _Format) -> None:
        """Write the content of ``element`` into ``flow``."""
        self._text(flow, element.text, fmt)
        for child in element:
            self.node(child, flow, fmt)
            self._text(flow, child.tail, fmt)

    def node(self, element: etree._Element, flow: _Flow, fmt: _Format) -> None:
        tag = str(element.tag)
        if tag in _BLOCK_TAGS:
            self._close(flow)
            self.block(element, flow, fmt)
            self._close(flow)
        elif tag in {"strong", "b", "th"}:
            self.inline(element, flow, replace(fmt, bold=True))
        elif tag in {"em", "i"}:
            self.inline(element, flow, replace(fmt, italic=True))
        elif tag == "br":
            self._open(flow).add_run().add_break(WD_BREAK.LINE)
            flow.space_before = True
        elif tag in {"input", "textarea", "select"}:
            self._text(flow, f" {_field_text(element)} ", fmt)
        elif tag == "option":
            return
        else:  # span, and table parts met out of place
            self.inline(element, flow, fmt)

    def block(self, element: etree._Element, flow: _Flow, fmt: _Format) -> None:
        tag = str(element.tag)
        alignment = _alignment_of(element, flow.alignment)
        if tag in {"ul", "ol"}:
            self.list_depth += 1
            base = "List Bullet" if tag == "ul" else "List Number"
            list_style = base if self.list_depth == 1 else f"{base} {min(self.list_depth, 3)}"
            for item in element:
                if not isinstance(item.tag, str):
                    continue
                inner = _Flow(flow.container, list_style, alignment, reusable=flow.reusable)
                self.inline(item, inner, fmt)
                self._close(inner)
                flow.reusable = inner.reusable
            self.list_depth -= 1
            return
        if tag == "table":
            self.table(element, flow, fmt)
            return
        style: str | None = _HEADING_STYLES.get(tag)
        if style is None and tag == "li":
            style = flow.style
        inner = _Flow(flow.container, style, alignment, reusable=flow.reusable)
        self.inline(element, inner, fmt)
        self._close(inner)
        flow.reusable = inner.reusable

    def table(self, element: etree._Element, flow: _Flow, fmt: _Format) -> None:
        rows = list(_rows(element))
        if not rows:
            return
        widths = [sum(_span(cell) for cell in row) for row in rows]
        columns = max(widths)
        if columns == 0:
            return
        flow.reusable = None
        table: Table = flow.container.add_table(len(rows), columns)
        table.style = "Table Grid"
        for row_index, row in enumerate(rows):
            column = 0
            for cell_element in row:
                span = _span(cell_element)
                cell = table.cell(row_index, column)
                if span > 1:
                    cell = cell.merge(table.cell(row_index, column + span - 1))
                column += span
                cell_flow = _Flow(
                    cell,
                    None,
                    _alignment_of(cell_element, None),
                    reusable=cell.paragraphs[0],
                )
                cell_fmt = replace(fmt, bold=True) if cell_element.tag == "th" else fmt
                self.inline(cell_element, cell_flow, cell_fmt)
                self._close(cell_flow)


def _rows(table: etree._Element) -> Iterator[list[etree._Element]]:
    for child in table:
        if child.tag in {"thead", "tbody", "tfoot"}:
            yield from _rows(child)
        elif child.tag == "tr":
            yield [cell for cell in child if cell.tag in {"td", "th"}]


def _span(cell: etree._Element) -> int:
    value = cell.get("colspan")
    if not value or value == "1":  # nearly every cell
        return 1
    return max(1, min(int(value) if value.isdigit() else 1, 63))


def _field_text(element: etree._Element) -> str:
    tag = element.tag
    if tag == "input":
        kind = element.get("type", "text")
        if kind in {"checkbox", "radio"}:
            return "☒" if element.get("checked") is not None else "☐"
        value = (element.get("value") or "").strip()
        return value or BLANK_FIELD
    if tag == "textarea":
        value = (element.text or "").strip()
        return value or BLANK_FIELD
    selected = [o for o in element if o.tag == "option" and o.get("selected") is not None]
    if selected:
        return (selected[0].text or "").strip() or BLANK_FIELD
    return BLANK_FIELD


def write_docx(content_html: str, container: Any) -> None:
    """Write the restricted HTML ``content_html`` into ``container``: anything with
    python-docx's ``add_paragraph(text, style)`` and ``add_table(rows, cols)`` (a
    ``Document``, a docxtpl ``Subdoc``, a table cell)."""
    root = sanitize_tree(content_html)
    writer = _DocxWriter()
    flow = _Flow(container)
    try:
        writer.inline(root, flow, _Format())
        writer._close(flow)
    except (KeyError, ValueError) as exc:  # e.g. a style missing from the base template
        raise RenderError(f"Não foi possível montar o DOCX: {exc}") from exc
