"""Issue 10, classes 1 and 2: due process before an adverse decision, and a signed act
records only what has happened by the moment it is signed.

Computations are called directly with a fixed moment of issue (``issued_on`` and
``issued_at``); drafts go through :class:`lavra.documents.Engine` with the same fixed
moment, so nothing here depends on today's date, the time of day or the machine's zone.
Each test names the rule it checks.
"""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from lavra.checking.computations import Computed, ComputeInput
from lavra.checking.content import Content, FormSpec
from lavra.checking.report import Item, Status
from lavra.cli.demo import current_example, demo_day, hours_of
from lavra.documents import Engine
from lavra.inputs import pointers
from lavra.inputs.reading import TIMEZONE
from lavra_americana.comum.decisao_recurso import decisao_recurso
from lavra_americana.fretamento.auto_infracao import auto_infracao_fretamento
from lavra_americana.fretamento.cassacao import decisao_cassacao_fretamento
from lavra_americana.fretamento.impedimento import termo_impedimento_fretamento
from lavra_americana.transporte_escolar.auto_infracao import auto_infracao_escolar

CAS = "decisao-cassacao-fretamento"
TIM = "termo-impedimento-fretamento"
AIF = "auto-infracao-fretamento"
AIE = "auto-infracao-escolar"
SEC = "decisao-recurso-secretario"
PREF = "decisao-recurso-prefeito"


def example(pack_dir: Path, form: str) -> dict[str, Any]:
    path = pack_dir / "forms" / form / "exemplo.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def at(day: date, hour: str) -> datetime:
    return datetime.combine(day, time.fromisoformat(hour), tzinfo=TIMEZONE)


def run(
    computation: Any,
    form: str,
    data: dict[str, Any],
    pack: Path,
    issued: date,
    issued_at: datetime | None = None,
) -> Computed:
    result: Computed = computation(
        ComputeInput(form_id=form, data=data, on=issued, pack_dir=pack, history=None,
                     draft=True, issued_on=issued, issued_at=issued_at, example_values=True)
    )
    return result


def pending(result: Computed) -> dict[str, Item]:
    return {i.requirement: i for i in result.items if i.pending}


def pdf_text(pdf: bytes) -> str:
    text = " ".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)
    return re.sub(r"\s+", " ", text)


# ---------------------------------------------------------------- class 1: cassação

SOURCE = (
    "(Lei nº 9.784/1999, art. 44, por analogia, à falta de prazo na lei municipal)"
)
NOTICE = date(2026, 4, 6)  # a Monday; 10 days → Thursday 16/04/2026


def cassation(pack: Path, decided: date, *, presented: date | None = None,
              summary: str | None = "A empresa alegou dificuldades financeiras.",
              notice: date = NOTICE) -> dict[str, Any]:
    data = example(pack, CAS)
    # no registry here: the notice is attested by a servant (due_process docstring); the
    # registry's notice and its recorded ciência: tests/test_notificacao_defesa.py
    data["defesa"] = {"apresentada": False, "notificacao": {
        "numero": "NOT-DEF-FRET nº 0004/2026", "data_ciencia": notice.isoformat(),
        "conferencia": {"responsavel": "Ana Exemplo Lima", "data": decided.isoformat()}}}
    if presented is not None:
        data["defesa"].update(apresentada=True, data_apresentacao=presented.isoformat())
        if summary is not None:
            data["defesa"]["sintese"] = summary
    data["decisao"]["data"] = decided.isoformat()
    return data


def test_cassation_example_is_complete_with_the_defence_presented(pack_dir: Path) -> None:
    data = example(pack_dir, CAS)
    result = run(decisao_cassacao_fretamento, CAS, data, pack_dir, date(2026, 4, 6))
    assert not pending(result), pending(result)
    defence = result.values["defesa"]
    assert defence["apresentada"] is True
    assert defence["texto"] == (
        "A empresa ou entidade foi notificada para apresentar defesa pela notificação "
        "nº 112/2026, com ciência em 10/03/2026 (atestada por Ana Exemplo "
        "Lima, matrícula 12.345, em 06/04/2026, em conferência nos autos do processo PA "
        f"1234/2026), no prazo de 10 dias {SOURCE}, e a apresentou em 20/03/2026."
    )


def test_cassation_on_the_day_of_the_notice_without_defence_is_invalid(
    pack_dir: Path,
) -> None:
    """The issue's instance: decided the day the defence was notified, no defence."""
    data = cassation(pack_dir, NOTICE)
    result = run(decisao_cassacao_fretamento, CAS, data, pack_dir, NOTICE)
    found = pending(result)["defesa.prazo"]
    assert found.status is Status.INVALID and found.field == "/decisao/data"
    assert "encerra-se em 16/04/2026" in found.message
    assert "a partir de 17/04/2026" in found.message
    assert "Lei nº 9.784/1999, art. 44" in found.message


@pytest.mark.parametrize(
    ("notice", "decided", "complete"),
    [
        (NOTICE, date(2026, 4, 16), False),  # the last day of the defence period
        (NOTICE, date(2026, 4, 17), True),  # the day after it
        # notice on Saturday 11/04: the 10th day is 21/04 (Tiradentes), moved to 22/04
        (date(2026, 4, 11), date(2026, 4, 22), False),
        (date(2026, 4, 11), date(2026, 4, 23), True),
    ],
)
def test_cassation_without_defence_waits_for_the_period_on_the_calendar(
    pack_dir: Path, notice: date, decided: date, complete: bool
) -> None:
    data = cassation(pack_dir, decided, notice=notice)
    result = run(decisao_cassacao_fretamento, CAS, data, pack_dir, decided)
    found = pending(result)
    assert ("defesa.prazo" not in found) is complete, found
    if complete:
        assert not found, found
        last = result.values["defesa"]["ultimo_dia"]
        assert result.values["defesa"]["texto"].endswith(
            f"no prazo de 10 dias {SOURCE}, encerrado em {last:%d/%m/%Y}, e não a apresentou."
        )


def test_cassation_with_defence_needs_its_date_and_summary(pack_dir: Path) -> None:
    complete = cassation(pack_dir, date(2026, 4, 10), presented=date(2026, 4, 9))
    result = run(decisao_cassacao_fretamento, CAS, complete, pack_dir, date(2026, 4, 10))
    assert not pending(result), "a defence presented lets the decision follow it"
    no_summary = cassation(pack_dir, date(2026, 4, 10), presented=date(2026, 4, 9),
                           summary=None)
    found = pending(run(decisao_cassacao_fretamento, CAS, no_summary, pack_dir,
                        date(2026, 4, 10)))
    assert found["defesa.sintese"].status is Status.MISSING
    no_date = cassation(pack_dir, date(2026, 4, 10), presented=date(2026, 4, 9))
    del no_date["defesa"]["data_apresentacao"]
    found = pending(run(decisao_cassacao_fretamento, CAS, no_date, pack_dir,
                        date(2026, 4, 10)))
    assert found["defesa.data_apresentacao"].status is Status.MISSING


def test_cassation_without_notice_is_missing(pack_dir: Path) -> None:
    data = cassation(pack_dir, date(2026, 5, 4))
    del data["defesa"]["notificacao"]
    found = pending(run(decisao_cassacao_fretamento, CAS, data, pack_dir, date(2026, 5, 4)))
    assert found["defesa.notificacao.numero"].status is Status.MISSING


def test_cassation_notice_or_defence_after_the_decision_is_invalid(pack_dir: Path) -> None:
    data = cassation(pack_dir, date(2026, 4, 20), presented=date(2026, 4, 21))
    found = pending(run(decisao_cassacao_fretamento, CAS, data, pack_dir, date(2026, 4, 21)))
    assert found["defesa.data_apresentacao"].status is Status.INVALID


def test_cassation_ciencia_typed_in_the_act_is_invalid(pack_dir: Path) -> None:
    """The ciência is a fact after the signature, on the day of the decision too."""
    data = cassation(pack_dir, date(2026, 4, 17))
    data["ciencia"]["data"] = "2026-04-17"
    found = pending(run(decisao_cassacao_fretamento, CAS, data, pack_dir, date(2026, 4, 17)))
    assert found["ciencia.data"].status is Status.INVALID
    assert "fato posterior à assinatura" in found["ciencia.data"].message


def test_cassation_draft_prints_the_period_and_its_end(engine: Engine, pack_dir: Path) -> None:
    decided = date(2026, 4, 17)
    data = cassation(pack_dir, decided)
    prepared = engine.prepare(CAS, data, issued_on=decided)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    text = pdf_text(engine.draft(CAS, data).pdf)
    # (the page may break inside the sentence, after the period's source begins)
    assert ("notificada para apresentar defesa pela notificação NOT-DEF-FRET nº 0004/2026, "
            "com ciência em 06/04/2026 (atestada por Ana Exemplo Lima, em 17/04/2026, em "
            "conferência nos autos do processo PA 1234/2026), no prazo de 10 dias") in text
    assert "municipal), encerrado em 16/04/2026, e não a apresentou" in text
    assert "não apresentou defesa no prazo concedido" not in text
    early = cassation(pack_dir, NOTICE)
    assert not engine.prepare(CAS, early, issued_on=NOTICE).report.complete


# ---------------------------------------------------------------- class 1: escolar revocation


def escolar(pack: Path, citation: str, priors: list[tuple[str, str]] | None = None,
            ) -> dict[str, Any]:
    data = example(pack, AIE)
    data["infracoes"] = [{"dispositivo": citation, "descricao": "Fato constatado pelo agente."}]
    data["infracoes_anteriores"] = [
        {"data": when, "dispositivo": cited, "auto": f"AIE-ESC {n:04d}/2025"}
        for n, (when, cited) in enumerate(priors or [], start=1)
    ]
    return data


ESC_ON = date(2026, 3, 2)


def test_escolar_auto_never_revokes_in_a_case_of_art_9(engine: Engine, pack_dir: Path) -> None:
    """Art. 9º, § 2º, II: the auto records the infraction and says the proceeding lies."""
    data = escolar(pack_dir, "transporte-escolar#art9_par2_inc2")
    result = run(auto_infracao_escolar, AIE, data, pack_dir, ESC_ON)
    assert not pending(result), pending(result)
    values = result.values
    assert values["titulo_documento"] == "Auto de Infração"
    assert values["revogacao"] is False and values["revogacao_cabivel"] is True
    assert "será decidida pela Secretaria" in values["revogacao_aviso"]
    assert "no prazo de 10 dias contados da ciência da notificação" in values["revogacao_aviso"]
    assert "Este auto não aplica penalidade" in values["recurso"]["aviso"]
    (line,) = values["infracoes"]
    assert line["revogacao"] is False and line["revogacao_cabivel"] is True
    text = pdf_text(engine.draft(AIE, data).pdf)
    assert "Revogado o alvará" not in text and "Revogação do Alvará" not in text
    assert "A revogação não é aplicada neste auto" in text
    assert "processo próprio" in text


def test_escolar_third_fine_is_fined_and_the_revocation_left_to_its_proceeding(
    pack_dir: Path,
) -> None:
    """Art. 23, III, "após a terceira multa": the auto fines; revocation is not decided."""
    data = escolar(pack_dir, "transporte-escolar#art24_inc2",
                   [("2025-06-01", "transporte-escolar#art24_inc1"),
                    ("2025-10-01", "transporte-escolar#art24_inc4")])
    result = run(auto_infracao_escolar, AIE, data, pack_dir, ESC_ON)
    assert not pending(result), pending(result)
    values = result.values
    assert values["titulo_documento"] == "Auto de Infração e Imposição de Multa"
    assert values["revogacao"] is False and values["revogacao_cabivel"] is True
    (line,) = values["infracoes"]
    assert line["valor_texto"] is not None
    assert "a decidir em processo próprio" in line["sancao_texto"]
    assert "aplica-se também a revogação" not in line["explicacao"]
    assert "Da penalidade aplicada cabe recurso" in values["recurso"]["aviso"]


def test_escolar_fine_without_revocation_prints_no_revocation_notice(pack_dir: Path) -> None:
    data = escolar(pack_dir, "transporte-escolar#art24_inc3")
    values = run(auto_infracao_escolar, AIE, data, pack_dir, ESC_ON).values
    assert values["revogacao_cabivel"] is False and values["revogacao_aviso"] is None


# ---------------------------------------------------------------- class 1: appeal decisions


@pytest.mark.parametrize(
    ("result", "needs_reasons"),
    [("nao_provido", True), ("parcialmente_provido", True), ("provido", False)],
)
def test_decision_that_keeps_the_penalty_needs_the_reasons(
    pack_dir: Path, result: str, needs_reasons: bool
) -> None:
    data = example(pack_dir, SEC)
    del data["recurso"]["razoes"]
    data["decisao"]["resultado"] = result
    found = pending(run(decisao_recurso, SEC, data, pack_dir, date(2026, 3, 20)))
    assert ("recurso.razoes" in found) is needs_reasons, found
    if needs_reasons:
        assert found["recurso.razoes"].status is Status.MISSING
        assert found["recurso.razoes"].field == "/recurso/razoes"
    data = example(pack_dir, SEC)
    data["decisao"]["resultado"] = result
    assert not pending(run(decisao_recurso, SEC, data, pack_dir, date(2026, 3, 20)))


def test_appeal_decision_dates_before_the_issue_and_in_order(pack_dir: Path) -> None:
    issued = date(2026, 4, 20)
    data = example(pack_dir, PREF)
    assert not pending(run(decisao_recurso, PREF, data, pack_dir, issued))
    # a decision dated before the appeal was filed
    early = example(pack_dir, PREF)
    early["decisao"]["data"] = "2026-04-07"
    assert pending(run(decisao_recurso, PREF, early, pack_dir, issued))["decisao.data"]
    # an appeal filed before the act it appeals
    filed = example(pack_dir, PREF)
    filed["recurso"]["data_protocolo"] = "2026-03-24"
    found = pending(run(decisao_recurso, PREF, filed, pack_dir, issued))
    assert found["recurso.data_protocolo"].status is Status.INVALID
    # a ciência before the act
    known = example(pack_dir, PREF)
    known["ato_recorrido"]["data_ciencia"] = "2026-03-24"
    found = pending(run(decisao_recurso, PREF, known, pack_dir, issued))
    assert found["ato_recorrido.data_ciencia"].status is Status.INVALID
    # facts after the issue: the filing (and so the decision) after the signature
    future = example(pack_dir, PREF)
    future["recurso"]["data_protocolo"] = "2026-04-21"
    future["decisao"]["data"] = "2026-04-21"
    found = pending(run(decisao_recurso, PREF, future, pack_dir, issued))
    assert found["recurso.data_protocolo"].status is Status.INVALID
    assert "posterior à data de emissão" in found["recurso.data_protocolo"].message


# ---------------------------------------------------------------- class 2: the time of day

MORNING = at(ESC_ON, "11:15")


@pytest.mark.parametrize(
    ("computation", "form"),
    [(auto_infracao_fretamento, AIF), (auto_infracao_escolar, AIE)],
)
@pytest.mark.parametrize(
    ("hour", "invalid"),
    [("23:50", True), ("11:16", True), ("11:15", False), ("07:10", False)],
)
def test_auto_infraction_after_the_moment_of_issue_is_invalid(
    pack_dir: Path, computation: Any, form: str, hour: str, invalid: bool
) -> None:
    data = example(pack_dir, form)
    data["ocorrencia"]["hora"] = hour
    found = pending(run(computation, form, data, pack_dir, ESC_ON, MORNING))
    assert ("ocorrencia.hora" in found) is invalid, found
    if invalid:
        item = found["ocorrencia.hora"]
        assert item.status is Status.INVALID and item.field == "/ocorrencia/hora"
        assert f"às {hour}" in item.message and "às 11:15" in item.message
    # the day before, any hour has happened; a date alone (no moment) judges no hour
    assert "ocorrencia.hora" not in pending(
        run(computation, form, data, pack_dir, date(2026, 3, 3), at(date(2026, 3, 3), "00:01"))
    )
    assert "ocorrencia.hora" not in pending(run(computation, form, data, pack_dir, ESC_ON))


def test_the_moment_of_issue_is_compared_in_sao_paulo(pack_dir: Path) -> None:
    """14:15 UTC is 11:15 in America/Sao_Paulo: an infraction at 14:00 is still future."""
    data = example(pack_dir, AIF)
    data["ocorrencia"]["hora"] = "14:00"
    utc = datetime(2026, 3, 2, 14, 15, tzinfo=UTC)
    found = pending(run(auto_infracao_fretamento, AIF, data, pack_dir, ESC_ON, utc))
    assert "ocorrencia.hora" in found


def test_engine_takes_the_moment_of_issue(engine: Engine, pack_dir: Path) -> None:
    data = example(pack_dir, AIF)
    data["ocorrencia"]["hora"] = "23:50"
    report = engine.prepare(AIF, data, issued_at=MORNING, example_values=True).report
    assert any(i.field == "/ocorrencia/hora" and i.status is Status.INVALID
               for i in report.pending)
    late = engine.prepare(AIF, data, issued_at=at(ESC_ON, "23:55"), example_values=True)
    assert late.report.complete, [i.to_json() for i in late.report.pending]


def test_on_the_spot_ciencia_after_the_issue_is_invalid(pack_dir: Path) -> None:
    for computation, form in ((auto_infracao_fretamento, AIF), (auto_infracao_escolar, AIE),
                              (termo_impedimento_fretamento, TIM)):
        data = example(pack_dir, form)
        data["ciencia"]["data"] = "2026-03-03"
        found = pending(run(computation, form, data, pack_dir, ESC_ON))
        assert found["ciencia.data"].status is Status.INVALID, form


# ---------------------------------------------------------------- the impediment term


def test_term_prints_the_appeal_and_its_last_day(engine: Engine, pack_dir: Path) -> None:
    """The term is issued at once: the appeal and its last day print (art. 13, by analogy:
    the TVE-FRET's own tests)."""
    data = example(pack_dir, TIM)
    result = run(termo_impedimento_fretamento, TIM, data, pack_dir, ESC_ON, MORNING)
    # the example's constatação at 14:30 is after 11:15
    assert pending(result)["ocorrencia.hora"].status is Status.INVALID
    result = run(termo_impedimento_fretamento, TIM, data, pack_dir, ESC_ON, at(ESC_ON, "15:00"))
    assert not pending(result), pending(result)
    appeal = result.values["recurso"]
    assert appeal["ultimo_dia"] == date(2026, 3, 17)  # art. 23: 15 days from 02/03/2026
    assert "fretamento#art23" in result.values["fundamento"]
    text = pdf_text(engine.draft(TIM, data).pdf)
    assert "o prazo encerra-se em 17/03/2026" in text


def test_term_release_after_the_moment_of_issue_is_invalid(pack_dir: Path) -> None:
    data = example(pack_dir, TIM)
    data["ocorrencia"]["hora"] = "09:00"
    data["desfecho"] = "sanado_no_local"
    data.pop("retirada", None)
    data["liberacao"] = {"hora": "12:00", "providencia": "apresentado o comprovante"}
    found = pending(run(termo_impedimento_fretamento, TIM, data, pack_dir, ESC_ON, MORNING))
    assert found["liberacao.hora"].status is Status.INVALID


# ---------------------------------------------------------------- the demo


def test_demo_moves_an_example_with_a_later_hour_to_yesterday(content: Content) -> None:
    form: FormSpec = content.form(AIF)
    written = example(content.root, AIF)
    assert hours_of(written) == [time(14, 30)]
    before = at(date(2026, 11, 30), "11:15")
    after = at(date(2026, 11, 30), "14:30")
    assert demo_day(written, before) == date(2026, 11, 29)
    assert demo_day(written, after) == date(2026, 11, 30)
    moved, shifted = current_example(form, written, before)
    assert shifted and moved["ocorrencia"]["data"] == "2026-11-29"
    assert moved["ocorrencia"]["hora"] == "14:30"


@pytest.fixture(scope="module")
def content(pack_dir: Path) -> Content:
    return Content(pack_dir)


#: Acts the law binds to months of the year (escolar art. 13, § 6º: May and November;
#: art. 13: the vacancy only after the year's last business day): moved to another day,
#: their example is rightly invalid and the demo drafts it; they are checked on their
#: own dates instead, the day after them.
CALENDAR_BOUND = frozenset({"termo-revalidacao-semestral", "declaracao-vacancia"})


@pytest.mark.parametrize("hour", ["06:00", "23:59"])
def test_demo_examples_record_no_fact_after_their_issue(engine: Engine, hour: str) -> None:
    """``lavra demo`` issues nothing the classes forbid, whatever the time of day."""
    now = at(date(2026, 12, 1), hour)
    checked = 0
    for form in engine.content.forms.values():
        if form.example is None or form.series is None:
            continue
        data, _ = current_example(form, example(engine.content.root, form.id), now)
        if form.id in CALENDAR_BOUND:
            data = example(engine.content.root, form.id)
            assert form.reference_date_field is not None
            day = date.fromisoformat(str(pointers.get(data, form.reference_date_field)))
            report = engine.prepare(form.id, data, issued_at=at(day + timedelta(days=1), hour),
                                    draft=False).report
            assert not [i.to_json() for i in report.pending if i.status is Status.INVALID]
            continue
        report = engine.prepare(form.id, data, issued_at=now, draft=False,
                                example_values=bool(form.computations)).report
        assert not [i.to_json() for i in report.pending if i.status is Status.INVALID], form.id
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize(("expiry", "invalid"),
                         [("2026-04-16", False), ("2026-04-17", True), ("2026-05-01", True)])
def test_cassation_for_non_renewal_needs_an_expired_alvara(
    pack_dir: Path, expiry: str, invalid: bool
) -> None:
    """Art. 22, III: not renewed "quando assim exigido" — only once the alvará expired."""
    data = cassation(pack_dir, date(2026, 4, 17))
    data["hipoteses"] = {"nao_renovacao": {"vencimento": expiry,
                                           "exigencia": "Notificação nº 12/2026."}}
    found = pending(run(decisao_cassacao_fretamento, CAS, data, pack_dir, date(2026, 4, 17)))
    assert ("hipoteses.nao_renovacao.vencimento" in found) is invalid, found
