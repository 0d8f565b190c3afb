"""Throughput and memory of the document pipeline on the alvará example (not a test).

    python bench/bench_documents.py draft 200      # drafts (PDF) per second, peak memory
    python bench/bench_documents.py issue 100 [--local]  # issued documents per second (numbered,
                                                   # rendered, signed, recorded in SQLite)

Run from the repository root with ``PYTHONPATH=engine:.:tests``. Drafts are of the
fretamento alvará example; issued documents are school-transport alvarás of 2025, each
for a holder of its own (tests/batchcases.py), since the registry refuses a second
alvará in force for the same holder and vehicle.

Prints documents per second, the wall and CPU time per document, the peak RSS of the
process, and the RSS growth per document after a warm-up (a leak shows as a steady growth).
"""

from __future__ import annotations

import itertools
import json
import resource
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from batchcases import alvara

from lavra.checking.content import Content
from lavra.config import Config
from lavra.documents import Engine
from lavra.issuing import Issuer, ensure_dev_pki
from lavra.pack import default_pack_dir
from lavra.registry.database import database_url
from lavra.registry.store import open_registry

FORM = "alvara-fretamento"
ISSUED_FORM = "alvara-transporte-escolar"
ON = date(2026, 11, 29)


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "draft"
    count = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 100
    pack = default_pack_dir()
    # --local: render in this process (no worker pool), so the CPU time is all here.
    engine = Engine(Content(pack), pool=None if "--local" in sys.argv else True)
    data = json.loads((pack / "forms" / FORM / "exemplo.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as folder:
        config = Config(pack_dir=pack, data_dir=Path(folder))
        ensure_dev_pki(config, engine.content)
        issuer = Issuer(engine, open_registry(database_url(config.data_dir)), config)
        holders = itertools.count()

        def one() -> None:
            if mode == "issue":
                issuer.issue(ISSUED_FORM, alvara(next(holders)), docx=False)
            else:
                engine.draft(FORM, data, ON)

        for _ in range(5):  # warm-up: fonts, templates, signer key
            one()
        warm = rss_mib()
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(count):
            one()
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu
        issuer.close()
    peak = rss_mib()
    print(f"modo={mode} documentos={count}")
    print(f"  {count / elapsed:.1f} documentos/s ({1000 * elapsed / count:.1f} ms cada; "
          f"CPU {1000 * cpu / count:.1f} ms cada)")
    print(f"  pico de memória (RSS) {peak:.1f} MiB; crescimento após aquecimento "
          f"{1024 * (peak - warm) / count:.1f} KiB/documento")


if __name__ == "__main__":
    main()
