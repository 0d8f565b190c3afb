"""A renewal is planned once (issue 24): the same (run key, holder, outcome) is planned by
one run only, whatever the inputs' fingerprint or two planners racing; the database's
unique constraint decides (lavra.registry.once). And the claim reads one item."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from lavra.errors import InputError
from lavra.registry.once import RenewalsDone
from lavra.registry.runs import (
    PlannedHolder,
    PlannedOutput,
    claim_and_record,
    finish_run,
    plan_run,
    run_items,
)
from lavra.registry.store import Registry, open_registry
from lavra.registry.tables import BatchRenewalRow, BatchRunRow, CounterRow

KEY, ON = "renovacao-teste:2027", date(2026, 12, 10)


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    opened = open_registry(registry_url)
    yield opened
    opened.close()


def _holder(n: int, outcome: str = "renovado") -> PlannedHolder:
    return PlannedHolder(f"{n:011d}", f"Titular {n}", outcome,
                         (PlannedOutput("ato-teste", {"n": n}, f"ato-{n}.pdf", "TST-ONCE"),))


def _plan(registry: Registry, holders: list[PlannedHolder], fingerprint: str) -> Any:
    return plan_run(registry, "renovacao-teste", KEY, fingerprint, {}, ON, 2026, holders)


def _done(registry: Registry, run_id: int) -> None:
    """Work the run to its end (a stand-in for the signed PDF: an attachment's bytes
    would not do for a document, so the items are marked done as a worker would)."""
    from lavra.registry.tables import BatchItemRow

    with registry.write_session() as session:
        for row in session.scalars(select(BatchItemRow).where(BatchItemRow.run_id == run_id)):
            row.status = "done"
    finish_run(registry, run_id)


def _count(registry: Registry, table: Any) -> int:
    with registry.read_session() as session:
        return int(session.scalar(select(func.count()).select_from(table)) or 0)


def _last_number(registry: Registry) -> int:
    with registry.read_session() as session:
        return int(session.scalar(select(CounterRow.last_number).where(
            CounterRow.series == "TST-ONCE")) or 0)


def test_a_later_command_with_other_inputs_issues_nothing_already_planned(
    registry: Registry,
) -> None:
    first = _plan(registry, [_holder(1), _holder(2, "notificado")], "dia-10")
    _done(registry, first.id)
    # The same command two days later (another fingerprint): nothing is planned,
    # numbered or recorded, and the error names the earlier run and its numbers.
    with pytest.raises(RenewalsDone) as done:
        _plan(registry, [_holder(1), _holder(2, "notificado")], "dia-12")
    assert f"execução nº {first.id} (TST-ONCE nº 0001/2026)" in done.value.message
    assert "Nenhum documento foi emitido" in done.value.message
    assert _count(registry, BatchRunRow) == 1 and _last_number(registry) == 2
    # Requests that arrived since: the notified holder is now renewed, the new holder
    # planned; the renewed one is refused, naming the run and the number it took.
    later = _plan(registry, [_holder(1), _holder(2), _holder(3)], "dia-20")
    items = run_items(registry, later.id)
    assert [(i.holder[-1], i.role, i.printed) for i in items] == [
        ("1", "recusado", None),
        ("2", "documento", "TST-ONCE nº 0003/2026"),
        ("3", "documento", "TST-ONCE nº 0004/2026"),
    ]
    assert items[0].reason is not None
    assert f"execução em lote nº {first.id} (TST-ONCE nº 0001/2026)" in items[0].reason


def test_the_unique_index_refuses_a_renewal_inserted_behind_the_plan(
    registry: Registry,
) -> None:
    run = _plan(registry, [_holder(1)], "a")
    with pytest.raises(IntegrityError), registry.write_session() as session:
        session.add(BatchRenewalRow(key=KEY, holder=f"{1:011d}", outcome="renovado",
                                    run_id=run.id, position=5))
        session.flush()


def test_two_planners_racing_plan_the_renewal_once(registry: Registry,
                                                   registry_url: str) -> None:
    """Two processes that decided the same renewals with other inputs plan at the same
    moment: one plan wins, the other plans nothing (refused, as unfinished or as done)."""
    others = [open_registry(registry_url) for _ in range(2)]
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def planner(n: int) -> None:
        barrier.wait()
        try:
            outcomes.append(_plan(others[n], [_holder(1), _holder(2)], f"entrada-{n}"))
        except InputError as error:
            outcomes.append(error)

    threads = [threading.Thread(target=planner, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for other in others:
        other.close()
    planned = [o for o in outcomes if not isinstance(o, InputError)]
    assert len(outcomes) == 2 and len(planned) == 1, outcomes
    assert _count(registry, BatchRunRow) == 1
    assert _count(registry, BatchRenewalRow) == 2 and _last_number(registry) == 2


def test_a_planner_that_decided_before_the_first_run_ended_plans_nothing(
    registry: Registry,
) -> None:
    """The stall of issue 24: the second process decided while the first run was being
    planned and worked, and plans only after it finished (no unfinished run to find)."""
    decided = [_holder(1), _holder(2)]
    first = _plan(registry, decided, "processo-1")
    _done(registry, first.id)
    with pytest.raises(RenewalsDone):
        _plan(registry, decided, "processo-2")
    assert _last_number(registry) == 2


def test_the_claim_reads_one_pending_item_in_plan_order(registry: Registry) -> None:
    run = _plan(registry, [PlannedHolder(f"{n}", f"T{n}", "renovado", (
        PlannedOutput("anexo-teste", {"n": n}, f"anexo-{n}.txt"),)) for n in range(6)], "c")
    order = []
    while (item := claim_and_record(registry, run.id, lambda i: b"x", worker="w",
                                    share=(1, 2))) is not None:
        order.append(item.position)
    # SQLite: this worker's share (positions 1 modulo 2); PostgreSQL: the row lock decides
    assert order == ([1, 3, 5] if registry.dialect == "sqlite" else list(range(6)))
