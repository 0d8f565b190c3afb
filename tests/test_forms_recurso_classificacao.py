"""The candidate's appeal against the choice (Lei nº 4.515/2007, art. 11): written, to
the Prefeito, within 5 days of the publication of the result; a fillable form that
prefills and reads back."""

from __future__ import annotations

import io
from datetime import date

import pytest
from formcases import DELETE, at, example, pdf_text, pending_at, setter
from pypdf import PdfReader

from lavra.checking.report import Status
from lavra.documents import Engine
from lavra_americana.transporte_escolar import recurso_classificacao

REC = "recurso-classificacao"


def test_example_is_complete_timely_and_addressed_to_the_prefeito(engine: Engine) -> None:
    prepared = engine.prepare(REC, example(engine, REC))
    assert prepared.report.complete
    assert prepared.computed["ultimo_dia"] == date(2026, 2, 25)
    assert prepared.computed["tempestivo"] is True
    form = engine.content.form(REC)
    assert form.series is None and form.fillable
    assert "transporte-escolar#art11" in recurso_classificacao.IMPLEMENTED
    text = pdf_text(engine.draft(REC, example(engine, REC)).pdf)
    assert "Excelentíssimo Senhor Prefeito Municipal" in text
    assert "encerra-se em 25/02/2026: recurso tempestivo" in text


@pytest.mark.parametrize(
    ("published", "filed", "timely"),
    [
        ("2026-02-20", "2026-02-25", True),  # the 5th day
        ("2026-02-20", "2026-02-26", False),  # the day after: the choice is final
        ("2026-02-23", "2026-03-02", True),  # 28/02 a Saturday: moved to Monday
        ("2026-02-23", "2026-03-03", False),
        ("2026-02-20", "2026-02-20", True),  # on the day of the publication
    ],
)
def test_five_days_from_the_publication(
    engine: Engine, published: str, filed: str, timely: bool
) -> None:
    data = example(engine, REC)
    data["edital_resultado"]["data_publicacao"] = published
    data["interposicao"]["data"] = filed
    found = at(engine.prepare(REC, data).report, "/interposicao/data")
    assert found.status is (Status.MET if timely else Status.INVALID)
    assert ("intempestivo" in found.message) is not timely


def test_an_appeal_before_the_publication_is_refused(engine: Engine) -> None:
    data = example(engine, REC)
    data["interposicao"]["data"] = "2026-02-19"
    found = at(engine.prepare(REC, data).report, "/interposicao/data")
    assert found.status is Status.INVALID and "antes da publicação" in found.message


@pytest.mark.parametrize(
    "pointer",
    ["/recorrente/nome", "/recorrente/protocolo_inscricao", "/edital_resultado/numero",
     "/edital_resultado/data_publicacao", "/razoes", "/pedido", "/interposicao/data"],
)
def test_each_missing_field_is_pending(engine: Engine, pointer: str) -> None:
    data = example(engine, REC)
    setter(pointer, DELETE)(data)
    report = engine.prepare(REC, data).report
    assert pending_at(report, pointer)


def test_prefilled_reads_back_and_every_widget_is_inside_its_page(engine: Engine) -> None:
    data = example(engine, REC)
    pdf = engine.prefill(REC, data)
    assert engine.read(pdf).data == data
    reader = PdfReader(io.BytesIO(pdf))
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        for annotation in page.get("/Annots", []):
            a, b, c, d = (float(v) for v in annotation.get_object()["/Rect"])
            x0, x1, y0, y1 = min(a, c), max(a, c), min(b, d), max(b, d)  # any two corners
            assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height
    empty = engine.prefill(REC, {})
    assert "Razões do recurso" in pdf_text(empty)
