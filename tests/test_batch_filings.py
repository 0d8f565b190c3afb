"""The renewal run and the requests filed online (issue 24): the act the run issues
settles the filing it answers (``lavra.registry.filing_status.settle_joined``), in the
transaction that records the act; the run's fingerprint covers the filings it reads.

The run is planned with the engine's API and worked in this process
(:func:`lavra.batch.work.work_items`): no worker processes to start. Holders are the
pack's examples one year back (``batchcases``): alvarás of 2025, renewed for 2026 by a
run dated 10/12/2025; the requests are filed on explicit days of December 2025.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from batchcases import (
    REPO,
    RUN_DAY,
    YEAR,
    copy_data,
    cpf,
    file_request,
    issuer_over,
    kept_staff_values,
    request,
    seeded_folder,
)
from formcases import pdf_text
from sqlalchemy.orm import Session

import lavra.registry.runs as runs
from lavra.batch.model import RunRequest
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.batch.work import work_items
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.errors import LavraError
from lavra.issuing import Issuer
from lavra.registry.filing_status import FilingStatus
from lavra.registry.filings import Filings
from lavra.registry.inbox import Inbox
from lavra.registry.runs import run_items

KIND = "renovacao-transporte-escolar"
FORM = "requerimento-renovacao-escolar"
ALVARA = "alvara-transporte-escolar"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


@pytest.fixture(autouse=True)
def _staff_values_of_the_module(engine: Engine) -> Iterator[None]:
    yield from kept_staff_values(engine)


@pytest.fixture(scope="module")
def seeded(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    return seeded_folder(engine, tmp_path_factory.mktemp("semente"), 2)


def _file(issuer: Issuer, n: int, data: dict[str, Any], day: int,
          licence: str | None = None) -> str:
    return file_request(issuer, FORM, data, cpf(n), f"Titular Exemplo {n:04d}",
                        datetime(2025, 12, day, 14, 0, tzinfo=UTC), licence=licence)


def _request() -> RunRequest:
    return RunRequest(KIND, {"ano": YEAR}, date.fromisoformat(RUN_DAY))


def test_the_renewed_alvara_decides_its_filing_once_and_only_when_recorded(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    try:
        protocol = _file(issuer, 0, request(0, numbers[0]), 2, licence=numbers[0])
        filing = Filings(issuer.registry).by_protocol(protocol)
        assert filing is not None
        kind = find_kind(issuer, KIND)
        run = write_plan(issuer, kind, decide(issuer, kind, _request()), None)
        real = runs.settle_joined

        def dies_after_linking(session: Session, document_id: int, *args: Any,
                               **kwargs: Any) -> None:
            real(session, document_id, *args, **kwargs)
            if not kwargs["notice"]:
                raise LavraError("Queda simulada depois de ligar o protocolo ao ato.")

        # The process "dies" inside the transaction right after the link: nothing of the
        # alvará is kept, neither the act nor the filing's decision.
        monkeypatch.setattr(runs, "settle_joined", dies_after_linking)
        work_items(issuer, run.id, worker="w1")
        case = Inbox(issuer.registry).case(filing.id)
        assert case is not None and case.status is FilingStatus.RECEIVED
        assert case.act_id is None
        alvara = next(i for i in run_items(issuer.registry, run.id) if i.form == ALVARA)
        assert alvara.status == "pending" and alvara.document_id is None
        assert "Queda simulada" in (alvara.reason or "")
        # Resumed: the act is recorded and the filing decided by it, once.
        monkeypatch.setattr(runs, "settle_joined", real)
        work_items(issuer, run.id, worker="w2")
        work_items(issuer, run.id, worker="w3")  # nothing left: nothing linked again
        items = run_items(issuer.registry, run.id)
        assert all(i.done for i in items)
        alvara = next(i for i in items if i.form == ALVARA)
        case = Inbox(issuer.registry).case(filing.id)
        assert case is not None and case.status is FilingStatus.DECIDED
        assert case.act_id == alvara.document_id
        # the applicant's tracking page reads the processo: the act is there, with its PDF
        acts = Filings(issuer.registry).acts(filing)
        assert [a.id for a in acts if a.form == ALVARA] == [alvara.document_id]
        text = " ".join(pdf_text(issuer.registry.pdf(alvara.document_id or 0)).split())
        assert protocol in text
        # the holder who filed nothing is notified
        assert next(i.outcome for i in items if i.position == 1) == "notificado"
    finally:
        issuer.close()
