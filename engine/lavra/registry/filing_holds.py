"""A requerimento filed online is decided by one act: the run's, or the one staff prepare.

Two ways an act may be prepared for a filing: a batch run plans it (its items answer
the filing, ``batch_items.filing_id``, migration 0020), or staff prepare it in the inbox
(«Preparar ato», the draft linked by ``filing_progress.draft_id``). The database decides
which, never a read before the write: each side takes the filing's row lock
(``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite the writer lock taken at ``BEGIN
IMMEDIATE`` serializes them) and reads the other's claim after it, in the transaction
that writes its own:

- :func:`hold_filings`, in the plan's transaction: a holder whose filing is already
  decided, or whose act staff are preparing (a draft still a rascunho or in the signing
  queue), is refused, nothing numbered for it; the other holders' items hold their
  filing while they are pending;
- :func:`refuse_if_held`, in the inbox's: a filing an item of a run still pending
  holds is refused (:class:`FilingHeld`), naming the run and what to do.

The hold ends when the item does: recorded (the act decides the filing or, a notice,
makes it pending, :mod:`lavra.registry.filing_status`) or abandoned by staff (its number
voided, :mod:`lavra.registry.abandon`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.registry.records import printed_number
from lavra.registry.tables import BatchItemRow, DraftRow, FilingProgressRow, FilingRow

__all__ = ["FilingHeld", "hold_filings", "lock_filing", "open_draft", "refuse_if_held"]

OPEN_DRAFT = ("rascunho", "encaminhado")
"""The statuses of a draft not yet issued nor discarded (lavra.registry.drafts)."""


class FilingHeld(InputError):
    """«Preparar ato» for a filing an unfinished batch run holds (module docstring)."""

    def __init__(self, protocol: str, run_id: int, position: int,
                 numbers: Sequence[str]) -> None:
        reserved = f", com o(s) número(s) {', '.join(numbers)} reservado(s)" if numbers \
            else ""
        super().__init__(
            f"O requerimento {protocol} está no lote de renovação nº {run_id} em andamento "
            f"(item {position + 1}{reserved}); aguarde o fim do lote ou abandone o item "
            "na página do lote. Nenhuma minuta foi criada.", field="/ato")
        self.run_id, self.position = run_id, position


def lock_filing(session: Session, *, ident: int | None = None,
                protocol: str | None = None) -> FilingRow | None:
    """The filing by id or protocol, its row locked until the transaction ends."""
    stmt = select(FilingRow)
    stmt = stmt.where(FilingRow.id == ident) if ident is not None \
        else stmt.where(FilingRow.protocol == protocol)
    return session.scalars(stmt.with_for_update()).one_or_none()


def open_draft(session: Session, filing_id: int) -> DraftRow | None:
    """The draft prepared from the filing not yet issued nor discarded, if any."""
    return session.scalars(select(DraftRow).join(
        FilingProgressRow, FilingProgressRow.draft_id == DraftRow.id).where(
        FilingProgressRow.filing_id == filing_id,
        DraftRow.status.in_(OPEN_DRAFT))).first()


def refuse_if_held(session: Session, filing: FilingRow) -> None:
    """FilingHeld when a pending item of a run holds ``filing`` (locked by the caller)."""
    items = session.scalars(select(BatchItemRow).where(
        BatchItemRow.filing_id == filing.id, BatchItemRow.status == "pending")
        .order_by(BatchItemRow.run_id, BatchItemRow.seq)).all()
    if not items:
        return
    first = items[0]
    numbers = [printed_number(i.series, i.number, i.year) for i in items
               if i.run_id == first.run_id and i.series is not None
               and i.number is not None and i.year is not None]
    raise FilingHeld(filing.protocol, first.run_id, first.position, numbers)


def hold_filings(session: Session, wanted: Mapping[int, str]
                 ) -> tuple[dict[int, int], dict[int, str]]:
    """In the plan's transaction, for the filings (protocols) the holders at each
    position answer: the filing id each holder's items hold, and the reason each holder
    whose filing is decided or has an act staff are preparing is refused (module
    docstring). The filings are locked in protocol order: two planners never deadlock."""
    rows = {protocol: lock_filing(session, protocol=protocol)
            for protocol in sorted(set(wanted.values()))}
    held: dict[int, int] = {}
    taken: dict[int, str] = {}
    for position, protocol in wanted.items():
        row = rows[protocol]
        if row is None:
            continue
        reason = _taken(session, row)
        if reason is None:
            held[position] = row.id
        else:
            taken[position] = reason
    return held, taken


def _taken(session: Session, row: FilingRow) -> str | None:
    """Why the run may not answer the filing ``row``: decided, or an act staff are
    preparing; None when it may."""
    if row.status == "decidido":
        return (f"O requerimento {row.protocol} já foi decidido: nada foi emitido nem "
                "notificado para ele por esta execução.")
    draft = open_draft(session, row.id)
    if draft is not None:
        return (f"O requerimento {row.protocol} tem ato em preparação pela equipe "
                f"(minuta nº {draft.id}), preparado antes que este lote fosse planejado: "
                "nada foi numerado, emitido nem notificado para ele por esta execução; o "
                "pedido é decidido pelo ato preparado na caixa de protocolos.")
    return None
