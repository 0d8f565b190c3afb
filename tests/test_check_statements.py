"""What one document's check asks the registry in a fretamento renewal run (issue 24):
the statements a worker sends while it checks an item (:meth:`lavra.issuing.Issuer.
prepare`), counted (never timed). Each merged read (:mod:`lavra.registry.party_bars`,
:mod:`lavra.registry.numbered_acts`, the vehicle's identity from its licences,
:mod:`lavra.registry.licence_reads`) is compared with the reads it replaces in
tests/test_merged_reads.py; here, that the check sends no more than they leave."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from batchcases import FRET_RUN_DAY, FRET_UNTIL, REPO, fret_envelope, fret_seed, write_jsonl
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


def test_one_documents_check_sends_six_statements(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    issuer = dev_issuer(Engine(Content(REPO), pool=None), tmp_path / "dados")
    try:
        numbers = fret_seed(issuer, 1)
        pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [fret_envelope(0, numbers[0])])
        request = RunRequest("renovacao-fretamento", {"vencendo_ate": FRET_UNTIL},
                             date.fromisoformat(FRET_RUN_DAY), None, pedidos)
        kind = find_kind(issuer, request.kind)
        run = write_plan(issuer, kind, decide(issuer, kind, request), None)
        sent: list[str] = []
        checking: list[bool] = []
        prepare = lavra.issuing.Issuer.prepare

        def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
            checking.append(True)
            try:
                return prepare(self, *args, **kwargs)
            finally:
                checking.pop()

        def listen(_c: Any, _k: Any, statement: str, *_: Any) -> None:
            if checking:
                sent.append(" ".join(statement.split()[:2]).split("(")[0].split(".")[0])

        monkeypatch.setattr(lavra.issuing.Issuer, "prepare", counted)
        event.listen(issuer.registry.engine, "before_cursor_execute", listen)
        claim_and_record(issuer.registry, run.id,
                         lambda item: build_item(issuer, item, on=run.reference_date),
                         worker="teste")
    finally:
        issuer.close()
    assert tuple(sent) == CHECK
