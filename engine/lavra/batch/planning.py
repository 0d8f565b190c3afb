"""The plan of a batch run: what each holder gets, decided once, in input order.

The pack decides (:meth:`lavra.batch.model.BatchRun.plan`); the engine refuses the same
holder twice (the later occurrence with outputs, naming the first; an occurrence
already refused does not count), fingerprints the inputs (a
rerun with the same files resumes the run; with other files it is refused while the
run is unfinished), and writes the plan in one registry transaction
(:func:`lavra.registry.runs.plan_run`) or, for a dry run, only says what it would do,
with the numbers the documents would take if planned now.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from datetime import datetime

from lavra.batch.intake import filings_stamp
from lavra.batch.model import BatchRun, PlanContext, PlannedHolder, RunRequest
from lavra.errors import InputError
from lavra.inputs.reading import TIMEZONE
from lavra.issuing import Issuer
from lavra.registry.once import Wanted, act_of, planned_before
from lavra.registry.records import printed_number
from lavra.registry.runs import RunRecord, plan_run

__all__ = ["Plan", "decide", "fingerprint", "known_as", "preview_numbers", "same_inputs",
           "skip_planned", "write_plan"]

REFUSED = "recusado"


@dataclass(frozen=True)
class Plan:
    """The decided run, not yet written: the key, the fingerprint, the year of the
    series, and each holder's outputs in input order."""

    request: RunRequest
    key: str
    fingerprint: str
    year: int
    holders: tuple[PlannedHolder, ...]


def _inputs_digest(request: RunRequest) -> str:
    """The digest of the run's name, options, date and input files (64 hex digits):
    the whole fingerprint of a run planned before filings counted."""
    digest = hashlib.sha256()
    digest.update(json.dumps(
        {"kind": request.kind, "options": dict(request.options), "on": request.on.isoformat()},
        sort_keys=True, default=str,
    ).encode())
    for path in (request.entrada, request.pedidos):
        digest.update(b"\0")
        if path is not None:
            try:
                digest.update(path.read_bytes())
            except OSError as error:
                raise InputError(
                    f"Não foi possível ler o arquivo {path.name}: {error.strerror}.",
                    field="/entrada" if path == request.entrada else "/pedidos",
                ) from None
    return digest.hexdigest()


def _filings_digest(filed: list[tuple[int, int, int]]) -> str:
    return hashlib.sha256(json.dumps(filed).encode()).hexdigest()


NO_FILINGS = _filings_digest([])[:32]
"""The last 32 digits of a fingerprint whose period holds no filing."""


def fingerprint(issuer: Issuer, kind: BatchRun, request: RunRequest) -> str:
    """A digest of what shapes the run: its name, options, date, input files, and the
    requests filed online it reads (:func:`lavra.batch.intake.filings_stamp`: a request
    filed or reviewed since changes it; the run's own settling of them does not).

    64 hex digits: the first 32 those of the inputs' digest (as it was before filings
    counted), the last 32 those of the filings'; a kind that reads no filings keeps the
    whole inputs' digest. An unfinished run is resumed when its inputs are the same
    (:func:`same_inputs`): a request filed meanwhile does not keep it from ending, and is
    read by the next run."""
    inputs = _inputs_digest(request)
    scope = kind.filed(request)
    if scope is None:
        return inputs
    return inputs[:32] + _filings_digest(filings_stamp(issuer.registry, scope))[:32]


def known_as(request: RunRequest, stamp: str) -> tuple[str, ...]:
    """The fingerprints a finished run of the same inputs may carry, ``stamp`` first:
    with no filing in the period, also the whole inputs' digest, which a run planned
    before filings counted carries (it read none), so that the same command run again
    after the upgrade finds that run instead of planning one that refuses everything."""
    if stamp[32:] != NO_FILINGS:
        return (stamp,)
    legacy = _inputs_digest(request)
    return (stamp,) if legacy == stamp else (stamp, legacy)


def same_inputs(planned: str, now: str) -> bool:
    """Whether two fingerprints have the same inputs, whatever the filings (above)."""
    return planned[:32] == now[:32]


def _without_repeats(holders: list[PlannedHolder]) -> tuple[PlannedHolder, ...]:
    """The same holder's later occurrences with outputs refused, naming the first that
    has outputs: a refused occurrence (a line with a bad CPF, say) takes nothing, so it
    does not keep a later valid line of the same holder from being planned."""
    first: dict[str, int] = {}
    kept: list[PlannedHolder] = []
    for position, holder in enumerate(holders, 1):
        if not holder.outputs:
            kept.append(holder)
            continue
        if holder.holder in first:
            kept.append(replace(
                holder, outcome=REFUSED, outputs=(),
                reason=f"O mesmo titular consta mais de uma vez da entrada (primeira "
                f"ocorrência no registro nº {first[holder.holder]}); só a primeira foi "
                "considerada.",
            ))
            continue
        first.setdefault(holder.holder, position)
        kept.append(holder)
    return tuple(kept)


def decide(issuer: Issuer, kind: BatchRun, request: RunRequest) -> Plan:
    """Ask the pack for each holder's outputs; nothing is written."""
    key = kind.key(request)
    # before the plan reads them: a request filed meanwhile is then read by a later run
    # (its fingerprint differs), never silently left out of both
    stamp = fingerprint(issuer, kind, request)
    holders = _without_repeats(list(kind.plan(PlanContext(issuer, request))))
    year = datetime.now(TIMEZONE).year  # the series year, as Issuer.issue takes it
    return Plan(request, key, stamp, year, holders)


def write_plan(issuer: Issuer, kind: BatchRun, plan: Plan, actor: str | None) -> RunRecord:
    """Number every document in input order, in one transaction. A planner that lost
    the race to another run of the same key and the same inputs (the filings read may
    differ: each decided before the other wrote) gets that run, as
    :func:`lavra.batch.runner.run_batch` would have resumed it: nothing is planned twice,
    and the filings only this planner read are read by the next run (its fingerprint
    differs from the winner's, :func:`fingerprint`)."""
    return plan_run(
        issuer.registry, plan.request.kind, plan.key, plan.fingerprint,
        {"opcoes": dict(plan.request.options),
         "entrada": plan.request.entrada.name if plan.request.entrada else None,
         "pedidos": plan.request.pedidos.name if plan.request.pedidos else None},
        plan.request.on, plan.year, plan.holders, link=kind.link, actor=actor,
        same=same_inputs,
    )


def preview_numbers(issuer: Issuer, plan: Plan) -> tuple[tuple[str | None, ...], ...]:
    """The printed numbers each holder's outputs would take if planned now (dry run)."""
    following: dict[str, int] = {}
    found: list[tuple[str | None, ...]] = []
    for holder in plan.holders:
        numbers: list[str | None] = []
        for out in holder.outputs:
            if out.series is None:
                numbers.append(None)
                continue
            if out.series not in following:
                following[out.series] = issuer.registry.next_number(out.series, plan.year)
            numbers.append(printed_number(out.series, following[out.series], plan.year))
            following[out.series] += 1
        found.append(tuple(numbers))
    return tuple(found)


def skip_planned(issuer: Issuer, plan: Plan) -> Plan:
    """The plan as the registry would take it (dry run): each holder an earlier run of
    the same key already planned with the same outcome refused, naming that run and its
    numbers, as :func:`lavra.registry.runs.plan_run` records it. Nothing is written."""
    wanted = [Wanted(position, h.holder, act_of(h.outcome, h.claim))
              for position, h in enumerate(plan.holders) if h.outputs]
    lost = planned_before(issuer.registry, plan.key, wanted)
    if not lost:
        return plan
    return replace(plan, holders=tuple(
        replace(h, outcome=REFUSED, outputs=(), reason=lost[position].reason)
        if position in lost else h for position, h in enumerate(plan.holders)))
