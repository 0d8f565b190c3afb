"""Starting a document from what the licensing state knows of a vehicle.

A pack declares, form by form (``ContentPack.prefills``), which licences its form
looks at (their kinds: the forms that grant them) and how the state fills the form's
fields (:attr:`Prefill.fill`, a function of the pack beside the article it serves).
The engine looks the plate up (old or Mercosul form, through the vehicles' plate
index), gathers a :class:`PlateFinding` and hands it, with the signed-in staff
member (:class:`StaffMember`), to that function; it knows nothing of the fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lavra.registry.licensing import LicenceView

__all__ = ["PlateFinding", "Prefill", "StaffMember"]


@dataclass(frozen=True)
class StaffMember:
    """The staff member who opens the form: full name and matrícula (None when the
    account records none)."""

    full_name: str
    registration: str | None


@dataclass(frozen=True)
class PlateFinding:
    """What the state holds of one plate, for the form's kinds of licence.

    ``placa``: the plate as typed, normalized. ``in_force``: the licence that holds the
    vehicle's place on the day (in force or suspended), None when none does.
    ``latest``: the licence whose act is read (``in_force``, else the vehicle's most
    recent one of any status), None when the state holds no licence of the vehicle.
    ``act_data``: the data of ``latest``'s granting act (what the alvará recorded of
    the holder and the vehicle); empty without ``latest``. ``status``: how the
    state describes ``latest`` on the day (pt-BR: "em vigor", "cassado em ...")."""

    placa: str
    in_force: LicenceView | None
    latest: LicenceView | None
    act_data: Mapping[str, Any] = field(default_factory=dict)
    status: str | None = None


@dataclass(frozen=True)
class Prefill:
    """How a form starts from a plate: the kinds of licence it looks at (the ids of the
    forms granting them) and the function that maps the state to the form's data."""

    kinds: tuple[str, ...]
    fill: Callable[[PlateFinding, StaffMember], Mapping[str, Any]]
    #: The field where the plate is typed and the message about it goes (a JSON pointer).
    plate_field: str = "/veiculo/placa"
