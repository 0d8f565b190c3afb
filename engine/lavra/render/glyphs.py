"""Characters the pack's fonts draw: data that would print as empty boxes is refused.

The documents are drawn only with the fonts the content pack ships in its assets
folder (``forms/_base/``, embedded in every PDF so that it prints the same on every
machine). A character none of them draws would print as an empty box (or, worse, in
a font of whatever machine renders it). Before a document is drafted or issued, every
string of its data is compared with the characters the pack's fonts draw; a field
holding others is an ``invalid`` item of the completeness report, naming the field
and the characters («O campo Razão social contém caracteres que as fontes do
documento não desenham: 株, 式»). A draft then lists it as pending and issuing
refuses; the fillable requerimento (whose fields are drawn with one of the same
fonts) is not produced with it.

The set is the characters drawn by *every* font file of the folder (the
intersection of their ``cmap`` tables, read with fontTools): a value may be printed
in any of them (body text, bold, italic, headings), and a character that only some
of them draw would fall back to another font in the others. It is read once per
folder (cached by the files' names, sizes and modification times): about 50 ms for
six DejaVu files; checking a document's data is a set difference per string
(microseconds).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from fontTools.ttLib import TTFont, TTLibError

from lavra.errors import ContentPackError
from lavra.inputs import pointers

__all__ = ["Coverage", "Undrawable", "coverage_of", "undrawable"]

FONT_SUFFIXES = (".ttf", ".otf")

#: Not drawn as glyphs: line breaks and tabs lay out the text, they print nothing.
_LAYOUT = frozenset(map(ord, "\t\n\r"))

#: The printable ASCII characters, space to ``~``.
_PRINTABLE_ASCII = frozenset(range(0x20, 0x7F))

#: How many characters a message lists at most.
_SHOWN = 12


@dataclass(frozen=True)
class Coverage:
    """The code points every font of the pack draws, and the fonts read."""

    fonts: tuple[str, ...]
    codepoints: frozenset[int]

    @cached_property
    def _all_ascii(self) -> bool:
        """Whether every font draws every printable ASCII character (space to ``~``)."""
        return self.codepoints >= _PRINTABLE_ASCII

    def missing(self, text: str) -> tuple[str, ...]:
        """The distinct characters of ``text`` no font draws, in order of appearance.

        A pack without fonts of its own (none under its assets folder) is not checked.
        """
        if not self.codepoints:
            return ()
        if text.isascii() and text.isprintable() and self._all_ascii:
            return ()  # most fields: nothing outside what every font draws
        found = {ord(c) for c in text} - self.codepoints - _LAYOUT
        if not found:
            return ()
        return tuple(dict.fromkeys(c for c in text if ord(c) in found))


@dataclass(frozen=True)
class Undrawable:
    """A field of the data holding characters no font of the pack draws."""

    path: tuple[str | int, ...]
    characters: tuple[str, ...]

    @property
    def pointer(self) -> str:
        return pointers.join(self.path)

    def message(self, label: str) -> str:
        shown = ", ".join(_show(c) for c in self.characters[:_SHOWN])
        more = len(self.characters) - _SHOWN
        if more > 0:
            shown += f" e mais {more}"
        return (
            f"O campo {label} contém caracteres que as fontes do documento não desenham: "
            f"{shown}. Eles sairiam no documento como quadrados vazios; use a grafia em "
            "letras latinas, como consta do registro oficial (CNPJ, RG, passaporte)."
        )


def _show(char: str) -> str:
    """The character itself, or its code when it is a combining mark that would not show."""
    if unicodedata.category(char).startswith("M"):
        return f"U+{ord(char):04X}"
    return char


def coverage_of(assets_dir: Path) -> Coverage:
    """The characters every font file under ``assets_dir`` draws (cached per files)."""
    try:
        files = sorted(
            p for p in assets_dir.rglob("*") if p.suffix.lower() in FONT_SUFFIXES and p.is_file()
        )
        key = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files)
    except OSError as error:
        raise ContentPackError(
            f"Não foi possível ler as fontes do pacote em {assets_dir.name}: {error.strerror}."
        ) from None
    return _read_coverage(key)


@lru_cache(maxsize=8)
def _read_coverage(files: tuple[tuple[str, int, int], ...]) -> Coverage:
    common: set[int] | None = None
    names: list[str] = []
    for name, _size, _mtime in files:
        try:
            with TTFont(name, lazy=True) as font:
                cmap = font.getBestCmap() or {}
        except (OSError, TTLibError, AssertionError, KeyError, ValueError) as error:
            raise ContentPackError(
                f"A fonte {Path(name).name} do pacote não pôde ser lida ({error})."
            ) from None
        names.append(Path(name).name)
        common = set(cmap) if common is None else common & set(cmap)
    return Coverage(tuple(names), frozenset(common or ()))


def undrawable(data: Any, coverage: Coverage) -> tuple[Undrawable, ...]:
    """Every string of ``data`` (keys are not printed) holding characters no font draws."""
    if _all_drawn(data, coverage):  # the common case, told without a path per node
        return ()
    return tuple(_walk(data, (), coverage))


def _all_drawn(node: Any, coverage: Coverage) -> bool:
    """Whether every string of ``node`` is drawn, by exact types (dicts, lists, strings,
    and leaves that are not strings); ``False`` for anything else, for :func:`_walk` to
    tell (a Mapping or tuple of another type walks as it always did)."""
    kind = type(node)
    if kind is str:
        return not coverage.missing(node)
    if kind is dict or kind is list:
        for value in node.values() if kind is dict else node:
            if not _all_drawn(value, coverage):
                return False
        return True
    return kind is int or kind is bool or kind is float or node is None


def _walk(node: Any, path: tuple[str | int, ...], coverage: Coverage) -> Iterator[Undrawable]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            yield from _walk(value, (*path, str(key)), coverage)
    elif isinstance(node, list | tuple):
        for index, value in enumerate(node):
            yield from _walk(value, (*path, index), coverage)
    elif isinstance(node, str):
        missing = coverage.missing(node)
        if missing:
            yield Undrawable(path, missing)

