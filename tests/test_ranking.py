"""Selection of school-transport licences: the cap of art. 6º and the ranking of art. 8º."""

from __future__ import annotations

import copy
import json
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lavra.checking.report import Status
from lavra.errors import ContentPackError, InputError, ParameterError
from lavra.law.model import load_laws
from lavra.law.params import load_parameters
from lavra_americana.transporte_escolar.eligibility import Eligibility
from lavra_americana.transporte_escolar.population import (
    Population,
    latest_figure,
    licence_cap,
    load_population,
    population_from_document,
)
from lavra_americana.transporte_escolar.ranking import (
    Applicant,
    load_scoring_table,
    rank_candidates,
    scoring_table_from_document,
    scoring_table_path,
)

_PACK = Path(__file__).resolve().parent.parent
PARAMS = load_parameters(_PACK)
LAWS = load_laws(_PACK)


def _figure(year: int, published: str, value: int | None,
            status: str = "confirmado", kind: str = "estimativa") -> dict[str, Any]:
    return {
        "ano": year, "tipo": kind, "data_referencia": f"{year}-07-01", "divulgacao": published,
        "valor": value, "situacao": status, "fonte": f"Fixture de teste, {year}",
    }


POPULATION_DOC: dict[str, Any] = {
    "municipio": "Cidade de Teste",
    "fundamento": ["transporte-escolar#art6"],
    "dados": [
        _figure(2022, "2023-06-28", 200_000, kind="censo"),
        _figure(2024, "2024-08-29", 250_000),
        _figure(2025, "2025-08-28", 249_999, status="a_confirmar"),
    ],
}
POPULATION = population_from_document(POPULATION_DOC, "fixture")


# ---------------------------------------------------------------- population and cap


@pytest.mark.parametrize(
    ("on", "year"),
    [
        pytest.param(date(2024, 8, 28), 2022, id="transporte-escolar#art6 day before publication"),
        pytest.param(date(2024, 8, 29), 2024, id="transporte-escolar#art6 publication day"),
        pytest.param(date(2026, 1, 1), 2025, id="transporte-escolar#art6 latest bulletin"),
    ],
)
def test_latest_figure_is_the_last_published(on: date, year: int) -> None:
    assert latest_figure(POPULATION, on).year == year


def test_no_figure_published_yet() -> None:
    with pytest.raises(ParameterError) as info:
        latest_figure(POPULATION, date(2023, 6, 27))
    assert "27/06/2023" in info.value.message


# (population, active licences, cap, open places, excess)
CAP_ROWS = [
    pytest.param(250_000, 90, 100, 10, 0, id="transporte-escolar#art6 exact multiple"),
    pytest.param(249_999, 90, 99, 9, 0, id="transporte-escolar#art6 incomplete group dropped"),
    pytest.param(246_655, 98, 98, 0, 0, id="transporte-escolar#art6 cap reached"),
    pytest.param(200_000, 85, 80, 0, 5, id="transporte-escolar#art6 over the cap"),
    pytest.param(2_499, 0, 0, 0, 0, id="transporte-escolar#art6 less than one group"),
    pytest.param(2_500, 0, 1, 1, 0, id="transporte-escolar#art6 one group"),
]


@pytest.mark.parametrize(("population", "active", "cap", "open_places", "excess"), CAP_ROWS)
def test_licence_cap(population: int, active: int, cap: int, open_places: int,
                     excess: int) -> None:
    doc = copy.deepcopy(POPULATION_DOC)
    doc["dados"] = [_figure(2024, "2024-08-29", population)]
    result = licence_cap(population_from_document(doc, "fixture"), date(2025, 1, 10), active,
                         params=PARAMS, laws=LAWS)
    assert (result.cap, result.open_places, result.excess) == (cap, open_places, excess)
    assert result.population == population
    assert result.inhabitants_per_licence == 2500
    assert "art. 6º da Lei nº 4.515/2007" in result.explanation
    assert f"o limite é de {cap} " in result.explanation
    if excess:
        assert f"{excess} acima do limite: não há vagas a preencher" in result.explanation
    elif open_places:
        assert f"{open_places} vaga" in result.explanation
    else:
        assert "não há vagas a preencher" in result.explanation
    (item,) = result.items
    assert item.status is Status.MET
    assert "transporte-escolar#art6" in item.basis


def test_unconfirmed_population_is_pending() -> None:
    result = licence_cap(POPULATION, date(2026, 1, 1), 90, params=PARAMS, laws=LAWS)
    assert result.cap == 99
    (item,) = result.items
    assert item.status is Status.MISSING
    assert item.message.startswith("População do Município a confirmar: 249.999 habitantes")


def test_population_without_value_blocks_the_cap() -> None:
    doc = copy.deepcopy(POPULATION_DOC)
    doc["dados"].append(_figure(2026, "2026-08-27", None, status="a_confirmar"))
    population = population_from_document(doc, "fixture")
    assert licence_cap(population, date(2026, 8, 26), 0, params=PARAMS, laws=LAWS).cap == 99
    with pytest.raises(ParameterError) as info:
        licence_cap(population, date(2026, 9, 1), 0, params=PARAMS, laws=LAWS)
    assert "estimativa do IBGE de 2026" in info.value.message


def test_negative_active_licences() -> None:
    with pytest.raises(InputError):
        licence_cap(POPULATION, date(2026, 1, 1), -1, params=PARAMS, laws=LAWS)


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        pytest.param(lambda d: d["dados"].reverse(), "/dados/1", id="out of order"),
        pytest.param(lambda d: d["dados"][0].update(valor=None), "/dados/0/valor",
                     id="confirmed without value"),
        pytest.param(lambda d: d["dados"][0].update(valor=-5), "/dados/0/valor",
                     id="negative population"),
        pytest.param(lambda d: d["dados"][0].update(extra=1), "/dados/0", id="unknown key"),
        pytest.param(lambda d: d["dados"][1].update(divulgacao="2024-02-30"),
                     "/dados/1/divulgacao", id="impossible date"),
        pytest.param(lambda d: d.update(fundamento=[]), "/fundamento", id="no basis"),
    ],
)
def test_population_file_errors(change: Any, pointer: str) -> None:
    doc = copy.deepcopy(POPULATION_DOC)
    change(doc)
    with pytest.raises(ContentPackError) as info:
        population_from_document(doc, "fixture")
    assert info.value.field == pointer


def test_shipped_population_file() -> None:
    population = load_population(_PACK)
    assert isinstance(population, Population)
    assert population.basis == ("transporte-escolar#art6",)
    assert population.figures
    for figure in population.figures:
        assert figure.source and figure.value is not None
        # A figure not checked against the IBGE's publication leaves the cap pending.
        cap = licence_cap(population, figure.published, 0, params=PARAMS, laws=LAWS)
        assert cap.figure == figure
        assert cap.items[0].status is (Status.MET if figure.confirmed else Status.MISSING)


# ---------------------------------------------------------------- scoring table

TABLE_DOC: dict[str, Any] = {
    "titulo": "Tabela de teste",
    "exemplo": False,
    "aviso": None,
    "fonte": "Fixture de teste",
    "fundamento": ["transporte-escolar#art8"],
    "criterios": [
        {"id": "anos", "descricao": "Anos de experiência", "tipo": "por_unidade",
         "unidade": "ano", "pontos": 2, "maximo": 10},
        {"id": "curso", "descricao": "Curso extra", "tipo": "sim_nao", "unidade": None,
         "pontos": "1.5", "maximo": None},
    ],
}
TABLE = scoring_table_from_document(TABLE_DOC, "fixture")
ON = date(2026, 3, 20)
OK = Eligibility(True, "titular", ON, (), "Atende.")


def _applicant(protocol: str, born: date, filed: datetime, answers: dict[str, Any],
               eligibility: Eligibility = OK) -> Applicant:
    return Applicant(protocol, f"Candidato {protocol}", born, filed, eligibility, answers)


def test_shipped_table_is_an_example_and_says_so() -> None:
    assert scoring_table_path(_PACK).name == "anexo-pontuacao-exemplo.json"
    table = load_scoring_table(_PACK)
    assert table.example
    assert table.notice is not None and "EXEMPLO" in table.notice
    a = _applicant("1", date(1970, 1, 1), datetime(2026, 3, 2, 9), {})
    ranking = rank_candidates([a], table, laws=LAWS)
    assert table.notice in ranking.explanation
    assert ranking.notice == table.notice
    (item,) = ranking.items
    assert item.status is Status.MISSING and table.notice in item.message


def test_official_table_is_preferred(tmp_path: Path) -> None:
    folder = tmp_path / "legal_text"
    folder.mkdir()
    (folder / "anexo-pontuacao-exemplo.json").write_text("{}", encoding="utf-8")
    (folder / "anexo-pontuacao.json").write_text(json.dumps(TABLE_DOC), encoding="utf-8")
    table = load_scoring_table(tmp_path)
    assert table == TABLE
    ranking = rank_candidates([], table, laws=LAWS)
    assert ranking.items[0].status is Status.MET
    assert ranking.notice is None


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        pytest.param(lambda d: d.update(exemplo=True), "/aviso", id="example without notice"),
        pytest.param(lambda d: d["criterios"][1].update(id="anos"), "/criterios/1/id",
                     id="repeated criterion"),
        pytest.param(lambda d: d["criterios"][0].update(pontos=1.5), "/criterios/0/pontos",
                     id="float points"),
        pytest.param(lambda d: d["criterios"][0].update(tipo="faixa"), "/criterios/0/tipo",
                     id="unknown kind"),
    ],
)
def test_scoring_table_errors(change: Any, pointer: str) -> None:
    doc = copy.deepcopy(TABLE_DOC)
    change(doc)
    with pytest.raises(ContentPackError) as info:
        scoring_table_from_document(doc, "fixture")
    assert info.value.field == pointer


@pytest.mark.parametrize(
    ("answers", "points"),
    [
        pytest.param({}, Decimal(0), id="transporte-escolar#art8 nothing proved scores zero"),
        pytest.param({"anos": 3}, Decimal(6), id="transporte-escolar#art8 points per unit"),
        pytest.param({"anos": 8}, Decimal(10), id="transporte-escolar#art8 capped at maximum"),
        pytest.param({"anos": 1, "curso": True}, Decimal("3.5"),
                     id="transporte-escolar#art8 yes/no criterion"),
        pytest.param({"curso": False}, Decimal(0), id="transporte-escolar#art8 answered no"),
    ],
)
def test_points(answers: dict[str, Any], points: Decimal) -> None:
    ranking = rank_candidates([_applicant("1", date(1970, 1, 1), datetime(2026, 3, 2), answers)],
                              TABLE, laws=LAWS)
    assert ranking.ranked[0].points == points
    assert sum(line.points for line in ranking.ranked[0].lines) == points


@pytest.mark.parametrize(
    "answers",
    [
        pytest.param({"idade": 3}, id="unknown criterion"),
        pytest.param({"anos": -1}, id="negative"),
        pytest.param({"curso": 1}, id="number for yes/no"),
        pytest.param({"anos": True}, id="yes/no for a number"),
    ],
)
def test_bad_answers(answers: dict[str, Any]) -> None:
    with pytest.raises(InputError) as info:
        rank_candidates([_applicant("7", date(1970, 1, 1), datetime(2026, 3, 2), answers)],
                        TABLE, laws=LAWS)
    assert info.value.field is not None and info.value.field.startswith("/candidatos/7/")


# ---------------------------------------------------------------- ranking

D = datetime(2026, 3, 2, 9, 0)


def test_ranking_by_points_then_age_then_protocol() -> None:
    """Three-way tie: age decides the first place (art. 8º, § 1º), protocol time the rest."""
    applicants = [
        _applicant("2026/12", date(1975, 6, 5), datetime(2026, 3, 2, 10, 30), {"anos": 2}),
        _applicant("2026/11", date(1975, 6, 5), datetime(2026, 3, 2, 9, 15), {"anos": 2}),
        _applicant("2026/13", date(1968, 2, 1), datetime(2026, 3, 3, 16, 0), {"anos": 2}),
        _applicant("2026/14", date(1990, 1, 1), datetime(2026, 3, 4, 8, 0), {"anos": 5}),
        _applicant("2026/15", date(1960, 1, 1), datetime(2026, 3, 1, 8, 0), {"anos": 9},
                   Eligibility(False, "titular", ON, (), "Não atende ao art. 7º, II.")),
    ]
    ranking = rank_candidates(applicants, TABLE, laws=LAWS, places=2)
    order = [(r.position, r.protocol, r.points) for r in ranking.ranked]
    assert order == [
        (1, "2026/14", Decimal(10)),
        (2, "2026/13", Decimal(4)),
        (3, "2026/11", Decimal(4)),
        (4, "2026/12", Decimal(4)),
    ]
    assert [r.within_places for r in ranking.ranked] == [True, True, False, False]
    first, older, earlier, later = ranking.ranked
    assert first.tie_break is None
    assert older.tie_break == (
        "Empate em 4 pontos com os protocolos 2026/11 e 2026/12. À frente do protocolo "
        "2026/11: candidato mais idoso, nascido em 01/02/1968, contra 05/06/1975 "
        "(art. 8º, § 1º, da Lei nº 4.515/2007)."
    )
    assert earlier.tie_break is not None and later.tie_break is not None
    assert "Após o protocolo 2026/13: candidato mais idoso" in earlier.tie_break
    assert ("À frente do protocolo 2026/12: mesma data de nascimento; inscrição protocolada "
            "antes, em 02/03/2026 às 09:15:00, contra 02/03/2026 às 10:30:00") \
        in earlier.tie_break
    assert later.tie_break.startswith("Empate em 4 pontos com os protocolos 2026/13 e 2026/11.")
    assert "Após o protocolo 2026/11: mesma data de nascimento" in later.tie_break
    # Only those who meet the requirements are ranked (art. 8º, caput).
    (excluded,) = ranking.excluded
    assert (excluded.protocol, excluded.reason) == ("2026/15", "Não atende ao art. 7º, II.")
    assert "4 candidatos classificados; 1 não classificado" in ranking.explanation
    assert "precede o candidato mais idoso (art. 8º, § 1º, da Lei nº 4.515/2007)" \
        in ranking.explanation


def test_same_birth_and_time_falls_to_protocol_number() -> None:
    applicants = [
        _applicant("2026/10", date(1975, 6, 5), D, {"curso": True}),
        _applicant("2026/9", date(1975, 6, 5), D, {"curso": True}),
    ]
    ranking = rank_candidates(applicants, TABLE, laws=LAWS)
    assert [r.protocol for r in ranking.ranked] == ["2026/9", "2026/10"]
    assert ranking.ranked[0].tie_break is not None
    assert "menor número de protocolo" in ranking.ranked[0].tie_break
    assert "Empate em 1,5 pontos com o protocolo 2026/10." in ranking.ranked[0].tie_break


def test_duplicate_protocol_and_mixed_time_zones() -> None:
    a = _applicant("1", date(1970, 1, 1), D, {})
    with pytest.raises(InputError):
        rank_candidates([a, a], TABLE, laws=LAWS)
    b = _applicant("2", date(1970, 1, 1), datetime(2026, 3, 2, tzinfo=UTC), {})
    with pytest.raises(InputError):
        rank_candidates([a, b], TABLE, laws=LAWS)
    with pytest.raises(InputError):
        rank_candidates([a], TABLE, laws=LAWS, places=-1)


_APPLICANT = st.builds(
    lambda n, born, minute, anos, curso, ok: (n, born, minute, anos, curso, ok),
    st.integers(min_value=1, max_value=30),
    st.dates(min_value=date(1960, 1, 1), max_value=date(1962, 12, 31)),
    st.integers(min_value=0, max_value=5),
    st.integers(min_value=0, max_value=6),
    st.booleans(),
    st.booleans(),
)


@given(st.lists(_APPLICANT, max_size=12, unique_by=lambda t: t[0]), st.randoms())
def test_ranking_is_deterministic_and_ordered(rows: list[Any], rnd: Any) -> None:
    """Any input order gives the same ranking; points never increase down the list, and
    within equal points birth dates never decrease (art. 8º and § 1º)."""
    applicants = [
        _applicant(
            f"P{n}", born, datetime(2026, 3, 2, 9, minute), {"anos": anos, "curso": curso},
            OK if ok else Eligibility(False, "titular", ON, (), "Não atende."),
        )
        for n, born, minute, anos, curso, ok in rows
    ]
    first = rank_candidates(applicants, TABLE, laws=LAWS)
    shuffled = list(applicants)
    rnd.shuffle(shuffled)
    second = rank_candidates(shuffled, TABLE, laws=LAWS)
    assert first.ranked == second.ranked
    assert len(first.ranked) + len(first.excluded) == len(applicants)
    by_protocol = {a.protocol: a for a in applicants}
    for upper, lower in zip(first.ranked, first.ranked[1:], strict=False):
        assert upper.points >= lower.points
        if upper.points == lower.points:
            assert by_protocol[upper.protocol].birth_date <= by_protocol[lower.protocol].birth_date
            assert upper.tie_break is not None and lower.tie_break is not None
