"""Warm-up: ``lavra serve`` starts the render workers and loads the pack's renderer in
each before the first user asks; ``lavra verify`` loads neither the renderer nor the
documents' engine (only the signature validator and the registry; the configuration
still resolves the content pack, which loads its rules)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

from issuers import dev_issuer

from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.pack import default_pack_dir
from lavra.render import task
from lavra.render.isolation import WorkerPool

ENGINE_DIR = Path(__file__).resolve().parents[1] / "engine"


def warm_state(pack: str, version: str) -> tuple[int, bool]:
    return os.getpid(), (pack, version) in task._WARM


def test_warm_up_starts_every_worker_with_the_renderer_loaded() -> None:
    pool = WorkerPool(2)
    try:
        engine = Engine(Content(default_pack_dir()), pool=pool)
        assert engine.warm_up() == 2
        warmed = set(pool.pids())
        assert len(warmed) == 2 and os.getpid() not in warmed
        # The next tasks run in those very workers, with the renderer already there.
        pid, loaded = pool.run(warm_state, str(engine.content.root), engine.content.version)
        assert loaded and pid in warmed
        # A second warm-up starts nothing: the pool is full.
        assert engine.warm_up() == 0
        assert set(pool.pids()) == warmed
    finally:
        pool.close()


def test_warm_up_without_a_pool_loads_the_local_renderer() -> None:
    engine = Engine(Content(default_pack_dir()), pool=False)
    assert engine.warm_up() == 0
    assert "renderer" in engine.pages.__dict__


def test_verify_loads_neither_the_renderer_nor_the_engine(tmp_path: Path) -> None:
    engine = Engine(Content(default_pack_dir()))
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        example = json.loads((engine.content.root / "forms" / "alvara-fretamento"
                              / "exemplo.json").read_text(encoding="utf-8"))
        pdf = issuer.issue("alvara-fretamento", example, date(2026, 11, 29), docx=False).pdf
    finally:
        issuer.close()
    document = tmp_path / "alvara.pdf"
    document.write_bytes(pdf)
    probe = (
        "import sys\n"
        "from lavra.cli.main import main\n"
        f"sys.argv = ['lavra', 'verify', '--json', {str(document)!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as end:\n"
        "    code = end.code\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('weasyprint', 'docx', 'docxtpl') or m in ('lavra.documents', 'lavra.render.pdf'))\n"
        "print('HEAVY', heavy, code)\n"
    )
    repo = engine.content.root
    env = {**os.environ, "LAVRA_PACK": str(repo), "LAVRA_DATA": str(tmp_path / "dados"),
           "PYTHONPATH": os.pathsep.join([str(ENGINE_DIR), str(repo)])}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert '"valid": true' in done.stdout, done.stdout + done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last == "HEAVY [] 0", last
