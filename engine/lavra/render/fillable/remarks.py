"""A document's remark in the fillable requerimento (``observacao``, up to 1000
characters): not a narrow cell of the document's row, where a long value would be cut,
but a box across the document's table, as many lines tall as its prefilled value takes
(:func:`remark_rows`); the heights are classes of :data:`REMARK_CSS`, since the sanitized
body takes classes, not styles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from lavra.render.fillable.finishing import FIELD_PADDING_PT, LEADING, wrapped_lines
from lavra.render.fillable.schema import leaf_kind

__all__ = ["REMARK_CSS", "REMARK_LENGTH", "is_remark", "remark_rows"]

#: A document's string field longer than this is a remark (``observacao``): a row of its
#: own, across the document's table, not a narrow cell where its value would be cut.
REMARK_LENGTH = 200
#: The remark box's text size (the fields' CSS) and a width its row always has, in
#: points: the page's text width less the table's padding, rounded down (A4, the frames'
#: margins: about 439 pt), so that the lines counted are never fewer than drawn.
REMARK_FONT_PT = 10.0
REMARK_ROOM_PT = 400.0
#: More than the box's border and padding take from its CSS height (the field's
#: rectangle is the box's content: a 22 pt box has a rectangle 19 pt tall).
REMARK_BOX_PT = 8.0
#: The tallest remark box, in lines (a remark of the schema's 1000 characters takes about
#: 14); a longer value is drawn smaller (:func:`lavra.render.fillable.finishing.wrapped_size`).
REMARK_MAX_LINES = 30
#: The remark boxes' heights, one class per number of lines (the sanitized body takes
#: classes, not styles).
REMARK_CSS = "".join(
    f".requerimento-preenchivel table.dados-documento textarea.linhas-{n} {{ height: "
    f"{n * LEADING * REMARK_FONT_PT + 2 * FIELD_PADDING_PT + REMARK_BOX_PT:g}pt; }}\n"
    for n in range(1, REMARK_MAX_LINES + 1))


def is_remark(schema: Mapping[str, Any]) -> bool:
    length = schema.get("maxLength")
    return (leaf_kind(schema) in ("string", "text") and isinstance(length, int)
            and length > REMARK_LENGTH)


def remark_rows(span: int, title: str, name: str, label: str, text: str) -> Markup:
    """The remark's two rows across ``span`` columns: its title, and its box, as tall as
    ``text`` takes at the field's size (one line when empty; at most
    :data:`REMARK_MAX_LINES`)."""
    lines = wrapped_lines(text, REMARK_ROOM_PT / REMARK_FONT_PT) if text else 1
    return Markup('<tr><th colspan="{}">{}</th></tr><tr><td colspan="{}"><textarea name="{}" '
                  'title="{}" class="linhas-{}">{}</textarea></td></tr>').format(
        span, title, span, name, label, min(lines, REMARK_MAX_LINES), text)
