"""CPU per document of a warm batch worker, stage by stage (not a test).

    python bench/bench_worker_stages.py [TITULARES] [escolar|fretamento]

Run from the repository root with ``PYTHONPATH=engine:.:tests:bench``. Seeds the holders
into a fresh SQLite registry, plans their renewal run (Typst), works the first 4 items
unmeasured (the compiler, keys and fonts loaded), then the rest in this process as a
worker does (:func:`lavra.batch.work.work_items`), adding up the CPU (not the wall: the
machines are shared) of each stage: claim the item, check it against the registry,
draw its QR code, compose it (data, Typst), sign it, record it. What the stages leave out (the
worker's loop, the transaction) is the rest.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench_batch import _fretamento, _school
from issuers import dev_issuer

import lavra.documents
import lavra.issuing
import lavra.registry.runs
import lavra.registry.store
import lavra.signing.pades
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.batch.work import build_item, work_items
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.registry.runs import claim_and_record

SPENT: dict[str, float] = defaultdict(float)

STAGES: tuple[tuple[str, Any, str], ...] = (
    ("reivindicar", lavra.registry.runs, "_first_of_share"),
    ("verificar", lavra.issuing.Issuer, "prepare"),
    ("QR", lavra.issuing, "qr_png"),
    ("compor", lavra.documents.Engine, "render_final"),
    ("assinar", lavra.signing.pades.DocumentSigner, "sign"),
    ("registrar", lavra.registry.store.Registry, "record_reserved"),
)


def _timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            SPENT[name] += time.process_time() - started
    return wrapper


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    which = sys.argv[2] if len(sys.argv) > 2 else "escolar"
    folder = Path(tempfile.mkdtemp(prefix="lavra-etapas-"))
    engine = Engine(Content(Path(__file__).resolve().parents[1]), pool=None)
    issuer = dev_issuer(engine, folder / "dados")
    issuer.config = replace(issuer.config, renderer="typst")
    engine.final_renderer = "typst"
    request = (_fretamento if which == "fretamento" else _school)(issuer, count, folder)
    kind = find_kind(issuer, request.kind)
    run = write_plan(issuer, kind, decide(issuer, kind, request), None)
    for _ in range(4):
        claim_and_record(issuer.registry, run.id,
                         lambda item: build_item(issuer, item, on=run.reference_date),
                         worker="aquecimento")
    for name, owner, attribute in STAGES:
        setattr(owner, attribute, _timed(name, getattr(owner, attribute)))
    started = time.process_time()
    done = work_items(issuer, run.id, worker="etapas", on=run.reference_date)
    total = time.process_time() - started
    issuer.close()
    print(f"{done} documentos ({which}, Typst, {count} titulares), CPU por documento:")
    for name, _, _ in STAGES:
        print(f"  {name:<12} {1000 * SPENT[name] / done:6.1f} ms")
    print(f"  {'o resto':<12} {1000 * (total - sum(SPENT.values())) / done:6.1f} ms")
    print(f"  {'total':<12} {1000 * total / done:6.1f} ms")


if __name__ == "__main__":
    main()
