"""Reversing an act's effect on the licensing state (an appeal granted), and the acts
that only mention another (an appeal denied): used by :class:`lavra.registry.state.
StateWriter`, in the session of the act's record.

A reversal (:class:`~lavra.registry.effects.Restore` with ``reverses``) gives each
licence the reversed act ended (and that no later act changed since) the status it
had before that act, and ends the bars that act imposed on the day before the
reversing act: the bar stays in the history, and its first last day is kept in the
change's "before" so that cancelling the reversing act puts it back. The licence may
not come back while another holds its place (the vehicle's or the person's group);
the refusal names the licence that holds it.

Reversing an act that itself reversed another (a higher instance reforming the decision
that granted the appeal) re-applies what that decision undid: each licence it
restored, and that no later act changed since, returns to the status the decision
found (cassado, recolhido...), and each bar it lifted gets its first last day back; the
timeline says so ("volta a ... pelo ..."), and cancelling the reforming act undoes it.

Reversing a decision that kept the act it ruled on (an appeal denied: the pack declares
it, :attr:`~lavra.registry.effects.Mention.upholds`, and the decision's record keeps the
act's number, kind ``upheld``) reverses that act: the higher instance granting the
appeal against the denial undoes the penalty the denial kept ("restabelecido pelo ...,
que reformou o ..."); cancelling it undoes that too.

Every reversal also marks the reversed act itself as annulled on appeal (an auto de
infração ends no licence: this mark is all its reversal does). Two changes record it:
one of the reversing act (kind :data:`ANNULS`), in the timeline of the party and the
vehicle the annulled act names; one on the annulled act (kind :data:`ANNULLED`), which
:func:`annulled` finds by the act's id (indexed). The mark stands while the reversing
act is not itself reversed (a higher instance reforming it); cancelling the reversing
act removes both (:func:`undo_annulments`), and the rebuild replays them. Reading
kept for that cancellation: it restores the mark's absence and is not refused for the
acts judged meanwhile without the annulled act (a later auto not doubled): they rest on
the registry as it stood when they were issued, as every act does; the cancelled
decision stays in the registry, with the reason of its cancellation.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.registry.effects import STATUS_TEXT, LicenceStatus, Mention, Restore
from lavra.registry.guards import DIVERGENCE, GRANT, Refusal, place_refusal, placed
from lavra.registry.identifiers import same_plate
from lavra.registry.records import printed_number
from lavra.registry.statements import ANNULMENT_MARKS
from lavra.registry.tables import (
    BarRow,
    DocumentRow,
    LicenceRow,
    PartyRow,
    StateChangeRow,
    VehicleRow,
)
from lavra.textutil import format_date

if TYPE_CHECKING:
    from lavra.registry.effects import Act
    from lavra.registry.state import StateWriter

__all__ = ["ANNULLED", "ANNULS", "BAR_LIFTED", "BAR_RESTORED", "KEPT", "REINSTATED", "UPHELD",
           "annulled", "give_back", "mention", "put_back", "put_back_kept", "reverse",
           "snapshot", "standing_marks", "undo_annulments", "undo_lifted"]

KEPT = ("status", "status_document_id", "status_since", "valid_until", "holder_id",
        "driver_id", "vehicle_id", "facts")
"""The licence's columns a change keeps as they were before it."""
STATUS_KEPT = ("status", "status_document_id", "status_since")
BAR_LIFTED = "bar-lifted"
BAR_RESTORED = "bar-restored"
REINSTATED = "reinstated"
REPENALISED = "re-penalised"
UPHELD = "upheld"
ANNULS = "annuls"
ANNULLED = "annulled"
DEPTH = 4
"""How many decisions that kept an act a reversal follows down to the act itself."""


def snapshot(licence: LicenceRow) -> dict[str, Any]:
    """The licence's :data:`KEPT` columns, as JSON values."""
    kept: dict[str, Any] = {}
    for name in KEPT:
        value = getattr(licence, name)
        kept[name] = value.isoformat() if isinstance(value, date) else value
    return kept


def put_back(licence: LicenceRow, before: dict[str, Any],
             names: tuple[str, ...] = KEPT) -> None:
    """Give the licence the ``names`` columns it had in ``before`` (a :func:`snapshot`)."""
    for name in names:
        if name == "facts" and name not in before:  # kept before the facts existed
            continue
        value = before.get(name)
        if name in ("status_since", "valid_until") and isinstance(value, str):
            value = date.fromisoformat(value)
        setattr(licence, name, value)


def put_back_kept(writer: StateWriter, licence: LicenceRow, before: dict[str, Any],
                  printed: str) -> None:
    """Put ``licence`` back as it was before the act ``printed``, being cancelled (its
    kept columns, and its ``exclusive`` group when kept). A licence in force that took
    its place meanwhile (a new alvará for the vehicle after a cassação) makes the unique
    index refuse the write: the cancellation is refused naming it
    (:func:`lavra.registry.guards.place_refusal`), the place read as restored."""
    names = KEPT + tuple(name for name in ("exclusive",) if name in before)

    def refusal() -> Refusal | None:
        with writer.session.no_autoflush:  # the restored place, read without writing it
            put_back(licence, before, names)
            return place_refusal(writer.session, licence,
                                 f"restabelecido pelo cancelamento do {printed}")

    with placed(writer, refusal):
        put_back(licence, before, names)


def give_back(writer: StateWriter, act: Act, effect: Restore) -> None:
    """A recalled licence given back (devolução), with the accessories its recolhimento
    ended, or a suspension lifted. Each returns to force in a savepoint
    (:func:`lavra.registry.guards.placed`): another licence in force holding the place
    refuses it naming that licence and the provision (the unique index decides, there is
    no check before: the recalled licence held no place meanwhile). The pack's
    accessories (selo, auxiliary's alvará, publicity, third-party vehicle) declare no
    group, so the indexes never hold them; an accessory a pack puts in a group gets the
    same named refusal, never the database's conflict."""
    licence = writer.licence(effect.target)
    if licence is not None and licence.status == LicenceStatus.SUSPENDED.value:
        writer.set_status(act, licence, LicenceStatus.ACTIVE.value, "restored",
                          f"{licence.printed} liberado pelo {act.printed}.")
        return
    if licence is None or licence.status != LicenceStatus.RECALLED.value:
        return
    ended_by, base = licence.status_document_id, licence
    with placed(writer, partial(place_refusal, writer.session, licence,
                                f"devolvido pelo {act.printed}")):
        writer.set_status(act, licence, LicenceStatus.ACTIVE.value, "restored",
                          f"{licence.printed} devolvido pelo {act.printed}.")
    for accessory in writer.session.scalars(
        select(LicenceRow).where(LicenceRow.base_id == base.id,
                                 LicenceRow.status == LicenceStatus.ENDED.value,
                                 LicenceRow.status_document_id == ended_by)
    ).all():
        blocked = f"restabelecido com o {base.printed}, devolvido pelo {act.printed},"
        with placed(writer, partial(place_refusal, writer.session, accessory, blocked)):
            writer.set_status(act, accessory, LicenceStatus.ACTIVE.value, "restored",
                              f"{accessory.printed} volta a valer com o {base.printed}.")


def reverse(writer: StateWriter, act: Act, effect: Restore, *, depth: int = 0,
            reformed: str | None = None) -> None:
    """Undo, for the future, what the act ``effect.target`` did (module doc); a decision
    that kept the act it ruled on: that act (``reformed`` names the decision)."""
    session = writer.session
    target = writer.document(effect.target)
    if target is None:
        return
    when = format_date(act.reference_date)
    by = f"{act.printed}, que reformou o {reformed}," if reformed else f"{act.printed},"
    _annul(writer, act, target, f"{by} em {when}")
    changes = session.scalars(select(StateChangeRow).where(
        StateChangeRow.document_id == target.id, StateChangeRow.licence_id.is_not(None))
        .order_by(StateChangeRow.id)).all()
    for change in changes:
        licence = session.get(LicenceRow, change.licence_id)
        if (licence is None or not isinstance(change.before, dict)
                or change.kind in (DIVERGENCE, GRANT) or licence.status_document_id != target.id
                or licence.status == LicenceStatus.ACTIVE.value):
            continue  # not ended by it, or changed by a later act since
        blocked = f"restabelecido pelo {act.printed}"
        if change.before.get("status") == LicenceStatus.ACTIVE.value and \
                writer.refuse_or_diverge(act, place_refusal(session, licence, blocked),
                                         licence=licence):
            continue  # replayed: the licence in force keeps the place
        before = snapshot(licence)
        with placed(writer, partial(place_refusal, session, licence, blocked)):
            put_back(licence, change.before, STATUS_KEPT)
        writer.change(act, REINSTATED,
                      f"{licence.printed} restabelecido pelo {by} em {when}.",
                      licence=licence, before=before)
    for bar in session.scalars(select(BarRow).where(
            BarRow.document_id == target.id, BarRow.until >= act.reference_date)
            .order_by(BarRow.id)).all():
        kept = {"bar_id": bar.id, "until": bar.until.isoformat()}
        bar.until = act.reference_date - timedelta(days=1)
        writer.change(act, BAR_LIFTED,
                      f"Impedimento imposto pelo {effect.target} levantado pelo "
                      f"{by} em {when}.",
                      party=session.get(PartyRow, bar.party_id), before=kept)
    if not _reform(writer, act, effect, target.id) and depth < DEPTH:
        kept_act = session.scalars(select(StateChangeRow).where(
            StateChangeRow.document_id == target.id, StateChangeRow.kind == UPHELD)
            .order_by(StateChangeRow.id).limit(1)).first()
        ruled = kept_act.before.get("upheld") if kept_act is not None and isinstance(
            kept_act.before, dict) else None
        if isinstance(ruled, str):
            reverse(writer, act, Restore(ruled, effect.citation, reverses=True),
                    depth=depth + 1, reformed=effect.target)
    session.flush()


def _annul(writer: StateWriter, act: Act, target: DocumentRow, by: str) -> None:
    """Mark ``target`` annulled on appeal by ``act`` (module doc): ``by`` names the act
    and its date ("DEC-X nº 0001/2026, em 20/03/2026")."""
    session = writer.session
    printed = printed_number(target.series, target.number, target.year)
    party = None if target.cpf_cnpj is None else session.scalars(
        select(PartyRow).where(PartyRow.doc == target.cpf_cnpj)).first()
    vehicle = None if target.placa is None else session.scalars(
        select(VehicleRow).where(same_plate(VehicleRow.placa, target.placa))
        .order_by(VehicleRow.id)).first()
    writer.change(act, ANNULS, f"{printed} anulado em recurso pelo {by}.", party=party,
                  vehicle=vehicle, before={"annulled": target.id})
    session.add(StateChangeRow(
        document_id=target.id, kind=ANNULLED, on=act.reference_date,
        detail=f"Anulado em recurso pelo {by}.",
        before={"by": act.document_id, "printed": act.printed,
                "on": act.reference_date.isoformat()}))


def annulled(session: Session, document_ids: set[int], depth: int = 0,
             ) -> dict[int, tuple[str, date]]:
    """Of the acts ``document_ids``, those annulled on appeal by an act that stands (not
    itself annulled by a higher instance): id → (the annulling act as printed, its
    date)."""
    if not document_ids:
        return {}
    rows = session.execute(ANNULMENT_MARKS,
                           {"ids": sorted(document_ids), "kind": ANNULLED}).all()
    return standing_marks(session, rows, depth)


def standing_marks(session: Session, rows: Iterable[tuple[int, Any]], depth: int = 0,
                   ) -> dict[int, tuple[str, date]]:
    """What :func:`annulled` answers from the annulment marks ``rows`` already read
    (target, before; in the order of :data:`ANNULMENT_MARKS`): each deciding act
    followed up to :data:`DEPTH` levels."""
    marks = [(target, before) for target, before in rows if isinstance(before, dict)
             and isinstance(before.get("by"), int)]
    deciders = {before["by"] for _, before in marks}
    undone = annulled(session, deciders, depth + 1) if marks and depth < DEPTH else {}
    found: dict[int, tuple[str, date]] = {}
    for target, before in marks:
        if before["by"] not in undone:
            found[target] = (str(before.get("printed") or ""),
                             date.fromisoformat(str(before.get("on"))))
    return found


def undo_annulments(session: Session, document_id: int,
                    changes: list[StateChangeRow]) -> None:
    """Before cancelling a reversing act: remove the marks it left on the acts it
    annulled (they stand again)."""
    for change in changes:
        if change.kind != ANNULS or not isinstance(change.before, dict):
            continue
        for mark in session.scalars(select(StateChangeRow).where(
                StateChangeRow.document_id == change.before.get("annulled"),
                StateChangeRow.kind == ANNULLED)).all():
            if isinstance(mark.before, dict) and mark.before.get("by") == document_id:
                session.delete(mark)


def _reform(writer: StateWriter, act: Act, effect: Restore, target_id: int) -> bool:
    """``effect.target`` reversed another act: re-apply what it undid (module doc).
    Whether it was such an act (it reinstated a licence or lifted a bar)."""
    session = writer.session
    changes = session.scalars(select(StateChangeRow).where(
        StateChangeRow.document_id == target_id,
        StateChangeRow.kind.in_((REINSTATED, BAR_LIFTED))).order_by(StateChangeRow.id)).all()
    when = format_date(act.reference_date)
    for change in changes:
        if change.kind != REINSTATED or not isinstance(change.before, dict):
            continue
        licence = session.get(LicenceRow, change.licence_id)
        if licence is None or licence.status != LicenceStatus.ACTIVE.value:
            continue
        since = session.scalars(select(StateChangeRow.id).where(
            StateChangeRow.licence_id == licence.id, StateChangeRow.id > change.id,
            StateChangeRow.document_id != target_id, StateChangeRow.kind != "mentioned")
            .limit(1)).first()
        if since is not None:
            continue  # changed by a later act since: it keeps that act's status
        before = snapshot(licence)
        put_back(licence, change.before, STATUS_KEPT)
        status = STATUS_TEXT.get(licence.status, licence.status)
        writer.change(act, REPENALISED,
                      f"{licence.printed} volta a {status} pelo {act.printed}, que reformou "
                      f"o {effect.target}, em {when}.", licence=licence, before=before)
    lifted = [c for c in changes if c.kind == BAR_LIFTED and isinstance(c.before, dict)]
    for change in lifted:
        kept = change.before if isinstance(change.before, dict) else {}
        bar = session.get(BarRow, kept.get("bar_id"))
        until = kept.get("until")
        if bar is None or not isinstance(until, str) or date.fromisoformat(until) <= bar.until:
            continue
        before = {"bar_id": bar.id, "until": bar.until.isoformat()}
        bar.until = date.fromisoformat(until)
        writer.change(act, BAR_RESTORED,
                      f"Impedimento levantado pelo {effect.target} restabelecido pelo "
                      f"{act.printed}, em {when}, até {format_date(bar.until)}.",
                      party=session.get(PartyRow, bar.party_id), before=before)
    return bool(changes)


def mention(writer: StateWriter, act: Act, effect: Mention) -> None:
    """Put ``effect.detail`` in the timeline of what the act ``effect.target`` changed
    (its licences, the parties it barred) and of ``effect.party``."""
    session = writer.session
    target = writer.document(effect.target)
    licences: set[int] = set()
    parties: set[int] = set()
    if target is not None:
        for licence_id, party_id in session.execute(
                select(StateChangeRow.licence_id, StateChangeRow.party_id)
                .where(StateChangeRow.document_id == target.id)).all():
            if licence_id is not None:
                licences.add(licence_id)
            elif party_id is not None:
                parties.add(party_id)
    party = writer.party(effect.party, act)
    if party is not None:
        parties.add(party.id)
    for licence_id in sorted(licences):
        writer.change(act, "mentioned", effect.detail,
                      licence=session.get(LicenceRow, licence_id))
    for party_id in sorted(parties):
        writer.change(act, "mentioned", effect.detail, party=session.get(PartyRow, party_id))
    if not licences and not parties:
        writer.change(act, "mentioned", effect.detail)
    if effect.upholds and target is not None:
        writer.change(act, UPHELD, f"O {act.printed} manteve o {effect.target}.",
                      before={"upheld": effect.target})


def undo_lifted(session: Session, document_id: int, printed: str,
                changes: list[StateChangeRow]) -> None:
    """Before cancelling a reversing act: refuse while the party whose bar it lifted
    got a licence since (it rests on the lifting); else give each bar it lifted, or
    restored (a reforming act), the last day it had before."""
    lifted = [c for c in changes if c.kind == BAR_LIFTED and isinstance(c.before, dict)]
    parties = {c.party_id for c in lifted if c.party_id is not None}
    if parties:
        later = session.scalars(select(StateChangeRow.detail).where(
            StateChangeRow.party_id.in_(parties), StateChangeRow.kind == GRANT,
            StateChangeRow.id > lifted[0].id, StateChangeRow.document_id != document_id)
            .order_by(StateChangeRow.id).limit(1)).first()
        if later is not None:
            raise InputError(
                f"O documento {printed} não pode ser cancelado: um ato posterior se apoia "
                f"no impedimento que ele levantou ({later.rstrip('.')}). Cancele antes o ato "
                "posterior.",
                field="/numero",
            )
    restored = [c for c in changes if c.kind == BAR_RESTORED and isinstance(c.before, dict)]
    for change in [*lifted, *restored]:
        before = change.before if isinstance(change.before, dict) else {}
        bar = session.get(BarRow, before.get("bar_id"))
        until = before.get("until")
        if bar is not None and isinstance(until, str):
            bar.until = date.fromisoformat(until)
