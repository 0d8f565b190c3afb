"""Reading the registry: the sessions, the stored files and every query over issued documents.

:class:`RegistryQueries` is the read side of :class:`lavra.registry.store.Registry`
(which adds issuing, cancelling and events): lookups by number, verification code,
holder or vehicle, the licences in force on a date, free-text search, and the PDF and
DOCX exactly as issued.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields
from datetime import date, datetime
from types import TracebackType
from typing import Any, Self, TypeVar

from sqlalchemy import Row, Select, func, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.inputs.formats import (
    has_cnpj_shape,
    has_cpf_shape,
    has_placa_shape,
    unmask,
)
from lavra.inputs.textnorm import clean_text
from lavra.registry.act_dates import order_by_act
from lavra.registry.database import WRITE_OPTION, database_errors
from lavra.registry.identifiers import same_plate
from lavra.registry.records import (
    NUMBER_RE,
    IssuedRecord,
    Status,
    check_ident,
    check_number,
    check_series,
    check_text,
    check_year,
    format_number,
    local_date,
    normalize_cpf_cnpj,
    parse_number,
    record_of,
)
from lavra.registry.search import MAX_PER_PAGE, Filters, ParsedQuery, statement
from lavra.registry.statements import DOCUMENTS_NUMBERED
from lavra.registry.tables import DocumentRow

__all__ = ["ReadScope", "RegistryPage", "RegistryQueries"]

T = TypeVar("T")

NUMBERED_RECORDS = DOCUMENTS_NUMBERED.with_only_columns(
    *(DocumentRow.__table__.c[spec.name] for spec in fields(IssuedRecord)))
""":data:`~lavra.registry.statements.DOCUMENTS_NUMBERED`, the columns of an
:class:`IssuedRecord` alone (no ORM row: read by every check of a renewal)."""


def _record(row: Row[Any]) -> IssuedRecord:
    """The record of a row of :data:`NUMBERED_RECORDS` (its columns are its fields)."""
    return IssuedRecord(**{**row._asdict(), "status": Status(row.status)})


@dataclass(frozen=True)
class ReadScope:
    """One read of the registry (:meth:`RegistryQueries.read_scope`): its session, and
    what lookups repeated inside it already answered (same snapshot, same answer)."""

    session: Session
    memo: dict[Hashable, Any]


@dataclass(frozen=True)
class RegistryPage:
    """One page of a registry listing, newest first."""

    records: tuple[IssuedRecord, ...]
    page: int
    per_page: int
    total: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def has_next(self) -> bool:
        return self.page < self.pages


def like_prefix(prefix: str) -> str:
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "%"


class RegistryQueries:
    """Sessions over one database and the read-only queries of the registry."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._writer = engine.execution_options(**{WRITE_OPTION: True})
        # The read scope open in this thread or task (read_scope), if any.
        self._scope: ContextVar[ReadScope | None] = ContextVar(f"read_scope_{id(self)}",
                                                                default=None)

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

    def forget_connections(self) -> None:
        """In a process forked from the one that opened the registry: drop the pooled
        connections inherited from it without closing them (they are the parent's);
        the next query opens a connection of this process."""
        self._engine.dispose(close=False)

    def __enter__(self) -> Self:
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
    def write_session(self) -> Iterator[Session]:
        """A write transaction: the writer lock (SQLite) is taken at BEGIN. For the
        registry's own modules (with :meth:`database_errors` around it)."""
        with Session(self._writer, expire_on_commit=False) as session, session.begin():
            yield session

    @contextmanager
    def read_session(self) -> Iterator[Session]:
        """A read: the session of the :meth:`read_scope` this block runs in, else a
        transaction of its own. For the registry's own modules (with
        :meth:`database_errors` around it)."""
        scoped = self._scope.get()
        if scoped is None:
            with Session(self._engine) as session, session.begin():
                yield session
            return
        try:
            yield scoped.session
        except DBAPIError:
            # A statement the database refused aborts the transaction (PostgreSQL): the
            # scope goes on in a new one, so that the caller's handling of the error
            # does not fail every later read of the scope.
            scoped.session.rollback()
            scoped.session.begin()
            scoped.memo.clear()
            raise

    @contextmanager
    def read_scope(self) -> Iterator[None]:
        """Every read of the registry in this block (in this thread or task) goes through
        one session and one transaction: one connection and one BEGIN for the dozen
        reads of a check, and the same snapshot for all of them (SQLite; on PostgreSQL,
        one transaction at READ COMMITTED). Nested scopes share the outer one. Writes are
        not part of it; keep them outside (a read transaction held open is one more
        snapshot the SQLite WAL keeps)."""
        if self._scope.get() is not None:
            yield
            return
        with Session(self._engine) as session:
            session.begin()
            token = self._scope.set(ReadScope(session, {}))
            try:
                yield
            finally:
                self._scope.reset(token)
                session.rollback()  # nothing was written: ending the read is all

    def remembered(self, key: Hashable, lookup: Callable[[], T]) -> T:
        """``lookup()``, asked once per read scope for the same ``key`` (the identity and
        name lookups the checks of one holder repeat); outside a scope, every time."""
        scoped = self._scope.get()
        if scoped is None:
            return lookup()
        if key not in scoped.memo:
            scoped.memo[key] = lookup()
        found: T = scoped.memo[key]
        return found

    def recalled(self, key: Hashable) -> Any:
        """What :meth:`remembered` keeps under ``key`` in this read scope (None: nothing,
        or outside a scope); asks nothing of the database."""
        scoped = self._scope.get()
        return None if scoped is None else scoped.memo.get(key)

    # ------------------------------------------------------------ files
    def pdf(self, document_id: int) -> bytes:
        """The signed PDF exactly as issued."""
        ident = check_ident(document_id)
        blob = self._blob(select(DocumentRow.pdf).where(DocumentRow.id == ident), ident)
        if blob is None:
            raise InputError(f"Documento {ident} não consta do registro.", field="/documento")
        if not blob:
            raise InputError(
                f"O documento {ident} é um ato anterior ao lavra, importado para o cadastro: "
                "não tem original eletrônico assinado (consulte o processo em papel).",
                field="/documento",
            )
        return blob

    def docx(self, document_id: int) -> bytes | None:
        """The editable DOCX issued with the PDF, if any."""
        ident = check_ident(document_id)
        return self._blob(select(DocumentRow.docx).where(DocumentRow.id == ident), ident)

    def _blob(self, stmt: Select[bytes | None], ident: int) -> bytes | None:
        with self.database_errors(), self.read_session() as session:
            if session.get(DocumentRow, ident) is None:
                raise InputError(f"Documento {ident} não consta do registro.", field="/documento")
            return session.scalar(stmt)

    # ------------------------------------------------------------ queries
    def get(self, series: str, year: int, number: int) -> IssuedRecord | None:
        series, year, number = check_series(series), check_year(year), check_number(number)
        return self._one(
            select(DocumentRow).where(
                DocumentRow.series == series, DocumentRow.year == year, DocumentRow.number == number
            )
        )

    def get_by_id(self, document_id: int) -> IssuedRecord | None:
        return self._one(select(DocumentRow).where(DocumentRow.id == check_ident(document_id)))

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

    def numbered(self, form: str, number: int, year: int) -> tuple[IssuedRecord, ...]:
        """The documents of ``form`` numbered ``number``/``year`` (in any series, cancelled
        ones included), most recent first, as :meth:`search` finds a number, through
        the documents' number index and without its other conditions."""
        name = check_text(form, "o formulário", "/formulario", 120)
        values = {"number": number, "year": year, "form": name}
        with self.database_errors(), self.read_session() as session:
            rows = session.connection().execute(NUMBERED_RECORDS, values).all()
        return tuple(_record(row) for row in rows)

    def by_code(self, code: str) -> IssuedRecord | None:
        """The document with this verification code."""
        wanted = check_text(code, "o código de verificação", "/codigo", 64)
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
        prefix = check_text(form_prefix, "o prefixo do formulário", "/formulario", 120)
        stmt = select(DocumentRow).where(
            same_plate(DocumentRow.placa, placa),
            DocumentRow.form.like(like_prefix(prefix), escape="\\"),
            DocumentRow.reference_date >= local_date(since, "/desde"),
        )
        if before is not None:
            stmt = stmt.where(DocumentRow.reference_date < local_date(before, "/ate"))
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
        """Every document of a holder (cancelled ones included), the most recent act
        first: an imported act at its own date (:mod:`lavra.registry.act_dates`), as
        the checks that take the latest contract or decision read it."""
        holder = normalize_cpf_cnpj(cpf_cnpj)
        stmt = select(DocumentRow).where(DocumentRow.cpf_cnpj == holder)
        if form_prefix is not None:
            prefix = check_text(form_prefix, "o prefixo do formulário", "/formulario", 120)
            stmt = stmt.where(DocumentRow.form.like(like_prefix(prefix), escape="\\"))
        return self._many(stmt.order_by(*order_by_act(newest_first=True)))

    def active_licences(
        self, form: str, on: date, *, placa: str | None = None
    ) -> tuple[IssuedRecord, ...]:
        """Documents of ``form`` issued, not cancelled, in force on ``on`` (for the
        vehicle ``placa`` when given, through its index).

        In force: reference date on or before ``on`` and ``computed["valido_ate"]`` on
        or after it. Ordered by number. This reads the documents alone: the licensing
        state (``licences_in_force``) also knows cassações, renewals and transfers.
        """
        name = check_text(form, "o formulário", "/formulario", 120)
        day = local_date(on, "/data")
        stmt = select(DocumentRow).where(
            DocumentRow.form == name,
            DocumentRow.status == Status.ISSUED.value,
            DocumentRow.reference_date <= day,
            DocumentRow.valid_until >= day,
        )
        if placa is not None:
            stmt = stmt.where(same_plate(DocumentRow.placa, placa))
        return self._many(
            stmt.order_by(DocumentRow.year, DocumentRow.series, DocumentRow.number)
        )

    def search(self, text: str, limit: int = 50) -> tuple[IssuedRecord, ...]:
        """Documents matching a number (0001/2026), a verification code, CPF/CNPJ or
        placa, the most recent act first (an imported one at its own date, as
        :meth:`browse` orders)."""
        wanted = clean_text(
            check_text(text, "o texto da busca", "/busca", 200), field="/busca",
            what="O texto da busca"
        )
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise InputError(f"Limite de resultados inválido: «{limit}».", field="/limite")
        conditions = [DocumentRow.verification_code == wanted]
        match = NUMBER_RE.fullmatch(wanted)
        if match is not None:
            number, year = int(match.group(1)), int(match.group(2))
            conditions.append((DocumentRow.number == number) & (DocumentRow.year == year))
        if has_cpf_shape(wanted) or has_cnpj_shape(wanted):
            conditions.append(DocumentRow.cpf_cnpj == unmask(wanted))
        if has_placa_shape(wanted):
            conditions.append(same_plate(DocumentRow.placa, wanted))
        return self._many(
            select(DocumentRow)
            .where(or_(*conditions))
            .order_by(*order_by_act(newest_first=True))
            .limit(min(limit, 500))
        )

    def browse(self, query: ParsedQuery | None, filters: Filters, *, page: int = 1,
               per_page: int = 25) -> RegistryPage:
        """The documents matching ``query`` (None: all of them) and ``filters``, newest
        first, page ``page`` (from 1) of ``per_page`` (:mod:`lavra.registry.search`)."""
        for value, field in ((page, "/pagina"), (per_page, "/por_pagina")):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise InputError(f"Valor inválido: «{value}».", field=field)
        if per_page > MAX_PER_PAGE:
            raise InputError(f"No máximo {MAX_PER_PAGE} documentos por página.",
                             field="/por_pagina")
        if page > 1_000_000:
            raise InputError(f"Página inexistente: «{page}».", field="/pagina")
        stmt = statement(query, filters)
        with self.database_errors(), self.read_session() as session:
            total = session.scalar(
                select(func.count()).select_from(stmt.order_by(None).subquery())) or 0
            rows = session.scalars(stmt.offset((page - 1) * per_page).limit(per_page)).all()
            records = tuple(record_of(row) for row in rows)
        return RegistryPage(records, page, per_page, total)

    def _one(self, stmt: Select[DocumentRow]) -> IssuedRecord | None:
        with self.database_errors(), self.read_session() as session:
            row = session.scalars(stmt).one_or_none()
            return None if row is None else record_of(row)

    def _many(self, stmt: Select[DocumentRow],
              values: Mapping[str, Any] | None = None) -> tuple[IssuedRecord, ...]:
        with self.database_errors(), self.read_session() as session:
            return tuple(record_of(row) for row in session.scalars(stmt, values).all())

    # ------------------------------------------------------------ errors
    def database_errors(self) -> AbstractContextManager[None]:
        """The database's refusals as the registry's errors, in pt-BR
        (:func:`lavra.registry.database.database_errors`)."""
        return database_errors()


