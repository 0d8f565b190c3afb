"""The registry of issued documents, on real SQLite files (and PostgreSQL when present)."""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, date, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from dateutil.relativedelta import relativedelta
from registrycases import builder, title_of
from sqlalchemy import MetaData, create_engine, inspect

from lavra.errors import ConfigError, InputError, LavraError, RenderError
from lavra.registry.database import alembic_config, database_url
from lavra.registry.name_index import include_object
from lavra.registry.records import Built, IssuedRecord, Status, search_keys
from lavra.registry.store import Registry, open_registry
from lavra.registry.tables import metadata

CNPJ_A = "11.222.333/0001-81"
CNPJ_B = "45.723.174/0001-10"
CPF = "529.982.247-25"
WORKERS, PER_WORKER = 4, 10


@pytest.fixture
def url(tmp_path: Path) -> str:
    return database_url(tmp_path / "dados")


@pytest.fixture
def registry(url: str) -> Iterator[Registry]:
    with open_registry(url) as opened:
        yield opened


# ------------------------------------------------------------------ child processes
def _issue_many(url: str, worker: int, start: Any, count: int) -> None:
    registry = open_registry(url)
    start.wait(60)
    for index in range(count):
        data = {"processo": worker, "ordem": index, "veiculo": {"placa": "ABC1D23"}}
        registry.issue("AUTO", 2026, "auto-infracao-fretamento", builder(data))
    registry.close()


def _crash_inside_build(url: str) -> None:
    registry = open_registry(url)
    registry.issue("ALV", 2026, "alvara-fretamento", builder({"antes": True}))

    def build(number: int, formatted: str) -> Built:
        os._exit(17)  # the process dies holding the writer lock, mid-transaction

    registry.issue("ALV", 2026, "alvara-fretamento", build)


def _run(target: Callable[..., None], *args: Any) -> int | None:
    process = multiprocessing.get_context("spawn").Process(target=target, args=args)
    process.start()
    process.join(180)
    assert not process.is_alive()
    return process.exitcode


# ------------------------------------------------------------------ (1) concurrency
def test_processes_issuing_at_once_get_consecutive_numbers_without_gap(url: str) -> None:
    open_registry(url).close()  # created and migrated before the race
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    processes = [
        context.Process(target=_issue_many, args=(url, worker, start, PER_WORKER))
        for worker in range(WORKERS)
    ]
    for process in processes:
        process.start()
    start.set()
    for process in processes:
        process.join(180)
    assert [process.exitcode for process in processes] == [0] * WORKERS

    with open_registry(url) as registry:
        records = [registry.get("AUTO", 2026, n) for n in range(1, WORKERS * PER_WORKER + 1)]
        assert all(record is not None for record in records)
        issued = [record for record in records if record is not None]
        assert registry.get("AUTO", 2026, WORKERS * PER_WORKER + 1) is None
        assert registry.next_number("AUTO", 2026) == WORKERS * PER_WORKER + 1
        per_worker = sorted(
            sum(1 for record in issued if record.data["processo"] == worker)
            for worker in range(WORKERS)
        )
        assert per_worker == [PER_WORKER] * WORKERS
        # Each process issued its own 10 documents in order, and each PDF carries its number.
        for worker in range(WORKERS):
            mine = [record for record in issued if record.data["processo"] == worker]
            assert [record.data["ordem"] for record in mine] == list(range(PER_WORKER))
        sample = issued[17]
        assert title_of(registry.pdf(sample.id)) == "Documento nº 0018/2026"
        assert sample.computed["numero"] == "0018/2026"
        assert len(registry.search("ABC1D23", limit=500)) == WORKERS * PER_WORKER


def test_processes_opening_a_new_file_at_once_migrate_it_once(url: str) -> None:
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    processes = [
        context.Process(target=_issue_many, args=(url, worker, start, 1)) for worker in range(3)
    ]
    for process in processes:
        process.start()
    start.set()
    for process in processes:
        process.join(180)
    assert [process.exitcode for process in processes] == [0, 0, 0]
    with open_registry(url) as registry:
        assert registry.next_number("AUTO", 2026) == 4


# ------------------------------------------------------------------ (2) failure in build
def test_exception_in_build_consumes_no_number_and_leaves_no_record(registry: Registry) -> None:
    registry.issue("ALV", 2026, "alvara-fretamento", builder({"n": 1}))
    seen: list[int] = []

    def failing(number: int, formatted: str) -> Built:
        seen.append(number)
        raise RuntimeError("falha do assinador")

    with pytest.raises(LavraError) as caught:
        registry.issue("ALV", 2026, "alvara-fretamento", failing, "pedido-9")
    assert seen == [2]  # the number had been taken when build failed
    assert "0002/2026" in caught.value.message
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert registry.next_number("ALV", 2026) == 2
    assert registry.get("ALV", 2026, 2) is None
    assert registry.search("pedido-9") == ()

    def render_error(number: int, formatted: str) -> Built:
        raise RenderError("Modelo do documento inválido.")

    with pytest.raises(RenderError, match="Modelo do documento inválido"):
        registry.issue("ALV", 2026, "alvara-fretamento", render_error)

    def not_built(number: int, formatted: str) -> Built:
        return "pdf"  # type: ignore[return-value]

    with pytest.raises(LavraError, match="não devolveu um documento pronto"):
        registry.issue("ALV", 2026, "alvara-fretamento", not_built)

    again = registry.issue("ALV", 2026, "alvara-fretamento", builder({"n": 2}), "pedido-9")
    assert again.number == 2
    assert again.formatted == "0002/2026"


def test_first_document_of_a_series_failing_leaves_no_counter(registry: Registry) -> None:
    def failing(number: int, formatted: str) -> Built:
        raise ValueError("dados inconsistentes")

    with pytest.raises(LavraError):
        registry.issue("EDITAL", 2027, "edital", failing)
    assert registry.next_number("EDITAL", 2027) == 1
    assert registry.issue("EDITAL", 2027, "edital", builder({})).formatted == "0001/2027"


# ------------------------------------------------------------------ (3) crash
def test_process_killed_inside_build_consumes_no_number(url: str) -> None:
    open_registry(url).close()
    assert _run(_crash_inside_build, url) == 17
    with open_registry(url) as registry:
        assert registry.get("ALV", 2026, 1) is not None
        assert registry.get("ALV", 2026, 2) is None
        assert registry.next_number("ALV", 2026) == 2
        record = registry.issue("ALV", 2026, "alvara-fretamento", builder({"depois": True}))
        assert record.number == 2
        assert title_of(registry.pdf(record.id)) == "Documento nº 0002/2026"


# ------------------------------------------------------------------ (4) idempotency
def test_same_idempotency_key_returns_the_same_document(registry: Registry) -> None:
    data = {"empresa": {"cnpj": CNPJ_A}, "veiculo": {"placa": "ABC1D23"}}
    first = registry.issue(
        "ALV", 2026, "alvara-fretamento", builder(data), "req-77", data=data, actor="maria"
    )
    calls: list[int] = []
    retry = registry.issue(
        "ALV", 2026, "alvara-fretamento", builder(data, calls=calls), "req-77", data=data
    )
    assert calls == []  # nothing rendered, no number taken
    assert retry == first
    assert registry.next_number("ALV", 2026) == 2
    assert registry.pdf(retry.id) == registry.pdf(first.id)
    assert [event.actor for event in registry.history(first.id)] == ["maria"]

    with pytest.raises(InputError) as other_form:
        registry.issue("ALV", 2026, "requerimento-alvara-fretamento", builder(data), "req-77")
    assert other_form.value.field == "/chave_idempotencia"
    # named as printed on the document, never by the form's id
    assert "documento ALV nº 0001/2026" in other_form.value.message
    assert "alvara-fretamento" not in other_form.value.message
    other = {**data, "veiculo": {"placa": "XYZ9876"}}
    with pytest.raises(InputError, match="req-77"):
        registry.issue("ALV", 2026, "alvara-fretamento", builder(other), "req-77", data=other)
    assert registry.next_number("ALV", 2026) == 2


# ------------------------------------------------------------------ (5) queries
def _issue(
    registry: Registry,
    series: str,
    form: str,
    data: dict[str, Any],
    reference: date,
    valid_until: date | None = None,
) -> IssuedRecord:
    build = builder(data, reference=reference, valid_until=valid_until)
    return registry.issue(series, reference.year, form, build)


def test_case_history_queries(registry: Registry) -> None:
    auto = "auto-infracao-fretamento"
    plate = {"veiculo": {"placa": "ABC1D23"}, "empresa": {"cnpj": CNPJ_A}}
    old = _issue(registry, "AUTO", auto, plate, date(2025, 12, 20))
    may = _issue(registry, "AUTO", auto, plate, date(2026, 5, 20))
    aug = _issue(registry, "AUTO", auto, plate, date(2026, 8, 1))
    _issue(registry, "AUTO", auto, {"veiculo": {"placa": "XYZ9876"}}, date(2026, 8, 2))
    _issue(registry, "ADV", "advertencia-fretamento", plate, date(2026, 7, 1))
    voided = _issue(registry, "AUTO", auto, plate, date(2026, 7, 10))
    registry.cancel("AUTO", 2026, voided.number, reason="Auto lavrado em duplicidade.", by="ana")

    since = date(2026, 8, 15) - relativedelta(months=6)
    found = registry.autos_for_vehicle("abc-1d23", "auto-", since)
    assert [record.id for record in found] == [aug.id, may.id]
    with_voided = registry.autos_for_vehicle("ABC1D23", "auto-", since, include_cancelled=True)
    assert [record.id for record in with_voided] == [aug.id, voided.id, may.id]
    assert old.id in {r.id for r in registry.autos_for_vehicle("ABC1D23", "auto", date(2025, 1, 1))}
    earlier = registry.autos_for_vehicle("ABC1D23", "auto-", since, before=date(2026, 8, 1))
    assert [record.id for record in earlier] == [may.id]

    alvara = "alvara-fretamento"
    holder_a = {"empresa": {"cnpj": CNPJ_A}, "veiculo": {"placa": "DEF4G56"}}
    holder_b = {"empresa": {"cnpj": CNPJ_B}, "veiculo": {"placa": "GHI7890"}}
    expired = _issue(registry, "ALV", alvara, holder_a, date(2024, 1, 10), date(2025, 1, 10))
    current = _issue(registry, "ALV", alvara, holder_a, date(2026, 3, 1), date(2028, 3, 1))
    other = _issue(registry, "ALV", alvara, holder_b, date(2026, 2, 1), date(2028, 2, 1))
    revoked = _issue(registry, "ALV", alvara, holder_b, date(2026, 2, 5), date(2028, 2, 5))
    future = _issue(registry, "ALV", alvara, holder_b, date(2026, 9, 1), date(2028, 9, 1))
    registry.cancel("ALV", 2026, revoked.number, reason="Veículo vendido.", by="ana")

    licences = registry.by_holder("11222333000181", "alvara-")
    assert [record.id for record in licences] == [current.id, expired.id]
    assert {record.form for record in registry.by_holder(CNPJ_A)} == {
        auto,
        "advertencia-fretamento",
        alvara,
    }
    active = registry.active_licences(alvara, date(2026, 6, 1))
    assert [record.id for record in active] == [current.id, other.id]
    assert {r.id for r in registry.active_licences(alvara, date(2024, 6, 1))} == {expired.id}
    assert {r.id for r in registry.active_licences(alvara, date(2026, 9, 1))} == {
        current.id,
        other.id,
        future.id,
    }

    # search: number, verification code, CPF/CNPJ digits, placa
    assert {(r.series, r.formatted) for r in registry.search("nº 1/2026")} == {
        ("AUTO", "0001/2026"),
        ("ADV", "0001/2026"),
        ("ALV", "0001/2026"),
    }
    assert [r.id for r in registry.search(other.verification_code)] == [other.id]
    assert {r.id for r in registry.search(CNPJ_B)} == {other.id, revoked.id, future.id}
    assert {r.id for r in registry.search("ghi-7890")} == {other.id, revoked.id, future.id}
    assert registry.search("nada consta") == ()

    assert registry.by_code(current.verification_code) == current
    assert registry.by_number(current.formatted, series="ALV") == current
    with pytest.raises(InputError, match="indique a série"):
        registry.by_number("0001/2026")  # AUTO and ALV both have 0001/2026
    assert registry.by_number("0001/2024") == expired
    assert registry.by_number("0099/2026") is None


def test_cancel_keeps_the_record_with_its_reason_and_never_reuses_the_number(
    registry: Registry,
) -> None:
    record = registry.issue("ALV", 2026, "alvara-fretamento", builder({"n": 1}))
    with pytest.raises(InputError) as no_reason:
        registry.cancel("ALV", 2026, 1, reason="   ", by="ana")
    assert no_reason.value.field == "/motivo"
    assert "motivo" in no_reason.value.message

    cancelled = registry.cancel("ALV", 2026, 1, reason="Emitido com dados errados.", by="ana")
    assert cancelled.status is Status.CANCELLED and cancelled.cancelled
    stored = registry.get("ALV", 2026, 1)
    assert stored is not None
    assert stored.cancel_reason == "Emitido com dados errados."
    assert stored.cancelled_by == "ana"
    assert stored.cancelled_at is not None and stored.cancelled_at >= stored.issued_at
    assert stored.sha256 == record.sha256
    assert title_of(registry.pdf(stored.id)) == "Documento nº 0001/2026"
    assert registry.docx(stored.id) == b"PK docx 0001/2026"

    history = registry.history(record.id)
    assert [(event.kind, event.actor) for event in history] == [
        ("issued", record.signer_subject),
        ("cancelled", "ana"),
    ]
    assert history[1].detail == "Emitido com dados errados."
    verified = registry.record_event(record.id, "verified", "página pública")
    assert registry.history(record.id)[-1] == verified

    with pytest.raises(InputError, match="já foi cancelado"):
        registry.cancel("ALV", 2026, 1, reason="de novo", by="ana")
    with pytest.raises(InputError, match="não consta do registro"):
        registry.cancel("ALV", 2026, 5, reason="inexistente", by="ana")
    assert registry.issue("ALV", 2026, "alvara-fretamento", builder({"n": 2})).number == 2


@pytest.mark.dates
def test_times_are_utc_and_shown_in_sao_paulo(registry: Registry) -> None:
    record = registry.issue("ALV", 2026, "alvara-fretamento", builder({}))
    assert record.issued_at.tzinfo is UTC
    local = record.issued_at_local
    assert local == record.issued_at
    assert local.utcoffset() == timedelta(hours=-3)  # no daylight saving since 2019
    reread = registry.get("ALV", 2026, 1)
    assert reread is not None and reread.issued_at == record.issued_at


def test_bad_input_and_configuration_raise_lavra_errors(registry: Registry, tmp_path: Path) -> None:
    with pytest.raises(InputError) as series:
        registry.issue("série ruim", 2026, "alvara", builder({}))
    assert series.value.field == "/serie"
    with pytest.raises(InputError):
        registry.issue("ALV", 26, "alvara", builder({}))
    with pytest.raises(InputError, match="Placa inválida"):
        registry.autos_for_vehicle("12345", "auto-", date(2026, 1, 1))
    with pytest.raises(InputError, match="CPF ou CNPJ inválido"):
        registry.by_holder("123")
    with pytest.raises(InputError, match="formato 0001/2026"):
        registry.by_number("primeiro")
    with pytest.raises(InputError, match="não consta do registro"):
        registry.history(999)
    with pytest.raises(ConfigError, match="não suportado"):
        open_registry("mysql://localhost/lavra")
    with pytest.raises(ConfigError, match="inválido"):
        open_registry("isto não é um endereço")
    with pytest.raises(ConfigError, match="arquivo"):
        open_registry("sqlite://")
    # A document whose verification code already exists is refused, no number consumed.
    first = registry.issue("ALV", 2026, "alvara", builder({"a": 1}))

    def duplicate(number: int, formatted: str) -> Built:
        built = builder({"a": 2})(number, formatted)
        return replace(built, verification_code=first.verification_code)

    with pytest.raises(LavraError, match="código de verificação"):
        registry.issue("ALV", 2026, "alvara", duplicate)
    assert registry.next_number("ALV", 2026) == 2


def test_search_keys_and_default_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = {
        "responsavel": {"cpf": CPF},
        "empresa": {"cnpj": CNPJ_A},
        "veiculos": [{"placa": "abc-1234"}, {"placa": "DEF5G67"}],
    }
    assert search_keys(data) == ("11222333000181", "ABC1234")
    assert search_keys({"motorista": {"cpf": CPF}}) == ("52998224725", None)
    monkeypatch.delenv("LAVRA_DATABASE_URL", raising=False)
    assert database_url(tmp_path) == f"sqlite:///{tmp_path.resolve()}/registro.sqlite3"
    monkeypatch.setenv("LAVRA_DATABASE_URL", "postgresql://lavra@banco/lavra")
    assert database_url(tmp_path) == "postgresql://lavra@banco/lavra"


# ------------------------------------------------------------------ (6) migrations
def migrated_metadata() -> MetaData:
    """Every table the migrations create: the registry's, the web accounts' (0002) and
    the stores every web worker shares (0015)."""
    from lavra.registry.webshared import shared_metadata
    from lavra.web.users import users_metadata

    combined = MetaData()
    for table in (*metadata.tables.values(), *users_metadata.tables.values(),
                  *shared_metadata.tables.values()):
        table.to_metadata(combined)
    return combined


def test_migration_on_an_empty_file_is_at_head_with_no_pending_diff(tmp_path: Path) -> None:
    url = database_url(tmp_path)
    raw = create_engine(url)
    with raw.connect() as connection:  # an empty file differs from the models
        assert compare_metadata(MigrationContext.configure(
            connection, opts={"include_object": include_object}), metadata) != []

    open_registry(url).close()
    with raw.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"include_object": include_object})
        script = ScriptDirectory.from_config(alembic_config(connection))
        heads = set(script.get_heads())
        assert len(heads) == 1  # one line of migrations, no branch left unmerged
        assert set(context.get_current_heads()) == heads
        assert compare_metadata(context, migrated_metadata()) == []
        tables = set(inspect(connection).get_table_names())
        assert {"documents", "counters", "events", "alembic_version"} <= tables
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"

    with raw.begin() as connection:  # the revision also goes down and up again
        command.downgrade(alembic_config(connection), "base")
        assert set(inspect(connection).get_table_names()) == {"alembic_version"}
    with open_registry(url) as registry:
        assert registry.issue("ALV", 2026, "alvara", builder({})).number == 1
    raw.dispose()


# ------------------------------------------------------------------ PostgreSQL
# postgres_url (tests/conftest.py): a database of its own on $LAVRA_TEST_POSTGRES_URL, or
# on a throw-away cluster.
def test_postgresql_database_at_head_is_opened_without_migrating_again(
        postgres_url: str, postgres_empty_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """postgres_url is a copy of a database already migrated to head: the registry opens
    it as it is, no revision runs again; an empty one (postgres_empty_url) runs them all."""
    def upgrades() -> list[str]:
        return [record.getMessage() for record in caplog.records
                if record.getMessage().startswith("Running upgrade")]

    with caplog.at_level(logging.INFO, logger="alembic.runtime.migration"):
        with open_registry(postgres_url) as registry:
            assert registry.next_number("ALV", 2026) == 1
        assert upgrades() == []
        open_registry(postgres_empty_url).close()
    heads, ran = [], len(upgrades())
    for url in (postgres_url, postgres_empty_url):
        raw = create_engine(url)
        with raw.connect() as connection:
            script = ScriptDirectory.from_config(alembic_config(connection))
            heads.append(MigrationContext.configure(connection).get_current_heads())
            extensions = connection.exec_driver_sql("SELECT extname FROM pg_extension")
            assert "pg_trgm" in set(extensions.scalars())  # 0019's, copied with the rest
        raw.dispose()
    assert ran == len(list(script.walk_revisions())) > 1
    assert heads[0] == heads[1] == tuple(script.get_heads())


def test_postgresql_numbers_are_gapless_across_processes(postgres_url: str) -> None:
    open_registry(postgres_url).close()
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    processes = [
        context.Process(target=_issue_many, args=(postgres_url, worker, start, 5))
        for worker in range(3)
    ]
    for process in processes:
        process.start()
    start.set()
    for process in processes:
        process.join(180)
    assert [process.exitcode for process in processes] == [0, 0, 0]
    with open_registry(postgres_url) as registry:
        numbers = sorted(r.number for r in registry.search("ABC1D23", limit=500))
        assert numbers == list(range(1, 16))
        before = registry.next_number("AUTO", 2026)

        def failing(number: int, formatted: str) -> Built:
            raise RuntimeError("falha")

        with pytest.raises(LavraError):
            registry.issue("AUTO", 2026, "auto-infracao-fretamento", failing)
        assert registry.next_number("AUTO", 2026) == before == 16
    assert _run(_crash_inside_build, postgres_url) == 17
    with open_registry(postgres_url) as registry:
        assert registry.next_number("ALV", 2026) == 2
        assert registry.get("ALV", 2026, 2) is None
    raw = create_engine(postgres_url)
    with raw.connect() as connection:
        assert compare_metadata(MigrationContext.configure(
            connection, opts={"include_object": include_object}), migrated_metadata()) == []
    raw.dispose()
