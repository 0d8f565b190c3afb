"""Recording later facts on an issued document, and the deadlines that run from them.

The command line (``lavra fato``), the staff page and the API all go through here:

    recorder = FactRecorder(issuer.registry, issuer.engine.content)
    record = recorder.document("AIE-ESC nº 0004/2026")   # or an id
    recorder.record(record, "ciencia", on="2026-03-27", by="Maria (maria)", means="ar")
    recorder.deadlines(record)        # the appeal's last day, counted from that ciência

The registry (:mod:`lavra.registry.facts`) refuses what no document may carry (a fact
before its issue or in the future, on a cancelled document, a second ciência). This
module adds what the pack's form metadata says (``"ciencia"``, see
:class:`lavra.checking.content.Acknowledgement`): an act that records the party's ciência
itself (signed on the spot) gets no second one; the deadlines that run from the ciência
are counted from it, on the pack's calendar (:func:`lavra.law.statutory.deadline_for`).
A deadline listed for a form applies to a document when the document's computed basis
(``calculado.fundamento``) cites it, or when the document has no computed basis: a
decision that closes the instance shows no appeal period.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from lavra.checking.content import Content
from lavra.errors import InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.overlay import overlay_context
from lavra.law.statutory import StatutoryContext, deadline_for, load_statutory_context
from lavra.registry.facts import Fact, FactKind
from lavra.registry.records import IssuedRecord, parse_number
from lavra.registry.store import Registry
from lavra.staff import RegistryStaffValues
from lavra.textutil import format_date

__all__ = ["Ciencia", "FactDeadline", "FactRecorder"]


@dataclass(frozen=True)
class Ciencia:
    """The party's ciência of a document: its day and where it is recorded."""

    on: date
    source: str


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

    @property
    def summary(self) -> str:
        """What the facts listings and the public verification print: "Ciência em
        09/12/2026; prazo de recurso encerra-se em 24/12/2026" (defesa for a notice)."""
        what = "defesa" if "defesa" in self.act.casefold() else "recurso"
        return (f"Ciência em {format_date(self.ciencia.on)}; prazo de {what} encerra-se em "
                f"{format_date(self.last_day)}")

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
            return Ciencia(own, f"ciência dada no próprio ato, em {format_date(own)}")
        listed = self.registry.facts(record.id) if facts is None else facts
        for fact in listed:
            if fact.kind == FactKind.CIENCIA.value and not fact.revoked:
                return Ciencia(fact.on, f"{fact.describe()}, registrada por {fact.recorded_by}")
        return None

    def deadlines(
        self, record: IssuedRecord, facts: Sequence[Fact] | None = None
    ) -> tuple[FactDeadline, ...]:
        """The deadlines that run from the document's ciência, when it is known."""
        form = self.content.forms.get(record.form)
        ack = None if form is None else form.acknowledgement
        if ack is None or not ack.deadlines or record.cancelled:
            return ()
        cited = record.computed.get("fundamento") if isinstance(record.computed, Mapping) else None
        applying = [c for c in ack.deadlines
                    if not isinstance(cited, list) or c in cited]
        ciencia = self.ciencia(record, facts) if applying else None
        if ciencia is None:
            return ()
        found = []
        for citation in applying:
            try:
                deadline = deadline_for(citation, ciencia.on, context=self.context)
            except LavraError:
                continue  # no value in force for that day: the deadline is not shown
            found.append(FactDeadline(citation, deadline.reference, deadline.act, ciencia,
                                      deadline.last_day, deadline.explanation))
        return tuple(found)
