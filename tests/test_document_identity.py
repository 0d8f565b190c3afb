"""Each document says what it is (issue 10, class 7).

The printed number carries its series, as the registry keeps it ("ALV-FRET nº
0001/2026"): every series numbers from 1 each year, so two acts of different series
would otherwise show the same number. A form that serves several cases is titled and
subtitled after the case at hand, never "X ou Y".
"""

from __future__ import annotations

import io
import json
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from docx import Document
from issuers import dev_issuer
from pypdf import PdfReader

from lavra.checking.computations import ComputeInput
from lavra.documents import Engine
from lavra.inputs.reading import TIMEZONE
from lavra.registry.records import printed_number
from lavra_americana.comum.decisao_recurso import decisao_recurso

SEC = "decisao-recurso-secretario"
PREF = "decisao-recurso-prefeito"
PUB = "autorizacao-publicidade-escolar"
ALV = "alvara-fretamento"


def test_printed_number_carries_the_series() -> None:
    assert printed_number("ALV-FRET", 1, 2026) == "ALV-FRET nº 0001/2026"
    assert printed_number("DEC-SETRANSV", 123, 2027) == "DEC-SETRANSV nº 0123/2027"


def _example(engine: Engine, form: str) -> dict[str, Any]:
    path = engine.content.form(form).example
    assert path is not None
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


def _text(pdf: bytes) -> str:
    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(pdf)).pages)
                    .split())


def test_two_series_never_show_the_same_number(engine: Engine, tmp_path: Path) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        year = datetime.now(TIMEZONE).year
        shown = []
        # Two series, each numbering from 1 (the alvará stands alone: the publicidade
        # would need its alvará escolar in the registry first; the decision cites an auto
        # on paper, as an auto of lavra's series must be in the registry first).
        for form in (SEC, ALV):
            data = _example(engine, form)
            if form == SEC:
                data["ato_recorrido"]["numero"] = "0012/2026"
            result = issuer.issue(form, data)
            record = result.record
            assert record.formatted == f"0001/{year}"  # each series numbers from 1
            assert record.printed == f"{record.series} nº 0001/{year}"
            text = _text(result.pdf)
            assert record.printed in text and "Nº 0001" not in text
            assert result.docx is not None
            header = [p.text for p in Document(io.BytesIO(result.docx)).sections[0]
                      .header.paragraphs]
            assert record.printed in header
            shown.append(record.printed)
        assert shown[0] != shown[1]
        assert issuer.verify(result.pdf).valid
    finally:
        issuer.close()


def _decision(pack_dir: Path, form: str, hypothesis: str) -> dict[str, Any]:
    data = json.loads((pack_dir / "forms" / form / "exemplo.json").read_text("utf-8"))
    data["recurso"]["hipotese"] = hypothesis
    result = decisao_recurso(ComputeInput(form_id=form, data=data, on=date(2026, 5, 4),
                                          pack_dir=pack_dir, history=None, draft=True,
                                          issued_on=date(2026, 5, 4)))
    return dict(result.values)


@pytest.mark.parametrize(
    ("form", "hypothesis", "subtitle"),
    [
        (SEC, "fretamento#art23", "Recurso contra auto de infração do transporte por "
         "fretamento (art. 23 da Lei nº 4.419/2006)"),
        (SEC, "transporte-escolar#art27", "Reconsideração de penalidade do transporte "
         "escolar (art. 27 da Lei nº 4.515/2007)"),
        (PREF, "fretamento#art24", "Recurso contra decisão do Secretário em matéria de "
         "transporte por fretamento (art. 24 da Lei nº 4.419/2006)"),
        (PREF, "transporte-escolar#art25", "Recurso contra penalidade do transporte escolar "
         "(art. 25 da Lei nº 4.515/2007)"),
        (PREF, "transporte-escolar#art11", "Recurso contra o ato de escolha do processo "
         "seletivo do transporte escolar (art. 11 da Lei nº 4.515/2007)"),
    ],
)
def test_decision_subtitle_is_the_case_at_hand(
    pack_dir: Path, form: str, hypothesis: str, subtitle: str
) -> None:
    assert _decision(pack_dir, form, hypothesis)["subtitulo_documento"] == subtitle


def test_decision_draft_prints_its_own_case_only(engine: Engine) -> None:
    text = _text(engine.draft(SEC, _example(engine, SEC)).pdf)
    assert "Recurso contra auto de infração do transporte por fretamento" in text
    assert "reconsideração" not in text.lower().split("fundamento legal")[0]


def test_no_form_is_titled_x_or_y(engine: Engine) -> None:
    # licenca-temporaria-escolar is being split (art. 4º, parágrafo único, becomes a
    # comunicação) by another change of issue 10: its subtitle goes with it.
    for form in engine.content.forms.values():
        if form.id == "licenca-temporaria-escolar":
            continue
        for words in (form.title, form.subtitle or ""):
            assert " ou " not in f" {words} ", (form.id, words)
