"""The case histories ``lavra demo`` tells: chains of acts a content pack declares.

A chain is a list of steps, each one act of a form issued from the form's embedded
example on a day counted from the start of the chain. A step's data are the example's,
with its dates moved to that day, and then the fields the step *fills* from the acts
issued before it in the same chain: the number an act cites, the date of its ciência,
a validity. So no act of the demo cites an act the demo did not issue, and the number
cited is the one the registry gave, never the example's typed one.

Templates are JSON values whose strings are filled by :meth:`str.format_map` with one
:class:`StepFacts` per earlier step, by its name: ``"{alvara.numero}"`` is the alvará's
number as a clerk types it (``ALV-FRET 0001/2026``), ``"{defesa.ciencia}"`` the date of
the ciência recorded for the defence notice. The engine names no form of its own: the
pack declares the chains (``ContentPack.demo_chains``).

A step may instead be an act from before lavra (:class:`Imported`): the demo does not
sign it, but imports it as ``lavra cadastro importar`` would (one row of the pack's
import kinds, dated by the step), so that a later step cites an act the registry holds
(a renewal notice cites an alvará issued five years before, which the demo's clock
does not sign). The demo imports every such act before it signs any act of its own, as
the cadastro is imported when lavra is adopted, in the order of the acts' dates: a row
may take the number its series gives next in the act's year (``ALV-ESC nº 0001/2026``),
and lavra's own acts of the year continue from the imported ones. The pack dates each
imported act before the first act lavra signs in its series and year (an act from
before lavra is never dated after one of lavra's); the import refuses a number among or
above lavra's own.

A step may also be an applicant's requerimento filed online (:class:`Filing`), as the
public page files it (``lavra.filing``): a protocol number in lavra's own series, the
sealed receipt, the processo the protocol opens. The acts that decide it cite that
protocol as their processo (``"{pedido.impresso}"``), which the registry holds.

An act may print the number of an act issued with it, right after it (a licence and the
seal issued together with it): ``"{proximo:SERIE}"`` is the number the registry will
give next in that series, in the year of the step (``SERIE 0001/2026``, not reserved),
and the companion step is marked ``together``, so that the demo issues it right after
the one before it, with no act of another chain between them, and it takes that number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any


@dataclass(frozen=True)
class Fill:
    """Put ``template`` (a JSON value, its strings filled from earlier steps) at
    ``pointer`` (JSON Pointer) of the step's data; ``""`` as pointer merges an object
    into the data's top level; ``None`` as template leaves the example's value at
    ``pointer`` out (a fact of the example that did not happen in the history: the
    ciência an absent driver did not give in the auto)."""

    pointer: str
    template: Any


@dataclass(frozen=True)
class Imported:
    """The step's act is imported, not signed: ``kind`` is one of the pack's import kinds
    (the column ``tipo``), and ``row(day, number)`` its other columns for the step's day.
    The act's date (the row's) is on or before ``day``, and before the first act the
    demo signs in its series and year. ``number`` is the number the act's series gives
    next in the year of the act ``row(day, 1)`` describes, when the demo imports it,
    before signing anything (run again in the same folder: the number the step imported
    then); a row may keep a number of its own (an act of an exercise in which the demo
    numbers nothing else)."""

    kind: str
    row: Callable[[date, int], Mapping[str, str]]


@dataclass(frozen=True)
class Filing:
    """The step's requerimento (``form``) is filed online, not signed: ``cpf_cnpj`` and
    ``name`` are the JSON Pointers of the filer in the request's data (who files it)."""

    cpf_cnpj: str
    name: str


@dataclass(frozen=True)
class DemoStep:
    """One act of a chain.

    ``day``: days after the chain's start (steps in increasing order); ``hour``: the
    local time of issue (``HH:MM``), later than every hour of the example, so that no
    fact of the act is after its signing. ``fills``: what the act takes from earlier
    steps. ``ciencia``: days after the issue on which the party's ciência is recorded
    as a fact of the registry (None: none; the act's own data say nothing of it).
    ``verify``: at the end of the chain, verify the act and show the situation of the
    licence it granted. ``months``: the months (1–12) the act may fall in, when the law
    allows it only then (empty: any month). ``imported``: the act is from before lavra
    and is imported, not signed (:class:`Imported`; ``form`` is the act's form).
    ``filing``: the step is the applicant's requerimento ``form``, filed online
    (:class:`Filing`); its facts are the protocol's (``numero``: ``PROT 0001/2026``).
    ``together``: issued together with the step before it in the chain (same day, a
    later hour): right after it, no act of another chain between them, so that it takes
    the number the step before it printed as ``"{proximo:SERIE}"``.
    """

    name: str
    form: str
    day: int
    fills: tuple[Fill, ...] = ()
    hour: str = "17:00"
    ciencia: int | None = None
    verify: bool = False
    months: tuple[int, ...] = ()
    imported: Imported | None = None
    filing: Filing | None = None
    together: bool = False


@dataclass(frozen=True)
class DemoChain:
    """A case history: ``title`` (pt-BR) and its steps, in order."""

    name: str
    title: str
    steps: tuple[DemoStep, ...]

    @property
    def length(self) -> int:
        """Days from the first step to the last (and its ciência, if any)."""
        return max((step.day + (step.ciencia or 0) for step in self.steps), default=0)


@dataclass(frozen=True)
class StepFacts:
    """What a template can read of an issued step (the vocabulary is the pack's:
    Portuguese). ``numero``: ``SERIE 0001/2026``; ``impresso``: ``SERIE nº 0001/2026``;
    ``data``: the ISO date of issue; ``valido_ate``: the end of the validity the act
    computed (ISO, or ""); ``ciencia``: the ISO date of the recorded ciência (or "");
    ``calculado``: the act's computed values; ``dados``: the data the act was issued
    with (a filed requerimento: the data filed), so that a later act prints the same
    document with the same date (``"{pedido.dados[veiculo][seguro][validade]}"``);
    ``citado``: the act cited by its own label, as the ``ato`` template filter cites it
    (``Decisão de … SERIE nº 0001/2026``, :func:`lavra.textutil.format_cited_act`)."""

    serie: str
    numero: str
    impresso: str
    data: str
    valido_ate: str
    ciencia: str
    calculado: Mapping[str, Any]
    dados: Mapping[str, Any] = field(default_factory=dict)
    citado: str = ""
