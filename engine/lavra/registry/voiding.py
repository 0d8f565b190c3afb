"""Numbers voided by a recorded act (numeração inutilizada), and the gapless check.

    registry.void_number("ALV", 2027, 4, reason="...", by="Fulana")  # a free number
    registry.voided("ALV", 2027, 4).text   # "Numeração inutilizada em 05/01/2027 por ..."
    registry.numbering_gaps()               # () while every number is explained

A number once taken from a series counter (by an issue, by a batch plan that reserved
it, by an import that moved the counter past it) is never given again. When it will
never be issued, it is voided by an act of its own in ``voided_numbers``: the reason,
who decided and when, and the batch run that had reserved it. Documents and voided
numbers share the series' numbers and never overlap: a number is voided only under the
counter's lock, and only while no document carries it and no pending batch item holds
it (such an item is abandoned instead, :mod:`lavra.registry.abandon`, which voids its
number in the same transaction). A voided number is never an issued act: looked up, it
reads as voided.

The series stays gapless: every number from 1 to the counter is a document, a voided
number or a number a pending batch item holds; :meth:`RegistryVoids.numbering_gaps`
lists any other (none, unless rows were deleted by hand).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.registry.queries import RegistryQueries
from lavra.registry.records import (
    LOCAL_TZ,
    check_number,
    check_series,
    check_text,
    check_year,
    parse_number,
    printed_number,
)
from lavra.registry.tables import BatchItemRow, CounterRow, DocumentRow, VoidedNumberRow

__all__ = ["RegistryVoids", "VoidedNumber", "void_in"]

_SEARCHED = re.compile(r"(?:([A-Za-z0-9][A-Za-z0-9._-]{0,39})\s+)?(?:n[º°o.]*\s*)?(\d{1,9})"
                       r"\s*/\s*(\d{4})", re.IGNORECASE)
"""A number as staff type it in a search: ``0004/2027``, ``ALV-ESC 0004/2027``,
``ALV-ESC nº 0004/2027``."""


@dataclass(frozen=True)
class VoidedNumber:
    """A number of a series voided by a recorded act."""

    series: str
    year: int
    number: int
    reason: str
    by: str
    at: datetime
    run_id: int | None

    @property
    def printed(self) -> str:
        return printed_number(self.series, self.number, self.year)

    @property
    def text(self) -> str:
        """``Numeração inutilizada em 05/01/2027 por Fulana: motivo`` (pt-BR)."""
        day = self.at.astimezone(LOCAL_TZ).strftime("%d/%m/%Y")
        return f"Numeração inutilizada em {day} por {self.by}: {self.reason}"


def _voided_of(row: VoidedNumberRow) -> VoidedNumber:
    return VoidedNumber(row.series, row.year, row.number, row.reason, row.voided_by,
                        row.voided_at, row.run_id)


def _find(session: Session, series: str, year: int, number: int) -> VoidedNumberRow | None:
    return session.scalars(select(VoidedNumberRow).where(
        VoidedNumberRow.series == series, VoidedNumberRow.year == year,
        VoidedNumberRow.number == number,
    )).one_or_none()


def void_in(session: Session, series: str, year: int, number: int, *, reason: str, by: str,
            run_id: int | None = None, now: datetime | None = None) -> VoidedNumber:
    """Void ``number`` in ``session``, whose transaction holds the series counter's lock
    (the writer lock on SQLite, ``FOR UPDATE`` on PostgreSQL). InputError, in pt-BR,
    when it was never taken, carries a document or is already voided."""
    printed = printed_number(series, number, year)
    last = session.scalars(
        select(CounterRow).where(CounterRow.series == series, CounterRow.year == year)
        .with_for_update()
    ).one_or_none()
    if last is None or number > last.last_number:
        raise InputError(f"O número {printed} ainda não foi tomado da série: não há o que "
                         "inutilizar.", field="/numero")
    document = session.scalar(select(DocumentRow.id).where(
        DocumentRow.series == series, DocumentRow.year == year, DocumentRow.number == number))
    if document is not None:
        raise InputError(f"O número {printed} corresponde a documento emitido; para "
                         "desfazê-lo, cancele o documento.", field="/numero")
    earlier = _find(session, series, year, number)
    if earlier is not None:
        raise InputError(f"O número {printed} já foi inutilizado: {_voided_of(earlier).text}.",
                         field="/numero")
    row = VoidedNumberRow(series=series, year=year, number=number, reason=reason,
                          voided_by=by, voided_at=now or datetime.now(UTC), run_id=run_id)
    session.add(row)
    session.flush()
    return _voided_of(row)


class RegistryVoids(RegistryQueries):
    """The numbering-void act and the gapless check (module docstring)."""

    def void_number(self, series: str, year: int, number: int, *, reason: str,
                    by: str) -> VoidedNumber:
        """Void a number taken from the series that no document carries and no pending
        batch item holds (for those: abandon the item)."""
        series, year, number = check_series(series), check_year(year), check_number(number)
        why = check_text(reason, "o motivo da inutilização", "/motivo", 2000)
        who = check_text(by, "quem decide a inutilização", "/responsavel", 200)
        with self._database_errors(), self._write() as session:
            held = session.scalar(select(BatchItemRow.run_id).where(
                BatchItemRow.series == series, BatchItemRow.year == year,
                BatchItemRow.number == number, BatchItemRow.status == "pending"))
            if held is not None:
                raise InputError(
                    f"O número {printed_number(series, number, year)} está reservado na "
                    f"execução em lote nº {held}; abandone o item (lavra lote abandonar) "
                    "para inutilizá-lo.", field="/numero")
            return void_in(session, series, year, number, reason=why, by=who)

    def voided(self, series: str, year: int, number: int) -> VoidedNumber | None:
        """The void act of this number, if it was voided."""
        series, year, number = check_series(series), check_year(year), check_number(number)
        with self._database_errors(), self._read() as session:
            row = _find(session, series, year, number)
            return None if row is None else _voided_of(row)

    def voided_by_number(self, formatted: str, series: str | None = None) -> VoidedNumber | None:
        """The voided number ``0004/2027`` (of ``series``; without it, the one voided in
        whichever series, when only one series voided it)."""
        number, year = parse_number(formatted)
        with self._database_errors(), self._read() as session:
            stmt = select(VoidedNumberRow).where(VoidedNumberRow.year == year,
                                                 VoidedNumberRow.number == number)
            if series is not None:
                stmt = stmt.where(VoidedNumberRow.series == check_series(series))
            rows = session.scalars(stmt.order_by(VoidedNumberRow.series)).all()
            if len(rows) > 1:
                raise InputError(
                    f"Há mais de um número {formatted.strip()} inutilizado (séries "
                    f"{', '.join(r.series for r in rows)}); indique a série.", field="/serie")
            return _voided_of(rows[0]) if rows else None

    def voided_search(self, text: str) -> tuple[VoidedNumber, ...]:
        """The voided numbers a registry search by number (``0004/2027``, with or
        without its series before it) finds: () for any other text."""
        match = _SEARCHED.fullmatch(text.strip()) if isinstance(text, str) else None
        if match is None or int(match.group(2)) == 0:
            return ()
        series, number, year = match.group(1), int(match.group(2)), int(match.group(3))
        with self._database_errors(), self._read() as session:
            stmt = select(VoidedNumberRow).where(VoidedNumberRow.number == number,
                                                 VoidedNumberRow.year == year)
            if series:
                stmt = stmt.where(VoidedNumberRow.series == series.upper())
            rows = session.scalars(stmt.order_by(VoidedNumberRow.series).limit(50)).all()
            return tuple(_voided_of(row) for row in rows)

    def voided_numbers(self, run_id: int | None = None) -> tuple[VoidedNumber, ...]:
        """Every voided number (of the batch run ``run_id``, when given), in order."""
        with self._database_errors(), self._read() as session:
            stmt = select(VoidedNumberRow)
            if run_id is not None:
                stmt = stmt.where(VoidedNumberRow.run_id == run_id)
            rows = session.scalars(stmt.order_by(
                VoidedNumberRow.series, VoidedNumberRow.year, VoidedNumberRow.number)).all()
            return tuple(_voided_of(row) for row in rows)

    def numbering_gaps(self) -> tuple[tuple[str, int, int], ...]:
        """Every (series, year, number) up to its counter that is neither a document, nor
        a voided number, nor held by a pending batch item: () in a sound registry."""
        gaps: list[tuple[str, int, int]] = []
        with self._database_errors(), self._read() as session:
            counters = session.execute(select(
                CounterRow.series, CounterRow.year, CounterRow.last_number)).all()
            for series, year, last in sorted(counters):
                taken: set[int] = set()
                for column, where in (
                    (DocumentRow.number, (DocumentRow.series == series)
                     & (DocumentRow.year == year)),
                    (VoidedNumberRow.number, (VoidedNumberRow.series == series)
                     & (VoidedNumberRow.year == year)),
                    (BatchItemRow.number, (BatchItemRow.series == series)
                     & (BatchItemRow.year == year) & (BatchItemRow.status == "pending")),
                ):
                    taken.update(n for n in session.scalars(select(column).where(where))
                                 if n is not None)
                gaps.extend((series, year, n) for n in range(1, last + 1) if n not in taken)
        return tuple(gaps)
