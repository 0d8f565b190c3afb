"""Abandoning a batch run, or one holder's items of it, by staff, with a reason.

    abandon(registry, run_id, reason="...", by="Fulana")                # the whole run
    abandon(registry, run_id, position=1, reason="...", by="Fulana")    # holder nº 2

A run whose item can never be built (its data refused by the act at the date of the
run, its licence cancelled after the plan) would otherwise hold its reserved numbers
for good and block the next run of the same key. Staff end it: every pending item of
the run (or of the one holder, at ``position``, counted from 0; the summary's
``ordem`` is ``position + 1``) becomes ``abandoned`` with the reason, who decided and
when, and each number it held is voided by the numbering-void act
(:mod:`lavra.registry.voiding`) in the same transaction. The items already done stay as
issued. When no item is left pending, the run is finished, and the same key may be
planned again with new inputs; a holder for whom the run issued nothing loses the run's
claim on the renewal, so a later run may renew them (:mod:`lavra.registry.once`).

Concurrency: the items are taken with a row lock (PostgreSQL: a worker recording one
of them is waited for, and its item, then done, is left alone); on SQLite the writer
lock serializes, and a worker records an item only if it is still pending. The series
counters are locked in a fixed order, as the plan does.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.registry.records import LOCAL_TZ, check_text
from lavra.registry.runs import ABANDONED, DONE, PENDING, ItemRecord, item_of
from lavra.registry.store import Registry
from lavra.registry.tables import BatchItemRow, BatchRenewalRow, BatchRunRow
from lavra.registry.voiding import void_in

__all__ = ["abandon"]


def abandon(registry: Registry, run_id: int, *, reason: str, by: str,
            position: int | None = None) -> tuple[ItemRecord, ...]:
    """Abandon the pending items of the run (of one holder with ``position``) and void
    their numbers; the items abandoned. InputError (pt-BR) when there is nothing to
    abandon: the run or the item unknown, already done or already abandoned."""
    why = check_text(reason, "o motivo do abandono", "/motivo", 2000)
    who = check_text(by, "quem decide o abandono", "/responsavel", 200)
    what = f"O item {position + 1} da execução em lote nº {run_id}" if position is not None \
        else f"A execução em lote nº {run_id}"
    with registry.database_errors(), registry.write_session() as session:
        run = session.scalars(
            select(BatchRunRow).where(BatchRunRow.id == run_id).with_for_update()
        ).one_or_none()
        if run is None:
            raise InputError(f"Execução em lote nº {run_id} não encontrada.", field="/execucao")
        stmt = select(BatchItemRow).where(BatchItemRow.run_id == run_id)
        if position is not None:
            stmt = stmt.where(BatchItemRow.position == position)
        rows = session.scalars(
            stmt.order_by(BatchItemRow.position, BatchItemRow.seq).with_for_update()
        ).all()
        if not rows:
            raise InputError(f"{what} não existe.", field="/item")
        pending = [row for row in rows if row.status == PENDING]
        if not pending:
            raise InputError(f"{what} não tem nada pendente: {_nothing_left(rows)}",
                             field="/item" if position is not None else "/execucao")
        now = datetime.now(UTC)
        day = now.astimezone(LOCAL_TZ).strftime("%d/%m/%Y")
        for series in sorted({r.series for r in pending if r.series and r.number}):
            registry.lock_counter(session, series, run.year)
        for row in pending:
            note = f"Abandonado em {day} por {who}: {why}"
            if row.series is not None and row.number is not None and row.year is not None:
                voided = void_in(
                    session, row.series, row.year, row.number, by=who, run_id=run_id, now=now,
                    reason=f"{why} (execução em lote nº {run_id}, item {row.position + 1}, "
                    f"{row.name}; documento abandonado antes de emitido)",
                )
                note += (f". O número {voided.printed}, reservado para este documento, foi "
                         "inutilizado; nenhum documento foi emitido com ele.")
            else:
                note += ". Nada foi emitido para este item."
            row.status, row.reason, row.done_at = ABANDONED, note[:4000], now
        session.flush()
        _release(session, run_id, {row.position for row in pending})
        left = session.scalar(select(BatchItemRow.id).where(
            BatchItemRow.run_id == run_id, BatchItemRow.status == PENDING).limit(1))
        if left is None and run.status != DONE:
            run.status, run.finished_at = DONE, now
        session.flush()
        return tuple(item_of(row) for row in pending)


def _release(session: Session, run_id: int, positions: set[int]) -> None:
    """Free the renewal claims (:mod:`lavra.registry.once`) of the holders at
    ``positions`` for whom the run issued nothing: abandoned, their renewal was not
    done, and a later run of the same key may plan it again."""
    issued = set(session.scalars(select(BatchItemRow.position).where(
        BatchItemRow.run_id == run_id, BatchItemRow.position.in_(positions),
        BatchItemRow.status == DONE, BatchItemRow.role != "recusado")).all())
    free = positions - issued
    if free:
        session.execute(delete(BatchRenewalRow).where(
            BatchRenewalRow.run_id == run_id, BatchRenewalRow.position.in_(free)))


def _nothing_left(rows: Sequence[BatchItemRow]) -> str:
    """Why nothing of ``rows`` may be abandoned (pt-BR)."""
    abandoned = [r for r in rows if r.status == ABANDONED]
    if abandoned and all(r.status == ABANDONED or r.role == "recusado" for r in rows):
        return f"já foi abandonado. {abandoned[0].reason}"
    if abandoned:
        return (f"{len(abandoned)} item(ns) já abandonado(s) e os demais já concluídos; "
                "um documento emitido se desfaz pelo cancelamento.")
    return "já foi concluído; um documento emitido se desfaz pelo cancelamento."
