"""A document's data as a person reads it on its page: each key by its form label, each
enum by its label, dates dd/mm/aaaa, CPF/CNPJ masked, yes/no in words. Never a raw schema
key, an enum value or an ISO date (issue 25, «No developer text reaches a user»)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from lavra.errors import InputError
from lavra.inputs.formats import mask_cnpj, mask_cpf
from lavra.web.formmodel import (
    Schema,
    is_array,
    item_schema,
    options_of,
    properties,
)

__all__ = ["Entry", "data_view", "label_pointers"]

MASKS = {"cpf": mask_cpf, "cnpj": mask_cnpj}
_NAMED_BY_POINTER = re.compile(
    r"(?i)(\s*\()?(\bcampo:?\s+)(/[\w~-]+(?:/[\w~-]+)*)((?(1)\)|))")


@dataclass(frozen=True)
class Entry:
    """One answer: its label and either its text or its parts (a group or a list)."""

    label: str
    text: str = ""
    parts: tuple[Entry, ...] = ()


def _label(schema: Schema, name: str) -> str:
    title = schema.get("title")
    if isinstance(title, str) and title:
        return title
    return name.replace("_", " ").capitalize()


def _text(schema: Schema, value: Any) -> str:
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if value is None:
        return ""
    labels = dict((str(v), text) for v, text in options_of(schema))
    if str(value) in labels:
        return labels[str(value)]
    text = str(value)
    fmt = schema.get("format")
    if fmt == "date":
        try:
            return date.fromisoformat(text).strftime("%d/%m/%Y")
        except ValueError:
            return text
    if fmt == "date-time":
        try:
            return datetime.fromisoformat(text).strftime("%d/%m/%Y %H:%M")
        except ValueError:
            return text
    if fmt in MASKS:
        try:
            return MASKS[fmt](text)
        except InputError:  # stored as typed before the mask: shown as stored
            return text
    if isinstance(value, float):
        return f"{value:.2f}".replace(".", ",") if not value.is_integer() else str(int(value))
    return text


def _entry(schema: Schema, label: str, value: Any) -> Entry:
    if isinstance(value, Mapping):
        return Entry(label, parts=_entries(schema, value))
    if isinstance(value, list):
        items = item_schema(schema) if is_array(schema) else {}
        if items and not isinstance(value[:1] and value[0], (Mapping, list)):
            return Entry(label, ", ".join(_text(items, v) for v in value))
        item_label = _label(items, "Item") if items else "Item"
        return Entry(label, parts=tuple(
            _entry(items, f"{item_label} {index}", v) for index, v in enumerate(value, 1)))
    return Entry(label, _text(schema, value))


def _entries(schema: Schema, data: Mapping[str, Any]) -> tuple[Entry, ...]:
    known = properties(schema)
    return tuple(
        _entry(known.get(name, {}), _label(known.get(name, {}), name), value)
        for name, value in data.items()
    )


def data_view(schema: Schema, data: Mapping[str, Any]) -> tuple[Entry, ...]:
    """``data`` (a document's stored answers) labelled by ``schema`` (inlined refs)."""
    return _entries(schema, data)


def label_pointers(text: str, label: Callable[[str], str]) -> str:
    """``text`` (a stored reason, a message) with each field it names by JSON pointer
    («campo /destinatario/prontuario», «Campo: /veiculo/placa») named by ``label``
    instead: «campo «Destinatário › Prontuário»»; a parenthesis «(campo /…)» after a
    message that already names the field by its label goes."""

    def named(match: re.Match[str]) -> str:
        words = label(match.group(3))
        if match.group(1) and words in text:
            return ""
        return f"{match.group(1) or ''}{match.group(2)}«{words}»{match.group(4)}"

    return _NAMED_BY_POINTER.sub(named, text)
