"""The municipality's PA number, linked by staff to the processo a protocol opened.

    processos = Processos(registry)
    link = processos.link("PROT nº 0001/2026", "PA 3.210/2026", by="Clara")
    processos.link_of("PROT nº 0001/2026")          # the last link, or None

A protocol opens its processo in lavra's own numbering (:mod:`lavra.registry.filings`);
the Prefeitura's protocol gives the case its own number, the PA. Linking writes a
record (:class:`ProcessoLinkRow`: the PA, who, when) and the processo's current ``pa``
in one transaction; a rebuild of the licensing state reads the PA again from the
records (:func:`rebuild_processos`), so the link survives ``lavra cadastro
reconstruir``. Once linked, an act or requerimento whose data name the PA joins the
processo exactly as one naming the protocol's number does
(:class:`lavra.registry.state.StateWriter`).

Readings chosen (no law speaks of lavra's numbering):
- One PA belongs to one processo: the unique constraint on ``processos.pa`` decides,
  also between two clerks linking at the same moment; the refusal names both processos.
- Linking the PA the processo already holds records nothing new (the same answer).
- A processo holds one PA. Staff may correct it (another PA) while no act has entered
  the processo other than the receipts of its protocols: past that, an act entered
  through the PA or the protocol, and exchanging the number would change which processo
  that act belongs to on a rebuild; the correction is refused in pt-BR. There is no
  unlinking: the link is a record of the case, as the protocol is.
- Acts already issued naming the PA before it was linked (a processo of their own,
  numbered after the PA) move into the protocol's processo when it is linked; a PA that
  a protocol itself opened or joined (a processo of the registry with protocols of its
  own) is refused instead: two protocols' cases are not merged by a link.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from sqlalchemy import Integer, bindparam, delete, or_, select, update
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.registry.database import Conflict
from lavra.registry.effects import Act
from lavra.registry.identifiers import normalize_processo
from lavra.registry.name_dates import newer_name
from lavra.registry.plain_rows import insert_values, table_insert
from lavra.registry.records import LOCAL_TZ, check_text
from lavra.registry.tables import (
    DocumentRow,
    FilingRow,
    LicenceRow,
    PartyNameRow,
    PartyRow,
    ProcessoActRow,
    ProcessoLinkRow,
    ProcessoRow,
)

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["ProcessoLink", "Processos", "join_processo", "joined_only_opened",
           "rebuild_processos", "release_filings", "repoint_filings"]


@dataclass(frozen=True)
class ProcessoLink:
    """The PA linked to the processo ``processo`` (opened by ``protocol``): who linked
    it and when; ``moved``: the acts that came into the processo from one numbered after
    the PA (0 when none, and for an earlier link read back)."""

    protocol: str
    processo: str
    pa: str
    linked_by: str
    linked_at: datetime
    moved: int = 0

    @property
    def linked_at_local(self) -> datetime:
        return self.linked_at.astimezone(LOCAL_TZ)


class Processos:
    """Links PA numbers to the processos protocols opened, over one registry."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    def link(self, protocol: str, pa: str, *, by: str,
             now: datetime | None = None) -> ProcessoLink:
        """Link ``pa`` to the processo of ``protocol`` (as printed: ``PROT nº
        0001/2026``); InputError in pt-BR naming the field when it cannot be (module
        doc: the readings)."""
        numero = normalize_processo(check_text(pa, "o número do processo administrativo "
                                               "(PA)", "/pa", 80))
        who = " ".join(check_text(by, "o nome do responsável", "/responsavel", 200).split())
        moment = (now or datetime.now(UTC)).astimezone(UTC)
        printed = " ".join(str(protocol).split())
        registry = self.registry
        try:
            with registry.database_errors(), registry.write_session() as session:
                filing = session.scalars(
                    select(FilingRow).where(FilingRow.protocol == printed)).one_or_none()
                if filing is None:
                    raise InputError(f"O protocolo {printed} não consta do registro.",
                                     field="/protocolo")
                processo = session.get(ProcessoRow, filing.processo_id, with_for_update=True)
                if processo is None:  # pragma: no cover - foreign key
                    raise InputError(f"O protocolo {printed} não tem processo no registro.",
                                     field="/protocolo")
                if processo.pa == numero:
                    return self._last(session, processo, printed)
                _refuse_taken(session, processo, numero, printed)
                if processo.pa is not None and _acts_entered(session, processo.id):
                    raise InputError(
                        f"O processo {processo.numero} já está vinculado ao {processo.pa} e "
                        "já recebeu atos; o número do processo administrativo não pode ser "
                        "trocado.", field="/pa")
                moved = _take_in(session, processo, numero)
                processo.pa = numero
                session.add(ProcessoLinkRow(processo_id=processo.id, pa=numero,
                                            linked_by=who, linked_at=moment))
                session.flush()
                return ProcessoLink(printed, processo.numero, numero, who, moment, moved)
        except Conflict:
            holder = self._holder(numero)
            if holder is None:
                raise
            raise InputError(_taken_text(numero, holder, printed), field="/pa") from None

    def link_of(self, protocol: str) -> ProcessoLink | None:
        """The PA linked to the processo of ``protocol`` (its last link), or None."""
        printed = " ".join(str(protocol).split())
        with self.registry.read_session() as session:
            processo = session.scalars(
                select(ProcessoRow).join(FilingRow, FilingRow.processo_id == ProcessoRow.id)
                .where(FilingRow.protocol == printed)).one_or_none()
            if processo is None or processo.pa is None:
                return None
            return self._last(session, processo, printed)

    def _holder(self, numero: str) -> str | None:
        with self.registry.read_session() as session:
            return session.scalars(
                select(ProcessoRow.numero).where(ProcessoRow.pa == numero)).one_or_none()

    @staticmethod
    def _last(session: Session, processo: ProcessoRow, printed: str) -> ProcessoLink:
        row = session.scalars(
            select(ProcessoLinkRow).where(ProcessoLinkRow.processo_id == processo.id)
            .order_by(ProcessoLinkRow.id.desc()).limit(1)).one()
        return ProcessoLink(printed, processo.numero, row.pa, row.linked_by, row.linked_at)


def _taken_text(numero: str, holder: str, printed: str) -> str:
    return (f"O {numero} já está vinculado ao processo {holder}; não pode ser vinculado "
            f"também ao processo do protocolo {printed}.")


def _refuse_taken(session: Session, processo: ProcessoRow, numero: str, printed: str
                  ) -> None:
    """InputError when another processo holds the PA, or the PA is the number of a
    processo a protocol opened or joined."""
    holder = session.scalars(
        select(ProcessoRow.numero).where(ProcessoRow.pa == numero,
                                         ProcessoRow.id != processo.id)).one_or_none()
    if holder is not None:
        raise InputError(_taken_text(numero, holder, printed), field="/pa")
    named = session.scalars(select(ProcessoRow).where(ProcessoRow.numero == numero)
                            ).one_or_none()
    if named is None:
        return
    protocol = session.scalars(
        select(FilingRow.protocol).where(FilingRow.processo_id == named.id)
        .order_by(FilingRow.id).limit(1)).first()
    if named.id == processo.id or protocol is not None:
        raise InputError(
            f"O {numero} é o número de um processo do registro aberto pelo protocolo "
            f"{protocol or printed}; informe o número do processo administrativo "
            "dado pelo protocolo da Prefeitura.", field="/pa")


def _acts_entered(session: Session, processo_id: int) -> bool:
    """Whether the processo holds a document other than its protocols' receipts."""
    return session.scalars(
        select(ProcessoActRow.id).where(
            ProcessoActRow.processo_id == processo_id,
            ProcessoActRow.document_id.not_in(select(FilingRow.receipt_id)))
        .limit(1)).first() is not None


def _take_in(session: Session, processo: ProcessoRow, numero: str) -> int:
    """Move into ``processo`` the acts of the processo numbered after the PA (opened by
    acts naming it before it was linked), and drop that processo; how many moved."""
    named = session.scalars(select(ProcessoRow).where(ProcessoRow.numero == numero)
                            ).one_or_none()
    if named is None:
        return 0
    held = set(session.scalars(select(ProcessoActRow.document_id).where(
        ProcessoActRow.processo_id == processo.id)))
    moved = 0
    for row in session.scalars(select(ProcessoActRow).where(
            ProcessoActRow.processo_id == named.id)).all():
        if row.document_id in held:
            session.delete(row)
        else:
            row.processo_id = processo.id
            moved += 1
    session.flush()
    session.delete(named)
    session.flush()
    return moved


_JOINED = select(ProcessoRow.id).where(or_(  # its id alone: no entity is loaded
    ProcessoRow.numero == bindparam("numero"), ProcessoRow.pa == bindparam("numero"))
).order_by(ProcessoRow.pa.is_(None)).limit(1)
_OPENING = table_insert(ProcessoRow)[0].values(numero=bindparam("numero"), pa=None
                                               ).returning(ProcessoRow.id).cte("opened")
_OPENED_WITH_ACT = table_insert(ProcessoActRow)[0].from_select(
    ["processo_id", "document_id"], select(_OPENING.c.id, bindparam("document", type_=Integer))
).returning(ProcessoActRow.processo_id)
"""PostgreSQL: the new processo ``numero`` and the act ``document``'s link to it, by one
statement (a data-modifying WITH) returning its id."""
_OPENED = "lavra.processos_opened"
"""``session.info``: document id → whether every processo the act joined was opened by
it in this transaction (a write session serves one transaction)."""


def join_processo(session: Session, act: Act, numero: object,
                  linked: set[tuple[int, int]], replay: bool) -> None:
    """The act joins the processo ``numero`` (its :class:`~lavra.registry.effects.InProcesso`
    effect), opened when new: the number lavra gave the processo, or the PA staff linked
    to it, joins the same processo. ``linked``: the links the act's writer made (a new
    act has no other: no lookup); ``replay``: the links are looked up (a rebuild keeps
    the protocols' receipts in their processos). The processo and the link are each
    written by one core INSERT (no unit of work); on PostgreSQL a new processo and its
    link by one statement."""
    if not isinstance(numero, str) or not numero.strip():
        return
    try:
        numero = normalize_processo(numero)[:80]
    except InputError:
        return
    processo = session.scalars(_JOINED, {"numero": numero}).first()
    opened = processo is None
    if opened and session.get_bind().dialect.name == "postgresql":  # opened and joined
        processo = int(session.execute(_OPENED_WITH_ACT, {
            "numero": numero, "document": act.document_id}).scalar_one())
    else:
        if processo is None:
            processo = insert_values(session, ProcessoRow, {"numero": numero, "pa": None})
        if (processo, act.document_id) in linked or (replay and session.scalars(
            select(ProcessoActRow.id).where(ProcessoActRow.processo_id == processo,
                                            ProcessoActRow.document_id == act.document_id)
        ).first() is not None):
            return
        insert_values(session, ProcessoActRow, {"processo_id": processo,
                                                "document_id": act.document_id})
    linked.add((processo, act.document_id))
    joined: dict[int, bool] = session.info.setdefault(_OPENED, {})
    joined[act.document_id] = joined.get(act.document_id, True) and opened


def joined_only_opened(session: Session, document_id: int) -> bool:
    """Whether the act ``document_id``, recorded in this transaction, joined processos
    and only processos it opened itself just now: no filing can be in them (a filing
    opens or joins its processo in its own transaction, committed before), so the
    filings it settles need not be looked up
    (:func:`lavra.registry.filing_status.settle_joined`)."""
    return bool(session.info.get(_OPENED, {}).get(document_id, False))


def rebuild_processos(session: Session) -> None:
    """Before the acts are replayed: drop the processos the acts opened, keep those the
    protocols opened (and those linked), each with the PA of its last link and the
    receipts of its protocols; the replayed acts then join them by number or PA."""
    session.execute(delete(ProcessoActRow))
    session.execute(delete(ProcessoRow).where(
        ProcessoRow.id.not_in(select(FilingRow.processo_id)),
        ProcessoRow.id.not_in(select(ProcessoLinkRow.processo_id))))
    session.execute(update(ProcessoRow).values(pa=None))
    session.flush()
    last: dict[int, str] = {}
    for processo_id, pa in session.execute(
            select(ProcessoLinkRow.processo_id, ProcessoLinkRow.pa)
            .order_by(ProcessoLinkRow.id)):
        last[processo_id] = pa
    for processo_id, pa in last.items():
        session.execute(update(ProcessoRow).where(ProcessoRow.id == processo_id)
                        .values(pa=pa))
    for receipt, processo_id in session.execute(
            select(FilingRow.receipt_id, FilingRow.processo_id).order_by(FilingRow.id)):
        session.add(ProcessoActRow(processo_id=processo_id, document_id=receipt))
    session.flush()


def release_filings(session: Session) -> dict[int, int]:
    """Before the state is cleared for a rebuild: the protocols' licences by the
    document that granted them (filing id → document id), their links released (the
    licences are rebuilt under new ids; :func:`repoint_filings` puts them back)."""
    held = {filing: document for filing, document in session.execute(
        select(FilingRow.id, LicenceRow.document_id)
        .join(LicenceRow, LicenceRow.id == FilingRow.licence_id))}
    session.execute(update(FilingRow).values(licence_id=None))
    return held


def repoint_filings(session: Session, held: dict[int, int]) -> None:
    """After the acts are replayed: each protocol names its licence again (the one its
    act granted, when the rebuild granted it again); a party no act named keeps the name
    its first protocol gave it, in its names too, as filing does."""
    seen: set[int] = set()
    for party_id, name, receipt, filed_at in session.execute(
            select(FilingRow.party_id, FilingRow.name, FilingRow.receipt_id,
                   FilingRow.filed_at).order_by(FilingRow.id)):
        if party_id in seen:
            continue
        seen.add(party_id)
        party = session.get(PartyRow, party_id)
        if party is not None and party.name is None:
            party.name = name
        _filed_name(session, party_id, name, receipt, filed_at)
    for filing_id, document_id in held.items():
        licence = session.scalars(select(LicenceRow.id).where(
            LicenceRow.document_id == document_id)).first()
        session.execute(update(FilingRow).where(FilingRow.id == filing_id)
                        .values(licence_id=licence))


def _filed_name(session: Session, party_id: int, name: str, receipt: int,
                filed_at: datetime) -> None:
    """The name the party's first protocol gave it joins its names, as filing does, when
    no act issued before the protocol had named the party (it was not known before)."""
    earlier = session.scalars(
        select(PartyNameRow.id).join(DocumentRow, DocumentRow.id == PartyNameRow.document_id)
        .where(PartyNameRow.party_id == party_id, DocumentRow.issued_at < filed_at)
        .limit(1)).first()
    if earlier is not None:
        return
    since = filed_at.astimezone(LOCAL_TZ).date()
    same = session.scalars(select(PartyNameRow).where(
        PartyNameRow.party_id == party_id, PartyNameRow.name == name)).first()
    if same is None:
        session.add(PartyNameRow(party_id=party_id, name=name, document_id=receipt,
                                 since=since))
        party = session.get(PartyRow, party_id)
        if party is not None and not newer_name(session, party_id, name, since):
            party.name = name  # the protocol's name is newer than the acts' (name_dates)
    elif not _named_before(session, same, since):
        # a later act named it so: the protocol gave the name first
        same.document_id, same.since = receipt, since
    session.flush()


def _named_before(session: Session, name: PartyNameRow, day: date) -> bool:
    """Whether the act that gave ``name`` is one imported from before lavra dated on or
    before ``day``: its entry may have been written after the protocol (the import came
    later), but the act is of its own date (``since``, as :mod:`lavra.registry.facts`
    reads an imported act), so it named the party first and keeps the name. A paper act
    has no hour: one of the protocol's own day is read as earlier (an act from before
    lavra precedes what lavra recorded that day)."""
    if name.document_id is None or name.since is None:
        return False
    origin = session.scalars(select(DocumentRow.origin)
                             .where(DocumentRow.id == name.document_id)).first()
    return origin is not None and name.since <= day
