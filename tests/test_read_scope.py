"""One check, one read of the registry (issue 24: the checks' fixed costs).

A check's dozen registry lookups go through one session and one transaction
(``Registry.read_scope``), not one each; the identity and name lookups repeated inside a
scope (one holder's three checks in a plan) are asked once, and never carried into the
next scope: a later scope (the next holder, the worker's re-check) reads the registry of
its moment. Over a fresh SQLite registry signing on a fixed clock; statements counted
as the database driver receives them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

import pytest
from formcases import example
from issuers import clocked_issuer
from sqlalchemy import event, text, update
from sqlalchemy.exc import DBAPIError

from lavra.documents import Engine
from lavra.issuing import Issuer
from lavra.registry.records import LOCAL_TZ
from lavra.registry.store import Registry
from lavra.registry.tables import PartyRow

AIF = "auto-infracao-fretamento"
DAY = date(2026, 3, 2)
CNPJ = "65563842000105"


@pytest.fixture(scope="module")
def issuer(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Issuer]:
    now = datetime(2026, 3, 2, 15, tzinfo=LOCAL_TZ)
    issuer = clocked_issuer(engine, tmp_path_factory.mktemp("escopo") / "dados", now)
    try:
        issuer.issue(AIF, example(engine, AIF), example_values=True)
        yield issuer
    finally:
        issuer.close()


@pytest.fixture
def statements(issuer: Issuer) -> Iterator[Counter[str]]:
    """The statements the registry sends from now on, by their first word."""
    seen: Counter[str] = Counter()

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen[statement.split(None, 1)[0].upper()] += 1

    event.listen(issuer.registry.engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(issuer.registry.engine, "before_cursor_execute", count)


def test_a_check_reads_the_registry_in_one_transaction(
        engine: Engine, issuer: Issuer, statements: Counter[str]) -> None:
    prepared = issuer.prepare(AIF, example(engine, AIF), DAY, example_values=True)
    assert prepared.report.items  # the check ran, with the registry as its history
    assert statements["SELECT"] >= 3  # the earlier autos, the party's names, the values
    assert statements["BEGIN"] == 1


def test_a_lookup_repeated_in_a_scope_is_asked_once(
        issuer: Issuer, statements: Counter[str]) -> None:
    registry = issuer.registry
    with registry.read_scope():
        first = registry.party_name(CNPJ)
        assert registry.party_name(CNPJ) == first
        assert registry.party_names(CNPJ) == registry.party_names(CNPJ)
    assert first == "Viação Exemplo de Fretamento Ltda."
    assert statements["SELECT"] == 2 and statements["BEGIN"] == 1
    registry.party_name(CNPJ)
    registry.party_name(CNPJ)  # outside a scope: asked every time
    assert statements["SELECT"] == 4 and statements["BEGIN"] == 3


def test_a_later_scope_reads_the_registry_of_its_moment(issuer: Issuer) -> None:
    registry = issuer.registry
    renamed = "Viação Renomeada de Fretamento Ltda."
    try:
        with registry.read_scope():
            before = registry.party_name(CNPJ)
            with registry.write_session() as session:  # staff record a new razão social meanwhile
                session.execute(update(PartyRow).where(PartyRow.doc == CNPJ)
                                .values(name=renamed))
            assert registry.party_name(CNPJ) == before  # the scope's snapshot
        with registry.read_scope():  # the next holder, the worker's re-check
            assert registry.party_name(CNPJ) == renamed
    finally:
        with registry.write_session() as session:
            session.execute(update(PartyRow).where(PartyRow.doc == CNPJ).values(name=before))


def test_a_refused_statement_leaves_the_scope_usable(registry: Registry) -> None:
    """On PostgreSQL a refused statement aborts its transaction: the scope goes on in a
    new one, and the caller's next read does not fail (SQLite, then PostgreSQL)."""
    with registry.read_scope():
        with pytest.raises(DBAPIError), registry.read_session() as session:
            session.execute(text("SELECT nada FROM tabela_que_nao_existe"))
        assert registry.party_name(CNPJ) is None  # a registry that knows nobody
        assert registry.party_names(CNPJ) == ()
