"""Fretamento acts after the auto: cassação (arts. 14, d, and 22) and the impediment term.

Computations are called directly with a fixed date of issue; drafts go through
:class:`lavra.documents.Engine` and are read back with pypdf. Each table row names the
article it checks.
"""

from __future__ import annotations

import copy
import io
import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from lavra.checking.computations import Computed, ComputeInput, find_computation
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.fretamento import cassacao, impedimento
from lavra_americana.fretamento.cassacao import decisao_cassacao_fretamento
from lavra_americana.fretamento.impedimento import termo_impedimento_fretamento

COMPUTATIONS = {**cassacao.COMPUTATIONS, **impedimento.COMPUTATIONS}

CAS = "decisao-cassacao-fretamento"
TIM = "termo-impedimento-fretamento"


def example(pack_dir: Path, form: str) -> dict[str, Any]:
    path = pack_dir / "forms" / form / "exemplo.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def run(computation: Any, form: str, data: dict[str, Any], pack: Path, issued: date) -> Computed:
    result: Computed = computation(
        ComputeInput(form_id=form, data=data, on=issued, pack_dir=pack, history=None,
                     draft=True, issued_on=issued)
    )
    return result


def invalid(result: Computed) -> dict[str, str]:
    return {i.requirement: i.message for i in result.items if i.pending}


def pdf_text(pdf: bytes) -> str:
    text = " ".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)
    return re.sub(r"\s+", " ", text)


def set_at(data: dict[str, Any], path: str, value: Any) -> None:
    keys = path.split("/")
    node = data
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    if value is None:
        node.pop(keys[-1], None)
    else:
        node[keys[-1]] = value


def test_the_forms_name_computations_of_this_module() -> None:
    for name, function in COMPUTATIONS.items():
        assert find_computation(pacote(), name) is function


# ---------------------------------------------------------------- cassação

CASSATION_ISSUE = date(2026, 4, 6)


@pytest.mark.parametrize(
    ("article", "decision", "first_allowed"),
    [
        ("art. 22, parágrafo único: 12 meses de data a data", "2026-04-06", date(2027, 4, 7)),
        ("art. 22, parágrafo único: fim de fevereiro", "2026-02-28", date(2027, 3, 1)),
        ("art. 22, parágrafo único: dia sem expediente não se move", "2026-04-04",
         date(2027, 4, 5)),
    ],
)
def test_cassation_bar_of_twelve_months(
    pack_dir: Path, article: str, decision: str, first_allowed: date
) -> None:
    data = example(pack_dir, CAS)
    data["decisao"]["data"] = decision
    data["defesa"]["apresentada"] = False
    data["defesa"]["notificacao"]["data_ciencia"] = "2026-02-20"
    data.pop("ciencia")
    result = run(decisao_cassacao_fretamento, CAS, data, pack_dir, date(2026, 4, 6))
    bar = result.values["impedimento"]
    assert bar["primeiro_dia_permitido"] == first_allowed, article
    assert "fretamento#art22_par1u" in result.values["fundamento"], article


@pytest.mark.parametrize(
    ("article", "path", "value", "requirement"),
    [
        ("art. 22, II, e art. 23: prazo de recurso ainda correndo",
         "hipoteses/multas_nao_recolhidas/autos", [
             {"numero": "AIF-FRET 0030/2026", "data_infracao": "2026-03-30", "valor": "140.00"}],
         "hipoteses.multas_nao_recolhidas.autos.0.prazo_recurso"),
        ("art. 22, IV: falência posterior à decisão", "hipoteses/falencia_dissolucao", {
            "tipo": "falencia", "orgao": "1ª Vara Cível de Americana",
            "referencia": "1000123-45.2026.8.26.0019", "data": "2026-04-10"},
         "hipoteses.falencia_dissolucao.data"),
        ("CF art. 5º, LV: notificação para defesa depois da decisão",
         "defesa/notificacao/data_ciencia", "2026-04-07", "defesa.notificacao.conferencia.data"),
        ("art. 24: data da ciência escrita no ato", "ciencia/data", "2026-04-06",
         "ciencia.data"),
        ("decisão datada depois da emissão", "decisao/data", "2026-04-07", "decisao.data"),
    ],
)
def test_cassation_refuses_what_the_law_does_not_allow(
    pack_dir: Path, article: str, path: str, value: Any, requirement: str
) -> None:
    data = example(pack_dir, CAS)
    set_at(data, path, value)
    result = run(decisao_cassacao_fretamento, CAS, data, pack_dir, CASSATION_ISSUE)
    assert requirement in invalid(result), (article, invalid(result))


def test_cassation_example_is_complete_and_lists_hypotheses(pack_dir: Path) -> None:
    data = example(pack_dir, CAS)
    result = run(decisao_cassacao_fretamento, CAS, data, pack_dir, CASSATION_ISSUE)
    assert invalid(result) == {}
    assert [h["dispositivo"] for h in result.values["hipoteses"]] == ["fretamento#art22_inc2"]
    assert result.values["total_multas_texto"] == "R$ 420,00"
    assert [a["fim_prazo_recurso"] for a in result.values["autos"]] == [
        date(2026, 1, 27), date(2026, 2, 17)]
    # art. 24: 15 days from the ciência on 06/04/2026, given when the decision is handed
    # over (a ciência after the signature is a future fact, issue 10): 21/04 is
    # Tiradentes, so the last day moves to 22/04/2026
    assert result.values["recurso"]["ultimo_dia"] is None  # from the recorded ciência


@pytest.mark.parametrize(
    ("article", "key", "facts", "citation"),
    [
        ("art. 22, I", "dolo", {"fatos": "Captação de passageiros nos pontos do transporte "
                                         "coletivo urbano, com cobrança individual de tarifa."},
         "fretamento#art22_inc1"),
        ("art. 22, III", "nao_renovacao", {"vencimento": "2026-01-31", "exigencia":
                                           "Notificação nº 12/2026, de 05/02/2026."},
         "fretamento#art22_inc3"),
        ("art. 22, IV", "falencia_dissolucao", {
            "tipo": "dissolucao", "orgao": "Junta Comercial do Estado de São Paulo",
            "referencia": "123.456/26-7", "data": "2026-03-01"}, "fretamento#art22_inc4"),
    ],
)
def test_cassation_draft_prints_each_hypothesis(
    engine: Engine, pack_dir: Path, article: str, key: str, facts: dict[str, Any],
    citation: str,
) -> None:
    data = example(pack_dir, CAS)
    data["hipoteses"] = {key: facts}
    rendered = engine.draft(CAS, data)
    text = pdf_text(rendered.pdf)
    assert article in text, article
    assert rendered.report.complete, [i.message for i in rendered.report.pending]
    assert citation in engine.prepare(CAS, data).computed["fundamento"]


def test_cassation_draft_reads_back(engine: Engine, pack_dir: Path) -> None:
    rendered = engine.draft(CAS, example(pack_dir, CAS))
    text = pdf_text(rendered.pdf)
    for expected in (
        "fica cassado",
        "ALV-FRET nº 0013/2026",
        "AIF-FRET nº 0007/2026",
        "novo alvará poderá ser obtido a partir de 07/04/2027",  # art. 22, parágrafo único
        "no prazo de 15 dias contados da ciência da decisão",  # art. 24
        "Tomei ciência desta decisão em ____/____/________.",
        "responsabilidade civil ou criminal",  # art. 25
    ):
        assert expected in text, expected


def test_cassation_without_hypothesis_is_pending(engine: Engine, pack_dir: Path) -> None:
    data = example(pack_dir, CAS)
    data["hipoteses"] = {}
    rendered = engine.draft(CAS, data)
    assert not rendered.report.complete
    assert "Hipótese de cassação pendente" in pdf_text(rendered.pdf)


# ---------------------------------------------------------------- impediment term

TERM_ISSUE = date(2026, 3, 2)


@pytest.mark.parametrize(
    ("article", "changes", "applies", "grounds"),
    [
        ("art. 21, a", {"infracoes": [], "comprovante_inspecao_nao_apresentado": True},
         True, ["art. 21, a"]),
        ("art. 21, b", {"infracoes": [], "comprovante_inspecao_nao_apresentado": False,
                        "multa_nao_recolhida_apos_recurso": True}, True, ["art. 21, b"]),
        ("art. 21, c (art. 16, II)", {"comprovante_inspecao_nao_apresentado": False},
         True, ["art. 21, c"]),
        ("art. 21, c (art. 15, I: exigências do art. 11)",
         {"infracoes": ["fretamento#art15_inc1"], "comprovante_inspecao_nao_apresentado": False},
         True, ["art. 21, c"]),
        ("art. 21: art. 17, VIII fora das hipóteses",
         {"infracoes": ["fretamento#art17_inc8"], "comprovante_inspecao_nao_apresentado": False},
         False, []),
    ],
)
def test_term_art21_hypotheses(
    pack_dir: Path, article: str, changes: dict[str, Any], applies: bool, grounds: list[str]
) -> None:
    data = example(pack_dir, TIM)
    data.update(copy.deepcopy(changes))
    result = run(termo_impedimento_fretamento, TIM, data, pack_dir, TERM_ISSUE)
    assert result.values["aplica"] is applies, article
    assert [g.split(", da ")[0] for g in result.values["hipoteses"]] == grounds, article
    assert ("impedimento.hipotese" in invalid(result)) is not applies, article


@pytest.mark.parametrize(
    ("article", "path", "value", "requirement"),
    [
        ("art. 21, § 2º: retirada sem risco descrito", "retirada/risco", None, "retirada.risco"),
        ("art. 21, § 2º: condutor com CNH vencida", "retirada/condutor/cnh/validade",
         "2026-03-01", "retirada.condutor.cnh.validade"),
        ("art. 21: auto de outra data", "auto/data", "2026-02-27", "auto.data"),
        ("termo datado depois da emissão", "ocorrencia/data", "2026-03-03", "ocorrencia.data"),
    ],
)
def test_term_refuses_what_the_law_does_not_allow(
    pack_dir: Path, article: str, path: str, value: Any, requirement: str
) -> None:
    data = example(pack_dir, TIM)
    set_at(data, path, value)
    result = run(termo_impedimento_fretamento, TIM, data, pack_dir, TERM_ISSUE)
    assert requirement in invalid(result), (article, invalid(result))


def test_term_has_no_art13_motive_it_points_to_the_tve(engine: Engine, pack_dir: Path) -> None:
    """fretamento art. 13 is recorded by the TVE-FRET, which suspends the alvará (the
    reading in fretamento.impedimento): the term refuses the motive and names it."""
    data = example(pack_dir, TIM)
    for key in ("auto", "infracoes", "comprovante_inspecao_nao_apresentado"):
        data.pop(key)
    data["motivo"] = "art13"
    result = run(termo_impedimento_fretamento, TIM, data, pack_dir, TERM_ISSUE)
    [message] = invalid(result).values()
    assert "Termo de Vistoria Extraordinária (TVE-FRET)" in message
    assert "art. 13" in message and "suspende o alvará" in message
    prepared = engine.prepare(TIM, data, TERM_ISSUE)
    assert not prepared.report.complete
    said = [i.message for i in prepared.report.items if i.field == "/motivo"]
    assert said and all("TVE-FRET" in m for m in said), said


def test_term_art21_needs_the_auto(engine: Engine, pack_dir: Path) -> None:
    data = example(pack_dir, TIM)
    data.pop("auto")
    rendered = engine.draft(TIM, data)
    assert not rendered.report.complete
    assert [i.field for i in rendered.report.pending] == ["/auto"]


@pytest.mark.parametrize(
    ("article", "outcome", "expected", "absent"),
    [
        ("art. 21, §§ 2º a 4º: retirada", "retirada",
         ["recolhido, contra recibo", "REC 0045/2026", "Continuidade do transporte dos passageiros",
          "devolvido somente após a apresentação do veículo devidamente regularizado",
          "não desobriga o infrator de corrigir a falta"], ["foi liberado"]),
        ("art. 21, § 1º: sanado no local", "sanado_no_local",
         ["foi liberado às 14:50", "não desobriga o infrator de corrigir a falta"],
         ["REC 0045/2026"]),
    ],
)
def test_term_draft_reads_back(
    engine: Engine, pack_dir: Path, article: str, outcome: str, expected: list[str],
    absent: list[str],
) -> None:
    data = example(pack_dir, TIM)
    data["desfecho"] = outcome
    if outcome == "sanado_no_local":
        data.pop("retirada")
        data["liberacao"] = {"hora": "14:50", "providencia": "apresentado o comprovante"}
    rendered = engine.draft(TIM, data)
    text = pdf_text(rendered.pdf)
    assert rendered.report.complete, (article, [i.message for i in rendered.report.pending])
    for phrase in expected:
        assert phrase in text, (article, phrase)
    for phrase in absent:
        assert phrase not in text, (article, phrase)


def test_coverage_lists_this_module(pack_dir: Path) -> None:
    assert "fretamento#art22_par1u" in cassacao.IMPLEMENTED
    assert "fretamento#art21_par4" in impedimento.IMPLEMENTED
    names = [module.__name__ for module in pacote().rule_modules]
    assert "lavra_americana.fretamento.cassacao" in names
    assert "lavra_americana.fretamento.impedimento" in names
