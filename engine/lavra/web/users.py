"""Staff accounts of the web application: roles, argon2 passwords, sessions, API tokens.

Accounts live in the registry database (tables ``users`` and ``api_tokens``, created
by the migration ``0002``; ``web_sessions``, by ``0003``), so one backup holds
documents and the people who issued them.

Sessions are kept on the server: the cookie carries only a random 256-bit session id
(its SHA-256 is stored, as for tokens). A session ends when its holder signs out,
when it expires, and for every session of the account when its password is changed
or the account is deactivated; a copy of the cookie is then worth nothing.

Roles:

- ``clerk`` (redação): drafts documents, consults the registry;
- ``signer`` (assinatura): also issues and cancels documents of the forms whose
  signature role (``assinatura.papel`` of the form, a key of ``orgao.json``
  ``papeis``) is among the account's ``signer_roles``;
- ``admin`` (administração): manages accounts and API tokens, consults the registry.

Passwords are hashed with Argon2id (argon2-cffi's RFC 9106 defaults) and re-hashed
when those defaults change. API tokens are random 256-bit strings shown once;
only their SHA-256 is stored.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any, Literal

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine, Row
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from lavra.errors import InputError, LavraError
from lavra.registry.tables import NAMING_CONVENTION, UTCDateTime

MIN_PASSWORD = 10
MAX_PASSWORD = 256
TOKEN_PREFIX = "lavra_"
_NAME_RE = re.compile(r"[a-z0-9][a-z0-9._-]{1,79}")
_REGISTRATION_RE = re.compile(r"[0-9A-Za-z][0-9A-Za-z./ -]{0,39}")


class Role(StrEnum):
    CLERK = "clerk"
    SIGNER = "signer"
    ADMIN = "admin"


ROLE_LABELS = {
    Role.CLERK: "Redação (minutas e consulta)",
    Role.SIGNER: "Assinatura (emissão e cancelamento)",
    Role.ADMIN: "Administração (contas e tokens)",
}

#: The words staff use for the roles (command line, account forms).
ROLE_NAMES = {"redator": Role.CLERK, "assinante": Role.SIGNER, "administrador": Role.ADMIN}


users_metadata = MetaData(naming_convention=NAMING_CONVENTION)

users_table = Table(
    "users",
    users_metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(80), nullable=False, unique=True),
    Column("full_name", String(200), nullable=False),
    Column("password_hash", String(255), nullable=False),
    Column("role", String(12), nullable=False),
    Column("signer_roles", String(1000), nullable=False),
    Column("active", Boolean, nullable=False),
    Column("session_epoch", Integer, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("registration", String(40), nullable=True),
    CheckConstraint("role IN ('clerk', 'signer', 'admin')", name="role"),
)

tokens_table = Table(
    "api_tokens",
    users_metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("token_sha256", String(64), nullable=False, unique=True),
    Column("label", String(120), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("revoked_at", UTCDateTime, nullable=True),
)

sessions_table = Table(
    "web_sessions",
    users_metadata,
    Column("id", Integer, primary_key=True),
    Column("session_sha256", String(64), nullable=False, unique=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Column("revoked_at", UTCDateTime, nullable=True),
)

#: Ended sessions are kept this long (for the record), then deleted.
SESSION_RETENTION = timedelta(days=30)
_SESSION_ID_RE = re.compile(r"[A-Za-z0-9_-]{40,64}")


@dataclass(frozen=True)
class User:
    id: int
    name: str
    full_name: str
    role: Role
    signer_roles: tuple[str, ...]
    active: bool
    session_epoch: int
    created_at: datetime
    #: The registration number (matrícula) of the staff member; None when not recorded.
    registration: str | None = None

    @property
    def role_label(self) -> str:
        return ROLE_LABELS[self.role]

    @property
    def is_admin(self) -> bool:
        return self.role is Role.ADMIN

    def may_sign(self, signer_role: str | None) -> bool:
        """Whether this account may issue (and cancel) documents signed as ``signer_role``."""
        return (
            self.active
            and self.role is Role.SIGNER
            and signer_role is not None
            and signer_role in self.signer_roles
        )

    @property
    def actor(self) -> str:
        """How the account is named in a document's history."""
        return f"{self.full_name} ({self.name})"


@dataclass(frozen=True)
class ApiToken:
    id: int
    user_id: int
    label: str
    created_at: datetime
    revoked_at: datetime | None


def parse_role(text: str) -> Role:
    """A role from its staff name (``redator``...) or its identifier (``clerk``...)."""
    value = text.strip().lower()
    if value in ROLE_NAMES:
        return ROLE_NAMES[value]
    try:
        return Role(value)
    except ValueError:
        raise InputError(
            f"Papel desconhecido: «{text}». Use redator, assinante ou administrador.",
            field="/papel",
        ) from None


def check_password(password: str) -> str:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise InputError(
            f"A senha deve ter no mínimo {MIN_PASSWORD} caracteres.", field="/senha"
        )
    if len(password) > MAX_PASSWORD:
        raise InputError(
            f"A senha deve ter no máximo {MAX_PASSWORD} caracteres.", field="/senha"
        )
    return password


def _check_name(name: str) -> str:
    value = name.strip().lower() if isinstance(name, str) else ""
    if not _NAME_RE.fullmatch(value):
        raise InputError(
            "Nome de usuário inválido: use de 2 a 80 letras minúsculas sem acento, "
            "algarismos, ponto, hífen ou sublinhado, começando por letra ou algarismo.",
            field="/usuario",
        )
    return value


def _check_text(value: str, what: str, field: str, limit: int) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text or len(text) > limit or any(ord(c) < 32 for c in text):
        raise InputError(f"Informe {what} (até {limit} caracteres).", field=field)
    return text


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _user(row: Row[Any]) -> User:
    return User(
        id=row.id,
        name=row.name,
        full_name=row.full_name,
        role=Role(row.role),
        signer_roles=tuple(r for r in str(row.signer_roles).split(",") if r),
        active=bool(row.active),
        session_epoch=int(row.session_epoch),
        created_at=row.created_at,
        registration=row.registration or None,
    )


def check_registration(value: str | None) -> str | None:
    """The matrícula as typed (trimmed), None when blank: up to 40 letters, digits,
    dots, hyphens, slashes and spaces."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        return None
    if not _REGISTRATION_RE.fullmatch(text):
        raise InputError(
            "Matrícula inválida: use até 40 letras, algarismos, ponto, hífen, barra ou espaço.",
            field="/matricula",
        )
    return text


class UserStore:
    """Accounts and tokens over the registry's database engine."""

    def __init__(self, engine: Engine, hasher: PasswordHasher | None = None) -> None:
        self._engine = engine
        self._hasher = hasher or PasswordHasher()
        self._dummy_hash = self._hasher.hash(secrets.token_urlsafe(16))

    # ------------------------------------------------------------------ accounts
    def add(
        self,
        name: str,
        password: str,
        role: Role,
        *,
        full_name: str | None = None,
        signer_roles: Iterable[str] = (),
        registration: str | None = None,
    ) -> User:
        login = _check_name(name)
        number = check_registration(registration)
        who = _check_text(full_name or login, "o nome completo", "/nome", 200)
        roles = self._roles(signer_roles)
        secret = self._hasher.hash(check_password(password))
        with self._errors():
            try:
                with self._engine.begin() as connection:
                    connection.execute(
                        insert(users_table).values(
                            name=login,
                            full_name=who,
                            password_hash=secret,
                            role=Role(role).value,
                            signer_roles=",".join(roles),
                            active=True,
                            session_epoch=1,
                            created_at=datetime.now(UTC),
                            registration=number,
                        )
                    )
            except IntegrityError:
                raise InputError(
                    f"Já existe uma conta com o nome de usuário «{login}».", field="/usuario"
                ) from None
        found = self.by_name(login)
        if found is None:  # pragma: no cover - just inserted
            raise LavraError("A conta não foi gravada.")
        return found

    @staticmethod
    def _roles(signer_roles: Iterable[str]) -> tuple[str, ...]:
        roles = tuple(dict.fromkeys(r.strip() for r in signer_roles if r and r.strip()))
        for role in roles:
            if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,79}", role):
                raise InputError(f"Papel de assinatura inválido: «{role}».", field="/papeis")
        return roles

    def update(
        self,
        user_id: int,
        *,
        role: Role | None = None,
        signer_roles: Iterable[str] | None = None,
        active: bool | None = None,
        full_name: str | None = None,
        registration: str | None = None,
    ) -> User:
        """Changes the account; ``registration`` blank (``""``) erases the matrícula,
        None keeps it."""
        values: dict[str, Any] = {}
        if registration is not None:
            values["registration"] = check_registration(registration)
        if role is not None:
            values["role"] = Role(role).value
        if signer_roles is not None:
            values["signer_roles"] = ",".join(self._roles(signer_roles))
        if active is not None:
            values["active"] = active
            if not active:
                values["session_epoch"] = users_table.c.session_epoch + 1
        if full_name is not None:
            values["full_name"] = _check_text(full_name, "o nome completo", "/nome", 200)
        if values:
            with self._errors(), self._engine.begin() as connection:
                connection.execute(
                    update(users_table).where(users_table.c.id == user_id).values(**values)
                )
                if active is False:
                    self._revoke_sessions(connection, user_id, None)
        return self._existing(user_id)

    def set_password(
        self, user_id: int, password: str, *, keep_session: str | None = None
    ) -> User:
        """A new password; every session of the account ends, except ``keep_session``
        (the session of the account's holder who changed their own password)."""
        secret = self._hasher.hash(check_password(password))
        with self._errors(), self._engine.begin() as connection:
            connection.execute(
                update(users_table)
                .where(users_table.c.id == user_id)
                .values(password_hash=secret, session_epoch=users_table.c.session_epoch + 1)
            )
            self._revoke_sessions(connection, user_id, keep_session)
        return self._existing(user_id)

    def end_sessions(self, user_id: int, *, keep_session: str | None = None) -> None:
        """End every session of the account (sign out everywhere), except ``keep_session``."""
        with self._errors(), self._engine.begin() as connection:
            connection.execute(
                update(users_table)
                .where(users_table.c.id == user_id)
                .values(session_epoch=users_table.c.session_epoch + 1)
            )
            self._revoke_sessions(connection, user_id, keep_session)

    @staticmethod
    def _revoke_sessions(connection: Any, user_id: int, keep: str | None) -> None:
        stmt = update(sessions_table).where(
            sessions_table.c.user_id == user_id, sessions_table.c.revoked_at.is_(None)
        )
        if keep is not None:
            stmt = stmt.where(sessions_table.c.session_sha256 != _token_hash(keep))
        connection.execute(stmt.values(revoked_at=datetime.now(UTC)))

    # ------------------------------------------------------------------ sessions
    def open_session(self, user_id: int, max_age: int) -> str:
        """A new session of the account, valid for ``max_age`` seconds: its secret id."""
        session = secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        with self._errors(), self._engine.begin() as connection:
            connection.execute(
                delete(sessions_table).where(
                    sessions_table.c.expires_at < now - SESSION_RETENTION
                )
            )
            connection.execute(
                insert(sessions_table).values(
                    session_sha256=_token_hash(session),
                    user_id=user_id,
                    created_at=now,
                    expires_at=now + timedelta(seconds=max_age),
                )
            )
        return session

    def session_user(self, session: object) -> User | None:
        """The active account of an open, unexpired session; None otherwise."""
        if not isinstance(session, str) or not _SESSION_ID_RE.fullmatch(session):
            return None
        with self._errors(), self._engine.connect() as connection:
            row = connection.execute(
                select(users_table)
                .join(sessions_table, sessions_table.c.user_id == users_table.c.id)
                .where(
                    sessions_table.c.session_sha256 == _token_hash(session),
                    sessions_table.c.revoked_at.is_(None),
                    sessions_table.c.expires_at > datetime.now(UTC),
                )
            ).one_or_none()
        if row is None or not row.active:
            return None
        return _user(row)

    def close_session(self, session: object) -> None:
        """End one session (signing out); unknown or ended sessions are ignored."""
        if not isinstance(session, str) or not _SESSION_ID_RE.fullmatch(session):
            return
        with self._errors(), self._engine.begin() as connection:
            connection.execute(
                update(sessions_table)
                .where(
                    sessions_table.c.session_sha256 == _token_hash(session),
                    sessions_table.c.revoked_at.is_(None),
                )
                .values(revoked_at=datetime.now(UTC))
            )

    def open_sessions(self, user_id: int) -> int:
        """How many sessions of the account are open now."""
        with self._errors(), self._engine.connect() as connection:
            value = connection.execute(
                select(func.count())
                .select_from(sessions_table)
                .where(
                    sessions_table.c.user_id == user_id,
                    sessions_table.c.revoked_at.is_(None),
                    sessions_table.c.expires_at > datetime.now(UTC),
                )
            ).scalar()
        return int(value or 0)

    def _existing(self, user_id: int) -> User:
        found = self.get(user_id)
        if found is None:
            raise InputError("Conta inexistente.", field="/usuario")
        return found

    def get(self, user_id: int) -> User | None:
        with self._errors(), self._engine.connect() as connection:
            row = connection.execute(
                select(users_table).where(users_table.c.id == user_id)
            ).one_or_none()
        return None if row is None else _user(row)

    def by_name(self, name: str) -> User | None:
        login = name.strip().lower() if isinstance(name, str) else ""
        with self._errors(), self._engine.connect() as connection:
            row = connection.execute(
                select(users_table).where(users_table.c.name == login)
            ).one_or_none()
        return None if row is None else _user(row)

    def all(self) -> tuple[User, ...]:
        with self._errors(), self._engine.connect() as connection:
            rows = connection.execute(select(users_table).order_by(users_table.c.name)).all()
        return tuple(_user(row) for row in rows)

    def count_admins(self) -> int:
        with self._errors(), self._engine.connect() as connection:
            value = connection.execute(
                select(func.count())
                .select_from(users_table)
                .where(users_table.c.role == Role.ADMIN.value, users_table.c.active.is_(True))
            ).scalar()
        return int(value or 0)

    def authenticate(self, name: str, password: str) -> User | None:
        """The active account whose password matches; None otherwise (same cost either way)."""
        login = name.strip().lower() if isinstance(name, str) else ""
        with self._errors(), self._engine.connect() as connection:
            row = connection.execute(
                select(users_table).where(users_table.c.name == login)
            ).one_or_none()
        stored = row.password_hash if row is not None else self._dummy_hash
        try:
            self._hasher.verify(stored, password if isinstance(password, str) else "")
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return None
        if row is None or not row.active:
            return None
        if self._hasher.check_needs_rehash(stored):
            with self._errors(), self._engine.begin() as connection:
                connection.execute(
                    update(users_table)
                    .where(users_table.c.id == row.id)
                    .values(password_hash=self._hasher.hash(password))
                )
        return _user(row)

    # ------------------------------------------------------------------ tokens
    def create_token(self, user_id: int, label: str) -> tuple[ApiToken, str]:
        """A new API token for the account: the record and the secret, shown only once."""
        name = _check_text(label, "a descrição do token", "/descricao", 120)
        self._existing(user_id)
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        with self._errors(), self._engine.begin() as connection:
            result = connection.execute(
                insert(tokens_table).values(
                    user_id=user_id, token_sha256=_token_hash(secret), label=name, created_at=now
                )
            )
            key = result.inserted_primary_key
            ident = int(key[0]) if key else 0
        return ApiToken(ident, user_id, name, now, None), secret

    def tokens(self, user_id: int | None = None) -> tuple[ApiToken, ...]:
        stmt = select(tokens_table).order_by(tokens_table.c.id)
        if user_id is not None:
            stmt = stmt.where(tokens_table.c.user_id == user_id)
        with self._errors(), self._engine.connect() as connection:
            rows = connection.execute(stmt).all()
        return tuple(
            ApiToken(r.id, r.user_id, r.label, r.created_at, r.revoked_at) for r in rows
        )

    def revoke_token(self, token_id: int) -> None:
        with self._errors(), self._engine.begin() as connection:
            connection.execute(
                update(tokens_table)
                .where(tokens_table.c.id == token_id, tokens_table.c.revoked_at.is_(None))
                .values(revoked_at=datetime.now(UTC))
            )

    def user_for_token(self, token: str) -> User | None:
        """The active account of a valid, unrevoked token."""
        if not isinstance(token, str) or not token.startswith(TOKEN_PREFIX) or len(token) > 200:
            return None
        with self._errors(), self._engine.connect() as connection:
            row = connection.execute(
                select(users_table)
                .join(tokens_table, tokens_table.c.user_id == users_table.c.id)
                .where(
                    tokens_table.c.token_sha256 == _token_hash(token),
                    tokens_table.c.revoked_at.is_(None),
                )
            ).one_or_none()
        if row is None or not row.active:
            return None
        return _user(row)

    # ------------------------------------------------------------------ errors
    @staticmethod
    def _errors() -> _DatabaseErrors:
        return _DatabaseErrors()


class _DatabaseErrors:
    """SQLAlchemy errors → LavraError (pt-BR), letting IntegrityError through to callers."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object
    ) -> Literal[False]:
        if exc is None or isinstance(exc, (IntegrityError, LavraError)):
            return False
        if isinstance(exc, SQLAlchemyError):
            raise LavraError(f"Falha de acesso às contas da equipe: {exc}.") from None
        return False


__all__ = [
    "ROLE_LABELS",
    "ROLE_NAMES",
    "ApiToken",
    "Role",
    "User",
    "UserStore",
    "check_password",
    "parse_role",
    "sessions_table",
    "tokens_table",
    "users_metadata",
    "users_table",
]
