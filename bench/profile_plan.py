"""Where a renewal run's plan spends its time (not a test): a profile of the plan.

    python bench/profile_plan.py [TITULARES] [escolar|fretamento] [LINHAS] [--sem-perfil]

Run from the repository root with ``PYTHONPATH=engine:.:tests:bench``. Seeds the holders
into a fresh SQLite registry, then decides the run (:func:`lavra.batch.planning.decide`)
and writes it (:func:`lavra.batch.planning.write_plan`) under cProfile (CPU clock), and
prints the CPU per holder of each, the SQL statements sent per holder, and the functions
that take the most cumulative time. ``--sem-perfil``: the CPU without the profiler.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from batchcases import REPO, issuer_over
from bench_batch import _fretamento, _school
from sqlalchemy import event

from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.checking.content import Content
from lavra.documents import Engine


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    profiled = "--sem-perfil" not in sys.argv
    count = int(args[0]) if args else 1000
    which = args[1] if len(args) > 1 else "fretamento"
    lines = int(args[2]) if len(args) > 2 else 40
    folder = Path(tempfile.mkdtemp(prefix="lavra-perfil-plano-"))
    engine = Engine(Content(REPO), pool=None)
    issuer = issuer_over(engine, folder / "dados")
    issuer.config = replace(issuer.config, renderer="typst")
    request = (_fretamento if which == "fretamento" else _school)(issuer, count, folder, 1)
    kind = find_kind(issuer, request.kind)
    sent: list[str] = []
    event.listen(issuer.registry.engine, "before_cursor_execute",
                 lambda *a: sent.append(" ".join(a[2].split())[:150]))
    profile = cProfile.Profile(time.process_time)
    started = time.process_time()
    if profiled:
        profile.enable()
    plan = decide(issuer, kind, request)
    decided = time.process_time()
    decided_sent = len(sent)
    write_plan(issuer, kind, plan, None)
    if profiled:
        profile.disable()
    written = time.process_time()
    issuer.close()
    holders = len(plan.holders)
    print(f"{holders} titulares ({which}): decidir {1000 * (decided - started) / holders:.2f} "
          f"ms e {decided_sent / holders:.1f} comandos SQL por titular; gravar "
          f"{1000 * (written - decided) / holders:.2f} ms e "
          f"{(len(sent) - decided_sent) / holders:.1f} comandos")
    if "--consultas" in sys.argv:
        from collections import Counter
        for text, n in Counter(sent[:decided_sent]).most_common(25):
            print(f"{n / holders:6.2f}  {text}")
    if profiled:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(lines)


if __name__ == "__main__":
    main()
