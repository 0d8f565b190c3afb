"""A school transfer with another vehicle (Lei nº 4.515/2007, art. 15, with art. 3º, § 2º,
and art. 17, § 1º): the selo of the old vehicle ends with the termo, in its transaction,
as with the Termo de Substituição de Veículo; ``cadastro mostrar`` of the old plate says
so, ``lavra verify`` of the selo's signed PDF gives its situation, and cancelling the
termo gives the selo back in force in the cedente's name. A real signed selo over a
SQLite registry; every date is fixed."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from formcases import example
from issuers import clocked_issuer, poppler
from test_licensing_state import act

from lavra.cli.main import main
from lavra.documents import Engine
from lavra.inputs.reading import TIMEZONE
from lavra.registry.database import database_url
from lavra.registry.store import Registry
from lavra_americana import pacote

ALV, TERMO, SELO = "alvara-transporte-escolar", "termo-transferencia-licenca", "selo-identificacao"
GRANTED, TRANSFERRED = date(2024, 3, 10), date(2026, 3, 2)
CEDENTE = "52998224725"


def _alvara_and_selo(engine: Engine, registry: Registry) -> tuple[dict[str, Any], Any,
                                                                   dict[str, Any]]:
    """The cedente's alvará of 10/03/2024, recorded (its data and record), and the data of
    a selo resting on it."""
    registry.use_effects(pacote().effects)
    granted = example(engine, ALV)
    alvara = act(registry, "ALV-ESC", ALV, granted, on=GRANTED,
                 computed={"inicio_vigencia": GRANTED.isoformat(), "valido_ate": "2026-12-31"})
    selo = example(engine, SELO)
    selo["alvara"] = {"numero": alvara.printed, "valido_ate": "2026-12-31"}
    return granted, alvara, selo


def test_the_old_vehicles_selo_ends_with_the_transfer_and_comes_back_with_its_cancellation(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "lavra-dados"  # where `lavra verify` finds the registry
    monkeypatch.setenv("LAVRA_DATA", str(data_dir))
    monkeypatch.delenv("LAVRA_DATABASE_URL", raising=False)
    monkeypatch.delenv("LAVRA_CONFIG", raising=False)
    issuer = clocked_issuer(engine, data_dir, datetime(2024, 3, 10, 10, 0, tzinfo=TIMEZONE))
    runner, url = CliRunner(), database_url(data_dir)
    try:
        registry = issuer.registry
        granted, alvara, selo = _alvara_and_selo(engine, registry)
        sealed = issuer.issue(SELO, selo, GRANTED)
        (tmp_path / "selo.pdf").write_bytes(sealed.pdf)
        termo = example(engine, TERMO)
        termo["licenca"]["numero"] = alvara.printed
        old, new = granted["veiculo"]["placa"], termo["veiculo"]["placa"]
        assert old != new  # the termo's example brings the cessionária's own vehicle
        transfer = act(registry, "TRF-ESC", TERMO, termo, on=TRANSFERRED)
        ended = registry.licence_of(sealed.record.id)
        assert ended is not None and ended.status == "ended" and ended.holder == CEDENTE
        line = (f"{sealed.record.printed} encerrado com a transferência do {alvara.printed} "
                f"com outro veículo, pelo {transfer.printed}.")
        shown = runner.invoke(main, ["cadastro", "mostrar", old, "--registro", url,
                                     "--on", "2026-04-06"])
        assert shown.exit_code == 0, shown.output
        history = " ".join(shown.output.split())
        assert line in history and (f"Veículo {old} desvinculado do {alvara.printed} pelo "
                                    f"{transfer.printed}") in history, shown.output
        checked = runner.invoke(main, ["verify", str(tmp_path / "selo.pdf"),
                                       "--on", "2026-04-06"])
        assert checked.exit_code == 0, checked.output
        said = " ".join(checked.output.split())
        assert "Situação da licença: encerrado" in said and transfer.printed in said, said
        registry.cancel("TRF-ESC", 2026, 1, reason="Termo lavrado por engano.", by="Servidor")
        back = registry.licence_of(sealed.record.id)
        assert back is not None and back.status == "active" and back.holder == CEDENTE
        again = runner.invoke(main, ["verify", str(tmp_path / "selo.pdf"),
                                     "--on", "2026-04-06"])
        assert "Situação da licença: em vigor" in again.output, again.output
    finally:
        issuer.close()


@pytest.mark.parametrize("same_vehicle", [False, True], ids=["outro-veiculo", "mesmo-veiculo"])
def test_the_termo_states_the_selo_it_ends_or_passes_on(
    engine: Engine, tmp_path: Path, same_vehicle: bool
) -> None:
    """The signed termo names, from the registry on its date, the selo the transfer with
    another vehicle ends (and the state ends it), or the selo that passes to the
    cessionária with the same vehicle (and the state moves it)."""
    issuer = clocked_issuer(engine, tmp_path / "dados",
                            datetime(2026, 11, 27, 10, 0, tzinfo=TIMEZONE))
    try:
        registry = issuer.registry
        granted, alvara, selo = _alvara_and_selo(engine, registry)
        sealed = act(registry, "SELO-ESC", SELO, selo, on=GRANTED,
                     computed={"inicio_vigencia": GRANTED.isoformat(),
                               "valido_ate": "2026-12-31"})
        termo = example(engine, TERMO)
        termo["licenca"]["numero"] = alvara.printed
        old, new = granted["veiculo"]["placa"], termo["veiculo"]["placa"]
        if same_vehicle:
            termo["veiculo"].update({key: granted["veiculo"][key] for key in (
                "placa", "renavam", "marca_modelo", "ano_fabricacao")})
        issued = issuer.issue(TERMO, termo)
        text = " ".join(poppler(issued.pdf).split())
        after = registry.licence_of(sealed.id)
        assert after is not None
        if same_vehicle:
            assert (f"O veículo licenciado permanece o de placa {old}: acompanha a licença e "
                    f"passa à parte cessionária o selo de identificação {sealed.printed}, ato "
                    "correspondente à licença (art. 3º, § 2º,") in text, text
            assert "Encerra-se" not in text
            assert after.status == "active" and after.holder == "11144477735"
        else:
            assert (f"Encerra-se nesta data o ato expedido para o veículo de placa {old}, que "
                    "deixa de ser o veículo licenciado com esta transferência com outro "
                    f"veículo: o selo de identificação {sealed.printed}, que deve ser "
                    "retirado do veículo e devolvido à SETRANSV (art. 3º, § 2º,") in text, text
            assert f"Novo selo, numerado, é expedido para o veículo de placa {new}" in text
            assert after.status == "ended" and after.holder == CEDENTE
    finally:
        issuer.close()
