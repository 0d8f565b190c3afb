"""A filled fillable requerimento read back: its AcroForm fields rebuilt as JSON data.

:func:`read_fields` opens a filled PDF with pypdf and rebuilds the JSON data of the
form, converting each field back according to its schema (the field names are the
JSON pointers :mod:`lavra.render.fillable.building` gave them). Values typed by hand
are read leniently (``12/03/2026`` for a date, ``1.234,56`` for a number, ``sim`` for
a checkbox); what cannot be read is an :class:`InputError` naming the field.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from babel.numbers import NumberFormatError, parse_decimal
from pypdf import PdfReader
from referencing import Registry

from lavra.errors import ContentPackError, InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.textnorm import clean_text
from lavra.render.fillable.schema import (
    ISO_DATE,
    FieldPath,
    Schema,
    as_schema,
    child_props,
    inline_refs,
    is_array,
    is_object,
    items_of,
    leaf_kind,
    options_of,
)

__all__ = ["read_fields"]

_CHECKED_TEXT = frozenset({"sim", "s", "x", "true", "1", "yes", "on", "marcado"})
_UNCHECKED_TEXT = frozenset({"não", "nao", "n", "false", "0", "no", "off"})
_OFF_STATES = frozenset({"", "/Off", "Off"})
_RADIO_FLAG = 1 << 15
_MASK_CHARS = re.compile(r"[\s.\-/]")
_DMY = re.compile(r"(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4})")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


# ---------------------------------------------------------------------- reading


def _open_fields(pdf: bytes) -> dict[str, Any]:
    if not isinstance(pdf, bytes | bytearray | memoryview):
        raise InputError("O requerimento deve ser enviado como arquivo PDF.")
    try:
        reader = PdfReader(io.BytesIO(bytes(pdf)), strict=False)
        if reader.is_encrypted:
            raise InputError(
                "O PDF está protegido por senha (criptografado); envie o requerimento sem proteção."
            )
        fields = reader.get_fields()
    except LavraError:
        raise
    except Exception as exc:  # pypdf raises many kinds on malformed files
        raise InputError(
            "Não foi possível ler o arquivo: não é um PDF válido ou está corrompido."
        ) from exc
    if not fields:
        raise InputError("O PDF não contém campos de formulário preenchíveis.")
    return dict(fields)


def _field_value(field: Mapping[str, Any]) -> str | bool | None:
    """The raw value of a pypdf field: text, True for a checked box, None when empty."""
    value = field.get("/V")
    if field.get("/FT") == "/Btn":
        if value is None or str(value) in _OFF_STATES:
            return None
        if int(field.get("/Ff", 0)) & _RADIO_FLAG:
            # A radio group: the state chosen is the answer ("/sim", "/nao").
            return str(value).removeprefix("/")
        return True
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    if isinstance(value, list):  # multiple choice: not produced by this module
        return None
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _resolve(schema: Schema, tokens: Sequence[str]) -> tuple[FieldPath, Schema] | None:
    node = schema
    path: list[str | int] = []
    for token in tokens:
        if is_array(node):
            if not pointers.is_index(token):
                return None
            node = items_of(node, pointers.join(path))
            path.append(int(token))
        elif is_object(node):
            children = child_props(node)
            if token not in children:
                return None
            node = children[token]
            path.append(token)
        else:
            return None
    if not path or is_object(node) or is_array(node):
        return None
    return tuple(path), node


def _convert(schema: Schema, raw: str | bool, pointer: str) -> Any:
    kind = leaf_kind(schema)
    if isinstance(raw, bool):
        return raw if kind == "boolean" else None
    if kind == "boolean":
        lowered = raw.casefold()
        if lowered in _CHECKED_TEXT:
            return True
        if lowered in _UNCHECKED_TEXT:
            return False
        raise InputError(
            f"O campo {pointer} deve ser marcado ou desmarcado; valor recebido: “{raw}”.",
            field=pointer,
        )
    if kind == "enum":
        for option, label in options_of(schema):
            if raw in (str(option), label):
                return option
        kind = leaf_kind({k: v for k, v in schema.items() if k not in ("enum", "const")})
        if kind == "enum":
            return raw
    if kind == "date":
        return _parse_date(raw, pointer)
    if kind in ("integer", "number"):
        return _parse_number(raw, pointer, integer=kind == "integer")
    return _unmask(schema, raw)


def _parse_date(raw: str, pointer: str) -> str:
    try:
        if ISO_DATE.fullmatch(raw):
            return date.fromisoformat(raw).isoformat()
        match = _DMY.fullmatch(raw)
        if match:
            day, month, year = (int(g) for g in match.groups())
            return date(year, month, day).isoformat()
    except ValueError:
        pass
    raise InputError(
        f"O campo {pointer} contém uma data inválida: “{raw}”. Use o formato dd/mm/aaaa.",
        field=pointer,
    )


def _parse_number(raw: str, pointer: str, *, integer: bool) -> int | float:
    text = raw.replace("\u00a0", "").replace(" ", "")
    number: Decimal | None
    try:
        number = parse_decimal(text, locale="pt_BR", strict=True)
    except NumberFormatError:
        number = None
        if _PLAIN_NUMBER.fullmatch(text):
            try:
                number = Decimal(text)
            except InvalidOperation:
                number = None
    if number is None or not number.is_finite():
        raise InputError(
            f"O campo {pointer} deve conter um número; valor recebido: “{raw}”.",
            field=pointer,
        )
    if number == number.to_integral_value():
        return int(number)
    if integer:
        raise InputError(
            f"O campo {pointer} deve conter um número inteiro; valor recebido: “{raw}”.",
            field=pointer,
        )
    return float(number)


def _unmask(schema: Schema, raw: str) -> str:
    """Remove a typed mask (CPF, CNPJ, CEP, placa) when only the bare value fits."""
    pattern = schema.get("pattern")
    if not isinstance(pattern, str):
        return raw
    try:
        compiled = re.compile(pattern)
    except re.error:
        return raw
    if compiled.search(raw):
        return raw
    for candidate in (_MASK_CHARS.sub("", raw), _MASK_CHARS.sub("", raw).upper()):
        if compiled.search(candidate):
            return candidate
    return raw


class _Rows(dict[int, Any]):
    """Rows of an array while they are being collected (index → row)."""


def _put(tree: dict[str, Any], path: FieldPath, value: Any) -> None:
    node: dict[Any, Any] = tree
    for key, following in itertools.pairwise(path):
        child = node.get(key)
        if child is None:
            child = _Rows() if isinstance(following, int) else {}
            node[key] = child
        node = child
    node[path[-1]] = value


def _finish(node: Any) -> Any:
    """Collected rows become lists, in index order (the gaps of empty rows close)."""
    if isinstance(node, _Rows):
        return [_finish(node[index]) for index in sorted(node)]
    if isinstance(node, dict):
        return {key: _finish(value) for key, value in node.items()}
    return node


def read_fields(
    pdf: bytes, schema: Mapping[str, Any], *, registry: Registry[Any] | None = None
) -> dict[str, Any]:
    """The JSON data of a filled requerimento PDF, converted back per ``schema``.

    ``schema`` as for :func:`fillable_body` (``registry`` inlines its ``$ref``).

    Dates typed as dd/mm/aaaa become ISO dates; numbers accept the pt-BR decimal
    comma; a Sim/Não question (a radio group) is ``true`` or ``false`` as answered
    and left out when neither button is chosen; a ticked box (a document presented)
    is ``true`` and an unticked one is left out, as are empty fields and empty array
    rows (rows are renumbered).
    Fields that the schema does not know are ignored. A file that is not a PDF,
    is encrypted or has no form, and a value that cannot be converted (a date that
    does not exist), raise :class:`InputError`.
    """
    root = as_schema(schema, "esquema")
    if registry is not None:
        root = inline_refs(root, registry)
    fields = _open_fields(pdf)
    tree: dict[str, Any] = {}
    try:
        for name, field in fields.items():
            if not isinstance(name, str) or not isinstance(field, Mapping):
                continue
            raw = _field_value(field)
            if raw is None:
                continue
            resolved = _resolve(root, pointers.split(name))
            if resolved is None:
                continue
            path, leaf = resolved
            # What the applicant typed: NFC, and refused when it hides characters.
            if isinstance(raw, str):
                raw = clean_text(raw, field=pointers.join(path))
            value = _convert(leaf, raw, pointers.join(path))
            if value is None:
                continue
            _put(tree, path, value)
        result = _finish(tree)
    except LavraError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, RecursionError) as exc:
        raise ContentPackError("O esquema do formulário não permite ler os campos do PDF.") from exc
    return result if isinstance(result, dict) else {}
