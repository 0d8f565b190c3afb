"""The plan's check handed to the worker that signs the act, when nothing it rests on
changed: the worker does not check the same data again.

A run's plan checks every act before numbering it (nothing is numbered that cannot be
issued: :meth:`lavra.batch.model.PlanContext.prepare`); its worker, building the act,
would run the same check again (:meth:`lavra.issuing.Issuer.build_document`). The
plan's outcome (:class:`~lavra.documents.Prepared`: the cleaned data, the computed
values, the report) is the worker's own when the worker would check the same thing on
the same registry, that is when none of these changed between the two:

- the data: the item's form, its data (a correction by staff changes them,
  :mod:`lavra.batch.correction`) and the run's reference date are the outcome's key;
- the licensing state of what the data name (a cancellation, a cassação and its bar,
  another grant, a transfer, a name recorded by another act) and the Secretaria's values
  (vigências, taxas): the stamp of :func:`lavra.registry.check_stamp.check_stamp`, read
  by the plan before its check and by the worker before it takes the outcome (one
  indexed statement: ≈ 1.5 ms of CPU with the key, where the check costs ≈ 6). A holder
  whose history is too long to stamp at a bounded cost (a company's whole fleet:
  :data:`lavra.registry.check_stamp.HISTORY`) has no stamp, and its acts are checked
  again in full; so is an act whose holder another act of the same run touched (the
  company's other alvará renewed just before: "another grant");
- the day of signing (a computation may read it), and the pack (its version);
- the bound on backdating is not taken from the plan: it is computed again for the day
  the act is signed (:meth:`lavra.issuing.Issuer.build_document`).

Otherwise the worker checks in full, as without the hand-off, and refuses or adapts as
it would have. Either way the recording transaction's guards
(:mod:`lavra.registry.guards`) decide last, under the lock.

The design chosen: outcomes kept in this process's memory, filled by the plan
(:func:`keep`) and inherited by the workers ``lavra batch`` forks after planning
(:mod:`lavra.batch.work`). A worker spawned, or a run resumed by a new process, finds
nothing and checks in full. Kept on the run's items instead (a migration), they would
survive a resume, but the computed values (dates, decimals, nested values) would have
to be written and read back exactly, and a resume is the rare case: the memory costs
no migration, no serialisation and nothing to get wrong there. The map is emptied when
a plan starts and when the run ends (:func:`forget`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from lavra.inputs.reading import TIMEZONE
from lavra.registry.check_stamp import check_stamp, keys_of

if TYPE_CHECKING:
    from lavra.documents import Prepared
    from lavra.issuing import Issuer

__all__ = ["HandedOff", "forget", "keep", "kept", "prepared_by_plan", "stamped"]


@dataclass(frozen=True)
class HandedOff:
    """The plan's outcome of one act's check, and what it rested on."""

    prepared: Prepared
    stamp: tuple[Hashable, ...]
    signed_on: date
    """The day the plan checked it as signed on."""
    pack: str
    """The pack's version."""


_KEPT: dict[tuple[str, str, str], HandedOff] = {}
_LONG: set[str] = set()
"""The keys (numbers, plates) this plan found with a history too long to stamp."""


def _key(form_id: str, data: Mapping[str, Any], on: date) -> tuple[str, str, str] | None:
    """The key of an act's check: the form, the reference date, the digest of its data
    as JSON (the item keeps them as JSON); None for data that are not JSON."""
    try:
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return form_id, on.isoformat(), hashlib.sha256(text.encode()).hexdigest()


def signing_day(issuer: Issuer) -> date:
    """The day an act checked now is signed on (the issuer's clock, else today)."""
    return (issuer.clock() if issuer.clock is not None
            else datetime.now(TIMEZONE)).astimezone(TIMEZONE).date()


def stamped(issuer: Issuer, data: Mapping[str, Any]) -> tuple[Hashable, ...] | None:
    """The stamp of what a check of ``data`` rests on, read now (None: none,
    :data:`lavra.registry.check_stamp.HISTORY`)."""
    return check_stamp(issuer.registry, keys_of(data))


def keep(issuer: Issuer, form_id: str, data: Mapping[str, Any], on: date,
         check: Callable[[], Prepared]) -> Prepared:
    """``check()`` (the plan's check of ``data`` as ``form_id`` on ``on``), kept with the
    stamp read before it: a change the check saw is then a change the worker sees."""
    key = _key(form_id, data, on)
    keys = keys_of(data)
    named = keys.numbers | keys.plates
    if key is None or named & _LONG:
        return check()
    stamp, day = check_stamp(issuer.registry, keys), signing_day(issuer)
    prepared = check()
    if stamp is None:
        # a history too long to stamp at a bounded cost: this holder's acts are checked
        # again in full, and not stamped again by this plan (its history only grows)
        _LONG.update(named)
    else:
        _KEPT[key] = HandedOff(prepared, stamp, day, issuer.engine.content.version)
    return prepared


def prepared_by_plan(issuer: Issuer, form_id: str, data: Mapping[str, Any],
                     on: date | None) -> Prepared | None:
    """The plan's outcome for this act, when nothing it rests on changed (module
    docstring); None: the worker checks in full."""
    key = None if on is None or not _KEPT else _key(form_id, data, on)
    found = None if key is None else _KEPT.get(key)
    # an incomplete outcome is not taken: the worker's refusal is its own full check's
    if found is None or not found.prepared.report.complete \
            or found.pack != issuer.engine.content.version \
            or found.signed_on != signing_day(issuer):
        return None
    return found.prepared if stamped(issuer, data) == found.stamp else None


def kept() -> int:
    """How many outcomes this process keeps."""
    return len(_KEPT)


def forget() -> None:
    """Forget every outcome kept (a plan starts; a run ended)."""
    _KEPT.clear()
    _LONG.clear()
