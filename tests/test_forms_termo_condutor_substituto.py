"""The termo of the substitute vehicle's driver who is not the licensed driver (Lei nº
4.515/2007, art. 5º, III): tied to a Licença Temporária for a substitute vehicle that the
registry holds (in force, not cancelled, the vehicle's and the holder's), the driver's CNH
of category "D" valid on the date, the course certificate, a driver other than the
licensed one; the termo lasts to the licence's end, and no longer than the CNH; issued
in its own series, signed for SETRANSV and with the driver's signature line."""

from __future__ import annotations

import io
import shutil
import subprocess
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from formcases import DELETE, assert_pending, at, example, pdf_text, pending_at, setter
from historycases import FakeHistory
from issuers import dev_issuer
from pypdf import PdfReader

from lavra.checking.computations import PriorRecord
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra.errors import InputError
from lavra_americana import pacote
from lavra_americana.transporte_escolar import termo_substituto

FORM = "termo-condutor-substituto"
LTE = "licenca-temporaria-escolar"
ALV = "alvara-transporte-escolar"
E = "transporte-escolar#"
TERMO = E + "art5_inc3"
ISSUED = date(2026, 12, 1)
#: The licence of the example, as the registry holds it: issued on 17/03/2026 for 20
#: days, 17/03 the first of them (art. 5º): valid to Sunday 05/04, which does not move.
LICENCE_START, LICENCE_END = date(2026, 3, 17), date(2026, 4, 5)


def licence(**changes: Any) -> PriorRecord:
    """The example's Licença Temporária in the registry (changes: PriorRecord fields, or
    ``data`` merged into its data)."""
    held: dict[str, Any] = {
        "modalidade": "veiculo_substituto",
        "titular": {"nome": "José Exemplo dos Santos", "cpf": "529.982.247-25"},
        "veiculo": {"placa": "EXE1A23"},
        "veiculo_substituto": {"placa": "SUB2B34"},
    }
    held.update(changes.pop("data", {}))
    fields: dict[str, Any] = {
        "form": LTE, "series": "LTE-ESC", "valid_until": LICENCE_END, **changes
    }
    start = fields.pop("start", LICENCE_START)
    return PriorRecord("0001/2026", start, held, **fields)


def report_of(
    engine: Engine, data: dict[str, Any], history: FakeHistory | None = None,
    issued_on: date = ISSUED,
) -> Report:
    registry = FakeHistory(licence()) if history is None else history
    return engine.prepare(FORM, data, issued_on=issued_on, history=registry).report


def on(day: date, data: dict[str, Any]) -> dict[str, Any]:
    data["data_termo"] = day.isoformat()
    return data


# ------------------------------------------------------------------ the complete case


def test_complete_with_the_licence_in_the_registry(engine: Engine) -> None:
    data = example(engine, FORM)
    prepared = engine.prepare(FORM, data, issued_on=ISSUED, history=FakeHistory(licence()))
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    computed = prepared.computed
    assert computed["licenca_numero"] == "LTE-ESC nº 0001/2026"
    assert computed["inicio_vigencia"] == date(2026, 3, 18)
    assert computed["valido_ate"] == LICENCE_END
    assert computed["limitado_por"] == "licenca"
    form = engine.content.form(FORM)
    assert form.series == "TCS-ESC" and form.signer_role == "agente-fiscalizacao"
    assert not form.fillable


def test_the_module_is_registered_and_counted_for_coverage() -> None:
    pack = pacote()
    assert pack.computations["termo_condutor_substituto"] is (
        termo_substituto.termo_condutor_substituto
    )
    assert termo_substituto in pack.rule_modules
    assert TERMO in termo_substituto.IMPLEMENTED


# ------------------------------------------------------------------ the licence


def test_without_the_registry_the_licence_is_missing(engine: Engine) -> None:
    report = report_of(engine, example(engine, FORM), FakeHistory())
    assert_pending(report, "/licenca_temporaria/numero", Status.MISSING, TERMO)
    assert "não consta do registro" in at(report, "/licenca_temporaria/numero").message


@pytest.mark.parametrize(("record", "field", "words"), [
    (licence(cancelled=True, cancel_reason="expedida em duplicidade"),
     "/licenca_temporaria/numero", "foi cancelada (expedida em duplicidade)"),
    (licence(data={"modalidade": "condutor_saude"}), "/licenca_temporaria/numero",
     "não é licença para veículo substituto"),
    (licence(data={"veiculo": {"placa": "OUT9Z99"}}), "/licenca_temporaria/numero",
     "é do veículo de placa OUT9Z99"),
    (licence(data={"veiculo_substituto": {"placa": "OUT9Z99"}}), "/veiculo_substituto/placa",
     "veículo substituto de placa OUT9Z99"),
    (licence(data={"titular": {"cpf": "11144477735"}}), "/titular/cpf",  # stored bare
     "é de outro condutor licenciado (CPF 111.444.777-35)"),
    (licence(valid_until=date(2026, 4, 10)), "/licenca_temporaria/valido_ate",
     "vale, segundo o registro, até 10/04/2026"),
], ids=["cancelled", "health-licence", "other-vehicle", "other-substitute", "other-holder",
        "other-validity"])
def test_the_licence_in_the_registry_must_match(
    engine: Engine, record: PriorRecord, field: str, words: str
) -> None:
    report = report_of(engine, example(engine, FORM), FakeHistory(record))
    found = at(report, field)
    assert found.status is Status.INVALID and TERMO in found.basis, found
    assert words in found.message, found.message
    assert "11144477735" not in found.message  # a CPF is printed formatted
    assert not report.complete


@pytest.mark.parametrize(("day", "complete"), [
    (LICENCE_START - timedelta(days=1), False),  # before the licence was issued
    (LICENCE_START, True),  # the day it was issued
    (LICENCE_END, True),  # its last day
    (LICENCE_END + timedelta(days=1), False),  # expired
])
def test_the_termo_is_signed_while_the_licence_is_in_force(
    engine: Engine, day: date, complete: bool
) -> None:
    report = report_of(engine, on(day, example(engine, FORM)))
    assert report.complete is complete, [i.to_json() for i in report.pending]
    if not complete:
        found = at(report, "/licenca_temporaria/numero")
        assert found.status is Status.INVALID and "não está em vigor" in found.message


def test_the_termo_does_not_outlive_the_licence_nor_the_cnh(engine: Engine) -> None:
    data = example(engine, FORM)
    prepared = engine.prepare(FORM, data, issued_on=ISSUED, history=FakeHistory(licence()))
    assert prepared.computed["valido_ate"] == LICENCE_END
    # a CNH expiring during the licence cuts the termo at its validity
    data["condutor"]["cnh"]["validade"] = "2026-03-30"
    prepared = engine.prepare(FORM, data, issued_on=ISSUED, history=FakeHistory(licence()))
    assert prepared.report.complete
    assert prepared.computed["valido_ate"] == date(2026, 3, 30)
    assert prepared.computed["limitado_por"] == "cnh"
    assert "a validade da CNH do condutor" in prepared.computed["vigencia_explicacao"]


# ------------------------------------------------------------------ the driver


def test_the_licensed_driver_signs_no_termo(engine: Engine) -> None:
    data = example(engine, FORM)
    data["condutor"]["cpf"] = data["titular"]["cpf"]
    assert_pending(report_of(engine, data), "/condutor/cpf", Status.INVALID, TERMO)


@pytest.mark.parametrize("category", ["B", "C", "AB", "AC"])
def test_a_cnh_other_than_d_is_refused(engine: Engine, category: str) -> None:
    data = example(engine, FORM)
    data["condutor"]["cnh"]["categoria"] = category
    assert_pending(report_of(engine, data), "/condutor/cnh", Status.INVALID, TERMO)


@pytest.mark.parametrize("category", ["D", "E", "AD", "AE"])
def test_categories_that_include_d_are_accepted(engine: Engine, category: str) -> None:
    data = example(engine, FORM)
    data["condutor"]["cnh"]["categoria"] = category
    assert report_of(engine, data).complete


@pytest.mark.parametrize(("validity", "complete"), [
    ("2026-03-17", False),  # expired the day before the termo
    ("2026-03-18", True),  # valid through the day of the termo
])
def test_the_cnh_must_be_valid_on_the_date(
    engine: Engine, validity: str, complete: bool
) -> None:
    data = example(engine, FORM)
    data["condutor"]["cnh"]["validade"] = validity
    report = report_of(engine, data)
    assert report.complete is complete
    if not complete:
        assert_pending(report, "/condutor/cnh/validade", Status.INVALID, TERMO)


def test_without_the_course_certificate_the_termo_is_incomplete(engine: Engine) -> None:
    data = example(engine, FORM)
    setter("/documentos/curso_condutor_escolar", DELETE)(data)
    assert_pending(report_of(engine, data), "/documentos/curso_condutor_escolar",
                   Status.MISSING, TERMO)
    data = example(engine, FORM)
    data["documentos"]["curso_condutor_escolar"]["apresentado"] = False
    report = report_of(engine, data)
    assert not report.complete
    assert any(i.field.startswith("/documentos/curso_condutor_escolar") and i.pending
               for i in report.items)


def test_a_course_certificate_past_its_validity_is_refused(engine: Engine) -> None:
    data = example(engine, FORM)
    data["documentos"]["curso_condutor_escolar"]["validade"] = "2026-03-17"
    assert_pending(report_of(engine, data), "/documentos/curso_condutor_escolar/validade",
                   Status.INVALID, TERMO)


@pytest.mark.parametrize("pointer", ["/condutor/cpf", "/titular/cpf"])
def test_a_cpf_with_wrong_check_digits_is_refused(engine: Engine, pointer: str) -> None:
    data = example(engine, FORM)
    setter(pointer, "645.922.328-96")(data)
    report = report_of(engine, data)
    group = pointer.rsplit("/", 1)[0]
    assert any(i.field in (pointer, group) and i.status is Status.INVALID and "CPF" in i.message
               for i in report.items), [i.to_json() for i in report.pending]
    assert not report.complete


@pytest.mark.parametrize("pointer", [
    "/condutor/cnh", "/condutor/nome", "/servidor", "/licenca_temporaria/valido_ate",
    "/veiculo_substituto", "/data_termo",
])
def test_each_required_part_is_reported_missing(engine: Engine, pointer: str) -> None:
    data = example(engine, FORM)
    setter(pointer, DELETE)(data)
    report = report_of(engine, data)
    assert pending_at(report, pointer) and not report.complete


# ------------------------------------------------------------------ dates


@pytest.mark.parametrize(("issued_on", "complete"), [
    (date(2026, 3, 17), False),  # the termo would be post-dated
    (date(2026, 3, 18), True),  # issued on its own date
])
def test_the_termo_may_not_be_post_dated(
    engine: Engine, issued_on: date, complete: bool
) -> None:
    report = report_of(engine, example(engine, FORM), issued_on=issued_on)
    assert report.complete is complete
    if not complete:
        assert_pending(report, "/data_termo", Status.INVALID, TERMO)


def test_a_course_certificate_issued_after_the_termo_is_refused(engine: Engine) -> None:
    data = example(engine, FORM)
    data["documentos"]["curso_condutor_escolar"]["data_emissao"] = "2026-03-19"
    report = report_of(engine, data)
    assert at(report, "/documentos/curso_condutor_escolar/data_emissao").pending
    assert not report.complete


# ------------------------------------------------------------------ the document


def test_issued_after_its_licence_in_its_own_series(engine: Engine, tmp_path: Path) -> None:
    """Over a fresh registry: the alvará, the vistoria of the substitute vehicle, the
    Licença Temporária on both, then the termo;
    the PDF names the licence with its series, the term, both signers."""
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        alvara = issuer.issue(ALV, example(engine, ALV))
        vistoria = example(engine, "termo-vistoria-veiculo-substituto")
        vistoria["alvara"]["numero"] = alvara.record.printed
        inspected = issuer.issue("termo-vistoria-veiculo-substituto", vistoria)
        lte = example(engine, LTE)
        lte["alvara"]["numero"] = alvara.record.printed
        lte["veiculo_substituto"]["vistoria"]["numero"] = inspected.record.printed
        issued_licence = issuer.issue(LTE, lte)
        data = example(engine, FORM)
        data["licenca_temporaria"]["numero"] = issued_licence.record.printed
        result = issuer.issue(FORM, data)
        assert result.record.printed.startswith("TCS-ESC nº 0001/")
        text = pdf_text(result.pdf)
        for words in (
            "Termo de Responsabilidade do Condutor do Veículo Substituto",
            f"Licença Temporária {issued_licence.record.printed}",
            "Ana Exemplo Moreira, CPF nº 645.922.328-95",
            "categoria “AD”, válida até 05/11/2029",
            "de 18/03/2026 a 05/04/2026",
            "Assinatura do condutor",
            "Paulo Exemplo Fiscal",
            "Agente de Fiscalização de Trânsito",
        ):
            assert words in text, words
        assert issuer.verify(result.pdf).valid
        # the licence is not cancelled while the termo rests on it; once both are,
        # no termo is signed under it
        held, termo = issued_licence.record, result.record
        with pytest.raises(InputError, match=f"o {termo.printed}, que não foi cancelado"):
            issuer.registry.cancel(held.series, held.year, held.number,
                                   reason="expedida em duplicidade", by="Servidor de teste")
        for record in (termo, held):
            issuer.registry.cancel(record.series, record.year, record.number,
                                   reason="expedida em duplicidade", by="Servidor de teste")
        again = issuer.prepare(FORM, data)
        found = at(again.report, "/licenca_temporaria/numero")
        assert found.status is Status.INVALID and "foi cancelada" in found.message
    finally:
        issuer.close()


def test_the_draft_renders_with_the_signature_line(engine: Engine, tmp_path: Path) -> None:
    data = example(engine, FORM)
    draft = engine.draft(FORM, data, history=FakeHistory(licence()))
    text = pdf_text(draft.pdf)
    assert "MINUTA" in text or "Minuta" in text
    assert "______" in text and "Ana Exemplo Moreira" in text
    assert len(PdfReader(io.BytesIO(draft.pdf)).pages) <= 4
    if shutil.which("pdftoppm"):
        target = tmp_path / "pagina"
        pdf = tmp_path / "termo.pdf"
        pdf.write_bytes(draft.pdf)
        subprocess.run(["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "1", str(pdf),
                        str(target)], check=True)
        assert any(tmp_path.glob("pagina*.png"))
