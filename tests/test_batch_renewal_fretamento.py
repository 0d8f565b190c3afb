"""The renewal run of the fretamento alvarás (``lavra batch renovacao-fretamento
--vencendo-ate``, art. 8º of Lei nº 4.419/2006): complete, incomplete and missing
requests, a vehicle past its age limit (art. 10, I), bad records, the dry run, the last
day of the notice at its boundaries, and a run killed midway (SIGKILL) and run again.

Holders (``batchcases``): five alvarás issued on 10/01/2021, due on 09/01/2026 (the
fifth, a microônibus of 2015, on 31/12/2025, its age limit); the run is dated
25/11/2025 over the alvarás expiring by 31/01/2026, so that no test depends on today.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from batchcases import (
    FRET_RUN_DAY,
    FRET_UNTIL,
    REPO,
    cli_env,
    copy_data,
    fret_envelope,
    fret_request,
    fret_seed,
    issuer_over,
    kill_midway_and_rerun,
    numbers_in,
    optional_pointers,
    without,
    write_jsonl,
)
from formcases import pdf_text
from issuers import dev_issuer
from pypdf import PdfReader

from lavra.batch.model import RunRequest
from lavra.batch.output import CSV_NAME, run_folder
from lavra.batch.runner import Summary, find_kind, run_batch
from lavra.checking.content import Content
from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.issuing import Issuer, registry_url
from lavra.registry.runs import open_run, run_items
from lavra.registry.store import open_registry

KIND = "renovacao-fretamento"
KEY = f"{KIND}:{FRET_UNTIL}"
HOLDERS, PAST_AGE = 5, 4
NOTICE = "notificacao-pendencias-renovacao-fretamento"
ALVARA = "alvara-fretamento"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


@pytest.fixture(scope="module")
def seeded(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    data = tmp_path_factory.mktemp("semente-fret") / "dados"
    issuer = dev_issuer(engine, data)
    numbers = fret_seed(issuer, HOLDERS, past_age=(PAST_AGE,))
    issuer.close()
    return data, numbers


def _requests(tmp_path: Path, numbers: list[str]) -> Path:
    """0 and 1 complete; 2 without the union certificate; 3 none; 4 past its age."""
    rows = [fret_envelope(0, numbers[0]), fret_envelope(1, numbers[1]),
            fret_envelope(2, numbers[2], missing=("certidao_debito_sindical",)),
            fret_envelope(PAST_AGE, numbers[PAST_AGE], expiry="2025-12-31", past_age=True)]
    return write_jsonl(tmp_path / "pedidos.jsonl", rows)


def _request(pedidos: Path | None, entrada: Path | None = None,
             until: str = FRET_UNTIL) -> RunRequest:
    return RunRequest(KIND, {"vencendo_ate": until}, date.fromisoformat(FRET_RUN_DAY),
                      entrada, pedidos)


def _run(issuer: Issuer, request: RunRequest, folder: Path, **kwargs: Any) -> Summary:
    return run_batch(issuer, find_kind(issuer, KIND), request, folder,
                     database_url=registry_url(issuer.config), **kwargs)


def _assert_the_run(issuer: Issuer, numbers: list[str], folder: Path) -> None:
    """Renewed, notified and not renewable as planned; numbers gapless, input order."""
    assert open_run(issuer.registry, KEY) is None  # finished
    url = registry_url(issuer.config)
    assert numbers_in(url, "ALV-FRET") == list(range(1, HOLDERS + 3))  # seeds, 2 renewals
    assert numbers_in(url, "NOT-REN-FRET") == [1, 2, 3]  # holders 2, 3 and 4, in order
    year = numbers[0][-4:]
    for n, previous in enumerate(numbers[:2]):
        renewed = issuer.registry.by_number(f"{HOLDERS + 1 + n:04d}/{year}", series="ALV-FRET")
        assert renewed is not None and renewed.form == ALVARA
        assert renewed.data["processo"]["renovacao"] is True
        assert renewed.data["processo"]["alvara_anterior"] == previous  # with its series
        assert renewed.computed["inicio_vigencia"] == "2026-01-10"  # after the vencimento
        assert renewed.valid_until == date(2031, 1, 9)  # 5 years, 10/01 included (art. 8º)
    notices = [issuer.registry.by_number(f"{n:04d}/{year}", series="NOT-REN-FRET")
               for n in (1, 2, 3)]
    assert all(record is not None for record in notices)
    incomplete, absent, old = (record.data for record in notices if record is not None)
    assert [incomplete["alvara"]["numero"], absent["alvara"]["numero"],
            old["alvara"]["numero"]] == [n.replace(" nº ", " ") for n in numbers[2:]]
    assert incomplete["situacao"] == "incompleto"
    assert [p["documento"] for p in incomplete["pendencias"]] == [
        "Certidão negativa de débito sindical (patronal e empregados)"]
    assert incomplete["pendencias"][0]["dispositivos"][0] == "fretamento#art7_inc4"
    assert absent["situacao"] == "ausente" and old["situacao"] == "idade_veiculo"
    computed = [r.computed for r in notices if r is not None]
    assert [c["prazo_final"] for c in computed] == ["2026-01-09", "2025-12-10", None]
    with open(folder / CSV_NAME, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["resultado"], r["formulario"]) for r in rows] == [
        ("renovado", ALVARA), ("renovado", ALVARA),
        ("notificado", NOTICE), ("notificado", "requerimento-renovacao-alvara-fretamento"),
        ("notificado", NOTICE), ("notificado", "requerimento-renovacao-alvara-fretamento"),
        ("não renovável (art. 10, I)", NOTICE),  # no requerimento: nothing to renew
    ]
    assert all(r["situacao"] == "concluído" for r in rows)
    for row in rows:
        assert len(PdfReader(folder / row["arquivo"]).pages) >= 1
    assert not list(folder.glob(".*.tmp"))


def test_run_renews_notifies_and_says_which_vehicle_cannot_be_renewed(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    folder = tmp_path / "saida"
    summary = _run(issuer, _request(_requests(tmp_path, numbers)), folder, workers=2)
    assert summary.complete
    tally = summary.counts
    assert (tally["renovado"], tally["notificado"], tally["não renovável (art. 10, I)"]) == (
        2, 2, 1)
    _assert_the_run(issuer, numbers, folder)
    files = {r.form: folder / r.file for r in summary.rows}
    alvara = pdf_text(files[ALVARA].read_bytes())
    assert f"renovando o Alvará {numbers[1]}" in alvara
    assert "válido de 10/01/2026 até 09/01/2031" in alvara
    old = pdf_text((folder / summary.rows[-1].file).read_bytes())
    assert "não pode ser renovado" in old and "art. 10, inciso I" in old
    assert "requerer novo alvará" in old
    fillable = PdfReader(folder / next(r.file for r in summary.rows if r.role == "anexo"))
    fields = fillable.get_fields() or {}
    assert fields, "o requerimento que acompanha a notificação é preenchível"
    values = {str(f.get("/V")) for f in fields.values() if f.get("/V")}
    assert any(numbers[2] in value for value in values)  # prefilled: the alvará renewed
    # The same command again: the finished run is found, nothing is issued twice.
    again = _run(issuer, _request(_requests(tmp_path, numbers)), tmp_path / "outra")
    assert again.resumed
    assert numbers_in(registry_url(issuer.config), "NOT-REN-FRET") == [1, 2, 3]
    # Later, with no request file: the renewed alvarás are no longer due.
    # Those notified are still due, but already notified by this run: the dry run shows
    # them skipped, naming the run and its notice, as the real run would refuse them.
    later = _run(issuer, _request(None), tmp_path / "depois", simulate=True)
    assert {r.holder for r in later.rows} == {
        r.holder for r in summary.rows if r.outcome != "renovado" and r.role == "documento"}
    skipped = [r for r in later.rows if r.outcome == "recusado"]
    assert {r.holder for r in summary.rows if r.outcome == "notificado"} <= {
        r.holder for r in skipped}
    assert skipped and all(r.reason.startswith(
        f"Já planejado na execução em lote nº {summary.run.id} (NOT-REN-FRET nº ")
        for r in skipped)
    issuer.close()


def test_simulation_numbers_and_writes_nothing(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    folder = tmp_path / "saida"
    summary = _run(issuer, _request(_requests(tmp_path, seeded[1])), folder, simulate=True)
    assert summary.simulated and summary.run is None
    year = seeded[1][0][-4:]
    assert [r.number for r in summary.rows if r.form == ALVARA] == [
        f"ALV-FRET nº {n:04d}/{year}" for n in (HOLDERS + 1, HOLDERS + 2)]
    assert [r.number for r in summary.rows if r.form == NOTICE] == [
        f"NOT-REN-FRET nº {n:04d}/{year}" for n in (1, 2, 3)]
    assert not folder.exists()
    url = registry_url(issuer.config)
    assert numbers_in(url, "ALV-FRET") == list(range(1, HOLDERS + 1))
    assert numbers_in(url, "NOT-REN-FRET") == []
    assert open_run(issuer.registry, KEY) is None
    # An earlier date leaves out the alvarás due after it: only the one of 31/12/2025.
    earlier = _run(issuer, _request(_requests(tmp_path, seeded[1]), until="2025-12-31"),
                   folder, simulate=True)
    kept = [r for r in earlier.rows if r.outcome != "recusado"]
    assert {r.name for r in kept} == {"Viação Exemplo de Fretamento Ltda."}
    assert [r.outcome for r in kept] == ["não renovável (art. 10, I)"]
    # The requests of the alvarás due after it are refused with their reason, not dropped.
    refused = [r.reason for r in earlier.rows if r.outcome == "recusado"]
    assert refused and all("não é de nenhum titular desta execução" in r for r in refused)
    issuer.close()


def test_bad_records_are_refused_with_a_reason_and_the_others_go_on(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    cnpj = "65.563.842/0001-05"
    entrada = tmp_path / "entrada.csv"
    entrada.write_text(
        "alvara,cnpj,razao_social\n"
        f"{numbers[0]},{cnpj},Empresa\n"
        f"{numbers[1]},11.111.111/1111-11,CNPJ inválido\n"
        f"ALV-FRET nº 0999/2026,{cnpj},Alvará desconhecido\n"
        f"{numbers[2]},11.222.333/0001-81,Outra empresa\n"
        f"{numbers[0].replace(' nº ', ' ')},{cnpj},Repetido\n"
        f"{numbers[3]},{cnpj},Sem conferência\n",
        encoding="utf-8",
    )
    rows = [fret_envelope(0, numbers[0]),
            fret_envelope(3, numbers[3], conferencia=False)]
    pedidos = write_jsonl(tmp_path / "pedidos.jsonl", rows)
    summary = _run(issuer, _request(pedidos, entrada), tmp_path / "saida", workers=1)
    reasons = [r.reason for r in summary.rows if r.outcome == "recusado"]
    assert len(reasons) == 5
    assert reasons[0].startswith("CNPJ inválido")
    assert "não consta do registro" in reasons[1]
    assert "não é o da empresa titular" in reasons[2]
    assert "mais de uma vez" in reasons[3]
    assert "falta a conferência por servidor" in reasons[4]
    assert summary.counts["renovado"] == 1 and summary.complete
    assert numbers_in(registry_url(issuer.config), "NOT-REN-FRET") == []  # none notified
    issuer.close()


def test_the_sample_entrada_file_reads() -> None:
    from lavra_americana.fretamento.renovacao_lote import Wanted, read_entrada

    rows = read_entrada(REPO / "tests" / "data" / "renovacao-fretamento-entrada.csv")
    assert rows == [Wanted(2, "ALV-FRET 0001/2026", "65.563.842/0001-05",
                           "Viação Exemplo de Fretamento Ltda.")]


def test_the_run_needs_its_date(engine: Engine, tmp_path: Path) -> None:
    from lavra.errors import InputError

    issuer = dev_issuer(engine, tmp_path / "dados")
    with pytest.raises(InputError) as error:
        _run(issuer, RunRequest(KIND, {}, date(2025, 11, 25)), tmp_path / "saida")
    assert "--vencendo-ate" in error.value.message
    issuer.close()


# ------------------------------------------------------------------ the notice's last day
def _notice(**changes: Any) -> dict[str, Any]:
    import json

    data = json.loads((REPO / "forms" / NOTICE / "exemplo.json").read_text("utf-8"))
    data.update(changes)
    return dict(data)


@pytest.mark.parametrize(("changes", "last", "words"), [
    # filed in time (the last day to ask for it: 01/12/2026), incomplete: to the vencimento
    ({"data_requerimento": "2026-12-01"}, "2026-12-31", "até o último dia de validade"),
    # filed one day late: no renewal, a new requerimento (art. 7º)
    ({"data_requerimento": "2026-12-02", "data_notificacao": "2026-12-02",
      "situacao": "fora_do_prazo"}, None, "terminou em 01/12/2026"),
    # no request, notified on the last day to ask: that day
    ({"situacao": "ausente", "data_notificacao": "2026-12-01"}, "2026-12-01",
     "deve ser requerida até 01/12/2026"),
    # no request, notified the day after: none left, a new requerimento (art. 7º)
    ({"situacao": "fora_do_prazo", "data_notificacao": "2026-12-02",
      "data_requerimento": None}, None, "terminou em"),
    # past its age limit: none
    ({"situacao": "idade_veiculo"}, None, "não se renova para este veículo"),
])
def test_the_notice_states_the_last_day_to_regularise(
    engine: Engine, changes: dict[str, Any], last: str | None, words: str
) -> None:
    data = _notice(**changes)
    if data["situacao"] == "ausente" or data["data_requerimento"] is None:
        data.pop("data_requerimento")
    prepared = engine.prepare(NOTICE, data)
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    final = prepared.computed["prazo_final"]
    assert (final.isoformat() if final else None) == last
    assert words in prepared.computed["prazo_explicacao"]


@pytest.mark.parametrize(("day", "valid"), [("2026-12-31", True), ("2027-01-01", False)])
def test_a_notice_after_the_vencimento_is_invalid(engine: Engine, day: str,
                                                  valid: bool) -> None:
    prepared = engine.prepare(NOTICE, _notice(data_notificacao=day))
    found = [i for i in prepared.report.items if i.field == "/data_notificacao"
             and i.status is Status.INVALID]
    assert (not found) is valid


def test_the_example_notice_renders(engine: Engine) -> None:
    rendered = engine.draft(NOTICE, _notice())
    text = pdf_text(rendered.pdf)
    assert "notifica Viação Exemplo de Fretamento Ltda., inscrita no CNPJ" in text
    assert "O último dia para regularizar é 31/12/2026" in text
    assert "Acompanha esta notificação o requerimento de renovação preenchível" in text
    assert len(PdfReader(io.BytesIO(rendered.pdf)).pages) >= 1


# ------------------------------------------------------------------ kill and rerun
def test_a_run_killed_midway_finishes_when_run_again(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    data = copy_data(seeded[0], tmp_path)
    issuer = issuer_over(engine, data)
    url = registry_url(issuer.config)
    pedidos, folder = _requests(tmp_path, numbers), tmp_path / "saida"
    command = [sys.executable, "-c", "from lavra.cli.main import main; main()", "batch",
               KIND, "--vencendo-ate", FRET_UNTIL, "--data", FRET_RUN_DAY, "--pedidos",
               str(pedidos), "-o", str(folder), "--registro", url, "--trabalhadores", "2"]
    run_id, _ = kill_midway_and_rerun(command, cli_env(data), url, KEY, after=2)
    _assert_the_run(issuer, numbers, run_folder(folder, run_id))
    registry = open_registry(url)
    assert all(item.done for item in run_items(registry, run_id))
    registry.close()
    issuer.close()


def test_every_request_the_public_form_calls_complete_is_renewed(
    engine: Engine, tmp_path: Path
) -> None:
    """The example requerimento, and each variant of it the public form calls complete
    (an optional field left out): each vehicle's alvará is renewed, no notice."""
    form = "requerimento-renovacao-alvara-fretamento"
    schema = json.loads((REPO / "schemas" / f"{form}.json").read_text("utf-8"))
    probe = "ALV-FRET 0999/2020"
    base = fret_envelope(0, probe)["requerimento"]
    variants = [v for v in [base, *(without(base, p) for p in optional_pointers(schema, base))]
                if engine.check(form, v).complete]
    assert len(variants) >= 10
    issuer = dev_issuer(engine, tmp_path / "dados")
    numbers = fret_seed(issuer, len(variants))
    rows = []
    for n, variant in enumerate(variants):
        line = dict(fret_envelope(n, numbers[n]))
        fresh = line["requerimento"]
        moved = json.loads(json.dumps(variant).replace(probe, numbers[n]))
        moved["veiculo"] = {k: fresh["veiculo"][k] for k in moved["veiculo"]}
        rows.append({**line, "requerimento": moved})
    try:
        summary = _run(issuer, _request(write_jsonl(tmp_path / "pedidos.jsonl", rows)),
                       tmp_path / "saida", workers=2)
        assert summary.counts.get("renovado") == len(variants), [
            (r.name, r.outcome, r.reason) for r in summary.rows if r.outcome != "renovado"]
        assert all(r.state == "concluído" for r in summary.rows), [
            r.reason for r in summary.rows if r.state != "concluído"]
        assert numbers_in(registry_url(issuer.config), "NOT-REN-FRET") == []
    finally:
        issuer.close()


def test_the_inspection_number_the_alvara_prints_is_asked_by_the_public_form(
    engine: Engine
) -> None:
    """The inspection certificate without its number: the public requerimento says what
    is missing, naming the document (fretamento/renovacao_requisitos.py), and the
    alvará lacking it is incomplete at the same field, before any number."""
    data = fret_request(0, "ALV-FRET 0001/2021")
    del data["documentos"]["inspecao_veicular"]["numero"]
    report = engine.check("requerimento-renovacao-alvara-fretamento", data)
    assert not report.complete
    (item,) = report.pending
    assert item.field == "/documentos/inspecao_veicular/numero"
    assert item.message == ("Informe o número do comprovante, que o alvará renovado imprime: "
                            "Comprovante de inspeção veicular")
    assert item.basis == ("fretamento#art7_inc11", "fretamento#art10_par4")
    alvara = json.loads((REPO / "forms" / ALVARA / "exemplo.json").read_text("utf-8"))
    del alvara["inspecao_veicular"]["numero"]
    pending = [i for i in engine.check(ALVARA, alvara).pending
               if i.field == "/inspecao_veicular/numero"]
    assert [i.message for i in pending] == [
        "Falta o número do comprovante (Comprovante de inspeção veicular), que o alvará "
        "imprime."]
