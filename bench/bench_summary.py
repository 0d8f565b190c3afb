"""The run's summaries with many refused rows: time and peak memory of ``resumo.csv``
and ``resumo.pdf``.

    PYTHONPATH=engine:. python bench/bench_summary.py 20000

Not a test: figures depend on the machine. The rows are refused input lines (the case
of the issue: 20,000 refused rows took 2.4 GB and more than 175 s for ``resumo.pdf``).
Peak RSS from ``resource.getrusage`` (KiB on Linux), CPU from ``time.process_time``.
Runs against whichever ``lavra`` is on the path, so the same script measures the code
before and after a change.

Measured 2026-12-06, WeasyPrint, shared 2-core machine:

- before (every row in resumo.pdf): 2,000 rows: 28.6 s CPU, peak 403 MiB (117 s wall at
  load ~20); 20,000 rows did not finish in 15 minutes (the issue: 2.4 GB, > 175 s);
- after (200 rows per outcome, CSV streamed): 20,000 rows: resumo.csv 0.3 s CPU, peak
  146 MiB; resumo.pdf 2.7 s CPU (4.5 s wall at load ~5), peak 179 MiB, 64 KiB.

Measured later that day (load ~10), resumo.pdf of the same 20,000 rows (200 listed):
WeasyPrint 3.13 s CPU (8.8 s wall), peak 199 MiB, 64 KiB; laid out by Typst (issue 24,
whatever renders the documents), 0.36 s CPU with the compiler's start-up (1.3 s wall),
peak 202 MiB, 273 KiB (tagged PDF/A-2a: the structure of every cell).
"""

from __future__ import annotations

import argparse
import inspect
import resource
import tempfile
import time
from pathlib import Path

from lavra.batch import output
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.pack import default_pack_dir
from lavra.registry.runs import REFUSED, ItemRecord


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def refused(n: int) -> list[ItemRecord]:
    return [ItemRecord(0, 1, i, 0, f"{i:011d}", f"Titular recusado {i}", REFUSED, REFUSED,
                       None, None, None, None, None,
                       f"Linha {i + 1}, campo /cpf: o CPF informado é inválido.", None,
                       "pending", None) for i in range(n)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("n", type=int, nargs="?", default=20000)
    args = parser.parse_args()
    content = Content(default_pack_dir())
    engine = Engine(content, pool=None)
    items = refused(args.n)
    print(f"{args.n} linhas recusadas; memória antes: {rss_mib():.0f} MiB")
    with tempfile.TemporaryDirectory() as folder:
        wall, cpu = time.perf_counter(), time.process_time()
        rows = output.summary_rows(items)
        if "path" in inspect.signature(output.summary_csv).parameters:
            output.summary_csv(rows, path=Path(folder) / output.CSV_NAME)
        else:
            (Path(folder) / output.CSV_NAME).write_bytes(output.summary_csv(rows))
        print(f"resumo.csv: {time.perf_counter() - wall:.2f} s, "
              f"CPU {time.process_time() - cpu:.2f} s, pico {rss_mib():.0f} MiB")
        wall, cpu = time.perf_counter(), time.process_time()
        pdf = output.summary_pdf(engine, "Renovação", "Execução em lote nº 1", rows)
        print(f"resumo.pdf: {time.perf_counter() - wall:.2f} s, "
              f"CPU {time.process_time() - cpu:.2f} s, pico {rss_mib():.0f} MiB, "
              f"{len(pdf) / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
