"""The registry of issued documents: gapless numbering, the record, the case history.

    registry = open_registry(database_url(config.data_dir))
    record = registry.issue("ALV-TAXI", 2026, "alvara-taxi", build,
                            idempotency_key=request_id)
    record.formatted                 # "0001/2026"
    registry.autos_for_vehicle("ABC1D23", "auto-", since=six_months_ago)

Storage is a SQLite file ``<data_dir>/registro.sqlite3`` by default (WAL mode, with a
busy timeout so concurrent processes wait for each other), or PostgreSQL when
``LAVRA_DATABASE_URL`` (or the URL passed in) says so. The schema is owned by the
Alembic migrations shipped in ``lavra/migrations``; opening a registry migrates it to
head.

Issuing is one transaction: the counter row of the series and year is locked
(``SELECT ... FOR UPDATE`` on PostgreSQL; ``BEGIN IMMEDIATE`` on SQLite takes the
writer lock before the counter is read), the next number is handed to ``build``
(which renders and signs), and the document, its first event and the counter update
are committed together. If ``build`` fails, or the process dies, nothing is written
and the number is still free: numbers are never skipped and never reused, cancelled
documents included.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from types import TracebackType
from typing import Any
from zoneinfo import ZoneInfo

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import (
    JSON,
    CheckConstraint,
    Date,
    DateTime,
    Dialect,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    Select,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    create_engine,
    event,
    or_,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from lavra.errors import ConfigError, InputError, LavraError
from lavra.inputs.formats import (
    has_cnpj_shape,
    has_cpf_shape,
    has_placa_shape,
    normalize_placa,
    unmask,
)
from lavra.inputs.textnorm import clean_text

DATABASE_URL_ENV = "LAVRA_DATABASE_URL"
SQLITE_FILE = "registro.sqlite3"
LOCAL_TZ = ZoneInfo("America/Sao_Paulo")
BUSY_TIMEOUT_SECONDS = 60
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

_WRITE_OPTION = "lavra_registry_write"
_SUPPORTED_DIALECTS = ("sqlite", "postgresql")
_NUMBER_RE = re.compile(r"\s*(?:n[º°o.]*\s*)?(\d{1,9})\s*/\s*(\d{4})\s*", re.IGNORECASE)
_SERIES_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")
_MIGRATION_LOCK = 7_411_913  # PostgreSQL advisory lock taken while migrating


# ============================================================================ schema
class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware instant stored in UTC on every backend.

    SQLite has no timezone type: the UTC wall time is stored and UTC is attached again
    when read back. PostgreSQL stores ``timestamptz``.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the registry")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class DocumentRow(Base):
    """One issued document, as issued (data, computed values, files) and its status."""

    __tablename__ = "documents"
    __table_args__ = (
        UniqueConstraint("series", "year", "number"),
        CheckConstraint("status IN ('issued', 'cancelled')", name="status"),
        CheckConstraint("number > 0", name="number_positive"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series: Mapped[str] = mapped_column(String(40))
    year: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    form: Mapped[str] = mapped_column(String(120), index=True)
    data: Mapped[Any] = mapped_column(JSON)
    computed: Mapped[Any] = mapped_column(JSON)
    reference_date: Mapped[date] = mapped_column(Date, index=True)
    valid_until: Mapped[date | None] = mapped_column(Date, index=True)
    sha256: Mapped[str] = mapped_column(String(64))
    verification_code: Mapped[str] = mapped_column(String(64), unique=True)
    signer_subject: Mapped[str] = mapped_column(String(500))
    signer_serial: Mapped[str] = mapped_column(String(100))
    pack_version: Mapped[str] = mapped_column(String(100))
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    status: Mapped[str] = mapped_column(String(12))
    cancel_reason: Mapped[str | None] = mapped_column(Text)
    cancelled_by: Mapped[str | None] = mapped_column(String(200))
    cancelled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    idempotency_key: Mapped[str | None] = mapped_column(String(200), unique=True)
    request_sha256: Mapped[str | None] = mapped_column(String(64))
    pdf: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    docx: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    cpf_cnpj: Mapped[str | None] = mapped_column(String(14), index=True)
    placa: Mapped[str | None] = mapped_column(String(7), index=True)


class CounterRow(Base):
    """The last number taken in one series and year."""

    __tablename__ = "counters"
    __table_args__ = (CheckConstraint("last_number >= 0", name="last_number_not_negative"),)

    series: Mapped[str] = mapped_column(String(40), primary_key=True)
    year: Mapped[int] = mapped_column(Integer, primary_key=True)
    last_number: Mapped[int] = mapped_column(Integer)


class EventRow(Base):
    """One step of a document's history: issued, cancelled, verified..."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), index=True)
    kind: Mapped[str] = mapped_column(String(40))
    actor: Mapped[str] = mapped_column(String(500))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    detail: Mapped[str | None] = mapped_column(Text)


metadata = Base.metadata


# ============================================================================ values
class Status(StrEnum):
    ISSUED = "issued"
    CANCELLED = "cancelled"


class EventKind(StrEnum):
    ISSUED = "issued"
    CANCELLED = "cancelled"
    VERIFIED = "verified"


@dataclass(frozen=True, kw_only=True)
class Built:
    """What ``build(number, formatted)`` returns: the final files and what they say.

    ``computed`` may hold dates (stored as ISO text); ``computed["valido_ate"]``, when
    present, is the end of the document's validity. ``cpf_cnpj`` (the holder) and
    ``placa`` (the vehicle) are the search keys of the case history; see
    :func:`search_keys` to take them from the data.
    """

    pdf: bytes
    docx: bytes | None = None
    data: Mapping[str, Any]
    computed: Mapping[str, Any]
    reference_date: date
    verification_code: str
    signer_subject: str
    signer_serial: str
    pack_version: str
    cpf_cnpj: str | None = None
    placa: str | None = None


@dataclass(frozen=True)
class IssuedRecord:
    """One document of the registry (without its files: see Registry.pdf/docx)."""

    id: int
    series: str
    year: int
    number: int
    form: str
    data: Mapping[str, Any]
    computed: Mapping[str, Any]
    reference_date: date
    valid_until: date | None
    sha256: str
    verification_code: str
    signer_subject: str
    signer_serial: str
    pack_version: str
    issued_at: datetime
    status: Status
    cancel_reason: str | None
    cancelled_by: str | None
    cancelled_at: datetime | None
    idempotency_key: str | None
    cpf_cnpj: str | None
    placa: str | None

    @property
    def formatted(self) -> str:
        """The number as printed on the document: ``0001/2026``."""
        return format_number(self.number, self.year)

    @property
    def cancelled(self) -> bool:
        return self.status is Status.CANCELLED

    @property
    def issued_at_local(self) -> datetime:
        """The moment of issue in America/Sao_Paulo."""
        return self.issued_at.astimezone(LOCAL_TZ)

    @property
    def cancelled_at_local(self) -> datetime | None:
        return self.cancelled_at.astimezone(LOCAL_TZ) if self.cancelled_at else None


@dataclass(frozen=True)
class Event:
    id: int
    document_id: int
    kind: str
    actor: str
    at: datetime
    detail: str | None

    @property
    def at_local(self) -> datetime:
        return self.at.astimezone(LOCAL_TZ)


# ============================================================================ helpers
def format_number(number: int, year: int) -> str:
    """``format_number(1, 2026) == "0001/2026"``."""
    return f"{number:04d}/{year}"


def parse_number(formatted: str) -> tuple[int, int]:
    """``"0001/2026"`` (also ``"nº 1/2026"``) → ``(1, 2026)``; InputError otherwise."""
    match = _NUMBER_RE.fullmatch(formatted) if isinstance(formatted, str) else None
    if match is None or int(match.group(1)) == 0:
        raise InputError(
            f"Número de documento inválido: «{formatted}». Use o formato 0001/2026.",
            field="/numero",
        )
    return int(match.group(1)), int(match.group(2))


def normalize_cpf_cnpj(value: str) -> str:
    """A CPF (11 digits) or CNPJ (14 characters) without mask; InputError for anything else."""
    if not isinstance(value, str) or not (has_cpf_shape(value) or has_cnpj_shape(value)):
        raise InputError(
            f"CPF ou CNPJ inválido: «{value}». Informe os 11 dígitos do CPF ou os 14 do CNPJ.",
            field="/cpf_cnpj",
        )
    return unmask(value)


def normalize_plate(value: str) -> str:
    """A vehicle plate, old (ABC1234) or Mercosul (ABC1D23), upper case without dash."""
    if not isinstance(value, str) or not has_placa_shape(value):
        raise InputError(
            f"Placa inválida: «{value}». Use o formato ABC1234 ou ABC1D23.", field="/placa"
        )
    return normalize_placa(value)


def search_keys(data: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """``(cpf_cnpj, placa)`` found in form data, for :class:`Built`.

    The holder is the first ``cnpj`` found (a company holds the licence), else the
    first ``cpf``; the vehicle is the first ``placa``. Objects are searched breadth
    first, so top-level parties win over people listed deeper in the form.
    """
    found: dict[str, str] = {}
    queue: list[Any] = [data]
    while queue:
        current = queue.pop(0)
        if isinstance(current, Mapping):
            for key, value in current.items():
                if key in ("cnpj", "cpf", "placa") and isinstance(value, str) and value.strip():
                    found.setdefault(str(key), value)
                elif isinstance(value, Mapping | list):
                    queue.append(value)
        elif isinstance(current, list):
            queue.extend(item for item in current if isinstance(item, Mapping | list))
    holder = found.get("cnpj") or found.get("cpf")
    plate = found.get("placa")
    try:
        return (
            normalize_cpf_cnpj(holder) if holder else None,
            normalize_plate(plate) if plate else None,
        )
    except InputError:
        return (None, None)


def database_url(data_dir: Path) -> str:
    """``LAVRA_DATABASE_URL`` when set, else the SQLite file in the data folder."""
    named = os.environ.get(DATABASE_URL_ENV, "").strip()
    if named:
        return named
    path = Path(data_dir).resolve() / SQLITE_FILE
    return URL.create("sqlite", database=str(path)).render_as_string()


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    raise TypeError(type(value).__name__)


def _to_json(value: Mapping[str, Any], what: str) -> Any:
    try:
        return json.loads(json.dumps(value, default=_json_default, ensure_ascii=False))
    except (TypeError, ValueError) as error:
        raise LavraError(
            f"Os {what} do documento não podem ser gravados no registro: valor de tipo "
            f"{error} não é representável em JSON."
        ) from None


def _fingerprint(value: Mapping[str, Any]) -> str:
    canonical = json.dumps(
        _to_json(value, "dados"), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _text(value: object, name: str, pointer: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"Informe {name}.", field=pointer)
    value = value.strip()
    if len(value) > limit:
        raise InputError(f"{name.capitalize()} excede {limit} caracteres.", field=pointer)
    if any(ord(char) < 32 and char not in "\n\t" for char in value):
        raise InputError(f"{name.capitalize()} contém caracteres de controle.", field=pointer)
    return value


def _series(value: object) -> str:
    if not isinstance(value, str) or not _SERIES_RE.fullmatch(value):
        raise InputError(
            f"Série de numeração inválida: «{value}». Use letras, dígitos, ponto, hífen ou "
            "sublinhado (até 40 caracteres).",
            field="/serie",
        )
    return value


def _year(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1900 <= value <= 9999:
        raise InputError(f"Ano de numeração inválido: «{value}».", field="/ano")
    return value


def _number(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InputError(f"Número de documento inválido: «{value}».", field="/numero")
    return value


def _ident(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InputError(f"Identificador de documento inválido: «{value}».", field="/documento")
    return value


def _local_date(value: datetime | date, pointer: str) -> date:
    """A date; an aware datetime is read in America/Sao_Paulo."""
    if isinstance(value, datetime):
        return value.astimezone(LOCAL_TZ).date() if value.tzinfo else value.date()
    if isinstance(value, date):
        return value
    raise InputError(f"Data inválida: «{value}».", field=pointer)


def _valid_until(computed: Mapping[str, Any]) -> date | None:
    value = computed.get("valido_ate")
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise LavraError(f"Validade do documento ilegível: «{value}» (esperada uma data).")


def _like_prefix(prefix: str) -> str:
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "%"


def _record(row: DocumentRow) -> IssuedRecord:
    return IssuedRecord(
        id=row.id,
        series=row.series,
        year=row.year,
        number=row.number,
        form=row.form,
        data=row.data,
        computed=row.computed,
        reference_date=row.reference_date,
        valid_until=row.valid_until,
        sha256=row.sha256,
        verification_code=row.verification_code,
        signer_subject=row.signer_subject,
        signer_serial=row.signer_serial,
        pack_version=row.pack_version,
        issued_at=row.issued_at,
        status=Status(row.status),
        cancel_reason=row.cancel_reason,
        cancelled_by=row.cancelled_by,
        cancelled_at=row.cancelled_at,
        idempotency_key=row.idempotency_key,
        cpf_cnpj=row.cpf_cnpj,
        placa=row.placa,
    )


def _event(row: EventRow) -> Event:
    return Event(row.id, row.document_id, row.kind, row.actor, row.at, row.detail)


def _check_built(built: object, formatted: str) -> Built:
    if not isinstance(built, Built):
        raise LavraError(
            f"A geração do documento nº {formatted} não devolveu um documento pronto (Built)."
        )
    if not isinstance(built.pdf, bytes) or not built.pdf:
        raise LavraError(f"O documento nº {formatted} foi gerado sem PDF.")
    if built.docx is not None and not isinstance(built.docx, bytes):
        raise LavraError(f"O DOCX do documento nº {formatted} não é um arquivo.")
    if not isinstance(built.reference_date, date) or isinstance(built.reference_date, datetime):
        raise LavraError(f"O documento nº {formatted} não tem data de referência válida.")
    for name, value, limit in (
        ("código de verificação", built.verification_code, 64),
        ("titular do certificado do signatário", built.signer_subject, 500),
        ("número de série do certificado do signatário", built.signer_serial, 100),
        ("versão do pacote de conteúdo", built.pack_version, 100),
    ):
        if not isinstance(value, str) or not value.strip() or len(value) > limit:
            raise LavraError(f"O documento nº {formatted} foi gerado sem {name} válido.")
    if not isinstance(built.data, Mapping) or not isinstance(built.computed, Mapping):
        raise LavraError(f"O documento nº {formatted} foi gerado sem dados.")
    return built


def _key_lookup(session: Session, key: str) -> tuple[IssuedRecord, str | None] | None:
    row = session.scalars(
        select(DocumentRow).where(DocumentRow.idempotency_key == key)
    ).one_or_none()
    return None if row is None else (_record(row), row.request_sha256)


def _same_request(
    found: tuple[IssuedRecord, str | None],
    key: str,
    series: str,
    year: int,
    form: str,
    request: str | None,
) -> IssuedRecord:
    """The record issued under ``key``, if the retry asks for the same document."""
    record, stored = found
    same = (record.series, record.year, record.form) == (series, year, form)
    if same and request is not None and stored is not None:
        same = stored == request
    if not same:
        raise InputError(
            f"A chave de idempotência «{key}» já foi usada no documento nº "
            f"{record.formatted} (série {record.series}, formulário {record.form}) "
            "com outros dados; use uma chave nova para um documento novo.",
            field="/chave_idempotencia",
        )
    return record


# ============================================================================ registry
class Registry:
    """The registry of issued documents over one database. Safe to share in a process."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._writer = engine.execution_options(**{_WRITE_OPTION: True})

    # ------------------------------------------------------------ lifecycle
    @property
    def url(self) -> str:
        return self._engine.url.render_as_string(hide_password=True)

    @property
    def dialect(self) -> str:
        return self._engine.dialect.name

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine, for tables that share the registry's database (the web
        application's accounts, created by migration 0002)."""
        return self._engine

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Registry:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------ sessions
    @contextmanager
    def _write(self) -> Iterator[Session]:
        """A write transaction: the writer lock (SQLite) is taken at BEGIN."""
        with Session(self._writer, expire_on_commit=False) as session, session.begin():
            yield session

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with Session(self._engine) as session, session.begin():
            yield session

    # ------------------------------------------------------------ issuing
    def issue(
        self,
        series: str,
        year: int,
        form: str,
        build: Callable[[int, str], Built],
        idempotency_key: str | None = None,
        *,
        data: Mapping[str, Any] | None = None,
        actor: str | None = None,
    ) -> IssuedRecord:
        """Take the next number of ``series``/``year``, build the document, record it.

        ``build(number, formatted)`` renders and signs the document that carries that
        number; whatever it raises rolls everything back (no number consumed) and is
        re-raised as a LavraError. With ``idempotency_key``, a retry returns the record
        already issued under that key; reusing the key for another series, year, form
        or (when ``data``, the input, is given) other data is an InputError.
        ``actor`` names who issued it in the history (default: the signer).
        """
        series, year = _series(series), _year(year)
        form = _text(form, "o formulário", "/formulario", 120)
        key = None if idempotency_key is None else clean_text(
            _text(idempotency_key, "a chave de idempotência", "/chave_idempotencia", 200),
            field="/chave_idempotencia", what="A chave de idempotência",
        )
        who = None if actor is None else _text(actor, "o responsável", "/responsavel", 500)
        request = None if data is None else _fingerprint(data)
        if key is not None:
            earlier = self._by_key(key)
            if earlier is not None:
                return _same_request(earlier, key, series, year, form, request)
        try:
            with self._database_errors(), self._write() as session:
                counter = self._lock_counter(session, series, year)
                if key is not None:
                    found = _key_lookup(session, key)
                    if found is not None:
                        return _same_request(found, key, series, year, form, request)
                number = counter.last_number + 1
                formatted = format_number(number, year)
                built = self._build(build, number, formatted)
                row = self._new_row(series, year, number, form, built, key, request, formatted)
                session.add(row)
                counter.last_number = number
                session.flush()
                session.add(
                    EventRow(
                        document_id=row.id,
                        kind=EventKind.ISSUED.value,
                        actor=who or built.signer_subject.strip(),
                        at=row.issued_at,
                        detail=f"Emitido sob o nº {formatted}, série {series}.",
                    )
                )
                record = _record(row)
        except _Conflict as conflict:
            if key is not None:
                earlier = self._by_key(key)
                if earlier is not None:
                    return _same_request(earlier, key, series, year, form, request)
            raise LavraError(
                "Não foi possível gravar o documento no registro: "
                f"{conflict.what}. Nenhum número foi consumido."
            ) from None
        return record

    @staticmethod
    def _build(build: Callable[[int, str], Built], number: int, formatted: str) -> Built:
        try:
            built = build(number, formatted)
        except LavraError:
            raise
        except Exception as error:
            raise LavraError(
                f"Falha ao gerar o documento nº {formatted} ({type(error).__name__}: {error}); "
                "nenhum número foi consumido."
            ) from error
        return _check_built(built, formatted)

    @staticmethod
    def _new_row(
        series: str,
        year: int,
        number: int,
        form: str,
        built: Built,
        key: str | None,
        request: str | None,
        formatted: str,
    ) -> DocumentRow:
        data = _to_json(built.data, "dados")
        computed = _to_json(built.computed, "valores calculados")
        try:
            holder = normalize_cpf_cnpj(built.cpf_cnpj) if built.cpf_cnpj else None
            plate = normalize_plate(built.placa) if built.placa else None
        except InputError as error:
            raise LavraError(f"Documento nº {formatted}: {error.message}") from None
        return DocumentRow(
            series=series,
            year=year,
            number=number,
            form=form,
            data=data,
            computed=computed,
            reference_date=built.reference_date,
            valid_until=_valid_until(built.computed),
            sha256=hashlib.sha256(built.pdf).hexdigest(),
            verification_code=built.verification_code.strip(),
            signer_subject=built.signer_subject.strip(),
            signer_serial=built.signer_serial.strip(),
            pack_version=built.pack_version.strip(),
            issued_at=datetime.now(UTC),
            status=Status.ISSUED.value,
            idempotency_key=key,
            request_sha256=(request or _fingerprint(built.data)) if key is not None else None,
            pdf=built.pdf,
            docx=built.docx,
            cpf_cnpj=holder,
            placa=plate,
        )

    @staticmethod
    def _lock_counter(session: Session, series: str, year: int) -> CounterRow:
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

    def _by_key(self, key: str) -> tuple[IssuedRecord, str | None] | None:
        with self._database_errors(), self._read() as session:
            return _key_lookup(session, key)

    def next_number(self, series: str, year: int) -> int:
        """The number the next document of ``series``/``year`` would get (not reserved)."""
        series, year = _series(series), _year(year)
        with self._database_errors(), self._read() as session:
            last = session.scalar(
                select(CounterRow.last_number).where(
                    CounterRow.series == series, CounterRow.year == year
                )
            )
        return (last or 0) + 1

    # ------------------------------------------------------------ cancelling, events
    def cancel(
        self, series: str, year: int, number: int, *, reason: str, by: str
    ) -> IssuedRecord:
        """Cancel an issued document: it stays in the registry with the reason."""
        series, year, number = _series(series), _year(year), _number(number)
        why = _text(reason, "o motivo do cancelamento", "/motivo", 2000)
        who = _text(by, "quem cancela o documento", "/responsavel", 200)
        formatted = format_number(number, year)
        with self._database_errors(), self._write() as session:
            row = session.scalars(
                select(DocumentRow).where(
                    DocumentRow.series == series,
                    DocumentRow.year == year,
                    DocumentRow.number == number,
                )
            ).one_or_none()
            if row is None:
                raise InputError(
                    f"Documento nº {formatted} da série {series} não consta do registro.",
                    field="/numero",
                )
            if row.status == Status.CANCELLED.value:
                raise InputError(
                    f"O documento nº {formatted} da série {series} já foi cancelado em "
                    f"{_local_text(row.cancelled_at)} por {row.cancelled_by}.",
                    field="/numero",
                )
            now = datetime.now(UTC)
            row.status = Status.CANCELLED.value
            row.cancel_reason, row.cancelled_by, row.cancelled_at = why, who, now
            session.add(
                EventRow(
                    document_id=row.id,
                    kind=EventKind.CANCELLED.value,
                    actor=who,
                    at=now,
                    detail=why,
                )
            )
            session.flush()
            return _record(row)

    def record_event(
        self, document_id: int, kind: str, actor: str, detail: str | None = None
    ) -> Event:
        """Add a step to a document's history (e.g. ``verified`` by the public page)."""
        ident = _ident(document_id)
        what = _text(kind, "o tipo de evento", "/evento", 40)
        who = _text(actor, "o autor do evento", "/responsavel", 500)
        note = None if detail is None else _text(detail, "o detalhe do evento", "/detalhe", 4000)
        with self._database_errors(), self._write() as session:
            if session.get(DocumentRow, ident) is None:
                raise InputError(f"Documento {ident} não consta do registro.", field="/documento")
            now = datetime.now(UTC)
            row = EventRow(document_id=ident, kind=what, actor=who, at=now, detail=note)
            session.add(row)
            session.flush()
            return _event(row)

    def history(self, document_id: int) -> tuple[Event, ...]:
        """The document's events, oldest first."""
        ident = _ident(document_id)
        with self._database_errors(), self._read() as session:
            if session.get(DocumentRow, ident) is None:
                raise InputError(f"Documento {ident} não consta do registro.", field="/documento")
            rows = session.scalars(
                select(EventRow)
                .where(EventRow.document_id == ident)
                .order_by(EventRow.at, EventRow.id)
            ).all()
            return tuple(_event(row) for row in rows)

    # ------------------------------------------------------------ files
    def pdf(self, document_id: int) -> bytes:
        """The signed PDF exactly as issued."""
        ident = _ident(document_id)
        blob = self._blob(select(DocumentRow.pdf).where(DocumentRow.id == ident), ident)
        if blob is None:
            raise InputError(f"Documento {ident} não consta do registro.", field="/documento")
        return blob

    def docx(self, document_id: int) -> bytes | None:
        """The editable DOCX issued with the PDF, if any."""
        ident = _ident(document_id)
        return self._blob(select(DocumentRow.docx).where(DocumentRow.id == ident), ident)

    def _blob(self, stmt: Select[bytes | None], ident: int) -> bytes | None:
        with self._database_errors(), self._read() as session:
            if session.get(DocumentRow, ident) is None:
                raise InputError(f"Documento {ident} não consta do registro.", field="/documento")
            return session.scalar(stmt)

    # ------------------------------------------------------------ queries
    def get(self, series: str, year: int, number: int) -> IssuedRecord | None:
        series, year, number = _series(series), _year(year), _number(number)
        return self._one(
            select(DocumentRow).where(
                DocumentRow.series == series, DocumentRow.year == year, DocumentRow.number == number
            )
        )

    def get_by_id(self, document_id: int) -> IssuedRecord | None:
        return self._one(select(DocumentRow).where(DocumentRow.id == _ident(document_id)))

    def by_number(self, formatted: str, series: str | None = None) -> IssuedRecord | None:
        """The document ``0001/2026`` (of ``series``; without it, the number must be unique)."""
        number, year = parse_number(formatted)
        if series is not None:
            return self.get(series, year, number)
        found = self._many(
            select(DocumentRow).where(DocumentRow.year == year, DocumentRow.number == number)
        )
        if len(found) > 1:
            series_list = ", ".join(sorted(record.series for record in found))
            raise InputError(
                f"Há mais de um documento nº {format_number(number, year)} (séries "
                f"{series_list}); indique a série.",
                field="/serie",
            )
        return found[0] if found else None

    def by_code(self, code: str) -> IssuedRecord | None:
        """The document with this verification code."""
        wanted = _text(code, "o código de verificação", "/codigo", 64)
        return self._one(select(DocumentRow).where(DocumentRow.verification_code == wanted))

    def autos_for_vehicle(
        self,
        placa: str,
        form_prefix: str,
        since: datetime | date,
        *,
        before: datetime | date | None = None,
        include_cancelled: bool = False,
    ) -> tuple[IssuedRecord, ...]:
        """Documents of forms starting with ``form_prefix`` for the vehicle, most recent first.

        Dates are those of the documents' facts (reference date), from ``since``
        (inclusive; an aware datetime is read in America/Sao_Paulo) and, when given,
        before ``before`` (exclusive). Cancelled documents count only when asked.
        """
        plate = normalize_plate(placa)
        prefix = _text(form_prefix, "o prefixo do formulário", "/formulario", 120)
        stmt = select(DocumentRow).where(
            DocumentRow.placa == plate,
            DocumentRow.form.like(_like_prefix(prefix), escape="\\"),
            DocumentRow.reference_date >= _local_date(since, "/desde"),
        )
        if before is not None:
            stmt = stmt.where(DocumentRow.reference_date < _local_date(before, "/ate"))
        if not include_cancelled:
            stmt = stmt.where(DocumentRow.status == Status.ISSUED.value)
        return self._many(
            stmt.order_by(
                DocumentRow.reference_date.desc(),
                DocumentRow.issued_at.desc(),
                DocumentRow.id.desc(),
            )
        )

    def by_holder(
        self, cpf_cnpj: str, form_prefix: str | None = None
    ) -> tuple[IssuedRecord, ...]:
        """Every document of a holder (cancelled ones included), most recent first."""
        holder = normalize_cpf_cnpj(cpf_cnpj)
        stmt = select(DocumentRow).where(DocumentRow.cpf_cnpj == holder)
        if form_prefix is not None:
            prefix = _text(form_prefix, "o prefixo do formulário", "/formulario", 120)
            stmt = stmt.where(DocumentRow.form.like(_like_prefix(prefix), escape="\\"))
        return self._many(stmt.order_by(DocumentRow.issued_at.desc(), DocumentRow.id.desc()))

    def active_licences(self, form: str, on: date) -> tuple[IssuedRecord, ...]:
        """Documents of ``form`` issued, not cancelled, in force on ``on``.

        In force: reference date on or before ``on`` and ``computed["valido_ate"]`` on
        or after it. Ordered by number.
        """
        name = _text(form, "o formulário", "/formulario", 120)
        day = _local_date(on, "/data")
        return self._many(
            select(DocumentRow)
            .where(
                DocumentRow.form == name,
                DocumentRow.status == Status.ISSUED.value,
                DocumentRow.reference_date <= day,
                DocumentRow.valid_until >= day,
            )
            .order_by(DocumentRow.year, DocumentRow.series, DocumentRow.number)
        )

    def search(self, text: str, limit: int = 50) -> tuple[IssuedRecord, ...]:
        """Documents matching a number (0001/2026), a verification code, CPF/CNPJ or placa."""
        wanted = clean_text(
            _text(text, "o texto da busca", "/busca", 200), field="/busca", what="O texto da busca"
        )
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise InputError(f"Limite de resultados inválido: «{limit}».", field="/limite")
        conditions = [DocumentRow.verification_code == wanted]
        match = _NUMBER_RE.fullmatch(wanted)
        if match is not None:
            number, year = int(match.group(1)), int(match.group(2))
            conditions.append((DocumentRow.number == number) & (DocumentRow.year == year))
        if has_cpf_shape(wanted) or has_cnpj_shape(wanted):
            conditions.append(DocumentRow.cpf_cnpj == unmask(wanted))
        if has_placa_shape(wanted):
            conditions.append(DocumentRow.placa == normalize_placa(wanted))
        return self._many(
            select(DocumentRow)
            .where(or_(*conditions))
            .order_by(DocumentRow.issued_at.desc(), DocumentRow.id.desc())
            .limit(min(limit, 500))
        )

    def _one(self, stmt: Select[DocumentRow]) -> IssuedRecord | None:
        with self._database_errors(), self._read() as session:
            row = session.scalars(stmt).one_or_none()
            return None if row is None else _record(row)

    def _many(self, stmt: Select[DocumentRow]) -> tuple[IssuedRecord, ...]:
        with self._database_errors(), self._read() as session:
            return tuple(_record(row) for row in session.scalars(stmt).all())

    # ------------------------------------------------------------ errors
    def _database_errors(self) -> AbstractContextManager[None]:
        return _database_errors()


class _Conflict(LavraError):
    """A uniqueness or integrity conflict in the database."""

    def __init__(self, what: str) -> None:
        super().__init__(f"Conflito no registro de documentos: {what}.")
        self.what = what


@contextmanager
def _database_errors() -> Iterator[None]:
    """SQLAlchemy and driver errors → LavraError with a pt-BR message."""
    try:
        yield
    except IntegrityError as error:
        text_ = str(error.orig).lower()
        if "verification_code" in text_:
            raise _Conflict("o código de verificação já existe em outro documento") from None
        if "idempotency_key" in text_:
            raise _Conflict("a chave de idempotência já está em uso") from None
        if "number" in text_ or "series" in text_:
            raise _Conflict("o número já consta do registro") from None
        raise _Conflict("violação de unicidade ou integridade") from None
    except OperationalError as error:
        if "locked" in str(error.orig).lower() or "busy" in str(error.orig).lower():
            raise LavraError(
                "O registro de documentos está ocupado por outra operação; tente novamente."
            ) from None
        raise LavraError(f"Falha de acesso ao registro de documentos: {error.orig}.") from None
    except SQLAlchemyError as error:
        raise LavraError(f"Falha no registro de documentos: {error}.") from None


def _local_text(moment: datetime | None) -> str:
    if moment is None:
        return "data desconhecida"
    return moment.astimezone(LOCAL_TZ).strftime("%d/%m/%Y %H:%M")


# ============================================================================ opening
def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy emit BEGIN (see _sqlite_begin); pysqlite's own is deferred only.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_SECONDS * 1000}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    # Writers take the writer lock at BEGIN, before reading the counter; readers do not.
    immediate = connection.get_execution_options().get(_WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _engine_for(url: str) -> Engine:
    if not isinstance(url, str) or not url.strip():
        raise ConfigError(f"Informe o endereço do banco de dados do registro ({DATABASE_URL_ENV}).")
    try:
        parsed = make_url(url.strip())
    except ArgumentError:
        raise ConfigError(
            f"Endereço de banco de dados inválido: «{url}». Exemplos: "
            "sqlite:////var/lib/lavra/registro.sqlite3 ou postgresql://usuario@servidor/lavra."
        ) from None
    backend = parsed.get_backend_name()
    if backend not in _SUPPORTED_DIALECTS:
        raise ConfigError(
            f"Banco de dados não suportado pelo registro: {backend}. Use SQLite ou PostgreSQL."
        )
    try:
        if backend == "sqlite":
            if not parsed.database or parsed.database == ":memory:" or parsed.database.startswith(
                "file:"
            ):
                raise ConfigError(
                    "O registro em SQLite precisa de um arquivo (por exemplo "
                    "sqlite:////var/lib/lavra/registro.sqlite3)."
                )
            Path(parsed.database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_SECONDS})
            event.listen(engine, "connect", _sqlite_connect)
            event.listen(engine, "begin", _sqlite_begin)
        else:
            engine = create_engine(parsed, pool_pre_ping=True)
    except OSError as error:
        raise ConfigError(
            f"Não foi possível criar a pasta do registro ({error.filename}): {error.strerror}."
        ) from None
    except (ArgumentError, ImportError) as error:
        raise ConfigError(
            f"Não foi possível usar o banco de dados «{parsed.render_as_string()}»: {error}."
        ) from None
    return engine


def alembic_config(connection: Connection) -> AlembicConfig:
    """An Alembic configuration over the shipped migrations, bound to ``connection``."""
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` in one transaction, one process at a time."""
    writer = engine.execution_options(**{_WRITE_OPTION: True})
    with _database_errors(), writer.connect() as connection, connection.begin():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        command.upgrade(alembic_config(connection), revision)


def open_registry(url: str) -> Registry:
    """Open (and migrate to head) the registry at ``url``: SQLite file or PostgreSQL."""
    engine = _engine_for(url)
    try:
        migrate(engine)
    except _Conflict as conflict:
        engine.dispose()
        raise LavraError(f"Falha ao preparar o registro de documentos: {conflict.what}.") from None
    except LavraError:
        engine.dispose()
        raise
    except Exception as error:  # alembic reports script problems with its own errors
        engine.dispose()
        raise LavraError(
            f"Falha ao preparar o registro de documentos ({type(error).__name__}: {error})."
        ) from None
    return Registry(engine)


def open_default_registry(data_dir: Path) -> Registry:
    """The registry named by ``LAVRA_DATABASE_URL``, else ``<data_dir>/registro.sqlite3``."""
    return open_registry(database_url(data_dir))
