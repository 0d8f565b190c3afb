"""The fretamento forms end to end: examples check, requirements report, drafts render."""

from __future__ import annotations

import copy
import io
import json
from datetime import date
from typing import Any

import pytest
from docx import Document
from pypdf import PdfReader

from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra.errors import UnknownFormError

ON = date(2026, 11, 29)


def example(engine: Engine, form: str) -> dict[str, Any]:
    path = engine.content.form(form).example
    assert path is not None
    return json.loads(path.read_text(encoding="utf-8"))


def item(report: Report, field: str) -> Any:
    found = [i for i in report.items if i.field == field]
    assert found, f"no item for {field}: {[i.field for i in report.items]}"
    return found[0]


def pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize("form", ["requerimento-alvara-fretamento", "alvara-fretamento"])
def test_every_example_is_complete(engine: Engine, form: str) -> None:
    report = engine.check(form, example(engine, form), ON)
    assert report.complete, [i.to_json() for i in report.pending]
    assert all(
        i.basis
        for i in report.items
        if i.status is Status.MET and i.field.startswith("/documentos")
    )


def test_unknown_form_is_named(engine: Engine) -> None:
    with pytest.raises(UnknownFormError, match="alvara-fretamento"):
        engine.check("alvara-inexistente", {}, ON)


# ------------------------------------------------------------- requerimento (art. 7)
REQ = "requerimento-alvara-fretamento"


def test_missing_certidao_is_missing_with_its_inciso(engine: Engine) -> None:
    data = example(engine, REQ)
    del data["documentos"]["certidao_debito_sindical"]
    report = engine.check(REQ, data, ON)
    found = item(report, "/documentos/certidao_debito_sindical")
    assert found.status is Status.MISSING
    assert found.basis == ("fretamento#art7_inc4",)
    assert "não apresentado" in found.message
    assert not report.complete


def test_expired_certidao_is_invalid_and_says_so(engine: Engine) -> None:
    data = example(engine, REQ)
    data["documentos"]["certidao_fgts"]["validade"] = "2026-11-01"
    found = item(engine.check(REQ, data, ON), "/documentos/certidao_fgts/validade")
    assert found.status is Status.INVALID
    assert "vencido em 01/11/2026" in found.message
    assert found.basis == ("fretamento#art7_inc5",)


def test_at_least_two_vehicles(engine: Engine) -> None:
    data = example(engine, REQ)
    data["veiculos"] = data["veiculos"][:1]
    found = item(engine.check(REQ, data, ON), "/veiculos")
    assert found.status is Status.INVALID
    assert "2 (dois) veículos" in found.message
    assert found.basis == ("fretamento#art7_inc8",)


def test_company_seated_elsewhere_needs_registration_there(engine: Engine) -> None:
    data = example(engine, REQ)
    data["requerente"]["sede_em_americana"] = False
    report = engine.check(REQ, data, ON)
    origin = item(report, "/documentos/cadastro_municipio_origem")
    assert origin.status is Status.MISSING
    assert set(origin.basis) == {"fretamento#art7_inc12", "fretamento#art2_par2"}
    data["documentos"]["cadastro_municipio_origem"] = {
        "apresentado": True,
        "data_emissao": "2026-01-10",
    }
    del data["documentos"]["inscricao_cadastro_atividades"]
    report = engine.check(REQ, data, ON)
    assert report.complete, [i.to_json() for i in report.pending]
    assert item(report, "/documentos/inscricao_cadastro_atividades").status is Status.NOT_APPLICABLE


def test_particular_service_asks_only_personality_and_ownership(engine: Engine) -> None:
    data = example(engine, REQ)
    data["categoria"] = "particular"
    data.pop("servicos")
    # art. 6º, parágrafo único: the vehicle is driven by an employee of the company
    data["motoristas"] = [
        {k: v for k, v in data["motoristas"][0].items() if k in ("nome", "cpf", "cnh")}
        | {"registro_funcional": "Ficha nº 12", "empregado": True}
    ]
    data["documentos"] = {
        k: v
        for k, v in data["documentos"].items()
        if k in ("ato_constitutivo", "prova_propriedade_veiculos")
    }
    data["veiculos"] = [dict(data["veiculos"][0], categoria_crlv="particular")]
    report = engine.check(REQ, data, ON)
    assert report.complete, [i.to_json() for i in report.pending]
    assert item(report, "/documentos/certidao_inss").status is Status.NOT_APPLICABLE
    data["veiculos"][0]["categoria_crlv"] = "aluguel"
    found = item(engine.check(REQ, data, ON), "/veiculos/0/categoria_crlv")
    assert found.status is Status.INVALID and "categoria particular" in found.message


@pytest.mark.parametrize(
    ("case", "field"),
    [
        ("driver not an employee", "/motoristas/0/empregado"),
        ("employment not stated", "/motoristas/0/empregado"),
        ("no driver", "/motoristas"),
    ],
)
def test_particular_service_is_driven_by_employees(
    engine: Engine, case: str, field: str
) -> None:
    data = example(engine, REQ)
    data["categoria"] = "particular"
    data.pop("servicos")
    data["veiculos"] = [dict(data["veiculos"][0], categoria_crlv="particular")]
    data["motoristas"] = [dict(data["motoristas"][0], empregado=True)]
    assert item(engine.check(REQ, data, ON), "/motoristas/0/empregado").status is Status.MET
    if case == "driver not an employee":
        data["motoristas"][0]["empregado"] = False
    elif case == "employment not stated":
        del data["motoristas"][0]["empregado"]
    else:
        del data["motoristas"]
    report = engine.check(REQ, data, ON)
    found = [i for i in report.items if i.field == field and i.pending]
    assert found and "fretamento#art6_par1u" in found[0].basis, report.items
    assert not report.complete


def test_bad_check_digits_name_the_field(engine: Engine) -> None:
    data = example(engine, REQ)
    data["requerente"]["representante"]["cpf"] = "123.456.789-00"
    report = engine.check(REQ, data, ON)
    bad = [i for i in report.pending if i.field == "/requerente/representante/cpf"]
    assert bad and "CPF" in bad[0].message


def test_vehicle_too_old_for_its_type(engine: Engine) -> None:
    data = example(engine, REQ)
    data["veiculos"][1]["ano_fabricacao"] = 2015  # micro-ônibus: 10 years at most
    found = item(engine.check(REQ, data, ON), "/veiculos/1/ano_fabricacao")
    assert found.status is Status.INVALID
    assert "11 anos" in found.message and "10 anos" in found.message
    data["veiculos"][1]["ano_fabricacao"] = 2016  # 10 years in 2026: the limit itself
    assert item(engine.check(REQ, data, ON), "/veiculos/1/ano_fabricacao").status is Status.MET


def test_inspection_older_than_twelve_months(engine: Engine) -> None:
    data = example(engine, REQ)
    data["documentos"]["inspecao_veicular"]["data_emissao"] = "2025-11-28"
    found = item(engine.check(REQ, data, ON), "/documentos/inspecao_veicular")
    assert found.status is Status.INVALID and "12 meses" in found.message


# ----------------------------------------------------------------- alvará (arts. 8–11)
ALV = "alvara-fretamento"


@pytest.mark.parametrize(
    ("field", "value", "basis"),
    [
        ("bancos_estofados_com_cinto", False, "fretamento#art10_inc2"),
        ("municipio_licenciamento", "Campinas", "fretamento#art10_inc3"),
        ("lotacao_sentados", 7, "fretamento#art10_inc4"),
        ("encosto_cabeca", False, "fretamento#art10_inc5"),
        ("tacografo", False, "fretamento#art10_inc6"),
        ("portas", 2, "fretamento#art10_par6"),
    ],
)
def test_vehicle_requirements_of_art10(engine: Engine, field: str, value: Any, basis: str) -> None:
    data = example(engine, ALV)
    data["veiculo"][field] = value
    found = item(engine.check(ALV, data, ON), f"/veiculo/{field}")
    assert found.status is Status.INVALID
    assert basis in found.basis


def test_vehicle_age_is_checked_on_the_reference_date(engine: Engine) -> None:
    data = example(engine, ALV)
    data["veiculo"]["ano_fabricacao"] = 2006  # ônibus rodoviário: 20 years at most
    assert (
        item(engine.check(ALV, data, date(2026, 12, 31)), "/veiculo/ano_fabricacao").status
        is Status.MET
    )
    assert (
        item(engine.check(ALV, data, date(2027, 1, 1)), "/veiculo/ano_fabricacao").status
        is Status.INVALID
    )


def test_vehicle_age_before_the_amendment_has_no_rule(engine: Engine) -> None:
    data = example(engine, ALV)
    data["inspecao_veicular"]["data_emissao"] = "2018-06-01"
    found = item(engine.check(ALV, data, date(2018, 6, 2)), "/veiculo/ano_fabricacao")
    assert found.status is Status.INVALID
    assert "2018" in found.message


def test_continuous_service_needs_the_client_name(engine: Engine) -> None:
    data = example(engine, ALV)
    del data["cliente"]
    found = item(engine.check(ALV, data, ON), "/cliente")
    assert found.status is Status.MISSING and "fretamento#art11_inc1_ali3" in found.basis


# --------------------------------------------------------------------------- drafts
def test_complete_draft_has_validity_and_no_pending(engine: Engine) -> None:
    rendered = engine.draft(ALV, example(engine, ALV), ON, docx=True)
    text = pdf_text(rendered.pdf)
    assert "MINUTA" in text
    assert "Alvará de Licença de Circulação" in text
    assert "até 28/11/2031" in text  # 5 years from 29/11/2026, that day included (art. 8)
    assert "Americana, 29 de novembro de 2026" in text
    assert "Nenhuma pendência" in text
    assert "art. 8º da Lei Municipal nº 4.419, de 17 de novembro de 2006" in " ".join(text.split())
    assert rendered.docx is not None
    doc_text = "\n".join(p.text for p in Document(io.BytesIO(rendered.docx)).paragraphs)
    assert "Nenhuma pendência" in doc_text


def test_incomplete_draft_lists_each_pending_item_with_basis(engine: Engine) -> None:
    data = copy.deepcopy(example(engine, ALV))
    data["veiculo"]["tacografo"] = False
    del data["inspecao_veicular"]
    rendered = engine.draft(ALV, data, ON)
    text = " ".join(pdf_text(rendered.pdf).split())
    assert not rendered.report.complete
    assert "pendências" in text.lower()
    assert "O veículo deve possuir tacógrafo." in text
    assert "art. 10, VI, da Lei nº 4.419/2006" in text
    assert "Documento não apresentado: Comprovante de inspeção veicular." in text


def test_draft_of_empty_data_still_renders(engine: Engine) -> None:
    rendered = engine.draft(REQ, {}, ON)
    assert rendered.pdf.startswith(b"%PDF")
    assert len(rendered.report.pending) >= 4


HOSTILE = [
    '<img src="file:///etc/passwd">',
    '<link rel="attachment" href="file:///etc/passwd">',
    "{{7*7}}",
    "</w:t></w:r>",
]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_data_is_shown_literally_and_embeds_nothing(engine: Engine, value: str) -> None:
    data = example(engine, ALV)
    data["empresa"]["razao_social"] = f"Empresa {value} Ltda."
    rendered = engine.draft(ALV, data, ON, docx=True)
    reader = PdfReader(io.BytesIO(rendered.pdf))
    text = " ".join(pdf_text(rendered.pdf).split())
    assert value in text
    assert "49" not in text.split("Empresa")[1][:20]
    assert not reader.attachments
    for page in reader.pages:
        resources = page.get("/Resources") or {}
        xobjects = resources.get("/XObject") or {}
        assert not xobjects, "no image may come from data"
    assert rendered.docx is not None
    doc = Document(io.BytesIO(rendered.docx))
    cells = " ".join(c.text for t in doc.tables for row in t.rows for c in row.cells)
    assert value in cells
    prefilled = PdfReader(io.BytesIO(engine.prefill(REQ, {"requerente": {"razao_social": value}})))
    fields = prefilled.get_fields() or {}
    assert fields["requerente/razao_social"].get("/V") == value


def test_a_certidao_without_its_validity_cannot_be_judged_in_force(engine: Engine) -> None:
    data = example(engine, REQ)
    del data["documentos"]["certidao_inss"]["validade"]
    found = item(engine.check(REQ, data, ON), "/documentos/certidao_inss")
    assert found.status is Status.INVALID
    assert "Validade do documento" in found.message
    assert found.basis == ("fretamento#art7_inc5",)


def test_particular_service_vehicle_owned_cites_arts_6_and_12(engine: Engine) -> None:
    data = example(engine, REQ)
    data["categoria"] = "particular"
    data["veiculos"] = [dict(data["veiculos"][1], categoria_crlv="particular")]  # leased
    found = item(engine.check(REQ, data, ON), "/veiculos/0/propriedade")
    assert found.status is Status.INVALID
    assert "propriedade" in found.message


def test_a_form_may_name_its_issuing_body(engine: Engine) -> None:
    form = engine.content.form("decisao-recurso-prefeito")
    assert form.issuing_body == "Gabinete do Prefeito"
    assert form.example is not None
    data = json.loads(form.example.read_text(encoding="utf-8"))
    first_page = PdfReader(io.BytesIO(engine.draft(form.id, data).pdf)).pages[0].extract_text()
    # the header names the Gabinete (WeasyPrint writes the margin boxes last, Typst first)
    lines = first_page.split("\n")
    at = lines.index("Prefeitura Municipal de Americana")
    assert lines[at + 1] == "Gabinete do Prefeito"
