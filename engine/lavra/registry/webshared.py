"""What every web worker over one registry must see alike: failed-attempt counters,
events counted in a sliding window and the batch runs started from the web.

Kept in the registry database (tables ``web_attempts`` and ``web_batch_jobs``, made by
the migration ``0015``; ``web_events``, made by ``0016``), so that several ``lavra
serve`` processes behind one proxy, on one machine or several, throttle as one and show
the same runs.

- :class:`SharedAttempts` counts failures by key. A failure is one statement
  (``INSERT … ON CONFLICT DO UPDATE SET failures = failures + 1``, on SQLite and
  PostgreSQL alike): two workers counting at once both count.
- :class:`SharedEvents` keeps the time of each event by key (one row per event), for a
  sliding window: how many in the last hour, and when the oldest of them leaves it. A
  place in the window is taken atomically (count and insert under one lock): with a
  limit of N, N workers pass and the next waits, however close they come.
- :class:`SharedJobs` holds each web run's state (token → run id, state, message,
  who started it, when, progress). A run is *live* while its worker beats
  (``heartbeat_at`` younger than :data:`STALE_AFTER`): a worker killed mid-run leaves
  a row that stops being live, and the run is resumed from its page. One live run per
  kind is a unique constraint (``live_kind``), not a check before the insert.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine, Row
from sqlalchemy.exc import IntegrityError

from lavra.registry.database import WRITE_OPTION
from lavra.registry.tables import NAMING_CONVENTION, UTCDateTime

__all__ = ["STALE_AFTER", "JobRow", "SharedAttempts", "SharedEvents", "SharedJobs",
           "attempts_table", "events_table", "jobs_table", "shared_metadata"]

STALE_AFTER = timedelta(seconds=90)
"""A live run whose worker has not beaten for this long is taken as ended (the worker
beats every :data:`BEAT_SECONDS`)."""
BEAT_SECONDS = 15.0
LIVE_STATES = ("planejando", "emitindo")

shared_metadata = MetaData(naming_convention=NAMING_CONVENTION)

attempts_table = Table(
    "web_attempts",
    shared_metadata,
    Column("key", String(160), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("last_at", Float, nullable=False, index=True),
)

events_table = Table(
    "web_events",
    shared_metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(160), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_web_events_key_at", "key", "at"),
)

jobs_table = Table(
    "web_batch_jobs",
    shared_metadata,
    Column("token", String(16), primary_key=True),
    Column("kind", String(80), nullable=False),
    Column("title", String(300), nullable=False),
    Column("run_key", String(300), nullable=False),
    Column("simulate", Boolean, nullable=False),
    Column("actor", String(300), nullable=False),
    Column("state", String(20), nullable=False),
    Column("live_kind", String(80), nullable=True, unique=True),
    Column("run_id", Integer, nullable=True, index=True),
    Column("error", Text, nullable=True),
    Column("started_at", UTCDateTime, nullable=False),
    Column("heartbeat_at", UTCDateTime, nullable=False),
    Column("progress", JSON, nullable=True),
    Column("summary", JSON, nullable=True),
)


def _upsert(engine: Engine) -> Any:
    return (postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert)


class SharedAttempts:
    """Failure counters by key in the registry: ``(failures, last)`` per key, ``last``
    in the caller's clock (seconds)."""

    def __init__(self, engine: Engine, scope: str) -> None:
        self.engine = engine
        self.scope = scope

    def _key(self, key: str) -> str:
        return f"{self.scope}:{key}"[:160]

    def get(self, keys: Sequence[str]) -> dict[str, tuple[int, float]]:
        wanted = {self._key(k): k for k in keys}
        with self.engine.connect() as connection:
            rows = connection.execute(select(attempts_table).where(
                attempts_table.c.key.in_(list(wanted)))).all()
        return {wanted[r.key]: (int(r.failures), float(r.last_at)) for r in rows}

    def add(self, keys: Sequence[str], now: float, forget_before: float) -> None:
        """One more failure for each key, at ``now``; counters last seen before
        ``forget_before`` go."""
        table = attempts_table
        with self.engine.begin() as connection:
            for key in keys:
                statement = _upsert(self.engine)(table).values(
                    key=self._key(key), failures=1, last_at=now)
                connection.execute(statement.on_conflict_do_update(
                    index_elements=[table.c.key],
                    set_={"failures": table.c.failures + 1, "last_at": now}))
            connection.execute(delete(table).where(table.c.last_at < forget_before))

    def clear(self, key: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(attempts_table).where(
                attempts_table.c.key == self._key(key)))


class SharedEvents:
    """Event times by key in the registry (``at`` in the caller's clock, seconds); every
    key is prefixed with ``scope``, and a scope forgets only its own events."""

    def __init__(self, engine: Engine, scope: str) -> None:
        self.engine = engine
        self.scope = scope

    def _key(self, key: str) -> str:
        return f"{self.scope}:{key}"[:160]

    def since(self, key: str, after: float) -> list[float]:
        """The times of the key's events later than ``after``, oldest first."""
        table = events_table
        with self.engine.connect() as connection:
            return [float(at) for at in connection.execute(
                select(table.c.at).where(table.c.key == self._key(key), table.c.at > after)
                .order_by(table.c.at)).scalars()]

    def take(self, windows: Sequence[tuple[str, int, float]], now: float,
             forget_before: float) -> tuple[float, tuple[int, ...]]:
        """One event at ``now`` for each ``(key, limit, seconds)`` when every key has
        fewer than ``limit`` events in the ``seconds`` before ``now``: ``(0, ids)``;
        else nothing is recorded: ``(seconds until the first key frees a place, ())``.

        Decided atomically among every worker: the count and the insert run in one
        transaction that first takes the keys' lock (``BEGIN IMMEDIATE`` on SQLite, a
        transaction advisory lock per key on PostgreSQL, in key order), so two workers
        at the same instant cannot both take the last place. The scope's events before
        ``forget_before`` go in the same transaction."""
        table = events_table
        keys = sorted({self._key(key) for key, _, _ in windows})
        writer = self.engine.execution_options(**{WRITE_OPTION: True})
        with writer.begin() as connection:
            if connection.dialect.name == "postgresql":
                for key in keys:
                    connection.execute(text("SELECT pg_advisory_xact_lock(:lock)"),
                                       {"lock": _lock_of(key)})
            wait = 0.0
            for key, limit, seconds in windows:
                recent = connection.execute(
                    select(table.c.at).where(table.c.key == self._key(key),
                                             table.c.at > now - seconds)
                    .order_by(table.c.at.desc()).limit(limit)).scalars().all()
                if len(recent) >= limit:
                    wait = max(wait, float(recent[-1]) + seconds - now)
            connection.execute(delete(table).where(
                table.c.at < forget_before, table.c.key >= f"{self.scope}:",
                table.c.key < f"{self.scope};"))
            if wait > 0:
                return wait, ()
            ids = connection.execute(insert(table).returning(table.c.id),
                                     [{"key": key, "at": now} for key in keys]).scalars()
            return 0.0, tuple(int(ident) for ident in ids)

    def remove(self, ids: Sequence[int]) -> None:
        """Forget the events ``take`` recorded (the filing they counted was refused)."""
        if ids:
            with self.engine.begin() as connection:
                connection.execute(delete(events_table).where(events_table.c.id.in_(ids)))


def _lock_of(key: str) -> int:
    """The PostgreSQL advisory lock of a key: a signed 64-bit number from its hash."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big",
                          signed=True)


@dataclass(frozen=True)
class JobRow:
    """One web run as the database holds it."""

    token: str
    kind: str
    title: str
    key: str
    simulate: bool
    actor: str
    state: str
    run_id: int | None
    error: str | None
    started_at: datetime
    heartbeat_at: datetime
    progress: Mapping[str, Any] | None
    summary: Mapping[str, Any] | None
    live: bool


class SharedJobs:
    """The web runs of every worker over the registry."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @staticmethod
    def _row(row: Row[Any], now: datetime) -> JobRow:
        live = row.state in LIVE_STATES and row.heartbeat_at > now - STALE_AFTER
        return JobRow(row.token, row.kind, row.title, row.run_key, bool(row.simulate),
                      row.actor, row.state, row.run_id, row.error, row.started_at,
                      row.heartbeat_at, row.progress, row.summary, live)

    def get(self, token: str, now: datetime | None = None) -> JobRow | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(jobs_table).where(
                jobs_table.c.token == token)).first()
        return self._row(row, now or datetime.now(UTC)) if row is not None else None

    def live_for_run(self, run_id: int, now: datetime | None = None) -> JobRow | None:
        now = now or datetime.now(UTC)
        with self.engine.connect() as connection:
            rows = connection.execute(select(jobs_table).where(
                jobs_table.c.run_id == run_id, jobs_table.c.live_kind.is_not(None))).all()
        return next((j for j in (self._row(r, now) for r in rows) if j.live), None)

    def live_of_kind(self, kind: str, now: datetime | None = None) -> JobRow | None:
        now = now or datetime.now(UTC)
        with self.engine.connect() as connection:
            row = connection.execute(select(jobs_table).where(
                jobs_table.c.live_kind == kind)).first()
        found = self._row(row, now) if row is not None else None
        return found if found is not None and found.live else None

    def started_from_web(self, run_id: int) -> bool:
        """Whether a worker recorded the run as started (or resumed) from the web."""
        with self.engine.connect() as connection:
            return connection.execute(select(jobs_table.c.token).where(
                jobs_table.c.run_id == run_id, jobs_table.c.simulate.is_(False)
            ).limit(1)).first() is not None

    def add(self, *, token: str, kind: str, title: str, key: str, simulate: bool,
            actor: str, state: str, run_id: int | None, now: datetime | None = None
            ) -> bool:
        """Record a new live run; False when a live run of the kind already is (a run
        whose worker stopped beating frees its kind first)."""
        now = now or datetime.now(UTC)
        with self.engine.begin() as connection:
            connection.execute(update(jobs_table).where(
                jobs_table.c.live_kind == kind,
                jobs_table.c.heartbeat_at <= now - STALE_AFTER).values(live_kind=None))
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(jobs_table).values(
                    token=token, kind=kind, title=title, run_key=key, simulate=simulate,
                    actor=actor, state=state, live_kind=kind, run_id=run_id, error=None,
                    started_at=now, heartbeat_at=now, progress=None, summary=None))
        except IntegrityError:
            return False
        return True

    def change(self, token: str, now: datetime | None = None, **values: Any) -> None:
        """Update the run's columns (and its heartbeat); a state that is not live frees
        its kind."""
        values["heartbeat_at"] = now or datetime.now(UTC)
        if "state" in values and values["state"] not in LIVE_STATES:
            values["live_kind"] = None
        with self.engine.begin() as connection:
            connection.execute(update(jobs_table).where(
                jobs_table.c.token == token).values(**values))

    def remove(self, token: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(jobs_table).where(jobs_table.c.token == token))
