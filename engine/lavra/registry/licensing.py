"""The registry's side of the licensing state: the pack's effects applied to each act
recorded, the indexed lookups the checks and the runs ask, the status of a licence,
and the view rebuilt from the acts (``lavra cadastro reconstruir``).

    registry.use_effects(pack.effects)            # by the Issuer, once
    registry.licences_in_force("alvara-taxi", day, placa="ABC1D23")
    registry.licence_of(document_id)              # LicenceView: status, renewed by...
    registry.rebuild_state(apply=False)           # the differences, nothing written

The view is derived: every row of it comes from an issued act's effects
(:mod:`lavra.registry.state`). A registry created before the state existed gets it
built from its documents the first time it is opened with a pack
(:meth:`RegistryState.ensure_state`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from lavra.registry.act_dates import order_by_act
from lavra.registry.cancelled_acts import cancelled_acts
from lavra.registry.database import STATE_BUILD_LOCK, lock_for_transaction
from lavra.registry.effects import STATUS_TEXT, Act, Effect, EffectsOf, Facts, LicenceStatus
from lavra.registry.guards import DIVERGENCE, CitationPrinter, public_divergence
from lavra.registry.identifiers import plate_forms, same_plate
from lavra.registry.licence_facts import as_facts
from lavra.registry.licence_reads import LicenceQuestions, licence_rows
from lavra.registry.name_records import replay_name_changes
from lavra.registry.party_bars import bars_and_name
from lavra.registry.processos import rebuild_processos, release_filings, repoint_filings
from lavra.registry.queries import RegistryQueries
from lavra.registry.records import (
    IssuedRecord,
    Status,
    check_text,
    local_date,
    normalize_cpf_cnpj,
    printed_number,
    record_of,
)
from lavra.registry.reversal import ANNULLED, annulled
from lavra.registry.state import StateWriter, parse_printed
from lavra.registry.state_words import bar_line, doc_words, licence_line, name_line
from lavra.registry.statements import (
    PARTY_NAME,
    VIEW_OF_DOCUMENT,
    licences_of,
    view_by_number,
    views_of,
)
from lavra.registry.tables import (
    BarRow,
    DocumentRow,
    DriverRow,
    FilingRow,
    LicenceRow,
    PartyNameRow,
    PartyRow,
    ProcessoActRow,
    ProcessoRow,
    StateChangeRow,
    StateMetaRow,
    VehicleRow,
)
from lavra.textutil import format_date

__all__ = ["LicenceView", "RegistryState", "StateDiff", "TimelineEntry", "act_of"]

BUILT_KEY = "construido"


def _view_of(row: Sequence[Any]) -> LicenceView:
    (printed, kind, status, status_document_id, document_id, since, valid_from, valid_until,
     exclusive, per_holder, doc, name, placa, series, number, year, revalidated,
     vehicle_changed, t_series, t_number, t_year, transferred_on, driver_cnh, facts) = row
    status_act = None if series is None else printed_number(series, number, year)
    transfer = None if t_series is None else printed_number(t_series, t_number, t_year)
    return LicenceView(
        printed=printed, kind=kind, status=status,
        status_act=status_act if status_document_id != document_id else None,
        status_since=since, valid_from=valid_from, valid_until=valid_until, holder=doc,
        holder_name=name, placa=placa,
        renewed_by=status_act if status == LicenceStatus.RENEWED else None,
        document_id=document_id, exclusive=exclusive, per_holder=per_holder,
        revalidated_on=revalidated, vehicle_changed_on=vehicle_changed,
        transferred_by=transfer, transferred_on=transferred_on if transfer else None,
        driver_cnh=driver_cnh, facts=as_facts(facts),
    )


def act_of(row: DocumentRow) -> Act:
    return Act(
        document_id=row.id, form=row.form, series=row.series,
        printed=printed_number(row.series, row.number, row.year),
        data=row.data if isinstance(row.data, Mapping) else {},
        computed=row.computed if isinstance(row.computed, Mapping) else {},
        reference_date=row.reference_date, valid_until=row.valid_until,
    )


@dataclass(frozen=True)
class LicenceView:
    """A licence as the state holds it, for `verify` and the pages."""

    printed: str
    kind: str
    status: str
    status_act: str | None
    status_since: date | None
    valid_from: date
    valid_until: date | None
    holder: str | None
    holder_name: str | None
    placa: str | None
    renewed_by: str | None = None
    #: The registry id of the act that granted it (the staff pages link to it).
    document_id: int | None = None
    #: The group of licences of which a vehicle holds one in force (``operacao-veiculo``).
    exclusive: str | None = None
    #: The group of licences of which a person holds one in force.
    per_holder: str | None = None
    #: The day of its last revalidation (a periodic check that keeps it in force).
    revalidated_on: date | None = None
    #: The day another vehicle last took its place (a change of vehicle): from then
    #: ``placa`` is that vehicle's, not the one its act named.
    vehicle_changed_on: date | None = None
    #: The act that last moved it to another holder (a transfer, printed) and its day:
    #: ``holder`` is from then the cessionário's.
    transferred_by: str | None = None
    transferred_on: date | None = None
    #: The CNH of the licence's driver as the state holds it (after a transfer, the
    #: cessionário's), or None.
    driver_cnh: str | None = None
    #: The facts the pack's effects keep of it (pointer, value), by pointer: those the
    #: act that granted it stated, as the acts since replaced them (a transfer, a change
    #: of vehicle; :mod:`lavra.registry.licence_facts`).
    facts: Facts = ()

    def holds(self, on: date) -> bool:
        """Whether it still holds its vehicle's or holder's place on ``on``: in force or
        suspended (not ended by any act) and not past its last day, as the state's guard
        counts."""
        return self.status in (LicenceStatus.ACTIVE, LicenceStatus.SUSPENDED) and (
            self.valid_until is None or self.valid_until >= on)

    def transfer_note(self, *, personal: bool = True) -> str:
        """``, transferido a NOME pelo TRF-ESC nº 0001/2026, em 10/03/2026`` after a
        transfer (the act that granted it names the cedente); empty otherwise. Without
        ``personal`` (the public page: nobody's personal data), without the name."""
        if self.transferred_by is None:
            return ""
        to = f" a {self.holder_name}" if self.holder_name and personal else ""
        when = "" if self.transferred_on is None else f", em {format_date(self.transferred_on)}"
        return f", transferido{to} pelo {self.transferred_by}{when}"

    def describe(self, on: date, *, personal: bool = True) -> str:
        """``em vigor``, ``cassado em 05/12/2026 pelo CAS-TAXI nº 0001/2026``, ``vencido``...
        (``personal``: :meth:`transfer_note`)."""
        if self.status == LicenceStatus.ACTIVE:
            if self.valid_until is not None and on > self.valid_until:
                return f"vencido em {format_date(self.valid_until)}"
            if on < self.valid_from:
                return f"em vigor a partir de {format_date(self.valid_from)}"
            if self.revalidated_on is not None and self.revalidated_on <= on:
                return (f"em vigor (revalidado em {format_date(self.revalidated_on)})"
                        f"{self.transfer_note(personal=personal)}")
            return f"em vigor{self.transfer_note(personal=personal)}"
        text = STATUS_TEXT.get(self.status, self.status)
        if self.status == LicenceStatus.RENEWED and self.renewed_by:
            return f"{text} pelo {self.renewed_by}"
        when = "" if self.status_since is None else f" em {format_date(self.status_since)}"
        by = "" if self.status_act is None else f" pelo {self.status_act}"
        if self.status == LicenceStatus.SUSPENDED:
            return f"{text}{when}{by}: não pode ser utilizado até ser liberado"
        return f"{text}{when}{by}"


@dataclass(frozen=True)
class TimelineEntry:
    """One change of the state: its date, the act that made it (number as printed and
    registry id) and what it did, in pt-BR; ``ciencia``: the act's ciência and the last
    day counted from it, or the period awaiting it (:meth:`lavra.recording.FactRecorder.
    annotate`; empty as the registry reads it)."""

    on: date
    printed: str
    detail: str
    document_id: int
    ciencia: tuple[str, ...] = ()


@dataclass(frozen=True)
class StateDiff:
    """What rebuilding the view from the acts changes: lines only in the stored view,
    lines only in the rebuilt one (pt-BR), and how many acts were replayed; and the
    divergências: acts issued against a rule now in force, recorded as issued
    (:class:`lavra.registry.state.StateWriter`, ``replay``), each a pt-BR sentence
    naming the act and the rule."""

    only_stored: tuple[str, ...]
    only_rebuilt: tuple[str, ...]
    acts: int
    divergences: tuple[str, ...] = ()

    @property
    def same(self) -> bool:
        return not self.only_stored and not self.only_rebuilt


def _snapshot(session: Session) -> set[str]:
    """The view as comparable lines (natural keys only: no row ids)."""
    printed = {
        ident: printed_number(series, number, year)
        for ident, series, number, year in session.execute(
            select(DocumentRow.id, DocumentRow.series, DocumentRow.number, DocumentRow.year)
        )
    }
    parties = dict(session.execute(select(PartyRow.id, PartyRow.doc)).all())
    vehicles = {i: (p, r) for i, p, r in session.execute(
        select(VehicleRow.id, VehicleRow.placa, VehicleRow.renavam))}
    drivers = {i: (c, parties.get(p) if p else None) for i, c, p in session.execute(
        select(DriverRow.id, DriverRow.cnh, DriverRow.party_id))}
    base = {i: printed.get(d) for i, d in session.execute(
        select(LicenceRow.id, LicenceRow.document_id))}
    lines: set[str] = set()
    for lic in session.scalars(select(LicenceRow)).all():
        vehicle = vehicles.get(lic.vehicle_id) if lic.vehicle_id else None
        driver = drivers.get(lic.driver_id) if lic.driver_id else None
        lines.add(licence_line(
            lic.printed, lic.kind, holder=parties.get(lic.holder_id or 0), vehicle=vehicle,
            driver=driver, base=base.get(lic.base_id) if lic.base_id else None,
            valid_from=lic.valid_from, valid_until=lic.valid_until, status=lic.status,
            status_by=printed.get(lic.status_document_id or 0),
            status_since=lic.status_since, facts=as_facts(lic.facts)))
    for bar in session.scalars(select(BarRow)).all():
        lines.add(bar_line(parties.get(bar.party_id), bar.until, printed.get(bar.document_id)))
    for numero, doc in session.execute(
        select(ProcessoRow.numero, ProcessoActRow.document_id)
        .join(ProcessoActRow, ProcessoActRow.processo_id == ProcessoRow.id)
    ):
        lines.add(f"processo {numero}: {printed.get(doc)}")
    for numero, pa in session.execute(
        select(ProcessoRow.numero, ProcessoRow.pa).where(ProcessoRow.pa.is_not(None))
    ):
        lines.add(f"processo {numero}: vinculado ao {pa}")
    for party, name, since, owner in session.execute(
            select(PartyNameRow.party_id, PartyNameRow.name, PartyNameRow.since,
                   PartyNameRow.document_id)):
        lines.add(name_line(parties.get(party), name, since, printed.get(owner or 0)))
    for known, current in session.execute(select(PartyRow.doc, PartyRow.name)
                                        .where(PartyRow.name.is_not(None))):
        lines.add(f"nome atual de {doc_words(known)}: «{current}»")
    for target, before in session.execute(select(StateChangeRow.document_id,
                                                 StateChangeRow.before)
                                          .where(StateChangeRow.kind == ANNULLED)):
        by = before.get("by") if isinstance(before, dict) else None
        lines.add(f"ato {printed.get(target)} anulado em recurso pelo "
                  f"{printed.get(by) if isinstance(by, int) else 'ato desconhecido'}")
    return lines


class RegistryState(RegistryQueries):
    """The licensing state over the registry's database (a mixin of the Registry)."""

    _effects: Mapping[str, EffectsOf] | None = None

    # ------------------------------------------------------------ the pack's effects
    def use_effects(self, effects: Mapping[str, EffectsOf]) -> None:
        """Apply the pack's effects, per form, to every act recorded from now on."""
        self._effects = dict(effects)

    @property
    def tracked_kinds(self) -> frozenset[str]:
        """The forms whose acts the state follows (an effect function declared)."""
        return frozenset(self._effects or ())

    def effects_for(self, form: str) -> EffectsOf | None:
        """The pack's effects of ``form`` on the state; None when it declares none."""
        return (self._effects or {}).get(form)

    def apply_effects(self, session: Session, row: DocumentRow) -> None:
        """Apply the effects of the act ``row``, just recorded in ``session``."""
        if not self._effects:
            return
        effects_of = self._effects.get(row.form)
        if effects_of is None:
            return
        act = act_of(row)
        StateWriter(session).apply(act, effects_of(act))

    def undo_effects(self, session: Session, row: DocumentRow) -> None:
        """Undo the effects of ``row`` (being cancelled), or InputError while a later
        act rests on them."""
        StateWriter(session).undo(row.id, printed_number(row.series, row.number, row.year))

    # ------------------------------------------------------------ building
    def ensure_state(self) -> None:
        """Build the view from the documents if it was never built (a registry from
        before the licensing state: the data migration of revision 0006). Acts issued
        against a rule added since are recorded with a divergência in their timeline
        (``lavra cadastro reconstruir --apenas-verificar`` lists them)."""
        if not self._effects:
            return
        with self.database_errors(), self.read_session() as session:
            built = session.get(StateMetaRow, BUILT_KEY)
        if built is None:
            self.rebuild_state(apply=True, unless_built=True)

    def rebuild_state(self, *, apply: bool, unless_built: bool = False) -> StateDiff:
        """Rebuild the view from the issued acts, in the order of their dates, and
        compare it with the stored one; ``apply=False`` writes nothing. An act issued
        against a rule added after it is recorded as issued and reported
        (:attr:`StateDiff.divergences`), never refused: the rebuild replays history.
        One process rebuilds at a time (the writer lock; on PostgreSQL an advisory
        lock); ``unless_built``: nothing is done (an empty diff) when another process
        built the view while this one waited."""
        with self.database_errors(), self.write_session() as session:
            lock_for_transaction(session.connection(), STATE_BUILD_LOCK)
            if unless_built and session.get(StateMetaRow, BUILT_KEY) is not None:
                return StateDiff((), (), 0)
            stored = _snapshot(session)
            held = self._clear(session)
            acts = 0
            writer = StateWriter(session, replay=True)  # history: recorded, not refused
            effects = self._effects or {}
            # Every act at its own moment (lavra.registry.act_dates): lavra's when
            # signed, an imported one at the start of its day, before what lavra signed
            # that day, as the live state reads it (lavra.registry.name_dates).
            for row in session.scalars(
                    select(DocumentRow).where(DocumentRow.status == Status.ISSUED.value)
                    .order_by(*order_by_act(newest_first=False))
                    .execution_options(yield_per=200)):
                effects_of = effects.get(row.form)
                if effects_of is not None:
                    act = act_of(row)
                    writer.apply(act, effects_of(act))
                    acts += 1
            session.flush()
            repoint_filings(session, held)
            replay_name_changes(session)
            rebuilt = _snapshot(session)
            diff = StateDiff(tuple(sorted(stored - rebuilt)), tuple(sorted(rebuilt - stored)),
                             acts, tuple(writer.divergences))
            if apply:
                meta = session.get(StateMetaRow, BUILT_KEY)
                if meta is None:
                    session.add(StateMetaRow(key=BUILT_KEY, value="1"))
            else:
                session.rollback()
            return diff

    @staticmethod
    def _clear(session: Session) -> dict[int, int]:
        """Clear the view; what the protocols hold (their processos with the PA linked,
        their parties) stays, and their licences are named again after the replay."""
        session.execute(delete(StateChangeRow))
        rebuild_processos(session)
        session.execute(delete(BarRow))
        held = release_filings(session)
        session.execute(update(LicenceRow).values(base_id=None))
        session.execute(delete(LicenceRow))
        session.execute(delete(DriverRow))
        session.execute(delete(PartyNameRow))
        session.execute(delete(PartyRow).where(PartyRow.id.not_in(select(FilingRow.party_id))))
        session.execute(update(PartyRow).values(name=None))  # the replay names them again
        session.execute(delete(VehicleRow))
        return held

    # ------------------------------------------------------------ lookups
    def licences_in_force(
        self, kind: str, on: date, *, placa: str | None = None, holder: str | None = None
    ) -> tuple[IssuedRecord, ...]:
        """The acts granting licences of ``kind`` in force on ``on``, for the vehicle or
        holder when given; by number. In force: ``on`` within the validity, and neither
        ended (cassado, revogado, recolhido...) nor cancelled; a licence already renewed
        stays in force until its own last day."""
        return self.licences(kind, on=on, placa=placa, holder=holder,
                             statuses=(LicenceStatus.ACTIVE, LicenceStatus.RENEWED))

    def licences(
        self,
        kind: str,
        *,
        on: date | None = None,
        placa: str | None = None,
        holder: str | None = None,
        statuses: tuple[LicenceStatus, ...] = (LicenceStatus.ACTIVE,),
        expiring: tuple[date, date] | None = None,
    ) -> tuple[IssuedRecord, ...]:
        """The acts granting licences of ``kind`` in one of ``statuses``: valid on ``on``,
        of the vehicle or holder, whose last day falls within ``expiring`` (inclusive),
        as asked; by number. Every condition is answered by an index."""
        values: dict[str, Any] = {
            "kind": check_text(kind, "o formulário", "/formulario", 120),
            "statuses": [s.value for s in statuses],
            "day": None if on is None else local_date(on, "/data"),
            "placas": None if placa is None else plate_forms(placa),
            "doc": None if holder is None else normalize_cpf_cnpj(holder),
        }
        if expiring is not None:
            values["first"], values["last"] = (local_date(d, "/data") for d in expiring)
        stmt = licences_of(on=on is not None, expiring=expiring is not None,
                           placa=placa is not None, holder=holder is not None)
        with self.database_errors(), self.read_session() as session:
            return tuple(record_of(row) for row in session.scalars(stmt, values).all())

    def vehicle_change_note(self, document_id: int, on: date) -> str | None:
        """The last change of vehicle (:class:`~lavra.registry.effects.ChangeVehicle`) of
        the licence the document granted, up to ``on``, as verify says it (pt-BR); None
        when its vehicle is the one its act named."""
        with self.database_errors(), self.read_session() as session:
            row = session.execute(
                select(StateChangeRow.on, DocumentRow.series, DocumentRow.number,
                       DocumentRow.year, VehicleRow.placa)
                .join(DocumentRow, DocumentRow.id == StateChangeRow.document_id)
                .join(LicenceRow, LicenceRow.id == StateChangeRow.licence_id)
                .join(VehicleRow, VehicleRow.id == StateChangeRow.vehicle_id)
                .where(LicenceRow.document_id == document_id, StateChangeRow.kind == "vehicle",
                       StateChangeRow.on <= on)
                .order_by(StateChangeRow.on.desc(), StateChangeRow.id.desc()).limit(1)
            ).first()
        if row is None:
            return None
        day, series, number, year, placa = row
        return (f"veículo substituído pelo de placa {placa} a partir de {format_date(day)}, "
                f"pelo {printed_number(series, number, year)}")

    def public_divergences(self, document_id: int,
                           cite: CitationPrinter | None = None) -> tuple[str, ...]:
        """The divergências of the act ``document_id`` (:meth:`rebuild_state`) as the public
        page states them: the rule, its article (``cite``: if stored raw), naming nobody."""
        with self.database_errors(), self.read_session() as session:
            stored = session.scalars(select(StateChangeRow.before).where(
                StateChangeRow.document_id == document_id,
                StateChangeRow.kind == DIVERGENCE).order_by(StateChangeRow.id)).all()
        return tuple(dict.fromkeys(public_divergence(kept, cite) for kept in stored))

    def licence_of(self, document_id: int) -> LicenceView | None:
        """The licence the document granted, as the state holds it (None: it granted none)."""
        with self.database_errors(), self.read_session() as session:
            return self._view(session, document_id)

    @staticmethod
    def _view(session: Session, document_id: int) -> LicenceView | None:
        found = session.execute(VIEW_OF_DOCUMENT, {"document_id": document_id}).first()
        return None if found is None else _view_of(found)

    def licence_by_number(self, printed: str, kind: str | None = None) -> LicenceView | None:
        """The licence granted by the act numbered ``printed`` (``"ALV-X nº 0007/2026"``;
        without its series, the licence of ``kind`` with that number), through the
        documents' number index; None when the state holds none."""
        parsed = parse_printed(printed)
        if parsed is None:
            return None
        series, number, year = parsed
        stmt = view_by_number(series=series is not None, kind=kind is not None)
        values = {"number": number, "year": year, "kind": kind,
                  "series": None if series is None else series.upper()}
        with self.database_errors(), self.read_session() as session:
            found = session.execute(stmt, values).all()
        return _view_of(found[0]) if len(found) == 1 else None

    def licence_answers(self, questions: LicenceQuestions
                        ) -> dict[int, tuple[LicenceView, ...]] | None:
        """:func:`lavra.registry.licence_reads.licence_rows` as views: every status,
        oldest first, by question; None when none is asked."""
        with self.database_errors(), self.read_session() as session:
            rows = licence_rows(session, questions, self.remembered)
        return None if rows is None else {
            tag: tuple(_view_of(row) for row in found) for tag, found in rows.items()}

    def licences_held(self, on: date, *, placa: str | None = None, holder: str | None = None,
                      kind: str | None = None) -> tuple[LicenceView, ...]:
        """The licences of a vehicle or holder (of ``kind``, when given) that hold their
        place on ``on`` (:meth:`LicenceView.holds`), oldest first."""
        return tuple(view for view in self.licence_views(placa=placa, holder=holder, kind=kind)
                     if view.holds(on))

    def licence_views(self, *, placa: str | None = None, holder: str | None = None,
                      active: bool = False, kind: str | None = None) -> tuple[LicenceView, ...]:
        """The licences of a vehicle or of a holder (every status, or only those in
        force when ``active``; of ``kind``, when given), oldest first."""
        stmt = views_of(placa=placa is not None, holder=holder is not None,
                        kind=kind is not None, active=active)
        values = {"kind": kind, "status": LicenceStatus.ACTIVE.value,
                  "placas": None if placa is None else plate_forms(placa),
                  "doc": None if holder is None else normalize_cpf_cnpj(holder)}
        with self.database_errors(), self.read_session() as session:
            return tuple(_view_of(row) for row in session.execute(stmt, values).all())

    def party_name(self, doc: str) -> str | None:
        """The name a CPF or CNPJ was last registered under; None when unknown."""
        wanted = normalize_cpf_cnpj(doc)

        def lookup() -> str | None:
            with self.database_errors(), self.read_session() as session:
                return session.scalars(PARTY_NAME, {"doc": wanted}).one_or_none()
        return self.remembered(("party_name", wanted), lookup)

    def party_names(self, doc: str) -> tuple[str, ...]:
        """The names a CPF or CNPJ was registered under, oldest first."""
        wanted = normalize_cpf_cnpj(doc)

        def lookup() -> tuple[str, ...]:
            with self.database_errors(), self.read_session() as session:
                return tuple(session.scalars(
                    select(PartyNameRow.name)
                    .join(PartyRow, PartyRow.id == PartyNameRow.party_id)
                    .where(PartyRow.doc == wanted).order_by(PartyNameRow.id)).all())
        return self.remembered(("party_names", wanted), lookup)

    def annulled_acts(self, document_ids: Iterable[int]) -> dict[int, tuple[str, date]]:
        """Of the acts ``document_ids``, those annulled on appeal (a decision granting the
        appeal reversed them, and no higher instance reformed it): id → (the annulling
        act as printed, its date). Indexed by the acts' ids."""
        wanted = set(document_ids)
        if not wanted:
            return {}
        with self.database_errors(), self.read_session() as session:
            return annulled(session, wanted)

    def bars_of(self, doc: str, on: date) -> tuple[tuple[str, date, str], ...]:
        """The bars on a party still running on ``on``: (scope, last day, act printed)."""
        wanted = normalize_cpf_cnpj(doc)  # with its name, kept for party_name (party_bars)
        with self.database_errors(), self.read_session() as session:
            found, name = bars_and_name(session, wanted, on)
        self.remembered(("party_name", wanted), lambda: name)
        return found

    def state_changes(self, *, document_ids: Any = None, placa: str | None = None,
                      holder: str | None = None, licence_document: int | None = None,
                      ) -> Iterator[tuple[date, str, str]]:
        """The timeline of a vehicle or party: (date, act printed, what it did), oldest
        first, through the indexed state (never a scan of the documents). An act
        imported from before lavra is printed with where it came from."""
        for entry in self.timeline(document_ids=document_ids, placa=placa, holder=holder,
                                   licence_document=licence_document):
            yield entry.on, entry.printed, entry.detail

    def timeline(self, *, document_ids: Any = None, placa: str | None = None,
                 holder: str | None = None, licence_document: int | None = None,
                 ) -> tuple[TimelineEntry, ...]:
        """:meth:`state_changes` with each act's registry id (for the pages' links)."""
        stmt = (select(StateChangeRow.on, DocumentRow.series, DocumentRow.number,
                       DocumentRow.year, StateChangeRow.detail, DocumentRow.id,
                       DocumentRow.origin)
                .join(DocumentRow, DocumentRow.id == StateChangeRow.document_id))
        wanted: list[int] | None = None
        with self.database_errors(), self.read_session() as session:
            licence_ids: list[int] = []
            vehicle_ids: list[int] = []
            if placa is not None:
                vehicle_ids = list(session.scalars(
                    select(VehicleRow.id).where(same_plate(VehicleRow.placa, placa))))
                licence_ids = list(session.scalars(
                    select(LicenceRow.id).where(LicenceRow.vehicle_id.in_(vehicle_ids))))
            if holder is not None:
                doc = normalize_cpf_cnpj(holder)
                party = session.scalars(select(PartyRow.id).where(PartyRow.doc == doc)).first()
                if party is None:  # not "party_id IS NULL": every change without a party
                    return ()
                licence_ids = list(session.scalars(
                    select(LicenceRow.id).where(LicenceRow.holder_id == party)))
                stmt = stmt.where((StateChangeRow.licence_id.in_(licence_ids))
                                  | (StateChangeRow.party_id == party))
            elif licence_document is not None:
                stmt = stmt.where(StateChangeRow.licence_id.in_(
                    select(LicenceRow.id).where(LicenceRow.document_id == licence_document)))
            elif document_ids is not None:
                wanted = list(document_ids)
                stmt = stmt.where(StateChangeRow.document_id.in_(wanted))
            else:  # a vehicle's: its licences' changes, and its own (a plate converted)
                stmt = stmt.where(StateChangeRow.licence_id.in_(licence_ids)
                                  | StateChangeRow.vehicle_id.in_(vehicle_ids))
            rows = session.execute(stmt.order_by(StateChangeRow.on, StateChangeRow.id)).all()
            cancelled = cancelled_acts(
                session, self._effects_of, placa=placa, licence_document=licence_document,
                doc=None if holder is None else normalize_cpf_cnpj(holder),
                document_ids=wanted)
        entries = [TimelineEntry(on, printed_number(series, number, year) if origin is None
                                 else f"{printed_number(series, number, year)} "
                                 f"(importado: {origin})", detail, ident)
                   for on, series, number, year, detail, ident, origin in rows]
        # Stable: a cancelled act comes after the changes of its day that stand.
        return tuple(sorted([*entries, *(TimelineEntry(*act) for act in cancelled)],
                            key=lambda entry: entry.on))

    def _effects_of(self, row: DocumentRow) -> Sequence[Effect]:
        """The pack's effects of the act ``row`` (none for a form it does not follow)."""
        of = self.effects_for(row.form)
        return () if of is None else of(act_of(row))
