"""An act imported from before lavra is of its own date, not of the day the import wrote
its entry (issue 22, § 4; as :mod:`lavra.registry.facts` reads it): the periods awaited
from its ciência are those in force on that date, and a name it gave a party before a
protocol stays its name, from its date, when the state is rebuilt. Over SQLite; every
date fixed (the import's entries are pinned to the day of the import)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import UTC, date, datetime

import pytest
from registrycases import builder
from sqlalchemy import select, update
from test_cadastro_import import SAMPLE, load
from test_cadastro_import_refusals import AFTER_IMPORT

from lavra.documents import Engine
from lavra.law.params import Parameters, Period
from lavra.law.statutory import load_statutory_context
from lavra.recording import FactRecorder
from lavra.registry.effects import Act, Effect, Grant, PartyRef
from lavra.registry.filings import FilingInput, Filings
from lavra.registry.records import LOCAL_TZ, Built
from lavra.registry.store import Registry
from lavra.registry.tables import DocumentRow, PartyNameRow, PartyRow
from lavra_americana import pacote

pytestmark = pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)

CHARTER_COMPANY = ("65563842000105", "Viação Exemplo de Fretamento Ltda.")
"""The company of the sample's ALV-FRET nº 0031/2024, of 10/02/2024."""


def pinned(registry: Registry) -> None:
    """The imported entries written on the day of the import, whatever today is."""
    with registry.write_session() as session:
        session.execute(update(DocumentRow).where(DocumentRow.origin.is_not(None))
                        .values(issued_at=AFTER_IMPORT))


def test_the_periods_awaited_from_an_imported_act_are_those_of_its_date(
    registry: Registry, engine: Engine,
) -> None:
    """The CAS-FRET nº 0002/2025 of 15/09/2025, imported on 15/01/2026, awaits its
    ciência: the appeal's period (art. 24) is the 15 days in force on 15/09/2025, not
    the 30 days a change from 01/01/2026 gives."""
    load(registry)
    pinned(registry)
    context = load_statutory_context(engine.content.root)
    appeal = context.parameters.parameter("fretamento.prazo_recurso")
    *kept, last = appeal.periods
    periods = (*kept, dataclasses.replace(last, until=date(2025, 12, 31)), Period(
        since=date(2026, 1, 1), until=None, value=30,
        source="Lei hipotética de teste que amplia o prazo"))
    changed = dataclasses.replace(context, parameters=Parameters(parameters={
        **context.parameters.parameters,
        appeal.name: dataclasses.replace(appeal, periods=periods)}))
    cassacao = registry.get("CAS-FRET", 2025, 2)
    assert cassacao is not None and cassacao.origin is not None
    assert cassacao.issued_at == AFTER_IMPORT
    [awaited] = FactRecorder(registry, engine.content, changed).awaited(cassacao)
    assert awaited.history_line.startswith(
        "Aguardando ciência: 15 dias contados da ciência, para recurso (art. 24")


def _receipt(number: int, printed: str, moment: datetime) -> Built:
    return Built(pdf=b"%PDF-1.4 " + printed.encode(), data={"protocolo": printed},
                 computed={}, reference_date=moment.date(),
                 verification_code=f"PROT-{number:04d}", signer_subject="Selo",
                 signer_serial="1", pack_version="t", issued_at=moment)


def test_a_name_an_imported_act_gave_before_a_protocol_keeps_its_date(
    registry: Registry,
) -> None:
    """The company files a protocol on 10/01/2026 under the name the sample's ALV-FRET of
    10/02/2024 gave it, before that alvará is imported (15/01/2026). Rebuilt, the name
    is the alvará's, since 10/02/2024, not the protocol's, since 10/01/2026."""
    doc, name = CHARTER_COMPANY
    moment = datetime(2026, 1, 10, 10, tzinfo=LOCAL_TZ).astimezone(UTC)
    entry = FilingInput(series="PROT", form="recurso-fretamento", data={},
                        cpf_cnpj=doc, name=name, attachments=())
    Filings(registry).file(entry, _receipt, receipt_form="comprovante-protocolo", now=moment)
    assert "ALV-FRET nº 0031/2024" in load(registry).imported  # after the protocol
    pinned(registry)

    assert names_of(registry, doc) == [(name, date(2024, 2, 10), "importado")]  # live, as rebuilt
    diff = registry.rebuild_state(apply=True)
    assert (diff.only_stored, diff.only_rebuilt) == ((), ())
    assert names_of(registry, doc) == [(name, date(2024, 2, 10), "importado")]


def names_of(registry: Registry, doc: str) -> list[tuple[str, date | None, str | None]]:
    with registry.read_session() as session:
        rows = session.execute(
            select(PartyNameRow.name, PartyNameRow.since, DocumentRow.origin)
            .join(PartyRow, PartyRow.id == PartyNameRow.party_id)
            .outerjoin(DocumentRow, DocumentRow.id == PartyNameRow.document_id)
            .where(PartyRow.doc == doc).order_by(PartyNameRow.since)).all()
        return [(n, since, None if origin is None else "importado")
                for n, since, origin in rows]


def test_an_older_act_imported_after_a_protocol_leaves_the_newer_name_current(
    registry: Registry,
) -> None:
    """The company files a protocol on 10/01/2026 under a new razão social; the ALV-FRET
    of 10/02/2024, imported on 15/01/2026, names it by the old one. The old name joins
    the history from 10/02/2024; the current name stays the protocol's, the newer; the
    rebuild finds the same."""
    doc, old = CHARTER_COMPANY
    new = "Viação Exemplo Turismo e Fretamento Ltda."
    moment = datetime(2026, 1, 10, 10, tzinfo=LOCAL_TZ).astimezone(UTC)
    entry = FilingInput(series="PROT", form="recurso-fretamento", data={},
                        cpf_cnpj=doc, name=new, attachments=())
    Filings(registry).file(entry, _receipt, receipt_form="comprovante-protocolo", now=moment)
    assert registry.party_name(doc) == new
    assert "ALV-FRET nº 0031/2024" in load(registry).imported
    pinned(registry)
    expected = [(old, date(2024, 2, 10), "importado"), (new, date(2026, 1, 10), None)]
    assert names_of(registry, doc) == expected
    assert registry.party_name(doc) == new
    diff = registry.rebuild_state(apply=True)
    assert (diff.only_stored, diff.only_rebuilt) == ((), ())
    assert names_of(registry, doc) == expected
    assert registry.party_name(doc) == new


def test_an_imported_act_dated_after_lavras_act_leaves_it_the_name(
    registry: Registry,
) -> None:
    """lavra's ato of 05/01/2026 names the company; the ALV-FRET nº 0090/2026, a paper act
    of 12/01/2026 under the same name, is imported on 15/01/2026. The name is the ato's,
    since 05/01/2026, live and rebuilt: the rebuild replays the imported act at its own
    date, after the ato (lavra.registry.act_dates), and compares who gave each name and
    since when."""
    doc, name = CHARTER_COMPANY

    def named(act: Act) -> Sequence[Effect]:
        return [Grant("ato-nome", PartyRef(doc, name), act.reference_date, None, "x#art1")]

    registry.use_effects({**pacote().effects, "ato-nome": named})
    signed = datetime(2026, 1, 5, 10, tzinfo=LOCAL_TZ).astimezone(UTC)
    ato = registry.issue("ATO", 2026, "ato-nome", lambda number, printed: dataclasses.replace(
        builder({}, reference=signed.date())(number, printed), issued_at=signed), data={})
    header = SAMPLE.read_bytes().splitlines()[0]
    line = (f"alvara-fretamento,ALV-FRET nº 0090/2026,2026-01-12,,{doc},{name},FRE9Z99,,,"
            "2031-01-11" + "," * 19)
    assert load(registry, header + b"\n" + line.encode()).imported == (
        "ALV-FRET nº 0090/2026",)
    pinned(registry)
    expected = [(name, date(2026, 1, 5), None)]
    assert names_of(registry, doc) == expected
    with registry.read_session() as session:
        assert session.scalars(select(PartyNameRow.document_id)).all() == [ato.id]
    diff = registry.rebuild_state(apply=True)
    assert (diff.only_stored, diff.only_rebuilt) == ((), ())
    assert names_of(registry, doc) == expected
