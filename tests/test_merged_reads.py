"""The reads a draft's check merges (one statement where it asked two), compared with
the reads they replace, on SQLite and PostgreSQL: the bars on a holder with its
registered name (:mod:`lavra.registry.party_bars`)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

import pytest
from sqlalchemy import event

from lavra.registry.party_bars import bars_and_name
from lavra.registry.records import Status, printed_number
from lavra.registry.statements import BARS_OF, PARTY_NAME
from lavra.registry.store import Registry
from lavra.registry.tables import BarRow, DocumentRow, PartyNameRow, PartyRow

ON = date(2026, 3, 10)
BARRED = "11144477735"       # two bars running (one the same last day), one past
RENAMED = "52998224725"      # renamed, no bar
NAMELESS = "12345678909"     # no name, one bar running
UNKNOWN = "98765432100"      # not in the registry
DOCS = (BARRED, RENAMED, NAMELESS, UNKNOWN)


def _act(ident: int, series: str) -> DocumentRow:
    return DocumentRow(
        id=ident, series=series, year=2026, number=ident, form="auto-teste", data={},
        computed={}, reference_date=date(2026, 1, ident), valid_until=None, sha256="0" * 64,
        verification_code=f"CODIGO{ident}", signer_subject="CN=Teste", signer_name="Teste",
        signer_serial="1", pack_version="1", status=Status.ISSUED.value,
        issued_at=datetime(2026, 1, ident, 12, tzinfo=UTC), pdf=b"")


@pytest.fixture
def seeded(registry_url: str) -> Iterator[Registry]:
    """A registry holding the four cases of :data:`DOCS` (no pack: rows as the state
    keeps them)."""
    from lavra.registry.store import open_registry

    registry = open_registry(registry_url)
    with registry._write() as session:
        session.add_all([_act(i, s) for i, s in ((1, "CAS"), (2, "SUS"), (3, "CAS"), (4, "SUS"))])
        barred = PartyRow(id=1, doc=BARRED, name="Viação Nova Ltda")
        renamed = PartyRow(id=2, doc=RENAMED, name="Nome Atual")
        session.add_all([barred, renamed, PartyRow(id=3, doc=NAMELESS, name=None)])
        session.flush()
        session.add_all([
            PartyNameRow(party_id=2, name="Nome Antigo", document_id=1, since=date(2025, 1, 1)),
            PartyNameRow(party_id=2, name="Nome Atual", document_id=2, since=date(2026, 1, 2)),
            BarRow(id=1, party_id=1, scope="fretamento", until=date(2027, 1, 1), document_id=2),
            BarRow(id=2, party_id=1, scope="escolar", until=date(2026, 6, 30), document_id=1),
            BarRow(id=3, party_id=1, scope="fretamento", until=date(2026, 6, 30), document_id=3),
            BarRow(id=4, party_id=1, scope="fretamento", until=date(2026, 3, 9), document_id=4),
            BarRow(id=5, party_id=3, scope="escolar", until=ON, document_id=4),
        ])
    try:
        yield registry
    finally:
        registry.close()


def _former(registry: Registry, doc: str, on: date) -> tuple[Any, ...]:
    with registry._read() as session:
        rows = session.execute(BARS_OF, {"doc": doc, "on": on}).all()
        name = session.scalars(PARTY_NAME, {"doc": doc}).one_or_none()
    return tuple(sorted((s, u, printed_number(se, n, y)) for s, u, se, n, y in rows)), name


def test_bars_and_name_read_what_the_two_reads_did(seeded: Registry) -> None:
    for doc, on in itertools.product(DOCS, (ON, date(2026, 7, 1), date(2028, 1, 1))):
        with seeded._read() as session:
            bars, name = bars_and_name(session, doc, on)
        former_bars, former_name = _former(seeded, doc, on)
        assert (tuple(sorted(bars)), name) == (former_bars, former_name), doc
        assert [bar[1] for bar in bars] == sorted(bar[1] for bar in bars)  # by last day
    with seeded._read() as session:
        assert bars_and_name(session, BARRED, ON) == ((
            ("escolar", date(2026, 6, 30), printed_number("CAS", 1, 2026)),
            ("fretamento", date(2026, 6, 30), printed_number("CAS", 3, 2026)),
            ("fretamento", date(2027, 1, 1), printed_number("SUS", 2, 2026))),
            "Viação Nova Ltda")


def _statements(registry: Registry) -> list[str]:
    sent: list[str] = []
    event.listen(registry.engine, "before_cursor_execute",
                 lambda _c, _k, statement, *_: sent.append(statement.split()[0]))
    return sent


def test_the_name_read_with_the_bars_is_asked_no_more_in_the_scope(seeded: Registry) -> None:
    sent = _statements(seeded)
    with seeded.read_scope():
        assert seeded.bars_of(RENAMED, ON) == ()
        assert seeded.party_name(RENAMED) == "Nome Atual"
        assert seeded.bars_of(UNKNOWN, ON) == ()
        assert seeded.party_name(UNKNOWN) is None
    assert sent.count("SELECT") == 2
    sent.clear()
    # outside a scope nothing is kept: each lookup reads the registry
    assert seeded.bars_of(NAMELESS, ON) == (
        ("escolar", ON, printed_number("SUS", 4, 2026)),)
    assert seeded.party_name(NAMELESS) is None
    assert sent.count("SELECT") == 2
