"""Interactive response times: draft preview, verify, the two public uploads (not a test).

    python bench/bench_interactive.py [REPETIÇÕES]

Run from the repository root with ``PYTHONPATH=engine:.``. Over a throw-away data
folder with a development PKI it times, after one warm-up call each:

- preview: ``Engine.draft`` of the alvará example through the warm render pool (as the
  web application and ``lavra draft`` do), PDF only;
- verify: ``Issuer.verify`` of an issued alvará in a warm process, and the whole
  ``lavra verify --json`` command as a fresh process (imports included);
- web verification upload: ``POST /api/verify`` with the issued PDF, and the
  applicant's upload: ``POST /api/read`` with a prefilled requerimento; both through
  FastAPI's TestClient, so the sandboxed worker pool of the application is used.

Prints the median, the fastest and the slowest of each, in milliseconds, plus the
first (cold) call. The figures depend on the load of the machine: repeat them.
"""

from __future__ import annotations

import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from lavra.checking.content import Content
from lavra.config import Config
from lavra.documents import Engine
from lavra.issuing import Issuer, ensure_dev_pki
from lavra.pack import default_pack_dir
from lavra.registry.database import database_url
from lavra.registry.store import open_registry
from lavra.web import WebContext, WebSettings, create_app

FORM = "alvara-fretamento"
REQUERIMENTO = "requerimento-alvara-fretamento"
ON = date(2026, 11, 29)
SECRET = "chave-do-benchmark-das-sessoes-0123456789-abcdef"


def timed(label: str, call: Callable[[], Any], count: int) -> None:
    start = time.perf_counter()
    call()
    first = (time.perf_counter() - start) * 1000
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    print(f"{label:<42} mediana {statistics.median(samples):7.1f} ms  "
          f"mín {min(samples):7.1f}  máx {max(samples):7.1f}  (1ª chamada {first:7.1f})")


def example(pack: Path, form: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (pack / "forms" / form / "exemplo.json").read_text(encoding="utf-8")
    )
    return data


def main(count: int) -> None:
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    pack = default_pack_dir()
    with tempfile.TemporaryDirectory() as folder:
        config = Config(pack_dir=pack, data_dir=Path(folder),
                        verification_url="http://testserver/verificar")
        engine = Engine(Content(pack))
        ensure_dev_pki(config, engine.content)
        issuer = Issuer(engine, open_registry(database_url(config.data_dir)), config)
        alvara = example(pack, FORM)
        timed("prévia da minuta (Engine.draft, PDF)",
              lambda: engine.draft(FORM, alvara, ON), count)
        issued = issuer.issue(FORM, alvara, ON, docx=False)
        pdf = issued.pdf
        timed("verify no processo aquecido (Issuer.verify)", lambda: issuer.verify(pdf), count)
        document = Path(folder) / "alvara.pdf"
        document.write_bytes(pdf)
        env = {**os.environ, "LAVRA_PACK": str(pack), "LAVRA_DATA": folder}
        command = [sys.executable, "-m", "lavra.cli.main", "verify", "--json", str(document)]

        def cli() -> None:
            subprocess.run(command, env=env, capture_output=True, check=True)

        timed("lavra verify --json (processo novo)", cli, max(3, count // 4))
        requerimento = engine.prefill(REQUERIMENTO, example(pack, REQUERIMENTO))
        issuer.close()

        context = WebContext(config, WebSettings(secret_key=SECRET))
        with TestClient(create_app(context)) as client:

            def upload(url: str, content: bytes) -> Callable[[], None]:
                def call() -> None:
                    answer = client.post(url, files={"file": ("f.pdf", content,
                                                              "application/pdf")})
                    if answer.status_code != 200:
                        raise SystemExit(f"{url}: {answer.status_code} {answer.text[:300]}")
                return call

            timed("web: envio para verificação (/api/verify)", upload("/api/verify", pdf), count)
            timed("web: envio do requerimento (/api/read)",
                  upload("/api/read", requerimento), count)
    print(f"repetições: {count}; carga no início: {os.getloadavg()[0]:.2f} "
          "(máquina compartilhada: repita a medição)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
