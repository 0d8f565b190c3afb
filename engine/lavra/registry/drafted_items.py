"""Which items of a request decided by several acts (one per item: an alvará per vehicle,
:mod:`lavra.filedacts`) already have their act from it: «Preparar ato» again drafts only
the others.

Only the first draft of such a request is linked to the filing
(``filing_progress.draft_id``); the others are drafts of the same processo. So a draft
is read as being *from the filing* by what it holds, not by a link of its own (no table
is added for it): a draft of the act's form, created since the filing was filed, whose
data names the filing's processo (its number, or the PA staff linked to it, as the
registry keeps them) at the pointer the pack declares; and *of an item* by the value at the
item's pointer (the plate), compared without case, spaces or punctuation. Such a
draft keeps its item while it is a rascunho or in the signing queue, or issued into an
act not cancelled; a discarded draft, or one whose act was cancelled, frees it.

Read under the filing's row lock, in «Preparar ato»'s transaction
(:meth:`lavra.registry.inbox.Inbox.prepare`): two clerks preparing the same filing are
serialized by that lock, so neither drafts an item the other drafted. The query reads
the drafts of the form by the index on (status, form), those created since the filing,
whose data names the processo (a JSON path the database reads), and decodes only them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from lavra.inputs import pointers
from lavra.registry.tables import DocumentRow, DraftRow, FilingRow, ProcessoRow

__all__ = ["drafted_items", "item_key"]

_LIVE = ("rascunho", "encaminhado")


def item_key(data: Mapping[str, Any], item_at: str) -> str | None:
    """The item an act's data is about (its value at ``item_at``), folded for comparison
    (``ABC-1D23`` and ``abc1d23`` are one plate); None when the data names none."""
    return _fold(pointers.get(data, item_at))


def drafted_items(session: Session, filing: FilingRow, form: str, *, item_at: str,
                  processo_at: str) -> dict[str, int]:
    """The items (:func:`item_key`) that drafts of ``form`` from ``filing`` still hold,
    each with the draft's id (module docstring)."""
    processo = session.get(ProcessoRow, filing.processo_id)
    kept = [n for n in (processo.numero, processo.pa) if n] if processo else []
    path = tuple(pointers.split(processo_at))
    if not kept or not path:
        return {}
    rows = session.execute(
        select(DraftRow.id, DraftRow.data)
        .outerjoin(DocumentRow, DocumentRow.id == DraftRow.document_id)
        .where(DraftRow.form == form, DraftRow.created_at >= filing.filed_at,
               # the number as «Preparar ato» writes it (the processo's, as kept): only
               # the drafts of this processo are decoded
               DraftRow.data[path].as_string().in_(kept),
               or_(DraftRow.status.in_(_LIVE),
                   (DraftRow.status == "emitido") & (DocumentRow.status == "issued")))
        .order_by(DraftRow.id)).all()
    held: dict[str, int] = {}
    for ident, data in rows:
        key = item_key(data, item_at)
        if key is not None:
            held.setdefault(key, int(ident))
    return held


def _fold(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    folded = re.sub(r"[\W_]+", "", value).upper()
    return folded or None
