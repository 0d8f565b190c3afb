"""The declaration of vacancy (Lei nº 4.515/2007, art. 13): the licence not renewed by
the last business day of the year is cancelled automatically and its place declared
vacant, joining the next chamamento (§ 1º); never before that day, never for a renewed
alvará, never while a renewal requested in time awaits decision."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from formcases import DELETE, at, example, pdf_text, pending_at, setter
from historycases import FakeHistory, registered

from lavra.checking.computations import FiledProtocol, PriorRecord
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra.textutil import format_act_number
from lavra_americana.transporte_escolar import vacancia

DV = "declaracao-vacancia"
ALV = "alvara-transporte-escolar"
ISSUED = date(2026, 12, 15)
PLATE = "EXE1A23"


def expired(**extra: Any) -> PriorRecord:
    return registered(ALV, "0007/2025", date(2025, 1, 6), date(2025, 12, 31), PLATE, **extra)


def report(engine: Engine, data: dict[str, Any], history: Any) -> Report:
    return engine.prepare(DV, data, issued_on=ISSUED, history=history).report


def test_example_is_complete_after_the_last_business_day(engine: Engine) -> None:
    prepared = engine.prepare(DV, example(engine, DV), issued_on=ISSUED,
                              history=FakeHistory(expired()))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["ultimo_dia_renovacao"] == date(2025, 12, 31)
    form = engine.content.form(DV)
    assert form.series == "DV-ESC" and form.signer_role == "secretario-transportes"
    assert {"transporte-escolar#art13", "transporte-escolar#art13_par1"} <= set(
        vacancia.IMPLEMENTED)
    text = pdf_text(engine.draft(DV, example(engine, DV), history=FakeHistory(expired())).pdf)
    assert "declara vacante" in text and "próximo Edital de Chamamento" in text


def test_the_declaration_states_its_appeal_and_leaves_the_ciencia_blank(
    engine: Engine,
) -> None:
    # issue 23, class 2: a cassação the law decrees (art. 13) is no penalty of arts. 25
    # and 26 nor an ato de escolha (art. 11): Lei nº 9.784/1999 gives its appeal
    rendered = engine.draft(DV, example(engine, DV), history=FakeHistory(expired()))
    text = " ".join(pdf_text(rendered.pdf).split())
    assert "Desta declaração cabe recurso, por razões de legalidade e de mérito, no prazo de " \
        "10 (dez) dias contados da ciência, dirigido ao Secretário" in text
    assert "arts. 56, § 1º, e 59 da Lei nº 9.784, de 29 de janeiro de 1999" in text
    assert "Recebi a via desta declaração e dela tomei ciência em ____/____/________" in text
    found = engine.content.form(DV).acknowledgement
    assert found is not None and found.deadlines == ("lei-9784-1999#art59",)


@pytest.mark.parametrize(
    ("day", "ok"),
    [("2025-12-31", False), ("2026-01-01", True)],
    ids=["on the last business day: may still renew", "the day after"],
)
def test_only_after_the_last_business_day(engine: Engine, day: str, ok: bool) -> None:
    data = example(engine, DV)
    data["data_declaracao"] = day
    got = report(engine, data, FakeHistory(expired()))
    assert got.complete is ok
    if not ok:
        assert "31/12/2025" in at(got, "/data_declaracao").message


def test_the_last_business_day_moves_back_from_a_weekend(engine: Engine) -> None:
    data = example(engine, DV)
    data["alvara"] = {"numero": "ALV-ESC 0007/2028", "valido_ate": "2028-12-31"}  # a Sunday
    record = registered(ALV, "0007/2028", date(2028, 1, 5), date(2028, 12, 31), PLATE)
    data["data_declaracao"] = "2029-01-02"
    got = engine.prepare(DV, data, issued_on=date(2029, 1, 2), history=FakeHistory(record))
    assert got.report.complete, [i.message for i in got.report.pending]
    assert got.computed["ultimo_dia_renovacao"] == date(2028, 12, 29)  # Friday


@pytest.mark.parametrize(
    ("history", "status"),
    [
        (None, Status.MISSING),
        (FakeHistory(), Status.MISSING),
        (FakeHistory(expired(cancelled=True, cancel_reason="revogado")), Status.INVALID),
        (FakeHistory(expired(), registered(ALV, "0001/2026", date(2026, 1, 2),
                                           date(2026, 12, 31), PLATE)), Status.INVALID),
    ],
    ids=["no registry", "not registered", "already cancelled", "renewed"],
)
def test_the_alvara_in_the_registry(engine: Engine, history: Any, status: Status) -> None:
    assert at(report(engine, example(engine, DV), history), "/alvara/numero").status is status


def test_a_pending_renewal_request_bars_the_vacancy(engine: Engine) -> None:
    data = example(engine, DV)
    data["renovacao_requerida"] = {"data": "2025-12-10"}
    found = at(report(engine, data, FakeHistory(expired())), "/renovacao_requerida/indeferida_em")
    assert found.status is Status.INVALID and "10/12/2025" in found.message
    data["renovacao_requerida"]["indeferida_em"] = "2025-12-30"
    assert report(engine, data, FakeHistory(expired())).complete


@pytest.mark.parametrize(
    "pointer", ["/alvara/numero", "/alvara/valido_ate", "/titular/nome", "/veiculo/placa",
                "/data_declaracao"],
)
def test_each_missing_field_blocks_the_issue(engine: Engine, pointer: str) -> None:
    data = example(engine, DV)
    setter(pointer, DELETE)(data)
    got = report(engine, data, FakeHistory(expired()))
    assert pending_at(got, pointer)


def test_a_post_dated_declaration_is_refused(engine: Engine) -> None:
    data = example(engine, DV)
    data["data_declaracao"] = "2026-12-16"
    found = at(report(engine, data, FakeHistory(expired())), "/data_declaracao")
    assert found.status is Status.INVALID and "pós-datada" in found.message


class _WithFilings(FakeHistory):
    """The registry's protocols beside its acts (lavra.checking.computations.FilingHistory)."""

    def __init__(self, *filed: FiledProtocol) -> None:
        super().__init__(expired())
        self.filed = {format_act_number(f.protocol): f for f in filed}

    def filing(self, protocol: str) -> FiledProtocol | None:
        return self.filed.get(format_act_number(protocol))


@pytest.mark.parametrize(("typed", "form", "cpf", "error"), [
    ("PROT nº 0003/2026", "requerimento-renovacao-escolar", "52998224725", None),
    ("3.210/2026", "requerimento-renovacao-escolar", "11144477735", None),  # paper
    ("PROT nº 0009/2026", "requerimento-renovacao-escolar", "52998224725",
     "não consta do registro de protocolos"),
    ("PROT nº 0003/2026", "requerimento-renovacao-escolar", "11144477735",
     "não é o requerimento de renovação do titular"),
    ("PROT nº 0003/2026", "requerimento-troca-veiculo-escolar", "52998224725",
     "não é o requerimento de renovação do titular"),
])
def test_the_processo_joined_is_the_holders_renewal_request(
        engine: Engine, typed: str, form: str, cpf: str, error: str | None) -> None:
    """A processo in lavra's series puts the declaration on that protocol's tracking
    page: only the titular's own renewal request (vacancia.processo_items)."""
    data = example(engine, DV)
    data["processo"] = {"numero": typed}
    data["renovacao_requerida"] = {"data": "2025-12-10", "indeferida_em": "2025-12-20"}
    history = _WithFilings(FiledProtocol("PROT nº 0003/2026", form, date(2025, 12, 10),
                                         cpf, "PROT nº 0003/2026"))
    found = [i for i in report(engine, data, history).pending if i.field == "/processo/numero"]
    if error is None:
        assert not found, found
    else:
        (item,) = found
        assert item.status is Status.INVALID and error in item.message
        assert "lei-9784-1999#art59" in item.basis
