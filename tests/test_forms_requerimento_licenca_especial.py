"""The requerimento of the Licença Especial for intermunicipal school transport (Lei nº
4.515/2007, art. 20): the alvará of the municipality of origin, the five documents of
§ 1º and the passenger list and contracts endorsed by the municipality of origin (§ 2º),
every one listed from the first screen; only students of the origin, at schools here; the
state law (Lei nº 11.258/2002) as the law cites it; prefilled, filled, uploaded and read
back as the other fillable requerimentos."""

from __future__ import annotations

import io
import shutil
import subprocess
from datetime import date
from pathlib import Path

import pytest
from formcases import DELETE, assert_pending, at, example, pdf_text, setter
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject

from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.transporte_escolar import licencas

REQ = "requerimento-licenca-especial-intermunicipal"
LEE = "licenca-especial-escolar"
E = "transporte-escolar#"
FILED = date(2026, 1, 26)
#: The documents the law requires (§ 1º, I to V, and § 2º), by field, with their basis.
DOCUMENTS = {
    "alvara_origem": E + "art20_par1_inc1",
    "copia_cnh": E + "art20_par1_inc2",
    "crlv": E + "art20_par1_inc3",
    "autorizacao_intermunicipal": E + "art20_par1_inc4",
    "conformidade": E + "art20_par1_inc5",
    "lista_passageiros": E + "art20_par2",
    "contratos": E + "art20_par2",
}


def report_of(engine: Engine, data: dict[str, object], issued_on: date = FILED) -> Report:
    return engine.prepare(REQ, data, issued_on=issued_on).report


# ------------------------------------------------------------------ the complete case


def test_complete_fillable_and_read_back(engine: Engine) -> None:
    data = example(engine, REQ)
    assert report_of(engine, data).complete
    form = engine.content.form(REQ)
    assert form.fillable and form.series is None and form.signer_role is None
    pdf = engine.prefill(REQ, data)
    back = engine.read(pdf)
    assert back.data == data
    assert back.report.complete, [i.to_json() for i in back.report.pending]


def test_the_computation_is_registered_and_counted() -> None:
    pack = pacote()
    assert pack.computations["requerimento_licenca_especial_intermunicipal"] is (
        licencas.requerimento_licenca_especial_intermunicipal
    )
    assert E + "art20_par1" in licencas.IMPLEMENTED


def test_the_data_have_the_licence_shape(engine: Engine) -> None:
    """A licence prepared from the requerimento's data (with the process and the date of
    issue added, the declarations dropped) is complete: the two forms speak alike."""
    data = example(engine, REQ)
    licence = {key: value for key, value in data.items()
               if key not in ("declaracoes", "data_requerimento")}
    licence["requerente"].pop("email")
    licence["municipio_origem"].pop("orgao_licenciador")
    licence["processo"] = {"numero": "PA 0.975/2026",
                           "data_requerimento": data["data_requerimento"]}
    licence["data_expedicao"] = "2026-02-02"
    report = engine.prepare(LEE, licence, issued_on=date(2026, 2, 2)).report
    assert report.complete, [i.to_json() for i in report.pending]


@pytest.mark.parametrize(("filed", "complete"), [
    ("2026-02-02", True),  # filed on the day of issue
    ("2026-02-03", False),  # a licence before its requerimento
])
def test_the_licence_follows_its_requerimento(
    engine: Engine, filed: str, complete: bool
) -> None:
    licence = example(engine, LEE)
    licence["processo"]["data_requerimento"] = filed
    report = engine.prepare(LEE, licence, issued_on=date(2026, 2, 10)).report
    assert report.complete is complete, [i.to_json() for i in report.pending]
    if not complete:
        assert_pending(report, "/processo/data_requerimento", Status.INVALID,
                       E + "art20_par1")
    text = pdf_text(engine.draft(LEE, licence).pdf)
    assert f"iniciado pelo requerimento protocolizado em {filed[8:]}/02/2026" in text


def test_the_licence_names_its_requerimento_date_as_required(engine: Engine) -> None:
    licence = example(engine, LEE)
    del licence["processo"]["data_requerimento"]
    report = engine.prepare(LEE, licence, issued_on=date(2026, 2, 10)).report
    assert not report.complete
    assert any(i.field in ("/processo", "/processo/data_requerimento") and i.pending
               for i in report.items)


# ------------------------------------------------------------------ documents


def test_every_required_document_is_listed_from_the_first_screen(engine: Engine) -> None:
    """The empty form lists the seven documents as required, none as "não se aplica"."""
    reader = PdfReader(io.BytesIO(engine.prefill(REQ, {})))
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)
    assert "NÃO SE APLICA" not in text.upper()
    fields = reader.get_fields() or {}
    for name in DOCUMENTS:
        assert f"documentos/{name}/apresentado" in fields, name
    for title in ("Cópia do alvará atualizado emitido pelo Município de origem (obrigatório)",
                  "Cópia da autorização para efetuar transporte intermunicipal",
                  "Lista de passageiros vistada pelo Município de origem (obrigatório)",
                  "Cópias dos contratos de transporte vistadas pelo Município de origem"):
        assert title in text, title


@pytest.mark.parametrize(("name", "basis"), DOCUMENTS.items())
def test_each_document_missing_is_reported_with_its_basis(
    engine: Engine, name: str, basis: str
) -> None:
    data = example(engine, REQ)
    setter(f"/documentos/{name}", DELETE)(data)
    assert_pending(report_of(engine, data), f"/documentos/{name}", Status.MISSING, basis)


@pytest.mark.parametrize("name", ["lista_passageiros", "contratos"])
def test_lists_not_endorsed_by_the_origin_are_refused(engine: Engine, name: str) -> None:
    data = example(engine, REQ)
    data["documentos"][name]["vistado_municipio_origem"] = False
    report = report_of(engine, data)
    found = at(report, f"/documentos/{name}")
    assert found.status is Status.INVALID and E + "art20_par2" in found.basis
    assert "vistados" in found.message
    # the "Não" comes back from the fillable PDF
    back = engine.read(engine.prefill(REQ, data))
    assert back.data["documentos"][name]["vistado_municipio_origem"] is False


@pytest.mark.parametrize(("validity", "complete"), [
    ("2026-01-25", False),  # the origin's alvará expired the day before
    ("2026-01-26", True),  # valid through the day of the requerimento
])
def test_the_origin_alvara_must_be_in_force(
    engine: Engine, validity: str, complete: bool
) -> None:
    data = example(engine, REQ)
    data["documentos"]["alvara_origem"]["validade"] = validity
    report = report_of(engine, data)
    assert report.complete is complete
    if not complete:
        assert_pending(report, "/documentos/alvara_origem/validade", Status.INVALID,
                       E + "art20_par1_inc1")


def test_the_state_authorisation_needs_its_validity(engine: Engine) -> None:
    data = example(engine, REQ)
    del data["documentos"]["autorizacao_intermunicipal"]["validade"]
    report = report_of(engine, data)
    assert not report.complete
    assert any(i.field.startswith("/documentos/autorizacao_intermunicipal") and i.pending
               for i in report.items)


# ------------------------------------------------------------------ scope and driver


def test_a_student_of_another_town_is_refused(engine: Engine) -> None:
    data = example(engine, REQ)
    data["estudantes"][1]["municipio_residencia"] = "Sumaré"
    assert_pending(report_of(engine, data), "/estudantes/1/municipio_residencia",
                   Status.INVALID, E + "art20_par2")


def test_a_school_outside_americana_is_refused(engine: Engine) -> None:
    data = example(engine, REQ)
    data["estudantes"][0]["escola"]["municipio"] = "Campinas"
    assert_pending(report_of(engine, data), "/estudantes/0/escola/municipio",
                   Status.INVALID, E + "art20")


@pytest.mark.parametrize(("declaration", "basis"), [
    ("somente_alunos_origem", E + "art20_par2"),
    ("legislacao_estadual", E + "art20"),
])
def test_each_declaration_answered_nao_is_reported(
    engine: Engine, declaration: str, basis: str
) -> None:
    data = example(engine, REQ)
    data["declaracoes"][declaration] = False
    assert_pending(report_of(engine, data), f"/declaracoes/{declaration}", Status.INVALID,
                   basis)
    assert engine.read(engine.prefill(REQ, data)).data["declaracoes"][declaration] is False


def test_the_state_law_is_cited_as_the_municipal_law_cites_it(engine: Engine) -> None:
    text = pdf_text(engine.draft(REQ, example(engine, REQ)).pdf)
    assert "Lei nº 11.258, de 6 de novembro de 2002" in text
    assert "Lei Estadual nº 11.258, de 6 de novembro de 2002" in text  # its basis
    pdf = pdf_text(engine.prefill(REQ, {}))
    assert "Lei estadual nº 11.258, de 6 de novembro de 2002" in pdf


@pytest.mark.parametrize("category", ["B", "C"])
def test_a_cnh_other_than_d_is_refused(engine: Engine, category: str) -> None:
    data = example(engine, REQ)
    data["requerente"]["cnh"]["categoria"] = category
    assert_pending(report_of(engine, data), "/requerente/cnh", Status.INVALID,
                   E + "art20_par1_inc2")


@pytest.mark.parametrize(("validity", "complete"), [
    ("2026-01-25", False),
    ("2026-01-26", True),
])
def test_the_cnh_must_be_valid_on_the_date(
    engine: Engine, validity: str, complete: bool
) -> None:
    data = example(engine, REQ)
    data["requerente"]["cnh"]["validade"] = validity
    data["documentos"]["copia_cnh"].pop("validade")
    report = report_of(engine, data)
    assert report.complete is complete
    if not complete:
        assert_pending(report, "/requerente/cnh/validade", Status.INVALID,
                       E + "art20_par1_inc2")


@pytest.mark.parametrize(("year", "complete"), [(2016, True), (2015, False)])
def test_the_vehicle_age_is_judged_on_the_date_of_the_requerimento(
    engine: Engine, year: int, complete: bool
) -> None:
    data = example(engine, REQ)
    data["veiculo"]["ano_fabricacao"] = year
    report = report_of(engine, data)
    assert report.complete is complete, [i.to_json() for i in report.pending]
    if not complete:
        assert_pending(report, "/veiculo/ano_fabricacao", Status.INVALID, E + "art17_inc1")


def test_a_cpf_with_wrong_check_digits_is_refused(engine: Engine) -> None:
    data = example(engine, REQ)
    data["requerente"]["cpf"] = "111.444.777-36"
    report = report_of(engine, data)
    assert any(i.field in ("/requerente/cpf", "/requerente") and i.status is Status.INVALID
               and "CPF" in i.message for i in report.items)


# ------------------------------------------------------------------ dates


@pytest.mark.parametrize(("issued_on", "complete"), [
    (date(2026, 1, 25), False),  # a requerimento dated tomorrow
    (FILED, True),
])
def test_a_future_requerimento_is_refused(
    engine: Engine, issued_on: date, complete: bool
) -> None:
    report = report_of(engine, example(engine, REQ), issued_on=issued_on)
    assert report.complete is complete
    if not complete:
        assert_pending(report, "/data_requerimento", Status.INVALID, E + "art20_par1")


def test_a_document_dated_after_the_requerimento_is_refused(engine: Engine) -> None:
    data = example(engine, REQ)
    data["documentos"]["lista_passageiros"]["data_emissao"] = "2026-01-27"
    report = report_of(engine, data, issued_on=date(2026, 2, 1))
    assert at(report, "/documentos/lista_passageiros/data_emissao").pending
    assert not report.complete


# ------------------------------------------------------------------ the fillable PDF


def test_filled_by_the_applicant_and_read_back(engine: Engine) -> None:
    """The empty form downloaded, a few answers typed, the document ticked, uploaded."""
    pdf = engine.prefill(REQ, example(engine, REQ))
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    for page in writer.pages:
        writer.update_page_form_field_values(
            page, {"requerente/nome": "Carla Exemplo Nova", "estudantes/2/nome": "Eva Exemplo",
                   "estudantes/2/municipio_residencia": "Nova Odessa",
                   "estudantes/2/escola/nome": "Colégio Exemplo de Americana",
                   "estudantes/2/escola/municipio": "Americana"},
            auto_regenerate=False)
    writer.set_need_appearances_writer(True)
    out = io.BytesIO()
    writer.write(out)
    back = engine.read(out.getvalue(), REQ, on=FILED)
    assert back.data["requerente"]["nome"] == "Carla Exemplo Nova"
    assert back.data["estudantes"][2] == {
        "nome": "Eva Exemplo", "municipio_residencia": "Nova Odessa",
        "escola": {"nome": "Colégio Exemplo de Americana", "municipio": "Americana"}}
    assert back.report.complete, [i.to_json() for i in back.report.pending]


def test_sim_nao_questions_are_radio_groups(engine: Engine) -> None:
    reader = PdfReader(io.BytesIO(engine.prefill(REQ, {})))
    fields = reader.get_fields() or {}
    for name in ("declaracoes/somente_alunos_origem", "declaracoes/legislacao_estadual",
                 "documentos/contratos/vistado_municipio_origem"):
        field = fields[name]
        assert int(field.get("/Ff", 0)) & (1 << 15), name
        assert sorted(field["/_States_"]) == ["/nao", "/sim"], name
        assert field.get("/V", NameObject("/Off")) == "/Off", name  # unanswered


def test_ends_with_place_date_and_signature_and_renders(
    engine: Engine, tmp_path: Path
) -> None:
    pdf = engine.prefill(REQ, example(engine, REQ))
    last = " ".join((PdfReader(io.BytesIO(pdf)).pages[-1].extract_text() or "").split())
    assert "Local:" in last and "Data:" in last
    assert "Assinatura da parte requerente" in last
    if shutil.which("pdftoppm"):
        path = tmp_path / "req.pdf"
        path.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "1", str(path),
                        str(tmp_path / "p")], check=True)
        assert any(tmp_path.glob("p*.png"))
