"""``lavra verify`` states the status of the licence an act granted, beside the
signature's validity: a real signed alvará verified in force, then after a cassação
recorded with the pack's effects; an act that grants no licence shows nothing more; an
act the registry holds as a divergência says so in the public page's words. Every status
is asked on a fixed date (``--on``), never today's."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from issuers import clocked_issuer, dev_issuer
from test_cited_acts import RAW_STATED, raw_divergence
from test_licensing_replay import before_the_guard, particular
from test_licensing_state import act, alvara_fretamento, cassacao, example

from lavra.checking.content import Content
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.issuing import Issuer
from lavra.registry.records import LOCAL_TZ
from lavra_americana import pacote

ALV = "alvara-fretamento"
AIF = "auto-infracao-fretamento"
ON = date(2026, 11, 29)


@pytest.fixture
def issuer(pack_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.chdir(tmp_path)
    for name in ("LAVRA_DATABASE_URL", "LAVRA_DATA", "LAVRA_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    opened = dev_issuer(Engine(Content(pack_dir)), tmp_path / "lavra-dados")
    yield opened
    opened.close()


def _verify(*args: str) -> Any:
    return CliRunner().invoke(main, ["verify", *args])


def test_verify_states_the_licence_in_force_then_cassated(
    issuer: Issuer, pack_dir: Path, tmp_path: Path
) -> None:
    data = json.loads((pack_dir / "forms" / ALV / "exemplo.json").read_text("utf-8"))
    alvara = issuer.issue(ALV, data, ON)
    pdf = tmp_path / "alvara.pdf"
    pdf.write_bytes(alvara.pdf)
    printed = alvara.record.printed

    before = _verify(str(pdf), "--on", "2026-12-01")
    assert before.exit_code == 0, before.output
    # The series and number as printed, never the form id (issue 23, class 8).
    assert f"Documento autêntico: {printed}, assinado por" in before.output
    assert ALV not in before.output and "Divergência" not in before.output
    assert "Situação da licença: em vigor." in before.output
    as_json = json.loads(_verify(str(pdf), "--on", "2026-12-01", "--json").output)
    assert as_json["printed"] == printed and as_json["series"] == alvara.record.series
    assert as_json["licence"]["situation"] == "em vigor"
    assert as_json["licence"]["on"] == "2026-12-01"

    decision = cassacao(issuer.registry, alvara.record, on=date(2026, 12, 10))
    after = _verify(str(pdf), "--on", "2026-12-15")
    # The signature stays valid: the act was lawfully issued; the licence has ended.
    assert after.exit_code == 0, after.output
    assert (f"Situação da licença: cassado em 10/12/2026 pelo {decision.printed}."
            in after.output)
    by_code = _verify("--code", alvara.record.verification_code, "--on", "2026-12-15")
    assert by_code.exit_code == 0, by_code.output
    assert by_code.output.startswith(f"{printed}, emitido em")
    assert ALV not in by_code.output
    assert f"cassado em 10/12/2026 pelo {decision.printed}" in by_code.output
    code_json = json.loads(_verify("--code", alvara.record.verification_code,
                                   "--on", "2026-12-15", "--json").output)
    assert code_json["licence"]["status"] == "cassated" and code_json["divergences"] == []

    # The cassação grants no licence: nothing is said of one.
    no_licence = _verify("--code", decision.verification_code, "--on", "2026-12-15")
    assert no_licence.exit_code == 0, no_licence.output
    assert "Situação da licença" not in no_licence.output
    assert json.loads(_verify("--code", decision.verification_code,
                              "--json").output)["licence"] is None


def test_verify_says_a_licence_past_its_last_day_expired(
    issuer: Issuer, pack_dir: Path, tmp_path: Path
) -> None:
    data = json.loads((pack_dir / "forms" / ALV / "exemplo.json").read_text("utf-8"))
    alvara = issuer.issue(ALV, data, ON)
    view = issuer.registry.licence_of(alvara.record.id)
    assert view is not None and view.valid_until is not None
    pdf = tmp_path / "alvara.pdf"
    pdf.write_bytes(alvara.pdf)
    late = view.valid_until.replace(year=view.valid_until.year + 1)
    result = _verify(str(pdf), "--on", late.isoformat())
    assert result.exit_code == 0, result.output
    assert f"Situação da licença: vencido em {view.valid_until:%d/%m/%Y}." in result.output
    bad = _verify(str(pdf), "--on", "amanhã")
    assert bad.exit_code == 2 and "--data" in bad.output and "Traceback" not in bad.output


def test_verify_states_the_divergencia_of_an_act_in_the_public_pages_words(
    issuer: Issuer,
) -> None:
    """An ALV-PART recorded under the cassação's bar by a version of the pack before that
    guard, then rebuilt with today's pack: ``lavra verify`` states the divergência as the
    public verification page does (one wording: Registry.public_divergences), beside
    the licence's status; the cassated alvará states its cassação and no divergência."""
    registry = issuer.registry
    registry.use_effects(before_the_guard())
    try:
        alvara = alvara_fretamento(registry, on=date(2026, 3, 2))
        decision = cassacao(registry, alvara, on=date(2026, 4, 20))
        divergent = particular(registry)
    finally:
        registry.use_effects(pacote().effects)
    assert len(registry.rebuild_state(apply=True).divergences) == 1
    stated = ("Este ato foi registrado em desacordo com o impedimento imposto pelo "
              f"{decision.printed}, em vigor até 20/04/2027 (art. 22, parágrafo único, "
              "da Lei nº 4.419/2006); consta como divergência no cadastro.")
    assert registry.public_divergences(divergent.id) == (stated,)

    result = _verify("--code", divergent.verification_code, "--on", "2026-12-15")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{divergent.printed}, emitido em ")
    assert lines[1:] == ["Situação da licença: em vigor.", f"Divergência: {stated}"]
    by_number = _verify("--numero", divergent.formatted, "--serie", divergent.series,
                        "--on", "2026-12-15")
    assert by_number.output == result.output
    as_json = json.loads(_verify("--code", divergent.verification_code, "--on",
                                 "2026-12-15", "--json").output)
    assert as_json["divergences"] == [stated]
    assert as_json["series"] == "ALV-PART" and as_json["printed"] == divergent.printed

    cassated = _verify("--code", alvara.verification_code, "--on", "2026-12-15")
    assert cassated.exit_code == 0, cassated.output
    assert (f"Situação da licença: cassado em 20/04/2026 pelo {decision.printed}."
            in cassated.output)
    assert "Divergência" not in cassated.output


def test_verify_states_an_auto_annulled_on_appeal_beside_the_signature(
    pack_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    """Issue 22, item 5: a real signed auto de infração, then the Secretário's decision
    granting the appeal (recorded with the pack's effects): ``lavra verify`` keeps the
    signature valid and says the auto no longer stands, by the file and by the code;
    the decision itself, and an auto not appealed, say nothing of it."""
    monkeypatch.chdir(tmp_path)
    for name in ("LAVRA_DATABASE_URL", "LAVRA_DATA", "LAVRA_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    # signed on the day of the infraction, as the agent does (never today's clock)
    issuer = clocked_issuer(Engine(Content(pack_dir)), tmp_path / "lavra-dados",
                            datetime(2026, 3, 2, 15, tzinfo=LOCAL_TZ))
    request.addfinalizer(issuer.close)
    issuer.registry.use_effects(pacote().effects)
    data = json.loads((pack_dir / "forms" / AIF / "exemplo.json").read_text("utf-8"))
    auto = issuer.issue(AIF, data, date(2026, 3, 2), example_values=True)
    pdf = tmp_path / "auto.pdf"
    pdf.write_bytes(auto.pdf)
    before = _verify(str(pdf), "--on", "2026-03-10")
    assert before.exit_code == 0, before.output
    assert "Situação do ato" not in before.output

    appeal = example("decisao-recurso-secretario")
    appeal["ato_recorrido"]["numero"] = auto.record.printed
    appeal["decisao"].update(data="2026-03-20", resultado="provido")
    decision = act(issuer.registry, "DEC-SETRANSV", "decisao-recurso-secretario", appeal,
                   on=date(2026, 3, 20), computed={"resultado": "provido", "conhecido": True})
    line = f"Situação do ato: anulado em recurso pelo {decision.printed}, de 20/03/2026."
    after = _verify(str(pdf), "--on", "2026-03-25")
    assert after.exit_code == 0, after.output  # the signature holds; the act no longer stands
    assert f"Documento autêntico: {auto.record.printed}" in after.output
    assert line in after.output
    as_json = json.loads(_verify(str(pdf), "--json").output)
    assert as_json["valid"] is True
    assert as_json["situation"] == (f"anulado em recurso pelo {decision.printed}, "
                                    "de 20/03/2026")
    by_code = _verify("--code", auto.record.verification_code)
    assert by_code.exit_code == 0 and line in by_code.output, by_code.output
    assert json.loads(_verify("--code", auto.record.verification_code, "--json").output)[
        "situation"] == as_json["situation"]
    own = _verify("--code", decision.verification_code)
    assert own.exit_code == 0 and "Situação do ato" not in own.output, own.output

    # Cancelling the decision makes the auto stand again, and verify says nothing more.
    issuer.registry.cancel(decision.series, decision.year, decision.number,
                           reason="erro material", by="Chefia")
    again = _verify(str(pdf), "--on", "2026-03-25")
    assert again.exit_code == 0 and "Situação do ato" not in again.output, again.output


def test_verify_by_number_states_an_imported_licence(issuer: Issuer) -> None:
    """Over the sample import: an act from before lavra has no original to check, and
    ``verify --numero`` says so and states the licence as the registry holds it."""
    from test_cadastro_import import load

    load(issuer.registry)
    cassated = _verify("--numero", "0032/2024", "--serie", "ALV-FRET", "--on", "2026-01-15")
    assert cassated.exit_code == 0, cassated.output
    assert cassated.output.startswith(
        "ALV-FRET nº 0032/2024, de 12/03/2024, ato anterior ao lavra, importado de "
        "cadastro-importacao.csv, linha 3: consta do registro, não cancelado.\n")
    assert ("Situação da licença: cassado em 15/09/2025 pelo CAS-FRET nº 0002/2025."
            in cassated.output)
    expired = json.loads(_verify("--numero", "0031/2024", "--serie", "ALV-FRET",
                                 "--on", "2029-03-01", "--json").output)
    assert expired["origin"] == "cadastro-importacao.csv, linha 2"
    assert expired["licence"]["situation"] == "vencido em 09/02/2029"
    in_force = _verify("--numero", "0018/2023", "--serie", "ALV-ESC", "--on", "2026-01-15")
    assert "Situação da licença: em vigor." in in_force.output, in_force.output


def test_verify_prints_the_article_of_a_divergencia_stored_with_its_raw_id(
    issuer: Issuer,
) -> None:
    """``lavra verify`` reads the pack's laws to print it (never «fretamento#art22»)."""
    alvara = alvara_fretamento(issuer.registry, on=date(2026, 3, 2))
    with raw_divergence(issuer.registry, alvara.id):
        result = _verify("--code", alvara.verification_code, "--on", "2026-03-10")
    assert result.exit_code == 0, result.output
    assert f"Divergência: {RAW_STATED}" in result.output.splitlines()
    assert "#" not in result.output
