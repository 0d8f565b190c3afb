"""How wide a table's columns are in a document laid out by Typst: from the widths of the
page's own fonts, as a browser's automatic table layout shares the line (CSS 2.1,
§ 17.5.2.2), so that WeasyPrint and Typst lay out the same wording's tables alike."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Final

from lxml import etree  # type: ignore[import-untyped, unused-ignore]

from lavra.render.htmlblocks import _span

__all__ = ["ESTIMATED_WIDTHS", "TextWidths", "column_weights"]


#: The text width of a page (A4 less the margins of pagina.typ, 30 and 20 mm) and the
#: padding of a cell (its inset of 2 mm each side, and the rule), in millimetres.
_LINE_MM: Final = 160.0
_CELL_PADDING_MM: Final = 4.4
#: The least width of a row's label (th + td), as pagina.css gives ``table.dados
#: th:first-child:nth-last-child(2)``: a short label ("Ciência do ato") never wraps. A
#: ``min-width`` is the content's (``box-sizing: content-box``): the cell's padding and
#: rule come on top of it, as WeasyPrint sizes the column.
_LABEL_MM: Final = 36.0
_BODY_PT: Final = 11.0  # the body's size in pagina.typ, the tables' too
_MM_PER_PT: Final = 25.4 / 72
#: At most this many words' widths are kept (:meth:`TextWidths.of`); then they are forgotten.
_MEMO_WORDS: Final = 20_000
#: Where a line may break inside a cell: a space, or a zero-width space (U+200B), which
#: both renderers take as a break opportunity.
_BREAKS: Final = re.compile("[ \t\n\r\f\u200b]+")


@dataclass(frozen=True)
class TextWidths:
    """How wide a word is in the body font, in millimetres, regular and bold.

    From the advance widths of the page's own fonts (:meth:`of_fonts`) where the pack
    ships them; else an estimate wide enough for a broad serif (DejaVu's letters and
    digits at 11 pt are up to about 3 mm): a column a little too wide costs nothing, one
    too narrow lets its longest word run over the next cell.
    """

    regular: dict[str, float] = field(default_factory=dict)
    bold: dict[str, float] = field(default_factory=dict)
    missing_regular: float = 2.8
    missing_bold: float = 3.2
    #: Widths already summed, by (word, bold): a batch lays out the same labels and
    #: wording in every document, only the holder's data differ.
    _known: dict[tuple[str, bool], float] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    #: A cell's narrowest and widest, by its text pieces (:func:`_cell_widths`): most
    #: cells are labels, the same in every document.
    _cells: dict[tuple[tuple[str, bool] | None, ...], tuple[float, float]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def of(self, text: str, bold: bool) -> float:
        known = self._known.get((text, bold))
        if known is not None:
            return known
        table, missing = (self.bold, self.missing_bold) if bold else (
            self.regular, self.missing_regular
        )
        width = sum(map(table.get, text, repeat(missing)))
        if len(self._known) >= _MEMO_WORDS:
            self._known.clear()
        self._known[(text, bold)] = width
        return width

    @classmethod
    def of_fonts(cls, folder: Path, family: str) -> TextWidths:
        """The widths of ``family`` (its regular and bold faces among the fonts under
        ``folder``), or the estimate when either face is missing."""
        from fontTools.ttLib import TTFont, TTLibError

        faces: dict[str, dict[str, float]] = {}
        for path in sorted(folder.rglob("*")):
            if path.suffix.lower() not in {".ttf", ".otf"}:
                continue
            try:
                font = TTFont(str(path), lazy=True)
                name = font["name"]
                found = str(name.getDebugName(16) or name.getDebugName(1) or "")
                style = str(name.getDebugName(17) or name.getDebugName(2) or "")
                if found != family or style not in {"Book", "Regular", "Bold"}:
                    continue
                scale = _BODY_PT * _MM_PER_PT / font["head"].unitsPerEm
                metrics = font["hmtx"].metrics
                faces["Bold" if style == "Bold" else "Regular"] = {
                    chr(code): metrics[glyph][0] * scale
                    for code, glyph in font.getBestCmap().items()
                }
            except (OSError, TTLibError, KeyError):
                continue
        if "Regular" not in faces or "Bold" not in faces:
            return cls()
        return cls(faces["Regular"], faces["Bold"])


#: The estimate, for a tree laid out without the page's fonts at hand.
ESTIMATED_WIDTHS: Final = TextWidths()


#: Elements whose text is bold, and those that end a line of a cell's text.
_BOLD: Final = frozenset({"th", "strong", "b"})
_LINE_ENDS: Final = frozenset({"br", "p", "div", "li", "ul", "ol"})


def _pieces(element: etree._Element, bold: bool) -> list[tuple[str, bool] | None]:
    """The cell's text as (text, bold) pieces; None where a line ends (a ``br``, a block)."""
    bold = bold or element.tag in _BOLD
    found: list[tuple[str, bool] | None] = []
    if element.tag in _LINE_ENDS:
        found.append(None)
    if element.text:
        found.append((element.text, bold))
    for child in element:
        if isinstance(child.tag, str):
            found += _pieces(child, bold)
        if child.tail:
            found.append((child.tail, bold))
    if element.tag in _LINE_ENDS and element.tag != "br":
        found.append(None)
    return found


def _cell_widths(cell: etree._Element, widths: TextWidths) -> tuple[float, float]:
    """The narrowest and the widest a cell can be, in mm: its longest word, its longest
    line (a ``br`` or a block ends one), each word in its own weight (bold in a ``th``,
    a ``strong``)."""
    pieces = tuple(_pieces(cell, False))
    known = widths._cells.get(pieces)
    if known is None:
        known = _measure(pieces, widths)
        if len(widths._cells) >= _MEMO_WORDS:
            widths._cells.clear()
        widths._cells[pieces] = known
    return known


def _measure(
    pieces: tuple[tuple[str, bool] | None, ...], widths: TextWidths
) -> tuple[float, float]:
    longest = widest = line = 0.0
    space = False  # a break opportunity pending between two pieces
    for piece in pieces:
        if piece is None:
            widest, line, space = max(widest, line), 0.0, False
            continue
        text, bold = piece
        words = _BREAKS.split(text)  # a no-break space joins
        if words[0] == "":
            space = line > 0
        for i, word in enumerate(words):
            if i > 0 and word:
                space = True
            if not word:
                continue
            if space:
                line += widths.of(" ", bold)
            size = widths.of(word, bold)
            longest = max(longest, size)
            line += size
            space = False
        space = space or (len(words) > 1 and words[-1] == "")
    widest = max(widest, line)
    return (longest + _CELL_PADDING_MM, widest + _CELL_PADDING_MM)


def column_weights(
    rows: list[list[etree._Element]], columns: int, widths: TextWidths = ESTIMATED_WIDTHS
) -> list[float] | None:
    """Relative column widths (mm) of a full-width table, as a browser's automatic layout,
    or None when the columns' longest words side by side are wider than the line.

    CSS 2.1 (§ 17.5.2.2) sizes a ``width: 100%`` table from each column's minimum
    (its longest word) and maximum (its text on one line) widths: when every column fits
    at its maximum, the width is shared in proportion to the maxima; otherwise each
    column gets its minimum plus a share of what is left in proportion to what it would
    still take. Cells spanning several columns are left out, as their text is shared.
    WeasyPrint lays out the same wording so; this keeps the two renderers' tables alike.
    """
    low = [_CELL_PADDING_MM] * columns
    high = [_CELL_PADDING_MM] * columns
    for row in rows:
        at = 0
        for cell in row:
            span = _span(cell)
            if span == 1 and at < columns:
                narrow, wide = _cell_widths(cell, widths)
                if at == 0 and cell.tag == "th" and len(row) == 2:  # a row's label
                    least = _LABEL_MM + _CELL_PADDING_MM
                    narrow, wide = max(narrow, least), max(wide, least)
                low[at] = max(low[at], narrow)
                high[at] = max(high[at], wide)
            at += span
    high = [max(h, lo) for h, lo in zip(high, low, strict=True)]
    if sum(high) <= _LINE_MM:
        result = high
    elif sum(low) >= _LINE_MM:
        # Shared in proportion, some column would be narrower than its longest word,
        # which would run over the next cell: Typst's own sizing does better then.
        return None
    else:
        share = (_LINE_MM - sum(low)) / (sum(high) - sum(low))
        result = [lo + (h - lo) * share for lo, h in zip(low, high, strict=True)]
    return [round(w, 2) for w in result]
