"""Validation of data against a schema of the pack, with pt-BR messages naming the field.

Public surface::

    validate(registry, schema_id, data)    -> tuple[SchemaIssue, ...]
    field_label(registry, schema_id, path) -> str
    extra_issue(pointer, keyword, message) -> SchemaIssue

Annotations of our own read here:

- ``x-mensagem``: replaces the default message of an error in that subschema. A
  string (any keyword) or an object keyword → string (``{"pattern": "..."}``). For a
  missing property, the property's own ``x-mensagem`` object may carry a
  ``"required"`` entry. Placeholders: ``{campo}`` (the field's label), ``{grupo}``
  (the label of the object holding it), ``{valor}`` (the value given). A message with
  neither ``{campo}`` nor ``{grupo}`` is prefixed with ``"<campo>: "``.
- ``x-rotulos``: labels of ``enum``/``const`` values, used in the messages.

Labels. A field is named by its ``title`` (the property's own, else that of the
definition it refers to), qualified by the titles of the objects holding it and the
item number in arrays: ``"Veículos (item 2) › Placa"``. Untitled fields are named by
their property name in «».
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from jsonschema.exceptions import ValidationError, best_match  # type: ignore[import-untyped]
from referencing.exceptions import NoSuchResource, Unresolvable, Unretrievable
from referencing.jsonschema import SchemaRegistry

from lavra.errors import ContentPackError, InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.schemas.fast import known_valid
from lavra.inputs.schemas.fields import (
    CONTROL_CHARS,
    FieldInfo,
    field_annotations,
    show_number,
    show_value,
)
from lavra.inputs.schemas.registry import schema_uri, validator

__all__ = ["ROOT_LABEL", "SchemaIssue", "extra_issue", "field_label", "validate"]

ROOT_LABEL: Final = "Formulário"
"""How the whole form is named when an error concerns it as a whole."""


# --- public values -----------------------------------------------------------------


@dataclass(frozen=True)
class SchemaIssue:
    """One reason why the data does not satisfy the schema.

    ``pointer``: JSON pointer of the instance at fault; for a missing property, the
    pointer of the property itself (``missing`` then holds its name); for an
    unexpected property, its own pointer. ``keyword``: the JSON Schema keyword that
    failed (``"false"`` for a ``false`` schema). ``message``: pt-BR, for a clerk.
    ``schema_path``: JSON pointer of the failing keyword in the schema, as jsonschema
    reports it (``$ref`` steps left out: ``/properties/cpf/format`` for a CPF whose
    ``format`` sits in ``comum.json``).
    """

    pointer: str
    keyword: str
    message: str
    schema_path: str
    missing: str | None = None





def validate(registry: SchemaRegistry, schema_id: str, data: Any) -> tuple[SchemaIssue, ...]:
    """Every issue of ``data`` against ``schema_id``, sorted by pointer.

    Messages are pt-BR, name the field by its title and never repeat jsonschema's
    English text. An empty tuple means the data is valid.
    """
    uri = schema_uri(schema_id)
    checker = validator(registry, uri)
    if known_valid(registry, uri, data):  # the usual case, ≈ 20 times faster (fast.py)
        return ()
    fields = {info.pattern: info for info in field_annotations(registry, uri)}
    try:
        errors = list(checker.iter_errors(data))
    except (Unresolvable, NoSuchResource, Unretrievable) as failure:
        cause = failure.__cause__
        while cause is not None and not isinstance(cause, LavraError):
            cause = cause.__cause__
        if isinstance(cause, LavraError):
            raise ContentPackError(cause.message) from None
        raise ContentPackError(
            f"O esquema {uri} contém uma referência que não corresponde a nenhum esquema "
            "do pacote de conteúdo."
        ) from None
    except RecursionError:
        raise InputError("Os dados têm níveis de aninhamento em excesso.") from None
    explainer = _Explainer(fields)
    issues: dict[tuple[str, str, str, str], SchemaIssue] = {}
    for error in errors:
        for issue in explainer.issues(error):
            issues.setdefault(
                (issue.pointer, issue.keyword, issue.schema_path, issue.message), issue
            )
    # A value that fails its format gets the format's own message; a pattern failing on
    # the same value (the date range of comum.json, say) would only say it again.
    formatted = {i.pointer for i in issues.values() if i.keyword == "format"}
    kept = [
        i for i in issues.values() if not (i.keyword == "pattern" and i.pointer in formatted)
    ]
    return tuple(sorted(kept, key=lambda issue: _pointer_key(issue.pointer)))


def field_label(registry: SchemaRegistry, schema_id: str, path: Sequence[str | int]) -> str:
    """How a report names the field at ``path`` (array indexes as ints): its title
    qualified by its parents' («Empresa › Razão social»), as schema issues name it."""
    uri = schema_uri(schema_id)
    fields = {info.pattern: info for info in field_annotations(registry, uri)}
    return _Explainer(fields).label(list(path))


def extra_issue(pointer: str, keyword: str, message: str) -> SchemaIssue:
    """An issue found outside the schema (the characters the fonts draw, say), reported
    like a schema's: owned by the requirement containing ``pointer``."""
    return SchemaIssue(pointer, keyword, message, "")


def _pointer_key(pointer: str) -> tuple[tuple[int, int, str], ...]:
    tokens = pointer.split("/")[1:] if pointer else []
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in tokens)


def _plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?", "…")) else text + "."


_TYPE_NAMES: Final = {
    "string": "um texto",
    "integer": "um número inteiro",
    "number": "um número",
    "boolean": "sim ou não (verdadeiro ou falso)",
    "object": "um grupo de campos",
    "array": "uma lista",
    "null": "vazio",
}


class _Explainer:
    """Turns jsonschema errors into :class:`SchemaIssue` values with pt-BR messages."""

    def __init__(self, fields: Mapping[str, FieldInfo]) -> None:
        self.fields = fields

    # labels ------------------------------------------------------------------------

    def label(self, path: Sequence[str | int], leaf_title: Any = None) -> str:
        """The field's title qualified by its parents' (see the module docstring).

        A known but untitled parent is left out; a parent the static walk does not
        know (deep in a recursive schema) is named by its property name.
        ``leaf_title``: the failing subschema's title, used when the field has none.
        """
        parts: list[str] = []
        last = len(path) - 1
        for position, token in enumerate(path):
            if isinstance(token, int):
                item = f"item {token + 1}"
                parts[-1:] = [f"{parts[-1]} ({item})"] if parts else [item.capitalize()]
                continue
            info = self.info(path[: position + 1])
            if info is not None and info.title:
                parts.append(info.title)
            elif position == last and isinstance(leaf_title, str) and leaf_title:
                parts.append(leaf_title)
            elif info is None or position == last:
                parts.append(f"«{CONTROL_CHARS.sub('?', token)}»")
        return " › ".join(parts) or ROOT_LABEL

    def info(self, path: Sequence[str | int]) -> FieldInfo | None:
        """The field at ``path``: an array index matches ``*`` or, for ``prefixItems``,
        the index itself (preferred)."""
        candidates = [""]
        for token in path:
            if isinstance(token, int):
                candidates = [c + suffix for c in candidates for suffix in (f"/{token}", "/*")]
            else:
                candidates = [c + "/" + pointers.escape(token) for c in candidates]
        for pattern in candidates:
            found = self.fields.get(pattern)
            if found is not None:
                return found
        return None

    # issues ------------------------------------------------------------------------

    def issues(self, error: ValidationError) -> Iterator[SchemaIssue]:
        keyword = "false" if error.validator is None else str(error.validator)
        path: list[str | int] = list(error.absolute_path)
        schema = error.schema if isinstance(error.schema, Mapping) else {}
        schema_path = pointers.join(error.absolute_schema_path)
        instance = error.instance

        if keyword in ("required", "dependentRequired"):
            yield from self._missing(keyword, error, path, schema, schema_path)
            return
        if keyword in ("additionalProperties", "unevaluatedProperties"):
            yield from self._unexpected(keyword, error, path, schema, schema_path)
            return

        override = _override(schema, keyword)
        if override is None and keyword in ("anyOf", "oneOf") and error.context:
            yield from self.issues(best_match(error.context))
            return
        label = self.label(path, schema.get("title"))
        if override is not None:
            message = self._render(override, path, instance, schema.get("title"))
        else:
            message = self._default(keyword, error, label, instance)
        yield SchemaIssue(pointers.join(path), keyword, message, schema_path)

    def _render(
        self, template: str, path: Sequence[str | int], value: Any, leaf_title: Any = None
    ) -> str:
        label = self.label(path, leaf_title)
        if "{campo}" not in template and "{grupo}" not in template:
            template = "{campo}: " + template
        text = (
            template.replace("{campo}", label)
            .replace("{grupo}", self.label(path[:-1]))
            .replace("{valor}", show_value(value))
        )
        return _sentence(text)

    def _missing(
        self,
        keyword: str,
        error: ValidationError,
        path: list[str | int],
        schema: Mapping[str, Any],
        schema_path: str,
    ) -> Iterator[SchemaIssue]:
        instance = error.instance
        if not isinstance(instance, Mapping):
            return
        wanted: list[tuple[str, str | None]] = []
        if keyword == "required":
            wanted = [(name, None) for name in error.validator_value if name not in instance]
        else:
            for trigger, names in error.validator_value.items():
                if trigger in instance:
                    wanted += [(name, trigger) for name in names if name not in instance]
        for name, trigger in wanted:
            target = [*path, name]
            info = self.info(target)
            override = _override(info.schema, "required", strict=True) if info else None
            if override is None:
                override = _override(schema, keyword)
            if override is not None:
                message = self._render(override, target, None)
            else:
                message = f"Campo obrigatório não informado: {self.label(target)}"
                if trigger is not None:
                    message += f" (exigido quando se informa {self.label([*path, trigger])})"
                message += "."
            yield SchemaIssue(pointers.join(target), keyword, message, schema_path, missing=name)

    def _unexpected(
        self,
        keyword: str,
        error: ValidationError,
        path: list[str | int],
        schema: Mapping[str, Any],
        schema_path: str,
    ) -> Iterator[SchemaIssue]:
        instance = error.instance
        names: list[str] | None
        if keyword == "additionalProperties" and isinstance(instance, Mapping):
            declared = schema.get("properties", {})
            patterns = list(schema.get("patternProperties", {}))
            names = sorted(
                name
                for name in instance
                if name not in declared and not any(re.search(p, name) for p in patterns)
            )
        else:
            names = _names_in_message(error.message)
        where = f" (em {self.label(path)})" if path else ""
        if not names:
            message = _override(schema, keyword) or f"Há campos não previstos no formulário{where}."
            yield SchemaIssue(pointers.join(path), keyword, _sentence(message), schema_path)
            return
        for name in names:
            target = [*path, name]
            override = _override(schema, keyword)
            if override is not None:
                message = self._render(override, target, instance.get(name))
            else:
                message = f"Campo não previsto no formulário: {show_value(name)}{where}."
            yield SchemaIssue(pointers.join(target), keyword, message, schema_path)

    def _default(self, keyword: str, error: ValidationError, label: str, value: Any) -> str:
        limit = error.validator_value
        schema = error.schema if isinstance(error.schema, Mapping) else {}
        text: str
        match keyword:
            case "type":
                kinds = limit if isinstance(limit, list) else [limit]
                names = " ou ".join(_TYPE_NAMES.get(str(k), str(k)) for k in kinds)
                text = f"{label}: Deve ser {names}."
            case "format":
                cause = error.cause
                if isinstance(cause, LavraError):
                    text = f"{label}: {cause.message}"
                else:
                    text = f"{label}: Formato inválido: {show_value(value)}."
            case "pattern":
                text = f"{label}: Formato inválido: {show_value(value)}."
            case "enum":
                text = f"{label}: Valor não permitido: {show_value(value)}."
                options = _options(limit, schema)
                if options:
                    text += f" Valores aceitos: {options}."
            case "const":
                if isinstance(limit, bool):
                    text = f"{label}: Deve ser marcado como {'«sim»' if limit else '«não»'}."
                else:
                    text = f"{label}: Deve ser {show_value(_labelled(limit, schema))}."
            case "minLength":
                text = (
                    f"{label}: Não pode ficar em branco."
                    if limit == 1
                    else f"{label}: Deve ter no mínimo {limit} caracteres."
                )
            case "maxLength":
                size = len(value) if isinstance(value, str) else 0
                text = (
                    f"{label}: Deve ter no máximo {limit} "
                    f"{_plural(limit, 'caractere', 'caracteres')} (foram informados {size})."
                )
            case "minItems":
                text = f"Deve haver no mínimo {limit} {_plural(limit, 'item', 'itens')} em {label}."
            case "maxItems":
                text = f"Deve haver no máximo {limit} {_plural(limit, 'item', 'itens')} em {label}."
            case "uniqueItems":
                text = f"{label}: Há itens repetidos na lista{_duplicates(value)}."
            case "minimum":
                text = f"{label}: Deve ser maior ou igual a {show_number(limit)}."
            case "maximum":
                text = f"{label}: Deve ser menor ou igual a {show_number(limit)}."
            case "exclusiveMinimum":
                text = f"{label}: Deve ser maior que {show_number(limit)}."
            case "exclusiveMaximum":
                text = f"{label}: Deve ser menor que {show_number(limit)}."
            case "multipleOf":
                text = f"{label}: Deve ser múltiplo de {show_number(limit)}."
            case "minProperties":
                text = (
                    f"{label}: Deve ter no mínimo {limit} "
                    f"{_plural(limit, 'campo preenchido', 'campos preenchidos')}."
                )
            case "maxProperties":
                text = (
                    f"{label}: Deve ter no máximo {limit} "
                    f"{_plural(limit, 'campo preenchido', 'campos preenchidos')}."
                )
            case "contains":
                text = f"{label}: A lista deve conter ao menos um item que atenda ao exigido."
            case "minContains":
                text = (
                    f"{label}: A lista deve conter ao menos {limit} "
                    f"{_plural(limit, 'item que atenda', 'itens que atendam')} ao exigido."
                )
            case "maxContains":
                text = (
                    f"{label}: A lista deve conter no máximo {limit} "
                    f"{_plural(limit, 'item que atenda', 'itens que atendam')} ao exigido."
                )
            case "items" | "unevaluatedItems":
                text = f"{label}: A lista tem itens além dos previstos."
            case "not":
                text = f"{label}: Valor não permitido: {show_value(value)}."
            case "oneOf":
                text = (
                    f"{label}: Os dados atendem a mais de uma das alternativas previstas, "
                    "e devem atender a exatamente uma."
                    if not error.context
                    else f"{label}: Não atende a nenhuma das alternativas previstas."
                )
            case "anyOf":
                text = f"{label}: Não atende a nenhuma das alternativas previstas."
            case "propertyNames":
                text = f"{label}: Há nomes de campos não permitidos."
            case "false":
                text = f"Campo não permitido: {label}."
            case _:
                text = f"{label}: Valor inválido."
        return text


def _override(schema: Mapping[str, Any], keyword: str, *, strict: bool = False) -> str | None:
    """The ``x-mensagem`` of ``schema`` for ``keyword`` (strict: only the object form)."""
    raw = schema.get("x-mensagem")
    if isinstance(raw, str) and not strict:
        return raw
    if isinstance(raw, Mapping):
        value = raw.get(keyword)
        if isinstance(value, str):
            return value
    return None


def _labelled(value: Any, schema: Mapping[str, Any]) -> Any:
    names = schema.get("x-rotulos")
    if isinstance(names, Mapping) and isinstance(value, str) and isinstance(names.get(value), str):
        return names[value]
    return value


def _options(values: Any, schema: Mapping[str, Any]) -> str:
    if not isinstance(values, list) or not values or len(values) > 30:
        return ""
    shown = [_labelled(v, schema) for v in values]
    return ", ".join(str(v) if isinstance(v, str) else show_value(v) for v in shown)


def _duplicates(value: Any) -> str:
    if not isinstance(value, list):
        return ""
    seen: dict[str, int] = {}
    for index, item in enumerate(value):
        key = json.dumps(item, sort_keys=True, default=str)
        if key in seen:
            return f" (o item {index + 1} repete o item {seen[key] + 1})"
        seen[key] = index
    return ""


_EXTRAS = re.compile(r"\((.*) (?:was|were) (?:unexpected|unevaluated and invalid)\)\Z", re.S)


def _names_in_message(message: str) -> list[str] | None:
    """The property names jsonschema lists in an ``unevaluatedProperties`` error.

    jsonschema reports them only inside its message, as Python reprs
    (``"('a', 'b' were unexpected)"``); they are read back with ``literal_eval``.
    """
    match = _EXTRAS.search(message)
    if match is None:
        return None
    try:
        parsed = ast.literal_eval("(" + match.group(1) + ",)")
    except (ValueError, SyntaxError):
        return None
    names = [name for name in parsed if isinstance(name, str)]
    return sorted(names) if len(names) == len(parsed) else None


# --- annotations ---------------------------------------------------------------------
