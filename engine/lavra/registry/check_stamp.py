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
its cost does not grow with the registry, nor with a run's progress (a run's other acts
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

from sqlalchemy import and_, false, func, literal, or_, select, union_all

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

__all__ = ["CheckKeys", "check_stamp", "keys_of"]

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


def _statement(keys: CheckKeys) -> Any:
    numbers, plates = sorted(keys.numbers), sorted(keys.plates)
    parties = select(PartyRow.id).where(PartyRow.doc.in_(numbers))
    vehicles = select(VehicleRow.id).where(
        or_(VehicleRow.placa.in_(plates), VehicleRow.renavam.in_(numbers)))
    drivers = select(DriverRow.id).where(DriverRow.cnh.in_(numbers))
    cited = [and_(DocumentRow.number == n, DocumentRow.year == y)
             for n, y in sorted(keys.cited)]
    documents = select(DocumentRow.id).where(or_(
        DocumentRow.cpf_cnpj.in_(numbers), DocumentRow.placa.in_(plates),
        *cited) if cited else or_(DocumentRow.cpf_cnpj.in_(numbers),
                                  DocumentRow.placa.in_(plates)))
    licences = select(LicenceRow.id).where(or_(
        LicenceRow.holder_id.in_(parties), LicenceRow.vehicle_id.in_(vehicles),
        LicenceRow.driver_id.in_(drivers), LicenceRow.document_id.in_(documents)))

    def part(name: str, table: Any, where: Any, extra: Any = None) -> Any:
        return select(literal(name), func.count(table.id), func.max(table.id),
                      extra if extra is not None else literal(0)).where(where)

    def last(name: str, table: Any) -> Any:  # registry-wide: the largest id, by its index
        return select(literal(name), literal(0), func.max(table.id), literal(0))

    return union_all(
        part("estado", StateChangeRow, or_(
            StateChangeRow.party_id.in_(parties), StateChangeRow.vehicle_id.in_(vehicles),
            StateChangeRow.licence_id.in_(licences)), func.sum(StateChangeRow.document_id)),
        part("documentos", DocumentRow, DocumentRow.id.in_(documents),
             func.count(DocumentRow.cancelled_at)),
        part("eventos", EventRow, EventRow.document_id.in_(documents)),
        part("nomes", PartyNameRow, PartyNameRow.party_id.in_(parties),
             func.sum(PartyNameRow.document_id)),
        part("impedimentos", BarRow, BarRow.party_id.in_(parties)),
        part("veiculos", VehicleRow, VehicleRow.id.in_(vehicles),
             func.count(VehicleRow.renavam)),
        part("condutores", DriverRow, DriverRow.id.in_(drivers),
             func.sum(DriverRow.party_id)),
        part("requerimentos", FilingRow, FilingRow.cpf_cnpj.in_(numbers)
             if numbers else false()),
        # a few dozen rows: counted whole, so that a revocation counts
        select(literal("valores"), func.count(StaffValueRow.id), func.max(StaffValueRow.id),
               func.count(StaffValueRow.revoked_at)),
        last("inutilizados", VoidedNumberRow),
        last("processos", ProcessoLinkRow),
    )


def check_stamp(registry: Registry, keys: CheckKeys) -> tuple[Hashable, ...]:
    """The stamp of what a check of data naming ``keys`` reads (module docstring): one
    statement, in the caller's read scope when there is one."""
    statement = _statement(keys)
    with registry._database_errors(), registry._read() as session:
        rows = session.execute(statement).all()
    return tuple(sorted((str(r[0]), int(r[1] or 0), int(r[2] or 0), int(r[3] or 0))
                        for r in rows))
