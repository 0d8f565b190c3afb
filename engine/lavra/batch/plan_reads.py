"""The lookups a plan's checks make of each holder, read for all its holders at once.

A renewal plan checks each holder's requerimento and act (:class:`lavra.batch.model.
PlanContext`); those checks ask the registry, holder by holder, for the act being
renewed (:meth:`~lavra.issuing.RegistryHistory.document`, with its facts and whether an
appeal annulled it), the licences the holder and the vehicle hold, and the bars on the
holder: seven statements a holder. :func:`read_ahead` reads the same rows for every
holder the plan names, 500 keys a statement (as :mod:`lavra.registry.licences_of_acts`
reads the licences coming due), and :class:`PlanReads` answers each lookup as the
registry's own query would have: the same rows, in the same order, filtered as it
filters them. The three reads of each draft's checks against the state
(:mod:`lavra.draftstate`) are read ahead too: the holder's registered name and what the
dates read of the act renewed (:func:`lavra.registry.rests_on_dates.read_issued`) are
kept in the read scope under the keys the registry's lookups ask (they then read no
statement), and the vehicles' RENAVAMs answer the identity lookup of a vehicle whose
plate holds the draft's (:meth:`PlanReads.renavam_agrees`). It is read inside the plan's
read scope (:meth:`lavra.batch.model.PlanContext.reading`: one transaction, the snapshot
every check of the plan reads on SQLite) and dropped when it ends; a lookup it was not
read for (another date, another form, a number it does not name) is asked of the
registry as before. The statements grow with the run, never with the registry (issue 24,
"Flat in the size of the registry"). Implements no provision.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from datetime import date
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select

from lavra.errors import InputError
from lavra.registry.act_dates import order_by_act
from lavra.registry.facts import Fact
from lavra.registry.identifiers import numbers_by_series, parse_printed, plate_forms
from lavra.registry.licensing import LicenceView, _view_of
from lavra.registry.queries import _record
from lavra.registry.records import IssuedRecord, normalize_cpf_cnpj, printed_number
from lavra.registry.rests_on_dates import read_issued
from lavra.registry.statements import view_select
from lavra.registry.tables import BarRow, DocumentRow, LicenceRow, PartyRow, VehicleRow

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["CHUNK", "PlanReads", "read_ahead"]

CHUNK = 500
"""Keys per statement (a vehicle: its plate's forms, at most 3): a bound list stays well
under every database's limits."""

_ACTS = (select(*(DocumentRow.__table__.c[spec.name] for spec in fields(IssuedRecord)))
         .where(DocumentRow.number.in_(bindparam("numbers", expanding=True)),
                DocumentRow.year == bindparam("year"),
                # through the number index (as NUMBERED_RECORDS), never the form's: the
                # documents of a form grow with the registry
                DocumentRow.form.concat("") == bindparam("form"))
         .order_by(*order_by_act(newest_first=True)))
"""The documents of ``form`` numbered ``numbers`` in ``year``, the most recent act
first, as :data:`lavra.registry.queries.NUMBERED_RECORDS` reads one number."""

_NUMBERED_LIMIT = 500
"""The most documents :data:`~lavra.registry.statements.DOCUMENTS_NUMBERED` reads of
one number."""

_HOLDERS = (view_select(holder=True).where(PartyRow.doc.in_(bindparam("docs", expanding=True)))
            .order_by(LicenceRow.valid_from, LicenceRow.id))
"""The licences of the holders ``docs``, oldest first (``views_of(holder=True)``)."""

_VEHICLES = (view_select(placa=True)
             .where(VehicleRow.placa.in_(bindparam("placas", expanding=True)))
             .order_by(LicenceRow.valid_from, LicenceRow.id))
"""The licences of the vehicles of the plates ``placas``, oldest first
(``views_of(placa=True)``)."""

_NUMBERS = (view_select().add_columns(DocumentRow.series, DocumentRow.number, DocumentRow.year)
            .join(DocumentRow, DocumentRow.id == LicenceRow.document_id)
            .where(DocumentRow.series == bindparam("series"),
                   DocumentRow.year == bindparam("year"),
                   DocumentRow.number.in_(bindparam("numbers", expanding=True))))
"""The licences the acts of ``series`` numbered ``numbers`` in ``year`` granted, each
with its act's number (``view_by_number(series=True)`` of each)."""

_BARS = (select(PartyRow.doc, BarRow.scope, BarRow.until, DocumentRow.series,
                DocumentRow.number, DocumentRow.year)
         .join(PartyRow, PartyRow.id == BarRow.party_id)
         .join(DocumentRow, DocumentRow.id == BarRow.document_id)
         .where(PartyRow.doc.in_(bindparam("docs", expanding=True)),
                BarRow.until >= bindparam("on"))
         .order_by(BarRow.until))
"""The bars on the parties ``docs`` still running on ``on`` (``BARS_OF`` of each)."""

_RENAVAMS = (select(VehicleRow.placa, VehicleRow.renavam)
             .where(VehicleRow.placa.in_(bindparam("placas", expanding=True)))
             .order_by(VehicleRow.id))
"""The vehicles of the plates ``placas`` with their RENAVAM, first registered first (the
rows :data:`~lavra.registry.statements.VEHICLE_BY_PLATE_OR_RENAVAM` reads by plate)."""

_NAMES = select(PartyRow.doc, PartyRow.name).where(PartyRow.doc.in_(bindparam("docs",
                                                                            expanding=True)))
"""The names the parties ``docs`` were last registered under (``PARTY_NAME`` of each)."""


def _chunks(keys: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(keys), CHUNK):
        yield keys[start:start + CHUNK]


@dataclass(frozen=True)
class PlanReads:
    """What :func:`read_ahead` read (module docstring): each answer as the registry's
    lookup of one key would give it, or None when it was not read for that key."""

    on: date
    acts: dict[tuple[str, int, int], tuple[IssuedRecord, ...]]
    facts: dict[int, tuple[Fact, ...]]
    annulled: dict[int, tuple[str, date]]
    numbers: dict[tuple[str, int, int], tuple[LicenceView, ...]]
    """Each act read (series, number, year) → the licences it granted."""
    holders: dict[str, tuple[LicenceView, ...]]
    plates: dict[tuple[str, ...], tuple[LicenceView, ...]]
    """Each vehicle read, by every form of its plate (:func:`plate_forms`, sorted)."""
    bars: dict[str, tuple[tuple[str, date, str], ...]]
    renavams: dict[tuple[str, ...], str | None] = field(default_factory=dict)
    """Each vehicle read (by every form of its plate) → the RENAVAM of the first one
    registered under one of them; a plate no vehicle holds is absent."""

    def numbered(self, form: str, number: int, year: int) -> tuple[IssuedRecord, ...] | None:
        """:meth:`lavra.registry.queries.RegistryQueries.numbered`."""
        return self.acts.get((form, number, year))

    def licence(self, printed: str) -> tuple[LicenceView | None] | None:
        """:meth:`lavra.registry.licensing.RegistryState.licence_by_number` of a number
        with its series, in a tuple; None when not read."""
        parsed = parse_printed(printed)
        if parsed is None or parsed[0] is None:
            return None
        found = self.numbers.get((parsed[0].upper(), parsed[1], parsed[2]))
        if found is None:
            return None
        return (found[0] if len(found) == 1 else None,)  # two: the number is ambiguous

    def holder_views(self, holder: str) -> tuple[LicenceView, ...] | None:
        """:meth:`lavra.registry.licensing.RegistryState.licence_views` of one holder
        (every status and kind); None also for what is no CPF or CNPJ."""
        try:
            return self.holders.get(normalize_cpf_cnpj(holder))
        except InputError:
            return None

    def vehicle_views(self, placa: str) -> tuple[LicenceView, ...] | None:
        """:meth:`lavra.registry.licensing.RegistryState.licence_views` of one vehicle
        (every status and kind); None also for what is no plate."""
        try:
            return self.plates.get(_plate_key(placa))
        except InputError:
            return None

    def bars_of(self, doc: str, on: date) -> tuple[tuple[str, date, str], ...] | None:
        """:meth:`lavra.registry.licensing.RegistryState.bars_of` on a day from
        :attr:`on` on (those read ran to it or beyond); None also for what is no CPF or
        CNPJ."""
        if on < self.on:
            return None
        try:
            found = self.bars.get(normalize_cpf_cnpj(doc))
        except InputError:
            return None
        return None if found is None else tuple(bar for bar in found if bar[1] >= on)


    def renavam_agrees(self, placa: str, renavam: str) -> bool:
        """Whether the vehicle of ``placa`` was read and the first registered under it
        holds ``renavam`` (digits): then the identity lookup of the draft's vehicle
        (:func:`lavra.registry.identities.effect_identity_conflicts`) finds no conflict,
        since the RENAVAM is unique (``uq_vehicles_renavam``): no vehicle of another
        plate holds it. Otherwise (another RENAVAM, none, a plate not read) the registry
        is asked."""
        try:
            key = _plate_key(placa)
        except InputError:
            return False
        return bool(renavam) and self.renavams.get(key) == renavam


def _plate_key(placa: str) -> tuple[str, ...]:
    """A vehicle's plate by all its forms (InputError for what is no plate)."""
    return tuple(sorted(plate_forms(placa)))


def _acts(registry: Registry, acts: Iterable[tuple[str, int, int]],
          ) -> dict[tuple[str, int, int], tuple[IssuedRecord, ...]]:
    numbers: dict[tuple[str, int], set[int]] = defaultdict(set)
    for form, number, year in acts:
        numbers[form, year].add(number)
    found: dict[tuple[str, int, int], list[IssuedRecord]] = {
        (form, number, year): [] for (form, year), wanted in numbers.items()
        for number in wanted}
    with registry.database_errors(), registry.read_session() as session:
        connection = session.connection()
        for (form, year), wanted in sorted(numbers.items()):
            for chunk in _chunks(sorted(wanted)):
                values = {"form": form, "year": year, "numbers": list(chunk)}
                for row in connection.execute(_ACTS, values):
                    kept = found.get((form, row.number, row.year))
                    if kept is not None and len(kept) < _NUMBERED_LIMIT:
                        kept.append(_record(row))
    return {key: tuple(records) for key, records in found.items()}


def _valid(normalize: Any, values: Iterable[str]) -> list[Any]:
    kept: set[Any] = set()
    for value in values:
        try:
            kept.add(normalize(value))
        except InputError:  # the lookup answers it without the registry
            continue
    return sorted(kept)


def _numbers(registry: Registry, printed: Iterable[str],
             ) -> dict[tuple[str, int, int], tuple[LicenceView, ...]]:
    wanted = numbers_by_series(printed)
    found: dict[tuple[str, int, int], list[LicenceView]] = {
        (series, number, year): [] for (series, year), numbers in wanted.items()
        for number in numbers}
    with registry.database_errors(), registry.read_session() as session:
        connection = session.connection()
        for (series, year), numbers in sorted(wanted.items()):
            for chunk in _chunks(sorted(numbers)):
                values = {"series": series, "year": year, "numbers": list(chunk)}
                for row in connection.execute(_NUMBERS, values):
                    kept = found.get((row[-3], row[-2], row[-1]))
                    if kept is not None:
                        kept.append(_view_of(row[:-3]))
    return {key: tuple(views) for key, views in found.items()}


def _given(value: Any) -> Any:
    return lambda: value


def read_ahead(registry: Registry, on: date, *, acts: Iterable[tuple[str, int, int]] = (),
               licences: Iterable[str] = (), holders: Iterable[str] = (),
               placas: Iterable[str] = ()) -> PlanReads:
    """The acts (form, number, year), the licences some acts granted (their numbers as
    printed, with the series), the licences of the holders (CPF or CNPJ) and of
    the vehicles (plates), and the bars on the holders running on ``on`` (or later: a
    check asks for the day its act starts), read in bulk
    (module docstring). Inside a read scope: its snapshot."""
    records = _acts(registry, acts)
    ids = sorted({r.id for found in records.values() for r in found})
    facts: dict[int, tuple[Fact, ...]] = registry.facts_of(ids) if ids else {}
    annulled: dict[int, tuple[str, date]] = {}
    for chunk in _chunks(ids):
        annulled.update(registry.annulled_acts(chunk))
    docs = _valid(normalize_cpf_cnpj, holders)
    vehicles = sorted(set(_valid(_plate_key, placas)))
    plate_of = {form: key for key in vehicles for form in key}
    held: dict[str, list[LicenceView]] = {doc: [] for doc in docs}
    plates: dict[tuple[str, ...], list[LicenceView]] = {key: [] for key in vehicles}
    bars: dict[str, list[tuple[str, date, str]]] = {doc: [] for doc in docs}
    names: dict[str, str | None] = dict.fromkeys(docs)
    with registry.database_errors(), registry.read_session() as session:
        connection = session.connection()
        for chunk in _chunks(docs):
            for row in connection.execute(_HOLDERS, {"docs": list(chunk)}):
                view = _view_of(row)
                held[view.holder or ""].append(view)
            for doc, scope, until, series, number, year in connection.execute(
                    _BARS, {"docs": list(chunk), "on": on}):
                bars[doc].append((scope, until, printed_number(series, number, year)))
            names.update((doc, name) for doc, name in connection.execute(
                _NAMES, {"docs": list(chunk)}))
        # a vehicle's forms in one statement: its licences in the order it reads them
        renavams: dict[tuple[str, ...], str | None] = {}
        for group in _chunks(vehicles):
            wanted = [form for key in group for form in key]
            for row in connection.execute(_VEHICLES, {"placas": wanted}):
                view = _view_of(row)
                plates[plate_of[view.placa or ""]].append(view)
            for placa, renavam in connection.execute(_RENAVAMS, {"placas": wanted}):
                renavams.setdefault(plate_of[placa], renavam)
    # the checks' other two per-holder reads, kept in the read scope where the registry
    # keeps its own answers: the holder's registered name (RegistryState.party_name,
    # the same key) and the acts renewed as the dates read them (rests_on_dates)
    for doc, name in names.items():
        registry.remembered(("party_name", doc), _given(name))
    printed = list(licences)
    read_issued(registry, printed, CHUNK)
    return PlanReads(on, records, facts, annulled, _numbers(registry, printed),
                     {doc: tuple(views) for doc, views in held.items()},
                     {form: tuple(views) for form, views in plates.items()},
                     {doc: tuple(found) for doc, found in bars.items()}, renavams)
