"""An empty SQLite registry gets the schema the migrations made, without running them again.

The first empty SQLite registry a process opens is migrated by Alembic; the next ones
are given the statements that recreate it (lavra.registry.database.migrate). They must
be the same database: same objects with the same SQL, same Alembic revision.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from lavra.registry import database
from lavra.registry.database import database_url
from lavra.registry.store import open_registry


def schema(path: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    with sqlite3.connect(path) as db:
        objects = sorted(db.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"))
        revision = list(db.execute("SELECT version_num FROM alembic_version"))
    return objects, revision


def test_an_empty_registry_is_the_migrated_one_without_migrating_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(database.DATABASE_URL_ENV, raising=False)
    monkeypatch.setattr(database, "_sqlite_head", None)  # as in a new process
    upgrades: list[str] = []
    upgrade = database.command.upgrade

    def counted(config: Any, revision: str) -> None:
        upgrades.append(revision)
        upgrade(config, revision)

    monkeypatch.setattr(database.command, "upgrade", counted)
    first, second = tmp_path / "a", tmp_path / "b"
    open_registry(database_url(first)).close()
    assert upgrades == ["head"]
    registry = open_registry(database_url(second))
    try:
        assert upgrades == ["head"]  # the second one was not migrated again
        assert registry.by_code("AAAA-BBBB-CCCC") is None  # a working registry
    finally:
        registry.close()
    made, copied = schema(first / database.SQLITE_FILE), schema(second / database.SQLITE_FILE)
    assert copied == made and made[1] and len(made[0]) > 20
    # Opened again, a registry at head is left as it is; a new empty one is not migrated.
    open_registry(database_url(second)).close()
    open_registry(database_url(tmp_path / "c")).close()
    assert upgrades == ["head", "head"]
    assert schema(tmp_path / "c" / database.SQLITE_FILE) == made
