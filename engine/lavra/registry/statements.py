"""The read statements the checks ask at every document, built once per process.

A check of one document asks the registry a dozen questions (the licences of a
vehicle and of a holder, a licence by its number, the documents of a number, the
identities an act names...). Building each SQLAlchemy statement anew costs more than
running it: the expression (joins, correlated subqueries), then its cache key, at every
call. Here each statement is built once for each of its shapes (which conditions it
has), its values left as bound parameters; SQLAlchemy memoizes the cache key of a
statement object, so a statement reused skips both. The values are passed at
execution (``session.execute(statement, {"number": 7, ...})``); a list of values (a
plate's forms, the statuses) is an expanding parameter, rendered as the same
``IN (...)`` a literal list gives, so the databases' plans do not change.

    session.execute(view_by_number(series=True, kind=False),
                    {"number": 7, "year": 2026, "series": "ALV-X"})
"""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.orm import aliased

from lavra.registry.act_dates import order_by_act
from lavra.registry.tables import (
    BarRow,
    DocumentRow,
    DriverRow,
    EventRow,
    LicenceRow,
    PartyRow,
    StaffValueRow,
    StateChangeRow,
    VehicleRow,
)

__all__ = [
    "ANNULMENT_MARKS",
    "BARS_OF",
    "BAR_OF_PARTY",
    "DOCUMENTS_NUMBERED",
    "DRIVER_AND_PERSON",
    "DRIVER_BY_CNH",
    "EVENTS_OF",
    "PARTY_BY_DOC",
    "PARTY_NAME",
    "RENAVAM_ELSEWHERE",
    "STAFF_VALUES_STAMP",
    "VEHICLE_BY_PLATE_OR_RENAVAM",
    "VIEW_OF_DOCUMENT",
    "licences_holding",
    "licences_of",
    "view_by_number",
    "view_select",
    "views_of",
]

_STATUS_DOC = aliased(DocumentRow)
"""The act that set a licence's status, aliased once (not at every lookup)."""

_TRANSFER_DOC = aliased(DocumentRow)
"""The act that last transferred a licence to another holder, aliased once."""


def _last_change(kind: str) -> Any:
    """The day of the licence's last state change of ``kind``, as a column of its row."""
    return (select(func.max(StateChangeRow.on))
            .where(StateChangeRow.licence_id == LicenceRow.id, StateChangeRow.kind == kind)
            .correlate(LicenceRow).scalar_subquery())


def _last_transfer() -> Any:
    """The act of the licence's last transfer (its latest state change ``transferred``)."""
    return (select(StateChangeRow.document_id)
            .where(StateChangeRow.licence_id == LicenceRow.id,
                   StateChangeRow.kind == "transferred")
            .order_by(StateChangeRow.on.desc(), StateChangeRow.id.desc()).limit(1)
            .correlate(LicenceRow).scalar_subquery())


_LICENCE_COLUMNS = (LicenceRow.printed, LicenceRow.kind, LicenceRow.status,
                    LicenceRow.status_document_id, LicenceRow.document_id,
                    LicenceRow.status_since, LicenceRow.valid_from, LicenceRow.valid_until,
                    LicenceRow.exclusive, LicenceRow.per_holder)


def view_select(*, placa: bool = False, holder: bool = False) -> Select[*tuple[Any, ...]]:
    """A licence as :class:`~lavra.registry.licensing.LicenceView` reads it, in one row
    of one query: its holder, vehicle, driver's CNH, facts, the act that set its status, its
    last revalidation, change of vehicle and transfer. Joined (not outer-joined) to the vehicle or
    holder a list is asked for, so that their index finds the licences."""
    stmt = select(*_LICENCE_COLUMNS, PartyRow.doc, PartyRow.name, VehicleRow.placa,
                  _STATUS_DOC.series, _STATUS_DOC.number, _STATUS_DOC.year,
                  _last_change("revalidated"), _last_change("vehicle"),
                  _TRANSFER_DOC.series, _TRANSFER_DOC.number, _TRANSFER_DOC.year,
                  _TRANSFER_DOC.reference_date, DriverRow.cnh, LicenceRow.facts
                  ).select_from(LicenceRow)
    stmt = (stmt.join(PartyRow, PartyRow.id == LicenceRow.holder_id) if holder
            else stmt.outerjoin(PartyRow, PartyRow.id == LicenceRow.holder_id))
    stmt = (stmt.join(VehicleRow, VehicleRow.id == LicenceRow.vehicle_id) if placa
            else stmt.outerjoin(VehicleRow, VehicleRow.id == LicenceRow.vehicle_id))
    return (stmt.outerjoin(_STATUS_DOC, _STATUS_DOC.id == LicenceRow.status_document_id)
            .outerjoin(_TRANSFER_DOC, _TRANSFER_DOC.id == _last_transfer())
            .outerjoin(DriverRow, DriverRow.id == LicenceRow.driver_id))


VIEW_OF_DOCUMENT = view_select().where(LicenceRow.document_id == bindparam("document_id"))
"""The licence one act granted (``document_id``)."""


@cache
def view_by_number(*, series: bool, kind: bool) -> Select[*tuple[Any, ...]]:
    """The licence granted by the act numbered ``number``/``year`` (of ``series``, or
    else of the licence ``kind``, when asked), through the documents' number index; at
    most two rows (more than one: the number is ambiguous)."""
    stmt = (view_select()
            .join(DocumentRow, DocumentRow.id == LicenceRow.document_id)
            .where(DocumentRow.number == bindparam("number"),
                   DocumentRow.year == bindparam("year")))
    if series:
        stmt = stmt.where(DocumentRow.series == bindparam("series"))
    elif kind:
        stmt = stmt.where(LicenceRow.kind == bindparam("kind"))
    return stmt.limit(2)


@cache
def views_of(*, placa: bool, holder: bool, kind: bool, active: bool) -> Select[*tuple[Any, ...]]:
    """The licences of a vehicle (``placas``: its plate's forms) or of a holder
    (``doc``), of ``kind`` and only those in force (``status``) when asked, oldest
    first."""
    stmt = view_select(placa=placa, holder=holder).order_by(
        LicenceRow.valid_from, LicenceRow.id)
    if kind:
        stmt = stmt.where(LicenceRow.kind == bindparam("kind"))
    if active:
        stmt = stmt.where(LicenceRow.status == bindparam("status"))
    if placa:
        stmt = stmt.where(VehicleRow.placa.in_(bindparam("placas", expanding=True)))
    if holder:
        stmt = stmt.where(PartyRow.doc == bindparam("doc"))
    return stmt


@cache
def licences_of(*, on: bool, expiring: bool, placa: bool, holder: bool) -> Select[*tuple[Any, ...]]:
    """The acts granting licences of ``kind`` in one of ``statuses``: valid on ``day``,
    of a vehicle (``placas``) or holder (``doc``), whose last day falls between
    ``first`` and ``last``, as asked; by number."""
    # For a vehicle or holder, their own index finds the few licences and the kind
    # only filters: written as an expression, SQLite's planner (without statistics)
    # cannot walk the kind's index through every licence of the kind instead.
    of_kind = (LicenceRow.kind == bindparam("kind") if not placa and not holder
               else func.coalesce(LicenceRow.kind, "") == bindparam("kind"))
    stmt = (
        select(DocumentRow)
        .join(LicenceRow, LicenceRow.document_id == DocumentRow.id)
        .where(of_kind, LicenceRow.status.in_(bindparam("statuses", expanding=True)))
    )
    if on:
        stmt = stmt.where(LicenceRow.valid_from <= bindparam("day"),
                          (LicenceRow.valid_until.is_(None))
                          | (LicenceRow.valid_until >= bindparam("day")))
    if expiring:
        stmt = stmt.where(LicenceRow.valid_until >= bindparam("first"),
                          LicenceRow.valid_until <= bindparam("last"))
    if placa:
        stmt = stmt.join(VehicleRow, VehicleRow.id == LicenceRow.vehicle_id).where(
            VehicleRow.placa.in_(bindparam("placas", expanding=True)))
    if holder:
        stmt = stmt.join(PartyRow, PartyRow.id == LicenceRow.holder_id).where(
            PartyRow.doc == bindparam("doc"))
    return stmt.order_by(DocumentRow.year, DocumentRow.series, DocumentRow.number)


DOCUMENTS_NUMBERED = (
    select(DocumentRow)
    .where(DocumentRow.number == bindparam("number"), DocumentRow.year == bindparam("year"),
           DocumentRow.form == bindparam("form"))
    .order_by(*order_by_act(newest_first=True)).limit(500)
)
"""The documents of ``form`` numbered ``number``/``year``, the most recent act first (an
imported one at its own date, :mod:`lavra.registry.act_dates`), as the search orders."""

PARTY_NAME = select(PartyRow.name).where(PartyRow.doc == bindparam("doc"))
"""The name the CPF or CNPJ ``doc`` was last registered under."""

PARTY_BY_DOC = select(PartyRow).where(PartyRow.doc == bindparam("doc"))
"""The party of the CPF or CNPJ ``doc``."""

DRIVER_BY_CNH = select(DriverRow).where(DriverRow.cnh == bindparam("cnh"))
"""The driver of the CNH ``cnh``."""

DRIVER_AND_PERSON = (select(DriverRow, PartyRow)
                     .outerjoin(PartyRow, PartyRow.doc == bindparam("doc"))
                     .where(DriverRow.cnh == bindparam("cnh")))
"""The driver of the CNH ``cnh`` with the party of the CPF ``doc`` (None: unknown), in one
row (both unique: no row when no driver holds the CNH): what :data:`DRIVER_BY_CNH` and
:data:`PARTY_BY_DOC` read one after the other."""

VEHICLE_BY_PLATE_OR_RENAVAM = (
    select(VehicleRow)
    .where(VehicleRow.placa.in_(bindparam("placas", expanding=True))
           | (VehicleRow.renavam == bindparam("renavam")))
    .order_by(VehicleRow.id))
"""The vehicles of a plate (``placas``: its forms) and the one holding ``renavam``, first
registered first (each answered by its index)."""

@cache
def licences_holding(*, holder: bool) -> Select[LicenceRow]:
    """The licences in one of ``statuses`` of the vehicle (or, ``holder``, of the holder)
    ``owner`` (its id) in the group ``group`` (their ``exclusive``, or ``per_holder``):
    the place a grant would take (:func:`lavra.registry.guards.grant_refusals`)."""
    owner, group = ((LicenceRow.holder_id, LicenceRow.per_holder) if holder
                    else (LicenceRow.vehicle_id, LicenceRow.exclusive))
    return select(LicenceRow).where(
        owner == bindparam("owner"), group == bindparam("group"),
        LicenceRow.status.in_(bindparam("statuses", expanding=True)))


BAR_OF_PARTY = (select(BarRow, DocumentRow.series, DocumentRow.number, DocumentRow.year)
                .join(DocumentRow, DocumentRow.id == BarRow.document_id)
                .where(BarRow.party_id == bindparam("party"),
                       BarRow.scope == bindparam("scope"), BarRow.until >= bindparam("on"))
                .order_by(BarRow.until.desc()).limit(1))
"""The bar of ``scope`` on the party ``party`` (its id) running longest past ``on``, with
the act that set it."""

RENAVAM_ELSEWHERE = select(VehicleRow).where(
    VehicleRow.renavam == bindparam("renavam"),
    VehicleRow.placa.not_in(bindparam("placas", expanding=True)))
"""A vehicle holding ``renavam`` under another plate than ``placas`` (its forms)."""

EVENTS_OF = (select(EventRow)
             .where(EventRow.document_id.in_(bindparam("ids", expanding=True)),
                    EventRow.kind.in_(bindparam("kinds", expanding=True)))
             .order_by(EventRow.at, EventRow.id))
"""The events of ``kinds`` recorded on the documents ``ids``, in the order recorded."""

ANNULMENT_MARKS = (select(StateChangeRow.document_id, StateChangeRow.before)
                   .where(StateChangeRow.document_id.in_(bindparam("ids", expanding=True)),
                          StateChangeRow.kind == bindparam("kind"))
                   .order_by(StateChangeRow.id))
"""The state changes of ``kind`` (the marks of an annulment) on the acts ``ids``."""

BARS_OF = (select(BarRow.scope, BarRow.until, DocumentRow.series, DocumentRow.number,
                  DocumentRow.year)
           .join(PartyRow, PartyRow.id == BarRow.party_id)
           .join(DocumentRow, DocumentRow.id == BarRow.document_id)
           .where(PartyRow.doc == bindparam("doc"), BarRow.until >= bindparam("on"))
           .order_by(BarRow.until))
"""The bars on the party ``doc`` still running on ``on``, with the act that set each."""

STAFF_VALUES_STAMP = select(func.count(StaffValueRow.id),
                            func.coalesce(func.max(StaffValueRow.id), 0),
                            func.count(StaffValueRow.revoked_at))
"""A fingerprint of the staff values: it changes with every registration or revocation."""
