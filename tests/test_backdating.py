"""The bound on backdating final acts (:mod:`lavra.checking.backdating`, issue 22, defect
9): the default (30 days), the setting ``retroacao_maxima_dias`` and its variable. The
suite lifts the bound (tests/conftest.py); each test here sets it explicitly. The clock
is injected: no test reads today's date."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from issuers import VERIFICATION_URL

from lavra.config import BACKDATING_ENV, DEFAULT_BACKDATING_DAYS, Config, load_config
from lavra.documents import Engine
from lavra.errors import ConfigError
from lavra.inputs.reading import TIMEZONE
from lavra.issuing import IncompleteError, Issuer
from lavra.registry.database import database_url
from lavra.registry.store import open_registry

ALV = "alvara-fretamento"
NOW = datetime(2026, 12, 7, 10, 0, tzinfo=TIMEZONE)  # the day of defect 9's signature


@pytest.fixture
def issuer(engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """An issuer signing at NOW with the configuration's default bound (no PKI: nothing
    here is signed)."""
    monkeypatch.delenv(BACKDATING_ENV)
    config = Config(pack_dir=engine.content.root, data_dir=tmp_path,
                    verification_url=VERIFICATION_URL)
    assert config.backdating_days == DEFAULT_BACKDATING_DAYS == 30
    issuer = Issuer(engine, open_registry(database_url(tmp_path)), config, clock=lambda: NOW)
    yield issuer
    issuer.close()


def _example(engine: Engine) -> dict[str, Any]:
    path = engine.content.form(ALV).example
    assert path is not None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _bound(issuer: Issuer, engine: Engine, on: date) -> list[tuple[str, str]]:
    report = issuer.prepare(ALV, _example(engine), on).report
    return [(i.field, i.message) for i in report.items if i.requirement == "data.retroacao"]


def test_an_act_dated_more_than_the_bound_before_signing_is_refused(
    issuer: Issuer, engine: Engine
) -> None:
    assert _bound(issuer, engine, date(2026, 11, 7)) == []  # 30 days before: accepted
    assert _bound(issuer, engine, date(2026, 11, 6)) == [("/on", (
        "A data do ato (06/11/2026) é anterior em 31 dias ao dia da assinatura (07/12/2026): "
        "pela configuração do lavra, um ato só pode ser datado até 30 dias antes do dia em "
        "que é assinado. Corrija a data do ato (a partir de 07/11/2026), ou peça ao "
        "administrador que reveja o limite."))]
    with pytest.raises(IncompleteError) as refused:
        issuer.issue(ALV, _example(engine), date(2026, 3, 16))
    assert "(16/03/2026) é anterior em 266 dias" in " ".join(
        i.message for i in refused.value.report.items)
    assert issuer.registry.get("ALV-FRET", 2026, 1) is None  # nothing numbered
    assert any(i.requirement == "data.retroacao"  # the staff's check says it before signing
               for i in issuer.check(ALV, _example(engine), date(2026, 3, 16)).items)


def test_the_bound_is_a_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    toml = tmp_path / "lavra.toml"
    monkeypatch.setenv("LAVRA_CONFIG", str(toml))
    monkeypatch.delenv(BACKDATING_ENV)
    toml.write_text("", encoding="utf-8")
    assert load_config(tmp_path).backdating_days == 30
    toml.write_text("retroacao_maxima_dias = 45\n", encoding="utf-8")
    assert load_config(tmp_path).backdating_days == 45
    toml.write_text('retroacao_maxima_dias = "sem limite"\n', encoding="utf-8")
    assert load_config(tmp_path).backdating_days is None
    monkeypatch.setenv(BACKDATING_ENV, "0")  # the variable wins over the file
    assert load_config(tmp_path).backdating_days == 0
    for bad in ("-3", '"trinta"', "true", "2.5"):
        toml.write_text(f"retroacao_maxima_dias = {bad}\n", encoding="utf-8")
        monkeypatch.delenv(BACKDATING_ENV, raising=False)
        with pytest.raises(ConfigError, match="«retroacao_maxima_dias» deve ser um número "
                                              "inteiro de dias, 0 ou mais"):
            load_config(tmp_path)


def test_the_shell_names_the_option_not_the_key(
    engine: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    from lavra.checking.backdating import backdating_item
    from lavra.checking.report import Report
    from lavra.cli.reports import print_report

    item = backdating_item(date(2026, 3, 16), NOW.date(), 30, "/on")
    assert item is not None
    print_report(Report(ALV, date(2026, 3, 16), (item,)), False, engine.content)
    shown = capsys.readouterr().out
    assert "reveja o limite. — opção --data" in shown and "«on»" not in shown
