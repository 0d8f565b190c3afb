"""The alvará of the serviço particular com veículo próprio (Lei nº 4.419/2006, arts.
3º, III, 6º and 12): its own form, basis and wording; the vehicle driven by employees
(art. 6º, parágrafo único); 5 years (art. 8º) cut by the vehicle's age limit (art. 10,
I). The fretamento alvará (art. 7º) refuses that case and names the right form.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from formcases import DELETE, Change, assert_reported, at, example, pdf_text, setter

from lavra.checking.computations import find_computation
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.comum.periods import term_end
from lavra_americana.fretamento import servico_particular
from lavra_americana.fretamento.servico_particular import alvara_servico_particular_fretamento

ASP = "alvara-servico-particular-fretamento"
ALV = "alvara-fretamento"
F = "fretamento#"
ISSUED = date(2026, 12, 15)


def report_of(engine: Engine, data: dict[str, Any], issued: date = ISSUED) -> Report:
    return engine.prepare(ASP, data, issued_on=issued).report


def test_example_is_complete_and_the_vehicle_age_sets_the_end(engine: Engine) -> None:
    prepared = engine.prepare(ASP, example(engine, ASP), issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    # a 2020 microônibus (10 years, art. 10, I) circulates through 31/12/2030, before
    # the 5 years of art. 8º (15/03/2031)
    assert prepared.computed["valido_ate"] == date(2030, 12, 31)
    assert prepared.computed["limitado_por"] == "idade_veiculo"
    form = engine.content.form(ASP)
    assert form.series == "ALV-PART" and form.signer_role == "secretario-transportes"
    assert {F + "art6", F + "art6_par1u", F + "art12"} <= set(form.basis)
    assert F + "art7" not in form.basis  # not the fretamento alvará
    assert find_computation(pacote(), "alvara_servico_particular_fretamento") is (
        alvara_servico_particular_fretamento
    )
    assert {F + "art6_par1u", F + "art12"} <= set(servico_particular.IMPLEMENTED)


@pytest.mark.parametrize(
    ("kind", "year", "expected", "limited"),
    [
        ("microonibus", 2021, date(2031, 3, 15), "prazo"),  # 5 years, the eve of 16/03/2031
        ("microonibus", 2016, date(2026, 12, 31), "idade_veiculo"),  # last year within
        ("onibus_rodoviario", 2006, date(2026, 12, 31), "idade_veiculo"),  # 20 years
        ("outro", 2025, date(2030, 12, 31), "idade_veiculo"),  # 5 years
    ],
    ids=["term first", "microônibus in its last year", "ônibus of 2006", "other of 2025"],
)
def test_validity_is_the_earliest_limit(
    engine: Engine, kind: str, year: int, expected: date, limited: str
) -> None:
    data = example(engine, ASP)
    data["veiculo"].update(tipo=kind, ano_fabricacao=year)
    if kind == "onibus_rodoviario":
        data["veiculo"].update(portas=1, poltronas_rodoviarias=True)
    prepared = engine.prepare(ASP, data, issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == expected
    assert prepared.computed["limitado_por"] == limited


def test_vehicle_beyond_its_age_limit_is_refused(engine: Engine) -> None:
    data = example(engine, ASP)
    data["veiculo"]["ano_fabricacao"] = 2015  # microônibus: out on 01/01/2026
    prepared = engine.prepare(ASP, data, issued_on=ISSUED)
    found = at(prepared.report, "/veiculo/ano_fabricacao")
    assert found.status is Status.INVALID and F + "art10_inc1" in found.basis
    assert prepared.computed["valido_ate"] is None


CASES: list[tuple[str, Change, str, Status, str]] = [
    ("art. 6º, parágrafo único: motorista que não é empregado",
     setter("/motoristas/0/empregado", False), "/motoristas/0/empregado", Status.INVALID,
     "art6_par1u"),
    ("art. 6º, parágrafo único: sem o registro do empregado",
     setter("/motoristas/0/registro_empregado", DELETE), "/motoristas/0/registro_empregado",
     Status.MISSING, "art6_par1u"),
    ("art. 6º, parágrafo único: nenhum motorista", setter("/motoristas", []), "/motoristas",
     Status.INVALID, "art6_par1u"),
    ("art. 6º: sem a atividade fim", setter("/empresa/atividade_fim", DELETE),
     "/empresa/atividade_fim", Status.MISSING, "art6"),
    ("art. 6º: veículo arrendado", setter("/veiculo/propriedade", "arrendamento_mercantil"),
     "/veiculo/propriedade", Status.INVALID, "art6"),
    ("art. 12: veículo na categoria aluguel", setter("/veiculo/categoria_crlv", "aluguel"),
     "/veiculo/categoria_crlv", Status.INVALID, "art12"),
    ("art. 12: sem os documentos da personalidade jurídica",
     setter("/documentos/personalidade_juridica", DELETE), "/documentos/personalidade_juridica",
     Status.MISSING, "art12"),
    ("art. 12: sem a prova de propriedade", setter("/documentos/propriedade_veiculo", DELETE),
     "/documentos/propriedade_veiculo", Status.MISSING, "art12"),
    ("art. 12: requerimento posterior à expedição",
     setter("/processo/data_requerimento", "2026-03-17"), "/processo/data_requerimento",
     Status.INVALID, "art12"),
    ("art. 10, § 4º: inspeção de mais de 12 meses",
     setter("/inspecao_veicular/data_emissao", "2025-03-15"), "/inspecao_veicular",
     Status.INVALID, "art10_par4"),
    ("art. 6º, parágrafo único: CNH do motorista vencida",
     setter("/motoristas/0/cnh/validade", "2026-03-15"), "/motoristas/0/cnh/validade",
     Status.INVALID,
     "art6_par1u"),
]


@pytest.mark.parametrize(("case", "change", "field", "status", "fragment"), CASES,
                         ids=[c[0] for c in CASES])
def test_each_requirement_is_reported_with_its_article(
    engine: Engine, case: str, change: Change, field: str, status: Status, fragment: str
) -> None:
    data = example(engine, ASP)
    change(data)
    assert_reported(report_of(engine, data), field, status, F + fragment)


def test_inspection_of_exactly_12_months_is_accepted(engine: Engine) -> None:
    data = example(engine, ASP)
    data["inspecao_veicular"]["data_emissao"] = "2025-03-16"
    assert report_of(engine, data).complete


def test_may_not_be_post_dated(engine: Engine) -> None:
    report = report_of(engine, example(engine, ASP), issued=date(2026, 3, 15))
    assert at(report, "/data_expedicao").status is Status.INVALID


def test_fretamento_alvara_refuses_the_particular_service(engine: Engine) -> None:
    data = example(engine, ALV)
    assert engine.prepare(ALV, data).report.complete
    data["categoria"] = "particular"
    data.pop("servicos", None)
    data.pop("cliente", None)
    data["veiculo"]["categoria_crlv"] = "particular"
    found = at(engine.prepare(ALV, data).report, "/categoria")
    assert found.status is Status.INVALID
    assert "Serviço Particular com Veículo Próprio" in found.message
    assert F + "art6_par1u" not in engine.content.form(ALV).basis


def test_draft_has_its_own_wording(engine: Engine) -> None:
    text = pdf_text(engine.draft(ASP, example(engine, ASP)).pdf)
    assert "serviço particular com veículo próprio" in text
    assert "dirigido por empregado da empresa" in text and "Carlos Exemplo Motorista" in text
    assert "válido de 16/03/2026 a 31/12/2030" in text
    assert "FRETAMENTO" not in text and "atendidos os requisitos do art. 7º" not in text


def test_coverage_counts_the_new_acts_where_they_live(pack_dir: Path) -> None:
    from lavra.law.coverage import code_citations

    found = {(u.citation, u.file) for u in code_citations(pack_dir)}
    assert (F + "art6_par1u", "lavra_americana/fretamento/servico_particular.py") in found
    assert (
        "transporte-escolar#art4_par1u_inc3",
        "lavra_americana/transporte_escolar/comunicacao_substituicao.py",
    ) in found
    assert (
        "transporte-escolar#art9_par3", "lavra_americana/transporte_escolar/alvara_auxiliar.py"
    ) in found
    assert (
        "transporte-escolar#art4_par1u_inc3",
        "lavra_americana/transporte_escolar/licenca_temporaria.py",
    ) not in found  # the Licença Temporária no longer applies it


def test_five_years_end_on_the_eve_of_the_anniversary() -> None:
    """Issue 23: "de 05/12/2026 até 05/12/2031" is 5 years and one day. The validity is
    in force on its first day, so 5 years end on the eve (art. 8º; periods.term_end)."""
    assert term_end(date(2026, 12, 5), years=5) == date(2031, 12, 4)
    assert term_end(date(2028, 2, 29), years=1) == date(2029, 2, 27)
