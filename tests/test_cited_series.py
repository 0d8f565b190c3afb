"""Issue 10, class 7 (the rest): an earlier act cited inside a later one prints with its
series, as the registry prints it ("Auto de Infração AIF-FRET nº 0003/2026").

The number is formatted by :func:`lavra.textutil.format_act_number` (the templates'
``numero_ato`` filter): the series typed or given by the registry is kept, ``nº`` put
between it and the number; a bare number gets no invented series.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from formcases import example, pdf_text

from lavra.checking.computations import PriorRecord
from lavra.documents import Engine
from lavra.textutil import act_titles, format_act_number, format_cited_act
from lavra_americana.comum.infractions import PriorInfraction


@pytest.mark.parametrize(
    ("typed", "printed"),
    [
        ("AIF-FRET 0003/2026", "AIF-FRET nº 0003/2026"),
        ("AIF-FRET nº 0003/2026", "AIF-FRET nº 0003/2026"),
        ("ALV-ESC n° 7/2026", "ALV-ESC nº 0007/2026"),
        ("  DEC-SETRANSV   12/2025 ", "DEC-SETRANSV nº 0012/2025"),
        ("0003/2026", "nº 0003/2026"),
        ("7/2026", "nº 7/2026"),
        ("123-A", "nº 123-A"),
        ("nº 55", "nº 55"),
    ],
)
def test_format_act_number(typed: str, printed: str) -> None:
    assert format_act_number(typed) == printed


def test_a_cited_act_prints_its_own_label(pack_dir: Path) -> None:
    """Issue 23: one function cites an act by its own label (the title of the form that
    issues its series) + "nº" + series/number; a number of no known series takes the
    label the data give, never a label of another act ("Decisão do Secretário REV-ESC")."""
    titles = act_titles(pack_dir)
    assert format_cited_act("rev-esc 1/26", titles, "Decisão do Secretário") == (
        "Decisão de Revogação do Alvará para Transporte Escolar REV-ESC nº 0001/2026")
    assert format_cited_act("AIF-FRET nº 0012/2026", titles) == (
        "Auto de Infração e Imposição de Multa AIF-FRET nº 0012/2026")
    assert format_cited_act("4.321/2026", titles, "Auto de infração") == (
        "Auto de infração nº 4.321/2026")
    assert format_cited_act("nº 7/2026", titles) == "nº 7/2026"


def test_the_registry_prints_its_series() -> None:
    record = PriorRecord("0003/2026", date(2026, 1, 5), {}, series="AIF-FRET")
    assert record.printed == "AIF-FRET nº 0003/2026"
    assert PriorRecord("0003/2026", date(2026, 1, 5), {}).printed == "0003/2026"


def test_a_repeat_cites_the_auto_with_its_series() -> None:
    earlier = PriorInfraction(date(2026, 1, 10), "fretamento#art16_inc1", "ABC1D23",
                              "AIF-FRET nº 0003/2026")
    assert earlier.describe() == (
        "ocorrida em 10/01/2026 (Auto de Infração AIF-FRET nº 0003/2026)"
    )


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        ("alvara-condutor-auxiliar", "Transporte Escolar ALV-ESC nº 0007/2026"),
        ("licenca-temporaria-escolar", "ALV-ESC nº 0007/2026, válido até"),
        ("autorizacao-publicidade-escolar", "ALV-ESC nº 0007/2026, válido até"),
        ("decisao-cassacao-fretamento", "AIF-FRET nº 0003/2026"),
        ("decisao-cassacao-fretamento", "ALV-FRET nº 0012/2026"),
        ("decisao-recurso-secretario", "AIF-FRET nº 0012/2026"),
        ("requerimento-renovacao-escolar", "Transporte Escolar ALV-ESC nº 0007/2026"),
        ("comunicacao-substituicao-condutor", "Transporte Escolar ALV-ESC nº 0007/2026"),
        # The acts and the forms that printed "nº" before a number that carries its own
        # series ("nº AIF-FRET nº 0021/2026"), or a series-less "nº" before it:
        ("declaracao-vacancia", "pelo Alvará ALV-ESC nº 0007/2025"),
        ("notificacao-pendencias-renovacao", "Transporte Escolar ALV-ESC nº 0007/2026"),
        ("notificacao-pendencias-renovacao-fretamento", "Circulação ALV-FRET nº 0007/2021"),
        ("selo-identificacao", "Alvará ALV-ESC nº 0007/2026"),
        ("termo-revalidacao-semestral", "ALV-ESC nº 0007/2026"),
        ("recurso-fretamento", "AIF-FRET nº 0021/2026"),
        ("recurso-transporte-escolar", "Transporte Escolar ALV-ESC nº 0007/2026"),
        ("recurso-transporte-escolar", "auto de infração AIE-ESC nº 0001/2026"),
        ("recurso-classificacao", "Edital de Resultado ED-RES-ESC nº 0001/2026"),
        ("edital-resultado-classificacao", "Edital de Chamamento nº 01/2026"),
        ("alvara-transporte-escolar", "Edital de Chamamento nº 01/2026"),
        ("notificacao-defesa-cassacao", "ALV-FRET nº 0012/2026 (veículo de placa"),
        ("notificacao-penalidade", "auto de infração AIE-ESC nº 0001/2026"),
        ("decisao-revogacao-alvara", "ALV-ESC nº 0007/2026"),
    ],
)
def test_documents_cite_earlier_acts_with_their_series(
    engine: Engine, form: str, expected: str
) -> None:
    text = pdf_text(engine.draft(form, example(engine, form)).pdf)
    assert expected in text.replace("- ", "-")
    assert " nº ALV-" not in text and " nº AIF-" not in text  # never "nº SÉRIE nº"
