"""Output files written whole or not at all.

:func:`write_atomically` writes to a hidden temporary file in the destination's folder
(``.NAME.PID.parcial``) and renames it over the destination, so that a reader never sees
a half-written document. A process killed with ``kill -9`` between the write and the
rename cannot remove its temporary file; the next write in that folder removes every
temporary file whose process is gone (:func:`sweep_stale`), so that no partial file
outlives the next command. The temporary name carries the PID for exactly that purpose.

May import: the standard library and :mod:`lavra.errors`, :mod:`lavra.inputs.reading`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from lavra.errors import LavraError
from lavra.inputs.reading import describe_os_error

SUFFIX = ".parcial"
_TEMPORARY = re.compile(r"^\..+\.(\d+)\.parcial$")


def temporary_name(path: Path) -> Path:
    """The hidden temporary file of this process for ``path``."""
    return path.with_name(f".{path.name}.{os.getpid()}{SUFFIX}")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


def sweep_stale(folder: Path) -> list[Path]:
    """Remove the temporary files left in ``folder`` by processes that no longer exist."""
    removed: list[Path] = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    for entry in entries:
        match = _TEMPORARY.match(entry.name)
        if match is None or _alive(int(match.group(1))):
            continue
        try:
            entry.unlink()
        except OSError:
            continue
        removed.append(entry)
    return removed


def check_writable(path: Path) -> None:
    """LavraError (pt-BR, naming the file) when ``path`` cannot be written."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise LavraError(f"A pasta {folder} não existe.", field=str(path))
    probe = temporary_name(path)
    try:
        probe.touch()
        probe.unlink()
    except OSError as error:
        raise LavraError(
            f"Não é possível gravar {path}: {describe_os_error(error)}.", field=str(path)
        ) from None


def write_atomically(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path`` whole, or leave ``path`` as it was."""
    check_writable(path)
    sweep_stale(path.parent if str(path.parent) else Path("."))
    partial = temporary_name(path)
    try:
        with open(partial, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        partial.replace(path)
    except OSError as error:
        raise LavraError(
            f"Não foi possível gravar {path}: {describe_os_error(error)}.", field=str(path)
        ) from None
    finally:
        partial.unlink(missing_ok=True)
