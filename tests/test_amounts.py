"""Fines and fees in force by date, and ``lavra amount``."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from lavra.checking.report import Status
from lavra.cli.amount import amount as amount_command
from lavra.errors import CitationError, ContentPackError, InputError, ParameterError
from lavra.law.model import load_laws
from lavra.law.params import load_parameters, parameters_from_document
from lavra.render.templating import format_moeda, format_moeda_extenso
from lavra_americana.comum.amounts import (
    EXAMPLE_FILE,
    AmountSources,
    load_example_values,
    load_sources,
    money_words,
    to_cents,
)
from lavra_americana.fretamento.fines import fretamento_fine
from lavra_americana.transporte_escolar.fees import escolar_fee, escolar_fine

UFESP = {
    2019: "26.53", 2020: "27.61", 2021: "29.09", 2022: "31.97",
    2023: "34.26", 2024: "35.36", 2025: "37.02", 2026: "38.42",
}


@pytest.fixture(scope="module")
def sources(pack_dir: Path) -> AmountSources:
    return load_sources(pack_dir)


@pytest.fixture(scope="module")
def example_sources(pack_dir: Path) -> AmountSources:
    return load_sources(pack_dir, exemplo=True)


def corrected_sources(pack_dir: Path, values: dict[str, dict[int, str]]) -> AmountSources:
    """The pack with corrected fretamento fines registered for some years (test data)."""
    raw = json.loads((pack_dir / "legal_text" / "parametros.json").read_text("utf-8"))
    for article, by_year in values.items():
        periods = raw["parametros"][f"fretamento.multa.{article}"]["vigencias"]
        for year, value in sorted(by_year.items()):
            periods.append({"desde": f"{year}-01-01", "ate": f"{year}-12-31",
                            "valor": value, "fonte": f"Decreto de teste nº {year}"})
    return AmountSources(laws=load_laws(pack_dir), parameters=parameters_from_document(raw))


# ---------------------------------------------------------------- UFESP table


def test_ufesp_table_has_each_exercise_with_its_source(pack_dir: Path) -> None:
    params = load_parameters(pack_dir)
    for year, value in UFESP.items():
        for day in (date(year, 1, 1), date(year, 7, 15), date(year, 12, 31)):
            found = params.value("ufesp.valor", day)
            assert found.value == Decimal(value)
            assert found.since == date(year, 1, 1) and found.until == date(year, 12, 31)
            assert found.source == f"SEFAZ-SP, valor da UFESP para o exercício de {year}"


# ---------------------------------------------------------------- transporte escolar fees


@pytest.mark.parametrize(
    ("citation", "on", "expected"),
    [
        pytest.param("transporte-escolar#art16_inc1", date(2026, 3, 1), "384.20",
                     id="transporte-escolar#art16_inc1 issuing 10 UFESP 2026"),
        pytest.param("transporte-escolar#art16_inc2", date(2026, 3, 1), "38.42",
                     id="transporte-escolar#art16_inc2 renewing 1 UFESP 2026"),
        pytest.param("transporte-escolar#art16_inc3", date(2026, 3, 1), "1152.60",
                     id="transporte-escolar#art16_inc3 transferring 30 UFESP 2026"),
        pytest.param("transporte-escolar#art16_inc1", date(2019, 1, 1), "265.30",
                     id="transporte-escolar#art16_inc1 first day of 2019"),
        pytest.param("transporte-escolar#art16_inc3", date(2024, 12, 31), "1060.80",
                     id="transporte-escolar#art16_inc3 last day of 2024"),
        pytest.param("transporte-escolar#art16_inc1", date(2025, 12, 31), "370.20",
                     id="transporte-escolar#art16_inc1 31/12/2025 uses the 2025 UFESP"),
        pytest.param("transporte-escolar#art16_inc2", date(2022, 6, 30), "31.97",
                     id="transporte-escolar#art16_inc2 2022"),
    ],
)
def test_escolar_fee(sources: AmountSources, citation: str, on: date, expected: str) -> None:
    result = escolar_fee(citation, on, sources)
    assert result.value == Decimal(expected)
    assert result.ufesp == Decimal(UFESP[on.year])
    assert result.units is not None and result.value == result.units * result.ufesp
    assert result.doubled is False and result.example is False
    assert result.figures == format_moeda(Decimal(expected))
    assert result.in_words == format_moeda_extenso(Decimal(expected))
    assert result.in_words in result.explanation
    assert f"UFESP do exercício de {on.year}" in result.explanation
    assert "Lei nº 4.515/2007" in result.explanation
    assert result.basis == (citation,)
    assert [i.status for i in result.items] == [Status.MET]


def test_fee_in_figures_and_words(sources: AmountSources) -> None:
    result = escolar_fee("transporte-escolar#art16_inc3", date(2026, 5, 4), sources)
    assert result.figures == "R$ 1.152,60"
    assert result.words == "mil, cento e cinquenta e dois reais e sessenta centavos"
    assert money_words(Decimal("38.42")) == "trinta e oito reais e quarenta e dois centavos"


@pytest.mark.parametrize(
    ("on", "year"),
    [
        pytest.param(date(2027, 1, 1), 2027, id="transporte-escolar#art16 no UFESP for 2027"),
        pytest.param(date(2018, 12, 31), 2018, id="transporte-escolar#art16 no UFESP for 2018"),
    ],
)
def test_fee_without_ufesp_names_the_year(sources: AmountSources, on: date, year: int) -> None:
    with pytest.raises(ParameterError) as caught:
        escolar_fee("transporte-escolar#art16_inc1", on, sources)
    assert f"UFESP para o exercício de {year}" in caught.value.message
    # Whom to ask, never a file (issue 10, class 9).
    assert "Procure o administrador do lavra na Secretaria de Transportes" in caught.value.message
    assert ".json" not in caught.value.message and "legal_text" not in caught.value.message


def test_fee_before_the_law(sources: AmountSources) -> None:
    with pytest.raises(InputError, match="vigora desde 03/08/2007"):
        escolar_fee("transporte-escolar#art16_inc1", date(2007, 8, 2), sources)


@pytest.mark.parametrize(
    ("citation", "error"),
    [
        pytest.param("transporte-escolar#art16", InputError, id="transporte-escolar#art16 caput"),
        pytest.param("transporte-escolar#art17_inc1", InputError,
                     id="transporte-escolar#art17_inc1 not a fee"),
        pytest.param("transporte-escolar#art16_inc9", CitationError,
                     id="transporte-escolar#art16_inc9 does not exist"),
    ],
)
def test_fee_refuses_other_citations(
    sources: AmountSources, citation: str, error: type[Exception]
) -> None:
    with pytest.raises(error):
        escolar_fee(citation, date(2026, 3, 1), sources)


@pytest.mark.parametrize(
    ("on", "doubled", "expected"),
    [
        pytest.param(date(2026, 3, 1), False, "384.20",
                     id="transporte-escolar#art23_inc2 10 UFESP"),
        pytest.param(date(2026, 3, 1), True, "768.40",
                     id="transporte-escolar#art23_inc2 doubled on repeat"),
        pytest.param(date(2020, 2, 29), False, "276.10", id="transporte-escolar#art23_inc2 2020"),
    ],
)
def test_escolar_fine(sources: AmountSources, on: date, doubled: bool, expected: str) -> None:
    result = escolar_fine(on, sources, doubled=doubled)
    assert result.value == Decimal(expected)
    assert result.doubled is doubled
    assert result.base == Decimal(expected) / (2 if doubled else 1)
    assert ("em dobro" in result.explanation) is doubled
    assert "art. 23, II, da Lei nº 4.515/2007" in result.explanation


@given(
    day=st.dates(min_value=date(2019, 1, 1), max_value=date(2026, 12, 31)),
    fragment=st.sampled_from(["art16_inc1", "art16_inc2", "art16_inc3"]),
)
def test_fee_is_units_times_the_ufesp_of_the_year(
    sources: AmountSources, day: date, fragment: str
) -> None:
    result = escolar_fee(f"transporte-escolar#{fragment}", day, sources)
    units = {"art16_inc1": 10, "art16_inc2": 1, "art16_inc3": 30}[fragment]
    assert result.value == units * Decimal(UFESP[day.year])
    assert result.value == result.value.quantize(Decimal("0.01"))


def test_rounding_is_half_up_like_the_printed_figure() -> None:
    # Decimal's default (half-even) would give 0.12; the printed figure says 0,13.
    assert to_cents(Decimal("0.125")) == Decimal("0.13")
    assert format_moeda(Decimal("0.125")) == "R$ 0,13"
    assert to_cents(Decimal("38.424")) == Decimal("38.42")


# ---------------------------------------------------------------- fretamento fines


@pytest.mark.parametrize(
    ("citation", "expected"),
    [
        pytest.param("fretamento#art15", "140.00", id="fretamento#art15 original value"),
        pytest.param("fretamento#art15_inc8", "140.00", id="fretamento#art15_inc8 gives art. 15"),
        pytest.param("fretamento#art16_inc2", "280.00", id="fretamento#art16_inc2 gives art. 16"),
        pytest.param("fretamento#art17", "700.00", id="fretamento#art17 original value"),
        pytest.param("fretamento#art17_inc10", "700.00",
                     id="fretamento#art17_inc10 gives art. 17"),
    ],
)
def test_fretamento_original_fine(sources: AmountSources, citation: str, expected: str) -> None:
    for day in (date(2006, 11, 17), date(2006, 12, 31)):
        result = fretamento_fine(citation, day, sources)
        assert result.value == Decimal(expected)
        assert result.example is False and result.doubled is False
        assert "valor original da lei" in result.explanation
        assert result.in_words is not None and result.in_words in result.explanation
        assert result.basis[0] == citation
        assert "fretamento#art14_par1u" in result.basis
        assert not any("_inc" in b for b in result.basis[1:])


@pytest.mark.parametrize(
    ("citation", "on", "article"),
    [
        pytest.param("fretamento#art16_inc2", date(2026, 3, 1), 16,
                     id="fretamento#art14_par1u no corrected value for 2026"),
        pytest.param("fretamento#art15_inc1", date(2007, 1, 1), 15,
                     id="fretamento#art14_par1u correction due on 1 January 2007"),
        pytest.param("fretamento#art17", date(2019, 6, 1), 17,
                     id="fretamento#art14_par1u no corrected value for 2019"),
    ],
)
def test_fretamento_fine_without_corrected_value(
    sources: AmountSources, citation: str, on: date, article: int
) -> None:
    with pytest.raises(ParameterError) as caught:
        fretamento_fine(citation, on, sources)
    assert caught.value.message == (
        f"Não há valor corrigido da multa do art. {article} da Lei nº 4.419/2006 para "
        f"{on.year} (correção anual, Lei nº 3.610/2001). Procure o administrador do lavra "
        "na Secretaria de Transportes e Sistema Viário – SETRANSV, que o cadastra com o ato "
        "que o fixou; sem ele, o auto não pode ser lavrado."
    )
    draft = fretamento_fine(citation, on, sources, draft=True)
    assert draft.value is None and draft.figures is None and draft.in_words is None
    assert draft.pending == caught.value.message
    assert [i.status for i in draft.items] == [Status.MISSING]
    assert draft.items[0].message == caught.value.message
    assert "valor pendente" in draft.explanation


def test_fretamento_corrected_value_registered(pack_dir: Path) -> None:
    sources = corrected_sources(pack_dir, {"art16": {2026: "412.37"}})
    result = fretamento_fine("fretamento#art16_inc2", date(2026, 3, 1), sources)
    assert result.value == Decimal("412.37")
    assert result.source == "Decreto de teste nº 2026"
    assert "valor corrigido para 2026 (Lei nº 3.610/2001)" in result.explanation
    assert "R$ 412,37 (quatrocentos e doze reais e trinta e sete centavos)" in result.explanation
    # the year after still has none
    with pytest.raises(ParameterError, match="para 2027"):
        fretamento_fine("fretamento#art16_inc2", date(2027, 1, 1), sources)


def test_fretamento_fine_before_the_law(sources: AmountSources) -> None:
    with pytest.raises(InputError, match="vigora desde 17/11/2006"):
        fretamento_fine("fretamento#art15", date(2006, 11, 16), sources)


@pytest.mark.parametrize(
    ("citation", "error"),
    [
        pytest.param("fretamento#art18", InputError, id="fretamento#art18 sets no fine itself"),
        pytest.param("fretamento#art14_ali1", InputError, id="fretamento#art14_ali1 not a fine"),
        pytest.param("fretamento#art21_ali3", InputError, id="fretamento#art21_ali3 not a fine"),
        pytest.param("transporte-escolar#art16_inc1", InputError,
                     id="transporte-escolar#art16_inc1 other law"),
        pytest.param("fretamento#art15_inc9", CitationError,
                     id="fretamento#art15_inc9 does not exist"),
    ],
)
def test_fretamento_fine_refuses_other_citations(
    sources: AmountSources, citation: str, error: type[Exception]
) -> None:
    with pytest.raises(error):
        fretamento_fine(citation, date(2006, 12, 1), sources)


def test_datetime_is_not_a_date(sources: AmountSources) -> None:
    from datetime import datetime

    with pytest.raises(InputError):
        fretamento_fine("fretamento#art15", datetime(2006, 12, 1, 10, 0), sources)


# ---------------------------------------------------------------- example table


def test_example_table_is_not_loaded_unless_asked(sources: AmountSources) -> None:
    assert sources.examples is None


def test_example_table_fills_only_missing_years(example_sources: AmountSources) -> None:
    result = fretamento_fine("fretamento#art16_inc2", date(2026, 3, 1), example_sources)
    assert result.example is True
    assert result.value == Decimal("742.92")
    assert result.explanation.startswith("EXEMPLO, NÃO OFICIAL")
    assert "não serve para lavrar auto" in result.explanation
    assert result.source is not None and result.source.startswith("EXEMPLO")
    official = fretamento_fine("fretamento#art16_inc2", date(2006, 12, 1), example_sources)
    assert official.example is False and official.value == Decimal("280.00")


def test_every_example_entry_says_it_is_an_example(pack_dir: Path) -> None:
    raw = json.loads((pack_dir / EXAMPLE_FILE).read_text("utf-8"))
    assert raw["exemplo"] is True and "EXEMPLO" in raw["aviso"]
    table = load_example_values(pack_dir)
    for name in table:
        for period in table.parameter(name).periods:
            assert period.source.startswith("EXEMPLO, NÃO OFICIAL")


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"exemplo": False}, id="fretamento#art14_par1u table not flagged"),
        pytest.param({"fonte": "Decreto nº 1/2026"}, id="fretamento#art14_par1u source not marked"),
        pytest.param({"aviso": "Valores corrigidos"}, id="fretamento#art14_par1u notice silent"),
    ],
)
def test_example_table_that_does_not_say_so_is_refused(
    pack_dir: Path, tmp_path: Path, change: dict[str, Any]
) -> None:
    raw = json.loads((pack_dir / EXAMPLE_FILE).read_text("utf-8"))
    if "fonte" in change:
        raw["parametros"]["fretamento.multa.art15"]["vigencias"][3]["fonte"] = change["fonte"]
        pointer, words = "/parametros/fretamento.multa.art15/vigencias/3/fonte", "EXEMPLO"
    else:
        raw.update(change)
        [key] = change
        pointer, words = f"/{key}", "EXEMPLO" if key == "aviso" else '"exemplo": true'
    target = tmp_path / EXAMPLE_FILE
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps(raw, ensure_ascii=False), "utf-8")
    with pytest.raises(ContentPackError) as info:
        load_example_values(tmp_path)
    assert info.value.field == pointer
    assert info.value.message.startswith(
        f"Tabela de exemplo inválida em {EXAMPLE_FILE.as_posix()} ({pointer}): ")
    assert words in info.value.message


# ---------------------------------------------------------------- lavra amount


@pytest.fixture
def run(pack_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("LAVRA_PACK", str(pack_dir))
    monkeypatch.delenv("LAVRA_CONFIG", raising=False)
    runner = CliRunner()

    def invoke(*args: str) -> Any:
        return runner.invoke(amount_command, list(args))

    return invoke


def test_cli_fee_json(run: Any) -> None:
    result = run("transporte-escolar#art16_inc1", "--on", "2026-03-01", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["amount"] == "384.20"
    assert data["doubled"] is False
    assert data["example"] is False
    assert data["amount_words"] == "trezentos e oitenta e quatro reais e vinte centavos"
    assert data["basis"] == ["transporte-escolar#art16_inc1"]
    assert "art. 16, I, da Lei nº 4.515/2007" in data["explanation"]


def test_cli_on_accepts_the_brazilian_date_form(run: Any) -> None:
    iso = json.loads(run("transporte-escolar#art16_inc1", "--on", "2026-03-01", "--json").stdout)
    typed = run("transporte-escolar#art16_inc1", "--on", "01/03/2026", "--json")
    assert typed.exit_code == 0, typed.stderr
    assert json.loads(typed.stdout) == iso
    assert iso["amount"] == "384.20"


def test_cli_text_output(run: Any) -> None:
    result = run("transporte-escolar#art16_inc2", "--on", "2025-01-02")
    assert result.exit_code == 0
    assert "Valor: R$ 37,02 (trinta e sete reais e dois centavos)." in result.stdout


def test_cli_fretamento_without_corrected_value_exits_2(run: Any) -> None:
    result = run("fretamento#art16_inc2", "--on", "2026-03-01")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(
        "Erro: Não há valor corrigido da multa do art. 16 da Lei nº 4.419/2006 para 2026"
    )
    assert "Traceback" not in result.output


def test_cli_fretamento_example_and_repeat(run: Any) -> None:
    result = run("fretamento#art16_inc2", "--on", "2026-03-01", "--previous", "2025-09-01",
                 "--exemplo", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["example"] is True
    assert data["doubled"] is True
    assert data["amount"] == "1485.84"
    assert "EXEMPLO" in data["explanation"]
    assert "fretamento#art18" in data["basis"]
    assert data["impediment"]["applies"] is True  # art. 21, c: art. 16, II
    text = run("fretamento#art16_inc2", "--on", "2026-03-01", "--exemplo")
    assert text.stdout.startswith("ATENÇÃO: valor de EXEMPLO")


def test_cli_escolar_sanction(run: Any) -> None:
    first = json.loads(run("transporte-escolar#art21_inc3", "--on", "2026-03-01",
                           "--json").stdout)
    assert (first["sanction"], first["amount"], first["doubled"]) == ("advertencia", "0.00",
                                                                      False)
    repeat = json.loads(run("transporte-escolar#art24_inc2", "--on", "2026-03-01",
                            "--previous", "2025-12-01", "--json").stdout)
    assert (repeat["sanction"], repeat["amount"], repeat["doubled"]) == (
        "multa_em_dobro", "768.40", True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(("transporte-escolar#art16_inc1", "--on", "2026-02-30"),
                     "não existe no calendário", id="transporte-escolar#art16_inc1 bad date"),
        pytest.param(("transporte-escolar#art16_inc1", "--data", "30/02/2026"),
                     "A data de referência (--data) 30/02/2026 não existe no calendário",
                     id="transporte-escolar#art16_inc1 bad date typed DD/MM/AAAA"),
        pytest.param(("transporte-escolar#art16_inc1", "--on", "1/3/2026"),
                     "Use AAAA-MM-DD ou DD/MM/AAAA",
                     id="transporte-escolar#art16_inc1 date in no known form"),
        pytest.param(("transporte-escolar#art16_inc1", "--on", "2026-03-01",
                      "--previous", "2026-01-01"),
                     "não se aplica a taxas", id="transporte-escolar#art16_inc1 fee has no repeat"),
        pytest.param(("fretamento#art15", "--on", "2006-12-01", "--previous", "2006-12-02"),
                     "posterior à data", id="fretamento#art18 previous after the infraction"),
        pytest.param(("fretamento#art99", "--on", "2026-03-01"), "não existe",
                     id="fretamento#art99 unknown"),
        pytest.param(("transporte-escolar#art16_inc1", "--on", "2027-03-01"),
                     "UFESP para o exercício de 2027", id="transporte-escolar#art16 no UFESP"),
    ],
)
def test_cli_errors(run: Any, args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith("Erro: ") and message in result.stderr
    assert "Traceback" not in result.output


def test_cli_help_is_portuguese(run: Any) -> None:
    result = run("--help")
    assert result.exit_code == 0
    assert "Calcula a multa ou a taxa" in result.stdout
    assert "Mostra esta ajuda e sai." in result.stdout
