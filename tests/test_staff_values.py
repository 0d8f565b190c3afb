"""Values staff keep (issue 10, class 9): decreed days and yearly corrected fines.

The registry records them with the act, who and when (SQLite and PostgreSQL); the
calendar and the parameters of every document read the pack's data overlaid with the
ones in force; the auto's pending fine says whom to ask, never which file to edit.
All dates are explicit.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from issuers import dev_issuer
from sqlalchemy import func, select

from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import IncompleteError, Issuer
from lavra.law.calendar import CalendarEntry
from lavra.law.deadlines import Period, count
from lavra.law.overlay import DecreedDay, StaffOverlay, StaffPeriod, overlay_calendar
from lavra.law.statutory import load_statutory_context
from lavra.registry.staff_values import StaffKind
from lavra.registry.store import Registry, open_registry
from lavra.registry.tables import StaffValueRow
from lavra.staff import add_staff_parameter, settable_parameters

TZ = ZoneInfo("America/Sao_Paulo")
DECREE = "Decreto nº 12.345, de 10 de março de 2026"
FINE_ACT = "Decreto nº 12.001, de 5 de janeiro de 2026"
AUTO = "auto-infracao-fretamento"
ISSUED_AT = datetime(2026, 3, 2, 18, 0, tzinfo=TZ)
ASK = "Procure o administrador do lavra na Secretaria de Transportes e Sistema Viário"
SETTABLE = {"x.multa": "Multa de exemplo"}


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    with open_registry(registry_url) as opened:
        yield opened


def rows(registry: Registry) -> int:
    with registry.read_session() as session:
        return int(session.execute(select(func.count(StaffValueRow.id))).scalar_one())


# ------------------------------------------------------------------ registry


def test_a_day_is_recorded_with_act_who_and_when_and_revoked_not_deleted(
        registry: Registry) -> None:
    day = registry.add_staff_day("16/03/2026", "ponto_facultativo", "Ponto facultativo",
                                 act=DECREE, by="Ana Administradora")
    assert (day.kind, day.key, day.since, day.until) == (
        StaffKind.DAY, "2026-03-16", date(2026, 3, 16), date(2026, 3, 16))
    assert day.value == {"tipo": "ponto_facultativo", "nome": "Ponto facultativo"}
    assert day.act == DECREE and day.recorded_by == "Ana Administradora"
    assert day.recorded_at.tzinfo is not None and day.in_force
    revoked = registry.revoke_staff_value(day.id, reason="Decreto revogado", by="Bruno")
    assert not revoked.in_force and revoked.revoked_by == "Bruno"
    assert revoked.revoke_reason == "Decreto revogado"
    assert registry.staff_values(include_revoked=False) == ()
    [kept] = registry.staff_values()
    assert kept.id == day.id and not kept.in_force
    with pytest.raises(InputError, match="já foi revogado") as caught:
        registry.revoke_staff_value(day.id, reason="de novo", by="Bruno")
    assert caught.value.field == "/id"
    # Revoked, the same day may be registered again.
    registry.add_staff_day(date(2026, 3, 16), "feriado", "Feriado decretado",
                           act=DECREE, by="Ana")
    assert len(registry.staff_values()) == 2


def test_one_day_in_force_per_date(registry: Registry) -> None:
    registry.add_staff_day(date(2026, 3, 16), "ponto_facultativo", "Ponto facultativo",
                           act=DECREE, by="Ana")
    with pytest.raises(InputError) as caught:
        registry.add_staff_day(date(2026, 3, 16), "feriado", "Outro", act=DECREE, by="Bia")
    assert caught.value.field == "/data"
    assert "Já está cadastrado 16/03/2026" in caught.value.message
    assert "revogue esse cadastro" in caught.value.message
    assert rows(registry) == 1


@pytest.mark.parametrize(
    ("args", "field", "words"),
    [
        (("31/02/2026", "feriado", "X", DECREE), "/data", "Data inválida"),
        (("", "feriado", "X", DECREE), "/data", "Data inválida"),
        (("16/03/2026", "recesso", "X", DECREE), "/tipo", "feriado ou ponto facultativo"),
        (("16/03/2026", "feriado", "  ", DECREE), "/nome", "Informe o nome do dia"),
        (("16/03/2026", "feriado", "X", ""), "/ato", "Informe o ato"),
        (("16/03/2026", "feriado", "X", "decreto do prefeito"), "/ato", "Decreto nº 12.345"),
        (("16/03/2026", "feriado", "X", "Portaria nº 3, de 2 de março de 2026"), "/ato",
         "Informe o decreto"),
    ],
)
def test_a_bad_day_is_refused_naming_the_field_and_nothing_is_written(
        registry: Registry, args: tuple[str, str, str, str], field: str, words: str) -> None:
    on, kind, name, act = args
    with pytest.raises(InputError) as caught:
        registry.add_staff_day(on, kind, name, act=act, by="Ana")
    assert caught.value.field == field and words in caught.value.message
    assert rows(registry) == 0


def test_a_parameter_value_covers_its_year(registry: Registry) -> None:
    value = registry.add_staff_parameter("x.multa", "2027", "1.234,56", act=FINE_ACT,
                                         by="Ana", settable=SETTABLE, places=2)
    assert (value.kind, value.key, value.since, value.until) == (
        StaffKind.PARAMETER, "x.multa", date(2027, 1, 1), date(2027, 12, 31))
    assert value.amount == Decimal("1234.56")
    with pytest.raises(InputError) as caught:
        registry.add_staff_parameter("x.multa", 2027, "99", act=FINE_ACT, by="Bia",
                                     settable=SETTABLE)
    assert caught.value.field == "/ano" and "x.multa em 2027" in caught.value.message
    registry.add_staff_parameter("x.multa", 2028, "99", act=FINE_ACT, by="Bia",
                                 settable=SETTABLE)
    assert rows(registry) == 2


@pytest.mark.parametrize(
    ("name", "year", "value", "act", "field", "words"),
    [
        ("y.outro", 2027, "10", FINE_ACT, "/parametro", "Podem ser cadastrados: x.multa"),
        ("x.multa", "dois mil", "10", FINE_ACT, "/ano", "Ano inválido"),
        ("x.multa", 1850, "10", FINE_ACT, "/ano", "Ano inválido"),
        ("x.multa", 2027, "0", FINE_ACT, "/valor", "maior que zero"),
        ("x.multa", 2027, "-5", FINE_ACT, "/valor", "maior que zero"),
        ("x.multa", 2027, "dez reais", FINE_ACT, "/valor", "maior que zero"),
        ("x.multa", 2027, "10,005", FINE_ACT, "/valor", "2 casas decimais"),
        ("x.multa", 2027, "10", "", "/ato", "Informe o ato"),
        ("x.multa", 2027, "10", "ato do secretário", "/ato", "número e a data"),
    ],
)
def test_a_bad_parameter_value_is_refused_naming_the_field(
        registry: Registry, name: str, year: object, value: str, act: str, field: str,
        words: str) -> None:
    with pytest.raises(InputError) as caught:
        registry.add_staff_parameter(name, year, value, act=act, by="Ana", settable=SETTABLE,
                                     places=2)
    assert caught.value.field == field and words in caught.value.message
    assert rows(registry) == 0


def test_the_pack_says_which_parameters_staff_may_set(pack_dir: Path) -> None:
    settable = settable_parameters(Content(pack_dir).parameters)
    assert {"fretamento.multa.art15", "fretamento.multa.art16",
            "fretamento.multa.art17"} <= set(settable)
    assert "fretamento.prazo_recurso" not in settable  # a period the law fixes


# ------------------------------------------------------------------ calendar overlay


def test_a_decreed_ponto_facultativo_moves_a_deadline_and_is_named_with_its_decree(
        pack_dir: Path) -> None:
    shipped = load_statutory_context(pack_dir).calendar
    start = date(2026, 3, 2)
    plain = count(start, Period(15, "dias"), shipped)
    assert plain.last_day == date(2026, 3, 17) and not plain.moved
    decreed = overlay_calendar(shipped, StaffOverlay(days=(
        DecreedDay(date(2026, 3, 17), "ponto_facultativo", "Ponto facultativo", DECREE),)))
    moved = count(start, Period(15, "dias"), decreed)
    assert moved.last_day == date(2026, 3, 18) and moved.moved
    assert f"ponto facultativo: Ponto facultativo ({DECREE})" in moved.reason
    # Counting back, the decreed day is surely closed: the day before is the last one.
    assert decreed.previous_business_day(date(2026, 3, 17)) == date(2026, 3, 16)


def test_an_unconfirmed_day_extends_a_citizen_deadline_but_never_shortens_one() -> None:
    doubtful = CalendarEntry(name="Corpus Christi", kind="feriado", source="a confirmar",
                             easter_offset=60, confirmed=False)
    from lavra.law.calendar import BusinessCalendar

    cal = BusinessCalendar("BR", "SP", [doubtful])
    corpus = date(2026, 6, 4)  # Thursday
    assert not cal.is_business_day(corpus)
    assert cal.next_business_day(corpus) == date(2026, 6, 5)
    assert cal.previous_business_day(corpus) == corpus  # not brought forward
    assert cal.holiday_name(corpus) == "Corpus Christi (a confirmar)"


def test_the_shipped_calendar_marks_corpus_christi_unconfirmed(pack_dir: Path) -> None:
    raw = json.loads((pack_dir / "legal_text" / "feriados-municipais.json").read_text("utf-8"))
    [corpus] = [e for e in raw["recorrentes"] if e.get("dias_apos_pascoa") == 60]
    assert corpus["confirmado"] is False and "a confirmar" in corpus["fonte"]
    cal = load_statutory_context(pack_dir).calendar
    assert not cal.is_business_day(date(2026, 6, 4))


# ------------------------------------------------------------------ documents


@pytest.fixture(scope="module")
def engine(pack_dir: Path) -> Engine:
    """One engine for the module: the values live in each test's registry, not in it."""
    return Engine(Content(pack_dir), pool=None)


@pytest.fixture
def issuer(engine: Engine, tmp_path: Path) -> Iterator[Issuer]:
    made = dev_issuer(engine, tmp_path / "dados")
    yield made
    made.close()


def auto_data(pack_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (pack_dir / "forms" / AUTO / "exemplo.json").read_text("utf-8"))
    return data


def prepare(issuer: Issuer, data: dict[str, Any]) -> Any:
    return issuer.engine.prepare(AUTO, data, issued_at=ISSUED_AT, history=issuer.history)


def test_a_decreed_day_moves_the_autos_appeal_deadline_and_revoked_it_does_not(
        issuer: Issuer, pack_dir: Path) -> None:
    data = auto_data(pack_dir)
    assert prepare(issuer, data).computed["recurso"]["ultimo_dia"] == date(2026, 3, 17)
    day = issuer.registry.add_staff_day(date(2026, 3, 17), "ponto_facultativo",
                                        "Ponto facultativo", act=DECREE, by="Ana")
    appeal = prepare(issuer, data).computed["recurso"]
    assert appeal["ultimo_dia"] == date(2026, 3, 18) and appeal["prorrogado"]
    assert DECREE in appeal["explicacao"]
    issuer.registry.revoke_staff_value(day.id, reason="Decreto tornado sem efeito", by="Ana")
    assert prepare(issuer, data).computed["recurso"]["ultimo_dia"] == date(2026, 3, 17)


def test_without_the_years_fine_the_draft_says_whom_to_ask_and_issue_is_refused(
        issuer: Issuer, pack_dir: Path) -> None:
    data = auto_data(pack_dir)
    pending = [i for i in prepare(issuer, data).report.items if i.pending]
    assert {i.requirement for i in pending} == {"fretamento.multa.art15",
                                                 "fretamento.multa.art17"}
    for item in pending:
        assert ASK in item.message and "2026" in item.message
        assert ".json" not in item.message and "legal_text" not in item.message
    with pytest.raises(IncompleteError) as caught:
        issuer.issue(AUTO, data)
    assert "não pode ser emitido" in caught.value.message
    assert {"fretamento.multa.art15", "fretamento.multa.art17"} <= {
        i.requirement for i in caught.value.report.pending}
    assert issuer.registry.next_number("AUTO-FRET", 2026) == 1


def test_a_registered_fine_is_used_with_its_act_as_source(
        issuer: Issuer, pack_dir: Path) -> None:
    params = issuer.engine.content.parameters
    for article, value in (("15", "150,00"), ("17", "750,00")):
        add_staff_parameter(issuer.registry, params, f"fretamento.multa.art{article}", 2026,
                            value, act=FINE_ACT, by="Ana")
    prepared = prepare(issuer, auto_data(pack_dir))
    assert not [i for i in prepared.report.items if i.pending]
    lines = prepared.computed["infracoes"]
    assert [line["valor"] for line in lines] == [Decimal("150.00"), Decimal("750.00")]
    assert prepared.computed["total"] == Decimal("900.00")
    assert all(FINE_ACT in str(line) for line in lines)
    # A year not registered is still pending.
    data = auto_data(pack_dir)
    data["ocorrencia"]["data"] = "2025-03-03"
    data["ciencia"]["data"] = "2025-03-03"
    pending = [i for i in prepare(issuer, data).report.items if i.pending]
    assert any("2025" in i.message and ASK in i.message for i in pending)


def test_a_new_value_counts_for_the_next_document_without_a_restart(
        issuer: Issuer, pack_dir: Path) -> None:
    data = auto_data(pack_dir)
    assert prepare(issuer, data).computed["valores_pendentes"] is True
    # Registered by another process (another registry handle on the same database).
    with open_registry(issuer.registry.url) as other:
        for article in ("15", "17"):
            add_staff_parameter(other, issuer.engine.content.parameters,
                                f"fretamento.multa.art{article}", 2026, "200", act=FINE_ACT,
                                by="Outra sessão")
    assert prepare(issuer, data).computed["total"] == Decimal("400.00")


def test_staff_periods_win_over_shipped_ones_only_where_they_fall(pack_dir: Path) -> None:
    from lavra.law.overlay import overlay_parameters

    params = Content(pack_dir).parameters
    overlaid = overlay_parameters(params, StaffOverlay(periods=(StaffPeriod(
        "fretamento.multa.art16", date(2026, 1, 1), date(2026, 12, 31), Decimal("300"),
        FINE_ACT),)))
    assert overlaid.value("fretamento.multa.art16", date(2026, 7, 1)).source == FINE_ACT
    original = overlaid.value("fretamento.multa.art16", date(2006, 12, 1))
    assert original.value == Decimal("280") and original == params.value(
        "fretamento.multa.art16", date(2006, 12, 1))


def test_the_printed_auto_cites_the_act_that_fixed_the_years_fine(
        issuer: Issuer, pack_dir: Path) -> None:
    import io

    from pypdf import PdfReader

    params = issuer.engine.content.parameters
    for article in ("15", "17"):
        add_staff_parameter(issuer.registry, params, f"fretamento.multa.art{article}", 2026,
                            "200", act=FINE_ACT, by="Ana")
    prepared = prepare(issuer, auto_data(pack_dir))
    pdf = issuer.engine.draft(AUTO, auto_data(pack_dir), history=issuer.history).pdf
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)
    assert prepared.computed["total"] == Decimal("400.00")
    assert f"(fonte dos valores: {FINE_ACT})" in text


def test_pack_rules_read_the_request_not_the_bare_folder() -> None:
    """A rule that loads its context from ``request.pack_dir`` would miss the staff values."""
    root = Path(__file__).resolve().parents[1] / "lavra_americana"
    offenders = [
        f"{path.relative_to(root)}:{number}"
        for path in root.rglob("*.py")
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if "statutory_context(request.pack_dir" in line or "rule_sources(request.pack_dir" in line
    ]
    assert offenders == []


# ------------------------------------------------------------------ CLI


def test_cli_registers_lists_and_revokes_and_drafts_read_it(
        tmp_path: Path, pack_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from lavra.cli.main import main

    monkeypatch.setenv("LAVRA_DATA", str(tmp_path / "dados"))
    monkeypatch.setenv("LAVRA_PACK", str(pack_dir))
    monkeypatch.delenv("LAVRA_DATABASE_URL", raising=False)
    runner = CliRunner()
    amount = ["amount", "fretamento#art16_inc1", "--on", "2026-03-02"]
    before = runner.invoke(main, amount)
    assert before.exit_code == 2 and ASK in before.output and ".json" not in before.output
    added = runner.invoke(main, [
        "valores", "dia", "adicionar", "17/03/2026", "--tipo", "ponto_facultativo",
        "--nome", "Ponto facultativo", "--ato", DECREE, "--por", "Ana Administradora"])
    assert added.exit_code == 0, added.output
    assert "Cadastrado: nº 1" in added.output and DECREE in added.output
    assert "cadastrado por Ana Administradora em" in added.output
    deadline = runner.invoke(main, ["deadline", "fretamento#art23", "--from", "2026-03-02"])
    assert "18/03/2026" in deadline.output and DECREE in deadline.output, deadline.output
    fine = runner.invoke(main, [
        "valores", "multa", "adicionar", "fretamento.multa.art16", "2026", "294,00",
        "--ato", FINE_ACT, "--por", "Ana Administradora"])
    assert fine.exit_code == 0, fine.output
    after = runner.invoke(main, amount)
    assert after.exit_code == 0 and "R$ 294,00" in after.output
    bad = runner.invoke(main, [
        "valores", "multa", "adicionar", "fretamento.prazo_recurso", "2026", "20",
        "--ato", FINE_ACT, "--por", "Ana"])
    assert bad.exit_code == 2 and "não pode ser cadastrado" in bad.output
    assert "Traceback" not in bad.output
    revoked = runner.invoke(main, ["valores", "dia", "revogar", "1", "--motivo",
                                   "Decreto tornado sem efeito", "--por", "Ana"])
    assert revoked.exit_code == 0 and "REVOGADO" in revoked.output
    assert runner.invoke(main, ["valores", "dia", "listar"]).output.strip() == "Nenhum cadastro."
    listed = runner.invoke(main, ["valores", "dia", "listar", "--todos"]).output
    assert "Decreto tornado sem efeito" in listed
    wrong_kind = runner.invoke(main, ["valores", "dia", "revogar", "2", "--motivo", "x",
                                      "--por", "Ana"])
    assert wrong_kind.exit_code == 2 and "não encontrado entre os dias" in wrong_kind.output
    deadline = runner.invoke(main, ["deadline", "fretamento#art23", "--from", "2026-03-02"])
    assert "17/03/2026" in deadline.output and DECREE not in deadline.output


def test_each_issuer_reads_its_own_registry_even_over_a_shared_engine(
        engine: Engine, tmp_path: Path, pack_dir: Path) -> None:
    first = dev_issuer(engine, tmp_path / "um")
    second = dev_issuer(engine, tmp_path / "dois")  # the engine now drafts with this one's
    try:
        first.registry.add_staff_day(date(2026, 3, 17), "ponto_facultativo",
                                     "Ponto facultativo", act=DECREE, by="Ana")
        data = auto_data(pack_dir)
        mine = first.prepare(AUTO, data)
        other = second.prepare(AUTO, data)
        assert mine.computed["recurso"]["ultimo_dia"] == date(2026, 3, 18)
        assert other.computed["recurso"]["ultimo_dia"] == date(2026, 3, 17)
    finally:
        first.close()
        second.close()


def test_a_minimum_antecedence_ending_on_a_doubtful_day_is_not_brought_forward(
        pack_dir: Path) -> None:
    from lavra.law.deadlines import count_back

    cal = load_statutory_context(pack_dir).calendar
    # 30 days before 04/07/2026 is 04/06/2026, Corpus Christi (unconfirmed).
    result = count_back(date(2026, 7, 4), Period(30, "dias"), cal)
    assert result.last_day == result.plain_last_day == date(2026, 6, 4)
    assert "Corpus Christi (a confirmar)" in result.reason
    assert "não se antecipa, em favor do interessado" in result.reason
