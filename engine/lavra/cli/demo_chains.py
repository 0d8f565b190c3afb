"""``lavra demo``: the case histories of the pack (:mod:`lavra.demochains`), issued in
the order of their dates, all chains on one timeline (:func:`run_chains`).

Each chain runs on an injected clock (:class:`DemoClock`), never the real CLI's: its
acts are signed, numbered and recorded at the moments of its steps, weeks apart, all in
the past, so that no act is dated before a fact it cites and no fact is after the moment
it is recorded. The chain ends by yesterday at the latest (each step in its ``months``
when the law allows the act only then), so the same day gives the same dates and a
second ``lavra demo`` in the same folder finds the acts already issued (idempotency).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from string import Formatter
from typing import Any

from lavra.demochains import DemoChain, DemoStep, Filing, Imported, StepFacts
from lavra.errors import ContentPackError, LavraError
from lavra.filing import FilingDesk
from lavra.inputs import pointers
from lavra.inputs.pointers import escape
from lavra.inputs.reading import TIMEZONE
from lavra.issuing import IncompleteError, Issuer
from lavra.registry.filings import Attachment
from lavra.registry.importing import ImportSpec, PlannedAct
from lavra.registry.records import IssuedRecord, format_number, search_keys
from lavra.registry.store import Registry
from lavra.textutil import act_titles, format_cited_act

CIENCIA_BY = "Demonstração do lavra (ciência pessoal registrada na data do exemplo)"


class DemoClock:
    """A settable "now" for the demo's issuer (timezone-aware)."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


@dataclass(frozen=True)
class Issued:
    """An issued act of a chain: its record and files (new, or found by its key when the
    demo runs again in the same folder)."""

    record: IssuedRecord
    pdf: bytes
    docx: bytes | None


@dataclass(frozen=True)
class ChainAct:
    """An act a chain issued: its step, when (an imported act: the date it bears), its
    result, and (with ``verify``) the situation of the licence it granted, as ``lavra
    verify`` says it at the end."""

    chain: DemoChain
    step: DemoStep
    moment: datetime
    result: Issued | None
    pending: tuple[str, ...] = ()
    ciencia: date | None = None
    verified: bool | None = None
    situation: str | None = None
    imported: bool = False
    filed: bool = False


def chain_start(chain: DemoChain, today: date) -> date:
    """The day of the chain's first step: the chain (with the ciência of its last step)
    ends yesterday at the latest, and every step falls in its ``months``."""
    start = today - timedelta(days=1 + chain.length)
    for _ in range(366):
        if all(not step.months or (start + timedelta(days=step.day)).month in step.months
               for step in chain.steps):
            return start
        start -= timedelta(days=1)
    raise ContentPackError(
        f"A história de demonstração «{chain.name}» não cabe nos meses que os seus passos exigem."
    )


NEXT = "proximo"
"""The template name of the next number of a series: ``"{proximo:SELO-ESC}"``."""


class NextNumber:
    """``"{proximo:SERIE}"``: the number the registry will give next in ``SERIE``, in
    ``year`` (``SERIE 0001/2026``; not reserved: the step marked ``together`` after the
    one that prints it takes it, :func:`run_chains`)."""

    def __init__(self, registry: Registry, year: int) -> None:
        self.registry = registry
        self.year = year

    def __format__(self, series: str) -> str:
        if not series:
            raise ContentPackError(
                "A história de demonstração cita «{proximo}» sem a série: «{proximo:SERIE}».")
        number = self.registry.next_number(series, self.year)
        return f"{series} {format_number(number, self.year)}"


def fill(template: Any, facts: Mapping[str, object]) -> Any:
    """``template`` with its strings filled from the earlier steps' facts."""
    if isinstance(template, Mapping):
        return {key: fill(value, facts) for key, value in template.items()}
    if isinstance(template, list):
        return [fill(value, facts) for value in template]
    if isinstance(template, str):
        for _, name, _, _ in Formatter().parse(template):
            if name is not None and name.split(".")[0].split("[")[0] not in facts:
                raise ContentPackError(
                    f"A história de demonstração cita «{name}», de um passo que ainda não foi "
                    "emitido nela."
                )
        return template.format_map(facts)
    return template


def _put(data: dict[str, Any], pointer: str, value: Any) -> dict[str, Any]:
    if pointer == "":
        if not isinstance(value, Mapping):
            raise ContentPackError("Só um objeto se junta à raiz dos dados do exemplo.")
        return {**data, **value}
    tokens = pointers.split(pointer)
    target: Any = data
    for token in tokens[:-1]:
        target = target[int(token)] if isinstance(target, list) else target.setdefault(token, {})
    last = tokens[-1]
    if value is None and isinstance(target, dict):
        target.pop(last, None)  # the example's value left out (a fact that did not happen)
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return data


def _facts(result: Issued, ciencia: date | None, titles: Mapping[str, str]) -> StepFacts:
    record = result.record
    until = record.computed.get("valido_ate")
    return StepFacts(
        serie=record.series,
        numero=f"{record.series} {record.formatted}",
        impresso=record.printed,
        data=record.act_date.isoformat(),  # an imported act: its own date
        valido_ate=str(until or ""),
        ciencia=ciencia.isoformat() if ciencia else "",
        calculado=dict(record.computed),
        dados=dict(record.data),
        citado=format_cited_act(record.printed, titles),
    )


IMPORT_ORIGIN = "demonstração"
"""The file an imported step is said to come from (its origin in the registry)."""


def _spec(issuer: Issuer, chain: DemoChain, imported: Imported) -> ImportSpec:
    spec = issuer.engine.content.pack.imports.get(imported.kind)
    if spec is None:
        raise ContentPackError(
            f"A história de demonstração «{chain.name}» importa um ato do tipo "
            f"«{imported.kind}», que o pacote não declara."
        )
    return spec


def _import(issuer: Issuer, chain: DemoChain, step: DemoStep, imported: Imported,
            day: date) -> Issued | str:
    """Import the step's act as ``lavra cadastro importar`` would (idempotent): its
    record, or the reason the import refused it."""
    spec = _spec(issuer, chain, imported)
    origin = f"{IMPORT_ORIGIN} {chain.name}:{step.name}"
    try:
        row = dict(imported.row(day, _import_number(issuer, spec, imported, origin, day)))
        act = spec.build(row)
        issuer.registry.import_acts([PlannedAct(1, origin, row, act)],
                                    pack_version=issuer.engine.content.pack.name, on=day)
    except LavraError as refused:
        return refused.message
    record = issuer.registry.get(act.series, act.year, act.number)
    if record is None:  # pragma: no cover - the import just recorded it
        return f"O {act.printed} não está no registro após a importação."
    return Issued(record, b"", None)


def _import_number(issuer: Issuer, spec: ImportSpec, imported: Imported, origin: str,
                   day: date) -> int:
    """The number an imported step's act takes (:class:`Imported`): the next of its
    series in its year when the demo imports it, before any act of its own
    (:func:`_import_first`), so the acts from before lavra are the first numbers of the
    year, in date order, and lavra's own continue from them; run again in the same
    folder, the one the step imported then (its import is found by its origin: the same
    act, not a second one)."""
    act = spec.build(dict(imported.row(day, 1)))
    holder, _ = search_keys(act.data)
    if holder is not None:
        origin_kept = PlannedAct(1, origin, {}, act).origin
        for record in issuer.registry.by_holder(holder, act.form):
            if record.origin == origin_kept and (record.series, record.year) == (
                    act.series, act.year):
                return record.number
    return issuer.registry.next_number(act.series, act.year)


def _act_date(issuer: Issuer, chain: DemoChain, imported: Imported, day: date) -> date:
    """The date of the act an imported step's row describes (its step's day, if the row
    does not build: the import then says why)."""
    try:
        return _spec(issuer, chain, imported).build(dict(imported.row(day, 1))).reference_date
    except LavraError:
        return day


def _import_first(issuer: Issuer, runs: list[_ChainRun]) -> None:
    """Import every chain's acts from before lavra before the demo signs any act, as the
    cadastro is imported when lavra is adopted: in the order of the acts' dates, each the
    next number of its series in its year (or the number its row keeps), so lavra's own
    acts of the year continue from them. Each import is done as of its step's day (no act
    dated after it) and kept for the step with the act's date (``_ChainRun.imports``): a
    chain stopped before the step shows no act of it."""
    planned = sorted(
        ((_act_date(issuer, run.chain, imported, run.moment(step).date()), index, step,
          imported)
         for index, run in enumerate(runs) for step in run.chain.steps
         if (imported := step.imported) is not None),
        key=lambda entry: (entry[0], entry[1]))
    for on, index, step, imported in planned:
        run = runs[index]
        run.imports[step.name] = (_import(issuer, run.chain, step, imported,
                                          run.moment(step).date()), on)


def sample_pdf(lines: tuple[str, ...]) -> bytes:
    """A one-page PDF with ``lines`` of text (Latin-1): the demo's stand-in for a scanned
    document, a few hundred bytes, written directly (no renderer)."""
    def text(line: str) -> str:
        raw = line.encode("latin-1", "replace").decode("latin-1")
        return raw.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    body = "BT /F1 12 Tf 56 780 Td 16 TL " + " ".join(f"({text(line)}) '" for line in lines)
    stream = (body + " ET").encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, content in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + content + b"\nendobj\n"
    start = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, start)
    return bytes(out)


def _attachments(data: Mapping[str, Any], titles: Mapping[str, str]
                 ) -> tuple[tuple[Attachment, ...], dict[str, str]]:
    """A stand-in file for each document the request's data say presented (an object
    ``{"apresentado": true, …}`` under a top-level ``documentos…`` group), named by the
    item's title: what an applicant would attach when filing."""
    found: list[Attachment] = []
    names: dict[str, str] = {}
    for group, documents in data.items():
        if not str(group).startswith("documentos") or not isinstance(documents, Mapping):
            continue
        for name, document in documents.items():
            if not isinstance(document, Mapping) or document.get("apresentado") is not True:
                continue
            item = f"/{escape(str(group))}/{escape(str(name))}"
            title = titles.get(item, str(name).replace("_", " "))
            names[item] = title
            found.append(Attachment(item, f"{name}.pdf", sample_pdf(
                ("Documento de demonstração do lavra (sem validade)", title))))
    return tuple(found), names


def _file(issuer: Issuer, chain: DemoChain, step: DemoStep, filing: Filing,
          data: Mapping[str, Any], moment: datetime) -> Issued | str:
    """File the step's requerimento online as the public page does (idempotent: a second
    demo in the same folder finds the protocol by its token): the receipt's record and
    PDF, or the reason the filing was refused."""
    who = {}
    for key, pointer in (("cpf_cnpj", filing.cpf_cnpj), ("name", filing.name)):
        value = pointers.get(data, pointer)
        if not isinstance(value, str) or not value.strip():
            raise ContentPackError(
                f"A história de demonstração «{chain.name}» protocola «{step.form}» sem "
                f"valor em {pointer}.")
        who[key] = value
    form = issuer.engine.content.form(step.form)
    titles = {item.pattern: item.title for item in issuer.engine.content.fields(form)
              if item.title}
    attachments, items = _attachments(data, titles)
    try:
        filed, pdf = FilingDesk(issuer).file(
            step.form, data, cpf_cnpj=who["cpf_cnpj"], name=who["name"],
            attachments=attachments, item_titles=items,
            token=f"demonstracao-{chain.name}-{step.name}", now=moment)
    except LavraError as refused:
        return refused.message
    if pdf is None:
        pdf = issuer.registry.pdf(filed.receipt.id)
    return Issued(filed.receipt, pdf, None)


def _filing_facts(
    result: Issued, data: Mapping[str, Any], titles: Mapping[str, str]
) -> StepFacts:
    record = result.record
    return StepFacts(
        serie=record.series, numero=f"{record.series} {record.formatted}",
        impresso=record.printed,
        data=record.act_date.isoformat(),  # an imported act: its own date
        valido_ate="", ciencia="", calculado={}, dados=dict(data),
        citado=format_cited_act(record.printed, titles))


@dataclass
class _ChainRun:
    """The acts one chain has issued so far, and the facts its later steps read; a chain
    stops at the first step the law does not let issue (its pending items are kept)."""

    chain: DemoChain
    start: date
    facts: dict[str, StepFacts] = field(default_factory=dict)
    acts: list[ChainAct] = field(default_factory=list)
    stopped: bool = False
    imports: dict[str, tuple[Issued | str, date]] = field(default_factory=dict)

    def moment(self, step: DemoStep) -> datetime:
        return datetime.combine(self.start + timedelta(days=step.day),
                                time.fromisoformat(step.hour), TIMEZONE)

    def stop(self, step: DemoStep, moment: datetime, reason: tuple[str, ...]) -> None:
        self.acts.append(ChainAct(self.chain, step, moment, None, reason))
        self.stopped = True

    def take(self, step: DemoStep, moment: datetime, found: Issued | str,
             facts: Callable[[Issued], StepFacts], *, imported: bool = False,
             filed: bool = False) -> None:
        """Keep an imported or filed step's act and its facts, or stop the chain with
        the reason the import or the filing was refused."""
        if isinstance(found, str):
            self.stop(step, moment, (found,))
            return
        self.facts[step.name] = facts(found)
        self.acts.append(ChainAct(self.chain, step, moment, found, imported=imported,
                                  filed=filed))


def _run_step(issuer: Issuer, run: _ChainRun, step: DemoStep, moment: datetime,
              example: Callable[[str, datetime], dict[str, Any]],
              titles: Mapping[str, str]) -> None:
    """Issue (import, file) one step of ``run``'s chain at ``moment`` (the clock is
    there already)."""
    chain, facts = run.chain, run.facts
    if step.imported is not None:
        found, on = run.imports[step.name]  # shown on the date the act bears
        run.take(step, datetime.combine(on, moment.timetz()), found,
                 lambda result: _facts(result, None, titles), imported=True)
        return
    form = issuer.engine.content.form(step.form)
    data = example(step.form, moment)
    scope = {**facts, NEXT: NextNumber(issuer.registry, moment.year)}
    for item in step.fills:
        data = _put(data, item.pointer, fill(item.template, scope))
    if step.filing is not None:
        run.take(step, moment, _file(issuer, chain, step, step.filing, data, moment),
                 lambda found: _filing_facts(found, data, titles), filed=True)
        return
    key = f"demo:{chain.name}:{step.name}"
    # Run again in the same folder, the demo finds the act it issued (later acts of
    # the chain, a cassação, would now refuse it: the history has gone on).
    earlier = issuer.registry.by_key(key)
    if earlier is not None:
        result = Issued(earlier, issuer.registry.pdf(earlier.id),
                        issuer.registry.docx(earlier.id))
    else:
        try:
            issued = issuer.issue(form.id, data, idempotency_key=key,
                                  example_values=bool(form.computations))
        except IncompleteError as refused:
            run.stop(step, moment, tuple(item.message for item in refused.report.pending))
            return
        result = Issued(issued.record, issued.pdf, issued.docx)
    ciencia = None
    if step.ciencia is not None:
        ciencia = moment.date() + timedelta(days=step.ciencia)
        if not any(
            fact.kind == "ciencia" and not fact.revoked
            for fact in issuer.registry.facts(result.record.id)
        ):
            issuer.registry.record_fact(
                result.record.id, "ciencia", on=ciencia.isoformat(), by=CIENCIA_BY,
                means="pessoal", now=datetime.combine(ciencia, moment.timetz()),
            )
    facts[step.name] = _facts(result, ciencia, titles)
    run.acts.append(ChainAct(chain, step, moment, result, ciencia=ciencia))


def run_chains(
    issuer: Issuer,
    clock: DemoClock,
    chains: tuple[DemoChain, ...],
    today: date,
    example: Callable[[str, datetime], dict[str, Any]],
) -> list[list[ChainAct]]:
    """Issue every chain's steps, each chain from its :func:`chain_start`, all of them in
    one timeline: the step of any chain that comes first in time is issued first, the
    clock moved to its moment. So within every series a later number never bears an
    earlier date (a chain issued whole before the next would number its acts of
    December before another's of October). Within a chain its steps keep their order;
    a chain stopped by the law issues no later step, and the others go on. A step issued
    ``together`` with the one before it follows it at once (:func:`_groups`). The acts
    from before lavra are imported first (:func:`_import_first`).
    ``example(form, moment)``: the form's example with its dates moved to the moment's
    day. Returns each chain's acts, in the order of ``chains``, verified at ``today``."""
    titles = act_titles(issuer.engine.content.root)
    runs = [_ChainRun(chain, chain_start(chain, today)) for chain in chains]
    _import_first(issuer, runs)
    timeline = heapq.merge(
        *([(run.moment(group[0]), index, group) for group in _groups(run)]
          for index, run in enumerate(runs)),
        key=lambda entry: (entry[0], entry[1]))
    for _, index, group in timeline:
        run = runs[index]
        for step in group:
            if run.stopped:
                break
            clock.moment = run.moment(step)
            _run_step(issuer, run, step, clock.moment, example, titles)
    clock.moment = datetime.combine(today, time(0, 0), TIMEZONE)
    return [[_verified(issuer, act, today) for act in run.acts] for run in runs]


def _groups(run: _ChainRun) -> list[tuple[DemoStep, ...]]:
    """The chain's steps, each with the steps issued ``together`` with it: the demo
    issues a group whole, with no act of another chain between its steps (the selo
    takes the number the alvará printed as the next of its series)."""
    groups: list[list[DemoStep]] = []
    for step in run.chain.steps:
        if not step.together:
            groups.append([step])
            continue
        before = run.moment(groups[-1][-1]) if groups else None
        if before is None or not before < run.moment(step) or (
                before.date() != run.moment(step).date()):
            raise ContentPackError(
                f"A história de demonstração «{run.chain.name}» emite «{step.name}» junto "
                "com o passo anterior: no mesmo dia, em hora posterior à dele.")
        groups[-1].append(step)
    return [tuple(group) for group in groups]


def _verified(issuer: Issuer, act: ChainAct, today: date) -> ChainAct:
    """``act`` with (when its step asks) the verification of its PDF at ``today`` and the
    situation of the licence it granted."""
    if not act.step.verify or act.result is None:
        return act
    check = issuer.verify(act.result.pdf, on=today)
    situation = check.licence.text if check.licence is not None else None
    return replace(act, verified=check.valid, situation=situation)


def earliest(chains: tuple[DemoChain, ...], today: date) -> datetime:
    """The first moment any chain signs (the demo's certificates are valid from then; an
    imported act is not signed)."""
    first = min((chain_start(chain, today) + timedelta(days=step.day)
                 for chain in chains for step in chain.steps if step.imported is None),
                default=today)
    return datetime.combine(first - timedelta(days=1), time(0, 0), UTC)
