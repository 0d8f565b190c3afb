"""Companion numbers: a number of another series reserved with an act, for the act
issued later that goes with it.

    Companion(series="SELO-TAXI", form="selo-taxi", field="/selo",
              cites="/alvara/numero", basis="taxi#art5")

A form may declare (in its pack, beside the article) that each of its acts issued one at
a time reserves, in the same transaction as its own number, the next number of another
series (``series``), printed in the act at ``field``: the law has the two expedited
together, and the first prints the second's number. The companion act (``form``) is
issued later and names the act it goes with at ``cites``; it then takes the reserved
number, not the next of its series. A batch run numbers both acts itself (its plan
reserves them) and declares nothing here.

A reservation is a row of ``companion_numbers``: the companion's number, taken from its
series' counter under the counter's lock, and the act (its series, year and number) it
was reserved with. Its state is derived, never stored twice: *used* when a document of
the series carries the number, *voided* when a numbering-void act voided it
(:mod:`lavra.registry.voiding`), else *held*. The act it was reserved with being
cancelled voids a held reservation in the same transaction (the existing numbering-void
act, with the cancellation's reason: :func:`lavra.registry.voiding.void_companions`);
staff may void one by that same act. So every number of the series stays explained
(:meth:`RegistryVoids.numbering_report` counts a held reservation as taken).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from sqlalchemy import Index, Integer, String, UniqueConstraint, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Mapped, Session, mapped_column

from lavra.inputs import pointers
from lavra.registry.identifiers import parse_printed
from lavra.registry.records import printed_number
from lavra.registry.tables import Base, BatchItemRow, CounterRow, DocumentRow, VoidedNumberRow

__all__ = [
    "Companion",
    "CompanionRow",
    "NumberState",
    "NumberStates",
    "held",
    "held_numbers",
    "number_state",
    "of_principal",
    "principal_of",
    "reserve",
    "reserved_for",
    "same_number",
    "taken_numbers",
    "with_companion",
]


@dataclass(frozen=True)
class Companion:
    """A number of ``series`` reserved with each act of the declaring form (module doc)."""

    series: str
    form: str
    field: str
    cites: str
    basis: str


@dataclass(frozen=True)
class NumberState:
    """What the registry says of a number of a companion series typed in an act.

    ``reserved_for``: the act it was reserved with (printed), if any; ``voided``: a
    numbering-void act voided it; ``held_by_run``: a pending batch item holds it;
    ``next_free``: it is the next number the series' counter gives."""

    reserved_for: str | None
    reserved_act_recorded: bool
    voided: bool
    held_by_run: bool
    next_free: bool


class CompanionRow(Base):
    """A companion number reserved with an act (module docstring)."""

    __tablename__ = "companion_numbers"
    __table_args__ = (
        UniqueConstraint("series", "year", "number"),
        Index("ix_companion_numbers_principal", "principal_series", "principal_year",
              "principal_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series: Mapped[str] = mapped_column(String(40))
    year: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    principal_series: Mapped[str] = mapped_column(String(40))
    principal_year: Mapped[int] = mapped_column(Integer)
    principal_number: Mapped[int] = mapped_column(Integer)


def _lock(session: Session, series: str, year: int) -> CounterRow:
    postgresql = session.get_bind().dialect.name == "postgresql"
    insert = postgresql_insert if postgresql else sqlite_insert
    session.execute(insert(CounterRow).values(series=series, year=year, last_number=0)
                    .on_conflict_do_nothing(index_elements=["series", "year"]))
    return session.scalars(select(CounterRow).where(
        CounterRow.series == series, CounterRow.year == year).with_for_update()).one()


def reserve(session: Session, series: str, year: int,
            principal: tuple[str, int, int]) -> int:
    """Take the next number of ``series``/``year`` for the act ``principal`` (series,
    year, number), under the counter's lock, in ``session``'s transaction."""
    counter = _lock(session, series, year)
    counter.last_number += 1
    p_series, p_year, p_number = principal
    session.add(CompanionRow(series=series, year=year, number=counter.last_number,
                             principal_series=p_series, principal_year=p_year,
                             principal_number=p_number))
    session.flush()
    return counter.last_number


def held(session: Session, row: CompanionRow) -> bool:
    """Neither used by a document nor voided."""
    document = session.scalar(select(DocumentRow.id).where(
        DocumentRow.series == row.series, DocumentRow.year == row.year,
        DocumentRow.number == row.number))
    voided = session.scalar(select(VoidedNumberRow.id).where(
        VoidedNumberRow.series == row.series, VoidedNumberRow.year == row.year,
        VoidedNumberRow.number == row.number))
    return document is None and voided is None


def of_principal(session: Session, principal: tuple[str, int, int],
                  series: str | None = None) -> list[CompanionRow]:
    p_series, p_year, p_number = principal
    stmt = select(CompanionRow).where(
        CompanionRow.principal_series == p_series, CompanionRow.principal_year == p_year,
        CompanionRow.principal_number == p_number)
    if series is not None:
        stmt = stmt.where(CompanionRow.series == series)
    return list(session.scalars(stmt.order_by(CompanionRow.id)))


def reserved_for(session: Session, series: str,
                 principal: tuple[str, int, int]) -> tuple[int, int] | None:
    """The (year, number) of ``series`` held for ``principal``, locked (its counter's
    lock), or None when none is held (never reserved, used or voided)."""
    for row in of_principal(session, principal, series):
        _lock(session, row.series, row.year)
        if held(session, row):
            return row.year, row.number
    return None


def held_numbers(session: Session, series: str, year: int) -> set[int]:
    """The numbers of ``series``/``year`` reserved and still held."""
    rows = session.scalars(select(CompanionRow).where(
        CompanionRow.series == series, CompanionRow.year == year)).all()
    return {row.number for row in rows if held(session, row)}


def taken_numbers(session: Session, series: str, year: int) -> set[int]:
    """Every number of ``series``/``year`` lavra reserved as a companion."""
    return set(session.scalars(select(CompanionRow.number).where(
        CompanionRow.series == series, CompanionRow.year == year)))


def number_state(session: Session, series: str, year: int, number: int) -> NumberState:
    """What the registry says of ``number`` typed in an act (:class:`NumberState`)."""
    row = session.scalars(select(CompanionRow).where(
        CompanionRow.series == series, CompanionRow.year == year,
        CompanionRow.number == number)).one_or_none()
    principal = recorded = None
    if row is not None:
        principal = printed_number(row.principal_series, row.principal_number,
                                   row.principal_year)
        recorded = session.scalar(select(DocumentRow.id).where(
            DocumentRow.series == row.principal_series,
            DocumentRow.year == row.principal_year,
            DocumentRow.number == row.principal_number))
    voided = session.scalar(select(VoidedNumberRow.id).where(
        VoidedNumberRow.series == series, VoidedNumberRow.year == year,
        VoidedNumberRow.number == number))
    by_run = session.scalar(select(BatchItemRow.id).where(
        BatchItemRow.series == series, BatchItemRow.year == year,
        BatchItemRow.number == number, BatchItemRow.status == "pending"))
    last = session.scalar(select(CounterRow.last_number).where(
        CounterRow.series == series, CounterRow.year == year)) or 0
    return NumberState(principal, recorded is not None, voided is not None,
                       by_run is not None, number == last + 1)


def principal_of(declared: Mapping[str, Companion], form: str,
                 data: Mapping[str, Any]) -> tuple[str, tuple[str, int, int]] | None:
    """For an act of a companion form: its series and the act it goes with (series,
    year, number), from the number its data cite; None for any other act."""
    for companion in declared.values():
        if companion.form != form:
            continue
        parsed = parse_printed(str(pointers.get(data, companion.cites) or "").strip())
        if parsed is not None and parsed[0] is not None:
            return companion.series, (parsed[0].upper(), parsed[2], parsed[1])
    return None


def same_number(typed: str, printed: str) -> bool:
    """``"SELO-TAXI 1/2026"`` and ``"SELO-TAXI nº 0001/2026"`` name the same number."""
    one, other = parse_printed(typed.strip()), parse_printed(printed.strip())
    return (one is not None and other is not None and (one[0] or "").upper() == other[0]
            and one[1:] == other[1:])


def with_companion(data: Mapping[str, Any], field: str, printed: str) -> dict[str, Any]:
    """``data`` with the reserved number at the top-level ``field``, cited as other acts
    cite it (``"SELO-TAXI 0001/2026"``)."""
    return {**data, field.lstrip("/"): printed.replace(" nº ", " ")}


@runtime_checkable
class NumberStates(Protocol):
    """The registry behind a check, answering what it says of a typed number."""

    def number_state(self, series: str, year: int, number: int) -> NumberState:
        """:func:`number_state` of the registry."""
        ...
