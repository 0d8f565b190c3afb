"""The registry's search by name answers from an index (migration 0019,
lavra.registry.name_index): accents and case ignored, part of a word enough, every word
of the query required; on SQLite through the FTS5 trigram table, on PostgreSQL through
the GIN trigram index (pg_trgm), or without it, said in the log, where the extension
cannot be created. Names written before the migration are found after it."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from alembic import command
from registrycases import builder
from sqlalchemy import Connection, create_engine, insert, text
from sqlalchemy.engine import make_url

from lavra.registry.database import alembic_config
from lavra.registry.name_index import TRIGRAM_INDEX, fold_name, name_terms
from lavra.registry.search import Filters, parse_query, statement
from lavra.registry.store import Registry, open_registry
from lavra.registry.tables import PartyNameRow, PartyRow

JOSE, MARIA, EMPRESA = "52998224725", "11144477735", "65563842000105"
NAMES = {JOSE: ["José da Silva"], MARIA: ["MARIA SILVEIRA", "Ana Luíza Conceição"],
         EMPRESA: ["João Souza Transportes ME"]}


def _found(registry: Registry, typed: str) -> set[str]:
    query = parse_query(typed)
    assert query.name is not None, typed
    with registry.read_session() as session:
        return {row.cpf_cnpj for row in session.scalars(statement(query, Filters()))}


def _plan(connection: Connection, typed: str) -> str:
    compiled = statement(parse_query(typed), Filters()).compile(
        dialect=connection.dialect, compile_kwargs={"literal_binds": True})
    if connection.dialect.name == "sqlite":
        rows = connection.execute(text(f"EXPLAIN QUERY PLAN {compiled}")).all()
        return " | ".join(str(row[-1]) for row in rows)
    connection.execute(text("SET LOCAL enable_seqscan = off"))  # a tiny table: force it
    return " | ".join(str(row[0]) for row in connection.execute(text(f"EXPLAIN {compiled}")))


@contextmanager
def _names(url: str) -> Iterator[Registry]:
    """The registry with one document per holder and the names above (the writer's way)."""
    with open_registry(url) as registry:
        for doc, names in NAMES.items():
            registry.issue("ALV", 2026, "alvara", builder({"titular": {"cpf": doc}}))
            with registry.write_session() as session:
                party = PartyRow(doc=doc, name=names[-1])
                session.add(party)
                session.flush()
                session.add_all(PartyNameRow(party_id=party.id, name=n) for n in names)
        yield registry


def test_terms_are_folded_words() -> None:
    assert fold_name("  Ana  LUÍZA\tConceição ") == "ana luiza conceicao"
    assert fold_name("D'Ávila_Souza Ltda.") == "d avila souza ltda"
    assert name_terms("Silva, JOSÉ da") == ("silva", "jose")
    assert name_terms("Zé da Sá") == ("ze da sa",)  # no word of 3 letters: whole


def test_name_search_by_index(registry_url: str) -> None:
    with _names(registry_url) as registry:
        assert _found(registry, "JOSE") == {JOSE}
        assert _found(registry, "Silv") == {JOSE, MARIA}
        assert _found(registry, "silva josé") == {JOSE}  # any order, «da» not needed
        assert _found(registry, "da Silva") == {JOSE}  # not Silveira
        assert _found(registry, "conceicao") == {MARIA}  # an earlier name counts
        assert _found(registry, "ouza Transp") == {EMPRESA}
        assert _found(registry, "Pereira") == set()
        assert _found(registry, 'SILVA, "José"') == {JOSE}  # punctuation is no word
        assert _found(registry, "Sil%a Sou_za") == set()  # nor a wildcard
        engine = registry.engine
        with engine.begin() as connection:
            plan = _plan(connection, "JOSE")
        if engine.dialect.name == "sqlite":
            assert "SCAN party_names_fts VIRTUAL TABLE INDEX 0:M" in plan, plan
            assert "SCAN party_names " not in plan + " " and "SCAN parties" not in plan, plan
        else:
            assert f"Bitmap Index Scan on {TRIGRAM_INDEX}" in plan, plan
        # migrate down and up: the names written before 0019 are folded and indexed
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0018")
            party = connection.execute(insert(PartyRow.__table__).values(
                doc="01753935911", name="Sérgio Antônio").returning(
                PartyRow.__table__.c.id)).scalar_one()
            connection.execute(text(
                "INSERT INTO party_names (party_id, name) VALUES (:p, 'Sérgio Antônio')"),
                {"p": party})
            command.upgrade(alembic_config(connection), "head")
        registry.issue("ALV", 2026, "alvara", builder({"titular": {"cpf": "01753935911"}}))
        assert _found(registry, "antonio SERG") == {"01753935911"}
        assert _found(registry, "Silv") == {JOSE, MARIA}
        with registry.write_session() as session:  # written after: the triggers keep it current
            session.add(PartyNameRow(party_id=party, name="Sérgio Antônio Pereira"))
        assert _found(registry, "Pereira") == {"01753935911"}


def test_postgresql_without_pg_trgm_searches_without_the_index(
        postgres_empty_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A role that may not create extensions: the migration says so in the log and the
    search still finds, without the index. The database is empty (not the migrated
    template, which has pg_trgm): that role runs the migrations itself."""
    role = f"sem_extensao_{uuid.uuid4().hex[:8]}"
    admin = create_engine(postgres_empty_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE ROLE "{role}" LOGIN'))
        connection.execute(text(f'GRANT ALL ON SCHEMA public TO "{role}"'))
    try:
        url = make_url(postgres_empty_url).set(username=role).render_as_string(
            hide_password=False)
        with caplog.at_level(logging.WARNING, logger="lavra.registry"), _names(url) as registry:
            assert _found(registry, "JOSE") == {JOSE}
            assert _found(registry, "Silv") == {JOSE, MARIA}
        assert any("Busca por nome sem índice: a extensão pg_trgm" in r.getMessage()
                   and f"CREATE INDEX {TRIGRAM_INDEX}" in r.getMessage()
                   for r in caplog.records), caplog.text
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP OWNED BY "{role}"'))
            connection.execute(text(f'DROP ROLE "{role}"'))
        admin.dispose()
