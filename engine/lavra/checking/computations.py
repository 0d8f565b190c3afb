"""Values the law computes for a form: the interface between the engine and a pack's rules.

A form lists the computations it needs under ``"calculos"`` in its
``formulario.json``; the content pack provides them (:attr:`lavra.pack.ContentPack.
computations`). The engine runs each one after the schema and the checks, merges its
:attr:`Computed.values` into the template variable ``calculado`` and its
:attr:`Computed.items` into the completeness report::

    compute = find_computation(pack, "auto_infracao")
    result = compute(ComputeInput(
        form_id="auto-infracao", data=data, on=date(2026, 3, 2),
        pack_dir=pack.root, history=registry_history, draft=True,
    ))
    result.values["total"], result.items

A computation is a pure function of its :class:`ComputeInput`. It never raises for
what the data or the pack lack: a value it cannot compute is reported as a *missing*
item naming it (so a draft lists it as pending and the document cannot be issued),
and ``values`` mark it as pending. Errors of the history itself (the registry)
propagate: they are not defects of the data.

This module also holds the small helpers every pack's rules share (report items at a
field, citations in the order of the law, one item per requirement).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from lavra.checking.conformance import conforms
from lavra.checking.report import Item, Status
from lavra.errors import ContentPackError
from lavra.inputs import pointers
from lavra.inputs.reading import today
from lavra.law.deadlines import UNIT_NAMES
from lavra.law.model import Law, resolve
from lavra.law.overlay import EMPTY_OVERLAY, StaffOverlay

if TYPE_CHECKING:
    from lavra.pack import ContentPack
    from lavra.registry.licence_reads import LicenceQuestions
    from lavra.registry.licensing import LicenceView

__all__ = [
    "EXAMPLE_NOTICE",
    "AmountQuery",
    "Computation",
    "ComputeInput",
    "Computed",
    "DraftState",
    "FiledByParty",
    "FiledProtocol",
    "FilingHistory",
    "History",
    "LicensingHistory",
    "PriorRecord",
    "RecordedFact",
    "bare_reference",
    "basis_cited_once",
    "cited_once",
    "clean_text",
    "filed_by_party",
    "filings",
    "find_computation",
    "form_basis",
    "in_legal_order",
    "item_at",
    "licence_answers",
    "licensing",
    "period_words",
    "state_items",
    "unique_items",
]


EXAMPLE_NOTICE = "VALORES DE EXEMPLO – SEM VALIDADE"
"""Printed in any document whose amounts came from the example table."""


@dataclass(frozen=True)
class RecordedFact:
    """A fact recorded on a document's registry entry after its issue (and not revoked).

    ``kind``: ``ciencia``, ``notificacao`` or ``pagamento``; ``on`` the day it happened
    (and ``at`` the instant, when its time was recorded); ``means`` of a ciência or
    notice (``pessoal``, ``ar``, ``edital``); ``amount`` of a payment (``"123.45"``);
    ``reference`` (the AR, the publication, the slip); who recorded it and when.
    """

    kind: str
    on: date
    at: datetime | None = None
    means: str | None = None
    amount: str | None = None
    reference: str | None = None
    recorded_by: str = ""
    recorded_at: datetime | None = None


@dataclass(frozen=True)
class PriorRecord:
    """An earlier document of the registry, as a computation sees it.

    ``number`` as printed (``"0003/2026"``); ``reference_date`` the date of its facts
    (for an auto, the date of the infraction); ``data`` the data as issued.
    ``form`` and ``series`` of the document; ``valid_until`` the end of its validity
    as registered (``calculado.valido_ate``), None when it has none; ``cancelled``
    whether the registry records it cancelled, and why (``cancel_reason``); ``facts``
    what was recorded on its entry after the issue (ciência, notice, payment), revoked
    ones left out, oldest first; ``annulled_by`` and ``annulled_on``: the act that
    annulled it on appeal (a decision granting the appeal against it, not reformed by a
    higher instance), as printed, and its date; None while it stands.
    """

    number: str
    reference_date: date
    data: Mapping[str, Any]
    form: str = ""
    series: str = ""
    valid_until: date | None = None
    cancelled: bool = False
    cancel_reason: str | None = None
    facts: tuple[RecordedFact, ...] = ()
    annulled_by: str | None = None
    annulled_on: date | None = None

    def fact(self, kind: str) -> RecordedFact | None:
        """The first standing fact of ``kind`` (e.g. the ciência); None if none recorded."""
        return next((f for f in self.facts if f.kind == kind), None)

    @property
    def printed(self) -> str:
        """The number with its series, as the registry prints it (``"AIF-X nº 0003/2026"``)."""
        return f"{self.series} nº {self.number}" if self.series else self.number

    def in_force(self, on: date) -> bool:
        """Not cancelled, started on or before ``on`` and valid through ``on``."""
        return (
            not self.cancelled
            and self.reference_date <= on
            and self.valid_until is not None
            and on <= self.valid_until
        )


class History(Protocol):
    """The case history a computation may consult (the registry, through an adapter)."""

    def prior_autos(
        self, placa: str, form: str, since: date, before: date
    ) -> Sequence[PriorRecord]:
        """Autos of ``form`` that stand (neither cancelled nor annulled on appeal) for the
        vehicle ``placa``.

        Only those whose reference date is on or after ``since`` and before ``before``
        (exclusive), in any order.
        """
        ...

    def document(self, form: str, number: str) -> PriorRecord | None:
        """The document of ``form`` numbered ``number``, cancelled (or annulled on appeal)
        or not; None if absent.

        ``number`` as printed, with or without its series (``"0001/2026"``,
        ``"ALV-X nº 0001/2026"``). The act another act rests on is looked up here.
        """
        ...

    def in_force(self, placa: str, form: str, on: date) -> Sequence[PriorRecord]:
        """Documents of ``form`` for the vehicle ``placa`` in force on ``on`` (not cancelled)."""
        ...

    def by_holder(self, cpf_cnpj: str, form: str) -> Sequence[PriorRecord]:
        """Documents of ``form`` whose holder is ``cpf_cnpj`` (cancelled ones included).

        The holder is the registry's search key of the document (the first CPF or CNPJ
        of its data, breadth first: :func:`lavra.registry.records.search_keys`).
        """
        ...


@runtime_checkable
class LicensingHistory(Protocol):
    """The licensing state as the checks see it (the registry's view of licences and
    bars, :mod:`lavra.registry.licensing`): what the state's guards will refuse at
    record time, asked before anything is numbered. Every lookup is indexed."""

    def tracks(self, kind: str) -> bool:
        """Whether the state follows the licences of ``kind`` (the pack declared them):
        when it does, its answers decide; when not, the checks keep their own."""
        ...

    def licence_status(self, number: str, kind: str | None = None) -> LicenceView | None:
        """The licence the act numbered ``number`` granted (``"ALV-X nº 0001/2026"``; a
        bare number is looked up among licences of ``kind``), with its status; None
        when the state holds none."""
        ...

    def bars(self, cpf_cnpj: str, scope: str, on: date) -> Sequence[tuple[date, str]]:
        """The bars of ``scope`` on the party still running on ``on``: (last day, the
        act that barred, as printed), latest last day first."""
        ...

    def holder_licences(self, cpf_cnpj: str, on: date,
                        kind: str | None = None) -> Sequence[LicenceView]:
        """The licences the party holds in force on ``on`` (of ``kind``, else every kind:
        a company may hold hundreds, so a check that wants one kind asks for it)."""
        ...

    def vehicle_licences(self, placa: str, on: date) -> Sequence[LicenceView]:
        """The licences the vehicle holds in force on ``on`` (every kind)."""
        ...


@dataclass(frozen=True)
class FiledProtocol:
    """A requerimento filed online, as a check sees it (:class:`FilingHistory`)."""

    protocol: str  # "PROT nº 0001/2026"
    form: str
    filed_on: date
    cpf_cnpj: str
    processo: str
    data: Mapping[str, Any] = field(default_factory=dict)
    """The data as filed (what the requerimento says: the act a recurso appeals)."""


@runtime_checkable
class FiledByParty(Protocol):
    """The protocols a party filed, by form (an indexed lookup on the filer): the
    recursos a company has pending against an act, for instance."""

    def filed_by(self, cpf_cnpj: str, form: str) -> Sequence[FiledProtocol]:
        """The filings of ``form`` by ``cpf_cnpj`` (masked or digits), oldest first;
        empty when it is no CPF or CNPJ."""
        ...


def filed_by_party(history: History | None) -> FiledByParty | None:
    """The filings by party behind ``history``, None when it has none."""
    return cast(FiledByParty, history) if conforms(history, FiledByParty) else None


@runtime_checkable
class FilingHistory(Protocol):
    """The registry's protocols (the requerimentos filed online): a protocol number of
    lavra's own series typed in an act must be one the registry holds."""

    def filing(self, protocol: str) -> FiledProtocol | None:
        """The filing of ``protocol`` as printed or typed (``"PROT 0001/2026"``,
        ``"PROT nº 1/2026"``); None when the registry holds no such protocol."""
        ...


@runtime_checkable
class DraftState(Protocol):
    """What the registry says of a draft before it is numbered, from one run of the
    pack's effects over it (:class:`lavra.draftstate.DraftStateChecks`): the earlier acts
    its date precedes, the parties it names otherwise than the registry, the vehicles or
    drivers it names against it."""

    def state_items(self, form: str, data: Mapping[str, Any], computed: Mapping[str, Any],
                    on: date, date_field: str) -> Sequence[Item]:
        """The report's items of the three questions, in that order (dates at
        ``date_field``, where the date came from)."""
        ...


def state_items(history: History | None, form: str, data: Mapping[str, Any],
                computed: Mapping[str, Any], on: date, date_field: str = "/on") -> list[Item]:
    """What the registry says of the draft before it is numbered: each party named
    otherwise than the registry (a new name), each vehicle or driver against it, each
    earlier act its date (from ``date_field``) precedes."""
    if conforms(history, DraftState):  # a history without the registry: nothing to say
        return list(cast(DraftState, history).state_items(form, data, computed, on,
                                                          date_field))
    return []


def filings(history: History | None) -> FilingHistory | None:
    """The protocols behind ``history``, None when it has none."""
    return cast(FilingHistory, history) if conforms(history, FilingHistory) else None


@runtime_checkable
class LicenceAnswering(Protocol):
    """A history that reads a check's licence lookups in one statement
    (:meth:`lavra.issuing.RegistryHistory.answering`)."""

    def answering(self, questions: LicenceQuestions) -> History:
        """The history answering ``questions`` from one read, every other from its own."""
        ...


def licence_answers(history: History | None, questions: LicenceQuestions) -> History | None:
    """``history`` with the lookups of ``questions`` read at once, where it can: the same
    answers, fewer statements; else ``history`` itself."""
    if conforms(history, LicenceAnswering):
        return cast(LicenceAnswering, history).answering(questions)
    return history


def licensing(history: History | None) -> LicensingHistory | None:
    """The licensing state behind ``history``, None when it has none (no registry, or
    a case history without the state)."""
    return cast(LicensingHistory, history) if conforms(history, LicensingHistory) else None


@dataclass(frozen=True)
class ComputeInput:
    """What a computation is given.

    ``on``: the reference date the engine decided. ``pack_dir``: the content pack's
    root. ``history``: the case history, or None (taken as empty). ``draft``: whether
    a MINUTA is being prepared (results do not depend on it: pending values are
    always reported as items, never raised). ``example_values``: let the pack's
    example tables fill values the pack lacks — for ``lavra demo`` only.
    ``issued_on``: the date the document is (or would be) issued; today in
    America/Sao_Paulo (:func:`lavra.inputs.reading.today`) unless given.
    ``issued_at``: the moment of issue (aware, in the calendar's time zone) when the
    engine knows it — now, when nothing else was asked; None when a check was asked for a
    given date only: a fact's time of day is then judged by its date alone.
    ``staff_values``: the days and values staff registered over the pack's data (the
    registry's, when there is one); a pack reads its calendar and parameters with them.
    """

    form_id: str
    data: Mapping[str, Any]
    on: date
    pack_dir: Path
    history: History | None
    draft: bool
    example_values: bool = False
    issued_on: date = field(default_factory=today)
    issued_at: datetime | None = None
    staff_values: StaffOverlay = EMPTY_OVERLAY


@dataclass(frozen=True)
class Computed:
    """Values for the template variable ``calculado``, and report items."""

    values: Mapping[str, Any]
    items: tuple[Item, ...] = field(default=())


Computation = Callable[[ComputeInput], Computed]


@lru_cache(maxsize=32)
def form_basis(root: Path, form_id: str) -> tuple[str, ...]:
    """The fixed ``"fundamento"`` of the form's metadata; () when it cannot be read.

    The engine has loaded and checked the metadata before any computation runs; a
    computation called on its own with a pack that lacks the form just goes without.
    """
    path = root / "forms" / form_id / "formulario.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    listed = raw.get("fundamento") if isinstance(raw, dict) else None
    if not isinstance(listed, list):
        return ()
    return tuple(c for c in listed if isinstance(c, str))


def clean_text(value: Any) -> str | None:
    """A non-blank text of the form data, stripped; None otherwise."""
    return value.strip() if isinstance(value, str) and value.strip() else None


def item_at(field: str, status: Status, message: str, *basis: str) -> Item:
    """A report item about the field at pointer ``field`` (its id is the dotted pointer)."""
    return Item(pointers.dotted(field), status, field, message, tuple(basis))


def bare_reference(laws: Mapping[str, Law], citation: str) -> str:
    """``"art. 21, III"`` from ``"art. 21, III, da Lei nº 4.515/2007"``."""
    cited = resolve(laws, citation)
    title = cited.law.short_title
    return cited.short.removesuffix(f", da {title}").removesuffix(f" da {title}")


def period_words(amount: int, unit: str) -> tuple[str, str]:
    """``("15 dias", "contados")``."""
    singular, plural = UNIT_NAMES.get(unit, (unit, unit))
    if amount == 1:
        return f"{amount} {singular}", "contado"
    return f"{amount} {plural}", "contados"


def in_legal_order(citations: Iterable[str], laws: Mapping[str, Law]) -> list[str]:
    """Unique citations in the order of the laws' text (unknown ones last, as given)."""
    unique = list(dict.fromkeys(citations))

    def key(citation: str) -> tuple[int, int]:
        law_id, _, fragment = citation.partition("#")
        law = laws.get(law_id)
        if law is None or fragment not in law.fragments:
            return (1, unique.index(citation))
        return (0, list(law.fragments).index(fragment))

    return sorted(unique, key=key)


def cited_once(citations: Iterable[str], laws: Mapping[str, Law]) -> list[str]:
    """The citations of a "Fundamento legal", each once, without the bare head of a
    provision also cited: "art. 50, I" already cites the caput whose sentence its inciso
    completes, and "art. 56, § 1º" names its article, so "art. 50" or "art. 56" beside
    them is a duplicate a signer would strike. Every head up the chain goes ("art. 8º,
    § 1º, I" drops both "art. 8º, § 1º" and "art. 8º")."""
    unique = list(dict.fromkeys(citations))
    heads: set[str] = set()
    for citation in unique:
        law_id, _, fragment = citation.partition("#")
        found = laws.get(law_id)
        if found is None:
            continue
        provision = found.fragments.get(fragment)
        while provision is not None and provision.kind in _PARTS and provision.parent:
            heads.add(f"{law_id}#{provision.parent}")
            provision = found.fragments.get(provision.parent)
    return [citation for citation in unique if citation not in heads]


_PARTS = frozenset({"paragrafo", "inciso", "alinea"})
"""The kinds of provision that name the head they belong to when cited."""


def cited_by_law(citations: Iterable[str], laws: Mapping[str, Law]) -> list[str]:
    """Short references with the law named once per run of one law's provisions:
    ``["art. 20, § 2º, e art. 1º, § 3º, da Lei nº 4.515/2007"]``, never "… da Lei nº
    4.515/2007; art. 1º, § 3º, da Lei nº 4.515/2007" (a doubled name a signer would
    strike). A citation of a whole law, or of a law the pack does not hold, stands
    alone."""
    groups: list[tuple[str | None, list[str]]] = []
    for citation in dict.fromkeys(citations):
        law_id, _, fragment = citation.partition("#")
        law = laws.get(law_id)
        short = resolve(laws, citation).short
        key = law_id if law is not None and fragment else None
        if key is not None and groups and groups[-1][0] == key:
            groups[-1][1].append(short)
        else:
            groups.append((key, [short]))
    joined: list[str] = []
    for key, shorts in groups:
        if key is None or len(shorts) == 1:
            joined.extend(shorts)
            continue
        name = laws[key].short_title
        parts = [s.removesuffix(f", da {name}").removesuffix(f" da {name}") for s in shorts]
        joiner = ", e " if "," in parts[-2] else " e "
        tail = ", da " if "," in parts[-1] else " da "
        joined.append(f"{', '.join(parts[:-1])}{joiner}{parts[-1]}{tail}{name}")
    return joined


def basis_cited_once(computed: Mapping[str, Any], laws: Mapping[str, Law]) -> dict[str, Any]:
    """Computed values whose ``fundamento`` (a list of citations) is :func:`cited_once`."""
    basis = computed.get("fundamento")
    if not isinstance(basis, list) or not all(isinstance(c, str) for c in basis):
        return dict(computed)
    return {**computed, "fundamento": cited_once(basis, laws)}


def unique_items(items: Sequence[Item]) -> tuple[Item, ...]:
    """One item per requirement; a pending one wins over a met one."""
    chosen: dict[str, Item] = {}
    for item in items:
        current = chosen.get(item.requirement)
        if current is None or (item.pending and not current.pending):
            chosen[item.requirement] = item
    return tuple(chosen.values())



@dataclass(frozen=True)
class AmountQuery:
    """A question to ``lavra amount``: the fine or fee ``citation`` sets on ``on``.

    ``previous``: the dates of earlier infractions of the same provision by the same
    subject (they decide repeat offences). ``example_values``: let the pack's example
    table fill amounts the pack lacks (demonstrations only). ``staff_values``: the
    values staff registered (the registry's), over the pack's. The pack answers with a
    mapping of JSON values: ``amount`` (``"1234.56"``), ``amount_figures``,
    ``amount_words``, ``explanation``, ``basis`` (citations), ``example`` (a bool) and
    whatever else its law needs (``doubled``, ``sanction``, ``impediment``); it raises
    :class:`lavra.errors.InputError` for a question its law does not answer.
    """

    citation: str
    on: date
    previous: tuple[date, ...]
    pack_dir: Path
    example_values: bool = False
    staff_values: StaffOverlay = EMPTY_OVERLAY


def find_computation(pack: ContentPack, name: str) -> Computation:
    """The computation ``name`` of ``pack`` (ContentPackError when the pack lacks it)."""
    found = pack.computations.get(name)
    if found is None:
        raise ContentPackError(
            f"Cálculo desconhecido nos metadados de um formulário: «{name}» (o pacote "
            f"«{pack.name}» não o fornece)."
        )
    return found


def clear_caches() -> None:
    """Forget the form metadata read by :func:`form_basis`."""
    form_basis.cache_clear()
