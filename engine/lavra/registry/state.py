"""The licensing state: applying an act's effects to the current view, and undoing them.

Each issued act is an event; its effects (:mod:`lavra.registry.effects`, declared by
the pack form by form) change the view: parties and the names they were registered
under, vehicles, drivers, licences with their status, bars and processos. Each change
is written as a :class:`~lavra.registry.tables.StateChangeRow` holding what the
licence was before, so that cancelling the act can undo it; a cancellation is refused
while a later act rests on what this one did. :class:`StateWriter` works inside the
session of the act's record: the act and its effects commit together, or neither.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import and_, bindparam, inspect, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute, Session
from sqlalchemy.orm.attributes import set_committed_value

from lavra.errors import InputError, LavraError
from lavra.registry.accessories import follow_transfer
from lavra.registry.citations import cite
from lavra.registry.effects import (
    STATUS_TEXT,
    Act,
    Bar,
    ChangeVehicle,
    Cites,
    DriverRef,
    Effect,
    Grant,
    Identify,
    InProcesso,
    LicenceStatus,
    Mention,
    PartyRef,
    Restore,
    Revalidate,
    SetStatus,
    Transfer,
    VehicleRef,
)
from lavra.registry.granting import change_row
from lavra.registry.guards import (
    DIVERGENCE,
    GRANT,
    Refusal,
    grant_refusals,
    insert_licence,
    kept_basis,
    placed,
    transfer_refusal,
)
from lavra.registry.identifiers import mercosul, normalize_processo, parse_printed, plate_forms
from lavra.registry.identities import (
    cnh_conflict,
    digits,
    plate_and_renavam,
    renavam_elsewhere,
    renavam_other,
)
from lavra.registry.licence_facts import replaced, stored
from lavra.registry.name_dates import gives_first, newer_name
from lavra.registry.plain_rows import table_insert
from lavra.registry.processos import join_processo
from lavra.registry.records import normalize_cpf_cnpj, normalize_plate
from lavra.registry.reversal import (
    give_back,
    mention,
    reverse,
    snapshot,
)
from lavra.registry.standing import base_refusal, end_refusal, locked, renewal_refusal
from lavra.registry.substitution import change_vehicle
from lavra.registry.tables import (
    BarRow,
    DocumentRow,
    DriverRow,
    LicenceRow,
    PartyNameRow,
    PartyRow,
    StateChangeRow,
    VehicleRow,
)
from lavra.registry.undoing import undo_act
from lavra.textutil import format_date

__all__ = ["StateWriter", "mercosul", "normalize_processo", "parse_printed", "plate_forms"]

ACTIVE = LicenceStatus.ACTIVE.value
RowT = TypeVar("RowT", PartyRow, VehicleRow, DriverRow)
T = TypeVar("T")
ONE_RENAVAM = "a regra de um só RENAVAM por veículo"
ONE_CNH = "a regra de uma só pessoa por CNH"
_digits = digits
_CHANGE = table_insert(StateChangeRow)[0]  # a change: one core INSERT, no unit of work


_SET_STATUS = update(LicenceRow).where(LicenceRow.id == bindparam("licence")).values(
    {name: bindparam(f"new_{name}") for name in ("status", "status_document_id",
                                                 "status_since")}
).execution_options(synchronize_session=False)
_PARTY_NAME = select(PartyNameRow).where(PartyNameRow.party_id == bindparam("party"),
                                         PartyNameRow.name == bindparam("name"))
_PARTY_NAMED = select(PartyRow, PartyNameRow).outerjoin(PartyNameRow, and_(
    PartyNameRow.party_id == PartyRow.id, PartyNameRow.name == bindparam("name"))
).where(PartyRow.doc == bindparam("doc"))
"""The party of a CPF or CNPJ with its row of a name (None: never so named)."""
_PARTY_NAMED_LOCKED = _PARTY_NAMED.with_for_update(of=PartyRow).execution_options(
    populate_existing=True)
"""The same, the party's row locked and read again (PostgreSQL: :func:`locked`)."""


@cache  # built once: building a statement costs twice running it
def _statement(name: str, table: type[Any] = LicenceRow) -> Any:
    """The lookups every act repeats, their values bound at execution: ``table``'s row by
    its key ``name``, the licence by its act's number (``licence``, ``licence-series``)."""
    if not name.startswith("licence"):
        return select(table).where(getattr(table, name) == bindparam("value"))
    stmt = select(LicenceRow).join(DocumentRow, DocumentRow.id == LicenceRow.document_id).where(
        DocumentRow.number == bindparam("number"), DocumentRow.year == bindparam("year"))
    if "series" in name:
        stmt = stmt.where(DocumentRow.series == bindparam("series"))
    if name.endswith("locked"):  # the licence's row locked and read again (locked())
        stmt = stmt.with_for_update(of=LicenceRow).execution_options(populate_existing=True)
    return stmt


class StateWriter:
    """Applies and undoes acts' effects in one session (the act's own transaction).

    With ``replay`` (the view rebuilt from issued acts), an act failing a rule added
    after it (the cassação's bar over the ALV-PART, one licence per vehicle...) is
    recorded as issued, with a *divergência* naming the act and the rule: in
    :attr:`divergences` (the rebuild's report) and its timeline. A licence granted
    against the one-per-vehicle (or per-person) rule is kept out of that group, so the
    one in force keeps its place. New acts are still refused."""

    def __init__(self, session: Session, *, replay: bool = False) -> None:
        self.session = session
        self.replay = replay
        self.divergences: list[str] = []
        # Outside a replay the writer serves one act, recorded in this session just now:
        # what it wrote is known here and is not looked up again (the rows it found, the
        # act's licence and processos); a replay looks them up, as it always did.
        self._known: dict[tuple[type[Any], str], Any] = {}
        self._granted: set[int] = set()
        self._linked: set[tuple[int, int]] = set()
        self._locked: set[Any] = set()  # rows locked by the statement that found them
        self._postgresql = session.get_bind().dialect.name == "postgresql"
        self._pending: list[dict[str, Any]] | None = None  # the changes of _together

    def refuse_or_diverge(self, act: Act | None, refusal: Refusal | None, *,
                          licence: LicenceRow | None = None, party: PartyRow | None = None,
                          vehicle: VehicleRow | None = None,
                          later: list[Refusal] | None = None) -> bool:
        """Every guard's last step. No ``refusal``: False. A new act: raise its error.
        While replaying: record that ``act`` was issued against the rule (the
        divergência, in :attr:`divergences` and the timeline) and return True, the
        guard then recording what the act did; with ``later`` (the licence it concerns
        is not written yet) the refusal waits there for :meth:`diverged`."""
        if refusal is None:
            return False
        if not self.replay or act is None:
            raise refusal.error
        if later is not None:
            later.append(refusal)
        else:
            self.diverged(act, [refusal], licence=licence, party=party, vehicle=vehicle)
        return True

    def diverged(self, act: Act, refusals: Iterable[Refusal], *,
                 licence: LicenceRow | None = None, party: PartyRow | None = None,
                 vehicle: VehicleRow | None = None) -> None:
        """Record the divergências of a replayed act (see :meth:`refuse_or_diverge`)."""
        for refusal in refusals:
            text = refusal.divergence(act)
            self.divergences.append(text)
            self.change(act, DIVERGENCE, text, licence=licence, party=party,
                        vehicle=vehicle, before=refusal.stored())

    # ------------------------------------------------------------ identities
    def _upsert(self, table: type[RowT], key: InstrumentedAttribute[str], value: str,
                values: dict[str, Any]) -> RowT:
        """The row of ``table`` whose ``key`` is ``value``, inserted when absent. The
        insert skips a row another transaction inserted at the same moment (it waits
        for it), so two acts naming a new vehicle at once do not collide here."""
        known: RowT | None = self._known.get((table, value))
        if known is not None:
            return known
        lookup = _statement(key.key, table)
        found: RowT | None = self.session.scalars(lookup, {"value": value}).one_or_none()
        if found is None:
            postgresql = self.session.get_bind().dialect.name == "postgresql"
            insert = postgresql_insert if postgresql else sqlite_insert
            self.session.execute(insert(table).values(**values).on_conflict_do_nothing(
                index_elements=[key.key]))
            found = self.session.scalars(lookup, {"value": value}).one()
        assert found is not None
        if not self.replay:
            self._known[(table, value)] = found
        return found

    def party(self, ref: PartyRef | None, act: Act, *, lock: bool = False) -> PartyRow | None:
        """The party ``ref`` names (inserted when new), its name recorded; with ``lock``,
        its row locked and read again (:func:`locked`), by the statement that finds it
        where it can (PostgreSQL: ``FOR UPDATE OF parties``)."""
        row = self._party(ref, act, lock=lock and self._postgresql)
        if lock and row is not None and row not in self._locked:
            row = locked(self.session, row)
        return row

    def _party(self, ref: PartyRef | None, act: Act, *, lock: bool) -> PartyRow | None:
        if ref is None or not isinstance(ref.doc, str) or not _digits(ref.doc):
            return None
        try:
            doc = normalize_cpf_cnpj(ref.doc)
        except InputError:
            return None
        name = " ".join(ref.name.split()) if isinstance(ref.name, str) else ""
        row: PartyRow
        known: PartyNameRow | None
        found = None if not name or (PartyRow, doc) in self._known else \
            self.session.execute(_PARTY_NAMED_LOCKED if lock else _PARTY_NAMED,
                                 {"doc": doc, "name": name}).one_or_none()
        if found is not None:  # the party and its row of that name, in one statement
            row, known = found
            if lock:
                self._locked.add(row)
            if not self.replay:
                self._known[(PartyRow, doc)] = row
        else:
            row = self._upsert(PartyRow, PartyRow.doc, doc, {"doc": doc})
            if not name:
                return row
            known = self.session.scalars(_PARTY_NAME, {"party": row.id, "name": name}
                                         ).one_or_none()
        # By the acts' own dates, not the order written (lavra.registry.name_dates).
        if known is None:
            self.session.add(PartyNameRow(party_id=row.id, name=name,
                                          document_id=act.document_id,
                                          since=act.reference_date))
        elif gives_first(self.session, known, act.document_id, act.reference_date):
            known.document_id, known.since = act.document_id, act.reference_date
        if name != row.name and not newer_name(self.session, row.id, name,
                                               act.reference_date):
            row.name = name
        return row

    def vehicle(self, ref: VehicleRef | None, act: Act | None = None) -> VehicleRow | None:
        """The vehicle's row (inserted when new). An old plate and its Mercosul form are one
        vehicle: when ``act`` names the vehicle by its Mercosul plate, the row takes it as
        its current plate (a change in the timeline, undone with the act); the old plate
        still finds it (:func:`plate_forms`)."""
        if ref is None:
            return None
        try:
            placa = normalize_plate(ref.placa)
        except InputError:
            return None
        renavam = _digits(ref.renavam) if isinstance(ref.renavam, str) else ""
        row, elsewhere = plate_and_renavam(self.session, placa, renavam)  # one statement
        if elsewhere is not None:
            self.refuse_or_diverge(act, Refusal(elsewhere[1], ONE_RENAVAM),
                                   vehicle=elsewhere[0])
            renavam = ""  # replayed: the plate is recorded without the RENAVAM
        if row is None:
            row = self._held(placa, renavam, lambda: self._upsert(
                VehicleRow, VehicleRow.placa, placa, {"placa": placa, "renavam": renavam or None}))
        elif renavam and row.renavam is None:
            row = locked(self.session, row)  # a RENAVAM given it meanwhile is seen
        if renavam and row.renavam is None:
            self._held(placa, renavam, lambda: setattr(row, "renavam", renavam))
        elif (other := renavam_other(row, placa, renavam)) is not None:
            self.refuse_or_diverge(act, Refusal(other, ONE_RENAVAM), vehicle=row)
        if row.placa != placa and placa == mercosul(placa) and act is not None:
            old = row.placa
            row.placa = placa  # converted to Mercosul: the plate it now bears
            self.session.flush()
            self.change(act, "plate", f"Placa {old} convertida para o padrão Mercosul "
                         f"({placa}), conforme o {act.printed}.", vehicle=row,
                         before={"placa": old})
        return row

    def _held(self, placa: str, renavam: str, write: Callable[[], T]) -> T:
        """``write`` (giving a plate its RENAVAM) in a savepoint. When the unique index
        refuses it (another act gave the RENAVAM to another plate at the same moment, and
        committed), the refusal of :data:`ONE_RENAVAM` naming that plate."""
        try:
            with self.session.begin_nested():
                written = write()
                self.session.flush()
        except IntegrityError:
            elsewhere = renavam_elsewhere(self.session, placa, renavam) if renavam else None
            if elsewhere is None:
                raise
            raise elsewhere[1] from None
        return written

    def driver(self, ref: DriverRef | None, act: Act) -> DriverRow | None:
        if ref is None or not isinstance(ref.cnh, str) or not _digits(ref.cnh):
            return None
        cnh = _digits(ref.cnh)
        person = self.party(ref.person, act)
        row = self._upsert(DriverRow, DriverRow.cnh, cnh,
                           {"cnh": cnh, "party_id": None if person is None else person.id})
        if row.party_id is None and person is not None:
            row = locked(self.session, row)  # a person given it meanwhile is seen
        if row.party_id is None and person is not None:
            row.party_id = person.id
        elif (conflict := cnh_conflict(self.session, row, person, cnh)) is not None:
            self.refuse_or_diverge(act, Refusal(conflict, ONE_CNH), party=person)
        return row

    # ------------------------------------------------------------ licences
    def licence(self, printed: str | None) -> LicenceRow | None:
        """The licence granted by the act numbered ``printed`` (None when unknown)."""
        parsed = None if printed is None else parse_printed(printed)
        if parsed is None:
            return None
        series, number, year = parsed
        found = self.session.scalars(
            _statement("licence" if series is None else "licence-series"),
            {"number": number, "year": year, "series": series and series.upper()}).all()
        return found[0] if len(found) == 1 else None

    def locked_licence(self, printed: str | None) -> LicenceRow | None:
        """:meth:`licence`, locked and read again (:func:`locked`); on PostgreSQL, a
        number with its series (one act, at most one licence) by the one statement that
        finds it (``FOR UPDATE OF licences``)."""
        parsed = None if printed is None else parse_printed(printed)
        series = None if parsed is None else parsed[0]
        if parsed is None or series is None or not self._postgresql:
            found = self.licence(printed)
            return None if found is None else locked(self.session, found)
        rows = self.session.scalars(_statement("licence-series-locked"), {
            "number": parsed[1], "year": parsed[2], "series": series.upper()}).all()
        return rows[0] if len(rows) == 1 else None

    def document(self, printed: str) -> DocumentRow | None:
        """The issued act numbered ``printed`` with its series (``"CAS-X nº 0001/2026"``);
        None when the registry holds none (or it was cancelled)."""
        parsed = parse_printed(printed)
        if parsed is None or parsed[0] is None:
            return None
        series, number, year = parsed[0], parsed[1], parsed[2]
        found = self.session.scalars(select(DocumentRow).where(
            DocumentRow.series == series.upper(), DocumentRow.number == number,
            DocumentRow.year == year, DocumentRow.status == "issued")).all()
        return found[0] if len(found) == 1 else None

    def change(self, act: Act, kind: str, detail: str, *, licence: LicenceRow | None = None,
               party: PartyRow | None = None, vehicle: VehicleRow | None = None,
               before: dict[str, Any] | None = None) -> None:
        """Record one change the act made (timeline; undo: ``before``): one INSERT, now
        (within :meth:`_together`, with the others, in their order)."""
        row = change_row(act.document_id, kind, detail, act.reference_date, licence, party,
                         vehicle, before)
        if self._pending is None:
            self.session.execute(_CHANGE, row)
        else:
            self._pending.append(row)

    @contextmanager
    def _together(self) -> Iterator[None]:
        """The changes recorded meanwhile written at the end by one INSERT of their rows,
        in their order (nothing in between reads them); none when it raises."""
        self._pending = []
        try:
            yield
            if self._pending:
                self.session.execute(_CHANGE, self._pending)
        finally:
            self._pending = None

    def _set_status(self, act: Act, licence: LicenceRow, status: str, kind: str,
                    detail: str) -> None:
        before = snapshot(licence)
        values = {"status": status, "status_document_id": act.document_id,
                  "status_since": act.reference_date}
        if inspect(licence).persistent:  # one core UPDATE, the row told it is stored
            self.session.execute(_SET_STATUS, {"licence": licence.id, **{
                f"new_{name}": value for name, value in values.items()}})
            for name, value in values.items():
                set_committed_value(licence, name, value)
        else:
            for name, value in values.items():
                setattr(licence, name, value)
        self.change(act, kind, detail, licence=licence, before=before)

    # ------------------------------------------------------------ applying
    def apply(self, act: Act, effects: Sequence[Effect]) -> None:
        """Write the effects of ``act`` (already recorded in this session)."""
        self._lock_ends(effects)
        for effect in effects:
            if isinstance(effect, Grant):
                self._grant(act, effect)
            elif isinstance(effect, SetStatus):
                self._end(act, effect)
            elif isinstance(effect, Restore) and effect.reverses:
                reverse(self, act, effect)
            elif isinstance(effect, Restore):
                give_back(self, act, effect)
            elif isinstance(effect, Mention):
                mention(self, act, effect)
            elif isinstance(effect, Revalidate):
                self._revalidate(act, effect)
            elif isinstance(effect, Transfer):
                self._transfer(act, effect)
            elif isinstance(effect, Bar):
                self._bar(act, effect)
            elif isinstance(effect, ChangeVehicle):
                change_vehicle(self, act, effect)
            elif isinstance(effect, Identify):
                for party in effect.parties:
                    self.party(party, act)
                for vehicle in effect.vehicles:
                    self.vehicle(vehicle, act)
                for driver in effect.drivers:
                    self.driver(driver, act)
            elif isinstance(effect, InProcesso):
                join_processo(self.session, act, effect.numero, self._linked, self.replay)
            elif isinstance(effect, Cites):
                cite(self, act, effect)
            else:  # pragma: no cover - the pack returned something else
                raise LavraError(
                    f"O pacote de conteúdo declarou para o formulário «{act.form}» um efeito "
                    f"desconhecido ({type(effect).__name__})."
                )
        self.session.flush()

    def _lock_ends(self, effects: Sequence[Effect]) -> None:
        """Lock every licence the act ends (a cassação naming several) by ascending id
        before ending any: two acts naming the same licences in another order then
        never wait on each other (PostgreSQL; :mod:`lavra.registry.standing`)."""
        found = (self.licence(e.target) for e in effects if isinstance(e, SetStatus))
        for licence in sorted({row.id: row for row in found if row is not None}.values(),
                              key=lambda row: row.id):
            locked(self.session, licence)

    def _grant(self, act: Act, grant: Grant) -> None:
        if act.document_id in self._granted or (self.replay and self.session.scalars(
            select(LicenceRow.id).where(LicenceRow.document_id == act.document_id)
        ).first() is not None):
            raise LavraError(
                f"O pacote de conteúdo declarou mais de uma licença expedida pelo documento "
                f"{act.printed}."
            )
        self._granted.add(act.document_id)  # its licence (a second Grant is refused above)
        # Licences first, then the holder (lavra.registry.standing: the locks' order).
        base, old = self.locked_licence(grant.rests_on), self.locked_licence(grant.renews)
        # a bar written meanwhile is seen: the holder locked before its bars are read
        holder = self.party(grant.holder, act, lock=bool(grant.barred_by))
        vehicle = self.vehicle(grant.vehicle, act)
        driver = self.driver(grant.driver, act)
        with self._together():  # the renewal's and the grant's changes: one INSERT
            broken: list[Refusal] = []
            self.refuse_or_diverge(act, base_refusal(self, act, grant, base), later=broken)
            if old is not None:  # renewed first: it no longer holds the vehicle's place
                self.refuse_or_diverge(act, renewal_refusal(act, grant, old), later=broken)
                self._set_status(act, old, LicenceStatus.RENEWED.value, "renewed",
                                 f"{old.printed} renovado pelo {act.printed}.")
            for refusal in grant_refusals(self, act, grant, holder, vehicle):
                self.refuse_or_diverge(act, refusal, later=broken)
            outside = {refusal.group for refusal in broken}
            licence = LicenceRow(
                document_id=act.document_id, kind=grant.kind, printed=act.printed,
                holder_id=None if holder is None else holder.id,
                vehicle_id=None if vehicle is None else vehicle.id,
                driver_id=None if driver is None else driver.id,
                base_id=None if base is None else base.id,
                valid_from=grant.valid_from, valid_until=grant.valid_until, status=ACTIVE,
                status_document_id=act.document_id, status_since=grant.valid_from,
                exclusive=(grant.exclusive if vehicle is not None and "exclusive" not in outside
                           else None),
                per_holder=(grant.per_holder if holder is not None and "per_holder" not in outside
                            else None),
                facts=stored(grant.facts),
            )
            until = ("" if grant.valid_until is None
                     else f", válido até {format_date(grant.valid_until)}")
            rests = "" if base is None else f", vinculado ao {base.printed}"
            granted = change_row(act.document_id, GRANT, f"Expedição do {act.printed}{rests}"
                                 f"{until}.", act.reference_date, None, holder, vehicle,
                                 kept_basis(grant))  # its licence: inserted now, below
            pending = self._pending if self._pending is not None else []
            merged = self._postgresql and not self.replay
            insert_licence(self, act, grant, licence, holder, vehicle,  # PostgreSQL: with
                           [*pending, granted] if merged else ())  # the changes (granting)
            pending[:] = [] if merged else [*pending, {**granted, "licence_id": licence.id}]
            self.diverged(act, broken, licence=licence)

    def set_status(self, act: Act, licence: LicenceRow, status: str, kind: str,
                   detail: str) -> None:
        """Give ``licence`` the ``status`` from the act's date (kept for undo)."""
        self._set_status(act, licence, status, kind, detail)

    def _end(self, act: Act, effect: SetStatus) -> None:
        licence = self.licence(effect.target)
        if licence is None:
            return
        licence = locked(self.session, licence)
        self.refuse_or_diverge(act, end_refusal(act, effect, licence), licence=licence)
        status = LicenceStatus(effect.status).value
        self._set_status(act, licence, status, status,
                         f"{licence.printed} {STATUS_TEXT[status]} pelo {act.printed}.")
        if status == LicenceStatus.SUSPENDED.value:
            return  # still the holder's: its accessories stay as they are
        for accessory in self.session.scalars(
            select(LicenceRow).where(LicenceRow.base_id == licence.id,
                                     LicenceRow.status == ACTIVE)
        ).all():
            self._set_status(act, accessory, LicenceStatus.ENDED.value, "ended",
                             f"{accessory.printed} encerrado com o {licence.printed}.")

    def _revalidate(self, act: Act, effect: Revalidate) -> None:
        licence = self.licence(effect.target)
        if licence is None:
            return
        before = snapshot(licence)
        until = ""
        if effect.valid_until is not None:
            licence.valid_until = effect.valid_until
            until = f", válido até {format_date(effect.valid_until)}"
        self.change(act, "revalidated",
                    f"{licence.printed} revalidado pelo {act.printed}, em "
                    f"{format_date(act.reference_date)}{until}.", licence=licence,
                    before=before)

    def _transfer(self, act: Act, effect: Transfer) -> None:
        licence = self.licence(effect.target)
        holder = self.party(effect.holder, act)
        if licence is None or holder is None:
            return
        # The cessionário takes the licence's place among the holder's (one in force per
        # holder of the group, as a grant); the index decides a race (guards.placed).
        basis = effect.basis or effect.citation
        self.refuse_or_diverge(act, transfer_refusal(self, act, licence, holder, basis),
                               licence=licence, party=holder)
        before, moved = snapshot(licence), list[VehicleRow]()
        cedente, vehicle_before = licence.holder_id, licence.vehicle_id
        with placed(self, lambda: transfer_refusal(self, act, licence, holder, basis,
                                                   *moved)):
            licence.holder_id = holder.id
            driver = self.driver(effect.driver, act)
            if driver is not None:
                licence.driver_id = driver.id
            vehicle = self.vehicle(effect.vehicle, act)
            if vehicle is not None:
                licence.vehicle_id, moved[:] = vehicle.id, [vehicle]
            licence.facts = replaced(licence.facts, effect.facts, effect.replaces + (
                effect.replaces_with_vehicle if vehicle_before not in (None, licence.vehicle_id)
                else ()))
        self.change(act, "transferred",
                    f"{licence.printed} transferido pelo {act.printed}.",
                    licence=licence, party=holder, before=before)
        follow_transfer(self, act, licence, cedente, vehicle_before, holder,
                        ends_accessories=effect.ends_accessories)

    def _bar(self, act: Act, effect: Bar) -> None:
        party = self.party(effect.party, act, lock=True)  # a grant to it checks the bars
        if party is None:  # after us
            return
        self.session.add(BarRow(party_id=party.id, scope=effect.scope, until=effect.until,
                                document_id=act.document_id, citation=effect.citation))
        self.change(act, "barred",
                    f"Impedimento até {format_date(effect.until)} pelo {act.printed}.",
                    party=party)

    # ------------------------------------------------------------ undoing
    def undo(self, document_id: int, printed: str) -> None:
        """Undo what the act did; InputError naming the later act that rests on it
        (:func:`lavra.registry.undoing.undo_act`)."""
        undo_act(self, document_id, printed)
