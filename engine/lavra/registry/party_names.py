"""A party's name in an act against the name the registry holds for its CPF or CNPJ.

The state keeps every name a CPF or CNPJ was registered under (``party_names``) and the
current one (``parties.name``); an act that names a party otherwise records the new name
when it is issued. Before that, staff must see the change, not have it taken silently:
:func:`name_changes` runs the pack's effects of the form over the draft (the parties the
act would write), and returns each party whose name differs from the registry's current
one, with where the act's data types it. The checks turn them into completeness items
(:meth:`lavra.draftstate.DraftStateChecks.state_items`): whether a change blocks the act or
only warns is the law's matter, decided by the kind of party (a company's razão social
changes by its own acts; a person's name, only by the civil registry's).

Names are compared as people read them: accents, case and spacing aside.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from lavra.errors import InputError, LavraError
from lavra.inputs.formats import mask_cnpj, mask_cpf
from lavra.registry.effects import Act, DriverRef, Effect, EffectsOf, PartyRef
from lavra.registry.records import normalize_cpf_cnpj

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["NameChange", "act_parties", "effect_name_changes", "filed_name_change",
           "json_pointer", "name_changes", "same_name"]


@dataclass(frozen=True)
class NameChange:
    """``doc`` (digits, or the alphanumeric CNPJ) is registered as ``registered`` and the
    act names it ``typed``; ``pointer``: where the act's data holds that name ("" when
    it cannot be told); ``company``: a CNPJ (14 characters), else a CPF."""

    doc: str
    typed: str
    registered: str
    previous: tuple[str, ...]
    pointer: str

    @property
    def company(self) -> bool:
        return len(self.doc) == 14

    @property
    def blocks(self) -> bool:
        """The reading kept, where the municipal laws are silent. A company's razão
        social changes lawfully by its own acts (the alteração of its contrato social,
        filed at the Junta Comercial, Lei nº 8.934/1994, art. 32, II, a): the change only
        *warns*, and once the act is issued the registry takes the new name and keeps the
        old one in the CNPJ's history. A person's name changes only through the civil
        registry (marriage, divorce, a court's order: Lei nº 6.015/1973, arts. 56 to 58),
        proven by its certidão; a CPF under another name is more often a typing error or
        another person (one CPF under 4 names, issue 22), so it *blocks* the act until
        the name agrees with the registry's."""
        return not self.company

    def message(self, act: str) -> str:
        """What staff read (pt-BR), ``act`` naming what gives the new name ("este ato",
        "o requerimento")."""
        shown = mask_cnpj(self.doc) if self.company else mask_cpf(self.doc)
        before = [n for n in self.previous if n != self.registered]
        earlier = f" (antes, {', '.join(f'«{n}»' for n in before)})" if before else ""
        said = (f"o {'CNPJ' if self.company else 'CPF'} {shown} consta do registro como "
                f"«{self.registered}»{earlier}, e {act} o nomeia «{self.typed}»")
        if self.company:
            return (f"Alteração de razão social: {said}. A alteração da razão social é "
                    "lícita (alteração do contrato social): confira-a no contrato social ou "
                    "no comprovante de inscrição no CNPJ. Emitido o ato, o registro passa a "
                    "usar o novo nome e conserva o anterior no histórico do CNPJ.")
        return (f"Nome diferente do registrado: {said}. O nome da pessoa física só muda por "
                "ato do registro civil (casamento, divórcio, decisão judicial), comprovado "
                "por certidão: confira o nome no documento apresentado. Se houve alteração, "
                "registre a alteração de nome comprovada por certidão (na página do CPF no "
                "cadastro de licenças, «Registrar alteração de nome», ou pelo comando "
                "«lavra cadastro nome»), e o ato poderá ser emitido; se não houve, corrija "
                "o nome. O ato não é emitido com um nome que o registro não tem para este "
                "CPF.")


def _fold(name: str) -> str:
    text = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in text if not unicodedata.combining(c)).casefold().split())


def same_name(a: str, b: str) -> bool:
    """The same name, accents, case and spacing aside."""
    return _fold(a) == _fold(b)


def _refs(value: Any) -> Iterator[PartyRef]:
    if isinstance(value, PartyRef):
        yield value
    elif isinstance(value, DriverRef):
        yield from _refs(value.person)
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _refs(item)


def act_parties(effects: Sequence[Effect]) -> list[PartyRef]:
    """Every party the effects name (holders, barred parties, drivers, identified
    parties), in order, each CPF or CNPJ once."""
    found: dict[str, PartyRef] = {}
    for effect in effects:
        if not is_dataclass(effect):
            continue
        for spec in fields(effect):
            for ref in _refs(getattr(effect, spec.name)):
                found.setdefault(str(ref.doc), ref)
    return list(found.values())


def json_pointer(data: Any, name: str, at: str = "") -> str | None:
    """The JSON pointer of the first string of ``data`` equal to ``name``."""
    if isinstance(data, str):
        return at if data.strip() == name.strip() else None
    if isinstance(data, Mapping):
        pairs: Iterator[tuple[str, Any]] = ((str(k), v) for k, v in data.items())
    elif isinstance(data, list):
        pairs = ((str(i), v) for i, v in enumerate(data))
    else:
        return None
    for key, value in pairs:
        found = json_pointer(value, name, f"{at}/{key}")
        if found is not None:
            return found
    return None


def name_changes(registry: Registry, effects_of: EffectsOf | None, form: str,
                 data: Mapping[str, Any], computed: Mapping[str, Any],
                 on: date) -> list[NameChange]:
    """The parties the draft of ``form`` names otherwise than the registry (module doc).

    Nothing when the pack declares no effects for the form or they cannot be read from a
    draft still incomplete (the form's own checks say what is missing)."""
    if effects_of is None:
        return []
    act = Act(document_id=0, form=form, series="", printed="", data=data,
              computed=computed, reference_date=on, valid_until=None)
    try:
        effects = effects_of(act)
    except (LavraError, KeyError, TypeError, ValueError, AttributeError):
        return []
    return effect_name_changes(registry, effects, data)


def effect_name_changes(registry: Registry, effects: Sequence[Effect],
                        data: Mapping[str, Any]) -> list[NameChange]:
    """:func:`name_changes` of the effects already run over the draft ``data`` (the
    checks of one draft share one run of them, :mod:`lavra.draftstate`)."""
    changes: list[NameChange] = []
    for ref in act_parties(effects):
        name = " ".join(ref.name.split()) if isinstance(ref.name, str) else ""
        try:
            doc = normalize_cpf_cnpj(ref.doc)
        except InputError:
            continue
        registered = registry.party_name(doc) if name else None
        if registered is None or same_name(registered, name):
            continue
        changes.append(NameChange(doc, name, registered, registry.party_names(doc),
                                  json_pointer(data, str(ref.name)) or ""))
    return changes


def filed_name_change(registry: Registry, doc: str, name: str) -> NameChange | None:
    """The change a requerimento filed online makes to its party's name (the inbox shows
    it beside the filing); None when the registry knows no other name."""
    try:
        wanted = normalize_cpf_cnpj(doc)
    except InputError:
        return None
    typed = " ".join(name.split())
    registered = registry.party_name(wanted) if typed else None
    if registered is None or same_name(registered, typed):
        return None
    return NameChange(wanted, typed, registered, registry.party_names(wanted), "")
