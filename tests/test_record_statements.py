"""What one document's record asks the registry in a fretamento renewal run (issue 24):
the statements a worker sends once the document is built and signed, until the run's
item is marked done (:func:`lavra.registry.runs.claim_and_record`), counted (never
timed), on SQLite and on PostgreSQL; and that the document and its first event written
by one statement on PostgreSQL (:mod:`lavra.registry.first_event`) are the rows the two
INSERTs write."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from batchcases import (
    FRET_RUN_DAY,
    FRET_UNTIL,
    REPO,
    fret_envelope,
    fret_seed,
    issuer_over,
    write_jsonl,
)
from sqlalchemy import event, insert, select

import lavra.registry.runs
from lavra.batch.model import RunRequest
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.batch.work import build_item
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.issuing import Issuer
from lavra.registry.first_event import insert_with_event
from lavra.registry.granting import CHANGE_COLUMNS, change_row, insert_granted
from lavra.registry.plain_rows import insert_row
from lavra.registry.runs import claim_and_record
from lavra.registry.tables import DocumentRow, EventRow, LicenceRow, StateChangeRow

STATE = ("SELECT processos",      # the renewal's processo (none yet)
         "INSERT processos",      # opened (PostgreSQL: with its link, below)
         "INSERT processo_acts",  # the act joins it
         "SELECT licences",       # the alvará renewed
         "SELECT parties",        # the holder with its name's row
         "SELECT vehicles",       # the vehicle by plate and RENAVAM
         "UPDATE licences",       # the alvará renewed: "renovado"
         "SELECT licences",       # the vehicle's place (one licence in force)
         "SELECT bars")           # the holder's bars
SQLITE = ("BEGIN IMMEDIATE", "SELECT batch_items",  # the item still pending
          "INSERT documents", "INSERT events", *STATE,
          "INSERT licences", "INSERT state_changes", "UPDATE batch_items")
POSTGRESQL = ("WITH recorded",  # the document and its first event
              "SELECT processos", "WITH opened", *STATE[3:],
              "SAVEPOINT sa_savepoint_1",  # the race of two clerks
              "WITH granted",  # the licence and the act's changes
              "RELEASE SAVEPOINT", "UPDATE batch_items")


def _issuer(tmp_path: Path, url: str | None) -> Issuer:
    return issuer_over(Engine(Content(REPO), pool=None), tmp_path / "dados", url)


def _run(issuer: Issuer, tmp_path: Path) -> Any:
    """The plan of a renewal run of one fretamento alvará (seeded here)."""
    envelopes = [fret_envelope(0, fret_seed(issuer, 1)[0])]
    asked = RunRequest("renovacao-fretamento", {"vencendo_ate": FRET_UNTIL},
                       date.fromisoformat(FRET_RUN_DAY), None,
                       write_jsonl(tmp_path / "pedidos.jsonl", envelopes))
    kind = find_kind(issuer, asked.kind)
    return write_plan(issuer, kind, decide(issuer, kind, asked), None)


def _words(statement: str) -> str:
    """``INSERT documents``, ``SELECT licences``, ``RELEASE SAVEPOINT``: its first words."""
    words = [word for word in statement.split() if word != "INTO"]
    return " ".join(words[:2]).split("(")[0].split(".")[0]


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_one_documents_record_statements(database: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         request: pytest.FixtureRequest) -> None:
    url = request.getfixturevalue("postgres_url") if database == "postgresql" else None
    issuer = _issuer(tmp_path, url)
    try:
        run = _run(issuer, tmp_path)
        sent: list[str] = []
        built: list[bool] = []
        build = lavra.registry.runs._built

        def recording(*args: Any) -> Any:
            result = build(*args)
            built.append(True)  # from here on: the record
            return result

        def listen(_c: Any, _k: Any, statement: str, *_: Any) -> None:
            if built or statement.startswith(("BEGIN IMMEDIATE", "SELECT batch_items.status")):
                sent.append(_words(statement))

        monkeypatch.setattr(lavra.registry.runs, "_built", recording)
        event.listen(issuer.registry.engine, "before_cursor_execute", listen)
        item = claim_and_record(issuer.registry, run.id,
                                lambda item: build_item(issuer, item, on=run.reference_date),
                                worker="teste")
        event.remove(issuer.registry.engine, "before_cursor_execute", listen)
        assert item is not None and item.done and built == [True]
        with issuer.registry.engine.connect() as connection:
            first = connection.execute(select(EventRow.kind, EventRow.detail).where(
                EventRow.document_id == item.document_id)).all()
        assert [kind for kind, _ in first] == ["issued"]
        assert f"na execução em lote nº {run.id}" in str(first[0][1])
    finally:
        issuer.close()
    assert tuple(sent) == (POSTGRESQL if database == "postgresql" else SQLITE)


def test_document_and_event_by_one_statement_write_the_same_rows(
        tmp_path: Path, postgres_url: str) -> None:
    """The same document (the seed's alvará read back, its empty columns filled; its
    number, verification code and idempotency key changed: unique) written twice, by
    the one WITH and by the two INSERTs SQLite sends: every other column of both rows,
    and of their first events, equal, and the WITH's row holds the values given."""
    issuer = _issuer(tmp_path, postgres_url)
    try:
        fret_seed(issuer, 1)
        with issuer.registry.write_session() as session:
            seed = session.scalars(select(DocumentRow)).one()
            sample = {str: "X", bytes: b"docx", date: seed.reference_date,  # for the
                      datetime: seed.issued_at, object: seed.issued_at}  # seed's empty ones
            values = {c.key: getattr(seed, c.key) if getattr(seed, c.key) is not None
                      else sample[c.type.python_type]
                      for c in DocumentRow.__table__.columns if not c.primary_key}
            first = {"kind": "issued", "actor": "Fulano (fulano)", "at": seed.issued_at,
                     "detail": "Emitido sob o nº 0002/2026, série ALV-FRET."}
            one = DocumentRow(**{**values, "number": 2, "verification_code": "UM-0002",
                                 "idempotency_key": "um"})
            two = DocumentRow(**{**values, "number": 3, "verification_code": "DOIS-0003",
                                 "idempotency_key": "dois"})
            assert insert_with_event(session, one, first) == one.id
            insert_row(session, two)
            session.execute(insert(EventRow), {"document_id": two.id, **first})
            ids = (one.id, two.id)
        by_with, by_two = ids
        with issuer.registry.read_session() as session:
            rows = {row.id: row for row in session.scalars(select(DocumentRow))}
            events = {row.document_id: row for row in session.scalars(select(EventRow))}
            for column in DocumentRow.__table__.columns:
                if column.key not in ("id", "number", "verification_code", "idempotency_key"):
                    assert getattr(rows[by_with], column.key) == \
                        getattr(rows[by_two], column.key), column.key
            assert {c.key: getattr(rows[by_with], c.key) for c in DocumentRow.__table__.columns
                    if not c.primary_key} == {**values, "number": 2, "verification_code":
                                              "UM-0002", "idempotency_key": "um"}
            for column in EventRow.__table__.columns:
                if column.key not in ("id", "document_id"):
                    assert getattr(events[by_with], column.key) == \
                        getattr(events[by_two], column.key), column.key
    finally:
        issuer.close()


def test_licence_and_changes_by_one_statement_write_the_same_rows(
        tmp_path: Path, postgres_url: str) -> None:
    """The seed's licence read back (its empty columns filled, out of its groups) and two
    changes, the last the grant's, written twice: by the one WITH and by the INSERT of
    the licence then that of the changes: every column of the rows equal, the grant's
    change naming its own licence, the changes in the order given."""
    issuer = _issuer(tmp_path, postgres_url)
    try:
        fret_seed(issuer, 1)
        with issuer.registry.write_session() as session:
            seed = session.scalars(select(LicenceRow)).one()
            sample = {str: "X", int: None, date: seed.valid_from}  # for the
            values = {c.key: getattr(seed, c.key) if getattr(seed, c.key) is not None
                      else sample.get(c.type.python_type, {"a": 1})  # seed's empty ones
                      for c in LicenceRow.__table__.columns if not c.primary_key}
            values.update(exclusive=None, per_holder=None, status="renewed", base_id=seed.id)
            changes = [change_row(seed.document_id, "renewed", "Renovado.", seed.valid_from,
                                  seed, None, None, {"status": "active"}),
                       change_row(seed.document_id, "grant", "Expedição.", seed.valid_from,
                                  None, None, None, {"grupo": "x"})]
            act = session.get_one(DocumentRow, seed.document_id)
            acts = [insert_row(session, DocumentRow(**{  # two acts granting them
                **{c.key: getattr(act, c.key) for c in DocumentRow.__table__.columns
                   if not c.primary_key}, "number": n, "verification_code": f"V-{n}"}))
                for n in (2, 3)]
            one, two = (LicenceRow(**{**values, "document_id": act}) for act in acts)
            insert_granted(session, one, changes)
            insert_row(session, two)
            session.execute(insert(StateChangeRow), [
                changes[0], {**changes[1], "licence_id": two.id}])
            ids, seed_id = (one.id, two.id), seed.id
        with issuer.registry.read_session() as session:
            rows = {row.id: row for row in session.scalars(select(LicenceRow))}
            columns = [c.key for c in LicenceRow.__table__.columns if not c.primary_key]
            assert [getattr(rows[ids[0]], name) for name in columns] == \
                [values[name] if name != "document_id" else acts[0] for name in columns]
            assert [getattr(rows[ids[1]], name) for name in columns] == \
                [values[name] if name != "document_id" else acts[1] for name in columns]
            written = [{name: getattr(row, name) for name in CHANGE_COLUMNS}
                       for row in session.scalars(select(StateChangeRow).where(
                           StateChangeRow.kind.in_(["renewed", "grant"]),
                           StateChangeRow.detail.in_(["Renovado.", "Expedição."])
                       ).order_by(StateChangeRow.id))]
        assert written == [changes[0], {**changes[1], "licence_id": ids[0]},
                           changes[0], {**changes[1], "licence_id": ids[1]}]
        assert changes[0]["licence_id"] == seed_id
    finally:
        issuer.close()
