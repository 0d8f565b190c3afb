"""The facts a licence keeps in the state (:data:`lavra.registry.effects.Facts`): set by
the act that grants it, replaced in part by the acts that change it (a transfer, a change
of vehicle), read back by the acts that come later (a renewal).

Stored as one JSON object on the licence (``licences.facts``, pointer → value), kept
with the licence's other columns for undo (:data:`lavra.registry.reversal.KEPT`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["as_facts", "replaced", "stored"]


def stored(facts: Iterable[tuple[str, Any]]) -> dict[str, Any] | None:
    """The column's value of ``facts`` (None when there are none)."""
    kept = {pointer: value for pointer, value in facts if value is not None}
    return kept or None


def _under(pointer: str, prefix: str) -> bool:
    base = prefix.rstrip("/")
    return pointer == base or pointer.startswith(base + "/")


def replaced(old: object, facts: Iterable[tuple[str, Any]],
             replaces: Iterable[str]) -> dict[str, Any] | None:
    """The facts ``old`` (the column's value) becomes after an act stating ``facts`` and
    ending those under ``replaces``: a new object, never ``old`` changed in place."""
    ends = tuple(replaces)
    kept = {pointer: value for pointer, value in (old.items() if isinstance(old, Mapping)
                                                  else ())
            if not any(_under(pointer, prefix) for prefix in ends)}
    kept.update((pointer, value) for pointer, value in facts if value is not None)
    return kept or None


def as_facts(column: object) -> tuple[tuple[str, Any], ...]:
    """The column's value as :data:`~lavra.registry.effects.Facts`, by pointer."""
    return tuple(sorted(column.items())) if isinstance(column, Mapping) else ()
