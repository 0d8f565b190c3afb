"""Where a batch worker spends its time (not a test): a profile of one worker.

    python bench/profile_batch.py 40 [escolar|fretamento] [weasyprint|typst] [LINHAS]

Run from the repository root with ``PYTHONPATH=engine:.:tests``. Seeds N alvarás into a
fresh SQLite registry, plans the renewal run as ``lavra batch`` does, then works every
item in this very process (the work a batch worker does: claim, check, render, sign,
record) under cProfile, and prints the time per item and the functions that take the
most cumulative time; then the time of the plan and of the files and summaries.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bench_batch import _fretamento, _school
from issuers import dev_issuer

from lavra.batch.output import write_outputs
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.batch.work import work_items
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.registry.runs import run_items


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    which = sys.argv[2] if len(sys.argv) > 2 else "escolar"
    renderer = sys.argv[3] if len(sys.argv) > 3 else "weasyprint"
    lines = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    folder = Path(tempfile.mkdtemp(prefix="lavra-perfil-lote-"))
    engine = Engine(Content(Path(__file__).resolve().parents[1]), pool=None)
    issuer = dev_issuer(engine, folder / "dados")
    issuer.config = replace(issuer.config, renderer=renderer)
    engine.final_renderer = renderer
    request = (_fretamento if which == "fretamento" else _school)(issuer, count, folder)
    kind = find_kind(issuer, request.kind)
    started = time.perf_counter()
    run = write_plan(issuer, kind, decide(issuer, kind, request), None)
    planning = time.perf_counter() - started
    profile = cProfile.Profile(time.process_time)  # CPU: the machines are shared
    started = time.perf_counter()
    profile.enable()
    done = work_items(issuer, run.id, worker="perfil", on=run.reference_date)
    profile.disable()
    elapsed = time.perf_counter() - started
    started = time.perf_counter()
    write_outputs(issuer.registry, issuer.engine, run_items(issuer.registry, run.id),
                  folder / "saida", title=kind.title, subtitle="perfil", merged=False)
    outputs = time.perf_counter() - started
    issuer.close()
    print(f"{done} itens em {elapsed:.1f} s: {1000 * elapsed / max(done, 1):.0f} ms por item "
          f"({renderer}, {which}, {count} titulares); plano {planning:.1f} s; "
          f"arquivos e resumos {outputs:.1f} s")
    pstats.Stats(profile).sort_stats("cumulative").print_stats(lines)


if __name__ == "__main__":
    main()
