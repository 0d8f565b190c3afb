"""Issue 22, item 5: the history of a vehicle or party (``lavra cadastro mostrar``) lists,
among the licensing state's changes by date, the acts that named the plate or the
CPF/CNPJ and changed nothing in the state — an auto de infração with the payment
recorded on it, or annulled on appeal — found through the documents' indexes; a
cancelled act is not listed, and no act twice. Over a registry of acts recorded here
(SQLite and PostgreSQL) and over the imported sample. Every date is passed."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import update
from test_auto_anulado import auto, decide
from test_cadastro_import import SAMPLE
from test_licensing_state import alvara_fretamento

from lavra.cli.main import main
from lavra.registry.records import LOCAL_TZ
from lavra.registry.store import Registry
from lavra.registry.tables import DocumentRow

TITLE = "Auto de Infração e Imposição de Multa"


def shown(key: str, url: str) -> list[str]:
    result = CliRunner().invoke(main, ["cadastro", "mostrar", key, "--data", "2026-06-01",
                                       "--registro", url])
    assert result.exit_code == 0, result.output
    return [line.strip() for line in result.output.splitlines()]


def test_the_history_lists_the_auto_its_payment_and_the_cancelled_act_marked(
    registry: Registry, registry_url: str,
) -> None:
    alvara = alvara_fretamento(registry, on=date(2026, 3, 2))
    paid = auto(registry, date(2026, 3, 10))
    with registry.engine.begin() as connection:  # signed on its day, not today
        connection.execute(update(DocumentRow).where(DocumentRow.id == paid.id).values(
            issued_at=datetime(2026, 3, 10, 15, tzinfo=LOCAL_TZ)))
    registry.record_fact(paid.id, "pagamento", on="2026-03-25", by="Clara (clara)",
                         amount="1234.50", now=datetime(2026, 3, 26, 10, tzinfo=LOCAL_TZ))
    cancelled = auto(registry, date(2026, 4, 1))
    registry.cancel(cancelled.series, cancelled.year, cancelled.number,
                    reason="erro material", by="Chefia")
    annulled = auto(registry, date(2026, 4, 6))
    decision = decide(registry, annulled, on=date(2026, 4, 20))

    paid_line = (f"10/03/2026  {paid.printed}: {TITLE}, sem alteração do cadastro. "
                 "Situação: pagamento em 25/03/2026, no valor de R$ 1.234,50.")
    annulled_line = (f"06/04/2026  {annulled.printed}: {TITLE}, sem alteração do cadastro. "
                     f"Situação: anulado em recurso pelo {decision.printed}, de 20/04/2026.")
    for key in ("ABC-1D23", "ABC1323", "65.563.842/0001-05"):  # either plate; the CNPJ
        lines = shown(key, registry_url)
        assert "Histórico:" in lines, (key, lines)
        history = lines[lines.index("Histórico:") + 1:]
        acts = [line for line in history if line[:2].isdigit()]
        assert acts[0].startswith(f"02/03/2026  {alvara.printed}: "), acts
        assert acts[1] == paid_line and annulled_line in acts
        assert acts.index(annulled_line) < len(acts) - 1  # the decision after it
        assert acts[-1].startswith(f"20/04/2026  {decision.printed}: ")
        # Cancelled, it stays in the history act by act, marked so (no changes to undo).
        said = [line for line in acts if cancelled.printed in line]
        assert len(said) == 1 and said[0].startswith(
            f"01/04/2026  {cancelled.printed}: Ato cancelado em "), said
        assert said[0].endswith(" (motivo: erro material)."), said
        # Named and changing the state: the lines of its changes only, no more.
        changes = (registry.timeline(holder=key) if "/" in key
                   else registry.timeline(placa=key))
        for record in (alvara, paid, decision):
            count = max(1, sum(entry.document_id == record.id for entry in changes))
            assert sum(f"  {record.printed}: " in line for line in acts) == count, acts
    # The revoked payment is no longer the auto's situation.
    [fact] = registry.facts(paid.id)
    registry.revoke_fact(fact.id, reason="guia de outro auto", by="Clara (clara)")
    assert f"10/03/2026  {paid.printed}: {TITLE}, sem alteração do cadastro." in shown(
        "ABC1D23", registry_url)
    # A plate nothing names shows no act of another.
    assert not any(paid.printed in line for line in shown("XYZ9A87", registry_url))


def test_the_history_of_an_imported_registry_lists_its_autos(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'registro.sqlite3'}"
    done = CliRunner().invoke(main, ["cadastro", "importar", str(SAMPLE), "--data", "2026-01-15",
                                  "--registro", url])
    assert done.exit_code == 0, done.output
    origin = "importado: cadastro-importacao.csv, linha"
    escolar = shown("ESC4D44", url)
    [line] = [x for x in escolar if "AIE-ESC nº 0011/2025" in x]
    assert line.startswith(f"01/08/2025  AIE-ESC nº 0011/2025 ({origin} 10): ")
    assert line.endswith("sem alteração do cadastro. Situação: pagamento em 20/08/2025, no "
                         "valor de R$ 140,00.")
    fretamento = shown("65563842000105", url)
    [line] = [x for x in fretamento if "AIF-FRET nº 0040/2025" in x]
    assert line == (f"01/10/2025  AIF-FRET nº 0040/2025 ({origin} 9): {TITLE}, sem "
                    "alteração do cadastro.")
    assert fretamento.index(line) > next(i for i, x in enumerate(fretamento)
                                         if "ALV-FRET nº 0031/2024" in x)
