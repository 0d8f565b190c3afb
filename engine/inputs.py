"""Input that comes from users: JSON data files, dates. Checked before anything is written."""

from __future__ import annotations

import errno
import json
import math
import re
from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from lavra import pointers
from lavra.errors import InputError

TIMEZONE = ZoneInfo("America/Sao_Paulo")
MAX_DATA_BYTES = 2 * 1024 * 1024
MAX_STRING_CHARS = 10_000
MAX_DEPTH = 12
# Control characters other than tab, line feed and carriage return have no place in a form.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u2028\u2029]")


_OS_ERRORS = {
    errno.ENOENT: "arquivo ou pasta inexistente",
    errno.EACCES: "permissão negada",
    errno.EPERM: "operação não permitida",
    errno.EISDIR: "é uma pasta, não um arquivo",
    errno.ENOTDIR: "parte do caminho não é uma pasta",
    errno.ENOSPC: "sem espaço no disco",
    errno.EROFS: "sistema de arquivos somente leitura",
    errno.ENAMETOOLONG: "nome de arquivo longo demais",
}


def describe_os_error(error: OSError) -> str:
    """The reason of a file-system error in pt-BR (never the English strerror)."""
    return _OS_ERRORS.get(error.errno or 0, f"erro do sistema nº {error.errno}")


def today() -> date:
    """Today in America/Sao_Paulo, the legal time of the documents."""
    return datetime.now(TIMEZONE).date()


def maybe_date(value: Any) -> date | None:
    """An ISO date from form data, or None when absent or not a real date (the schema
    reports those; rules just skip them)."""
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def parse_date(text: str, *, what: str = "data", field: str | None = None) -> date:
    """A date that exists in the calendar, typed AAAA-MM-DD or DD/MM/AAAA.

    The one parser of dates typed by users (command-line options); :class:`InputError`
    in pt-BR, naming ``what`` (and carrying ``field``), otherwise.
    """
    value = text.strip()
    iso = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", value, re.ASCII)
    br = re.fullmatch(r"(\d{2})/(\d{2})/(\d{4})", value, re.ASCII)
    if iso is not None:
        year, month, day = (int(part) for part in iso.groups())
    elif br is not None:
        day, month, year = (int(part) for part in br.groups())
    else:
        raise InputError(
            f"Formato de {what} não reconhecido: «{text}». Use AAAA-MM-DD ou DD/MM/AAAA, "
            "por exemplo 2026-11-29 ou 29/11/2026.",
            field=field,
        )
    try:
        return date(year, month, day)
    except ValueError:
        raise InputError(f"A {what} {value} não existe no calendário.", field=field) from None


def _check_values(node: Any, path: list[str], depth: int) -> None:
    where = pointers.join(path) or "/"
    if depth > MAX_DEPTH:
        raise InputError(f"Dados aninhados em excesso em {where}.", field=where)
    if isinstance(node, dict):
        for key, value in node.items():
            if _CONTROL.search(key):
                raise InputError(
                    f"Nome de campo com caractere de controle em {where}.", field=where
                )
            _check_values(value, [*path, key], depth + 1)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            _check_values(value, [*path, str(index)], depth + 1)
    elif isinstance(node, str):
        if len(node) > MAX_STRING_CHARS:
            raise InputError(
                f"O campo {where} excede o tamanho máximo de {MAX_STRING_CHARS} caracteres.",
                field=where,
            )
        if _CONTROL.search(node):
            raise InputError(
                f"O campo {where} contém caractere de controle não permitido.", field=where
            )
    elif isinstance(node, float) and not math.isfinite(node):
        raise InputError(f"O campo {where} contém um número inválido.", field=where)


def parse_data(raw: bytes | str, *, source: str = "dados") -> dict[str, Any]:
    """Form data from JSON text: an object, of bounded size, without control characters."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_DATA_BYTES:
        raise InputError(
            f"O arquivo {source} excede o tamanho máximo de {MAX_DATA_BYTES // 1024} KiB."
        )
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError) as error:
        detail = (
            f" (linha {error.lineno}, coluna {error.colno})"
            if isinstance(error, json.JSONDecodeError)
            else ""
        )
        raise InputError(f"O arquivo {source} não contém JSON válido{detail}.") from None
    except RecursionError:
        raise InputError(f"O arquivo {source} tem dados aninhados em excesso.") from None
    if not isinstance(data, dict):
        raise InputError(
            f"O arquivo {source} deve conter um objeto JSON ({{...}}) com os dados do formulário."
        )
    check_values(data)
    return data


def check_values(data: Any) -> None:
    """Sizes, nesting and characters of data from outside (JSON file, PDF fields)."""
    _check_values(data, [], 0)


def _reject_constant(name: str) -> Any:
    raise InputError(f"Valor não permitido em JSON: {name}.")


def read_data(path: Path) -> dict[str, Any]:
    """Form data from a JSON file."""
    try:
        if path.stat().st_size > MAX_DATA_BYTES:
            raise InputError(
                f"O arquivo {path} excede o tamanho máximo de {MAX_DATA_BYTES // 1024} KiB."
            )
        raw = path.read_bytes()
    except OSError as error:
        raise InputError(
            f"Não foi possível ler o arquivo {path}: {describe_os_error(error)}."
        ) from None
    return parse_data(raw, source=str(path))
