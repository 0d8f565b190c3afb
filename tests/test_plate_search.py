"""A plate typed in any of its forms finds the same vehicle at every entry point that
searches the registry by placa: with or without the dash, spaces, lower case, and the old
plate (ABC1234) or its Mercosul form (ABC1C34), whichever the act printed. One
comparison (:func:`lavra.registry.identifiers.same_plate`), answered by the plate's
index. Each test runs on SQLite and on PostgreSQL (``registry_url``); every date is
passed explicitly."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime

import pytest
from identities import set_vehicle
from issuers import state_registry
from sqlalchemy import select, text
from test_licensing_state import act, example

from lavra.errors import InputError
from lavra.issuing import RegistryHistory
from lavra.registry.identifiers import same_plate
from lavra.registry.records import IssuedRecord
from lavra.registry.search import Filters, parse_query
from lavra.registry.store import Registry
from lavra.registry.tables import DocumentRow

ALV = "alvara-fretamento"
ON = date(2026, 6, 1)
OLD_FORMS = ("ABC1234", "abc-1234", " abc 1234 ", "Abc-1234")
MERCOSUL_FORMS = ("ABC1C34", "abc-1c34", "abc 1C34", " ABC-1C34 ")
TYPED = OLD_FORMS + MERCOSUL_FORMS


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    yield from state_registry(registry_url)


def alvara(registry: Registry, placa: str) -> IssuedRecord:
    """An ALV-FRET whose act printed the vehicle's plate as ``placa``."""
    data = example(ALV)
    set_vehicle(data["veiculo"], placa)
    return act(registry, "ALV-FRET", ALV, data, on=date(2026, 3, 2),
               computed={"inicio_vigencia": "2026-03-02", "valido_ate": "2031-03-01"})


@pytest.mark.parametrize("printed", ["ABC-1234", "ABC1C34"])
def test_every_registry_lookup_finds_the_vehicle_by_any_form_of_its_plate(
    registry: Registry, printed: str
) -> None:
    issued = alvara(registry, printed)
    history = RegistryHistory(registry)
    since = datetime(2026, 1, 1)
    for typed in TYPED:
        # the documents table: the search by text, the vehicle's documents, those in force
        assert [r.id for r in registry.search(typed)] == [issued.id], typed
        assert [r.id for r in registry.autos_for_vehicle(typed, "alvara", since)] == [
            issued.id], typed
        assert [r.id for r in registry.active_licences(ALV, ON, placa=typed)] == [
            issued.id], typed
        # the registry page and GET /api/documents
        page = registry.browse(parse_query(typed), Filters())
        assert [r.id for r in page.records] == [issued.id], typed
        # the licensing state: the licences, the timeline, the checks' history
        assert [r.id for r in registry.licences_in_force(ALV, ON, placa=typed)] == [
            issued.id], typed
        assert [v.printed for v in registry.licences_held(ON, placa=typed)] == [
            issued.printed], typed
        assert [v.printed for v in registry.licence_views(placa=typed)] == [
            issued.printed], typed
        assert registry.timeline(placa=typed)[0].document_id == issued.id, typed
        assert [p.number for p in history.in_force(typed, ALV, ON)] == [
            issued.formatted], typed
    for other in ("ABC1235", "ABD1C34"):
        assert registry.search(other) == ()
        assert registry.autos_for_vehicle(other, "alvara", since) == ()
        assert registry.licence_views(placa=other) == ()


def test_a_malformed_plate_is_refused_naming_the_field(registry: Registry) -> None:
    with pytest.raises(InputError) as refused:
        registry.autos_for_vehicle("AB-12", "alvara", datetime(2026, 1, 1))
    assert "Placa inválida" in refused.value.message
    assert refused.value.field == "/placa"


def test_the_plate_comparison_is_answered_by_the_index(registry: Registry) -> None:
    alvara(registry, "ABC1234")
    stmt = select(DocumentRow.id).where(same_plate(DocumentRow.placa, "abc-1c34"))
    compiled = stmt.compile(registry.engine, compile_kwargs={"literal_binds": True})
    with registry.engine.connect() as connection:
        if registry.engine.dialect.name == "sqlite":
            plan = " ".join(str(row[-1]) for row in connection.execute(
                text(f"EXPLAIN QUERY PLAN {compiled}")))
        else:  # a table of one row is read whole unless the planner is told otherwise
            connection.execute(text("SET enable_seqscan = off"))
            plan = " ".join(str(row[0]) for row in connection.execute(
                text(f"EXPLAIN {compiled}")))
    # SQLite searches the index (a SCAN of it would read it whole); PostgreSQL scans it.
    assert "ix_documents_placa" in plan and "Seq Scan" not in plan, plan
    assert registry.engine.dialect.name != "sqlite" or "SEARCH" in plan, plan
