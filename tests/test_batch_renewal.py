"""The annual renewal run of the school-transport alvarás (``lavra batch
renovacao-transporte-escolar``): plan, parallel work, record, files; the dry run; bad
records; a run killed midway (SIGKILL) and run again, on SQLite and on PostgreSQL; two
processes side by side on one planned run (PostgreSQL).

Holders are the pack's examples one year back (``batchcases``): alvarás of 2025,
renewed for 2026 by a run dated 10/12/2025, so that no test depends on today.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections.abc import Iterator
from copy import deepcopy
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from batchcases import (
    REPO,
    RUN_DAY,
    YEAR,
    cli_env,
    copy_data,
    cpf,
    envelope,
    issuer_over,
    kept_staff_values,
    kill_midway_and_rerun,
    numbers_in,
    optional_pointers,
    request,
    seed,
    without,
    write_jsonl,
)
from formcases import pdf_text
from issuers import VERIFICATION_URL, dev_issuer
from pypdf import PdfReader
from sqlalchemy import create_engine, text
from test_renewal_state_facts import cessionaria_request, transferred

from lavra.batch import stored
from lavra.batch.model import RunRequest
from lavra.batch.output import CSV_NAME, MERGED_NAME, PDF_NAME, file_name, run_folder
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import Summary, find_kind, run_batch
from lavra.batch.work import failure_text
from lavra.checking.content import Content
from lavra.config import Config
from lavra.documents import Engine
from lavra.issuing import Issuer, registry_url
from lavra.registry.runs import ItemFailed, item_content, open_run, run_items
from lavra.registry.store import open_registry
from lavra.web.publiccheck import PublicQuestions
from lavra_americana.transporte_escolar.renovacao_requisitos import INSCRIPTION

KIND = "renovacao-transporte-escolar"
HOLDERS, COMPLETE = 5, 2
"""Few holders keep the kill tests cheap: 2 renewed (alvará and selo), 2 with an
incomplete request and 1 without (a notice and the requerimento each)."""


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


@pytest.fixture(autouse=True)
def _staff_values_of_the_module(engine: Engine) -> Iterator[None]:
    yield from kept_staff_values(engine)


@pytest.fixture(scope="module")
def seeded(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A data folder (SQLite registry, development PKI) with HOLDERS alvarás of 2025."""
    data = tmp_path_factory.mktemp("semente") / "dados"
    issuer = dev_issuer(engine, data)
    numbers = seed(issuer, HOLDERS)
    issuer.close()
    return data, numbers


def _copy(seeded: tuple[Path, list[str]], tmp_path: Path) -> Path:
    return copy_data(seeded[0], tmp_path)


def _requests(tmp_path: Path, numbers: list[str]) -> Path:
    """Holders 0 and 1 complete; 2 and 3 incomplete; the others without a request."""
    rows = [envelope(n, numbers[n]) for n in range(COMPLETE)]
    rows.append(envelope(2, numbers[2], missing=("antecedentes_criminais",)))
    rows.append(envelope(3, numbers[3], missing=("laudo_medico", "crlv")))
    return write_jsonl(tmp_path / "pedidos.jsonl", rows)


def _run(issuer: Issuer, request: RunRequest, folder: Path, **kwargs: Any) -> Summary:
    return run_batch(issuer, find_kind(issuer, KIND), request, folder,
                     database_url=registry_url(issuer.config), **kwargs)


def _request(pedidos: Path | None, entrada: Path | None = None) -> RunRequest:
    return RunRequest(KIND, {"ano": YEAR}, date.fromisoformat(RUN_DAY), entrada, pedidos)


def _assert_each_holder_once(issuer: Issuer, numbers: list[str], folder: Path) -> None:
    """Every holder exactly once, numbers gapless and in input order (alvarás and their
    selos each in its own series), each renewed alvará with one selo, files whole."""
    run = open_run(issuer.registry, f"{KIND}:{YEAR}")
    assert run is None  # finished
    url = registry_url(issuer.config)
    alvaras = numbers_in(url, "ALV-ESC")
    assert alvaras == list(range(1, HOLDERS + COMPLETE + 1))  # the seeds, then the renewals
    assert numbers_in(url, "SELO-ESC") == [1, 2]  # one selo per renewal, gapless
    assert numbers_in(url, "NOT-REN-ESC") == list(range(1, HOLDERS - COMPLETE + 1))
    renewed = [r for r in issuer.registry.active_licences("alvara-transporte-escolar",
                                                          date(YEAR, 6, 1))]
    previous = [r.data["alvara_anterior"]["numero"] for r in renewed]
    assert previous == numbers[:COMPLETE]  # input order: ALV-ESC 0006.. renew 0001..
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
    assert len(selos) == COMPLETE
    first = pdf_text((folder / selos[0]["arquivo"]).read_bytes())
    assert f"Alvará {renewed[0].printed}" in first
    assert "SELO-ESC nº 0001/" in first
    assert not list(folder.glob(".*.tmp"))


def test_run_over_the_registry_renews_notifies_and_resumes_nothing_twice(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    numbers = seeded[1]
    issuer = issuer_over(engine, _copy(seeded, tmp_path))
    folder = tmp_path / "saida"
    summary = _run(issuer, _request(_requests(tmp_path, numbers)), folder, workers=2,
                   merged=True)
    assert summary.complete
    tally = summary.counts
    assert (tally["renovado"], tally["notificado"], tally["titulares"]) == (2, 3, HOLDERS)
    assert tally["anexos"] == 3  # a prefilled requerimento right after each notice
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
    # The summary PDF, read back as staff read it: every holder, document and number.
    summary_text = pdf_text((folder / PDF_NAME).read_bytes())
    assert all(r.number in summary_text and r.name in summary_text for r in summary.rows)
    assert f"titulares {HOLDERS}" in summary_text
    # Again: the same command finds the finished run, writes its files and issues
    # nothing (no holder renewed nor notified twice). Its files are read 3 items per
    # statement (documents and attachments mixed across the reads): each is the
    # registry's own bytes, in its own name.
    monkeypatch.setattr(stored, "ITEMS_PER_STATEMENT", 3)
    again = _run(issuer, _request(_requests(tmp_path, numbers)), tmp_path / "outra",
                 workers=1)
    assert again.resumed and again.run is not None and summary.run is not None
    assert again.run.id == summary.run.id
    url = registry_url(issuer.config)
    assert numbers_in(url, "ALV-ESC") == list(range(1, HOLDERS + COMPLETE + 1))
    assert numbers_in(url, "NOT-REN-ESC") == list(range(1, HOLDERS - COMPLETE + 1))
    assert sorted(p.name for p in (tmp_path / "outra").glob("0*.pdf")) == sorted(
        r.file for r in summary.rows if r.file)
    done = [item for item in run_items(issuer.registry, again.run.id) if item.done]
    assert len(done) > 3 and {item.role for item in done} == {"documento", "anexo"}
    for item in done:
        written = (tmp_path / "outra" / file_name(item)).read_bytes()
        assert written == item_content(issuer.registry, item)
    issuer.close()


def test_simulation_numbers_and_writes_nothing(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    issuer = issuer_over(engine, _copy(seeded, tmp_path))
    url = registry_url(issuer.config)
    folder = tmp_path / "saida"
    summary = _run(issuer, _request(_requests(tmp_path, seeded[1])), folder, simulate=True)
    assert summary.simulated and summary.run is None
    assert (summary.counts["renovado"], summary.counts["notificado"]) == (2, 3)
    year = int(seeded[1][0][-4:])  # the series year the seeds were numbered in
    foreseen = [r.number for r in summary.rows if r.form == "alvara-transporte-escolar"]
    assert foreseen == [f"ALV-ESC nº {n:04d}/{year}"
                        for n in range(HOLDERS + 1, HOLDERS + COMPLETE + 1)]
    selos = [r.number for r in summary.rows if r.form == "selo-identificacao"]
    assert selos == [f"SELO-ESC nº {n:04d}/{year}" for n in range(1, COMPLETE + 1)]
    assert not folder.exists()
    assert numbers_in(url, "ALV-ESC") == list(range(1, HOLDERS + 1))
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
    issuer = issuer_over(engine, _copy(seeded, tmp_path))
    entrada = tmp_path / "entrada.csv"
    entrada.write_text(
        "alvara,cpf,nome\n"
        f"{numbers[0]},{cpf(0)},Titular 0\n"
        f"{numbers[2]},123.456.789-00,CPF inválido\n"
        f"ALV-ESC nº 0999/2026,{cpf(2)},Alvará desconhecido\n"
        f"{numbers[0]},{cpf(0)},Repetido\n"
        f"{numbers[1]},{cpf(1)},Titular 1\n",
        encoding="utf-8",
    )
    summary = _run(issuer, _request(_requests(tmp_path, numbers), entrada),
                   tmp_path / "saida", workers=1)
    reasons = [r.reason for r in summary.rows if r.outcome == "recusado"]
    assert len(reasons) == 5
    assert reasons[0].startswith("CPF inválido")
    assert "não consta do registro" in reasons[1]
    assert "mais de uma vez" in reasons[2]
    # The requests of holders 2 and 3, whose lines were refused, are not dropped unsaid.
    assert [f"«{numbers[n].replace(' nº ', ' ')}»" in r for n, r in zip((2, 3), reasons[3:],
                                                                     strict=True)] == [True] * 2
    assert all("não é de nenhum titular desta execução" in r for r in reasons[3:])
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


def _seeded_url(engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path,
                registry_url_: str) -> tuple[Path, str, list[str]]:
    data = _copy(seeded, tmp_path)
    if registry_url_.startswith("sqlite"):
        return data, registry_url(Config(pack_dir=REPO, data_dir=data)), seeded[1]
    issuer = issuer_over(engine, data, registry_url_)
    numbers = seed(issuer, HOLDERS)
    issuer.close()
    return data, registry_url_, numbers


def test_a_run_killed_midway_finishes_when_run_again(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path, registry_url: str
) -> None:
    data, url, numbers = _seeded_url(engine, seeded, tmp_path, registry_url)
    pedidos, folder = _requests(tmp_path, numbers), tmp_path / "saida"
    run_id, _ = kill_midway_and_rerun(_command(data, url, pedidos, folder, 2), cli_env(data),
                                      url, f"{KIND}:{YEAR}")
    registry = open_registry(url)
    config = Config(pack_dir=REPO, data_dir=data, database_url=url,
                    verification_url=VERIFICATION_URL)
    issuer = Issuer(engine, registry, config)
    _assert_each_holder_once(issuer, numbers, run_folder(folder, run_id))
    items = run_items(registry, run_id)
    assert all(item.done for item in items)
    registry.close()


def test_two_processes_side_by_side_share_one_planned_run(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path, postgres_url: str
) -> None:
    data, url, numbers = _seeded_url(engine, seeded, tmp_path, postgres_url)
    pedidos = _requests(tmp_path, numbers)
    issuer = issuer_over(engine, data, url)
    kind = find_kind(issuer, KIND)
    from lavra.batch.planning import decide, write_plan

    run = write_plan(issuer, kind, decide(issuer, kind, _request(pedidos)), None)
    processes = [
        subprocess.Popen(_command(data, url, pedidos, tmp_path / f"saida{n}", 1),
                         env=cli_env(data), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
        for n in range(2)
    ]
    outputs = [process.communicate(timeout=400) for process in processes]
    assert [p.returncode for p in processes] == [0, 0], outputs
    items = run_items(issuer.registry, run.id)
    assert all(item.done for item in items)
    _assert_each_holder_once(issuer, numbers, run_folder(tmp_path / "saida0", run.id))
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


# ------------------------------------------------------------------ what the form calls complete
REQUERIMENTO = "requerimento-renovacao-escolar"


def _form_variants(engine: Engine, n0: int, numbers: list[str]) -> list[dict[str, Any]]:
    """The example requerimento, and the example without each optional field (one at a
    time), kept when the public form's report calls it complete."""
    schema = json.loads((REPO / "schemas" / f"{REQUERIMENTO}.json").read_text("utf-8"))
    base = request(n0, numbers[0])
    pointers_ = optional_pointers(schema, base)
    candidates = [base, *(without(base, p) for p in pointers_)]
    return [c for c in candidates if engine.check(REQUERIMENTO, c).complete]


def test_every_request_the_public_form_calls_complete_is_renewed(
    engine: Engine, tmp_path: Path
) -> None:
    """The example, and each variant of it the public form calls "Completo" (an optional
    field left out), fed to the run as the web form gives it (a bare line, no process
    nor selo): each holder gets its alvará and selo, and no one a pending notice. And an
    alvará transferred by a termo without the cessionária's inscription: the public
    page (its check's history, PublicQuestions) asks her for it, and her request with
    it is renewed, the alvará printing it."""
    probe = _form_variants(engine, 0, ["ALV-ESC 0001/2025"])
    assert len(probe) >= 20  # the example and its optional fields one by one
    data = tmp_path / "dados"
    issuer = dev_issuer(engine, data)
    numbers = seed(issuer, len(probe) + 1)
    last = len(probe)  # transferred to the cessionária cpf(last + 10), no holder's here
    transferred(engine, issuer.registry, numbers[last], last, None)
    public = PublicQuestions(issuer.registry)
    cessionaria = cessionaria_request(last, numbers[last])
    asked = engine.check(REQUERIMENTO, cessionaria, history=public)
    assert [i.field for i in asked.pending] == [INSCRIPTION]
    cessionaria["requerente"]["cadastro_atividades"] = "CA-CESS-0001"
    assert engine.check(REQUERIMENTO, cessionaria, history=public).complete
    rows = []
    for n, variant in enumerate(probe):
        line = json.loads(json.dumps(variant).replace("ALV-ESC 0001/2025", "@"))
        fresh = request(n, numbers[n])
        line["requerente"].update({k: fresh["requerente"][k]
                                   for k in ("cpf", "nome", "prontuario", "cnh")
                                   if k in line["requerente"]})
        line["veiculo"].update({k: fresh["veiculo"][k] for k in ("placa", "renavam")
                                if k in line["veiculo"]})
        rows.append(json.loads(json.dumps(line).replace("@", numbers[n])))
    pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [*rows, cessionaria])
    try:
        summary = _run(issuer, _request(pedidos), tmp_path / "saida", workers=2)
        url = registry_url(issuer.config)
        assert summary.counts.get("renovado") == len(probe) + 1, [
            (r.name, r.outcome, r.reason) for r in summary.rows if r.outcome != "renovado"]
        assert numbers_in(url, "NOT-REN-ESC") == []
        assert numbers_in(url, "SELO-ESC") == list(range(1, len(probe) + 2))
        assert all(r.state == "concluído" for r in summary.rows)
        (hers,) = [r for r in summary.rows if r.form == "alvara-transporte-escolar"
                   and r.holder == cpf(last + 10).replace(".", "").replace("-", "")]
        text = pdf_text((tmp_path / "saida" / hers.file).read_bytes())
        assert "Cadastro de Atividades CA-CESS-0001" in text, text
    finally:
        issuer.close()


def test_a_number_the_act_prints_is_asked_by_the_public_form(engine: Engine) -> None:
    """The fee receipt and the inspection report without a number: the public form says
    what is missing, naming the document, as the notice will list it."""
    base = request(0, "ALV-ESC 0001/2025")
    for document in ("comprovante_taxa_renovacao", "laudo_vistoria_ultimo"):
        data = deepcopy(base)
        del data["documentos"][document]["numero"]
        report = engine.check(REQUERIMENTO, data)
        assert not report.complete
        (item,) = report.pending
        assert item.field == f"/documentos/{document}/numero"
        assert item.message.startswith("Informe o número do ")
        assert "Não pode ficar em branco" not in item.message


def test_what_the_act_would_refuse_is_refused_before_numbering(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A complete request whose renewed alvará the act would still refuse (here: the
    carried inspection number lost on the way) is a refused row naming the holder, the
    document and the field, with no ALV-ESC nor SELO-ESC number reserved."""
    from lavra_americana.transporte_escolar import renovacao_lote

    real = renovacao_lote.carry

    def losing(request: Any, act: dict[str, Any]) -> dict[str, Any]:
        carried = real(request, act)
        carried["veiculo"]["laudo_vistoria_ciretran"].pop("numero", None)
        return carried

    monkeypatch.setattr(renovacao_lote, "carry", losing)
    numbers = seeded[1]
    issuer = issuer_over(engine, _copy(seeded, tmp_path))
    try:
        pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [envelope(0, numbers[0])])
        kind = find_kind(issuer, KIND)
        plan = decide(issuer, kind, _request(pedidos))
        first = plan.holders[0]
        assert first.outcome == "recusado" and not first.outputs
        reason = first.reason or ""
        assert "Alvará" in reason and "Titular Exemplo 0000" in reason
        assert numbers[0] in reason and "número do laudo" in reason
        assert "Nenhum número foi reservado" in reason
        write_plan(issuer, kind, plan, "teste")
        url = registry_url(issuer.config)
        run = open_run(issuer.registry, f"{KIND}:{YEAR}")
        assert run is not None
        reserved = [i for i in run_items(issuer.registry, run.id) if i.holder == first.holder]
        assert [i.series for i in reserved] == [None]  # the refused row only
        assert numbers_in(url, "SELO-ESC") == []
    finally:
        issuer.close()


def test_a_failed_item_names_the_holder_the_document_and_the_field(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """A worker's failure reads for staff: the document and its reserved number, the
    holder, the field; and what became of the number."""
    issuer = issuer_over(engine, _copy(seeded, tmp_path))
    try:
        kind = find_kind(issuer, KIND)
        pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [envelope(0, seeded[1][0])])
        run = write_plan(issuer, kind, decide(issuer, kind, _request(pedidos)), "teste")
        item = next(i for i in run_items(issuer.registry, run.id)
                    if i.form == "alvara-transporte-escolar")
        text_ = failure_text(issuer, ItemFailed(item, "Não pode ficar em branco: Processo "
                                                "› Comprovante.", "/processo/comprovante_taxa"))
        assert text_.startswith(f"Alvará para exploração de serviços de Transporte Escolar "
                                f"{item.printed}, de Titular Exemplo 0000")
        assert ("Campo: Processo administrativo › Comprovante de recolhimento da taxa. "
                "Para corrigir: lavra lote corrigir " f"{run.id} --item {item.position + 1} "
                "--formulario alvara-transporte-escolar --campo /processo/comprovante_taxa "
                "--valor NOVO_VALOR --responsavel NOME.") in text_
        assert f"O número {item.printed} segue reservado" in text_
    finally:
        issuer.close()
