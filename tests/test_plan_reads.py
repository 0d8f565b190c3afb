"""What a renewal plan reads ahead for all its holders (:mod:`lavra.batch.plan_reads`)
answers each lookup as the registry's own query: over the imported sample (alvarás and
licences of both laws, transfers, a cassação and the bar it set), every licence's act,
its standing, its holder's and its vehicle's licences on two days, of every kind and of
its own, and the bars on its holder, asked with and without reading ahead, on SQLite and
PostgreSQL; with it, the registry is not asked at all; without it (another day, a
number not read), as before. Every date is passed explicitly.

The sample is the import example less its second school alvará (and the auto on it):
one licence of each kind stays (fretamento in force, fretamento cassated, particular,
escolar transferred), and both bars, each asked of whom it falls on (the cassação's
on the company, the transfer's on its cedente, who holds no licence any more)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from issuers import state_registry
from sqlalchemy import event, select
from test_cadastro_import import SAMPLE, load

from lavra.batch.plan_history import PlanHistory
from lavra.batch.plan_reads import read_ahead
from lavra.registry.licence_reads import LicenceQuestions
from lavra.registry.store import Registry
from lavra.registry.tables import BarRow, DocumentRow, LicenceRow, PartyRow, VehicleRow

ON = date(2026, 4, 6)
KINDS = {"alvara-fretamento", "alvara-servico-particular-fretamento",
         "alvara-transporte-escolar"}
DROPPED = "ALV-ESC nº 0018/2023"  # a second school alvará in force, as 0019 was before
"""its transfer: the alvará's row and the auto citing it leave the sample."""


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    lines = SAMPLE.read_text("utf-8").splitlines(keepends=True)
    for opened in state_registry(registry_url):
        load(opened, "".join(line for line in lines if DROPPED not in line).encode("utf-8"))
        yield opened


def _licences(registry: Registry) -> list[Any]:
    stmt = (select(DocumentRow.form, DocumentRow.number, DocumentRow.year, LicenceRow.printed,
                   LicenceRow.kind, PartyRow.doc, VehicleRow.placa)
            .join(DocumentRow, DocumentRow.id == LicenceRow.document_id)
            .outerjoin(PartyRow, PartyRow.id == LicenceRow.holder_id)
            .outerjoin(VehicleRow, VehicleRow.id == LicenceRow.vehicle_id)
            .order_by(LicenceRow.id))
    with registry.engine.connect() as connection:
        return list(connection.execute(stmt))


def _scopes(registry: Registry) -> list[str]:
    with registry.engine.connect() as connection:
        return sorted(connection.scalars(select(BarRow.scope).distinct()))


def _barred(registry: Registry) -> list[str]:
    """Whom a bar falls on (the transfer's bar on its cedente, who holds no licence)."""
    stmt = select(PartyRow.doc).join(BarRow, BarRow.party_id == PartyRow.id).distinct()
    with registry.engine.connect() as connection:
        return sorted(connection.scalars(stmt))


def test_what_is_read_ahead_answers_as_the_registry(registry: Registry) -> None:
    licences = _licences(registry)
    scopes = _scopes(registry)
    # the sample: every kind of licence, in force, cassated and transferred; both bars
    assert {row.kind for row in licences} == KINDS and len(licences) == 4
    assert scopes == ["alvara-fretamento", "licenca-escolar"]
    docs = sorted({row.doc for row in licences if row.doc})
    barred = _barred(registry)
    plates = sorted({row.placa for row in licences if row.placa})
    later = ON + timedelta(days=400)
    plain, ahead = PlanHistory(registry), PlanHistory(registry)
    sent: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        sent.append(statement)

    with registry.read_scope():
        reads = read_ahead(registry, ON, acts=[(r.form, r.number, r.year) for r in licences],
                           licences=[r.printed for r in licences],
                           holders=[*docs, *barred],
                           placas=[*plates, plates[0].lower(), "não é placa"])
        with ahead.reading_ahead(reads):
            answers: list[Any] = []
            event.listen(registry.engine, "before_cursor_execute", count)
            try:
                for row in licences:
                    answers.append(ahead.document(row.form, row.printed))
                    answers.append(ahead.licence_status(row.printed, row.kind))
                    for day in (ON, later):
                        for kind in (None, row.kind):
                            answers.append(ahead.holder_licences(row.doc or "", day, kind))
                        answers.append(ahead.vehicle_licences(row.placa or "", day))
                        answers.extend(ahead.bars(row.doc or "", scope, day)
                                       for scope in scopes)
                answers.append(ahead.vehicle_licences(plates[0].lower(), ON))
                answers.extend(ahead.bars(doc, scope, day) for doc in barred
                               for day in (ON, later) for scope in scopes)
                # the check's one read of its three licences (h/checkfast) is not made
                first = licences[0]
                assert ahead.answering(LicenceQuestions(
                    number=first.printed, kind=first.kind, holder=first.doc,
                    placa=first.placa)) is ahead
            finally:
                event.remove(registry.engine, "before_cursor_execute", count)
            assert sent == []  # every answer read ahead
            # not read ahead: a day before the bars read, an act not named
            assert ahead.bars(docs[0], scopes[0], ON - timedelta(days=1)) == plain.bars(
                docs[0], scopes[0], ON - timedelta(days=1))
            assert ahead.document("alvara-fretamento", "ALV-FRET nº 9999/2024") is None
        expected: list[Any] = []
        for row in licences:
            expected.append(plain.document(row.form, row.printed))
            expected.append(plain.licence_status(row.printed, row.kind))
            for day in (ON, later):
                for kind in (None, row.kind):
                    expected.append(plain.holder_licences(row.doc or "", day, kind))
                expected.append(plain.vehicle_licences(row.placa or "", day))
                expected.extend(plain.bars(row.doc or "", scope, day) for scope in scopes)
        expected.append(plain.vehicle_licences(plates[0].lower(), ON))
        expected.extend(plain.bars(doc, scope, day) for doc in barred
                        for day in (ON, later) for scope in scopes)
        # each bar of the sample is among the answers compared
        assert {scope for doc in barred for scope in scopes if plain.bars(doc, scope, ON)} == {
            *scopes}
    assert answers == expected
    assert any(answer for answer in answers if isinstance(answer, list))  # a bar found
    assert sum(1 for answer in answers if answer) > len(licences)
