"""The start-up of one batch worker (not a test): from process start to its first document.

    python bench/bench_worker_start.py
        [weasyprint|typst] [escolar|fretamento] [spawn|fork|fork-frio]

Run from the repository root with ``PYTHONPATH=engine:.:tests``. Seeds 3 holders into a
fresh SQLite registry and plans their renewal run (not timed), then starts one worker
process (``spawn``, as :func:`lavra.batch.work.run_workers` does from a process with
threads; ``lavra batch`` forks them, skipping the pack's load) that reports, read in
the worker itself, the CPU seconds and peak RSS at three points: after the imports,
after :func:`lavra.batch.work.warm_issuer` (pack, templates, keys, connection), and
after its first document is signed and recorded; then the second and third documents
(the warm cost per document, for comparison). ``fork`` starts the worker as ``lavra
batch`` does: forked from this process, which has built what the workers inherit
(:func:`lavra.batch.work.warm_for_fork`, timed here as the parent's cost); ``fork-frio``
forks without it (each worker builds its signers and templates at its first document).
"""

from __future__ import annotations

import multiprocessing
import resource
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

Point = tuple[str, float, float, float]  # name, CPU s, wall s, peak RSS MiB


def _point(name: str, wall0: float) -> Point:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    # VmHWM, not ru_maxrss: the latter keeps the parent's peak across spawn's fork + exec.
    status = Path("/proc/self/status").read_text()
    peak = int(status.split("VmHWM:", 1)[1].split()[0]) if "VmHWM:" in status else 0
    return (name, usage.ru_utime + usage.ru_stime, time.perf_counter() - wall0, peak / 1024)


def _worker(setup: Any, wall0: float, queue: Any, inherited: Any = None) -> None:
    points = [_point("início", wall0)]
    from lavra.batch.work import build_item, warm_issuer
    from lavra.registry.runs import claim_and_record
    points.append(_point("importações", wall0))
    if inherited is None:
        issuer = warm_issuer(setup)
    else:
        content, registry, warmed = inherited
        registry.forget_connections()
        issuer = warm_issuer(setup, content, warmed)
    points.append(_point("emissor aquecido", wall0))
    for n in range(3):
        claim_and_record(issuer.registry, setup.run_id,
                         lambda item: build_item(issuer, item, on=setup.on), worker="bench")
        points.append(_point(f"documento {n + 1}", wall0))
    issuer.close()
    queue.put(points)


def main() -> None:
    import argparse

    from bench_batch import _fretamento, _prepare, _school, issuer_over
    from issuers import dev_issuer

    from lavra.batch.planning import decide, write_plan
    from lavra.batch.runner import find_kind
    from lavra.batch.work import WorkerSetup, warm_for_fork
    from lavra.checking.content import Content
    from lavra.documents import Engine
    from lavra.issuing import registry_url

    renderer = sys.argv[1] if len(sys.argv) > 1 else "typst"
    which = sys.argv[2] if len(sys.argv) > 2 else "escolar"
    start = sys.argv[3] if len(sys.argv) > 3 else "spawn"
    folder = Path(tempfile.mkdtemp(prefix="lavra-bench-inicio-"))
    engine = Engine(Content(Path(__file__).resolve().parents[1]), pool=None)
    if start == "spawn":
        issuer = dev_issuer(engine, folder / "dados")
        request = (_fretamento if which == "fretamento" else _school)(issuer, 3, folder)
    else:  # seeding renders with Typst: in a process of its own, as bench_batch.py does
        spawned = multiprocessing.get_context("spawn")
        seeded = spawned.Queue()
        options = argparse.Namespace(execucao=which, titulares=3, registro_licencas=0,
                                     renderizador=renderer, veiculos_por_empresa=1)
        preparing = spawned.Process(target=_prepare, args=(options, folder, None, seeded))
        preparing.start()
        request = seeded.get()[0]
        preparing.join()
        issuer = issuer_over(engine, folder / "dados", None)
    issuer.config = replace(issuer.config, renderer=renderer)
    engine.final_renderer = renderer
    kind = find_kind(issuer, request.kind)
    run = write_plan(issuer, kind, decide(issuer, kind, request), None)
    setup = WorkerSetup(issuer.config, registry_url(issuer.config), run.id,
                        on=run.reference_date)
    context = multiprocessing.get_context("spawn" if start == "spawn" else "fork")
    queue = context.Queue()
    args: tuple[Any, ...] = (setup, time.perf_counter(), queue)
    if start != "spawn":
        import os
        threads = len(os.listdir("/proc/self/task"))
        if threads != 1:
            sys.exit(f"{threads} threads neste processo: o fork não é seguro")
        cpu = time.process_time()
        warmed = warm_for_fork(issuer, kind.forms) if start == "fork" else None
        print(f"no processo principal, antes do fork: {1000 * (time.process_time() - cpu):.0f} "
              "ms de CPU (signatários e modelos, herdados pelos trabalhadores)")
        args = (*args, (engine.content, issuer.registry, warmed))
    process = context.Process(target=_worker, args=args)
    process.start()
    points: list[Point] = queue.get(timeout=300)
    process.join()
    issuer.close()
    print(f"um trabalhador ({renderer}, {which}, {start}): CPU e memória lidos no próprio "
          "processo")
    previous = 0.0
    for name, cpu, wall, rss in points:
        print(f"  {name:<18} CPU {cpu:6.3f} s (+{1000 * (cpu - previous):7.1f} ms)  "
              f"parede {wall:6.3f} s  pico RSS {rss:6.0f} MiB")
        previous = cpu


if __name__ == "__main__":
    main()
