"""A person's change of name, proven by the civil registry's certidão and recorded by
staff, so that the person's acts issue again under the new name.

    records = NameRecords(registry)
    record = records.record("123.456.789-09", "Maria Souza Lima", "Certidão de casamento,
                            matrícula 1234...", by="Clara", on=date(2026, 5, 4))
    records.of("12345678909")                 # every change recorded, oldest first

A draft naming a CPF under another name than the registry's is blocked
(:class:`lavra.registry.party_names.NameChange`): a person's name changes only through
the civil registry (Lei nº 6.015/1973, arts. 56 to 58), proven by its certidão. Staff
who saw the certidão record the change here: the record (:class:`PartyNameChangeRow`:
the CPF, the new and the former name, the evidence, who and on which day, migration
0023) is written with the change to the state in one transaction — the new name joins
the CPF's names (``party_names``) and becomes its current one (``parties.name``), the
former stays in the history. A rebuild of the state (``lavra cadastro reconstruir``)
replays the records after the acts (:func:`replay_name_changes`), in the order they
were made, so the change survives it.

Readings chosen (the municipal laws are silent; the civil law decides):
- Only a CPF. A company's razão social changes by its own acts, and the act that names
  the CNPJ under the new name already records it (it only warns): a record here would
  add nothing the law asks, so a CNPJ is refused, saying so.
- The CPF must be known to the registry (an act or a requerimento named it), and the
  new name must differ from the current one other than by accents, case or spacing
  (:func:`lavra.registry.party_names.same_name`): such a difference is no change of
  name and does not block an act.
- The evidence is free text (kind of certidão, its matrícula or book, page and term):
  lavra keeps what staff saw, it does not judge the certidão.
- Replayed after the acts: an act issued after a change names the person by the new
  name (else it is blocked), so the last change recorded is the current name; acts
  imported from before lavra are replayed before it as well, at their own dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from sqlalchemy import Date, Integer, String, Text, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from lavra.errors import InputError
from lavra.inputs.formats import mask_cnpj, mask_cpf
from lavra.inputs.reading import today as today_in_brazil
from lavra.registry.party_names import same_name
from lavra.registry.records import check_text, normalize_cpf_cnpj
from lavra.registry.tables import Base, PartyNameRow, PartyRow

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["NameRecord", "NameRecords", "PartyNameChangeRow", "replay_name_changes"]


class PartyNameChangeRow(Base):
    """Staff recorded that the CPF ``doc`` changed its name from ``previous`` to
    ``name``, proven by ``evidence``: who and on which day (migration 0023). A record of
    the registry, not of the derived state: a rebuild reads it again."""

    __tablename__ = "party_name_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    doc: Mapped[str] = mapped_column(String(14), index=True)
    name: Mapped[str] = mapped_column(String(300))
    previous: Mapped[str] = mapped_column(String(300))
    evidence: Mapped[str] = mapped_column(Text)
    recorded_by: Mapped[str] = mapped_column(String(200))
    recorded_on: Mapped[date] = mapped_column(Date)


@dataclass(frozen=True)
class NameRecord:
    """A change of name recorded: the CPF (digits), the former and the new name, the
    evidence, who recorded it and on which day."""

    doc: str
    previous: str
    name: str
    evidence: str
    recorded_by: str
    recorded_on: date

    def describe(self) -> str:
        """The timeline's line (pt-BR)."""
        return (f"nome alterado de «{self.previous}» para «{self.name}», comprovado por "
                f"{self.evidence}; registrado por {self.recorded_by}")


def _record_of(row: PartyNameChangeRow) -> NameRecord:
    return NameRecord(row.doc, row.previous, row.name, row.evidence, row.recorded_by,
                      row.recorded_on)


def _apply(session: Session, party: PartyRow, name: str, on: date) -> None:
    """The new name joins the party's names (once) and becomes its current one. The
    name rests on the record, not on an act: where an act had already given it (in a
    rebuild, the acts issued after the record are replayed before it), the act no
    longer owns it, so that cancelling that act does not take back a change the civil
    registry made."""
    known = session.scalars(select(PartyNameRow).where(
        PartyNameRow.party_id == party.id, PartyNameRow.name == name)).first()
    if known is None:
        session.add(PartyNameRow(party_id=party.id, name=name, document_id=None, since=on))
    else:
        known.document_id = None
        known.since = on
    party.name = name


class NameRecords:
    """Records the proven changes of a person's name, over one registry."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    def record(self, doc: object, name: object, evidence: object, *, by: object,
               on: date, today: date | None = None) -> NameRecord:
        """Record that the CPF ``doc`` is now named ``name``, proven by ``evidence``;
        InputError in pt-BR naming the field when it cannot be (module doc). A record
        dated after ``today`` (default: the engine's clock) is refused: the change is
        recorded once proven, never ahead."""
        if on > (today or today_in_brazil()):
            raise InputError(
                f"A data do registro ({on:%d/%m/%Y}) é posterior a hoje: a alteração do "
                "nome se registra na data em que é comprovada, nunca em data futura.",
                field="/data")
        if not isinstance(doc, str) or not doc.strip():
            raise InputError("Informe o CPF da pessoa.", field="/cpf")
        try:
            wanted = normalize_cpf_cnpj(doc)
        except InputError as error:
            raise InputError(error.message, field="/cpf") from None
        if len(wanted) == 14:
            raise InputError(
                f"O CNPJ {mask_cnpj(wanted)} é de pessoa jurídica: a alteração da razão "
                "social não se registra aqui; o ato que nomeia a empresa pela nova razão "
                "social a registra (alteração do contrato social).", field="/cpf")
        new = " ".join(check_text(name, "o novo nome", "/nome", 300).split())
        proof = " ".join(check_text(evidence, "o comprovante da alteração (a certidão do "
                                    "registro civil e sua identificação)", "/comprovante",
                                    1000).split())
        who = " ".join(check_text(by, "o nome do responsável", "/responsavel", 200).split())
        with self.registry.database_errors(), self.registry.write_session() as session:
            party = session.scalars(select(PartyRow).where(PartyRow.doc == wanted)
                                    .with_for_update()).one_or_none()
            if party is None or party.name is None:
                raise InputError(f"O CPF {mask_cpf(wanted)} não consta do registro: nenhum "
                                 "ato ou requerimento o nomeou.", field="/cpf")
            if same_name(party.name, new):
                raise InputError(
                    f"O nome informado é o que o registro já tem para o CPF "
                    f"{mask_cpf(wanted)} («{party.name}»): não há alteração a registrar.",
                    field="/nome")
            row = PartyNameChangeRow(doc=wanted, name=new, previous=party.name,
                                     evidence=proof, recorded_by=who, recorded_on=on)
            session.add(row)
            _apply(session, party, new, on)
            session.flush()
            return _record_of(row)

    def of(self, doc: str) -> tuple[NameRecord, ...]:
        """The changes recorded for ``doc``, oldest first (none for a CNPJ)."""
        wanted = normalize_cpf_cnpj(doc)
        with self.registry.database_errors(), self.registry.read_session() as session:
            return tuple(_record_of(row) for row in session.scalars(
                select(PartyNameChangeRow).where(PartyNameChangeRow.doc == wanted)
                .order_by(PartyNameChangeRow.id)).all())


def replay_name_changes(session: Session) -> None:
    """After the acts are replayed in a rebuild: each change recorded, in order, again
    (a CPF the rebuilt state no longer knows is skipped)."""
    for row in session.scalars(select(PartyNameChangeRow).order_by(PartyNameChangeRow.id)):
        party = session.scalars(select(PartyRow).where(PartyRow.doc == row.doc)
                                ).one_or_none()
        if party is not None:
            _apply(session, party, row.name, row.recorded_on)
            session.flush()
