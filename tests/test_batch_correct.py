"""Correcting a failed batch item (``lavra lote corrigir`` / ``lavra batch corrigir``,
:mod:`lavra.registry.corrections`), a value the database refuses failing one item only
(PostgreSQL), and the summary CSV safe in a spreadsheet.

The school run's item is broken after the plan (the inspection number the alvará prints
lost), worked in this process: it fails naming the holder, the document and the field;
staff correct it from the command line; worked again, it is issued under the number it
kept. The other cases use the registry alone (plan_run with stand-in forms).
"""

from __future__ import annotations

import csv
import io
import uuid
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from batchcases import (
    RUN_DAY,
    YEAR,
    cli_env,
    envelope,
    issuer_over,
    numbers_in,
    seeded_folder,
    write_jsonl,
)
from click.testing import CliRunner
from registrycases import pdf_with_title

from lavra.batch.model import RunRequest
from lavra.batch.output import SummaryRow, summary_csv
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.batch.work import work_items
from lavra.checking.content import Content
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import registry_url
from lavra.registry.corrections import (
    Change,
    correct,
    find_item,
    record_failure,
    run_corrections,
)
from lavra.registry.database import ValueRefused
from lavra.registry.records import Built
from lavra.registry.runs import (
    ItemFailed,
    PlannedHolder,
    PlannedOutput,
    claim_and_record,
    plan_run,
    run_items,
)
from lavra.registry.store import Registry, open_registry
from lavra.registry.tables import BatchItemRow, VoidedNumberRow

REPO = Path(__file__).resolve().parent.parent / "lavra_americana"
KIND = "renovacao-transporte-escolar"
ALVARA = "alvara-transporte-escolar"
LAUDO = "/veiculo/laudo_vistoria_ciretran/numero"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


def _set_data(registry: Registry, item_id: int, data: dict[str, Any]) -> None:
    """The item's data changed behind the plan's back (what a failure starts from)."""
    with registry.write_session() as session:
        row = session.get(BatchItemRow, item_id)
        assert row is not None
        row.data = data


def test_a_failed_item_is_corrected_from_the_command_line_and_issued_under_its_number(
    engine: Engine, tmp_path: Path
) -> None:
    data, numbers = seeded_folder(engine, tmp_path, 1)
    issuer = issuer_over(engine, data)
    url = registry_url(issuer.config)
    on = date.fromisoformat(RUN_DAY)
    try:
        kind = find_kind(issuer, KIND)
        pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [envelope(0, numbers[0])])
        request = RunRequest(KIND, {"ano": YEAR}, on, None, pedidos)
        run = write_plan(issuer, kind, decide(issuer, kind, request), "teste")
        alvara = next(i for i in run_items(issuer.registry, run.id) if i.form == ALVARA)
        broken = dict(alvara.data or {})
        broken["veiculo"] = dict(broken["veiculo"])
        broken["veiculo"]["laudo_vistoria_ciretran"] = {
            k: v for k, v in broken["veiculo"]["laudo_vistoria_ciretran"].items()
            if k != "numero"}
        _set_data(issuer.registry, alvara.id, broken)

        work_items(issuer, run.id, worker="teste", on=on)
        failed = next(i for i in run_items(issuer.registry, run.id) if i.id == alvara.id)
        assert not failed.done and failed.printed == alvara.printed
        reason = failed.reason or ""
        assert reason.startswith(f"Alvará para exploração de serviços de Transporte Escolar "
                                 f"{alvara.printed}, de Titular Exemplo 0000")
        assert "número do laudo" in reason and "SELECT" not in reason, reason
        assert failed.failed_field == LAUDO

        env = cli_env(data)
        patch = tmp_path / "correcao.json"
        patch.write_text(f'{{"{LAUDO}": "LV-1", "{LAUDO}": "LV-2"}}', "utf-8")
        refused = CliRunner().invoke(main, [
            "lote", "corrigir", str(run.id), "--item", "1", "--arquivo", str(patch),
            "--responsavel", "Servidora Teste", "--registro", url], env=env)
        assert refused.exit_code == 2, refused.output
        assert "aparece mais de uma vez no arquivo correcao.json" in refused.output
        assert run_corrections(issuer.registry, run.id) == ()

        result = CliRunner().invoke(main, [
            "batch", "corrigir", str(run.id), "--item", "1", "--campo", LAUDO,
            "--valor", "LV-2025/0099", "--responsavel", "Servidora Teste",
            "--registro", url], env=env)
        assert result.exit_code == 0, result.output
        assert f"Campo {LAUDO}: de (vazio) para «LV-2025/0099»; corrigido por Servidora " \
               "Teste em" in result.output
        assert "o número reservado é mantido" in result.output
        (made,) = run_corrections(issuer.registry, run.id)
        assert (made.item_id, made.by, made.value) == (alvara.id, "Servidora Teste",
                                                        "LV-2025/0099")
        assert made.failure == reason
        corrected = next(i for i in run_items(issuer.registry, run.id) if i.id == alvara.id)
        assert corrected.reason is None and corrected.printed == alvara.printed

        work_items(issuer, run.id, worker="teste", on=on)
        assert all(i.done for i in run_items(issuer.registry, run.id))
        assert numbers_in(url, "ALV-ESC") == [1, 2]  # the seed, then the number it kept
        assert numbers_in(url, "SELO-ESC") == [1]
        issued = issuer.registry.by_number(f"{alvara.number:04d}/{alvara.year}", "ALV-ESC")
        assert issued is not None
        assert issued.data["veiculo"]["laudo_vistoria_ciretran"]["numero"] == "LV-2025/0099"
    finally:
        issuer.close()


def _stand_in_run(registry: Registry, *names: str) -> int:
    holders = [PlannedHolder(str(n), name, "renovado", (
        PlannedOutput("ato-teste", {"assinante": name, "grupo": {"n": 1}}, f"a{n}.pdf",
                      "TST-A"),)) for n, name in enumerate(names)]
    return plan_run(registry, "teste", f"teste:{uuid.uuid4().hex}", "x", {},
                    date(2025, 12, 10), 2025, holders).id


def test_corrections_are_checked_and_nothing_is_written_on_a_refusal(tmp_path: Path) -> None:
    registry = open_registry(f"sqlite:///{tmp_path / 'registro.db'}")
    try:
        run_id = _stand_in_run(registry, "Titular A")
        item = find_item(registry, run_id, 0)
        record_failure(registry, item.id, "Falhou.", "/grupo/n")
        assert find_item(registry, run_id, 0).failed_field == "/grupo/n"
        for change, message in [
            (Change("grupo/n", 2), "Campo inválido"),
            (Change("/assinante/x", 2), "/assinante não é um grupo de campos"),
            (Change("/ausente", remove=True), "não há o que remover"),
        ]:
            with pytest.raises(InputError, match=message):
                correct(registry, item.id, [Change("/grupo/n", 5), change], by="Ana")
        assert find_item(registry, run_id, 0).data == {"assinante": "Titular A",
                                                       "grupo": {"n": 1}}
        assert run_corrections(registry, run_id) == ()
        with pytest.raises(InputError, match="não tem documento pendente"):
            find_item(registry, run_id, 0, "outro-form")
        done, made = correct(registry, item.id, [Change("/grupo/n", 5),
                                                 Change("/grupo/novo", "x")], by="Ana")
        assert done.data == {"assinante": "Titular A", "grupo": {"n": 5, "novo": "x"}}
        assert [(c.pointer, c.previous, c.value) for c in made] == [
            ("/grupo/n", 1, 5), ("/grupo/novo", None, "x")]
    finally:
        registry.close()


def test_a_value_the_database_refuses_fails_that_item_only(postgres_url: str) -> None:
    """On PostgreSQL: a holder's name longer than the run's column does not refuse the
    plan (cut for the run's table); a name longer than its column is refused in pt-BR,
    without SQL; a row the database refuses while an item is recorded fails that item
    only, with a pt-BR reason, and the run goes on; corrected, it is recorded under its
    number."""
    registry = open_registry(postgres_url)
    try:
        long_name = "Empresa de Nome Longuíssimo " * 25  # 700 characters
        run_id = _stand_in_run(registry, long_name, "Titular B")
        first, second = run_items(registry, run_id)
        assert len(first.name) == 200 and first.name.endswith("…")

        with pytest.raises(ValueRefused) as refused, registry.database_errors(), \
                registry.write_session() as session:
            session.add(VoidedNumberRow(series="TST-A", year=2025, number=99,
                                            reason="teste", voided_by=long_name,
                                            voided_at=datetime.now(UTC)))
        assert "excede o tamanho que o registro admite, de até 200 caracteres" \
            in refused.value.message
        codes = {first.id: "CODIGO-REPETIDO", second.id: "CODIGO-REPETIDO"}

        def build(item: Any) -> Built:
            return Built(pdf=pdf_with_title(str(item.printed)), data=item.data, computed={},
                         reference_date=date(2025, 12, 10),
                         verification_code=codes[item.id], signer_subject="CN=Teste",
                         signer_serial="0A", pack_version="teste")

        recorded = claim_and_record(registry, run_id, build, worker="w")
        assert recorded is not None and recorded.id == first.id and recorded.done
        with pytest.raises(ItemFailed) as failed:  # the same code: the database refuses
            claim_and_record(registry, run_id, build, worker="w")
        message = failed.value.message
        assert failed.value.item.id == second.id
        assert message == ("Conflito no registro de documentos: o código de verificação já "
                           "existe em outro documento.")
        for sql in ("INSERT", "UNIQUE", "duplicate key", "psycopg"):
            assert sql not in message and sql not in refused.value.message
        record_failure(registry, second.id, message)
        assert not find_item(registry, run_id, 1).done
        codes[second.id] = "CODIGO-NOVO"
        correct(registry, second.id, [Change("/assinante", "Titular B Corrigido")], by="Ana")
        again = claim_and_record(registry, run_id, build, worker="w")
        assert again is not None and again.id == second.id and again.done
        assert again.printed == second.printed and again.data == {
            "assinante": "Titular B Corrigido", "grupo": {"n": 1}}
    finally:
        registry.close()


def test_the_summary_csv_escapes_formulas() -> None:
    hostile = ["=HYPERLINK(\"http://x\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)",
               "\tx", "\rx", "Nome comum"]
    rows = [SummaryRow(n + 1, "1", text, "recusado", "recusado", "", "", "", "recusado",
                       text) for n, text in enumerate(hostile)]
    read = list(csv.reader(io.StringIO(summary_csv(rows).decode("utf-8"), newline="")))[1:]
    assert [r[2] for r in read] == [f"'{t}".replace("\r", "\n") for t in hostile[:-1]] \
        + ["Nome comum"]
    assert all(not r[9].startswith(("=", "+", "-", "@", "\t", "\r")) for r in read)
