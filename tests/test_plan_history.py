"""A plan's checks of one holder ask the registry each lookup once (issue 24: the plan).

:class:`lavra.batch.plan_history.PlanHistory` inside ``holder()`` (one holder's
requerimento, act and selo checks) reads an earlier act, a licence's standing, the
licences a holder or a vehicle holds once and gives the same answer again; a list is
handed out as a copy; outside ``holder()``, and in the next holder's, the registry is
read again. Over a fresh SQLite registry; statements counted as the driver receives
them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from lavra.batch.plan_history import PlanHistory
from lavra.registry.store import Registry, open_registry

ALVARA = "alvara-fretamento"
CNPJ = "65.563.842/0001-05"
DAY = date(2026, 1, 10)


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Registry]:
    folder: Path = tmp_path_factory.mktemp("plano")
    found = open_registry(f"sqlite:///{folder / 'registro.sqlite'}")
    try:
        yield found
    finally:
        found.close()


@pytest.fixture
def selects(registry: Registry) -> Iterator[Counter[str]]:
    seen: Counter[str] = Counter()

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen[statement.split(None, 1)[0].upper()] += 1

    event.listen(registry.engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(registry.engine, "before_cursor_execute", count)


def test_one_holders_checks_ask_each_lookup_once(registry: Registry,
                                                 selects: Counter[str]) -> None:
    history = PlanHistory(registry)
    with registry.read_scope(), history.holder():
        assert history.document(ALVARA, "ALV-FRET nº 0001/2021") is None
        asked = selects["SELECT"]
        assert asked >= 1
        assert history.document(ALVARA, "ALV-FRET nº 0001/2021") is None
        assert history.holder_licences(CNPJ, DAY) == history.holder_licences(CNPJ, DAY)
        held = history.by_holder(CNPJ, ALVARA)
        assert history.by_holder(CNPJ, ALVARA) == held == []
        assert history.by_holder(CNPJ, ALVARA) is not held  # a copy of its own each time
        once = selects["SELECT"]
        assert once > asked  # the holder's licences and acts: read the first time only
        assert history.document(ALVARA, "ALV-FRET nº 0002/2021") is None
        assert selects["SELECT"] > once  # another act: read


def test_nothing_is_kept_outside_a_holder_nor_into_the_next(
        registry: Registry, selects: Counter[str]) -> None:
    history = PlanHistory(registry)
    history.document(ALVARA, "ALV-FRET nº 0001/2021")
    outside = selects["SELECT"]
    history.document(ALVARA, "ALV-FRET nº 0001/2021")
    assert selects["SELECT"] == 2 * outside
    for _ in range(2):
        with registry.read_scope(), history.holder():
            history.document(ALVARA, "ALV-FRET nº 0001/2021")
    assert selects["SELECT"] == 4 * outside
