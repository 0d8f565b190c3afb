"""The input files of a batch run, read line by line: CSV (header row) or JSON Lines.

    rows = read_lines(path, "/entrada")   # [(line number, dict | None), ...]

A CSV row becomes a dict of its columns (names trimmed and lower-cased, values
trimmed); a JSON Lines line its parsed value, or None when it is not JSON (the pack
refuses that line with its number, and the others go on). A file that cannot be read
at all is an InputError naming the option.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from lavra.errors import InputError

__all__ = ["read_lines"]


def read_lines(path: Path, field: str) -> list[tuple[int, Any]]:
    """Every row of ``path`` with its line number (module docstring)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"Não foi possível ler o arquivo {path.name}: {error}.",
                         field=field) from None
    rows: list[tuple[int, Any]] = []
    if path.suffix.lower() == ".csv":
        for number, row in enumerate(csv.DictReader(io.StringIO(text)), 2):
            rows.append((number, {k.strip().lower(): (v or "").strip()
                                  for k, v in row.items() if k}))
        return rows
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append((number, json.loads(line)))
        except ValueError:
            rows.append((number, None))
    return rows
