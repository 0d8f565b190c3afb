"""The acts that follow: escolar auto/advertência, appeal decisions, edital de chamamento.

Computations are called directly (``lavra_americana.transporte_escolar.auto_infracao``,
``lavra_americana.transporte_escolar.edital``, ``lavra_americana.comum.decisao_recurso``)
with a fixed date of issue; drafts go through :class:`lavra.documents.Engine` and are
read back with pypdf. Each table row names the article it checks.
"""

from __future__ import annotations

import copy
import io
import json
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from lavra.checking.computations import Computed, ComputeInput, find_computation
from lavra.checking.report import Item, Status
from lavra.documents import Engine
from lavra.errors import RenderError
from lavra_americana import pacote
from lavra_americana.comum import decisao_recurso as appeal_decision
from lavra_americana.comum.decisao_recurso import decisao_recurso
from lavra_americana.transporte_escolar import auto_infracao as escolar_auto
from lavra_americana.transporte_escolar import edital
from lavra_americana.transporte_escolar.auto_infracao import auto_infracao_escolar
from lavra_americana.transporte_escolar.edital import edital_chamamento_escolar

COMPUTATIONS = {
    **escolar_auto.COMPUTATIONS,
    **appeal_decision.COMPUTATIONS,
    **edital.COMPUTATIONS,
}

AUTO = "auto-infracao-escolar"
SEC = "decisao-recurso-secretario"
PREF = "decisao-recurso-prefeito"
EDITAL = "edital-chamamento-escolar"
ON = date(2026, 3, 2)
CPF = "529.982.247-25"  # José Exemplo dos Santos, in every example
DECIDED = date(2026, 5, 4)  # the decisions of the table are dated 04/05/2026


def example(pack_dir: Path, form: str) -> dict[str, Any]:
    path = pack_dir / "forms" / form / "exemplo.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def run(
    computation: Any, form: str, data: dict[str, Any], pack: Path, issued: date = ON
) -> Computed:
    result: Computed = computation(
        ComputeInput(form_id=form, data=data, on=ON, pack_dir=pack, history=None,
                     draft=True, issued_on=issued)
    )
    return result


def pending(result: Computed) -> dict[str, Item]:
    return {i.requirement: i for i in result.items if i.pending}


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).replace("- ", "-")


def pdf_text(pdf: bytes) -> str:
    return flat(" ".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages))


def test_the_forms_name_computations_of_this_module() -> None:
    for name in ("auto_infracao_escolar", "decisao_recurso", "edital_chamamento_escolar"):
        assert find_computation(pacote(), name) is COMPUTATIONS[name]


# ---------------------------------------------------------------- auto / advertência


def auto_data(
    pack: Path, citation: str, priors: Sequence[tuple[str, str]] = ()
) -> dict[str, Any]:
    data = example(pack, AUTO)
    data["infracoes"] = [{"dispositivo": citation, "descricao": "Fato constatado pelo agente."}]
    data["infracoes_anteriores"] = [
        {"data": when, "dispositivo": cited, "auto": f"AIE-ESC {n:04d}/2025"}
        for n, (when, cited) in enumerate(priors, start=1)
    ]
    return data


@dataclass(frozen=True)
class SanctionRow:
    article: str
    citation: str
    priors: tuple[tuple[str, str], ...]
    kind: str
    value: Decimal | None
    title: str


D5 = "transporte-escolar#art21_inc5"
D3 = "transporte-escolar#art21_inc3"
SANCTIONS = [
    SanctionRow("art. 23, I: first breach of a duty of art. 21 → advertência", D5, (),
                "advertencia", None, "Advertência"),
    SanctionRow("art. 23, I: repeat within 1 year → multa in place of advertência", D5,
                (("2025-09-01", D5),), "multa", Decimal("384.20"),
                "Auto de Infração e Imposição de Multa"),
    SanctionRow("art. 23, II: further repeat after a fine → multa em dobro", D5,
                (("2025-09-01", D5), ("2025-11-10", D5)), "multa_em_dobro",
                Decimal("768.40"), "Auto de Infração e Imposição de Multa"),
    SanctionRow("art. 23, parágrafo único: more than 1 year after the first → advertência",
                D5, (("2025-03-01", D5),), "advertencia", None, "Advertência"),
    SanctionRow("art. 24, III: subject to a fine", "transporte-escolar#art24_inc3", (),
                "multa", Decimal("384.20"), "Auto de Infração e Imposição de Multa"),
    SanctionRow("art. 9º, § 2º, II: revocation of the holder's alvará",
                "transporte-escolar#art9_par2_inc2", (), "revogacao", None,
                "Auto de Infração"),
    SanctionRow("art. 23, III: the third fine within a year brings revocation",
                "transporte-escolar#art24_inc2",
                (("2025-06-01", "transporte-escolar#art24_inc1"),
                 ("2025-10-01", "transporte-escolar#art24_inc4")),
                "revogacao", Decimal("384.20"), "Auto de Infração e Imposição de Multa"),
]


@pytest.mark.parametrize("row", SANCTIONS, ids=[r.article for r in SANCTIONS])
def test_escolar_sanction_and_title(pack_dir: Path, row: SanctionRow) -> None:
    result = run(auto_infracao_escolar, AUTO, auto_data(pack_dir, row.citation, row.priors),
                 pack_dir)
    assert not pending(result), pending(result)
    (line,) = result.values["infracoes"]
    assert line["sancao"] == row.kind
    assert line["valor"] == row.value
    assert result.values["titulo_documento"] == row.title
    assert result.values["advertencia"] is (row.kind == "advertencia")
    assert row.citation in result.values["fundamento"]


@dataclass(frozen=True)
class AppealRow:
    article: str
    ciencia: str | None
    issued: date
    last_day: date | None
    problem: str | None


APPEALS = [
    AppealRow("art. 26: 10 days from the ciência given in the auto", "2026-03-02", ON,
              date(2026, 3, 12), None),
    AppealRow("art. 26: a last day on Saturday moves to Monday", "2026-03-04", date(2026, 3, 4),
              date(2026, 3, 16), None),
    AppealRow("art. 25: without ciência only the rule is printed", None, ON, None, None),
    AppealRow("art. 26: ciência before the infraction is invalid", "2026-03-01", ON,
              date(2026, 3, 11), "ciencia.data"),
    AppealRow("art. 26 and CF art. 5º, LV: no issue after the last day to appeal",
              "2026-03-02", date(2026, 3, 13), date(2026, 3, 12), "recurso.prazo"),
]


@pytest.mark.parametrize("row", APPEALS, ids=[r.article for r in APPEALS])
def test_escolar_appeal_notice(pack_dir: Path, row: AppealRow) -> None:
    data = auto_data(pack_dir, D5)
    if row.ciencia is None:
        del data["ciencia"]
    else:
        data["ciencia"]["data"] = row.ciencia
    result = run(auto_infracao_escolar, AUTO, data, pack_dir, issued=row.issued)
    appeal = result.values["recurso"]
    assert appeal["ultimo_dia"] == row.last_day
    assert "em única instância, ao Prefeito Municipal (art. 25" in appeal["aviso"]
    assert "no prazo de 10 dias" in appeal["aviso"]
    if row.last_day is not None:
        assert row.last_day.strftime("%d/%m/%Y") in appeal["aviso"]
    else:
        assert "será contado da data da ciência" in appeal["aviso"]
    assert set(pending(result)) == ({row.problem} if row.problem else set())


def test_escolar_prior_dated_after_the_infraction_is_invalid(pack_dir: Path) -> None:
    # art. 23, parágrafo único: only earlier infractions count; a later date is a typo
    result = run(auto_infracao_escolar, AUTO,
                 auto_data(pack_dir, D5, [("2026-03-05", D5)]), pack_dir)
    item = pending(result)["infracoes_anteriores.0.data"]
    assert item.status is Status.INVALID and item.field == "/infracoes_anteriores/0/data"
    assert result.values["infracoes"][0]["sancao"] == "advertencia"


def test_escolar_infraction_after_revocation_has_no_sanction(pack_dir: Path) -> None:
    # art. 23, III, and art. 19: after the revocation the alvará carries no sanction
    data = auto_data(pack_dir, D3, [("2025-12-01", "transporte-escolar#art9_par2_inc2")])
    result = run(auto_infracao_escolar, AUTO, data, pack_dir)
    item = pending(result)["infracoes.0.sancao"]
    assert item.status is Status.INVALID and "art. 19" in item.message
    assert result.values["infracoes"] == []


def test_escolar_same_infraction_twice_in_one_auto_is_invalid(pack_dir: Path) -> None:
    # art. 23: one sanction per infraction
    data = auto_data(pack_dir, D5)
    data["infracoes"].append(copy.deepcopy(data["infracoes"][0]))
    result = run(auto_infracao_escolar, AUTO, data, pack_dir)
    assert pending(result)["infracoes.1.dispositivo"].status is Status.INVALID


def test_escolar_drafts_read_back(engine: Engine, pack_dir: Path) -> None:
    warning = engine.draft(AUTO, example(pack_dir, AUTO), ON)
    text = pdf_text(warning.pdf)
    assert "ADVERTÊNCIA" in text and "lavra a presente advertência por escrito" in text
    assert "Sanção: Advertência por escrito." in text
    # review finding 10: the repeat period comes from the parameter
    assert "dentro do período de 1 (um) ano, sujeita-o à multa" in text
    fine = engine.draft(AUTO, auto_data(pack_dir, D5, [("2025-09-01", D5)]), ON)
    text = pdf_text(fine.pdf)
    assert "AUTO DE INFRAÇÃO E IMPOSIÇÃO DE MULTA" in text
    assert "Multa, R$ 384,20" in text
    assert "AIE-ESC nº 0001/2025" in text
    assert "o prazo encerra-se em 12/03/2026" in text


# ---------------------------------------------------------------- decisions

UNTIMELY_23 = (
    "Recurso interposto em 12/03/2026; o prazo de 15 dias, contado da infração ocorrida em "
    "20/02/2026 (art. 23 da Lei nº 4.419/2006), encerrou-se em 09/03/2026: recurso "
    "intempestivo."
)


def escolar_penalty(data: dict[str, Any]) -> None:
    """Make a reconsideração (art. 27) concern an escolar penalty of a natural person."""
    data["reconsideracao"] = {"recurso_decidido": False, "de_oficio": True}
    data["recorrente"] = {"nome": "José Exemplo dos Santos", "cpf": CPF}
    data["ato_recorrido"].update(especie="advertencia", numero="AIE-ESC 0001/2026",
                                 formulario="auto-infracao-escolar")


def decision(pack: Path, form: str, hypothesis: str, act: str, ciencia: str | None,
             filed: str | None, result: str | None) -> dict[str, Any]:
    data = example(pack, form)
    data["recurso"]["hipotese"] = hypothesis
    if filed is None:
        data["recurso"].pop("data_protocolo", None)
    else:
        data["recurso"]["data_protocolo"] = filed
    data["ato_recorrido"]["data"] = act
    if ciencia is None:
        data["ato_recorrido"].pop("data_ciencia", None)
    else:
        data["ato_recorrido"]["data_ciencia"] = ciencia
    if result is None:
        data["decisao"].pop("resultado", None)
    else:
        data["decisao"]["resultado"] = result
    data["decisao"]["data"] = "2026-05-04"
    return data


@dataclass(frozen=True)
class DecisionRow:
    article: str
    form: str
    hypothesis: str
    act: str
    ciencia: str | None
    filed: str | None
    result: str | None
    outcome: str | None
    remedy: str
    problems: frozenset[str] = frozenset()


DECISIONS = [
    DecisionRow("fretamento art. 23: timely, not granted → art. 24 next", SEC,
                "fretamento#art23", "2026-03-02", None, "2026-03-17", "nao_provido",
                "nao_provido", "cabe recurso ao Prefeito Municipal, no prazo de 15 dias"),
    DecisionRow("fretamento art. 23: untimely → não conhecido, art. 24 still open", SEC,
                "fretamento#art23", "2026-02-20", None, "2026-03-12", None,
                "nao_conhecido", "art. 24 da Lei nº 4.419/2006"),
    DecisionRow("fretamento art. 23: untimely with a merit result is invalid", SEC,
                "fretamento#art23", "2026-02-20", None, "2026-03-12", "provido",
                "nao_conhecido", "art. 24", frozenset({"decisao.resultado"})),
    DecisionRow("fretamento art. 23: fully granted → nothing left to appeal", SEC,
                "fretamento#art23", "2026-03-02", None, "2026-03-05", "provido",
                "provido", "nada resta"),
    DecisionRow("fretamento art. 24: 15 days from the ciência of the decision, last instance",
                PREF, "fretamento#art24", "2026-03-20", "2026-03-23", "2026-04-07",
                "parcialmente_provido", "parcialmente_provido", "encerra-se a instância"),
    DecisionRow("fretamento art. 24: filed on day 16 → untimely", PREF, "fretamento#art24",
                "2026-03-20", "2026-03-23", "2026-04-08", None, "nao_conhecido",
                "encerra-se a instância"),
    DecisionRow("escolar arts. 25 and 26: timely, única instância", PREF,
                "transporte-escolar#art25", "2026-03-25", "2026-03-30", "2026-04-09",
                "nao_provido", "nao_provido", "única instância"),
    DecisionRow("escolar art. 26: day 11 → untimely", PREF, "transporte-escolar#art25",
                "2026-03-25", "2026-03-30", "2026-04-10", None, "nao_conhecido",
                "única instância"),
    DecisionRow("escolar art. 11: 5 days from the publication of the result", PREF,
                "transporte-escolar#art11", "2026-04-01", None, "2026-04-06", "nao_provido",
                "nao_provido", "havida como definitiva"),
    DecisionRow("escolar art. 11: day 7 → untimely", PREF, "transporte-escolar#art11",
                "2026-04-01", None, "2026-04-08", None, "nao_conhecido",
                "havida como definitiva"),
    DecisionRow("timely appeal needs the merit result", PREF, "transporte-escolar#art25",
                "2026-03-25", "2026-03-30", "2026-04-01", None, None, "única instância",
                frozenset({"decisao.resultado"})),
    DecisionRow("escolar art. 27: reconsideração kept → arts. 25 and 26 remain", SEC,
                "transporte-escolar#art27", "2026-03-25", "2026-04-28", None, "nao_provido",
                "nao_provido", "permanece cabível o recurso ao Prefeito"),
]


@pytest.mark.parametrize("row", DECISIONS, ids=[r.article for r in DECISIONS])
def test_appeal_decisions(pack_dir: Path, row: DecisionRow) -> None:
    data = decision(pack_dir, row.form, row.hypothesis, row.act, row.ciencia, row.filed,
                    row.result)
    if row.hypothesis == "transporte-escolar#art27":
        escolar_penalty(data)
    result = run(decisao_recurso, row.form, data, pack_dir, DECIDED)
    assert set(pending(result)) == set(row.problems), pending(result)
    assert result.values["resultado"] == row.outcome
    assert row.remedy in result.values["proximo_recurso"]
    if row.outcome == "nao_conhecido":
        assert result.values["tempestivo"] is False
        assert "não se conhece do recurso" in result.values["resultado_texto"]
        item = next(i for i in result.items if i.requirement == "recurso.tempestividade")
        assert item.status is Status.MET and item.message.endswith("recurso intempestivo.")


def test_untimely_sentence_is_printed_verbatim(engine: Engine, pack_dir: Path) -> None:
    # fretamento art. 23: the explanation of check_timeliness, word for word
    data = decision(pack_dir, SEC, "fretamento#art23", "2026-02-20", None, "2026-03-12", None)
    result = run(decisao_recurso, SEC, data, pack_dir, DECIDED)
    assert result.values["tempestividade"] == UNTIMELY_23
    rendered = engine.draft(SEC, data)
    assert rendered.report.complete, [i.to_json() for i in rendered.report.pending]
    text = pdf_text(rendered.pdf)
    assert UNTIMELY_23 in text
    assert "Recurso não conhecido, por intempestivo" in text
    assert "Secretário Municipal de Transportes e Sistema Viário" in text


def test_reconsideration_after_the_appeal_was_decided_is_barred(pack_dir: Path) -> None:
    # escolar art. 27: "desde que não haja decisão de eventual recurso"
    data = decision(pack_dir, SEC, "transporte-escolar#art27", "2026-03-25", "2026-03-25",
                    None, "provido")
    escolar_penalty(data)
    data["reconsideracao"] = {"recurso_decidido": True}
    result = run(decisao_recurso, SEC, data, pack_dir, DECIDED)
    assert pending(result)["reconsideracao.recurso_decidido"].status is Status.INVALID


def test_the_instance_is_the_form_schema(engine: Engine, pack_dir: Path) -> None:
    # fretamento art. 23 is decided by the Secretário, art. 24 by the Prefeito
    data = example(pack_dir, PREF)
    data["recurso"]["hipotese"] = "fretamento#art23"
    report = engine.check(PREF, data)
    assert any(i.field == "/recurso/hipotese" and i.pending for i in report.items)
    rendered = engine.draft(PREF, example(pack_dir, PREF))
    text = pdf_text(rendered.pdf)
    assert "Prefeito Municipal" in text and "dá-se provimento ao recurso" in text


def test_appeal_to_the_prefeito_needs_the_ciencia(engine: Engine, pack_dir: Path) -> None:
    # escolar art. 26 counts from the ciência of the punishment
    data = example(pack_dir, PREF)
    del data["ato_recorrido"]["data_ciencia"]
    report = engine.check(PREF, data)
    assert any(i.field == "/ato_recorrido/data_ciencia" and i.pending for i in report.items)


# ---------------------------------------------------------------- edital


@pytest.fixture(scope="module")
def official_pack(tmp_path_factory: pytest.TempPathFactory, pack_dir: Path) -> Path:
    """A copy of the pack in which an official Anexo was registered (test data)."""
    root = tmp_path_factory.mktemp("pack")
    for folder in ("legal_text", "schemas"):
        shutil.copytree(pack_dir / folder, root / folder)
    (root / "forms" / EDITAL).mkdir(parents=True)
    shutil.copy(pack_dir / "forms" / EDITAL / "formulario.json", root / "forms" / EDITAL)
    table = json.loads((pack_dir / "legal_text" / "anexo-pontuacao-exemplo.json").read_text())
    table.update(exemplo=False, aviso=None, titulo="Anexo de teste",
                 fonte="Tabela registrada para os testes")
    (root / "legal_text" / "anexo-pontuacao.json").write_text(json.dumps(table))
    return root


OFFICIAL = {"valor": 250000, "ano": 2025, "tipo": "estimativa", "divulgacao": "2025-08-28",
            "fonte": "Diário Oficial da União, seção 1 (dado de teste)"}


@dataclass(frozen=True)
class EditalRow:
    article: str
    changes: dict[str, Any]
    places: int | None
    problems: frozenset[str]


EDITAIS = [
    EditalRow("art. 6º: population a confirmar (and of 2024) → pending", {}, 8,
              frozenset({"populacao", "populacao_atualizada"})),
    EditalRow("art. 6º: official figure stated → 100 − 90 places", {"populacao_oficial": OFFICIAL},
              10, frozenset()),
    EditalRow("art. 6º: fewer places than open, at the Secretaria's discretion",
              {"populacao_oficial": OFFICIAL, "vagas": 4}, 4, frozenset()),
    EditalRow("art. 6º: more places than open is invalid",
              {"populacao_oficial": OFFICIAL, "vagas": 11}, 11, frozenset({"vagas"})),
    EditalRow("art. 6º: no open place, no edital",
              {"populacao_oficial": OFFICIAL, "licencas_ativas": 100}, 0, frozenset({"vagas"})),
    EditalRow("art. 6º: a figure older than the last boletim is refused",
              {"populacao_oficial": {**OFFICIAL, "ano": 2021, "divulgacao": "2021-08-27"}}, 8,
              frozenset({"populacao", "populacao_atualizada"})),
    EditalRow("art. 6º, parágrafo único: 19 days of registration is too short",
              {"populacao_oficial": OFFICIAL, "inscricoes": {"fim": "2026-03-22"}}, 10,
              frozenset({"inscricoes.fim"})),
    EditalRow("art. 10: the 20th day before the convocation is a Saturday: a publication "
              "on it is late (the minimum moves back to Friday)",
              {"populacao_oficial": OFFICIAL, "publicacao": {"data": "2026-02-28"},
               "inscricoes": {"inicio": "2026-02-28", "fim": "2026-03-20"}}, 10,
              frozenset({"publicacao.data"})),
    EditalRow("art. 6º, parágrafo único: registration may not open before publication",
              {"populacao_oficial": OFFICIAL, "inscricoes": {"inicio": "2026-02-05"}}, 10,
              frozenset({"inscricoes.inicio", "publicacao.data"})),
    EditalRow("art. 10: counted back from the opening, not the closing, of registration",
              {"populacao_oficial": OFFICIAL, "publicacao": {"data": "2026-03-02"}}, 10,
              frozenset({"publicacao.data"})),
    EditalRow("art. 6º: a 2025 estimate is stale once August 2026 has ended",
              {"populacao_oficial": OFFICIAL, "publicacao": {"data": "2026-09-01"},
               "inscricoes": {"inicio": "2026-10-01", "fim": "2026-10-30"}}, 10,
              frozenset({"populacao_atualizada"})),
    EditalRow("art. 6º: a 2024 figure is stale in 2026 even before September",
              {"populacao_oficial": {**OFFICIAL, "ano": 2024, "divulgacao": "2024-08-29"}},
              10, frozenset({"populacao_atualizada"})),
]


@pytest.mark.parametrize("row", EDITAIS, ids=[r.article for r in EDITAIS])
def test_edital(pack_dir: Path, official_pack: Path, row: EditalRow) -> None:
    data = example(pack_dir, EDITAL)
    for key, value in row.changes.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            data[key] = {**data[key], **value}
        else:
            data[key] = value
    result = run(edital_chamamento_escolar, EDITAL, data, official_pack)
    assert set(pending(result)) == set(row.problems), pending(result)
    assert result.values["vagas"] == row.places


def test_edital_refuses_the_example_scoring_table(pack_dir: Path) -> None:
    # art. 8º and art. 10, parágrafo único: the criteria must be the law's Anexo
    data = {**example(pack_dir, EDITAL), "populacao_oficial": OFFICIAL}
    result = run(edital_chamamento_escolar, EDITAL, data, pack_dir)
    item = pending(result)["tabela_pontuacao"]
    assert item.status is Status.MISSING and "EXEMPLO" in item.message
    assert result.values["criterios"]["exemplo"] is True


def test_edital_draft_reads_back(engine: Engine, pack_dir: Path) -> None:
    rendered = engine.draft(EDITAL, example(pack_dir, EDITAL))
    text = pdf_text(rendered.pdf)
    assert not rendered.report.complete
    assert {i.requirement for i in rendered.report.pending} == {
        "populacao", "populacao_atualizada", "tabela_pontuacao"}
    assert "CRITÉRIOS DE EXEMPLO" in text and "tabela de pontuação de EXEMPLO" in text
    assert "8 Alvarás" in text
    assert "precederá o candidato mais idoso" in text and "menor número de protocolo" in text
    assert "no prazo de 5 dias contados da publicação do resultado" in text
    assert "possuir mais de 21 (vinte e um) anos de idade: documento oficial" in text
    # review finding 7: the edital states the period and the place, not its own legality
    assert "prazo de inscrição regular" not in text
    assert "antecedência legal" not in text and "encerra-se em" not in text
    assert "de 03/03/2026 a 27/03/2026" in text and "Protocolo da SETRANSV" in text
    # review finding 9: the documents of art. 17, one per item
    assert "Certificado de Registro e Licenciamento do Veículo (CRLV)" in text
    assert "apólice de seguro em vigor, com cobertura de danos em favor de terceiros e dos " \
           "passageiros transportados (art. 17, inciso IV)" in text
    assert "pneus do veículo não são remoldados, ressolados nem riscados" in text
    assert "Demais exigências deste edital" not in text


def test_edital_late_publication_says_when_it_should_have_been(pack_dir: Path,
                                                                official_pack: Path) -> None:
    # review findings 6 and 18
    data = {**example(pack_dir, EDITAL), "populacao_oficial": OFFICIAL}
    data["publicacao"] = {**data["publicacao"], "data": "2026-03-02"}
    item = pending(run(edital_chamamento_escolar, EDITAL, data, official_pack))["publicacao.data"]
    assert "a publicação deveria ter ocorrido até 11/02/2026" in item.message
    assert "abertura das inscrições, em 03/03/2026" in item.message
    assert "encerrou-se" not in item.message


# ---------------------------------------------------------------- review findings 3, 11, 12


def test_escolar_without_attested_history_the_sanction_is_missing(pack_dir: Path) -> None:
    # art. 23, parágrafo único: an empty list of priors is no history only when attested
    data = auto_data(pack_dir, D5)
    del data["historico_conferido"]
    result = run(auto_infracao_escolar, AUTO, data, pack_dir)
    found = pending(result)
    assert found["historico_conferido"].status is Status.MISSING
    assert "transporte-escolar#art23_par1u" in found["historico_conferido"].basis
    assert found["infracoes.0.sancao"].status is Status.MISSING
    assert result.values["historico_conferido"] is False


def test_escolar_attested_history_names_who_and_when(pack_dir: Path) -> None:
    result = run(auto_infracao_escolar, AUTO, auto_data(pack_dir, D5), pack_dir)
    assert not pending(result)
    met = [i for i in result.items if i.requirement == "historico_conferido"]
    assert met and "Carlos Servidor Exemplo" in met[0].message and "02/03/2026" in met[0].message
    assert result.values["prazo_reincidencia_texto"] == "1 (um) ano"
    later = auto_data(pack_dir, D5)
    later["historico_conferido"]["data"] = "2026-03-05"
    assert pending(run(auto_infracao_escolar, AUTO, later, pack_dir))[
        "historico_conferido"].status is Status.INVALID


def test_escolar_final_act_without_sanctions_is_refused(engine: Engine, pack_dir: Path) -> None:
    # the guard must fail on a final act whose sanctions were not computed (never «[]»)
    data = auto_data(pack_dir, D3, [("2025-12-01", "transporte-escolar#art9_par2_inc2")])
    prepared = engine.prepare(AUTO, data, ON)
    assert prepared.computed["infracoes"] == []
    with pytest.raises(RenderError, match="infracoes_pendentes"):
        engine.render_final(prepared, number="AIE-ESC 0001/2026", code="ABCD-1234",
                            url="https://lavra.invalid/v/ABCD-1234", qr_png=b"",
                            signer_name="Agente Exemplo", docx=False)


@pytest.mark.parametrize(("selo", "printed"), [
    ({"selo": "0007", "selo_afixado": True}, "Selo de identificação nº 0007"),
    ({"selo_afixado": False}, "Selo de identificação não afixado"),
    ({}, "Selo de identificação não informado"),
])
def test_escolar_blank_seal_is_not_a_statement(engine: Engine, pack_dir: Path,
                                               selo: dict[str, Any], printed: str) -> None:
    data = example(pack_dir, AUTO)
    data["veiculo"].pop("selo", None)
    data["veiculo"].pop("selo_afixado", None)
    data["veiculo"].update(selo)
    assert printed in pdf_text(engine.draft(AUTO, data, ON).pdf)


# ---------------------------------------------------------------- review finding 17


def test_decision_dated_after_its_issue_is_invalid(pack_dir: Path) -> None:
    data = decision(pack_dir, PREF, "transporte-escolar#art25", "2026-03-25", "2026-03-30",
                    "2026-04-09", "nao_provido")
    result = run(decisao_recurso, PREF, data, pack_dir, date(2026, 5, 3))
    item = pending(result)["decisao.data"]
    assert item.status is Status.INVALID and "pós-datada" in item.message
    assert "decisao.data" not in pending(run(decisao_recurso, PREF, data, pack_dir, DECIDED))


def test_reconsideration_names_the_act_object_of_the_request(engine: Engine,
                                                              pack_dir: Path) -> None:
    data = decision(pack_dir, SEC, "transporte-escolar#art27", "2026-03-25", "2026-04-28",
                    None, "nao_provido")
    escolar_penalty(data)
    text = pdf_text(engine.draft(SEC, data).pdf)
    assert "Ato objeto do pedido" in text and "Ato reconsiderado" not in text


# ---------------------------------------------------------------- review finding 4


def test_reconsideration_says_the_appeal_has_expired(pack_dir: Path) -> None:
    # art. 26: 10 days from the ciência (02/03 → 12/03); decided on 20/03
    data = decision(pack_dir, SEC, "transporte-escolar#art27", "2026-03-02", "2026-03-02",
                    None, "nao_provido")
    escolar_penalty(data)
    data["decisao"]["data"] = "2026-03-20"
    result = run(decisao_recurso, SEC, data, pack_dir, DECIDED)
    assert not pending(result)
    remedy = result.values["proximo_recurso"]
    assert "encerrou-se em 12/03/2026" in remedy and "não cabe mais recurso" in remedy
    assert "permanece cabível" not in remedy
    assert result.values["prazo_recurso"] == date(2026, 3, 12)


def test_reconsideration_of_a_fretamento_auto_of_a_company_is_refused(pack_dir: Path) -> None:
    # the reviewer's case: fretamento auto, CNPJ, ciência 02/03, decided 20/03
    data = decision(pack_dir, SEC, "transporte-escolar#art27", "2026-03-02", "2026-03-02",
                    None, "nao_provido")
    data["reconsideracao"] = {"recurso_decidido": False, "de_oficio": True}
    data["ato_recorrido"]["formulario"] = "auto-infracao-fretamento"
    data["decisao"]["data"] = "2026-03-20"
    found = pending(run(decisao_recurso, SEC, data, pack_dir, DECIDED))
    assert found["ato_recorrido.formulario"].status is Status.INVALID
    # the form named by its title, as a person reads it, never its id
    said = found["ato_recorrido.formulario"].message
    assert said.endswith("informe o ato lavrado em «Auto de Infração do Transporte Escolar».")
    assert "auto-infracao" not in said
    assert found["recorrente.cnpj"].status is Status.INVALID
    del data["ato_recorrido"]["data_ciencia"]
    assert pending(run(decisao_recurso, SEC, data, pack_dir, DECIDED))[
        "ato_recorrido.data_ciencia"].status is Status.MISSING


# ---------------------------------------------------------------- review finding 14


def test_examples_describe_the_same_driver_and_vehicle(pack_dir: Path) -> None:
    alvara = example(pack_dir, "alvara-transporte-escolar")
    auto = example(pack_dir, AUTO)
    assert auto["condutor"]["cpf"] == alvara["titular"]["cpf"]
    assert auto["veiculo"]["placa"] == alvara["veiculo"]["placa"]
    # The new alvará's selo is numbered in lavra's series when it is issued (escolar art.
    # 3º, § 2º), not typed; the auto's typed selo is a paper one the agent read
    # (selo_do_veiculo), not a copy of it.
    assert "selo_identificacao" not in alvara
    for form in (PREF, "requerimento-renovacao-escolar"):
        data = json.dumps(example(pack_dir, form), ensure_ascii=False)
        assert "518.811.088-13" not in data and "DEF2G34" not in data
    assert example(pack_dir, PREF)["recorrente"]["cpf"] == alvara["titular"]["cpf"]
    # no literal dates in free text: they would contradict the shifted dates
    free = example(pack_dir, PREF)["decisao"]["fundamentacao"]
    assert not re.search(r"\d{2}/\d{2}/\d{4}", free)
