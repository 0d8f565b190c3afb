"""The statutory deadlines of both laws (legal_text/prazos.json) and `lavra deadline`."""

from __future__ import annotations

import json
import shutil
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from lavra.checking.report import Status
from lavra.checking.timeliness import check_timeliness
from lavra.cli.deadline import deadline as deadline_cli
from lavra.errors import CitationError, ContentPackError, InputError, ParameterError
from lavra.law.coverage import IMPLEMENTED, compute_coverage
from lavra.law.statutory import (
    StatutoryContext,
    deadline_citations,
    deadline_for,
    load_statutory_context,
)

REPO = Path(__file__).resolve().parent.parent
CTX = load_statutory_context(REPO)
SP = ZoneInfo("America/Sao_Paulo")
D = date


def _dt(text: str) -> datetime:
    return datetime.fromisoformat(text)


# ---------------------------------------------------------------- the table, row by row

# citation, start, plain last day (where the count lands), last day, extra expectations
DEADLINE_ROWS = [
    pytest.param("fretamento#art23", D(2026, 2, 20), D(2026, 3, 7), D(2026, 3, 9), {},
                 id="fretamento#art23 15 days from the infraction, Saturday -> Monday"),
    pytest.param("fretamento#art23", D(2026, 6, 24), D(2026, 7, 9), D(2026, 7, 10), {},
                 id="fretamento#art23 last day on 9 de julho (SP holiday) -> 10/07"),
    pytest.param("fretamento#art23", D(2025, 5, 29), D(2025, 6, 13), D(2025, 6, 16), {},
                 id="fretamento#art23 last day on 13 de junho (municipal) -> Monday"),
    pytest.param("fretamento#art24", D(2026, 3, 5), D(2026, 3, 20), D(2026, 3, 20), {},
                 id="fretamento#art24 same 15 days from the ciência, Friday stays"),
    pytest.param("fretamento#art8", D(2026, 6, 15), D(2026, 5, 16), D(2026, 5, 15), {},
                 id="fretamento#art8 30 days before expiry, Saturday -> earlier Friday"),
    pytest.param("fretamento#art10_par1", D(2026, 3, 1), D(2026, 5, 30), D(2026, 5, 30), {},
                 id="fretamento#art10_par1 discs kept 90 days, a Saturday end does not move"),
    pytest.param("fretamento#art22_par1u", D(2026, 3, 10), D(2027, 3, 10), D(2027, 3, 10),
                 {"first_allowed_day": D(2027, 3, 11)},
                 id="fretamento#art22_par1u new alvará only after 12 months of cassação"),
    pytest.param("fretamento#art15_inc2", D(2026, 4, 17), D(2026, 4, 23), D(2026, 4, 23), {},
                 id="fretamento#art15_inc2 3 working days from receipt, Tiradentes skipped"),
    pytest.param("fretamento#art22", D(2026, 4, 6), D(2026, 4, 16), D(2026, 4, 16), {},
                 id="fretamento#art22 defence before cassação, 10 days (Lei 9.784, art. 44)"),
    pytest.param("transporte-escolar#art3", D(2026, 4, 11), D(2026, 4, 21),
                 D(2026, 4, 22), {},
                 id="transporte-escolar#art3 defence before revocation by motive, Tiradentes"),
    pytest.param("transporte-escolar#art23_inc3", D(2026, 4, 11), D(2026, 4, 21),
                 D(2026, 4, 22), {},
                 id="transporte-escolar#art23_inc3 defence before revocation, Tiradentes"),
    pytest.param("transporte-escolar#art11", D(2026, 3, 2), D(2026, 3, 7), D(2026, 3, 9), {},
                 id="transporte-escolar#art11 5 days against the choice"),
    pytest.param("transporte-escolar#art26", D(2026, 12, 15), D(2026, 12, 25),
                 D(2026, 12, 28), {},
                 id="transporte-escolar#art26 10 days from ciência, last day on Christmas"),
    pytest.param("lei-9784-1999#art59", D(2026, 11, 10), D(2026, 11, 20), D(2026, 11, 23), {},
                 id="lei-9784-1999#art59 10 days from the refusal's ciência, Friday holiday"),
    pytest.param("transporte-escolar#art6_par1u", D(2026, 3, 2), D(2026, 3, 22),
                 D(2026, 3, 23), {},
                 id="transporte-escolar#art6_par1u registration >= 20 dias corridos"),
    pytest.param("transporte-escolar#art10", D(2026, 3, 30), D(2026, 3, 10), D(2026, 3, 10),
                 {}, id="transporte-escolar#art10 edital published >= 20 days before"),
    pytest.param("transporte-escolar#art10", D(2026, 4, 4), D(2026, 3, 15), D(2026, 3, 13),
                 {}, id="transporte-escolar#art10 antecedence landing on Sunday -> Friday"),
    pytest.param("transporte-escolar#art8_par2", D(2026, 3, 2), D(2026, 4, 1), D(2026, 4, 1),
                 {}, id="transporte-escolar#art8_par2 30 days for the Cadastro de Atividades"),
    pytest.param("transporte-escolar#art13", D(2026, 7, 1), D(2026, 12, 31), D(2026, 12, 31),
                 {}, id="transporte-escolar#art13 renewal by 31/12/2026, a Thursday"),
    pytest.param("transporte-escolar#art13", D(2028, 3, 30), D(2028, 12, 31),
                 D(2028, 12, 29), {},
                 id="transporte-escolar#art13 31/12/2028 is a Sunday -> Friday 29/12"),
    pytest.param("transporte-escolar#art13_par5", D(2026, 12, 31), D(2026, 12, 31),
                 D(2026, 12, 31), {"first_day": D(2026, 12, 1)},
                 id="transporte-escolar#art13_par5 request within 30 days before expiry"),
    pytest.param("transporte-escolar#art13_par5", D(2028, 12, 31), D(2028, 12, 31),
                 D(2028, 12, 29), {"first_day": D(2028, 12, 1)},
                 id="transporte-escolar#art13_par5 expiry on Sunday closes on Friday"),
    pytest.param("transporte-escolar#art13_par6", D(2026, 3, 10), D(2026, 5, 31),
                 D(2026, 5, 29), {"first_day": D(2026, 5, 1), "inside_window": False},
                 id="transporte-escolar#art13_par6 March: next window is May"),
    pytest.param("transporte-escolar#art13_par6", D(2026, 11, 15), D(2026, 11, 30),
                 D(2026, 11, 30), {"first_day": D(2026, 11, 1), "inside_window": True},
                 id="transporte-escolar#art13_par6 inside the November window"),
    pytest.param("transporte-escolar#art13_par6", D(2026, 5, 30), D(2026, 11, 30),
                 D(2026, 11, 30), {"first_day": D(2026, 11, 1), "inside_window": False},
                 id="transporte-escolar#art13_par6 Saturday 30 May: May is over, November"),
    pytest.param("transporte-escolar#art13_par6", D(2026, 12, 10), D(2027, 5, 31),
                 D(2027, 5, 31), {"first_day": D(2027, 5, 1), "inside_window": False},
                 id="transporte-escolar#art13_par6 December: May of the next year"),
    pytest.param("transporte-escolar#art15_inc1", D(2024, 3, 10), D(2026, 3, 10),
                 D(2026, 3, 10), {"first_allowed_day": D(2026, 3, 11)},
                 id="transporte-escolar#art15_inc1 transfer only after 2 years"),
    pytest.param("transporte-escolar#art15_par1", D(2026, 3, 2), D(2026, 5, 1), D(2026, 5, 4),
                 {}, id="transporte-escolar#art15_par1 60 days, last day on 1º de maio"),
    pytest.param("transporte-escolar#art15_par2", D(2024, 2, 29), D(2027, 2, 28),
                 D(2027, 2, 28), {"first_allowed_day": D(2027, 3, 1)},
                 id="transporte-escolar#art15_par2 3 years from 29 February -> 28/02"),
    pytest.param("transporte-escolar#art5", D(2026, 3, 2), D(2026, 3, 22), D(2026, 3, 22),
                 {}, id="transporte-escolar#art5 temporary licence 20 days, Sunday stays"),
]


@pytest.mark.parametrize(("citation", "start", "plain", "last", "extra"), DEADLINE_ROWS)
def test_deadline_table(citation: str, start: date, plain: date, last: date,
                        extra: dict[str, Any]) -> None:
    result = deadline_for(citation, start, context=CTX)
    assert (result.plain_last_day, result.last_day) == (plain, last)
    assert result.moved == (plain != last)
    assert result.citation == citation and citation in result.basis
    for name, value in extra.items():
        assert getattr(result, name) == value, name
    assert result.reference in result.explanation
    assert f"{last:%d/%m/%Y}" in result.explanation
    if result.kind not in ("fim_do_ano", "meses_do_ano"):
        assert f"{start:%d/%m/%Y}" in result.explanation
    if result.moved and result.kind in ("prazo", "prazo_minimo") and result.direction == "apos":
        assert "prorroga-se para o primeiro dia útil seguinte" in result.explanation
        assert "art. 66, § 1º, da Lei nº 9.784/1999" in result.explanation


HOUR_ROWS = [
    pytest.param("transporte-escolar#art5_inc1", "2026-03-06T10:00", "2026-03-09T10:00", True,
                 id="transporte-escolar#art5_inc1 24 h ending on Saturday -> Monday 10h00"),
    pytest.param("transporte-escolar#art5_inc2", "2026-03-04T15:30", "2026-03-05T15:30", False,
                 id="transporte-escolar#art5_inc2 vehicle presented within 24 h"),
    pytest.param("transporte-escolar#art4_par1u_inc3", "2026-03-06T07:00", "2026-03-08T07:00",
                 False, id="transporte-escolar#art4_par1u_inc3 substitute driver 48 h, "
                           "Sunday end does not move"),
]


@pytest.mark.parametrize(("citation", "start", "end", "moved"), HOUR_ROWS)
def test_hour_deadlines(citation: str, start: str, end: str, moved: bool) -> None:
    result = deadline_for(citation, _dt(start), context=CTX)
    assert result.end == _dt(end).replace(tzinfo=SP)
    assert result.moved is moved
    assert f"{_dt(end):%d/%m/%Y, às %Hh%M}" in result.explanation


def test_hour_deadline_needs_the_hour() -> None:
    with pytest.raises(InputError, match="contado em horas"):
        deadline_for("transporte-escolar#art5_inc2", D(2026, 3, 6), context=CTX)
    with pytest.raises(InputError, match="data e a hora"):
        check_timeliness("transporte-escolar#art5_inc2", _dt("2026-03-06T10:00"),
                         D(2026, 3, 7), context=CTX)


def test_every_entry_has_a_row() -> None:
    tested = {p.values[0] for p in DEADLINE_ROWS} | {p.values[0] for p in HOUR_ROWS}
    assert tested == set(deadline_citations(CTX))


# ---------------------------------------------------------------- timeliness

ISSUE_EXAMPLE = (
    "Recurso interposto em 12/03/2026; o prazo de 15 dias, contado da infração ocorrida em "
    "20/02/2026 (art. 23 da Lei nº 4.419/2006), encerrou-se em 09/03/2026: recurso "
    "intempestivo."
)


def test_issue_example_untimely() -> None:
    result = check_timeliness("fretamento#art23", D(2026, 2, 20), D(2026, 3, 12), context=CTX)
    assert result.explanation == ISSUE_EXAMPLE
    assert not result.timely and result.outcome == "nao_atende"
    assert result.deadline.last_day == D(2026, 3, 9)
    [item] = result.items
    assert item.status is Status.INVALID and item.message == ISSUE_EXAMPLE
    assert item.basis == ("fretamento#art23",)


def test_issue_example_timely_on_the_moved_last_day() -> None:
    result = check_timeliness("fretamento#art23", D(2026, 2, 20), D(2026, 3, 9),
                              context=CTX, field="/recurso/data_protocolo")
    assert result.explanation == (
        "Recurso interposto em 09/03/2026; o prazo de 15 dias, contado da infração ocorrida "
        "em 20/02/2026 (art. 23 da Lei nº 4.419/2006), encerra-se em 09/03/2026: recurso "
        "tempestivo."
    )
    assert result.timely
    [item] = result.items
    assert (item.requirement, item.field, item.status) == (
        "recurso.data_protocolo", "/recurso/data_protocolo", Status.MET)


TIMELINESS_ROWS = [
    pytest.param("fretamento#art24", D(2026, 3, 5), D(2026, 3, 3), "atende",
                 id="fretamento#art24 appeal filed before the formal ciência is timely"),
    pytest.param("fretamento#art24", D(2026, 3, 5), D(2026, 3, 23), "nao_atende",
                 id="fretamento#art24 appeal after the 15th day"),
    pytest.param("fretamento#art8", D(2026, 6, 15), D(2026, 5, 15), "atende",
                 id="fretamento#art8 renewal asked on the last day"),
    pytest.param("fretamento#art8", D(2026, 6, 15), D(2026, 5, 18), "nao_atende",
                 id="fretamento#art8 renewal asked with less than 30 days"),
    pytest.param("fretamento#art10_par1", D(2026, 3, 1), D(2026, 5, 30), "atende",
                 id="fretamento#art10_par1 disc asked for on the 90th day"),
    pytest.param("fretamento#art10_par1", D(2026, 3, 1), D(2026, 6, 1), "nao_atende",
                 id="fretamento#art10_par1 disc asked for after 90 days"),
    pytest.param("fretamento#art22_par1u", D(2026, 3, 10), D(2027, 3, 10), "nao_atende",
                 id="fretamento#art22_par1u new alvará on the 12th month's day: barred"),
    pytest.param("fretamento#art22_par1u", D(2026, 3, 10), D(2027, 3, 11), "atende",
                 id="fretamento#art22_par1u new alvará the day after: admissible"),
    pytest.param("transporte-escolar#art11", D(2026, 3, 2), D(2026, 3, 10), "nao_atende",
                 id="transporte-escolar#art11 appeal against the choice after 5 days"),
    pytest.param("transporte-escolar#art26", D(2026, 12, 15), D(2026, 12, 28), "atende",
                 id="transporte-escolar#art26 appeal on the Monday after Christmas"),
    pytest.param("transporte-escolar#art6_par1u", D(2026, 3, 2), D(2026, 3, 20), "nao_atende",
                 id="transporte-escolar#art6_par1u edital closing registration too early"),
    pytest.param("transporte-escolar#art6_par1u", D(2026, 3, 2), D(2026, 3, 23), "atende",
                 id="transporte-escolar#art6_par1u edital closing on the earliest day"),
    pytest.param("transporte-escolar#art10", D(2026, 3, 30), D(2026, 3, 11), "nao_atende",
                 id="transporte-escolar#art10 edital published 19 days before"),
    pytest.param("transporte-escolar#art13", D(2028, 3, 30), D(2028, 12, 30), "nao_atende",
                 id="transporte-escolar#art13 renewal on Saturday 30/12/2028: late"),
    pytest.param("transporte-escolar#art13", D(2026, 1, 5), D(2026, 12, 31), "atende",
                 id="transporte-escolar#art13 renewal on 31/12/2026"),
    pytest.param("transporte-escolar#art13_par5", D(2026, 12, 31), D(2026, 11, 30),
                 "prematuro", id="transporte-escolar#art13_par5 request before the window"),
    pytest.param("transporte-escolar#art13_par5", D(2026, 12, 31), D(2026, 12, 1), "atende",
                 id="transporte-escolar#art13_par5 request on the window's first day"),
    pytest.param("transporte-escolar#art13_par5", D(2028, 12, 31), D(2028, 12, 30),
                 "nao_atende", id="transporte-escolar#art13_par5 after the window closed"),
    pytest.param("transporte-escolar#art13_par6", D(2026, 3, 10), D(2026, 4, 30), "prematuro",
                 id="transporte-escolar#art13_par6 revalidation in April is premature"),
    pytest.param("transporte-escolar#art13_par6", D(2026, 3, 10), D(2026, 5, 4), "atende",
                 id="transporte-escolar#art13_par6 revalidation in May"),
    pytest.param("transporte-escolar#art13_par6", D(2026, 5, 4), D(2026, 6, 1), "nao_atende",
                 id="transporte-escolar#art13_par6 revalidation in June is late"),
    pytest.param("transporte-escolar#art15_inc1", D(2024, 3, 10), D(2026, 3, 10), "nao_atende",
                 id="transporte-escolar#art15_inc1 transfer on the 2nd anniversary: barred"),
    pytest.param("transporte-escolar#art15_par1", D(2026, 3, 2), D(2026, 5, 4), "atende",
                 id="transporte-escolar#art15_par1 registration moved past 1º de maio"),
    pytest.param("transporte-escolar#art15_par2", D(2024, 2, 29), D(2027, 2, 28),
                 "nao_atende", id="transporte-escolar#art15_par2 new licence still barred"),
    pytest.param("transporte-escolar#art15_par2", D(2024, 2, 29), D(2027, 3, 1), "atende",
                 id="transporte-escolar#art15_par2 new licence after 3 years"),
    pytest.param("transporte-escolar#art5", D(2026, 3, 2), D(2026, 3, 23), "nao_atende",
                 id="transporte-escolar#art5 substitute vehicle after the licence expired"),
    pytest.param("transporte-escolar#art5", D(2026, 3, 2), D(2026, 3, 1), "nao_atende",
                 id="transporte-escolar#art5 substitute vehicle before the licence"),
    pytest.param("transporte-escolar#art4_par1u_inc3", _dt("2026-03-06T07:00"),
                 _dt("2026-03-08T07:00"), "atende",
                 id="transporte-escolar#art4_par1u_inc3 substitution of exactly 48 h"),
    pytest.param("transporte-escolar#art4_par1u_inc3", _dt("2026-03-06T07:00"),
                 _dt("2026-03-08T07:01"), "nao_atende",
                 id="transporte-escolar#art4_par1u_inc3 substitution beyond 48 h"),
    pytest.param("transporte-escolar#art5_inc2", _dt("2026-03-06T10:00"),
                 _dt("2026-03-09T09:59"), "atende",
                 id="transporte-escolar#art5_inc2 vehicle presented on Monday morning"),
]


@pytest.mark.parametrize(("citation", "start", "filed", "outcome"), TIMELINESS_ROWS)
def test_timeliness_table(citation: str, start: date, filed: date, outcome: str) -> None:
    result = check_timeliness(citation, start, filed, context=CTX)
    assert result.outcome == outcome
    assert result.timely is (outcome == "atende")
    rule = CTX.rules[citation]
    closing = {"atende": rule.outcomes.met, "nao_atende": rule.outcomes.unmet,
               "prematuro": rule.outcomes.early}[outcome]
    assert result.explanation.startswith(f"{rule.act_done} em ")
    assert result.explanation.endswith(f": {closing}.")
    assert result.deadline.reference in result.explanation
    assert result.items[0].status is (Status.MET if result.timely else Status.INVALID)


# ---------------------------------------------------------------- law in force at the start


def _copy_pack(tmp_path: Path) -> Path:
    (tmp_path / "legal_text").mkdir()
    for name in ("schemas", "forms"):
        (tmp_path / name).mkdir()
    for path in (REPO / "legal_text").glob("*.json"):
        shutil.copy(path, tmp_path / "legal_text")
    return tmp_path


def _edit_json(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def test_parameter_in_force_on_the_start_date(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)

    def amend(data: dict[str, Any]) -> None:
        periods = data["parametros"]["fretamento.prazo_recurso"]["vigencias"]
        periods[0]["ate"] = "2026-12-31"
        periods.append({"desde": "2027-01-01", "ate": None, "valor": 20,
                        "fonte": "Lei hipotética de teste que amplia o prazo"})

    _edit_json(pack / "legal_text" / "parametros.json", amend)
    ctx = load_statutory_context(pack)
    # infraction in 2026: the 15 days of the law then in force, though they end in 2027
    before = deadline_for("fretamento#art23", D(2026, 12, 30), context=ctx)
    assert before.period is not None and before.period.amount == 15
    assert before.last_day == D(2027, 1, 14)
    # infraction in 2027: 20 days; 24/01/2027 is a Sunday
    after = deadline_for("fretamento#art23", D(2027, 1, 4), context=ctx)
    assert after.period is not None and after.period.amount == 20
    assert (after.plain_last_day, after.last_day) == (D(2027, 1, 24), D(2027, 1, 25))
    assert "prazo de 20 dias" in after.explanation
    with pytest.raises(ParameterError, match="não tem valor vigente em 01/01/2006"):
        deadline_for("fretamento#art23", D(2006, 1, 1), context=ctx)


# ---------------------------------------------------------------- bad input


def test_unknown_citation_lists_the_deadlines() -> None:
    with pytest.raises(CitationError) as err:
        deadline_for("fretamento#art99", D(2026, 1, 5), context=CTX)
    assert "fretamento#art23" in err.value.message
    with pytest.raises(InputError) as no_deadline:
        deadline_for("fretamento#art7_inc4", D(2026, 1, 5), context=CTX)
    assert "não fixa prazo" in no_deadline.value.message
    assert "transporte-escolar#art26" in no_deadline.value.message
    with pytest.raises(InputError, match="Data inválida"):
        deadline_for("fretamento#art23", "2026-01-05", context=CTX)  # type: ignore[arg-type]


_BAR = "/prazos/fretamento#art22_par1u"


@pytest.mark.parametrize(
    ("change", "pointer", "message"),
    [
        pytest.param(lambda e: e.update(tipo="prazo_fatal"), f"{_BAR}/tipo",
                     "Valor não permitido: «prazo_fatal»", id="unknown kind"),
        pytest.param(lambda e: e.update(parametro="fretamento.inexistente"),
                     f"{_BAR}/parametro", "não existe", id="unknown parameter"),
        pytest.param(lambda e: e.update(parametro=None), f"{_BAR}/parametro",
                     "informe o parâmetro numérico", id="a counted kind without its number"),
        pytest.param(lambda e: e.update(dia_nao_util="prorroga"), f"{_BAR}/dia_nao_util",
                     "o tipo 'carencia' não admite dia_nao_util «prorroga»; use mantem",
                     id="a bar cannot move"),
        pytest.param(lambda e: e.update(sentido="antes"), f"{_BAR}/sentido",
                     "o tipo 'carencia' não admite o sentido «antes»", id="a bar counts forward"),
        pytest.param(lambda e: e.update(vigencias=[]), f"{_BAR}/vigencias",
                     "só se usa no tipo 'meses_do_ano'", id="months outside meses_do_ano"),
        pytest.param(lambda e: e.update(prazo=15), f"{_BAR}/prazo",
                     "«prazo»: chave desconhecida", id="unknown key"),
        pytest.param(lambda e: e.pop("motivo"), f"{_BAR}/motivo",
                     "Campo obrigatório não informado", id="missing key"),
        pytest.param(lambda e: e.update(fundamento=["fretamento#art21"]), f"{_BAR}/fundamento",
                     "próprio", id="basis without the fragment itself"),
        pytest.param(lambda e: e.update(fundamento=["fretamento#art22_par1u",
                                                    "fretamento#art99"]), _BAR, "art99",
                     id="basis that does not resolve"),
    ],
)
def test_broken_table_is_a_content_pack_error(tmp_path: Path, change: Any, pointer: str,
                                              message: str) -> None:
    pack = _copy_pack(tmp_path)
    _edit_json(pack / "legal_text" / "prazos.json",
               lambda d: change(d["prazos"]["fretamento#art22_par1u"]))
    with pytest.raises(ContentPackError) as info:
        load_statutory_context(pack)
    assert info.value.field == pointer
    assert info.value.message.startswith(f"Prazos inválidos em legal_text/prazos.json ({pointer})")
    assert message in info.value.message


def test_forward_deadline_cannot_move_back(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)
    _edit_json(pack / "legal_text" / "prazos.json",
               lambda d: d["prazos"]["fretamento#art23"].update(dia_nao_util="antecipa"))
    with pytest.raises(ContentPackError, match="dia_nao_util") as info:
        load_statutory_context(pack)
    assert info.value.field == "/prazos/fretamento#art23/dia_nao_util"
    assert "legal_text/prazos.json" in info.value.message


def test_months_must_be_in_order(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)
    [(citation, _)] = [(c, r) for c, r in CTX.rules.items() if r.kind == "meses_do_ano"]

    def shuffle(data: dict[str, Any]) -> None:
        data["prazos"][citation]["vigencias"][0]["valor"] = [11, 5]

    _edit_json(pack / "legal_text" / "prazos.json", shuffle)
    with pytest.raises(ContentPackError, match="lista crescente dos meses") as info:
        load_statutory_context(pack)
    assert info.value.field == f"/prazos/{citation}/vigencias/0/valor"


# ---------------------------------------------------------------- properties

FORWARD = [c for c, r in CTX.rules.items()
           if r.direction == "apos" and r.non_business == "prorroga"
           and r.parameter is not None
           and CTX.parameters.parameter(r.parameter).unit in ("dias", "meses", "anos")]
BACKWARD = [c for c, r in CTX.rules.items() if r.kind == "prazo" and r.direction == "antes"]
BARS = [c for c, r in CTX.rules.items() if r.kind == "carencia"]
DAYS = st.dates(min_value=D(2008, 1, 1), max_value=D(2040, 12, 31))


def test_property_lists_are_not_empty() -> None:
    assert len(FORWARD) >= 6 and len(BACKWARD) == 2 and len(BARS) == 3


@settings(max_examples=300, deadline=None)
@given(citation=st.sampled_from(FORWARD), start=DAYS)
def test_forward_last_day_is_a_business_day_not_before_the_plain_count(
        citation: str, start: date) -> None:
    result = deadline_for(citation, start, context=CTX)
    assert result.period is not None
    cal = CTX.calendar
    assert cal.is_business_day(result.last_day)
    assert result.last_day >= result.plain_last_day > start
    assert result.last_day == cal.next_business_day(result.plain_last_day)
    if result.period.unit == "dias":
        assert result.plain_last_day == start + timedelta(days=result.period.amount)
    on_last_day = check_timeliness(citation, start, result.last_day, context=CTX)
    assert on_last_day.timely
    if result.kind == "prazo_minimo":  # an end fixed before the earliest day fails
        other = result.last_day - timedelta(days=1)
    else:  # an act after the last day is late
        other = result.last_day + timedelta(days=1)
    assert not check_timeliness(citation, start, other, context=CTX).timely


@settings(max_examples=200, deadline=None)
@given(citation=st.sampled_from(BACKWARD), end=DAYS)
def test_antecedence_last_day_is_a_business_day_never_after_the_plain_count(
        citation: str, end: date) -> None:
    result = deadline_for(citation, end, context=CTX)
    assert result.period is not None
    # Never a day surely closed; a doubtful one is not brought forward (calendar.py).
    assert CTX.calendar.previous_business_day(result.last_day) == result.last_day
    assert result.last_day <= result.plain_last_day
    assert result.plain_last_day == end - timedelta(days=result.period.amount)


@settings(max_examples=200, deadline=None)
@given(citation=st.sampled_from(BARS), start=DAYS)
def test_bars_never_move_and_end_the_day_before_the_first_allowed(
        citation: str, start: date) -> None:
    result = deadline_for(citation, start, context=CTX)
    assert result.first_allowed_day == result.last_day + timedelta(days=1)
    assert result.last_day == result.plain_last_day and not result.moved
    assert check_timeliness(citation, start, result.first_allowed_day, context=CTX).timely
    assert not check_timeliness(citation, start, result.last_day, context=CTX).timely


@settings(max_examples=200, deadline=None)
@given(day=DAYS)
def test_revalidation_window_is_may_or_november_and_never_behind(day: date) -> None:
    result = deadline_for("transporte-escolar#art13_par6", day, context=CTX)
    assert result.first_day is not None and result.first_day.month in (5, 11)
    assert result.first_day.day == 1 and result.last_day.month == result.first_day.month
    # Never a day surely closed; a doubtful one (Corpus Christi, unconfirmed, on 31/05/2029)
    # is not brought forward: doubt never shortens the citizen's time (calendar.py).
    assert CTX.calendar.previous_business_day(result.last_day) == result.last_day
    assert day <= result.last_day
    assert result.inside_window == (result.first_day <= day)


# ---------------------------------------------------------------- coverage


def test_coverage_reads_non_law_files_of_legal_text(tmp_path: Path) -> None:
    for folder in ("legal_text", "schemas", "forms"):
        (tmp_path / folder).mkdir()
    shutil.copy(REPO / "legal_text" / "fretamento.json", tmp_path / "legal_text")
    table = {"tabela": {"x": {"fundamento": ["fretamento#art23", "fretamento#art98"]}}}
    (tmp_path / "legal_text" / "outra-tabela.json").write_text(json.dumps(table), "utf-8")
    report = compute_coverage(tmp_path)
    by_id = {f.fragment: f for f in report.fragments}
    assert by_id["art23"].status == IMPLEMENTED
    assert by_id["art23"].uses[0].location == "legal_text/outra-tabela.json#/tabela/x/fundamento/0"
    [dangling] = report.dangling
    assert dangling.use.citation == "fretamento#art98"


def test_real_pack_lists_every_deadline_as_implemented() -> None:
    report = compute_coverage(REPO)
    status = {f"{f.law}#{f.fragment}": f for f in report.fragments}
    for citation in deadline_citations(CTX):
        entry = status[citation]
        assert entry.status == IMPLEMENTED, citation
        assert any(u.file == "legal_text/prazos.json" for u in entry.uses), citation
    assert not [d for d in report.dangling if d.use.file == "legal_text/prazos.json"]


# ---------------------------------------------------------------- CLI


def _run(*args: str) -> Any:
    return CliRunner(env={"LAVRA_PACK": str(REPO)}).invoke(deadline_cli, list(args))


def test_cli_issue_example_json() -> None:
    result = _run("fretamento#art23", "--from", "2026-02-20", "--filed", "2026-03-12", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["last_day"] == "2026-03-09"
    assert data["timely"] is False
    assert data["explanation"] == ISSUE_EXAMPLE
    assert data["citation"] == "fretamento#art23"
    assert data["basis"] == ["fretamento#art23"]


def test_cli_without_filing_and_in_text() -> None:
    data = json.loads(_run("transporte-escolar#art26", "--from", "2026-12-15", "--json").stdout)
    assert (data["last_day"], data["timely"]) == ("2026-12-28", None)
    assert "feriado: Natal" in data["explanation"]
    text = _run("fretamento#art23", "--from", "20/02/2026", "--filed", "2026-03-09")
    assert text.exit_code == 0
    assert "Último dia: 09/03/2026." in text.stdout
    assert "recurso tempestivo." in text.stdout
    hours = json.loads(_run("transporte-escolar#art5_inc2", "--from", "2026-03-06T10:00",
                            "--filed", "2026-03-09T11:00", "--json").stdout)
    assert hours["end"] == "2026-03-09T10:00:00-03:00" and hours["timely"] is False
    listing = _run("--listar")
    assert listing.exit_code == 0
    assert ("art. 13, § 6º, da Lei nº 4.515/2007: " in listing.stdout
            and "lavra deadline transporte-escolar#art13_par6 --inicio DATA" in listing.stdout)
    assert _run("--list").stdout == listing.stdout  # the old name, kept for scripts


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        pytest.param(["fretamento#art23", "--from", "2026-02-30"],
                     "A data em --inicio 30/02/2026 não existe no calendário",
                     id="impossible date"),
        pytest.param(["fretamento#art23", "--from", "30/02/2026"],
                     "A data em --inicio 30/02/2026 não existe no calendário",
                     id="impossible date typed DD/MM/AAAA"),
        pytest.param(["transporte-escolar#art5_inc2", "--from", "2026-02-30T10:00"],
                     "A data e hora em --inicio, 2026-02-30T10:00, não existem",
                     id="impossible date and hour"),
        pytest.param(["fretamento#art23"], "Informe, com --inicio", id="missing --from"),
        pytest.param(["fretamento#art99", "--from", "2026-02-20"], "não existe",
                     id="unknown fragment"),
        pytest.param(["fretamento#art7", "--from", "2026-02-20"], "não fixa prazo",
                     id="fragment without a deadline"),
        pytest.param(["fretamento#art23", "--from", "2026-02-20", "--filed", "ontem"],
                     "Formato de data em --protocolo não reconhecido: «ontem»",
                     id="bad filing date"),
        pytest.param(["transporte-escolar#art5_inc2", "--from", "2026-03-06"], "em horas",
                     id="hour deadline without the hour"),
        pytest.param(["fretamento#art23", "--from", "2005-02-20"], "não tem valor vigente",
                     id="before the law"),
    ],
)
def test_cli_bad_input_exits_2(args: list[str], fragment: str) -> None:
    result = _run(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith("Erro: ")
    assert fragment in result.stderr
    assert "Traceback" not in result.output


def test_context_is_reused_across_calls() -> None:
    assert isinstance(CTX, StatutoryContext)
    first = deadline_for("fretamento#art23", D(2026, 2, 20), context=CTX)
    assert first == deadline_for("fretamento#art23", D(2026, 2, 20), pack_dir=REPO)
