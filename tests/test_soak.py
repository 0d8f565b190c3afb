"""Soak: processes issue in a loop through the real CLI while a driver sends kill -9.

Out of the default run (marker ``soak``); .ci/run runs it for $LAVRA_SOAK_SECONDS
(default here 30 s) on SQLite and on PostgreSQL. Several ``lavra issue`` processes run
at once, one after another in each slot; at seeded random moments of their lives some
are killed with SIGKILL (bounded count, the driver stops by itself). Afterwards: every
series is gapless and its counter agrees, every stored PDF matches its recorded hash,
every file in the output folder is a whole document whose hash is a record's (and passes
pdfsig and qpdf), and no partial or temporary file remains.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from identities import cpf_for, set_person, set_vehicle
from outputcheck import pdf_problems
from sqlalchemy import create_engine, text

from lavra.checking.content import Content
from lavra.cli.demo import current_example
from lavra.cli.files import sweep_stale
from lavra.config import Config
from lavra.issuing import ensure_dev_pki

pytestmark = pytest.mark.soak

REPO = Path(__file__).resolve().parent.parent
SECONDS = float(os.environ.get("LAVRA_SOAK_SECONDS", "30"))
SEED = int(os.environ.get("LAVRA_SOAK_SEED", "20261201"))
SLOTS = 3
MAX_KILLS = 15
FORMS = ("alvara-fretamento", "alvara-transporte-escolar")


@dataclass
class Run:
    process: subprocess.Popen[str]
    stem: str
    started: float
    kill_at: float | None


@dataclass
class Tally:
    issued: dict[str, str] = field(default_factory=dict)  # stem -> sha256 printed by the CLI
    killed: int = 0
    durations: list[float] = field(default_factory=list)


def _inputs() -> dict[str, dict[str, Any]]:
    content = Content(REPO)
    examples = {}
    for form_id in FORMS:
        spec = content.form(form_id)
        assert spec.example is not None
        examples[form_id] = current_example(
            spec, json.loads(spec.example.read_text(encoding="utf-8"))
        )[0]
    return examples


def _input_for(folder: Path, stem: str, example: dict[str, Any], counter: int) -> Path:
    """The example for one issue, with a vehicle (and a school titular) of its own: the law
    allows one alvará in force per vehicle and one school licence per person, so each
    issue of the loop licenses another plate, for another person where it matters."""
    data = json.loads(json.dumps(example))
    plate = f"SOK{counter % 10}{chr(65 + counter // 10 % 26)}{counter // 260 % 100:02d}"
    set_vehicle(data["veiculo"], plate)
    if "titular" in data:
        set_person(data["titular"], cpf_for(plate))
    path = folder / f"{stem}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _finish(run: Run, tally: Tally) -> None:
    out, err = run.process.communicate(timeout=300)
    if run.process.returncode == -signal.SIGKILL:
        tally.killed += 1
        return
    assert run.process.returncode == 0, f"lavra issue saiu com {run.process.returncode}: {err}"
    tally.issued[run.stem] = json.loads(out)["sha256"]
    tally.durations.append(time.monotonic() - run.started)


def test_issuing_under_kill_minus_nine_keeps_registry_and_files_whole(
    registry_url: str, tmp_path: Path
) -> None:
    data_dir, out = tmp_path / "dados", tmp_path / "saida"
    out.mkdir()
    config = Config(pack_dir=REPO, data_dir=data_dir, database_url=registry_url)
    ensure_dev_pki(config, Content(REPO))
    inputs = _inputs()
    env = {**os.environ, "LAVRA_PACK": str(REPO), "LAVRA_DATA": str(data_dir),
           "LAVRA_DATABASE_URL": registry_url}
    env.pop("LAVRA_CONFIG", None)
    rng = random.Random(f"{SEED}-{registry_url.split(':')[0]}")
    tally, counter, kills = Tally(), 0, 0
    running: dict[int, Run] = {}
    typical = 6.0  # seconds one `lavra issue` takes; learnt from the finished ones
    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline:
        for slot in range(SLOTS):
            run = running.get(slot)
            if run is not None and run.process.poll() is not None:
                _finish(running.pop(slot), tally)
                if tally.durations:
                    typical = sorted(tally.durations)[len(tally.durations) // 2]
            if slot not in running:
                counter += 1
                form = FORMS[counter % len(FORMS)]
                stem = f"{slot}-{counter:04d}-{form}"
                source = _input_for(tmp_path, stem, inputs[form], counter)
                command = [sys.executable, "-m", "lavra.cli.main", "issue", form, str(source),
                           "-o", str(out / f"{stem}.pdf"), "--docx", str(out / f"{stem}.docx"),
                           "--json"]
                now = time.monotonic()
                doomed = kills < MAX_KILLS and rng.random() < 0.45
                kill_at = now + rng.uniform(0.1, 1.3 * typical) if doomed else None
                kills += doomed
                running[slot] = Run(
                    subprocess.Popen(command, cwd=tmp_path, env=env, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL),
                    stem, now, kill_at,
                )
        now = time.monotonic()
        for run in running.values():
            if run.kill_at is not None and now >= run.kill_at and run.process.poll() is None:
                run.process.send_signal(signal.SIGKILL)
        time.sleep(0.02)
    for run in running.values():  # the driver stops: the last ones finish or die as planned
        if run.kill_at is not None and run.process.poll() is None:
            run.process.send_signal(signal.SIGKILL)
        _finish(run, tally)

    assert tally.issued, "nenhuma emissão terminou no tempo do soak"
    assert tally.killed, "nenhum processo foi morto"

    # The registry: gapless per series and year, counters agree, stored PDFs match hashes.
    raw = create_engine(registry_url)
    with raw.connect() as connection:
        rows = connection.execute(
            text("SELECT series, year, number, sha256, pdf, docx FROM documents")
        ).all()
        counters = {(s, y): n for s, y, n in connection.execute(
            text("SELECT series, year, last_number FROM counters")
        )}
        # A school alvará issued one at a time reserves its selo's number with it
        # (lavra.registry.companions): the number is taken, in the same transaction.
        reserved = connection.execute(text(
            "SELECT series, year, number, principal_series, principal_year, "
            "principal_number FROM companion_numbers")).all()
    raw.dispose()
    by_series: dict[tuple[str, int], list[int]] = {}
    for row in rows:
        by_series.setdefault((row.series, row.year), []).append(row.number)
        assert hashlib.sha256(row.pdf).hexdigest() == row.sha256
    issued = {(row.series, row.year, row.number) for row in rows}
    taken = {key: set(numbers) for key, numbers in by_series.items()}
    for held in reserved:  # whole: its act was recorded with it, or neither was
        assert (held.principal_series, held.principal_year, held.principal_number) in issued
        taken.setdefault((held.series, held.year), set()).add(held.number)
    for key, numbers in by_series.items():
        assert len(set(numbers)) == len(numbers), key
    for key, numbers_taken in taken.items():
        assert sorted(numbers_taken) == list(range(1, len(numbers_taken) + 1)), key
        assert counters[key] == len(numbers_taken), key
    assert all(counters[key] == 0 for key in counters.keys() - taken.keys())
    records = {row.sha256: row for row in rows}
    assert len(records) == len(rows)

    # The output folder: whole documents only, each one a record's.
    # A process killed between writing its hidden temporary file and renaming it cannot
    # remove it: the next write in the folder does (lavra.cli.files.sweep_stale). Nothing
    # else may remain, and every such file must belong to a process that is gone.
    swept = {p.name for p in sweep_stale(out)}
    leftovers = [p.name for p in out.iterdir() if p.suffix not in {".pdf", ".docx"}]
    assert leftovers == [], f"arquivos parciais ou temporários restaram: {leftovers}"
    assert all(name.startswith(".") for name in swept), swept
    for stem, sha in tally.issued.items():
        assert hashlib.sha256((out / f"{stem}.pdf").read_bytes()).hexdigest() == sha
    for pdf in sorted(out.glob("*.pdf")):
        content = pdf.read_bytes()
        sha = hashlib.sha256(content).hexdigest()
        assert sha in records, f"{pdf.name} não corresponde a nenhum registro"
        assert pdf_problems(content) == [], pdf.name
        docx = pdf.with_suffix(".docx")
        if docx.exists():
            assert docx.read_bytes() == records[sha].docx, docx.name
    for docx in out.glob("*.docx"):
        assert docx.with_suffix(".pdf").exists(), docx.name  # the PDF is written first
    print(f"\nsoak {registry_url.split(':')[0]}: {len(rows)} registrados, "
          f"{len(tally.issued)} emissões completas, {tally.killed} kill -9, "
          f"{len(list(out.glob('*.pdf')))} PDFs na pasta, ~{typical:.1f} s por emissão")
