"""Numbering across processes when one of them is killed (SIGKILL) mid-transaction.

Several processes take numbers of the same series at once; one of them is killed with
``kill -9`` while it holds the numbering lock, inside ``build``. Afterwards the series is
gapless, no number repeats, and the number the killed process held went to another.
Run on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections import Counter
from typing import Any

from registrycases import builder
from sqlalchemy import create_engine, text

from lavra.registry.records import Built
from lavra.registry.store import open_registry

SERIES, YEAR, FORM = "AUTO", 2026, "auto-infracao-fretamento"
WORKERS, PER_WORKER = 3, 6


def _worker(url: str, worker: int, start: Any) -> None:
    registry = open_registry(url)
    start.wait(120)
    for index in range(PER_WORKER):
        data = {"processo": worker, "ordem": index}
        registry.issue(SERIES, YEAR, FORM, builder(data))
    registry.close()


def _victim(url: str, inside: Any) -> None:
    registry = open_registry(url)
    for index in range(2):
        registry.issue(SERIES, YEAR, FORM, builder({"processo": "vitima", "ordem": index}))

    def build(number: int, formatted: str) -> Built:
        inside.set()  # holds the counter lock now, mid-transaction; waits to be killed
        time.sleep(600)
        raise AssertionError("não foi morto")

    registry.issue(SERIES, YEAR, FORM, build)


def test_a_process_killed_holding_the_number_leaves_no_gap_and_no_repeat(registry_url: str) -> None:
    open_registry(registry_url).close()  # created and migrated before the race
    context = multiprocessing.get_context("spawn")
    start, inside = context.Event(), context.Event()
    victim = context.Process(target=_victim, args=(registry_url, inside))
    victim.start()
    assert inside.wait(120), "a vítima não chegou a tomar o número"
    workers = [
        context.Process(target=_worker, args=(registry_url, n, start)) for n in range(WORKERS)
    ]
    for process in workers:
        process.start()
    start.set()
    time.sleep(1.0)  # the others now wait for the lock the victim holds
    assert victim.pid is not None
    os.kill(victim.pid, signal.SIGKILL)
    victim.join(60)
    assert victim.exitcode == -signal.SIGKILL
    for process in workers:
        process.join(240)
    assert [process.exitcode for process in workers] == [0] * WORKERS

    total = 2 + WORKERS * PER_WORKER
    with open_registry(registry_url) as registry:
        assert registry.next_number(SERIES, YEAR) == total + 1
        records = [registry.get(SERIES, YEAR, n) for n in range(1, total + 1)]
        assert all(record is not None for record in records)  # gapless
        issued = [record for record in records if record is not None]
        owners = Counter((r.data["processo"], r.data["ordem"]) for r in issued)
        assert set(owners.values()) == {1}  # nobody issued twice
        assert {key for key in owners if key[0] == "vitima"} == {("vitima", 0), ("vitima", 1)}
        assert issued[2].data["processo"] != "vitima"  # its held number went to another
        for record in issued:
            assert record.computed["numero"] == record.formatted
    raw = create_engine(registry_url)
    with raw.connect() as connection:
        numbers = connection.execute(
            text("SELECT number FROM documents WHERE series = :s AND year = :y ORDER BY number"),
            {"s": SERIES, "y": YEAR},
        ).scalars().all()
    raw.dispose()
    assert numbers == list(range(1, total + 1))  # no number twice, none skipped
