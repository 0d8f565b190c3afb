"""The applicants' fillable requerimento: AcroForm HTML out, JSON data back in.

Two public stages, both driven only by a form's JSON Schema (2020-12, ``$ref``
already inlined; see :func:`inline_refs`):

- :func:`fillable_body` writes the restricted HTML body of a requerimento whose
  ``<input>``/``<select>``/``<textarea>`` elements WeasyPrint turns into AcroForm
  fields (``write_pdf(pdf_forms=True)``). Each field is named by the JSON pointer of
  the value it holds, without the leading slash (``veiculos/0/placa``): slashes
  survive WeasyPrint and pypdf unchanged, while dots are the PDF separator of
  hierarchical field names and would be split by viewers.
- :func:`read_fields` opens a filled PDF with pypdf and rebuilds the JSON data,
  converting each field back according to its schema.

Schema vocabulary read here (all of it content-pack data):

- ``title`` / ``description``: label and help of a field or group.
- ``x-fundamento``: citation id(s) of the legal basis (``"lei#art7_inc2"``).
- documents: an object with an ``apresentado`` property (the shared ``documento``
  definition) or carrying ``"x-documento": true``; listed in the checklist.
- ``if``/``then``/``else`` (directly or inside ``allOf``) and ``dependentRequired``:
  conditional requirements; the condition is worded from the ``if`` schema, or taken
  verbatim from ``x-condicao`` (``x-condicao-senao`` for the ``else`` branch) on the
  object holding ``if``.
- ``x-multilinha``: show a string as a multi-line box.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from babel.numbers import NumberFormatError, format_decimal, parse_decimal
from markupsafe import Markup
from pypdf import PdfReader
from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from lavra.errors import CitationError, ContentPackError, InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.textnorm import clean_text

if TYPE_CHECKING:  # the Resolver class is public API but only exported from _core
    from referencing._core import Resolver

__all__ = [
    "DOCUMENT_FLAG",
    "FILLABLE_CSS",
    "DocumentEntry",
    "document_checklist",
    "field_name",
    "fillable_body",
    "inline_refs",
    "read_fields",
]

Schema = Mapping[str, Any]
Path = tuple[str | int, ...]

#: The property of the shared ``documento`` definition that the checkbox fills.
DOCUMENT_FLAG = "apresentado"

#: Minimal stylesheet for the body; the renderer's frame may add its own.
FILLABLE_CSS = """
.requerimento-preenchivel table { width: 100%; border-collapse: collapse; margin: 0 0 6pt 0; }
.requerimento-preenchivel th, .requerimento-preenchivel td {
  text-align: left; vertical-align: top; padding: 2pt 3pt; font-weight: normal; }
.requerimento-preenchivel table.campos th { width: 38%; }
.requerimento-preenchivel input[type="text"], .requerimento-preenchivel select,
.requerimento-preenchivel textarea {
  width: 100%; height: 14pt; box-sizing: border-box; border: 0.5pt solid #444;
  font-size: 10pt; }
.requerimento-preenchivel textarea { height: 40pt; }
.requerimento-preenchivel input[type="checkbox"] {
  width: 10pt; height: 10pt; border: 0.5pt solid #444; }
.requerimento-preenchivel .ajuda, .requerimento-preenchivel .fundamento,
.requerimento-preenchivel .condicao { font-size: 8.5pt; color: #333; }
.requerimento-preenchivel table.linhas td:first-child { width: 1.5em; }
.requerimento-preenchivel .texto-documento span { display: block; }
.requerimento-preenchivel .documento { margin: 0 0 8pt 0; break-inside: avoid; }
"""

_CHECKED_TEXT = frozenset({"sim", "s", "x", "true", "1", "yes", "on", "marcado"})
_UNCHECKED_TEXT = frozenset({"não", "nao", "n", "false", "0", "no", "off"})
_OFF_STATES = frozenset({"", "/Off", "Off"})
_MASK_CHARS = re.compile(r"[\s.\-/]")
_DMY = re.compile(r"(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4})")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
#: Internal key: conditions of an ``if`` that reach into a property's children.
_INHERITED = "x-lavra-condicoes-herdadas"


# --------------------------------------------------------------------------- $ref


def inline_refs(
    schema: Mapping[str, Any],
    registry: Registry[Any] | None = None,
    *,
    base_uri: str | None = None,
) -> dict[str, Any]:
    """A copy of ``schema`` with every ``$ref`` replaced by the schema it points to.

    ``registry`` holds the shared schemas (``$id`` → contents); the form schema itself
    is added to it. Keywords beside a ``$ref`` override those of the target (so a
    property may give its own ``title`` and ``x-fundamento`` to a shared
    definition). ``$defs`` are dropped from the result. A reference that does not
    resolve, or one that refers back into itself, raises :class:`ContentPackError`.
    """
    if not isinstance(schema, Mapping):
        raise ContentPackError("O esquema do formulário não é um objeto JSON.")
    uri = base_uri if base_uri is not None else str(schema.get("$id", ""))
    root = DRAFT202012.create_resource(schema)
    resolver = (registry or Registry()).with_resource(uri, root).resolver(base_uri=uri)
    inlined = _inline(schema, resolver, stack=(), where=uri or "esquema")
    if not isinstance(inlined, dict):  # pragma: no cover - a Mapping stays a dict
        raise ContentPackError("O esquema do formulário não é um objeto JSON.")
    return inlined


def _inline(node: Any, resolver: Resolver[Any], stack: tuple[int, ...], where: str) -> Any:
    if isinstance(node, Mapping):
        if "$id" in node and isinstance(node["$id"], str):
            resolver = resolver.in_subresource(DRAFT202012.create_resource(node))
        result: dict[str, Any] = {}
        ref = node.get("$ref")
        if ref is not None:
            if not isinstance(ref, str):
                raise ContentPackError(f"Referência $ref inválida em {where}.")
            try:
                resolved = resolver.lookup(ref)
            except Unresolvable as exc:
                raise ContentPackError(
                    f"A referência “{ref}” do esquema ({where}) não foi encontrada."
                ) from exc
            if id(resolved.contents) in stack:
                raise ContentPackError(
                    f"A referência “{ref}” do esquema ({where}) é circular; o formulário "
                    "preenchível não pode representá-la."
                )
            target = _inline(
                resolved.contents, resolved.resolver, (*stack, id(resolved.contents)), ref
            )
            if isinstance(target, Mapping):
                result.update(target)
        for key, value in node.items():
            if key in ("$ref", "$defs", "definitions"):
                continue
            inlined = _inline(value, resolver, stack, where)
            # Beside a $ref both apply (2020-12): merge what adds up instead of replacing.
            if key == "properties" and isinstance(result.get(key), Mapping):
                inlined = {**result[key], **inlined}
            elif key in ("required", "allOf") and isinstance(result.get(key), list):
                inlined = [*result[key], *(x for x in inlined if x not in result[key])]
            result[key] = inlined
        return result
    if isinstance(node, list):
        return [_inline(item, resolver, stack, where) for item in node]
    return node


# ----------------------------------------------------------------- schema reading


@dataclass(frozen=True)
class _Prop:
    """One property of an object schema, as the form shows it."""

    name: str
    schema: Schema
    required: bool
    conditions: tuple[str, ...]


@dataclass(frozen=True)
class DocumentEntry:
    """One line of the checklist of documents to attach."""

    pointer: str
    """JSON pointer of the document object (``/documentos/contrato_social``)."""
    title: str
    basis: tuple[str, ...]
    """Citation ids (``x-fundamento``)."""
    required: bool
    conditions: tuple[str, ...]
    """Conditions in words (``exigido se …``); empty when unconditional."""
    schema: Schema


def _mapping(value: Any, where: str) -> Schema:
    if value is None:
        return {}
    if isinstance(value, bool):  # ``true`` / ``false`` schemas carry nothing to show
        return {}
    if not isinstance(value, Mapping):
        raise ContentPackError(
            f"O esquema do formulário é inválido em {where}: esperava-se um objeto."
        )
    return value


def _types(schema: Schema) -> frozenset[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return frozenset({declared})
    if isinstance(declared, list):
        return frozenset(t for t in declared if isinstance(t, str))
    return frozenset()


def _is_object(schema: Schema) -> bool:
    return "object" in _types(schema) or "properties" in schema


def _is_array(schema: Schema) -> bool:
    return not _is_object(schema) and ("array" in _types(schema) or "items" in schema)


def _is_document(schema: Schema) -> bool:
    if schema.get("x-documento") is True:
        return True
    return _is_object(schema) and DOCUMENT_FLAG in _mapping(schema.get("properties"), "properties")


def _humanize(name: str) -> str:
    text = name.replace("_", " ").strip()
    return text[:1].upper() + text[1:] if text else name


def _title(schema: Schema, name: str | int) -> str:
    title = schema.get("title")
    return title if isinstance(title, str) and title.strip() else _humanize(str(name))


def _basis(schema: Schema, where: str) -> tuple[str, ...]:
    raw = schema.get("x-fundamento")
    if raw is None:
        return ()
    if isinstance(raw, str):
        return (raw,)
    if isinstance(raw, list) and all(isinstance(item, str) for item in raw):
        return tuple(raw)
    raise ContentPackError(f"x-fundamento inválido em {where}: esperava-se uma lista de citações.")


def _string_list(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _options(schema: Schema) -> list[tuple[Any, str]]:
    """Allowed values with their labels (``enum``, ``const``, ``oneOf`` of consts).

    Labels come from ``x-rotulos`` (value → label) when the schema has it.
    """
    names = schema.get("x-rotulos")
    names = names if isinstance(names, Mapping) else {}
    if isinstance(schema.get("enum"), list):
        return [
            (value, str(names.get(str(value), value)))
            for value in schema["enum"]
            if value is not None
        ]
    for key in ("oneOf", "anyOf"):
        branches = schema.get(key)
        if (
            isinstance(branches, list)
            and branches
            and all(isinstance(b, Mapping) and "const" in b for b in branches)
        ):
            return [(b["const"], _title(b, str(b["const"]))) for b in branches]
    if "const" in schema and schema["const"] is not None:
        return [(schema["const"], str(names.get(str(schema["const"]), schema["const"])))]
    return []


def _option_label(schema: Schema, value: Any) -> str:
    for option, label in _options(schema):
        if option == value:
            return label
    return str(value)


def _object_props(schema: Schema, where: str = "esquema") -> list[_Prop]:
    """The properties of an object schema, including those of ``allOf`` and ``then``."""
    names: dict[str, Schema] = {}
    required: set[str] = set()
    conditions: dict[str, list[str]] = {}

    def take(piece: Schema) -> None:
        for name, sub in _mapping(piece.get("properties"), where).items():
            names.setdefault(name, _mapping(sub, f"{where}/{name}"))
        required.update(_string_list(piece.get("required")))

    take(schema)
    pieces = [schema]
    for piece in schema.get("allOf", []) if isinstance(schema.get("allOf"), list) else []:
        piece = _mapping(piece, f"{where}/allOf")
        if "if" in piece:
            pieces.append(piece)
        else:
            take(piece)
    branches: list[tuple[str, str, Schema]] = []
    inherited = schema.get(_INHERITED)
    if isinstance(inherited, list):
        branches.extend(inherited)
    for piece in pieces:
        if "if" not in piece:
            continue
        condition = _mapping(piece["if"], f"{where}/if")
        for branch, negate in (("then", False), ("else", True)):
            if branch not in piece:
                continue
            sub = _mapping(piece[branch], f"{where}/{branch}")
            text = piece.get("x-condicao-senao" if negate else "x-condicao")
            if not isinstance(text, str):
                text = sub.get("x-condicao")
            branches.append(
                (
                    _words(condition, names, negate, "exigido", text),
                    _words(condition, names, negate, "aplicável", text),
                    sub,
                )
            )
    for words_required, words_applicable, sub in branches:
        branch_required = set(_string_list(sub.get("required")))
        for name, prop in _mapping(sub.get("properties"), where).items():
            prop = _mapping(prop, f"{where}/{name}")
            if name not in names:
                names[name] = prop
                if name not in branch_required:
                    conditions.setdefault(name, []).append(words_applicable)
            elif "required" in prop or "properties" in prop or "items" in prop:
                # A condition on the children of an existing property: carried down.
                carried = dict(names[name])
                carried[_INHERITED] = [
                    *(carried.get(_INHERITED) or []),
                    (words_required, words_applicable, prop),
                ]
                names[name] = carried
        for name in branch_required:
            if name not in required:
                conditions.setdefault(name, []).append(words_required)
    dependent = schema.get("dependentRequired")
    if isinstance(dependent, Mapping):
        for trigger, targets in dependent.items():
            label = _title(names.get(trigger, {}), trigger)
            for name in _string_list(targets):
                if name not in required:
                    conditions.setdefault(name, []).append(
                        f"exigido se o campo “{label}” for preenchido"
                    )
    return [
        _Prop(name, sub, name in required, tuple(conditions.get(name, ())))
        for name, sub in names.items()
    ]


def _words(
    condition: Schema,
    props: Mapping[str, Schema],
    negate: bool,
    verb: str,
    given: str | None,
) -> str:
    if given:
        return given
    clause = _clause(condition, props, ())
    if clause is None:
        return f"{verb} em situação específica prevista no fundamento legal"
    return f"{verb} exceto se {clause}" if negate else f"{verb} se {clause}"


def _clause(condition: Schema, props: Mapping[str, Schema], prefix: tuple[str, ...]) -> str | None:
    """The ``if`` schema in words (``o campo “Sede — Município” for “X”``), if simple."""
    parts: list[str] = []
    constraints = condition.get("properties")
    constraints = constraints if isinstance(constraints, Mapping) else {}
    for name, constraint in constraints.items():
        target = props.get(name, {})
        label = (*prefix, _title(target, name))
        if not isinstance(constraint, Mapping):
            return None
        part = _constraint_words(constraint, target, label)
        if part is None:
            return None
        parts.append(part)
    for name in _string_list(condition.get("required")):
        if name not in constraints:
            text = " — ".join((*prefix, _title(props.get(name, {}), name)))
            parts.append(f"o campo “{text}” for preenchido")
    if not parts or set(condition) - {"properties", "required", "type", "title", "$comment"}:
        return None
    return " e ".join(parts)


def _constraint_words(constraint: Schema, target: Schema, label: tuple[str, ...]) -> str | None:
    field = f"o campo “{' — '.join(label)}”"
    if "const" in constraint:
        value = constraint["const"]
        if isinstance(value, bool):
            return f"{field} estiver marcado" if value else f"{field} não estiver marcado"
        return f"{field} for “{_option_label(target, value)}”"
    if isinstance(constraint.get("enum"), list):
        values = " ou ".join(f"“{_option_label(target, v)}”" for v in constraint["enum"])
        return f"{field} for {values}"
    negated = constraint.get("not")
    if isinstance(negated, Mapping) and set(constraint) <= {"not", "type"}:
        if "const" in negated:
            return f"{field} for diferente de “{_option_label(target, negated['const'])}”"
        if isinstance(negated.get("enum"), list):
            values = " nem ".join(f"“{_option_label(target, v)}”" for v in negated["enum"])
            return f"{field} não for {values}"
        return None
    if "properties" in constraint:
        inner = _clause(constraint, _child_props(target), label)
        return inner
    return None


def _child_props(schema: Schema) -> dict[str, Schema]:
    if not _is_object(schema):
        return {}
    return {p.name: p.schema for p in _object_props(schema)}


def _items(schema: Schema, where: str) -> Schema:
    """The schema of an array's items, with conditions carried down to them."""
    if isinstance(schema.get("items"), list):
        return {}
    items = _mapping(schema.get("items"), f"{where}/items")
    inherited = schema.get(_INHERITED)
    if isinstance(inherited, list):
        carried = [
            (words_required, words_applicable, sub["items"])
            for words_required, words_applicable, sub in inherited
            if isinstance(sub.get("items"), Mapping)
        ]
        if carried:
            items = {**items, _INHERITED: [*(items.get(_INHERITED) or []), *carried]}
    return items


def _leaf_kind(schema: Schema) -> str:
    types = _types(schema)
    options = _options(schema)
    if "boolean" in types or (options and all(isinstance(v, bool) for v, _ in options)):
        return "boolean"
    if options:
        return "enum"
    if schema.get("format") == "date":
        return "date"
    if "integer" in types:
        return "integer"
    if "number" in types:
        return "number"
    max_length = schema.get("maxLength")
    if schema.get("x-multilinha") is True or (isinstance(max_length, int) and max_length >= 200):
        return "text"
    return "string"


def field_name(path: Sequence[str | int]) -> str:
    """The AcroForm field name of a value: its JSON pointer without the leading ``/``."""
    pointer: str = pointers.join(path)
    return pointer[1:]


def document_checklist(
    schema: Mapping[str, Any], data: Mapping[str, Any] | None = None
) -> tuple[DocumentEntry, ...]:
    """The documents a form asks for, in order; rows of arrays counted as in the form."""
    entries: list[DocumentEntry] = []
    _walk_documents(_mapping(schema, "esquema"), data or {}, (), entries)
    return tuple(entries)


def _row_count(schema: Schema, value: Any) -> int:
    present = len(value) if isinstance(value, list) else 0
    min_items = schema.get("minItems")
    min_items = min_items if isinstance(min_items, int) else 0
    rows = max(present, min_items, 1) + 1
    max_items = schema.get("maxItems")
    if isinstance(max_items, int) and not isinstance(max_items, bool):
        rows = min(rows, max(max_items, present))
    return rows


def _at(value: Any, key: str | int) -> Any:
    if isinstance(key, int):
        return value[key] if isinstance(value, list) and key < len(value) else None
    return value.get(key) if isinstance(value, Mapping) else None


def _walk_documents(schema: Schema, data: Any, path: Path, out: list[DocumentEntry]) -> None:
    for prop in _object_props(schema, pointers.join(path) or "esquema"):
        sub_path = (*path, prop.name)
        value = _at(data, prop.name)
        if _is_document(prop.schema):
            out.append(_document(prop.schema, sub_path, prop, _title(prop.schema, prop.name)))
        elif _is_object(prop.schema):
            _walk_documents(prop.schema, value, sub_path, out)
        elif _is_array(prop.schema):
            items = _items(prop.schema, pointers.join(sub_path))
            title = _title(items if "title" in items else prop.schema, prop.name)
            for index in range(_row_count(prop.schema, value)):
                row_path = (*sub_path, index)
                if _is_document(items):
                    out.append(_document(items, row_path, prop, f"{title} — {index + 1}"))
                elif _is_object(items):
                    before = len(out)
                    _walk_documents(items, _at(value, index), row_path, out)
                    for i in range(before, len(out)):
                        entry = out[i]
                        out[i] = DocumentEntry(
                            entry.pointer,
                            f"{entry.title} ({title} {index + 1})",
                            entry.basis,
                            entry.required,
                            entry.conditions,
                            entry.schema,
                        )


def _document(schema: Schema, path: Path, prop: _Prop, title: str) -> DocumentEntry:
    pointer = pointers.join(path)
    basis = _basis(schema, pointer) or _basis(prop.schema, pointer)
    return DocumentEntry(pointer, title, basis, prop.required, prop.conditions, schema)


# -------------------------------------------------------------------- HTML output


def _display(kind: str, value: Any) -> str:
    """A data value as the applicant sees it in the field."""
    if value is None or isinstance(value, Mapping | list):
        return ""
    if kind == "date" and isinstance(value, str) and _ISO_DATE.fullmatch(value):
        try:
            return date.fromisoformat(value).strftime("%d/%m/%Y")
        except ValueError:
            return value
    if isinstance(value, bool):
        return "sim" if value else "não"
    if kind == "number" and isinstance(value, int | float):
        return str(format_decimal(value, format="#0.##########", locale="pt_BR"))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass
class _Builder:
    cite: Callable[[str], str]
    parts: list[Markup]

    def emit(self, template: str, *args: Any) -> None:
        self.parts.append(Markup(template).format(*args))

    def citations(self, ids: Iterable[str]) -> str:
        texts: list[str] = []
        for citation in ids:
            try:
                texts.append(self.cite(citation))
            except LavraError:
                raise
            except Exception as exc:
                raise CitationError(f"Não foi possível redigir a citação “{citation}”.") from exc
        return "; ".join(texts)

    def basis_line(self, schema: Schema, where: str) -> None:
        ids = _basis(schema, where)
        if ids:
            self.emit('<p class="fundamento">Fundamento: {}.</p>', self.citations(ids))

    # ---- widgets

    def widget(self, path: Path, schema: Schema, value: Any, label: str) -> Markup:
        name = field_name(path)
        kind = _leaf_kind(schema)
        if kind == "boolean":
            checked = Markup(" checked") if value is True else Markup("")
            return Markup('<input type="checkbox" name="{}" title="{}"{}>').format(
                name, label, checked
            )
        if kind == "enum":
            options = [Markup('<option value=""></option>')]
            for option, text in _options(schema):
                selected = Markup(" selected") if value is not None and option == value else ""
                options.append(
                    Markup('<option value="{}"{}>{}</option>').format(str(option), selected, text)
                )
            return Markup('<select name="{}" title="{}">{}</select>').format(
                name, label, Markup("").join(options)
            )
        text = _display(kind, value)
        if kind == "text":
            return Markup('<textarea name="{}" title="{}">{}</textarea>').format(name, label, text)
        max_length = schema.get("maxLength")
        limit = Markup("")
        if (
            kind == "string"
            and isinstance(max_length, int)
            and "pattern" not in schema
            and "format" not in schema
        ):
            limit = Markup(' maxlength="{}"').format(max_length)
        return Markup('<input type="text" name="{}" value="{}" title="{}"{}>').format(
            name, text, label, limit
        )

    def field_row(self, path: Path, prop: _Prop, value: Any, label: str) -> Markup:
        kind = _leaf_kind(prop.schema)
        mark = Markup(' <span class="obrigatorio">*</span>') if prop.required else Markup("")
        hint = " (dd/mm/aaaa)" if kind == "date" else ""
        help_parts = [
            str(text)
            for text in (
                prop.schema.get("description"),
                _conditions_text(prop.conditions) if prop.conditions else None,
            )
            if isinstance(text, str) and text
        ]
        ids = _basis(prop.schema, pointers.join(path))
        if ids:
            help_parts.append("Fundamento: " + self.citations(ids))
        help_html = Markup("")
        if help_parts:
            help_html = Markup('<span class="ajuda">{}</span>').format(
                ". ".join(_sentence(h) for h in help_parts)
            )
        title = _title(prop.schema, prop.name)
        return Markup("<tr><th>{}{}{}</th><td>{}{}</td></tr>").format(
            title, hint, mark, self.widget(path, prop.schema, value, label), help_html
        )

    # ---- structure

    def object_body(
        self, schema: Schema, data: Any, path: Path, level: int, label: tuple[str, ...]
    ) -> None:
        rows: list[Markup] = []

        def flush() -> None:
            if rows:
                self.emit('<table class="campos">{}</table>', Markup("").join(rows))
                rows.clear()

        for prop in _object_props(schema, pointers.join(path) or "esquema"):
            sub_path = (*path, prop.name)
            value = _at(data, prop.name)
            title = _title(prop.schema, prop.name)
            if _is_document(prop.schema):
                continue  # listed in the checklist
            if _is_object(prop.schema):
                if not _has_fields(prop.schema):
                    continue  # only documents: all of them are in the checklist
                flush()
                self.group(prop, value, sub_path, level, (*label, title))
            elif _is_array(prop.schema):
                flush()
                self.array(prop, value, sub_path, level, (*label, title))
            else:
                rows.append(self.field_row(sub_path, prop, value, " — ".join((*label, title))))
        flush()

    def heading(self, level: int, text: str) -> None:
        tag = f"h{min(level, 3)}"
        self.emit(f"<{tag}>{{}}</{tag}>", text)

    def group(
        self, prop: _Prop, value: Any, path: Path, level: int, label: tuple[str, ...]
    ) -> None:
        self.parts.append(Markup('<div class="grupo">'))
        self.heading(level, label[-1])
        self.intro(prop, pointers.join(path))
        self.object_body(prop.schema, value, path, level + 1, label)
        self.parts.append(Markup("</div>"))

    def intro(self, prop: _Prop, where: str) -> None:
        description = prop.schema.get("description")
        if isinstance(description, str) and description:
            self.emit('<p class="ajuda">{}</p>', description)
        if prop.conditions:
            self.emit('<p class="condicao">{}.</p>', _conditions_text(prop.conditions))
        self.basis_line(prop.schema, where)

    def array(
        self, prop: _Prop, value: Any, path: Path, level: int, label: tuple[str, ...]
    ) -> None:
        where = pointers.join(path)
        items = _items(prop.schema, where)
        if _is_document(items):
            return  # each row is a line of the checklist
        self.parts.append(Markup('<div class="lista">'))
        self.heading(level, label[-1])
        self.intro(prop, where)
        rows = _row_count(prop.schema, value)
        item_title = _title(items, label[-1]) if "title" in items else label[-1]
        columns = _columns(items, ()) if _is_object(items) else [((), items, item_title)]
        if columns is not None:
            header = Markup("").join(
                Markup("<th>{}{}</th>").format(
                    title, " (dd/mm/aaaa)" if _leaf_kind(schema) == "date" else ""
                )
                for _, schema, title in columns
            )
            body: list[Markup] = [Markup("<tr><th>Nº</th>{}</tr>").format(header)]
            for index in range(rows):
                row_value = _at(value, index)
                cells = [
                    self.widget(
                        (*path, index, *rel),
                        schema,
                        _deep(row_value, rel),
                        " — ".join((*label, str(index + 1), title)),
                    )
                    for rel, schema, title in columns
                ]
                body.append(
                    Markup("<tr><td>{}</td>{}</tr>").format(
                        index + 1, Markup("").join(Markup("<td>{}</td>").format(c) for c in cells)
                    )
                )
            self.emit('<table class="linhas">{}</table>', Markup("").join(body))
        else:
            for index in range(rows):
                self.parts.append(Markup('<div class="item">'))
                self.heading(level + 1, f"{item_title} {index + 1}")
                self.object_body(
                    items,
                    _at(value, index),
                    (*path, index),
                    level + 2,
                    (*label, str(index + 1)),
                )
                self.parts.append(Markup("</div>"))
        self.parts.append(Markup("</div>"))

    def doc_widget(self, entry: DocumentEntry, path: Path, prop: _Prop, value: Any) -> Markup:
        title = _title(prop.schema, prop.name)
        return self.widget(
            (*path, prop.name), prop.schema, _at(value, prop.name), f"{entry.title} — {title}"
        )

    def documents(self, entries: Sequence[DocumentEntry], data: Any) -> None:
        if not entries:
            return
        self.parts.append(Markup('<div class="documentos">'))
        self.heading(2, "Documentos a anexar")
        self.emit(
            "<p>{}</p>",
            "Marque cada documento que acompanha este requerimento e informe o número, "
            "as datas de emissão e de validade e os demais dados pedidos.",
        )
        for entry in entries:
            path: Path = tuple(
                int(t) if pointers.is_index(t) else t for t in pointers.split(entry.pointer)
            )
            value = pointers.get(data, entry.pointer)
            props = _object_props(entry.schema, entry.pointer)
            self.parts.append(Markup('<div class="documento">'))
            flag = next((p for p in props if p.name == DOCUMENT_FLAG), None)
            checkbox = Markup("")
            if flag is not None:
                checkbox = self.widget(
                    (*path, DOCUMENT_FLAG), flag.schema, _at(value, DOCUMENT_FLAG), entry.title
                ) + Markup(" ")
            status = (
                "" if entry.conditions else (" (obrigatório)" if entry.required else " (se houver)")
            )
            self.emit('<p>{}<span class="rotulo">{}</span>{}</p>', checkbox, entry.title, status)
            if entry.basis:
                self.emit('<p class="fundamento">Fundamento: {}.</p>', self.citations(entry.basis))
            if entry.conditions:
                self.emit('<p class="condicao">{}.</p>', _conditions_text(entry.conditions))
            details = [
                p
                for p in props
                if p.name != DOCUMENT_FLAG and not (_is_object(p.schema) or _is_array(p.schema))
            ]
            short = [p for p in details if _leaf_kind(p.schema) != "text"]
            if short:
                header = Markup("").join(
                    Markup("<th>{}{}</th>").format(
                        _title(p.schema, p.name),
                        " (dd/mm/aaaa)" if _leaf_kind(p.schema) == "date" else "",
                    )
                    for p in short
                )
                cells = Markup("").join(
                    Markup("<td>{}</td>").format(self.doc_widget(entry, path, p, value))
                    for p in short
                )
                self.emit(
                    '<table class="dados-documento"><tr>{}</tr><tr>{}</tr></table>',
                    header,
                    cells,
                )
            for p in details:
                if _leaf_kind(p.schema) == "text":
                    self.emit(
                        '<div class="texto-documento"><span>{}</span>{}</div>',
                        _title(p.schema, p.name),
                        self.doc_widget(entry, path, p, value),
                    )
            self.parts.append(Markup("</div>"))
        self.parts.append(Markup("</div>"))


def _has_fields(schema: Schema) -> bool:
    """Whether an object has something to fill besides documents."""
    for prop in _object_props(schema):
        if _is_document(prop.schema):
            continue
        if not _is_object(prop.schema) or _has_fields(prop.schema):
            return True
    return False


def _conditions_text(conditions: Sequence[str]) -> str:
    """Several conditions as one sentence: ``Exigido se A; ou se B``."""
    texts: list[str] = []
    for condition in dict.fromkeys(conditions):
        condition = condition.strip().rstrip(".")
        if texts:
            for verb in ("exigido ", "aplicável "):
                if condition.startswith(verb):
                    condition = condition[len(verb) :]
            condition = "ou " + condition
        texts.append(condition)
    return _sentence("; ".join(texts))


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:]


def _deep(value: Any, rel: Sequence[str | int]) -> Any:
    for key in rel:
        value = _at(value, key)
    return value


def _columns(
    schema: Schema, rel: tuple[str, ...]
) -> list[tuple[tuple[str, ...], Schema, str]] | None:
    """Leaf columns of an array item, or None when it must be laid out as sub-sections."""
    columns: list[tuple[tuple[str, ...], Schema, str]] = []
    for prop in _object_props(schema):
        if _is_document(prop.schema) or _is_array(prop.schema):
            return None
        if _is_object(prop.schema):
            inner = _columns(prop.schema, (*rel, prop.name))
            if inner is None:
                return None
            columns.extend(inner)
        else:
            columns.append(((*rel, prop.name), prop.schema, _title(prop.schema, prop.name)))
    return columns


def fillable_body(
    schema: Mapping[str, Any],
    data: Mapping[str, Any],
    *,
    cite: Callable[[str], str],
    registry: Registry[Any] | None = None,
    with_title: bool = True,
) -> str:
    """The HTML body of a fillable requerimento for ``schema``, prefilled from ``data``.

    ``schema`` has its ``$ref`` inlined already, or ``registry`` is given to inline
    them (:func:`inline_refs`); ``cite`` turns a citation id into its text. With
    ``with_title`` the schema's ``title`` opens the body as ``<h1>`` (leave it out
    when the page frame prints the title). Every value is escaped; the result is a
    plain ``str`` of trusted HTML (wrap it in ``Markup`` to embed it in a Jinja template,
    or use it as is). Render it with
    ``pdf_forms=True`` (and :data:`FILLABLE_CSS`, or the frame's own styles).
    """
    if not isinstance(data, Mapping):
        raise InputError("Os dados do requerimento devem ser um objeto JSON.", field="")
    root = _mapping(schema, "esquema")
    if registry is not None:
        root = inline_refs(root, registry)
    builder = _Builder(cite, [Markup('<div class="requerimento-preenchivel">')])
    try:
        if with_title:
            builder.heading(1, _title(root, "Requerimento"))
        description = root.get("description")
        if isinstance(description, str) and description:
            builder.emit("<p>{}</p>", description)
        builder.basis_line(root, "esquema")
        builder.emit(
            '<p class="instrucoes">{}</p>',
            "Preencha os campos abaixo. Os campos marcados com * são obrigatórios; "
            "as datas seguem o formato dd/mm/aaaa.",
        )
        builder.object_body(root, data, (), 2, ())
        builder.documents(document_checklist(root, data), data)
    except LavraError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, RecursionError) as exc:
        raise ContentPackError(
            "O esquema do formulário não pôde ser convertido em formulário preenchível."
        ) from exc
    builder.parts.append(Markup("</div>"))
    # A plain str: a Markup would escape whatever str it is concatenated with.
    return str(Markup("\n").join(builder.parts))


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
        return None if value is None or str(value) in _OFF_STATES else True
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    if isinstance(value, list):  # multiple choice: not produced by this module
        return None
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _resolve(schema: Schema, tokens: Sequence[str]) -> tuple[Path, Schema] | None:
    node = schema
    path: list[str | int] = []
    for token in tokens:
        if _is_array(node):
            if not pointers.is_index(token):
                return None
            node = _items(node, pointers.join(path))
            path.append(int(token))
        elif _is_object(node):
            children = _child_props(node)
            if token not in children:
                return None
            node = children[token]
            path.append(token)
        else:
            return None
    if not path or _is_object(node) or _is_array(node):
        return None
    return tuple(path), node


def _convert(schema: Schema, raw: str | bool, pointer: str) -> Any:
    kind = _leaf_kind(schema)
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
        for option, label in _options(schema):
            if raw in (str(option), label):
                return option
        kind = _leaf_kind({k: v for k, v in schema.items() if k not in ("enum", "const")})
        if kind == "enum":
            return raw
    if kind == "date":
        return _parse_date(raw, pointer)
    if kind in ("integer", "number"):
        return _parse_number(raw, pointer, integer=kind == "integer")
    return _unmask(schema, raw)


def _parse_date(raw: str, pointer: str) -> str:
    try:
        if _ISO_DATE.fullmatch(raw):
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


def _put(tree: dict[str, Any], path: Path, value: Any) -> None:
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
    comma; a checked box is ``true`` and an unchecked one is left out (not
    answered), as are empty fields and empty array rows (rows are renumbered).
    Fields that the schema does not know are ignored. A file that is not a PDF,
    is encrypted or has no form, and a value that cannot be converted (a date that
    does not exist), raise :class:`InputError`.
    """
    root = _mapping(schema, "esquema")
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
