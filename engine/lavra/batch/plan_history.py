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

Inside :meth:`PlanHistory.reading_ahead` (the plan's read scope, :meth:`lavra.batch.model.
PlanContext.reading`), the acts, licences and bars of every holder of the plan are read
at once (:mod:`lavra.batch.plan_reads`) and each lookup they cover is answered from
them, as the registry's query would answer it in the same snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date
from typing import Any, TypeVar

from lavra.batch.plan_reads import PlanReads
from lavra.checking.computations import PriorRecord
from lavra.checking.report import Item
from lavra.issuing import _PRINTED_NUMBER, RegistryHistory, _prior
from lavra.registry.effects import Effect, VehicleRef
from lavra.registry.identities import _named, digits
from lavra.registry.licence_reads import LicenceQuestions
from lavra.registry.licensing import LicenceView

__all__ = ["PlanHistory"]

T = TypeVar("T")


class PlanHistory(RegistryHistory):
    """:class:`~lavra.issuing.RegistryHistory` whose lookups are asked once per holder
    (module docstring)."""

    def __init__(self, registry: Any) -> None:
        super().__init__(registry)
        self._memo: dict[Hashable, Any] | None = None
        self._reads: PlanReads | None = None

    @contextmanager
    def reading_ahead(self, reads: PlanReads) -> Iterator[None]:
        """The lookups ``reads`` covers answered from it (module docstring); only
        inside the read scope it was read in."""
        self._reads = reads
        try:
            yield
        finally:
            self._reads = None

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
        reads = self._reads
        match = _PRINTED_NUMBER.search(number) if isinstance(number, str) else None
        found = None if reads is None or match is None or self.retry_of is not None \
            else reads.numbered(form, int(match.group(1)), int(match.group(2)))
        if reads is not None and found is not None:  # as RegistryHistory._kept
            return None if not found else _prior(
                found[0], reads.facts.get(found[0].id, ()), reads.annulled.get(found[0].id))
        lookup = super().document
        return self._once(("document", form, number), lambda: lookup(form, number))

    def answering(self, questions: LicenceQuestions) -> RegistryHistory:
        """Read ahead, the plan answers the check's licence lookups already (each one
        it does not cover is read on its own, as :meth:`licence_status` and the others
        say): no statement of its own; else as :meth:`RegistryHistory.answering`."""
        if self._reads is not None:
            return self
        return super().answering(questions)

    def licence_status(self, number: str, kind: str | None = None) -> LicenceView | None:
        found = None if self._reads is None or not isinstance(number, str) \
            else self._reads.licence(number)
        if found is not None:  # the series named: the kind does not count
            return found[0]
        lookup = super().licence_status
        return self._once(("status", number, kind), lambda: lookup(number, kind))

    def holder_licences(self, cpf_cnpj: str, on: date,
                        kind: str | None = None) -> tuple[LicenceView, ...]:
        views = None if self._reads is None else self._reads.holder_views(cpf_cnpj)
        if views is not None:  # as RegistryState.licences_held
            return self._others(tuple(view for view in views if view.holds(on)
                                      and (kind is None or view.kind == kind)))
        lookup = super().holder_licences
        return self._once(("held", cpf_cnpj, on, kind), lambda: lookup(cpf_cnpj, on, kind))

    def vehicle_licences(self, placa: str, on: date) -> tuple[LicenceView, ...]:
        views = None if self._reads is None else self._reads.vehicle_views(placa)
        if views is not None:
            return self._others(tuple(view for view in views if view.holds(on)))
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
        found = None if self._reads is None else self._reads.bars_of(cpf_cnpj, on)
        if found is not None:  # as RegistryHistory.bars
            return sorted(((until, act) for kind, until, act in found if kind == scope),
                          reverse=True)
        lookup = super().bars
        return list(self._once(("bars", cpf_cnpj, scope, on),
                               lambda: tuple(lookup(cpf_cnpj, scope, on))))

    def _identity_items(self, effects: Sequence[Effect],
                        data: Mapping[str, Any]) -> list[Item]:
        """Read ahead, a vehicle whose plate's RENAVAM is the draft's has no conflict
        (:meth:`PlanReads.renavam_agrees`): its answer is kept in the read scope under
        the key :func:`lavra.registry.identities.effect_identity_conflicts` asks, which
        then reads no statement for it; every other vehicle and driver is read."""
        reads = self._reads
        if reads is not None:
            for ref, citation in _named(effects):
                if isinstance(ref, VehicleRef) and isinstance(ref.placa, str) \
                        and isinstance(ref.renavam, str) \
                        and reads.renavam_agrees(ref.placa, digits(ref.renavam)):
                    self.registry.remembered(("identity", ref, citation), _no_conflict)
        return super()._identity_items(effects, data)


def _no_conflict() -> None:
    return None
