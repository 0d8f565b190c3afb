"""The edital of the result of the school-transport selection (Lei nº 4.515/2007, art.
8º and § 1º: ranking by points, the older candidate first; art. 7º: who is not
qualified and why; art. 11: 5 days to appeal to the Prefeito; art. 8º, § 2º: 30 days
to register in the Cadastro de Atividades)."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from formcases import DELETE, example, pdf_text, setter

from lavra.checking.computations import Computed, ComputeInput, find_computation
from lavra.checking.content import Content
from lavra.checking.report import Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.transporte_escolar import resultado
from lavra_americana.transporte_escolar.resultado import edital_resultado_classificacao

RES = "edital-resultado-classificacao"
E = "transporte-escolar#"
ISSUED = date(2026, 12, 15)


@pytest.fixture(scope="module")
def engine(pack_dir: Path) -> Engine:
    return Engine(Content(pack_dir))


@pytest.fixture(scope="module")
def official_pack(tmp_path_factory: pytest.TempPathFactory, pack_dir: Path) -> Path:
    """A copy of the pack in which an official Anexo was registered (test data)."""
    root = tmp_path_factory.mktemp("pack")
    for folder in ("legal_text", "schemas"):
        shutil.copytree(pack_dir / folder, root / folder)
    table = json.loads((pack_dir / "legal_text" / "anexo-pontuacao-exemplo.json").read_text())
    table.update(exemplo=False, aviso=None, titulo="Anexo de teste",
                 fonte="Tabela registrada para os testes")
    (root / "legal_text" / "anexo-pontuacao.json").write_text(json.dumps(table))
    return root


def run(data: dict[str, Any], pack: Path, issued: date = ISSUED) -> Computed:
    on = date.fromisoformat(data["data_publicacao"])
    return edital_resultado_classificacao(
        ComputeInput(form_id=RES, data=data, on=on, pack_dir=pack, history=None,
                     draft=True, issued_on=issued)
    )


def test_with_the_example_anexo_the_result_cannot_be_issued(engine: Engine) -> None:
    prepared = engine.prepare(RES, example(engine, RES), issued_on=ISSUED)
    assert [i.field for i in prepared.report.pending] == ["/tabela_pontuacao"]
    form = engine.content.form(RES)
    assert form.series == "ED-RES-ESC" and form.signer_role == "secretario-transportes"
    assert find_computation(pacote(), "edital_resultado_classificacao") is \
        edital_resultado_classificacao
    assert {E + "art8", E + "art8_par1", E + "art8_par2", E + "art11"} <= set(
        resultado.IMPLEMENTED)


def test_ranking_tie_to_the_older_places_and_the_unqualified(
    engine: Engine, official_pack: Path
) -> None:
    result = run(example(engine, RES), official_pack)
    assert not [i for i in result.items if i.pending], [i.message for i in result.items]
    ranked = result.values["classificados"]
    assert [(c["protocolo"], c["pontos"], c["habilitado"]) for c in ranked] == [
        ("2026/0002", "12", True),  # tie at 12: born 1972, older, first (art. 8º, § 1º)
        ("2026/0001", "12", True),
        ("2026/0003", "5,5", False),  # classified beyond the 2 places
    ]
    assert "mais idoso" in ranked[0]["desempate"]
    (excluded,) = result.values["nao_classificados"]
    assert excluded["protocolo"] == "2026/0004" and "categoria" in excluded["motivo"]


@pytest.mark.parametrize(
    ("published", "appeal_last", "register_last"),
    [
        ("2026-02-20", date(2026, 2, 25), date(2026, 3, 23)),  # 22/03 is a Sunday
        ("2026-02-23", date(2026, 3, 2), date(2026, 3, 25)),  # 28/02 is a Saturday
    ],
    ids=["register moved off Sunday", "appeal moved off Saturday"],
)
def test_the_deadlines_count_from_the_publication(
    engine: Engine, official_pack: Path, published: str, appeal_last: date,
    register_last: date,
) -> None:
    data = example(engine, RES)
    data["data_publicacao"] = published
    values = run(data, official_pack).values
    assert values["recurso"]["ultimo_dia"] == appeal_last
    assert values["cadastro"]["ultimo_dia"] == register_last
    assert "Prefeito Municipal" in values["recurso"]["explicacao"]
    assert "definitiva" in values["recurso"]["explicacao"]


def test_a_post_dated_result_and_a_late_inscription_are_refused(
    engine: Engine, official_pack: Path
) -> None:
    data = example(engine, RES)
    found = [i for i in run(data, official_pack, date(2026, 2, 19)).items if i.pending]
    assert [(i.field, i.status) for i in found] == [("/data_publicacao", Status.INVALID)]
    data["candidatos"][0]["protocolado_em"] = "2026-02-21T09:00"
    found = [i for i in run(data, official_pack).items if i.pending]
    assert [(i.field, i.status) for i in found] == [
        ("/candidatos/0/protocolado_em", Status.INVALID)]


@pytest.mark.parametrize(
    "pointer",
    ["/candidatos", "/data_publicacao", "/vagas", "/edital_chamamento/numero",
     "/candidatos/0/candidato/data_nascimento", "/candidatos/1/protocolado_em"],
)
def test_each_missing_field_blocks_the_issue(engine: Engine, pointer: str) -> None:
    data = example(engine, RES)
    setter(pointer, DELETE)(data)
    report = engine.prepare(RES, data, issued_on=ISSUED).report
    parent = pointer.rsplit("/", 1)[0]  # a missing key is reported at it or its object
    assert any(i.field in (pointer, parent) and i.pending for i in report.items), [
        (i.field, i.status) for i in report.pending]


def test_the_draft_prints_order_reasons_and_deadlines(engine: Engine) -> None:
    text = pdf_text(engine.draft(RES, example(engine, RES)).pdf)
    for words in ("2026/0002", "Rita Exemplo Alves", "categoria", "Prefeito Municipal",
                  "25/02/2026", "23/03/2026", "classificado além das vagas", "MINUTA"):
        assert words in text, words
