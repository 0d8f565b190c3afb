"""What every computation of the Americana pack reads: laws, parameters, calendar, amounts.

The laws, parameters, business calendar and deadline table are loaded once per
content-pack folder; :func:`clear_caches` forgets them (e.g. after the pack was edited
in a long-running process). A computation passes its whole request
(``statutory_context(request)``, ``rule_sources(request, ...)``): the staff values it
carries (days decreed, yearly corrected fines registered by the administrator) are laid
over the pack's calendar and parameters, cached per set of values. A bare folder gives
the pack's shipped data alone. Implements no provision.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lavra.checking.computations import ComputeInput, form_basis
from lavra.law.overlay import EMPTY_OVERLAY, StaffOverlay, overlay_context
from lavra.law.params import Parameters
from lavra.law.statutory import StatutoryContext, load_statutory_context
from lavra_americana.comum.amounts import AmountSources, load_example_values

__all__ = [
    "IMPLEMENTED",
    "clear_caches",
    "pack_root",
    "rule_sources",
    "statutory_context",
]

IMPLEMENTED: tuple[str, ...] = ()
"""Loading only: no provision."""


@lru_cache(maxsize=8)
def _statutory(root: Path) -> StatutoryContext:
    return load_statutory_context(root)


@lru_cache(maxsize=16)
def _overlaid(root: Path, staff: StaffOverlay) -> StatutoryContext:
    return overlay_context(_statutory(root), staff)


@lru_cache(maxsize=8)
def _examples(root: Path) -> Parameters:
    return load_example_values(root)


def _context(source: Path | ComputeInput) -> tuple[Path, StatutoryContext]:
    if isinstance(source, ComputeInput):
        root, staff = pack_root(source.pack_dir), source.staff_values
    else:
        root, staff = pack_root(source), EMPTY_OVERLAY
    return root, (_overlaid(root, staff) if staff else _statutory(root))


@lru_cache(maxsize=8)
def pack_root(pack_dir: Path) -> Path:
    """The pack's folder, resolved once (each computation asks; :func:`clear_caches`
    forgets it)."""
    return Path(pack_dir).resolve()


def rule_sources(
    source: Path | ComputeInput, example: bool
) -> tuple[StatutoryContext, AmountSources]:
    """The context and the amount sources of a request (with its staff values)."""
    root, context = _context(source)
    sources = AmountSources(
        laws=context.laws,
        parameters=context.parameters,
        examples=_examples(root) if example else None,
    )
    return context, sources


def clear_caches() -> None:
    """Forget the laws, parameters, calendars, example tables and form lists loaded so far."""
    _statutory.cache_clear()
    _overlaid.cache_clear()
    _examples.cache_clear()
    pack_root.cache_clear()
    form_basis.cache_clear()


def statutory_context(source: Path | ComputeInput) -> StatutoryContext:
    """The laws, parameters, calendar and deadline table of a request (with its staff
    values) or of the pack at a folder (shipped data alone)."""
    return _context(source)[1]
