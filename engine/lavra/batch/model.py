"""What a content pack provides for a batch run, and what the engine gives it.

A pack offers a run by putting a :class:`BatchRun` in ``ContentPack.batch_runs``
under the run's name (the ``lavra batch`` argument). The engine calls, in order:

1. :meth:`BatchRun.key`: the name of the run in the registry (what it renews, e.g.
   ``"<nome>:2027"``): one unfinished run per key, resumed by the same command;
2. :meth:`BatchRun.plan`: for each holder, in input order, what it gets, as
   :class:`~lavra.registry.runs.PlannedHolder` values (documents with their series,
   unsigned companion files, or a refusal with its pt-BR reason); it reads the
   registry or the ``entrada`` file, and the ``pedidos`` file, through the
   :class:`PlanContext`;
3. :meth:`BatchRun.link`, inside the numbering transaction: the holder's data
   completed with the printed numbers reserved for it (a document that cites another
   of the same holder's, such as the identification seal of a licence).

A run over licences of another law (one expiring by a date, say) is the same protocol
with other options: the kind reads ``request.options["vencendo_ate"]`` instead of
``"ano"``, and plans its own documents. The kind describes its options
(:attr:`BatchRun.parameters`, one :class:`RunParameter` each) and the forms whose
documents it signs (:attr:`BatchRun.forms`), so that a front end (the web app's run
page) asks for them and lets start it only an account that may sign them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, Protocol, TypeVar

from lavra.batch.intake import FiledScope
from lavra.checking.report import Report
from lavra.errors import InputError
from lavra.registry.runs import PlannedHolder, PlannedOutput

if TYPE_CHECKING:
    from lavra.documents import Prepared
    from lavra.issuing import Issuer
    from lavra.law.overlay import StaffOverlay

P = ParamSpec("P")
T = TypeVar("T")

__all__ = ["BatchRun", "PlanContext", "PlannedHolder", "PlannedOutput", "RunParameter",
           "RunRequest"]


@dataclass(frozen=True)
class RunParameter:
    """One option of a kind of run: its key in ``RunRequest.options`` (``ano``), its
    pt-BR label, its type (``ano``: a year, an int; ``data``: a date, kept as ISO text)
    and the command line's option (``--ano``)."""

    name: str
    label: str
    kind: Literal["ano", "data"]
    flag: str
    help: str = ""


@dataclass(frozen=True)
class RunRequest:
    """What the command asked: the run's name, its options (``{"ano": 2027}``), the date
    of issue of its documents, and the input files (None: the registry)."""

    kind: str
    options: Mapping[str, Any] = field(default_factory=dict)
    on: date = date(1970, 1, 1)
    entrada: Path | None = None
    pedidos: Path | None = None

    def option(self, name: str, label: str) -> Any:
        """The option ``name``, or an InputError asking for ``label`` (``--ano``)."""
        value = self.options.get(name)
        if value is None:
            raise InputError(
                f"A execução «{self.kind}» exige a opção {label}.", field=f"/{name}"
            )
        return value


class PlanContext:
    """The engine as a plan sees it: the issuer over the registry, the request, and the
    completeness check of a form's data (with the registry as case history)."""

    def __init__(self, issuer: Issuer, request: RunRequest) -> None:
        self.issuer = issuer
        self.request = request
        self._staff_values: StaffOverlay | None = None
        # the lookups one holder's checks repeat, read once per holder (per_holder);
        # imported here: it loads lavra.issuing, which `lavra verify` (importing this
        # module's types) must not load (tests/test_warm_up.py)
        from lavra.batch.plan_history import PlanHistory

        self._history = PlanHistory(issuer.registry)

    @property
    def registry(self) -> Any:
        return self.issuer.registry

    def per_holder(self, decide: Callable[P, T]) -> Callable[P, T]:
        """``decide`` (one holder's outputs) reading the registry in one read scope: the
        holder's checks share a session and a snapshot, and the identity and name
        lookups they repeat are asked once (:meth:`lavra.registry.queries.RegistryQueries.
        read_scope`), as are the acts and licences the requerimento's and the acts'
        checks look up (:class:`lavra.batch.plan_history.PlanHistory`); nothing is kept
        from one holder to the next."""

        def decided(*args: P.args, **kwargs: P.kwargs) -> T:
            with self.issuer.registry.read_scope(), self._history.holder():
                return decide(*args, **kwargs)
        return decided

    @contextmanager
    def reading(self, *, acts: Iterable[tuple[str, str]] = (), holders: Iterable[str] = (),
                placas: Iterable[str] = ()) -> Iterator[None]:
        """The plan's reads in one read scope (one transaction: on SQLite, the snapshot
        every holder's decision reads; each holder's :meth:`per_holder` nests in it), and
        what its holders' checks will look up read ahead, for all of them at once: the
        acts (form, number as printed) being renewed and the licences they granted, the
        licences of the holders (CPF or
        CNPJ) and of the vehicles (plates), the bars on the holders on the run's date
        (:mod:`lavra.batch.plan_reads`). A lookup it does not cover reads the registry."""
        from lavra.batch.plan_reads import read_ahead
        from lavra.issuing import _PRINTED_NUMBER

        numbered: list[tuple[str, int, int]] = []
        numbered_acts = list(acts)
        for form, printed in numbered_acts:
            match = _PRINTED_NUMBER.search(printed)
            if match is not None:
                numbered.append((form, int(match.group(1)), int(match.group(2))))
        with self.issuer.registry.read_scope():
            reads = read_ahead(self.registry, self.request.on, acts=numbered,
                               licences=[printed for _, printed in numbered_acts],
                               holders=holders, placas=placas)
            with self._history.reading_ahead(reads):
                yield

    def check(self, form_id: str, data: Mapping[str, Any], on: date | None = None) -> Report:
        """The completeness report of ``data`` as ``form_id`` (what issuing would say)."""
        return self.prepare(form_id, data, on).report

    def prepare(self, form_id: str, data: Mapping[str, Any],
                on: date | None = None) -> Prepared:
        """``data`` as ``form_id`` checked as issuing would, with the computed values
        (a validity the plan passes on to a document that rests on this one), on
        ``on`` or, by default, the run's date of issue, as the workers will."""
        # The Secretaria's values (vigências, taxas) are read once per plan, not once per
        # check: the plan decides on the registry of its start; each worker reads them
        # again for every document it issues (Issuer.prepare).
        return self.issuer.prepare(form_id, data, on or self.request.on,
                                   staff_values=self._values(), history=self._history)

    def _values(self) -> StaffOverlay:
        if self._staff_values is None:
            self._staff_values = self.issuer.staff_values()
        return self._staff_values

    def check_request(self, form_id: str, data: Mapping[str, Any]) -> Report:
        """The completeness report of a requerimento the public filled (its checklist of
        documents pending from the first screen, as on the web page)."""
        with self.issuer.registry.read_scope():
            return self.issuer.engine.check(form_id, data, history=self._history,
                                            staff_values=self._values())

    def series(self, form_id: str) -> str:
        """The series ``form_id`` is numbered in (InputError for a requerimento)."""
        form = self.issuer.engine.content.form(form_id)
        if form.series is None:
            raise InputError(f"O formulário «{form.title}» não é numerado pela Secretaria.")
        return form.series

    def has_form(self, form_id: str) -> bool:
        return form_id in self.issuer.engine.content.forms

    def title(self, form_id: str) -> str:
        """The form's title, as staff read it (``Alvará de Licença de Táxi``)."""
        return self.issuer.engine.content.form(form_id).title


class BatchRun(Protocol):
    """One kind of batch run a pack offers (module docstring)."""

    @property
    def name(self) -> str:
        """The run's name, as given to ``lavra batch``."""

    @property
    def title(self) -> str:
        """The pt-BR title of the run, printed on the summary."""

    @property
    def parameters(self) -> tuple[RunParameter, ...]:
        """The options the run asks for (module docstring)."""

    @property
    def forms(self) -> tuple[str, ...]:
        """The forms whose signed documents the run may issue."""

    def key(self, request: RunRequest) -> str:
        """The name of the run in the registry (InputError for a missing option)."""

    def filed(self, request: RunRequest) -> FiledScope | None:
        """The requests filed online the run reads (none: the run reads none); the
        run's fingerprint covers them (:func:`lavra.batch.intake.filings_stamp`)."""

    def plan(self, context: PlanContext) -> Sequence[PlannedHolder]:
        """What each holder gets, in input order (a refusal for a bad record)."""

    def link(self, holder: PlannedHolder, printed: tuple[str | None, ...]) -> PlannedHolder:
        """``holder`` with its data completed by its reserved printed numbers."""
