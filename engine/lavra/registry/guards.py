"""The licensing state's guards: what a new act is refused when the state forbids it,
and what replaying history records instead (:meth:`lavra.registry.state.StateWriter.
refuse_or_diverge`, the one place that chooses between the two).

A :class:`Refusal` carries the pt-BR error a new act gets (naming the field, the
licence or bar involved) and, for the divergência a replayed act records, the rule it
broke in words that name nobody (``rule``) with its legal basis as the pack cited it
(``basis``): the public verification page shows only those
(:func:`public_divergence`), the article printed from the law model where an older
divergência kept its raw citation id (:func:`printed_basis`). The grant's guards (one
licence in force per vehicle or per person, the bar) are here too, so that
:mod:`lavra.registry.state` stays the writer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from lavra.errors import InputError, LavraError
from lavra.inputs.formats import mask_cpf_cnpj
from lavra.registry.effects import Act, Grant, LicenceStatus
from lavra.registry.granting import insert_granted
from lavra.registry.plain_rows import insert_row
from lavra.registry.statements import BAR_OF_PARTY, licences_holding
from lavra.registry.tables import (
    LicenceRow,
    PartyRow,
    StateChangeRow,
    VehicleRow,
)
from lavra.textutil import format_date

if TYPE_CHECKING:
    from lavra.registry.state import StateWriter

__all__ = ["DIVERGENCE", "GRANT", "HOLDING", "ONE_PER_HOLDER", "ONE_PER_VEHICLE",
           "CitationPrinter", "Refusal", "grant_refusals", "granted_basis", "held_refusal",
           "insert_licence", "kept_basis", "place_refusal", "placed", "printed_basis",
           "public_divergence", "transfer_refusal"]

DIVERGENCE = "divergence"
"""The kind of the change that records a divergência."""
GRANT = "grant"
"""The kind of the change that records a licence's expedição."""
BASIS = "fundamento"
"""Where the grant's change keeps the printed :attr:`Grant.basis` (:func:`kept_basis`)."""
GROUP_BASIS = {"exclusive": "fundamento_veiculo", "per_holder": "fundamento_titular"}
"""Where it keeps the printed provision of each group (:meth:`Grant.group_basis`)."""
HOLDING = (LicenceStatus.ACTIVE.value, LicenceStatus.SUSPENDED.value)
"""The statuses in which a licence holds its vehicle's or holder's place: a suspended
licence is still its holder's, so no other may take the vehicle meanwhile."""
ONE_PER_VEHICLE = "a regra de uma só licença em vigor por veículo"
ONE_PER_HOLDER = "a regra de uma só licença em vigor por titular"
CitationPrinter = Callable[[str], str]
"""A citation id (``lei#art22``) as a document prints it (``art. 22 da Lei nº …``),
from the pack's laws; LavraError when they cannot print it."""
RAW_CITATION = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*(?:#\S+)?")


@dataclass(frozen=True)
class Refusal:
    """A guard's refusal: ``error`` for a new act; ``rule`` (naming nobody) and ``basis``
    (the articles) for the divergência of a replayed one; ``group``: the licence group
    a replayed grant is kept out of (``exclusive``, ``per_holder``; None otherwise)."""

    error: InputError
    rule: str
    basis: str = ""
    group: str | None = None

    def divergence(self, act: Act) -> str:
        """The staff's sentence (rebuild report, timeline): the act and the refusal."""
        reason = self.error.message.rstrip(".")
        return (f"Divergência: o {act.printed} (emitido em "
                f"{format_date(act.reference_date)}) contraria regra hoje em vigor, que "
                f"recusaria um novo ato: {reason}. O ato permanece registrado como emitido.")

    def stored(self) -> dict[str, str]:
        """What the divergência's change keeps for the public page."""
        return {"regra": self.rule, "fundamento": self.basis}


def printed_basis(basis: str, cite: CitationPrinter | None) -> str:
    """``basis`` as a document cites it. A divergência recorded before the pack printed
    the provision it cites (``Cites.basis``) kept the raw citation id
    (``lei#art22``): printed now with ``cite`` (``art. 22 da Lei nº …``),
    the stored row left as it is (no migration). One that cannot be printed (no
    ``cite``, a provision since renumbered) is left out: the sentence then names the
    rule alone, never the raw id."""
    raw = basis.strip()
    if not RAW_CITATION.fullmatch(raw):
        return basis
    try:
        return "" if cite is None else cite(raw)
    except LavraError:
        return ""


def public_divergence(stored: Any, cite: CitationPrinter | None = None) -> str:
    """The public page's sentence for a divergência's stored :meth:`Refusal.stored`
    (a divergência recorded before it kept one gets the rule unnamed; a raw citation id
    is printed with ``cite``: :func:`printed_basis`)."""
    kept = stored if isinstance(stored, dict) else {}
    rule = kept.get("regra") if isinstance(kept.get("regra"), str) else ""
    found = kept.get("fundamento")
    basis = printed_basis(found, cite) if isinstance(found, str) else ""
    what = rule or "regra que passou a vigorar depois dele"
    cited = f" ({basis})" if basis else ""
    return (f"Este ato foi registrado em desacordo com {what}{cited}; consta como "
            "divergência no cadastro.")


def held_refusal(writer: StateWriter, act: Act, condition: ColumnElement[bool], on: date,
                 who: str, field: str, basis: str, rule: str = ONE_PER_VEHICLE,
                 group: str | None = None) -> Refusal | None:
    """The refusal due when a licence matching ``condition`` is in force on ``on``
    (None when none is); those past their last day are closed first (vencido)."""
    return _first_held(writer, act, writer.session.scalars(
        select(LicenceRow).where(condition, LicenceRow.status.in_(HOLDING))
    ).all(), on, who, field, basis, rule, group)


def _first_held(writer: StateWriter, act: Act, found: Sequence[LicenceRow], on: date,
                who: str, field: str, basis: str, rule: str,
                group: str | None) -> Refusal | None:
    """:func:`held_refusal` of the licences ``found`` holding the place."""
    cited = f" ({basis})" if basis else ""
    for held in found:
        if held.valid_until is not None and held.valid_until < on:
            writer.set_status(act, held, LicenceStatus.EXPIRED.value, "expired",
                              f"{held.printed} vencido em {format_date(held.valid_until)}.")
            continue
        return Refusal(_held_error(who, held, f"O {act.printed} não pode ser expedido",
                                   cited, field), rule, basis, group)
    return None


def _held_error(who: str, held: LicenceRow, refused: str, cited: str,
                field: str) -> InputError:
    """``{who} licença em vigor: {held}, válida até …. {refused} enquanto ela vigorar``."""
    until = "" if held.valid_until is None else f", válida até {format_date(held.valid_until)}"
    return InputError(
        f"{who} licença em vigor: {held.printed}{until}. {refused} enquanto ela "
        f"vigorar{cited}; encerre-a antes (renovação, cassação, revogação, devolução ou "
        "transferência).", field=field)


def grant_refusals(writer: StateWriter, act: Act, grant: Grant, holder: PartyRow | None,
                   vehicle: VehicleRow | None) -> list[Refusal]:
    """What the state forbids of a grant: the vehicle or the person already holds a
    licence in force of the group, or the holder is barred. Licences of the group past
    their last day are closed first (vencido)."""
    # the places as (holder's place?, owner id, group): statements built once per shape
    groups: list[tuple[bool, int, str, str, str, str, str]] = []
    if vehicle is not None and grant.exclusive:
        groups.append((False, vehicle.id, grant.exclusive, f"O veículo {vehicle.placa} já tem",
                       "/veiculo/placa", ONE_PER_VEHICLE, "exclusive"))
    if holder is not None and grant.per_holder:
        groups.append((True, holder.id, grant.per_holder,
                       f"{holder.name or mask_cpf_cnpj(holder.doc)} já é titular de", "/titular",
                       ONE_PER_HOLDER, "per_holder"))
    refusals = [_first_held(writer, act, writer.session.scalars(
                    licences_holding(holder=of_holder),
                    {"owner": owner, "group": value, "statuses": list(HOLDING)}).all(),
                    grant.valid_from, who, field, grant.group_basis(group), rule, group)
                for of_holder, owner, value, who, field, rule, group in groups]
    if holder is not None and grant.barred_by:
        refusals.append(_bar_refusal(writer, act, grant, holder))
    return [r for r in refusals if r is not None]


def _bar_refusal(writer: StateWriter, act: Act, grant: Grant,
                 holder: PartyRow) -> Refusal | None:
    bar = writer.session.execute(BAR_OF_PARTY, {
        "party": holder.id, "scope": grant.barred_by, "on": grant.valid_from}).first()
    if bar is None:
        return None
    row, series, number, year = bar
    cited = f" ({row.citation})" if row.citation else ""
    barred_by = f"{series} nº {number:04d}/{year}"
    return Refusal(InputError(
        f"{holder.name or mask_cpf_cnpj(holder.doc)} está impedido de obter o {act.printed} "
        f"até {format_date(row.until)}, pelo {barred_by}{cited}.",
        field="/titular",
    ), f"o impedimento imposto pelo {barred_by}, em vigor até {format_date(row.until)}",
        row.citation or "")


def insert_licence(writer: StateWriter, act: Act, grant: Grant, licence: LicenceRow,
                   holder: PartyRow | None, vehicle: VehicleRow | None,
                   changes: Sequence[dict[str, Any]] = ()) -> None:
    """Write the granted ``licence`` in a savepoint. The unique indexes
    ``uq_licences_vehicle_in_force`` and ``uq_licences_holder_in_force`` decide the race
    of two clerks (PostgreSQL: :func:`grant_refusals` read the state before the other
    act committed; its insert waited on the other's and is refused once it commits):
    the state is then read again and the refusal of :func:`grant_refusals` raised, the
    same words as when the check sees the other act, naming it and the article. The
    refusal of the index that fired comes first; none found (the other act rolled
    back meanwhile): the database's own conflict. SQLite needs no savepoint: its
    ``BEGIN IMMEDIATE`` already serialises the writers (only a replayed or a simulated
    race reaches the index there), and a refused INSERT undoes that statement alone,
    the transaction kept for the reads of the refusal. ``changes`` (PostgreSQL): the
    act's changes, written with the licence by one statement in that savepoint."""
    session = writer.session
    try:
        if session.get_bind().dialect.name != "postgresql":
            insert_row(session, licence)  # one plain INSERT (autoflushed first)
        else:
            with session.begin_nested():  # what the session holds is flushed first
                if changes:  # with the act's changes (lavra.registry.granting)
                    insert_granted(session, licence, changes)
                else:
                    insert_row(session, licence)  # one plain INSERT, not in the session
    except IntegrityError as error:
        refusals = grant_refusals(writer, act, grant, holder, vehicle)
        if not refusals:
            raise
        group = "per_holder" if "holder" in str(error.orig).lower() else "exclusive"
        refusals.sort(key=lambda refusal: refusal.group != group)
        raise refusals[0].error from None


_Place = tuple[ColumnElement[bool], str, str, str, str]
"""A place a licence takes: the licences holding it, who holds it (the refusal's
opening), the field, the rule and the group (:class:`Refusal`)."""


def _vehicle_place(vehicle: VehicleRow | None, exclusive: str | None) -> _Place | None:
    """The vehicle's place in the ``exclusive`` group (None: no vehicle or no group)."""
    if vehicle is None or exclusive is None:
        return None
    return ((LicenceRow.vehicle_id == vehicle.id) & (LicenceRow.exclusive == exclusive),
            f"O veículo {vehicle.placa} já tem", "/veiculo/placa", ONE_PER_VEHICLE,
            "exclusive")


def _holder_place(holder: PartyRow | None, per_holder: str | None,
                  field: str) -> _Place | None:
    """The person's place in the ``per_holder`` group, refused at ``field`` (None: no
    person or no group)."""
    if holder is None or per_holder is None:
        return None
    return ((LicenceRow.holder_id == holder.id) & (LicenceRow.per_holder == per_holder),
            f"{holder.name or mask_cpf_cnpj(holder.doc)} já é titular de", field, ONE_PER_HOLDER,
            "per_holder")


def transfer_refusal(writer: StateWriter, act: Act, licence: LicenceRow, holder: PartyRow,
                     basis: str, vehicle: VehicleRow | None = None) -> Refusal | None:
    """What a transfer of ``licence`` is refused: the cessionário ``holder`` already
    holds a licence in force of the licence's ``per_holder`` group (one per holder, as a
    grant) or, the transfer moving it to ``vehicle``, that vehicle one of its
    ``exclusive`` group. Checked before the write, and read again when the unique index
    refuses it (:func:`placed`): the same words either way, citing the group's provision
    as the licence's grant printed it (:func:`granted_basis`; ``basis``, the transfer's
    own, for a licence granted before its grant's change kept it)."""
    moved = holder.id != licence.holder_id
    groups = [place for place in (
        _holder_place(holder if moved else None, licence.per_holder, "/cessionario"),
        _vehicle_place(vehicle, licence.exclusive)) if place is not None]
    for condition, who, field, rule, group in groups:
        found = held_refusal(writer, act, condition & (LicenceRow.id != licence.id),
                             act.reference_date, who, field,
                             granted_basis(writer.session, licence, group) or basis, rule,
                             group)
        if found is not None:
            return found
    return None


def kept_basis(grant: Grant) -> dict[str, str] | None:
    """What the grant's change keeps (its ``before``, otherwise unused for a grant):
    the provision of each of the licence's groups as the grant's refusal prints it
    (:meth:`Grant.group_basis`), and :attr:`Grant.basis`, so that a refusal of the
    licence's return to force, or of its transfer, cites the same words
    (:func:`granted_basis`). Kept with the event, not in a new column: the rebuild
    replays it (no migration)."""
    groups = {"exclusive": grant.exclusive, "per_holder": grant.per_holder}
    kept = {GROUP_BASIS[group]: grant.group_basis(group)
            for group, declared in groups.items() if declared}
    kept = {key: value for key, value in {BASIS: grant.basis, **kept}.items() if value}
    return kept or None


def granted_basis(session: Session, licence: LicenceRow, group: str) -> str:
    """The provision the grant of ``licence`` cited for its ``group`` (``"exclusive"``,
    ``"per_holder"``: :func:`kept_basis`). A grant kept before each group had its own
    kept the grant's one provision (``fundamento``), read then; "" for a licence granted
    before the grant's change kept any (until ``lavra cadastro reconstruir`` replays its
    grant) or whose grant declared none: the refusal then names the licence in force
    alone. One indexed lookup, on the refusal's path only."""
    kept = session.scalars(select(StateChangeRow.before).where(
        StateChangeRow.licence_id == licence.id, StateChangeRow.kind == GRANT,
        StateChangeRow.document_id == licence.document_id).limit(1)).first()
    if not isinstance(kept, dict):
        return ""
    found = kept.get(GROUP_BASIS[group], kept.get(BASIS))
    return found if isinstance(found, str) else ""


def place_refusal(session: Session, licence: LicenceRow, blocked: str) -> Refusal | None:
    """The refusal due when ``licence`` would return to force (a decision on appeal
    reversing its cassação or revogação, a cancellation restoring it, a devolução and the
    accessories it gives back) while another licence in force holds its place: its
    vehicle's in its ``exclusive`` group or its holder's in its ``per_holder`` group.
    Names that licence, its validity and the provision behind the group in the words a
    grant of ``licence``'s kind is refused with (:func:`granted_basis`: the basis its own
    grant printed; the restoring act, a decision or a devolução, cites its own article,
    not the group's). ``blocked``: what cannot be done (``restabelecido pelo DEC-X
    nº …``)."""
    vehicle = None if licence.vehicle_id is None else session.get(VehicleRow,
                                                                  licence.vehicle_id)
    holder = None if licence.holder_id is None else session.get(PartyRow, licence.holder_id)
    places = [place for place in (
        _vehicle_place(vehicle, licence.exclusive),
        _holder_place(holder, licence.per_holder, "/titular")) if place is not None]
    for condition, who, field, rule, group in places:
        held = session.scalars(select(LicenceRow).where(
            condition, LicenceRow.status == LicenceStatus.ACTIVE.value,
            LicenceRow.id != licence.id).order_by(LicenceRow.id).limit(1)).first()
        if held is None:
            continue
        basis = granted_basis(session, licence, group)
        cited = f" ({basis})" if basis else ""
        return Refusal(_held_error(who, held, f"O {licence.printed} não pode ser {blocked}",
                                   cited, field), rule, basis, group)
    return None


@contextmanager
def placed(writer: StateWriter, refusal: Callable[[], Refusal | None]) -> Iterator[None]:
    """Write, in a savepoint, what puts a licence in a place (a transfer's cessionário
    or vehicle, a licence restored to force). The unique indexes
    ``uq_licences_vehicle_in_force`` and ``uq_licences_holder_in_force`` decide a race
    the checks did not see (PostgreSQL: another act committed meanwhile): the state is
    read again and ``refusal`` raised, the words of the check, naming the
    licence in force; none found (the other act rolled back meanwhile): the
    database's own conflict."""
    try:
        with writer.session.begin_nested():
            yield
            writer.session.flush()
    except IntegrityError:
        found = refusal()
        if found is None:
            raise
        raise found.error from None
