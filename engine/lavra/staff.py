"""The values staff keep over the pack's data (decreed days, yearly values), as the
engine reads them: the registry's rows in force turned into the calendar and parameter
overlay of :mod:`lavra.law.overlay`, re-read only when the registry changed; and the
parameters a pack lets staff set.
"""

from __future__ import annotations

from collections.abc import Iterable

from lavra.law.overlay import DecreedDay, StaffOverlay, StaffPeriod
from lavra.law.params import MONEY_UNIT, Parameters
from lavra.registry.staff_values import StaffKind, StaffValue
from lavra.registry.store import Registry

__all__ = ["RegistryStaffValues", "add_staff_parameter", "overlay_of", "settable_parameters"]


def overlay_of(values: Iterable[StaffValue]) -> StaffOverlay:
    """The staff values in force (revoked ones left out) as the engine's overlay."""
    days: list[DecreedDay] = []
    periods: list[StaffPeriod] = []
    for value in values:
        if not value.in_force:
            continue
        if value.kind is StaffKind.DAY:
            days.append(DecreedDay(value.since, value.value["tipo"], value.value["nome"],
                                   value.act))
        else:
            periods.append(StaffPeriod(value.key, value.since, value.until, value.amount,
                                       value.act))
    return StaffOverlay(days=tuple(days), periods=tuple(periods))


class RegistryStaffValues:
    """The registry's staff values as the engine reads them for every document.

    One cheap query per document tells whether anything was registered or revoked
    since the last read (by this process or another: the CLI, a second web worker);
    only then are the rows read again. A new value counts from the next document.
    """

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._cached: tuple[tuple[int, int, int], StaffOverlay] | None = None

    def __call__(self) -> StaffOverlay:
        stamp = self.registry.staff_values_stamp()
        cached = self._cached
        if cached is not None and cached[0] == stamp:
            return cached[1]
        overlay = overlay_of(self.registry.staff_values(include_revoked=False))
        self._cached = (stamp, overlay)
        return overlay


def settable_parameters(parameters: Parameters) -> dict[str, str]:
    """The parameters staff may register (the pack names who: ``cadastrado_por``)."""
    return {name: parameters.parameter(name).description for name in parameters
            if parameters.parameter(name).registered_by}


def add_staff_parameter(
    registry: Registry, parameters: Parameters, name: str, year: object, value: object,
    *, act: str, by: str,
) -> StaffValue:
    """Register a year's value of a parameter the pack lets staff set (money in cents)."""
    settable = settable_parameters(parameters)
    places = 2 if name in settable and parameters.parameter(name).unit == MONEY_UNIT else 4
    return registry.add_staff_parameter(name, year, value, act=act, by=by, settable=settable,
                                        places=places)
