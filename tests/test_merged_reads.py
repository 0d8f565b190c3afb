"""The reads a draft's check merges (one statement where it asked two or three), compared
with the reads they replace, on SQLite and PostgreSQL: the bars on a holder with its
registered name (:mod:`lavra.registry.party_bars`); an act by number with its facts and
its annulment (:mod:`lavra.registry.numbered_acts`); a driver by CNH with the person the
draft names (:data:`~lavra.registry.statements.DRIVER_AND_PERSON`); a holder's licences
of every kind beside the other licence questions (:mod:`lavra.registry.licence_reads`)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from lavra.registry.effects import (
    ChangeVehicle,
    DriverRef,
    Grant,
    LicenceStatus,
    PartyRef,
    VehicleRef,
)
from lavra.registry.facts import REVOKED
from lavra.registry.identities import digits, effect_identity_conflicts
from lavra.registry.licence_reads import OF_HOLDER, OF_VEHICLE, LicenceQuestions
from lavra.registry.numbered_acts import numbered_acts
from lavra.registry.party_bars import bars_and_name
from lavra.registry.records import Status, printed_number
from lavra.registry.reversal import ANNULLED
from lavra.registry.statements import (
    BARS_OF,
    DRIVER_AND_PERSON,
    DRIVER_BY_CNH,
    PARTY_BY_DOC,
    PARTY_NAME,
)
from lavra.registry.store import Registry
from lavra.registry.tables import (
    BarRow,
    DocumentRow,
    DriverRow,
    EventRow,
    LicenceRow,
    PartyNameRow,
    PartyRow,
    StateChangeRow,
    VehicleRow,
)

ON = date(2026, 3, 10)
BARRED = "11144477735"       # two bars running (one the same last day), one past
RENAMED = "52998224725"      # renamed, no bar
NAMELESS = "12345678909"     # no name, one bar running
UNKNOWN = "98765432100"      # not in the registry
DOCS = (BARRED, RENAMED, NAMELESS, UNKNOWN)


def _act(ident: int, series: str, number: int | None = None,
         form: str = "auto-teste") -> DocumentRow:
    return DocumentRow(
        id=ident, series=series, year=2026, number=number or ident, form=form, data={},
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
    with registry.write_session() as session:
        session.add_all([_act(i, s) for i, s in ((1, "CAS"), (2, "SUS"), (3, "CAS"), (4, "SUS"))])
        session.add_all([_act(i, s, n, "alvara-teste") for i, s, n in (
            (5, "ALV", 7), (6, "ALX", 7), (7, "ALV", 8), (8, "ALV", 9))])
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
        session.add_all([*_facts(), *_marks()])
        session.add_all([VehicleRow(id=i, placa=p, renavam=r) for i, p, r in VEHICLES])
        session.flush()
        session.add_all([LicenceRow(
            document_id=d, kind="alvara-teste", printed=f"ALV nº {d:04d}/2026", holder_id=1,
            vehicle_id=v, valid_from=date(2026, 1, 1), valid_until=date(2027, 1, 1),
            status=LicenceStatus.ACTIVE.value) for d, v in ((5, 1), (7, 3), (8, 4))])
    try:
        yield registry
    finally:
        registry.close()


VEHICLES = ((1, "ABC1234", "11111111111"),  # a licence; first of its plate
            (2, "ABC1C34", "22222222222"),  # the same plate's other form, no licence
            (3, "DEF5678", None),           # a licence, no RENAVAM registered
            (4, "GHI9J12", "44444444444"),  # a licence
            (5, "XYZ9876", "55555555555"))  # no licence


def _facts() -> list[EventRow]:
    """Two facts on act 5 (the second revoked), one on act 8; an event of no fact kind."""
    at = datetime(2026, 2, 1, 12, tzinfo=UTC)
    return [
        EventRow(id=1, document_id=5, kind="ciencia", actor="ana", at=at, occurred_at=at,
                 data={"meio": "pessoal"}),
        EventRow(id=2, document_id=5, kind="pagamento", actor="ana", at=at, occurred_at=at,
                 data={"valor": "10,00"}),
        EventRow(id=3, document_id=5, kind=REVOKED, actor="bia", at=at, data={"fato": 2},
                 detail="lançado por engano"),
        EventRow(id=4, document_id=8, kind="notificacao", actor="ana", at=at, occurred_at=at),
        EventRow(id=5, document_id=8, kind="emitido", actor="ana", at=at),
    ]


def _marks() -> list[StateChangeRow]:
    """Act 5 annulled by act 1; act 6 by act 2, itself annulled by act 3 (6 stands);
    act 8 marked twice (by 4, by 1)."""
    def mark(target: int, by: int) -> StateChangeRow:
        return StateChangeRow(document_id=target, kind=ANNULLED, on=date(2026, 2, by),
                              detail="Anulado em recurso.",
                              before={"by": by, "printed": f"DEC nº {by:04d}/2026",
                                      "on": date(2026, 2, by).isoformat()})
    return [mark(5, 1), mark(6, 2), mark(2, 3), mark(8, 4), mark(8, 1)]


def _former(registry: Registry, doc: str, on: date) -> tuple[Any, ...]:
    with registry.read_session() as session:
        rows = session.execute(BARS_OF, {"doc": doc, "on": on}).all()
        name = session.scalars(PARTY_NAME, {"doc": doc}).one_or_none()
    return tuple(sorted((s, u, printed_number(se, n, y)) for s, u, se, n, y in rows)), name


def test_bars_and_name_read_what_the_two_reads_did(seeded: Registry) -> None:
    for doc, on in itertools.product(DOCS, (ON, date(2026, 7, 1), date(2028, 1, 1))):
        with seeded.read_session() as session:
            bars, name = bars_and_name(session, doc, on)
        former_bars, former_name = _former(seeded, doc, on)
        assert (tuple(sorted(bars)), name) == (former_bars, former_name), doc
        assert [bar[1] for bar in bars] == sorted(bar[1] for bar in bars)  # by last day
    with seeded.read_session() as session:
        assert bars_and_name(session, BARRED, ON) == ((
            ("escolar", date(2026, 6, 30), printed_number("CAS", 1, 2026)),
            ("fretamento", date(2026, 6, 30), printed_number("CAS", 3, 2026)),
            ("fretamento", date(2027, 1, 1), printed_number("SUS", 2, 2026))),
            "Viação Nova Ltda")


def test_an_act_by_number_reads_its_facts_and_annulment_as_the_three_reads(
        seeded: Registry) -> None:
    sent = _statements(seeded)
    for form, number in (("alvara-teste", 7), ("alvara-teste", 8), ("alvara-teste", 9),
                         ("alvara-teste", 10), ("auto-teste", 2)):
        sent.clear()
        records, facts, annulled = numbered_acts(seeded, form, number, 2026)
        merged = sent.count("SELECT")
        sent.clear()
        former = seeded.numbered(form, number, 2026)
        ids = [r.id for r in former]
        assert records == former
        assert facts == seeded.facts_of(ids)
        assert annulled == seeded.annulled_acts(ids)
        # two statements fewer where an act is found (its facts, its marks)
        assert merged == sent.count("SELECT") - (2 if former else 0)
    records, facts, annulled = numbered_acts(seeded, "alvara-teste", 7, 2026)
    assert [r.series for r in records] == ["ALX", "ALV"]  # the most recent act first
    assert [(f.kind, f.revoked_at is not None) for f in facts[5]] == [
        ("ciencia", False), ("pagamento", True)]
    assert facts[6] == ()
    assert annulled == {5: ("DEC nº 0001/2026", date(2026, 2, 1))}  # 6: its decision undone
    _, facts, annulled = numbered_acts(seeded, "alvara-teste", 9, 2026)
    assert [f.kind for f in facts[8]] == ["notificacao"]
    assert annulled == {8: ("DEC nº 0001/2026", date(2026, 2, 1))}  # the last mark


IDENTITIES = (  # plate, RENAVAM typed, whether the licences' read answers it
    ("ABC1234", "11111111111", True), ("ABC1C34", "111.111.111-11", True),
    ("ABC1234", "22222222222", False), ("GHI9J12", "55555555555", False),
    ("DEF5678", "99999999999", False), ("GHI9J12", "44444444444", True),
    ("XYZ9876", "55555555555", False), ("ABC1234", "", False))
REFUSED = {("ABC1234", "22222222222"), ("GHI9J12", "55555555555")}


def test_the_vehicle_identity_is_answered_from_its_licences_read(seeded: Registry) -> None:
    sent = _statements(seeded)
    for placa, renavam, kept in IDENTITIES:
        effects = [ChangeVehicle(target="ALV nº 0005/2026", vehicle=VehicleRef(placa, renavam),
                                 citation="fretamento#art9")]
        former = [c.error.message for c in effect_identity_conflicts(seeded, effects)]
        with seeded.read_scope():
            answers = seeded.licence_answers(LicenceQuestions(  # with the holder's: a union
                number="ALV nº 0005/2026", holder=BARRED, holder_kind="alvara-teste",
                placa=placa))
            assert answers is not None
            assert answers[OF_VEHICLE] == seeded.licence_views(placa=placa)
            sent.clear()
            merged = [c.error.message for c in effect_identity_conflicts(seeded, effects)]
        assert merged == former, placa
        assert sent.count("SELECT") == (0 if kept or not digits(renavam) else 1), placa
        assert bool(former) == ((placa, digits(renavam)) in REFUSED), placa


CNHS = ("11111111111",  # held by BARRED
        "22222222222",  # a driver whose person the registry does not know
        "99999999999")  # no driver


def _drivers(registry: Registry) -> None:
    with registry.write_session() as session:
        session.add_all([DriverRow(id=1, cnh=CNHS[0], party_id=1),
                         DriverRow(id=2, cnh=CNHS[1], party_id=None)])


def test_a_driver_is_read_with_the_person_as_the_two_reads(seeded: Registry) -> None:
    _drivers(seeded)
    for cnh, doc in itertools.product(CNHS, DOCS):
        with seeded.read_session() as session:
            found = session.execute(DRIVER_AND_PERSON, {"cnh": cnh, "doc": doc}).one_or_none()
            merged = None if found is None else (
                found[0].id, None if found[1] is None else found[1].id)
            driver = session.scalars(DRIVER_BY_CNH, {"cnh": cnh}).one_or_none()
            person = session.scalars(PARTY_BY_DOC, {"doc": doc}).one_or_none()
            former = None if driver is None else (driver.id,
                                                  None if person is None else person.id)
        assert merged == former, (cnh, doc)
    sent = _statements(seeded)
    for cnh, doc, refused in ((CNHS[0], BARRED, False), (CNHS[0], RENAMED, True),
                              (CNHS[0], UNKNOWN, True), (CNHS[1], RENAMED, False),
                              (CNHS[2], RENAMED, False)):
        effects = [Grant(kind="alvara-teste", holder=PartyRef(doc), valid_from=ON,
                         valid_until=None, citation="transporte-escolar#art3",
                         driver=DriverRef(cnh, PartyRef(doc, "Fulano de Tal")))]
        sent.clear()
        found = [c.error.message for c in effect_identity_conflicts(seeded, effects)]
        assert found == ([f"A CNH nº {cnh} consta do cadastro em nome de Viação Nova Ltda, "
                          f"não de {'Nome Atual' if doc == RENAMED else 'Fulano de Tal'}: "
                          "confira o número da CNH."] if refused else []), (cnh, doc)
        # one statement; a refusal reads the CNH's holder for its name
        assert sent.count("SELECT") == (2 if refused else 1), (cnh, doc)


def test_a_holders_licences_of_every_kind_read_with_the_others(seeded: Registry) -> None:
    for doc, placa in itertools.product(DOCS, (None, "ABC1234")):
        answers = seeded.licence_answers(LicenceQuestions(
            number="ALV nº 0007/2026", holder=doc, placa=placa))
        assert answers is not None
        assert answers[OF_HOLDER] == seeded.licence_views(holder=doc), doc
        if placa is not None:
            assert answers[OF_VEHICLE] == seeded.licence_views(placa=placa)
    assert len(seeded.licence_answers(LicenceQuestions(holder=BARRED))[OF_HOLDER]) == 3
    assert seeded.licence_answers(LicenceQuestions(  # of a kind it holds none of
        holder=BARRED, holder_kind="certidao-teste")) == {OF_HOLDER: ()}


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


def test_the_merged_reads_answer_from_an_index(tmp_path: Path) -> None:
    """On SQLite, neither merged read scans a table (the run stays flat as the registry
    grows, issue 24): an empty registry is enough (no statistics, the same plan)."""
    from lavra.registry.store import open_registry

    registry = open_registry(f"sqlite:///{tmp_path / 'registro.sqlite3'}")
    seen: list[tuple[str, Any]] = []
    event.listen(registry.engine, "before_cursor_execute",
                 lambda _c, _k, statement, values, *_: seen.append((statement, values)))
    try:
        with registry.read_scope():
            numbered_acts(registry, "alvara-teste", 7, 2026)
            registry.bars_of(BARRED, ON)
            registry.licence_answers(LicenceQuestions(placa="ABC1234"))
            registry.licence_answers(LicenceQuestions(holder=BARRED))  # of every kind
            with registry.read_session() as session:
                session.execute(DRIVER_AND_PERSON, {"cnh": CNHS[0], "doc": BARRED}).all()
        with registry.engine.connect() as connection:
            plans = [" | ".join(str(row[-1]) for row in connection.exec_driver_sql(
                f"EXPLAIN QUERY PLAN {statement}", values).all())
                for statement, values in seen if statement.startswith("SELECT")]
    finally:
        registry.close()
    assert len(plans) == 5
    assert not [plan for plan in plans if "SCAN" in plan], plans
    assert "ix_licences_holder_id_kind (holder_id=?)" in plans[3], plans
    assert "drivers USING INDEX" in plans[4] and "parties USING INDEX" in plans[4], plans
    assert "ix_documents_number_year" in plans[0]
