"""The SETRANSV's conference of a contract of fretamento (Lei nº 4.419/2006, arts. 1º, 4º
and 5º): form ``termo-conferencia-contrato-fretamento``.

The termo certifies that the contract conforms: the compulsory contents (art. 4º, § 1º),
the passengers' link with the contracting company (§ 2º), stops at least 400.00 m apart
(§ 3º: 400 m is allowed, 399.99 m is not), the return (§ 4º: a place of alighting other
than that of boarding only with the reason why coincidence is not possible), the single
trip and the nota fiscal of the fretamento eventual (art. 5º and parágrafo único), no
standing passengers nor individual fares (art. 1º, § 2º), no conflict with regulated
services (§ 1º). Each incompleteness keeps it a MINUTA; complete, it is numbered in its
own series (TCC-FRET) and signed by the Secretário.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from formcases import DELETE, Change, assert_pending, chain, example, pdf_text, setter
from issuers import dev_issuer

from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra.issuing import IncompleteError

TCC = "termo-conferencia-contrato-fretamento"
F = "fretamento#"
ISSUED = date(2026, 11, 5)


def report_of(engine: Engine, data: dict[str, Any], issued: date = ISSUED) -> Report:
    return engine.prepare(TCC, data, issued_on=issued).report


def changed(engine: Engine, *changes: Change) -> dict[str, Any]:
    data = example(engine, TCC)
    chain(*changes)(data)
    return data


EVENTUAL: Change = chain(
    setter("/modalidade", "eventual"),
    setter("/contrato/data_viagem", "2026-11-20"),
    setter("/contrato/numero_viagens", 1),
    setter("/contrato/vigencia", {"inicio": "2026-11-20", "fim": "2026-11-20"}),
    setter("/passageiros", DELETE),
    setter("/itinerario", DELETE),
    setter("/nota_fiscal", {"numero": "000.123", "data_emissao": "2026-11-04"}),
)


def test_the_example_is_complete_and_a_numbered_act_of_the_secretario(
    engine: Engine,
) -> None:
    form = engine.content.form(TCC)
    assert form.series == "TCC-FRET" and form.signer_role == "secretario-transportes"
    assert report_of(engine, example(engine, TCC)).complete
    assert report_of(engine, changed(engine, EVENTUAL)).complete


def test_stops_are_at_least_400_metres_apart(engine: Engine) -> None:
    at_limit = changed(engine, setter("/itinerario/paradas/0/distancia_anterior_m", 400))
    assert report_of(engine, at_limit).complete
    short = changed(engine, setter("/itinerario/paradas/2/distancia_anterior_m", 399.99))
    report = report_of(engine, short)
    assert_pending(report, "/itinerario/paradas/2/distancia_anterior_m", Status.INVALID,
                   F + "art4_par3")
    item = next(i for i in report.pending if i.field.startswith("/itinerario/paradas"))
    assert "399,99 m da parada anterior" in item.message and "400,00 m" in item.message


def test_a_contract_leaving_a_terminal_and_stopping_at_a_bus_stop_is_not_certified(
    engine: Engine,
) -> None:
    # art. 17, VIII: no boarding nor alighting at bus stops, taxi ranks, terminals and
    # school-transport stops; such places serve regulated services (art. 1º, § 1º).
    data = changed(
        engine,
        setter("/contrato/origem", "Terminal Metropolitano de Americana, Centro"),
        setter("/contrato/origem_tipo", "terminal_urbano"),
        setter("/itinerario/paradas/1/tipo", "ponto_onibus"),
    )
    report = report_of(engine, data)
    assert not report.complete
    for field, words in (("/contrato/origem_tipo", "terminal urbano"),
                         ("/itinerario/paradas/1/tipo", "ponto de ônibus")):
        assert_pending(report, field, Status.INVALID, F + "art17_inc8")
        item = next(i for i in report.pending if i.field == field)
        assert F + "art1_par1" in item.basis
        assert item.message.startswith("Não atendido") and words in item.message
    # the kind of place is part of what the contract must say
    missing = changed(engine, setter("/contrato/origem_tipo", DELETE))
    assert not report_of(engine, missing).complete
    text = pdf_text(engine.draft(TCC, example(engine, TCC)).pdf)
    assert "Garagem da contratada, Rua Exemplo, nº 100, Centro (local privado)" in text
    assert "não se dão em pontos de ônibus" in text


def test_the_return_elsewhere_needs_its_reason(engine: Engine) -> None:
    elsewhere = changed(engine, setter("/itinerario/desembarque_coincide", False))
    assert_pending(report_of(engine, elsewhere), "/itinerario/justificativa_desembarque",
                   Status.MISSING, F + "art4_par4")
    reason = "O embarque da ida é em via de mão única, sem recuo para o desembarque na volta."
    explained = changed(
        engine,
        setter("/itinerario/desembarque_coincide", False),
        setter("/itinerario/justificativa_desembarque", reason),
    )
    assert report_of(engine, explained).complete
    text = pdf_text(engine.draft(TCC, explained).pdf)
    assert "não coincidem com os de embarque na ida" in text and reason in text


CASES = [
    ("passageiros sem vínculo", setter("/passageiros/vinculo_contratante", False),
     "/passageiros/vinculo_contratante", Status.INVALID, "art4_par2"),
    ("contínuo sem passageiros", setter("/passageiros", DELETE),
     "/passageiros", Status.MISSING, "art4_par2"),
    ("contínuo sem período", setter("/contrato/vigencia", DELETE),
     "/contrato/vigencia", Status.MISSING, "art4_par1"),
    ("sem horários", setter("/contrato/horarios", DELETE),
     "/contrato/horarios", Status.MISSING, "art4_par1"),
    ("representante sem qualificação",
     setter("/contratante/representante/qualificacao", DELETE),
     "/contratante/representante", Status.INVALID, "art4_par1"),
    ("passageiros em pé", setter("/contrato/sem_passageiros_em_pe", False),
     "/contrato/sem_passageiros_em_pe", Status.INVALID, "art1_par2"),
    ("cobrança individual", setter("/contrato/sem_cobranca_individual", False),
     "/contrato/sem_cobranca_individual", Status.INVALID, "art1_par2"),
    ("conflito com serviço regulamentado", setter("/conflito_servicos/sem_conflito", False),
     "/conflito_servicos/sem_conflito", Status.INVALID, "art1_par1"),
    ("término antes do início", setter("/contrato/vigencia/fim", "2026-11-02"),
     "/contrato/vigencia/fim", Status.INVALID, "art4_par1"),
    ("contrato já terminado", chain(setter("/contrato/vigencia/fim", "2026-11-04")),
     "/contrato/vigencia/fim", Status.INVALID, "art4_par1"),
    ("assinado depois da conferência", setter("/contrato/data_assinatura", "2026-11-06"),
     "/contrato/data_assinatura", Status.INVALID, "art4_par1"),
    ("eventual sem nota fiscal", chain(EVENTUAL, setter("/nota_fiscal", DELETE)),
     "/nota_fiscal", Status.MISSING, "art5_par1u"),
    ("eventual sem data da viagem", chain(EVENTUAL, setter("/contrato/data_viagem", DELETE)),
     "/contrato/data_viagem", Status.MISSING, "art5"),
    ("eventual com duas viagens", chain(EVENTUAL, setter("/contrato/numero_viagens", 2)),
     "/contrato/numero_viagens", Status.INVALID, "art5"),
    ("eventual com viagem fora do contrato",
     chain(EVENTUAL, setter("/contrato/data_viagem", "2026-11-21")),
     "/contrato/data_viagem", Status.INVALID, "art5"),
    ("nota fiscal depois da viagem",
     chain(EVENTUAL, setter("/contrato/data_viagem", "2026-11-05"),
           setter("/contrato/vigencia/inicio", "2026-11-05"),
           setter("/contrato/vigencia/fim", "2026-11-20"),
           setter("/nota_fiscal/data_emissao", "2026-11-06")),
     "/nota_fiscal/data_emissao", Status.INVALID, "art5_par1u"),
    ("eventual com paradas",
     chain(EVENTUAL, setter("/itinerario", {"paradas": [
         {"local": "Praça Exemplo", "distancia_anterior_m": 900, "tipo": "via_publica"}]})),
     "/itinerario/paradas", Status.INVALID, "art5"),
]


@pytest.mark.parametrize(("change", "field", "status", "fragment"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_each_incompleteness_is_reported(
    engine: Engine, change: Change, field: str, status: Status, fragment: str
) -> None:
    assert_pending(report_of(engine, changed(engine, change)), field, status, F + fragment)


def test_the_contract_may_end_on_the_day_of_the_conference(engine: Engine) -> None:
    assert report_of(engine, changed(engine, setter("/contrato/vigencia/fim",
                                                    "2026-11-05"))).complete


def test_no_fact_after_the_issue(engine: Engine) -> None:
    data = example(engine, TCC)
    assert_pending(report_of(engine, data, date(2026, 11, 4)), "/data", Status.INVALID,
                   F + "art4_par1")
    invoice = changed(engine, EVENTUAL, setter("/nota_fiscal/data_emissao", "2026-11-06"))
    report = report_of(engine, invoice, ISSUED)
    assert any(i.field == "/nota_fiscal/data_emissao" and i.status is Status.INVALID
               for i in report.items), [i.field for i in report.pending]


def test_the_draft_lists_what_is_missing(engine: Engine) -> None:
    data = changed(engine, setter("/passageiros/vinculo_contratante", False))
    draft = engine.draft(TCC, data)
    text = pdf_text(draft.pdf)
    assert "MINUTA" in text
    assert "vínculo com a empresa contratante" in text


def test_issued_in_its_series_with_what_was_checked(engine: Engine, tmp_path: Path) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        result = issuer.issue(TCC, example(engine, TCC), ISSUED)
        assert result.record.series == "TCC-FRET"
        assert "TCC-FRET nº 0001/2026" in pdf_text(result.pdf)
        text = pdf_text(result.pdf)
        for expected in (
            "Termo de Conferência de Contrato de Fretamento",
            "Tecelagem Exemplo S.A.", "CNPJ nº 11.222.333/0001-81",
            "Maria Exemplo da Silva, sócia-administradora",
            "de 03/11/2026 a 02/11/2027",
            "1.850,00 m do ponto de saída", "400,00 m da parada anterior",
            "2.300,50 m da parada anterior",
            "coincidem com os de embarque na ida",
            "não admite o transporte de pessoas em pé",
            "Carlos Exemplo Souza, matrícula 12345-6",
            "art. 4º, § 3º, da Lei Municipal nº 4.419",
        ):
            assert expected in text, expected
        with pytest.raises(IncompleteError):
            issuer.issue(TCC, changed(engine, setter("/conflito_servicos/sem_conflito",
                                                     False)), ISSUED)
        eventual = issuer.issue(TCC, changed(engine, EVENTUAL), ISSUED)
        text = pdf_text(eventual.pdf)
        assert "viagem única em 20/11/2026" in text
        assert "Nota fiscal nº 000.123, emitida em 04/11/2026" in text
        assert "Paradas intermediárias" not in text
    finally:
        issuer.close()
