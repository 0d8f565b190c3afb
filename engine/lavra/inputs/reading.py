"""Input that comes from users: JSON data files, dates. Checked before anything is written."""

from __future__ import annotations

import errno
import json
import math
import re
from collections.abc import Iterable
from datetime import date, datetime
from pathlib import Path
from typing import Any, Final
from zoneinfo import ZoneInfo

from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.inputs.textnorm import MAX_DEPTH, clean_tree

#: The largest PDF accepted from a user (a filled requerimento, a document to verify).
MAX_PDF_BYTES: Final = 10 * 1024 * 1024

TIMEZONE = ZoneInfo("America/Sao_Paulo")
MAX_DATA_BYTES = 2 * 1024 * 1024
MAX_STRING_CHARS = 10_000
# Shown back in messages without its controls (the full check is lavra.inputs.textnorm).
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


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


#: The dates data and options may hold. Two centuries around the laws of the packs:
#: births from 1900 on, validity ends and deadlines up to 2199. The bound is far from
#: the year 9999 where Python's dates end, so no rule that adds days, months or years
#: to a date in range (a validity of decades, a deadline, an age) can overflow; a
#: date outside it is a typing error (``9999-12-31``, ``0001-01-01``), reported as
#: such, naming the field. The shared date definitions of the schemas say the same.
DATE_MIN: Final = date(1900, 1, 1)
DATE_MAX: Final = date(2199, 12, 31)


def date_range_problem(day: date) -> str | None:
    """Why ``day`` is outside the accepted range, or None."""
    if DATE_MIN <= day <= DATE_MAX:
        return None
    return (
        f"a data {_dmy(day)} está fora do intervalo aceito, de {_dmy(DATE_MIN)} a "
        f"{_dmy(DATE_MAX)}"
    )


def _dmy(day: date) -> str:
    return f"{day.day:02d}/{day.month:02d}/{day.year:04d}"


def check_date(day: date, *, what: str = "data", field: str | None = None) -> date:
    """``day`` if within :data:`DATE_MIN`–:data:`DATE_MAX`, else :class:`InputError`
    naming ``what`` (an option such as "data de referência") and ``field``."""
    problem = date_range_problem(day)
    if problem is not None:
        raise InputError(f"{what[:1].upper()}{what[1:]} inválida: {problem}.", field=field)
    return day


def maybe_date(value: Any) -> date | None:
    """An ISO date from form data, or None when absent, not a real date or outside the
    accepted range (the schema reports those; rules just skip them)."""
    if not isinstance(value, str):
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError:
        return None
    return day if date_range_problem(day) is None else None


def parse_date(text: str, *, what: str = "data", field: str | None = None) -> date:
    """A date that exists in the calendar, typed AAAA-MM-DD or DD/MM/AAAA, within
    :data:`DATE_MIN`–:data:`DATE_MAX`.

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
        shown = _CONTROL.sub("?", text[:40])
        raise InputError(
            f"Formato de {what} não reconhecido: «{shown}». Use AAAA-MM-DD ou DD/MM/AAAA, "
            "por exemplo 2026-11-29 ou 29/11/2026.",
            field=field,
        )
    try:
        found = date(year, month, day)
    except ValueError:
        raise InputError(f"A {what} {day:02d}/{month:02d}/{year:04d} não existe no calendário.",
                         field=field) from None
    return check_date(found, what=what, field=field)


# --------------------------------------------------------------------- JSON from outside


class _Pairs(list[tuple[str, Any]]):
    """An object as parsed, before its keys are checked for repetition."""


class _Constant(str):
    """``NaN``, ``Infinity`` or ``-Infinity`` as parsed, refused naming its field."""


def _unpair(
    node: Any, path: tuple[str, ...], source: str, depth: int, inner: frozenset[str]
) -> Any:
    if depth > MAX_DEPTH + (1 if inner else 0):
        where = pointers.join(path)
        raise InputError(f"Dados aninhados em excesso em {where}.", field=where)
    if isinstance(node, _Constant):
        where = pointers.join(path)
        subject = f"O campo {where}" if where else "O valor"
        raise InputError(
            f"{subject} contém {node}, que não é um número válido: informe um número.",
            field=where or None,
        )
    if isinstance(node, _Pairs):
        out: dict[str, Any] = {}
        for key, value in node:
            if key in out:
                where = pointers.join((*path, key))
                raise InputError(
                    f"O campo {where} aparece mais de uma vez {_in(source)}. Cada campo deve "
                    "ser informado uma só vez: com repetição, programas diferentes leriam "
                    "valores diferentes.",
                    field=where,
                )
            # Inside an envelope's data (``inner``), fields are named from the data's root.
            below = () if depth == 0 and key in inner else (*path, key)
            out[key] = _unpair(value, below, source, depth + 1, inner)
        return out
    if isinstance(node, list):
        return [
            _unpair(value, (*path, str(i)), source, depth + 1, inner)
            for i, value in enumerate(node)
        ]
    return node


def load_json(
    raw: bytes | str, *, source: str = "o arquivo de dados", inner: Iterable[str] = ()
) -> Any:
    """JSON text from outside, strictly: no repeated keys (named by JSON pointer), no
    ``NaN``/``Infinity`` (named likewise), nesting bounded. :class:`InputError` in pt-BR otherwise.

    The one JSON parser of data from outside: data files of the command line and the
    bodies of the JSON API. ``source`` names the text in messages ("o arquivo x.json");
    ``inner``: top-level keys of an envelope (the API's ``data``) below which fields are
    named from their own root, as the completeness report names them.
    """
    try:
        parsed = json.loads(raw, object_pairs_hook=_Pairs, parse_constant=_Constant)
    except (UnicodeDecodeError, ValueError) as error:
        if isinstance(error, InputError):
            raise
        detail = (
            f" (linha {error.lineno}, coluna {error.colno})"
            if isinstance(error, json.JSONDecodeError)
            else ""
        )
        raise InputError(f"{_capital(source)} não contém JSON válido{detail}.") from None
    except RecursionError:
        raise InputError(f"{_capital(source)} tem dados aninhados em excesso.") from None
    return _unpair(parsed, (), source, 0, frozenset(inner))


def _in(source: str) -> str:
    """«em» before a source named with its article, contracted as Portuguese writes it
    ("no arquivo", "na requisição"), not "em o arquivo"."""
    for article, contracted in (("o ", "no "), ("a ", "na "), ("os ", "nos "), ("as ", "nas ")):
        if source.startswith(article):
            return contracted + source[len(article):]
    return f"em {source}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def parse_data(raw: bytes | str, *, source: str = "dados") -> dict[str, Any]:
    """Form data from JSON text: an object, of bounded size, without repeated keys, its
    strings in NFC and without characters that do not show as themselves."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_DATA_BYTES:
        raise InputError(
            f"O arquivo {source} excede o tamanho máximo de {MAX_DATA_BYTES // 1024} KiB."
        )
    data = load_json(raw, source=f"o arquivo {source}")
    if not isinstance(data, dict):
        raise InputError(
            f"O arquivo {source} deve conter um objeto JSON ({{...}}) com os dados do formulário."
        )
    cleaned: dict[str, Any] = check_values(data)
    return cleaned


def check_values(data: Any) -> Any:
    """Data from outside (JSON file, API, web form, PDF fields) made safe to use: nesting
    and sizes bounded, non-finite numbers refused, every key and string in NFC and
    without control, format, private-use or unassigned characters
    (:mod:`lavra.inputs.textnorm`). Returns the cleaned copy: use it instead of ``data``."""
    _check_numbers(data, [], 0)
    return clean_tree(data, max_string=MAX_STRING_CHARS, max_depth=MAX_DEPTH)


def _check_numbers(node: Any, path: list[str], depth: int) -> None:
    """Refuse nesting past :data:`MAX_DEPTH` and non-finite numbers; ``path`` is the way to
    ``node``, extended in place while walking (the pointer is written on error only)."""
    if depth > MAX_DEPTH:
        where = pointers.join(path) or "/"
        raise InputError(f"Dados aninhados em excesso em {where}.", field=where)
    kind = type(node)
    if kind is str or kind is int or kind is bool or node is None:  # the common leaves
        return
    if isinstance(node, dict):
        for key, value in node.items():
            path.append(str(key))
            _check_numbers(value, path, depth + 1)
            path.pop()
    elif isinstance(node, list):
        for index, value in enumerate(node):
            path.append(str(index))
            _check_numbers(value, path, depth + 1)
            path.pop()
    elif isinstance(node, float) and not math.isfinite(node):
        where = pointers.join(path) or "/"
        raise InputError(f"O campo {where} contém um número inválido.", field=where)


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
