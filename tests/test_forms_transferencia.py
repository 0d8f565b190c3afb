"""The transfer of the school-transport licence (art. 15, Lei nº 4.515/2007).

The requerimento both parties sign and the termo the Secretário issues: 2 years from the
licence's issue with effective exercise, unless death or illness (I); the receiver meeting
art. 7º (II); signatures, the fee of 30 UFESP (art. 16, III) and the registration within
60 days (§ 1º); and the 3-year bar on the transferor (§ 2º), stated in the termo and
applied where a new licence (the first alvará) is granted.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from formcases import DELETE, Change, assert_reported, at, chain, example, pdf_text, setter
from issuers import dev_issuer
from pypdf import PdfReader
from test_licensing_guards import registry as registry
from test_licensing_state import act

from lavra.checking.computations import PriorRecord, find_computation
from lavra.checking.report import Item, Report, Status
from lavra.documents import Engine
from lavra.issuing import RegistryHistory
from lavra.law.statutory import load_statutory_context
from lavra.registry.store import Registry as LavraRegistry
from lavra_americana import pacote
from lavra_americana.transporte_escolar import transferencia

REQ = "requerimento-transferencia-licenca"
TERMO = "termo-transferencia-licenca"
ALV = "alvara-transporte-escolar"
E = "transporte-escolar#"
ISSUED = date(2026, 12, 1)
CEDENTE = "529.982.247-25"
CESSIONARIO = "111.444.777-35"


class Registry:
    """A case history holding the given documents (by form, number and holder's CPF)."""

    def __init__(self, *records: tuple[str, PriorRecord]) -> None:
        self.records = records  # (holder's CPF, record)

    def prior_autos(
        self, placa: str, form: str, since: date, before: date
    ) -> Sequence[PriorRecord]:
        return ()

    def document(self, form: str, number: str) -> PriorRecord | None:
        found = [r for _, r in self.records if r.form == form and number.endswith(r.number)]
        return found[0] if found else None

    def in_force(self, placa: str, form: str, on: date) -> Sequence[PriorRecord]:
        return ()

    def by_holder(self, cpf_cnpj: str, form: str) -> Sequence[PriorRecord]:
        return [r for cpf, r in self.records if cpf == cpf_cnpj and r.form == form]


def alvara_on_file(cpf: str, until: date = date(2026, 12, 31)) -> tuple[str, PriorRecord]:
    return cpf, PriorRecord("0007/2026", date(2026, 1, 5), {"titular": {"cpf": cpf}},
                            form=ALV, series="ALV-ESC", valid_until=until)


def verdict(report: Report, requirement: str) -> Item:
    """The one item of ``requirement`` (the rules' verdicts have requirements of their own)."""
    found = [i for i in report.items if i.requirement == requirement]
    assert len(found) == 1, [i.requirement for i in report.items]
    return found[0]


def report_of(
    engine: Engine, form: str, change: Change | None = None, history: Any = None,
    issued_on: date = ISSUED,
) -> Report:
    data = example(engine, form)
    if change is not None:
        change(data)
    return engine.prepare(form, data, issued_on=issued_on, history=history).report


# ------------------------------------------------------------------ complete


def test_both_examples_are_complete_and_the_rules_are_the_packs(engine: Engine) -> None:
    for form in (REQ, TERMO):
        report = report_of(engine, form)
        assert report.complete, [i.to_json() for i in report.pending]
    pack = pacote()
    assert find_computation(pack, "termo_transferencia_licenca") is (
        transferencia.termo_transferencia_licenca
    )
    assert find_computation(pack, "requerimento_transferencia_licenca") is (
        transferencia.requerimento_transferencia_licenca
    )
    assert transferencia in pack.rule_modules
    assert {E + f for f in ("art15", "art15_inc1", "art15_inc2", "art15_par1", "art15_par2",
                            "art16_inc3")} <= set(transferencia.IMPLEMENTED)
    termo = engine.content.form(TERMO)
    assert termo.series == "TRF-ESC" and termo.signer_role == "secretario-transportes"
    assert engine.content.form(REQ).fillable


def test_the_termo_states_licence_fee_registration_limit_and_bar(engine: Engine) -> None:
    prepared = engine.prepare(TERMO, example(engine, TERMO), issued_on=ISSUED)
    computed = prepared.computed
    assert computed["licenca_numero"] == "ALV-ESC 0007/2026"
    assert computed["taxa"]["unidades"] == 30
    assert str(computed["taxa"]["valor"]) == "1152.60"  # 30 × R$ 38,42 (UFESP 2026)
    assert computed["registro"]["ultimo_dia"] == date(2027, 1, 15)  # 16/11/2026 + 60 days
    # both carências include their anniversary: free the day after (art. 66, § 3º)
    assert computed["impedimento_cedente"]["livre_em"] == date(2029, 11, 28)
    assert "dura até 27/11/2029, inclusive, e cessa em 28/11/2029" in (
        computed["impedimento_cedente"]["explicacao"]
    )
    assert computed["prazo_minimo"]["transferivel_desde"] == date(2024, 3, 11)


def test_the_licence_number_comes_with_its_series_from_the_registry(engine: Engine) -> None:
    data = example(engine, TERMO)
    data["licenca"]["numero"] = "0007/2026"  # typed without its series
    history = Registry(alvara_on_file(CEDENTE))
    prepared = engine.prepare(TERMO, data, issued_on=ISSUED, history=history)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["licenca_numero"] == "ALV-ESC nº 0007/2026"


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (alvara_on_file("390.533.447-05"), "não é do cedente"),
        (alvara_on_file(CEDENTE, until=date(2026, 11, 26)), "não está em vigor"),
    ],
    ids=["another person's alvará", "an alvará expired the day before the termo"],
)
def test_the_licence_in_the_registry_must_be_the_cedentes_and_in_force(
    engine: Engine, record: tuple[str, PriorRecord], words: str
) -> None:
    report = report_of(engine, TERMO, history=Registry(record))
    found = at(report, "/licenca/numero")
    assert found.status is Status.INVALID and words in found.message
    assert not report.complete


@pytest.mark.parametrize(("until", "complete"), [("2026-11-27", True), ("2026-11-26", False)],
                         ids=["alvará valid on the termo's day", "expired the day before"])
def test_an_expired_alvara_is_not_transferred(engine: Engine, until: str, complete: bool) -> None:
    report = report_of(engine, TERMO, setter("/licenca/valido_ate", until))
    assert report.complete is complete
    if not complete:
        assert at(report, "/licenca/valido_ate").status is Status.INVALID


# ------------------------------------------------------------------ art. 15, I


@pytest.mark.parametrize("form", [REQ, TERMO])
def test_less_than_two_years_without_death_or_illness_is_refused(
    engine: Engine, form: str
) -> None:
    report = report_of(engine, form, setter("/licenca/expedida_em", "2025-01-10"))
    assert_reported(report, "/licenca/expedida_em", Status.INVALID, E + "art15_inc1")
    message = verdict(report, "transferencia.prazo_minimo").message
    assert "até 10/01/2027, inclusive" in message and "a partir de 11/01/2027" in message


@pytest.mark.parametrize(
    ("issued", "complete"),
    [("2024-11-26", True), ("2024-11-27", False), ("2024-11-28", False)],
    ids=["the day after the 2nd anniversary", "on the 2nd anniversary: still inside the 2 years",
         "one day short of 2 years"],
)
def test_two_years_run_through_the_anniversary(
    engine: Engine, issued: str, complete: bool
) -> None:
    """Art. 15, I: the 2 years include their last day (Lei nº 9.784/1999, art. 66, § 3º);
    the termo is dated 27/11/2026."""
    report = report_of(engine, TERMO, setter("/licenca/expedida_em", issued))
    assert report.complete is complete
    assert verdict(report, "transferencia.prazo_minimo").status is (
        Status.MET if complete else Status.INVALID
    )


@pytest.mark.parametrize(
    ("on", "status"),
    [(date(2026, 2, 28), Status.INVALID), (date(2026, 3, 1), Status.MET)],
    ids=["from 29 February: 28/02 still inside the 2 years", "admissible on 01/03"],
)
def test_two_years_from_29_february(pack_dir: Path, on: date, status: Status) -> None:
    context = load_statutory_context(pack_dir)
    data = {"licenca": {"expedida_em": "2024-02-29"}, "exercicio_efetivo": True}
    values, items = transferencia._minimum_items(data, on, context)
    assert values["transferivel_desde"] == date(2026, 3, 1)
    assert [i.status for i in items if i.requirement == "transferencia.prazo_minimo"] == [status]


def test_without_effective_exercise_the_transfer_is_refused(engine: Engine) -> None:
    report = report_of(engine, TERMO, setter("/exercicio_efetivo", False))
    assert_reported(report, "/exercicio_efetivo", Status.INVALID, E + "art15_inc1")


def _death(data: dict[str, Any]) -> None:
    data["licenca"]["expedida_em"] = "2025-06-01"
    data["exercicio_efetivo"] = False
    data["impedimento"] = {"motivo": "morte", "data": "2026-08-10"}
    data["representante_cedente"] = {
        "nome": "Ana Exemplo dos Santos", "cpf": "390.533.447-05", "qualidade": "inventariante"
    }
    docs = data["documentos_cedente"]
    docs["certidao_obito"] = {"apresentado": True, "data_emissao": "2026-08-12"}
    docs["documento_representante"] = {"apresentado": True, "data_emissao": "2026-09-01"}


def _illness(data: dict[str, Any]) -> None:
    data["licenca"]["expedida_em"] = "2025-06-01"
    data["impedimento"] = {
        "motivo": "enfermidade", "data": "2026-05-02", "incapacidade_superior_seis_meses": True
    }
    data["documentos_cedente"]["laudo_medico"] = {"apresentado": True,
                                                  "data_emissao": "2026-10-02"}


@pytest.mark.parametrize("change", [_death, _illness], ids=["death", "illness"])
def test_death_or_illness_proven_lifts_the_two_years(engine: Engine, change: Change) -> None:
    report = report_of(engine, TERMO, change)
    assert report.complete, [i.to_json() for i in report.pending]
    found = verdict(report, "transferencia.prazo_minimo")
    assert found.status is Status.MET and "ressalva" in found.message


@pytest.mark.parametrize(
    ("change", "field", "status"),
    [
        (chain(_death, setter("/documentos_cedente/certidao_obito", DELETE)),
         "/documentos_cedente/certidao_obito", Status.MISSING),
        (chain(_illness, setter("/impedimento/incapacidade_superior_seis_meses", False)),
         "/impedimento/incapacidade_superior_seis_meses", Status.INVALID),
        (chain(_illness, setter("/impedimento/data", "2025-05-01")),
         "/impedimento/data", Status.INVALID),
        (chain(_death, setter("/representante_cedente", DELETE)),
         "/representante_cedente", Status.MISSING),
    ],
    ids=["death without the certificate", "illness of 6 months or less",
         "illness before the licence", "nobody signs for the dead licensee"],
)
def test_the_exception_must_be_proven(
    engine: Engine, change: Change, field: str, status: Status
) -> None:
    report = report_of(engine, TERMO, change)
    assert not report.complete
    assert at(report, field).status is status


# ------------------------------------------------------------------ art. 15, II


@pytest.mark.parametrize(
    ("change", "field", "fragment"),
    [
        (setter("/cessionario/data_nascimento", "2005-11-28"), "/cessionario/data_nascimento",
         "art7_inc1"),
        (setter("/cessionario/cnh/categoria", "B"), "/cessionario/cnh/categoria", "art7_inc2"),
        (setter("/cessionario/residente_desde", "2023-11-28"), "/cessionario/residente_desde",
         "art7_inc3"),
        (setter("/veiculo/ano_fabricacao", 2015), "/veiculo/ano_fabricacao", "art17_inc1"),
        (setter("/documentos_cessionario/antecedentes_criminais", DELETE),
         "/documentos_cessionario/antecedentes_criminais", "art7_inc5"),
        (setter("/infracoes", [{"data": "2026-06-01", "gravidade": "grave"}]), "/infracoes",
         "art7_inc8"),
    ],
    ids=["under 21", "CNH B", "resident less than 3 years", "vehicle over 10 years",
         "no criminal-record certificate", "a grave infraction in 12 months"],
)
def test_the_receiver_must_meet_article_7(
    engine: Engine, change: Change, field: str, fragment: str
) -> None:
    for form in (REQ, TERMO):
        report = report_of(engine, form, change)
        assert not report.complete, form
        found = at(report, field)
        assert found.pending and E + fragment in found.basis, (form, found)


def test_the_receiver_must_meet_the_edital_too(engine: Engine) -> None:
    # issue 23, class 4: art. 15, II asks every exigência of art. 7º; none waives IX
    for form in (REQ, TERMO):
        report = report_of(engine, form, setter("/edital", DELETE))
        assert not report.complete, form
        found = [i for i in report.pending if i.field == "/edital"]
        assert found and any(E + "art7_inc9" in i.basis for i in found), form
        unmet = report_of(engine, form, setter("/edital/exigencias_atendidas", False))
        assert any(i.field.startswith("/edital") for i in unmet.pending), form
    rendered = engine.draft(TERMO, example(engine, TERMO))
    text = " ".join(pdf_text(rendered.pdf).split())
    assert "não se aplicando o inciso IX" not in text
    assert "incisos I a IX, exigidas do recebedor da transferência (art. 15, II)" in text
    assert "Edital de Chamamento nº 01/2026: atendidas as demais exigências" in text


# ------------------------------------------------------------------ § 1º: fee, signatures, 60 days


def test_fee_unpaid_blocks_the_termo(engine: Engine) -> None:
    report = report_of(engine, TERMO, setter("/taxa", DELETE))
    assert not report.complete and at(report, "/taxa").status is Status.MISSING


def test_fee_paid_after_the_termo_is_refused(engine: Engine) -> None:
    report = report_of(engine, TERMO, setter("/taxa/data_pagamento", "2026-11-28"))
    assert_reported(report, "/taxa/data_pagamento", Status.INVALID, E + "art15_par1")


def test_without_the_ufesp_of_the_year_the_fee_is_pending_not_guessed(engine: Engine) -> None:
    change = chain(setter("/data_termo", "2027-01-05"),
                   setter("/taxa/data_pagamento", "2027-01-04"))
    report = report_of(engine, TERMO, change, issued_on=date(2027, 1, 10))
    found = at(report, "/taxa")
    assert found.status is Status.MISSING and E + "art16_inc3" in found.basis
    assert not report.complete


@pytest.mark.parametrize(
    ("signed", "complete"),
    [("2026-09-28", True), ("2026-09-27", False)],
    ids=["termo on the 60th day", "termo on the 61st day without registration"],
)
def test_sixty_days_from_the_signatures(engine: Engine, signed: str, complete: bool) -> None:
    # 28/09/2026 + 60 days = 27/11/2026 (a Friday, the termo's date)
    report = report_of(engine, TERMO, setter("/assinaturas/data", signed))
    assert report.complete is complete
    assert at(report, "/assinaturas/data").status is (Status.MET if complete else Status.INVALID)


@pytest.mark.parametrize(
    ("registered", "status"),
    [("2027-01-15", Status.MET), ("2027-01-16", Status.INVALID)],
    ids=["registered on the 60th day", "registered on the 61st"],
)
def test_registration_in_the_cadastro_within_sixty_days(
    engine: Engine, registered: str, status: Status
) -> None:
    change = setter("/cadastro", {"inscricao": "CA-2027-0001", "data_registro": registered})
    report = report_of(engine, TERMO, change, issued_on=date(2027, 2, 1))
    assert at(report, "/cadastro/data_registro").status is status
    assert report.complete is (status is Status.MET)


def test_a_sixtieth_day_without_business_moves_to_the_next(engine: Engine) -> None:
    # 06/10/2026 + 60 days = 05/12/2026, a Saturday: the last day moves to Monday 07/12
    data = example(engine, TERMO)
    data["assinaturas"]["data"] = "2026-10-06"
    prepared = engine.prepare(TERMO, data, issued_on=ISSUED)
    assert prepared.computed["registro"]["ultimo_dia"] == date(2026, 12, 7)


def test_signatures_after_the_termo_are_refused(engine: Engine) -> None:
    report = report_of(engine, TERMO, setter("/assinaturas/data", "2026-11-28"))
    assert_reported(report, "/assinaturas/data", Status.INVALID, E + "art15_par1")


def test_a_post_dated_termo_is_refused(engine: Engine) -> None:
    report = report_of(engine, TERMO, issued_on=date(2026, 11, 26))
    assert at(report, "/data_termo").status is Status.INVALID


# ------------------------------------------------------------------ § 2º: the 3-year bar


def receiver_items(engine: Engine, registry: LavraRegistry, requirement: str) -> list[Item]:
    """The termo's items of ``requirement`` (cessionário's arts. 14 and 15, § 2º), read
    from the licensing state."""
    data = example(engine, TERMO)
    report = engine.prepare(TERMO, data, issued_on=ISSUED,
                            history=RegistryHistory(registry)).report
    return [i for i in report.items if i.requirement == requirement]


def receiver_transferred(engine: Engine, registry: LavraRegistry, on: date) -> Any:
    """A termo by which the example's cessionário transferred a licence on ``on``."""
    earlier = example(engine, TERMO)
    earlier["cedente"], earlier["cessionario"] = earlier["cessionario"], earlier["cedente"]
    return act(registry, "TRF-ESC", TERMO, earlier, on=on)


@pytest.mark.parametrize(
    ("transferred", "barred"),
    [(date(2023, 11, 26), False), (date(2023, 11, 27), True), (date(2023, 11, 28), True)],
    ids=["the day after the 3rd anniversary", "on the 3rd anniversary: still barred",
         "one day short of 3 years"],
)
def test_a_receiver_who_transferred_a_licence_is_barred_3_years(
    engine: Engine, registry: LavraRegistry, transferred: date, barred: bool
) -> None:
    termo = receiver_transferred(engine, registry, transferred)
    found = receiver_items(engine, registry, "cessionario.cpf.transferencia")
    assert bool(found) is barred
    for item in found:
        assert item.status is Status.INVALID and E + "art15_par2" in item.basis
        assert f"pelo termo de transferência {termo.printed}" in item.message
        assert "art. 15, § 2º, da Lei nº 4.515/2007" in item.message


def test_a_cancelled_termo_bars_nobody(engine: Engine, registry: LavraRegistry) -> None:
    termo = receiver_transferred(engine, registry, date(2025, 5, 1))
    assert receiver_items(engine, registry, "cessionario.cpf.transferencia")
    registry.cancel(termo.series, termo.year, termo.number, reason="erro", by="Chefia")
    assert receiver_items(engine, registry, "cessionario.cpf.transferencia") == []


def test_a_receiver_holding_another_licence_is_refused(
    engine: Engine, registry: LavraRegistry
) -> None:
    alvara = example(engine, ALV)
    receiver = example(engine, TERMO)["cessionario"]
    alvara["titular"] = {**alvara["titular"], "cpf": receiver["cpf"], "nome": receiver["nome"]}
    held = act(registry, "ALV-ESC", ALV, alvara, on=date(2026, 3, 10),
               computed={"inicio_vigencia": "2026-03-10", "valido_ate": "2026-12-31"})
    [found] = receiver_items(engine, registry, "cessionario.cpf.licencas")
    assert found.status is Status.INVALID and E + "art14" in found.basis
    assert held.printed in found.message and "art. 14" in found.message


def test_the_alvara_attestation_speaks_of_3_years(engine: Engine) -> None:
    report = report_of(engine, ALV, setter("/selecao/conferencia_transferencia", DELETE),
                       issued_on=date(2026, 3, 10))
    found = at(report, "/selecao/conferencia_transferencia")
    assert found.pending and "3 (três) anos" in found.message


# ------------------------------------------------------------------ documents


def test_the_requerimento_is_fillable_and_reads_back(engine: Engine) -> None:
    data = example(engine, REQ)
    pdf = engine.prefill(REQ, data)
    reader = PdfReader(io.BytesIO(pdf))
    last = " ".join(reader.pages[-1].extract_text().split())
    assert "cedente (licenciado que transfere a licença)" in last
    assert "cessionário (quem recebe a licença)" in last
    assert last.count("Nome legível") == 2
    fields = reader.get_fields() or {}
    assert "exercicio_efetivo" in fields
    back = engine.read(pdf, REQ, on=date(2026, 11, 16))
    assert back.data["cedente"]["cpf"] == data["cedente"]["cpf"]
    assert back.data["licenca"] == data["licenca"]
    assert back.data["exercicio_efetivo"] is True
    assert back.report.complete, [i.to_json() for i in back.report.pending]


def test_the_termo_is_issued_and_then_bars_the_transferors_alvara(
    engine: Engine, tmp_path: Path
) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        result = issuer.issue(TERMO, example(engine, TERMO))
        assert result.record.printed.startswith("TRF-ESC nº 0001/")
        assert result.record.cpf_cnpj == "52998224725"  # the cedente's: what § 2º looks up
        text = pdf_text(result.pdf)
        for words in ("Alvará ALV-ESC nº 0007/2026", "R$ 1.152,60", "15/01/2027",
                      "até 27/11/2029, inclusive, e cessa em 28/11/2029",
                      "Maria Exemplo Cessionária", "José Exemplo dos Santos",
                      # an alvará the registry does not hold: the rule, without numbers
                      "Se o veículo da parte cessionária não for o veículo constante do "
                      "alvará, o selo de identificação e a autorização de publicidade"):
            assert words in " ".join(text.split()), words
        alvara = example(engine, ALV)
        # the termo of 27/11/2026 bars the cedente through the 3rd anniversary, inclusive
        for day, barred in (("2026-11-30", True), ("2029-11-27", True), ("2029-11-28", False)):
            alvara["data_expedicao"] = day
            checked = issuer.prepare(ALV, alvara, date.fromisoformat(day))
            found = [i for i in checked.report.items
                     if i.requirement == "titular.cpf.transferencia"]
            assert bool(found) is barred, day  # the state's bar, through the anniversary
            assert all(i.status is Status.INVALID and result.record.printed in i.message
                       for i in found)
    finally:
        issuer.close()
