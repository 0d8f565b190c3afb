"""The licensing state's guards hold under concurrency (issue 22): a cassação's bar
(fretamento art. 22, parágrafo único) and a new alvará of the same company; a revogação
(transporte escolar) and a selo on the revoked alvará. Two clerks act at the same
moment; the law's outcome wins, the loser gets its pt-BR refusal citing its article,
and nothing of it is written. SQLite and PostgreSQL. Likewise a cassação citing an auto
and the auto's cancellation (:mod:`lavra.registry.citations`): the first to lock the
auto wins.

The interleaving is forced, not hoped for: the first act's effects are written (its
transaction still open) before the second starts; the first commits only once the
second has written its own effects or waits on a lock. On PostgreSQL, without the row
locks of :mod:`lavra.registry.standing`, the second would read the state as it was
before the first and commit beside it; SQLite's writer lock serialises them at BEGIN.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from test_auto_anulado import auto
from test_cited_acts import AUTO_ON, assert_kept
from test_cited_acts import cassacao as cassacao_citing
from test_licensing_state import act, alvara_fretamento, cassacao, example
from test_licensing_state import registry as registry

from lavra.errors import LavraError
from lavra.registry.records import IssuedRecord
from lavra.registry.state import StateWriter
from lavra.registry.store import Registry, open_registry
from lavra_americana import pacote

Outcome = IssuedRecord | LavraError


@pytest.fixture
def waiting(registry: Registry, registry_url: str) -> Iterator[Callable[[], bool]]:
    """Whether a transaction waits on a row lock (PostgreSQL). On SQLite always: its
    writers wait at BEGIN, before anything is read, so the second can write nothing
    before the first commits, and the first need not wait for it (it would wait out the
    minute while the second waits at BEGIN)."""
    yield from _waiting(registry_url)


def _waiting(registry_url: str) -> Iterator[Callable[[], bool]]:
    if not registry_url.startswith("postgresql"):
        yield lambda: True
        return
    engine = create_engine(registry_url)

    def locked() -> bool:
        with engine.connect() as connection:
            return bool(connection.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()")).scalar())

    try:
        yield locked
    finally:
        engine.dispose()


def test_two_processes_building_the_state_at_once_build_it_once(
    registry_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A registry from before the licensing state opened by two processes at once (two
    clerks' first `lavra issue` after the upgrade): one builds the view from the acts,
    the other waits for it and finds it built. Before, on PostgreSQL, both rebuilt it
    and the second failed on the row that marks it built (the soak test met it)."""
    older = open_registry(registry_url)  # no pack effects: as before revision 0006
    try:
        alvara = alvara_fretamento(older)
    finally:
        older.close()
    applied: list[int] = []
    original = StateWriter.apply

    def counted(writer: StateWriter, *args: Any) -> None:
        applied.append(threading.get_ident())
        original(writer, *args)

    monkeypatch.setattr(StateWriter, "apply", counted)
    clerks = [open_registry(registry_url) for _ in range(2)]
    try:
        for clerk in clerks:
            clerk.use_effects(pacote().effects)
        waits = _waiting(registry_url)
        outcomes = race(monkeypatch, next(waits), clerks[0].ensure_state,
                        clerks[1].ensure_state)
        waits.close()
        assert outcomes == (None, None)
        assert len(applied) == 1  # the alvará replayed once: by the first clerk alone
        view = clerks[1].licence_of(alvara.id)
        assert view is not None and view.status == "active"
        assert clerks[1].rebuild_state(apply=False).same
    finally:
        for clerk in clerks:
            clerk.close()


def race(monkeypatch: pytest.MonkeyPatch, waiting: Callable[[], bool],
         first: Callable[[], IssuedRecord], second: Callable[[], IssuedRecord], *,
         at: str = "apply") -> tuple[Outcome, Outcome]:
    """Issue ``first`` and ``second`` in two threads: ``second`` starts once ``first``
    has written its effects (the :class:`StateWriter` method ``at``: ``apply`` for an
    act, ``undo`` for a cancellation), and ``first`` commits once ``second`` has
    written its own or waits on a lock (or a minute has passed)."""
    applied, written = threading.Event(), threading.Event()
    roles: dict[int, str] = {}
    original = getattr(StateWriter, at)

    def hooked(writer: StateWriter, *args: Any) -> None:
        role = roles.get(threading.get_ident())
        try:
            original(writer, *args)
        finally:
            if role == "second":
                written.set()
        if role == "first":
            applied.set()
            deadline = time.monotonic() + 60
            while not written.is_set() and not waiting() and time.monotonic() < deadline:
                time.sleep(0.01)

    monkeypatch.setattr(StateWriter, at, hooked)
    outcomes: dict[str, Outcome] = {}

    def clerk(role: str, issue: Callable[[], IssuedRecord]) -> None:
        roles[threading.get_ident()] = role
        if role == "second":
            assert applied.wait(60)
        try:
            outcomes[role] = issue()
        except LavraError as error:
            outcomes[role] = error
        finally:
            if role == "second":
                written.set()

    threads = [threading.Thread(target=clerk, args=("first", first)),
               threading.Thread(target=clerk, args=("second", second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return outcomes["first"], outcomes["second"]


def other_alvara(registry: Registry) -> IssuedRecord:
    """A new ALV-FRET to the example's company, for another vehicle."""
    data = example("alvara-fretamento")
    data["veiculo"].update(placa="DEF4G56", renavam="92134546140")
    return act(registry, "ALV-FRET", "alvara-fretamento", data, on=date(2026, 4, 20),
               computed={"inicio_vigencia": "2026-04-20", "valido_ate": "2031-04-19"})


def test_a_cassacao_and_a_new_alvara_of_the_company_at_once(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, waiting: Callable[[], bool],
) -> None:
    alvara = alvara_fretamento(registry)
    decision, refused = race(monkeypatch, waiting,
                             lambda: cassacao(registry, alvara, on=date(2026, 4, 20)),
                             lambda: other_alvara(registry))
    assert isinstance(decision, IssuedRecord), decision
    assert isinstance(refused, LavraError), refused  # barred from the cassação's day
    assert "impedido" in refused.message and "até 20/04/2027" in refused.message
    assert decision.printed in refused.message
    assert "art. 22, parágrafo único, da Lei nº 4.419/2006" in refused.message
    assert registry.next_number("ALV-FRET", 2026) == 2  # nothing numbered nor recorded
    assert registry.licences_in_force("alvara-fretamento", date(2026, 5, 1)) == ()
    assert registry.rebuild_state(apply=False).same


def escolar(registry: Registry) -> IssuedRecord:
    return act(registry, "ALV-ESC", "alvara-transporte-escolar",
               example("alvara-transporte-escolar"), on=date(2026, 3, 10),
               computed={"inicio_vigencia": "2026-03-10", "valido_ate": "2026-12-31"})


def selo(registry: Registry, alvara: IssuedRecord) -> IssuedRecord:
    data = example("selo-identificacao")
    data["alvara"]["numero"] = alvara.printed
    return act(registry, "SELO-ESC", "selo-identificacao", data, on=date(2026, 7, 1),
               computed={"inicio_vigencia": "2026-07-01", "valido_ate": "2026-12-31"})


def revogacao(registry: Registry, alvara: IssuedRecord) -> IssuedRecord:
    data = example("decisao-revogacao-alvara")
    data["alvara"]["numero"] = alvara.printed
    return act(registry, "REV-ESC", "decisao-revogacao-alvara", data, on=date(2026, 7, 1))


def test_a_revogacao_and_a_selo_on_the_alvara_at_once(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, waiting: Callable[[], bool],
) -> None:
    alvara = escolar(registry)
    decision, refused = race(monkeypatch, waiting, lambda: revogacao(registry, alvara),
                             lambda: selo(registry, alvara))
    assert isinstance(decision, IssuedRecord), decision
    assert isinstance(refused, LavraError), refused
    assert (f"O {alvara.printed}, a que o SELO-ESC nº 0001/2026 se vincula, não está em "
            "vigor (revogado desde 01/07/2026)") in refused.message
    assert "(art. 3º, § 2º, da Lei nº 4.515/2007)" in refused.message
    assert registry.next_number("SELO-ESC", 2026) == 1  # nothing numbered nor recorded
    assert registry.licences_in_force("selo-identificacao", date(2026, 7, 2)) == ()
    assert registry.rebuild_state(apply=False).same


def test_a_selo_and_a_revogacao_of_its_alvara_at_once(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, waiting: Callable[[], bool],
) -> None:
    """The selo first: the revogação, recorded after it, ends it with the alvará."""
    alvara = escolar(registry)
    issued, decision = race(monkeypatch, waiting, lambda: selo(registry, alvara),
                            lambda: revogacao(registry, alvara))
    assert isinstance(issued, IssuedRecord), issued
    assert isinstance(decision, IssuedRecord), decision
    view = registry.licence_of(issued.id)
    assert view is not None and view.describe(date(2026, 7, 2)) == (
        f"encerrado em 01/07/2026 pelo {decision.printed}")
    assert registry.licences_in_force("selo-identificacao", date(2026, 7, 2)) == ()
    assert registry.rebuild_state(apply=False).same


def test_the_race_helper_lets_the_second_act_go_when_nothing_blocks_it(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, waiting: Callable[[], bool],
) -> None:
    """Two acts that touch nothing in common both go through (the helper itself)."""
    alvara = escolar(registry)
    first, second = race(monkeypatch, waiting, lambda: selo(registry, alvara),
                         lambda: alvara_fretamento(registry))
    assert isinstance(first, IssuedRecord) and isinstance(second, IssuedRecord)
    assert registry.rebuild_state(apply=False).same




def cancel(registry: Registry, record: IssuedRecord) -> IssuedRecord:
    return registry.cancel(record.series, record.year, record.number,
                           reason="Lavrado em duplicidade.", by="Chefia")


def test_a_cassacao_citing_an_auto_and_the_auto_cancelled_at_once(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, waiting: Callable[[], bool],
) -> None:
    """The cassação first: it holds the auto it cites; the cancellation, refused, names
    it and writes nothing."""
    alvara, first = alvara_fretamento(registry), auto(registry, AUTO_ON)
    decision, refused = race(monkeypatch, waiting,
                             lambda: cassacao_citing(registry, alvara, [first]),
                             lambda: cancel(registry, first))
    assert isinstance(decision, IssuedRecord), decision
    assert isinstance(refused, LavraError), refused
    assert_kept(registry, first, decision, refused)


def test_an_auto_cancelled_and_a_cassacao_citing_it_at_once(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, waiting: Callable[[], bool],
) -> None:
    """The cancellation first: the cassação, refused, names the cancelled auto and is
    neither numbered nor recorded; the alvará stays in force."""
    alvara, first = alvara_fretamento(registry), auto(registry, AUTO_ON)
    cancelled, refused = race(monkeypatch, waiting, lambda: cancel(registry, first),
                              lambda: cassacao_citing(registry, alvara, [first]), at="undo")
    assert isinstance(cancelled, IssuedRecord), cancelled
    assert cancelled.status.value == "cancelled"
    assert isinstance(refused, LavraError), refused
    assert refused.message == (
        f"O {first.printed}, que o CAS-FRET nº 0001/2026 cita, foi cancelado: o "
        "CAS-FRET nº 0001/2026 não pode se apoiar nele.")
    assert registry.next_number("CAS-FRET", 2026) == 1
    view = registry.licence_of(alvara.id)
    assert view is not None and view.status == "active"
    assert registry.rebuild_state(apply=False).same
