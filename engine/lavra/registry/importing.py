"""Acts from before lavra, imported into the registry (``lavra cadastro importar``).

    lines = read_lines(path, "/arquivo")                 # the batch runs' strict reader
    planned = plan_import(lines, pack.imports, path.name)  # ImportRefusedError: the list
    report = registry.import_acts(planned, pack_version=pack.name)

Each row of the file names its kind in the column ``tipo``; the content pack maps the
row, through its :class:`ImportSpec` for that kind, to an :class:`ImportedAct`: the form,
its series, number and year, the data **in the form's own shape** and the values it
computed (``valido_ate``, ``inicio_vigencia``...), and the act's date. The registry
then records each act as a document with ``origin`` (the file and line it came from),
an empty PDF and a verification code of its own (``IMP-`` and a hash of its number),
and applies the pack's effects to the licensing state, as for an act lavra issued.

The whole file is one transaction: with any row refused, nothing is written, and
:class:`~lavra.errors.ImportRefusedError` lists each refusal naming the line and the
field. Importing the same file again changes nothing (the same number with the same
columns is skipped; with other values it is refused, naming the column that differs).
A number in one of lavra's own series moves its counter, so that the next number lavra
issues follows it; a number lavra already used is refused. The act's ``issued`` event
keeps the counter as the import found it (``contador_antes``): the numbers the import
made the counter skip are exactly those used before lavra (:mod:`lavra.registry.voiding`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from lavra.errors import ImportRefusedError, InputError, LavraError
from lavra.inputs.formats import mask_cpf_cnpj
from lavra.registry.companions import CompanionRow
from lavra.registry.effects import STATUS_TEXT, LicenceStatus
from lavra.registry.identifiers import plate_forms
from lavra.registry.import_names import check_import_names
from lavra.registry.licensing import RegistryState
from lavra.registry.records import (
    COUNTER_BEFORE,
    LOCAL_TZ,
    EventKind,
    Status,
    normalize_cpf_cnpj,
    printed_number,
    search_keys,
)
from lavra.registry.state import StateWriter
from lavra.registry.tables import (
    BatchItemRow,
    CounterRow,
    DocumentRow,
    EventRow,
    PartyRow,
    VehicleRow,
    VoidedNumberRow,
)
from lavra.textutil import format_date

if TYPE_CHECKING:
    from lavra.batch.inputs import Line

__all__ = [
    "IMPORT_ACTOR",
    "ImportReport",
    "ImportSpec",
    "ImportedAct",
    "ImportedPayment",
    "PlannedAct",
    "Refusal",
    "RegistryImports",
    "RestsOn",
    "column_of",
    "plan_import",
    "read_import",
]

IMPORT_ACTOR = "Importação (ato anterior ao lavra)"
"""Who "signed" an imported act, and who recorded it, in the registry."""
KIND_COLUMN = "tipo"
NO_PDF = b""


@dataclass(frozen=True)
class ImportedPayment:
    """A payment of an imported act (a fine paid before lavra): the day and the amount."""

    on: date
    amount: str
    column: str = ""
    """The row's column that gives the day (named in a refusal)."""


@dataclass(frozen=True)
class RestsOn:
    """The licence an accessory act rests on (a selo, an auxiliary's alvará, an
    authorisation): ``column`` names it, ``printed`` is its number. It must be in the
    registry or earlier in the file, and in force on the act's date (not ended, not
    renewed, not past its last day). ``holder`` and ``vehicle``, when given, are
    (column, value) pairs that must be the base licence's holder (CPF/CNPJ) and
    vehicle (placa); ``within``: the act's ``valido_ate`` may not pass the base's last
    day (the pack says where the law ties the accessory's term to it)."""

    column: str
    printed: str
    holder: tuple[str, str] | None = None
    vehicle: tuple[str, str] | None = None
    within: bool = False


@dataclass(frozen=True)
class ImportedAct:
    """One act from before lavra as the pack maps a row: the form's own shape.

    ``cites``: (column, printed number) of the licences the act rests on or ends, which
    must be in the registry (or earlier in the file) when it is applied. ``rests_on``:
    the licence an accessory rests on (:class:`RestsOn`).
    """

    form: str
    series: str
    number: int
    year: int
    data: Mapping[str, Any]
    computed: Mapping[str, Any]
    reference_date: date
    cites: tuple[tuple[str, str], ...] = ()
    payments: tuple[ImportedPayment, ...] = ()
    rests_on: RestsOn | None = None
    date_column: str = "data"
    """The row's column that gives ``reference_date`` (named in a refusal)."""

    @property
    def printed(self) -> str:
        return printed_number(self.series, self.number, self.year)


@dataclass(frozen=True)
class ImportSpec:
    """How the pack reads rows of one ``tipo``: its columns (name → what it holds, for
    the README and the messages), the required ones, and the mapping. ``build`` raises
    :class:`~lavra.errors.InputError` whose ``field`` is the column at fault."""

    description: str
    columns: Mapping[str, str]
    required: frozenset[str]
    build: Callable[[Mapping[str, str]], ImportedAct] = field(repr=False)


@dataclass(frozen=True)
class PlannedAct:
    """A row of the file, mapped: its line, where it came from, its columns, its act."""

    line: int
    filename: str
    row: Mapping[str, str]
    act: ImportedAct

    @property
    def origin(self) -> str:
        """Where the act came from, as the registry keeps it: ``"FILE, linha N"``."""
        return f"{self.filename}, linha {self.line}"


@dataclass(frozen=True)
class ImportReport:
    """What an import did: the acts recorded and the ones already in the registry."""

    imported: tuple[str, ...]
    skipped: tuple[str, ...]


# ------------------------------------------------------------------ reading the rows
def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "sim" if value else "não"
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(_text(item) for item in value)
    return str(value).strip()


def _where(filename: str, line: int, column: str | None = None) -> str:
    at = f"Linha {line} do arquivo {filename}"
    return at if column is None else f"{at}, campo «{column}»"


@dataclass(frozen=True)
class Refusal:
    """A refused line of the file: its number (the refusals are listed in line order)
    and the pt-BR text naming the line and the column."""

    line: int
    text: str


def plan_import(lines: Sequence[Line], specs: Mapping[str, ImportSpec],
                filename: str) -> list[PlannedAct]:
    """Each line of the file mapped by the pack; ImportRefusedError listing every line
    refused (nothing is written by this function)."""
    planned, problems = read_import(lines, specs, filename)
    if problems:
        raise _refused([p.text for p in problems])
    return planned


def read_import(lines: Sequence[Line], specs: Mapping[str, ImportSpec],
                filename: str) -> tuple[list[PlannedAct], list[Refusal]]:
    """Each line of the file mapped by the pack, and the lines refused. The lines that
    are read go on to :meth:`RegistryImports.import_acts` with the refusals, so that one
    attempt lists every refusal of the file, not only those of the first stage."""
    if not specs:
        raise InputError("O pacote de conteúdo não declara nenhum tipo de ato importável.",
                         field="/arquivo")
    planned: list[PlannedAct] = []
    problems: list[Refusal] = []
    kinds = ", ".join(sorted(specs))
    for line in lines:
        if line.row is None:
            problems.append(Refusal(line.number, line.problem
                                    or _where(filename, line.number) + ": ilegível."))
            continue
        if any(isinstance(v, dict) for v in line.row.values()):
            problems.append(Refusal(line.number, f"{_where(filename, line.number)}: cada "
                                    "campo é um valor simples (texto, número ou data), não "
                                    "um objeto."))
            continue
        row = {str(k): _text(v) for k, v in line.row.items() if _text(v)}
        kind = row.pop(KIND_COLUMN, "")
        spec = specs.get(kind)
        if spec is None:
            problems.append(Refusal(line.number, f"{_where(filename, line.number, KIND_COLUMN)}: "
                                    + (f"tipo desconhecido «{kind}»" if kind else "falta o tipo")
                                    + f"; use um de: {kinds}."))
            continue
        unknown = sorted(set(row) - set(spec.columns))
        missing = sorted(spec.required - set(row))
        if unknown or missing:
            problems.extend(Refusal(line.number, f"{_where(filename, line.number, c)}: coluna "
                                    f"que o tipo «{kind}» não usa; deixe-a vazia.")
                            for c in unknown)
            problems.extend(Refusal(line.number, f"{_where(filename, line.number, c)}: "
                                    f"obrigatório para o tipo «{kind}» ({spec.columns[c]}).")
                            for c in missing)
            continue
        try:
            act = spec.build(row)
        except InputError as error:
            column = (error.field or "").strip("/") or None
            problems.append(Refusal(line.number,
                                    f"{_where(filename, line.number, column)}: {error.message}"))
            continue
        planned.append(PlannedAct(line.number, filename, row, act))
    seen: dict[tuple[str, int, int], int] = {}
    for item in planned:
        key = (item.act.series, item.act.year, item.act.number)
        if key in seen:
            problems.append(Refusal(item.line, f"{_where(filename, item.line, 'numero')}: o "
                                    f"{item.act.printed} já está na linha {seen[key]} deste "
                                    "arquivo."))
        seen.setdefault(key, item.line)
    repeated = {item.line for item in planned if seen[
        (item.act.series, item.act.year, item.act.number)] != item.line}
    return [item for item in planned if item.line not in repeated], problems


def _refused(problems: Sequence[str]) -> ImportRefusedError:
    return ImportRefusedError(
        f"A importação foi recusada: {len(problems)} problema"
        f"{'' if len(problems) == 1 else 's'} no arquivo. Nada foi "
        "gravado; corrija as linhas indicadas e importe o arquivo de novo.",
        tuple(problems),
    )


def _check_base(session: Session, writer: StateWriter, rests: RestsOn, on: date,
                valid_until: Any) -> None:
    """The licence an accessory rests on: held by the registry (or an earlier line), in
    force on ``on``, of the holder and vehicle the row names; InputError naming the
    column otherwise."""
    field = f"/{rests.column}"
    base = writer.licence(rests.printed)
    if base is None:
        raise InputError(
            f"o {rests.printed}, a que este ato se vincula, não consta do cadastro (nem do "
            "registro, nem de uma linha anterior deste arquivo): importe-o antes.",
            field=field)
    if base.status == LicenceStatus.RENEWED.value:
        raise InputError(
            f"o {base.printed} foi renovado: vincule o ato ao alvará que o renovou, em "
            "vigor.", field=field)
    if base.status not in (LicenceStatus.ACTIVE.value, LicenceStatus.SUSPENDED.value):
        status = STATUS_TEXT.get(base.status, base.status)
        since = "" if base.status_since is None else f" em {format_date(base.status_since)}"
        raise InputError(
            f"o {base.printed} não está em vigor ({status}{since}): o ato que a ele se "
            "vincula terminou com ele e não pode ser importado.", field=field)
    if base.valid_until is not None and base.valid_until < on:
        raise InputError(
            f"o {base.printed} venceu em {format_date(base.valid_until)}, antes da data "
            f"deste ato ({format_date(on)}): não há alvará em vigor a que vinculá-lo.",
            field=field)
    until = date.fromisoformat(valid_until) if isinstance(valid_until, str) else None
    if rests.within and base.valid_until is not None and until and until > base.valid_until:
        raise InputError(
            f"a validade ({format_date(until)}) passa do último dia do {base.printed} "
            f"({format_date(base.valid_until)}), a que este ato se vincula.",
            field="/valido_ate")
    if rests.holder is not None and base.holder_id is not None:
        column, doc = rests.holder
        holder = session.get(PartyRow, base.holder_id)
        if holder is not None and holder.doc != normalize_cpf_cnpj(doc):
            raise InputError(
                f"«{mask_cpf_cnpj(doc)}» não é o titular do {base.printed} no cadastro"
                + (f" ({holder.name})" if holder.name else "") + ".", field=f"/{column}")
    if rests.vehicle is not None and base.vehicle_id is not None:
        column, placa = rests.vehicle
        vehicle = session.get(VehicleRow, base.vehicle_id)
        if vehicle is not None and vehicle.placa not in plate_forms(placa):
            raise InputError(
                f"a placa {placa} não é a do veículo do {base.printed} no cadastro "
                f"({vehicle.placa}).", field=f"/{column}")


def _check_dates(item: PlannedAct, on: date) -> None:
    """An act from before lavra is dated on or before the day of the import, and so is
    each of its payments: a later date would record as past a fact yet to happen."""
    act = item.act
    if act.reference_date > on:
        raise InputError(
            f"a data do ato ({format_date(act.reference_date)}) é posterior à da importação "
            f"({format_date(on)}): só se importam atos já praticados.",
            field=f"/{act.date_column}")
    for payment in act.payments:
        if payment.on > on:
            raise InputError(
                f"a data do pagamento ({format_date(payment.on)}) é posterior à da "
                f"importação ({format_date(on)}): só se importa o que já aconteceu.",
                field=f"/{payment.column}" if payment.column else None)


def _check_number(session: Session, act: ImportedAct) -> None:
    """The import fills only the numbering from before lavra: once lavra took a number of
    the series and year itself (an act, a voided number, a batch item, a reserved
    companion), that number and every number above it are lavra's."""
    key = (act.series, act.year)
    taken = [session.scalar(select(func.min(table.number)).where(
        table.series == key[0], table.year == key[1], *where))
        for table, where in ((DocumentRow, (DocumentRow.origin.is_(None),)),
                             (VoidedNumberRow, ()), (BatchItemRow, ()), (CompanionRow, ()))]
    first = min((n for n in taken if n is not None), default=None)
    if first is None or act.number < first:
        return
    own = session.scalar(select(func.max(DocumentRow.number)).where(
        DocumentRow.series == act.series, DocumentRow.year == act.year,
        DocumentRow.origin.is_(None)))
    if own is not None and act.number <= own:
        raise InputError(
            f"o número {act.printed} está dentro da numeração que o lavra já usou na "
            f"série (até o nº {own:04d}/{act.year}); um ato anterior ao lavra não pode "
            "ocupá-lo.", field="/numero")
    raise InputError(
        f"o lavra já numera a série {act.series} em {act.year} (desde o nº "
        f"{first:04d}/{act.year}): o {act.printed}, acima desse, seria um ato do lavra; "
        "a importação só preenche a numeração anterior a ele.", field="/numero")


def _key(value: Any) -> str:
    return "".join(c for c in str(value).upper() if c.isalnum())


def _leaves(value: Any, pointer: str = "") -> list[tuple[str, str]]:
    """(pointer, text) of every scalar in ``value``, in order."""
    if isinstance(value, Mapping):
        return [leaf for k, v in value.items() for leaf in _leaves(v, f"{pointer}/{k}")]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, f"{pointer}/{i}")]
    return [] if value is None or isinstance(value, bool) else [(pointer, str(value))]


def column_of(item: PlannedAct, error: InputError) -> str | None:
    """The column of the row an InputError is about: its field when that is a column,
    else the column holding the value at the field's place in the act's data (the
    registry names its own fields, ``/veiculo/renavam``, ``/cnh/numero``, ``/titular``:
    the file has its own columns). None when no column holds it: the line is named
    without a column, never with an internal field."""
    name = (error.field or "").strip("/")
    if not name or name in item.row:
        return name or None
    suffix = "/" + name
    places = [(p, v) for p, v in _leaves(item.act.data)
              if p == suffix or p.endswith(suffix) or p.startswith(suffix + "/")
              or (suffix + "/") in p]
    # A field that is a value: the place whose value the message names (the titular's CNH
    # or the auxiliary's); a field that is an object (a person): its first value, the
    # document that identifies it.
    places.sort(key=lambda place: place[0].endswith(suffix) and place[1] not in error.message)
    columns = {column: _key(value) for column, value in item.row.items()}
    for _, value in places:
        wanted = _key(value)
        for column, held in columns.items():
            if wanted and held == wanted:
                return column
    return None


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


# ------------------------------------------------------------------ the registry's side
class RegistryImports(RegistryState):
    """Importing acts from before lavra (a mixin of the Registry)."""

    @staticmethod
    def lock_counter(session: Session, series: str, year: int) -> CounterRow:
        """The counter row of ``series``/``year``, created at 0 if new, locked for update."""
        postgresql = session.get_bind().dialect.name == "postgresql"
        insert = postgresql_insert if postgresql else sqlite_insert
        session.execute(
            insert(CounterRow)
            .values(series=series, year=year, last_number=0)
            .on_conflict_do_nothing(index_elements=["series", "year"])
        )
        return session.scalars(
            select(CounterRow)
            .where(CounterRow.series == series, CounterRow.year == year)
            .with_for_update()
        ).one()

    def import_acts(self, planned: Sequence[PlannedAct], *, pack_version: str, on: date,
                    refused: Sequence[Refusal] = ()) -> ImportReport:
        """Record the acts of ``planned`` with their effects, in date order, in one
        transaction; ImportRefusedError (nothing written) listing each refused row, with
        the ``refused`` lines of the reading (:func:`read_import`) among them, by line.
        ``on`` is the day of the import: no act nor payment may be dated after it."""
        imported: list[str] = []
        skipped: list[str] = []
        problems = list(refused)
        ordered = sorted(planned, key=lambda p: (p.act.reference_date, p.line))
        names: dict[str, tuple[str, int]] = {}  # CPF → the file's name for it, and its line
        with self.database_errors(), self.write_session() as session:
            for item in ordered:
                try:
                    _check_dates(item, on)
                    if self._one_import(session, item, pack_version, names):
                        imported.append(item.act.printed)
                    else:
                        skipped.append(item.act.printed)
                except InputError as error:
                    where = _where(item.filename, item.line, column_of(item, error))
                    problems.append(Refusal(item.line, f"{where}: {error.message}"))
                except LavraError as error:
                    problems.append(Refusal(item.line,
                                            f"{_where(item.filename, item.line)}: {error.message}"))
            if problems:
                session.rollback()
                raise _refused([p.text for p in sorted(problems, key=lambda p: p.line)])
        return ImportReport(tuple(imported), tuple(skipped))

    def _one_import(self, session: Session, item: PlannedAct, pack_version: str,
                    names: dict[str, tuple[str, int]]) -> bool:
        """Record one act (True), or find it already imported alike (False); a row
        naming a known CPF otherwise is refused (:mod:`lavra.registry.import_names`)."""
        act = item.act
        found = session.scalars(select(DocumentRow).where(
            DocumentRow.series == act.series, DocumentRow.year == act.year,
            DocumentRow.number == act.number)).one_or_none()
        if found is not None:
            return self._already(session, found, item)
        _check_number(session, act)
        writer = StateWriter(session)
        for column, printed in act.cites:
            if writer.licence(printed) is None:
                raise InputError(
                    f"o {printed} não consta do cadastro (nem do registro, nem de uma linha "
                    "anterior deste arquivo): importe-o antes.", field=f"/{column}")
        if act.rests_on is not None:
            _check_base(session, writer, act.rests_on, act.reference_date,
                        act.computed.get("valido_ate"))
        check_import_names(session, (self._effects or {}).get(act.form), item, names)
        counter = self.lock_counter(session, act.series, act.year)
        before = counter.last_number  # what lavra's counter had given: the numbering report
        counter.last_number = max(counter.last_number, act.number)
        row = self._imported_row(act, item.origin, pack_version)
        session.add(row)
        session.flush()
        session.add(EventRow(
            document_id=row.id, kind=EventKind.ISSUED.value, actor=IMPORT_ACTOR,
            at=row.issued_at, detail=f"Ato anterior ao lavra, importado de {item.origin}.",
            data={"colunas": dict(item.row), COUNTER_BEFORE: before},
        ))
        for payment in act.payments:
            session.add(EventRow(
                document_id=row.id, kind="pagamento", actor=IMPORT_ACTOR, at=row.issued_at,
                detail=f"Pagamento anterior ao lavra, importado de {item.origin}.",
                occurred_at=datetime.combine(payment.on, time(12), LOCAL_TZ),
                data={"com_hora": False, "valor": payment.amount},
            ))
        self.apply_effects(session, row)
        return True

    @staticmethod
    def _already(session: Session, found: DocumentRow, item: PlannedAct) -> bool:
        printed = item.act.printed
        if found.origin is None:
            raise InputError(f"o {printed} já foi emitido pelo lavra; um ato anterior ao "
                             "lavra não pode ter o mesmo número.", field="/numero")
        first = session.scalars(select(EventRow.data).where(
            EventRow.document_id == found.id, EventRow.kind == EventKind.ISSUED.value)
            .order_by(EventRow.id).limit(1)).first()
        stored = first.get("colunas") if isinstance(first, Mapping) else None
        stored = stored if isinstance(stored, Mapping) else {}
        for column in sorted(set(stored) | set(item.row)):
            if stored.get(column) != item.row.get(column):
                raise InputError(
                    f"o {printed} já foi importado ({found.origin}) com "
                    f"«{stored.get(column) or 'vazio'}», e esta linha traz "
                    f"«{item.row.get(column) or 'vazio'}»; a importação não altera um ato "
                    "já importado.", field=f"/{column}")
        if found.status != Status.ISSUED.value:
            raise InputError(f"o {printed} importado foi cancelado no registro.",
                             field="/numero")
        return False

    @staticmethod
    def _imported_row(act: ImportedAct, origin: str, pack_version: str) -> DocumentRow:
        data = json.loads(_canonical(act.data))
        computed = json.loads(_canonical(act.computed))
        holder, plate = search_keys(data)
        valid = computed.get("valido_ate")
        key = f"{act.series}|{act.year}|{act.number}"
        code = "IMP-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:40].upper()
        return DocumentRow(
            series=act.series, year=act.year, number=act.number, form=act.form,
            data=data, computed=computed, reference_date=act.reference_date,
            valid_until=date.fromisoformat(valid) if isinstance(valid, str) else None,
            sha256=hashlib.sha256(NO_PDF).hexdigest(), verification_code=code,
            signer_subject=IMPORT_ACTOR, signer_serial="-", pack_version=pack_version[:100],
            issued_at=datetime.now(UTC), status=Status.ISSUED.value, pdf=NO_PDF, docx=None,
            cpf_cnpj=holder, placa=plate, origin=origin[:1000],
        )
