"""A batch item's failure, and its correction by staff before the run resumes.

    item = find_item(registry, run_id, position=1)             # holder nº 2, its failed item
    correct(registry, item.id, [Change("/veiculo/placa", "ABC1D23")], by="Fulana")

An item whose building failed (its data refused by the act: a value missing, a name too
long for the registry) stays pending with its reserved number and the reason. Staff
correct the field(s) its failure names: each change is set in the item's data at its
JSON pointer (``replace``; ``remove`` deletes it), and recorded in
``batch_corrections`` with the value before, the failure it answered, who and when, in
the same transaction. The item keeps its number; its failure is cleared, and resuming
the run builds it again from the corrected data (and fails again, with the new reason,
if the correction did not suffice). Only a pending item of a document or an attachment
may be corrected: a done one is issued (cancel it), an abandoned one had its number
voided, a refused line has nothing to build.

The values come through the strict reader (:mod:`lavra.batch.correction` for the
command line and the web page): this module checks the pointer and the data's shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import deepcopy
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.registry.records import LOCAL_TZ, check_text
from lavra.registry.runs import ABANDONED, DONE, PENDING, REFUSED, ItemRecord, item_of
from lavra.registry.store import Registry
from lavra.registry.tables import BatchCorrectionRow, BatchItemRow

__all__ = ["Change", "Correction", "correct", "find_item", "record_failure", "run_corrections"]

REPLACE, REMOVE = "replace", "remove"


@dataclass(frozen=True)
class Change:
    """One field to correct: ``value`` set at ``pointer`` (``remove``: the field deleted)."""

    pointer: str
    value: Any = None
    remove: bool = False


@dataclass(frozen=True)
class Correction:
    """One correction recorded on an item."""

    item_id: int
    position: int
    form: str | None
    pointer: str
    op: str
    previous: Any
    value: Any
    failure: str | None
    by: str
    at: datetime

    @property
    def text(self) -> str:
        """As staff read it (pt-BR): the field, what it was and what it became, who, when."""
        when = self.at.astimezone(LOCAL_TZ).strftime("%d/%m/%Y %H:%M")
        what = "removido" if self.op == REMOVE else f"de {_shown(self.previous)} para " \
            f"{_shown(self.value)}"
        return f"Campo {self.pointer}: {what}; corrigido por {self.by} em {when}"


def _shown(value: Any) -> str:
    if value is None:
        return "(vazio)"
    text = value if isinstance(value, str) else str(value)
    return f"«{text[:200]}»"


def find_item(registry: Registry, run_id: int, position: int,
              form: str | None = None) -> ItemRecord:
    """The item of holder ``position`` (counted from 0: the summary's ``ordem`` minus
    one) to correct: its pending item of ``form``, or, without it, the one that failed
    (else its only pending item). InputError (pt-BR) naming the choices otherwise."""
    what = f"O item {position + 1} da execução em lote nº {run_id}"
    with registry.database_errors(), registry.read_session() as session:
        rows = session.scalars(
            select(BatchItemRow)
            .where(BatchItemRow.run_id == run_id, BatchItemRow.position == position)
            .order_by(BatchItemRow.seq)
        ).all()
        items = [item_of(row) for row in rows]
    if not items:
        raise InputError(f"{what} não existe.", field="/item")
    open_ = [i for i in items if i.status == PENDING and i.role != REFUSED]
    if form is not None:
        open_ = [i for i in open_ if i.form == form]
    if not open_:
        raise InputError(f"{what} não tem documento pendente "
                         f"{'do formulário indicado ' if form else ''}"
                         f"a corrigir: {_why_not(items[0])}", field="/item")
    failed = [i for i in open_ if i.reason]
    chosen = failed if len(failed) == 1 else open_
    if len(chosen) > 1:
        # The choice as the commands to type (a command line, not a sentence).
        commands = "; ".join(f"lavra lote corrigir {run_id} --item {position + 1} "
                             f"--formulario {i.form} …" for i in chosen)
        raise InputError(f"{what} tem mais de um documento pendente: diga qual corrigir, "
                         f"com um destes comandos: {commands}", field="/formulario")
    return chosen[0]


def _why_not(item: ItemRecord) -> str:
    if item.role == REFUSED:
        return "a linha foi recusada no planejamento (corrija o arquivo de entrada)."
    if item.status == ABANDONED:
        return "foi abandonado, e o seu número inutilizado."
    if item.status == DONE:
        return "já foi emitido; um documento emitido se desfaz pelo cancelamento."
    return "não há documento pendente do formulário indicado."


def record_failure(registry: Registry, item_id: int, reason: str,
                   field: str | None = None) -> None:
    """Note why an item could not be built, and the field named (it stays pending for a
    rerun, or for staff to correct: :mod:`lavra.registry.corrections`)."""
    with registry.database_errors(), registry.write_session() as session:
        row = session.get(BatchItemRow, item_id)
        if row is not None and row.status == PENDING:
            row.reason = reason[:4000]
            row.failed_field = field[:500] if field and field.startswith("/") else None


def _check_pointer(pointer: str) -> list[str]:
    if not isinstance(pointer, str) or not pointer.startswith("/") or len(pointer) > 500:
        raise InputError(f"Campo inválido: «{str(pointer)[:80]}». Informe o campo como "
                         "ponteiro JSON, por exemplo /veiculo/placa.", field="/campo")
    tokens = pointers.split(pointer)
    if any(not token for token in tokens):
        raise InputError(f"Campo inválido: «{pointer}» tem um trecho vazio.", field="/campo")
    return tokens


def _apply(data: dict[str, Any], change: Change) -> Any:
    """Set (or remove) ``change`` in ``data``; the value it had before."""
    tokens = _check_pointer(change.pointer)
    node: Any = data
    for depth, token in enumerate(tokens[:-1]):
        if isinstance(node, dict):
            found = node.get(token)
            if found is None and not change.remove:
                found = node[token] = {}
            node = found
        elif isinstance(node, list) and pointers.is_index(token) and int(token) < len(node):
            node = node[int(token)]
        else:
            node = None
        if not isinstance(node, dict | list):
            where = pointers.join(tokens[: depth + 1])
            raise InputError(f"O campo {change.pointer} não pode ser corrigido: {where} não "
                             "é um grupo de campos nos dados do item.", field=change.pointer)
    last = tokens[-1]
    if isinstance(node, list):
        if not (pointers.is_index(last) and int(last) < len(node)):
            raise InputError(f"O campo {change.pointer} não existe nos dados do item (a "
                             "lista não tem esse item).", field=change.pointer)
        previous = node[int(last)]
        if change.remove:
            del node[int(last)]
        else:
            node[int(last)] = change.value
        return previous
    previous = node.get(last)
    if change.remove:
        if last not in node:
            raise InputError(f"O campo {change.pointer} não existe nos dados do item: não "
                             "há o que remover.", field=change.pointer)
        del node[last]
    else:
        node[last] = change.value
    return previous


def correct(registry: Registry, item_id: int, changes: Sequence[Change], *,
            by: str) -> tuple[ItemRecord, tuple[Correction, ...]]:
    """Apply ``changes`` to the pending item ``item_id`` and record them, with ``by`` and
    the time, in one transaction (module docstring); the item as corrected and the
    corrections. InputError (pt-BR, naming the field) when the item may not be
    corrected or a change does not fit its data: nothing is written then."""
    who = check_text(by, "quem faz a correção", "/responsavel", 200)
    if not changes:
        raise InputError("Informe ao menos um campo a corrigir.", field="/campo")
    with registry.database_errors(), registry.write_session() as session:
        row = session.scalars(
            select(BatchItemRow).where(BatchItemRow.id == item_id).with_for_update()
        ).one_or_none()
        if row is None:
            raise InputError(f"Item nº {item_id} de execução em lote não encontrado.",
                             field="/item")
        item = item_of(row)
        if row.status != PENDING or row.role == REFUSED:
            raise InputError(f"O item {row.position + 1} da execução em lote nº "
                             f"{row.run_id} não pode ser corrigido: {_why_not(item)}",
                             field="/item")
        data = deepcopy(dict(row.data or {}))
        now = datetime.now(UTC)
        made = []
        for change in changes:
            previous = deepcopy(_apply(data, change))
            made.append(BatchCorrectionRow(
                item_id=row.id, run_id=row.run_id, pointer=change.pointer,
                op=REMOVE if change.remove else REPLACE, previous=previous,
                value=None if change.remove else change.value, failure=row.reason,
                corrected_by=who, corrected_at=now,
            ))
        row.data = data
        row.reason, row.failed_field = None, None
        session.add_all(made)
        session.flush()
        return item_of(row), tuple(_correction_of(c, row) for c in made)


def _correction_of(row: BatchCorrectionRow, item: BatchItemRow) -> Correction:
    return Correction(row.item_id, item.position, item.form, row.pointer, row.op,
                      row.previous, row.value, row.failure, row.corrected_by,
                      row.corrected_at)


def run_corrections(registry: Registry, run_id: int) -> tuple[Correction, ...]:
    """Every correction of the run's items, in the order made."""
    with registry.database_errors(), registry.read_session() as session:
        rows = session.execute(
            select(BatchCorrectionRow, BatchItemRow)
            .join(BatchItemRow, BatchItemRow.id == BatchCorrectionRow.item_id)
            .where(BatchCorrectionRow.run_id == run_id)
            .order_by(BatchCorrectionRow.id)
        ).all()
        return tuple(_correction_of(c, i) for c, i in rows)

