"""The HTML form of a JSON Schema: the tree of fields the templates render, and its checklist.

Both directions, this one and :mod:`lavra.web.formparse` (the submitted pairs back to
JSON data), are driven only by the form's schema (``$ref`` inlined by
:func:`lavra.render.fillable.schema.inline_refs`), like the fillable PDF: each input is
named by the JSON pointer of the value it holds, without the leading slash
(``veiculos/0/placa``); the schema helpers here serve both.

:func:`build_form` returns a tree of frozen nodes (:class:`Group`, :class:`Rows`,
:class:`Leaf`) that the templates render; :func:`checklist` lists the documents asked
for with their state in the completeness report; :func:`report_view` is what the
report partial shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from lavra.checking.report import AWAITING_LABEL, STATUS_LABELS, Report, Status
from lavra.inputs import pointers
from lavra.inputs.schemas.fields import FieldInfo
from lavra.render.fillable.schema import field_name

Schema = Mapping[str, Any]
PathT = tuple[str | int, ...]

MAX_FIELDS = 5000
MAX_ROWS = 500
TEXTAREA_MIN_LENGTH = 500
MASKS = {"cpf": "cpf", "cnpj": "cnpj", "placa": "placa", "cep": "cep", "date": "data"}
PLACEHOLDERS = {
    "cpf": "000.000.000-00",
    "cnpj": "00.000.000/0000-00",
    "placa": "ABC1D23",
    "cep": "00000-000",
    "data": "dd/mm/aaaa",
}
DATE_HELP = "Data no formato dd/mm/aaaa; a data deve existir no calendário."


@dataclass(frozen=True)
class CitationView:
    """A legal basis as a page shows it."""

    id: str
    short: str
    reference: str
    text: str


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    selected: bool


@dataclass(frozen=True)
class Leaf:
    node: str = field(default="leaf", init=False)
    name: str = ""
    ident: str = ""
    label: str = ""
    widget: str = "text"  # text, textarea, select, yesno, checkbox, multi
    value: str = ""
    checked: bool = False
    options: tuple[Option, ...] = ()
    help: str | None = None
    basis: tuple[CitationView, ...] = ()
    requirement: str | None = None
    mask: str | None = None
    placeholder: str | None = None
    inputmode: str | None = None
    maxlength: int | None = None
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class Group:
    node: str = field(default="group", init=False)
    name: str = ""
    ident: str = ""
    label: str = ""
    help: str | None = None
    basis: tuple[CitationView, ...] = ()
    requirement: str | None = None
    document: bool = False
    children: tuple[Leaf | Group | Rows, ...] = ()
    errors: tuple[str, ...] = ()
    removable: bool = False


@dataclass(frozen=True)
class Rows:
    node: str = field(default="rows", init=False)
    name: str = ""
    ident: str = ""
    label: str = ""
    help: str | None = None
    basis: tuple[CitationView, ...] = ()
    requirement: str | None = None
    item_label: str = ""
    rows: tuple[Group, ...] = ()
    template: Group | None = None
    placeholder: str = ""
    max_items: int = MAX_ROWS
    errors: tuple[str, ...] = ()


Node = Leaf | Group | Rows


@dataclass(frozen=True)
class ChecklistEntry:
    """One document of the checklist, with its status in the report."""

    pointer: str
    ident: str
    title: str
    basis: tuple[CitationView, ...]
    requirement: str | None
    status: str | None
    status_label: str


# ----------------------------------------------------------------------- schema


def _mapping(value: Any) -> Schema:
    return value if isinstance(value, Mapping) else {}


def schema_types(schema: Schema) -> set[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    return set()


def is_object(schema: Schema) -> bool:
    return "object" in schema_types(schema) or (
        "properties" in schema and not schema_types(schema) and "enum" not in schema
    )


def is_array(schema: Schema) -> bool:
    return "array" in schema_types(schema)


def is_document(schema: Schema) -> bool:
    props = _mapping(schema.get("properties"))
    return schema.get("x-documento") is True or "apresentado" in props


def properties(schema: Schema) -> dict[str, Schema]:
    """Properties of an object schema, with those first declared in conditional branches."""
    found: dict[str, Schema] = {
        name: _mapping(sub) for name, sub in _mapping(schema.get("properties")).items()
    }
    branches: list[Schema] = []
    for member in schema.get("allOf") or ():
        member = _mapping(member)
        branches.extend(_mapping(member.get(k)) for k in ("then", "else"))
        branches.append(member)
    branches.extend(_mapping(schema.get(k)) for k in ("then", "else"))
    for branch in branches:
        for name, sub in _mapping(branch.get("properties")).items():
            sub = _mapping(sub)
            if name not in found and ("type" in sub or "title" in sub or "enum" in sub):
                found[name] = sub
    return found


def options_of(schema: Schema) -> list[tuple[Any, str]]:
    values = schema.get("enum")
    if not isinstance(values, list):
        return []
    labels = _mapping(schema.get("x-rotulos"))
    return [(v, str(labels.get(str(v), v))) for v in values]


def item_schema(schema: Schema) -> Schema:
    return _mapping(schema.get("items"))


def is_boolean(schema: Schema) -> bool:
    values = schema.get("enum")
    return (
        "boolean" in schema_types(schema)
        or isinstance(schema.get("const"), bool)
        or (isinstance(values, list) and bool(values) and all(isinstance(v, bool) for v in values))
    )


def _widget(schema: Schema) -> str:
    if is_boolean(schema):
        return "checkbox" if schema.get("const") is True else "yesno"
    if options_of(schema):
        return "select"
    max_length = schema.get("maxLength")
    if isinstance(max_length, int) and max_length > TEXTAREA_MIN_LENGTH:
        return "textarea"
    return "text"


def _title(schema: Schema, name: str | int) -> str:
    title = schema.get("title")
    return str(title) if isinstance(title, str) and title else str(name).replace("_", " ")


def ident(path: Sequence[str | int]) -> str:
    """The HTML id of the input of a value."""
    text = "-".join(str(t) for t in path)
    return "f-" + re.sub(r"[^A-Za-z0-9_-]", "_", text)


def _pattern(path: Sequence[str | int]) -> str:
    return pointers.join(
        ["*" if isinstance(t, int) or str(t).startswith("__n") else t for t in path]
    )


def display_value(schema: Schema, value: Any) -> str:
    """A data value as typed in the page's field."""
    if value is None or isinstance(value, (dict, list)):
        return ""
    if isinstance(value, bool):
        return "sim" if value else "nao"
    if schema.get("format") == "date" and isinstance(value, str):
        try:
            return date.fromisoformat(value).strftime("%d/%m/%Y")
        except ValueError:
            return value
    return str(value)


_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def page_message(message: str) -> str:
    """A report message as the page shows it: the page's dates are typed dd/mm/aaaa (the
    checker, which also reads JSON files, speaks of AAAA-MM-DD)."""
    text = message.replace("use o formato AAAA-MM-DD", "use o formato dd/mm/aaaa")
    if "Data inexistente" in text:
        text = _ISO_DAY.sub(lambda m: f"{m.group(3)}/{m.group(2)}/{m.group(1)}", text)
    return text


def field_errors(report: Report) -> dict[str, list[str]]:
    """The pending messages of the report by the HTML id of the field they concern, as
    the page shows them at the field (the same words as the report)."""
    out: dict[str, list[str]] = {}
    for item in report.items:
        if item.pending and item.field:
            out.setdefault(ident(pointers.split(item.field)), []).append(
                page_message(item.message))
    return out


# ----------------------------------------------------------------------- building


class _Builder:
    def __init__(
        self,
        fields: Iterable[FieldInfo],
        cite: Callable[[str], CitationView],
        report: Report | None,
        show_errors: bool,
        extra_rows: Mapping[str, int],
    ) -> None:
        self.fields = {info.pattern: info for info in fields}
        self.cite = cite
        self.errors: dict[str, list[str]] = {}
        if report is not None and show_errors:
            for item in report.items:
                if item.pending:
                    self.errors.setdefault(item.field, []).append(page_message(item.message))
        self.extra_rows = extra_rows

    def basis(self, schema: Schema, path: PathT) -> tuple[CitationView, ...]:
        info = self.fields.get(_pattern(path))
        ids: Sequence[str] = info.basis if info is not None else ()
        if not ids:
            raw = schema.get("x-fundamento")
            ids = [c for c in raw if isinstance(c, str)] if isinstance(raw, list) else []
        return tuple(self.cite(c) for c in dict.fromkeys(ids))

    def requirement(self, path: PathT) -> str | None:
        info = self.fields.get(_pattern(path))
        if info is None:
            return None
        if info.required:
            return "obrigatório"
        if info.required_when:
            return f"exigido quando: {info.required_when}"
        return None

    def help(self, schema: Schema, path: PathT) -> str | None:
        info = self.fields.get(_pattern(path))
        text = info.description if info is not None else None
        text = text or schema.get("description")
        return str(text) if isinstance(text, str) and text else None

    def node(self, schema: Schema, path: PathT, value: Any, label: str) -> Node:
        if is_object(schema):
            return self.group(schema, path, value, label)
        if is_array(schema):
            items = item_schema(schema)
            if is_object(items):
                return self.rows(schema, items, path, value, label)
            return self.multi(schema, items, path, value, label)
        return self.leaf(schema, path, value, label)

    def _errors(self, path: PathT) -> tuple[str, ...]:
        return tuple(self.errors.get(pointers.join(path), ()))

    def group(
        self, schema: Schema, path: PathT, value: Any, label: str, *, removable: bool = False
    ) -> Group:
        data = value if isinstance(value, Mapping) else {}
        children = tuple(
            self.node(sub, (*path, name), data.get(name), _title(sub, name))
            for name, sub in properties(schema).items()
        )
        return Group(
            name=field_name(path) if path else "",
            ident=ident(path) if path else "f-raiz",
            label=label,
            help=self.help(schema, path),
            basis=self.basis(schema, path) if path else (),
            requirement=self.requirement(path) if path else None,
            document=is_document(schema),
            children=children,
            errors=self._errors(path) if path else (),
            removable=removable,
        )

    def rows(self, schema: Schema, items: Schema, path: PathT, value: Any, label: str) -> Rows:
        present = list(value) if isinstance(value, list) else []
        min_items = schema.get("minItems")
        max_items = schema.get("maxItems")
        limit = min(max_items, MAX_ROWS) if isinstance(max_items, int) else MAX_ROWS
        count = max(len(present), 1)
        if present == [] and isinstance(min_items, int):
            count = max(count, min(min_items, limit))
        count = min(count + self.extra_rows.get(pointers.join(path), 0), max(limit, len(present)))
        item_label = _title(items, label)
        depth = sum(1 for t in path if isinstance(t, int) or str(t).startswith("__n"))
        placeholder = f"__n{depth}__"
        groups = tuple(
            self.group(
                items,
                (*path, index),
                present[index] if index < len(present) else None,
                f"{item_label} {index + 1}",
                removable=True,
            )
            for index in range(count)
        )
        template = self.group(
            items, (*path, placeholder), None, f"{item_label} (nova linha)", removable=True
        )
        return Rows(
            name=field_name(path),
            ident=ident(path),
            label=label,
            help=self.help(schema, path),
            basis=self.basis(schema, path),
            requirement=self.requirement(path),
            item_label=item_label,
            rows=groups,
            template=template,
            placeholder=placeholder,
            max_items=limit,
            errors=self._errors(path),
        )

    def multi(self, schema: Schema, items: Schema, path: PathT, value: Any, label: str) -> Leaf:
        chosen = {str(v) for v in value} if isinstance(value, list) else set()
        return Leaf(
            name=field_name(path),
            ident=ident(path),
            label=label,
            widget="multi",
            options=tuple(
                Option(str(v), text, str(v) in chosen) for v, text in options_of(items)
            ),
            help=self.help(schema, path),
            basis=self.basis(schema, path),
            requirement=self.requirement(path),
            errors=self._errors(path),
        )

    def leaf(self, schema: Schema, path: PathT, value: Any, label: str) -> Leaf:
        widget = _widget(schema)
        shown = display_value(schema, value)
        options: tuple[Option, ...] = ()
        if widget == "select":
            options = tuple(
                Option(str(v), text, value is not None and str(v) == str(value))
                for v, text in options_of(schema)
            )
        elif widget == "yesno":
            options = (
                Option("sim", "Sim", value is True),
                Option("nao", "Não", value is False),
            )
        fmt = schema.get("format")
        mask = MASKS.get(fmt) if isinstance(fmt, str) else None
        types = schema_types(schema)
        inputmode = None
        if "integer" in types or mask in ("cpf", "cep", "data"):
            inputmode = "numeric"
        elif "number" in types:
            inputmode = "decimal"
        elif fmt == "email":
            inputmode = "email"
        max_length = schema.get("maxLength")
        if mask is not None:
            max_length = len(PLACEHOLDERS[mask]) + (3 if mask == "placa" else 0)
        help_text = self.help(schema, path)  # the schema says AAAA-MM-DD; the page dd/mm/aaaa
        if mask == "data" and help_text and "AAAA-MM-DD" in help_text:
            help_text = DATE_HELP
        return Leaf(
            name=field_name(path),
            ident=ident(path),
            label=label,
            widget=widget,
            value=shown,
            checked=value is True,
            options=options,
            help=help_text,
            basis=self.basis(schema, path),
            requirement=self.requirement(path),
            mask=mask,
            placeholder=PLACEHOLDERS.get(mask) if mask else None,
            inputmode=inputmode,
            maxlength=max_length if isinstance(max_length, int) else None,
            errors=self._errors(path),
        )


def build_form(
    schema: Schema,
    data: Mapping[str, Any],
    *,
    fields: Iterable[FieldInfo],
    cite: Callable[[str], CitationView],
    report: Report | None = None,
    show_errors: bool = False,
    extra_rows: Mapping[str, int] | None = None,
) -> Group:
    """The form tree of ``schema`` filled with ``data`` (errors from ``report`` if shown)."""
    builder = _Builder(fields, cite, report, show_errors, extra_rows or {})
    return builder.group(schema, (), data, _title(schema, "Formulário"))


def checklist(root: Group, report: Report | None) -> tuple[ChecklistEntry, ...]:
    """The documents of the form, in order, with their status in the report."""
    statuses = {item.field: item.status for item in report.items} if report else {}
    awaiting = {item.field for item in report.items if item.awaiting} if report else set()
    out: list[ChecklistEntry] = []

    def walk(node: Node, suffix: str) -> None:
        if isinstance(node, Group) and node.document and node.name:
            status = statuses.get("/" + node.name)
            out.append(
                ChecklistEntry(
                    pointer="/" + node.name,
                    ident=node.ident,
                    title=node.label + suffix,
                    basis=node.basis,
                    requirement=node.requirement,
                    status=status.value if status else None,
                    status_label=(
                        AWAITING_LABEL
                        if "/" + node.name in awaiting
                        else STATUS_LABELS[status] if status else "a verificar"
                    ),
                )
            )
            return
        if isinstance(node, Group):
            for child in node.children:
                walk(child, suffix if not node.removable else f" ({node.label})")
        elif isinstance(node, Rows):
            for row in node.rows:
                walk(row, f" ({row.label})")

    walk(root, "")
    return tuple(out)



def report_view(report: Report, cite: Callable[[str], CitationView]) -> dict[str, Any]:
    """What the report partial shows: pending first, then the rest."""

    def item_view(item: Any) -> dict[str, Any]:
        return {
            "status": item.status.value,
            "status_label": AWAITING_LABEL if item.awaiting else STATUS_LABELS[item.status],
            "message": page_message(item.message),
            "field": item.field,
            "anchor": ident(pointers.split(item.field)) if item.field else None,
            "basis": [cite(c) for c in item.basis],
        }

    pending = [item_view(i) for i in report.items if i.pending]
    met = [item_view(i) for i in report.items if i.status is Status.MET]
    other = [item_view(i) for i in report.items if i.status is Status.NOT_APPLICABLE]
    return {
        "complete": report.complete,
        "on": report.on.strftime("%d/%m/%Y"),
        "pending": pending,
        "met": met,
        "not_applicable": other,
    }
