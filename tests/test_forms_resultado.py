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
from formcases import DELETE, at, example, pdf_text, pending_at, setter
from historycases import FakeHistory

from lavra.checking.computations import Computed, ComputeInput, PriorRecord, find_computation
from lavra.checking.report import Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.transporte_escolar import resultado
from lavra_americana.transporte_escolar.resultado import edital_resultado_classificacao

RES = "edital-resultado-classificacao"
E = "transporte-escolar#"
ISSUED = date(2026, 12, 15)


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


def test_an_inscription_before_the_chamamento_is_not_classified(
    engine: Engine, official_pack: Path
) -> None:
    # arts. 6º, parágrafo único, and 10: the example's chamamento was published 12/01/2026
    data = example(engine, RES)
    data["candidatos"][1]["protocolado_em"] = "2026-01-09T10:00"
    found = [i for i in run(data, official_pack).items if i.pending]
    assert [(i.field, i.status) for i in found] == [
        ("/candidatos/1/protocolado_em", Status.INVALID)]
    assert {E + "art6_par1u", E + "art10"} <= set(found[0].basis)
    assert "antes da publicação do edital de chamamento (12/01/2026)" in found[0].message


def call_record(published: date, opens: str, closes: str, **extra: Any) -> PriorRecord:
    """The edital de chamamento as lavra issued it (publication and period)."""
    data = {"publicacao": {"data": published.isoformat()},
            "inscricoes": {"inicio": opens, "fim": closes}}
    return PriorRecord("0001/2026", published, data, form="edital-chamamento-escolar",
                       series="EDT-ESC", **extra)


def test_the_chamamento_is_read_from_the_registry(engine: Engine) -> None:
    data = example(engine, RES)  # states 12/01/2026 and 0001/2026... as "01/2026"
    data["edital_chamamento"]["numero"] = "EDT-ESC nº 0001/2026"
    data["edital_chamamento"]["data_publicacao"] = "2026-01-15"
    history = FakeHistory(call_record(date(2026, 1, 15), "2026-02-02", "2026-02-13"))
    report = engine.prepare(RES, data, issued_on=ISSUED, history=history).report
    assert not pending_at(report, "/edital_chamamento/data_publicacao")
    assert not any(i.field.endswith("/protocolado_em") for i in report.pending)
    # the period the registry's edital set: 03/02 is inside, 14/02 is not
    data["candidatos"][2]["protocolado_em"] = "2026-02-14T09:00"
    report = engine.prepare(RES, data, issued_on=ISSUED, history=history).report
    found = at(report, "/candidatos/2/protocolado_em")
    assert found.status is Status.INVALID and "fora do período" in found.message
    assert "de 02/02/2026 a 13/02/2026" in found.message
    # the registry's publication wins over the date typed
    data["edital_chamamento"]["data_publicacao"] = "2026-01-12"
    found = at(engine.prepare(RES, data, issued_on=ISSUED, history=history).report,
               "/edital_chamamento/data_publicacao")
    assert found.status is Status.INVALID and "15/01/2026" in found.message


@pytest.mark.parametrize(
    "pointer",
    ["/candidatos", "/data_publicacao", "/vagas", "/edital_chamamento/numero",
     "/candidatos/0/candidato/data_nascimento", "/candidatos/1/protocolado_em"],
)
def test_each_missing_field_blocks_the_issue(engine: Engine, pointer: str) -> None:
    data = example(engine, RES)
    setter(pointer, DELETE)(data)
    report = engine.prepare(RES, data, issued_on=ISSUED).report
    assert pending_at(report, pointer)


def test_the_draft_prints_order_reasons_and_deadlines(engine: Engine) -> None:
    text = pdf_text(engine.draft(RES, example(engine, RES)).pdf)
    for words in ("2026/0002", "Rita Exemplo Alves", "categoria", "Prefeito Municipal",
                  "25/02/2026", "23/03/2026", "classificado além das vagas", "MINUTA"):
        assert words in text, words


# ------------------------------------------------ the alvará after the result (art. 12, I)
ALV = "alvara-transporte-escolar"


def result_record(published: date, names: tuple[str, ...] = ("José Exemplo dos Santos",),
                  **extra: Any) -> PriorRecord:
    data = {"candidatos": [{"candidato": {"nome": name}} for name in names]}
    return PriorRecord("0001/2026", published, data, form=RES, **extra)


@pytest.mark.parametrize(
    ("history", "status", "field"),
    [
        (None, Status.MISSING, "/selecao/edital_resultado"),
        (FakeHistory(), Status.MISSING, "/selecao/edital_resultado"),
        (FakeHistory(result_record(date(2026, 2, 20))), Status.MET, "/selecao/edital_resultado"),
        (FakeHistory(result_record(date(2026, 2, 20), cancelled=True)), Status.INVALID,
         "/selecao/edital_resultado"),
        (FakeHistory(result_record(date(2026, 2, 20), names=("Outra Pessoa",))),
         Status.INVALID, "/selecao/edital_resultado"),
        (FakeHistory(result_record(date(2026, 3, 5))), Status.INVALID,
         "/selecao/data_publicacao_resultado"),
    ],
    ids=["no registry", "not registered", "registered", "cancelled", "titular not listed",
         "other publication date"],
)
def test_the_first_alvara_checks_the_result_edital_in_the_registry(
    engine: Engine, history: Any, status: Status, field: str
) -> None:
    data = example(engine, ALV)
    data["selecao"]["edital_resultado"] = "ED-RES-ESC nº 0001/2026"
    report = engine.prepare(ALV, data, issued_on=ISSUED, history=history).report
    assert at(report, field).status is status
    assert report.complete is (status is Status.MET)


def test_the_alvara_waits_for_the_appeal_period_of_the_registered_result(
    engine: Engine,
) -> None:
    data = example(engine, ALV)
    data["selecao"]["edital_resultado"] = "ED-RES-ESC nº 0001/2026"
    history = FakeHistory(result_record(date(2026, 2, 20)))
    data["data_expedicao"] = "2026-02-25"  # the 5th day (art. 11): not yet final
    for key in ("data_pagamento_taxa",):
        data["processo"][key] = "2026-02-25"
    data["processo"]["data_requerimento"] = "2026-02-24"
    data["selecao"]["data_inscricao_cadastro"] = "2026-02-24"
    for check in ("conferencia_outra_licenca", "conferencia_transferencia"):
        data["selecao"][check]["data"] = "2026-02-24"
    found = at(engine.prepare(ALV, data, issued_on=ISSUED, history=history).report,
               "/selecao/data_publicacao_resultado")
    assert found.status is Status.INVALID and "25/02/2026" in found.message
    data["data_expedicao"] = "2026-02-26"  # the day after: the choice is final
    prepared = engine.prepare(ALV, data, issued_on=ISSUED, history=history)
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
