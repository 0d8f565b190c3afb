"""Issue 22, item 2: an act rests on the acts of the registry it cites that are not
licences (a cassação on its autos and notice of defence, a decision on appeal on the act
appealed, a guia de multa on its auto). Cancelling a cited act is refused while the act
citing it stands, naming it, and nothing is written; cancelling the citing act first
frees it. Acts are recorded straight into the registry (no signing), every date passed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, insert
from sqlalchemy.orm import Session
from test_auto_anulado import GUIA, SQLITE, auto, decide
from test_licensing_state import act, alvara_fretamento, example

from lavra.errors import InputError, LavraError
from lavra.law.model import load_laws, resolve
from lavra.registry import state
from lavra.registry.citations import RULE
from lavra.registry.effects import Act, Cites, Effect
from lavra.registry.guards import DIVERGENCE, printed_basis
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry
from lavra.registry.tables import LicenceRow, StateChangeRow
from lavra_americana import pacote

AUTO_ON = date(2026, 3, 2)
NOTICE_ON = date(2026, 3, 10)
CASSATED_ON = date(2026, 4, 20)
REPO = Path(__file__).resolve().parents[1]


def cassacao(registry: Registry, alvara: IssuedRecord, autos: list[IssuedRecord],
             notice: IssuedRecord | None = None) -> IssuedRecord:
    data = example("decisao-cassacao-fretamento")
    data["alvaras"] = [{"numero": alvara.printed, "placa": "ABC1D23"}]
    data["hipoteses"]["multas_nao_recolhidas"]["autos"] = [
        {"numero": a.printed, "data_infracao": a.reference_date.isoformat(),
         "valor": "140.00"} for a in autos]
    if notice is not None:
        data["defesa"]["notificacao"]["numero"] = notice.printed
    return act(registry, "CAS-FRET", "decisao-cassacao-fretamento", data, on=CASSATED_ON,
               computed={"impedimento": {"ultimo_dia": "2027-04-20"}})


def notice(registry: Registry) -> IssuedRecord:
    return act(registry, "NOT-DEF-FRET", "notificacao-defesa-cassacao",
               example("notificacao-defesa-cassacao"), on=NOTICE_ON)


def cancel(registry: Registry, record: IssuedRecord) -> None:
    registry.cancel(record.series, record.year, record.number, reason="erro material",
                    by="Chefia")


def refused(registry: Registry, record: IssuedRecord, citing: IssuedRecord) -> None:
    """Cancelling ``record`` is refused naming ``citing``; nothing is written."""
    with pytest.raises(InputError) as error:
        cancel(registry, record)
    assert_kept(registry, record, citing, error.value)


def assert_kept(registry: Registry, record: IssuedRecord, citing: IssuedRecord,
                error: LavraError) -> None:
    """``error`` is the refusal to cancel ``record`` that names ``citing``, and
    ``record`` stands, the state as a rebuild makes it."""
    assert error.message == (
        f"O documento {record.printed} não pode ser cancelado: o {citing.printed}, que não "
        f"foi cancelado, o cita e se apoia nele. Cancele antes o {citing.printed} (ou "
        "decida de outro modo sobre ele).")
    found = registry.get(record.series, record.year, record.number)
    assert found is not None and found.status.value == "issued"
    assert registry.rebuild_state(apply=False).same


def test_the_autos_and_notice_a_cassacao_cites_wait_for_its_cancellation(
    registry: Registry,
) -> None:
    alvara = alvara_fretamento(registry)
    first, second = auto(registry, AUTO_ON), auto(registry, date(2026, 3, 5))
    defence = notice(registry)
    decision = cassacao(registry, alvara, [second, first], defence)
    for cited in (first, second, defence):
        refused(registry, cited, decision)
    details = [e.detail for e in registry.timeline(document_ids=[decision.id, first.id])]
    assert f"O {decision.printed} cita e se apoia em: {second.printed}, {first.printed} e " \
        f"{defence.printed}." in details
    assert f"Citado pelo {decision.printed}." in details
    view = registry.licence_of(alvara.id)
    assert view is not None and view.status == "cassated"
    registry.rebuild_state(apply=True)  # the rebuild replays the links
    refused(registry, first, decision)

    cancel(registry, decision)
    for cited in (first, second, defence):
        cancel(registry, cited)
    view = registry.licence_of(alvara.id)
    assert view is not None and view.status == "active"
    assert registry.rebuild_state(apply=False).same


@SQLITE
@pytest.mark.parametrize("result", ["provido", "nao_provido"])
def test_the_act_appealed_waits_for_the_decision_on_the_appeal(
    registry: Registry, result: str,
) -> None:
    first = auto(registry, AUTO_ON)
    decision = decide(registry, first, computed={
        "resultado": result, "conhecido": True, "resultado_rotulo": "Recurso decidido"})
    refused(registry, first, decision)
    cancel(registry, decision)
    cancel(registry, first)
    assert registry.rebuild_state(apply=False).same


@SQLITE
def test_the_guia_rests_on_its_auto(registry: Registry) -> None:
    first = auto(registry, AUTO_ON)
    data = example(GUIA)
    data["auto"]["numero"] = first.printed
    guia = act(registry, "GUIA-FRET", GUIA, data, on=date(2026, 3, 6))
    refused(registry, first, guia)
    cancel(registry, guia)
    cancel(registry, first)


@SQLITE
def test_an_act_citing_a_cancelled_auto_is_refused(registry: Registry) -> None:
    alvara = alvara_fretamento(registry)
    first = auto(registry, AUTO_ON)
    cancel(registry, first)
    with pytest.raises(InputError) as error:
        cassacao(registry, alvara, [first])
    assert error.value.message == (
        f"O {first.printed}, que o CAS-FRET nº 0001/2026 cita, foi cancelado: o "
        "CAS-FRET nº 0001/2026 não pode se apoiar nele.")
    view = registry.licence_of(alvara.id)
    assert view is not None and view.status == "active"


def on_a_cancelled_auto(registry: Registry, replayed: Callable[[Cites], Effect] | None = None,
                        ) -> tuple[IssuedRecord, IssuedRecord, list[str]]:
    """A cassação issued, by an older pack that declared no citation, on an auto already
    cancelled, then rebuilt with the pack's Cites (or each changed by ``replayed``):
    the auto, the cassação and the rebuild's divergências."""
    effects = dict(pacote().effects)
    current = effects["decisao-cassacao-fretamento"]

    def uncited(act: Act) -> Sequence[Effect]:
        return [e for e in current(act) if not isinstance(e, Cites)]

    def rebuilt(act: Act) -> Sequence[Effect]:
        return [replayed(e) if isinstance(e, Cites) and replayed else e for e in current(act)]

    registry.use_effects({**effects, "decisao-cassacao-fretamento": uncited})
    alvara = alvara_fretamento(registry)
    first = auto(registry, AUTO_ON)
    cancel(registry, first)
    decision = cassacao(registry, alvara, [first])
    registry.use_effects({**effects, "decisao-cassacao-fretamento": rebuilt})
    try:
        return first, decision, list(registry.rebuild_state(apply=True).divergences)
    finally:
        registry.use_effects(pacote().effects)


@SQLITE
def test_a_replayed_act_citing_a_cancelled_auto_names_the_article(
    registry: Registry,
) -> None:
    """Kept on rebuild as a divergência whose public wording prints the article, not
    its id."""
    first, decision, [line] = on_a_cancelled_auto(registry)
    assert first.printed in line and "foi cancelado" in line
    [public] = registry.public_divergences(decision.id)
    assert "art. 22 da Lei nº 4.419/2006" in public and "#" not in public


@SQLITE
def test_a_divergencia_stored_with_the_raw_citation_id_prints_the_article(
    registry: Registry,
) -> None:
    """One recorded before Cites.basis existed kept «fretamento#art22» as its basis: the
    public wording prints the article from the law model when shown (no migration), and
    leaves it out, never raw, when the laws cannot print it."""
    laws = load_laws(REPO)

    def cite(citation: str) -> str:
        return resolve(laws, citation).short

    _, decision, [_] = on_a_cancelled_auto(
        registry, lambda e: dataclasses.replace(e, basis=e.citation))
    assert registry.public_divergences(decision.id, cite) == (
        RAW_STATED,)
    assert registry.public_divergences(decision.id) == (
        RAW_STATED.replace(" (art. 22 da Lei nº 4.419/2006)", ""),)
    assert printed_basis("fretamento#art99", cite) == ""
    assert printed_basis("art. 14 da Lei nº 4.515/2007", None) == (
        "art. 14 da Lei nº 4.515/2007")


RAW_STATED = ("Este ato foi registrado em desacordo com a regra de que o ato não se apoia "
              "em ato cancelado (art. 22 da Lei nº 4.419/2006); consta como divergência no "
              "cadastro.")
"""The public wording of :func:`raw_divergence`'s divergência."""


@contextmanager
def raw_divergence(registry: Registry, document_id: int) -> Iterator[None]:
    """A divergência of the act ``document_id`` as recorded before Cites.basis existed
    (its basis the raw citation id), removed afterwards."""
    kept = {"regra": RULE, "fundamento": "fretamento#art22"}
    with registry.engine.begin() as connection:
        connection.execute(insert(StateChangeRow).values(
            document_id=document_id, kind=DIVERGENCE, on=AUTO_ON, detail="Divergência.",
            before=kept))
    try:
        yield
    finally:
        with registry.engine.begin() as connection:
            connection.execute(delete(StateChangeRow).where(
                StateChangeRow.document_id == document_id,
                StateChangeRow.kind == DIVERGENCE))


@SQLITE
def test_the_licences_a_cassacao_ends_are_locked_by_ascending_id(
    registry: Registry, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two acts naming the same licences in opposite order lock them in one order (on
    PostgreSQL they would otherwise wait on each other); SQLite calls the same lock."""
    first = alvara_fretamento(registry)
    data = example("alvara-fretamento")
    data["veiculo"].update(placa="DEF2G34", renavam="")
    on, until = date(2026, 3, 3), date(2031, 3, 2)
    second = act(registry, "ALV-FRET", "alvara-fretamento", data, on=on,
                 computed={"inicio_vigencia": on.isoformat(), "valido_ate": until.isoformat()})
    seen: list[str] = []
    original = state.locked

    def spying(session: Session, row: Any) -> Any:
        if isinstance(row, LicenceRow):
            seen.append(row.printed)
        return original(session, row)

    monkeypatch.setattr(state, "locked", spying)
    decision = example("decisao-cassacao-fretamento")
    decision["alvaras"] = [{"numero": second.printed, "placa": "DEF2G34"},
                           {"numero": first.printed, "placa": "ABC1D23"}]
    act(registry, "CAS-FRET", "decisao-cassacao-fretamento", decision, on=CASSATED_ON,
        computed={"impedimento": {"ultimo_dia": "2027-04-20"}})
    assert seen[:2] == [first.printed, second.printed]
    for alvara in (first, second):
        view = registry.licence_of(alvara.id)
        assert view is not None and view.status == "cassated"


@SQLITE
def test_the_impediment_rests_on_its_auto(registry: Registry) -> None:
    first = auto(registry, AUTO_ON)
    data = example("termo-impedimento-fretamento")
    data["auto"]["numero"] = first.printed
    term = act(registry, "TIM-FRET", "termo-impedimento-fretamento", data, on=AUTO_ON)
    refused(registry, first, term)
    cancel(registry, term)
    cancel(registry, first)


@SQLITE
def test_the_escolar_revogacao_rests_on_its_autos(registry: Registry) -> None:
    first = act(registry, "AIE-ESC", "auto-infracao-escolar", example("auto-infracao-escolar"),
                on=AUTO_ON)
    data = example("decisao-revogacao-alvara")
    data["hipotese"]["autos"] = [{"numero": first.printed}]
    revogacao = act(registry, "REV-ESC", "decisao-revogacao-alvara", data, on=CASSATED_ON)
    refused(registry, first, revogacao)
    cancel(registry, revogacao)
    cancel(registry, first)


def bare(record: IssuedRecord) -> str:
    """The number as staff may type it, without its series: ``0001/2026``."""
    return f"{record.number:04d}/{record.year}"


@SQLITE
def test_autos_and_notice_typed_without_their_series_are_linked_in_their_forms_series(
    registry: Registry,
) -> None:
    """The cassação's checks read ``0001/2026`` under the autos as an AIF-FRET and under
    the defence as a NOT-DEF-FRET: the act rests on those, as when typed with the series."""
    alvara = alvara_fretamento(registry)
    first, defence = auto(registry, AUTO_ON), notice(registry)
    data = example("decisao-cassacao-fretamento")
    data["alvaras"] = [{"numero": alvara.printed, "placa": "ABC1D23"}]
    data["hipoteses"]["multas_nao_recolhidas"]["autos"] = [
        {"numero": bare(first), "data_infracao": AUTO_ON.isoformat(), "valor": "140.00"}]
    data["defesa"]["notificacao"]["numero"] = f"nº {bare(defence)}"
    decision = act(registry, "CAS-FRET", "decisao-cassacao-fretamento", data,
                   on=CASSATED_ON, computed={"impedimento": {"ultimo_dia": "2027-04-20"}})
    refused(registry, first, decision)
    refused(registry, defence, decision)


@SQLITE
def test_the_escolar_revogacao_rests_on_its_notice_of_defence(registry: Registry) -> None:
    first = act(registry, "AIE-ESC", "auto-infracao-escolar", example("auto-infracao-escolar"),
                on=AUTO_ON)
    defence = act(registry, "NOT-DEF-ESC", "notificacao-defesa-revogacao",
                  example("notificacao-defesa-revogacao"), on=NOTICE_ON)
    data = example("decisao-revogacao-alvara")
    data["hipotese"]["autos"] = [{"numero": bare(first)}]
    data["defesa"]["notificacao"]["numero"] = bare(defence)
    revogacao = act(registry, "REV-ESC", "decisao-revogacao-alvara", data, on=CASSATED_ON)
    refused(registry, first, revogacao)
    refused(registry, defence, revogacao)
    cancel(registry, revogacao)
    cancel(registry, defence)


@SQLITE
def test_the_receipt_of_the_alvara_taken_is_cited_by_the_impediment_and_the_return(
    registry: Registry,
) -> None:
    """auto → recibo (REC-ALV-FRET, citing the auto) → termo de impedimento (citing the
    auto and the receipt, typed without its series) → devolução (citing the receipt):
    each is refused cancellation while the next stands; unwound in order, all go."""
    alvara = alvara_fretamento(registry)
    first = auto(registry, AUTO_ON)
    data = example("recibo-recolhimento-alvara")
    data["ato"]["numero"], data["alvara"]["numero"] = first.printed, alvara.printed
    receipt = act(registry, "REC-ALV-FRET", "recibo-recolhimento-alvara", data, on=AUTO_ON)
    data = example("termo-impedimento-fretamento")
    data["auto"]["numero"], data["retirada"]["recibo_alvara"] = first.printed, bare(receipt)
    term = act(registry, "TIM-FRET", "termo-impedimento-fretamento", data, on=AUTO_ON)
    data = example("termo-devolucao-alvara")
    data["recibo"]["numero"], data["alvara"]["numero"] = receipt.printed, alvara.printed
    back = act(registry, "DEV-ALV-FRET", "termo-devolucao-alvara", data,
               on=date(2026, 3, 3))
    refused(registry, first, receipt)
    refused(registry, receipt, term)
    cancel(registry, term)
    refused(registry, receipt, back)
    for record in (back, receipt, first):
        cancel(registry, record)
    assert registry.rebuild_state(apply=False).same


@SQLITE
def test_the_temporary_licence_rests_on_the_vistoria_and_the_drivers_termo_on_it(
    registry: Registry,
) -> None:
    on = date(2026, 3, 10)
    alvara = act(registry, "ALV-ESC", "alvara-transporte-escolar",
                 example("alvara-transporte-escolar"), on=on,
                 computed={"inicio_vigencia": on.isoformat(), "valido_ate": "2026-12-31"})
    data = example("termo-vistoria-veiculo-substituto")
    data["alvara"]["numero"] = alvara.printed
    vistoria = act(registry, "TVS-ESC", "termo-vistoria-veiculo-substituto", data, on=on)
    data = example("licenca-temporaria-escolar")
    data["alvara"]["numero"] = alvara.printed
    data["veiculo_substituto"]["vistoria"]["numero"] = vistoria.printed
    temporary = act(registry, "LTE-ESC", "licenca-temporaria-escolar", data, on=on,
                    computed={"inicio_vigencia": on.isoformat(), "valido_ate": "2026-03-25"})
    refused(registry, vistoria, temporary)
    data = example("termo-condutor-substituto")
    data["licenca_temporaria"]["numero"] = bare(temporary)
    term = act(registry, "TCS-ESC", "termo-condutor-substituto", data, on=on)
    refused(registry, temporary, term)
    for record in (term, temporary, vistoria):
        cancel(registry, record)
