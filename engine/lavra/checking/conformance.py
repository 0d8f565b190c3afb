"""Whether a history answers a question (a ``runtime_checkable`` Protocol), cheaply.

``isinstance`` against a runtime Protocol walks the Protocol's members on every call (about
5 µs each, warm); a check asks it of the same history several times per document, and a run's
plan and worker for every document. The answer for a class is the class's
``issubclass``, kept once per (class, Protocol); an object whose class does not conform
is asked by ``isinstance`` as before (its own attributes may answer), so the answer is
always the one ``isinstance`` gives.
"""

from __future__ import annotations

__all__ = ["conforms"]

_CONFORMING: set[tuple[type, type]] = set()


def conforms(value: object, protocol: type) -> bool:
    """``isinstance(value, protocol)`` for a ``runtime_checkable`` ``protocol`` of methods
    only (``issubclass`` refuses a Protocol with data members)."""
    if value is None:
        return False
    key = (type(value), protocol)
    if key in _CONFORMING:
        return True
    if issubclass(type(value), protocol):  # every instance of the class conforms
        _CONFORMING.add(key)
        return True
    return isinstance(value, protocol)
