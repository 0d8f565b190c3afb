"""When a batch run forks its workers from the caller (lavra.batch.work): only from a
process that runs one thread, native threads included (Typst's compiler starts some that
``threading`` does not see); otherwise the workers are spawned. The forked path itself
runs in every ``lavra batch`` subprocess of tests/test_batch_renewal.py (kill -9 midway,
two processes sharing a run), whose parent then reads the registry it forked with.
Where the workers are forked, the run is planned in a forked child first
(lavra.batch.forked), so that the workers do not inherit the memory the plan took."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import weakref
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from batchcases import REPO
from issuers import dev_issuer
from sqlalchemy import text

from lavra.batch import runner
from lavra.batch.forked import in_forked_child
from lavra.batch.warming import check_example
from lavra.batch.work import WorkerSetup, _frozen, warm_for_fork, warm_issuer
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.errors import ImportRefusedError, LavraError
from lavra.issuing import registry_url
from lavra.registry.store import Registry, open_registry

_PROBE = """
import threading, tempfile, pathlib
import lavra.batch.work as work
print(work._single_threaded())
stop = threading.Event()
thread = threading.Thread(target=stop.wait)
thread.start()
print(work._single_threaded())
stop.set()
thread.join()
# the kernel reaps a joined thread a moment later: wait for it (at most 5 s)
import time
for _ in range(500):
    if work._single_threaded():
        break
    time.sleep(0.01)
print(work._single_threaded())
import typst
folder = pathlib.Path(tempfile.mkdtemp())
(folder / "a.typ").write_text("= Teste", encoding="utf-8")
typst.compile(str(folder / "a.typ"), format="pdf")
print(work._single_threaded())
"""


def test_workers_are_forked_only_from_a_process_of_one_thread() -> None:
    found = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120,
        env={"PYTHONPATH": f"{REPO / 'engine'}:{REPO}", "PATH": "/usr/bin:/bin"},
    )
    assert found.returncode == 0, found.stderr
    # alone; with a thread; alone again; after a Typst compile (its native threads stay)
    assert found.stdout.split() == ["True", "False", "True", "False"]


def test_the_parent_builds_once_what_its_forked_workers_inherit(tmp_path: Path) -> None:
    engine = Engine(Content(REPO), pool=None)
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        threads = len(os.listdir("/proc/self/task"))
        assert "_fields" not in vars(engine.content) and "coverage" not in vars(engine)
        warmed = warm_for_fork(issuer, ("alvara-transporte-escolar", "selo-identificacao",
                                        "nao-existe"))
        # the warming starts no thread: the caller may still fork
        assert len(os.listdir("/proc/self/task")) == threads
        # the signer of the forms' role is loaded (key, stamp font, CMS template) ...
        role = engine.content.forms["alvara-transporte-escolar"].signer_role
        assert role is not None
        signer, _ = issuer.signers.get(role)
        assert warmed.signers is issuer.signers and signer._template is not None
        # ... and the templates compiled, Typst not started
        cached = {name for _, name in warmed.pages.final_env.cache or {}}
        assert {"documento.html", "alvara-transporte-escolar/texto.html"} <= cached
        assert "typst" not in vars(warmed.pages)
        # ... and the caches of the checks filled: the schemas' fields, the fonts' characters
        assert "_fields" in vars(engine.content) and "coverage" in vars(engine)
        # a worker made with them uses them, not new ones
        setup = WorkerSetup(issuer.config, registry_url(issuer.config), 0)
        worker = warm_issuer(setup, engine.content, warmed)
        try:
            assert worker.signers is warmed.signers
            assert worker.engine.pages is warmed.pages
            assert worker.engine is not issuer.engine
        finally:
            worker.close()
    finally:
        issuer.close()


def test_the_workers_are_forked_with_the_callers_objects_frozen() -> None:
    """What the parent holds at the fork is collected, then frozen while the workers are
    forked (a worker's collections never walk it, never copy its pages), and given back
    to the parent's collector after; a spawned worker inherits nothing: nothing frozen."""
    assert gc.get_freeze_count() == 0
    gone = weakref.ref(_Node())
    kept = _Node()
    kept.self = kept
    with _frozen(True):
        assert gone() is None  # collected before the freeze
        assert gc.get_freeze_count() > 0
        assert not any(o is kept for o in gc.get_objects())  # out of the collector's reach
    assert gc.get_freeze_count() == 0
    assert any(o is kept for o in gc.get_objects())
    with _frozen(False):
        assert gc.get_freeze_count() == 0


def test_every_form_of_a_batch_run_has_an_example_that_checks() -> None:
    """The warming checks each form's example (lavra.batch.warming): each form a batch run
    of the pack issues has one, and it checks on its date with no registry, reaching the
    computations whose caches the workers would otherwise fill one by one."""
    engine = Engine(Content(REPO), pool=None)
    forms = {f for run in engine.content.pack.batch_runs.values() for f in run.forms}
    assert forms
    for form in sorted(forms):
        prepared = check_example(engine, engine.content.forms[form])
        assert prepared is not None, form
        assert prepared.report.form == form


class _Node:
    self: object = None

    def __init__(self) -> None:
        self.self = self


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Registry:
    return open_registry(f"sqlite:///{tmp_path_factory.mktemp('forked')}/registro.db")


def _refuse() -> None:
    raise ImportRefusedError("Linhas recusadas: 2.", ("linha 2: placa inválida",))


def _unknown() -> None:
    raise KeyError("x")


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_step_in_a_forked_child_answers_as_if_done_here(registry: Registry) -> None:
    assert in_forked_child(lambda: ("feito", os.getpid()), registry)[1] != os.getpid()
    # the same class, message, field and attributes, though its __init__ takes others
    with pytest.raises(ImportRefusedError) as refused:
        in_forked_child(_refuse, registry)
    assert (str(refused.value), refused.value.field, refused.value.problems) == (
        "Linhas recusadas: 2.", "/arquivo", ("linha 2: placa inválida",))
    with pytest.raises(KeyError) as defect:  # a defect: where it happened, in a note
        in_forked_child(_unknown, registry)
    assert "_unknown" in "".join(defect.value.__notes__)
    # an answer that cannot be handed back: a clear error
    with pytest.raises(LavraError, match="não pôde devolver o resultado"):
        in_forked_child(lambda: lambda: None, registry)
    # a child killed before answering: a clear error, no wait
    with pytest.raises(LavraError, match=r"terminou sem responder \(código -9\)") as died:
        in_forked_child(_die, registry)
    assert type(died.value) is LavraError
    # the connections the children inherited were theirs to forget: this one still reads
    with registry.read_session() as session:
        assert session.execute(text("select 1")).scalar() == 1


def test_the_plan_is_made_in_a_child_only_where_the_workers_are_forked(
        monkeypatch: pytest.MonkeyPatch, registry: Registry) -> None:
    issuer: Any = SimpleNamespace(config=None, engine=SimpleNamespace(content=None),
                                  registry=registry)
    planned: Any = runner.planned  # the planner's pid stands for the run planned
    kind = SimpleNamespace(forms=("alvara-fretamento",))
    warmed: list[tuple[str, ...]] = []
    monkeypatch.setattr(runner, "warm_checks", lambda _, forms: warmed.append(forms))
    monkeypatch.setattr(runner, "_plan", lambda *_: (os.getpid(), False))
    monkeypatch.setattr(runner, "can_fork", lambda *_: True)
    assert planned(issuer, kind, None, None)[0] != os.getpid()
    assert warmed == [("alvara-fretamento",)]  # here, before the child: it inherits them
    monkeypatch.setattr(runner, "can_fork", lambda *_: False)  # spawned workers: here
    assert planned(issuer, kind, None, None)[0] == os.getpid()
    assert len(warmed) == 1  # nothing to warm for workers that are spawned
