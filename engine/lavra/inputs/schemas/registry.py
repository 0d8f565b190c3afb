"""The content pack's JSON Schemas as a registry: loading, linting, compiled validators.

Every file under ``schemas/`` is a JSON Schema 2020-12 resource whose ``$id`` is
``https://lavra.invalid/schemas/<file name>`` (the reserved ``.invalid`` TLD never
resolves); forms refer to shared definitions relatively
(``{"$ref": "comum.json#/$defs/cpf"}``). The registry never fetches anything.
Files are read recursively (``schemas/a/b.json`` has ``$id`` ``.../schemas/a/b.json``).

Public surface::

    build_registry(schemas_dir)            -> referencing.Registry
    validator(registry, schema_id)         -> jsonschema.Draft202012Validator (cached)

``schema_id`` is the full ``$id`` or the file name (``"comum.json"``; the ``.json``
may be left out). Any keyword must be standard 2020-12 or start ``x-`` (the
annotations of our own are read by :mod:`lavra.inputs.schemas.fields` and
:mod:`lavra.inputs.schemas.validation`). A ``format`` the engine does not assert (see
:mod:`lavra.inputs.formats`) is refused when the registry is built, since jsonschema
would silently ignore it. :func:`cached`, :func:`root_schema` and :func:`lookup` serve
the sibling modules: values derived from a registry are cached per registry.
"""

from __future__ import annotations

import json
import re
import threading
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

from jsonschema import Draft202012Validator, exceptions, validators  # type: ignore[import-untyped]
from jsonschema.exceptions import SchemaError  # type: ignore[import-untyped]
from referencing import Resource
from referencing.exceptions import NoSuchResource, Unresolvable, Unretrievable
from referencing.jsonschema import DRAFT202012, Schema, SchemaRegistry

from lavra.errors import ContentPackError
from lavra.inputs import pointers
from lavra.inputs.formats import FORMAT_NAMES, format_checker

if TYPE_CHECKING:
    from referencing._core import Resolved, Resolver

__all__ = [
    "BASE_URI",
    "MAX_DEPTH",
    "build_registry",
    "cached",
    "lookup",
    "root_schema",
    "schema_uri",
    "validator",
]

BASE_URI: Final = "https://lavra.invalid/schemas/"
"""Base of every schema ``$id`` of the content pack."""

MAX_DEPTH: Final = 64
"""How deep the static walks over a schema go before giving up (recursive schemas)."""


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


#: The schemas (as canonical JSON) that passed the metaschema check in this process:
#: the check costs about 20 ms a file, and a process may load the pack more than once.
_CONFORMING: set[str] = set()


def _check_metaschema(contents: dict[str, Any]) -> None:
    """``Draft202012Validator.check_schema``, once per distinct schema in a process."""
    key = json.dumps(contents, sort_keys=True, ensure_ascii=False)
    if key in _CONFORMING:
        return
    Draft202012Validator.check_schema(contents)
    _CONFORMING.add(key)


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
            _check_metaschema(contents)
        except SchemaError as error:
            where = pointers.join(error.absolute_path) or "/"
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


def _lint(node: Any, resolver: Resolver[Schema], display: str, where: str) -> None:
    """Keywords, formats, annotations and ``$ref`` targets of one schema, recursively."""
    if not isinstance(node, Mapping):
        return
    at = f"{display}#{where or '/'}"
    if isinstance(node.get("$id"), str) and where:
        resolver = resolver.in_subresource(DRAFT202012.create_resource(node))
    for key, value in node.items():
        if key in _SUBSCHEMA:
            _lint(value, resolver, display, f"{where}/{pointers.escape(key)}")
        elif key in _SUBSCHEMA_MAP:
            for name, sub in value.items():
                _lint(sub, resolver, display, f"{where}/{key}/{pointers.escape(name)}")
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
        lookup(resolver, ref, at)


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
    if key == "x-assinantes" and not (
        isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value)
    ):
        raise ContentPackError(f"x-assinantes no esquema {at} deve ser uma lista de textos.")
    if key == "x-documento" and not isinstance(value, bool):
        raise ContentPackError(f"x-documento no esquema {at} deve ser true ou false.")


def lookup(resolver: Resolver[Schema], ref: str, at: str) -> Resolved[Schema]:
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


def cached(registry: SchemaRegistry, key: tuple[str, str], build: Callable[[], _T]) -> _T:
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


def root_schema(registry: SchemaRegistry, uri: str) -> Schema:
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
        checker = validators.extend(Draft202012Validator, {"$ref": _reference_keyword()})
        return checker(
            root_schema(registry, uri), registry=registry, format_checker=format_checker()
        )
    return cached(registry, ("validator", uri), build)


def _reference_keyword() -> Callable[..., Any]:
    """jsonschema's ``$ref`` keyword, each reference looked up once per validator.

    jsonschema resolves a ``$ref`` through ``referencing`` at every use (the URI joined,
    the resource found, the JSON pointer walked): about 40 % of a form's validation,
    the same answer each time. The lookup is a function of the resolver (its base URI,
    its registry and the dynamic scope it carries, all immutable values) and of the
    reference: kept under those, it is the very answer jsonschema would get. A reference
    that does not resolve is not kept and fails as jsonschema's own does."""
    found: dict[tuple[str, Any, str], tuple[Any, Resolved[Any]]] = {}

    def reference(validator: Any, ref: str, instance: Any, schema: Any) -> Any:
        resolver = validator._resolver
        key = (resolver._base_uri, resolver._previous, ref)
        kept = found.get(key)
        if kept is not None and kept[0] is resolver._registry:
            resolved = kept[1]
        else:
            try:
                resolved = resolver.lookup(ref)
            except Unresolvable as error:
                raise exceptions._WrappedReferencingError(error) from error
            found[key] = (resolver._registry, resolved)
        yield from validator.descend(instance, resolved.contents, resolver=resolved.resolver)

    return reference
