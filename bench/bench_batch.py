"""Throughput and memory of the batch renewal runs (not a test).

    python bench/bench_batch.py 50 [TRABALHADORES] [escolar|fretamento] [weasyprint|typst]

Seeds N alvarás (school transport of 2025, or fretamento of 10/01/2021) into a fresh
SQLite registry (not timed), writes a complete renewal request for each, then times
``lavra batch renovacao-transporte-escolar --ano 2026`` (an alvará and its selo per
holder) or ``lavra batch renovacao-fretamento --vencendo-ate 2026-01-31`` (an alvará
per holder) end to end (plan, parallel render and sign, record, files, summaries) and
prints holders per second, signed documents per second and the peak RSS of the worker
processes (the largest of them: ``RUSAGE_CHILDREN``). The last argument is the renderer of
the issued documents (lavra.toml ``renderizador``; default weasyprint). Run from the repository root
with ``PYTHONPATH=engine:.:tests``.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from dataclasses import replace
from datetime import date
from pathlib import Path

from batchcases import (
    FRET_RUN_DAY,
    FRET_UNTIL,
    REPO,
    RUN_DAY,
    YEAR,
    envelope,
    fret_envelope,
    fret_seed,
    seed,
    write_jsonl,
)
from issuers import dev_issuer

from lavra.batch.model import RunRequest
from lavra.batch.runner import find_kind, run_batch
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.issuing import Issuer, registry_url


def _school(issuer: Issuer, count: int, folder: Path) -> RunRequest:
    numbers = seed(issuer, count)
    pedidos = write_jsonl(folder / "pedidos.jsonl",
                          [envelope(n, number) for n, number in enumerate(numbers)])
    return RunRequest("renovacao-transporte-escolar", {"ano": YEAR},
                      date.fromisoformat(RUN_DAY), None, pedidos)


def _fretamento(issuer: Issuer, count: int, folder: Path) -> RunRequest:
    numbers = fret_seed(issuer, count)
    pedidos = write_jsonl(folder / "pedidos.jsonl",
                          [fret_envelope(n, number) for n, number in enumerate(numbers)])
    return RunRequest("renovacao-fretamento", {"vencendo_ate": FRET_UNTIL},
                      date.fromisoformat(FRET_RUN_DAY), None, pedidos)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    which = sys.argv[3] if len(sys.argv) > 3 else "escolar"
    renderer = sys.argv[4] if len(sys.argv) > 4 else "weasyprint"
    folder = Path(tempfile.mkdtemp(prefix="lavra-bench-lote-"))
    engine = Engine(Content(REPO), pool=None)
    issuer = dev_issuer(engine, folder / "dados")
    issuer.config = replace(issuer.config, renderer=renderer)  # what the workers get
    engine.final_renderer = renderer
    started = time.perf_counter()
    request = (_fretamento if which == "fretamento" else _school)(issuer, count, folder)
    seeding = time.perf_counter() - started
    started = time.perf_counter()
    summary = run_batch(issuer, find_kind(issuer, request.kind), request, folder / "saida",
                        database_url=registry_url(issuer.config), workers=workers)
    elapsed = time.perf_counter() - started
    issuer.close()
    documents = summary.counts["documentos"]
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"execução: {request.kind}  titulares: {count}  trabalhadores: {workers}  "
          f"gerador: {renderer}  semente: {seeding:.1f} s")
    print(f"execução em lote: {elapsed:.1f} s (plano, emissão, registro, arquivos)")
    print(f"titulares/s: {count / elapsed:.2f}  documentos assinados/s: "
          f"{documents / elapsed:.2f}")
    print(f"pico de memória por trabalhador (RSS): {peak:.0f} MiB")
    print(f"completa: {summary.complete}  totais: {dict(summary.counts)}")


if __name__ == "__main__":
    main()
