"""The fork server of the worker pool imports the renderer (and what other stages add)
once, so a new worker, a replacement for one killed on a hostile file included, does
not import them again."""

from __future__ import annotations

import os
import sys

from lavra.render import isolation
from lavra.render.isolation import PRELOAD, WorkerPool


def loaded() -> tuple[int, list[str]]:
    return os.getpid(), [name for name in PRELOAD if name in sys.modules]


def test_a_new_worker_starts_with_the_preloaded_modules_imported() -> None:
    import lavra.web.sandbox  # noqa: F401  (adds the verifier to the preload)

    assert {"lavra.render.task", "lavra.issuing", "lavra.web.pdftasks"} <= set(PRELOAD)
    pool = WorkerPool(1)
    try:
        # The fork server is one per process: what it imported depends on what had
        # been imported when the first pool of this process started; the renderer
        # always (this module does not import it, so the worker would not either).
        first, modules = pool.run(loaded)
        assert "lavra.render.task" in modules
        for worker in pool._idle:  # as when a worker is retired after a failure
            worker.stop()
        pool._idle.clear()
        second, again = pool.run(loaded)
        assert second != first
        assert again == modules
    finally:
        pool.close()


def test_preload_adds_each_module_once() -> None:
    before = list(PRELOAD)
    isolation.preload(*before)
    assert before == PRELOAD
