"""Recording later facts on an issued document, and the deadlines that run from them.

The command line (``lavra fato``), the staff page and the API all go through here:

    recorder = FactRecorder(issuer.registry, issuer.engine.content)
    record = recorder.document("AIE-ESC nº 0004/2026")   # or an id
    recorder.record(record, "ciencia", on="2026-03-27", by="Maria (maria)", means="ar")
    recorder.deadlines(record)        # the appeal's last day, counted from that ciência
    recorder.awaited(record)          # before it: the periods that will run from it
    recorder.annotate(registry.timeline(placa="ABC1D23"))   # each act's ciência line

The registry (:mod:`lavra.registry.facts`) refuses what no document may carry (a fact
before its issue or in the future, on a cancelled document, a second ciência). This
module adds what the pack's form metadata says (``"ciencia"``, see
:class:`lavra.checking.content.Acknowledgement`): an act that records the party's ciência
itself (signed on the spot) gets no second one; the deadlines that run from the ciência
are counted from it, on the pack's calendar (:func:`lavra.law.statutory.deadline_for`).
A deadline listed for a form applies to a document when the document's computed basis
(``calculado.fundamento``) cites it, or when the document has no computed basis: a
decision that closes the instance shows no appeal period.

The licence's history (:meth:`FactRecorder.annotate`) shows, beside each act, the same
deadlines: "Ciência em 09/12/2026, pessoalmente — prazo de recurso de 15 dias
encerra-se em 24/12/2026", or, while no ciência is known, "Aguardando ciência: 15 dias
contados da ciência". An act imported from before lavra shows neither: its ciência was
never recorded here, and saying it is awaited would be a guess.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime

from lavra.checking.content import Content
from lavra.errors import InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.overlay import overlay_context
from lavra.law.statutory import (
    StatutoryContext,
    StatutoryDeadline,
    deadline_for,
    load_statutory_context,
    period_size,
)
from lavra.registry.facts import MEANS_LABELS, Fact, FactKind
from lavra.registry.licensing import TimelineEntry
from lavra.registry.records import LOCAL_TZ, IssuedRecord, parse_number
from lavra.registry.store import Registry
from lavra.staff import RegistryStaffValues
from lavra.textutil import format_date

__all__ = ["AwaitedDeadline", "Ciencia", "FactDeadline", "FactRecorder"]


@dataclass(frozen=True)
class Ciencia:
    """The party's ciência of a document: its day and where it is recorded; ``means``
    how it was given ("pessoalmente", "no próprio ato"; empty when not recorded)."""

    on: date
    source: str
    means: str = ""


def _what(act: str) -> str:
    """"defesa" for a notice's deadline, else "recurso" (the facts listings' word)."""
    return "defesa" if "defesa" in act.casefold() else "recurso"


@dataclass(frozen=True)
class FactDeadline:
    """A deadline counted from the document's ciência: ``last_day`` on the pack's calendar.

    ``explanation`` is the deadline table's wording ("O prazo de 10 dias ... encerra-se
    em ..."); ``ciencia`` says from what it was counted.
    """

    citation: str
    reference: str
    act: str
    ciencia: Ciencia
    last_day: date
    explanation: str
    #: "15 dias", "5 dias úteis" (empty for a deadline the table counts otherwise).
    period: str = ""

    @property
    def summary(self) -> str:
        """What the facts listings and the public verification print: "Ciência em
        09/12/2026; prazo de recurso encerra-se em 24/12/2026" (defesa for a notice)."""
        return (f"Ciência em {format_date(self.ciencia.on)}; prazo de {_what(self.act)} "
                f"encerra-se em {format_date(self.last_day)}")

    @property
    def history_line(self) -> str:
        """The licence's history: "Ciência em 09/12/2026, pessoalmente — prazo de recurso
        de 15 dias encerra-se em 24/12/2026 (art. 24 da Lei ...)"."""
        means = f", {self.ciencia.means}" if self.ciencia.means else ""
        size = f" de {self.period}" if self.period else ""
        return (f"Ciência em {format_date(self.ciencia.on)}{means} — prazo de "
                f"{_what(self.act)}{size} encerra-se em {format_date(self.last_day)} "
                f"({self.reference})")

    def to_json(self) -> dict[str, str]:
        return {
            "citation": self.citation,
            "reference": self.reference,
            "act": self.act,
            "ciencia": self.ciencia.on.isoformat(),
            "ciencia_source": self.ciencia.source,
            "last_day": self.last_day.isoformat(),
            "explanation": self.explanation,
            "summary": self.summary,
        }


@dataclass(frozen=True)
class AwaitedDeadline:
    """A deadline that will run from a ciência not yet known: ``period`` as the table
    counts it on the day of issue (the value in force then: the ciência's own day is not
    known yet)."""

    citation: str
    reference: str
    act: str
    period: str

    @property
    def history_line(self) -> str:
        """"Aguardando ciência: 15 dias contados da ciência, para recurso (art. 24 ...)"."""
        return (f"Aguardando ciência: {self.period} contados da ciência, para "
                f"{_what(self.act)} ({self.reference})")


class FactRecorder:
    """Facts on the registry entries of one pack's documents (the module's doc)."""

    def __init__(
        self, registry: Registry, content: Content, context: StatutoryContext | None = None
    ) -> None:
        self.registry = registry
        self.content = content
        self._context = context
        self._staff_values = RegistryStaffValues(registry)

    @property
    def context(self) -> StatutoryContext:
        """The pack's statutory context with the values staff registered (a decreed day
        without expediente moves a last day counted from a ciência, as it does in the
        documents: :class:`lavra.staff.RegistryStaffValues`)."""
        if self._context is None:
            self._context = load_statutory_context(self.content.root)
        return overlay_context(self._context, self._staff_values())

    def document(self, wanted: str | int, series: str | None = None) -> IssuedRecord:
        """The document by its registry id or its number (``0004/2026``, with or without
        its series: ``AIE-ESC nº 0004/2026``)."""
        record: IssuedRecord | None
        if isinstance(wanted, int) or (isinstance(wanted, str) and wanted.strip().isdigit()):
            record = self.registry.get_by_id(int(wanted))
        else:
            text = str(wanted).strip()
            head, sep, tail = text.partition(" nº ")
            if sep and series is None:
                series, text = head.strip(), tail
            elif " " in text and series is None:
                head, _, tail = text.rpartition(" ")
                series, text = head.strip(), tail
            parse_number(text)
            record = self.registry.by_number(text, series)
        if record is None:
            raise InputError(f"Documento «{wanted}» não consta do registro.", field="/documento")
        return record

    def record(
        self,
        record: IssuedRecord,
        kind: str,
        *,
        on: object,
        by: str,
        means: str | None = None,
        amount: object = None,
        reference: str | None = None,
        note: str | None = None,
        now: datetime | None = None,
        first_only: bool = False,
    ) -> Fact:
        """Record a fact on the document's entry (refusals: the module's doc);
        ``first_only``: a standing ciência is returned, not refused
        (:meth:`lavra.registry.facts.RegistryFacts.record_fact`)."""
        if kind == FactKind.CIENCIA.value:
            own = self._own_ciencia(record)
            if own is not None:
                raise InputError(
                    f"O documento {record.printed} já registra a ciência do interessado, dada "
                    f"em {format_date(own)} no próprio ato: não há segunda ciência a "
                    "registrar.",
                    field="/tipo",
                )
        return self.registry.record_fact(
            record.id, kind, on=on, by=by, means=means, amount=amount,
            reference=reference, note=note, now=now, first_only=first_only,
        )

    def revoke(self, fact_id: int, *, reason: str, by: str) -> Fact:
        return self.registry.revoke_fact(fact_id, reason=reason, by=by)

    def _own_ciencia(self, record: IssuedRecord) -> date | None:
        form = self.content.forms.get(record.form)
        ack = None if form is None else form.acknowledgement
        if ack is None or ack.field is None:
            return None
        return maybe_date(pointers.get(record.data, ack.field))

    def ciencia(self, record: IssuedRecord, facts: Sequence[Fact] | None = None) -> Ciencia | None:
        """The party's ciência: given in the act itself, else recorded on its entry."""
        own = self._own_ciencia(record)
        if own is not None:
            return Ciencia(own, f"ciência dada no próprio ato, em {format_date(own)}",
                           "no próprio ato")
        listed = self.registry.facts(record.id) if facts is None else facts
        for fact in listed:
            if fact.kind == FactKind.CIENCIA.value and not fact.revoked:
                return Ciencia(fact.on, f"{fact.describe()}, registrada por {fact.recorded_by}",
                               MEANS_LABELS.get(fact.means or "", fact.means or ""))
        return None

    def _applying(self, record: IssuedRecord) -> list[str]:
        """The form's deadlines from the ciência that apply to this document."""
        form = self.content.forms.get(record.form)
        ack = None if form is None else form.acknowledgement
        if ack is None or not ack.deadlines or record.cancelled:
            return []
        cited = record.computed.get("fundamento") if isinstance(record.computed, Mapping) else None
        return [c for c in ack.deadlines if not isinstance(cited, list) or c in cited]

    def _counted(self, citations: Sequence[str], start: date) -> list[StatutoryDeadline]:
        found = []
        for citation in citations:
            try:
                found.append(deadline_for(citation, start, context=self.context))
            except LavraError:
                continue  # no value in force for that day: the deadline is not shown
        return found

    def _period(self, deadline: StatutoryDeadline) -> str:
        rule = self.context.rules.get(deadline.citation)
        if deadline.period is None or rule is None:
            return ""
        return period_size(deadline.period, rule)

    def deadlines(
        self, record: IssuedRecord, facts: Sequence[Fact] | None = None
    ) -> tuple[FactDeadline, ...]:
        """The deadlines that run from the document's ciência, when it is known."""
        applying = self._applying(record)
        ciencia = self.ciencia(record, facts) if applying else None
        if ciencia is None:
            return ()
        return tuple(FactDeadline(d.citation, d.reference, d.act, ciencia, d.last_day,
                                  d.explanation, self._period(d))
                     for d in self._counted(applying, ciencia.on))

    def awaited(
        self, record: IssuedRecord, facts: Sequence[Fact] | None = None
    ) -> tuple[AwaitedDeadline, ...]:
        """The deadlines that will run from the document's ciência while none is known
        (none once it is: :meth:`deadlines`), their periods as in force on the day of
        issue: for an act imported from before lavra, its own date, not the day the import
        wrote its entry (as :mod:`lavra.registry.facts` reads it)."""
        applying = self._applying(record)
        if not applying or self.ciencia(record, facts) is not None:
            return ()
        issued = (record.reference_date if record.origin is not None
                  else record.issued_at.astimezone(LOCAL_TZ).date())
        return tuple(AwaitedDeadline(d.citation, d.reference, d.act, self._period(d))
                     for d in self._counted(applying, issued) if self._period(d))

    def ciencia_lines(self, record: IssuedRecord) -> tuple[str, ...]:
        """What the licence's history says of the act's ciência (the module's doc)."""
        if record.origin is not None:
            return ()
        facts = self.registry.facts(record.id)
        known = self.deadlines(record, facts)
        if known:
            return tuple(d.history_line for d in known)
        return tuple(d.history_line for d in self.awaited(record, facts))

    def annotate(self, entries: Sequence[TimelineEntry]) -> tuple[TimelineEntry, ...]:
        """The timeline with each act's ciência lines, on the act's first change only (a
        cassação that ends a licence and bars its holder is one act, one ciência)."""
        seen: set[int] = set()
        annotated = []
        for entry in entries:
            if entry.document_id in seen:
                annotated.append(entry)
                continue
            seen.add(entry.document_id)
            record = self.registry.get_by_id(entry.document_id)
            lines = () if record is None else self.ciencia_lines(record)
            annotated.append(replace(entry, ciencia=lines) if lines else entry)
        return tuple(annotated)
