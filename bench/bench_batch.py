"""Throughput and memory of the batch renewal run (not a test).

    python bench/bench_batch.py 50 [TRABALHADORES]

Seeds N school-transport alvarás of 2025 into a fresh SQLite registry (not timed),
writes a complete renewal request for each, then times ``lavra batch
renovacao-transporte-escolar --ano 2026`` end to end (plan, parallel render and sign,
record, files, summaries) and prints holders per second, signed documents per second
and the peak RSS of the worker processes (the largest of them:
``RUSAGE_CHILDREN``). Run from the repository root with ``PYTHONPATH=engine:.:tests``.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from batchcases import REPO, RUN_DAY, YEAR, envelope, seed, write_jsonl
from issuers import dev_issuer

from lavra.batch.model import RunRequest
from lavra.batch.runner import find_kind, run_batch
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.issuing import registry_url

KIND = "renovacao-transporte-escolar"


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    folder = Path(tempfile.mkdtemp(prefix="lavra-bench-lote-"))
    engine = Engine(Content(REPO), pool=None)
    issuer = dev_issuer(engine, folder / "dados")
    started = time.perf_counter()
    numbers = seed(issuer, count)
    seeding = time.perf_counter() - started
    pedidos = write_jsonl(folder / "pedidos.jsonl",
                          [envelope(n, number) for n, number in enumerate(numbers)])
    request = RunRequest(KIND, {"ano": YEAR}, date.fromisoformat(RUN_DAY), None, pedidos)
    started = time.perf_counter()
    summary = run_batch(issuer, find_kind(issuer, KIND), request, folder / "saida",
                        database_url=registry_url(issuer.config), workers=workers)
    elapsed = time.perf_counter() - started
    issuer.close()
    documents = summary.counts["documentos"]
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"titulares: {count}  trabalhadores: {workers}  semente: {seeding:.1f} s")
    print(f"execução em lote: {elapsed:.1f} s (plano, emissão, registro, arquivos)")
    print(f"titulares/s: {count / elapsed:.2f}  documentos assinados/s: "
          f"{documents / elapsed:.2f}")
    print(f"pico de memória por trabalhador (RSS): {peak:.0f} MiB")
    print(f"completa: {summary.complete}  totais: {dict(summary.counts)}")


if __name__ == "__main__":
    main()
