"""Shared fixtures: the pack, PostgreSQL databases, the `dates` marker, external checks."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from outputcheck import ON_CI, _issued_files_pass_external_checks
from pgdatabase import new_database

if TYPE_CHECKING:
    from lavra.documents import Engine
    from lavra.registry.store import Registry

REPO = Path(__file__).resolve().parent.parent
POSTGRES_ENV = "LAVRA_TEST_POSTGRES_URL"  # set by .ci/run: a server where we may create DBs

# The bound on backdating final acts (lavra.checking.backdating: 30 days by default) is
# lifted for the whole suite, its subprocesses (the CLI, the web server) and the moved
# clocks of .ci/run: the tests date their acts by `on=`/--data (2026 dates) and sign with
# the real clock. tests/test_backdating.py exercises the default and the setting,
# constructing each Config with its bound explicitly (or without this variable).
os.environ["LAVRA_RETROACAO_MAXIMA_DIAS"] = "sem limite"

__all__ = ["_issued_files_pass_external_checks"]  # autouse: pdfsig, qpdf, python-docx

# Modules whose tests read the clock, directly or through the engine's defaults (today's
# date of a draft, check or demo example, the year of a series, signing time, certificate
# validity, web pages): .ci/run runs them again (-m dates) under a moved clock. A new test
# module that reads the clock belongs here; a single test elsewhere takes
# @pytest.mark.dates. The rule is "reads the wall clock or the local zone (TZ moves too)",
# measured, not "is about dates": a computation given its dates explicitly (test_calendar,
# test_params, test_penalties: every test measured clock-free) gives the same result under
# every clock, and its reruns would only cost time. How to measure: tests/clockreads/
# README.md. The mark goes by module (a module half of whose tests read the clock stays
# whole: a list of single tests exempted would silently stop rerunning a test edited to
# read the clock later; measured, the clock-free tests of these modules cost 2.6 % of the
# reruns). Left out on purpose: pure parsing/format modules, and the slow ones whose
# dates are all explicit (fillable round trips, parity, registry races). test_second_pack
# marks its clock-reading tests one by one: its command-line tests choose a pack
# (configuration, entry points), read no date, and cost a minute each under every moved
# clock.
DATE_MODULES = frozenset({
    "test_amounts", "test_auto_infracao", "test_cli", "test_deadlines",
    "test_eligibility", "test_forms", "test_forms_atos", "test_forms_escolar",
    "test_forms_fretamento_atos", "test_forms_licencas", "test_issuing",
    "test_ranking", "test_render", "test_signing", "test_statutory",
    "test_verification", "test_api", "test_pages", "test_staff_pages",
    "test_trust", "test_sessions", "test_hostile_input",
    "test_facts_web", "test_fast_signing",
    "test_staff_values", "test_values_page",
})


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under ``-m dates`` alone (the moved-clock runs of .ci/run), a test module that is not
    in DATE_MODULES and marks no test ``dates`` is not imported: every test of it would be
    deselected, and importing it costs seconds of each worker's collection on every moved
    clock (test_openapi builds an application and schemathesis its cases when imported).
    A module with a single ``@pytest.mark.dates`` test says ``mark.dates`` in its text."""
    if config.getoption("markexpr", "") != "dates":
        return None
    name = collection_path.name
    if not (name.startswith("test_") and name.endswith(".py")):
        return None
    if collection_path.stem in DATE_MODULES:
        return None
    if "mark.dates" in collection_path.read_text(encoding="utf-8"):
        return None
    return True


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.stem in DATE_MODULES:
            item.add_marker(pytest.mark.dates)


@pytest.fixture(scope="session")
def pack_dir() -> Path:
    """The Americana content pack shipped in this repository."""
    return REPO


# ------------------------------------------------------------------ PostgreSQL
def _unavailable(reason: str) -> None:
    if ON_CI:  # CI must run the PostgreSQL tests, not skip them
        pytest.fail(f"PostgreSQL indisponível sob CI=true: {reason}")
    pytest.skip(reason)


def _postgres_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found is None:  # Debian keeps the server binaries off the PATH
        versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                          key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0)
        found = str(versions[-1]) if versions else None
    return found


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server where databases may be created: $LAVRA_TEST_POSTGRES_URL
    (started by .ci/run), else a throw-away cluster of this test process."""
    pytest.importorskip("psycopg")
    given = os.environ.get(POSTGRES_ENV)
    if given:
        yield given
        return
    initdb, pg_ctl = _postgres_bin("initdb"), _postgres_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        _unavailable("PostgreSQL (initdb, pg_ctl) não disponível")
        return
    prefix: list[str] = []
    owner: pwd.struct_passwd | None = None
    if os.geteuid() == 0:  # initdb refuses to run as root: use the postgres account
        runuser = shutil.which("runuser")
        with contextlib.suppress(KeyError):
            owner = pwd.getpwnam("postgres")
        if runuser is None or owner is None:
            _unavailable("initdb não roda como root e não há conta postgres")
            return
        prefix = [runuser, "-u", "postgres", "--"]
    root = Path(tempfile.mkdtemp(prefix="lavra-pg-"))
    if owner is not None:
        os.chown(root, owner.pw_uid, owner.pw_gid)
    data = root / "dados"
    subprocess.run([*prefix, initdb, "-D", str(data), "-U", "lavra", "-A", "trust", "--no-sync"],
                   check=True, capture_output=True)
    # Unix socket only, in our own folder: no TCP port to collide with another worker.
    options = f"-c listen_addresses='' -k {root} -p 5432 -c fsync=off"
    subprocess.run(
        [*prefix, pg_ctl, "-D", str(data), "-o", options, "-l", str(root / "pg.log"), "-w",
         "start"],
        check=True, capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://lavra@/postgres?host={root}&port=5432"
    finally:
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"],
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_template(postgres_server: str) -> Iterator[str]:
    """The name of a database the registry migrated to head, once per test process (each
    xdist worker has its own, so no other connection is open while it is copied; pg_trgm
    of migration 0019 comes with it). Running the 20 migrations costs ≈ 0.35 s of wall
    time more than copying it, for each of the ≈ 150 PostgreSQL tests."""
    from sqlalchemy.engine import make_url

    from lavra.registry.store import open_registry

    with new_database(postgres_server) as url:
        open_registry(url).close()  # migrated, its engine disposed: no connection left
        name = make_url(url).database
        assert name is not None
        yield name


@pytest.fixture
def postgres_url(postgres_server: str, postgres_template: str) -> Iterator[str]:
    """A database of its own on the server, already migrated to head (a copy of
    ``postgres_template``): the registry opens it as it is."""
    with new_database(postgres_server, postgres_template) as url:
        yield url


@pytest.fixture
def postgres_empty_url(postgres_server: str) -> Iterator[str]:
    """A database of its own on the server, really empty: for the tests of the
    migrations themselves (run from nothing, or by a role of their own)."""
    with new_database(postgres_server) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def registry_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The registry's database, once on a SQLite file and once on PostgreSQL."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    from lavra.registry.database import database_url

    return database_url(tmp_path / "dados")


# ------------------------------------------------------------- engine and registry
# Shared by the modules that ask for them (the import tests); a module defining its own
# fixture of the same name uses that one instead.
@pytest.fixture(scope="module")
def engine(pack_dir: Path) -> Engine:
    """The engine over the shipped pack's content, one per module."""
    from lavra.checking.content import loaded_content
    from lavra.documents import Engine

    return Engine(loaded_content(pack_dir))


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    """The registry at ``registry_url`` (SQLite, then PostgreSQL) with the pack's effects
    and its licensing state (:func:`issuers.state_registry`), closed afterwards."""
    from issuers import state_registry

    yield from state_registry(registry_url)
