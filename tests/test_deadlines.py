"""Deadline counting per art. 66 of Lei nº 9.784/1999 on Americana's calendar."""

from __future__ import annotations

import calendar as stdlib_calendar
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lavra.errors import InputError
from lavra.law.calendar import BusinessCalendar, calendar_from_data, load_calendar
from lavra.law.deadlines import (
    DeadlineResult,
    Period,
    count,
    count_back,
    count_hours,
    timeliness,
)

_PACK = Path(__file__).resolve().parent.parent
CAL = load_calendar(_PACK)


# (start, period, plain last day, last day, why)
ROWS: list[tuple[date, Period, date, date, str]] = [
    (date(2026, 3, 2), Period(10, "dias"), date(2026, 3, 12), date(2026, 3, 12),
     "ends on a Thursday, a business day: nothing moves"),
    (date(2026, 2, 20), Period(15, "dias"), date(2026, 3, 7), date(2026, 3, 9),
     "ends on a Saturday: moves to Monday (§ 1º)"),
    (date(2026, 2, 7), Period(10, "dias"), date(2026, 2, 17), date(2026, 2, 17),
     "ends on Carnaval Tuesday: only a ponto facultativo, so it does not move"),
    (date(2026, 6, 24), Period(15, "dias"), date(2026, 7, 9), date(2026, 7, 10),
     "ends on 9 de julho (SP state holiday): moves to Friday"),
    (date(2025, 5, 29), Period(15, "dias"), date(2025, 6, 13), date(2025, 6, 16),
     "ends on Friday 13 de junho (municipal holiday): moves over the weekend"),
    (date(2025, 11, 5), Period(15, "dias"), date(2025, 11, 20), date(2025, 11, 21),
     "ends on 20 de novembro (national since 2024)"),
    (date(2025, 12, 15), Period(10, "dias"), date(2025, 12, 25), date(2025, 12, 26),
     "ends on Christmas (Thursday); 26/12 is a business day"),
    (date(2026, 12, 20), Period(12, "dias"), date(2027, 1, 1), date(2027, 1, 4),
     "crosses the year and ends on 1º de janeiro (Friday): moves to Monday"),
    (date(2026, 8, 21), Period(15, "dias"), date(2026, 9, 5), date(2026, 9, 8),
     "ends on the Saturday before Monday 7 de setembro: moves to Tuesday"),
    (date(2025, 4, 9), Period(10, "dias"), date(2025, 4, 19), date(2025, 4, 22),
     "ends on the Saturday between Good Friday and Monday Tiradentes"),
    (date(2026, 1, 31), Period(1, "meses"), date(2026, 2, 28), date(2026, 3, 2),
     "31 Jan + 1 month: last day of February (§ 3º), a Saturday, so Monday"),
    (date(2024, 1, 31), Period(1, "meses"), date(2024, 2, 29), date(2024, 2, 29),
     "31 Jan + 1 month in a leap year: 29 February, a Thursday"),
    (date(2026, 1, 15), Period(2, "meses"), date(2026, 3, 15), date(2026, 3, 16),
     "months count date to date; 15/03/2026 is a Sunday"),
    (date(2024, 2, 29), Period(1, "anos"), date(2025, 2, 28), date(2025, 2, 28),
     "29 Feb + 1 year: 28 February (§ 3º), a Friday"),
    (date(2025, 6, 13), Period(1, "anos"), date(2026, 6, 13), date(2026, 6, 15),
     "years count date to date; 13/06/2026 is a Saturday and the holiday itself"),
    (date(2026, 2, 20), Period(5, "dias_uteis"), date(2026, 2, 27), date(2026, 2, 27),
     "five business days from a Friday: the next Friday"),
    (date(2026, 2, 13), Period(3, "dias_uteis"), date(2026, 2, 18), date(2026, 2, 18),
     "Carnaval Monday and Tuesday count as business days"),
    (date(2025, 6, 11), Period(2, "dias_uteis"), date(2025, 6, 16), date(2025, 6, 16),
     "13 de junho is skipped when counting business days"),
]


@pytest.mark.parametrize(
    ("start", "period", "plain", "last", "why"), ROWS, ids=[row[4] for row in ROWS]
)
def test_count_table(start: date, period: Period, plain: date, last: date, why: str) -> None:
    result = count(start, period, CAL)
    assert (result.plain_last_day, result.last_day) == (plain, last), why
    assert result.moved == (plain != last)
    assert result.start == start and result.period == period
    assert f"contado de {start:%d/%m/%Y}" in result.reason
    assert f"{plain:%d/%m/%Y}" in result.reason
    if result.moved:
        assert f"primeiro dia útil seguinte, {last:%d/%m/%Y}" in result.reason
        assert "art. 66, § 1º, da Lei nº 9.784/1999" in result.reason


def test_reason_wording_matches_the_secretariat_style() -> None:
    result = count(date(2026, 2, 20), Period(15, "dias"), CAL)
    assert result.reason == (
        "O prazo de 15 dias, contado de 20/02/2026, encerra-se em 07/03/2026 (sábado); "
        "prorroga-se para o primeiro dia útil seguinte, 09/03/2026 "
        "(art. 66, § 1º, da Lei nº 9.784/1999)."
    )


def test_reason_names_the_holiday_and_the_month_end_rule() -> None:
    assert "feriado: Revolução Constitucionalista" in count(
        date(2026, 6, 24), Period(15, "dias"), CAL
    ).reason
    month_end = count(date(2026, 1, 31), Period(1, "meses"), CAL).reason
    assert "O prazo de 1 mês" in month_end
    assert "último dia do mês" in month_end and "§ 3º" in month_end


def test_without_moving_the_last_day_stays_put() -> None:
    result = count(date(2026, 2, 20), Period(15, "dias"), CAL, move_to_business_day=False)
    assert result.last_day == result.plain_last_day == date(2026, 3, 7)
    assert not result.moved
    assert "não é dia útil" in result.reason


def test_decreed_ponto_facultativo_moves_only_when_the_file_says_so() -> None:
    data: dict[str, Any] = {
        "pais": "BR",
        "uf": "SP",
        "avulsas": [
            {"data": "2026-02-17", "nome": "Carnaval", "tipo": "ponto_facultativo",
             "fonte": "Decreto de teste"}
        ],
    }
    assert count(date(2026, 2, 7), Period(10, "dias"), calendar_from_data(data)).last_day == (
        date(2026, 2, 17)
    )
    data["pontos_facultativos_suspendem_prazos"] = True
    result = count(date(2026, 2, 7), Period(10, "dias"), calendar_from_data(data))
    assert result.last_day == date(2026, 2, 18)
    assert "ponto facultativo: Carnaval" in result.reason


# (term, period, plain, latest day, why)
BACK_ROWS: list[tuple[date, Period, date, date, str]] = [
    (date(2026, 3, 20), Period(10, "dias"), date(2026, 3, 10), date(2026, 3, 10),
     "lands on a Tuesday"),
    (date(2026, 3, 31), Period(30, "dias"), date(2026, 3, 1), date(2026, 2, 27),
     "lands on a Sunday: moves back to Friday, never forward"),
    (date(2026, 7, 14), Period(5, "dias"), date(2026, 7, 9), date(2026, 7, 8),
     "lands on 9 de julho: moves back to Wednesday"),
    (date(2026, 3, 31), Period(1, "meses"), date(2026, 2, 28), date(2026, 2, 27),
     "one month back from 31 March: 28 February (Saturday), then Friday"),
    (date(2025, 6, 17), Period(2, "dias_uteis"), date(2025, 6, 12), date(2025, 6, 12),
     "two business days back skip 13 de junho and the weekend"),
]


@pytest.mark.parametrize(
    ("end", "period", "plain", "last", "why"), BACK_ROWS, ids=[r[4] for r in BACK_ROWS]
)
def test_count_back_table(end: date, period: Period, plain: date, last: date, why: str) -> None:
    result = count_back(end, period, CAL)
    assert (result.plain_last_day, result.last_day) == (plain, last), why
    assert result.backward and result.moved == (plain != last)
    assert f"{last:%d/%m/%Y}" in result.reason


def test_count_back_reason() -> None:
    reason = count_back(date(2026, 3, 31), Period(30, "dias"), CAL).reason
    assert reason.startswith("Com antecedência mínima de 30 dias em relação a 31/03/2026")
    assert "antecipa-se para o dia útil anterior, 27/02/2026" in reason


def test_timeliness_of_an_appeal() -> None:
    result = count(date(2026, 2, 20), Period(15, "dias"), CAL)
    late = timeliness(date(2026, 3, 12), result, act="Recurso interposto")
    assert not late.timely
    assert late.explanation == (
        "Recurso interposto em 12/03/2026; o prazo de 15 dias, contado de 20/02/2026, "
        "encerrou-se em 09/03/2026: intempestivo."
    )
    on_moved_day = timeliness(date(2026, 3, 9), result, act="Recurso interposto")
    assert on_moved_day.timely and on_moved_day.last_day == date(2026, 3, 9)
    assert on_moved_day.explanation.endswith("encerra-se em 09/03/2026: tempestivo.")
    assert timeliness(date(2026, 3, 10), result).timely is False


def test_timeliness_of_a_renewal_filed_in_advance() -> None:
    result = count_back(date(2026, 3, 31), Period(30, "dias"), CAL)
    assert timeliness(date(2026, 2, 27), result).timely
    late = timeliness(date(2026, 3, 1), result, act="Pedido de renovação apresentado")
    assert not late.timely
    assert "devia sê-lo até 27/02/2026: intempestivo" in late.explanation


def test_hours_count_on_the_wall_clock() -> None:
    result = count_hours(datetime(2026, 3, 4, 10, 30), Period(24, "horas"), CAL)
    assert result.end == result.plain_end
    assert result.end.replace(tzinfo=None) == datetime(2026, 3, 5, 10, 30)
    assert not result.moved


def test_hours_ending_on_a_holiday_move_to_the_next_business_day() -> None:
    result = count_hours(datetime(2026, 7, 8, 10, 30), Period(24, "horas"), CAL)
    assert result.moved
    assert result.end.replace(tzinfo=None) == datetime(2026, 7, 10, 10, 30)
    assert "10/07/2026, às 10h30" in result.reason
    assert timeliness(datetime(2026, 7, 10, 10, 0), result).timely
    assert not timeliness(datetime(2026, 7, 10, 11, 0), result).timely
    with pytest.raises(InputError):
        timeliness(date(2026, 7, 10), result)


def test_hours_from_an_aware_start_are_read_in_the_calendar_zone() -> None:
    utc_start = datetime(2026, 3, 4, 13, 30, tzinfo=UTC)  # 10h30 in Americana
    result = count_hours(utc_start, Period(48, "horas"), CAL)
    assert result.end.replace(tzinfo=None) == datetime(2026, 3, 6, 10, 30)
    assert result.end.utcoffset() == timedelta(hours=-3)


@pytest.mark.parametrize(
    ("amount", "unit"),
    [(-1, "dias"), (0, "dias"), (True, "dias"), (1.5, "dias"), (3, "semanas"), (3, "Dias")],
)
def test_invalid_periods_are_input_errors(amount: Any, unit: Any) -> None:
    with pytest.raises(InputError) as caught:
        Period(amount, unit)
    assert caught.value.field in {"/amount", "/unit"}


def test_wrong_inputs_are_input_errors() -> None:
    with pytest.raises(InputError, match="horas"):
        count(date(2026, 3, 4), Period(24, "horas"), CAL)
    with pytest.raises(InputError):
        count_back(date(2026, 3, 4), Period(24, "horas"), CAL)
    with pytest.raises(InputError):
        count_hours(date(2026, 3, 4), Period(24, "horas"), CAL)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        count_hours(datetime(2026, 3, 4), Period(2, "dias"), CAL)
    with pytest.raises(InputError):
        count("2026-03-04", Period(2, "dias"), CAL)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="intervalo"):
        count(date(9999, 12, 1), Period(2, "meses"), CAL)
    with pytest.raises(InputError, match="intervalo"):
        count(date(9999, 12, 30), Period(5, "dias"), CAL)


def test_plural_wording() -> None:
    assert Period(1, "dias").describe() == "1 dia"
    assert Period(2, "meses").describe() == "2 meses"
    assert Period(1, "dias_uteis").describe() == "1 dia útil"
    assert Period(10, "dias_uteis").describe() == "10 dias úteis"
    assert Period(1, "anos").describe() == "1 ano"


starts = st.dates(min_value=date(2020, 1, 1), max_value=date(2035, 12, 31))


def _no_business_day_strictly_between(cal: BusinessCalendar, low: date, high: date) -> bool:
    day = low + timedelta(days=1)
    while day < high:
        if cal.is_business_day(day):
            return False
        day += timedelta(days=1)
    return True


@given(start=starts, days=st.integers(min_value=1, max_value=400))
def test_days_always_end_on_the_first_business_day_from_the_plain_end(
    start: date, days: int
) -> None:
    result = count(start, Period(days, "dias"), CAL)
    assert result.plain_last_day == start + timedelta(days=days)
    assert CAL.is_business_day(result.last_day)
    assert result.last_day >= result.plain_last_day
    assert _no_business_day_strictly_between(CAL, result.plain_last_day, result.last_day)
    assert timeliness(result.last_day, result).timely
    assert not timeliness(result.last_day + timedelta(days=1), result).timely


@given(start=starts, months=st.integers(min_value=1, max_value=60))
def test_months_never_run_past_the_end_of_the_final_month(start: date, months: int) -> None:
    result = count(start, Period(months, "meses"), CAL)
    index = start.year * 12 + start.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    month_length = stdlib_calendar.monthrange(year, month)[1]
    assert (result.plain_last_day.year, result.plain_last_day.month) == (year, month)
    assert result.plain_last_day.day == min(start.day, month_length)
    assert CAL.is_business_day(result.last_day)
    assert _no_business_day_strictly_between(CAL, result.plain_last_day, result.last_day)


@given(start=starts, days=st.integers(min_value=1, max_value=400))
def test_business_day_counts_match_the_calendar(start: date, days: int) -> None:
    result = count(start, Period(days, "dias_uteis"), CAL)
    assert not result.moved and result.last_day == result.plain_last_day
    assert CAL.is_business_day(result.last_day)
    assert CAL.business_days_between(start, result.last_day) == days


@given(end=starts, days=st.integers(min_value=1, max_value=400))
def test_count_back_never_lands_after_the_plain_day(end: date, days: int) -> None:
    result: DeadlineResult = count_back(end, Period(days, "dias"), CAL)
    assert count(result.plain_last_day, Period(days, "dias"), CAL).plain_last_day == end
    # Never a day surely closed; a doubtful one (Corpus Christi, unconfirmed) is not
    # brought forward: doubt never shortens the citizen's time (issue 10, class 9).
    assert CAL.previous_business_day(result.last_day) == result.last_day
    assert result.last_day <= result.plain_last_day
    assert _no_business_day_strictly_between(CAL, result.last_day, result.plain_last_day)
