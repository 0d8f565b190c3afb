"""The registry as one holder's checks read it in a plan: each lookup asked once.

    history = PlanHistory(issuer.registry)
    with registry.read_scope(), history.holder():
        context.check_request(...); context.prepare(...); context.check(...)

A plan checks each holder's requerimento, then the act (and, for a school renewal, the
selo that rests on it) before it numbers them (:class:`lavra.batch.model.PlanContext`).
Those checks ask the registry the same questions: the licence being renewed as an
earlier act (:meth:`~lavra.issuing.RegistryHistory.document`), its standing in the
licensing state, the licences its holder and its vehicle hold. Inside
:meth:`PlanHistory.holder`, which the plan opens around one holder's decision, in the
same read scope (one snapshot: nothing is written while a plan decides), each such
lookup is read once and its answer given again to the next check that asks; outside
it, and from one holder to the next, nothing is kept (every lookup reads the registry,
as :class:`~lavra.issuing.RegistryHistory` does). The answers are frozen records (a filing,
whose data is a mapping, is not among them); a list is handed out as a copy of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any, TypeVar

from lavra.checking.computations import PriorRecord
from lavra.issuing import RegistryHistory
from lavra.registry.licensing import LicenceView

__all__ = ["PlanHistory"]

T = TypeVar("T")


class PlanHistory(RegistryHistory):
    """:class:`~lavra.issuing.RegistryHistory` whose lookups are asked once per holder
    (module docstring)."""

    def __init__(self, registry: Any) -> None:
        super().__init__(registry)
        self._memo: dict[Hashable, Any] | None = None

    @contextmanager
    def holder(self) -> Iterator[None]:
        """One holder's checks: the lookups they repeat are read once (nested: the
        outer holder's)."""
        if self._memo is not None:
            yield
            return
        self._memo = {}
        try:
            yield
        finally:
            self._memo = None

    def _once(self, key: tuple[Any, ...], lookup: Callable[[], T]) -> T:
        memo = self._memo
        if memo is None:
            return lookup()
        try:
            known = key in memo
        except TypeError:  # an argument that is no text nor date: asked as it comes
            return lookup()
        if not known:
            memo[key] = lookup()
        found: T = memo[key]
        return found

    def document(self, form: str, number: str) -> PriorRecord | None:
        lookup = super().document
        return self._once(("document", form, number), lambda: lookup(form, number))

    def licence_status(self, number: str, kind: str | None = None) -> LicenceView | None:
        lookup = super().licence_status
        return self._once(("status", number, kind), lambda: lookup(number, kind))

    def holder_licences(self, cpf_cnpj: str, on: date,
                        kind: str | None = None) -> tuple[LicenceView, ...]:
        lookup = super().holder_licences
        return self._once(("held", cpf_cnpj, on, kind), lambda: lookup(cpf_cnpj, on, kind))

    def vehicle_licences(self, placa: str, on: date) -> tuple[LicenceView, ...]:
        lookup = super().vehicle_licences
        return self._once(("vehicle", placa, on), lambda: lookup(placa, on))

    def in_force(self, placa: str, form: str, on: date) -> list[PriorRecord]:
        lookup = super().in_force
        return list(self._once(("in_force", placa, form, on),
                               lambda: tuple(lookup(placa, form, on))))

    def by_holder(self, cpf_cnpj: str, form: str) -> list[PriorRecord]:
        lookup = super().by_holder
        return list(self._once(("by_holder", cpf_cnpj, form),
                               lambda: tuple(lookup(cpf_cnpj, form))))

    def bars(self, cpf_cnpj: str, scope: str, on: date) -> list[tuple[date, str]]:
        lookup = super().bars
        return list(self._once(("bars", cpf_cnpj, scope, on),
                               lambda: tuple(lookup(cpf_cnpj, scope, on))))
