"""Issue 22: a decision granting the appeal against an auto de infração annuls it in
the licensing state, and the annulled fine stops counting — for the repeat offence
(fretamento art. 18), as an unpaid fine of the cassação (art. 22, II), for the guia (art.
26), for the third fine of the escolar revogação (art. 23, III) and its penalty notice
(art. 26). Cancelling the decision (or a higher instance reforming it) makes the auto
stand again; the rebuild replays the mark. Acts are recorded straight into the registry
(no signing), with every date passed explicitly."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

import pytest
from click.testing import CliRunner
from issuers import state_registry
from test_licensing_state import act, example
from test_revogacao import FINES, REV, alvara, pending
from test_revogacao import example as rev_example
from test_revogacao import registry as fake_registry

from lavra.checking.computations import PriorRecord
from lavra.checking.report import Status
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.issuing import RegistryHistory
from lavra.registry.filings import FilingInput, Filings
from lavra.registry.records import LOCAL_TZ, Built, IssuedRecord
from lavra.registry.store import Registry

AIF = "auto-infracao-fretamento"
DEC = "decisao-recurso-secretario"
CAS = "decisao-cassacao-fretamento"
GUIA = "guia-recolhimento-multa-fretamento"
FIRST = date(2026, 3, 2)
DECIDED = date(2026, 3, 20)
SECOND = date(2026, 4, 10)
GRANTED = {"resultado": "provido", "conhecido": True,
           "resultado_rotulo": "Recurso conhecido e provido"}


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    yield from state_registry(registry_url)


SQLITE = pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)


def auto(registry: Registry, on: date) -> IssuedRecord:
    data = example(AIF)
    data["ocorrencia"]["data"] = data["ciencia"]["data"] = on.isoformat()
    return act(registry, "AIF-FRET", AIF, data, on=on)


def decide(registry: Registry, appealed: IssuedRecord, *, series: str = "DEC-SETRANSV",
           form: str = DEC, hypothesis: str = "fretamento#art23",
           computed: dict[str, Any] = GRANTED, on: date = DECIDED) -> IssuedRecord:
    data = example(form)
    data["recurso"]["hipotese"] = hypothesis
    data["ato_recorrido"]["numero"] = appealed.printed
    data["decisao"].update(data=on.isoformat(), resultado=computed["resultado"])
    return act(registry, series, form, data, on=on, computed=computed)


def doubled(engine: Engine, registry: Registry) -> list[bool]:
    """Whether each infraction of a second auto (same vehicle and infractions) is
    doubled for the repeat of art. 18."""
    data = example(AIF)
    data["ocorrencia"]["data"] = data["ciencia"]["data"] = SECOND.isoformat()
    computed = engine.prepare(AIF, data, issued_on=SECOND, history=RegistryHistory(registry),
                              example_values=True).computed
    return [line["em_dobro"] for line in computed["infracoes"]]


def test_a_granted_appeal_annuls_the_auto_which_stops_counting_for_the_repeat(
    engine: Engine, registry: Registry,
) -> None:
    first = auto(registry, FIRST)
    assert doubled(engine, registry) == [True, True]
    decision = decide(registry, first)

    history = RegistryHistory(registry)
    found = history.document(AIF, first.printed)
    assert found is not None and found.annulled_by == decision.printed
    assert found.annulled_on == DECIDED
    assert history.prior_autos("ABC1D23", AIF, FIRST, SECOND) == []
    assert doubled(engine, registry) == [False, False]
    # The timeline of the company and of the vehicle says so; the rebuild keeps it.
    line = (f"{decision.printed}: {first.printed} anulado em recurso pelo "
            f"{decision.printed}, em 20/03/2026.")
    assert line in [f"{p}: {d}" for _, p, d in registry.state_changes(holder="65563842000105")]
    assert line in [f"{p}: {d}" for _, p, d in registry.state_changes(placa="ABC1D23")]
    assert registry.rebuild_state(apply=False).same
    registry.rebuild_state(apply=True)
    assert registry.annulled_acts([first.id]) == {first.id: (decision.printed, DECIDED)}

    # Cancelling the decision makes the auto stand again.
    registry.cancel(decision.series, decision.year, decision.number, reason="erro material",
                    by="Chefia")
    assert registry.annulled_acts([first.id]) == {}
    assert doubled(engine, registry) == [True, True]
    assert registry.rebuild_state(apply=False).same


@SQLITE
def test_a_denied_appeal_keeps_the_auto_and_the_prefeito_reforming_it_annuls_it(
    engine: Engine, registry: Registry,
) -> None:
    first = auto(registry, FIRST)
    denied = decide(registry, first, computed={
        "resultado": "nao_provido", "conhecido": True,
        "resultado_rotulo": "Recurso conhecido e não provido"})
    assert registry.annulled_acts([first.id]) == {}
    reformed = decide(registry, denied, series="DEC-GP", form="decisao-recurso-prefeito",
                      hypothesis="fretamento#art24", on=date(2026, 4, 2))
    assert registry.annulled_acts([first.id]) == {first.id: (reformed.printed,
                                                             date(2026, 4, 2))}
    assert doubled(engine, registry) == [False, False]
    # A granted DEC-SETRANSV reformed by the Prefeito: the auto stands again.
    second = auto(registry, date(2026, 5, 4))
    granted = decide(registry, second, on=date(2026, 5, 20))
    assert second.id in registry.annulled_acts([second.id])
    decide(registry, granted, series="DEC-GP", form="decisao-recurso-prefeito",
           hypothesis="fretamento#art24", on=date(2026, 6, 1))
    assert registry.annulled_acts([second.id]) == {}
    assert registry.rebuild_state(apply=False).same


@SQLITE
def test_the_cassacao_and_the_guia_citing_an_annulled_auto_are_refused(
    engine: Engine, registry: Registry, registry_url: str,
) -> None:
    first = auto(registry, FIRST)
    decision = decide(registry, first)
    history = RegistryHistory(registry)

    cassacao = example(CAS)
    unpaid = cassacao["hipoteses"]["multas_nao_recolhidas"]["autos"]
    unpaid[:] = [{**unpaid[0], "numero": first.printed,
                  "data_infracao": FIRST.isoformat()}]
    report = engine.prepare(CAS, cassacao, issued_on=date(2026, 6, 1), history=history,
                            example_values=True).report
    [item] = [i for i in report.pending
              if i.field == "/hipoteses/multas_nao_recolhidas/autos/0/numero"]
    assert item.status is Status.INVALID
    assert item.message == (
        f"O Auto de Infração {first.printed} foi anulado em recurso ({decision.printed}, de "
        "20/03/2026): não subsiste, e a cassação não pode apoiar-se nele: não há multa a "
        "recolher (art. 22, II).")
    assert item.basis == ("fretamento#art22_inc2",)
    # The defence notice before the cassação may not state its fine as a fact either.
    notice = example("notificacao-defesa-cassacao")
    notice["data"] = "2026-05-04"
    notice["acusacao"]["fatos"] = (f"As multas do Auto de Infração {first.printed} não "
                                   "foram recolhidas.")
    report = engine.prepare("notificacao-defesa-cassacao", notice,
                            issued_on=date(2026, 5, 4), history=history).report
    [item] = [i for i in report.pending if i.field == "/acusacao/fatos"]
    assert item.status is Status.INVALID
    assert item.message == (
        f"O Auto de Infração {first.printed} foi anulado em recurso ({decision.printed}, de "
        "20/03/2026): não subsiste, e a notificação não pode apoiar-se nele.")
    assert item.basis == ("fretamento#art22_inc2",)

    guia = {"guia": {"data_emissao": "2026-04-01"}, "auto": {"numero": first.printed},
            "pagador": {"cnpj": "65.563.842/0001-05"}}
    report = engine.prepare(GUIA, guia, issued_on=date(2026, 4, 1), history=history,
                            example_values=True).report
    [item] = [i for i in report.pending if i.field == "/auto/numero"]
    assert item.status is Status.INVALID and "anulado em recurso" in item.message
    assert "art. 26" in item.message

    # An appeal granted only in part keeps the auto (it counts), but its guia is refused:
    # the fine to collect is the one the decision fixed.
    second = auto(registry, SECOND)
    partial = decide(registry, second, on=date(2026, 4, 20), computed={
        "resultado": "parcialmente_provido", "conhecido": True,
        "resultado_rotulo": "Recurso conhecido e parcialmente provido"})
    assert registry.annulled_acts([second.id]) == {}
    guia["auto"]["numero"] = second.printed
    guia["guia"]["data_emissao"] = "2026-04-21"
    report = engine.prepare(GUIA, guia, issued_on=date(2026, 4, 21), history=history,
                            example_values=True).report
    [item] = [i for i in report.pending if i.field == "/auto/numero"]
    assert item.status is Status.INVALID
    assert f"foi parcialmente provido pelo {partial.printed}" in item.message

    # `cadastro mostrar` shows the auto annulled, and the decision that did it.
    shown = CliRunner().invoke(main, ["cadastro", "mostrar", first.formatted, "--serie",
                                      "AIF-FRET", "--registro", registry_url])
    assert shown.exit_code == 0, shown.output
    assert (f"{first.printed}: anulado em recurso ({decision.printed}, de 20/03/2026)."
            in shown.output)


def annulled(record: PriorRecord) -> PriorRecord:
    return PriorRecord(record.number, record.reference_date, record.data, form=record.form,
                       series=record.series, annulled_by="DEC-GP nº 0003/2026",
                       annulled_on=date(2026, 5, 20))


def test_an_annulled_auto_is_not_one_of_the_three_fines_of_the_revogacao(
    engine: Engine,
) -> None:
    history = fake_registry(alvara(), FINES[0], annulled(FINES[1]), FINES[2])
    report = engine.prepare(REV, rev_example(engine), issued_on=date(2026, 6, 22),
                            history=history).report
    found = pending(report)["/hipotese/autos/1/numero"]
    assert found.status is Status.INVALID
    assert found.message == (
        "O Auto de Infração AIE-ESC nº 0005/2026 foi anulado em recurso (DEC-GP nº "
        "0003/2026, de 20/05/2026): não subsiste, e a revogação não pode nele se fundar.")
    assert "transporte-escolar#art23_inc3" in found.basis
    # ...nor is a penalty notified for it (art. 26).
    notice = example("notificacao-penalidade")
    notice["auto"].update(numero="AIE-ESC nº 0005/2026", data_infracao="2026-03-10")
    notice["notificacao"]["data"] = "2026-06-01"
    report = engine.prepare("notificacao-penalidade", notice, issued_on=date(2026, 6, 1),
                            history=history).report
    assert any(i.field == "/auto/numero" and i.status is Status.INVALID
               and "anulado em recurso" in i.message for i in report.pending)


def test_an_escolar_auto_may_not_count_an_annulled_auto_among_the_earlier_infractions(
    engine: Engine,
) -> None:
    history = fake_registry(alvara(), annulled(FINES[1]))
    data = example("auto-infracao-escolar")
    data["ocorrencia"]["data"] = "2026-06-01"
    data["infracoes_anteriores"] = [{"data": "2026-03-10", "auto": "AIE-ESC nº 0005/2026",
                                     "dispositivo": "transporte-escolar#art24_inc1"}]
    report = engine.prepare("auto-infracao-escolar", data, issued_on=date(2026, 6, 1),
                            history=history, example_values=True).report
    [item] = [i for i in report.pending if i.field == "/infracoes_anteriores/0/auto"]
    assert item.status is Status.INVALID
    assert item.message.endswith("não subsiste, e não conta para a reincidência.")
    assert item.basis == ("transporte-escolar#art23_par1u",)


def file_appeal(registry: Registry, appealed: IssuedRecord, on: date) -> str:
    """A recurso-fretamento against ``appealed`` protocolado on ``on`` (arts. 23, 24)."""
    moment = datetime(on.year, on.month, on.day, 10, tzinfo=LOCAL_TZ)

    def built(number: int, printed: str, at: datetime) -> Built:
        return Built(pdf=b"%PDF-1.4 " + printed.encode(), data={"protocolo": printed},
                     computed={}, reference_date=on, verification_code=f"REC-{number:04d}",
                     signer_subject="Selo", signer_serial="1", pack_version="t",
                     issued_at=at, cpf_cnpj="65563842000105")
    entry = FilingInput(series="PROT", form="recurso-fretamento", data={
        "instancia": "secretario", "ato_recorrido": {"numero": appealed.printed}},
        cpf_cnpj="65563842000105", name="Viação Exemplo", attachments=())
    return Filings(registry).file(entry, built, receipt_form="comprovante-protocolo",
                                  now=moment).protocol


@SQLITE
def test_a_fine_under_an_appeal_not_yet_decided_does_not_ground_the_cassacao(
    engine: Engine, registry: Registry,
) -> None:
    first = auto(registry, FIRST)
    protocol = file_appeal(registry, first, date(2026, 3, 10))
    history = RegistryHistory(registry)

    def refused(on: date) -> list[str]:
        data = example(CAS)
        unpaid = data["hipoteses"]["multas_nao_recolhidas"]["autos"]
        unpaid[:] = [{**unpaid[0], "numero": first.printed, "data_infracao": FIRST.isoformat()}]
        data["decisao"]["data"] = on.isoformat()
        report = engine.prepare(CAS, data, issued_on=on, history=history,
                                example_values=True).report
        return [i.message for i in report.pending
                if i.field == "/hipoteses/multas_nao_recolhidas/autos/0/numero"]

    # Appealed (art. 23) and undecided: not a fine left unpaid "sem interposição de recurso".
    [message] = refused(date(2026, 4, 6))
    assert message == (
        f"Consta do registro o recurso {protocol} contra o {first.printed}, ainda não "
        "decidido na data da decisão (06/04/2026): a multa do Auto de Infração "
        f"{first.printed} está em recurso e não é hipótese de cassação (art. 22, II: multas "
        'não recolhidas "sem interposição de recurso").')
    # The Secretário keeps the auto: the fine is not final while the Prefeito may still be
    # appealed to (art. 24), which with no ciência of the decision on record cannot be said
    # closed (the window itself: tests/test_cassacao_recursos.py).
    kept = decide(registry, first, computed={
        "resultado": "nao_provido", "conhecido": True,
        "resultado_rotulo": "Recurso conhecido e não provido"}, on=date(2026, 4, 10))
    assert refused(date(2026, 4, 6)) != []  # a decision after the cassação's date: pending
    [waiting] = refused(date(2026, 5, 4))
    assert f"foi mantido pela decisão {kept.printed}, de 10/04/2026" in waiting
    assert "não consta do registro a ciência dessa decisão" in waiting
    second = file_appeal(registry, kept, date(2026, 4, 20))
    [message] = refused(date(2026, 5, 4))
    assert f"o recurso {second} contra o {kept.printed}" in message
