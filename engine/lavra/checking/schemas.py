"""The content pack's JSON Schemas: registry, validation with pt-BR messages, annotations.

Every file under ``schemas/`` is a JSON Schema 2020-12 resource whose ``$id`` is
``https://lavra.invalid/schemas/<file name>`` (the reserved ``.invalid`` TLD never
resolves); forms refer to shared definitions relatively
(``{"$ref": "comum.json#/$defs/cpf"}``). The registry never fetches anything.

Public surface::

    build_registry(schemas_dir)            -> referencing.Registry
    validator(registry, schema_id)         -> jsonschema.Draft202012Validator (cached)
    validate(registry, schema_id, data)    -> tuple[SchemaIssue, ...]
    annotations(registry, schema_id)       -> tuple[FieldInfo, ...]  (cached)

``schema_id`` is the full ``$id`` or the file name (``"comum.json"``; the ``.json``
may be left out).

Annotations of our own (any other keyword must be standard 2020-12 or start ``x-``):

- ``x-fundamento``: list of citations (``"lei#fragmento"``) of the legal basis.
- ``x-mensagem``: replaces the default message of an error in that subschema. A
  string (any keyword) or an object keyword → string (``{"pattern": "..."}``). For a
  missing property, the property's own ``x-mensagem`` object may carry a
  ``"required"`` entry. Placeholders: ``{campo}`` (the field's label), ``{grupo}``
  (the label of the object holding it), ``{valor}`` (the value given). A message with
  neither ``{campo}`` nor ``{grupo}`` is prefixed with ``"<campo>: "``.
- ``x-documento``: ``true`` marks a document the law asks for (the shared
  ``documento`` definition carries it).
- ``x-condicao`` / ``x-condicao-senao`` on the object holding ``if``: the words of the
  condition for the ``then`` / ``else`` branch (``required_when``).
- ``x-rotulos``: labels of ``enum``/``const`` values, used in the messages.

Files are read recursively (``schemas/a/b.json`` has ``$id`` ``.../schemas/a/b.json``).
A ``format`` the engine does not assert (see :mod:`lavra.inputs.formats`) is refused when the
registry is built, since jsonschema would silently ignore it.

Labels. A field is named by its ``title`` (the property's own, else that of the
definition it refers to), qualified by the titles of the objects holding it and the
item number in arrays: ``"Veículos (item 2) › Placa"``. Untitled fields are named by
their property name in «».
"""

# No ``from __future__ import annotations`` here, against the house rule: this module
# defines the public function ``annotations`` (its agreed name), which that import's
# binding would shadow for mypy. Forward references are quoted instead.

import ast
import json
import re
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, TypeVar

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import (  # type: ignore[import-untyped]
    SchemaError,
    ValidationError,
    best_match,
)
from referencing import Resource
from referencing.exceptions import NoSuchResource, Unresolvable, Unretrievable
from referencing.jsonschema import DRAFT202012, Schema, SchemaRegistry

from lavra.errors import ContentPackError, InputError, LavraError
from lavra.inputs.formats import FORMAT_NAMES, format_checker

if TYPE_CHECKING:
    from referencing._core import Resolved, Resolver

__all__ = [
    "BASE_URI",
    "FieldInfo",
    "SchemaIssue",
    "annotations",
    "build_registry",
    "extra_issue",
    "field_annotations",
    "field_label",
    "schema_uri",
    "validate",
    "validator",
]

BASE_URI: Final = "https://lavra.invalid/schemas/"
"""Base of every schema ``$id`` of the content pack."""

ROOT_LABEL: Final = "Formulário"
"""How the whole form is named when an error concerns it as a whole."""

_MAX_DEPTH: Final = 64


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


@dataclass(frozen=True)
class FieldInfo:
    """What the schema says about one property, found by a static walk.

    ``pattern``: JSON pointer, ``*`` standing for any array item
    (``/veiculos/*/placa``). ``title`` / ``description``: the property's own, else
    those of the definition it refers to. ``basis``: the ``x-fundamento`` citations,
    in order, without repetition: the property's own, those of the definitions it
    refers to, and those of a conditional branch that requires it (the ``then`` /
    ``else`` and the ``if`` of it, an ``allOf`` member, a ``dependentSchemas``
    entry), also when the requirement is nested below the branch
    (``then.properties.documentos.required``); a property first declared in such a
    branch also takes the branch's basis. ``document``: the property (after
    ``$ref``) carries ``"x-documento": true``. ``required``: listed in an
    unconditional ``required`` of its parent object (so required whenever the parent
    is present). ``required_when``: when required only under a condition, its words
    (``x-condicao``, else worded from the ``if``); several conditions are joined by
    "ou". ``schema``: the property's schema with its ``$ref`` chain merged in (the
    property's own keywords win; ``properties`` and ``required`` are united).
    """

    pattern: str
    title: str | None
    description: str | None
    basis: tuple[str, ...]
    document: bool
    required_when: str | None
    schema: Mapping[str, Any] = field(compare=False, repr=False)
    required: bool = False


# --- registry ------------------------------------------------------------------------


def schema_uri(schema_id: str) -> str:
    """The ``$id`` for ``schema_id``: a full URI, or a file name under :data:`BASE_URI`."""
    if "://" in schema_id:
        return schema_id
    name = schema_id.lstrip("/")
    if not name.endswith(".json"):
        name += ".json"
    return BASE_URI + name


def _refuse_retrieval(uri: str) -> Resource[Schema]:
    """The registry's ``retrieve`` hook: nothing outside the content pack is fetched."""
    raise ContentPackError(
        f"Referência a esquema inexistente no pacote de conteúdo: {uri}. "
        "O sistema não busca esquemas em outros endereços."
    )


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"chave repetida «{key}»")
        result[key] = value
    return result


def _read_schema(path: Path, display: str) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ContentPackError(f"Não foi possível ler o esquema {display}: {error}.") from None
    try:
        contents = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as error:
        raise ContentPackError(
            f"Esquema {display} não é JSON válido (linha {error.lineno}, "
            f"coluna {error.colno})."
        ) from None
    except ValueError as error:
        raise ContentPackError(f"Esquema {display} inválido: {error}.") from None
    if not isinstance(contents, dict):
        raise ContentPackError(f"Esquema {display} deve ser um objeto JSON.")
    return contents


def build_registry(schemas_dir: Path) -> SchemaRegistry:
    """Every ``*.json`` under ``schemas_dir`` as a Draft 2020-12 resource.

    Each file is checked against the 2020-12 metaschema and linted: its ``$id`` must
    be :data:`BASE_URI` + its path under ``schemas_dir``; every keyword must be
    standard or start with ``x-``; every ``format`` must be one the engine asserts;
    every ``$ref`` must resolve inside the pack. A broken file raises
    :class:`ContentPackError` naming it. The registry's ``retrieve`` hook refuses any
    unknown URI, so nothing is ever fetched.
    """
    if not schemas_dir.is_dir():
        raise ContentPackError(f"Pasta de esquemas não encontrada: {schemas_dir}.")
    loaded: list[tuple[str, str, dict[str, Any]]] = []
    for path in sorted(schemas_dir.rglob("*.json")):
        relative = path.relative_to(schemas_dir).as_posix()
        display = f"schemas/{relative}"
        contents = _read_schema(path, display)
        expected = BASE_URI + relative
        declared = contents.get("$id")
        if declared != expected:
            raise ContentPackError(
                f"Esquema {display}: o $id deve ser «{expected}»"
                + (f", e não «{declared}»." if declared is not None else ", e está ausente.")
            )
        try:
            Draft202012Validator.check_schema(contents)
        except SchemaError as error:
            where = _pointer(error.absolute_path) or "/"
            raise ContentPackError(
                f"Esquema {display} não segue o metaesquema JSON Schema 2020-12: "
                f"palavra-chave «{error.validator}» em {where}."
            ) from None
        loaded.append((expected, display, contents))

    # ``retrieve`` is an attrs alias that mypy does not see.
    registry: SchemaRegistry = SchemaRegistry(retrieve=_refuse_retrieval)  # type: ignore[call-arg]
    registry = registry.with_resources(
        (uri, DRAFT202012.create_resource(contents)) for uri, _, contents in loaded
    ).crawl()
    for uri, display, contents in loaded:
        _lint(contents, registry.resolver(base_uri=uri), display, "")
    return registry


_SUBSCHEMA: Final = frozenset(
    {
        "items", "contains", "additionalProperties", "unevaluatedProperties",
        "unevaluatedItems", "propertyNames", "not", "if", "then", "else", "contentSchema",
    }
)
_SUBSCHEMA_MAP: Final = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})
_SUBSCHEMA_LIST: Final = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_PLAIN: Final = frozenset(
    {
        "$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary",
        "$comment", "type", "enum", "const", "format", "pattern", "multipleOf", "maximum",
        "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength",
        "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
        "maxProperties", "minProperties", "required", "dependentRequired", "title",
        "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
        "contentEncoding", "contentMediaType",
    }
)


def _lint(node: Any, resolver: "Resolver[Schema]", display: str, where: str) -> None:
    """Keywords, formats, annotations and ``$ref`` targets of one schema, recursively."""
    if not isinstance(node, Mapping):
        return
    at = f"{display}#{where or '/'}"
    if isinstance(node.get("$id"), str) and where:
        resolver = resolver.in_subresource(DRAFT202012.create_resource(node))
    for key, value in node.items():
        if key in _SUBSCHEMA:
            _lint(value, resolver, display, f"{where}/{_escape(key)}")
        elif key in _SUBSCHEMA_MAP:
            for name, sub in value.items():
                _lint(sub, resolver, display, f"{where}/{key}/{_escape(name)}")
        elif key in _SUBSCHEMA_LIST:
            for index, sub in enumerate(value):
                _lint(sub, resolver, display, f"{where}/{key}/{index}")
        elif key.startswith("x-"):
            _lint_annotation(key, value, at)
        elif key not in _PLAIN:
            raise ContentPackError(
                f"Palavra-chave desconhecida «{key}» no esquema {at}: use uma palavra-chave "
                "do JSON Schema 2020-12 ou o prefixo x- para anotações próprias."
            )
    if "format" in node and node["format"] not in FORMAT_NAMES:
        raise ContentPackError(
            f"Formato desconhecido «{node['format']}» no esquema {at}; formatos aceitos: "
            f"{', '.join(sorted(FORMAT_NAMES))}."
        )
    for name in node.get("patternProperties", {}):
        try:
            re.compile(name)
        except re.error:
            raise ContentPackError(
                f"Expressão regular inválida em patternProperties no esquema {at}: «{name}»."
            ) from None
    ref = node.get("$ref")
    if isinstance(ref, str):
        _lookup(resolver, ref, at)


def _lint_annotation(key: str, value: Any, at: str) -> None:
    if key == "x-fundamento" and not (
        isinstance(value, list) and all(isinstance(v, str) and v for v in value)
    ):
        raise ContentPackError(f"x-fundamento no esquema {at} deve ser uma lista de citações.")
    if key == "x-mensagem" and not (
        isinstance(value, str)
        or (isinstance(value, Mapping) and all(isinstance(v, str) for v in value.values()))
    ):
        raise ContentPackError(
            f"x-mensagem no esquema {at} deve ser um texto ou um objeto palavra-chave → texto."
        )
    if key == "x-documento" and not isinstance(value, bool):
        raise ContentPackError(f"x-documento no esquema {at} deve ser true ou false.")


def _lookup(resolver: "Resolver[Schema]", ref: str, at: str) -> "Resolved[Schema]":
    try:
        return resolver.lookup(ref)
    except (Unresolvable, NoSuchResource, Unretrievable):
        raise ContentPackError(
            f"Referência «{ref}» no esquema {at} não corresponde a nenhum esquema do "
            "pacote de conteúdo (o sistema não busca esquemas em outros endereços)."
        ) from None


# --- caches --------------------------------------------------------------------------

_T = TypeVar("_T")
_cache_lock = threading.Lock()
# Registries are immutable but unhashable: the cache is keyed by id() and each entry
# holds a weak reference whose callback drops the entry when the registry dies.
_cache: dict[int, tuple[weakref.ref[SchemaRegistry], dict[tuple[str, str], Any]]] = {}


def _cached(registry: SchemaRegistry, key: tuple[str, str], build: Callable[[], _T]) -> _T:
    ident = id(registry)
    with _cache_lock:
        entry = _cache.get(ident)
        if entry is not None and entry[0]() is registry and key in entry[1]:
            value: _T = entry[1][key]
            return value
    value = build()
    with _cache_lock:
        entry = _cache.get(ident)
        if entry is None or entry[0]() is not registry:

            def drop(
                _: object,
                ident: int = ident,
                lock: threading.Lock = _cache_lock,
                cache: dict[int, Any] = _cache,
            ) -> None:
                # Bound as defaults: the callback may run while the module is torn down.
                with lock:
                    cache.pop(ident, None)

            entry = (weakref.ref(registry, drop), {})
            _cache[ident] = entry
        entry[1].setdefault(key, value)
        stored: _T = entry[1][key]
        return stored


def _root(registry: SchemaRegistry, uri: str) -> Schema:
    try:
        return registry.get_or_retrieve(uri).value.contents
    except (NoSuchResource, Unretrievable, Unresolvable):
        raise ContentPackError(f"Esquema não encontrado no pacote de conteúdo: {uri}.") from None


# --- validation ----------------------------------------------------------------------


def validator(registry: SchemaRegistry, schema_id: str) -> Draft202012Validator:
    """A Draft 2020-12 validator of ``schema_id`` that asserts ``format``.

    The format checker is :func:`lavra.inputs.formats.format_checker` (CPF, CNPJ, RENAVAM,
    CNH, placa, CEP, date, date-time, email). Cached per (registry, schema id).
    """
    uri = schema_uri(schema_id)

    def build() -> Draft202012Validator:
        return Draft202012Validator(
            _root(registry, uri), registry=registry, format_checker=format_checker()
        )

    return _cached(registry, ("validator", uri), build)


def validate(registry: SchemaRegistry, schema_id: str, data: Any) -> tuple[SchemaIssue, ...]:
    """Every issue of ``data`` against ``schema_id``, sorted by pointer.

    Messages are pt-BR, name the field by its title and never repeat jsonschema's
    English text. An empty tuple means the data is valid.
    """
    uri = schema_uri(schema_id)
    checker = validator(registry, uri)
    fields = {info.pattern: info for info in annotations(registry, uri)}
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
    fields = {info.pattern: info for info in annotations(registry, uri)}
    return _Explainer(fields).label(list(path))


def extra_issue(pointer: str, keyword: str, message: str) -> SchemaIssue:
    """An issue found outside the schema (the characters the fonts draw, say), reported
    like a schema's: owned by the requirement containing ``pointer``."""
    return SchemaIssue(pointer, keyword, message, "")


def _escape(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def _pointer(path: Iterable[str | int]) -> str:
    return "".join("/" + _escape(token) for token in path)


def _pointer_key(pointer: str) -> tuple[tuple[int, int, str], ...]:
    tokens = pointer.split("/")[1:] if pointer else []
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in tokens)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _show(value: Any) -> str:
    """A value as shown inside a message: short, quoted, without control characters."""
    if isinstance(value, bool):
        return "«sim»" if value else "«não»"
    if value is None:
        return "vazio"
    if isinstance(value, int | float):
        return _number(value)
    if isinstance(value, list):
        return "uma lista"
    if isinstance(value, Mapping):
        return "um grupo de campos"
    text = _CONTROL.sub("?", str(value))
    if len(text) > 60:
        text = text[:57] + "…"
    return f"«{text}»"


def _number(value: float) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace(".", ",")


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
                parts.append(f"«{_CONTROL.sub('?', token)}»")
        return " › ".join(parts) or ROOT_LABEL

    def info(self, path: Sequence[str | int]) -> FieldInfo | None:
        """The field at ``path``: an array index matches ``*`` or, for ``prefixItems``,
        the index itself (preferred)."""
        candidates = [""]
        for token in path:
            if isinstance(token, int):
                candidates = [c + suffix for c in candidates for suffix in (f"/{token}", "/*")]
            else:
                candidates = [c + "/" + _escape(token) for c in candidates]
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
        schema_path = _pointer(error.absolute_schema_path)
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
        yield SchemaIssue(_pointer(path), keyword, message, schema_path)

    def _render(
        self, template: str, path: Sequence[str | int], value: Any, leaf_title: Any = None
    ) -> str:
        label = self.label(path, leaf_title)
        if "{campo}" not in template and "{grupo}" not in template:
            template = "{campo}: " + template
        text = (
            template.replace("{campo}", label)
            .replace("{grupo}", self.label(path[:-1]))
            .replace("{valor}", _show(value))
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
            yield SchemaIssue(_pointer(target), keyword, message, schema_path, missing=name)

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
            yield SchemaIssue(_pointer(path), keyword, _sentence(message), schema_path)
            return
        for name in names:
            target = [*path, name]
            override = _override(schema, keyword)
            if override is not None:
                message = self._render(override, target, instance.get(name))
            else:
                message = f"Campo não previsto no formulário: {_show(name)}{where}."
            yield SchemaIssue(_pointer(target), keyword, message, schema_path)

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
                    text = f"{label}: Formato inválido: {_show(value)}."
            case "pattern":
                text = f"{label}: Formato inválido: {_show(value)}."
            case "enum":
                text = f"{label}: Valor não permitido: {_show(value)}."
                options = _options(limit, schema)
                if options:
                    text += f" Valores aceitos: {options}."
            case "const":
                if isinstance(limit, bool):
                    text = f"{label}: Deve ser marcado como {'«sim»' if limit else '«não»'}."
                else:
                    text = f"{label}: Deve ser {_show(_labelled(limit, schema))}."
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
                text = f"{label}: Deve ser maior ou igual a {_number(limit)}."
            case "maximum":
                text = f"{label}: Deve ser menor ou igual a {_number(limit)}."
            case "exclusiveMinimum":
                text = f"{label}: Deve ser maior que {_number(limit)}."
            case "exclusiveMaximum":
                text = f"{label}: Deve ser menor que {_number(limit)}."
            case "multipleOf":
                text = f"{label}: Deve ser múltiplo de {_number(limit)}."
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
                text = f"{label}: Valor não permitido: {_show(value)}."
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
    return ", ".join(str(v) if isinstance(v, str) else _show(v) for v in shown)


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


def annotations(registry: SchemaRegistry, schema_id: str) -> tuple[FieldInfo, ...]:
    """Every property of ``schema_id``, found by walking the schema statically.

    The walk follows ``$ref``, ``allOf``, ``if``/``then``/``else``,
    ``dependentSchemas``, ``dependentRequired``, ``properties``, ``items`` (``*`` in
    the pattern) and ``prefixItems`` (the index in the pattern); ``anyOf``/``oneOf``
    alternatives and ``$defs`` are not walked. Order: schema order, depth first (a
    property, then its own properties, then its next sibling). Cached per
    (registry, schema id). See :class:`FieldInfo` for what each entry holds.
    """
    uri = schema_uri(schema_id)

    def build() -> tuple[FieldInfo, ...]:
        root = _root(registry, uri)
        walker = _Walker()
        try:
            walker.walk(root, registry.resolver(base_uri=uri), "", _Group(), 0, frozenset())
        except RecursionError:
            raise ContentPackError(f"Esquema {uri} aninhado em excesso.") from None
        return tuple(builder.freeze() for builder in walker.fields.values())

    return _cached(registry, ("annotations", uri), build)


field_annotations = annotations
"""Alias of :func:`annotations` for modules that use ``from __future__ import
annotations`` (whose binding of that name would shadow an import of it)."""


@dataclass(frozen=True)
class _Group:
    """What a branch passes to the properties it declares or requires."""

    basis: tuple[str, ...] = ()
    condition: str | None = None

    def under(self, basis: Iterable[str], condition: str | None = None) -> "_Group":
        joined = self.condition
        if condition is not None:
            joined = condition if joined is None else f"{joined} e {condition}"
        return _Group((*self.basis, *basis), joined)


@dataclass
class _Builder:
    pattern: str
    title: str | None = None
    description: str | None = None
    basis: list[str] = field(default_factory=list)
    document: bool = False
    required: bool = False
    conditions: list[str] = field(default_factory=list)
    schema: dict[str, Any] = field(default_factory=dict)

    def add_basis(self, citations: Iterable[str]) -> None:
        for citation in citations:
            if citation not in self.basis:
                self.basis.append(citation)

    def freeze(self) -> FieldInfo:
        when = None
        if not self.required and self.conditions:
            when = " ou ".join(dict.fromkeys(self.conditions))
        return FieldInfo(
            pattern=self.pattern,
            title=self.title,
            description=self.description,
            basis=tuple(self.basis),
            document=self.document,
            required_when=when,
            schema=MappingProxyType(self.schema),
            required=self.required,
        )


def _basis_of(node: Any) -> list[str]:
    raw = node.get("x-fundamento") if isinstance(node, Mapping) else None
    return [c for c in raw if isinstance(c, str)] if isinstance(raw, list) else []


class _Walker:
    def __init__(self) -> None:
        self.fields: dict[str, _Builder] = {}

    def walk(
        self,
        node: Any,
        resolver: "Resolver[Schema]",
        pointer: str,
        group: _Group,
        depth: int,
        active: frozenset[int],
        *,
        branch: bool = False,
    ) -> None:
        """Walk a schema that applies at the instance location ``pointer``.

        ``branch``: the node is a conditional or grouping branch (or reached through
        the ``$ref`` of one), whose own ``x-fundamento`` was already put in ``group``
        and so is also taken from the definitions its ``$ref`` leads to.
        """
        if not isinstance(node, Mapping) or depth > _MAX_DEPTH or id(node) in active:
            return
        active = active | {id(node)}
        if isinstance(node.get("$id"), str) and depth:
            resolver = resolver.in_subresource(DRAFT202012.create_resource(node))
        at = f"{pointer or '/'} (anotações)"
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = _lookup(resolver, ref, at)
            inner = group.under(_basis_of(target.contents)) if branch else group
            self.walk(target.contents, target.resolver, pointer, inner, depth + 1, active,
                      branch=branch)
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            for name, sub in properties.items():
                self.declare(f"{pointer}/{_escape(name)}", sub, resolver, group, depth, active)
        all_of = node.get("allOf")
        if isinstance(all_of, list):
            for member in all_of:
                self.walk(member, resolver, pointer, group.under(_basis_of(member)),
                          depth + 1, active, branch=True)
        if isinstance(node.get("if"), Mapping):
            self.conditional(node, resolver, pointer, group, depth, active)
        dependent = node.get("dependentSchemas")
        if isinstance(dependent, Mapping):
            for trigger, sub in dependent.items():
                words = f"«{trigger}» informado"
                self.walk(sub, resolver, pointer, group.under(_basis_of(sub), words),
                          depth + 1, active, branch=True)
        dependent_required = node.get("dependentRequired")
        if isinstance(dependent_required, Mapping):
            for trigger, names in dependent_required.items():
                words = f"{self.title_or_name(pointer, trigger)} informado"
                for name in names:
                    self.require(f"{pointer}/{_escape(name)}", group.under((), words))
        required = node.get("required")
        if isinstance(required, list):
            for name in required:
                self.require(f"{pointer}/{_escape(name)}", group)
        items = node.get("items")
        if isinstance(items, Mapping):
            self.walk(items, resolver, f"{pointer}/*", group, depth + 1, active)
        prefix = node.get("prefixItems")
        if isinstance(prefix, list):
            for index, sub in enumerate(prefix):
                self.walk(sub, resolver, f"{pointer}/{index}", group, depth + 1, active)

    def conditional(
        self,
        node: Mapping[str, Any],
        resolver: "Resolver[Schema]",
        pointer: str,
        group: _Group,
        depth: int,
        active: frozenset[int],
    ) -> None:
        test = node["if"]
        if_basis = _basis_of(test)
        for branch, negate in (("then", False), ("else", True)):
            sub = node.get(branch)
            if not isinstance(sub, Mapping):
                continue
            words = node.get("x-condicao-senao" if negate else "x-condicao")
            if not isinstance(words, str):
                words = sub.get("x-condicao")
            if not isinstance(words, str):
                words = _condition_words(test, pointer, self)
                if negate:
                    words = f"não ({words})"
            inner = group.under([*if_basis, *_basis_of(sub)], words)
            self.walk(sub, resolver, pointer, inner, depth + 1, active, branch=True)

    def builder(self, pointer: str) -> tuple[_Builder, bool]:
        existing = self.fields.get(pointer)
        if existing is not None:
            return existing, False
        created = _Builder(pointer)
        self.fields[pointer] = created
        return created, True

    def declare(
        self,
        pointer: str,
        sub: Any,
        resolver: "Resolver[Schema]",
        group: _Group,
        depth: int,
        active: frozenset[int],
    ) -> None:
        builder, created = self.builder(pointer)
        merged, chain_basis = _merge_chain(sub, resolver, f"{pointer} (anotações)")
        for key, value in merged.items():
            builder.schema.setdefault(key, value)
        if builder.title is None and isinstance(merged.get("title"), str):
            builder.title = merged["title"]
        if builder.description is None and isinstance(merged.get("description"), str):
            builder.description = merged["description"]
        builder.document = builder.document or merged.get("x-documento") is True
        builder.add_basis(chain_basis)
        if created:
            builder.add_basis(group.basis)
        # Requirements nested below this property inherit the branch it sits in.
        self.walk(sub, resolver, pointer, group, depth + 1, active)

    def require(self, pointer: str, group: _Group) -> None:
        builder, _ = self.builder(pointer)
        builder.add_basis(group.basis)
        if group.condition is None:
            builder.required = True
        else:
            builder.conditions.append(group.condition)

    def title_or_name(self, pointer: str, name: str) -> str:
        existing = self.fields.get(f"{pointer}/{_escape(name)}")
        if existing is not None and existing.title:
            return existing.title
        return f"«{name}»"


def _merge_chain(
    node: Any, resolver: "Resolver[Schema]", at: str
) -> tuple[dict[str, Any], list[str]]:
    """A property schema merged with the definitions its ``$ref`` chain leads to."""
    chain: list[Mapping[str, Any]] = []
    seen: set[int] = set()
    while isinstance(node, Mapping) and id(node) not in seen and len(chain) < _MAX_DEPTH:
        seen.add(id(node))
        chain.append(node)
        ref = node.get("$ref")
        if not isinstance(ref, str):
            break
        resolved = _lookup(resolver, ref, at)
        node, resolver = resolved.contents, resolved.resolver
    merged: dict[str, Any] = {}
    for piece in reversed(chain):
        for key, value in piece.items():
            if key == "$ref":
                continue
            if key == "properties" and isinstance(merged.get(key), Mapping):
                merged[key] = {**merged[key], **value}
            elif key == "required" and isinstance(merged.get(key), list):
                merged[key] = list(dict.fromkeys([*merged[key], *value]))
            else:
                merged[key] = value
    basis: list[str] = []
    for piece in chain:
        basis += [c for c in _basis_of(piece) if c not in basis]
    return merged, basis


def _condition_words(test: Mapping[str, Any], pointer: str, walker: _Walker) -> str:
    """The ``if`` schema in words: ``categoria = «turismo» e «servicos» informado``."""
    for key in ("x-condicao", "title", "description"):
        if isinstance(test.get(key), str):
            return str(test[key])
    parts: list[str] = []

    def visit(node: Mapping[str, Any], where: str, prefix: str) -> None:
        props = node.get("properties")
        constrained: set[str] = set()
        if isinstance(props, Mapping):
            for name, sub in props.items():
                if not isinstance(sub, Mapping):
                    continue
                label = prefix + walker.title_or_name(where, name)
                if "const" in sub:
                    parts.append(f"{label} = {_show(sub['const'])}")
                elif isinstance(sub.get("enum"), list):
                    parts.append(f"{label} em {', '.join(_show(v) for v in sub['enum'])}")
                elif isinstance(sub.get("contains"), Mapping) and "const" in sub["contains"]:
                    parts.append(f"{label} inclui {_show(sub['contains']['const'])}")
                elif isinstance(sub.get("properties"), Mapping):
                    visit(sub, f"{where}/{_escape(name)}", f"{label} › ")
                else:
                    continue
                constrained.add(name)
        required = node.get("required")
        if isinstance(required, list):
            for name in required:
                if isinstance(name, str) and name not in constrained:
                    parts.append(f"{prefix}{walker.title_or_name(where, name)} informado")

    visit(test, pointer, "")
    return " e ".join(parts) or "condição prevista no esquema"
