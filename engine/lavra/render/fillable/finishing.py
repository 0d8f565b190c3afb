"""The AcroForm of a rendered requerimento made whole for every viewer.

WeasyPrint writes the fields of :mod:`lavra.render.fillable.building`, but leaves
out what some viewers need to show and keep a mark: a check box or radio button has
only its "on" appearance, no ``/DA`` and no ``/MK /CA`` (so a viewer that redraws it
from ``/DA`` draws nothing, and poppler complains "Missing 'Tf' operator"); the
buttons of a radio group are named by index (``/0``, ``/1``) and repeat the group's
``/T`` (so pypdf and some viewers take each button for a field of its own); the
``/DA`` of text fields carries a ``gs`` operator that is not a text-state operator.

:func:`finish_form` fixes these in place, so that the PDF follows ISO 32000-1,
12.7.3.3 and 12.7.4.2 as Acrobat reads them: each button has ``/AP /N`` with its
on-state and ``/Off`` appearances, ``/AS`` naming the state shown, ``/DA`` naming a
font of the AcroForm ``/DR`` (ZapfDingbats, added there), and ``/MK /CA`` the glyph
to redraw; a radio group's states are named after their values (``/sim``, ``/nao``),
so that the value read back says which answer was chosen.

A prefilled single-line text field whose value is wider than the field at the font
size of its ``/DA`` would show cut ("Receita Federa"): its ``/DA`` gets the largest
size, down to :data:`MIN_FONT_PT`, at which the value fits on its line, else the field
is made multiline at the largest size at which the value, wrapped, fits its height
(:func:`fitting_size`, a generous estimate of the body serif's widths). A multiline
value taller than its field is drawn smaller (:func:`wrapped_size`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import Any

from pypdf import PdfReader, PdfWriter
from pypdf.errors import PyPdfError
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
    TextStringObject,
)

from lavra.errors import RenderError

__all__ = ["BUTTON_FONT", "finish_form", "fitting_size", "text_width_em", "wrapped_lines",
           "wrapped_size"]

#: The resource name of the button font in the AcroForm ``/DR`` (a standard 14 font).
BUTTON_FONT = "/ZaDb"
_CHECK_GLYPH = "4"  # ZapfDingbats: check mark
_RADIO_GLYPH = "l"  # ZapfDingbats: filled circle
_RADIO_FLAG = 1 << 15
_GS_OPERATOR = re.compile(rb"/[^\s/]+\s+gs\s*")


def finish_form(pdf: bytes, info: Mapping[str, str] | None = None) -> bytes:
    """``pdf`` with its button appearances, radio states and ``/DA`` completed, and
    ``info`` added to its document information: one read and one write of the PDF (a
    second pass only to add the information cost as much again)."""
    try:
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
        root = writer.root_object
        form = root.get("/AcroForm")
        if form is None and not info:
            return pdf
        if form is not None:
            form = form.get_object()
            _add_button_font(writer, form)
            for page in writer.pages:
                for annotation in page.get("/Annots", ArrayObject()):
                    widget = annotation.get_object()
                    if widget.get("/Subtype") != "/Widget":
                        continue
                    if widget.get("/FT") == "/Btn" or "/Parent" in widget:
                        _finish_button(writer, widget)
                    elif isinstance(widget.get("/DA"), str):
                        widget[NameObject("/DA")] = TextStringObject(
                            _text_da(str(widget["/DA"])))
                        _fit_value(widget)
            _drop_kids_from_fields(form)
        if info:
            writer.add_metadata(dict(info))
        out = io.BytesIO()
        writer.write(out)
    except (PyPdfError, ValueError, KeyError, TypeError) as error:
        raise RenderError(f"Não foi possível completar os campos do formulário: {error}.") from None
    return out.getvalue()


def _drop_kids_from_fields(form: DictionaryObject) -> None:
    """Only a radio group is a field of the form; its buttons are its widgets."""
    fields = form.get("/Fields")
    if not isinstance(fields, ArrayObject):
        return
    kept = [ref for ref in fields if "/Parent" not in ref.get_object()]
    form[NameObject("/Fields")] = ArrayObject(kept)


def _text_da(da: str) -> str:
    """A text field's ``/DA`` with only text-state and colour operators."""
    return _GS_OPERATOR.sub(b"", da.encode("latin-1")).decode("latin-1").strip()


#: The smallest size a prefilled value is shrunk to, in points; on one line, not below
#: :data:`MIN_LINE_PT` (a smaller size wraps instead, when the field is tall enough).
MIN_FONT_PT = 5.0
MIN_LINE_PT = 7.0
#: Padding of a text field on each side, in points (viewers draw 2 pt).
FIELD_PADDING_PT = 2.0
#: The border poppler keeps inside the field's rectangle on each side, before the
#: padding, in points: without it "Caixa Econômica Federal" at 8 pt in a 102 pt cell
#: lost its last letter on the page drawn at 60 dpi.
FIELD_BORDER_PT = 1.0
#: Line height of a wrapped value, in ems (poppler draws about 1.15).
LEADING = 1.2
_TF = re.compile(r"(/\S+)\s+([0-9.]+)\s+Tf")
_MULTILINE = 1 << 12


def text_width_em(text: str) -> float:
    """The width of ``text`` in ems, estimated a little generously for a broad serif
    (DejaVu Serif: capitals and wide letters up to 0.8 em, most lower case 0.5 to 0.6)."""
    wide, narrow = set("MWmw@%ÆŒ"), set("iljtfrI.,;:'!|() ")
    return sum(0.32 if c in narrow else 0.82 if c in wide else 0.7 if c.isupper() or
               c.isdigit() else 0.56 for c in text)


def wrapped_lines(text: str, room_em: float) -> int:
    """How many lines ``text`` takes, wrapped at spaces, in lines ``room_em`` ems wide (a
    word wider than a line counts the lines it is broken into)."""
    lines, used = 1, 0.0
    for word in text.split():
        width = text_width_em(word)
        if used and used + text_width_em(" ") + width > room_em:
            lines, used = lines + 1, 0.0
        if width > room_em:
            lines += int(width // room_em)
            width %= room_em
        used += (text_width_em(" ") if used else 0.0) + width
    return lines


def fitting_size(text: str, width: float, height: float, size: float) -> tuple[float, bool]:
    """``(size, multiline)``: the largest size not above ``size``, in half points and not
    below :data:`MIN_FONT_PT`, at which ``text`` shows whole in a field of ``width`` ×
    ``height`` points: on one line down to :data:`MIN_LINE_PT`, else wrapped, else on one
    line; at the minimum, wrapped, when nothing fits (it cuts least there)."""
    room = max(width - 2 * (FIELD_PADDING_PT + FIELD_BORDER_PT), 1.0)
    tall = height - FIELD_PADDING_PT  # lines reach closer to the edges than letters
    ems = text_width_em(text)
    candidate = size
    while candidate >= MIN_LINE_PT:
        if ems * candidate <= room:
            return candidate, False
        candidate -= 0.5
    candidate = size
    while candidate >= MIN_FONT_PT:
        if wrapped_lines(text, room / candidate) * LEADING * candidate <= tall:
            return candidate, True
        if ems * candidate <= room:  # one line fits where wrapping does not
            return candidate, False
        candidate -= 0.5
    return MIN_FONT_PT, True


def wrapped_size(text: str, width: float, height: float, size: float) -> float:
    """The largest size not above ``size``, in half points and not below
    :data:`MIN_FONT_PT`, at which ``text``, wrapped, fits a multiline field of ``width`` ×
    ``height`` points (the minimum when none does)."""
    room = max(width - 2 * FIELD_PADDING_PT, 1.0)
    candidate = size
    while candidate > MIN_FONT_PT:
        if wrapped_lines(text, room / candidate) * LEADING * candidate <= height - FIELD_PADDING_PT:
            return candidate
        candidate -= 0.5
    return MIN_FONT_PT


def _fit_value(widget: DictionaryObject) -> None:
    """A prefilled value that would be cut: smaller, or wrapped; a multiline one
    smaller (the builder sizes a remark's box to its value: this is the last guard)."""
    value, da = widget.get("/V"), str(widget.get("/DA"))
    flags = int(widget.get("/Ff", 0))
    found = _TF.search(da)
    if not isinstance(value, str) or not value or found is None:
        return
    size = float(found.group(2))
    if flags & _MULTILINE:
        fitted, multiline = wrapped_size(value, *_size(widget), size), False
    else:
        fitted, multiline = fitting_size(value, *_size(widget), size)
    if fitted == size and not multiline:
        return
    if multiline:
        widget[NameObject("/Ff")] = NumberObject(flags | _MULTILINE)
    widget[NameObject("/DA")] = TextStringObject(
        da[:found.start()] + f"{found.group(1)} {fitted:g} Tf" + da[found.end():])


def _add_button_font(writer: PdfWriter, form: DictionaryObject) -> None:
    resources = form.get("/DR")
    resources = resources.get_object() if resources is not None else DictionaryObject()
    fonts = resources.get("/Font")
    fonts = fonts.get_object() if fonts is not None else DictionaryObject()
    if BUTTON_FONT not in fonts:
        font = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/ZapfDingbats"),
            }
        )
        fonts[NameObject(BUTTON_FONT)] = writer._add_object(font)
    resources[NameObject("/Font")] = fonts
    form[NameObject("/DR")] = resources
    form[NameObject("/DA")] = TextStringObject(f"{BUTTON_FONT} 0 Tf 0 g")


def _finish_button(writer: PdfWriter, widget: DictionaryObject) -> None:
    parent = widget.get("/Parent")
    group = parent.get_object() if parent is not None else None
    radio = group is not None and int(group.get("/Ff", 0)) & _RADIO_FLAG
    appearance = widget.get("/AP")
    normal = appearance.get_object().get("/N") if appearance is not None else None
    normal = normal.get_object() if normal is not None else None
    if not isinstance(normal, DictionaryObject):
        return
    states = [name for name in normal if name != "/Off"]
    if len(states) != 1:
        return
    state = states[0]
    if radio and group is not None:
        state = _rename_radio_state(group, widget, normal, state)
        for key in ("/T", "/TU", "/FT"):  # the kid is a widget of its group, not a field
            if key in widget:
                del widget[key]
    width, height = _size(widget)
    if "/Off" not in normal:
        normal[NameObject("/Off")] = writer._add_object(_empty_stream(width, height))
    glyph = _RADIO_GLYPH if radio else _CHECK_GLYPH
    widget[NameObject("/DA")] = TextStringObject(f"{BUTTON_FONT} 0 Tf 0 g")
    marks = widget.get("/MK")
    marks = marks.get_object() if marks is not None else DictionaryObject()
    marks[NameObject("/CA")] = TextStringObject(glyph)
    widget[NameObject("/MK")] = marks
    if str(widget.get("/AS", "/Off")) not in (state, "/Off"):
        widget[NameObject("/AS")] = NameObject("/Off")


def _rename_radio_state(
    group: DictionaryObject, widget: DictionaryObject, normal: DictionaryObject, state: str
) -> str:
    """Name a radio button's on-state after its value (``/0`` → ``/sim``)."""
    options = group.get("/Opt")
    index = state[1:]
    if options is None or not index.isdigit() or int(index) >= len(options):
        return state
    value = str(options[int(index)])
    if not re.fullmatch(r"[A-Za-z0-9_]+", value):
        return state
    renamed = "/" + value
    normal[NameObject(renamed)] = normal[state]
    del normal[state]
    if str(widget.get("/AS")) == state:
        widget[NameObject("/AS")] = NameObject(renamed)
    if str(group.get("/V")) == state:
        group[NameObject("/V")] = NameObject(renamed)
    # Once every button is renamed, the index-to-value table is no longer needed.
    kids = [kid.get_object() for kid in group.get("/Kids", ArrayObject())]
    renamed_all = all(
        all(not name[1:].isdigit() for name in kid["/AP"]["/N"].get_object()) for kid in kids
    )
    if renamed_all and "/Opt" in group:
        del group["/Opt"]
    return renamed


def _size(widget: DictionaryObject) -> tuple[float, float]:
    rect = widget["/Rect"].get_object()
    if not isinstance(rect, ArrayObject) or len(rect) != 4:
        return 0.0, 0.0
    x1, y1, x2, y2 = (float(v) for v in rect)
    return abs(x2 - x1), abs(y2 - y1)


def _empty_stream(width: float, height: float) -> Any:
    """The ``/Off`` appearance: nothing drawn (the box itself is on the page)."""
    stream = DecodedStreamObject()
    stream.set_data(b"")
    stream.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject(
                [NumberObject(0), NumberObject(0), FloatObject(width), FloatObject(height)]
            ),
        }
    )
    return stream
