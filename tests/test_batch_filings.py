"""The renewal run and the requests filed online (issue 24): the act the run issues
settles the filing it answers (``lavra.registry.filing_status.settle_joined``), in the
transaction that records the act; the run's fingerprint covers the filings it reads.
One act answers one request: a run holds the filings its pending items answer, so
«Preparar ato» is refused for them; a draft met by the plan or at record time keeps
the run's act out (``lavra.registry.filing_holds``).

The run is planned with the engine's API and worked in this process
(:func:`lavra.batch.work.work_items`): no worker processes to start. Holders are the
pack's examples one year back (``batchcases``): alvarás of 2025, renewed for 2026 by a
run dated 10/12/2025; the requests are filed on explicit days of December 2025.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from batchcases import (
    FRET_RUN_DAY,
    FRET_UNTIL,
    REPO,
    RUN_DAY,
    YEAR,
    copy_data,
    cpf,
    file_request,
    fret_request,
    fret_seed,
    issuer_over,
    kept_staff_values,
    request,
    seed,
    seeded_folder,
)
from formcases import pdf_text
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

import lavra.batch.planning as planning
import lavra.registry.runs as runs
from lavra.batch.model import RunRequest
from lavra.batch.planning import decide, fingerprint, known_as, same_inputs, write_plan
from lavra.batch.runner import find_kind
from lavra.batch.work import work_items
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.errors import InputError, LavraError
from lavra.issuing import Issuer
from lavra.registry.abandon import abandon
from lavra.registry.filing_holds import FilingHeld
from lavra.registry.filing_status import FilingStatus
from lavra.registry.filings import Attachment, Filed, Filings
from lavra.registry.inbox import Inbox
from lavra.registry.once import RenewalsDone
from lavra.registry.runs import (
    PlannedHolder,
    RunRecord,
    finish_run,
    finished_run,
    list_runs,
    run_items,
)
from lavra.registry.tables import (
    BatchItemRow,
    BatchRenewalRow,
    BatchRunRow,
    DocumentRow,
    DraftRow,
)

KIND = "renovacao-transporte-escolar"
FORM = "requerimento-renovacao-escolar"
ALVARA = "alvara-transporte-escolar"
FRET_KIND, FRET_FORM = "renovacao-fretamento", "requerimento-renovacao-alvara-fretamento"


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
        work_items(issuer, run.id, worker="w1", on=run.reference_date)
        case = Inbox(issuer.registry).case(filing.id)
        assert case is not None and case.status is FilingStatus.RECEIVED
        assert case.act_id is None
        alvara = next(i for i in run_items(issuer.registry, run.id) if i.form == ALVARA)
        assert alvara.status == "pending" and alvara.document_id is None
        assert "Queda simulada" in (alvara.reason or "")
        # Resumed: the act is recorded and the filing decided by it, once.
        monkeypatch.setattr(runs, "settle_joined", real)
        work_items(issuer, run.id, worker="w2", on=run.reference_date)
        work_items(issuer, run.id, worker="w3", on=run.reference_date)  # nothing left
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
        # the processo a protocol opened is printed by its number, without the PROT series
        assert f"processo {protocol.replace('PROT ', '')}" in text
        # the holder who filed nothing is notified
        assert next(i.outcome for i in items if i.position == 1) == "notificado"
    finally:
        issuer.close()


def _run(issuer: Issuer) -> tuple[RunRecord, bool]:
    """What ``run_batch`` does, worked in this process: the finished run of the same
    inputs found again (True), or a new run planned and worked (False)."""
    kind = find_kind(issuer, KIND)
    stamp = fingerprint(issuer, kind, _request())
    earlier = finished_run(issuer.registry, kind.key(_request()), known_as(_request(), stamp))
    if earlier is not None:
        return earlier, True
    run = write_plan(issuer, kind, decide(issuer, kind, _request()), None)
    work_items(issuer, run.id, worker="w", on=run.reference_date)
    return finish_run(issuer.registry, run.id), False


def test_a_request_filed_after_a_run_is_read_by_the_next_and_nothing_twice(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    kind = find_kind(issuer, KIND)
    try:
        _file(issuer, 0, request(0, numbers[0]), 2, licence=numbers[0])
        first, again = _run(issuer)
        assert not again
        assert [i.outcome for i in run_items(issuer.registry, first.id) if i.seq == 0] == [
            "renovado", "notificado"]
        # The run settled the filing it renewed: the same inputs find the same run.
        assert _run(issuer) == (first, True)
        # Holder 1, notified as without a request, files an incomplete one: another
        # act, the notice of what that filing lacks, with its own last day (the first
        # notice stays; lote_protocolos.notice_processo): planned once per filing.
        late = _file(issuer, 1, request(1, numbers[1], missing=("antecedentes_criminais",)), 8)
        stamp = fingerprint(issuer, kind, _request())
        assert stamp != first.fingerprint and same_inputs(first.fingerprint, stamp)
        noticed, again = _run(issuer)
        assert not again and noticed.id != first.id
        items = run_items(issuer.registry, noticed.id)
        notice = next(i for i in items if i.role != "recusado")
        assert notice.outcome == "notificado" and notice.data is not None
        assert notice.data["processo"] == {"numero": late}
        pending = Filings(issuer.registry).by_protocol(late)
        assert pending is not None and pending.status == FilingStatus.PENDING
        # the same filing is not notified twice, whichever command asks: the same
        # inputs find the run; other inputs meet the constraint
        assert _run(issuer) == (noticed, True)
        with pytest.raises(RenewalsDone) as done:
            write_plan(issuer, kind, replace(decide(issuer, kind, _request()),
                                             fingerprint="f" * 64), None)
        assert f"na execução nº {noticed.id}" in done.value.message
        assert late in done.value.message
        # Then a complete one: renewed by a new run, which reports the replaced request.
        _file(issuer, 1, request(1, numbers[1]), 9)
        second, again = _run(issuer)
        assert not again and second.id != first.id
        items = run_items(issuer.registry, second.id)
        assert [(i.form, i.outcome) for i in items if i.role != "recusado"] == [
            (ALVARA, "renovado"), ("selo-identificacao", "renovado")]
        replaced = next(i for i in items if i.holder == f"protocolo {late}")
        assert "foi substituído pelo do protocolo" in (replaced.reason or "")
        # and the same inputs again plan nothing new
        assert _run(issuer) == (second, True)
        assert len(list_runs(issuer.registry)) == 3
    finally:
        issuer.close()


def test_a_fretamento_filing_waits_for_the_conferencia_of_its_documents(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    try:
        printed = fret_seed(issuer, 1)[0]
        company = issuer.registry.by_number(printed.split("nº ")[1], series="ALV-FRET")
        assert company is not None and company.cpf_cnpj
        protocol = file_request(
            issuer, FRET_FORM, fret_request(0, printed), company.cpf_cnpj, "Empresa",
            datetime(2025, 11, 20, 14, 0, tzinfo=UTC), attachments=(
                Attachment("/documentos/crlv", "crlv.pdf", b"%PDF-1.4 CRLV"),
                Attachment("/documentos/inspecao_veicular", "laudo.pdf", b"%PDF-1.4 L")))
        filing = Filings(issuer.registry).by_protocol(protocol)
        assert filing is not None
        kind = find_kind(issuer, FRET_KIND)
        run = RunRequest(FRET_KIND, {"vencendo_ate": FRET_UNTIL},
                         date.fromisoformat(FRET_RUN_DAY))

        def decided() -> PlannedHolder:
            (holder,) = decide(issuer, kind, run).holders
            return holder

        # Nobody checked the documents yet: held, nothing issued nor notified.
        waiting = decided()
        assert (waiting.outcome, waiting.outputs) == ("recusado", ())
        assert waiting.reason is not None and (
            f"Pedido do protocolo {protocol} aguardando conferência dos documentos pela "
            "SETRANSV (art. 7º com o art. 8º)") in waiting.reason
        inbox = Inbox(issuer.registry)
        crlv, laudo = filing.attachments
        before = fingerprint(issuer, kind, run)
        # One accepted, one refused with its last day: still held, saying what and until.
        inbox.review(filing.id, crlv.id, accepted=True, reason=None, deadline=None,
                     by="Clara Conferente", now=datetime(2025, 11, 21, 13, tzinfo=UTC))
        inbox.review(filing.id, laudo.id, accepted=False, reason="Laudo ilegível.",
                     deadline=date(2025, 12, 5), by="Clara Conferente",
                     titles={laudo.item: "Laudo de inspeção veicular"},
                     now=datetime(2025, 11, 21, 14, tzinfo=UTC))
        assert fingerprint(issuer, kind, run) != before  # a review is a change the run sees
        refused = decided()
        assert refused.outcome == "recusado" and refused.reason is not None
        assert ("recusado(s) na conferência pela SETRANSV (Laudo de inspeção veicular: Laudo "
                "ilegível.), a reapresentar até 05/12/2025") in refused.reason
        # Every document accepted: the last acceptance is the conferência, who and when.
        inbox.review(filing.id, laudo.id, accepted=True, reason=None, deadline=None,
                     by="Rui Conferente", now=datetime(2025, 11, 24, 15, tzinfo=UTC))
        renewed = decided()
        assert renewed.outcome == "renovado", renewed.reason
        (alvara,) = renewed.outputs
        assert alvara.data["processo"]["conferencia_requerimento"] == {
            "responsavel": "Rui Conferente", "data": "2025-11-24", "completo": True}
        planned = write_plan(issuer, kind, decide(issuer, kind, run), None)
        work_items(issuer, planned.id, worker="w", on=planned.reference_date)
        (item,) = run_items(issuer.registry, planned.id)
        assert item.done and item.document_id is not None
        text = " ".join(pdf_text(issuer.registry.pdf(item.document_id)).split())
        printed = protocol.replace("PROT ", "")  # without the PROT series
        assert f"processo {printed}, conferido completo em 24/11/2025 por Rui Conferente" \
            in text
        case = inbox.case(filing.id)
        assert case is not None and case.status is FilingStatus.DECIDED
        assert case.act_id == item.document_id
    finally:
        issuer.close()


def test_a_notice_in_the_processo_makes_the_filing_pending_until_its_last_day(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """The notice branch of settle_joined, on the registry alone: an act the caller says
    is a notice, in the filing's processo (here its receipt, which opened it)."""
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    try:
        protocol = _file(issuer, 0, request(0, seeded[1][0]), 2)
        filing = Filings(issuer.registry).by_protocol(protocol)
        assert filing is not None
        moment = datetime(2025, 12, 10, 12, tzinfo=UTC)
        with issuer.registry.write_session() as session:
            runs.settle_joined(session, filing.receipt.id, moment, notice=True,
                               computed={"prazo_final": "2025-12-31"}, by="Execução 1")
        case = Inbox(issuer.registry).case(filing.id)
        assert case is not None and case.status is FilingStatus.PENDING
        assert (case.deadline, case.act_id) == (date(2025, 12, 31), None)
        with issuer.registry.write_session() as session:  # then the decision
            runs.settle_joined(session, filing.receipt.id, moment, notice=False,
                               computed={}, by="Execução 2")
        case = Inbox(issuer.registry).case(filing.id)
        assert case is not None and case.status is FilingStatus.DECIDED
        assert (case.deadline, case.act_id) == (None, filing.receipt.id)
    finally:
        issuer.close()


def test_the_notice_of_a_filed_request_joins_its_processo_and_the_filing_is_pending(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    try:
        protocol = _file(issuer, 0, request(0, numbers[0], missing=("antecedentes_criminais",)),
                         3, licence=numbers[0])
        filing = Filings(issuer.registry).by_protocol(protocol)
        assert filing is not None
        run, again = _run(issuer)
        assert not again
        notices = [i for i in run_items(issuer.registry, run.id)
                   if i.form == "notificacao-pendencias-renovacao"]
        assert [i.outcome for i in notices] == ["notificado", "notificado"]
        filed, absent = notices
        assert filed.data is not None and filed.data["processo"] == {"numero": protocol}
        assert absent.data is not None and "processo" not in absent.data
        text = " ".join(pdf_text(issuer.registry.pdf(filed.document_id or 0)).split())
        assert f"protocolizado em 03/12/2025 (processo {protocol.replace('PROT ', '')})" in text
        # the applicant's tracking page finds the notice in the processo; the inbox shows
        # the filing pending until the notice's last day (art. 13: 31/12/2025)
        assert [a.id for a in Filings(issuer.registry).acts(filing)] == [filed.document_id]
        case = Inbox(issuer.registry).case(filing.id)
        assert case is not None and case.status is FilingStatus.PENDING
        assert (case.deadline, case.act_id) == (date(2025, 12, 31), None)
    finally:
        issuer.close()


def test_two_planners_racing_with_different_filings_plan_one_run_and_the_next_reads_the_rest(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """Two planners of the same run decide before either writes, the second after one
    more request was filed: the loser gets the winner's run (the same inputs, only the
    filings differ), not a refusal; the request only it read is read by the next run,
    and no notice is sent twice."""
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    kind = find_kind(issuer, KIND)
    try:
        _file(issuer, 0, request(0, numbers[0]), 2, licence=numbers[0])
        first = decide(issuer, kind, _request())
        _file(issuer, 1, request(1, numbers[1]), 3, licence=numbers[1])
        second = decide(issuer, kind, _request())
        assert first.fingerprint != second.fingerprint
        won = write_plan(issuer, kind, first, None)
        lost = write_plan(issuer, kind, second, None)
        assert lost == won and lost.fingerprint == first.fingerprint
        assert len(list_runs(issuer.registry)) == 1
        work_items(issuer, won.id, worker="w", on=won.reference_date)
        finish_run(issuer.registry, won.id)
        assert [i.outcome for i in run_items(issuer.registry, won.id) if i.seq == 0] == [
            "renovado", "notificado"]
        # the next run reads holder 1's request: renewed, nobody notified again
        after, again = _run(issuer)
        assert not again and after.id != won.id
        issued = [(i.form, i.outcome) for i in run_items(issuer.registry, after.id)
                  if i.role != "recusado"]
        assert issued == [(ALVARA, "renovado"), ("selo-identificacao", "renovado")]
        assert _run(issuer) == (after, True)
    finally:
        issuer.close()


def test_a_run_finished_before_filings_counted_is_found_again_after_the_upgrade(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """A run planned before the fingerprint covered filings carries the whole inputs'
    digest; the same command after the upgrade, with no filing in the period, finds
    that finished run instead of planning one that refuses everything."""
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    try:
        first, again = _run(issuer)
        assert not again
        legacy = planning._inputs_digest(_request())
        assert first.fingerprint != legacy
        with issuer.registry.write_session() as session:
            session.execute(update(BatchRunRow).where(BatchRunRow.id == first.id)
                            .values(fingerprint=legacy))
        found, again = _run(issuer)
        assert again and found.id == first.id and found.fingerprint == legacy
        assert len(list_runs(issuer.registry)) == 1
        # a request filed since is another input: a new run reads it
        numbers = seeded[1]
        _file(issuer, 1, request(1, numbers[1]), 8, licence=numbers[1])
        assert known_as(_request(), fingerprint(issuer, find_kind(issuer, KIND),
                                                _request())) == (
            fingerprint(issuer, find_kind(issuer, KIND), _request()),)
    finally:
        issuer.close()


def test_a_filing_whose_act_staff_are_preparing_is_left_to_that_act(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """A filing from which staff prepared the act in the inbox ("Preparar ato") is
    reported by the run, naming the draft, and nothing is issued nor notified for it;
    once the draft is discarded, the next run takes the filing."""
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    kind = find_kind(issuer, KIND)
    try:
        protocol = _file(issuer, 0, request(0, numbers[0]), 2, licence=numbers[0])
        filing = Filings(issuer.registry).by_protocol(protocol)
        assert filing is not None
        draft = issuer.registry.save_draft(ALVARA, {"nome": "Titular Exemplo 0000"},
                                           title="Renovação", by="Clara")
        Inbox(issuer.registry).prepared(filing.id, draft_id=draft.id, by="Clara")
        plan = decide(issuer, kind, _request())
        held = plan.holders[0]
        assert not held.outputs and held.outcome == "recusado"
        assert f"ato em preparação pela equipe: minuta nº {draft.id}" in (held.reason or "")
        assert "Nada foi emitido nem notificado" in (held.reason or "")
        # the holder without a request is still notified
        assert [h.outcome for h in plan.holders if h.outputs] == ["notificado"]
        issuer.registry.discard_draft(draft.id, version=draft.version, by="Clara")
        after = decide(issuer, kind, _request())
        assert [h.outcome for h in after.holders if h.outputs] == ["renovado", "notificado"]
    finally:
        issuer.close()


# ------------------------------------------ one act per request: the run or «Preparar ato»
# (lavra.registry.filing_holds): a run holds the filings its pending items answer.
ROLE = "secretario-transportes"


def _filed(issuer: Issuer, numbers: list[str]) -> Filed:
    protocol = file_request(issuer, FORM, request(0, numbers[0]), cpf(0),
                            "Titular Exemplo 0000", datetime(2025, 12, 2, 14, 0, tzinfo=UTC),
                            licence=numbers[0])
    filing = Filings(issuer.registry).by_protocol(protocol)
    assert filing is not None
    return filing


def _prepare(issuer: Issuer, filing: Filed) -> Any:
    return Inbox(issuer.registry).prepare(
        filing.id, ALVARA, {"nome": "Titular Exemplo 0000"}, title="Renovação",
        signer_role=ROLE, by="Clara Redatora")


def _drafts(issuer: Issuer) -> int:
    with issuer.registry.read_session() as session:
        return int(session.scalar(select(func.count()).select_from(DraftRow)) or 0)


def test_preparar_ato_is_refused_while_the_run_holds_the_filing(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    kind = find_kind(issuer, KIND)
    try:
        filing = _filed(issuer, numbers)
        run = write_plan(issuer, kind, decide(issuer, kind, _request()), None)
        items = [i for i in run_items(issuer.registry, run.id) if i.position == 0]
        assert [i.form for i in items] == [ALVARA, "selo-identificacao"]
        with issuer.registry.read_session() as session:
            held = session.scalars(select(BatchItemRow.filing_id).where(
                BatchItemRow.run_id == run.id).order_by(BatchItemRow.position,
                                                        BatchItemRow.seq)).all()
        assert held == [filing.id, filing.id, None, None]  # who filed nothing: none
        before = _drafts(issuer)
        with pytest.raises(FilingHeld) as refused:
            _prepare(issuer, filing)
        reserved = ", ".join(i.printed or "" for i in items)
        assert refused.value.message == (
            f"O requerimento {filing.protocol} está no lote de renovação nº {run.id} em "
            f"andamento (item 1, com o(s) número(s) {reserved} reservado(s)); aguarde o "
            "fim do lote ou abandone o item na página do lote. Nenhuma minuta foi criada.")
        assert _drafts(issuer) == before  # nothing half-written
        case = Inbox(issuer.registry).case(filing.id)
        assert case is not None and case.draft_id is None
        # the older entry point (a draft saved apart, then linked) is refused the same way
        draft = issuer.registry.save_draft(ALVARA, {}, title="Renovação", by="Clara")
        with pytest.raises(FilingHeld):
            Inbox(issuer.registry).prepared(filing.id, draft_id=draft.id, by="Clara")

        # abandoning the item ends the hold: staff may then prepare the act
        abandon(issuer.registry, run.id, position=0, reason="Pedido será decidido na "
                "caixa de protocolos.", by="Clara Redatora")
        prepared = _prepare(issuer, filing)
        case = Inbox(issuer.registry).case(filing.id)
        assert case is not None and case.draft_id == prepared.id
        assert prepared.status.value == "encaminhado" and prepared.signer_role == ROLE
        with pytest.raises(InputError, match=f"minuta nº {prepared.id}"):
            _prepare(issuer, filing)  # one open draft per filing, under the same lock
    finally:
        issuer.close()


def test_a_draft_prepared_before_the_plan_is_written_keeps_the_holder_out_of_it(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """The run decided before staff prepared the act; its plan, written after, reads the
    draft under the filing's lock: nothing numbered for that holder."""
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    kind = find_kind(issuer, KIND)
    try:
        filing = _filed(issuer, numbers)
        plan = decide(issuer, kind, _request())
        assert [h.filing for h in plan.holders] == [filing.protocol, None]
        draft = _prepare(issuer, filing)
        run = write_plan(issuer, kind, plan, None)
        items = run_items(issuer.registry, run.id)
        first = [i for i in items if i.position == 0]
        assert len(first) == 1 and first[0].role == "recusado" and first[0].number is None
        assert f"tem ato em preparação pela equipe (minuta nº {draft.id})" in (
            first[0].reason or "")
        assert {i.outcome for i in items if i.position == 1} == {"notificado"}
        assert issuer.registry.numbering_gaps() == ()
    finally:
        issuer.close()


def test_a_draft_met_at_record_time_voids_the_runs_numbers_and_one_act_decides(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """A run planned before runs held filings (its items name none: the state of a
    registry upgraded with a run unfinished) meets, when its worker records the
    alvará, the act staff prepared meanwhile: the run's act is not recorded, its
    holder's numbers are voided with the reason, and the draft alone decides."""
    numbers = seeded[1]
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    kind = find_kind(issuer, KIND)
    try:
        filing = _filed(issuer, numbers)
        run = write_plan(issuer, kind, decide(issuer, kind, _request()), None)
        with issuer.registry.write_session() as session:
            session.execute(update(BatchItemRow).where(BatchItemRow.run_id == run.id)
                            .values(filing_id=None))
        draft = _prepare(issuer, filing)
        work_items(issuer, run.id, worker="w", on=run.reference_date)
        assert finish_run(issuer.registry, run.id).status == "done"
        items = run_items(issuer.registry, run.id)
        voided = [i for i in items if i.position == 0]
        assert [i.status for i in voided] == ["abandoned", "abandoned"]
        for item in voided:
            assert item.series and item.year and item.number and item.document_id is None
            void = issuer.registry.voided(item.series, item.year, item.number)
            assert void is not None
            assert f"minuta nº {draft.id}, antes que o lote o emitisse" in void.reason
            assert "um só ato decide o requerimento" in void.reason
            assert f"O número {item.printed}" in (item.reason or "")
        with issuer.registry.read_session() as session:
            recorded = session.scalars(select(DocumentRow.form)).all()
        assert recorded.count(ALVARA) == 2  # the two seeded alvarás: none by the run
        assert {i.outcome for i in items if i.position == 1 and i.done} == {"notificado"}
        case = Inbox(issuer.registry).case(filing.id)
        assert case is not None and case.status is not FilingStatus.DECIDED
        assert case.act_id is None and case.draft_id == draft.id
        assert issuer.registry.numbering_gaps() == ()
    finally:
        issuer.close()


# ------------------------------------------------------------ the planner race, real processes
def _plan_in_child(engine: Engine, data: Path, url: str, day: str, barrier: Any,
                   out: Any) -> None:
    """A planner process (forked: the pack already loaded): its own registry connection,
    decide, wait for the other planner, write the plan; the outcome on ``out``."""
    issuer = issuer_over(engine, data, url)
    try:
        kind = find_kind(issuer, KIND)
        plan = decide(issuer, kind, RunRequest(KIND, {"ano": YEAR}, date.fromisoformat(day)))
        barrier.wait(60)
        run = write_plan(issuer, kind, plan, f"planejador {day}")
        out.put(("planejado", run.id, run.fingerprint))
    except LavraError as error:
        out.put(("recusado", error.message, ""))
    finally:
        issuer.close()


def test_two_planner_processes_plan_each_holder_once(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path, registry_url: str
) -> None:
    """The same renewal planned by two processes at the same moment, with other inputs
    (the same command two days later): exactly one run, each holder planned once (the
    renewal of the one who filed, and its filing held, by that run alone; the notice of
    the other once); the other process gets a pt-BR refusal naming the winning run."""
    data = copy_data(seeded[0], tmp_path)  # the SQLite registry_url's folder
    url, numbers = registry_url, seeded[1]
    if url.startswith("postgresql"):
        seeding = issuer_over(engine, data, url)
        numbers = seed(seeding, 2)
        seeding.close()
    issuer = issuer_over(engine, data, url)
    try:
        protocol = _file(issuer, 0, request(0, numbers[0]), 2, licence=numbers[0])
        filing = Filings(issuer.registry).by_protocol(protocol)
        assert filing is not None
    finally:
        issuer.close()
    context = multiprocessing.get_context("fork")
    barrier, out = context.Barrier(2), context.Queue()
    planners = [context.Process(target=_plan_in_child,
                                args=(engine, data, url, day, barrier, out))
                for day in (RUN_DAY, "2025-12-12")]
    for planner in planners:
        planner.start()
    outcomes = sorted(out.get(timeout=180) for _ in planners)
    for planner in planners:
        planner.join(60)
        assert planner.exitcode == 0
    (won, run_id, _), (lost, message, _) = outcomes
    assert (won, lost) == ("planejado", "recusado"), outcomes
    # as unfinished (the winner committed before the loser read), or as done (both read
    # none: the planned-once constraint refused the loser's holders)
    assert (f"execução nº {run_id}, planejada com outros arquivos" in str(message)) or (
        f"nº {run_id}" in str(message) and "Nenhum documento" in str(message)), message
    issuer = issuer_over(engine, data, url)
    try:
        assert [r.id for r in list_runs(issuer.registry)] == [run_id]
        items = run_items(issuer.registry, int(run_id))
        assert [(i.position, i.form) for i in items if i.series] == [
            (0, ALVARA), (0, "selo-identificacao"), (1, "notificacao-pendencias-renovacao")]
        with issuer.registry.read_session() as session:
            held = session.execute(select(BatchItemRow.run_id, BatchItemRow.filing_id)
                                   .where(BatchItemRow.filing_id.is_not(None))).all()
            renewals = session.scalar(select(func.count()).select_from(BatchRenewalRow))
        assert {tuple(row) for row in held} == {(run_id, filing.id)}
        assert renewals == 2
        assert issuer.registry.numbering_gaps() == ()
    finally:
        issuer.close()
