"""The names a row of ``lavra cadastro importar`` gives to the persons it names.

Issue 22, § 6: a CPF keeps the history of its names, and a person's name changes only
through the civil registry, recorded by staff with its certidão (``lavra cadastro nome``,
:mod:`lavra.registry.name_records`). An imported act records its parties as an issued
act does, so a row naming a CPF the registry (or an earlier row of the same file) knows
under another name would rename the person silently: the import refuses that row instead,
naming the column, the name held, and how a change is registered. Names are compared as
people read them (:func:`lavra.registry.party_names.same_name`).

The reading kept for a company (CNPJ): its razão social changes by its own acts, and an
act naming it under a new one only warns when issued
(:attr:`lavra.registry.party_names.NameChange.blocks`); an imported act does the same
and takes the new name, keeping the former in the CNPJ's history.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from datetime import date
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from lavra.errors import InputError, LavraError
from lavra.inputs.formats import mask_cpf
from lavra.registry.effects import Act, EffectsOf, PartyRef
from lavra.registry.party_names import act_parties, same_name
from lavra.registry.records import normalize_cpf_cnpj
from lavra.registry.tables import PartyNameRow, PartyRow

if TYPE_CHECKING:
    from lavra.registry.importing import PlannedAct

__all__ = ["check_import_names"]

HOW_TO_CHANGE = ("O nome de uma pessoa só muda por ato do registro civil, comprovado por "
                 "certidão, e a importação não altera o nome de ninguém: confira o nome; "
                 "se houve alteração, importe a linha com o nome registrado e registre a "
                 "alteração pelo comando «lavra cadastro nome».")


def _column(row: Mapping[str, str], name: str) -> str:
    """The row's column holding ``name`` ("nome" when none is found)."""
    for column, value in row.items():
        if column.endswith("nome") and same_name(value, name):
            return column
    return "nome"


def _person(ref: PartyRef) -> tuple[str, str] | None:
    """(CPF, name as typed) of a person the act names; None for a company, or a party
    without a name or a readable CPF (the effects refuse those)."""
    if not isinstance(ref.name, str) or not ref.name.strip():
        return None
    try:
        doc = normalize_cpf_cnpj(ref.doc)
    except InputError:
        return None
    return (doc, " ".join(ref.name.split())) if len(doc) == 11 else None


def _former(session: Session, doc: str, typed: str, held: str, on: date) -> bool:
    """``typed`` is a name the CPF had before its current one ``held``, and the act is
    dated before the current name was given: an old act names the person as the person
    was then named (the reading kept, where the law is silent), and the name it gives
    joins the history from its date without becoming the current one
    (:mod:`lavra.registry.name_dates`)."""
    names = dict(session.execute(
        select(PartyNameRow.name, PartyNameRow.since)
        .join(PartyRow, PartyRow.id == PartyNameRow.party_id).where(PartyRow.doc == doc)).all())
    since = next((day for name, day in names.items() if same_name(name, held)), None)
    return since is not None and on < since and any(same_name(name, typed) for name in names)


def check_import_names(session: Session, effects_of: EffectsOf | None, item: PlannedAct,
                       seen: MutableMapping[str, tuple[str, int]]) -> None:
    """InputError (field: the row's name column) when the act of ``item`` names a CPF
    under another name than the registry's current one, or than an earlier row of the
    file (``seen``: CPF → (name, line), filled here)."""
    if effects_of is None:
        return
    act = item.act
    try:
        effects = effects_of(Act(document_id=0, form=act.form, series=act.series,
                                 printed=act.printed, data=act.data, computed=act.computed,
                                 reference_date=act.reference_date, valid_until=None))
    except (LavraError, KeyError, TypeError, ValueError, AttributeError):
        return  # the effects themselves refuse the row when it is recorded
    for doc, typed in filter(None, map(_person, act_parties(effects))):
        field = f"/{_column(item.row, typed)}"
        earlier = seen.get(doc)
        if earlier is not None and not same_name(earlier[0], typed):
            raise InputError(
                f"a linha {earlier[1]} deste arquivo nomeia o CPF {mask_cpf(doc)} "
                f"«{earlier[0]}», e esta linha o nomeia «{typed}»: um CPF tem um só nome. "
                + HOW_TO_CHANGE, field=field)
        held = session.scalars(select(PartyRow.name).where(PartyRow.doc == doc)).first()
        if (earlier is None and held and not same_name(held, typed)
                and not _former(session, doc, typed, held, act.reference_date)):
            raise InputError(
                f"o CPF {mask_cpf(doc)} consta do cadastro como «{held}», e esta linha o "
                f"nomeia «{typed}». " + HOW_TO_CHANGE, field=field)
        seen.setdefault(doc, (typed, item.line))
