"""CPU per document of a warm batch worker, stage by stage, and what each stage asks of
the registry (not a test).

    python bench/bench_worker_stages.py [TITULARES] [escolar|fretamento]
        [--registro-licencas L] [--postgres URL] [--comparar L0] [--consultas]

Run from the repository root with ``PYTHONPATH=engine:.:tests:bench``. Seeds the holders
into a fresh registry (SQLite in a temporary folder, or a new database on the PostgreSQL
server of ``--postgres``), plans their renewal run (Typst), works the first 4 items
unmeasured (the compiler, keys and fonts loaded), then the rest in this process as a
worker does (:func:`lavra.batch.work.work_items`), adding up the CPU (not the wall: the
machines are shared) of each stage: claim the item, check it against the registry,
draw its QR code, compose it (data, Typst), sign it, record it. What the stages leave out
(the worker's loop, the transaction) is the rest. Before them, the plan (``planejar``:
decide and write it), after them the files and summaries (``arquivos``), per document of
the run. On PostgreSQL the claim is the item's
row lock and its transaction's commit (:func:`lavra.registry.runs.claim_and_record`).

Beside the CPU, per item and stage: the SQL statements sent, the rows read back, and on
SQLite the steps of its virtual machine (in thousands, counted by a progress handler):
counts that do not depend on the machine's load. A count that grows with the registry is
a read that grows (a scan), whatever the noise of the CPU figures. On PostgreSQL, the
CPU the server spends (``servidor``: its processes, when it runs on this machine) for
the plan, the worker and the files, per document: the CPU of this process leaves it out.

``--registro-licencas L``: the registry first holds L licences in force that the run does
not renew, the same as ``bench_batch.py`` (:func:`bench_batch.prepared`, its cache).
``--comparar L0``: the measure over L0 licences and over L, each in a process of its own,
side by side. ``--consultas``: also each statement (its first words) whose counts differ
between the two sizes, per item; without ``--comparar``, each statement of the worker's
stages with its counts per item.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import sqlalchemy.engine.cursor
from batchcases import REPO, issuer_over
from bench_batch import _database, _fretamento, _school, prepared
from sqlalchemy import event

import lavra.batch.work
import lavra.documents
import lavra.issuing
import lavra.registry.runs
import lavra.registry.store
import lavra.signing.pades
from lavra.batch.output import write_outputs
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.batch.work import build_item, work_items
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.issuing import Issuer
from lavra.registry.runs import claim_and_record, run_items

REST = "o resto"
STAGES: tuple[tuple[str, Any, str], ...] = (
    ("reivindicar", lavra.registry.runs, "_first_of_share"),
    ("verificar", lavra.issuing.Issuer, "prepare"),
    ("QR", lavra.issuing, "qr_png"),
    ("compor", lavra.documents.Engine, "render_final"),
    ("assinar", lavra.signing.pades.DocumentSigner, "sign"),
    ("registrar", lavra.registry.store.Registry, "record_reserved"),
)
PG_CLAIM: tuple[tuple[str, Any, str], ...] = (
    # PostgreSQL claims inside claim_and_record; the build and the recording are not it.
    ("reivindicar", lavra.registry.runs, "claim_and_record"),
    (REST, lavra.registry.runs, "_built"),
    (REST, lavra.registry.runs, "_recorded"),
)
COUNTS = ("consultas", "linhas", "passos")
IN_LIST = re.compile(r"\b(IN) \((?:[^()]|\([^()]*\))*\)")  # a list of values, any length
STEP = 100  # VM instructions between two calls of SQLite's progress handler


class Meter:
    """Exclusive CPU and registry counts per stage: the innermost stage entered is the one
    charged, until it returns."""

    def __init__(self, server: Callable[[], float] = lambda: 0.0) -> None:
        self.server = server
        self.stack: list[str] = [REST]
        self.cpu: dict[str, float] = defaultdict(float)
        self.counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COUNTS, 0))
        self.statements: dict[str, dict[str, int]] = defaultdict(
            lambda: dict.fromkeys(COUNTS, 0))
        self.current: str | None = None  # the statement whose rows are being read
        self.since = time.process_time()
        self.fetching = 0

    def _switch(self) -> None:
        now = time.process_time()
        self.cpu[self.stack[-1]] += now - self.since
        self.since = now

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self._switch()
            self.stack.append(name)
            try:
                return function(*args, **kwargs)
            finally:
                self._switch()
                self.stack.pop()
        return wrapper

    def measured(self, call: Callable[[], Any]) -> Measured:
        """Call ``call`` with every figure from zero; what it cost, stage by stage."""
        self.cpu.clear()
        self.counts.clear()
        self.statements.clear()
        self.stack[:] = [REST]
        server = self.server()
        self.since = time.process_time()
        value = call()
        self._switch()
        self.current = None
        return Measured(value, dict(self.cpu), {k: dict(v) for k, v in self.counts.items()},
                        {k: dict(v) for k, v in self.statements.items()},
                        self.server() - server)

    def add(self, what: str, amount: int = 1) -> None:
        self.counts[self.stack[-1]][what] += amount
        if self.current is not None:
            self.statements[self.current][what] += amount

    def sent(self, statement: str) -> None:
        words = IN_LIST.sub(r"\1 (…)", " ".join(statement.split()))
        self.current = f"{self.stack[-1]}: {words}"
        self.add("consultas")


@dataclass(frozen=True)
class Measured:
    """What one measured call cost: its CPU and counts per stage, per statement."""
    value: Any
    cpu: dict[str, float]
    counts: dict[str, dict[str, int]]
    statements: dict[str, dict[str, int]]
    server: float  # CPU seconds of the PostgreSQL server's processes (0 on SQLite)

    def per(self, documents: int, stage: str | None = None) -> dict[str, float]:
        """Per document: the CPU in ms and the counts of ``stage`` (all, if None)."""
        stages = list(self.cpu) if stage is None else [stage]
        counts = {k: sum(self.counts[name][k] for name in stages if name in self.counts)
                  for k in COUNTS}
        return {"cpu": 1000 * sum(self.cpu.get(name, 0.0) for name in stages) / documents,
                **_per(counts, documents)}


def _count_rows(meter: Meter) -> None:
    """Count the rows SQLAlchemy reads from the cursors (each fetch strategy's methods)."""
    for strategy in (sqlalchemy.engine.cursor.CursorFetchStrategy,
                     sqlalchemy.engine.cursor.BufferedRowCursorFetchStrategy,
                     sqlalchemy.engine.cursor.FullyBufferedCursorFetchStrategy):
        for name in ("fetchone", "fetchmany", "fetchall"):
            setattr(strategy, name, _counted(meter, strategy.__dict__[name], name == "fetchone"))


def _counted(meter: Meter, method: Callable[..., Any], one: bool) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        meter.fetching += 1
        try:
            found = method(*args, **kwargs)
        finally:
            meter.fetching -= 1
        if meter.fetching == 0:  # fetchmany(None) calls fetchall: count once
            meter.add("linhas", (found is not None) if one else len(found))
        return found
    return wrapper


def _listen(meter: Meter, issuer: Issuer) -> None:
    engine = issuer.registry.engine

    @event.listens_for(engine, "before_cursor_execute")
    def _sent(connection: Any, cursor: Any, statement: str, *_: Any) -> None:
        meter.sent(statement)

    if issuer.registry.dialect != "sqlite":
        return

    def _stepped() -> int:
        meter.add("passos", STEP)
        return 0

    engine.dispose()  # the connections opened from now on count their steps

    @event.listens_for(engine, "connect")
    def _connected(dbapi_connection: Any, _: Any) -> None:
        dbapi_connection.set_progress_handler(_stepped, STEP)


def _server_cpu(issuer: Issuer) -> Callable[[], float]:
    """The CPU seconds spent so far by a local PostgreSQL server (its postmaster's
    children: the backends, live and reaped): the server's share of the work, which the
    CPU of this process does not count. Zero when the server is not on this machine."""
    with issuer.registry.engine.connect() as connection:
        backend = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
    tick = os.sysconf("SC_CLK_TCK")

    def fields(pid: int | str) -> list[str]:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
        return text[text.rindex(")") + 2:].split()  # from the state on

    try:
        postmaster = int(fields(backend)[1])
    except OSError:
        return lambda: 0.0

    def spent() -> float:
        total = sum(int(x) for x in fields(postmaster)[13:15])  # its reaped children's
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    found = fields(entry.name)
                except OSError:  # ended meanwhile: counted by the postmaster
                    continue
                if found[1] == str(postmaster):
                    total += int(found[11]) + int(found[12])  # its own user, system
        return total / tick
    return spent


def measure(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="lavra-etapas-"))
    engine = Engine(Content(REPO), pool=None)
    engine.final_renderer = "typst"
    with _database(args.postgres, args.registro_licencas) as url:
        issuer = issuer_over(engine, folder / "dados", url)
        how = "nenhuma licença"
        if args.registro_licencas:
            issuer, how = prepared(issuer, args.registro_licencas, folder, url)
        issuer.config = replace(issuer.config, renderer="typst")
        request = (_fretamento if args.execucao == "fretamento" else _school)(
            issuer, args.titulares, folder, args.veiculos_por_empresa)
        kind = find_kind(issuer, request.kind)
        postgres = issuer.registry.dialect == "postgresql"
        meter = Meter(_server_cpu(issuer) if postgres else lambda: 0.0)
        _listen(meter, issuer)
        _count_rows(meter)
        plan = meter.measured(lambda: write_plan(issuer, kind, decide(issuer, kind, request),
                                                 None))
        run = plan.value
        for _ in range(4):
            claim_and_record(issuer.registry, run.id,
                             lambda item: build_item(issuer, item, on=run.reference_date),
                             worker="aquecimento")
        for name, owner, attribute in (*STAGES, *(PG_CLAIM if postgres else ())):
            setattr(owner, attribute, meter.wrap(name, getattr(owner, attribute)))
        if postgres:  # work_items imported it before it was wrapped
            lavra.batch.work.claim_and_record = lavra.registry.runs.claim_and_record
        work = meter.measured(lambda: work_items(issuer, run.id, worker="etapas",
                                                 on=run.reference_date))
        files = meter.measured(lambda: write_outputs(
            issuer.registry, engine, run_items(issuer.registry, run.id), folder / "saida",
            title=kind.title, subtitle=f"Execução nº {run.id}", merged=False))
        issuer.close()
    done, documents = max(work.value, 1), work.value + 4
    names = [name for name, _, _ in STAGES] + [REST]
    return {"documentos": work.value, "registro": how,
            "trabalhador": 1000 * sum(work.cpu.values()) / done,
            "etapas": {"planejar": plan.per(documents),
                       **{name: work.per(done, name) for name in names},
                       "arquivos": files.per(documents)},
            "consultas": {key: _per(value, done) for key, value in work.statements.items()}
            | {f"planejar: {key}": _per(value, documents)
               for key, value in plan.statements.items()}
            | {f"arquivos: {key}": _per(value, documents)
               for key, value in files.statements.items()},
            "servidor": {"planejar": 1000 * plan.server / documents,
                         "trabalhador": 1000 * work.server / done,
                         "arquivos": 1000 * files.server / documents},
            "carga": os.getloadavg()}


def _per(counts: dict[str, int], documents: int) -> dict[str, float]:
    """Counts per document, the steps in thousands."""
    return {k: counts[k] / documents / (1000 if k == "passos" else 1) for k in COUNTS}


def _line(name: str, figures: list[dict[str, float]], steps: bool) -> str:
    cells = []
    for f in figures:
        cell = f"{f['cpu']:6.1f} ms {f['consultas']:5.1f} {f['linhas']:6.1f}"
        cells.append(cell + (f" {f['passos']:7.1f}" if steps else ""))
    return f"  {name:<12}" + " | ".join(cells)


def report(sizes: list[int], results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    backend = "postgresql" if args.postgres else "sqlite"
    steps = backend == "sqlite"
    print(f"{args.execucao}, Typst, {args.titulares} titulares, {backend}; por documento: CPU, "
          "consultas SQL, linhas lidas" + (", milhares de passos da VM do SQLite" if steps
                                           else ""))
    print(" " * 14 + " | ".join(f"{n} licenças ({r['documentos']} docs)".ljust(
        31 if steps else 23) for n, r in zip(sizes, results, strict=True)))
    for name in results[0]["etapas"]:
        print(_line(name, [r["etapas"][name] for r in results], steps))
    print(f"  {'trabalhador':<12}" + " | ".join(f"{r['trabalhador']:6.1f} ms"
                                                 for r in results))
    if not steps:
        for name in ("planejar", "trabalhador", "arquivos"):
            print(f"  {'servidor':<12}" if name == "planejar" else " " * 14, end="")
            print(" | ".join(f"{r['servidor'][name]:6.1f} ms ({name})" for r in results))
    print("  carga (1, 5, 15 min): " + " | ".join(
        ", ".join(f"{x:.1f}" for x in r["carga"]) for r in results))
    if args.consultas and len(results) == 1:
        steps_k = COUNTS[:3 if steps else 2]
        print("consultas do trabalhador (por documento: " + ", ".join(steps_k) + "):")
        for key, value in sorted(results[0]["consultas"].items()):
            if not key.startswith(("planejar: ", "arquivos: ")):
                print("  " + " ".join(f"{value[k]:.2f}" for k in steps_k) + f"  {key[:160]}")
    if args.consultas and len(results) == 2:
        small, large = (r["consultas"] for r in results)
        zero = dict.fromkeys(COUNTS, 0.0)
        grown = [(key, small.get(key, zero), large.get(key, zero))
                 for key in sorted({*small, *large})
                 if any(abs(large.get(key, zero)[k] - small.get(key, zero)[k]) > 0.05
                        for k in COUNTS)]
        print(f"consultas que mudam de {sizes[0]} para {sizes[1]} licenças (por documento: "
              "consultas, linhas" + (", passos/1000" if steps else "") + "):")
        for key, a, b in grown:
            print("  " + " -> ".join(
                " ".join(f"{x[k]:.1f}" for k in COUNTS[:3 if steps else 2]) for x in (a, b))
                + f"  {key}")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("titulares", type=int, nargs="?", default=30)
    parser.add_argument("execucao", nargs="?", default="escolar",
                        choices=("escolar", "fretamento"))
    parser.add_argument("--registro-licencas", type=int, default=0, metavar="L")
    parser.add_argument("--postgres", nargs="?", const=os.environ.get(
        "LAVRA_TEST_POSTGRES_URL"), default=None, metavar="URL")
    parser.add_argument("--comparar", type=int, default=None, metavar="L0")
    parser.add_argument("--consultas", action="store_true")
    parser.add_argument("--veiculos-por-empresa", type=int, default=1, metavar="K",
                        help="fretamento: alvarás (veículos) de cada empresa titular")
    parser.add_argument("--json", type=Path, default=None, help=argparse.SUPPRESS)
    return parser.parse_args()


def main() -> None:
    args = _arguments()
    if args.comparar is None:
        result = measure(args)
        if args.json is not None:
            args.json.write_text(json.dumps(result), encoding="utf-8")
        else:
            report([args.registro_licencas], [result], args)
        return
    sizes, results = [args.comparar, args.registro_licencas], []
    for licences in sizes:  # each in a process of its own: the wrappers, a fresh Typst
        out = Path(tempfile.mkstemp(suffix=".json")[1])
        command = [sys.executable, __file__, str(args.titulares), args.execucao,
                   "--registro-licencas", str(licences), "--json", str(out),
                   "--veiculos-por-empresa", str(args.veiculos_por_empresa),
                   *(["--postgres", args.postgres] if args.postgres else [])]
        if subprocess.run(command, check=False).returncode:
            raise SystemExit(f"a medição com {licences} licenças falhou")
        results.append(json.loads(out.read_text(encoding="utf-8")))
        out.unlink()
    report(sizes, results, args)


if __name__ == "__main__":
    main()
