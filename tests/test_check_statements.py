"""What one document's check asks the registry in a renewal run (issue 24), fretamento
and the school run (its alvará and its selo): the statements a worker sends while it
checks an item (:meth:`lavra.issuing.Issuer.prepare`), counted (never timed). Each
merged read (:mod:`lavra.registry.party_bars`, :mod:`lavra.registry.numbered_acts`, the
vehicle's identity from its licences, :mod:`lavra.registry.licence_reads`, the driver
with the person, :data:`lavra.registry.statements.DRIVER_AND_PERSON`) is compared with
the reads it replaces in tests/test_merged_reads.py; here, that the check sends no more
than they leave."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from batchcases import (
    FRET_RUN_DAY,
    FRET_UNTIL,
    REPO,
    RUN_DAY,
    YEAR,
    envelope,
    fret_envelope,
    fret_seed,
    seed,
    write_jsonl,
)
from issuers import dev_issuer
from sqlalchemy import event

import lavra.issuing
from lavra.batch.model import RunRequest
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.batch.work import build_item
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.registry.runs import claim_and_record

CHECK = ("BEGIN",               # the item's read transaction (SQLite)
         "SELECT count",        # the staff values' stamp
         "SELECT licences",     # the three licences (licence_reads), the plate's RENAVAM
         "SELECT documents",    # the act renewed, its facts, its annulment (numbered_acts)
         "SELECT parties",      # the holder's bars and registered name (party_bars)
         "SELECT documents")    # what the act's dates rest on (rests_on_dates)

SCHOOL_ALVARA = (
    "BEGIN", "SELECT count",
    "SELECT licences",       # the alvará renewed, the vehicle's, the titular's (leituras)
    "SELECT documents",      # the alvará renewed, its facts, its annulment
    "SELECT documents",      # the selo the alvará prints, by its number
    "SELECT companion_numbers", "SELECT voided_numbers", "SELECT batch_items",
    "SELECT counters",       # the selo's number: reserved for this alvará
    "SELECT documents",      # what the act's dates rest on
    "SELECT parties", "SELECT parties",  # the names of the titular and the auxiliar
    "SELECT drivers", "SELECT drivers")  # each CNH with its person (DRIVER_AND_PERSON)
SCHOOL_SELO = (
    "BEGIN", "SELECT count",
    "SELECT licences",       # the alvará, the vehicle's licences and RENAVAM (leituras)
    "SELECT documents",      # the alvará, its facts, its annulment
    "SELECT documents",      # the selos in force on the vehicle
    "SELECT documents",      # what the act's dates rest on
    "SELECT parties")        # the titular's name


def _checked(issuer: Any, request: RunRequest, monkeypatch: pytest.MonkeyPatch
             ) -> dict[str, tuple[str, ...]]:
    """The statements each form's check sends in the run of ``request`` (one holder)."""
    kind = find_kind(issuer, request.kind)
    run = write_plan(issuer, kind, decide(issuer, kind, request), None)
    sent: dict[str, list[str]] = {}
    checking: list[str] = []
    prepare = lavra.issuing.Issuer.prepare

    def counted(self: Any, form: str, *args: Any, **kwargs: Any) -> Any:
        checking.append(form)
        sent[form] = []
        try:
            return prepare(self, form, *args, **kwargs)
        finally:
            checking.pop()

    def listen(_c: Any, _k: Any, statement: str, *_: Any) -> None:
        if checking:
            sent[checking[-1]].append(
                " ".join(statement.split()[:2]).split("(")[0].split(".")[0])

    monkeypatch.setattr(lavra.issuing.Issuer, "prepare", counted)
    event.listen(issuer.registry.engine, "before_cursor_execute", listen)
    while claim_and_record(issuer.registry, run.id,
                           lambda item: build_item(issuer, item, on=run.reference_date),
                           worker="teste") is not None:
        pass
    return {form: tuple(statements) for form, statements in sent.items()}


def _request(issuer: Any, run: str, folder: Path) -> RunRequest:
    """The renewal run ``run`` of one holder, seeded into ``issuer``."""
    if run == "fretamento":
        pedidos = write_jsonl(folder / "pedidos.jsonl",
                              [fret_envelope(0, fret_seed(issuer, 1)[0])])
        return RunRequest("renovacao-fretamento", {"vencendo_ate": FRET_UNTIL},
                          date.fromisoformat(FRET_RUN_DAY), None, pedidos)
    pedidos = write_jsonl(folder / "pedidos.jsonl", [envelope(0, seed(issuer, 1)[0])])
    return RunRequest("renovacao-transporte-escolar", {"ano": YEAR},
                      date.fromisoformat(RUN_DAY), None, pedidos)


@pytest.mark.parametrize(("run", "expected"), [
    # fretamento: 6 statements (10 before the merged reads)
    ("fretamento", {"alvara-fretamento": CHECK}),
    # the school run: the alvará 14 (19 before its licences were read at once and each
    # CNH with its person), the selo 7 (8 before its vehicle's RENAVAM came with the
    # alvará's read)
    ("escolar", {"alvara-transporte-escolar": SCHOOL_ALVARA,
                 "selo-identificacao": SCHOOL_SELO}),
])
def test_one_holders_checks_send_what_the_merged_reads_leave(
        run: str, expected: dict[str, tuple[str, ...]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    issuer = dev_issuer(Engine(Content(REPO), pool=None), tmp_path / "dados")
    try:
        sent = _checked(issuer, _request(issuer, run, tmp_path), monkeypatch)
    finally:
        issuer.close()
    assert sent == expected
