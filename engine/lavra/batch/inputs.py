"""The input files of a batch run, read strictly, line by line: CSV (header row) or
JSON Lines, the same for ``lavra batch --entrada/--pedidos`` and the web's uploads.

    lines = read_lines(path, "/entrada")          # [Line(number, row, problem), ...]
    lines = parse_lines(raw, "entrada.csv", "/entrada")

**The whole file** is refused, with an :class:`~lavra.errors.InputError` naming the
option (``field``) and nothing read, when it cannot be used at all: unreadable, larger
than :data:`MAX_INPUT_BYTES`, not UTF-8 (a BOM is accepted), not text (a NUL byte), of
a kind its extension does not say (:data:`SUFFIXES`: ``.csv`` is CSV; ``.jsonl``,
``.ndjson`` and ``.json`` are JSON Lines; any other extension, ``.txt`` say, is
refused rather than guessed), with content that does not match its extension (a CSV
named ``.jsonl``, JSON Lines named ``.csv``), a CSV header without names or with a
name twice, or no data line at all.

**Each line** otherwise becomes a :class:`Line`: its number in the file, and its row
(a CSV row as a dict of its columns, names trimmed and lower-cased, values trimmed; a
JSON Lines line as its object), or its ``problem``, a pt-BR reason naming the line and
the field, when the line is refused. A line goes through the one strict reader of data
from outside (:func:`lavra.inputs.reading.load_json` and
:func:`~lavra.inputs.reading.check_values`): no repeated keys, no ``NaN``/``Infinity``,
nesting bounded, strings bounded and free of characters that do not show as
themselves. Fields are named in messages as ``«requerimento.processo»``, never as raw
JSON pointers. What a refused line means is the pack's to say (a refused holder, a
refused run).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.inputs.reading import check_values, describe_os_error, load_json

__all__ = ["MAX_INPUT_BYTES", "SUFFIXES", "Line", "input_format", "parse_lines",
           "read_lines"]

#: The largest input file of a run (the web's upload limit too).
MAX_INPUT_BYTES: Final = 5 * 1024 * 1024

#: The extensions of input files, and the format each one says.
SUFFIXES: Final = {".csv": ".csv", ".jsonl": ".jsonl", ".ndjson": ".jsonl", ".json": ".jsonl"}

_OBJECT_START = ("{", "[")


@dataclass(frozen=True)
class Line:
    """One data line of an input file: its number (the file's physical line, counted
    from 1; for a CSV row spanning lines, its last), its row, or why it was refused."""

    number: int
    row: dict[str, Any] | None
    problem: str | None = None


def _label(field: str) -> str:
    """What follows «arquivo» in a message about the file a field names: ``/entrada`` →
    `` de entrada``; nothing for ``/arquivo`` (never «o arquivo de arquivo»)."""
    name = field.strip("/") or "entrada"
    return "" if name == "arquivo" else f" de {name}"


def input_format(filename: str, field: str) -> str:
    """``.csv`` or ``.jsonl``, as the file's extension says; InputError otherwise."""
    suffix = SUFFIXES.get(Path(filename).suffix.lower())
    if suffix is None:
        raise InputError(
            f"O arquivo{_label(field)} deve ser CSV (.csv) ou JSON "
            "Lines (.jsonl), e a extensão do nome deve dizer qual dos dois.",
            field=field,
        )
    return suffix


def read_lines(path: Path, field: str) -> list[Line]:
    """Every data line of the file at ``path`` (module docstring)."""
    try:
        if path.stat().st_size > MAX_INPUT_BYTES:
            raise _too_big(path.name, field, MAX_INPUT_BYTES)
        raw = path.read_bytes()
    except OSError as error:
        raise InputError(
            f"Não foi possível ler o arquivo{_label(field)}: "
            f"{describe_os_error(error)}.",
            field=field,
        ) from None
    return parse_lines(raw, path.name, field)


def _too_big(filename: str, field: str, limit: int) -> InputError:
    return InputError(
        f"O arquivo{_label(field)} excede o tamanho máximo de "
        f"{limit // (1024 * 1024)} MiB.",
        field=field,
    )


def parse_lines(raw: bytes, filename: str, field: str, *,
                limit: int = MAX_INPUT_BYTES) -> list[Line]:
    """Every data line of ``raw``, a file named ``filename`` given for the option
    ``field`` (``/entrada``); InputError for a file refused whole (module docstring)."""
    kind = input_format(filename, field)
    what = _label(field)
    if len(raw) > limit:
        raise _too_big(filename, field, limit)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        raise InputError(
            f"O arquivo{what} não está em UTF-8 (linha {line}): salve-o "
            "com a codificação UTF-8.",
            field=field,
        ) from None
    if "\x00" in text:
        raise InputError(f"O arquivo{what} não é um arquivo de texto.",
                         field=field)
    lines = _csv_lines(text, what, field) if kind == ".csv" else _json_lines(text, what, field)
    if not lines:
        raise InputError(f"O arquivo{what} não tem nenhuma linha de dados.",
                         field=field)
    return lines


def _json_lines(text: str, what: str, field: str) -> list[Line]:
    numbered = [(n, line) for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    if numbered and not any(line.lstrip().startswith(_OBJECT_START) for _, line in numbered):
        raise InputError(
            f"O arquivo{what} não é JSON Lines, como diz a extensão do nome: "
            "nenhuma linha traz um objeto {...}. Se for uma planilha CSV, salve-a com a "
            "extensão .csv.",
            field=field,
        )
    found: list[Line] = []
    for number, line in numbered:
        try:
            value = check_values(load_json(line, source="a linha"))
        except InputError as error:
            found.append(Line(number, None, _problem(number, what, error)))
            continue
        if not isinstance(value, dict):
            found.append(Line(number, None, (
                f"Linha {number} do arquivo{what}: não é um objeto JSON (JSON Lines: um "
                "objeto {...} por linha).")))
            continue
        found.append(Line(number, value))
    return found


def _csv_lines(text: str, what: str, field: str) -> list[Line]:
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, [])
        names = [name.strip().lower() for name in header]
        if not any(names):
            raise InputError(
                f"O arquivo CSV{what} não tem a linha de cabeçalho com os "
                "nomes das colunas.",
                field=field,
            )
        if header[0].lstrip().startswith(_OBJECT_START):
            raise InputError(
                f"O arquivo{what} não é CSV, como diz a extensão do nome: a "
                "primeira linha traz um objeto {...}. Se for JSON Lines, salve-o com a "
                "extensão .jsonl.",
                field=field,
            )
        repeated = sorted({n for n in names if n and names.count(n) > 1})
        if repeated:
            raise InputError(
                f"O cabeçalho do arquivo{what} traz mais de uma vez a coluna "
                f"«{repeated[0]}»: cada coluna deve aparecer uma só vez.",
                field=field,
            )
        found: list[Line] = []
        for cells in reader:
            number = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            found.append(_csv_line(number, names, cells, what))
    except csv.Error as error:
        why = ("um valor longo demais" if "field larger" in str(error)
               else "aspas sem fechamento ou fora de lugar")
        raise InputError(
            f"O arquivo CSV{what} está malformado na linha {reader.line_num} ({why}).",
            field=field,
        ) from None
    return found


def _csv_line(number: int, names: list[str], cells: list[str], what: str) -> Line:
    if len(cells) > len(names) and any(cell.strip() for cell in cells[len(names):]):
        return Line(number, None, (
            f"Linha {number} do arquivo{what}: tem mais colunas ({len(cells)}) que o "
            f"cabeçalho ({len(names)})."))
    row = {name: cell.strip() for name, cell in zip(names, cells, strict=False) if name}
    try:
        cleaned = check_values(row)
    except InputError as error:
        return Line(number, None, _problem(number, what, error))
    return Line(number, dict(cleaned))


def _problem(number: int, what: str, error: InputError) -> str:
    """The reader's message for one line, its field named as users read it."""
    text = error.message.replace(" (linha 1, coluna ", " (coluna ")
    if error.field and error.field != "/":
        text = text.replace(error.field, f"«{pointers.dotted(error.field)}»")
    text = text.replace(" em /.", ".").replace(" em /,", ",")
    return f"Linha {number} do arquivo{what}: {text[:1].lower()}{text[1:]}"
