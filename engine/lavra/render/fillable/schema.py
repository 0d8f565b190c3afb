"""Reading a form's JSON Schema for the fillable requerimento: properties, documents.

Both stages of :mod:`lavra.render.fillable` are driven only by a form's JSON Schema
(2020-12, ``$ref`` already inlined by :func:`inline_refs`). This module holds what
they share: the walk over an object's properties with the conditions under which each
one is asked for, the kind of widget a leaf gets, the document checklist.

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
- ``x-assinantes`` (at the root): who signs a requerimento several applicants file
  (``["cedente", "cessionário"]``): one signature line each, instead of the one
  applicant's.
- ``x-ajuda``: the help the fillable form prints for a field, instead of its
  ``description`` (``""`` prints none). Without it, a field's own ``description`` is
  printed in full, and one inherited from a shared definition (``$ref``) only up to its
  first ``;`` or full stop, and not at all for a date (the form gives the format).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from lavra.errors import ContentPackError
from lavra.inputs import pointers

if TYPE_CHECKING:  # the Resolver class is public API but only exported from _core
    from referencing._core import Resolver

__all__ = [
    "DOCUMENT_FLAG",
    "SHARED_DESCRIPTION",
    "DocumentEntry",
    "FieldPath",
    "Prop",
    "Schema",
    "document_checklist",
    "field_name",
    "inline_refs",
    "with_required_objects",
]

Schema = Mapping[str, Any]
FieldPath = tuple[str | int, ...]

#: The property of the shared ``documento`` definition that the checkbox fills.
DOCUMENT_FLAG = "apresentado"

#: A string this long or longer is a multi-line box (a name, an address, an e-mail fit
#: one line; an observation does not).
MULTILINE_MIN_LENGTH = 300
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
#: Internal key: the node's ``description`` is the one of the shared definition it
#: refers to (``$ref``), not written for this field.
SHARED_DESCRIPTION = "x-lavra-descricao-da-definicao"
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
                if "description" in target and "description" not in node:
                    result[SHARED_DESCRIPTION] = True
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
            if key == "description":
                result.pop(SHARED_DESCRIPTION, None)
        return result
    if isinstance(node, list):
        return [_inline(item, resolver, stack, where) for item in node]
    return node


# ----------------------------------------------------------------- schema reading


@dataclass(frozen=True)
class Prop:
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


def as_schema(value: Any, where: str) -> Schema:
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


def is_object(schema: Schema) -> bool:
    return "object" in _types(schema) or "properties" in schema


def is_array(schema: Schema) -> bool:
    return not is_object(schema) and ("array" in _types(schema) or "items" in schema)


def is_document(schema: Schema) -> bool:
    if schema.get("x-documento") is True:
        return True
    return is_object(schema) and DOCUMENT_FLAG in as_schema(schema.get("properties"), "properties")


def _humanize(name: str) -> str:
    text = name.replace("_", " ").strip()
    return text[:1].upper() + text[1:] if text else name


def title_of(schema: Schema, name: str | int) -> str:
    title = schema.get("title")
    return title if isinstance(title, str) and title.strip() else _humanize(str(name))


def basis_of(schema: Schema, where: str) -> tuple[str, ...]:
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


def options_of(schema: Schema) -> list[tuple[Any, str]]:
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
            return [(b["const"], title_of(b, str(b["const"]))) for b in branches]
    if "const" in schema and schema["const"] is not None:
        return [(schema["const"], str(names.get(str(schema["const"]), schema["const"])))]
    return []


def _option_label(schema: Schema, value: Any) -> str:
    for option, label in options_of(schema):
        if option == value:
            return label
    return str(value)


def object_props(schema: Schema, where: str = "esquema") -> list[Prop]:
    """The properties of an object schema, including those of ``allOf`` and ``then``."""
    names: dict[str, Schema] = {}
    required: set[str] = set()
    conditions: dict[str, list[str]] = {}

    def take(piece: Schema) -> None:
        for name, sub in as_schema(piece.get("properties"), where).items():
            names.setdefault(name, as_schema(sub, f"{where}/{name}"))
        required.update(_string_list(piece.get("required")))

    take(schema)
    pieces = [schema]
    for piece in schema.get("allOf", []) if isinstance(schema.get("allOf"), list) else []:
        piece = as_schema(piece, f"{where}/allOf")
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
        condition = as_schema(piece["if"], f"{where}/if")
        for branch, negate in (("then", False), ("else", True)):
            if branch not in piece:
                continue
            sub = as_schema(piece[branch], f"{where}/{branch}")
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
        for name, prop in as_schema(sub.get("properties"), where).items():
            prop = as_schema(prop, f"{where}/{name}")
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
            label = title_of(names.get(trigger, {}), trigger)
            for name in _string_list(targets):
                if name not in required:
                    conditions.setdefault(name, []).append(
                        f"exigido se o campo “{label}” for preenchido"
                    )
    return [
        Prop(name, sub, name in required, tuple(conditions.get(name, ())))
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
        label = (*prefix, title_of(target, name))
        if not isinstance(constraint, Mapping):
            return None
        part = _constraint_words(constraint, target, label)
        if part is None:
            return None
        parts.append(part)
    for name in _string_list(condition.get("required")):
        if name not in constraints:
            text = " — ".join((*prefix, title_of(props.get(name, {}), name)))
            parts.append(f"o campo “{text}” for preenchido")
    if not parts or set(condition) - {"properties", "required", "type", "title", "$comment"}:
        return None
    return " e ".join(parts)


def _constraint_words(constraint: Schema, target: Schema, label: tuple[str, ...]) -> str | None:
    field = f"o campo “{' — '.join(label)}”"
    if "const" in constraint:
        value = constraint["const"]
        if isinstance(value, bool):
            # A Sim/Não question is a pair of buttons: the answer is named as printed.
            return f"{field} for “Sim”" if value else f"{field} for “Não”"
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
        inner = _clause(constraint, child_props(target), label)
        return inner
    return None


def child_props(schema: Schema) -> dict[str, Schema]:
    if not is_object(schema):
        return {}
    return {p.name: p.schema for p in object_props(schema)}


def items_of(schema: Schema, where: str) -> Schema:
    """The schema of an array's items, with conditions carried down to them."""
    if isinstance(schema.get("items"), list):
        return {}
    items = as_schema(schema.get("items"), f"{where}/items")
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


def leaf_kind(schema: Schema) -> str:
    types = _types(schema)
    options = options_of(schema)
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
    if schema.get("x-multilinha") is True or (
        isinstance(max_length, int) and max_length >= MULTILINE_MIN_LENGTH
    ):
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
    _walk_documents(as_schema(schema, "esquema"), data or {}, (), entries)
    return tuple(entries)


def row_count(schema: Schema, value: Any) -> int:
    present = len(value) if isinstance(value, list) else 0
    min_items = schema.get("minItems")
    min_items = min_items if isinstance(min_items, int) else 0
    rows = max(present, min_items, 1) + 1
    max_items = schema.get("maxItems")
    if isinstance(max_items, int) and not isinstance(max_items, bool):
        rows = min(rows, max(max_items, present))
    return rows


def value_at(value: Any, key: str | int) -> Any:
    if isinstance(key, int):
        return value[key] if isinstance(value, list) and key < len(value) else None
    return value.get(key) if isinstance(value, Mapping) else None


def _walk_documents(schema: Schema, data: Any, path: FieldPath, out: list[DocumentEntry]) -> None:
    for prop in object_props(schema, pointers.join(path) or "esquema"):
        sub_path = (*path, prop.name)
        value = value_at(data, prop.name)
        if is_document(prop.schema):
            out.append(_document(prop.schema, sub_path, prop, title_of(prop.schema, prop.name)))
        elif is_object(prop.schema):
            _walk_documents(prop.schema, value, sub_path, out)
        elif is_array(prop.schema):
            items = items_of(prop.schema, pointers.join(sub_path))
            title = title_of(items if "title" in items else prop.schema, prop.name)
            for index in range(row_count(prop.schema, value)):
                row_path = (*sub_path, index)
                if is_document(items):
                    out.append(_document(items, row_path, prop, f"{title} — {index + 1}"))
                elif is_object(items):
                    before = len(out)
                    _walk_documents(items, value_at(value, index), row_path, out)
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


def _document(schema: Schema, path: FieldPath, prop: Prop, title: str) -> DocumentEntry:
    pointer = pointers.join(path)
    basis = basis_of(schema, pointer) or basis_of(prop.schema, pointer)
    return DocumentEntry(pointer, title, basis, prop.required, prop.conditions, schema)




def with_required_objects(schema: Schema, data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with every object the schema always requires present (``{}`` when absent).

    An object required unconditionally by the root, or by an object that is itself
    present, exists even when nothing in it has been answered yet: so the
    requirements inside it (the documents of a checklist) are reported as missing
    from the first screen, instead of "não se aplica" until one of them is filled.
    Objects required only in some cases, and rows of arrays, are left as they are.
    """
    result = dict(data)
    for prop in object_props(schema):
        if not is_object(prop.schema) or is_document(prop.schema):
            continue
        value = result.get(prop.name)
        if value is None and prop.required:
            value = {}
        if isinstance(value, Mapping):
            result[prop.name] = with_required_objects(prop.schema, value)
    return result
