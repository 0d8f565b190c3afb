"""A whole batch run: plan (or resume), work, write the files, finish.

    summary = run_batch(issuer, kind, request, folder, database_url=url, workers=2)

The same command resumes an interrupted run: the unfinished run of the same key is
found in the registry and its pending items worked; nothing is planned twice. Run
again after the end, with the same inputs, it finds the finished run and only writes
its files again (no holder is renewed or notified twice); other inputs (requests that
arrived since) plan a new run of the same key. With
``simulate`` nothing is numbered, recorded or written: the summary says what would be
issued, with the numbers the documents would take if the run were planned now, and whom
the run would skip and why (a refused line; a holder an earlier run of the same period
already renewed or notified, naming that run and its numbers).
With ``docx`` every signed document is also issued as an editable DOCX, written beside
its PDF (see :func:`lavra.batch.output.write_outputs`). With ``own_folder`` (the command
line) the files go to the run's own subfolder, ``execucao-NNNN`` by run number
(:func:`lavra.batch.output.run_folder`), so that a later run into the same folder never
overwrites an earlier run's files; the web gives each run a folder of its own already.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lavra.batch.forked import in_forked_child
from lavra.batch.model import BatchRun, RunRequest
from lavra.batch.output import SummaryRow, counts, run_folder, summary_rows, write_outputs
from lavra.batch.planning import (
    decide,
    fingerprint,
    known_as,
    preview_numbers,
    same_inputs,
    skip_planned,
    write_plan,
)
from lavra.batch.warming import warm_checks
from lavra.batch.work import Progress, WorkerSetup, can_fork, run_workers, warm_for_fork
from lavra.errors import InputError
from lavra.issuing import Issuer
from lavra.registry.runs import (
    DOCUMENT,
    REFUSED,
    ItemRecord,
    RunRecord,
    finish_run,
    finished_run,
    open_run,
    run_items,
)
from lavra.signers import SignerKey

__all__ = ["Summary", "check_signer", "find_kind", "planned", "run_batch"]


@dataclass(frozen=True)
class Summary:
    """What the run did (or, simulated, would do)."""

    run: RunRecord | None
    resumed: bool
    simulated: bool
    rows: tuple[SummaryRow, ...]
    folder: Path | None = None
    """Where the run's files were written (none for a dry run)."""

    @property
    def counts(self) -> Mapping[str, int]:
        return counts(self.rows)

    @property
    def complete(self) -> bool:
        return self.simulated or self.counts.get("pendentes", 0) == 0


def find_kind(issuer: Issuer, name: str) -> BatchRun:
    runs = issuer.engine.content.pack.batch_runs
    if name not in runs:
        known = ", ".join(sorted(runs)) or "nenhuma"
        raise InputError(
            f"Execução em lote desconhecida: «{name}». Execuções do pacote: {known}.",
            field="/execucao",
        )
    return runs[name]


def check_signer(issuer: Issuer, kind: BatchRun, signer: SignerKey) -> None:
    """Unlock the signer's key once, at the start, for every role the run signs in: a
    wrong password, or a certificate issued for another role, stops the run before
    anything is planned or numbered. The workers sign every act with the same key."""
    forms = issuer.engine.content.forms
    for role in sorted({r for f in kind.forms if f in forms
                        if (r := forms[f].signer_role) is not None}):
        issuer.signers.for_key(signer, role)


def _documents(items: list[ItemRecord] | tuple[ItemRecord, ...],
               docx: bool) -> set[tuple[int, int]]:
    """The items a dry run with ``docx`` foresees a DOCX for: its signed documents."""
    return {(i.position, i.seq) for i in items if docx and i.role == DOCUMENT}


def _simulated(issuer: Issuer, kind: BatchRun, request: RunRequest, docx: bool) -> Summary:
    key = kind.key(request)
    stamp = fingerprint(issuer, kind, request)
    earlier = open_run(issuer.registry, key) or finished_run(
        issuer.registry, key, known_as(request, stamp))
    if earlier is not None:
        found = run_items(issuer.registry, earlier.id)
        return Summary(earlier, True, True, summary_rows(
            found, [i.printed for i in found], _documents(found, docx)))
    plan = skip_planned(issuer, decide(issuer, kind, request))
    numbers = preview_numbers(issuer, plan)
    items: list[ItemRecord] = []
    expected: list[str | None] = []
    for position, (holder, printed) in enumerate(zip(plan.holders, numbers, strict=True)):
        final = kind.link(holder, printed) if holder.outputs else holder
        outputs = final.outputs or (None,)
        for seq, out in enumerate(outputs):
            items.append(ItemRecord(
                0, 0, position, seq, final.holder, final.name, final.outcome,
                REFUSED if out is None else out.role, None if out is None else out.form,
                None, None, None, None if out is None else out.data, final.reason,
                None if out is None else out.file, "pending", None,
            ))
            expected.append(printed[seq] if out is not None else None)
    return Summary(None, False, True, summary_rows(items, expected, _documents(items, docx)))


def _plan(issuer: Issuer, kind: BatchRun, request: RunRequest,
          actor: str | None) -> tuple[RunRecord, bool]:
    plan = decide(issuer, kind, request)
    run = write_plan(issuer, kind, plan, actor)
    return run, run.fingerprint != plan.fingerprint


def planned(issuer: Issuer, kind: BatchRun, request: RunRequest,
             actor: str | None) -> tuple[RunRecord, bool]:
    """The run planned, and whether it is another planner's (of the same inputs, that
    won the race: worked with it). Where the workers are to be forked, the plan is made
    in a forked child (:mod:`lavra.batch.forked`): the memory it takes goes with the
    child, and the workers, forked from this process, do not inherit it (≈ 40 MiB
    each at 1,000 holders); the caches its checks would have filled for them are
    filled here first (:func:`lavra.batch.warming.warm_checks`), and the child inherits
    them as the workers will. Where they are spawned, it is made here."""
    if can_fork(issuer.config, issuer.engine.content):
        warm_checks(issuer.engine, kind.forms)  # before the child: it inherits them too
        return in_forked_child(lambda: _plan(issuer, kind, request, actor), issuer.registry)
    return _plan(issuer, kind, request, actor)


def run_batch(
    issuer: Issuer,
    kind: BatchRun,
    request: RunRequest,
    folder: Path,
    *,
    database_url: str,
    workers: int = 2,
    merged: bool = False,
    simulate: bool = False,
    docx: bool = False,
    progress: Progress | None = None,
    actor: str | None = None,
    own_folder: bool = False,
    signer: SignerKey | None = None,
) -> Summary:
    """Plan or resume the run, work it in ``workers`` processes, write its files;
    with ``signer``, every act is signed with that person's key (:func:`check_signer`)."""
    if simulate:
        return _simulated(issuer, kind, request, docx)
    if signer is not None:
        check_signer(issuer, kind, signer)
    key = kind.key(request)
    run = open_run(issuer.registry, key)
    resumed = run is not None
    stamp = fingerprint(issuer, kind, request)
    if run is not None and not same_inputs(run.fingerprint, stamp):
        raise InputError(
            f"Há uma execução em lote não concluída para {key.split(':', 1)[-1]} "
            f"(execução nº {run.id}, planejada com outras entradas). Repita o comando com "
            "os mesmos arquivos e a mesma data para concluí-la.",
            field="/entrada",
        )
    if run is None:
        run = finished_run(issuer.registry, key, known_as(request, stamp))
        resumed = run is not None
    if run is None:
        run, resumed = planned(issuer, kind, request, actor)
    setup = WorkerSetup(issuer.config, database_url, run.id, docx=docx, on=run.reference_date,
                        signer=signer)
    run_workers(setup, issuer.registry, workers, progress, content=issuer.engine.content,
                warm=lambda: warm_for_fork(issuer, kind.forms, signer))
    items = run_items(issuer.registry, run.id)
    subtitle = f"Execução em lote nº {run.id}, de {request.on.strftime('%d/%m/%Y')}"
    target = run_folder(folder, run.id) if own_folder else folder
    rows = write_outputs(issuer.registry, issuer.engine, items, target, title=kind.title,
                         subtitle=subtitle, merged=merged, docx=docx)
    run = finish_run(issuer.registry, run.id)
    return Summary(run, resumed, False, rows, target)
