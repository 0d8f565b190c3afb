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
number, a number a pending batch item holds, or a number used before lavra;
:meth:`RegistryVoids.numbering_gaps` lists any other (none, unless rows were deleted by
hand), and :meth:`RegistryVoids.numbering_report` says, per series and year, which
numbers the import explains.

Numbers used before lavra. An act imported from before lavra (``lavra cadastro
importar``) moves its series' counter to its number: an imported ``0031/2024`` when lavra
had taken nothing of that series and year sets the counter at 31, and 1 to 30 were
never taken by lavra, they were used on paper before it. The import keeps, in the act's
``issued`` event, the counter as it found it (``contador_antes``, 0 here): the numbers
between that value and the imported number are exactly those the counter skipped, used
before lavra; any number at or below it was given by lavra's own counter, so when
nothing carries it (one of lavra's own acts deleted by hand) it stays an unexplained gap,
even below an imported number. The report says «números anteriores ao sistema,
importados: 0001 a 0030/2024».

Imports recorded before the event kept the counter (no ``contador_antes``) fall back to
the reading that follows from the import's rules (lavra's counter gives numbers in order,
the import only moves it up and refuses a number at or below one lavra issued itself):
a number nothing carries is used before lavra when an imported act of the series and
year has a higher number and no number lavra took itself (its own act, a voided number,
a batch item) lies between the two. That reading cannot tell the highest of lavra's own
numbers, deleted by hand before the import, from a number used on paper: only the
recorded counter can, and the registry holds nothing else that says it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.registry import companions
from lavra.registry.queries import RegistryQueries
from lavra.registry.records import (
    COUNTER_BEFORE,
    LOCAL_TZ,
    EventKind,
    check_number,
    check_series,
    check_text,
    check_year,
    parse_number,
    printed_number,
)
from lavra.registry.tables import (
    BatchItemRow,
    CounterRow,
    DocumentRow,
    EventRow,
    VoidedNumberRow,
)

__all__ = ["NumberingReport", "RegistryVoids", "VoidedNumber", "spans", "void_companions",
           "void_in"]

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


def spans(numbers: Iterable[int], year: int) -> str:
    """``0001 a 0030/2024, 0033/2024``: consecutive numbers (in order) as one span."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(f"{a:04d}/{year}" if a == b else f"{a:04d} a {b:04d}/{year}"
                     for a, b in runs)


@dataclass(frozen=True)
class NumberingReport:
    """One series and year of the gapless check: what fills the numbers up to the
    counter (acts lavra issued, imported acts, voided numbers), the numbers used before
    lavra that the import explains, and the unexplained gaps."""

    series: str
    year: int
    last_number: int
    before_lavra: tuple[int, ...]
    gaps: tuple[int, ...]
    issued: int = 0
    """Documents lavra issued in the series and year (cancelled ones too)."""
    imported: int = 0
    voided: tuple[VoidedNumber, ...] = ()

    @property
    def text(self) -> str:
        """The pt-BR line of the report, e.g. ``ALV-FRET 2024, até o nº 0032/2024:
        números anteriores ao sistema, importados: 0001 a 0030/2024.``"""
        said = []
        if self.before_lavra:
            said.append("números anteriores ao sistema, importados: "
                        + spans(self.before_lavra, self.year))
        if self.gaps:
            said.append("números sem explicação: " + spans(self.gaps, self.year))
        head = f"{self.series} {self.year}, até o nº {self.last_number:04d}/{self.year}"
        return f"{head}: {'; '.join(said) or 'sem lacunas'}."


def _explained_by_import(missing: list[int], imported: set[int], own: set[int]) -> set[int]:
    """The numbers of ``missing`` below an imported number with no number lavra took
    itself (``own``) in between (module docstring)."""
    explained: set[int] = set()
    above: int | None = None  # the nearest imported number above, while no own number
    marks = sorted({(n, "imported") for n in imported} | {(n, "own") for n in own}
                   | {(n, "missing") for n in missing}, reverse=True)
    for number, kind in marks:
        if kind == "imported":
            above = number
        elif kind == "own":
            above = None
        elif above is not None:
            explained.add(number)
    return explained


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


def void_companions(session: Session, principal: tuple[str, int, int], *, reason: str,
                    by: str) -> list[str]:
    """Void every number still held for the act ``principal`` (series, year, number),
    cancelled in ``session`` (:mod:`lavra.registry.companions`): the printed numbers."""
    act = printed_number(principal[0], principal[2], principal[1])
    voided: list[str] = []
    for row in companions.of_principal(session, principal):
        if companions.held(session, row):
            void_in(session, row.series, row.year, row.number, by=by,
                    reason=f"número reservado com o ato {act}, cancelado: {reason}")
            voided.append(printed_number(row.series, row.number, row.year))
    return voided


class RegistryVoids(RegistryQueries):
    """The numbering-void act and the gapless check (module docstring)."""

    def void_number(self, series: str, year: int, number: int, *, reason: str,
                    by: str) -> VoidedNumber:
        """Void a number taken from the series that no document carries and no pending
        batch item holds (for those: abandon the item)."""
        series, year, number = check_series(series), check_year(year), check_number(number)
        why = check_text(reason, "o motivo da inutilização", "/motivo", 2000)
        who = check_text(by, "quem decide a inutilização", "/responsavel", 200)
        with self.database_errors(), self.write_session() as session:
            held = session.scalar(select(BatchItemRow.run_id).where(
                BatchItemRow.series == series, BatchItemRow.year == year,
                BatchItemRow.number == number, BatchItemRow.status == "pending"))
            if held is not None:
                raise InputError(
                    f"O número {printed_number(series, number, year)} está reservado na "
                    f"execução em lote nº {held}; abandone o item (lavra lote abandonar) "
                    "para inutilizá-lo.", field="/numero")
            return void_in(session, series, year, number, reason=why, by=who)

    def number_state(self, series: str, year: int, number: int) -> companions.NumberState:
        """What the registry says of a number typed in an act: reserved with which act,
        voided, held by a batch run, the next of its series
        (:func:`lavra.registry.companions.number_state`)."""
        series, year, number = check_series(series), check_year(year), check_number(number)
        with self.database_errors(), self.read_session() as session:
            return companions.number_state(session, series, year, number)

    def voided(self, series: str, year: int, number: int) -> VoidedNumber | None:
        """The void act of this number, if it was voided."""
        series, year, number = check_series(series), check_year(year), check_number(number)
        with self.database_errors(), self.read_session() as session:
            row = _find(session, series, year, number)
            return None if row is None else _voided_of(row)

    def voided_by_number(self, formatted: str, series: str | None = None) -> VoidedNumber | None:
        """The voided number ``0004/2027`` (of ``series``; without it, the one voided in
        whichever series, when only one series voided it)."""
        number, year = parse_number(formatted)
        with self.database_errors(), self.read_session() as session:
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
        with self.database_errors(), self.read_session() as session:
            stmt = select(VoidedNumberRow).where(VoidedNumberRow.number == number,
                                                 VoidedNumberRow.year == year)
            if series:
                stmt = stmt.where(VoidedNumberRow.series == series.upper())
            rows = session.scalars(stmt.order_by(VoidedNumberRow.series).limit(50)).all()
            return tuple(_voided_of(row) for row in rows)

    def voided_numbers(self, run_id: int | None = None) -> tuple[VoidedNumber, ...]:
        """Every voided number (of the batch run ``run_id``, when given), in order."""
        with self.database_errors(), self.read_session() as session:
            stmt = select(VoidedNumberRow)
            if run_id is not None:
                stmt = stmt.where(VoidedNumberRow.run_id == run_id)
            rows = session.scalars(stmt.order_by(
                VoidedNumberRow.series, VoidedNumberRow.year, VoidedNumberRow.number)).all()
            return tuple(_voided_of(row) for row in rows)

    def numbering_gaps(self) -> tuple[tuple[str, int, int], ...]:
        """Every (series, year, number) up to its counter that is neither a document, nor
        a voided number, nor held by a pending batch item, nor used before lavra (module
        docstring): () in a sound registry."""
        return tuple((r.series, r.year, n) for r in self.numbering_report() for n in r.gaps)

    def numbering_report(self, series: str | None = None,
                         year: int | None = None) -> tuple[NumberingReport, ...]:
        """Per series and year (only ``series``/``year`` when given), in order: the
        numbers up to the counter that no document, voided number or pending batch item
        carries, split into those used before lavra (explained by the import) and the
        unexplained gaps."""
        reports: list[NumberingReport] = []
        stmt = select(CounterRow.series, CounterRow.year, CounterRow.last_number)
        if series is not None:
            stmt = stmt.where(CounterRow.series == check_series(series))
        if year is not None:
            stmt = stmt.where(CounterRow.year == check_year(year))
        with self.database_errors(), self.read_session() as session:
            for name, of_year, last in sorted(session.execute(stmt).all()):
                reports.append(_report(session, name, of_year, last))
        return tuple(reports)


def _skipped_by_imports(session: Session, series: str, year: int
                        ) -> tuple[set[int], set[int]]:
    """The numbers the import made the counter skip (each imported act's recorded
    ``contador_antes`` + 1 up to its number, exclusive), and the imported numbers whose
    event kept no counter (imported before it was kept)."""
    skipped: set[int] = set()
    unrecorded: set[int] = set()
    rows = session.execute(select(DocumentRow.number, EventRow.data).join(
        EventRow, EventRow.document_id == DocumentRow.id).where(
        DocumentRow.series == series, DocumentRow.year == year,
        DocumentRow.origin.is_not(None), EventRow.kind == EventKind.ISSUED.value)).all()
    for number, data in rows:
        before = data.get(COUNTER_BEFORE) if isinstance(data, Mapping) else None
        if isinstance(before, int) and not isinstance(before, bool):
            skipped.update(range(before + 1, number))
        else:
            unrecorded.add(number)
    return skipped, unrecorded


def _report(session: Session, series: str, year: int, last: int) -> NumberingReport:
    documents = session.execute(select(
        DocumentRow.number, DocumentRow.origin.is_not(None)).where(
        DocumentRow.series == series, DocumentRow.year == year)).all()
    imported = {n for n, from_import in documents if from_import}
    own = {n for n, from_import in documents if not from_import}
    issued = len(own)
    voided = tuple(_voided_of(row) for row in session.scalars(
        select(VoidedNumberRow).where(VoidedNumberRow.series == series,
                                      VoidedNumberRow.year == year)
        .order_by(VoidedNumberRow.number)))
    own.update(v.number for v in voided)
    items = session.execute(select(BatchItemRow.number, BatchItemRow.status).where(
        BatchItemRow.series == series, BatchItemRow.year == year)).all()
    held = {n for n, state in items if n is not None and state == "pending"}
    # A number reserved with another act and not yet issued is held too.
    held |= companions.held_numbers(session, series, year)
    own |= companions.taken_numbers(session, series, year) - held
    taken = imported | own | held
    missing = [n for n in range(1, last + 1) if n not in taken]
    skipped, unrecorded = _skipped_by_imports(session, series, year)
    # Any batch item, whatever became of it, is a number lavra's counter gave.
    before = skipped | _explained_by_import(
        missing, unrecorded, own | {n for n, _ in items if n is not None})
    return NumberingReport(
        series, year, last, tuple(n for n in missing if n in before),
        tuple(n for n in missing if n not in before),
        issued=issued, imported=len(imported), voided=voided)
