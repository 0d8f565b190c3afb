"""What an issued act does to the licensing state: the vocabulary a content pack uses to
declare, form by form and beside the article, the effects of its acts.

    def efeitos_alvara(act: Act) -> list[Effect]:       # the law's article on the alvará
        return [Grant(kind="alvara-taxi", holder=PartyRef(cpf, nome),
                      vehicle=VehicleRef(placa, renavam), valid_from=act.reference_date,
                      valid_until=act.valid_until, exclusive="operacao-veiculo",
                      citation="taxi#art3")]

The pack hands the engine one function per form (``ContentPack.effects``); the
registry applies the effects of an act in the same transaction as its record
(:mod:`lavra.registry.state`), and replays them all to rebuild the view. Licences are
named by the number their act printed, with its series (``"ALV-TAXI nº 0007/2026"``).
These are plain values: nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any

__all__ = [
    "STATUS_TEXT",
    "Act",
    "Bar",
    "ChangeVehicle",
    "Cites",
    "DriverRef",
    "Effect",
    "EffectsOf",
    "Facts",
    "Grant",
    "Identify",
    "InProcesso",
    "LicenceStatus",
    "Mention",
    "PartyRef",
    "Restore",
    "Revalidate",
    "SetStatus",
    "Transfer",
    "VehicleRef",
]


class LicenceStatus(StrEnum):
    """Where a licence stands. Expiry is not a status: it is read from the dates."""

    ACTIVE = "active"
    RENEWED = "renewed"
    CASSATED = "cassated"
    REVOKED = "revoked"
    RECALLED = "recalled"
    SUSPENDED = "suspended"
    """Still its holder's and still holding its vehicle's or holder's place, but not to be
    used until an act lifts it (:class:`Restore`): a vehicle withdrawn from service
    until it is regularised. Its accessories stay as they are."""
    VACATED = "vacated"
    TRANSFERRED = "transferred"
    ENDED = "ended"
    """An accessory (selo, auxiliary's alvará, authorisation) whose licence ended."""
    EXPIRED = "expired"
    """Past its last day, closed when a new licence of its group came for the same
    vehicle or person (until then expiry is read from the dates)."""


STATUS_TEXT: Mapping[str, str] = {
    LicenceStatus.ACTIVE: "em vigor",
    LicenceStatus.RENEWED: "renovado",
    LicenceStatus.CASSATED: "cassado",
    LicenceStatus.REVOKED: "revogado",
    LicenceStatus.RECALLED: "recolhido",
    LicenceStatus.SUSPENDED: "suspenso",
    LicenceStatus.VACATED: "vago",
    LicenceStatus.TRANSFERRED: "transferido",
    LicenceStatus.ENDED: "encerrado",
    LicenceStatus.EXPIRED: "vencido",
}
"""The status as an official document says it (masculine: alvará, selo; the pages
agree it with the licence's noun where needed)."""


@dataclass(frozen=True)
class Act:
    """An issued act as the pack's effect functions see it."""

    document_id: int
    form: str
    series: str
    printed: str
    """The number with its series, ``"ALV-TAXI nº 0007/2026"``."""
    data: Mapping[str, Any]
    computed: Mapping[str, Any]
    reference_date: date
    valid_until: date | None


Facts = tuple[tuple[str, Any], ...]
"""Facts of a licence the state keeps for the acts that read it later (a renewal): each
a JSON pointer into the licence's data as its act names it (``/veiculo/tipo``) and its
value (a string or number). The pack declares which, beside the article that needs them;
the engine only keeps them (``LicenceView.facts``)."""


@dataclass(frozen=True)
class PartyRef:
    """A person or company by CPF or CNPJ (masked or not), with the name the act uses."""

    doc: str
    name: str | None = None


@dataclass(frozen=True)
class VehicleRef:
    placa: str
    renavam: str | None = None


@dataclass(frozen=True)
class DriverRef:
    """A driver by the CNH number, and the person who holds it."""

    cnh: str
    person: PartyRef | None = None


@dataclass(frozen=True)
class Grant:
    """The act grants a licence (alvará, licença, autorização, selo) that it numbers.

    ``rests_on``: the licence an accessory rests on (it ends with it). ``renews``: the
    licence this one renews (which becomes "renovado"). ``exclusive``: the group in
    which a vehicle holds one licence at a time; ``per_holder``: the group in which a
    person holds one at a time; ``barred_by``: the scope of the bars (:class:`Bar`) that
    forbid it to its holder. A grant against any of these is refused, naming the act
    that holds the licence (or the bar); a database constraint decides a race.
    """

    kind: str
    holder: PartyRef | None
    valid_from: date
    valid_until: date | None
    citation: str
    vehicle: VehicleRef | None = None
    driver: DriverRef | None = None
    rests_on: str | None = None
    renews: str | None = None
    exclusive: str | None = None
    per_holder: str | None = None
    barred_by: str | None = None
    basis: str = ""
    """The provision of the grant's own standing (its base, the licence it renews), as a
    document cites it (``"art. 13 da Lei nº 4.515/2007"``), for those refusals' message;
    and of a group whose own provision is not declared."""
    exclusive_basis: str = ""
    """The provision of ``exclusive`` (one licence in force per vehicle) as a document
    cites it, printed in the refusal of a grant against the group; each refusal cites the
    rule refused, not the grant's other rules. A bar's refusal cites the bar's own."""
    per_holder_basis: str = ""
    """The provision of ``per_holder`` (one licence in force per person), likewise
    (``"art. 14 da Lei nº 4.515/2007"``)."""
    facts: Facts = ()
    """The licence's facts as its act states them (:data:`Facts`)."""

    def group_basis(self, group: str) -> str:
        """The printed provision of ``group`` (``"exclusive"``, ``"per_holder"``):
        its own when declared, else :attr:`basis`."""
        own = self.exclusive_basis if group == "exclusive" else self.per_holder_basis
        return own or self.basis


@dataclass(frozen=True)
class SetStatus:
    """The act ends a licence (cassação, revogação, recolhimento, vacância) or suspends
    it (``SUSPENDED``: a vehicle withdrawn from service until regularised)."""

    target: str
    status: LicenceStatus
    citation: str
    basis: str = ""
    """The provision as a document cites it, for the refusal when the licence has
    already ended (:mod:`lavra.registry.standing`)."""


@dataclass(frozen=True)
class Restore:
    """The act gives a recalled licence back (devolução), with its accessories, or lifts
    a suspension (the vehicle released after its regularisation).

    With ``reverses``, ``target`` is the number of an *act* whose effect this one undoes
    (an appeal granted against a cassação, a revogação, a recolhimento): every licence
    that act ended, and that no later act changed since, returns to the status it had
    before it; the bars it imposed end the day before this act (the bar stays in the
    history, with its first last day kept for undo); the timeline says "restabelecido".
    When ``target`` is itself a decision that kept the act it ruled on
    (:attr:`Mention.upholds`), that act is the one reversed.
    """

    target: str
    citation: str
    reverses: bool = False


@dataclass(frozen=True)
class Revalidate:
    """The act revalidates a licence (revalidação): the timeline and the licence's
    status show the day; ``valid_until``, when given, also extends its validity."""

    target: str
    citation: str
    valid_until: date | None = None


@dataclass(frozen=True)
class Mention:
    """The act concerns the act numbered ``target`` without changing the state (an
    appeal denied, or not known): ``detail`` (pt-BR, a sentence) goes into the timeline
    of the licences that act changed and of ``party``."""

    target: str
    detail: str
    citation: str
    party: PartyRef | None = None
    #: The act is a decision that kept the effect of ``target`` (the appeal denied, not
    #: known, or granted only in part): reversing this act later (a higher instance
    #: granting the appeal against it) reverses ``target`` itself.
    upholds: bool = False


@dataclass(frozen=True)
class Transfer:
    """The act moves a licence to another holder (and driver, and vehicle). A new
    holder already holding a licence in force of the licence's ``per_holder`` group is
    refused, naming it, with ``basis`` (the provisions as the act cites them). The
    accessories the cedente held follow the licence; with another ``vehicle`` and
    ``ends_accessories``, those that named the old vehicle end instead, as with a
    :class:`ChangeVehicle` (:mod:`lavra.registry.accessories`)."""

    target: str
    holder: PartyRef
    citation: str
    driver: DriverRef | None = None
    vehicle: VehicleRef | None = None
    basis: str = ""
    ends_accessories: bool = True
    facts: Facts = ()
    """The licence's facts this act states (the cessionário's, the vehicle's)."""
    replaces: tuple[str, ...] = ()
    """The pointers (and what lies under them) whose earlier facts end with this act,
    stated or not (``/titular``: the cedente's are not the cessionário's)."""
    replaces_with_vehicle: tuple[str, ...] = ()
    """Those that end only when the act comes with another ``vehicle`` (the licence's
    ``/veiculo`` facts: with the same vehicle, or none named, they stay)."""


@dataclass(frozen=True)
class ChangeVehicle:
    """The act puts another vehicle in a licence's place (a change of vehicle), from
    the act's date: the licence keeps its number, holder and validity; the vehicle it
    leaves is free for another licence. The new vehicle must hold no licence in force
    of the licence's ``exclusive`` group (refused naming it, with ``basis``). With
    ``ends_accessories``, the accessories resting on the licence that named the old
    vehicle (a selo, an authorisation bound to it) end with the change."""

    target: str
    vehicle: VehicleRef
    citation: str
    ends_accessories: bool = True
    basis: str = ""
    facts: Facts = ()
    """The new vehicle's facts (:attr:`Transfer.facts`), replacing those under
    :attr:`replaces`."""
    replaces: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bar:
    """The act bars a party from licences of ``scope`` until a date (impedimento)."""

    party: PartyRef
    scope: str
    until: date
    citation: str


@dataclass(frozen=True)
class Identify:
    """The parties, vehicles and drivers an act names without granting anything;
    ``citation``: the provision under which the act names them (the draft's item on a
    RENAVAM or CNH the registry holds otherwise cites it)."""

    parties: tuple[PartyRef, ...] = ()
    vehicles: tuple[VehicleRef, ...] = ()
    drivers: tuple[DriverRef, ...] = field(default=())
    citation: str = ""


@dataclass(frozen=True)
class Cites:
    """The act cites, and rests on, earlier acts of the registry that are not licences
    (a cassação its autos and the notice of defence; a decision on appeal the act
    appealed), each by its number with the series (``"AIF-X nº 0001/2026"``). While
    this act stands (not cancelled), cancelling one of them is refused, naming this act
    (:mod:`lavra.registry.citations`); an act citing one already cancelled is refused.
    A number the registry lacks (a paper act) is the form's to check."""

    numbers: tuple[str, ...]
    citation: str
    basis: str = ""
    """The provision as a document cites it (``"art. 22 da Lei nº …"``), for the refusal
    and the divergência's public page (never the raw citation id)."""


@dataclass(frozen=True)
class InProcesso:
    """The act belongs to the administrative process ``numero`` (the PA)."""

    numero: str


Effect = (Grant | SetStatus | Restore | Revalidate | Transfer | Bar | Identify | InProcesso
          | Mention | ChangeVehicle | Cites)
EffectsOf = Callable[[Act], Sequence[Effect]]
"""The pack's function for one form: the effects of one of its acts."""
