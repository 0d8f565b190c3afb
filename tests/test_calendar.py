"""The business calendar: package holidays (BR, SP) plus the municipal data file."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from typing import Any

import holidays
import pytest

from lavra.errors import ContentPackError, InputError
from lavra.law.calendar import BusinessCalendar, CalendarEntry, calendar_from_data, load_calendar


@pytest.fixture(scope="module")
def calendar(pack_dir: Path) -> BusinessCalendar:
    return load_calendar(pack_dir)


def _data(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "pais": "BR",
        "uf": "SP",
        "pontos_facultativos_suspendem_prazos": False,
        "recorrentes": [],
        "avulsas": [],
    }
    base.update(changes)
    return base


def _write_pack(tmp_path: Path, content: str) -> Path:
    (tmp_path / "legal_text").mkdir()
    (tmp_path / "legal_text" / "feriados-municipais.json").write_text(content, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("day", "name"),
    [
        (date(2026, 1, 1), "Confraternização Universal"),
        (date(2026, 4, 3), "Sexta-feira Santa"),
        (date(2026, 4, 21), "Tiradentes"),
        (date(2026, 7, 9), "Revolução Constitucionalista"),  # São Paulo state
        (date(2026, 9, 7), "Independência do Brasil"),
        (date(2026, 11, 20), "Dia Nacional de Zumbi e da Consciência Negra"),
        (date(2026, 12, 25), "Natal"),
        (date(2025, 6, 13), "Santo Antônio, padroeiro do Município"),  # municipal
        (date(2026, 6, 13), "Santo Antônio, padroeiro do Município"),  # on a Saturday
    ],
)
def test_holidays_are_named_in_portuguese_and_closed(
    calendar: BusinessCalendar, day: date, name: str
) -> None:
    assert calendar.holiday_name(day) == name
    assert not calendar.is_business_day(day)


def test_state_holiday_comes_from_the_subdivision() -> None:
    national_only = BusinessCalendar("BR")
    assert national_only.is_business_day(date(2026, 7, 9))
    assert not BusinessCalendar("BR", "SP").is_business_day(date(2026, 7, 9))


def test_municipal_holiday_comes_from_the_pack_not_the_package() -> None:
    assert BusinessCalendar("BR", "SP").is_business_day(date(2025, 6, 13))


def test_carnaval_is_only_optional_in_the_package_and_a_business_day_here(
    calendar: BusinessCalendar,
) -> None:
    # The package lists Carnaval (federal ponto facultativo) only in its optional
    # category; the municipality would have to decree it in its own file.
    optional = holidays.country_holidays(
        "BR", subdiv="SP", language="pt_BR", categories=("optional",), years=2026
    )
    public = holidays.country_holidays("BR", subdiv="SP", language="pt_BR", years=2026)
    for carnaval in (date(2026, 2, 16), date(2026, 2, 17)):
        assert optional.get(carnaval) == "Carnaval"
        assert carnaval not in public
        assert calendar.is_business_day(carnaval)
        assert calendar.holiday_name(carnaval) is None


def test_weekends_are_not_business_days_and_not_holidays(calendar: BusinessCalendar) -> None:
    saturday, sunday = date(2026, 3, 7), date(2026, 3, 8)
    for day in (saturday, sunday):
        assert not calendar.is_business_day(day)
        assert calendar.holiday_name(day) is None
    assert calendar.is_business_day(date(2026, 3, 9))


def test_next_and_previous_business_day(calendar: BusinessCalendar) -> None:
    assert calendar.next_business_day(date(2026, 3, 9)) == date(2026, 3, 9)
    assert calendar.next_business_day(date(2026, 3, 7)) == date(2026, 3, 9)
    # Friday 13/06/2025 municipal holiday, then the weekend.
    assert calendar.next_business_day(date(2025, 6, 13)) == date(2025, 6, 16)
    assert calendar.previous_business_day(date(2025, 6, 15)) == date(2025, 6, 12)
    assert calendar.previous_business_day(date(2025, 6, 12)) == date(2025, 6, 12)
    # Saturday before Monday 07/09/2026 (Independência).
    assert calendar.next_business_day(date(2026, 9, 5)) == date(2026, 9, 8)
    # Natal 2026 is a Friday; 1º de janeiro de 2027 too.
    assert calendar.next_business_day(date(2026, 12, 25)) == date(2026, 12, 28)
    assert calendar.previous_business_day(date(2027, 1, 3)) == date(2026, 12, 31)


@pytest.mark.parametrize(
    ("year", "expected"),
    [
        (2026, date(2026, 12, 31)),  # a Thursday; véspera de Ano-Novo is only optional
        (2022, date(2022, 12, 30)),  # 31/12 a Saturday
        (2028, date(2028, 12, 29)),  # 31/12 a Sunday
    ],
)
def test_last_business_day_of_year(
    calendar: BusinessCalendar, year: int, expected: date
) -> None:
    assert calendar.last_business_day_of_year(year) == expected


def test_business_days_between(calendar: BusinessCalendar) -> None:
    assert calendar.business_days_between(date(2026, 2, 20), date(2026, 2, 27)) == 5
    assert calendar.business_days_between(date(2026, 2, 27), date(2026, 2, 20)) == -5
    assert calendar.business_days_between(date(2026, 2, 20), date(2026, 2, 20)) == 0
    # January 2026: 22 weekdays, less 1º de janeiro.
    assert calendar.business_days_between(date(2025, 12, 31), date(2026, 1, 31)) == 21
    # Week of 9 to 13 June 2025: Friday is Santo Antônio.
    assert calendar.business_days_between(date(2025, 6, 8), date(2025, 6, 13)) == 4
    start = date(2025, 6, 11)
    assert calendar.business_days_between(start, calendar.add_business_days(start, 7)) == 7


def test_a_datetime_is_read_as_its_date(calendar: BusinessCalendar) -> None:
    assert not calendar.is_business_day(datetime(2026, 7, 9, 15, 0))


@pytest.mark.parametrize("bad", ["2026-07-09", None, 20260709])
def test_non_dates_are_input_errors(calendar: BusinessCalendar, bad: Any) -> None:
    with pytest.raises(InputError):
        calendar.is_business_day(bad)


def test_out_of_range_is_an_input_error(calendar: BusinessCalendar) -> None:
    with pytest.raises(InputError):
        calendar.add_business_days(date.max, 1)
    with pytest.raises(InputError):
        calendar.add_business_days(date.min, -1)
    with pytest.raises(InputError):
        calendar.last_business_day_of_year(0)


def test_pontos_facultativos_do_not_close_by_default() -> None:
    data = _data(
        avulsas=[
            {
                "data": "2026-02-16",
                "nome": "Carnaval",
                "tipo": "ponto_facultativo",
                "fonte": "Decreto de teste",
            }
        ]
    )
    open_office = calendar_from_data(data)
    assert open_office.is_business_day(date(2026, 2, 16))
    assert open_office.holiday_name(date(2026, 2, 16)) is None
    assert open_office.ponto_facultativo_name(date(2026, 2, 16)) == "Carnaval"

    data["pontos_facultativos_suspendem_prazos"] = True
    closed = calendar_from_data(data)
    assert not closed.is_business_day(date(2026, 2, 16))
    assert closed.holiday_name(date(2026, 2, 16)) == "Carnaval"
    assert closed.next_business_day(date(2026, 2, 14)) == date(2026, 2, 17)


def test_movable_and_bounded_recurring_entries() -> None:
    data = _data(
        recorrentes=[
            {
                "dias_apos_pascoa": 60,
                "nome": "Corpus Christi",
                "tipo": "feriado",
                "fonte": "Lei de teste",
                "desde": "2020-01-01",
                "ate": "2026-12-31",
            }
        ]
    )
    cal = calendar_from_data(data)
    assert cal.holiday_name(date(2026, 6, 4)) == "Corpus Christi"  # Páscoa 05/04/2026
    assert cal.holiday_name(date(2025, 6, 19)) == "Corpus Christi"  # Páscoa 20/04/2025
    assert cal.holiday_name(date(2019, 6, 20)) is None  # before 'desde'
    assert cal.is_business_day(date(2027, 5, 27))  # after 'ate'


def test_recurring_29_february_only_in_leap_years() -> None:
    entry = CalendarEntry(name="X", kind="feriado", source="teste", month_day=(2, 29))
    assert entry.date_in(2024) == date(2024, 2, 29)
    assert entry.date_in(2025) is None
    cal = BusinessCalendar("BR", "SP", [entry])
    assert not cal.is_business_day(date(2024, 2, 29))
    assert cal.is_business_day(date(2028, 2, 28))


def test_shipped_calendar_is_sourced(pack_dir: Path) -> None:
    raw = json.loads(
        (pack_dir / "legal_text" / "feriados-municipais.json").read_text(encoding="utf-8")
    )
    cal = load_calendar(pack_dir)
    # Days without expediente include the pontos facultativos the Prefeito decrees (Lei nº
    # 9.784/1999, art. 66, § 1º; issue 10, class 9): this used to assert False.
    assert cal.pontos_facultativos_stop_deadlines is True
    assert (cal.country, cal.subdiv) == ("BR", "SP")
    assert any(e.month_day == (6, 13) and e.kind == "feriado" for e in cal.entries)
    for entry in cal.entries:
        assert entry.source.strip()
    for item in raw["avulsas"]:
        assert "Decreto nº" in item["fonte"]


@pytest.mark.parametrize(
    ("changes", "pointer"),
    [
        ({"feriados": []}, "/feriados"),
        ({"pontos_facultativos_suspendem_prazos": "não"}, "/pontos_facultativos_suspendem_prazos"),
        (
            {"recorrentes": [{"data": "02-30", "nome": "X", "tipo": "feriado", "fonte": "F"}]},
            "/recorrentes/0/data",
        ),
        (
            {"recorrentes": [{"data": "6-13", "nome": "X", "tipo": "feriado", "fonte": "F"}]},
            "/recorrentes/0/data",
        ),
        (
            {"recorrentes": [{"data": "06-13", "nome": "X", "tipo": "feriado", "fonte": "F",
                              "cor": "azul"}]},
            "/recorrentes/0/cor",
        ),
        (
            {"recorrentes": [{"data": "06-13", "nome": "X", "tipo": "feriado"}]},
            "/recorrentes/0/fonte",
        ),
        (
            {"recorrentes": [{"data": "06-13", "dias_apos_pascoa": 60, "nome": "X",
                              "tipo": "feriado", "fonte": "F"}]},
            "/recorrentes/0",
        ),
        (
            {"recorrentes": [{"data": "06-13", "nome": "X", "tipo": "feriado", "fonte": "F",
                              "desde": "2020-01-01", "ate": "2019-01-01"}]},
            "/recorrentes/0/ate",
        ),
        (
            {"avulsas": [{"data": "2026-02-30", "nome": "X", "tipo": "ponto_facultativo",
                          "fonte": "F"}]},
            "/avulsas/0/data",
        ),
        (
            {"avulsas": [{"data": "2026-02-16", "nome": "X", "tipo": "folga", "fonte": "F"}]},
            "/avulsas/0/tipo",
        ),
        ({"avulsas": {"data": "2026-02-16"}}, "/avulsas"),
        ({"fuso_horario": "America/Americana"}, "/fuso_horario"),
    ],
)
def test_bad_calendar_data_is_a_content_pack_error(
    tmp_path: Path, changes: dict[str, Any], pointer: str
) -> None:
    pack = _write_pack(tmp_path, json.dumps(_data(**changes)))
    with pytest.raises(ContentPackError) as caught:
        load_calendar(pack)
    assert caught.value.field == pointer
    assert caught.value.message.startswith(
        f"Calendário municipal inválido em legal_text/feriados-municipais.json ({pointer}): "
    )


def test_unknown_country_is_a_content_pack_error() -> None:
    with pytest.raises(ContentPackError):
        calendar_from_data(_data(pais="BR", uf="XX"))


def test_missing_or_broken_file_is_a_content_pack_error(tmp_path: Path) -> None:
    with pytest.raises(ContentPackError, match="não encontrado"):
        load_calendar(tmp_path)
    pack = _write_pack(tmp_path, '{"pais": "BR",')
    with pytest.raises(ContentPackError, match="não é JSON válido"):
        load_calendar(pack)
