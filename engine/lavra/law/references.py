"""How a provision is named in a text: ``"art. 7º, inciso IV, da Lei Municipal nº 4.419, de
..."`` (full) or ``"art. 7º, IV, da Lei nº 4.419/2006"`` (short), from its fragment id.

A reference depends only on the fragment id and the law's title, both strings: it is
written once per (id, title) and kept (a check resolves the same dozen citations for every
document: its basis, its deadlines, its notices).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from lavra.errors import CitationError
from lavra.law.importer import int_to_roman

if TYPE_CHECKING:
    from collections.abc import Mapping

    from lavra.law.model import Law

__all__ = ["FRAGMENT_ID", "alinea_letter", "example_citation", "reference", "short_reference",
           "shown_citation"]

FRAGMENT_ID = re.compile(
    r"^(?:cap(?P<cap>[1-9]\d*)|art(?P<art>[1-9]\d*)(?P<letter>[a-z]?)"
    r"(?:_par(?P<par>[1-9]\d*|1u))?(?:_inc(?P<inc>[1-9]\d*))?(?:_ali(?P<ali>[1-9]\d*))?)$"
)


def reference(law: Law, fragment_id: str) -> str:
    """Full reference: ``"art. 7º, inciso IV, da Lei Municipal nº 4.419, de ..."``."""
    return _written(fragment_id, law.title, short=False)


def short_reference(law: Law, fragment_id: str) -> str:
    """Short reference: ``"art. 7º, IV, da Lei nº 4.419/2006"``."""
    return _written(fragment_id, law.short_title, short=True)


@lru_cache(maxsize=8192)
def _written(fragment_id: str, law_name: str, *, short: bool) -> str:
    """The reference (a :class:`CitationError` for an id that is none is not kept)."""
    parts = _parts(fragment_id, short=short)
    if len(parts) == 1:
        return f"{parts[0]} da {law_name}"
    return f"{', '.join(parts)}, da {law_name}"


def _ordinal(number: int) -> str:
    return f"{number}º" if number < 10 else str(number)


def _parts(fragment_id: str, *, short: bool) -> list[str]:
    match = FRAGMENT_ID.match(fragment_id)
    if match is None:
        raise CitationError(f"Identificador de dispositivo inválido: {fragment_id!r}.")
    if match["cap"]:
        return [f"Capítulo {int_to_roman(int(match['cap']))}"]
    letter_suffix = f"-{match['letter'].upper()}" if match["letter"] else ""
    article = _ordinal(int(match["art"])) + letter_suffix
    parts = [f"art. {article}"]
    if match["par"] == "1u":
        parts.append("parágrafo único")
    elif match["par"]:
        parts.append(f"§ {_ordinal(int(match['par']))}")
    if match["inc"]:
        roman = int_to_roman(int(match["inc"]))
        parts.append(roman if short else f"inciso {roman}")
    if match["ali"]:
        letter = alinea_letter(int(match["ali"]))
        parts.append(letter if short else f"alínea {letter}")
    return parts


def alinea_letter(number: int) -> str:
    """1 → ``"a"`` (the alíneas run a to z)."""
    if not 1 <= number <= 26:
        raise CitationError(f"Alínea fora do intervalo a–z: {number}.")
    return chr(ord("a") + number - 1)


#: Longest part of a citation repeated in a message.
_SHOWN_CHARS = 60


def shown_citation(text: str) -> str:
    """A citation as a message repeats it: «between guillemets», cut short, every
    character that does not show as itself (controls, bidi, zero-width) written U+XXXX,
    never Python's escapes."""
    cut = text[:_SHOWN_CHARS]
    shown = "".join(
        f"U+{ord(char):04X}" if not char.isprintable() else char for char in cut
    )
    return f"«{shown}{'…' if len(text) > _SHOWN_CHARS else ''}»"


def example_citation(laws: Mapping[str, Law]) -> str:
    """``", por exemplo 'lei#art7_inc4'"`` with a real fragment of the pack's first law."""
    for law in laws.values():
        for fragment in law.fragments.values():
            if fragment.kind != "capitulo":
                return f", por exemplo '{law.id}#{fragment.id}'"
    return ""
