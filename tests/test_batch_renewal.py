"""The annual renewal run of the school-transport alvarás (``lavra batch
renovacao-transporte-escolar``): plan, parallel work, record, files; the dry run; bad
records; a run killed midway (SIGKILL) and run again, on SQLite and on PostgreSQL; two
processes side by side on one planned run (PostgreSQL).

Holders are the pack's examples one year back (``batchcases``): alvarás of 2025,
renewed for 2026 by a run dated 10/12/2025, so that no test depends on today.
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from batchcases import REPO, RUN_DAY, YEAR, cpf, envelope, seed, write_jsonl
from formcases import pdf_text
from issuers import VERIFICATION_URL, dev_issuer
from pypdf import PdfReader
from sqlalchemy import create_engine, text

from lavra.batch.model import RunRequest
from lavra.batch.output import CSV_NAME, MERGED_NAME, PDF_NAME
from lavra.batch.runner import Summary, find_kind, run_batch
from lavra.checking.content import Content
from lavra.config import Config
from lavra.documents import Engine
from lavra.issuing import Issuer, ensure_dev_pki, registry_url
from lavra.registry.runs import open_run, run_counts, run_items
from lavra.registry.store import open_registry

KIND = "renovacao-transporte-escolar"
HOLDERS = 8


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


@pytest.fixture(scope="module")
def seeded(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A data folder (SQLite registry, development PKI) with HOLDERS alvarás of 2025."""
    data = tmp_path_factory.mktemp("semente") / "dados"
    issuer = dev_issuer(engine, data)
    numbers = seed(issuer, HOLDERS)
    issuer.close()
    return data, numbers


def _copy(seeded: tuple[Path, list[str]], tmp_path: Path) -> Path:
    data = tmp_path / "dados"
    shutil.copytree(seeded[0], data)
    return data


def _issuer(engine: Engine, data: Path, url: str | None = None) -> Issuer:
    config = Config(pack_dir=REPO, data_dir=data, verification_url=VERIFICATION_URL,
                    database_url=url)
    ensure_dev_pki(config, engine.content)
    return Issuer(engine, open_registry(registry_url(config)), config)


def _requests(tmp_path: Path, numbers: list[str]) -> Path:
    """Holders 0–3 complete; 4 and 5 incomplete; the others without a request."""
    rows = [envelope(n, numbers[n]) for n in range(4)]
    rows.append(envelope(4, numbers[4], missing=("antecedentes_criminais",)))
    rows.append(envelope(5, numbers[5], missing=("laudo_medico", "crlv")))
    return write_jsonl(tmp_path / "pedidos.jsonl", rows)


def _run(issuer: Issuer, request: RunRequest, folder: Path, **kwargs: Any) -> Summary:
    return run_batch(issuer, find_kind(issuer, KIND), request, folder,
                     database_url=registry_url(issuer.config), **kwargs)


def _request(pedidos: Path | None, entrada: Path | None = None) -> RunRequest:
    return RunRequest(KIND, {"ano": YEAR}, date.fromisoformat(RUN_DAY), entrada, pedidos)


def _numbers(url: str, series: str) -> list[int]:
    raw = create_engine(url)
    with raw.connect() as connection:
        found = connection.execute(
            text("SELECT number FROM documents WHERE series = :s ORDER BY number"),
            {"s": series},
        ).scalars().all()
    raw.dispose()
    return list(found)


def _assert_each_holder_once(issuer: Issuer, numbers: list[str], folder: Path) -> None:
    """Every holder exactly once, numbers gapless and in input order (alvarás and their
    selos each in its own series), each renewed alvará with one selo, files whole."""
    run = open_run(issuer.registry, f"{KIND}:{YEAR}")
    assert run is None  # finished
    url = registry_url(issuer.config)
    alvaras = _numbers(url, "ALV-ESC")
    assert alvaras == list(range(1, HOLDERS + 5))  # the seeds, then the 4 renewals
    assert _numbers(url, "SELO-ESC") == [1, 2, 3, 4]  # one selo per renewal, gapless
    assert _numbers(url, "NOT-REN-ESC") == list(range(1, HOLDERS - 4 + 1))
    renewed = [r for r in issuer.registry.active_licences("alvara-transporte-escolar",
                                                          date(YEAR, 6, 1))]
    previous = [r.data["alvara_anterior"]["numero"] for r in renewed]
    assert previous == numbers[:4]  # input order: ALV-ESC 0009.. renew 0001..0004
    year = numbers[0][-4:]
    for n, alvara in enumerate(renewed, 1):  # selo nº n goes with the n-th renewal
        selo = issuer.registry.by_number(f"{n:04d}/{year}", series="SELO-ESC")
        assert selo is not None and not selo.cancelled
        assert selo.data["alvara"]["numero"] == alvara.printed.replace(" nº ", " ")
        assert alvara.data["selo_identificacao"] == selo.printed.replace(" nº ", " ")
        assert selo.data["veiculo"]["placa"] == alvara.data["veiculo"]["placa"]
        assert selo.valid_until == alvara.valid_until == date(YEAR, 12, 31)
    with open(folder / CSV_NAME, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    documents = [r for r in rows if r["papel"] == "documento"]
    assert list(dict.fromkeys(r["titular"] for r in documents)) == [
        cpf(n).replace(".", "").replace("-", "") for n in range(HOLDERS)]
    assert [r["formulario"] for r in documents[:2]] == [
        "alvara-transporte-escolar", "selo-identificacao"]  # the selo after its alvará
    assert all(r["situacao"] == "concluído" for r in rows)
    for row in rows:
        path = folder / row["arquivo"]
        assert path.is_file()
        assert len(PdfReader(path).pages) >= 1
    selos = [r for r in documents if r["formulario"] == "selo-identificacao"]
    assert len(selos) == 4
    first = pdf_text((folder / selos[0]["arquivo"]).read_bytes())
    assert f"Alvará nº {renewed[0].printed.replace(' nº ', ' ')}" in first
    assert "SELO-ESC nº 0001/" in first
    assert not list(folder.glob(".*.tmp"))


def test_run_over_the_registry_renews_notifies_and_resumes_nothing_twice(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    issuer = _issuer(engine, _copy(seeded, tmp_path))
    folder = tmp_path / "saida"
    summary = _run(issuer, _request(_requests(tmp_path, numbers)), folder, workers=2,
                   merged=True)
    assert summary.complete
    tally = summary.counts
    assert (tally["renovado"], tally["notificado"], tally["titulares"]) == (4, 4, HOLDERS)
    assert tally["anexos"] == 4  # a prefilled requerimento right after each notice
    _assert_each_holder_once(issuer, numbers, folder)
    rows = [r for r in summary.rows if r.outcome == "notificado"]
    assert [r.role for r in rows[:2]] == ["documento", "anexo"]
    notice = next(r for r in summary.rows if r.form == "notificacao-pendencias-renovacao")
    record = issuer.registry.by_number(notice.number.split("nº ")[1], series="NOT-REN-ESC")
    assert record is not None
    missing = [p["documento"] for p in record.data["pendencias"]]
    assert missing == ["Atestado comprobatório de que não registra antecedentes criminais"]
    assert record.computed["prazo_final"] == "2025-12-31"  # last business day of 2025
    merged = PdfReader(folder / MERGED_NAME)
    assert len(merged.pages) == sum(
        len(PdfReader(folder / r.file).pages) for r in summary.rows if r.file)
    assert (folder / PDF_NAME).is_file()
    # Again: the run is done and every holder renewed or notified; nothing issued twice.
    again = _run(issuer, _request(_requests(tmp_path, numbers)), tmp_path / "outra",
                 workers=1)
    assert again.counts.get("renovado", 0) == 0
    assert _numbers(registry_url(issuer.config), "ALV-ESC") == list(range(1, HOLDERS + 5))
    issuer.close()


def test_simulation_numbers_and_writes_nothing(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    issuer = _issuer(engine, _copy(seeded, tmp_path))
    url = registry_url(issuer.config)
    folder = tmp_path / "saida"
    summary = _run(issuer, _request(_requests(tmp_path, seeded[1])), folder, simulate=True)
    assert summary.simulated and summary.run is None
    assert (summary.counts["renovado"], summary.counts["notificado"]) == (4, 4)
    year = int(seeded[1][0][-4:])  # the series year the seeds were numbered in
    foreseen = [r.number for r in summary.rows if r.form == "alvara-transporte-escolar"]
    assert foreseen == [f"ALV-ESC nº {n:04d}/{year}" for n in range(HOLDERS + 1, HOLDERS + 5)]
    selos = [r.number for r in summary.rows if r.form == "selo-identificacao"]
    assert selos == [f"SELO-ESC nº {n:04d}/{year}" for n in range(1, 5)]
    assert not folder.exists()
    assert _numbers(url, "ALV-ESC") == list(range(1, HOLDERS + 1))
    assert issuer.registry.next_number("NOT-REN-ESC", year) == 1
    raw = create_engine(url)
    with raw.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM batch_runs")).scalar() == 0
    raw.dispose()
    issuer.close()


def test_bad_records_are_refused_with_a_reason_and_the_others_go_on(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    issuer = _issuer(engine, _copy(seeded, tmp_path))
    entrada = tmp_path / "entrada.csv"
    entrada.write_text(
        "alvara,cpf,nome\n"
        f"{numbers[0]},{cpf(0)},Titular 0\n"
        f"{numbers[1]},123.456.789-00,CPF inválido\n"
        f"ALV-ESC nº 0999/2026,{cpf(2)},Alvará desconhecido\n"
        f"{numbers[0]},{cpf(0)},Repetido\n"
        f"{numbers[3]},{cpf(3)},Titular 3\n",
        encoding="utf-8",
    )
    summary = _run(issuer, _request(_requests(tmp_path, numbers), entrada),
                   tmp_path / "saida", workers=1)
    reasons = [r.reason for r in summary.rows if r.outcome == "recusado"]
    assert len(reasons) == 3
    assert reasons[0].startswith("CPF inválido")
    assert "não consta do registro" in reasons[1]
    assert "mais de uma vez" in reasons[2]
    assert summary.counts["renovado"] == 2
    assert [r.form for r in summary.rows if r.outcome == "renovado"] == [
        "alvara-transporte-escolar", "selo-identificacao"] * 2
    assert summary.complete
    issuer.close()


def test_the_sample_entrada_file_reads() -> None:
    from lavra_americana.transporte_escolar.renovacao_lote import Wanted, read_entrada

    rows = read_entrada(REPO / "tests" / "data" / "renovacao-escolar-entrada.csv")
    assert rows == [Wanted(2, "ALV-ESC 0001/2026", "529.982.247-25", "José Exemplo dos Santos")]


# ------------------------------------------------------------------ kill and rerun
def _command(data: Path, url: str, pedidos: Path, folder: Path, workers: int) -> list[str]:
    return [sys.executable, "-c", "from lavra.cli.main import main; main()", "batch", KIND,
            "--ano", str(YEAR), "--data", RUN_DAY, "--pedidos", str(pedidos), "-o",
            str(folder), "--registro", url, "--trabalhadores", str(workers)]


def _env(data: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(LAVRA_DATA=str(data), LAVRA_PACK=str(REPO),
               PYTHONPATH=os.pathsep.join([str(REPO / "engine"), str(REPO)]))
    return env


def _seeded_url(engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path,
                registry_url_: str) -> tuple[Path, str, list[str]]:
    data = _copy(seeded, tmp_path)
    if registry_url_.startswith("sqlite"):
        return data, registry_url(Config(pack_dir=REPO, data_dir=data)), seeded[1]
    issuer = _issuer(engine, data, registry_url_)
    numbers = seed(issuer, HOLDERS)
    issuer.close()
    return data, registry_url_, numbers


def test_a_run_killed_midway_finishes_when_run_again(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path, registry_url: str
) -> None:
    data, url, numbers = _seeded_url(engine, seeded, tmp_path, registry_url)
    pedidos, folder = _requests(tmp_path, numbers), tmp_path / "saida"
    process = subprocess.Popen(_command(data, url, pedidos, folder, 2), env=_env(data),
                               start_new_session=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    registry = open_registry(url)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        run = open_run(registry, f"{KIND}:{YEAR}")
        if run is not None and run_counts(registry, run.id)[0] >= 3:
            break
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)  # the command and its workers, as kill -9
    process.wait(60)
    run = open_run(registry, f"{KIND}:{YEAR}")
    assert run is not None
    done, total = run_counts(registry, run.id)
    assert 3 <= done < total
    again = subprocess.run(_command(data, url, pedidos, folder, 2), env=_env(data),
                           capture_output=True, text=True, timeout=400)
    assert again.returncode == 0, again.stderr
    assert "retomada" in again.stdout
    config = Config(pack_dir=REPO, data_dir=data, database_url=url,
                    verification_url=VERIFICATION_URL)
    issuer = Issuer(engine, registry, config)
    _assert_each_holder_once(issuer, numbers, folder)
    items = run_items(registry, run.id)
    assert all(item.done for item in items)
    registry.close()


def test_two_processes_side_by_side_share_one_planned_run(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path, postgres_url: str
) -> None:
    data, url, numbers = _seeded_url(engine, seeded, tmp_path, postgres_url)
    pedidos = _requests(tmp_path, numbers)
    issuer = _issuer(engine, data, url)
    kind = find_kind(issuer, KIND)
    from lavra.batch.planning import decide, write_plan

    run = write_plan(issuer, kind, decide(issuer, kind, _request(pedidos)), None)
    processes = [
        subprocess.Popen(_command(data, url, pedidos, tmp_path / f"saida{n}", 1),
                         env=_env(data), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
        for n in range(2)
    ]
    outputs = [process.communicate(timeout=400) for process in processes]
    assert [p.returncode for p in processes] == [0, 0], outputs
    items = run_items(issuer.registry, run.id)
    assert all(item.done for item in items)
    _assert_each_holder_once(issuer, numbers, tmp_path / "saida0")
    raw = create_engine(url)
    with raw.connect() as connection:
        workers = connection.execute(text(
            "SELECT DISTINCT substr(detail, strpos(detail, 'processo'), 20) FROM events "
            "WHERE detail LIKE '%execução em lote%'")).scalars().all()
    raw.dispose()
    assert len(workers) == 2  # both processes recorded items of the same run
    issuer.close()


def test_a_holders_later_document_waits_for_the_earlier_one(tmp_path: Path) -> None:
    """The selo is built only once its alvará is recorded: a holder's documents are
    claimed in plan order; an attachment waits for nothing (lavra.registry.runs)."""
    from lavra.registry.runs import (
        ItemFailed,
        PlannedHolder,
        PlannedOutput,
        claim_and_record,
        plan_run,
    )

    registry = open_registry(f"sqlite:///{tmp_path / 'registro.db'}")
    holder = PlannedHolder("1", "Titular", "renovado", (
        PlannedOutput("ato-a", {}, "a.pdf", "TST-A"),
        PlannedOutput("ato-b", {}, "b.pdf", "TST-B"),
        PlannedOutput("anexo-c", {}, "c.pdf"),
    ))
    run = plan_run(registry, "teste", "teste:1", "x", {}, date(2025, 12, 10), 2025, [holder])
    built: list[str | None] = []

    def build(item: Any) -> bytes:
        built.append(item.form)
        if item.form == "ato-a":
            raise RuntimeError("falha ao assinar")
        return b"%PDF-anexo"

    with pytest.raises(ItemFailed) as failed:
        claim_and_record(registry, run.id, build, worker="w")
    first = failed.value.item.id
    done = claim_and_record(registry, run.id, build, worker="w", skip=[first])
    assert done is not None and done.form == "anexo-c"
    assert claim_and_record(registry, run.id, build, worker="w", skip=[first]) is None
    assert built == ["ato-a", "anexo-c"]  # ato-b never built while ato-a is pending
    assert [i.status for i in run_items(registry, run.id)] == ["pending", "pending", "done"]
    registry.close()
