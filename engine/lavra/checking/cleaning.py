"""The check's cleaning of its data, in one walk where the data is already clean.

:func:`lavra.inputs.reading.check_values` walks the data twice (numbers and nesting, then
keys and strings) building a path per node; a check cleans data every boundary has
cleaned already (the registry's, a batch line's), for each document of a run's plan and
worker. :func:`checked_values` walks it once, by exact types, without paths: a tree of
dicts (keys of printable ASCII, tabs and line breaks kept), lists, strings, ints, bools,
finite floats and ``None`` within :data:`~lavra.inputs.textnorm.MAX_DEPTH` whose strings
hold no refused character and are, in NFC, within
:data:`~lavra.inputs.reading.MAX_STRING_CHARS` is returned as the copy ``check_values``
would return (each string in NFC, as :func:`~lavra.inputs.textnorm.clean_text` gives it).
Anything else (a refused character or number, a key to normalize, a tuple, a subclass,
nesting too deep) is handed to ``check_values`` whole, so every error is its own.

:func:`json_copy` is :func:`copy.deepcopy` of the data a check starts from (a licence's
data read from the registry, copied to be changed), by exact types.
"""

from __future__ import annotations

from copy import deepcopy
from math import isfinite
from typing import Any

from lavra.inputs.reading import MAX_STRING_CHARS, check_values
from lavra.inputs.textnorm import MAX_DEPTH, _plain, forbidden_character, nfc

__all__ = ["checked_values", "json_copy"]


class _Slow(Exception):
    """The data needs :func:`check_values`' own walk."""


def checked_values(data: Any) -> Any:
    """``check_values(data)``: the same copy, or the same error."""
    try:
        return _copy(data, 0)
    except (_Slow, RecursionError):
        return check_values(data)


def _copy(node: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:  # check_values names where: its walk says it
        raise _Slow
    kind = type(node)
    if kind is str:
        if _plain(node):
            text = node
        elif forbidden_character(text := nfc(node)) is not None:
            raise _Slow
        if len(text) > MAX_STRING_CHARS:
            raise _Slow
        return text
    if kind is int or kind is bool or node is None:
        return node
    if kind is dict:
        out: dict[str, Any] = {}
        for key, value in node.items():
            # Plain keys are their own NFC: distinct in the dict, distinct cleaned.
            if type(key) is not str or not _plain(key):
                raise _Slow
            out[key] = _copy(value, depth + 1)
        return out
    if kind is list:
        return [_copy(value, depth + 1) for value in node]
    if kind is float and isfinite(node):
        return node
    raise _Slow


def json_copy(value: Any) -> Any:
    """``deepcopy(value)`` of JSON data (no value in it shared by two places, as JSON
    read from the registry is): dicts and lists copied, strings, numbers, booleans and
    ``None`` kept (immutable); any other type (a subclass, a tuple) by ``deepcopy``."""
    kind = type(value)
    if kind is dict:
        return {key: json_copy(item) for key, item in value.items()}
    if kind is list:
        return [json_copy(item) for item in value]
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return value
    return deepcopy(value)
