"""The semiannual revalidation of the school-transport alvará (Lei nº 4.515/2007, art.
13, § 6º: May and November): the alvará checked in the registry, the month, one per
window, and a validity that never outlives the alvará."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from formcases import DELETE, at, example, pdf_text, pending_at, setter
from historycases import FakeHistory, registered

from lavra.checking.computations import PriorRecord
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana.transporte_escolar import revalidacao

TRV = "termo-revalidacao-semestral"
ALV = "alvara-transporte-escolar"
ISSUED = date(2026, 12, 15)
PLATE = "EXE1A23"


def alvara(until: date = date(2026, 12, 31), **extra: Any) -> PriorRecord:
    return registered(ALV, "0007/2026", date(2026, 3, 10), until, PLATE, **extra)


def earlier(on: date, number: str = "0001/2026") -> PriorRecord:
    return PriorRecord(number, on, {"veiculo": {"placa": PLATE},
                                    "alvara": {"numero": "ALV-ESC 0007/2026"}}, form=TRV)


class History(FakeHistory):
    def prior_autos(self, placa: str, form: str, since: date, before: date) -> list[PriorRecord]:
        return [r for r in self.records
                if r.form == form and since <= r.reference_date < before and not r.cancelled]


def report(engine: Engine, data: dict[str, Any], history: Any) -> Report:
    return engine.prepare(TRV, data, issued_on=ISSUED, history=history).report


def on(data: dict[str, Any], day: str) -> dict[str, Any]:
    data["revalidacao"]["data"] = day
    return data


def test_example_is_complete_and_lasts_to_the_next_november(engine: Engine) -> None:
    prepared = engine.prepare(TRV, example(engine, TRV), issued_on=ISSUED,
                              history=History(alvara()))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["mes"] == "maio de 2026"
    assert prepared.computed["valido_ate"] == date(2026, 11, 30)
    form = engine.content.form(TRV)
    assert form.series == "TRV-ESC" and form.signer_role == "secretario-transportes"
    assert "transporte-escolar#art13_par6" in revalidacao.IMPLEMENTED


@pytest.mark.parametrize(
    ("day", "ok"),
    [("2026-05-01", True), ("2026-05-29", True),  # 31/05 is a Sunday
     ("2026-04-30", False), ("2026-06-01", False),
     ("2026-11-01", True), ("2026-11-30", True), ("2026-12-01", False)],
)
def test_only_in_may_and_november(engine: Engine, day: str, ok: bool) -> None:
    got = report(engine, on(example(engine, TRV), day), History(alvara()))
    assert got.complete is ok
    if not ok:
        found = at(got, "/revalidacao/data")
        assert found.status is Status.INVALID and "maio e de novembro" in found.message


def test_november_revalidation_ends_with_the_alvara(engine: Engine) -> None:
    data = on(example(engine, TRV), "2026-11-10")
    prepared = engine.prepare(TRV, data, issued_on=ISSUED, history=History(alvara()))
    assert prepared.computed["valido_ate"] == date(2026, 12, 31)  # before May 2027
    assert "vencimento do alvará" in prepared.computed["vigencia_explicacao"]


@pytest.mark.parametrize(
    ("history", "status"),
    [
        (None, Status.MISSING),
        (History(), Status.MISSING),
        (History(alvara(cancelled=True, cancel_reason="cassado")), Status.INVALID),
        (History(alvara(until=date(2026, 5, 11))), Status.INVALID),  # expired the day before
        (History(registered(ALV, "0007/2026", date(2026, 3, 10), date(2026, 12, 31),
                            "XYZ9A87")), Status.INVALID),
    ],
    ids=["no registry", "not registered", "cancelled", "expired", "another vehicle"],
)
def test_the_alvara_is_checked_in_the_registry(
    engine: Engine, history: Any, status: Status
) -> None:
    data = example(engine, TRV)
    if history is not None and history.records:
        data["alvara"]["valido_ate"] = history.records[0].valid_until.isoformat()
    assert at(report(engine, data, history), "/alvara/numero").status is status


def test_one_revalidation_per_window(engine: Engine) -> None:
    data = example(engine, TRV)
    found = at(report(engine, data, History(alvara(), earlier(date(2026, 5, 4)))),
               "/revalidacao/data")
    assert found.status is Status.INVALID and "já foi revalidado" in found.message
    # last November's termo does not count for May
    assert report(engine, data, History(alvara(), earlier(date(2025, 11, 28)))).complete


def test_post_dated_and_expired_documents_are_refused(engine: Engine) -> None:
    data = on(example(engine, TRV), "2026-11-20")
    got = report(engine, data, History(alvara()))
    assert got.complete
    late = engine.prepare(TRV, data, issued_on=date(2026, 11, 19), history=History(alvara()))
    assert at(late.report, "/revalidacao/data").status is Status.INVALID
    data["veiculo"]["seguro"]["validade"] = (date(2026, 11, 20) - timedelta(days=1)).isoformat()
    assert not report(engine, data, History(alvara())).complete


@pytest.mark.parametrize(
    "pointer",
    ["/alvara/numero", "/titular/cnh", "/veiculo/seguro", "/revalidacao/data",
     "/revalidacao/responsavel", "/veiculo/placa"],
)
def test_each_missing_field_blocks_the_issue(engine: Engine, pointer: str) -> None:
    data = example(engine, TRV)
    setter(pointer, DELETE)(data)
    got = report(engine, data, History(alvara()))
    assert pending_at(got, pointer)


def test_the_draft_reads_as_a_termo(engine: Engine) -> None:
    text = pdf_text(engine.draft(TRV, example(engine, TRV), history=History(alvara())).pdf)
    assert "foi revalidado no período de maio de 2026" in text
    assert "válida até 30/11/2026" in text and "de 01/11/2026 a 30/11/2026" in text
