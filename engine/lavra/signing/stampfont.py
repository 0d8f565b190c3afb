"""The visible stamp's font, embedded without subsetting it again for every document.

pyHanko's :class:`~pyhanko.pdf_utils.font.opentype.GlyphAccumulator` embeds a subset of
its font holding the glyphs the stamp uses: for every document it subsets the font
with fontTools, saves the subset and compresses it (about half of the signing time).
The glyphs of a stamp change little from one document to the next (the signer's name
and role are the same; the date and time change), so :class:`StampFontEngine` keeps
every digit in the subset, which makes the set of glyphs the same from one document
to the next, and keeps the compressed font program of each set of glyphs it has
embedded: the next document with the same glyphs gets the same bytes without
fontTools. What is embedded is the program pyHanko would have written for that set
of glyphs (glyph ids kept, as pyHanko does), so the PDF and its PDF/A conformance
are unchanged.

The font itself is parsed once, too: pyHanko's accumulator reads the font file with
fontTools and HarfBuzz for every document (about 3 ms, the glyph table decoded again).
:class:`StampFontPrograms` keeps the parsed font, its glyph set and its HarfBuzz font,
which every engine only reads; subsetting, which fontTools does in place, works on a
copy parsed for that document (a glyph set not embedded before).

Each line of the stamp is shaped once, too: pyHanko shapes every line of every stamp
with HarfBuzz and formats its glyphs (the four lines of a stamp, about a tenth of a
signature), though the lines of one signer's stamps are the same from one document to
the next (the time changes once a minute). :meth:`StampFontEngine.shape` keeps, by
line, what shaping it gave: the operators, the advance, and the glyphs and characters
it noted down for the font's widths and ToUnicode map, which a line shaped again notes
down the same way; and the ToUnicode map of a set of characters embedded before is
the same compressed stream as then.
"""

from __future__ import annotations

import io
from typing import Any

import uharfbuzz as hb  # type: ignore[import-untyped]
from fontTools import ttLib
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.font.api import FontEngine, ShapeResult
from pyhanko.pdf_utils.font.opentype import CIDFontType2, GlyphAccumulator, _read_ps_name
from pyhanko.pdf_utils.writer import BasePdfFileWriter

__all__ = ["StampFontEngine", "StampFontPrograms"]

#: Characters always kept in the subset: the date and time of the stamp vary.
ALWAYS_KEPT = "0123456789"
#: At most this many font programs are kept (distinct signers × glyph sets).
MAX_PROGRAMS = 64
#: At most this many shaped lines are kept (:meth:`StampFontEngine.shape`).
MAX_LINES = 512

#: A line shaped: pyHanko's result, then the glyphs (id → CID and width) and the
#: ToUnicode entries (CID → text) that shaping it noted down, in their order.
_Shaped = tuple[ShapeResult, tuple[tuple[int, tuple[int, int]], ...], tuple[tuple[int, str], ...]]


class StampFontPrograms:
    """The font file, and the compressed subsets embedded so far, by their glyph ids."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._programs: dict[frozenset[int], bytes] = {}
        self._parsed: _ParsedFont | None = None
        self.lines: dict[tuple[str, bool, float], _Shaped] = {}
        self.unicode_maps: dict[tuple[tuple[int, str], ...], bytes] = {}

    def parsed(self) -> _ParsedFont:
        """The font parsed once (read only: see :meth:`StampFontEngine._extract_subset`)."""
        if self._parsed is None:
            self._parsed = _ParsedFont(self.data)
        return self._parsed

    def get(self, glyphs: frozenset[int]) -> bytes | None:
        return self._programs.get(glyphs)

    def put(self, glyphs: frozenset[int], program: bytes) -> None:
        if len(self._programs) >= MAX_PROGRAMS:
            self._programs.clear()
        self._programs[glyphs] = program


class _ParsedFont:
    """What pyHanko's accumulator reads from the font file, read once."""

    def __init__(self, data: bytes) -> None:
        self.tt = ttLib.TTFont(io.BytesIO(data))
        if "CFF " in self.tt:
            raise TypeError("a TrueType stamp font is required")
        self.ps_name = _read_ps_name(self.tt)
        self.glyph_set = self.tt.getGlyphSet(preferCFF=True)
        self.reverse_cmap = self.tt["cmap"].buildReversed()
        self.hb_font = hb.Font(hb.Face(data))
        self.units_per_em = self.tt["head"].unitsPerEm


class _Noting(dict[int, str]):
    """The ToUnicode entries a line's shaping notes down, and whether it looked at the
    entries noted before (pyHanko does for a cluster of several glyphs, a character
    the font lacks composed: what it notes then depends on the lines shaped before)."""

    looked = False

    def __contains__(self, key: object) -> bool:
        self.looked = True
        return super().__contains__(key)


class _CachedFontFile(CIDFontType2):
    """A CIDFontType2 whose font program comes from the cache when it is there."""

    def __init__(self, engine: StampFontEngine, tt: Any, base_ps_name: str, prefix: str) -> None:
        super().__init__(tt, base_ps_name, prefix)
        self._engine = engine

    def set_font_file(self, writer: BasePdfFileWriter) -> generic.IndirectObject:
        glyphs, programs = self._engine.glyph_key(), self._engine.programs
        program = programs.get(glyphs)
        if program is None:
            buffer = io.BytesIO()
            self.tt_font.save(buffer)
            stream = generic.StreamObject(stream_data=buffer.getvalue())
            stream.compress()  # type: ignore[no-untyped-call]
            programs.put(glyphs, stream.encoded_data)
        else:
            stream = generic.StreamObject(
                {generic.pdf_name("/Filter"): generic.pdf_name("/FlateDecode")},
                encoded_data=program,
            )
        reference = writer.add_object(stream)
        self._font_descriptor[generic.pdf_name("/FontFile2")] = reference
        return reference


class StampFontEngine(GlyphAccumulator):
    """pyHanko's embedding font engine, with the subsets kept in ``programs`` and the
    font parsed once (the attributes :class:`GlyphAccumulator`'s constructor sets, from
    the parsed font instead of the file; tests/test_signing.py compares the two)."""

    def __init__(
        self,
        writer: BasePdfFileWriter,
        programs: StampFontPrograms,
        font_size: int,
        obj_stream: Any = None,
    ) -> None:
        font = programs.parsed()
        FontEngine.__init__(
            self,
            writer,
            font.ps_name,
            embedded_subset=True,
            obj_stream=obj_stream,
            font_size=font_size,
        )
        self.programs = programs
        self.hb_font = font.hb_font
        self.tt = font.tt
        self._font_ref = writer.allocate_placeholder()
        self.cff_charset = None
        self.use_raw_gids = True  # TrueType: glyph ids are the CIDs
        self.features = None
        self.units_per_em = font.units_per_em
        self._glyphs: dict[int, tuple[int, int]] = {}
        self._glyph_set = font.glyph_set
        self._cid_to_unicode: dict[int, str] = {}
        self._GlyphAccumulator__reverse_cmap = font.reverse_cmap
        self.ot_language_tag = self.ot_script_tag = None
        self.writing_direction = self.bcp47_lang_code = None
        self._subset_created = self._write_prepared = False
        self.cidfont_obj: CIDFontType2 = _CachedFontFile(
            self, font.tt, font.ps_name, self.subset_prefix
        )

    def shape(self, txt: str, with_actual_text: bool = True) -> ShapeResult:
        """pyHanko's shaping of ``txt``, done once per line (see the module's docstring)."""
        key = (txt, with_actual_text, float(self.font_size))
        known = self.programs.lines.get(key)
        if known is None:
            glyphs, unicode = self._glyphs, self._cid_to_unicode
            self._glyphs, self._cid_to_unicode = {}, _Noting()
            try:
                result = super().shape(txt, with_actual_text)
                noted = self._cid_to_unicode
                known = (result, tuple(self._glyphs.items()), tuple(noted.items()))
            finally:
                self._glyphs, self._cid_to_unicode = glyphs, unicode
            if isinstance(noted, _Noting) and noted.looked:
                return super().shape(txt, with_actual_text)
            if len(self.programs.lines) >= MAX_LINES:
                self.programs.lines.clear()
            self.programs.lines[key] = known
        result, glyphs_noted, unicode_noted = known
        self._glyphs.update(glyphs_noted)
        self._cid_to_unicode.update(unicode_noted)
        return result

    def _format_tounicode_cmap(self) -> generic.StreamObject:
        """pyHanko's ToUnicode map, compressed once per set of characters."""
        key = tuple(self._cid_to_unicode.items())
        known = self.programs.unicode_maps.get(key)
        if known is None:
            stream: generic.StreamObject = super()._format_tounicode_cmap()  # type: ignore[no-untyped-call]
            if len(self.programs.unicode_maps) >= MAX_PROGRAMS:
                self.programs.unicode_maps.clear()
            self.programs.unicode_maps[key] = stream.encoded_data
            return stream
        return generic.StreamObject(
            {generic.pdf_name("/Filter"): generic.pdf_name("/FlateDecode")}, encoded_data=known
        )

    def glyph_key(self) -> frozenset[int]:
        return frozenset(self._glyphs)

    def prepare_write(self) -> None:
        cmap = self.tt.getBestCmap()
        for char in ALWAYS_KEPT:
            glyph = self.tt.getGlyphID(cmap[ord(char)]) if ord(char) in cmap else 0
            if glyph:
                self._get_cid_and_width(glyph)
        super().prepare_write()  # type: ignore[no-untyped-call]

    def _extract_subset(self, options: Any = None) -> None:
        if self.programs.get(self.glyph_key()) is None:
            # fontTools subsets in place: a copy of this document's own, never the
            # parsed font the other documents share
            self.tt = ttLib.TTFont(io.BytesIO(self.programs.data))
            self.cidfont_obj._tt = self.tt
            super()._extract_subset(options)
