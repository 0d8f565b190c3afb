"""The decision on an appeal and the licensing state (issue 22, item 2): a granted
appeal against a cassação gives the alvará back and lifts the bar (kept in the
history); a denied one changes nothing but is in the timeline; a decision citing an
act the registry lacks, or one no appeal lies against, cannot be issued; cancelling the
decision puts the cassação back, or is refused while a later act rests on it. And the
semiannual revalidation of the school alvará, shown by ``cadastro mostrar`` and
``verify``. Every date is passed explicitly."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from identities import set_vehicle
from issuers import dev_issuer, state_registry
from sqlalchemy import update
from test_cadastro_import import load
from test_licensing_state import act, alvara_fretamento, cassacao, example

from lavra.checking.content import Content
from lavra.checking.report import Item, Status
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import RegistryHistory
from lavra.registry import reversal
from lavra.registry.database import database_url
from lavra.registry.guards import place_refusal
from lavra.registry.records import LOCAL_TZ, IssuedRecord
from lavra.registry.store import Registry
from lavra.registry.tables import DocumentRow
from lavra_americana import pacote

CNPJ = "65.563.842/0001-05"
DECIDED = date(2026, 5, 4)


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    yield from state_registry(registry_url)


SQLITE_ONLY = pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
"""The state is read the same way on both databases: the first three tests (granted,
denied, a place another took) run on PostgreSQL too; the rest on SQLite only, to keep
CI's time."""


def appeal(appealed: str, result: str | None, *, on: date = DECIDED) -> dict[str, Any]:
    """The Prefeito's decision on the appeal of fretamento art. 24 against ``appealed``."""
    data = example("decisao-recurso-prefeito")
    data["recurso"].update(hipotese="fretamento#art24", data_protocolo="2026-04-27")
    data["recorrente"] = {"nome": "Viação Exemplo de Fretamento Ltda.", "cnpj": CNPJ}
    data["ato_recorrido"] = {"especie": "decisao", "numero": appealed, "data": "2026-04-20",
                             "data_ciencia": "2026-04-20"}
    data["decisao"]["data"] = on.isoformat()
    if result is None:
        data["decisao"].pop("resultado", None)
    else:
        data["decisao"]["resultado"] = result
    return data


LABELS = {"provido": "Recurso conhecido e provido",
          "nao_provido": "Recurso conhecido e não provido"}


def decide(registry: Registry, appealed: IssuedRecord, result: str) -> IssuedRecord:
    return act(registry, "DEC-GP", "decisao-recurso-prefeito", appeal(appealed.printed, result),
               on=DECIDED, computed={"resultado": result, "conhecido": True,
                                     "resultado_rotulo": LABELS[result]})


def cancel_later_first(registry: Registry, earlier: IssuedRecord,
                       later: IssuedRecord) -> None:
    """``earlier`` cannot be cancelled while ``later`` rests on it (the refusal names
    it); ``later`` can."""
    with pytest.raises(InputError) as refused:
        registry.cancel(earlier.series, earlier.year, earlier.number, reason="erro",
                        by="Chefia")
    assert later.printed in refused.value.message
    registry.cancel(later.series, later.year, later.number, reason="erro material",
                    by="Chefia")


def timeline(registry: Registry, **who: str) -> list[str]:
    return [f"{printed}: {detail}" for _, printed, detail in registry.state_changes(**who)]


def test_a_granted_appeal_gives_the_alvara_back_and_lifts_the_bar_and_its_cancel_undoes_it(
    registry: Registry,
) -> None:
    alvara = alvara_fretamento(registry)
    cas = cassacao(registry, alvara, on=date(2026, 4, 20))
    decision = decide(registry, cas, "provido")

    view = registry.licence_of(alvara.id)
    assert view is not None and view.describe(date(2026, 5, 5)) == "em vigor"
    assert [r.id for r in registry.licences_in_force("alvara-fretamento", date(2026, 5, 5))] \
        == [alvara.id]
    # The bar ends the day before the decision, and stays in the history.
    assert registry.bars_of(CNPJ, DECIDED) == ()
    assert registry.bars_of(CNPJ, date(2026, 5, 3)) == (
        ("alvara-fretamento", date(2026, 5, 3), cas.printed),)
    lines = timeline(registry, holder=CNPJ)
    assert (f"{decision.printed}: {alvara.printed} restabelecido pelo {decision.printed}, "
            "em 04/05/2026.") in lines
    assert (f"{decision.printed}: Impedimento imposto pelo {cas.printed} levantado pelo "
            f"{decision.printed}, em 04/05/2026.") in lines
    assert any(f"{cas.printed}: Impedimento até 20/04/2027" in line for line in lines)
    assert registry.rebuild_state(apply=False).same

    # The company may have another alvará: the bar no longer stands.
    other = example("alvara-fretamento")
    set_vehicle(other["veiculo"], "QRS4E56")
    new = act(registry, "ALV-FRET", "alvara-fretamento", other, on=date(2026, 5, 6),
              computed={"inicio_vigencia": "2026-05-06", "valido_ate": "2031-05-05"})
    # ...which rests on the lifting: the decision cannot be cancelled while it stands.
    with pytest.raises(InputError) as refused:
        registry.cancel(decision.series, decision.year, decision.number, reason="erro",
                        by="Chefia")
    assert new.printed in refused.value.message
    registry.cancel(new.series, new.year, new.number, reason="erro", by="Chefia")
    registry.cancel(decision.series, decision.year, decision.number, reason="erro material",
                    by="Chefia")
    view = registry.licence_of(alvara.id)
    assert view is not None
    assert view.describe(date(2026, 5, 5)) == f"cassado em 20/04/2026 pelo {cas.printed}"
    assert registry.bars_of(CNPJ, date(2026, 5, 5)) == (
        ("alvara-fretamento", date(2027, 4, 20), cas.printed),)
    # The history is act by act: the decision stays, cancelled, its changes undone.
    said = [line for line in timeline(registry, holder=CNPJ) if decision.printed in line]
    assert len(said) == 1 and said[0].startswith(f"{decision.printed}: Ato cancelado em "), said
    assert said[0].endswith("(motivo: erro material); desfeito o que alterou no cadastro "
                            f"({cas.printed}).") and "restabelecido" not in said[0], said
    assert registry.rebuild_state(apply=False).same


def test_a_denied_appeal_changes_nothing_but_is_in_the_timeline(registry: Registry) -> None:
    alvara = alvara_fretamento(registry)
    cas = cassacao(registry, alvara, on=date(2026, 4, 20))
    decision = decide(registry, cas, "nao_provido")
    view = registry.licence_of(alvara.id)
    assert view is not None
    assert view.describe(date(2026, 5, 5)) == f"cassado em 20/04/2026 pelo {cas.printed}"
    assert registry.bars_of(CNPJ, date(2026, 5, 5))[0][1] == date(2027, 4, 20)
    said = (f"{decision.printed}: Recurso contra o {cas.printed} decidido pelo "
            f"{decision.printed}: recurso conhecido e não provido.")
    assert said in timeline(registry, placa="ABC1D23")
    assert said in timeline(registry, holder=CNPJ)
    # The cassação now has a decision resting on it.
    with pytest.raises(InputError) as refused:
        registry.cancel(cas.series, cas.year, cas.number, reason="erro", by="Chefia")
    assert decision.printed in refused.value.message
    assert registry.rebuild_state(apply=False).same


def test_a_licence_whose_place_another_took_is_not_restored(
    registry: Registry, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reversal and cancellation (issue 22): the check, and the unique index when a race
    hides the other act from it, refuse in one set of words naming the act in force."""
    alvara = alvara_fretamento(registry)
    cas = cassacao(registry, alvara, on=date(2026, 4, 20))
    other = example("alvara-fretamento")
    other["empresa"].update(cnpj="11.222.333/0001-81", razao_social="Outra Viação Ltda.")
    taken = act(registry, "ALV-FRET", "alvara-fretamento", other, on=date(2026, 4, 27),
                computed={"inicio_vigencia": "2026-04-27", "valido_ate": "2031-04-26"})
    with pytest.raises(InputError) as refused:
        decide(registry, cas, "provido")
    assert (f"O veículo ABC1D23 já tem licença em vigor: {taken.printed}, válida até "
            f"26/04/2031. O {alvara.printed} não pode ser restabelecido pelo DEC-GP nº "
            "0001/2026 enquanto ela vigorar (art. 8º da Lei nº 4.419/2006)") \
        in refused.value.message
    # The check having read the state before the other act committed (a race, simulated):
    # uq_licences_vehicle_in_force refuses the write, read again into the same words.
    reads: list[object] = []

    def racing(*args: Any) -> object:
        reads.append(args)
        return None if len(reads) == 1 else place_refusal(*args)

    monkeypatch.setattr(reversal, "place_refusal", racing)
    with pytest.raises(InputError) as indexed:
        decide(registry, cas, "provido")
    assert len(reads) == 2 and indexed.value.message == refused.value.message
    monkeypatch.undo()
    # Cancelling the cassação would give the alvará back: refused the same way.
    with pytest.raises(InputError) as cancelled:
        registry.cancel(cas.series, cas.year, cas.number, reason="erro", by="Chefia")
    assert (f"licença em vigor: {taken.printed}, válida até 26/04/2031. O {alvara.printed} "
            f"não pode ser restabelecido pelo cancelamento do {cas.printed} enquanto ela "
            "vigorar (art. 8º da Lei nº 4.419/2006)") \
        in cancelled.value.message
    assert "mesmo instante" not in cancelled.value.message
    assert registry.by_number("0001/2026", series="DEC-GP") is None  # nothing recorded
    assert registry.licence_of(alvara.id).status == "cassated"
    assert registry.rebuild_state(apply=False).same


def appealed_items(engine: Engine, registry: Registry, data: dict[str, Any]) -> list[Item]:
    prepared = engine.prepare("decisao-recurso-prefeito", data, DECIDED,
                              history=RegistryHistory(registry))
    return [i for i in prepared.report.items
            if i.field == "/ato_recorrido/numero" and i.status != Status.MET]


@SQLITE_ONLY
def test_the_decision_must_cite_an_appealable_act_of_the_registry(
    engine: Engine, registry: Registry,
) -> None:
    alvara = alvara_fretamento(registry)
    cas = cassacao(registry, alvara, on=date(2026, 4, 20))
    assert appealed_items(engine, registry, appeal(cas.printed, "provido")) == []

    [absent] = appealed_items(engine, registry, appeal("CAS-FRET nº 0099/2026", "provido"))
    assert absent.status == Status.INVALID
    assert "CAS-FRET nº 0099/2026 não consta do registro" in absent.message
    assert "art. 24 da Lei nº 4.419/2006" in absent.message
    assert "fretamento#art24" in absent.basis

    [not_adverse] = appealed_items(engine, registry, appeal(alvara.printed, "provido"))
    assert not_adverse.status == Status.INVALID
    assert f"{alvara.printed} (" in not_adverse.message
    assert "não é ato de que caiba este recurso" in not_adverse.message

    # An act on paper, outside lavra's series, is judged on the typed data.
    assert appealed_items(engine, registry, appeal("Decisão SETRANSV 12/2025", "provido")) == []

    # The deadline of art. 24 runs from the cassação's ciência as recorded on its entry
    # (signed on 20/04/2026: the helper records it at the machine's time).
    with registry.engine.begin() as connection:
        connection.execute(update(DocumentRow).where(DocumentRow.id == cas.id).values(
            issued_at=datetime(2026, 4, 20, 15, tzinfo=LOCAL_TZ).astimezone(UTC)))
    registry.record_fact(cas.id, "ciencia", on="2026-04-22", by="Maria (maria)", means="ar",
                         now=datetime(2026, 4, 23, 10, tzinfo=LOCAL_TZ))
    [differs] = [i for i in engine.prepare(
        "decisao-recurso-prefeito", appeal(cas.printed, "provido"), DECIDED,
        history=RegistryHistory(registry)).report.items
        if i.field == "/ato_recorrido/data_ciencia" and i.status == Status.INVALID]
    assert "ciência registrada no registro do ato" in differs.message
    assert cas.printed in differs.message

    registry.cancel(cas.series, cas.year, cas.number, reason="erro material", by="Chefia")
    [cancelled] = appealed_items(engine, registry, appeal(cas.printed, "provido"))
    assert "foi cancelado no registro: erro material" in cancelled.message


@pytest.mark.parametrize("origin", ["novo", "importado"])
def test_the_revalidation_shows_in_cadastro_and_verify(
    pack_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, origin: str,
) -> None:
    """Escolar art. 13, § 6º: the termo de revalidação semestral shows in ``cadastro
    mostrar`` and in ``lavra verify`` of the alvará: signed by lavra (the PDF) or imported
    from before lavra (by its number: it has no original)."""
    monkeypatch.chdir(tmp_path)
    for name in ("LAVRA_DATABASE_URL", "LAVRA_DATA", "LAVRA_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    issuer = dev_issuer(Engine(Content(pack_dir)), tmp_path / "lavra-dados")
    try:
        issuer.registry.use_effects(pacote().effects)
        if origin == "importado":
            load(issuer.registry)
            printed, placa, pdf_bytes = "ALV-ESC nº 0018/2023", "ESC4D44", None
        else:
            data = example("alvara-transporte-escolar")
            alvara = issuer.issue("alvara-transporte-escolar", data, date(2026, 11, 3))
            printed, placa, pdf_bytes = alvara.record.printed, data["veiculo"]["placa"], alvara.pdf
        termo = example("termo-revalidacao-semestral")
        termo["alvara"]["numero"] = printed
        termo["veiculo"]["placa"] = placa
        revalidation = act(issuer.registry, "TRV-ESC", "termo-revalidacao-semestral", termo,
                           on=date(2026, 11, 16))
    finally:
        issuer.close()
    runner = CliRunner()
    if pdf_bytes is None:
        number, series = printed.split()[-1], printed.split()[0]
        checked = runner.invoke(main, ["verify", "--numero", number, "--serie", series,
                                       "--on", "2026-12-01"])
    else:
        pdf = tmp_path / "alvara.pdf"
        pdf.write_bytes(pdf_bytes)
        checked = runner.invoke(main, ["verify", str(pdf), "--on", "2026-12-01"])
    assert checked.exit_code == 0, checked.output
    if pdf_bytes is None:  # said as what it is: no signature, a row of the import
        assert ("ALV-ESC nº 0018/2023, de 10/03/2023, ato anterior ao lavra, importado de "
                "cadastro-importacao.csv, linha 5: consta do registro, não cancelado."
                ) in checked.output
    assert "Situação da licença: em vigor (revalidado em 16/11/2026)." in checked.output
    url = database_url(tmp_path / "lavra-dados")
    shown = runner.invoke(main, ["cadastro", "mostrar", placa,
                                 "--registro", url, "--on", "2026-12-01"])
    assert shown.exit_code == 0, shown.output
    assert (f"{printed} revalidado pelo {revalidation.printed}, em 16/11/2026."
            in shown.output)
    assert "em vigor (revalidado em 16/11/2026)" in shown.output


def secretary(registry: Registry, appealed: IssuedRecord, result: str, *,
              on: date) -> IssuedRecord:
    """The Secretário's decision on the appeal of fretamento art. 23 against ``appealed``."""
    data = example("decisao-recurso-secretario")
    data["ato_recorrido"].update(numero=appealed.printed)
    data["decisao"].update(data=on.isoformat(), resultado=result)
    return act(registry, "DEC-SETRANSV", "decisao-recurso-secretario", data, on=on,
               computed={"resultado": result, "conhecido": True,
                         "resultado_rotulo": LABELS[result]})


@SQLITE_ONLY
def test_the_prefeito_reforming_a_restoring_decision_recalls_the_alvara_again(
    registry: Registry,
) -> None:
    alvara = alvara_fretamento(registry)
    receipt = example("recibo-recolhimento-alvara")
    receipt["alvara"]["numero"] = alvara.printed
    recalled = act(registry, "REC-ALV-FRET", "recibo-recolhimento-alvara", receipt,
                   on=date(2026, 4, 6))
    granted = secretary(registry, recalled, "provido", on=date(2026, 4, 20))
    view = registry.licence_of(alvara.id)
    assert view is not None and view.describe(date(2026, 4, 21)) == "em vigor"

    reform = decide(registry, granted, "provido")  # art. 24: the Secretário reformed
    view = registry.licence_of(alvara.id)
    assert view is not None
    assert view.describe(date(2026, 5, 5)) == \
        f"recolhido em 06/04/2026 pelo {recalled.printed}"
    assert registry.licences_in_force("alvara-fretamento", date(2026, 5, 5)) == ()
    said = (f"{reform.printed}: {alvara.printed} volta a recolhido pelo {reform.printed}, "
            f"que reformou o {granted.printed}, em 04/05/2026.")
    assert said in timeline(registry, placa="ABC1D23")
    assert registry.rebuild_state(apply=False).same
    # The Secretário's decision now has the reform resting on it.
    cancel_later_first(registry, granted, reform)
    view = registry.licence_of(alvara.id)
    assert view is not None and view.describe(date(2026, 5, 5)) == "em vigor"
    assert not any(reform.printed in line for line in timeline(registry, placa="ABC1D23"))
    assert registry.rebuild_state(apply=False).same


@SQLITE_ONLY
def test_reversing_a_lifting_decision_puts_the_bar_back_and_its_cancel_lifts_it_again(
    registry: Registry,
) -> None:
    """The engine's generic path: whatever act reversed a cassação, reversing that act
    gives the alvará its cassação and the company its bar back."""
    alvara = alvara_fretamento(registry)
    cas = cassacao(registry, alvara, on=date(2026, 4, 20))
    lifting = secretary(registry, cas, "provido", on=date(2026, 4, 27))
    assert registry.bars_of(CNPJ, date(2026, 4, 28)) == ()
    reform = decide(registry, lifting, "provido")
    view = registry.licence_of(alvara.id)
    assert view is not None
    assert view.describe(date(2026, 5, 5)) == f"cassado em 20/04/2026 pelo {cas.printed}"
    assert registry.bars_of(CNPJ, date(2026, 5, 5)) == (
        ("alvara-fretamento", date(2027, 4, 20), cas.printed),)
    assert (f"{reform.printed}: Impedimento levantado pelo {lifting.printed} restabelecido "
            f"pelo {reform.printed}, em 04/05/2026, até 20/04/2027."
            in timeline(registry, holder=CNPJ))
    assert registry.rebuild_state(apply=False).same

    registry.cancel(reform.series, reform.year, reform.number, reason="erro material",
                    by="Chefia")
    assert registry.bars_of(CNPJ, date(2026, 5, 5)) == ()
    view = registry.licence_of(alvara.id)
    assert view is not None and view.describe(date(2026, 5, 5)) == "em vigor"
    assert registry.rebuild_state(apply=False).same


@SQLITE_ONLY
def test_the_prefeito_granting_the_appeal_against_a_denial_gives_the_alvara_back(
    registry: Registry,
) -> None:
    """fretamento art. 24 over art. 23: the Secretário denied the appeal against the
    recolhimento; the Prefeito grants the appeal against that decision, which undoes the
    recolhimento as a granted DEC-SETRANSV would; cancelling the DEC-GP recalls it again."""
    alvara = alvara_fretamento(registry)
    receipt = example("recibo-recolhimento-alvara")
    receipt["alvara"]["numero"] = alvara.printed
    recalled = act(registry, "REC-ALV-FRET", "recibo-recolhimento-alvara", receipt,
                   on=date(2026, 4, 6))
    denied = secretary(registry, recalled, "nao_provido", on=date(2026, 4, 20))
    view = registry.licence_of(alvara.id)
    assert view is not None and view.describe(date(2026, 4, 21)) == \
        f"recolhido em 06/04/2026 pelo {recalled.printed}"
    kept = decide(registry, denied, "nao_provido")  # the Prefeito denies too: nothing
    view = registry.licence_of(alvara.id)
    assert view is not None and view.status == "recalled"
    registry.cancel(kept.series, kept.year, kept.number, reason="erro", by="Chefia")

    reform = decide(registry, denied, "provido")
    view = registry.licence_of(alvara.id)
    assert view is not None and view.describe(date(2026, 5, 5)) == "em vigor"
    assert [r.id for r in registry.licences_in_force("alvara-fretamento", date(2026, 5, 5))] \
        == [alvara.id]
    said = (f"{reform.printed}: {alvara.printed} restabelecido pelo {reform.printed}, que "
            f"reformou o {denied.printed}, em 04/05/2026.")
    assert said in timeline(registry, placa="ABC1D23")
    assert registry.rebuild_state(apply=False).same
    # The denial has the reform resting on it; the reform can be cancelled.
    cancel_later_first(registry, denied, reform)
    view = registry.licence_of(alvara.id)
    assert view is not None and view.describe(date(2026, 5, 5)) == \
        f"recolhido em 06/04/2026 pelo {recalled.printed}"
    assert registry.rebuild_state(apply=False).same
