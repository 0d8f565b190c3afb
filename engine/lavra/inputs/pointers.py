"""JSON pointers over form data: expanding patterns with ``*`` for array items."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any

_MISSING = object()


def split(pointer: str) -> list[str]:
    """Split a JSON pointer into unescaped tokens (``/a/b~1c`` → ``["a", "b/c"]``)."""
    return list(_tokens(pointer))


@lru_cache(maxsize=4096)
def _tokens(pointer: str) -> tuple[str, ...]:
    """:func:`split`, kept per pointer: a form's checks split the same few hundred
    pointers for every document (the report's requirements, the rules' reads)."""
    if not pointer:
        return ()
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer.lstrip("/").split("/"))


def is_index(token: str) -> bool:
    """An array index token: ASCII digits only (``"²"`` is a digit for str.isdigit)."""
    return token.isascii() and token.isdecimal()


def escape(token: str | int) -> str:
    """One token as written in a JSON pointer: ``~`` → ``~0``, ``/`` → ``~1``."""
    return str(token).replace("~", "~0").replace("/", "~1")


def join(tokens: Iterable[str | int]) -> str:
    """Join tokens into a JSON pointer, escaping ``~`` and ``/``."""
    return "".join("/" + escape(t) for t in tokens)


def get(data: Any, pointer: str, default: Any = None) -> Any:
    """The value at ``pointer`` in ``data``, or ``default`` when any step is absent."""
    node = data
    for token in _tokens(pointer):
        # A dict first: the data is JSON (an ABC's isinstance costs ten times more).
        if (type(node) is dict or isinstance(node, Mapping)) and token in node:
            node = node[token]
        elif isinstance(node, list) and is_index(token) and int(token) < len(node):
            node = node[int(token)]
        else:
            return default
    return node


def expand(pattern: str, data: Any) -> Iterator[str]:
    """Concrete pointers for ``pattern`` (``*`` = every item of an array present in data).

    A pattern whose array is absent yields nothing; a pattern with no ``*`` always
    yields itself, whether or not the value exists.
    """
    if "*" not in pattern:  # no array to walk: the pattern itself, as written below
        yield _rejoined(pattern)
        return
    tokens = _tokens(pattern)

    def walk(node: Any, i: int, prefix: list[str]) -> Iterator[str]:
        if i == len(tokens):
            yield join(prefix)
            return
        token = tokens[i]
        if token == "*":
            if isinstance(node, list):
                for index, item in enumerate(node):
                    yield from walk(item, i + 1, [*prefix, str(index)])
            return
        child = node.get(token, _MISSING) if isinstance(node, Mapping) else _MISSING
        yield from walk(None if child is _MISSING else child, i + 1, [*prefix, token])

    yield from walk(data, 0, [])


@lru_cache(maxsize=4096)
def _rejoined(pointer: str) -> str:
    return join(_tokens(pointer))


def is_within(pointer: str, ancestor: str) -> bool:
    """True when ``pointer`` is ``ancestor`` or lies below it."""
    return pointer == ancestor or pointer.startswith(ancestor + "/")


def dotted(pointer: str) -> str:
    """A requirement id from a pointer: ``/veiculos/0/placa`` → ``veiculos.0.placa``."""
    return ".".join(_tokens(pointer))


def said_as(message: str, pointer: str, label: str) -> str | None:
    """``message`` with ``pointer`` written in it («O campo /empresa/cnpj contém…»)
    replaced by «``label``» (or, without a label, by its keys: «empresa › cnpj», an item
    as «item 2»); None when the message does not write the pointer."""
    tokens = split(pointer) if pointer.startswith("/") else []
    if not tokens or not all(tokens):
        return None
    at = re.compile(rf"(?<![\w/]){re.escape(pointer)}(?![\w/])")
    if not at.search(message):
        return None
    plain = " › ".join(f"item {int(t) + 1}" if is_index(t) else t for t in tokens)
    return at.sub(lambda _m: f"«{label or plain}»", message)
