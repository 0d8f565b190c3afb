"""A renewal is planned once: the database decides, inside the plan's transaction.

    lost = claim_renewals(session, dialect, run_id, key, wanted)   # {position: reason}

Every holder a run plans outputs for takes the row (run key, holder, outcome) of
``batch_renewals``, unique. The key names the kind of run and its period
(``renovacao-x:2027``), not its inputs: the same renewal asked by a later command (a
later ``--data``, another file name, requests that arrived since) or by a second process
that decided before the first one planned finds its row taken, whatever it checked
before. The rows are inserted with ``ON CONFLICT DO NOTHING``: the rows the insert
returns are the holders this run won; for the others (the constraint's verdict, not a
read before the insert) the run records a refusal naming the earlier run and the
numbers it reserved. On PostgreSQL a conflicting row of a transaction still open waits
for that transaction, so two planners racing cannot both win.

The outcome is part of the key: a holder notified of missing documents by one run is
renewed by a later one once the documents arrive; the same notice is not sent twice.
Where the pack says another act of the same outcome is owed (a ``claim``: the notice
answering a filed request, named by its protocol), the claim is part of the outcome's
column (:func:`act_of`): a notice on a filing is planned once per filing, still by the
constraint, beside the notice of a holder who had filed nothing.
A run whose every holder was already planned by earlier runs plans nothing
(:class:`RenewalsDone`): it issues nothing and writes no file. A dry run reads the same
rows (:func:`planned_before`), without inserting, to show whom the run would skip and why.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.inputs.formats import mask_holder_key
from lavra.registry.records import printed_number
from lavra.registry.tables import BatchItemRow, BatchRenewalRow

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["Earlier", "RenewalsDone", "Wanted", "act_of", "claim_renewals", "planned_before"]

CHUNK = 400  # rows per INSERT: 5 parameters each, well under SQLite's limit
SHOWN = 10  # earlier renewals named in full by RenewalsDone
OUTCOME_SIZE = 40  # batch_renewals.outcome


def act_of(outcome: str, claim: str | None) -> str:
    """The act a holder's row names: the outcome, with the ``claim`` that makes it
    another act (``notificado · PROT nº 0001/2026``); too long for the column, the
    claim is cut and followed by a digest of it, so that two claims never meet."""
    if not claim:
        return outcome
    act = f"{outcome} · {claim}"
    if len(act) <= OUTCOME_SIZE:
        return act
    digest = hashlib.sha256(claim.encode()).hexdigest()[:10]
    return f"{act[:OUTCOME_SIZE - 12]}… {digest}"


@dataclass(frozen=True)
class Wanted:
    """A holder a run wants to plan outputs for, at ``position`` of its input."""

    position: int
    holder: str
    outcome: str


@dataclass(frozen=True)
class Earlier:
    """A holder's renewal already planned by run ``run_id``, with the numbers that run
    reserved for it (printed, in plan order)."""

    holder: str
    name: str
    outcome: str
    run_id: int
    numbers: tuple[str, ...]

    @property
    def reason(self) -> str:
        """The pt-BR refusal recorded on the later run's item."""
        numbers = f" ({', '.join(self.numbers)})" if self.numbers else ""
        return (f"Já planejado na execução em lote nº {self.run_id}{numbers}, para o mesmo "
                f"período e o mesmo resultado («{self.outcome}»): nada é emitido de novo.")


class RenewalsDone(InputError):
    """Every holder the run would plan was already planned by earlier runs of the same
    key: nothing was planned, numbered or written."""

    def __init__(self, key: str, earlier: Sequence[Earlier]) -> None:
        runs = sorted({e.run_id for e in earlier})
        lines = [f"{e.name or mask_holder_key(e.holder)}: {e.outcome} na execução nº {e.run_id}"
                 + (f" ({', '.join(e.numbers)})" if e.numbers else "")
                 for e in earlier[:SHOWN]]
        more = f"; e mais {len(earlier) - SHOWN}" if len(earlier) > SHOWN else ""
        super().__init__(
            f"Nada a emitir para {key.split(':', 1)[-1]}: tudo o que esta execução "
            f"planejaria já foi planejado na(s) execução(ões) em lote nº "
            f"{', '.join(map(str, runs))}. Nenhum documento foi emitido e nenhum arquivo "
            f"foi gravado. Já planejados: {'; '.join(lines)}{more}.",
            field="/entrada",
        )
        self.earlier = tuple(earlier)


def _chunks(rows: Sequence[Mapping[str, object]]) -> Iterator[Sequence[Mapping[str, object]]]:
    for start in range(0, len(rows), CHUNK):
        yield rows[start:start + CHUNK]


def claim_renewals(session: Session, dialect: str, run_id: int, key: str,
                   wanted: Sequence[Wanted]) -> dict[int, Earlier]:
    """Insert the run's renewals; the positions the constraint gave to earlier runs,
    each with what that run planned (module docstring)."""
    insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
    rows = [{"key": key, "holder": w.holder, "outcome": w.outcome, "run_id": run_id,
             "position": w.position} for w in wanted]
    won: set[int] = set()
    for chunk in _chunks(rows):
        statement = insert(BatchRenewalRow).values(list(chunk)).on_conflict_do_nothing(
            index_elements=["key", "holder", "outcome"]
        ).returning(BatchRenewalRow.position)
        won.update(session.scalars(statement).all())
    lost = [w for w in wanted if w.position not in won]
    return {w.position: _earlier(session, key, w) for w in lost}


def _earlier(session: Session, key: str, wanted: Wanted) -> Earlier:
    """What the run holding ``wanted``'s row planned for it."""
    taken = session.scalars(select(BatchRenewalRow).where(
        BatchRenewalRow.key == key, BatchRenewalRow.holder == wanted.holder,
        BatchRenewalRow.outcome == wanted.outcome,
    )).one()
    items = session.scalars(select(BatchItemRow).where(
        BatchItemRow.run_id == taken.run_id, BatchItemRow.position == taken.position,
    ).order_by(BatchItemRow.seq)).all()
    numbers = tuple(printed_number(i.series, i.number, i.year) for i in items
                    if i.series is not None and i.number is not None and i.year is not None)
    name = items[0].name if items else ""
    return Earlier(wanted.holder, name, wanted.outcome, taken.run_id, numbers)


def planned_before(registry: Registry, key: str,
                   wanted: Sequence[Wanted]) -> dict[int, Earlier]:
    """The positions of ``wanted`` an earlier run of ``key`` already planned, each with
    what that run planned: what :func:`claim_renewals` would refuse, read without
    inserting anything (a dry run). A run racing this read may still take a row: the
    real plan's insert decides."""
    found: dict[int, Earlier] = {}
    with registry.database_errors(), registry.read_session() as session:
        for start in range(0, len(wanted), CHUNK):
            chunk = wanted[start:start + CHUNK]
            taken = {(row.holder, row.outcome) for row in session.scalars(
                select(BatchRenewalRow).where(
                    BatchRenewalRow.key == key,
                    BatchRenewalRow.holder.in_({w.holder for w in chunk})))}
            found.update({w.position: _earlier(session, key, w) for w in chunk
                          if (w.holder, w.outcome) in taken})
    return found
