"""The lookups a renewal run makes for each holder answer from an index on SQLite, so
that the run's cost per document stays flat as the registry grows (issue 24, "Flat in
the size of the registry"): no ``SCAN`` of a table in ``EXPLAIN QUERY PLAN``. An empty
registry is enough: without statistics, SQLite's plan does not depend on the rows."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from issuers import state_registry
from sqlalchemy import event

from lavra.registry.guards import HOLDING
from lavra.registry.licence_reads import LicenceQuestions
from lavra.registry.licences_of_acts import VIEWS_OF_ACTS
from lavra.registry.queries import NUMBERED_RECORDS
from lavra.registry.rests_on_dates import ISSUED_BY_NUMBER, ISSUED_BY_NUMBERS
from lavra.registry.statements import BAR_OF_PARTY, licences_holding
from lavra.registry.store import Registry


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[Registry]:
    yield from state_registry(f"sqlite:///{tmp_path / 'registro.sqlite3'}")


def _plans(registry: Registry, lookup: Callable[[], Any]) -> list[str]:
    """The query plan of every SELECT ``lookup`` runs."""
    seen: list[tuple[str, Any]] = []

    def capture(_c: Any, _cur: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append((statement, parameters))

    engine = registry.engine
    event.listen(engine, "before_cursor_execute", capture)
    try:
        lookup()
    finally:
        event.remove(engine, "before_cursor_execute", capture)
    assert seen, "the lookup ran no query"
    with engine.connect() as connection:
        return [" | ".join(str(row[-1]) for row in connection.exec_driver_sql(
            f"EXPLAIN QUERY PLAN {statement}", parameters).all())
            for statement, parameters in seen]


@pytest.mark.parametrize(("lookup", "index"), [
    # a document cited by number and year only (the case history's ``document``)
    (lambda r: r.search("0007/2025", limit=500), "ix_documents_number_year"),
    # a holder's documents, the most recent act first (the checks' latest contract)
    (lambda r: r.by_holder("52998224725", "contrato"), "ix_documents_cpf_cnpj"),
    # the licences of a kind in force for a vehicle, and for a holder: found from the
    # vehicle or the holder, never by walking every licence of the kind
    (lambda r: r.licences_in_force("alvara-transporte-escolar", date(2026, 1, 5),
                                   placa="ABC1D23"), "ix_licences_vehicle_id"),
    (lambda r: r.licences_in_force("alvara-transporte-escolar", date(2026, 1, 5),
                                   holder="52998224725"), "ix_licences_holder_id_kind"),
    # a holder's licences of one kind (a company's registration, not its whole fleet)
    (lambda r: r.licences_held(date(2026, 1, 5), holder="65563842000105",
                               kind="certidao-registro-fretamento"),
     "ix_licences_holder_id_kind (holder_id=? AND kind=?)"),
    # the alvarás of a kind coming due in a year (the run's holders), by their last day
    (lambda r: r.licences("alvara-transporte-escolar", on=date(2025, 12, 31),
                          expiring=(date(2025, 1, 1), date(2025, 12, 31))),
     "ix_licences_kind_valid_until (kind=? AND valid_until>? AND valid_until<?)"),
    # the licences a vehicle holds (the checks of every act)
    (lambda r: r.licences_held(date(2026, 1, 5), placa="ABC1D23"), "ix_licences_vehicle_id"),
    # the autos annulled on appeal among those a case history returns (every auto counted)
    (lambda r: r.annulled_acts([1, 2]), "ix_state_changes_document_id"),
    # a renewal's three licences in one statement: the one renewed (with its series, or
    # bare of its kind), the holder's registration, the vehicle's licences
    (lambda r: r.licence_answers(LicenceQuestions(
        number="ALV-FRET nº 0001/2026", holder="65563842000105",
        holder_kind="certidao-registro-fretamento", placa="ABC1D23")), "ix_licences_vehicle_id"),
    (lambda r: r.licence_answers(LicenceQuestions(
        number="0001/2026", kind="alvara-fretamento", holder="65563842000105",
        holder_kind="certidao-registro-fretamento", placa="ABC1D23")), "ix_licences_vehicle_id"),
], ids=["numero-sem-serie", "do-titular", "por-veiculo", "por-titular", "do-titular-por-tipo",
        "vencendo-no-ano",
        "do-veiculo", "anulados-em-recurso", "tres-licencas", "tres-licencas-sem-serie"])
def test_the_runs_lookups_use_an_index(registry: Registry, lookup: Callable[[Registry], Any],
                                       index: str) -> None:
    plans = _plans(registry, lambda: lookup(registry))
    assert not [p for p in plans if "SCAN" in p], plans
    assert index in plans[0], plans


@pytest.mark.parametrize(("statement", "values", "index"), [
    # the guards of a grant: the licences holding the vehicle's place, the holder's
    (licences_holding(holder=False),
     {"owner": 1, "group": "operacao-veiculo", "statuses": list(HOLDING)},
     "ix_licences_vehicle_id"),
    (licences_holding(holder=True),
     {"owner": 1, "group": "alvara", "statuses": list(HOLDING)}, "ix_licences_holder_id_kind"),
    # the bar on the holder of a grant
    (BAR_OF_PARTY, {"party": 1, "scope": "alvara", "on": date(2026, 1, 5)},
     "ix_bars_party_id"),
    # the checks of every act: the earlier act it rests on, by its number (its case
    # history's ``document``; the dates of rests_on_dates, in the same statement as the
    # last change on the licence that act granted)
    (NUMBERED_RECORDS, {"number": 7, "year": 2025, "form": "alvara-fretamento"},
     "ix_documents_number_year"),
    (ISSUED_BY_NUMBER, {"series": "ALV-FRET", "number": 7, "year": 2025},
     "(series=? AND year=? AND number=?)"),
    (ISSUED_BY_NUMBER, {"series": "ALV-FRET", "number": 7, "year": 2025},
     "licences USING COVERING INDEX sqlite_autoindex_licences_1 (document_id=?) | "
     "SEARCH state_changes USING INDEX ix_state_changes_licence_id (licence_id=?)"),
    # the same of a plan's acts, read ahead
    (ISSUED_BY_NUMBERS, {"series": "ALV-FRET", "numbers": [7, 8], "year": 2025},
     "(series=? AND year=? AND number=?) | SEARCH last_change"),
    # a run's plan: the licences the alvarás coming due granted, by the acts' ids (a
    # chunk's worth: for more than a few ids SQLite walked the status's index instead)
    (VIEWS_OF_ACTS, {"ids": list(range(1, 501)), "kind": "alvara-fretamento",
                     "status": "active"}, "(document_id=?)"),
], ids=["lugar-do-veiculo", "lugar-do-titular", "impedimento", "ato-numerado",
        "ato-emitido-pelo-numero", "ultimo-registro-da-licenca",
        "atos-emitidos-pelos-numeros", "licencas-dos-atos"])
def test_the_grant_guards_use_an_index(registry: Registry, statement: Any,
                                       values: dict[str, Any], index: str) -> None:
    """The statements the record of every grant and the checks of every act run
    (built once per process)."""
    def lookup() -> None:
        with registry.read_session() as session:
            session.execute(statement, values).all()
    plans = _plans(registry, lookup)
    assert not [p for p in plans if "SCAN" in p], plans
    assert index in plans[0], plans
