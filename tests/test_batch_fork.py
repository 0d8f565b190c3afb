"""When a batch run forks its workers from the caller (lavra.batch.work): only from a
process that runs one thread, native threads included (Typst's compiler starts some that
``threading`` does not see); otherwise the workers are spawned. The forked path itself
runs in every ``lavra batch`` subprocess of tests/test_batch_renewal.py (kill -9 midway,
two processes sharing a run), whose parent then reads the registry it forked with."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import weakref
from pathlib import Path

from batchcases import REPO
from issuers import dev_issuer

from lavra.batch.warming import check_example
from lavra.batch.work import WorkerSetup, _frozen, warm_for_fork, warm_issuer
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.issuing import registry_url

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
