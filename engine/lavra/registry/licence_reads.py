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

Where it reads the vehicle's licences, each of their rows also carries the RENAVAM of
the first vehicle registered under the plate (a scalar subquery, read once): the
registry keeps it in the read scope (:func:`plate_renavam_key`), and the identity check
of the draft's vehicle (:func:`lavra.registry.identities.effect_identity_conflicts`)
finds no conflict without a statement of its own when it is the draft's RENAVAM (the
RENAVAM is unique, ``uq_vehicles_renavam``: no vehicle of another plate holds it, and
the plate's vehicle holds it); otherwise it reads the registry as before.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import Integer, bindparam, literal_column, null, select, union_all
from sqlalchemy.orm import Session, aliased

from lavra.errors import InputError
from lavra.registry.identifiers import parse_printed, plate_forms
from lavra.registry.records import normalize_cpf_cnpj
from lavra.registry.statements import view_select
from lavra.registry.tables import DocumentRow, LicenceRow, PartyRow, VehicleRow

__all__ = ["BY_NUMBER", "OF_HOLDER", "OF_VEHICLE", "LicenceQuestions", "licence_rows",
           "plate_renavam_key"]

BY_NUMBER, OF_HOLDER, OF_VEHICLE = 0, 1, 2
"""The tag of each question's rows."""

VIEW_COLUMNS = 24
"""The columns of :func:`lavra.registry.statements.view_select` (a row's first ones)."""


@dataclass(frozen=True)
class LicenceQuestions:
    """What a check asks: the licence numbered ``number`` (of ``kind`` when the number
    has no series), the licences of ``holder`` (CPF/CNPJ) of ``holder_kind`` (None: of
    every kind, as ``licences_held`` without a kind), the licences of the vehicle
    ``placa``; None: not asked."""

    number: str | None = None
    kind: str | None = None
    holder: str | None = None
    holder_kind: str | None = None
    placa: str | None = None


_FIRST = aliased(VehicleRow, name="primeiro")
_FIRST_RENAVAM = (select(_FIRST.renavam)
                  .where(_FIRST.placa.in_(bindparam("placas", expanding=True)))
                  .order_by(_FIRST.id).limit(1).correlate(None).scalar_subquery()
                  .label("renavam_da_placa"))
"""The RENAVAM of the first vehicle registered under the plate (``placas``: its forms),
as the identity check reads that vehicle (:func:`lavra.registry.identities.
plate_and_renavam`), on each row of the vehicle's licences."""
_NO_RENAVAM = null().label("renavam_da_placa")

Remember = Callable[[Hashable, Callable[[], Any]], Any]


def _tag(question: int) -> Any:
    """The question's tag, a column of its rows (inline: no parameter to type)."""
    return literal_column(str(question), Integer).label("pergunta")


@cache
def _statement(number: bool, series: bool, holder: bool, placa: bool,
               holder_kind: bool = True) -> Any:
    branches = []
    if number:
        stmt = (view_select()
                .add_columns(_tag(BY_NUMBER), LicenceRow.id, _NO_RENAVAM)
                .join(DocumentRow, DocumentRow.id == LicenceRow.document_id)
                .where(DocumentRow.number == bindparam("number"),
                       DocumentRow.year == bindparam("year")))
        branches.append(stmt.where(DocumentRow.series == bindparam("series")) if series
                        else stmt.where(LicenceRow.kind == bindparam("number_kind")))
    if holder:
        stmt = view_select(holder=True).add_columns(_tag(OF_HOLDER), LicenceRow.id, _NO_RENAVAM)
        if holder_kind:  # else every kind of the holder's
            stmt = stmt.where(LicenceRow.kind == bindparam("holder_kind"))
        branches.append(stmt.where(PartyRow.doc == bindparam("doc")))
    if placa:
        branches.append(view_select(placa=True)
                        .add_columns(_tag(OF_VEHICLE), LicenceRow.id, _FIRST_RENAVAM)
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
    holder = questions.holder is not None
    if holder:
        try:
            values["doc"] = normalize_cpf_cnpj(str(questions.holder))
            if questions.holder_kind is not None:
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


def licence_rows(session: Session, questions: LicenceQuestions,
                 remember: Remember | None = None) -> dict[int, list[Sequence[Any]]] | None:
    """The rows of each question asked (:data:`BY_NUMBER`, :data:`OF_HOLDER`,
    :data:`OF_VEHICLE`; each row the columns of ``view_select``, oldest first), one
    statement for all; a question left out has no key. None when none is asked.
    ``remember`` (the registry's read-scope memo, :meth:`lavra.registry.queries.
    RegistryQueries.remembered`): where the vehicle's licences were read, the RENAVAM
    of the first vehicle registered under the plate is kept under
    :func:`plate_renavam_key` (module doc)."""
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
    first: str | None = None  # read: the plate has a vehicle
    statement = _statement(number, series, holder, placa, "holder_kind" in values)
    for row in session.execute(statement, values):
        found[row[VIEW_COLUMNS]].append(row[:VIEW_COLUMNS])
        if row[VIEW_COLUMNS] == OF_VEHICLE:
            first = row[-1] or ""
    if first is not None and remember is not None:
        renavam = first
        remember(plate_renavam_key(values["placas"]), lambda: renavam)
    return found


def plate_renavam_key(forms: Iterable[str]) -> Hashable:
    """The read scope's key of the RENAVAM of the first vehicle registered under any of
    the plate's ``forms`` (:func:`licence_rows`; "": it holds none)."""
    return ("plate_renavam", tuple(sorted(forms)))
