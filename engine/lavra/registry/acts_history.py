"""A vehicle's or a party's history: the licensing state's changes
(:meth:`lavra.registry.licensing.RegistryState.timeline`) and, among them by date, the
acts that named the plate or the CPF/CNPJ without changing the state — an auto de
infração, a termo, a notificação, a guia, a decision that kept things as they were —
each with what the registry records of it afterwards::

    with_acts(registry, registry.timeline(placa="ABC1D23"), titles, placa="ABC1D23")

Generic: the engine knows no form; the caller passes the pack's titles (form → title).

Readings chosen:

* Found through the documents' own indexes, written at issue and at import from the
  data the act names (``documents.placa``: the vehicle's plate in either form, old or
  Mercosul; ``documents.cpf_cnpj``: the holder, a company's CNPJ before a person's CPF,
  :func:`lavra.registry.records.search_keys`): one indexed query, never a scan of the
  documents.
* An act is dated by its reference date, as its changes of the state are.
* An act already in the timeline by a change of the state is not repeated.
* A cancelled act is not listed here: the timeline already has it, marked cancelled
  with what it had changed undone (:mod:`lavra.registry.cancelled_acts`).
* Its situation, where the registry records one: annulled on appeal by a decision that
  stands (:meth:`~lavra.registry.licensing.RegistryState.annulled_acts`), else each
  payment recorded on it and not revoked (:mod:`lavra.registry.facts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from sqlalchemy import select

from lavra.registry.facts import FactKind
from lavra.registry.identifiers import same_plate
from lavra.registry.licensing import TimelineEntry
from lavra.registry.records import Status, normalize_cpf_cnpj, printed_number
from lavra.registry.tables import DocumentRow
from lavra.textutil import format_date

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["UNTITLED", "with_acts"]

UNTITLED = "Ato registrado"
"""What stands for a title the pack no longer declares (a form since withdrawn)."""


def with_acts(registry: Registry, entries: Sequence[TimelineEntry],
              titles: Mapping[str, str], *, placa: str | None = None,
              holder: str | None = None) -> tuple[TimelineEntry, ...]:
    """``entries`` (oldest first) with a line for each issued act naming ``placa`` or
    ``holder`` that is not among them yet, by date (the module's readings)."""
    if placa is None and holder is None:
        return tuple(entries)
    stmt = select(DocumentRow.id, DocumentRow.reference_date, DocumentRow.series,
                  DocumentRow.number, DocumentRow.year, DocumentRow.form,
                  DocumentRow.origin).where(DocumentRow.status == Status.ISSUED.value)
    if placa is not None:
        stmt = stmt.where(same_plate(DocumentRow.placa, placa))
    else:
        stmt = stmt.where(DocumentRow.cpf_cnpj == normalize_cpf_cnpj(str(holder)))
    known = {entry.document_id for entry in entries}
    with registry.database_errors(), registry.read_session() as session:
        rows = [row for row in session.execute(stmt) if row.id not in known]
    ids = [row.id for row in rows]
    annulled = registry.annulled_acts(ids)
    facts = registry.facts_of(ids) if ids else {}
    lines = []
    for ident, on, series, number, year, form, origin in rows:
        printed = printed_number(series, number, year)
        if origin is not None:
            printed = f"{printed} (importado: {origin})"
        situation = [f"anulado em recurso pelo {annulled[ident][0]}, de "
                     f"{format_date(annulled[ident][1])}"] if ident in annulled else [
            fact.describe() for fact in facts.get(ident, ())
            if fact.kind == FactKind.PAYMENT.value and not fact.revoked]
        detail = f"{titles.get(form, UNTITLED)}, sem alteração do cadastro."
        if situation:
            detail += f" Situação: {'; '.join(situation)}."
        lines.append(TimelineEntry(on, printed, detail, ident))
    return tuple(sorted((*entries, *lines), key=lambda entry: (entry.on, entry.document_id)))
