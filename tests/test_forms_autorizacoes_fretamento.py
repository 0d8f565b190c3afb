"""The authorisations of SETRANSV a fretamento company asks for (Lei nº 4.419/2006) and
their requerimentos: the prior authorisation to alter a vehicle (art. 10, § 3º), granted
only if the vehicle still meets art. 10 afterwards, and the use of another company's
vehicle (art. 15, VI), both companies licensed, never beyond either alvará.

Each act: the complete example, each incompleteness (the characteristic of art. 10 an
alteration would break, the alvará the registry contradicts or nobody checked), the
boundary dates (the alvará's last day and the day after; the period ending on an
alvará's vencimento and one day past it), and the issue over a fresh registry.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
import test_fillable_pages as fillable_pages
from formcases import DELETE, Change, at, example, pdf_text, pending_at, setter
from historycases import FakeHistory
from issuers import dev_issuer

from lavra.checking.computations import PriorRecord, find_computation
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.fretamento import autorizacoes

ALT = "autorizacao-previa-alteracao-veiculo"
ALV = "alvara-fretamento"
F = "fretamento#"
ISSUED = date(2026, 12, 1)
ON = date(2026, 11, 27)  # the example's date
CNPJ = "65.563.842/0001-05"
OTHER_CNPJ = "11.222.333/0001-81"
PLATE = "ABC1D23"


def alvara(number: str = "0012/2025", until: date = date(2030, 3, 9),
           start: date = date(2025, 3, 10), plate: str = PLATE, cnpj: str = CNPJ,
           **extra: Any) -> PriorRecord:
    """An alvará of fretamento as the registry holds it."""
    return PriorRecord(
        number, start, {"veiculo": {"placa": plate}, "empresa": {"cnpj": cnpj}},
        form=ALV, series="ALV-FRET", valid_until=until, **extra,
    )


def report_of(engine: Engine, form: str, data: dict[str, Any], history: Any = None,
              issued: date = ISSUED) -> Report:
    return engine.prepare(form, data, issued_on=issued, history=history).report


# ------------------------------------------------------------ alteração (art. 10, § 3º)


def test_alteration_example_is_complete_numbered_and_signed_by_the_secretario(
    engine: Engine,
) -> None:
    prepared = engine.prepare(ALT, example(engine, ALT), issued_on=ISSUED)
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == date(2030, 3, 9)
    assert "vencimento do Alvará de Licença de Circulação do veículo ALV-FRET nº 0012/2025" in (
        prepared.computed["vigencia_explicacao"]
    )
    form = engine.content.form(ALT)
    assert form.series == "AAV-FRET" and form.signer_role == "secretario-transportes"
    computation = find_computation(pacote(), "autorizacao_alteracao_veiculo")
    assert computation is autorizacoes.autorizacao_alteracao_veiculo
    assert {F + "art10_par3", F + "art15_inc6"} <= set(autorizacoes.IMPLEMENTED)
    # art. 10, VII is in force without text: a notice, never a silent pass
    notice = [i for i in prepared.report.items if i.status is Status.NOT_APPLICABLE]
    assert any(F + "art10_inc7" in i.basis for i in notice)


BROKEN: dict[str, tuple[Change, str, str]] = {
    "seats without belts": (setter("/veiculo/bancos_estofados_com_cinto", False),
                            "/veiculo/bancos_estofados_com_cinto", "art10_inc2"),
    "licensed elsewhere": (setter("/veiculo/municipio_licenciamento", "Campinas"),
                           "/veiculo/municipio_licenciamento", "art10_inc3"),
    "7 seats": (setter("/veiculo/lotacao_sentados", 7), "/veiculo/lotacao_sentados",
                "art10_inc4"),
    "no head rests": (setter("/veiculo/encosto_cabeca", False), "/veiculo/encosto_cabeca",
                      "art10_inc5"),
    "tachograph removed": (setter("/veiculo/tacografo", False), "/veiculo/tacografo",
                           "art10_inc6"),
    "taxímetro installed": (setter("/veiculo/taximetro", True), "/veiculo/taximetro",
                            "art10_par2"),
    "a second door on an ônibus": (setter("/veiculo/portas", 2), "/veiculo/portas",
                                   "art10_par6"),
    "coach seats removed": (setter("/veiculo/poltronas_rodoviarias", False),
                            "/veiculo/poltronas_rodoviarias", "art10_par6"),
    "turned into another type, past its 5 years": (
        setter("/veiculo/tipo", "outro"), "/veiculo/ano_fabricacao", "art10_inc1"),
}


@pytest.mark.parametrize("case", list(BROKEN), ids=list(BROKEN))
def test_an_alteration_that_breaks_art_10_cannot_be_authorised(
    engine: Engine, case: str
) -> None:
    change, field, fragment = BROKEN[case]
    data = example(engine, ALT)
    change(data)
    found = at(report_of(engine, ALT, data), field)
    assert found.status is Status.INVALID, found
    assert F + fragment in found.basis
    if fragment != "art10_inc1":
        assert "não pode ser autorizada" in found.message


@pytest.mark.parametrize(
    "pointer",
    ["/empresa", "/alvara", "/alvara/numero", "/veiculo", "/veiculo/tacografo",
     "/alteracao", "/alteracao/descricao", "/processo", "/data"],
)
def test_alteration_each_required_field_is_pending(engine: Engine, pointer: str) -> None:
    data = example(engine, ALT)
    setter(pointer, DELETE)(data)
    report = report_of(engine, ALT, data)
    assert not report.complete and pending_at(report, pointer)


def test_a_paper_alvara_needs_a_servants_check(engine: Engine) -> None:
    data = example(engine, ALT)
    del data["alvara"]["conferencia"]
    found = at(report_of(engine, ALT, data), "/alvara/conferencia")
    assert found.status is Status.MISSING and "conferi-lo no original" in found.message
    assert F + "art10_par3" in found.basis


@pytest.mark.parametrize(
    ("checked", "ok"), [("2026-11-27", True), ("2026-11-28", False)],
    ids=["checked on the day of the act", "checked the day after"],
)
def test_the_check_of_the_paper_alvara_is_not_after_the_act(
    engine: Engine, checked: str, ok: bool
) -> None:
    data = example(engine, ALT)
    data["alvara"]["conferencia"]["data"] = checked
    report = report_of(engine, ALT, data)
    assert report.complete is ok, [i.message for i in report.pending]


@pytest.mark.parametrize(
    ("until", "ok"), [(ON, True), (ON - timedelta(days=1), False)],
    ids=["the alvará's last day", "the day after it expired"],
)
def test_alteration_boundary_of_the_alvaras_vencimento(
    engine: Engine, until: date, ok: bool
) -> None:
    data = example(engine, ALT)
    data["alvara"]["valido_ate"] = until.isoformat()
    prepared = engine.prepare(ALT, data, issued_on=ISSUED)
    assert prepared.report.complete is ok, [i.message for i in prepared.report.pending]
    if ok:
        assert prepared.computed["valido_ate"] == ON
    else:
        assert at(prepared.report, "/alvara/valido_ate").status is Status.INVALID


def test_alteration_from_the_registry_needs_no_check_and_takes_its_vencimento(
    engine: Engine,
) -> None:
    data = example(engine, ALT)
    del data["alvara"]["conferencia"]
    data["alvara"]["valido_ate"] = "2029-06-30"
    history = FakeHistory(alvara(until=date(2029, 6, 30)))
    prepared = engine.prepare(ALT, data, issued_on=ISSUED, history=history)
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == date(2029, 6, 30)
    assert prepared.computed["alvara"] == "ALV-FRET nº 0012/2025"


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (alvara(cancelled=True, cancel_reason="cassação"), "cancelado"),
        (alvara(until=ON - timedelta(days=1)), "não está em vigor"),
        (alvara(plate="XYZ9A87"), "XYZ9A87"),
        (alvara(cnpj=OTHER_CNPJ), "de outra empresa"),
    ],
    ids=["cancelled", "expired the day before", "another vehicle", "another company"],
)
def test_alteration_refused_on_an_alvara_the_registry_contradicts(
    engine: Engine, record: PriorRecord, words: str
) -> None:
    data = example(engine, ALT)
    if record.valid_until is not None:
        data["alvara"]["valido_ate"] = record.valid_until.isoformat()
    found = at(report_of(engine, ALT, data, FakeHistory(record)), "/alvara/numero")
    assert found.status is Status.INVALID and words in found.message, found


@pytest.mark.parametrize(
    ("pointer", "value"),
    [("/data", "2026-12-02"), ("/processo/data_requerimento", "2026-11-28")],
    ids=["post-dated act", "requerimento after the act"],
)
def test_alteration_dates_in_order(engine: Engine, pointer: str, value: str) -> None:
    data = example(engine, ALT)
    setter(pointer, value)(data)
    if pointer == "/data":
        data["alvara"]["conferencia"]["data"] = value
    assert at(report_of(engine, ALT, data), pointer).status is Status.INVALID


def test_a_type_change_shortens_the_term_to_the_new_age_limit(engine: Engine) -> None:
    data = example(engine, ALT)
    data["veiculo"]["tipo"] = "microonibus"  # 10 years: a 2018 vehicle runs to 31/12/2028
    data["veiculo"].pop("portas")
    prepared = engine.prepare(ALT, data, issued_on=ISSUED)
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == date(2028, 12, 31)
    assert "do veículo alterado" in prepared.computed["vigencia_explicacao"]


def test_alteration_draft_says_what_is_authorised_and_what_follows(engine: Engine) -> None:
    text = pdf_text(engine.draft(ALT, example(engine, ALT)).pdf)
    assert "autoriza previamente a Viação Exemplo de Fretamento Ltda." in text
    assert "ALV-FRET nº 0012/2025" in text and "conferido no original" in text
    assert "A alteração poderá ser executada até 09/03/2030" in text
    assert "atualização do seu Alvará de Licença de Circulação" in text
    assert "Este ato não aplica o art. 10, inciso VII" in text
    assert "Ltda.." not in text


def test_alteration_issued_over_a_fresh_registry(engine: Engine, tmp_path: Path) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        alvara_data = example(engine, ALV)
        issued = issuer.issue(ALV, alvara_data, on=date(2026, 11, 27))
        data = example(engine, ALT)
        del data["alvara"]["conferencia"]
        data["alvara"]["numero"] = issued.record.printed
        data["alvara"]["valido_ate"] = issued.record.computed["valido_ate"]
        data["data"] = "2026-12-01"
        result = issuer.issue(ALT, data)
        assert result.record.printed.startswith("AAV-FRET nº 0001/")
        text = pdf_text(result.pdf)
        assert issued.record.printed in text
        assert "poderá ser executada até 26/11/2031" in text
        assert issuer.verify(result.pdf).valid
        # the alvará cancelled: no authorisation rests on it any more
        issuer.cancel(issued.record.formatted, "cassação", "Secretário", series="ALV-FRET")
        again = issuer.prepare(ALT, data)
        assert at(again.report, "/alvara/numero").status is Status.INVALID
    finally:
        issuer.close()


# ------------------------------------------------- veículo de outra empresa (art. 15, VI)

TER = "autorizacao-veiculo-terceiro"
OTHER_PLATE = "DEF4G56"
VEHICLE_END = date(2027, 1, 31)  # the vehicle's alvará in the example


def test_third_party_example_is_complete_and_cut_to_the_vehicles_alvara(
    engine: Engine,
) -> None:
    prepared = engine.prepare(TER, example(engine, TER), issued_on=ISSUED)
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    computed = prepared.computed
    assert computed["inicio_vigencia"] == date(2026, 12, 1)
    assert computed["valido_ate"] == VEHICLE_END and computed["reduzido"] is True
    assert computed["vigencia_explicacao"].startswith(
        "O vencimento em 31/01/2027 é o primeiro dos limites aplicáveis: o vencimento do "
        "Alvará de Licença de Circulação do veículo ALV-FRET nº 0003/2024"
    )
    form = engine.content.form(TER)
    assert form.series == "AVT-FRET" and form.signer_role == "secretario-transportes"
    computation = find_computation(pacote(), "autorizacao_veiculo_terceiro")
    assert computation is autorizacoes.autorizacao_veiculo_terceiro


@pytest.mark.parametrize(
    ("end", "granted", "reduced"),
    [
        (VEHICLE_END - timedelta(days=1), VEHICLE_END - timedelta(days=1), False),
        (VEHICLE_END, VEHICLE_END, False),
        (VEHICLE_END + timedelta(days=1), VEHICLE_END, True),
    ],
    ids=["ends the day before the alvará", "ends on its vencimento", "one day past it"],
)
def test_the_period_never_outlives_the_vehicles_alvara(
    engine: Engine, end: date, granted: date, reduced: bool
) -> None:
    data = example(engine, TER)
    data["periodo"]["fim"] = end.isoformat()
    prepared = engine.prepare(TER, data, issued_on=ISSUED)
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == granted
    assert prepared.computed["reduzido"] is reduced


def test_the_period_never_outlives_the_companys_own_alvara(engine: Engine) -> None:
    data = example(engine, TER)
    data["empresa"]["alvara"]["valido_ate"] = "2026-12-31"
    prepared = engine.prepare(TER, data, issued_on=ISSUED)
    assert prepared.report.complete
    assert prepared.computed["valido_ate"] == date(2026, 12, 31)
    assert "da empresa autorizada ALV-FRET nº 0012/2025" in (
        prepared.computed["vigencia_explicacao"].split(":")[1]
    )


@pytest.mark.parametrize(
    ("start", "ok"), [("2026-11-27", True), ("2026-11-26", False)],
    ids=["starts on the day of the act", "starts the day before"],
)
def test_the_authorisation_does_not_reach_back(engine: Engine, start: str, ok: bool) -> None:
    data = example(engine, TER)
    data["periodo"]["inicio"] = start
    report = report_of(engine, TER, data)
    assert report.complete is ok
    if not ok:
        found = at(report, "/periodo/inicio")
        assert found.status is Status.INVALID and "uso passado" in found.message
        assert F + "art15_inc6" in found.basis


def test_an_end_before_the_start_is_invalid(engine: Engine) -> None:
    data = example(engine, TER)
    data["periodo"]["fim"] = "2026-11-30"
    assert at(report_of(engine, TER, data), "/periodo/fim").status is Status.INVALID


def test_no_period_left_when_an_alvara_ends_before_the_start(engine: Engine) -> None:
    data = example(engine, TER)
    data["alvara_veiculo"]["valido_ate"] = "2026-11-30"  # in force today, not on 01/12
    found = at(report_of(engine, TER, data), "/periodo/inicio")
    assert found.status is Status.INVALID and "Não há período a autorizar" in found.message


def test_the_same_company_needs_no_authorisation(engine: Engine) -> None:
    data = example(engine, TER)
    data["cedente"]["cnpj"] = data["empresa"]["cnpj"]
    found = at(report_of(engine, TER, data), "/cedente/cnpj")
    assert found.status is Status.INVALID and "não é de outra empresa" in found.message


@pytest.mark.parametrize("pointer", ["/alvara_veiculo", "/empresa/alvara"])
def test_third_party_paper_alvaras_need_a_servants_check(engine: Engine, pointer: str) -> None:
    data = example(engine, TER)
    setter(pointer + "/conferencia", DELETE)(data)
    found = at(report_of(engine, TER, data), pointer + "/conferencia")
    assert found.status is Status.MISSING and F + "art15_inc6" in found.basis


@pytest.mark.parametrize(
    ("pointer", "until"), [("/alvara_veiculo", ON - timedelta(days=1)),
                           ("/empresa/alvara", ON - timedelta(days=1))],
    ids=["the vehicle's alvará expired", "the company's alvará expired"],
)
def test_both_companies_must_be_licensed(engine: Engine, pointer: str, until: date) -> None:
    data = example(engine, TER)
    setter(pointer + "/valido_ate", until.isoformat())(data)
    found = at(report_of(engine, TER, data), pointer + "/valido_ate")
    assert found.status is Status.INVALID and "não está em vigor" in found.message


def _both_on_file(**vehicle: Any) -> FakeHistory:
    own = alvara()
    theirs = alvara("0003/2024", until=VEHICLE_END, start=date(2024, 2, 1),
                    plate=vehicle.pop("plate", OTHER_PLATE),
                    cnpj=vehicle.pop("cnpj", OTHER_CNPJ), **vehicle)
    return FakeHistory(own, theirs)


def _without_checks(data: dict[str, Any]) -> dict[str, Any]:
    del data["alvara_veiculo"]["conferencia"], data["empresa"]["alvara"]["conferencia"]
    return data


def test_third_party_from_the_registry_needs_no_check(engine: Engine) -> None:
    data = _without_checks(example(engine, TER))
    prepared = engine.prepare(TER, data, issued_on=ISSUED, history=_both_on_file())
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["alvara_veiculo"] == "ALV-FRET nº 0003/2024"
    assert prepared.computed["alvara_empresa"] == "ALV-FRET nº 0012/2025"


@pytest.mark.parametrize(
    ("vehicle", "words"),
    [
        ({"cnpj": CNPJ}, "de outra empresa"),  # the vehicle is the authorised company's own
        ({"plate": "XYZ9A87"}, "XYZ9A87"),
        ({"cancelled": True, "cancel_reason": "cassação"}, "cancelado"),
    ],
    ids=["not the cedente's", "another vehicle", "cancelled"],
)
def test_the_vehicles_alvara_the_registry_contradicts(
    engine: Engine, vehicle: dict[str, Any], words: str
) -> None:
    data = _without_checks(example(engine, TER))
    found = at(report_of(engine, TER, data, _both_on_file(**vehicle)), "/alvara_veiculo/numero")
    assert found.status is Status.INVALID and words in found.message, found


@pytest.mark.parametrize(
    "pointer",
    ["/empresa", "/empresa/alvara", "/cedente", "/cedente/cnpj", "/veiculo", "/alvara_veiculo",
     "/inspecao_veicular", "/periodo", "/periodo/fim", "/motivo", "/processo", "/data"],
)
def test_third_party_each_required_field_is_pending(engine: Engine, pointer: str) -> None:
    data = example(engine, TER)
    setter(pointer, DELETE)(data)
    report = report_of(engine, TER, data)
    assert not report.complete and pending_at(report, pointer)


def test_third_party_draft_states_the_period_and_the_socorro(engine: Engine) -> None:
    text = pdf_text(engine.draft(TER, example(engine, TER)).pdf)
    assert "autoriza a Viação Exemplo de Fretamento Ltda." in text
    assert "de 01/12/2026 até 31/01/2027" in text
    assert "O período requerido, até 28/02/2027, é autorizado apenas até essa data" in text
    assert "Transportes Modelo Turismo Ltda." in text and "ALV-FRET nº 0003/2024" in text
    assert "salvo em caso de socorro, devidamente comprovado" in text


def test_third_party_issued_over_a_fresh_registry(engine: Engine, tmp_path: Path) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        own = issuer.issue(ALV, example(engine, ALV), on=date(2026, 11, 27))
        theirs_data = example(engine, ALV)
        theirs_data["empresa"].update(razao_social="Transportes Modelo Turismo Ltda.",
                                      cnpj=OTHER_CNPJ)
        theirs_data["veiculo"].update(placa=OTHER_PLATE, renavam="92134546140")
        theirs = issuer.issue(ALV, theirs_data, on=date(2026, 11, 27))
        data = _without_checks(example(engine, TER))
        data["empresa"]["alvara"] = {"numero": own.record.printed,
                                     "valido_ate": own.record.computed["valido_ate"]}
        data["alvara_veiculo"] = {"numero": theirs.record.printed,
                                  "valido_ate": theirs.record.computed["valido_ate"]}
        data["data"] = "2026-12-01"
        # the vehicle's type and year are read from its alvará in the registry (art. 10, I)
        del data["veiculo"]["tipo"], data["veiculo"]["ano_fabricacao"]
        result = issuer.issue(TER, data)
        assert result.record.printed.startswith("AVT-FRET nº 0001/")
        assert result.record.computed["valido_ate"] == "2027-02-28"  # the period asked
        text = pdf_text(result.pdf)
        assert own.record.printed in text and theirs.record.printed in text
        assert "de 01/12/2026 até 28/02/2027" in text and "apenas até" not in text
        assert "ônibus rodoviário, fabricado em 2018" in " ".join(text.split())
        assert issuer.verify(result.pdf).valid
    finally:
        issuer.close()


# ------------------------------------------------------------------- requerimentos

REQ_ALT = "requerimento-autorizacao-alteracao-veiculo"
REQ_TER = "requerimento-autorizacao-veiculo-terceiro"
REQUERIMENTOS = (REQ_ALT, REQ_TER)
FILED = date(2026, 11, 20)


@pytest.fixture(scope="module")
def pdfs(engine: Engine) -> dict[tuple[str, str], bytes]:
    """Each requerimento prefilled with its example, and empty."""
    return {
        (form, case): engine.prefill(form, example(engine, form) if case == "exemplo" else {})
        for form in REQUERIMENTOS
        for case in ("exemplo", "vazio")
    }


@pytest.mark.parametrize("form", REQUERIMENTOS)
def test_requerimento_example_is_complete_and_reads_back(
    engine: Engine, pdfs: dict[tuple[str, str], bytes], form: str
) -> None:
    data = example(engine, form)
    assert report_of(engine, form, data).complete
    spec = engine.content.form(form)
    assert spec.fillable and spec.series is None
    back = engine.read(pdfs[form, "exemplo"])
    assert back.data == data
    assert back.report.complete, [i.message for i in back.report.pending]


@pytest.mark.parametrize("form", REQUERIMENTOS)
@pytest.mark.parametrize(
    "check",
    [fillable_pages.test_every_field_lies_inside_its_page,
     fillable_pages.test_buttons_carry_what_acrobat_needs,
     fillable_pages.test_form_ends_with_place_date_and_signature],
    ids=["fields inside the page", "buttons as Acrobat needs", "place, date, signature"],
)
def test_requerimento_passes_the_fillable_page_checks(
    pdfs: dict[tuple[str, str], bytes], form: str, check: Any
) -> None:
    if check is fillable_pages.test_every_field_lies_inside_its_page:
        for case in ("exemplo", "vazio"):
            check(pdfs, form, case)
    else:
        check(pdfs, form)


@pytest.mark.parametrize("form", REQUERIMENTOS)
def test_requerimento_questions_are_sim_nao_radio_groups(engine: Engine, form: str) -> None:
    fillable_pages.test_sim_nao_questions_are_radio_groups(engine, form)


def test_a_nao_to_an_art_10_question_comes_back_as_an_invalid_requerimento(
    engine: Engine,
) -> None:
    data = example(engine, REQ_ALT)
    data["veiculo"]["tacografo"] = False
    back = engine.read(engine.prefill(REQ_ALT, data))
    assert back.data["veiculo"]["tacografo"] is False
    found = at(back.report, "/veiculo/tacografo")
    assert found.status is Status.INVALID and "não pode ser autorizada" in found.message


def test_the_requerimento_does_not_ask_the_registry_for_a_paper_alvara(engine: Engine) -> None:
    for form in REQUERIMENTOS:
        report = report_of(engine, form, example(engine, form), FakeHistory())
        assert report.complete, (form, [i.message for i in report.pending])


def test_the_requerimento_reports_what_the_registry_contradicts(engine: Engine) -> None:
    data = example(engine, REQ_ALT)
    history = FakeHistory(alvara(cnpj=OTHER_CNPJ))
    found = at(report_of(engine, REQ_ALT, data, history), "/alvara/numero")
    assert found.status is Status.INVALID and "de outra empresa" in found.message
    data = example(engine, REQ_TER)
    found = at(report_of(engine, REQ_TER, data, _both_on_file(cnpj=CNPJ)),
               "/alvara_veiculo/numero")
    assert found.status is Status.INVALID and "de outra empresa" in found.message


@pytest.mark.parametrize(
    ("form", "pointer"),
    [(REQ_ALT, "/alvara"), (REQ_TER, "/alvara_veiculo"), (REQ_TER, "/requerente/alvara")],
)
@pytest.mark.parametrize(
    ("until", "ok"), [(FILED, True), (FILED - timedelta(days=1), False)],
    ids=["alvará's last day", "the day after"],
)
def test_requerimento_with_an_expired_alvara_is_told_so(
    engine: Engine, form: str, pointer: str, until: date, ok: bool
) -> None:
    data = example(engine, form)
    setter(pointer + "/valido_ate", until.isoformat())(data)
    if form == REQ_TER and ok:
        data["periodo"] = {"inicio": FILED.isoformat(), "fim": FILED.isoformat()}
    report = report_of(engine, form, data)
    assert report.complete is ok, [i.message for i in report.pending]
    if not ok:
        assert at(report, pointer + "/valido_ate").status is Status.INVALID


@pytest.mark.parametrize(
    ("start", "ok"), [(FILED, True), (FILED - timedelta(days=1), False)],
    ids=["from the day it is filed", "from the day before"],
)
def test_the_requerimento_cannot_ask_for_past_use(
    engine: Engine, start: date, ok: bool
) -> None:
    data = example(engine, REQ_TER)
    data["periodo"]["inicio"] = start.isoformat()
    report = report_of(engine, REQ_TER, data)
    assert report.complete is ok
    if not ok:
        assert at(report, "/periodo/inicio").status is Status.INVALID


@pytest.mark.parametrize(
    ("form", "pointer"),
    [(REQ_ALT, "/requerente/representante"), (REQ_ALT, "/alteracao/descricao"),
     (REQ_ALT, "/veiculo/encosto_cabeca"), (REQ_ALT, "/data_requerimento"),
     (REQ_TER, "/cedente"), (REQ_TER, "/periodo/inicio"), (REQ_TER, "/motivo"),
     (REQ_TER, "/socorro"), (REQ_TER, "/documentos/termo_cessao"),
     (REQ_TER, "/requerente/alvara")],
)
def test_requerimento_each_required_field_is_pending(
    engine: Engine, form: str, pointer: str
) -> None:
    data = example(engine, form)
    setter(pointer, DELETE)(data)
    report = report_of(engine, form, data)
    assert not report.complete and pending_at(report, pointer)


def test_requerimento_documents_must_be_presented(engine: Engine) -> None:
    data = example(engine, REQ_TER)
    data["documentos"]["termo_cessao"]["apresentado"] = False
    found = at(report_of(engine, REQ_TER, data), "/documentos/termo_cessao")
    assert found.status is Status.MISSING and F + "art15_inc6" in found.basis


def test_requerimento_drafts_say_what_the_act_would_give(engine: Engine) -> None:
    text = pdf_text(engine.draft(REQ_ALT, example(engine, REQ_ALT)).pdf)
    assert "vem requerer, nos termos do art. 10, § 3º" in text
    assert "poderia ser executada até 09/03/2030" in text
    text = pdf_text(engine.draft(REQ_TER, example(engine, REQ_TER)).pdf)
    assert "de 01/12/2026 a 28/02/2027" in text
    assert "Autorizado, o uso valeria de 01/12/2026 até 31/01/2027" in text
    assert "Em caso de socorro, devidamente comprovado" in text


@pytest.mark.parametrize(
    ("form", "pointer", "on"),
    [(TER, "/inspecao_veicular", ON), (REQ_TER, "/documentos/inspecao_veicular", FILED)],
    ids=["act", "requerimento"],
)
@pytest.mark.parametrize(("months", "ok"), [(12, True), (13, False)],
                         ids=["12 months old", "one day more"])
def test_the_vehicles_inspection_is_at_most_12_months_old(
    engine: Engine, form: str, pointer: str, on: date, months: int, ok: bool
) -> None:
    issued = date(on.year - 1, on.month, on.day) + timedelta(days=0 if ok else -1)
    data = example(engine, form)
    setter(pointer + "/data_emissao", issued.isoformat())(data)
    report = report_of(engine, form, data)
    assert report.complete is ok, [i.message for i in report.pending]
    if not ok:
        assert F + "art7_inc11" in at(report, pointer).basis


# --------------------------------------------- art. 10, I for the vehicle actually used


def _registered_vehicle(year: int, kind: str) -> FakeHistory:
    """Both alvarás on file, the vehicle's recording its type and year (art. 10, I)."""
    theirs = PriorRecord(
        "0003/2024", date(2024, 2, 1),
        {"veiculo": {"placa": OTHER_PLATE, "tipo": kind, "ano_fabricacao": year},
         "empresa": {"cnpj": OTHER_CNPJ}},
        form=ALV, series="ALV-FRET", valid_until=VEHICLE_END,
    )
    return FakeHistory(alvara(), theirs)


def test_the_lent_vehicle_past_its_age_is_not_authorised(engine: Engine) -> None:
    # the registry's alvará of the vehicle knows it: a 2014 micro-ônibus (10 years)
    data = _without_checks(example(engine, TER))
    del data["veiculo"]["ano_fabricacao"], data["veiculo"]["tipo"]
    report = report_of(engine, TER, data, _registered_vehicle(2014, "microonibus"))
    found = at(report, "/veiculo/ano_fabricacao")
    assert found.status is Status.INVALID and "fretamento#art10_inc1" in found.basis
    assert "fabricado em 2014" in found.message and "31/12/2024" in found.message


def test_the_registrys_year_and_type_prevail(engine: Engine) -> None:
    data = _without_checks(example(engine, TER))  # states a 2020 micro-ônibus
    report = report_of(engine, TER, data, _registered_vehicle(2012, "onibus_rodoviario"))
    for pointer, words in (("/veiculo/ano_fabricacao", "«2012»"),
                           ("/veiculo/tipo", "«ônibus rodoviário»")):
        found = at(report, pointer)
        assert found.status is Status.INVALID and words in found.message


def test_the_lent_vehicles_year_and_type_are_needed(engine: Engine) -> None:
    data = example(engine, TER)  # paper alvarás: nothing in the registry
    del data["veiculo"]["ano_fabricacao"]
    found = at(report_of(engine, TER, data), "/veiculo/ano_fabricacao")
    assert found.status is Status.MISSING and "fretamento#art10_inc1" in found.basis


def test_the_authorisation_ends_with_the_vehicles_age_limit(engine: Engine) -> None:
    data = _without_checks(example(engine, TER))
    del data["veiculo"]["ano_fabricacao"], data["veiculo"]["tipo"]
    prepared = engine.prepare(TER, data, issued_on=ISSUED,
                              history=_registered_vehicle(2016, "microonibus"))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == date(2026, 12, 31)  # 2016 + 10 years
    assert "fabricado em 2016" in prepared.computed["vigencia_explicacao"]
    text = " ".join(pdf_text(engine.draft(TER, data, history=_registered_vehicle(
        2016, "microonibus")).pdf).split())
    assert "micro-ônibus, fabricado em 2016, dentro do limite de idade" in text
