"""Issue 23, class 1: the licence's history (``lavra cadastro mostrar``) shows, under each
act, its recorded ciência and the last day counted from it, or, while none is recorded,
the period that will run from it. Every moment is explicit: the cassação's moment of
issue and the ciência's moment of recording are set here, not read from the clock."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from click.testing import CliRunner
from test_licensing_state import cassated_registry

from lavra.cli.main import main
from lavra.registry.records import LOCAL_TZ
from lavra.registry.store import open_registry

SIGNED = datetime(2026, 4, 20, 16, 5, tzinfo=LOCAL_TZ)  # a Monday


def test_the_cli_history_shows_the_ciencia_awaited_then_its_last_day(tmp_path: Path) -> None:
    url, alvara, decision = cassated_registry(tmp_path, SIGNED)
    runner = CliRunner()
    before = runner.invoke(main, ["cadastro", "mostrar", "ABC1D23", "--registro", url])
    assert before.exit_code == 0, before.output
    cassado = f"20/04/2026  {decision.printed}: {alvara.printed} cassado pelo {decision.printed}."
    assert (f"{cassado}\n              Aguardando ciência: 15 dias contados da ciência, para "
            "recurso (art. 24 da Lei nº 4.419/2006).") in before.output
    assert "encerra-se" not in before.output
    opened = open_registry(url)
    try:
        opened.record_fact(decision.id, "ciencia", on="2026-04-22", by="Clara (clara)",
                           means="pessoal", now=datetime(2026, 4, 22, 15, tzinfo=LOCAL_TZ))
    finally:
        opened.close()
    after = runner.invoke(main, ["cadastro", "mostrar", alvara.formatted, "--serie", "ALV-FRET",
                                 "--registro", url])
    assert after.exit_code == 0, after.output
    # 15 days from Wednesday 22/04/2026 end on Thursday 07/05/2026 (art. 24).
    assert (f"{cassado}\n              Ciência em 22/04/2026, pessoalmente — prazo de recurso "
            "de 15 dias encerra-se em 07/05/2026 (art. 24 da Lei nº 4.419/2006).") in after.output
    assert "Aguardando ciência" not in after.output
    assert after.output.count("Ciência em") == 1  # the alvará's issue awaits no ciência
