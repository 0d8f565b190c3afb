"""Throughput, CPU and memory of the batch renewal runs (not a test).

    python bench/bench_batch.py 100 [TRABALHADORES] [escolar|fretamento] [weasyprint|typst]
        [--registro-licencas 10000] [--postgres URL] [--comparar 100 [--repeticoes 2]]

Seeds N alvarás (school transport of 2025, or fretamento of 10/01/2021) into a fresh
registry (not timed), writes a complete renewal request for each, then times
``lavra batch renovacao-transporte-escolar --ano 2026`` (an alvará and its selo per
holder) or ``lavra batch renovacao-fretamento --vencendo-ate 2026-01-31`` (an alvará
per holder) end to end, stage by stage as :func:`lavra.batch.runner.run_batch` does
them: the plan, the workers (render, sign, record), the files and summaries.

``--registro-licencas L`` first fills the registry with L licences in force that the
run does not renew (fretamento and school alvarás valid until 2029, each with its own
plate, RENAVAM and, for the school ones, titular), through the registry's import
(:mod:`lavra.registry.importing`, one transaction; not timed): the registry's size is
what the figures are compared across.

The registry of L licences is prepared once and kept (``$LAVRA_BENCH_CACHE``, default
``~/.cache/lavra-bench``; on PostgreSQL, a database on the server used as the template
of each run's), keyed by L, the migrations and this file: the import costs about 20 ms of
CPU per licence (3.5 min for 10,000; on PostgreSQL 10 ms in this process, the server aside,
3.7 min of wall time for 10,000 on a loaded machine), the copy a second.

``--comparar L0``: the flatness figure. Runs the measure over L0 licences and over L,
``--repeticoes`` times each, each in a process of its own, and prints the CPU per
document at each size and their ratio (the target of the issue: within 10 %).

``--postgres URL``: the registry is a fresh database created on that server (a URL
where databases may be created, as ``$LAVRA_TEST_POSTGRES_URL``; dropped at the end);
default SQLite in a temporary folder. ``python bench/pgserver.py start`` starts a server
for it with the installed binaries and prints its URL (its cluster, and the prepared
registries kept on it, stay in ``/var/tmp/lavra-bench-pg`` after ``pgserver.py stop``).

The plan is made as ``lavra batch`` makes it (:func:`lavra.batch.runner.planned`: in a
forked child, so that the workers forked after it do not inherit the memory it took).

Printed: for each stage the CPU seconds (this process, and for the workers and the plan's
child their own, read from ``RUSAGE_CHILDREN``) and the wall seconds beside; CPU per signed
document (the target of the issue), documents per second, and the memory of the
worker processes: the largest Rss, Pss and USS any of them reached, read every half second
from ``/proc/PID/smaps_rollup`` by a process of its own, and this process's at the fork.
A forked worker's Rss counts every page it shares with this process (the pack, and
whatever this process held at the fork); its Pss counts a shared page divided among the
processes sharing it (the workers' Pss and this process's add up to the memory used); its
USS, the pages only it holds. The peak of ``RUSAGE_CHILDREN`` beside is a ceiling, not
a worker's: it counts the seeding process too. The machines are shared: compare CPU, and
read the wall time beside the load printed at the end. The registry is filled and the
holders seeded in a process of their own (seeding renders with Typst, whose native
threads would keep the workers from being forked from this process, as ``lavra batch``
forks them: :mod:`lavra.batch.work`). Run from the repository root with
``PYTHONPATH=engine:.:tests``. The figures measured are in the README (section on
performance).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import inspect
import multiprocessing
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from queue import Empty
from typing import Any

from batchcases import (
    FRET_RUN_DAY,
    FRET_UNTIL,
    REPO,
    RUN_DAY,
    YEAR,
    envelope,
    fret_company_of,
    fret_envelope,
    fret_seed,
    issuer_over,
    seed,
    write_jsonl,
)
from identities import cnh_for, cpf_for, renavam_for
from pgdatabase import new_database
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from lavra.batch.inputs import read_lines
from lavra.batch.model import RunRequest
from lavra.batch.output import write_outputs
from lavra.batch.runner import find_kind, planned
from lavra.batch.work import WorkerSetup, run_workers, warm_for_fork
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.errors import ImportRefusedError
from lavra.issuing import Issuer, registry_url
from lavra.registry.importing import plan_import
from lavra.registry.runs import finish_run, run_items

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Stage:
    name: str
    wall: float
    cpu: float  # this process
    workers_cpu: float  # the worker processes started during the stage


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@contextmanager
def _timed(stages: list[Stage], name: str) -> Iterator[None]:
    wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    yield
    stages.append(Stage(name, time.perf_counter() - wall, time.process_time() - cpu,
                        _children_cpu() - children))


def _memory(pid: int) -> dict[str, int]:
    """Rss, Pss and the private pages (USS) of process ``pid`` in KiB (Linux)."""
    found: dict[str, int] = {}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            name, _, rest = line.partition(":")
            if name in ("Rss", "Pss", "Private_Clean", "Private_Dirty"):
                found[name] = int(rest.split()[0])
    if found:
        found["Uss"] = found.pop("Private_Clean", 0) + found.pop("Private_Dirty", 0)
    return found


def _sample_workers(parent: int, stop: Any, working: Any, answer: Any) -> None:
    """In a process of its own (spawned before the plan, so that this one still forks
    its workers, and its reading costs the measured stages nothing): every half second
    until ``stop`` is set, once ``working`` is (the plan's child is gone), the Rss, Pss
    and USS of each other child of ``parent`` (the workers); their largest values put
    on ``answer``."""
    peaks: dict[str, int] = {}
    children = Path(f"/proc/{parent}/task/{parent}/children")
    while not stop.wait(0.5):
        with contextlib.suppress(OSError):
            if not working.is_set():
                continue
            for pid in children.read_text().split():
                if int(pid) != os.getpid():
                    for name, value in _memory(int(pid)).items():
                        peaks[name] = max(peaks.get(name, 0), value)
    answer.put(peaks)


def _plate(n: int) -> str:
    """A Mercosul plate of its own for each n (none of the run's own plates)."""
    return (f"Z{LETTERS[(n // 10_000) % 26]}{LETTERS[(n // 1000) % 10]}{(n // 100) % 10}"
            f"{LETTERS[(n // 10) % 10]}{n % 10}0")


def _import_rows(count: int) -> Iterator[dict[str, str]]:
    """``count`` alvarás in force until 2029, half fretamento (a few companies), half
    school transport (a titular each: escolar art. 14), none due in the run."""
    companies = ("65.563.842/0001-05", "49.234.427/0416-80")
    renavams: set[str] = set()
    for n in range(count):
        placa = _plate(n)
        renavam = renavam_for(placa)  # a hash: left blank (optional) the rare time it repeats
        row = {"numero": f"{n + 1:04d}/2019", "data": "2019-06-01",
               "processo": f"PA {n + 1}/2019", "placa": placa,
               "renavam": "" if renavam in renavams else renavam, "valido_ate": "2029-05-31"}
        renavams.add(renavam)
        if n % 2:
            cpf = cpf_for(f"bench {n}")
            row.update(tipo="alvara-escolar", cpf_cnpj=cpf, cnh=cnh_for(cpf),
                       nome=f"Titular Cadastro {n:05d}",
                       inicio_vigencia="2019-06-01", valido_ate="2029-12-31")
        else:
            row.update(tipo="alvara-fretamento", cpf_cnpj=companies[n % 4 // 2],
                       nome="Viação Cadastro Exemplo Ltda.")
        yield row


def prefill(issuer: Issuer, count: int, folder: Path) -> None:
    """Import ``count`` licences in force (see :func:`_import_rows`) in one transaction."""
    rows = list(_import_rows(count))
    path = folder / "cadastro.csv"
    columns = sorted({key for row in rows for key in row}, key=lambda k: (k != "tipo", k))
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, columns)
        writer.writeheader()
        writer.writerows(rows)
    pack = issuer.engine.content.pack
    issuer.registry.ensure_state()
    try:
        report = issuer.registry.import_acts(
            plan_import(read_lines(path, "/arquivo"), pack.imports, path.name),
            pack_version=pack.name, on=date(2019, 12, 31))
    except ImportRefusedError as refused:
        raise SystemExit("\n".join([refused.message, *refused.problems])) from None
    assert len(report.imported) == count, report


CACHE = Path(os.environ.get("LAVRA_BENCH_CACHE",
                           Path.home() / ".cache" / "lavra-bench"))
"""Where a prepared registry of L licences is kept between runs (``$LAVRA_BENCH_CACHE``)."""


def _cache_key(count: int) -> str:
    """The prepared registry's name: its size, the schema (the migrations' files) and the
    rows this file imports (the source of the functions that make them), so that a change
    to either prepares anew, and a change to the rest of this file does not."""
    migrations = REPO / "engine" / "lavra" / "registry" / "migrations" / "versions"
    digest = hashlib.sha256()
    for path in sorted(migrations.glob("*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    for rows in (_plate, _import_rows, prefill):  # the rows imported, not the rest of this file
        digest.update(inspect.getsource(rows).encode())
    return f"registro_{count}_{digest.hexdigest()[:10]}"


def _server_database(url: str, name: str, *, template: str | None = None) -> bool:
    """Whether the server of ``url`` holds database ``name``; with ``template``, create
    ``name`` as a copy of it first (no connection to ``template`` may be open)."""
    admin = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            if template is not None:
                connection.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
            return connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"),
                                      {"n": name}).first() is not None
    finally:
        admin.dispose()


def prepared(issuer: Issuer, count: int, folder: Path, url: str | None) -> tuple[Issuer, str]:
    """The registry filled with ``count`` licences: copied from the cache where an earlier
    run prepared it (SQLite: the data folder; PostgreSQL: a database on the same server,
    used as the template), else imported (:func:`prefill`) and then kept in the cache.
    Returns the issuer (reopened after a copy) and how it was prepared."""
    key = _cache_key(count)
    data = folder / "dados"
    if url is None:
        cached = CACHE / key
        if cached.is_dir():
            issuer.close()
            shutil.rmtree(data)
            shutil.copytree(cached, data)
            return issuer_over(issuer.engine, data, url), f"copiado de {cached}"
        prefill(issuer, count, folder)
        issuer.close()
        CACHE.mkdir(parents=True, exist_ok=True)
        staging = CACHE / f".{key}.{os.getpid()}"
        shutil.copytree(data, staging)
        staging.rename(cached)
        return issuer_over(issuer.engine, data, url), "importado (guardado para a próxima)"
    if _server_database(url, key):
        return issuer, "já copiado do modelo no servidor"
    prefill(issuer, count, folder)
    issuer.close()
    _server_database(url, key, template=make_url(url).database)
    return issuer_over(issuer.engine, data, url), "importado (guardado no servidor)"


def _school(issuer: Issuer, count: int, folder: Path, per_company: int = 1) -> RunRequest:
    """``count`` school alvarás due in the run, each its own titular (one licence per
    person: escolar art. 14, so ``per_company`` does not apply), and their requests."""
    del per_company
    numbers = seed(issuer, count)
    pedidos = write_jsonl(folder / "pedidos.jsonl",
                          [envelope(n, number) for n, number in enumerate(numbers)])
    return RunRequest("renovacao-transporte-escolar", {"ano": YEAR},
                      date.fromisoformat(RUN_DAY), None, pedidos)


def _fretamento(issuer: Issuer, count: int, folder: Path, per_company: int = 1) -> RunRequest:
    """``count`` fretamento alvarás due in the run, ``per_company`` vehicles to each
    company (1: each alvará its own holder, as the issue's "1,000 holders"), and a
    complete renewal request for each."""
    numbers = fret_seed(issuer, count, per_company=per_company)
    pedidos = write_jsonl(folder / "pedidos.jsonl", [
        fret_envelope(n, number, company=fret_company_of(n, per_company))
        for n, number in enumerate(numbers)])
    return RunRequest("renovacao-fretamento", {"vencendo_ate": FRET_UNTIL},
                      date.fromisoformat(FRET_RUN_DAY), None, pedidos)


@contextmanager
def _database(server: str | None, licences: int) -> Iterator[str | None]:
    """A fresh PostgreSQL database on ``server`` (dropped after), or None (SQLite); a
    copy of the prepared registry of ``licences`` licences where the server keeps one."""
    if server is None:
        yield None
        return
    template = _cache_key(licences) if licences else None
    kept = template is not None and _server_database(server, template)
    with new_database(server, template if kept else None, prefix="lavra_bench") as url:
        yield url


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("titulares", type=int, nargs="?", default=20)
    parser.add_argument("trabalhadores", type=int, nargs="?", default=2)
    parser.add_argument("execucao", nargs="?", default="escolar",
                        choices=("escolar", "fretamento"))
    parser.add_argument("renderizador", nargs="?", default="weasyprint",
                        choices=("weasyprint", "typst"))
    parser.add_argument("--registro-licencas", type=int, default=0, metavar="L")
    parser.add_argument("--postgres", nargs="?", const=os.environ.get(
        "LAVRA_TEST_POSTGRES_URL"), default=None, metavar="URL")
    parser.add_argument("--comparar", type=int, default=None, metavar="L0",
                        help="mede também com L0 licenças no registro e imprime a razão")
    parser.add_argument("--repeticoes", type=int, default=2, metavar="R")
    parser.add_argument("--veiculos-por-empresa", type=int, default=1, metavar="K",
                        help="fretamento: alvarás (veículos) de cada empresa titular")
    return parser.parse_args()


TOTAL = re.compile(r"^total: CPU ([0-9.]+) ms/doc", re.MULTILINE)


def compare(args: argparse.Namespace) -> None:
    """The flatness figure of the issue: the same run over a registry of L0 licences and
    of L, R times each, each in a process of its own (so that each forks its workers as
    ``lavra batch`` does); prints each run and then CPU per document at L0 and at L (the
    median of the R runs) and their ratio (target: within 10 %)."""
    figures: dict[int, list[float]] = {args.comparar: [], args.registro_licencas: []}
    for turn in range(args.repeticoes):
        for licences in figures:
            command = [sys.executable, __file__, str(args.titulares), str(args.trabalhadores),
                       args.execucao, args.renderizador, "--registro-licencas", str(licences),
                       "--veiculos-por-empresa", str(args.veiculos_por_empresa),
                       *(["--postgres", args.postgres] if args.postgres else [])]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            print(f"--- {licences} licenças, vez {turn + 1}\n{done.stdout}{done.stderr}",
                  flush=True)
            found = TOTAL.search(done.stdout)
            if done.returncode or found is None:
                raise SystemExit(f"a medição com {licences} licenças falhou")
            figures[licences].append(float(found.group(1)))
    small, large = (statistics.median(figures[n]) for n in figures)
    print(f"planura ({'postgresql' if args.postgres else 'sqlite'}, {args.titulares} "
          f"titulares, {args.execucao}, {args.renderizador}): CPU por documento com "
          + "; ".join(f"{n} licenças {statistics.median(v):.1f} ms "
                      f"({', '.join(f'{x:.1f}' for x in v)})" for n, v in figures.items())
          + f"; razão {large / small:.3f} (meta: até 1,10)")


def _prepare(args: argparse.Namespace, folder: Path, url: str | None,
             queue: Any) -> None:
    """In a process of its own (spawned): fill the registry and seed the run's holders.
    Seeding renders with Typst, whose native threads would forbid forking the workers
    from the timed process; the command's own process renders nothing before them."""
    engine = Engine(Content(REPO), pool=None)
    engine.final_renderer = args.renderizador
    issuer = issuer_over(engine, folder / "dados", url)
    started, cpu = time.perf_counter(), time.process_time()
    how = "nenhuma licença"
    if args.registro_licencas:
        issuer, how = prepared(issuer, args.registro_licencas, folder, url)
    imported = (f"{how}: {time.perf_counter() - started:.1f} s de parede, "
                f"{time.process_time() - cpu:.1f} s de CPU")
    started = time.perf_counter()
    request = (_fretamento if args.execucao == "fretamento" else _school)(
        issuer, args.titulares, folder, args.veiculos_por_empresa)
    issuer.close()
    queue.put((request, imported, time.perf_counter() - started))


def main() -> None:
    args = _arguments()
    if args.comparar is not None:
        compare(args)
        return
    folder = Path(tempfile.mkdtemp(prefix="lavra-bench-lote-"))
    engine = Engine(Content(REPO), pool=None)
    with _database(args.postgres, args.registro_licencas) as url:
        context = multiprocessing.get_context("spawn")
        queue = context.Queue()
        preparing = context.Process(target=_prepare, args=(args, folder, url, queue))
        preparing.start()
        while True:  # a seeding process that dies would leave get() waiting for good
            try:
                request, imported, seeding = queue.get(timeout=5)
                break
            except Empty:
                if not preparing.is_alive():
                    raise SystemExit(f"a preparação do registro falhou (código "
                                     f"{preparing.exitcode})") from None
        preparing.join()
        stop, working, answer = context.Event(), context.Event(), context.Queue()
        sampling = context.Process(target=_sample_workers,
                                   args=(os.getpid(), stop, working, answer))
        sampling.start()
        issuer = issuer_over(engine, folder / "dados", url)
        issuer.config = replace(issuer.config, renderer=args.renderizador)  # for the workers
        engine.final_renderer = args.renderizador
        kind = find_kind(issuer, request.kind)
        stages: list[Stage] = []
        with _timed(stages, "plano"):
            run, _ = planned(issuer, kind, request, None)  # in a child, as lavra batch does
        at_fork = _memory(os.getpid())
        working.set()
        with _timed(stages, "trabalhadores"):
            setup = WorkerSetup(issuer.config, registry_url(issuer.config), run.id,
                                on=run.reference_date)
            run_workers(setup, issuer.registry, args.trabalhadores,
                        content=engine.content, warm=lambda: warm_for_fork(issuer, kind.forms))
        with _timed(stages, "arquivos e resumos"):
            items = run_items(issuer.registry, run.id)
            rows = write_outputs(issuer.registry, engine, items, folder / "saida",
                                 title=kind.title, subtitle=f"Execução nº {run.id}",
                                 merged=False)
            finish_run(issuer.registry, run.id)
        issuer.close()
        stop.set()  # its CPU, counted once it is joined, is after the stages' figures
        peaks = answer.get(timeout=30)
        sampling.join()
    documents = sum(1 for item in items if item.role == "documento" and item.done)
    pending = sum(1 for item in items if not item.done)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    backend = "postgresql" if args.postgres else "sqlite"
    print(f"execução: {request.kind}  titulares: {args.titulares}  licenças já no registro: "
          f"{args.registro_licencas}  banco: {backend}  trabalhadores: {args.trabalhadores}  "
          f"gerador: {args.renderizador}")
    print(f"preparação (não medida): registro {imported}; semente {seeding:.1f} s")
    print(f"documentos assinados: {documents}  itens pendentes: {pending}  "
          f"linhas do resumo: {len(rows)}")
    total_wall = total_cpu = 0.0
    for stage in stages:
        cpu = stage.cpu + stage.workers_cpu
        total_wall += stage.wall
        total_cpu += cpu
        print(f"  {stage.name:<20} CPU {1000 * cpu / max(documents, 1):7.1f} ms/doc "
              f"(processo {stage.cpu:6.2f} s, trabalhadores {stage.workers_cpu:6.2f} s)  "
              f"parede {stage.wall:6.2f} s")
    print(f"total: CPU {1000 * total_cpu / max(documents, 1):.1f} ms/doc  parede "
          f"{total_wall:.1f} s  documentos assinados/s: {documents / total_wall:.2f}")
    print("pico de memória por trabalhador (MiB, lido a cada 0,5 s): " + ", ".join(
        f"{k} {v / 1024:.0f}" for k, v in sorted(peaks.items()))
          + "; deste processo ao criá-los: " + ", ".join(
        f"{k} {v / 1024:.0f}" for k, v in sorted(at_fork.items()))
          + f"; RUSAGE_CHILDREN (teto: conta a preparação): {peak:.0f}")
    print("carga da máquina (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
