"""The registry's search: a typed query read as what it names, and the filters of a listing.

A query is read for every kind of key it may be (generic, no municipal knowledge):

* a number with or without its series — ``ALV-FRET 0001/2026``, ``ALV-FRET nº 0001/2026``
  (as lavra prints it), ``alv-fret 1/2026``, ``0001/2026``;
* a verification code, with or without hyphens (``7KQM-X4RD-2HNT``, ``7kqmx4rd2hnt``);
* a CPF or CNPJ, masked or in digits;
* a plate, old or Mercosul: every document naming the vehicle under either form, found
  through the licensing state's indexed tables (vehicles, licences, state changes) and
  the documents' plate index;
* otherwise, with three letters or more, a name the licensing state holds for a party
  (every name a CPF/CNPJ was registered under; accents and case ignored, part of a word
  enough, found through an index: :mod:`lavra.registry.name_index`): the documents of
  that CPF/CNPJ.

Filters (form, series, year, status, issue dates, signer) combine with the query and
with one another; the result is paginated, newest first (an act imported from before
lavra at its own date: :mod:`lavra.registry.act_dates`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from sqlalchemy import ColumnElement, Select, false, or_, select

from lavra.errors import InputError, LavraError
from lavra.inputs.formats import has_cnpj_shape, has_cpf_shape, has_placa_shape, unmask
from lavra.registry.act_dates import dated_between, order_by_act
from lavra.registry.identifiers import parse_printed, plate_forms, same_plate
from lavra.registry.name_index import NameMatch, name_terms
from lavra.registry.records import Status
from lavra.registry.tables import (
    DocumentRow,
    LicenceRow,
    PartyNameRow,
    PartyRow,
    StateChangeRow,
    VehicleRow,
)

__all__ = ["MAX_PER_PAGE", "Filters", "ParsedQuery", "parse_query", "statement"]

MAX_PER_PAGE = 200
_MIN_NAME = 3
_LETTERS = re.compile(r"[^\W\d_]", re.UNICODE)


@dataclass(frozen=True)
class ParsedQuery:
    """What a typed query may name; every field None that it cannot be."""

    text: str
    series: str | None = None
    number: int | None = None
    year: int | None = None
    code: str | None = None
    cpf_cnpj: str | None = None
    placas: tuple[str, ...] = ()
    name: str | None = None


@dataclass(frozen=True)
class Filters:
    """The listing's filters; None: not filtered. Dates are the days of the acts, both
    inclusive: the local day of issue, or an imported act's own date
    (:mod:`lavra.registry.act_dates`); ``signer`` is the signer's name as the
    certificate bears it (CN)."""

    form: str | None = None
    series: str | None = None
    year: int | None = None
    status: Status | None = None
    issued_from: date | None = None
    issued_until: date | None = None
    signer: str | None = None

    def __post_init__(self) -> None:
        if (self.issued_from is not None and self.issued_until is not None
                and self.issued_until < self.issued_from):
            raise InputError("A data final do período é anterior à data inicial.",
                             field="/ate")


def parse_query(text: str, code_of: Callable[[str], str] | None = None) -> ParsedQuery:
    """Every reading of ``text`` (already stripped); see the module's documentation.

    ``code_of`` gives a verification code's canonical form (grouped, upper case) or
    raises :class:`LavraError` for text that is no code; without it the code is
    compared as typed."""
    printed = parse_printed(text)
    if printed is not None and printed[1] > 0:
        series, number, year = printed
        return ParsedQuery(text, series.upper() if series else None, number, year)
    code: str | None = text
    if code_of is not None:
        try:
            code = code_of(text)
        except LavraError:
            code = None
    cpf_cnpj = unmask(text).upper() if has_cpf_shape(text) or has_cnpj_shape(text) else None
    placas = plate_forms(text) if has_placa_shape(text) else ()
    name = None
    if cpf_cnpj is None and not placas and len(_LETTERS.findall(text)) >= _MIN_NAME:
        name = " ".join(text.split())
    return ParsedQuery(text, code=code, cpf_cnpj=cpf_cnpj, placas=placas, name=name)


def _query_condition(query: ParsedQuery) -> ColumnElement[bool]:
    conditions: list[ColumnElement[bool]] = []
    if query.number is not None and query.year is not None:
        found = (DocumentRow.number == query.number) & (DocumentRow.year == query.year)
        if query.series is not None:
            found = found & (DocumentRow.series == query.series)
        conditions.append(found)
    if query.code is not None:
        conditions.append(DocumentRow.verification_code == query.code)
    if query.cpf_cnpj is not None:
        conditions.append(DocumentRow.cpf_cnpj == query.cpf_cnpj)
    if query.placas:
        vehicles = select(VehicleRow.id).where(same_plate(VehicleRow.placa, query.placas[0]))
        licences = select(LicenceRow.id).where(LicenceRow.vehicle_id.in_(vehicles))
        conditions.append(same_plate(DocumentRow.placa, query.placas[0]))
        conditions.append(DocumentRow.id.in_(
            select(LicenceRow.document_id).where(LicenceRow.vehicle_id.in_(vehicles))))
        conditions.append(DocumentRow.id.in_(
            select(StateChangeRow.document_id).where(
                StateChangeRow.vehicle_id.in_(vehicles) | StateChangeRow.licence_id.in_(
                    licences))))
    if query.name is not None:
        # Reading chosen: a name finds the parties the state holds under it (any name a
        # CPF/CNPJ was registered under, holding every word of the query, accents and
        # case ignored, through the name index: lavra.registry.name_index), and then
        # their documents through the CPF/CNPJ index, their licences and state changes.
        parties = (select(PartyNameRow.party_id)
                   .where(NameMatch(PartyNameRow.id, PartyNameRow.search_name,
                                    name_terms(query.name))))
        docs = select(PartyRow.doc).where(PartyRow.id.in_(parties))
        conditions.append(DocumentRow.cpf_cnpj.in_(docs))
        conditions.append(DocumentRow.id.in_(
            select(LicenceRow.document_id).where(LicenceRow.holder_id.in_(parties))))
        conditions.append(DocumentRow.id.in_(
            select(StateChangeRow.document_id).where(StateChangeRow.party_id.in_(parties))))
    return or_(*conditions) if conditions else false()


def _signer_condition(name: str) -> ColumnElement[bool]:
    """The certificate's CN is ``name`` (``documents.signer_name``, indexed)."""
    return DocumentRow.signer_name == name


def statement(query: ParsedQuery | None, filters: Filters) -> Select[DocumentRow]:
    """The documents matching the query (None: every document) and the filters,
    newest first (unpaginated)."""
    stmt = select(DocumentRow)
    if query is not None:
        stmt = stmt.where(_query_condition(query))
    if filters.form is not None:
        stmt = stmt.where(DocumentRow.form == filters.form)
    if filters.series is not None:
        stmt = stmt.where(DocumentRow.series == filters.series.upper())
    if filters.year is not None:
        stmt = stmt.where(DocumentRow.year == filters.year)
    if filters.status is not None:
        stmt = stmt.where(DocumentRow.status == filters.status.value)
    dated = dated_between(filters.issued_from, filters.issued_until)
    if dated is not None:
        stmt = stmt.where(dated)
    if filters.signer is not None:
        stmt = stmt.where(_signer_condition(filters.signer))
    return stmt.order_by(*order_by_act(newest_first=True))
