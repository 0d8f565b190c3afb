"""``lavra demo``: every form of the content pack, from its embedded example.

First the pack's case histories (``ContentPack.demo_chains``) are issued on the demo's
own clock, all in the order of their dates (:mod:`lavra.cli.demo_chains`); the forms
they cover are not issued again below (a requerimento a chain files online is shown by
its comprovante de protocolo, not drafted and prefilled again).

Runs in its own folder: a development PKI (no legal validity) and a SQLite registry
are created there, each issuable form is issued and verified, each requerimento is
drafted and prefilled. Forms whose amounts depend on yearly values the pack does not
have (fines corrected by a yearly act it does not hold yet) are issued with the pack's
EXAMPLE table, which the document itself says in print.

An example is written once, with fixed dates; the law, though, judges them against the
day of issue (an auto issued after its appeal period has run out cannot be issued).
So before a form whose metadata names a reference date (``data_referencia``) is
issued, every ISO date of its example (``AAAA-MM-DD``) is moved by the same number of
days, so that the reference date becomes today (:func:`lavra.inputs.reading.today`): the
intervals between the dates, which the rules look at, are kept. The printed row says
so. An example keeps its hours (``HH:MM``), though, and a signed act records no fact
after the moment it is signed: when any hour of the example is later than the current
time (America/Sao_Paulo), its dates are brought to yesterday instead, so that every
fact of the example has happened by the moment of issue (the intervals are kept all the
same).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from lavra.checking.content import FormSpec
from lavra.cli.demo_chains import ChainAct, DemoClock, earliest, run_chains
from lavra.cli.files import write_atomically
from lavra.config import Config
from lavra.documents import Engine
from lavra.errors import ContentPackError, InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import TIMEZONE, describe_os_error, read_data, today
from lavra.issuing import IncompleteError, Issuer, ensure_dev_pki
from lavra.registry.database import database_url
from lavra.registry.store import open_registry


@dataclass(frozen=True)
class DemoRow:
    form: str
    status: str
    number: str
    files: tuple[Path, ...]


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ISO_MOMENT = re.compile(r"(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2})?)")
_HOUR = re.compile(r"([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?")
SHIFTED_NOTE = "datas do exemplo trazidas para hoje"


def shift_dates(data: Any, days: int) -> Any:
    """A copy of ``data`` with every ISO date string (``AAAA-MM-DD``) moved by ``days``,
    and every ISO moment (``AAAA-MM-DDTHH:MM``, a filing's protocol) too, its hour kept:
    a moment left behind would fall before the dates it follows (an inscription filed
    before the chamamento it answers).

    Other values, and strings that only look like dates, are kept as they are.
    """
    if isinstance(data, Mapping):
        return {key: shift_dates(value, days) for key, value in data.items()}
    if isinstance(data, list):
        return [shift_dates(value, days) for value in data]
    if isinstance(data, str) and _ISO_DATE.fullmatch(data):
        try:
            return (date.fromisoformat(data) + timedelta(days=days)).isoformat()
        except (ValueError, OverflowError):
            return data
    moment = _ISO_MOMENT.fullmatch(data) if isinstance(data, str) else None
    if moment is not None:
        moved = shift_dates(moment.group(1), days)
        return f"{moved}{moment.group(2)}" if moved != moment.group(1) else data
    return data


def bring_to(data: Mapping[str, Any], pointer: str, target: date) -> tuple[dict[str, Any], int]:
    """``data`` with its dates moved so that the date at ``pointer`` becomes ``target``.

    Returns the moved copy and the number of days moved. The date at ``pointer`` must
    be an ISO date.
    """
    value = pointers.get(data, pointer)
    try:
        reference = date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        reference = None
    if reference is None:
        raise InputError(f"O exemplo não tem data válida em {pointer} (AAAA-MM-DD).", field=pointer)
    days = (target - reference).days
    return dict(shift_dates(data, days)), days


def hours_of(data: Any) -> list[time]:
    """Every time of day (``HH:MM`` or ``HH:MM:SS``) written in ``data``."""
    if isinstance(data, Mapping):
        return [found for value in data.values() for found in hours_of(value)]
    if isinstance(data, list):
        return [found for value in data for found in hours_of(value)]
    if isinstance(data, str) and _HOUR.fullmatch(data):
        return [time.fromisoformat(data)]
    return []


def demo_day(data: Mapping[str, Any], now: datetime) -> date:
    """The day the example's reference date is moved to: today, or yesterday when an hour
    of the example is later than ``now`` (it would be a fact after the issue)."""
    local = now.astimezone(TIMEZONE)
    moment = local.time().replace(second=0, microsecond=0, tzinfo=None)
    later = any(hour > moment for hour in hours_of(data))
    return local.date() - timedelta(days=1) if later else local.date()


def current_example(
    form: FormSpec, data: Mapping[str, Any], now: datetime | None = None
) -> tuple[dict[str, Any], bool]:
    """The example of an issuable form with its dates moved to today (or yesterday, see
    :func:`demo_day`), and whether they moved: by its reference date when the form has
    one, else by the days since the example was written (``exemplo_em``)."""
    target = demo_day(data, now or datetime.now(TIMEZONE))
    if form.reference_date_field:
        moved, days = bring_to(data, form.reference_date_field, target)
        return moved, days != 0
    if form.example_as_of is not None:
        days = (target - form.example_as_of).days
        return dict(shift_dates(data, days)), days != 0
    return dict(data), False


def _write(path: Path, content: bytes) -> Path:
    write_atomically(path, content)
    return path


def _example(engine: Engine) -> Callable[[str, datetime], dict[str, Any]]:
    def example(form_id: str, moment: datetime) -> dict[str, Any]:
        form = engine.content.form(form_id)
        if form.example is None:
            raise ContentPackError(
                f"O formulário «{form_id}» de uma história de demonstração não tem exemplo."
            )
        return current_example(form, read_data(form.example), moment)[0]

    return example


def _chain_row(folder: Path, act: ChainAct) -> DemoRow:
    story = f"{act.chain.title}, {act.moment.strftime('%d/%m/%Y')}"
    if act.result is None:
        return DemoRow(act.step.form, f"não emitido ({story}): {'; '.join(act.pending)}", "-", ())
    record = act.result.record
    if act.imported:
        return DemoRow(act.step.form, f"importado, ato anterior ao lavra ({story})",
                       record.printed, ())
    if act.filed:
        # The sealed receipt of the filed requerimento (comprovante de protocolo).
        path = _write(folder / f"comprovante-protocolo-{record.formatted.replace('/', '-')}.pdf",
                      act.result.pdf)
        return DemoRow(act.step.form, f"protocolado online ({story})", record.printed, (path,))
    stem = f"{act.step.form}-{record.formatted.replace('/', '-')}"
    files = [_write(folder / f"{stem}.pdf", act.result.pdf)]
    if act.result.docx is not None:
        files.append(_write(folder / f"{stem}.docx", act.result.docx))
    status = f"emitido ({story})"
    if act.ciencia is not None:
        status += f"; ciência registrada em {act.ciencia.strftime('%d/%m/%Y')}"
    if act.verified is not None:
        status += "; verificado" if act.verified else "; verificação falhou"
    if act.situation:
        status += f"; situação da licença: {act.situation}"
    return DemoRow(act.step.form, status, record.printed, tuple(files))


def run_demo(config: Config, folder: Path) -> list[DemoRow]:
    """Issue and verify every issuable form; draft and prefill every requerimento."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise LavraError(
            f"Não foi possível criar a pasta {folder}: {describe_os_error(error)}."
        ) from None
    config = replace(config, data_dir=folder / "dados", database_url=None)
    engine = Engine.from_config(config)
    chains = engine.content.pack.demo_chains
    day = today()
    ensure_dev_pki(config, engine.content, valid_from=earliest(chains, day))
    # Only the demo runs on this clock (its case histories happen weeks apart); a real
    # signing (``lavra issue``, the web app, the runs) always uses the real time.
    clock = DemoClock(datetime.now(TIMEZONE))
    issuer = Issuer(engine, open_registry(database_url(config.data_dir)), config, clock=clock)
    rows: list[DemoRow] = []
    # A requerimento a chain files is shown by its receipt, and not drafted again below.
    in_chains = {step.form for chain in chains for step in chain.steps}
    try:
        # All chains on one timeline, in date order (each series numbered as its dates
        # go); the rows are shown chain by chain, each history read whole.
        for acts in run_chains(issuer, clock, chains, day, _example(engine)):
            rows.extend(_chain_row(folder, act) for act in acts)
        for form in engine.content.forms.values():
            if form.example is None or form.id in in_chains:
                continue
            clock.moment = datetime.now(TIMEZONE)
            data = read_data(form.example)
            if form.series is None:
                rendered = engine.draft(form.id, data, docx=True)
                files = [
                    _write(folder / f"{form.id}-minuta.pdf", rendered.pdf),
                    _write(folder / f"{form.id}-minuta.docx", rendered.docx or b""),
                ]
                if form.fillable:
                    files.append(
                        _write(folder / f"{form.id}-preenchivel.pdf", engine.prefill(form.id, data))
                    )
                status = "completo" if rendered.report.complete else "incompleto"
                rows.append(DemoRow(form.id, f"minuta ({status})", "-", tuple(files)))
                continue
            examples = bool(form.computations)
            shifted = False
            data, shifted = current_example(form, data)
            try:
                result = issuer.issue(
                    form.id, data, idempotency_key=f"demo:{form.id}", example_values=examples
                )
            except IncompleteError as refused:
                # An example the law honestly does not let issue (a value the pack lacks):
                # the demo shows its MINUTA with the pending items instead.
                rendered = engine.draft(form.id, data, docx=True, example_values=examples)
                files = [
                    _write(folder / f"{form.id}-minuta.pdf", rendered.pdf),
                    _write(folder / f"{form.id}-minuta.docx", rendered.docx or b""),
                ]
                pending = len(refused.report.pending)
                rows.append(
                    DemoRow(
                        form.id, f"não emitido: {pending} pendência(s); minuta", "-", tuple(files)
                    )
                )
                continue
            stem = f"{form.id}-{result.record.formatted.replace('/', '-')}"
            files = [_write(folder / f"{stem}.pdf", result.pdf)]
            if result.docx is not None:
                files.append(_write(folder / f"{stem}.docx", result.docx))
            check = issuer.verify(result.pdf)
            status = "emitido e verificado" if check.valid else "emitido; verificação falhou"
            notes = [
                *(["valores de exemplo"] if result.record.computed.get("valores_exemplo") else []),
                *([SHIFTED_NOTE] if shifted else []),
            ]
            if notes:
                status += f" ({'; '.join(notes)})"
            rows.append(DemoRow(form.id, status, result.record.printed, tuple(files)))
    finally:
        issuer.close()
    return rows
