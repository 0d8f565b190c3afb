"""Several web workers over one registry behave as one: two ``create_app`` over the same
database (as two ``lavra serve`` behind a proxy) share the login throttle and the
batch runs started from the web; the counters add up under concurrent failures on
PostgreSQL as on SQLite."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from batchcases import RUN_DAY, YEAR
from fastapi.testclient import TestClient
from webhelpers import login, make_context

from lavra.registry.store import open_registry
from lavra.registry.webshared import STALE_AFTER, SharedAttempts, SharedEvents, SharedJobs
from lavra.web import WebContext, create_app
from lavra.web.throttle import LoginThrottle, Window, WindowThrottle

with contextlib.suppress(ImportError):
    from test_registry import postgres_url  # noqa: F401

KIND = "renovacao-transporte-escolar"
NOW = 1_000_000.0


def _twin(context: WebContext) -> WebContext:
    """A second worker: its own context (issuer, registry connection) over the same
    data and database."""
    return WebContext(context.config, context.settings)


def _fixed_clock(context: WebContext) -> None:
    context.throttle = LoginThrottle(
        clock=lambda: NOW, store=lambda: SharedAttempts(context.registry.engine, "entrar"))


@pytest.fixture(scope="module")
def workers(tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[tuple[WebContext, TestClient, TestClient]]:
    first = make_context(tmp_path_factory.mktemp("dois") / "dados")
    second = _twin(first)
    for context in (first, second):
        _fixed_clock(context)
    with TestClient(create_app(first)) as one, TestClient(create_app(second)) as other:
        yield first, one, other


def _bearer(context: WebContext) -> dict[str, str]:
    user = next(u for u in context.users.all() if u.name == "sergio")
    _, secret = context.users.create_token(user.id, "teste de dois processos")
    return {"Authorization": f"Bearer {secret}"}


def test_a_login_failure_counted_by_one_worker_blocks_on_the_other(
    workers: tuple[WebContext, TestClient, TestClient]
) -> None:
    _, one, other = workers
    assert login(one, "clara", "senha-errada-000").status_code == 401
    assert login(other, "clara", "senha-errada-000").status_code == 401
    assert login(one, "clara", "senha-errada-000").status_code == 401
    blocked = login(other, "clara")  # the third failure was counted on the other worker
    assert blocked.status_code == 429 and "Aguarde 1 segundo(s)" in blocked.text
    assert login(one, "sergio").status_code == 303


def test_a_run_started_on_one_worker_is_seen_and_blocks_on_the_other(
    workers: tuple[WebContext, TestClient, TestClient]
) -> None:
    context, one, other = workers
    headers = _bearer(context)
    fields = {"execucao": KIND, "ano": str(YEAR), "data": RUN_DAY, "simular": "1"}
    started = one.post("/api/batch", data=fields, headers=headers)
    assert started.status_code == 202, started.text[:500]
    status_url = started.json()["status_url"]
    deadline = time.monotonic() + 120
    job = other.get(status_url, headers=headers).json()
    while job["state"] == "planejando" and time.monotonic() < deadline:
        time.sleep(0.2)
        job = other.get(status_url, headers=headers).json()
    assert job["state"] == "concluída" and job["simulated"] and job["run"] is None
    assert job["counts"] is not None
    # A run live on one worker (it beats) refuses a second start of the kind on the
    # other; once its worker stops beating, the kind is free again.
    shared = SharedJobs(context.registry.engine)
    assert shared.add(token="0123456789abcdef", kind=KIND, title="Renovação", key="k",
                      simulate=False, actor="Outro (outro)", state="emitindo", run_id=None)
    busy = other.post("/api/batch", data=fields, headers=headers)
    assert busy.status_code == 409 and "Já há uma execução" in busy.json()["detail"]
    later = datetime.now(UTC) + STALE_AFTER
    assert shared.live_of_kind(KIND, now=later) is None
    assert shared.add(token="fedcba9876543210", kind=KIND, title="Renovação", key="k",
                      simulate=True, actor="Outro (outro)", state="planejando",
                      run_id=None, now=later)


def _hammer(url: str) -> None:
    """Eight threads, each with its own connection pool, fail 5 times each at once."""
    registries = [open_registry(url) for _ in range(2)]
    try:
        stores = [SharedAttempts(r.engine, "entrar") for r in registries]
        start = threading.Barrier(8)

        def fail(index: int) -> None:
            start.wait()
            for _ in range(5):
                stores[index % 2].add(["conta:ana"], NOW, forget_before=NOW - 1800)

        threads = [threading.Thread(target=fail, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert stores[1].get(["conta:ana"]) == {"conta:ana": (40, NOW)}
        throttle = LoginThrottle(clock=lambda: NOW, store=lambda: stores[0])
        assert throttle.wait_seconds("ana", "10.0.0.9") == 900  # capped
        throttle.succeeded("ana")
        assert stores[1].get(["conta:ana"]) == {}
        stores[0].add(["conta:velha"], NOW - 5000, forget_before=0)
        stores[0].add(["conta:nova"], NOW, forget_before=NOW - 1800)
        assert stores[1].get(["conta:velha", "conta:nova"]) == {"conta:nova": (1, NOW)}
    finally:
        for registry in registries:
            registry.close()


def test_concurrent_failures_all_count_on_sqlite(tmp_path: Path) -> None:
    from lavra.registry.database import database_url

    _hammer(database_url(tmp_path))


def test_concurrent_failures_all_count_on_postgresql(postgres_url: str) -> None:
    _hammer(postgres_url)


def test_filings_counted_on_one_worker_block_on_the_other(
    workers: tuple[WebContext, TestClient, TestClient]
) -> None:
    """The filing limit (5 per CPF/CNPJ in an hour) counts in the registry: five filings
    recorded by one worker, masked or not, refuse the sixth on the other."""
    from test_filing import CNPJ, _count, _file

    context, _, other = workers
    for _ in range(5):
        assert context.filing_throttle.take("65563842000105", "10.1.1.1").wait == 0
    before = _count(context)
    refused = _file(other, [], documento=CNPJ)
    assert refused.status_code == 422 and "Muitos protocolos seguidos" in refused.text
    assert _count(context) == before


def _windows(url: str) -> None:
    """Two workers' windows over one database: one count, forgetting what left it; a
    refused place records nothing, and a place given back frees it."""
    registries = [open_registry(url) for _ in range(2)]
    try:
        now = [NOW]
        throttles = [WindowThrottle(lambda r=r: SharedEvents(r.engine, "protocolar"),
                                    Window(limit=2, seconds=60), Window(limit=5, seconds=60),
                                    clock=lambda: now[0]) for r in registries]
        for index in range(2):
            assert throttles[index].take("01753935911", "10.0.0.1").wait == 0
            now[0] += 10
        assert throttles[0].take("01753935911", "10.0.0.1").wait == 40  # leaves at 60
        assert throttles[1].take("01753935911", "10.0.0.1").wait == 40
        events = SharedEvents(registries[0].engine, "protocolar")
        assert events.since("doc:01753935911", 0) == [NOW, NOW + 10]  # refusals not kept
        given_back = throttles[1].take("65563842000105", "10.0.0.2")
        assert given_back.wait == 0 and len(given_back.ids) == 2
        throttles[0].release(given_back)  # the filing was refused: its place is free
        assert events.since("doc:65563842000105", 0) == []
        assert events.since("ip:10.0.0.2", 0) == []
        login = SharedAttempts(registries[0].engine, "entrar")
        login.add(["conta:ana"], NOW, forget_before=0)
        now[0] += 40
        assert throttles[0].take("01753935911", "10.0.0.1").wait == 0
        now[0] += 20
        assert throttles[1].take("65563842000105", "10.0.0.2").wait == 0  # forgets the past
        assert events.since("doc:01753935911", 0) == [NOW + 60]
        assert events.since("doc:65563842000105", 0) == [now[0]]
        assert login.get(["conta:ana"]) == {"conta:ana": (1, NOW)}  # another scope's
    finally:
        for registry in registries:
            registry.close()


def _race(url: str) -> None:
    """Eight workers (threads, each over its own connection pool) ask at the same
    instant for a place in a window of 3: exactly 3 pass, 5 wait, 3 events kept."""
    registries = [open_registry(url) for _ in range(4)]
    try:
        throttles = [WindowThrottle(lambda r=r: SharedEvents(r.engine, "corrida"),
                                    Window(limit=3, seconds=60), Window(limit=100, seconds=60),
                                    clock=lambda: NOW) for r in registries]
        start = threading.Barrier(8)
        waits: list[int] = []

        def file(index: int) -> None:
            start.wait()
            waits.append(throttles[index % 4].take("01753935911", f"10.0.{index}.1").wait)

        threads = [threading.Thread(target=file, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(waits) == [0, 0, 0, 60, 60, 60, 60, 60]
        events = SharedEvents(registries[0].engine, "corrida")
        assert events.since("doc:01753935911", 0) == [NOW, NOW, NOW]
    finally:
        for registry in registries:
            registry.close()


def test_filing_window_race_on_sqlite(tmp_path: Path) -> None:
    from lavra.registry.database import database_url

    _race(database_url(tmp_path))


def test_filing_window_race_on_postgresql(postgres_url: str) -> None:
    _race(postgres_url)


def test_filing_windows_shared_on_sqlite(tmp_path: Path) -> None:
    from lavra.registry.database import database_url

    _windows(database_url(tmp_path))


def test_filing_windows_shared_on_postgresql(postgres_url: str) -> None:
    _windows(postgres_url)


def test_a_worker_without_the_shared_folder_says_so(
    workers: tuple[WebContext, TestClient, TestClient], tmp_path: Path
) -> None:
    """``pasta_lotes`` must be one folder for every worker: a run recorded as started from
    the web whose folder this worker cannot see is reported, not listed empty."""
    from dataclasses import replace

    from lavra.web.batchjobs import BatchJobs

    context, _, _ = workers
    mine = BatchJobs(context.config, registry=context.registry)
    elsewhere = BatchJobs(replace(context.config, batch_dir=tmp_path / "outra"),
                          registry=context.registry)
    assert mine.shared.add(token="00000000000000aa", kind="outro-tipo", title="Outro",
                           key="k2", simulate=False, actor="Ana (ana)", state="emitindo",
                           run_id=987)
    folder = mine.root / "00000000000000aa"
    (folder / "saida").mkdir(parents=True)
    (folder / "execucao.json").write_text('{"execucao_n": 987}', encoding="utf-8")
    assert not mine.folder_elsewhere(987) and elsewhere.folder_elsewhere(987)
    assert not elsewhere.folder_elsewhere(988)  # not a web run: nothing to see
