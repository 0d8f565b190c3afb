"""A person's timeline with the changes of name staff recorded
(:mod:`lavra.registry.name_records`) among the acts' changes, by date: what ``lavra
cadastro mostrar`` prints and the party's staff page shows."""

from __future__ import annotations

from collections.abc import Sequence

from lavra.registry.licensing import TimelineEntry
from lavra.registry.name_records import NameRecord

__all__ = ["RECORDED", "with_name_changes"]

RECORDED = "Alteração de nome registrada"
"""What stands for the act in a change of name's line (no act made it)."""


def with_name_changes(entries: Sequence[TimelineEntry], records: Sequence[NameRecord]
                      ) -> tuple[TimelineEntry, ...]:
    """``entries`` (oldest first) with a line for each record, after the acts of its
    day; the line names no document (``document_id`` 0)."""
    lines = [TimelineEntry(on=r.recorded_on, printed=RECORDED, detail=r.describe(),
                           document_id=0) for r in records]
    return tuple(sorted((*entries, *lines), key=lambda entry: entry.on))
