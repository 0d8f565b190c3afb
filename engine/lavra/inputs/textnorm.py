"""Text from outside, made to be what it shows: the one normaliser of the engine.

Every string that enters lavra from a person (JSON data files, API bodies, web form
posts, fields typed into a fillable PDF, command-line text options such as a
cancellation reason or a user's name) goes through :func:`clean_text` (one value) or
:func:`clean_tree` (a JSON value, keys and strings alike):

* it is put in Unicode normal form C (NFC), so that "José" typed with a decomposed
  accent (``e`` + U+0301) is stored, compared, signed and searched as the one "José";
* it is refused, with an :class:`~lavra.errors.InputError` naming the field, the
  character (by its code point and name) and its position, when it holds a character
  that does not show as itself: control characters other than tab, line feed and
  carriage return (C0, DEL, C1 such as U+0085 NEL), line/paragraph separators,
  format characters (Unicode category ``Cf``: the bidirectional controls U+202A–U+202E,
  U+2066–U+2069, U+200E/U+200F, U+061C, zero-width space and joiners, U+FEFF, the soft
  hyphen...), private-use and unassigned code points, and lone surrogates.

A bidirectional override makes a signed document show a company name reordered from
the one stored and checked; a zero-width character makes two names that look the same
differ; a private-use character prints as whatever a font puts there. None of them has
a place in the data of an official document.

Only the standard library (:mod:`unicodedata`) is used. The set of unassigned code
points is that of the Python's Unicode database (Unicode 15.0 on Python 3.11).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from lavra.errors import InputError
from lavra.inputs import pointers

__all__ = ["MAX_DEPTH", "clean_text", "clean_tree", "forbidden_character", "nfc"]

#: Deepest nesting accepted in data from outside.
MAX_DEPTH = 12

#: Whitespace controls a text field may hold (multi-line fields).
_ALLOWED_CONTROLS = frozenset("\t\n\r")

#: Categories refused: controls, format, surrogates, private use, unassigned, and the
#: line/paragraph separators (U+2028/U+2029, which some readers take as line breaks
#: and others not).
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

_CATEGORY_WORDS = {
    "Cc": "caractere de controle",
    "Cf": "caractere invisível de formatação",
    "Cs": "metade isolada de par substituto (surrogate)",
    "Co": "caractere de uso privado",
    "Cn": "caractere não atribuído pelo Unicode",
    "Zl": "separador de linha",
    "Zp": "separador de parágrafo",
}


def nfc(text: str) -> str:
    """``text`` in Unicode normal form C (lone surrogates are left for the check)."""
    try:
        return unicodedata.normalize("NFC", text)
    except UnicodeError:  # pragma: no cover - normalize accepts any str in CPython
        return text


def forbidden_character(text: str) -> tuple[int, str] | None:
    """The first character of ``text`` that does not show as itself, with its index."""
    for index, char in enumerate(text):
        if char in _ALLOWED_CONTROLS:
            continue
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            return index, char
    return None


#: Names of the controls most often found (the Unicode database gives controls no name,
#: only aliases, which :mod:`unicodedata` does not list by code point).
_CONTROL_NAMES = {
    0x00: "NULL",
    0x08: "BACKSPACE",
    0x0B: "LINE TABULATION",
    0x0C: "FORM FEED",
    0x1B: "ESCAPE",
    0x7F: "DELETE",
    0x85: "NEXT LINE (NEL)",
    0xA0: "NO-BREAK SPACE",
}


def describe_character(char: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE), caractere invisível de formatação``."""
    code = f"U+{ord(char):04X}"
    category = unicodedata.category(char)
    name = unicodedata.name(char, "") or _CONTROL_NAMES.get(ord(char), "")
    words = _CATEGORY_WORDS.get(category, "caractere não permitido")
    return f"{code} ({name}), {words}" if name else f"{code}, {words}"


def clean_text(text: str, *, field: str | None = None, what: str | None = None) -> str:
    """``text`` in NFC, or :class:`InputError` when it holds a refused character.

    ``field`` is the JSON pointer of the value (for data) and ``what`` how the message
    names it (an option such as ``--reason``); one of them should be given.
    """
    normal = nfc(text)
    found = forbidden_character(normal)
    if found is None:
        return normal
    index, char = found
    subject = what or (f"O campo {field}" if field else "O texto informado")
    raise InputError(
        f"{subject} contém um caractere que não aparece como é e não é permitido: "
        f"{describe_character(char)}, na posição {index + 1}. Apague-o e digite o texto "
        "de novo, sem colar de outro programa.",
        field=field,
    )


def _clean_key(key: str, where: str) -> str:
    normal = nfc(key)
    found = forbidden_character(normal)
    if found is not None:
        place = "no nível principal dos dados" if where in ("", "/") else f"em {where}"
        raise InputError(
            f"Nome de campo com caractere não permitido {place}: "
            f"{describe_character(found[1])}, na posição {found[0] + 1} do nome.",
            field=where or "/",
        )
    return normal


def clean_tree(
    node: Any,
    *,
    max_string: int,
    path: tuple[str, ...] = (),
    max_depth: int = MAX_DEPTH,
) -> Any:
    """A JSON value with every key and string cleaned by :func:`clean_text`.

    Also bounds nesting (``max_depth``) and the length of each string (``max_string``
    characters, counted after NFC). Keys that become equal under NFC are refused as
    repeated. Returns a new value; ``node`` is not changed.
    """
    if len(path) > max_depth:
        where = pointers.join(path) or "/"
        raise InputError(f"Dados aninhados em excesso em {where}.", field=where)
    if isinstance(node, str):
        text = node if _plain(node) else clean_text(node, field=pointers.join(path) or "/")
        if len(text) > max_string:
            where = pointers.join(path) or "/"
            raise InputError(
                f"O campo {where} excede o tamanho máximo de {max_string} caracteres.",
                field=where,
            )
        return text
    if type(node) in _LEAVES:  # numbers, booleans, null: most of a form's values
        return node
    if type(node) is dict or isinstance(node, Mapping):  # a dict spares the ABC's check
        out: dict[str, Any] = {}
        for key, value in node.items():
            name = str(key)
            clean = name if _plain(name) else _clean_key(name, pointers.join(path) or "/")
            if clean in out:
                where = pointers.join((*path, clean))
                raise InputError(
                    f"O campo {where} aparece duas vezes, escrito de formas diferentes.",
                    field=where,
                )
            out[clean] = clean_tree(
                value, max_string=max_string, path=(*path, clean), max_depth=max_depth
            )
        return out
    if isinstance(node, list | tuple):
        return [
            clean_tree(value, max_string=max_string, path=(*path, str(i)), max_depth=max_depth)
            for i, value in enumerate(node)
        ]
    return node


#: The JSON values :func:`clean_tree` returns as they are (exact types: a subclass
#: takes the general path).
_LEAVES = frozenset({int, float, bool, type(None)})

#: ASCII controls refused (tab, line feed and carriage return are kept).
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _plain(text: str) -> bool:
    """Printable ASCII (with tabs and line breaks): already clean, the common case."""
    return text.isascii() and _ASCII_CONTROL.search(text) is None
