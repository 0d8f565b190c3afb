"""The termo of SETRANSV's vistoria of the substitute vehicle (Lei nº 4.515/2007, art. 5º,
II): similar to the replaced vehicle, at most 10 years of manufacture, presented within
24 hours of the occurrence; approved or reproved, issued either way in its own series;
and the Licença Temporária for a substitute vehicle, which requires an approved termo of
the same vehicle from the registry."""

from __future__ import annotations

import copy
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from formcases import assert_pending, at, example, pdf_text
from historycases import FakeHistory, alvara_on_file, registered, substitute_vistoria
from issuers import dev_issuer

from lavra.checking.computations import PriorRecord
from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import IncompleteError
from lavra_americana import pacote
from lavra_americana.transporte_escolar import vistoria_substituto

FORM = "termo-vistoria-veiculo-substituto"
LTE = "licenca-temporaria-escolar"
ALV = "alvara-transporte-escolar"
PRESENTED = "transporte-escolar#art5_inc2"
NUMBER = "/veiculo_substituto/vistoria/numero"
ISSUED = date(2026, 12, 1)


def alvara() -> PriorRecord:
    """The example's alvará (ALV-ESC 0007/2026, vehicle EXE1A23) in the registry."""
    return registered(ALV, "0007/2026", date(2026, 1, 1), date(2026, 12, 31), "EXE1A23",
                      series="ALV-ESC")


# ------------------------------------------------------------------ the termo


def test_the_example_is_approved_and_complete(engine: Engine) -> None:
    prepared = engine.prepare(FORM, example(engine, FORM), issued_on=ISSUED,
                              history=FakeHistory(alvara()))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["aprovado"] is True
    assert [c["atendida"] for c in prepared.computed["condicoes"]] == [True, True, True]
    assert "APROVADO" in prepared.computed["resultado"]
    form = engine.content.form(FORM)
    assert form.series == "TVS-ESC" and form.signer_role == "agente-fiscalizacao"
    pack = pacote()
    assert vistoria_substituto in pack.rule_modules
    assert PRESENTED in vistoria_substituto.IMPLEMENTED
    assert FORM in pack.effects


@pytest.mark.parametrize(("change", "words"), [
    ({"semelhanca": {"constatada": False, "constatacao": "Van de 15 lugares, não micro-ônibus."}},
     "semelhante ao veículo substituído"),
    ({"veiculo_substituto": {"ano_fabricacao": 2014}}, "no máximo 10 (dez) anos de fabricação"),
    ({"vistoria": {"data": "2026-03-17", "hora": "08:00"}},
     "apresentado no prazo de 24 (vinte e quatro) horas da ocorrência"),
], ids=["not-similar", "too-old", "late"])
def test_a_failed_condition_reproves_and_the_termo_is_still_issuable(
    engine: Engine, change: dict[str, Any], words: str
) -> None:
    data = example(engine, FORM)
    for key, value in change.items():
        data[key].update(value)
    prepared = engine.prepare(FORM, data, issued_on=ISSUED, history=FakeHistory(alvara()))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["aprovado"] is False
    assert f"REPROVADO na vistoria: não atende à condição de ser {words}" in (
        prepared.computed["resultado"])


def test_a_dissimilar_vehicle_needs_what_was_found(engine: Engine) -> None:
    data = example(engine, FORM)
    data["semelhanca"] = {"constatada": False}
    report = engine.prepare(FORM, data, issued_on=ISSUED, history=FakeHistory(alvara())).report
    assert not report.complete
    assert at(report, "/semelhanca").pending


def test_the_alvara_must_be_in_the_registry(engine: Engine) -> None:
    report = engine.prepare(FORM, example(engine, FORM), issued_on=ISSUED,
                            history=FakeHistory()).report
    assert_pending(report, "/alvara/numero", Status.MISSING, "transporte-escolar#art5")


def test_a_vistoria_after_the_issue_is_refused(engine: Engine) -> None:
    report = engine.prepare(FORM, example(engine, FORM), issued_on=date(2026, 3, 16),
                            history=FakeHistory(alvara())).report
    assert at(report, "/vistoria/data").status is Status.INVALID


# ------------------------------------------------------------------ the licence requires it


def lte_report(engine: Engine, data: dict[str, Any], record: PriorRecord | None) -> Any:
    history = alvara_on_file(data)
    history.records = tuple(r for r in history.records if r.form != FORM)
    if record is not None:
        history.records += (record,)
    return engine.prepare(LTE, data, issued_on=ISSUED, history=history).report


def test_the_licence_names_an_approved_vistoria_of_the_registry(engine: Engine) -> None:
    data = example(engine, LTE)
    report = lte_report(engine, data, substitute_vistoria(data))
    assert report.complete, [i.message for i in report.pending]
    assert at(report, NUMBER).status is Status.MET


def test_without_the_termo_the_licence_is_missing_it(engine: Engine) -> None:
    data = example(engine, LTE)
    del data["veiculo_substituto"]["vistoria"]["numero"]
    report = lte_report(engine, data, None)
    assert_pending(report, NUMBER, Status.MISSING, PRESENTED)
    assert "a licença exige a vistoria do veículo substituto" in at(report, NUMBER).message
    data["veiculo_substituto"]["vistoria"]["numero"] = "VS-2026-0012"  # on paper
    report = lte_report(engine, data, None)
    assert_pending(report, NUMBER, Status.MISSING, PRESENTED)
    assert "não consta do registro" in at(report, NUMBER).message


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"cancelled": True, "cancel_reason": "lavrado em duplicidade"}, NUMBER,
     "foi cancelado (lavrado em duplicidade)"),
    ({"data": {"semelhanca": {"constatada": False, "constatacao": "Van."}}}, NUMBER,
     "reprovou o veículo substituto"),
    ({"data": {"veiculo_substituto": {"placa": "OUT9Z99", "renavam": "56141032109",
                                      "marca_modelo": "Outro", "tipo": "microonibus",
                                      "ano_fabricacao": 2019}}},
     "/veiculo_substituto/placa", "do veículo substituto de placa OUT9Z99"),
    ({"data": {"titular": {"nome": "Outro", "cpf": "11144477735"}}}, "/titular/cpf",
     "é de outro condutor licenciado (CPF 111.444.777-35)"),
    ({"data": {"vistoria": {"data": "2026-03-17", "hora": "06:45"}}},
     "/veiculo_substituto/vistoria/data", "registra a vistoria em 17/03/2026, às 06:45"),
], ids=["cancelled", "reproved", "other-vehicle", "other-holder", "other-hour"])
def test_the_termo_in_the_registry_must_fit_the_licence(
    engine: Engine, changes: dict[str, Any], field: str, words: str
) -> None:
    data = example(engine, LTE)
    record = substitute_vistoria(copy.deepcopy(data), **copy.deepcopy(changes))
    report = lte_report(engine, data, record)
    found = at(report, field)
    assert found.status is Status.INVALID and PRESENTED in found.basis, found.message
    assert words in found.message
    assert "11144477735" not in found.message  # a CPF is printed formatted


# ------------------------------------------------------------------ over a real registry


def test_issued_then_cited_by_the_licence(engine: Engine, tmp_path: Path) -> None:
    """The alvará, the vistoria (read back), the licence that prints it; a reproved termo
    and a cancelled one support no licence."""
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        issued_alvara = issuer.issue(ALV, example(engine, ALV))
        data = example(engine, FORM)
        data["alvara"]["numero"] = issued_alvara.record.printed
        inspected = issuer.issue(FORM, data)
        printed = inspected.record.printed
        assert printed.startswith("TVS-ESC nº 0001/")
        text = " ".join(pdf_text(inspected.pdf).split())
        for words in ("Termo de Vistoria do Veículo Substituto",
                      f"Alvará para Transporte Escolar {issued_alvara.record.printed}",
                      "Veículo substituto APROVADO na vistoria",
                      "placa SUB2B34"):
            assert words in text, words
        assert issuer.verify(inspected.pdf).valid
        lte = example(engine, LTE)
        lte["alvara"]["numero"] = issued_alvara.record.printed
        lte["veiculo_substituto"]["vistoria"]["numero"] = printed
        licence = issuer.issue(LTE, lte)
        assert f"Termo de Vistoria do Veículo Substituto {printed}, em 17/03/2026" in " ".join(
            pdf_text(licence.pdf).split())
        failed = copy.deepcopy(data)
        failed["veiculo_substituto"]["ano_fabricacao"] = 2014
        reproved = issuer.issue(FORM, failed)
        assert "REPROVADO" in pdf_text(reproved.pdf)
        again = copy.deepcopy(lte)
        again["veiculo_substituto"]["vistoria"]["numero"] = reproved.record.printed
        with pytest.raises(IncompleteError):
            issuer.issue(LTE, again)
        held = inspected.record
        with pytest.raises(InputError, match=f"o {licence.record.printed}, que não foi "
                           "cancelado, o cita"):  # the licence rests on the termo
            issuer.registry.cancel(held.series, held.year, held.number,
                                   reason="lavrado em duplicidade", by="teste")
        for record in (licence.record, held):
            issuer.registry.cancel(record.series, record.year, record.number,
                                   reason="lavrado em duplicidade", by="teste")
        with pytest.raises(IncompleteError):
            issuer.issue(LTE, lte)
    finally:
        issuer.close()
