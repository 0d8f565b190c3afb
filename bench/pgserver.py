"""A PostgreSQL server for the benchmarks (not a test), with the installed binaries.

    python bench/pgserver.py start [PASTA]   # prints the URL for --postgres
    python bench/pgserver.py stop [PASTA]

The cluster lives in ``PASTA`` (default ``$LAVRA_BENCH_PG``, else
``/var/tmp/lavra-bench-pg``: outside a home folder the ``postgres`` account may not
enter) and is kept when stopped, so that the registries
:mod:`bench_batch` prepares on it (the templates of its runs) are there at the next
start. It listens on a Unix socket in that folder only (no TCP port), trusts local
connections, and runs with ``fsync=off``: a benchmark's server, never a registry's. As
root, it runs as the ``postgres`` account (initdb refuses root), as the tests' does
(``tests/conftest.py``).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

FOLDER = Path(os.environ.get("LAVRA_BENCH_PG", "/var/tmp/lavra-bench-pg"))


def _binary(name: str) -> str:
    found = shutil.which(name)
    if found is None:  # Debian keeps the server binaries off the PATH
        versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                          key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0)
        if not versions:
            raise SystemExit(f"PostgreSQL ({name}) não disponível")
        found = str(versions[-1])
    return found


def _as_owner(root: Path) -> list[str]:
    """The prefix running a command as the ``postgres`` account when this is root."""
    if os.geteuid() != 0:
        return []
    owner = pwd.getpwnam("postgres")
    os.chown(root, owner.pw_uid, owner.pw_gid)
    return [shutil.which("runuser") or "runuser", "-u", "postgres", "--"]


def url(root: Path) -> str:
    return f"postgresql+psycopg://lavra@/postgres?host={root}&port=5432"


def start(root: Path) -> str:
    root.mkdir(parents=True, exist_ok=True)
    prefix = _as_owner(root)
    data = root / "dados"
    if not data.is_dir():
        subprocess.run([*prefix, _binary("initdb"), "-D", str(data), "-U", "lavra", "-A",
                        "trust", "--no-sync"], check=True, capture_output=True)
    options = f"-c listen_addresses='' -k {root} -p 5432 -c fsync=off"
    subprocess.run([*prefix, _binary("pg_ctl"), "-D", str(data), "-o", options, "-l",
                    str(root / "pg.log"), "-w", "start"], check=True, capture_output=True)
    return url(root)


def stop(root: Path) -> None:
    subprocess.run([*_as_owner(root), _binary("pg_ctl"), "-D", str(root / "dados"), "-m",
                    "fast", "-w", "stop"], check=True, capture_output=True)


def main() -> None:
    if len(sys.argv) not in (2, 3) or sys.argv[1] not in ("start", "stop"):
        raise SystemExit(__doc__)
    root = Path(sys.argv[2]).resolve() if len(sys.argv) == 3 else FOLDER
    if sys.argv[1] == "start":
        print(start(root))
    else:
        stop(root)


if __name__ == "__main__":
    main()
