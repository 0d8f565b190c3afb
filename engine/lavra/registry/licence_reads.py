"""Three questions a check asks the licensing state of one act, in one statement.

A renewal's check asks the state for the licence it renews (by its number, as
:meth:`lavra.registry.licensing.RegistryState.licence_by_number`), the licences its holder
holds of one kind (its registration, :meth:`~lavra.registry.licensing.RegistryState.
licence_views` by holder and kind) and the licences its vehicle holds (by plate). Each
was a statement of its own; :func:`licence_answers` asks them in one ``UNION ALL`` of the
same three selects (same rows, same filters, each branch through its own index), tagged
by question, and gives each answer as its own lookup would have read it. A question
whose input is no printed number, CPF/CNPJ or plate is left out (its lookup answers it
as before).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import Integer, bindparam, literal_column, union_all
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.registry.identifiers import parse_printed, plate_forms
from lavra.registry.records import normalize_cpf_cnpj
from lavra.registry.statements import view_select
from lavra.registry.tables import DocumentRow, LicenceRow, PartyRow, VehicleRow

__all__ = ["BY_NUMBER", "OF_HOLDER", "OF_VEHICLE", "LicenceQuestions", "licence_rows"]

BY_NUMBER, OF_HOLDER, OF_VEHICLE = 0, 1, 2
"""The tag of each question's rows."""

VIEW_COLUMNS = 24
"""The columns of :func:`lavra.registry.statements.view_select` (a row's first ones)."""


@dataclass(frozen=True)
class LicenceQuestions:
    """What a check asks: the licence numbered ``number`` (of ``kind`` when the number
    has no series), the licences of ``holder`` (CPF/CNPJ) of ``holder_kind``, the
    licences of the vehicle ``placa``; None: not asked."""

    number: str | None = None
    kind: str | None = None
    holder: str | None = None
    holder_kind: str | None = None
    placa: str | None = None


def _tag(question: int) -> Any:
    """The question's tag, a column of its rows (inline: no parameter to type)."""
    return literal_column(str(question), Integer).label("pergunta")


@cache
def _statement(number: bool, series: bool, holder: bool, placa: bool) -> Any:
    branches = []
    if number:
        stmt = (view_select()
                .add_columns(_tag(BY_NUMBER), LicenceRow.id)
                .join(DocumentRow, DocumentRow.id == LicenceRow.document_id)
                .where(DocumentRow.number == bindparam("number"),
                       DocumentRow.year == bindparam("year")))
        branches.append(stmt.where(DocumentRow.series == bindparam("series")) if series
                        else stmt.where(LicenceRow.kind == bindparam("number_kind")))
    if holder:
        branches.append(view_select(holder=True)
                        .add_columns(_tag(OF_HOLDER), LicenceRow.id)
                        .where(LicenceRow.kind == bindparam("holder_kind"),
                               PartyRow.doc == bindparam("doc")))
    if placa:
        branches.append(view_select(placa=True)
                        .add_columns(_tag(OF_VEHICLE), LicenceRow.id)
                        .where(VehicleRow.placa.in_(bindparam("placas", expanding=True))))
    # oldest first within each question, as views_of orders (valid_from, id)
    order = (VIEW_COLUMNS + 1, 7, VIEW_COLUMNS + 2)
    if len(branches) == 1:
        return branches[0].order_by(*(_position(p) for p in order))
    return union_all(*branches).order_by(*(_position(p) for p in order))


def _position(position: int) -> Any:
    return literal_column(str(position))


def _values(questions: LicenceQuestions) -> tuple[dict[str, Any], tuple[bool, bool, bool, bool]]:
    """The statement's parameters, and which questions it asks (a question whose input
    its own lookup would refuse or not find is left to that lookup)."""
    values: dict[str, Any] = {}
    parsed = None if questions.number is None else parse_printed(questions.number)
    number = parsed is not None
    series = False
    if parsed is not None:
        prefix, values["number"], values["year"] = parsed
        series = prefix is not None
        if series:
            values["series"] = str(prefix).upper()
        elif questions.kind is not None:
            values["number_kind"] = questions.kind
        else:
            number = False  # neither series nor kind: licence_by_number's own lookup
    holder = questions.holder is not None and questions.holder_kind is not None
    if holder:
        try:
            values["doc"] = normalize_cpf_cnpj(str(questions.holder))
            values["holder_kind"] = questions.holder_kind
        except InputError:
            holder = False
    placa = questions.placa is not None
    if placa:
        try:
            values["placas"] = plate_forms(str(questions.placa))
        except InputError:
            placa = False
    return values, (number, series, holder, placa)


def licence_rows(session: Session, questions: LicenceQuestions
                 ) -> dict[int, list[Sequence[Any]]] | None:
    """The rows of each question asked (:data:`BY_NUMBER`, :data:`OF_HOLDER`,
    :data:`OF_VEHICLE`; each row the columns of ``view_select``, oldest first), one
    statement for all; a question left out has no key. None when none is asked."""
    values, (number, series, holder, placa) = _values(questions)
    if not (number or holder or placa):
        return None
    found: dict[int, list[Sequence[Any]]] = {}
    if number:
        found[BY_NUMBER] = []
    if holder:
        found[OF_HOLDER] = []
    if placa:
        found[OF_VEHICLE] = []
    for row in session.execute(_statement(number, series, holder, placa), values):
        found[row[VIEW_COLUMNS]].append(row[:VIEW_COLUMNS])
    return found
