"""Facts recorded after a document's issue (issue 10, class 2): the registry (SQLite and
PostgreSQL), the deadlines counted from the recorded ciência, and the appeal decisions
that read it. Every date is explicit: the registry's moment of issue is set per test."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from historycases import FakeHistory
from registrycases import builder
from sqlalchemy import update

from lavra.checking.computations import ComputeInput, PriorRecord, RecordedFact
from lavra.checking.content import Content
from lavra.errors import InputError
from lavra.recording import FactRecorder
from lavra.registry.records import LOCAL_TZ
from lavra.registry.store import Registry, open_registry
from lavra.registry.tables import DocumentRow, EventRow
from lavra_americana.comum.decisao_recurso import decisao_recurso

REPO = Path(__file__).resolve().parent.parent
ISSUED = datetime(2026, 3, 25, 11, 15, tzinfo=LOCAL_TZ)  # a Wednesday


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    with open_registry(registry_url) as opened:
        yield opened


def _issued(registry: Registry, form: str = "auto-infracao-escolar",
            series: str = "AIE-ESC", at: datetime = ISSUED,
            data: dict[str, Any] | None = None) -> int:
    record = registry.issue(series, 2026, form,
                            builder(data or {"veiculo": {"placa": "ABC1D23"}}))
    with registry.engine.begin() as connection:
        connection.execute(update(DocumentRow).where(DocumentRow.id == record.id)
                           .values(issued_at=at.astimezone(UTC)))
        connection.execute(update(EventRow).where(EventRow.document_id == record.id)
                           .values(at=at.astimezone(UTC)))
    return record.id


def _now(day: date, hour: int = 10) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=LOCAL_TZ)


def _refused(call: Any, field: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        call()
    assert caught.value.field == field, caught.value.message
    assert words in caught.value.message, caught.value.message


# ------------------------------------------------------------------ registry
def test_a_ciencia_is_recorded_with_who_when_and_means(registry: Registry) -> None:
    ident = _issued(registry)
    fact = registry.record_fact(ident, "ciencia", on="2026-03-27", by="Maria (maria)",
                                means="ar", reference="AR BR123456789",
                                now=_now(date(2026, 3, 30)))
    assert fact.on == date(2026, 3, 27) and not fact.with_time
    assert fact.recorded_by == "Maria (maria)"
    assert fact.recorded_at == _now(date(2026, 3, 30)).astimezone(UTC)
    assert fact.describe() == ("ciência do interessado em 27/03/2026, por aviso de recebimento "
                               "(AR) (AR BR123456789)")
    events = registry.history(ident)
    assert [e.kind for e in events] == ["issued", "ciencia"]
    assert events[1].occurred_at is not None
    assert events[1].occurred_at.astimezone(LOCAL_TZ).date() == date(2026, 3, 27)
    assert events[1].data == {"com_hora": False, "meio": "ar", "referencia": "AR BR123456789"}


def test_boundaries_of_a_fact_against_issue_and_recording(registry: Registry) -> None:
    ident = _issued(registry)
    now = _now(date(2026, 3, 30), 9)
    _refused(lambda: registry.record_fact(ident, "pagamento", on="2026-03-24", by="M",
                                          amount="384,20", now=now), "/data", "anterior")
    # the day of issue itself is admitted by date; by time, only after 11:15
    registry.record_fact(ident, "pagamento", on="2026-03-25", by="M", amount="1", now=now)
    _refused(lambda: registry.record_fact(ident, "pagamento", on="2026-03-25T11:00", by="M",
                                          amount="1", now=now), "/data", "anterior")
    registry.record_fact(ident, "pagamento", on="2026-03-25T11:16", by="M", amount="1", now=now)
    # the day of recording is admitted; the next day, or a later hour, is not
    registry.record_fact(ident, "pagamento", on="2026-03-30", by="M", amount="1", now=now)
    _refused(lambda: registry.record_fact(ident, "pagamento", on="2026-03-31", by="M",
                                          amount="1", now=now), "/data", "posterior")
    _refused(lambda: registry.record_fact(ident, "pagamento", on="2026-03-30T09:30", by="M",
                                          amount="1", now=now), "/data", "posterior")


def test_second_ciencia_refused_until_the_first_is_revoked(registry: Registry) -> None:
    ident = _issued(registry)
    now = _now(date(2026, 4, 1))
    first = registry.record_fact(ident, "ciencia", on="2026-03-27", by="M", means="ar", now=now)
    _refused(lambda: registry.record_fact(ident, "ciencia", on="2026-03-28", by="M",
                                          means="pessoal", now=now), "/tipo", "Já consta")
    revoked = registry.revoke_fact(first.id, reason="AR de outro processo", by="Chefe",
                                   now=now)
    assert revoked.revoked and revoked.revoke_reason == "AR de outro processo"
    _refused(lambda: registry.revoke_fact(first.id, reason="de novo", by="Chefe"),
             "/fato", "já foi revogado")
    second = registry.record_fact(ident, "ciencia", on="2026-03-28", by="M", means="pessoal",
                                  now=now)
    facts = registry.facts(ident)
    assert [(f.id, f.revoked) for f in facts] == [(first.id, True), (second.id, False)]
    # nothing is deleted: the revoked record and its revocation stay in the history
    assert [e.kind for e in registry.history(ident)] == [
        "issued", "ciencia", "fato_revogado", "ciencia"]


def test_refusals_name_the_field(registry: Registry) -> None:
    ident = _issued(registry)
    now = _now(date(2026, 4, 1))
    _refused(lambda: registry.record_fact(ident, "ciencia", on="2026-03-27", by="M", now=now),
             "/meio", "meio")
    _refused(lambda: registry.record_fact(ident, "ciencia", on="2026-03-27", by="M",
                                          means="edital", now=now), "/referencia", "edital")
    _refused(lambda: registry.record_fact(ident, "pagamento", on="2026-03-27", by="M", now=now),
             "/valor", "valor")
    _refused(lambda: registry.record_fact(ident, "pagamento", on="2026-03-27", by="M",
                                          amount="-5", now=now), "/valor", "positivo")
    _refused(lambda: registry.record_fact(ident, "multa", on="2026-03-27", by="M", now=now),
             "/tipo", "desconhecido")
    _refused(lambda: registry.record_fact(ident, "ciencia", on="27/03/2026", by="M",
                                          means="ar", now=now), "/data", "AAAA-MM-DD")
    _refused(lambda: registry.record_fact(999, "ciencia", on="2026-03-27", by="M",
                                          means="ar", now=now), "/documento", "não consta")
    registry.cancel("AIE-ESC", 2026, 1, reason="Lavrado para o veículo errado.", by="Chefe")
    _refused(lambda: registry.record_fact(ident, "pagamento", on="2026-03-27", by="M",
                                          amount="10", now=now), "/documento", "cancelado")
    assert registry.facts(ident) == ()


# ------------------------------------------------------------------ deadlines from the record
@pytest.fixture(scope="module")
def content() -> Content:
    return Content(REPO)


def test_appeal_deadline_from_a_ciencia_on_a_friday_before_a_holiday(
        registry: Registry, content: Content) -> None:
    ident = _issued(registry, at=datetime(2026, 9, 30, 15, tzinfo=LOCAL_TZ))
    recorder = FactRecorder(registry, content)
    record = recorder.document("AIE-ESC nº 0001/2026")
    assert recorder.deadlines(record) == ()  # no ciência yet: no last day
    recorder.record(record, "ciencia", on="2026-10-02", by="M", means="ar",
                    now=_now(date(2026, 10, 5)))
    (deadline,) = recorder.deadlines(record)
    # 10 days from Friday 02/10 end on Monday 12/10, a holiday: moved to Tuesday 13/10
    assert deadline.citation == "transporte-escolar#art26"
    assert deadline.last_day == date(2026, 10, 13)
    assert "registrada por M" in deadline.ciencia.source
    assert recorder.document(str(ident)).id == ident


def test_a_day_decreed_by_staff_moves_the_last_day_counted_from_a_ciencia(
        registry: Registry, content: Content) -> None:
    """Class 9: the days without expediente staff register count here too, as in the
    documents (the last day computed from the recorded ciência)."""
    _issued(registry, at=datetime(2026, 9, 30, 15, tzinfo=LOCAL_TZ))
    recorder = FactRecorder(registry, content)
    record = recorder.document("AIE-ESC nº 0001/2026")
    recorder.record(record, "ciencia", on="2026-10-02", by="M", means="ar",
                    now=_now(date(2026, 10, 5)))
    (before,) = recorder.deadlines(record)
    assert before.last_day == date(2026, 10, 13)
    # A ponto facultativo decreed on Tuesday 13/10 moves it to Wednesday 14/10, at once.
    registry.add_staff_day("13/10/2026", "ponto_facultativo", "Ponto facultativo",
                           act="Decreto nº 12.345, de 1º de outubro de 2026", by="Administrador")
    (after,) = recorder.deadlines(record)
    assert after.last_day == date(2026, 10, 14)


def test_an_act_with_its_own_ciencia_takes_no_second_one(
        registry: Registry, content: Content) -> None:
    _issued(registry, data={"veiculo": {"placa": "ABC1D23"},
                            "ciencia": {"nome": "José", "data": "2026-03-25"}})
    recorder = FactRecorder(registry, content)
    record = recorder.document("AIE-ESC nº 0001/2026")
    _refused(lambda: recorder.record(record, "ciencia", on="2026-03-26", by="M", means="ar",
                                     now=_now(date(2026, 3, 30))), "/tipo", "próprio ato")
    (deadline,) = recorder.deadlines(record)
    assert deadline.last_day == date(2026, 4, 6)  # 04/04 is a Saturday
    assert "próprio ato" in deadline.ciencia.source


def test_fretamento_art24_from_the_ciencia_of_the_secretarios_decision(
        registry: Registry, content: Content) -> None:
    _issued(registry, form="decisao-recurso-secretario", series="DEC-SETRANSV",
            at=datetime(2026, 8, 20, 16, tzinfo=LOCAL_TZ))
    recorder = FactRecorder(registry, content)
    record = recorder.document("DEC-SETRANSV nº 0001/2026")
    recorder.record(record, "ciencia", on="2026-08-21", by="M", means="pessoal",
                    now=_now(date(2026, 8, 24)))
    (deadline,) = recorder.deadlines(record)
    # 15 days from Friday 21/08: Saturday 05/09, then 07/09 (holiday): Tuesday 08/09
    assert deadline.last_day == date(2026, 9, 8)


def test_fretamento_art24_from_the_recorded_receipt_of_a_notification(
        registry: Registry, content: Content) -> None:
    """Issue 23, class 1: the notificação leaves its receipt blank; the last day of the
    art. 24 appeal is counted from the receipt recorded afterwards."""
    _issued(registry, form="notificacao-fretamento", series="NOT-FRET",
            at=datetime(2026, 4, 17, 16, tzinfo=LOCAL_TZ))
    recorder = FactRecorder(registry, content)
    record = recorder.document("NOT-FRET nº 0001/2026")
    assert recorder.deadlines(record) == ()  # not received yet: no last day
    recorder.record(record, "ciencia", on="2026-04-20", by="M", means="pessoal",
                    now=_now(date(2026, 4, 20)))
    (deadline,) = recorder.deadlines(record)
    assert deadline.citation == "fretamento#art24"
    # 15 days from Monday 20/04: Tuesday 05/05
    assert deadline.last_day == date(2026, 5, 5)
    assert deadline.summary == ("Ciência em 20/04/2026; prazo de recurso encerra-se em "
                                "05/05/2026")


# ------------------------------------------------------------------ appeal decisions
def _example(form: str) -> dict[str, Any]:
    raw = json.loads((REPO / "forms" / form / "exemplo.json").read_text(encoding="utf-8"))
    return copy.deepcopy(raw)


def _decide(data: dict[str, Any], history: Any, form: str = "decisao-recurso-prefeito",
            ) -> Any:
    on = date.fromisoformat(data["decisao"]["data"])
    return decisao_recurso(ComputeInput(
        form_id=form, data=data, on=on, pack_dir=REPO, history=history, draft=True,
        issued_on=on, issued_at=datetime(on.year, on.month, on.day, 18, tzinfo=LOCAL_TZ)))


def _auto(*facts: RecordedFact, own: str | None = None) -> FakeHistory:
    data: dict[str, Any] = {"veiculo": {"placa": "ABC1D23"}}
    if own:
        data["ciencia"] = {"nome": "José", "data": own}
    return FakeHistory(PriorRecord("0004/2026", date(2026, 3, 25), data,
                                   form="auto-infracao-escolar", series="AIE-ESC",
                                   facts=facts))


def _items(result: Any, requirement: str) -> list[Any]:
    return [i for i in result.items if i.requirement == requirement]


def test_escolar_appeal_counted_from_the_registrys_ciencia() -> None:
    data = _example("decisao-recurso-prefeito")
    del data["ato_recorrido"]["data_ciencia"]
    data["recurso"]["data_protocolo"] = "2026-10-13"
    data["ato_recorrido"]["data"] = "2026-09-30"
    data["decisao"]["data"] = "2026-10-20"
    ciencia = RecordedFact("ciencia", date(2026, 10, 2), means="ar", recorded_by="Maria")
    result = _decide(data, _auto(ciencia))
    assert result.values["tempestivo"] is True  # last day 13/10 (12/10 is a holiday)
    assert result.values["prazo_recurso"] == date(2026, 10, 13)
    assert result.values["ciencia_ato"] == date(2026, 10, 2)
    assert "registrada por Maria" in result.values["ciencia_registrada"]
    data["recurso"]["data_protocolo"] = "2026-10-14"
    late = _decide(data, _auto(ciencia))
    assert late.values["tempestivo"] is False and late.values["resultado"] == "nao_conhecido"


def test_a_typed_ciencia_that_contradicts_the_registry_is_refused() -> None:
    data = _example("decisao-recurso-prefeito")
    data["ato_recorrido"]["data_ciencia"] = "2026-03-31"
    result = _decide(data, _auto(RecordedFact("ciencia", date(2026, 3, 30), means="ar")))
    (item,) = _items(result, "ato_recorrido.data_ciencia")
    assert item.status.value == "invalid" and "difere" in item.message
    data["ato_recorrido"]["data_ciencia"] = "2026-03-30"
    agreed = _decide(data, _auto(RecordedFact("ciencia", date(2026, 3, 30), means="ar")))
    assert _items(agreed, "ato_recorrido.data_ciencia") == []
    # the act's own ciência (signed on the spot) is the registry's too
    own = _decide(data, _auto(own="2026-03-25"))
    assert _items(own, "ato_recorrido.data_ciencia")[0].status.value == "invalid"


def test_no_ciencia_recorded_nor_typed_is_pending() -> None:
    data = _example("decisao-recurso-prefeito")
    del data["ato_recorrido"]["data_ciencia"]
    result = _decide(data, _auto())
    (item,) = _items(result, "ato_recorrido.data_ciencia")
    assert item.status.value == "missing" and "registre-a" in item.message
    assert result.values["tempestivo"] is None
    # the act not in the registry: the typed date is used, as before
    data["ato_recorrido"]["data_ciencia"] = "2026-03-30"
    assert _decide(data, FakeHistory()).values["tempestivo"] is True
    # the act in the registry without a recorded ciência: the typed date is used
    assert _decide(data, _auto()).values["tempestivo"] is True


def test_fretamento_prefeito_appeal_from_the_recorded_ciencia_of_the_decision() -> None:
    data = _example("decisao-recurso-prefeito")
    data["recurso"]["hipotese"] = "fretamento#art24"
    data["recorrente"] = {"nome": "Viação Exemplo Ltda.", "cnpj": "65.563.842/0001-05"}
    data["ato_recorrido"] = {"especie": "decisao", "numero": "DEC-SETRANSV 0001/2026",
                             "data": "2026-08-20"}
    data["recurso"]["data_protocolo"] = "2026-09-08"
    data["decisao"]["data"] = "2026-09-15"
    decision = PriorRecord("0001/2026", date(2026, 8, 20), {}, form="decisao-recurso-secretario",
                           series="DEC-SETRANSV",
                           facts=(RecordedFact("ciencia", date(2026, 8, 21), means="pessoal"),))
    result = _decide(data, FakeHistory(decision))
    assert result.values["prazo_recurso"] == date(2026, 9, 8)
    assert result.values["tempestivo"] is True


# ------------------------------------------------ decisions that leave the ciência blank
def _with_basis(registry: Registry, ident: int, fundamento: list[str]) -> None:
    with registry.engine.begin() as connection:
        connection.execute(update(DocumentRow).where(DocumentRow.id == ident)
                           .values(computed={"fundamento": fundamento}))


@pytest.mark.parametrize(
    ("ciencia", "last"),
    [
        # 10 days from Tuesday 10/11/2026 end on Friday 20/11/2026, a holiday (Dia da
        # Consciência Negra): moved to Monday 23/11/2026.
        ("2026-11-10", date(2026, 11, 23)),
        ("2026-11-09", date(2026, 11, 19)),  # the Thursday before the holiday: kept
        ("2026-11-11", date(2026, 11, 23)),  # a Saturday: moved to Monday
    ],
    ids=["friday holiday", "thursday before it", "saturday after it"],
)
def test_a_refusal_counts_its_appeal_from_the_recorded_ciencia(
        registry: Registry, content: Content, ciencia: str, last: date) -> None:
    """Issue 23: the indeferimento prints the period; the last day is the registry's,
    from the ciência recorded after the signature, on the business-day calendar."""
    ident = _issued(registry, form="decisao-indeferimento", series="IND",
                    at=datetime(2026, 11, 7, 20, 17, tzinfo=LOCAL_TZ),  # a Saturday night
                    data={"ciencia": {"nome": "José Exemplo dos Santos"}})
    _with_basis(registry, ident, ["lei-9784-1999#art50_inc1", "lei-9784-1999#art59"])
    recorder = FactRecorder(registry, content)
    record = recorder.document("IND nº 0001/2026")
    assert recorder.deadlines(record) == ()  # signed, no ciência yet: no last day
    recorder.record(record, "ciencia", on=ciencia, by="M", means="pessoal",
                    now=_now(date(2026, 11, 12)))
    (deadline,) = recorder.deadlines(record)
    assert deadline.citation == "lei-9784-1999#art59"
    assert deadline.last_day == last


@pytest.mark.parametrize(
    ("form", "series", "citation", "days"),
    [("decisao-cassacao-fretamento", "CAS-FRET", "fretamento#art24", 15),
     ("decisao-revogacao-alvara", "REV-ESC", "transporte-escolar#art26", 10),
     # the revocation by motivo fundamentado (art. 3º) is no penalty: Lei 9.784, art. 59
     ("decisao-revogacao-alvara", "REV-ESC", "lei-9784-1999#art59", 10)],
)
def test_cassation_and_revocation_take_the_ciencia_recorded_after_the_signature(
        registry: Registry, content: Content, form: str, series: str, citation: str,
        days: int) -> None:
    """Their ciência line is blank: the ciência is recorded on the entry, once. The
    revocation's deadline is the appeal of its ground, as its basis says."""
    ident = _issued(registry, form=form, series=series,
                    at=datetime(2026, 12, 5, 20, 17, tzinfo=LOCAL_TZ),  # Saturday 20:17
                    data={"ciencia": {"nome": "Carlos Exemplo Souza"}})
    if series == "REV-ESC":
        _with_basis(registry, ident, ["transporte-escolar#art3", citation])
    recorder = FactRecorder(registry, content)
    record = recorder.document(f"{series} nº 0001/2026")
    assert recorder.deadlines(record) == ()
    recorder.record(record, "ciencia", on="2026-12-09", by="M", means="pessoal",
                    now=_now(date(2026, 12, 9), 15))
    (deadline,) = recorder.deadlines(record)
    assert deadline.citation == citation
    # from Wednesday 09/12: 15 days end on Thursday 24/12; 10 days on Saturday 19/12,
    # moved to Monday 21/12
    assert deadline.last_day == (date(2026, 12, 24) if days == 15 else date(2026, 12, 21))
    _refused(lambda: recorder.record(record, "ciencia", on="2026-12-10", by="M",
                                     means="ar", now=_now(date(2026, 12, 10), 15)),
             "/tipo", "ciência")
