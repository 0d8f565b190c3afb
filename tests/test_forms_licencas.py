"""The other transporte-escolar licences end to end (Lei nº 4.515/2007).

Licença Temporária (arts. 4º and 5º), Licença Especial (art. 20), autorização de
publicidade (art. 17, §§ 2º and 3º) and requerimento de troca de veículo (art. 17,
§ 1º): examples check on their own dates, each requirement is reported with its
article, validities are computed, drafts render and are read back.
"""

from __future__ import annotations

import copy
import io
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from formcases import DELETE, Change, at, chain, example, pdf_text, setter
from historycases import FakeHistory, alvara_on_file
from pypdf import PdfReader

from lavra.checking.computations import ComputeInput, PriorRecord, find_computation
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.transporte_escolar import licenca_temporaria, licencas
from lavra_americana.transporte_escolar.licenca_temporaria import (
    _days_items,
    inclusive_days,
    licenca_temporaria_escolar,
)

COMPUTATIONS = {**licenca_temporaria.COMPUTATIONS, **licencas.COMPUTATIONS}
IMPLEMENTED = (*licenca_temporaria.IMPLEMENTED, *licencas.IMPLEMENTED)

LTE = "licenca-temporaria-escolar"
LEE = "licenca-especial-escolar"
APE = "autorizacao-publicidade-escolar"
TRO = "requerimento-troca-veiculo-escolar"
E = "transporte-escolar#"
ISSUED = date(2026, 12, 15)


def on_file(form: str, data: dict[str, Any]) -> FakeHistory | None:
    """The registry holding the alvará a licença temporária or publicidade rests on
    (issue 10: the act it depends on is checked in the registry)."""
    if form not in (LTE, APE):
        return None
    history = alvara_on_file(data)
    extended = data.get("prorrogacao")
    if form == LTE and isinstance(extended, dict):
        # the licence a prorrogação extends is in the registry too (class 8)
        history.records += (earlier_licence(data),)
    return history


def earlier_licence(form_data: dict[str, Any], **changes: Any) -> PriorRecord:
    """The Licença Temporária the data's prorrogação extends, as the registry holds it."""
    extended = form_data["prorrogacao"]
    until = date.fromisoformat(extended["valida_ate_anterior"])
    held = {"modalidade": "veiculo_substituto", "titular": dict(form_data["titular"]),
            "veiculo": dict(form_data["veiculo"])}
    held.update(changes.pop("data", {}))
    start = changes.pop("start", until - timedelta(days=19))
    fields: dict[str, Any] = {"form": LTE, "series": "LTE-ESC", "valid_until": until, **changes}
    return PriorRecord(extended["licenca_anterior"].split()[-1], start, held, **fields)


def report_of(engine: Engine, form: str, data: dict[str, Any]) -> Report:
    return engine.prepare(form, data, issued_on=ISSUED, history=on_file(form, data)).report


# A substitute driver (art. 4º) who meets art. 7º except IV, VII and IX on 17/03/2026.
SUBSTITUTE = {
    "nome": "Paulo Exemplo Substituto",
    "cpf": "111.444.777-35",
    "data_nascimento": "1985-04-10",
    "endereco": {
        "logradouro": "Rua dos Ipês",
        "numero": "12",
        "bairro": "Centro",
        "municipio": "Americana",
        "uf": "SP",
        "cep": "13465-000",
    },
    "residente_desde": "2010-01-15",
    "cnh": {"numero": "85263635330", "categoria": "D", "validade": "2030-08-20"},
    "infracoes": [],
}
SUBSTITUTE_DOCUMENTS = {
    "antecedentes_criminais": {
        "apresentado": True,
        "orgao_emissor": "SSP/SP",
        "data_emissao": "2026-03-10",
    },
    "curso_condutor_escolar": {
        "apresentado": True,
        "numero": "CCE-2022-0001",
        "orgao_emissor": "Centro de Formação de Condutores Exemplo",
        "data_emissao": "2022-06-01",
    },
    "prontuario_cnh": {
        "apresentado": True,
        "orgao_emissor": "DETRAN-SP",
        "data_emissao": "2026-03-12",
    },
}


def health(data: dict[str, Any]) -> None:
    """The example turned into a substitute-driver licence (art. 4º, caput)."""
    for key in ("ocorrencia", "veiculo_substituto", "condutor_veiculo_substituto"):
        data.pop(key, None)
    data["modalidade"] = "condutor_saude"
    data["condutor_substituto"] = copy.deepcopy(SUBSTITUTE)
    data["documentos_substituto"] = copy.deepcopy(SUBSTITUTE_DOCUMENTS)
    data["laudo_medico"] = {
        "apresentado": True,
        "orgao_emissor": "Dr. Exemplo, CRM-SP 1",
        "data_emissao": "2026-03-16",
        "afastamento_ate": "2026-04-15",
    }


# ------------------------------------------------------------------ every example


@pytest.mark.parametrize("form", [LTE, LEE, APE, TRO])
def test_every_example_is_complete_on_its_own_date(engine: Engine, form: str) -> None:
    report = report_of(engine, form, example(engine, form))
    assert report.complete, [i.to_json() for i in report.pending]
    assert report.on.year == 2026


def test_substitute_driver_case_is_complete(engine: Engine) -> None:
    data = example(engine, LTE)
    health(data)
    report = report_of(engine, LTE, data)
    assert report.complete, [i.to_json() for i in report.pending]


def test_substitution_for_other_reasons_is_no_licence(engine: Engine) -> None:
    """Art. 4º, parágrafo único, creates no licence: the licensed driver communicates the
    substitution (form comunicacao-substituicao-condutor, tests/test_forms_comunicacao.py);
    the Licença Temporária refuses that case."""
    data = example(engine, LTE)
    health(data)
    data.pop("laudo_medico")
    data["modalidade"] = "condutor_outros_motivos"
    report = report_of(engine, LTE, data)
    assert not report.complete
    assert at(report, "/modalidade").status is Status.INVALID
    assert E + "art4_par1u" not in engine.content.form(LTE).basis


def test_the_computations_are_found_by_name() -> None:
    for name, function in COMPUTATIONS.items():
        assert find_computation(pacote(), name) is function
    assert E + "art5_inc2" in IMPLEMENTED and E + "art20_par2" in IMPLEMENTED


# ------------------------------------------------------------------ Licença Temporária

TEMPORARIA_CASES: list[tuple[str, Change, str, Status, str]] = [
    (
        "art. 5º, II: veículo substituto com 11 anos de fabricação",
        setter("/veiculo_substituto/ano_fabricacao", 2015),
        "/veiculo_substituto/ano_fabricacao",
        Status.INVALID,
        "art5_inc2",
    ),
    (
        "art. 5º, II: veículo substituto não semelhante ao substituído",
        setter("/veiculo_substituto/semelhante", False),
        "/veiculo_substituto/semelhante",
        Status.INVALID,
        "art5_inc2",
    ),
    (
        "art. 5º, II: vistoria depois de 24 horas da ocorrência",
        setter("/veiculo_substituto/vistoria/hora", "07:11"),
        "/veiculo_substituto/vistoria",
        Status.INVALID,
        "art5_inc2",
    ),
    (
        "art. 5º, I: comparecimento depois de 24 horas da ocorrência não programada",
        setter("/ocorrencia/comparecimento", {"data": "2026-03-17", "hora": "08:00"}),
        "/ocorrencia/comparecimento",
        Status.INVALID,
        "art5_inc1",
    ),
    (
        "art. 5º, I: ocorrência não programada sem comparecimento",
        setter("/ocorrencia/comparecimento", DELETE),
        "/ocorrencia/comparecimento",
        Status.MISSING,
        "art5_inc1",
    ),
    (
        "art. 5º, IV: ocorrência programada sem contato prévio",
        setter("/ocorrencia/programada", True),
        "/ocorrencia/contato_previo",
        Status.MISSING,
        "art5_inc4",
    ),
    (
        "art. 5º, IV: contato no próprio dia da ocorrência programada",
        chain(
            setter("/ocorrencia/programada", True),
            setter("/ocorrencia/contato_previo", "2026-03-16"),
        ),
        "/ocorrencia/contato_previo",
        Status.INVALID,
        "art5_inc4",
    ),
    (
        "art. 5º, III: condutor do veículo substituto com CNH B",
        setter("/condutor_veiculo_substituto/cnh/categoria", "B"),
        "/condutor_veiculo_substituto/cnh",
        Status.INVALID,
        "art5_inc3",
    ),
    (
        "art. 5º, III: condutor do veículo substituto sem o curso",
        setter("/condutor_veiculo_substituto/curso_condutor_escolar", DELETE),
        "/condutor_veiculo_substituto/curso_condutor_escolar",
        Status.MISSING,
        "art5_inc3",
    ),
    (
        "art. 5º: prorrogação de licença já vencida",
        setter(
            "/prorrogacao",
            {
                "licenca_anterior": "LTE-ESC 0001/2026",
                "valida_ate_anterior": "2026-03-01",
                "necessidade": {"apresentado": True, "data_emissao": "2026-03-16"},
            },
        ),
        "/prorrogacao/valida_ate_anterior",
        Status.INVALID,
        "art5",
    ),
    (
        "art. 4º: sem laudo médico",
        chain(health, setter("/laudo_medico", DELETE)),
        "/laudo_medico",
        Status.MISSING,
        "art4",
    ),
    (
        "art. 4º: afastamento já encerrado na expedição",
        chain(health, setter("/laudo_medico/afastamento_ate", "2026-03-16")),
        "/laudo_medico/afastamento_ate",
        Status.INVALID,
        "art4",
    ),
    (
        "art. 4º c/c art. 7º, I: substituto com 20 anos",
        chain(health, setter("/condutor_substituto/data_nascimento", "2005-06-01")),
        "/condutor_substituto/data_nascimento",
        Status.INVALID,
        "art7_inc1",
    ),
    (
        "art. 4º c/c art. 7º, II: substituto com CNH C",
        chain(health, setter("/condutor_substituto/cnh/categoria", "C")),
        "/condutor_substituto/cnh",
        Status.INVALID,
        "art7_inc2",
    ),
    (
        "art. 4º c/c art. 7º, III: residência há menos de 3 anos",
        chain(health, setter("/condutor_substituto/residente_desde", "2024-01-10")),
        "/condutor_substituto/residente_desde",
        Status.INVALID,
        "art7_inc3",
    ),
    (
        "art. 4º c/c art. 7º, V: sem atestado de antecedentes",
        chain(health, setter("/documentos_substituto/antecedentes_criminais", DELETE)),
        "/documentos_substituto/antecedentes_criminais",
        Status.MISSING,
        "art7_inc5",
    ),
    (
        "art. 4º c/c art. 7º, VIII: infração gravíssima nos últimos 12 meses",
        chain(
            health,
            setter(
                "/condutor_substituto/infracoes",
                [{"data": "2025-10-01", "gravidade": "gravissima"}],
            ),
        ),
        "/condutor_substituto/infracoes",
        Status.INVALID,
        "art7_inc8",
    ),
]


@pytest.mark.parametrize(
    ("case", "change", "field", "status", "fragment"),
    TEMPORARIA_CASES,
    ids=[c[0] for c in TEMPORARIA_CASES],
)
def test_temporaria_requirement_is_reported_with_its_article(
    engine: Engine, case: str, change: Change, field: str, status: Status, fragment: str
) -> None:
    data = example(engine, LTE)
    change(data)
    report = report_of(engine, LTE, data)
    found = at(report, field)
    assert found.status is status, found
    assert E + fragment in found.basis, found
    assert not report.complete


def test_substitute_is_exempt_from_vehicle_inspection_and_edital(engine: Engine) -> None:
    data = example(engine, LTE)
    health(data)
    report = report_of(engine, LTE, data)
    exempt = {c for i in report.items if i.status is Status.NOT_APPLICABLE for c in i.basis}
    assert {E + "art7_inc4", E + "art7_inc7", E + "art7_inc9"} <= exempt
    assert report.complete


def test_vehicle_licence_lasts_20_days_from_issue(engine: Engine) -> None:
    data = example(engine, LTE)
    prepared = engine.prepare(LTE, data, issued_on=ISSUED, history=on_file(LTE, data))
    # 17/03 is the first of the 20 days (art. 5º), counted inclusively: 17/03 to 05/04.
    assert prepared.computed["inicio_vigencia"] == date(2026, 3, 17)
    assert prepared.computed["valido_ate"] == date(2026, 4, 5)
    assert inclusive_days(date(2026, 3, 17), date(2026, 4, 5)) == 20
    assert prepared.computed["modalidade"] == "veiculo_substituto"


def test_vehicle_licence_issued_on_05_12_ends_on_24_12_not_25_12(engine: Engine) -> None:
    # "de 05/12 a 25/12" is 21 days: art. 5º allows at most 20.
    assert inclusive_days(date(2026, 12, 5), date(2026, 12, 25)) == 21
    (refused,) = _days_items(date(2026, 12, 5), date(2026, 12, 25), 20)
    assert refused.status is Status.INVALID and "21 dias" in refused.message
    assert _days_items(date(2026, 12, 5), date(2026, 12, 24), 20) == []
    data = example(engine, LTE)
    data["ocorrencia"].update({"data": "2026-12-04", "comparecimento": {
        "data": "2026-12-04", "hora": "14:00"}})
    data["veiculo_substituto"]["vistoria"].update({"data": "2026-12-05"})
    data["alvara"]["valido_ate"] = "2027-12-31"
    data["data_expedicao"] = "2026-12-05"
    issued = date(2026, 12, 5)
    prepared = engine.prepare(LTE, data, issued_on=issued, history=on_file(LTE, data))
    assert prepared.computed["valido_ate"] == date(2026, 12, 24)
    assert "05/12/2026 a 24/12/2026" in prepared.computed["vigencia_explicacao"]


def test_prorrogacao_counts_20_more_days_from_the_previous_end(engine: Engine) -> None:
    data = example(engine, LTE)
    data["prorrogacao"] = {
        "licenca_anterior": "LTE-ESC 0001/2026",
        "valida_ate_anterior": "2026-03-20",
        "necessidade": {"apresentado": True, "data_emissao": "2026-03-16"},
    }
    prepared = engine.prepare(LTE, data, issued_on=ISSUED, history=on_file(LTE, data))
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["inicio_vigencia"] == date(2026, 3, 21)
    assert prepared.computed["valido_ate"] == date(2026, 4, 9)


EXTENSION = {
    "licenca_anterior": "LTE-ESC 0001/2026",
    "valida_ate_anterior": "2026-03-20",
    "necessidade": {"apresentado": True, "data_emissao": "2026-03-16"},
}


@pytest.mark.parametrize(
    ("registry", "words"),
    [
        ("ausente", "não consta do registro"),
        ("cancelada", "foi cancelado"),
        ("outro_veiculo", "é do veículo de placa"),
        ("outro_titular", "é de outro titular (CPF 111.444.777-35)"),
        ("saude", "não é licença para veículo substituto"),
        ("posterior", "posterior a esta expedição"),
        ("outra_validade", "corrija a validade"),
    ],
)
def test_prorrogacao_checks_the_licence_it_extends_in_the_registry(
    engine: Engine, registry: str, words: str
) -> None:
    data = example(engine, LTE)
    data["prorrogacao"] = copy.deepcopy(EXTENSION)
    history = alvara_on_file(data)
    changed: dict[str, Any] = {
        "ausente": {},
        "cancelada": {"cancelled": True, "cancel_reason": "expedida por engano"},
        "outro_veiculo": {"data": {"veiculo": {"placa": "XYZ9A87"}}},
        "outro_titular": {"data": {"titular": {"cpf": "11144477735"}}},  # stored bare
        "saude": {"data": {"modalidade": "condutor_saude"}},
        "posterior": {"start": date(2026, 3, 18)},
        "outra_validade": {"valid_until": date(2026, 3, 19)},
    }[registry]
    if registry != "ausente":
        history.records += (earlier_licence(data, **changed),)
    report = engine.prepare(LTE, data, issued_on=ISSUED, history=history).report
    found = [i for i in report.pending if words in i.message]
    assert found, [i.message for i in report.pending]
    assert "11144477735" not in found[0].message  # a CPF is printed formatted
    assert found[0].field.startswith("/prorrogacao")


@pytest.mark.parametrize(
    ("leave", "expected"),
    [
        ("2026-04-15", date(2026, 4, 15)),  # the laudo's leave ends first
        ("2027-06-30", date(2026, 12, 31)),
    ],  # never beyond the alvará
)
def test_health_licence_lasts_while_the_leave_within_the_alvara(
    engine: Engine, leave: str, expected: date
) -> None:
    data = example(engine, LTE)
    health(data)
    data["laudo_medico"]["afastamento_ate"] = leave
    prepared = engine.prepare(LTE, data, issued_on=ISSUED, history=on_file(LTE, data))
    assert prepared.report.complete
    assert prepared.computed["valido_ate"] == expected


def test_temporaria_may_not_be_post_dated(pack_dir: Path, engine: Engine) -> None:
    data = example(engine, LTE)
    result = licenca_temporaria_escolar(
        ComputeInput(
            form_id=LTE,
            data=data,
            on=date(2026, 3, 17),
            pack_dir=pack_dir,
            history=None,
            draft=True,
            issued_on=date(2026, 3, 16),
        )
    )
    bad = [i for i in result.items if i.field == "/data_expedicao"]
    assert bad and bad[0].status is Status.INVALID


def test_temporaria_drafts_read_back(engine: Engine) -> None:
    text = pdf_text(engine.draft(LTE, example(engine, LTE)).pdf)
    assert "Licença Temporária" in text and "veículo substituto" in text
    assert "válida de 17/03/2026 a 05/04/2026" in text
    assert "SUB-2B34" in text or "SUB2B34" in text
    assert "Ana Exemplo Moreira" in text  # the driver of the substitute vehicle (III)
    # The termo of art. 5º, III is its own act (termo-condutor-substituto), signed after
    # this licence and resting on it: the licence does not say it was signed already.
    assert "assinou o termo" not in text
    assert ("depois de assinar, à vista desta licença, o Termo de Responsabilidade do "
            "Condutor do Veículo Substituto (art. 5º, III)") in text
    data = example(engine, LTE)
    health(data)
    text = pdf_text(engine.draft(LTE, data).pdf)
    assert "Paulo Exemplo Substituto" in text
    assert "afastamento até 15/04/2026" in text
    assert "dispensados os incisos IV, VII e IX do art. 7º" in text


# ------------------------------------------------------------------ Licença Especial

ESPECIAL_CASES: list[tuple[str, Change, str, Status, str]] = [
    (
        "art. 20, § 2º: estudante residente em outro Município",
        setter("/estudantes/1/municipio_residencia", "Sumaré"),
        "/estudantes/1/municipio_residencia",
        Status.INVALID,
        "art20_par2",
    ),
    (
        "art. 20: escola fora de Americana",
        setter("/estudantes/0/escola/municipio", "Campinas"),
        "/estudantes/0/escola/municipio",
        Status.INVALID,
        "art20",
    ),
    (
        "art. 20, § 1º, I: alvará de origem vencido",
        setter("/documentos/alvara_origem/validade", "2026-01-31"),
        "/documentos/alvara_origem/validade",
        Status.INVALID,
        "art20_par1_inc1",
    ),
    (
        "art. 20, § 1º, II: CNH de categoria C",
        setter("/requerente/cnh/categoria", "C"),
        "/requerente/cnh",
        Status.INVALID,
        "art20_par1_inc2",
    ),
    (
        "art. 20, § 1º, III: sem CRLV",
        setter("/documentos/crlv", DELETE),
        "/documentos/crlv",
        Status.MISSING,
        "art20_par1_inc3",
    ),
    (
        "art. 20, § 1º, IV: sem autorização intermunicipal",
        setter("/documentos/autorizacao_intermunicipal", DELETE),
        "/documentos/autorizacao_intermunicipal",
        Status.MISSING,
        "art20_par1_inc4",
    ),
    (
        "art. 20, § 1º, V, c/c art. 17, I: veículo com 11 anos",
        setter("/veiculo/ano_fabricacao", 2015),
        "/veiculo/ano_fabricacao",
        Status.INVALID,
        "art20_par1_inc5",
    ),
    (
        "art. 20, § 2º: lista de passageiros sem visto da origem",
        setter("/documentos/lista_passageiros/vistado_municipio_origem", False),
        "/documentos/lista_passageiros",
        Status.INVALID,
        "art20_par2",
    ),
    (
        "art. 20, § 2º: sem cópias dos contratos",
        setter("/documentos/contratos", DELETE),
        "/documentos/contratos",
        Status.MISSING,
        "art20_par2",
    ),
]


@pytest.mark.parametrize(
    ("case", "change", "field", "status", "fragment"),
    ESPECIAL_CASES,
    ids=[c[0] for c in ESPECIAL_CASES],
)
def test_especial_requirement_is_reported_with_its_article(
    engine: Engine, case: str, change: Change, field: str, status: Status, fragment: str
) -> None:
    data = example(engine, LEE)
    change(data)
    report = report_of(engine, LEE, data)
    found = at(report, field)
    assert found.status is status, found
    assert E + fragment in found.basis, found
    assert not report.complete


@pytest.mark.parametrize(
    ("alvara", "state", "expected"),
    [
        ("2026-12-31", "2027-01-19", date(2026, 12, 31)),
        ("2026-12-31", "2026-09-30", date(2026, 9, 30)),
    ],
)
def test_especial_lasts_while_origin_alvara_and_state_authorisation(
    engine: Engine, alvara: str, state: str, expected: date
) -> None:
    data = example(engine, LEE)
    data["documentos"]["alvara_origem"]["validade"] = alvara
    data["documentos"]["autorizacao_intermunicipal"]["validade"] = state
    prepared = engine.prepare(LEE, data, issued_on=ISSUED)
    assert prepared.report.complete
    assert prepared.computed["valido_ate"] == expected


def test_especial_draft_reads_back(engine: Engine) -> None:
    text = pdf_text(engine.draft(LEE, example(engine, LEE)).pdf)
    assert "Licença Especial" in text
    assert "Lei estadual nº 11.258, de 6 de novembro de 2002" in text
    assert "válida de 02/02/2026 a 31/12/2026" in text
    assert "Beatriz Exemplo Lima, residente em Nova Odessa" in text
    assert "exclusivamente alunos do seu Município de origem" in text


# ------------------------------------------------------------------ publicidade

PUBLICIDADE_CASES: list[tuple[str, Change, str, Status, str]] = [
    (
        "art. 17, § 2º: publicidade fora do vidro traseiro",
        setter("/publicidade/local", "lateral"),
        "/publicidade/local",
        Status.INVALID,
        "art17_par2",
    ),
    (
        "art. 17, § 2º: critérios da Resolução CONTRAN nº 73/1998 não atendidos",
        setter("/publicidade/resolucao_contran_atendida", False),
        "/publicidade/resolucao_contran_atendida",
        Status.INVALID,
        "art17_par2",
    ),
    (
        "art. 17, § 2º, I, a: conotação política",
        setter("/verificacao_conteudo/sem_conotacao_politica_imoral_discriminatoria", False),
        "/verificacao_conteudo/sem_conotacao_politica_imoral_discriminatoria",
        Status.INVALID,
        "art17_par2_inc1_ali1",
    ),
    (
        "art. 17, § 2º, I, b: apelo a produto prejudicial à saúde",
        setter("/verificacao_conteudo/sem_apelo_produtos_prejudiciais", False),
        "/verificacao_conteudo/sem_apelo_produtos_prejudiciais",
        Status.INVALID,
        "art17_par2_inc1_ali2",
    ),
    (
        "art. 17, § 2º, I, c: anúncio de bebida alcoólica",
        setter("/verificacao_conteudo/sem_bebidas_cigarros_roupas_intimas", False),
        "/verificacao_conteudo/sem_bebidas_cigarros_roupas_intimas",
        Status.INVALID,
        "art17_par2_inc1_ali3",
    ),
    (
        "art. 17, § 2º, I, d: promoção de bingo",
        setter("/verificacao_conteudo/sem_bares_boates_bingos", False),
        "/verificacao_conteudo/sem_bares_boates_bingos",
        Status.INVALID,
        "art17_par2_inc1_ali4",
    ),
    (
        "art. 17, § 2º, I: critério não verificado",
        setter("/verificacao_conteudo/sem_bares_boates_bingos", DELETE),
        "/verificacao_conteudo/sem_bares_boates_bingos",
        Status.MISSING,
        "art17_par2_inc1_ali4",
    ),
    (
        "art. 17, § 3º: sem croqui",
        setter("/croqui", DELETE),
        "/croqui",
        Status.MISSING,
        "art17_par3",
    ),
    (
        "art. 17, § 3º: sem as dimensões",
        setter("/publicidade/dimensoes", DELETE),
        "/publicidade/dimensoes",
        Status.MISSING,
        "art17_par3",
    ),
    (
        "art. 17, § 3º: requerimento posterior à expedição",
        setter("/requerimento/data", "2026-04-07"),
        "/requerimento/data",
        Status.INVALID,
        "art17_par3",
    ),
    (
        "art. 17, § 2º: alvará do veículo vencido",
        setter("/alvara/valido_ate", "2026-03-31"),
        "/alvara/valido_ate",
        Status.INVALID,
        "art17_par2",
    ),
]


@pytest.mark.parametrize(
    ("case", "change", "field", "status", "fragment"),
    PUBLICIDADE_CASES,
    ids=[c[0] for c in PUBLICIDADE_CASES],
)
def test_publicidade_requirement_is_reported_with_its_article(
    engine: Engine, case: str, change: Change, field: str, status: Status, fragment: str
) -> None:
    data = example(engine, APE)
    change(data)
    report = report_of(engine, APE, data)
    found = at(report, field)
    assert found.status is status, found
    assert E + fragment in found.basis, found
    assert not report.complete


def test_publicidade_draft_reads_back(engine: Engine) -> None:
    data = example(engine, APE)
    prepared = engine.prepare(APE, data, issued_on=ISSUED, history=on_file(APE, data))
    assert prepared.computed["valido_ate"] == date(2026, 12, 31)
    text = pdf_text(engine.draft(APE, example(engine, APE)).pdf)
    assert "vidro traseiro" in text
    assert "Resolução nº 73 do CONTRAN" in text
    assert "Papelaria Exemplo Ltda." in text
    assert "60 cm × 20 cm" in text
    assert "bingos" in text and "Maria Exemplo Fiscal" in text
    assert "de 06/04/2026 a 31/12/2026" in text


# ------------------------------------------------------------------ troca de veículo

TROCA_CASES: list[tuple[str, Change, str, Status, str]] = [
    (
        "art. 17, § 1º: recibo sem firma reconhecida",
        setter("/documentos/recibo_compra_venda/firma_reconhecida", False),
        "/documentos/recibo_compra_venda",
        Status.INVALID,
        "art17_par1",
    ),
    (
        "art. 17, § 1º: sem recibo de compra e venda",
        setter("/documentos/recibo_compra_venda", DELETE),
        "/documentos/recibo_compra_venda",
        Status.MISSING,
        "art17_par1",
    ),
    (
        "art. 17, § 1º: sem documento de porte obrigatório",
        setter("/documentos/documento_porte_obrigatorio", DELETE),
        "/documentos/documento_porte_obrigatorio",
        Status.MISSING,
        "art17_par1",
    ),
    (
        "art. 17, § 1º: veículo novo com a placa do substituído",
        setter("/veiculo_novo/placa", "EXE1A23"),
        "/veiculo_novo/placa",
        Status.INVALID,
        "art17_par1",
    ),
    (
        "art. 17, I: veículo novo com 11 anos na data do requerimento",
        setter("/veiculo_novo/ano_fabricacao", 2015),
        "/veiculo_novo/ano_fabricacao",
        Status.INVALID,
        "art17_inc1",
    ),
    (
        "art. 17, II: veículo novo licenciado em outro Município",
        setter("/veiculo_novo/municipio_licenciamento", "Campinas"),
        "/veiculo_novo/municipio_licenciamento",
        Status.INVALID,
        "art17_inc2",
    ),
    (
        "art. 17, III: sem laudo de vistoria da CIRETRAN",
        setter("/documentos/laudo_vistoria_ciretran", DELETE),
        "/documentos/laudo_vistoria_ciretran",
        Status.MISSING,
        "art17_inc3",
    ),
    (
        "art. 17, IV: apólice vencida",
        setter("/veiculo_novo/seguro/validade", "2026-05-10"),
        "/veiculo_novo/seguro/validade",
        Status.INVALID,
        "art17_inc4",
    ),
    (
        "art. 17, V: pneus ressolados",
        setter("/veiculo_novo/pneus_regulares", False),
        "/veiculo_novo/pneus_regulares",
        Status.INVALID,
        "art17_inc5",
    ),
]


@pytest.mark.parametrize(
    ("case", "change", "field", "status", "fragment"),
    TROCA_CASES,
    ids=[c[0] for c in TROCA_CASES],
)
def test_troca_requirement_is_reported_with_its_article(
    engine: Engine, case: str, change: Change, field: str, status: Status, fragment: str
) -> None:
    data = example(engine, TRO)
    change(data)
    report = report_of(engine, TRO, data)
    found = at(report, field)
    assert found.status is status, found
    assert E + fragment in found.basis, found
    assert not report.complete


def test_vehicle_of_2016_is_within_the_limit_through_2026(engine: Engine) -> None:
    data = example(engine, TRO)
    data["veiculo_novo"]["ano_fabricacao"] = 2016
    assert report_of(engine, TRO, data).complete
    data["data_requerimento"] = "2027-01-04"
    data["veiculo_novo"]["seguro"]["validade"] = "2027-12-31"
    found = at(report_of(engine, TRO, data), "/veiculo_novo/ano_fabricacao")
    assert found.status is Status.INVALID


def test_troca_draft_and_fillable_round_trip(engine: Engine) -> None:
    data = example(engine, TRO)
    text = pdf_text(engine.draft(TRO, copy.deepcopy(data)).pdf)
    assert "substituição do veículo" in text
    assert "firma reconhecida" in text
    assert "art. 17, § 1º" in text
    pdf = engine.prefill(TRO, copy.deepcopy(data))
    fields = PdfReader(io.BytesIO(pdf)).get_fields() or {}
    assert "veiculo_novo/ano_fabricacao" in fields
    back = engine.read(pdf)
    assert back.form == TRO
    assert back.data == data
    assert back.report.complete
