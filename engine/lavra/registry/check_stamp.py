"""What a check of one act's data rests on in the registry, as one comparable value.

A batch run checks each act when it is planned, and its worker may sign it from that
check (:mod:`lavra.batch.handed_off`) only when nothing the check read has changed since.
:func:`check_stamp` reads, in ONE statement, a few counts and largest ids of the rows
that say the licensing state of the parties, vehicles, drivers and acts the data name
(:func:`keys_of`): the state's changes (an act's effects on a licence, party or vehicle;
undone and deleted with a cancellation: the count drops), the documents and their events
(issued, cancelled, a fact recorded or revoked), the names, bars, vehicles, drivers and
filings of those parties, and, registry-wide, the Secretaria's values (vigências, taxas;
a revocation counts), the voided numbers and the processos' links. Two stamps equal:
nothing of that changed. Each part is read through an index by the keys of one act:
and at most :data:`HISTORY` rows of each kind are read (a longer history: no stamp), so
its cost grows neither with the registry nor with a run's progress (a run's other acts
touch other holders; one that touches this holder's state changes the stamp, rightly).

The keys are read from the data conservatively: every text of 9 to 14 digits (CPF, CNPJ,
RENAVAM, CNH, formatted or not), every plate (in both its forms), every number cited
``nnnn/aaaa``. A key too many only makes a change elsewhere count (the worker then
checks again, as without the stamp); a key missing would not, so none is left out.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, bindparam, case, func, literal, or_, select, tuple_, union_all

from lavra.errors import InputError
from lavra.registry.identifiers import plate_forms
from lavra.registry.tables import (
    BarRow,
    DocumentRow,
    DriverRow,
    EventRow,
    FilingRow,
    LicenceRow,
    PartyNameRow,
    PartyRow,
    ProcessoLinkRow,
    StaffValueRow,
    StateChangeRow,
    VehicleRow,
    VoidedNumberRow,
)

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["HISTORY", "CheckKeys", "check_stamp", "keys_of"]

_DIGITS = re.compile(r"[\d.\-/ ]{9,20}")
_PLATE = re.compile(r"[A-Za-z]{3}[\s-]?\d[A-Za-z0-9]\d{2}")
_CITED = re.compile(r"(\d{1,9})\s*/\s*(\d{4})")


@dataclass(frozen=True)
class CheckKeys:
    """The registry keys an act's data name (module docstring)."""

    numbers: frozenset[str]
    """CPF, CNPJ, RENAVAM and CNH candidates, digits only."""
    plates: frozenset[str]
    """Plates, normalized, in both forms (old and Mercosul)."""
    cited: frozenset[tuple[int, int]]
    """Numbers cited as ``nnnn/aaaa``: (number, year)."""


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)


def keys_of(data: Mapping[str, Any]) -> CheckKeys:
    """The keys ``data`` names (module docstring)."""
    numbers: set[str] = set()
    plates: set[str] = set()
    cited: set[tuple[int, int]] = set()
    for text in _texts(data):
        if len(text) > 200:
            continue  # a free text: no key a check looks up by
        stripped = text.strip()
        if _DIGITS.fullmatch(stripped):
            digits = re.sub(r"\D", "", stripped)
            if 9 <= len(digits) <= 14:
                numbers.add(digits)
        if _PLATE.fullmatch(stripped):
            with contextlib.suppress(InputError):
                plates.update(plate_forms(stripped))
        for number, year in _CITED.findall(text):
            if 1900 <= int(year) <= 2999:
                cited.add((int(number), int(year)))
    return CheckKeys(frozenset(numbers), frozenset(plates), frozenset(cited))


HISTORY = 64
"""The rows of one kind a stamp reads at most for one act's keys: a holder with more
(a company's whole fleet of alvarás) has no stamp (:func:`check_stamp` gives None), and
its acts are checked again in full; so the stamp's cost is bounded, whatever the size of
the registry or of the holder's history."""


def _statement() -> Any:
    """The stamp's statement, its keys bound (built once: its parts are many)."""
    numbers: Any = bindparam("numbers", expanding=True)
    plates: Any = bindparam("plates", expanding=True)
    parties = select(PartyRow.id).where(PartyRow.doc.in_(numbers))
    vehicles = select(VehicleRow.id).where(
        or_(VehicleRow.placa.in_(plates), VehicleRow.renavam.in_(numbers)))
    drivers = select(DriverRow.id).where(DriverRow.cnh.in_(numbers))
    named = or_(DocumentRow.cpf_cnpj.in_(numbers), DocumentRow.placa.in_(plates),
                # by the index of (number, year), then the pairs exactly
                and_(DocumentRow.number.in_(bindparam("cited", expanding=True)),
                     DocumentRow.year.in_(bindparam("years", expanding=True)),
                     tuple_(DocumentRow.number, DocumentRow.year).in_(
                         bindparam("pairs", expanding=True))))
    documents = select(DocumentRow.id).where(named).limit(HISTORY + 1)
    held = or_(LicenceRow.holder_id.in_(parties), LicenceRow.vehicle_id.in_(vehicles),
               LicenceRow.driver_id.in_(drivers), LicenceRow.document_id.in_(documents))
    licences = select(LicenceRow.id).where(held).limit(HISTORY + 1)

    def part(name: str, table: Any, where: Any, extra: Any = None) -> Any:
        """Count, largest id and a sum of ``extra`` over at most HISTORY + 1 rows."""
        rows = select(table.id.label("id"), (literal(0) if extra is None else extra)
                      .label("extra")).where(where).limit(HISTORY + 1).subquery()
        return select(literal(name), func.count(rows.c.id), func.max(rows.c.id),
                      func.coalesce(func.sum(rows.c.extra), 0))

    def last(name: str, table: Any) -> Any:  # registry-wide: the largest id, by its index
        return select(literal(name), literal(0), func.max(table.id), literal(0))

    return union_all(
        part("estado", StateChangeRow, or_(
            StateChangeRow.party_id.in_(parties), StateChangeRow.vehicle_id.in_(vehicles),
            StateChangeRow.licence_id.in_(licences)), StateChangeRow.document_id),
        part("documentos", DocumentRow, named,
             case((DocumentRow.cancelled_at.is_(None), 0), else_=1)),
        part("licencas", LicenceRow, held),
        part("eventos", EventRow, EventRow.document_id.in_(documents)),
        part("nomes", PartyNameRow, PartyNameRow.party_id.in_(parties),
             PartyNameRow.document_id),
        part("impedimentos", BarRow, BarRow.party_id.in_(parties)),
        part("veiculos", VehicleRow, VehicleRow.id.in_(vehicles),
             case((VehicleRow.renavam.is_(None), 0), else_=1)),
        part("condutores", DriverRow, DriverRow.id.in_(drivers),
             func.coalesce(DriverRow.party_id, 0)),
        part("requerimentos", FilingRow, FilingRow.cpf_cnpj.in_(numbers)),
        # a few dozen rows: counted whole, so that a revocation counts
        select(literal("valores"), func.count(StaffValueRow.id), func.max(StaffValueRow.id),
               func.count(StaffValueRow.revoked_at)),
        last("inutilizados", VoidedNumberRow),
        last("processos", ProcessoLinkRow),
    )


_STATEMENT: list[Any] = []


def check_stamp(registry: Registry, keys: CheckKeys) -> tuple[Hashable, ...] | None:
    """The stamp of what a check of data naming ``keys`` reads (module docstring): one
    statement, in the caller's read scope when there is one; None when the keys' history
    is longer than :data:`HISTORY` rows of one kind, or there are no keys (no stamp:
    checked in full)."""
    if not (keys.numbers or keys.plates or keys.cited):
        return None  # data that name nothing of the registry: nothing to stamp them by
    if not _STATEMENT:
        _STATEMENT.append(_statement())
    bound = {"numbers": sorted(keys.numbers), "plates": sorted(keys.plates),
             "cited": sorted({n for n, _ in keys.cited}),
             "years": sorted({y for _, y in keys.cited}), "pairs": sorted(keys.cited)}
    with registry._database_errors(), registry._read() as session:
        rows = session.execute(_STATEMENT[0], bound).all()
    stamp = tuple(sorted((str(r[0]), int(r[1] or 0), int(r[2] or 0), int(r[3] or 0))
                         for r in rows))
    if any(part[0] != "valores" and part[1] > HISTORY for part in stamp):
        return None
    return stamp
