"""Dates out of range never end in an internal error: a field error, or a report item.

For every form of the pack, every date of its example (and the reference date) is set
to an extreme date: `check` and `draft` either give a report with that field marked
invalid (a pt-BR message) or refuse with an InputError naming the field or option.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lavra.checking.content import Content
from lavra.checking.report import Report
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.errors import InputError, ParameterError
from lavra.inputs.reading import DATE_MAX, DATE_MIN, maybe_date, parse_date
from lavra.law.calendar import load_calendar
from lavra.law.deadlines import Period, count, count_back, count_hours

REPO = Path(__file__).resolve().parent.parent
EXTREMES = ("0001-01-01", "1899-12-31", "2200-01-01", "9999-12-31")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


@cache
def engine() -> Engine:
    return Engine(Content(REPO))


def _forms() -> tuple[str, ...]:
    content = engine().content
    ids = sorted(p.name for p in (REPO / "forms").iterdir() if (p / "exemplo.json").is_file())
    return tuple(i for i in ids if content.form(i).example is not None)


def _example(form: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((REPO / "forms" / form / "exemplo.json").read_text("utf-8"))
    return data


def date_pointers(node: Any, path: str = "") -> list[str]:
    """Pointers of every string of ``node`` that starts with a date (dates, date-times)."""
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in date_pointers(v, f"{path}/{k}")]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in date_pointers(v, f"{path}/{i}")]
    return [path] if isinstance(node, str) and _DATE.match(node) else []


def set_at(data: Any, pointer: str, day: str) -> None:
    *parents, last = pointer.lstrip("/").split("/")
    node = data
    for token in parents:
        node = node[int(token)] if isinstance(node, list) else node[token]
    key: Any = int(last) if isinstance(node, list) else last
    node[key] = day + node[key][10:]  # keeps the time of a date-time


def _out_of_range(day: str) -> bool:
    return not (DATE_MIN.isoformat() <= day <= DATE_MAX.isoformat())


def assert_flagged(report: Report, moved: dict[str, str]) -> None:
    """Every field moved out of range is reported pending (within its requirement)."""
    for pointer, day in moved.items():
        if not _out_of_range(day):
            continue
        owners = [
            i for i in report.items
            if i.pending and (pointer == i.field or pointer.startswith(i.field.rstrip("/") + "/"))
        ]
        assert owners, f"{pointer}={day} não aparece como irregular: {report.to_json()}"
        assert any(
            "intervalo aceito" in i.message or "inexistente" in i.message.lower() for i in owners
        ), [i.message for i in owners]


def run(form: str, moved: dict[str, str], on: str | None, *, draft: bool = False) -> None:
    data = _example(form)
    for pointer, day in moved.items():
        set_at(data, pointer, day)
    reference = date.fromisoformat(on) if on is not None else None
    try:
        if draft:
            rendered = engine().draft(form, data, reference)
            assert rendered.pdf.startswith(b"%PDF")
            report = rendered.report
        else:
            report = engine().check(form, data, reference)
    except ParameterError as error:
        # A date before the law (or its parameter) was in force: named, in pt-BR.
        assert error.field is not None, error.message
        assert "não tem valor vigente" in error.message
        return
    except InputError as error:
        # Refused: it names the option or the field, in pt-BR.
        assert error.field is not None, error.message
        assert error.field == "/on" or error.field in moved or any(
            error.field.startswith(p) or p.startswith(error.field) for p in moved
        ), (error.field, error.message)
        if error.field == "/on":
            assert on is not None and _out_of_range(on)
        assert "intervalo aceito" in error.message or "calendário" in error.message
        return
    assert on is None or not _out_of_range(on), "data de referência fora do intervalo aceita"
    assert_flagged(report, moved)


extreme_or_random = st.one_of(
    st.sampled_from(EXTREMES),
    st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31)).map(date.isoformat),
)


@pytest.mark.parametrize("form", _forms())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_check_survives_any_date(form: str, data: st.DataObject) -> None:
    pointers = date_pointers(_example(form))
    assert pointers, f"o exemplo de {form} não tem datas"
    chosen = data.draw(st.lists(st.sampled_from(pointers), unique=True, min_size=1))
    moved = {p: data.draw(extreme_or_random, label=p) for p in chosen}
    on = data.draw(st.one_of(st.none(), extreme_or_random, st.just("2026-11-30")), label="on")
    run(form, moved, on)


@pytest.mark.parametrize("form", _forms())
@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01"])
def test_check_with_every_date_at_the_edge(form: str, day: str) -> None:
    moved = dict.fromkeys(date_pointers(_example(form)), day)
    run(form, moved, None)
    run(form, moved, "2026-11-30")
    run(form, {}, day)


@pytest.mark.parametrize("form", _forms())
def test_draft_with_every_date_at_the_edge(form: str) -> None:
    moved = dict.fromkeys(date_pointers(_example(form)), "9999-12-31")
    run(form, moved, "2026-11-30", draft=True)
    run(form, {}, "9999-12-31", draft=True)


@pytest.mark.parametrize(
    "text", ["9999-12-31", "31/12/9999", "0001-01-01", "1899-12-31", "2200-01-01"]
)
def test_typed_dates_are_bounded(text: str) -> None:
    with pytest.raises(InputError, match="intervalo aceito") as caught:
        parse_date(text, what="data de referência (--on)", field="--on")
    assert caught.value.field == "--on"
    assert maybe_date(text) is None


def test_bounds_are_inclusive() -> None:
    assert parse_date("1900-01-01") == DATE_MIN and parse_date("31/12/2199") == DATE_MAX


def test_schema_date_definition_states_the_same_range() -> None:
    """The shared definition in comum.json bounds dates as the engine does."""
    comum = json.loads((REPO / "schemas" / "comum.json").read_text("utf-8"))
    definition = comum["$defs"]["data"]
    pattern = re.compile(definition["pattern"])
    assert pattern.match(DATE_MIN.isoformat()) and pattern.match(DATE_MAX.isoformat())
    assert not pattern.match("1899-12-31") and not pattern.match("2200-01-01")
    assert "1900-01-01" in definition["$comment"] and "2199-12-31" in definition["$comment"]


@pytest.mark.parametrize("on", ["9999-12-31", "31/12/9999", "0001-01-01"])
def test_cli_check_on_far_date_is_an_option_error(on: str) -> None:
    example = REPO / "forms" / "alvara-fretamento" / "exemplo.json"
    result = CliRunner().invoke(main, ["check", "alvara-fretamento", str(example), "--on", on])
    assert result.exit_code == 2, result.output
    assert "--data" in result.output and "intervalo aceito" in result.output
    assert "interno" not in result.output


@pytest.mark.parametrize(
    ("option", "value"),
    [("--from", "9999-12-31"), ("--from", "9999-12-31T10:00"), ("--from", "0001-01-01")],
)
def test_cli_deadline_far_date_is_an_option_error(option: str, value: str) -> None:
    from lavra.cli.deadline import parse_moment

    with pytest.raises(InputError, match="intervalo aceito") as caught:
        parse_moment(value, option)
    assert caught.value.field == "/from"


@pytest.mark.parametrize(
    "start", [date(9999, 12, 1), date(1, 1, 2), datetime(9999, 12, 31, 20, 0)]
)
def test_deadline_counts_from_far_dates_are_field_errors(start: date) -> None:
    calendar = load_calendar(REPO)
    with pytest.raises(InputError, match="intervalo aceito") as caught:
        if isinstance(start, datetime):
            count_hours(start, Period(48, "horas"), calendar)
        else:
            count(start, Period(30, "dias"), calendar)
    assert caught.value.field == "/start"
    with pytest.raises(InputError) as back:
        count_back(date(1, 1, 2), Period(1, "anos"), calendar)
    assert back.value.field == "/end"
