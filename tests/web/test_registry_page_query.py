"""How the registry search reads a typed query (lavra.registry.search.parse_query):
each reading alone, without a database."""

from __future__ import annotations

from datetime import date

import pytest

from lavra.errors import InputError
from lavra.registry.search import Filters, parse_query
from lavra.signing.verification import normalize_code


@pytest.mark.parametrize("typed", ["ALV-FRET nº 0001/2026", "ALV-FRET 0001/2026",
                                   "alv-fret 1/2026", "ALV-FRET n° 1 / 2026"])
def test_a_printed_number_with_its_series(typed: str) -> None:
    query = parse_query(typed, normalize_code)
    assert (query.series, query.number, query.year) == ("ALV-FRET", 1, 2026)
    assert query.code is None and query.name is None and query.cpf_cnpj is None


def test_a_number_without_series() -> None:
    query = parse_query("0007/2026", normalize_code)
    assert (query.series, query.number, query.year) == (None, 7, 2026)


def test_code_document_plate_and_name() -> None:
    assert parse_query("7kqmx4rd2hnt", normalize_code).code == "7KQM-X4RD-2HNT"
    assert parse_query("529.982.247-25", normalize_code).cpf_cnpj == "52998224725"
    assert parse_query("65.563.842/0001-05", normalize_code).cpf_cnpj == "65563842000105"
    assert parse_query("abc-1234", normalize_code).placas == ("ABC1234", "ABC1C34")
    assert parse_query("ABC1C34", normalize_code).placas == ("ABC1C34", "ABC1234")
    named = parse_query("José  Exemplo", normalize_code)
    assert named.name == "José Exemplo" and named.code is None and not named.placas
    assert parse_query("ab", normalize_code).name is None  # too short to be a name


def test_a_period_ending_before_it_starts_is_refused() -> None:
    with pytest.raises(InputError, match="anterior à data inicial") as caught:
        Filters(issued_from=date(2026, 12, 2), issued_until=date(2026, 12, 1))
    assert caught.value.field == "/ate"
