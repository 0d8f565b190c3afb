"""When a batch run forks its workers from the caller (lavra.batch.work): only from a
process that runs one thread, native threads included (Typst's compiler starts some that
``threading`` does not see); otherwise the workers are spawned. The forked path itself
runs in every ``lavra batch`` subprocess of tests/test_batch_renewal.py (kill -9 midway,
two processes sharing a run), whose parent then reads the registry it forked with."""

from __future__ import annotations

import subprocess
import sys

from batchcases import REPO

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
