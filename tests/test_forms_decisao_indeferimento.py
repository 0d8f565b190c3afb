"""The reasoned refusal of a requerimento, for both laws (Lei nº 9.784/1999, art. 50, I).

The motivos come from the requerimento's own completeness report (each unmet requirement
with its provision), staff may add motivos with their provision, a refusal without a
motivo is invalid, and the act prints the appeal of its law with its last day:
fretamento art. 24 (15 days, to the Prefeito); escolar, Lei nº 9.784/1999, arts. 56,
§ 1º, and 59 (10 days, to the Secretário, who may reconsider, then the Prefeito).
"""

from __future__ import annotations

import json
import re
import subprocess
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from formcases import DELETE, at, example, pdf_text, setter
from issuers import dev_issuer

from lavra.checking.computations import find_computation
from lavra.checking.content import Content
from lavra.checking.report import Report, Status
from lavra.cli.main import main
from lavra.config import Config
from lavra.documents import Engine, Prepared
from lavra.issuing import ensure_dev_pki
from lavra.web import WebContext, WebSettings, create_app
from lavra.web.users import Role
from lavra_americana import pacote
from lavra_americana.comum import indeferimento
from lavra_americana.comum.indeferimento import decisao_indeferimento, requerimento_forms

IND = "decisao-indeferimento"
INSCRICAO = "requerimento-inscricao-escolar"
ALTERACAO = "requerimento-autorizacao-alteracao-veiculo"
ISSUED = date(2026, 3, 20)
PASSWORD = "senha-de-teste-123"


def prepared(engine: Engine, data: dict[str, Any], issued_on: date = ISSUED) -> Prepared:
    return engine.prepare(IND, data, issued_on=issued_on)


def report_of(engine: Engine, data: dict[str, Any], issued_on: date = ISSUED) -> Report:
    return prepared(engine, data, issued_on).report


def fretamento_refusal(engine: Engine) -> dict[str, Any]:
    """A refusal of an alteration that would take the tachograph out (art. 10, VI)."""
    request = example(engine, ALTERACAO)
    request["veiculo"]["tacografo"] = False
    return {
        "processo": {"numero": "PA 5.010/2026"},
        "requerimento": {
            "formulario": ALTERACAO,
            "protocolo": "7.777/2026",
            "data_protocolo": "2026-11-20",
            "dados": request,
        },
        "requerente": {
            "tipo": "pessoa_juridica",
            "nome": "Viação Exemplo de Fretamento Ltda.",
            "cnpj": "65.563.842/0001-05",
        },
        "decisao": {"data": "2026-11-27"},
        "ciencia": {"nome": "Maria Exemplo da Silva"},
    }


# ---------------------------------------------------------------- the complete act


def test_example_refuses_the_inscription_without_the_criminal_record(engine: Engine) -> None:
    found = prepared(engine, example(engine, IND))
    assert found.report.complete, [i.to_json() for i in found.report.pending]
    (motivo,) = found.computed["motivos"]
    assert motivo["numero"] == 1 and motivo["origem"] == "requerimento"
    assert "antecedentes criminais" in motivo["texto"]
    assert motivo["citacoes"] == ["transporte-escolar#art7_inc5"]
    assert motivo["fundamento"] == ["art. 7º, V, da Lei nº 4.515/2007"]
    assert found.computed["titulo_documento"] == "Decisão de Indeferimento de Requerimento"
    assert found.computed["subtitulo_documento"] == (
        "Requerimento de Inscrição de Condutor de Transporte Escolar (Lei nº 4.515/2007)"
    )
    # The inscription is a stage of the selection: escolar art. 11, 5 days, to the
    # Prefeito, from the ciência (issue 23, class 2), not Lei nº 9.784/1999.
    assert found.computed["recurso"]["ultimo_dia"] is None  # from the recorded ciência
    assert "Prefeito Municipal" in found.computed["recurso"]["regra"]
    assert "Secretário" not in found.computed["recurso"]["regra"]
    assert found.computed["fundamento"] == [
        "lei-9784-1999#art50_inc1", "lei-9784-1999#art50_par1", "transporte-escolar#art7_inc5",
        "transporte-escolar#art11",
    ]


def test_the_auxiliarys_inscription_is_no_act_of_the_selection(engine: Engine) -> None:
    # issue 23, class 2: art. 11 is the appeal of the ato de escolha; the auxiliary
    # (art. 9º, § 1º) joins an alvará already granted: Lei nº 9.784/1999 applies
    data = example(engine, IND)
    dados = data["requerimento"]["dados"]
    dados["funcao"] = "auxiliar"
    dados.pop("veiculo", None)
    dados["condutor_titular"] = {"nome": "Maria Titular Exemplo", "cpf": "645.922.328-95",
                                 "alvara": "ALV-ESC 0007/2026"}
    found = prepared(engine, data)
    rule = found.computed["recurso"]["regra"]
    assert "10 (dez) dias contados da ciência" in rule and "Secretário" in rule
    assert "arts. 56, § 1º, e 59" in rule and "5 (cinco) dias" not in rule.split("reconsiderar")[0]
    assert "transporte-escolar#art11" not in found.computed["fundamento"]


def test_the_act_is_the_secretarys_in_its_own_series(engine: Engine) -> None:
    form = engine.content.form(IND)
    assert form.series == "IND" and form.signer_role == "secretario-transportes"
    assert not form.fillable and form.reference_date_field == "/decisao/data"
    assert find_computation(pacote(), "decisao_indeferimento") is decisao_indeferimento
    assert indeferimento in pacote().rule_modules


def test_every_requerimento_of_the_pack_and_only_them_may_be_refused(engine: Engine) -> None:
    schema = json.loads((engine.content.root / "schemas" / f"{IND}.json").read_text("utf-8"))
    listed = schema["properties"]["requerimento"]["properties"]["formulario"]
    expected = requerimento_forms(engine.content)
    assert set(listed["enum"]) == set(expected)
    assert listed["x-rotulos"] == {fid: spec.title for fid, spec in expected.items()}
    assert not any(fid.startswith("recurso-") for fid in expected)


def test_issued_over_a_fresh_registry_prints_motivos_bases_and_appeal(
    engine: Engine, tmp_path: Path
) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        result = issuer.issue(IND, example(engine, IND))
        assert re.fullmatch(r"IND nº 0001/\d{4}", result.record.printed)
        text = pdf_text(result.pdf)
        for words in (
            "Decisão de Indeferimento de Requerimento",
            "Requerimento de Inscrição de Condutor de Transporte Escolar (Lei nº 4.515/2007)",
            "nº 4.321/2026, de 04/03/2026",
            "Conferido pelas exigências legais na data em que foi feito (04/03/2026), o "
            "requerimento não atende ao seguinte requisito legal",
            "José Exemplo dos Santos, CPF nº 529.982.247-25",
            "Documento não apresentado: Atestado de que não registra antecedentes "
            "criminais. Fundamento: art. 7º, V, da Lei nº 4.515/2007.",
            "fica indeferido",
            "cabe recurso escrito dirigido ao Prefeito Municipal, no prazo de 5 (cinco) dias "
            "contados da ciência da decisão (art. 11 da Lei nº 4.515/2007)",
            "O prazo conta-se da ciência desta decisão, cuja data é lançada abaixo no "
            "momento em que for dada",
            "Tomei ciência desta decisão em ____/____/________.",
            "art. 50, inciso I, da Lei nº 9.784, de 29 de janeiro de 1999",
            "Secretário Municipal de Transportes e Sistema Viário",
        ):
            assert words in text, words
        assert "10 (dez) dias" not in text and "art. 59 da Lei nº 9.784" not in text
        assert "MINUTA" not in text and " ou " not in text.split("Fundamento legal")[0][:400]
        # The ciência comes after the signature: no day of it, no last day counted from it.
        assert "encerra-se" not in text and "ciência em 20/03/2026" not in text
    finally:
        issuer.close()


def test_fretamento_alteration_breaking_art_10_is_refused_with_the_appeal_of_art_24(
    engine: Engine, tmp_path: Path
) -> None:
    data = fretamento_refusal(engine)
    found = engine.prepare(IND, data, issued_on=date(2026, 11, 27))
    assert found.report.complete, [i.to_json() for i in found.report.pending]
    texts = [m["texto"] for m in found.computed["motivos"]]
    assert any("tacógrafo" in t for t in texts), texts
    assert ["fretamento#art10_inc6"] in [m["citacoes"] for m in found.computed["motivos"]]
    appeal = found.computed["recurso"]
    assert "Prefeito Municipal, no prazo de 15 (quinze) dias" in appeal["regra"]
    assert "art. 24 da Lei nº 4.419/2006" in appeal["regra"]
    assert appeal["ultimo_dia"] is None  # counted from the ciência, recorded later
    assert found.computed["fundamento"] == [
        "lei-9784-1999#art50_inc1", "lei-9784-1999#art50_par1", "fretamento#art10_inc6",
        "fretamento#art24",
    ]
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        result = issuer.issue(IND, data)
        text = pdf_text(result.pdf)
        for words in ("Requerimento de Autorização Prévia de Alteração de Característica de "
                      "Veículo (Lei nº 4.419/2006)", "CNPJ nº 65.563.842/0001-05",
                      "Fundamento: art. 10, VI, da Lei nº 4.419/2006",
                      "15 (quinze) dias contados da ciência da decisão",
                      "Tomei ciência desta decisão em ____/____/________.",
                      "na data em que foi feito (20/11/2026)",
                      "protocolado em 20/11/2026 por Viação Exemplo de Fretamento Ltda. "
                      "(protocolo nº"):
            assert words in text, words
    finally:
        issuer.close()


def test_every_unmet_requirement_is_a_numbered_motivo(engine: Engine) -> None:
    data = example(engine, IND)
    documents = data["requerimento"]["dados"]["documentos"]
    documents["curso_condutor_escolar"] = {"apresentado": False}
    data["requerimento"]["dados"]["candidato"]["cnh"]["categoria"] = "B"
    found = prepared(engine, data)
    assert found.report.complete
    motivos = found.computed["motivos"]
    assert [m["numero"] for m in motivos] == list(range(1, len(motivos) + 1))
    cited = {c for m in motivos for c in m["citacoes"]}
    assert {"transporte-escolar#art7_inc2", "transporte-escolar#art7_inc5",
            "transporte-escolar#art7_inc6"} <= cited
    assert all(m["fundamento"] for m in motivos)


def test_staff_motivo_alone_with_its_basis(engine: Engine) -> None:
    data = example(engine, IND)
    del data["requerimento"]["dados"]
    data["motivos_adicionais"] = [{
        "texto": "O requerente já é titular de licença para transporte escolar, e a lei veda "
                 "a concessão de mais de uma ao mesmo transportador.",
        "dispositivo": "transporte-escolar#art14",
    }]
    found = prepared(engine, data)
    assert found.report.complete, [i.to_json() for i in found.report.pending]
    (motivo,) = found.computed["motivos"]
    assert motivo["origem"] == "secretaria"
    assert motivo["fundamento"] == ["art. 14 da Lei nº 4.515/2007"]
    text = pdf_text(engine.draft(IND, data).pdf)
    assert "O requerente já é titular" in text
    assert "Fundamento: art. 14 da Lei nº 4.515/2007." in text


# ---------------------------------------------------------------- incompleteness


def test_a_complete_requerimento_leaves_nothing_to_refuse(engine: Engine) -> None:
    data = example(engine, IND)
    data["requerimento"]["dados"] = example(engine, INSCRICAO)
    found = at(report_of(engine, data), "/motivos")
    assert found.status is Status.INVALID
    assert "não há o que indeferir" in found.message and "deve ser deferido" in found.message


def test_no_data_and_no_motivo_is_nothing_to_refuse(engine: Engine) -> None:
    data = example(engine, IND)
    del data["requerimento"]["dados"]
    found = at(report_of(engine, data), "/motivos")
    assert found.status is Status.INVALID and "Informe os dados do requerimento" in found.message


def test_a_staff_motivo_needs_its_basis(engine: Engine) -> None:
    data = example(engine, IND)
    data["motivos_adicionais"] = [{"texto": "Fato apurado pela Secretaria em vistoria."}]
    report = report_of(engine, data)
    assert not report.complete
    assert any(i.pending and i.field.startswith("/motivos_adicionais") for i in report.items)


@pytest.mark.parametrize(
    ("basis", "words"),
    [
        ("transporte-escolar#art99", "não é um dispositivo"),
        ("transporte-escolar", "não é um dispositivo"),  # a whole law is no provision
        ("fretamento#art10_inc1", "não é da Lei nº 4.515/2007"),
    ],
    ids=["unknown provision", "whole law", "the other law"],
)
def test_a_staff_motivo_rests_on_a_provision_of_the_requerimentos_law(
    engine: Engine, basis: str, words: str
) -> None:
    data = example(engine, IND)
    del data["requerimento"]["dados"]
    data["motivos_adicionais"] = [
        {"texto": "Motivo apurado pela Secretaria.", "dispositivo": basis}
    ]
    report = report_of(engine, data)
    found = at(report, "/motivos_adicionais/0/dispositivo")
    assert found.status is Status.INVALID and words in found.message
    assert at(report, "/motivos").status is Status.INVALID


@pytest.mark.parametrize(
    "form_id", ["recurso-fretamento", "alvara-fretamento", IND, "requerimento-inexistente"]
)
def test_only_a_requerimento_of_the_pack_is_refused(engine: Engine, form_id: str) -> None:
    data = example(engine, IND)
    data["requerimento"]["formulario"] = form_id
    report = report_of(engine, data)
    found = at(report, "/requerimento")
    assert found.status is Status.INVALID and not report.complete


CASES = [
    ("sem processo", setter("/processo", DELETE), "/processo"),
    ("sem protocolo", setter("/requerimento/protocolo", DELETE), "/requerimento"),
    ("sem data do protocolo", setter("/requerimento/data_protocolo", DELETE), "/requerimento"),
    ("pessoa jurídica sem CNPJ", setter("/requerente/tipo", "pessoa_juridica"), "/requerente"),
    ("sem data da decisão", setter("/decisao/data", DELETE), "/decisao"),
]


@pytest.mark.parametrize(("case", "change", "field"), CASES, ids=[c[0] for c in CASES])
def test_each_missing_field_is_pending(engine: Engine, case: str, change: Any, field: str) -> None:
    data = example(engine, IND)
    change(data)
    report = report_of(engine, data)
    assert not report.complete
    assert at(report, field).pending


# ---------------------------------------------------------------- dates


def test_the_protocol_cannot_come_after_the_decision(engine: Engine) -> None:
    data = example(engine, IND)
    data["requerimento"]["data_protocolo"] = "2026-03-21"
    found = at(report_of(engine, data, date(2026, 3, 25)), "/requerimento/data_protocolo")
    assert found.status is Status.INVALID and "depois da data da decisão" in found.message
    data["requerimento"]["data_protocolo"] = "2026-03-20"  # the same day: allowed
    data["requerimento"]["dados"]["data_requerimento"] = "2026-03-20"
    assert report_of(engine, data).complete


def test_the_requerimento_cannot_be_dated_after_its_protocol(engine: Engine) -> None:
    data = example(engine, IND)
    data["requerimento"]["dados"]["data_requerimento"] = "2026-03-05"
    found = at(report_of(engine, data), "/requerimento/dados")
    assert found.status is Status.INVALID and "depois do seu protocolo" in found.message


def test_the_applicant_is_the_one_who_signed_the_requerimento(engine: Engine) -> None:
    data = example(engine, IND)
    data["requerente"]["cpf"] = "111.444.777-35"
    found = at(report_of(engine, data), "/requerente/cpf")
    assert found.status is Status.INVALID and "não é o do requerimento" in found.message
    company = fretamento_refusal(engine)
    company["requerente"]["cnpj"] = "11.222.333/0001-81"
    found = at(report_of(engine, company, date(2026, 11, 27)), "/requerente/cnpj")
    assert found.status is Status.INVALID


@pytest.mark.parametrize("day", ["0001-01-01", "2026-02-30"], ids=["out of range", "inexistent"])
def test_a_mistyped_date_of_the_requerimento_is_corrected_not_a_motivo(
    engine: Engine, day: str
) -> None:
    data = example(engine, IND)
    data["requerimento"]["dados"]["candidato"]["data_nascimento"] = day
    found = prepared(engine, data)
    item = at(found.report, "/requerimento/dados/candidato/data_nascimento")
    assert item.status is Status.INVALID and "não é motivo de indeferimento" in item.message
    assert not any("nascimento" in m["texto"].lower() for m in found.computed["motivos"])
    data["decisao"]["data"] = "0001-01-01"  # reported even when the decision's own data fail
    report = report_of(engine, data)
    assert at(report, "/requerimento/dados/candidato/data_nascimento").pending


def test_a_decision_after_the_issue_is_invalid(engine: Engine) -> None:
    found = at(report_of(engine, example(engine, IND), date(2026, 3, 19)), "/decisao/data")
    assert found.status is Status.INVALID


def test_a_ciencia_date_typed_in_the_decision_is_invalid(engine: Engine) -> None:
    """The ciência is a fact after the signature: the act leaves its line blank and the
    registry counts the last day from the ciência recorded later (issue 23)."""
    data = example(engine, IND)
    data["ciencia"]["data"] = "2026-03-20"  # the day of the decision and of the issue
    found = at(report_of(engine, data, ISSUED), "/ciencia/data")
    assert found.status is Status.INVALID
    assert "fato posterior à assinatura" in found.message
    assert "lavra fato ciencia" in found.message
    assert "«Registrar fato», na página do documento" in found.message  # the web's way too


def test_without_ciencia_the_rule_is_printed_without_a_last_day(engine: Engine) -> None:
    data = example(engine, IND)
    del data["ciencia"]
    found = prepared(engine, data)
    assert found.report.complete
    assert found.computed["recurso"]["ultimo_dia"] is None
    text = pdf_text(engine.draft(IND, data).pdf)
    assert "5 (cinco) dias contados da ciência" in text and "encerra-se" not in text


# ---------------------------------------------------------------- from what was filed


def test_the_motivos_of_a_filled_pdf_read_back(engine: Engine) -> None:
    """The requerimento a person filled in the PDF, read back, gives the same motivos."""
    data = example(engine, IND)
    filed = data["requerimento"]["dados"]
    pdf = engine.prefill(INSCRICAO, filed)
    data["requerimento"]["dados"] = engine.read(pdf, INSCRICAO).data
    found = prepared(engine, data)
    assert found.report.complete, [i.to_json() for i in found.report.pending]
    assert [m["citacoes"] for m in found.computed["motivos"]] == [
        ["transporte-escolar#art7_inc5"]
    ]


def test_cli_drafts_and_checks_from_the_requerimento_json(
    engine: Engine, tmp_path: Path
) -> None:
    data = example(engine, IND)
    path = tmp_path / "indeferimento.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "minuta.pdf"
    runner = CliRunner()
    drafted = runner.invoke(main, ["draft", IND, str(path), "-o", str(out)])
    assert drafted.exit_code == 0, drafted.output
    assert "antecedentes criminais" in pdf_text(out.read_bytes())
    data["requerimento"]["dados"] = example(engine, INSCRICAO)
    path.write_text(json.dumps(data), encoding="utf-8")
    checked = runner.invoke(main, ["check", IND, str(path), "--json"])
    assert checked.exit_code == 1
    items = json.loads(checked.output)["items"]
    assert any(i["field"] == "/motivos" and i["status"] == "invalid" for i in items)


# ---------------------------------------------------------------- staff web form


def test_the_staff_web_form_renders_the_schema_and_drafts(tmp_path: Path, pack_dir: Path) -> None:
    config = Config(pack_dir=pack_dir, data_dir=tmp_path / "dados",
                    verification_url="http://testserver/verificar")
    ensure_dev_pki(config, Content(pack_dir))
    context = WebContext(config, WebSettings(secret_key="chave-de-teste-das-sessoes-0123456789"))
    context.users.add("clara", PASSWORD, Role.CLERK, full_name="Clara Redatora")
    with TestClient(create_app(context)) as client:
        page = client.get("/entrar")
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        client.post("/entrar", data={"csrf": token.group(1), "usuario": "clara",
                                     "senha": PASSWORD, "proximo": "/equipe"})
        form = client.get(f"/equipe/novo/{IND}")
        assert form.status_code == 200, form.text[:300]
        for name in ("requerimento/formulario", "requerimento/protocolo",
                     "motivos_adicionais/0/texto", "motivos_adicionais/0/dispositivo",
                     "decisao/data", "requerente/cnpj"):
            assert f'name="{name}"' in form.text, name
        assert "Requerimento de Autorização Prévia de Alteração" in form.text
        token = re.search(r'name="csrf" value="([^"]+)"', form.text)
        assert token is not None
        draft = client.post(f"/equipe/novo/{IND}/minuta", data={
            "csrf": token.group(1),
            "processo/numero": "PA 1/2026",
            "requerimento/formulario": INSCRICAO,
            "requerimento/protocolo": "1/2026",
            "requerimento/data_protocolo": "04/03/2026",
            "requerente/tipo": "pessoa_fisica",
            "requerente/nome": "José Exemplo dos Santos",
            "requerente/cpf": "529.982.247-25",
            "motivos_adicionais/0/texto": "Já é titular de outra licença de transporte escolar.",
            "motivos_adicionais/0/dispositivo": "transporte-escolar#art14",
            "decisao/data": "20/03/2026",
        })
        assert draft.status_code == 200, draft.text[:500]
        assert draft.headers["content-type"] == "application/pdf"
        text = pdf_text(draft.content)
        assert "Fundamento: art. 14 da Lei nº 4.515/2007." in text


def test_coverage_has_nothing_pending_and_no_dangling_citation(pack_dir: Path) -> None:
    from lavra.law.coverage import compute_coverage

    coverage = compute_coverage(pack_dir)
    assert coverage.ok, coverage.dangling
    assert coverage.with_status("pendente") == ()
    statuses = {(f.law, f.fragment): f.status for f in coverage.fragments}
    assert statuses[("fretamento", "art24")] == "implementado"
    for fragment in ("art50_inc1", "art50_par1", "art56", "art56_par1", "art59"):
        assert statuses[("lei-9784-1999", fragment)] == "implementado", fragment



# ---------------------------------------------------------------- the appeal of the stage
def poppler_text(pdf: bytes) -> str:
    """The PDF's text as poppler reads it (pypdf 7 sometimes decodes garbage)."""
    out = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                         check=True).stdout.decode("utf-8")
    return " ".join(out.replace("-\n", "-").split())


@pytest.mark.parametrize(
    ("case", "expected", "absent"),
    [
        ("inscription", ("Prefeito Municipal, no prazo de 5 (cinco) dias contados da "
                         "ciência da decisão (art. 11 da Lei nº 4.515/2007)",),
         ("10 (dez) dias", "Lei nº 9.784/1999, arts. 56")),
        ("fretamento", ("recurso ao Prefeito Municipal, no prazo de 15 (quinze) dias "
                        "contados da ciência da decisão (art. 24 da Lei nº 4.419/2006",),
         ("10 (dez) dias", "5 (cinco) dias contados")),
    ],
    ids=["inscription: escolar art. 11", "fretamento: art. 24"],
)
def test_the_refusal_states_the_appeal_of_its_law_and_stage(
    engine: Engine, case: str, expected: tuple[str, ...], absent: tuple[str, ...]
) -> None:
    """Issue 23, class 2: an inscription refused in the selection was told '10 dias, ao
    Secretário (Lei 9.784)'; escolar art. 11 gives 5 days, to the Prefeito."""
    if case == "inscription":
        data, issued = example(engine, IND), ISSUED
    else:
        data, issued = fretamento_refusal(engine), date(2026, 11, 27)
    draft = engine.draft(IND, data, issued)
    text = poppler_text(draft.pdf)
    for words in expected:
        assert words in text, words
    for words in absent:
        assert words not in text, words
