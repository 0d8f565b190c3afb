"""Batch runs in the registry: plan once, then work item by item, resumable.

    run = plan_run(registry, "renovacao-x", "renovacao-x:2027", fingerprint, params,
                   on, year, holders)          # numbers reserved, in input order
    item = claim_and_record(registry, run.id, build, worker="w1")   # one item done
    items = run_items(registry, run.id)

**Plan.** One write transaction locks the counter of every series the run numbers (in
a fixed order, so that two planners never deadlock), decides nothing itself but
takes, for each holder in input order and each of its documents, the next number of
the document's series, and writes one ``batch_items`` row per output with its number.
The counters move past the reserved block in the same transaction: a document issued
one by one meanwhile takes the number after it, and a number is never reserved twice
(``batch_items`` is unique on series, year and number). The run is named by a key
(what it renews): while a run of that key is unfinished, planning it again returns that
run (same inputs) or refuses (other inputs), so that a rerun resumes and never plans a
holder twice; once finished, the same inputs find the finished run
(:func:`finished_run`) and other inputs (requests that arrived later) plan a new one.

**Work.** :func:`claim_and_record` takes one pending item and records its document
under the reserved number, with the document's first event and the item marked done,
in one transaction. On PostgreSQL the item is claimed with ``SELECT ... FOR UPDATE
SKIP LOCKED``: any number of workers, on any number of machines, take distinct items,
and a worker that dies (``kill -9``) releases its item when its connection drops. On
SQLite there are no row locks and the writer lock is one for the whole file: an item
is built outside the transaction and recorded only if it is still pending when the
writer lock is taken (one claimer at a time records; a second process side by side on
the same file may build an item in vain, never record it twice).

**Order within a holder.** A holder's documents are recorded in the order the plan
lists them: a document item is claimable only when no earlier document of the same
holder is pending (a document that rests on another, such as a seal on the licence
issued with it, finds that one in the registry when it is built). Companion files
(attachments) wait for nothing and nothing waits for them. Across holders there is no
order: they are worked in parallel.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Row, bindparam, func, literal, select, update
from sqlalchemy.orm import Session, aliased

from lavra.errors import InputError, LavraError
from lavra.registry.database import Conflict, ValueRefused
from lavra.registry.filing_holds import hold_filings
from lavra.registry.filing_status import FilingAnswered, settle_joined
from lavra.registry.once import RenewalsDone, Wanted, act_of, claim_renewals
from lavra.registry.processos import joined_only_opened
from lavra.registry.records import Built, check_series, format_number, printed_number
from lavra.registry.store import Registry
from lavra.registry.tables import BatchItemRow, BatchRunRow

__all__ = ["ItemAnswered", "ItemFailed", "ItemRecord", "PlannedHolder", "PlannedOutput",
           "RunRecord", "claim_and_record", "finish_run", "finished_run", "get_run",
           "item_content", "item_of", "list_runs", "open_run", "outstanding",
           "plan_run", "run_counts", "run_items"]

DOCUMENT, ATTACHMENT, REFUSED = "documento", "anexo", "recusado"
PENDING, DONE, ABANDONED = "pending", "done", "abandoned"
"""An item's states: waiting to be built; built and recorded; abandoned by staff, its
number voided (:mod:`lavra.registry.abandon`)."""


@dataclass(frozen=True)
class PlannedOutput:
    """One output of a holder: a document of ``series`` (numbered) or, with no series,
    an unsigned companion file (``role`` ``anexo``); ``file`` is its file name."""

    form: str
    data: Mapping[str, Any]
    file: str
    series: str | None = None

    @property
    def role(self) -> str:
        return DOCUMENT if self.series is not None else ATTACHMENT


@dataclass(frozen=True)
class PlannedHolder:
    """What the plan decided for one holder, in input order: its outputs, or why it was
    refused (``reason``, pt-BR, with no outputs). ``outcome`` is a short pt-BR label
    (``renovado``, ``notificado``, ``recusado``). ``claim``: what else makes its act
    another act for the planned-once constraint (:func:`lavra.registry.once.act_of`).
    ``filing``: the protocol of the filing online its outputs answer, which its items
    hold while pending (:mod:`lavra.registry.filing_holds`)."""

    holder: str
    name: str
    outcome: str
    outputs: tuple[PlannedOutput, ...] = ()
    reason: str | None = None
    claim: str | None = None
    filing: str | None = None


Link = Callable[[PlannedHolder, tuple[str | None, ...]], PlannedHolder]
"""Given the printed numbers the plan reserved for a holder's outputs (None for an
attachment), the holder with its data completed (one document citing another's
number)."""


@dataclass(frozen=True)
class RunRecord:
    id: int
    kind: str
    key: str
    fingerprint: str
    params: Mapping[str, Any]
    reference_date: date
    year: int
    status: str
    created_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True)
class ItemRecord:
    id: int
    run_id: int
    position: int
    seq: int
    holder: str
    name: str
    outcome: str
    role: str
    form: str | None
    series: str | None
    year: int | None
    number: int | None
    data: Mapping[str, Any] | None = field(repr=False)
    reason: str | None
    file: str | None
    status: str
    document_id: int | None
    failed_field: str | None = None  # the field its last failure named, if any

    @property
    def printed(self) -> str | None:
        """The number as printed, with its series (``ALV 0001/2027``)."""
        if self.series is None or self.number is None or self.year is None:
            return None
        return printed_number(self.series, self.number, self.year)

    @property
    def done(self) -> bool:
        return self.status == DONE

    @property
    def abandoned(self) -> bool:
        return self.status == ABANDONED


def _run_of(row: BatchRunRow) -> RunRecord:
    return RunRecord(row.id, row.kind, row.key, row.fingerprint, dict(row.params),
                     row.reference_date, row.year, row.status, row.created_at,
                     row.finished_at)


def item_of(row: BatchItemRow | Row[Any]) -> ItemRecord:
    return ItemRecord(
        row.id, row.run_id, row.position, row.seq, row.holder, row.name, row.outcome,
        row.role, row.form, row.series, row.year, row.number,
        None if row.data is None else dict(row.data), row.reason, row.file, row.status,
        row.document_id, row.failed_field,
    )


def _json(value: Mapping[str, Any]) -> Any:
    try:
        return json.loads(json.dumps(value, default=str, ensure_ascii=False))
    except (TypeError, ValueError) as error:
        raise LavraError(f"Dados do lote não representáveis em JSON: {error}.") from None


def _unfinished(session: Session, key: str) -> BatchRunRow | None:
    return session.scalars(
        select(BatchRunRow)
        .where(BatchRunRow.key == key, BatchRunRow.status != DONE)
        .order_by(BatchRunRow.id)
    ).first()


def open_run(registry: Registry, key: str) -> RunRecord | None:
    """The unfinished run named ``key``, if any."""
    with registry.database_errors(), registry.read_session() as session:
        row = _unfinished(session, key)
        return None if row is None else _run_of(row)


def finished_run(registry: Registry, key: str,
                 fingerprint: str | Sequence[str]) -> RunRecord | None:
    """The last finished run named ``key`` planned from the same inputs, if any: the
    same command run again after the end finds it, and issues nothing more.
    ``fingerprint``: one, or each the same inputs may have been planned with."""
    accepted = [fingerprint] if isinstance(fingerprint, str) else list(fingerprint)
    with registry.database_errors(), registry.read_session() as session:
        row = session.scalars(
            select(BatchRunRow)
            .where(BatchRunRow.key == key, BatchRunRow.status == DONE,
                   BatchRunRow.fingerprint.in_(accepted))
            .order_by(BatchRunRow.id.desc())
        ).first()
        return None if row is None else _run_of(row)


def _same_or_refuse(row: BatchRunRow, fingerprint: str,
                    same: Callable[[str, str], bool] | None) -> RunRecord:
    if not (same(row.fingerprint, fingerprint) if same is not None
            else row.fingerprint == fingerprint):
        raise InputError(
            f"Há uma execução em lote não concluída para {row.key.split(':', 1)[-1]} "
            f"(execução nº {row.id}, planejada com outros arquivos de entrada). Repita o "
            "comando com os mesmos arquivos para concluí-la; só então outra pode ser "
            "planejada.",
            field="/entrada",
        )
    return _run_of(row)


def _fit(text: str, size: int = 200) -> str:
    """A holder's label cut to its column (a long name never refuses the whole plan)."""
    return text if len(text) <= size else text[: size - 1] + "…"


def plan_run(
    registry: Registry,
    kind: str,
    key: str,
    fingerprint: str,
    params: Mapping[str, Any],
    on: date,
    year: int,
    holders: Sequence[PlannedHolder],
    *,
    link: Link | None = None,
    actor: str | None = None,
    same: Callable[[str, str], bool] | None = None,
) -> RunRecord:
    """Write the plan: every output numbered in input order (module docstring).
    ``same(planned, fingerprint)``: whether an unfinished run has the same inputs
    (default: equal); a planner that lost the race to one then gets that run."""
    series_used = sorted(
        {check_series(out.series) for h in holders for out in h.outputs if out.series}
    )
    with registry.database_errors(), registry.write_session() as session:
        counters = {s: registry.lock_counter(session, s, year) for s in series_used}
        earlier = _unfinished(session, key)
        if earlier is not None:
            return _same_or_refuse(earlier, fingerprint, same)
        now = datetime.now(UTC)
        run = BatchRunRow(kind=kind, key=key, fingerprint=fingerprint, params=_json(params),
                          reference_date=on, year=year, status="planned", actor=actor,
                          created_at=now)
        session.add(run)
        session.flush()
        held, taken = hold_filings(session, {p: h.filing for p, h in enumerate(holders)
                                             if h.outputs and h.filing})
        holders = _once(registry, session, run.id, key, holders, taken)
        for position, holder in enumerate(holders):
            if not holder.outputs:
                session.add(BatchItemRow(
                    run_id=run.id, position=position, seq=0, holder=_fit(holder.holder),
                    name=_fit(holder.name), outcome=holder.outcome, role=REFUSED,
                    reason=holder.reason, status=DONE, done_at=now,
                ))
                continue
            numbers: list[int | None] = []
            for out in holder.outputs:
                if out.series is None:
                    numbers.append(None)
                    continue
                counter = counters[out.series]
                counter.last_number += 1
                numbers.append(counter.last_number)
            printed = tuple(
                None if n is None or out.series is None else printed_number(out.series, n, year)
                for out, n in zip(holder.outputs, numbers, strict=True)
            )
            final = link(holder, printed) if link is not None else holder
            for seq, (out, number) in enumerate(zip(final.outputs, numbers, strict=True)):
                session.add(BatchItemRow(
                    run_id=run.id, position=position, seq=seq, holder=_fit(final.holder),
                    name=_fit(final.name), outcome=final.outcome, role=out.role, form=out.form,
                    series=out.series, year=year if number is not None else None,
                    number=number, data=_json(out.data), file=out.file, status=PENDING,
                    filing_id=held.get(position),
                ))
        session.flush()
        return _run_of(run)


def _once(registry: Registry, session: Session, run_id: int, key: str,
          holders: Sequence[PlannedHolder], taken: Mapping[int, str]) -> Sequence[PlannedHolder]:
    """The holders, those whose filing is ``taken`` (filing_holds) and those an earlier
    run of ``key`` already planned refused, naming it (:mod:`lavra.registry.once`);
    RenewalsDone when nothing is left to plan."""
    wanted = [Wanted(position, h.holder, act_of(h.outcome, h.claim))
              for position, h in enumerate(holders) if h.outputs and position not in taken]
    lost = claim_renewals(session, registry.dialect, run_id, key, wanted)
    if lost and len(lost) == len(wanted):
        raise RenewalsDone(key, list(lost.values()))
    why = {**taken, **{position: earlier.reason for position, earlier in lost.items()}}
    return [replace(h, outcome=REFUSED, outputs=(), reason=why[position])
            if position in why else h for position, h in enumerate(holders)]


def run_items(registry: Registry, run_id: int) -> tuple[ItemRecord, ...]:
    """Every item of the run, in input order."""
    with registry.database_errors(), registry.read_session() as session:
        rows = session.scalars(
            select(BatchItemRow)
            .where(BatchItemRow.run_id == run_id)
            .order_by(BatchItemRow.position, BatchItemRow.seq)
        ).all()
        return tuple(item_of(row) for row in rows)


def run_counts(registry: Registry, run_id: int) -> tuple[int, int]:
    """(items done, items in all) of the run: what a progress bar shows."""
    with registry.database_errors(), registry.read_session() as session:
        rows = session.execute(
            select(BatchItemRow.status, func.count())
            .where(BatchItemRow.run_id == run_id)
            .group_by(BatchItemRow.status)
        ).all()
    counts = {status: int(count) for status, count in rows}
    return counts.get(DONE, 0) + counts.get(ABANDONED, 0), sum(counts.values())


def list_runs(registry: Registry, limit: int = 200) -> tuple[RunRecord, ...]:
    """The last ``limit`` runs of the registry, the latest first."""
    with registry.database_errors(), registry.read_session() as session:
        rows = session.scalars(
            select(BatchRunRow).order_by(BatchRunRow.id.desc()).limit(limit)
        ).all()
        return tuple(_run_of(row) for row in rows)


def get_run(registry: Registry, run_id: int) -> RunRecord | None:
    """The run ``run_id``, if the registry holds it."""
    with registry.database_errors(), registry.read_session() as session:
        row = session.get(BatchRunRow, run_id)
        return None if row is None else _run_of(row)


def item_content(registry: Registry, item: ItemRecord) -> bytes:
    """The file of a done item: the signed PDF as recorded, or the companion file."""
    if item.document_id is not None:
        return registry.pdf(item.document_id)
    with registry.database_errors(), registry.read_session() as session:
        content = session.scalar(
            select(BatchItemRow.content).where(BatchItemRow.id == item.id)
        )
    if content is None:
        raise LavraError(f"O arquivo {item.file} da execução em lote ainda não foi gerado.")
    return content


Build = Callable[[ItemRecord], "Built | bytes"]
"""Renders (and signs) one item: the Built of a document, the bytes of an attachment."""


def _record(registry: Registry, session: Session, item: ItemRecord, result: Built | bytes,
            worker: str, notices: frozenset[str] = frozenset()) -> ItemRecord:
    """Record the item's document (or file) and mark the item done: one UPDATE of its
    row, written by a core statement (the claim read the item; it is not loaded again)."""
    now = datetime.now(UTC)
    done: dict[str, Any] = {"status": DONE, "reason": None, "done_at": now}
    if item.role == DOCUMENT:
        if not isinstance(result, Built) or item.series is None or item.number is None \
                or item.year is None or item.form is None:
            raise LavraError(f"Documento do lote sem número reservado: {item.file}.")
        printed = printed_number(item.series, item.number, item.year)
        document = registry.record_reserved(
            session, item.series, item.year, item.number, item.form, result,
            detail=f"Emitido sob o nº {format_number(item.number, item.year)}, série "
            f"{item.series}, na execução em lote nº {item.run_id} ({printed}; {worker}).",
        )
        done["document_id"] = document.id
        # the filing whose processo the act joined is settled with it (filing_status; a
        # processo it opened just now holds none), the holder's acts read if asked
        if not joined_only_opened(session, document.id):
            settle_joined(session, document.id, now, notice=item.form in notices,
                          computed=result.computed, by=f"Execução em lote nº {item.run_id}",
                          siblings=lambda: {document.id, *session.scalars(_SIBLINGS, {
                              "run": item.run_id, "position": item.position})})
    else:
        if not isinstance(result, bytes) or not result:
            raise LavraError(f"Arquivo do lote não gerado: {item.file}.")
        done["content"] = result
    session.flush()  # what the act's effects left (nothing, as a rule); then core alone
    session.connection().execute(_DONE[item.role == DOCUMENT], {
        "item": item.id, **{f"new_{name}": value for name, value in done.items()}})
    return replace(item, status=DONE, reason=None,
                   document_id=done.get("document_id", item.document_id))


# Built once (building a statement costs twice running it), run as core: the record's own.
_SIBLINGS = select(BatchItemRow.document_id).where(
    BatchItemRow.run_id == bindparam("run"), BatchItemRow.position == bindparam("position"),
    BatchItemRow.document_id.is_not(None))
_DONE = {document: update(BatchItemRow).where(BatchItemRow.id == bindparam("item")).values(
    {name: bindparam(f"new_{name}") for name in ("status", "reason", "done_at", column)}
).execution_options(synchronize_session=False)
    for document, column in ((True, "document_id"), (False, "content"))}
_STATUS = select(BatchItemRow.status).where(BatchItemRow.id == bindparam("item"))


def _recorded(registry: Registry, session: Session, item: ItemRecord,
              result: Built | bytes, worker: str, notices: frozenset[str]) -> ItemRecord:
    """:func:`_record`, with a refusal at recording (a guard of the licensing state that
    an act decided after the plan now fails) reported as the item's failure."""
    try:
        return _record(registry, session, item, result, worker, notices)
    except FilingAnswered as error:  # another act answers the filing: rolled back
        raise ItemAnswered(item, error.message) from error
    except LavraError as error:  # the transaction rolls back: nothing of the item is kept
        raise ItemFailed(item, error.message, error.field) from error


def _waiting(among: Sequence[int] | None = None) -> Any:
    """The condition "a document item with an earlier document of its holder still
    pending" (of the items ``among``, when given)."""
    earlier = aliased(BatchItemRow)
    stmt = select(earlier.id).where(
        earlier.run_id == BatchItemRow.run_id,
        earlier.position == BatchItemRow.position,
        earlier.seq < BatchItemRow.seq,
        earlier.role == DOCUMENT,
        earlier.status == PENDING,
    )
    if among is not None:
        stmt = stmt.where(earlier.id.in_(list(among)))
    return (BatchItemRow.role == DOCUMENT) & stmt.correlate(BatchItemRow).exists()


_IS_PENDING = BatchItemRow.status == literal(PENDING, literal_execute=True)
_ITEM = [column for column in BatchItemRow.__table__.columns if column.key != "content"]


@lru_cache(maxsize=64)  # one per run, share and failures: building it cost ≈ 2 ms a claim
def _claim(run_id: int, skip: tuple[int, ...], share: tuple[int, int], lock: bool) -> Any:
    """The first claimable item of the run (pending and, for a document, no earlier
    document of the same holder still pending: module docstring), of the worker's
    ``share`` on SQLite, read alone through the partial index ``ix_batch_items_pending``
    (the items done and the other items' data are not read); ``lock``: PostgreSQL's
    row lock, skipping the rows other workers hold."""
    stmt = select(*_ITEM).where(  # its columns, not an entity (item_of reads either)
        BatchItemRow.run_id == run_id,
        _IS_PENDING,  # a literal: the partial index's own condition
        ~_waiting(),
    )
    if skip:
        stmt = stmt.where(BatchItemRow.id.not_in(list(skip)))
    index, count = share
    if count > 1:
        stmt = stmt.where(BatchItemRow.position % count == index)
    stmt = stmt.order_by(BatchItemRow.position, BatchItemRow.seq).limit(1)
    return stmt.with_for_update(skip_locked=True) if lock else stmt


def _first_of_share(registry: Registry, run_id: int, skip: Sequence[int],
                    share: tuple[int, int]) -> ItemRecord | None:
    """The first claimable item of this worker's share (:func:`_claim`), or None."""
    with registry.database_errors(), registry.read_session() as session:
        row = session.connection().execute(_claim(run_id, tuple(skip), share, False)).first()
        return None if row is None else item_of(row)


def claim_and_record(
    registry: Registry,
    run_id: int,
    build: Build,
    *,
    worker: str,
    skip: Sequence[int] = (),
    share: tuple[int, int] = (0, 1),
    notices: frozenset[str] = frozenset(),
) -> ItemRecord | None:
    """Take one pending item of the run (not in ``skip``), build it, record it; None when
    nothing is left. What ``build`` raises rolls the item back (still pending, its
    number still reserved) and is re-raised, with the item's id in ``error.item``.
    ``notices``: the forms whose acts are notices (a filing they reach is pending, not
    decided: :func:`lavra.registry.filing_status.settle_joined`).

    ``share`` = (k, n): on SQLite, this worker builds the pending items whose position
    is k modulo n (the workers of one process split the run without locks); ignored on
    PostgreSQL, where the row lock decides.
    """
    if registry.dialect == "postgresql":
        claimed: list[ItemRecord] = []
        with _refused_as_failure(claimed), registry.database_errors(), \
                registry.write_session() as session:
            row = session.connection().execute(_claim(run_id, tuple(skip), (0, 1), True)).first()
            if row is None:
                return None
            item = item_of(row)
            claimed.append(item)
            result = _built(build, item)
            return _recorded(registry, session, item, result, worker, notices)
    mine = _first_of_share(registry, run_id, skip, share)
    if mine is None:
        return None
    result = _built(build, mine)
    with _refused_as_failure([mine]), registry.database_errors(), \
            registry.write_session() as session:
        status = session.connection().execute(_STATUS, {"item": mine.id}).scalar()
        if status != PENDING:
            # Recorded meanwhile by another process, or abandoned by staff.
            return replace(mine, status=DONE if status is None else status)
        return _recorded(registry, session, mine, result, worker, notices)


@contextmanager
def _refused_as_failure(claimed: Sequence[ItemRecord]) -> Iterator[None]:
    """A value or row the database refuses while recording an item fails that item only
    (rolled back, pending, its number kept), with the pt-BR reason; the run goes on."""
    try:
        yield
    except (ValueRefused, Conflict) as error:
        if not claimed:
            raise
        raise ItemFailed(claimed[0], error.message) from None


def outstanding(
    registry: Registry,
    run_id: int,
    skip: Sequence[int] = (),
    share: tuple[int, int] = (0, 1),
) -> int:
    """Pending items a worker may still get once others let them go: pending, not in
    ``skip`` (the items it failed), and not waiting on one of those. On PostgreSQL they
    may be held by another worker (its row lock) or wait for an item another worker
    holds; on SQLite only the worker's own ``share`` counts (see
    :func:`claim_and_record`). A worker stops when none is left."""
    stmt = select(BatchItemRow.position).where(
        BatchItemRow.run_id == run_id, BatchItemRow.status == PENDING
    )
    if skip:
        stmt = stmt.where(BatchItemRow.id.not_in(list(skip)), ~_waiting(skip))
    with registry.database_errors(), registry.read_session() as session:
        positions = session.scalars(stmt).all()
    if registry.dialect == "postgresql":
        return len(positions)
    index, count = share
    return sum(1 for position in positions if position % count == index)


class ItemFailed(LavraError):
    """Building one item failed: the item stays pending, with the reason recorded."""

    def __init__(self, item: ItemRecord, message: str, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.item = item


class ItemAnswered(ItemFailed):
    """The item's act answers a filing another act answers (:class:`FilingAnswered`):
    nothing of it was recorded; the worker voids its holder's numbers
    (:func:`lavra.batch.work.work_items`)."""


def _built(build: Build, item: ItemRecord) -> Built | bytes:
    try:
        return build(item)
    except LavraError as error:
        raise ItemFailed(item, error.message, error.field) from error
    except Exception as error:
        raise ItemFailed(item, f"{type(error).__name__}: {error}") from error


def finish_run(registry: Registry, run_id: int) -> RunRecord:
    """Mark the run done when no item is pending (else it stays planned)."""
    with registry.database_errors(), registry.write_session() as session:
        run = session.get(BatchRunRow, run_id)
        if run is None:
            raise InputError(f"Execução em lote nº {run_id} não encontrada.", field="/execucao")
        pending = session.scalar(select(func.count()).select_from(BatchItemRow).where(
            BatchItemRow.run_id == run_id, BatchItemRow.status == PENDING))
        if not pending and run.status != DONE:
            run.status, run.finished_at = DONE, datetime.now(UTC)
        session.flush()
        return _run_of(run)
