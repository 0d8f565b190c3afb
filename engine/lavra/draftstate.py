"""What the registry says of a draft before it is numbered, as the checks' items.

Three questions (:func:`lavra.checking.computations.state_items`): each party the draft
names otherwise than the registry (:mod:`lavra.registry.party_names`), each vehicle or
driver against it (:mod:`lavra.registry.identities`), each earlier act the draft's date
precedes (:mod:`lavra.registry.rests_on_dates`). All three read the pack's effects of
the form run over the draft: :meth:`DraftStateChecks.state_items` runs them once and
asks the three questions of that one run, in the caller's read scope (the check's
snapshot). Implements no provision: each finding cites the provision of its effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import TYPE_CHECKING, Any

from lavra.checking.report import Item, Status
from lavra.registry.effects import Effect
from lavra.registry.identities import draft_effects, effect_identity_conflicts
from lavra.registry.party_names import NameChange, effect_name_changes, json_pointer
from lavra.registry.rests_on_dates import effect_date_conflicts

if TYPE_CHECKING:
    from collections.abc import Sequence

    from lavra.registry.store import Registry

__all__ = ["DraftStateChecks", "name_change_item"]


def name_change_item(change: NameChange) -> Item:
    """The report's item on ``change``: met (a warning that does not block) for a
    company's new razão social, invalid for a person's other name (the reading beside
    :class:`lavra.registry.party_names.NameChange`)."""
    return Item(f"parte.nome_registrado.{change.doc}",
                Status.INVALID if change.blocks else Status.MET, change.pointer,
                change.message("este ato"))


class DraftStateChecks:
    """The three questions of the module doc, asked of :attr:`registry` (a mixin of
    :class:`lavra.issuing.RegistryHistory`)."""

    registry: Registry

    def _effects(self, form: str, data: Mapping[str, Any], computed: Mapping[str, Any],
                 on: date) -> list[Effect]:
        return draft_effects(self.registry.effects_for(form), form, data, computed, on)

    def state_items(self, form: str, data: Mapping[str, Any], computed: Mapping[str, Any],
                    on: date, date_field: str) -> list[Item]:
        """The items of the three questions, in their order (dates, names, identities),
        from one run of the effects over the draft."""
        effects = self._effects(form, data, computed, on)
        return [*self._date_items(effects, on, date_field),
                *self._name_items(effects, data),
                *self._identity_items(effects, data)]

    def _name_items(self, effects: Sequence[Effect], data: Mapping[str, Any]) -> list[Item]:
        return [name_change_item(c) for c in effect_name_changes(self.registry, effects, data)]

    def _identity_items(self, effects: Sequence[Effect],
                        data: Mapping[str, Any]) -> list[Item]:
        return [Item(f"identidade.{c.error.field or 'registro'}", Status.INVALID,
                     json_pointer(data, c.typed) or c.error.field or "", c.error.message,
                     (c.citation,) if c.citation else ())
                for c in effect_identity_conflicts(self.registry, effects)]

    def _date_items(self, effects: Sequence[Effect], on: date, field: str) -> list[Item]:
        return [Item(f"data.anterior.{c.target}", Status.INVALID, field, c.message,
                     (c.citation,) if c.citation else ())
                for c in effect_date_conflicts(self.registry, effects, on)]
