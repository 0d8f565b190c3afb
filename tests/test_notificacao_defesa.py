"""Issue 10, classes 1 and 2: the notice that opens the defence is an act of its own, and
the decision reads it, and its ciência, from the registry
(:mod:`lavra_americana.comum.notificacao_defesa`, :mod:`lavra_americana.comum.due_process`).

Two ways: over a fresh registry (the notice issued, its ciência recorded with the
FactRecorder), where every date is counted from the day of issue so that the outcome is
the same on any day; and over a fixed case history (``FakeHistory``) for the boundaries
on the calendar (a last day on a holiday), where every date is fixed.
"""

from __future__ import annotations

import copy
import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from formcases import pdf_text
from historycases import FakeHistory
from issuers import dev_issuer
from test_revogacao import FINES, History, alvara

from lavra.checking.computations import PriorRecord, RecordedFact
from lavra.checking.report import Item, Report, Status
from lavra.documents import Engine
from lavra.inputs.reading import today
from lavra.law.statutory import deadline_for, load_statutory_context
from lavra.recording import FactRecorder
from lavra_americana import pacote
from lavra_americana.comum import notificacao_defesa

NOT_CAS = "notificacao-defesa-cassacao"
NOT_REV = "notificacao-defesa-revogacao"
CAS = "decisao-cassacao-fretamento"
REV = "decisao-revogacao-alvara"
CNPJ = "65.563.842/0001-05"


def example(engine: Engine, form: str) -> dict[str, Any]:
    path = engine.content.form(form).example
    assert path is not None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


PAPER_FACTS = ("As multas impostas pelos Autos de Infração nº 1/2026 e nº 2/2026 não foram "
               "recolhidas, e contra elas não foi interposto recurso no prazo do art. 23.")
"""Autos on paper: one of the AIF-FRET series named in the facts must be in the registry."""


def pending(report: Report) -> dict[str, Item]:
    return {i.requirement: i for i in report.items if i.pending}


def decision(engine: Engine, form: str, notice: str, decided: date, *,
             presented: date | None = None) -> dict[str, Any]:
    """The decision's example naming the notice ``notice`` (no typed ciência), decided
    (and its own ciência given) on ``decided``."""
    data = example(engine, form)
    data["defesa"] = {"notificacao": {"numero": notice}, "apresentada": False}
    if form == CAS:  # autos on paper: one of the AIF-FRET series must be in the registry
        for index, auto in enumerate(data["hipoteses"]["multas_nao_recolhidas"]["autos"]):
            auto["numero"] = f"nº {index + 1}/2026"
    if presented is not None:
        data["defesa"].update(apresentada=True, data_apresentacao=presented.isoformat(),
                              sintese="A parte contestou os fatos e juntou documentos.")
    data["decisao"]["data"] = decided.isoformat()
    return data


# ------------------------------------------------------------------ the notice itself


@pytest.mark.parametrize(("form", "series", "deadlines"), [
    (NOT_CAS, "NOT-DEF-FRET", ("fretamento#art22",)),
    # the revogação by motivo fundamentado (art. 3º) has its own row: no penalty
    (NOT_REV, "NOT-DEF-ESC", ("transporte-escolar#art3", "transporte-escolar#art23_inc3")),
])
def test_the_notice_is_a_numbered_act_signed_by_the_secretario(
    engine: Engine, form: str, series: str, deadlines: tuple[str, ...]
) -> None:
    spec = engine.content.form(form)
    assert spec.series == series and spec.signer_role == "secretario-transportes"
    assert not spec.fillable
    assert spec.acknowledgement is not None and spec.acknowledgement.field is None
    assert spec.acknowledgement.deadlines == deadlines
    assert pacote().computations["notificacao_defesa"] is notificacao_defesa.notificacao_defesa


def drafted(engine: Engine, form: str, issued: date) -> tuple[dict[str, Any], str]:
    """The example's computed values (complete on ``issued``) and its draft's text."""
    data = example(engine, form)
    prepared = engine.prepare(form, data, issued_on=issued)
    assert prepared.report.complete, pending(prepared.report)
    return dict(prepared.computed), pdf_text(engine.draft(form, data).pdf)


def test_the_cassation_notice_states_accusation_act_and_period_from_the_ciencia(
    engine: Engine,
) -> None:
    values, text = drafted(engine, NOT_CAS, date(2026, 3, 9))
    assert [g["dispositivo"] for g in values["acusacao"]] == ["fretamento#art22_inc2"]
    assert "fretamento#art22" in values["fundamento"]  # the facts page shows the period
    for words in (
        "intima a apresentar defesa", "ALV-FRET nº 0012/2026", "PA 1234/2026",
        "deixar de recolher as multas aplicadas sem interposição de recurso",
        "pode resultar na cassação do Alvará de Licença de Circulação (art. 14, d,",
        "no prazo de 10 dias", "contados da ciência desta notificação",
        "exclui-se o dia da ciência", "não importa o reconhecimento da verdade dos fatos",
        "Recebi esta notificação",
    ):
        assert words in text, words
    assert "encerra-se em" not in text  # no last day: the ciência comes after the issue


def test_the_revocation_notice_names_the_driver_the_alvara_and_the_ground(
    engine: Engine,
) -> None:
    _, text = drafted(engine, NOT_REV, date(2026, 5, 29))
    for words in ("José Exemplo dos Santos", "ALV-ESC nº 0007/2026",
                  "Revogação após a terceira multa", "pode resultar na revogação do alvará",
                  "contados da ciência desta notificação"):
        assert words in text, words


def test_a_post_dated_notice_is_refused(engine: Engine) -> None:
    report = engine.prepare(NOT_CAS, example(engine, NOT_CAS), issued_on=date(2026, 3, 8)).report
    assert pending(report)["data"].status is Status.INVALID


def test_a_notice_accuses_at_least_one_ground(engine: Engine) -> None:
    data = example(engine, NOT_CAS)
    data["acusacao"]["hipoteses"] = []
    assert not engine.prepare(NOT_CAS, data, issued_on=date(2026, 3, 9)).report.complete


# ------------------------------------------------------------ cassação over a fresh registry


def test_cassation_over_a_fresh_registry_waits_for_the_ciencia_and_the_period(
    engine: Engine, tmp_path: Path
) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        day = today()
        notice = example(engine, NOT_CAS)
        notice["data"] = day.isoformat()
        # alvarás on paper, not imported: one of the ALV-FRET series must be in the registry
        paper = [{"numero": "nº 12/2019", "placa": "ABC1D23"},
                 {"numero": "nº 13/2019", "placa": "DEF4G56"}]
        notice["alvaras"] = paper
        notice["acusacao"]["fatos"] = PAPER_FACTS
        issued = issuer.issue(NOT_CAS, notice)
        printed = issued.record.printed
        assert printed.startswith("NOT-DEF-FRET nº 0001/")
        history = issuer.history

        def report(decided: date, **extra: Any) -> Report:
            data = decision(engine, CAS, printed, decided, **extra)
            data["alvaras"] = paper
            return engine.prepare(CAS, data, issued_on=decided, history=history).report

        # the notice issued, no ciência recorded: the period has not started
        found = pending(report(day + timedelta(days=30)))
        assert found["defesa.notificacao.ciencia"].status is Status.MISSING
        assert "registre-a" in found["defesa.notificacao.ciencia"].message

        recorder = FactRecorder(issuer.registry, engine.content)
        record = recorder.document(printed)
        recorder.record(record, "ciencia", on=day.isoformat(), by="Maria (maria)",
                        means="pessoal")
        last = deadline_for("fretamento#art22", day,
                            context=load_statutory_context(engine.content.root)).last_day
        (shown,) = recorder.deadlines(record)  # the facts page shows the last day
        assert shown.citation == "fretamento#art22" and shown.last_day == last

        # without defence: not on the last day, from the day after
        on_last = pending(report(last))
        assert on_last["defesa.prazo"].status is Status.INVALID
        after = report(last + timedelta(days=1))
        assert after.complete, pending(after)
        # a defence presented lets the decision follow it at once
        presented = report(day + timedelta(days=1), presented=day + timedelta(days=1))
        assert presented.complete, pending(presented)
        # a decision the day before the ciência: the ciência is after it
        early = pending(report(day - timedelta(days=1)))
        assert early["defesa.notificacao.ciencia"].status is Status.INVALID

        # an alvará the notice does not name
        data = decision(engine, CAS, printed, last + timedelta(days=1))
        data["alvaras"] = [*paper, {"numero": "nº 99/2019", "placa": "GHI7J89"}]
        other = pending(engine.prepare(CAS, data, issued_on=last + timedelta(days=1),
                                       history=history).report)
        assert other["defesa.notificacao.alvaras"].status is Status.INVALID
        assert "nº 99/2019" in other["defesa.notificacao.alvaras"].message
    finally:
        issuer.close()


# ------------------------------------------------------- cassação over a fixed history

CIENCIA = RecordedFact("ciencia", date(2026, 4, 11), means="ar", recorded_by="Maria (maria)")


def cassation_notice(*, facts: tuple[RecordedFact, ...] = (CIENCIA,), cnpj: str = CNPJ,
                     grounds: tuple[str, ...] = ("multas_nao_recolhidas",),
                     process: str = "PA 1234/2026", cancelled: bool = False) -> PriorRecord:
    return PriorRecord(
        "0004/2026", date(2026, 4, 10),
        {"processo": {"numero": process}, "empresa": {"cnpj": cnpj},
         "alvaras": [{"numero": "ALV-FRET nº 0012/2026"}, {"numero": "ALV-FRET nº 0013/2026"}],
         "acusacao": {"hipoteses": list(grounds)}},
        form=NOT_CAS, series="NOT-DEF-FRET", facts=facts, cancelled=cancelled,
        cancel_reason="erro material" if cancelled else None,
    )


def cassation_report(engine: Engine, decided: date, record: PriorRecord | None = None,
                     **extra: Any) -> Report:
    data = decision(engine, CAS, "NOT-DEF-FRET nº 0004/2026", decided)
    data.update(extra)
    history = FakeHistory(record if record is not None else cassation_notice())
    return engine.prepare(CAS, data, issued_on=decided, history=history).report


@pytest.mark.parametrize(("decided", "complete"), [
    (date(2026, 4, 22), False),  # ciência Saturday 11/04: 10th day Tiradentes, moved to 22/04
    (date(2026, 4, 23), True),
], ids=["on the last day moved off Tiradentes", "the day after it"])
def test_cassation_period_from_the_recorded_ciencia_on_the_calendar(
    engine: Engine, decided: date, complete: bool
) -> None:
    report = cassation_report(engine, decided)
    assert report.complete is complete, pending(report)
    if not complete:
        assert "a partir de 23/04/2026" in pending(report)["defesa.prazo"].message


def test_cassation_prints_the_notice_and_the_recorded_ciencia(engine: Engine) -> None:
    data = decision(engine, CAS, "NOT-DEF-FRET nº 0004/2026", date(2026, 4, 23))
    prepared = engine.prepare(CAS, data, issued_on=date(2026, 4, 23),
                              history=FakeHistory(cassation_notice()))
    assert prepared.computed["defesa"]["texto"].startswith(
        "A empresa ou entidade foi notificada para apresentar defesa pela notificação "
        "NOT-DEF-FRET nº 0004/2026, com ciência em 11/04/2026 (dada por aviso de "
        "recebimento, conforme o registro do documento), no prazo de 10 dias"
    )
    # the staff account that recorded the ciência is no part of the signed act
    assert "maria" not in prepared.computed["defesa"]["texto"].lower()
    assert prepared.computed["defesa"]["texto"].endswith(
        "encerrado em 22/04/2026, e não a apresentou.")


@pytest.mark.parametrize(("record", "requirement", "words"), [
    (cassation_notice(cnpj="11.222.333/0001-81"), "defesa.notificacao.parte", "outra parte"),
    (cassation_notice(grounds=("dolo",)), "defesa.notificacao.hipoteses", "não foi imputada"),
    (cassation_notice(process="PA 9999/2026"), "defesa.notificacao.processo", "PA 9999/2026"),
    (cassation_notice(cancelled=True), "defesa.notificacao.cancelada", "erro material"),
    (cassation_notice(facts=()), "defesa.notificacao.ciencia", "não consta do registro"),
], ids=["another company", "a ground not accused", "another process", "cancelled",
        "no ciência recorded"])
def test_cassation_refuses_a_notice_that_did_not_open_this_defence(
    engine: Engine, record: PriorRecord, requirement: str, words: str
) -> None:
    found = pending(cassation_report(engine, date(2026, 4, 23), record))
    assert requirement in found, found
    assert words in found[requirement].message
    expected = Status.MISSING if requirement.endswith("ciencia") else Status.INVALID
    assert found[requirement].status is expected


def test_a_typed_ciencia_must_agree_with_the_registry(engine: Engine) -> None:
    data = decision(engine, CAS, "NOT-DEF-FRET nº 0004/2026", date(2026, 4, 23))
    data["defesa"]["notificacao"]["data_ciencia"] = "2026-04-10"
    report = engine.prepare(CAS, data, issued_on=date(2026, 4, 23),
                            history=FakeHistory(cassation_notice())).report
    assert pending(report)["defesa.notificacao.data_ciencia"].status is Status.INVALID


def test_a_notice_of_lavras_series_the_registry_lacks_is_refused_even_attested(
    engine: Engine
) -> None:
    """Issue 22: a notice numbered in lavra's own NOT-DEF series and absent from the
    registry was accepted on a servant's attestation."""
    for form, number in ((CAS, "NOT-DEF-FRET nº 0004/2026"), (REV, "not-def-esc 0002/2026")):
        data = decision(engine, form, number, date(2026, 4, 23))
        data["defesa"]["notificacao"].update(
            data_ciencia="2026-04-11",
            conferencia={"responsavel": "Ana Exemplo Lima", "data": "2026-04-23"})
        report = engine.prepare(form, data, issued_on=date(2026, 4, 23),
                                history=FakeHistory()).report
        found = pending(report)["defesa.notificacao.numero"]
        assert found.status is Status.INVALID, form
        assert f"{number} não consta do registro" in found.message
        assert "supre apenas a notificação em papel" in found.message
        assert "defesa.notificacao.conferencia" not in pending(report)


def test_a_notice_outside_the_registry_needs_the_servants_attestation(engine: Engine) -> None:
    data = decision(engine, CAS, "Notificação nº 4/2026", date(2026, 4, 23))
    report = engine.prepare(CAS, data, issued_on=date(2026, 4, 23), history=FakeHistory()).report
    found = pending(report)["defesa.notificacao.conferencia"]
    assert found.status is Status.MISSING and "PA 1234/2026" in found.message
    assert "O número, sozinho, não comprova" in found.message
    data["defesa"]["notificacao"].update(
        data_ciencia="2026-04-11",
        conferencia={"responsavel": "Ana Exemplo Lima", "data": "2026-04-23"})
    attested = engine.prepare(CAS, data, issued_on=date(2026, 4, 23), history=FakeHistory())
    assert attested.report.complete, pending(attested.report)
    assert "atestada por Ana Exemplo Lima, em 23/04/2026, em conferência nos autos do " \
        "processo PA 1234/2026" in attested.computed["defesa"]["texto"]


# ------------------------------------------------------- revogação over a fixed history


def revocation_notice(ciencia: date | None = date(2026, 6, 1), *,
                      alvara_number: str = "ALV-ESC nº 0007/2026") -> PriorRecord:
    facts = () if ciencia is None else (RecordedFact("ciencia", ciencia, recorded_by="Maria"),)
    return PriorRecord(
        "0002/2026", date(2026, 5, 29),
        {"processo": {"numero": "PA 3.210/2026"}, "condutor": {"cpf": "529.982.247-25"},
         "alvara": {"numero": alvara_number}, "acusacao": {"hipoteses": ["terceira_multa"]}},
        form=NOT_REV, series="NOT-DEF-ESC", facts=facts,
    )


def revocation_report(engine: Engine, decided: date, notice: PriorRecord, *,
                      presented: date | None = None) -> Report:
    data = decision(engine, REV, "NOT-DEF-ESC nº 0002/2026", decided, presented=presented)
    history = History(alvara(), *FINES, notice)
    return engine.prepare(REV, copy.deepcopy(data), issued_on=decided, history=history).report


def test_revocation_without_ciencia_is_incomplete(engine: Engine) -> None:
    found = pending(revocation_report(engine, date(2026, 6, 22), revocation_notice(None)))
    assert found["defesa.notificacao.ciencia"].status is Status.MISSING


@pytest.mark.parametrize(("ciencia", "decided", "complete"), [
    (date(2026, 6, 1), date(2026, 6, 11), False),  # the last day
    (date(2026, 6, 1), date(2026, 6, 12), True),  # the day after
    # ciência Tuesday 10/11: the 10th day is 20/11 (Consciência Negra), moved to 23/11
    (date(2026, 11, 10), date(2026, 11, 23), False),
    (date(2026, 11, 10), date(2026, 11, 24), True),
], ids=["on the last day", "the day after", "on the day moved off the holiday",
        "the day after it"])
def test_revocation_without_defence_waits_for_the_period(
    engine: Engine, ciencia: date, decided: date, complete: bool
) -> None:
    report = revocation_report(engine, decided, revocation_notice(ciencia))
    assert report.complete is complete, pending(report)
    if not complete:
        assert pending(report)["defesa.prazo"].status is Status.INVALID


def test_revocation_with_defence_presented_follows_it(engine: Engine) -> None:
    report = revocation_report(engine, date(2026, 6, 5), revocation_notice(),
                               presented=date(2026, 6, 4))
    assert report.complete, pending(report)


def test_revocation_refuses_a_notice_for_another_alvara(engine: Engine) -> None:
    notice = revocation_notice(alvara_number="ALV-ESC nº 0008/2026")
    found = pending(revocation_report(engine, date(2026, 6, 12), notice))
    assert found["defesa.notificacao.alvaras"].status is Status.INVALID
    assert "ALV-ESC nº 0007/2026" in found["defesa.notificacao.alvaras"].message


def test_the_revocation_notice_cannot_precede_the_infraction_it_accuses(
    engine: Engine,
) -> None:
    early = PriorRecord(
        "0002/2026", date(2026, 5, 3), revocation_notice().data, form=NOT_REV,
        series="NOT-DEF-ESC", facts=(RecordedFact("ciencia", date(2026, 5, 4)),),
    )
    found = pending(revocation_report(engine, date(2026, 6, 22), early))
    item = next(i for i in found.values() if "só pode acusar fatos já ocorridos" in i.message)
    assert item.status is Status.INVALID and "04/05/2026" in item.message
