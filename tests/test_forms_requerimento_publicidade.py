"""The school-transport holder's requerimento for the licence of advertising on the rear
window (Lei nº 4.515/2007, art. 17, §§ 2º and 3º): one advertiser, the rear window only,
the croqui with content, format and size, and a declaration against each forbidden
content (§ 2º, I, a to d) and for the criteria of Resolução CONTRAN nº 73/1998 — each a
Sim/Não question of the fillable PDF; a "Não" keeps the requerimento incomplete with the
alínea it breaks."""

from __future__ import annotations

import pytest
from formcases import DELETE, assert_pending, example, pdf_text, setter

from lavra.checking.report import Status
from lavra.documents import Engine

REQ = "requerimento-licenca-publicidade"
E = "transporte-escolar#"


def test_complete_prefilled_and_read_back(engine: Engine) -> None:
    data = example(engine, REQ)
    assert engine.prepare(REQ, data).report.complete
    form = engine.content.form(REQ)
    assert form.fillable and form.series is None
    pdf = engine.prefill(REQ, data)
    assert engine.read(pdf).data == data
    text = pdf_text(engine.draft(REQ, data).pdf)
    for expected in ("licença para a inserção de publicidade", "Papelaria Exemplo Ltda.",
                     "somente o vidro traseiro", "80 cm × 30 cm",
                     "Resolução CONTRAN nº 73, de 19 de novembro de 1998",
                     "promoção de bares, boates, bingos e similares", "Croqui"):
        assert expected in text, expected


@pytest.mark.parametrize(("declaration", "alinea"), [
    ("sem_conotacao_politica_imoral_discriminatoria", "art17_par2_inc1_ali1"),
    ("sem_apelo_prejudicial", "art17_par2_inc1_ali2"),
    ("sem_produtos_vedados", "art17_par2_inc1_ali3"),
    ("sem_bares_boates_bingos", "art17_par2_inc1_ali4"),
    ("resolucao_contran", "art17_par2"),
])
def test_each_forbidden_content_answered_nao_is_reported(
    engine: Engine, declaration: str, alinea: str
) -> None:
    data = example(engine, REQ)
    data["declaracoes"][declaration] = False
    assert_pending(engine.prepare(REQ, data).report, f"/declaracoes/{declaration}",
                   Status.INVALID, E + alinea)
    # the "Não" survives the fillable PDF and comes back as false
    assert engine.read(engine.prefill(REQ, data)).data["declaracoes"][declaration] is False


def test_croqui_and_content_are_required(engine: Engine) -> None:
    data = example(engine, REQ)
    setter("/documentos/croqui", DELETE)(data)
    assert_pending(engine.prepare(REQ, data).report, "/documentos/croqui", Status.MISSING,
                   E + "art17_par3")
    data = example(engine, REQ)
    setter("/publicidade/dimensoes", DELETE)(data)
    assert_pending(engine.prepare(REQ, data).report, "/publicidade/dimensoes", Status.MISSING,
                   E + "art17_par3")
    data = example(engine, REQ)
    setter("/publicidade/local", "vidro_lateral")(data)
    assert_pending(engine.prepare(REQ, data).report, "/publicidade/local", Status.INVALID,
                   E + "art17_par2")
