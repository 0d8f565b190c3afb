"""The renewal run's intake (issue 26, step 4): the requerimentos filed online feed the
run from the registry when no ``--pedidos`` file is given (``lavra_americana/comum/
lote_protocolos.py``, ``lavra.batch.intake``).

Holders are the pack's examples one year back (``batchcases``): alvarás of 2025 renewed
for 2026 by a run dated 10/12/2025; the requests are filed through the registry API
(``lavra.registry.filings``) on explicit days of 2025, so that no test depends on
today.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from batchcases import (
    FRET_RUN_DAY,
    FRET_UNTIL,
    REPO,
    RUN_DAY,
    YEAR,
    cli_env,
    copy_data,
    cpf,
    envelope,
    file_request,
    fret_request,
    fret_seed,
    issuer_over,
    kept_staff_values,
    request,
    seeded_folder,
    write_jsonl,
)
from click.testing import CliRunner
from formcases import pdf_text
from sqlalchemy import select, update

from lavra.batch.model import RunRequest
from lavra.batch.runner import Summary, find_kind, run_batch
from lavra.checking.content import Content
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.inputs.formats import mask_cpf, unmask
from lavra.issuing import Issuer, registry_url
from lavra.registry.state import normalize_processo
from lavra.registry.tables import DocumentRow, FilingRow, ProcessoActRow, ProcessoRow

KIND = "renovacao-transporte-escolar"
FORM = "requerimento-renovacao-escolar"
HOLDERS = 3
"""Holder 0 files a complete request (tied to its alvará); holder 1 a complete one and,
later, an incomplete one (matched by the alvará its data name); holder 2 files none."""


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


@pytest.fixture(autouse=True)
def _staff_values_of_the_module(engine: Engine) -> Iterator[None]:
    yield from kept_staff_values(engine)


@pytest.fixture(scope="module")
def seeded(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    return seeded_folder(engine, tmp_path_factory.mktemp("semente"), HOLDERS)


def _file(issuer: Issuer, n: int, data: dict[str, Any], day: int, *,
          licence: str | None = None, doc: str | None = None) -> str:
    """File ``data`` as holder ``n`` on ``day`` December 2025 (within the window of
    art. 13, § 5º: the 30 days before the vencimento, 31/12/2025); its protocol."""
    return file_request(issuer, FORM, data, doc or cpf(n), f"Titular Exemplo {n:04d}",
                        datetime(2025, 12, day, 14, 0, tzinfo=UTC), licence=licence)


def _filed(issuer: Issuer, numbers: list[str]) -> list[str]:
    """The filings of the module docstring, and one naming no holder; their protocols."""
    return [
        _file(issuer, 0, request(0, numbers[0]), 2, licence=numbers[0]),
        _file(issuer, 1, request(1, numbers[1]), 3),
        _file(issuer, 1, request(1, numbers[1], missing=("antecedentes_criminais",)), 4),
        _file(issuer, 7, request(7, "ALV-ESC nº 0999/2025"), 5),
    ]


def _run(issuer: Issuer, folder: Path, pedidos: Path | None = None,
         **kwargs: Any) -> Summary:
    return run_batch(issuer, find_kind(issuer, KIND),
                     RunRequest(KIND, {"ano": YEAR}, date.fromisoformat(RUN_DAY), None,
                                pedidos),
                     folder, database_url=registry_url(issuer.config), **kwargs)


def test_filed_requests_are_renewed_notified_and_reported(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    try:
        protocols = _filed(issuer, numbers)
        summary = _run(issuer, tmp_path / "saida", workers=1)
        assert summary.complete
        tally = summary.counts
        assert (tally["renovado"], tally["notificado"], tally["recusado"]) == (1, 2, 2)
        # the complete request: renewed, the protocol as the processo the act cites
        renewed = issuer.registry.active_licences("alvara-transporte-escolar",
                                                  date(YEAR, 6, 1))
        assert [r.data["alvara_anterior"]["numero"] for r in renewed] == [numbers[0]]
        assert renewed[0].data["processo"]["numero"] == protocols[0]
        assert renewed[0].data["processo"]["data_requerimento"] == "2025-12-02"
        row = next(r for r in summary.rows if r.form == "alvara-transporte-escolar")
        assert summary.folder is not None
        text = " ".join(pdf_text((summary.folder / row.file).read_bytes()).split())
        # printed by its number, without the PROT series
        assert f"processo {protocols[0].replace('PROT ', '')}" in text
        # the act joins the processo the protocol opened (the licensing state), beside
        # the receipt: the filing's tracking finds it there
        with issuer.registry.read_session() as session:
            forms = session.scalars(
                select(DocumentRow.form).join(
                    ProcessoActRow, ProcessoActRow.document_id == DocumentRow.id)
                .join(ProcessoRow, ProcessoRow.id == ProcessoActRow.processo_id)
                .where(ProcessoRow.numero == normalize_processo(protocols[0]))).all()
        assert {"comprovante-protocolo", "alvara-transporte-escolar"} <= set(forms)
        # the latest request of holder 1, incomplete: notified with its pending item
        notices = [r for r in summary.rows if r.form == "notificacao-pendencias-renovacao"]
        assert len(notices) == 2
        first = issuer.registry.by_number(notices[0].number.split("nº ")[1],
                                          series="NOT-REN-ESC")
        assert first is not None and first.data["situacao"] == "incompleto"
        assert [p["documento"] for p in first.data["pendencias"]] == [
            "Atestado comprobatório de que não registra antecedentes criminais"]
        assert first.data["data_requerimento"] == "2025-12-04"
        # the replaced request and the one of no holder: reported, in pt-BR
        reasons = {r.holder: r.reason for r in summary.rows if r.outcome == "recusado"}
        assert reasons[f"protocolo {protocols[1]}"] == (
            f"O pedido do protocolo {protocols[1]}, do alvará «{numbers[1].replace(' nº', '')}"
            f"», foi substituído pelo do protocolo {protocols[2]}, protocolado depois, do "
            "mesmo alvará: só o último pedido de cada alvará é considerado.")
        assert "não é de nenhum titular desta execução" in reasons[f"protocolo {protocols[3]}"]
    finally:
        issuer.close()


def test_the_act_prints_the_protocol_and_the_dry_run_shows_the_requests(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    data = copy_data(seeded[0], tmp_path)
    issuer = issuer_over(engine, data)
    try:
        protocols = _filed(issuer, seeded[1])
    finally:
        issuer.close()
    env = {k: v for k, v in cli_env(data).items() if k.startswith("LAVRA_")}
    shown = CliRunner().invoke(main, ["batch", KIND, "--ano", str(YEAR), "--data", RUN_DAY,
                                      "-o", str(tmp_path / "saida"), "--simular"], env=env)
    assert shown.exit_code == 1, shown.output  # requests refused: exit code 1
    assert "Simulação (nada foi emitido)" in shown.output
    flat = " ".join(shown.output.split())
    assert "renovado – Alvará para exploração de serviços de Transporte Escolar, ALV-ESC" in flat
    assert "notificado – Notificação de Pendências na Renovação do Alvará para Transporte " \
        "Escolar, NOT-REN-ESC" in flat
    assert "alvara-transporte-escolar" not in shown.output  # never the form's id
    assert f"substituído pelo do protocolo {protocols[2]}" in " ".join(shown.output.split())
    assert not (tmp_path / "saida").exists() or not list((tmp_path / "saida").rglob("*.pdf"))


def test_a_file_and_filed_requests_together_are_refused(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    try:
        pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [envelope(0, numbers[0])])
        # without filings, the file is read as before
        alone = _run(issuer, tmp_path / "simulada", pedidos, simulate=True)
        assert alone.counts["renovado"] == 1
        protocol = _file(issuer, 0, request(0, numbers[0]), 3, licence=numbers[0])
        with pytest.raises(InputError) as refused:
            _run(issuer, tmp_path / "saida", pedidos, simulate=True)
        assert refused.value.field == "/pedidos"
        assert protocol in refused.value.message
        assert "uma só fonte" in refused.value.message
    finally:
        issuer.close()


def test_a_filing_by_someone_else_or_unreadable_fails_its_item(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    try:
        other = _file(issuer, 5, request(0, numbers[0]), 3, doc=cpf(5))
        # a value the strict reader refuses, stored as an older version might have
        bad = _file(issuer, 1, request(1, numbers[1]), 4)
        raw = json.loads(json.dumps(request(1, numbers[1])))
        raw["requerente"]["nome"] = "Nome\u202eOculto"
        with issuer.registry.write_session() as session:
            session.execute(update(FilingRow).where(FilingRow.protocol == bad)
                            .values(data=raw))
        summary = _run(issuer, tmp_path / "saida", simulate=True)
        reasons = {r.holder: r.reason for r in summary.rows if r.outcome == "recusado"}
        assert "não é o do titular do alvará" in reasons[f"protocolo {other}"]
        shown = cpf(5)  # the filer's CPF printed formatted, never the registry's digits
        assert f"mas o CPF {mask_cpf(shown)} de quem o protocolou" in (
            reasons[f"protocolo {other}"])
        assert unmask(shown) not in reasons[f"protocolo {other}"]
        assert reasons[f"protocolo {bad}"].startswith(
            f"O requerimento do protocolo {bad} foi recusado na leitura: ")
        assert "«requerente.nome»" in reasons[f"protocolo {bad}"]
        # holders 0 and 1 are notified as without a request; nothing is dropped
        assert summary.counts["notificado"] == HOLDERS
    finally:
        issuer.close()


def test_a_filed_fretamento_request_is_taken_for_its_alvara(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    try:
        printed = fret_seed(issuer, 1)[0]
        company = issuer.registry.by_number(printed.split("nº ")[1], series="ALV-FRET")
        assert company is not None
        file_request(issuer, "requerimento-renovacao-alvara-fretamento",
                     fret_request(0, printed), company.cpf_cnpj or "", "Empresa",
                     datetime(2025, 11, 20, 14, 0, tzinfo=UTC))
        kind = "renovacao-fretamento"
        summary = run_batch(issuer, find_kind(issuer, kind), RunRequest(
            kind, {"vencendo_ate": FRET_UNTIL}, date.fromisoformat(FRET_RUN_DAY)),
            tmp_path / "saida", database_url=registry_url(issuer.config), simulate=True)
        (row,) = summary.rows
        # complete and on time, so not notified: it waits for the staff's conferência of
        # its documents (art. 7º; comum/lote_protocolos.py), which no one made yet
        assert row.outcome == "recusado", row
        assert "aguardando conferência dos documentos pela SETRANSV" in row.reason
    finally:
        issuer.close()
