"""What every computation of the Americana pack reads: laws, parameters, calendar, amounts.

The laws, parameters, business calendar and deadline table are loaded once per
content-pack folder; :func:`clear_caches` forgets them (e.g. after the pack was edited
in a long-running process). Implements no provision.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lavra.checking.computations import form_basis
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


@lru_cache(maxsize=8)
def _examples(root: Path) -> Parameters:
    return load_example_values(root)


def pack_root(pack_dir: Path) -> Path:
    return Path(pack_dir).resolve()


def rule_sources(pack_dir: Path, example: bool) -> tuple[StatutoryContext, AmountSources]:
    root = pack_root(pack_dir)
    context = _statutory(root)
    sources = AmountSources(
        laws=context.laws,
        parameters=context.parameters,
        examples=_examples(root) if example else None,
    )
    return context, sources


def clear_caches() -> None:
    """Forget the laws, parameters, calendars, example tables and form lists loaded so far."""
    _statutory.cache_clear()
    _examples.cache_clear()
    form_basis.cache_clear()


def statutory_context(pack_dir: Path) -> StatutoryContext:
    """The laws, parameters, calendar and deadline table of the pack at ``pack_dir``."""
    return _statutory(pack_root(pack_dir))
