"""The transporte-escolar licence forms end to end (Lei nº 4.515/2007).

Requerimento de inscrição (art. 7º), alvará (arts. 3º, 8º, 9º, 13, 16 to 18) and
requerimento de renovação (art. 13, § 5º): examples check, each requirement is
reported with its article, drafts render and are read back.
"""

from __future__ import annotations

import copy
import io
import json
import shutil
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from formcases import DELETE, Change, at, chain, example, pdf_text, setter
from pypdf import PdfReader

from lavra.checking.computations import ComputeInput, find_computation
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.comum.sources import clear_caches
from lavra_americana.transporte_escolar import alvara, requerimentos
from lavra_americana.transporte_escolar.alvara import alvara_transporte_escolar, validity

COMPUTATIONS = {**requerimentos.COMPUTATIONS, **alvara.COMPUTATIONS}

INS = "requerimento-inscricao-escolar"
ALV = "alvara-transporte-escolar"
REN = "requerimento-renovacao-escolar"
E = "transporte-escolar#"
# The alvará is checked as if issued on this day (it may not be post-dated).
ISSUED = date(2026, 12, 15)


def report_of(engine: Engine, form: str, data: dict[str, Any]) -> Report:
    return engine.prepare(form, data, issued_on=ISSUED).report


# ------------------------------------------------------------------ every example


@pytest.mark.parametrize("form", [INS, ALV, REN])
def test_every_example_is_complete_on_its_own_date(engine: Engine, form: str) -> None:
    report = report_of(engine, form, example(engine, form))
    assert report.complete, [i.to_json() for i in report.pending]
    assert report.on.year == 2026
    documents = [i for i in report.items if i.field.startswith("/documentos/")]
    assert all(i.basis for i in documents)
    assert documents or engine.content.form(form).series is not None


def test_the_computations_are_found_by_name() -> None:
    for name, function in COMPUTATIONS.items():
        assert find_computation(pacote(), name) is function


# ------------------------------------------------------------------ inscrição (art. 7º)

INSCRICAO_CASES: list[tuple[str, Change, str, Status, str]] = [
    (
        "art. 7º, I: 20 anos na data do requerimento",
        setter("/candidato/data_nascimento", "2005-06-01"),
        "/candidato/data_nascimento",
        Status.INVALID,
        "art7_inc1",
    ),
    (
        "art. 7º, II: categoria B não habilita",
        setter("/candidato/cnh/categoria", "B"),
        "/candidato/cnh/categoria",
        Status.INVALID,
        "art7_inc2",
    ),
    (
        "art. 7º, II: CNH vencida",
        setter("/candidato/cnh/validade", "2026-01-31"),
        "/candidato/cnh/validade",
        Status.INVALID,
        "art7_inc2",
    ),
    (
        "art. 7º, III: residência há menos de 3 anos",
        setter("/candidato/residente_desde", "2023-03-05"),
        "/candidato/residente_desde",
        Status.INVALID,
        "art7_inc3",
    ),
    (
        "art. 7º, III: residência em outro Município",
        setter("/candidato/endereco/municipio", "Campinas"),
        "/candidato/endereco",
        Status.INVALID,
        "art7_inc3",
    ),
    (
        "art. 7º, IV, c/c art. 17, I: veículo com 11 anos de fabricação",
        setter("/veiculo/ano_fabricacao", 2015),
        "/veiculo/ano_fabricacao",
        Status.INVALID,
        "art17_inc1",
    ),
    (
        "art. 17, II: veículo licenciado em outro Município",
        setter("/veiculo/municipio_licenciamento", "Campinas"),
        "/veiculo/municipio_licenciamento",
        Status.INVALID,
        "art17_inc2",
    ),
    (
        "art. 17, IV: apólice vencida na data do requerimento",
        setter("/veiculo/seguro/validade", "2026-03-01"),
        "/veiculo/seguro",
        Status.INVALID,
        "art17_inc4",
    ),
    (
        "art. 17, IV: apólice sem cobertura dos passageiros",
        setter("/veiculo/seguro/cobertura_passageiros", False),
        "/veiculo/seguro",
        Status.INVALID,
        "art17_inc4",
    ),
    (
        "art. 7º, V: atestado de antecedentes não apresentado",
        setter("/documentos/antecedentes_criminais", DELETE),
        "/documentos/antecedentes_criminais",
        Status.MISSING,
        "art7_inc5",
    ),
    (
        "art. 7º, VI: curso de condutor escolar não apresentado",
        setter("/documentos/curso_condutor_escolar/apresentado", False),
        "/documentos/curso_condutor_escolar",
        Status.MISSING,
        "art7_inc6",
    ),
    (
        "art. 7º, VII: laudo da CIRETRAN exigido do titular",
        setter("/documentos/laudo_vistoria_ciretran", DELETE),
        "/documentos/laudo_vistoria_ciretran",
        Status.MISSING,
        "art7_inc7",
    ),
    (
        "art. 7º, VIII: infração gravíssima nos últimos 12 meses",
        setter("/infracoes", [{"data": "2025-10-01", "gravidade": "gravissima"}]),
        "/infracoes",
        Status.INVALID,
        "art7_inc8",
    ),
    (
        "art. 7º, VIII: reincidência em infrações médias",
        setter(
            "/infracoes",
            [
                {"data": "2025-06-01", "gravidade": "media"},
                {"data": "2026-02-01", "gravidade": "media"},
            ],
        ),
        "/infracoes",
        Status.INVALID,
        "art7_inc8",
    ),
    (
        "art. 7º, VIII: certidão de prontuário não apresentada",
        setter("/documentos/prontuario_cnh", DELETE),
        "/documentos/prontuario_cnh",
        Status.MISSING,
        "art7_inc8",
    ),
    (
        "art. 7º, IX: exigências do Edital não atendidas",
        setter("/edital/exigencias_atendidas", False),
        "/edital",
        Status.INVALID,
        "art7_inc9",
    ),
    (
        "art. 9º, § 3º: auxiliar sem o condutor titular a que se vincula",
        setter("/funcao", "auxiliar"),
        "/condutor_titular",
        Status.MISSING,
        "art9",
    ),
]


@pytest.mark.parametrize(
    ("case", "change", "field", "status", "fragment"),
    INSCRICAO_CASES,
    ids=[c[0] for c in INSCRICAO_CASES],
)
def test_inscricao_requirement_is_reported_with_its_article(
    engine: Engine, case: str, change: Change, field: str, status: Status, fragment: str
) -> None:
    data = example(engine, INS)
    change(data)
    report = report_of(engine, INS, data)
    found = at(report, field)
    assert found.status is status, found
    assert E + fragment in found.basis, found
    assert not report.complete


def test_age_counts_on_the_21st_birthday_itself(engine: Engine) -> None:
    data = example(engine, INS)
    data["candidato"]["data_nascimento"] = "2005-03-04"  # 21 anos em 04/03/2026
    assert report_of(engine, INS, data).complete
    data["candidato"]["data_nascimento"] = "2005-03-05"
    found = at(report_of(engine, INS, data), "/candidato/data_nascimento")
    assert found.status is Status.INVALID
    assert "completará 21 anos em 05/03/2026" in found.message


def test_infractions_older_than_12_months_do_not_count(engine: Engine) -> None:
    data = example(engine, INS)
    data["infracoes"] = [{"data": "2025-03-04", "gravidade": "gravissima"}]
    assert report_of(engine, INS, data).complete
    data["infracoes"][0]["data"] = "2025-03-05"
    assert at(report_of(engine, INS, data), "/infracoes").status is Status.INVALID


def test_auxiliary_driver_is_exempt_from_vehicle_and_inspection(engine: Engine) -> None:
    data = example(engine, INS)
    data["funcao"] = "auxiliar"
    del data["veiculo"]
    for name in ("crlv", "apolice_seguro", "laudo_vistoria_ciretran"):
        del data["documentos"][name]
    data["condutor_titular"] = {
        "nome": "Maria Titular Exemplo",
        "cpf": "645.922.328-95",
        "alvara": "ALV-ESC 0007/2026",
    }
    prepared = engine.prepare(INS, data)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert at(prepared.report, "/documentos/laudo_vistoria_ciretran").status is (
        Status.NOT_APPLICABLE
    )
    assert prepared.computed["funcao"] == "auxiliar"
    assert "dispensados os incisos IV e VII" in prepared.computed["explicacao"]


def test_inscricao_draft_lists_what_the_law_finds_missing(engine: Engine) -> None:
    data = example(engine, INS)
    data["candidato"]["data_nascimento"] = "2005-06-01"
    rendered = engine.draft(INS, data)
    text = pdf_text(rendered.pdf)
    assert "MINUTA" in text and "José Exemplo dos Santos" in text
    assert "completará 21 anos em 01/06/2026" in text
    assert "art. 7º, I, da Lei nº 4.515/2007" in text


# ------------------------------------------------------------------ the alvará


def test_alvara_runs_to_the_end_of_the_exercise_with_the_first_fee(engine: Engine) -> None:
    prepared = engine.prepare(ALV, example(engine, ALV), issued_on=ISSUED)
    values = prepared.computed
    assert prepared.on == date(2026, 3, 10)
    assert values["inicio_vigencia"] == date(2026, 3, 10)
    assert values["valido_ate"] == date(2026, 12, 31)
    assert values["renovacao"]["abre_em"] == date(2026, 12, 1)
    assert values["renovacao"]["ultimo_dia_util_do_ano"] == date(2026, 12, 31)
    assert [r["mes"] for r in values["revalidacoes"]] == ["maio de 2026", "novembro de 2026"]
    fee = values["taxa"]
    assert fee["citacao"] == E + "art16_inc1"
    assert fee["valor"] == Decimal("10") * fee["ufesp"]
    assert E + "art16_inc1" in values["fundamento"]


def renewal(engine: Engine, *, filed: str, issued: str, year: int = 2021) -> dict[str, Any]:
    data = example(engine, ALV)
    data["modalidade"] = "renovacao"
    data["alvara_anterior"] = {"numero": "ALV-ESC 0007/2026", "valido_ate": "2026-12-31"}
    data["processo"]["data_requerimento"] = filed
    data["data_expedicao"] = issued
    data["veiculo"]["ano_fabricacao"] = year
    return data


def test_renewal_issued_in_december_covers_the_next_exercise(engine: Engine) -> None:
    data = renewal(engine, filed="2026-12-02", issued="2026-12-10")
    prepared = engine.prepare(ALV, data, issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    values = prepared.computed
    assert values["modalidade"] == "renovacao"
    assert values["inicio_vigencia"] == date(2027, 1, 1)
    assert values["valido_ate"] == date(2027, 12, 31)
    assert [r["mes"] for r in values["revalidacoes"]] == ["maio de 2027", "novembro de 2027"]
    fee = values["taxa"]
    assert fee["citacao"] == E + "art16_inc2"
    assert fee["unidades"] == 1 and fee["valor"] == fee["ufesp"]
    assert "exercício de 2026" in fee["explicacao"]  # the UFESP of the date of issue


ALVARA_CASES: list[tuple[str, Callable[[Engine], dict[str, Any]], str, Status, str]] = [
    (
        "art. 13, § 5º: renovação requerida depois do vencimento",
        lambda e: renewal(e, filed="2027-01-04", issued="2026-12-10"),
        "/processo/data_requerimento",
        Status.INVALID,
        "art13",
    ),
    (
        "art. 13, § 5º: renovação requerida antes de aberto o prazo",
        lambda e: renewal(e, filed="2026-11-20", issued="2026-12-10"),
        "/processo/data_requerimento",
        Status.INVALID,
        "art13_par5",
    ),
    (
        "art. 17, I: veículo que excede 10 anos no exercício da renovação",
        lambda e: renewal(e, filed="2026-12-02", issued="2026-12-10", year=2016),
        "/veiculo/ano_fabricacao",
        Status.INVALID,
        "art17_inc1",
    ),
    (
        "art. 3º: alvará pós-datado",
        lambda e: {**example(e, ALV), "data_expedicao": "2026-12-16"},
        "/data_expedicao",
        Status.INVALID,
        "art3",
    ),
    (
        "art. 17, IV: apólice vencida na expedição",
        lambda e: _with(example(e, ALV), "/veiculo/seguro/validade", "2026-03-09"),
        "/veiculo/seguro/validade",
        Status.INVALID,
        "art17_inc4",
    ),
    (
        "art. 7º, II: CNH do auxiliar vencida",
        lambda e: _with(example(e, ALV), "/auxiliar/cnh/validade", "2026-01-01"),
        "/auxiliar/cnh/validade",
        Status.INVALID,
        "art9_par1",
    ),
    (
        "art. 8º, § 2º: sem número de prontuário",
        lambda e: _with(example(e, ALV), "/prontuario", DELETE),
        "/prontuario",
        Status.MISSING,
        "art8_par2",
    ),
    (
        "art. 13, § 5º, I: renovação sem o alvará anterior",
        lambda e: {**example(e, ALV), "modalidade": "renovacao"},
        "/alvara_anterior",
        Status.MISSING,
        "art13_par5",
    ),
]


def _with(data: dict[str, Any], pointer: str, value: Any) -> dict[str, Any]:
    setter(pointer, value)(data)
    return data


@pytest.mark.parametrize(
    ("case", "build", "field", "status", "fragment"),
    ALVARA_CASES,
    ids=[c[0] for c in ALVARA_CASES],
)
def test_alvara_requirement_is_reported_with_its_article(
    engine: Engine,
    case: str,
    build: Callable[[Engine], dict[str, Any]],
    field: str,
    status: Status,
    fragment: str,
) -> None:
    report = report_of(engine, ALV, build(engine))
    found = at(report, field)
    assert found.status is status, found
    assert E + fragment in found.basis, found
    assert not report.complete


def test_late_renewal_says_the_licence_was_cassada(engine: Engine) -> None:
    report = report_of(engine, ALV, renewal(engine, filed="2027-01-04", issued="2026-12-10"))
    message = at(report, "/processo/data_requerimento").message
    assert "requerimento intempestivo" in message
    assert "cassação automática" in message and "novo processo seletivo" in message


@pytest.mark.parametrize(
    ("start", "months", "end"),
    [
        (date(2026, 3, 10), 12, date(2026, 12, 31)),  # art. 13: the exercise ends first
        (date(2026, 1, 1), 12, date(2026, 12, 31)),  # a full exercise is 12 months exactly
        (date(2026, 3, 10), 6, date(2026, 9, 9)),  # art. 3º: the cap, when it binds
        (date(2024, 2, 29), 12, date(2024, 12, 31)),
    ],
)
def test_validity_is_the_earlier_of_the_cap_and_the_end_of_the_exercise(
    start: date, months: int, end: date
) -> None:
    assert validity(start, months) == end


def test_fee_without_the_ufesp_of_the_year_blocks_the_alvara(
    pack_dir: Path, tmp_path: Path, engine: Engine
) -> None:
    pack = tmp_path / "pacote"
    for folder in ("legal_text", "schemas", "forms"):
        shutil.copytree(pack_dir / folder, pack / folder)
    params_path = pack / "legal_text" / "parametros.json"
    params = json.loads(params_path.read_text(encoding="utf-8"))
    ufesp = params["parametros"]["ufesp.valor"]
    ufesp["vigencias"] = [v for v in ufesp["vigencias"] if not v["desde"].startswith("2026")]
    params_path.write_text(json.dumps(params, ensure_ascii=False), encoding="utf-8")
    clear_caches()
    try:
        result = alvara_transporte_escolar(
            ComputeInput(
                form_id=ALV,
                data=example(engine, ALV),
                on=date(2026, 3, 10),
                pack_dir=pack,
                history=None,
                draft=True,
                issued_on=ISSUED,
            )
        )
    finally:
        clear_caches()
    fee = [i for i in result.items if i.field == "/modalidade"]
    assert len(fee) == 1 and fee[0].status is Status.MISSING
    assert "2026" in fee[0].message and fee[0].basis == (E + "art16_inc1",)
    assert result.values["taxa"]["valor"] is None
    assert result.values["valido_ate"] == date(2026, 12, 31)


def test_alvara_draft_reads_back_with_validity_fee_and_duties(engine: Engine) -> None:
    data = example(engine, ALV)
    rendered = engine.draft(ALV, data, docx=True)
    assert rendered.report.complete
    text = pdf_text(rendered.pdf)
    assert "Alvará para exploração de serviços de Transporte Escolar" in text
    assert "prontuário nº TE-0042" in text
    assert "válido de 10/03/2026 a 31/12/2026" in text
    assert "Ana Exemplo Moreira" in text  # the auxiliary driver (art. 9º)
    # the selo's number is reserved when the alvará is issued (art. 3º, § 2º)
    assert "número a ser atribuído na emissão do alvará" in text
    assert "10 UFESPs × R$ 38,42 (UFESP do exercício de 2026) = R$ 384,20" in text
    assert "quatro reais e vinte centavos" in text
    assert "de 01/12/2026 a 31/12/2026" in text
    assert "maio de 2026" in text and "novembro de 2026" in text
    assert "Certificado de Vistoria expedido pela CIRETRAN" in text
    assert "cidades circunvizinhas" in text
    assert "art. 16, inciso I, da Lei Municipal nº 4.515" in text
    # review finding 15: the words of art. 18 and the individual character of art. 3º, § 1º
    assert "“Reclamações e Sugestões SAC 3475-9024”" in text
    assert "expedido em caráter individual (art. 3º, § 1º)" in text
    assert "é pessoal" not in text
    # review findings 1 and 2: the selection behind it and the fee paid
    assert "classificado em 3º lugar no Edital de Chamamento nº 01/2026" in text
    assert "Recolhimento comprovado por DAM 2026/000987, em 05/03/2026" in text


def test_alvara_draft_without_computed_values_says_they_are_pending(engine: Engine) -> None:
    data = example(engine, ALV)
    del data["veiculo"]["placa"]  # a schema issue: the computation does not run
    text = pdf_text(engine.draft(ALV, data).pdf)
    assert "validade pendente de cálculo" in text
    assert "valor pendente de cálculo" in text


# ------------------------------------------------------------------ renovação (art. 13, § 5º)

RENOVACAO_CASES: list[tuple[str, Change, str, Status, str]] = [
    (
        "art. 13, § 5º: requerimento prematuro",
        setter("/data_requerimento", "2026-11-30"),
        "/data_requerimento",
        Status.INVALID,
        "art13_par5",
    ),
    (
        "art. 13, § 5º: requerimento depois do vencimento",
        setter("/data_requerimento", "2027-01-04"),
        "/data_requerimento",
        Status.INVALID,
        "art13_par5",
    ),
    (
        "art. 13, § 5º, II: CNH de categoria C",
        setter("/requerente/cnh/categoria", "C"),
        "/requerente/cnh/categoria",
        Status.INVALID,
        "art13_par5_inc2",
    ),
    (
        "art. 13, § 5º, III: só um laudo de vistoria",
        setter("/documentos/laudo_vistoria_penultimo", DELETE),
        "/documentos/laudo_vistoria_penultimo",
        Status.MISSING,
        "art13_par5_inc3",
    ),
    (
        "art. 13, § 5º, VII: sem laudo médico",
        setter("/documentos/laudo_medico", DELETE),
        "/documentos/laudo_medico",
        Status.MISSING,
        "art13_par5_inc7",
    ),
    (
        "art. 13, § 5º, VIII: tributos existentes sem comprovante",
        setter("/documentos/tributos_municipais", DELETE),
        "/documentos/tributos_municipais",
        Status.MISSING,
        "art13_par5_inc8",
    ),
    (
        "art. 13, § 5º, IX: sem comprovante da taxa de renovação",
        setter("/documentos/comprovante_taxa_renovacao/apresentado", False),
        "/documentos/comprovante_taxa_renovacao",
        Status.MISSING,
        "art13_par5_inc9",
    ),
    (
        "art. 13, § 5º, X: apólice APP vencida",
        setter("/documentos/apolice_app/validade", "2026-11-30"),
        "/documentos/apolice_app/validade",
        Status.INVALID,
        "art13_par5_inc10",
    ),
    (
        "art. 17, I: veículo com 11 anos de fabricação",
        setter("/veiculo/ano_fabricacao", 2015),
        "/veiculo/ano_fabricacao",
        Status.INVALID,
        "art17_inc1",
    ),
]


@pytest.mark.parametrize(
    ("case", "change", "field", "status", "fragment"),
    RENOVACAO_CASES,
    ids=[c[0] for c in RENOVACAO_CASES],
)
def test_renovacao_requirement_is_reported_with_its_article(
    engine: Engine, case: str, change: Change, field: str, status: Status, fragment: str
) -> None:
    data = example(engine, REN)
    change(data)
    report = report_of(engine, REN, data)
    found = at(report, field)
    assert found.status is status, found
    assert E + fragment in found.basis, found
    assert not report.complete


def test_renewal_taxes_are_asked_only_when_they_exist(engine: Engine) -> None:
    data = example(engine, REN)
    data["tributos_municipais_existentes"] = False
    del data["documentos"]["tributos_municipais"]
    assert report_of(engine, REN, data).complete


@pytest.mark.parametrize("filed", ["2026-12-01", "2026-12-31"])
def test_renewal_window_includes_both_ends(engine: Engine, filed: str) -> None:
    data = example(engine, REN)
    data["data_requerimento"] = filed
    prepared = engine.prepare(REN, data)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["tempestivo"] is True
    assert prepared.computed["prazo"]["abre_em"] == date(2026, 12, 1)


def test_premature_renewal_draft_says_so(engine: Engine) -> None:
    data = example(engine, REN)
    data["data_requerimento"] = "2026-11-30"
    text = pdf_text(engine.draft(REN, data).pdf)
    assert "requerimento prematuro, a renovar dentro do prazo" in text
    assert "ALV-ESC nº 0007/2026" in text


# ------------------------------------------------------------------ fillable requerimentos


@pytest.mark.parametrize("form", [INS, REN])
def test_fillable_requerimento_round_trip(engine: Engine, form: str) -> None:
    data = example(engine, form)
    pdf = engine.prefill(form, copy.deepcopy(data))
    fields = PdfReader(io.BytesIO(pdf)).get_fields() or {}
    assert "candidato/data_nascimento" in fields or "alvara_anterior/valido_ate" in fields
    back = engine.read(pdf)
    assert back.form == form
    assert back.data == data
    assert back.report.complete


# ------------------------------------------------------------------ review findings 1 and 2

SELECTION_CASES: list[tuple[str, Change, str, Status, str]] = [
    (
        "art. 6º: primeiro alvará sem processo de seleção",
        setter("/selecao", DELETE),
        "/selecao",
        Status.MISSING,
        "art6",
    ),
    (
        "art. 11: expedido dentro do prazo de recurso contra a escolha",
        setter("/selecao/data_publicacao_resultado", "2026-03-06"),
        "/selecao/data_publicacao_resultado",
        Status.INVALID,
        "art11",
    ),
    (
        "art. 12, I: recurso interposto e não decidido",
        setter("/selecao/recurso_interposto", True),
        "/selecao/recurso_decidido_em",
        Status.MISSING,
        "art12_inc1",
    ),
    (
        "art. 12, I: recurso decidido depois da expedição",
        chain(
            setter("/selecao/recurso_interposto", True),
            setter("/selecao/recurso_decidido_em", "2026-03-20"),
        ),
        "/selecao/recurso_decidido_em",
        Status.INVALID,
        "art12_inc1",
    ),
    (
        "art. 8º, § 2º: Cadastro de Atividades depois de 30 dias",
        setter("/selecao/data_inscricao_cadastro", "2026-03-30"),
        "/selecao/data_inscricao_cadastro",
        Status.INVALID,
        "art8_par2",
    ),
    (
        "art. 14: sem a conferência de outra licença",
        setter("/selecao/conferencia_outra_licenca", DELETE),
        "/selecao/conferencia_outra_licenca",
        Status.MISSING,
        "art14",
    ),
    (
        "art. 15, § 2º: sem a conferência da transferência",
        setter("/selecao/conferencia_transferencia", DELETE),
        "/selecao/conferencia_transferencia",
        Status.MISSING,
        "art15_par2",
    ),
    (
        "art. 15, § 2º: conferência com impedimento",
        setter("/selecao/conferencia_transferencia/resultado", "com_impedimento"),
        "/selecao/conferencia_transferencia/resultado",
        Status.INVALID,
        "art15_par2",
    ),
    (
        "art. 13, § 3º: sem o comprovante da taxa",
        setter("/processo/comprovante_taxa", DELETE),
        "/processo/comprovante_taxa",
        Status.MISSING,
        "art13_par3",
    ),
    (
        "art. 3º, § 1º: sem a data do recolhimento da taxa",
        setter("/processo/data_pagamento_taxa", DELETE),
        "/processo/data_pagamento_taxa",
        Status.MISSING,
        "art3_par1",
    ),
    (
        "art. 3º, § 1º: taxa recolhida depois da expedição",
        setter("/processo/data_pagamento_taxa", "2026-03-11"),
        "/processo/data_pagamento_taxa",
        Status.INVALID,
        "art3_par1",
    ),
]


@pytest.mark.parametrize(
    ("case", "change", "field", "status", "fragment"),
    SELECTION_CASES,
    ids=[c[0] for c in SELECTION_CASES],
)
def test_first_alvara_needs_a_final_selection_and_the_fee_paid(
    engine: Engine,
    case: str,
    change: Change,
    field: str,
    status: Status,
    fragment: str,
) -> None:
    data = example(engine, ALV)
    change(data)
    report = report_of(engine, ALV, data)
    found = at(report, field)
    assert found.status is status, found
    assert E + fragment in found.basis, found
    assert not report.complete


def test_attested_checks_are_met_with_who_and_when(engine: Engine) -> None:
    report = report_of(engine, ALV, example(engine, ALV))
    found = [i for i in report.items if i.field == "/selecao/conferencia_outra_licenca/resultado"]
    assert found and all(i.status is Status.MET for i in found)
    assert any("Maria Servidora Exemplo" in i.message and "09/03/2026" in i.message for i in found)


def test_renewal_does_not_ask_for_the_selection(engine: Engine) -> None:
    data = example(engine, ALV)
    data.pop("selecao")
    data.update(
        {
            "modalidade": "renovacao",
            "alvara_anterior": {"numero": "ALV-ESC 1/2025", "valido_ate": "2026-03-31"},
        }
    )
    report = report_of(engine, ALV, data)
    assert not [i for i in report.pending if i.field.startswith("/selecao")]
    assert report.complete, [i.to_json() for i in report.pending]


# ------------------------------------------------------------------ review findings 5 and 13


def _auxiliary(engine: Engine) -> dict[str, Any]:
    data = example(engine, INS)
    data["funcao"] = "auxiliar"
    del data["veiculo"]
    del data["edital"]
    for name in ("crlv", "apolice_seguro", "laudo_vistoria_ciretran"):
        del data["documentos"][name]
    data["condutor_titular"] = {
        "nome": "Maria Titular Exemplo",
        "cpf": "645.922.328-95",
        "alvara": "ALV-ESC 0007/2026",
    }
    return data


def test_auxiliary_driver_joins_an_alvara_not_a_selection(engine: Engine) -> None:
    # art. 9º, § 1º: the auxiliary is attached to an existing alvará, in no selection;
    # it waives IV and VII only, so IX (the Edital's demands on the proof) is asked
    # (issue 23, class 4)
    data = _auxiliary(engine)
    missing = engine.prepare(INS, data).report
    edital = [i for i in missing.pending if i.field == "/edital"]
    assert edital and any("transporte-escolar#art7_inc9" in i.basis for i in edital)
    data["edital"] = {"numero": "01/2026", "exigencias_atendidas": True}
    rendered = engine.draft(INS, data)
    assert rendered.report.complete, [i.to_json() for i in rendered.report.pending]
    text = pdf_text(rendered.pdf)
    assert "demais exigências do Edital de Chamamento nº 01/2026" in " ".join(text.split())
    assert (
        "vinculado ao Alvará para exploração de serviços de Transporte Escolar "
        "ALV-ESC nº 0007/2026" in text
    )
    assert "§§ 1º e 3º)." in text
    assert "processo seletivo" not in text and "Edital" not in text.split("Documentos")[0]


def test_titular_still_needs_the_edital(engine: Engine) -> None:
    data = example(engine, INS)
    del data["edital"]
    assert at(report_of(engine, INS, data), "/edital").status is Status.MISSING


@pytest.mark.parametrize("form", [INS, REN])
def test_requerimentos_use_neutral_wording(engine: Engine, form: str) -> None:
    # no gender guessed, and no «inscrito(a)» (issue 23): «CPF nº»; documents with «data
    # de emissão» / «validade»
    text = pdf_text(engine.draft(form, example(engine, form)).pdf)
    assert "inscrito" not in text and "(a)" not in text and "CPF nº" in text
    assert "emitido em" not in text and "válido até" not in text
    assert "data de emissão:" in text or "validade:" in text


def test_late_renewal_requerimento_states_the_consequence(engine: Engine) -> None:
    # review finding 16: art. 13, caput, and art. 3º, § 4º, in the requerimento too
    data = example(engine, REN)
    data["data_requerimento"] = "2027-01-05"
    found = at(report_of(engine, REN, data), "/data_requerimento")
    assert found.status is Status.INVALID
    assert "cassação automática da licença" in found.message
    assert "novo processo seletivo" in found.message
    assert E + "art13" in found.basis
    early = example(engine, REN)
    early["data_requerimento"] = "2026-11-30"
    assert (
        "renovado dentro do prazo"
        in at(report_of(engine, REN, early), "/data_requerimento").message
    )
