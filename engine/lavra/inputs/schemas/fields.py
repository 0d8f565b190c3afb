"""What a schema says about each field, found by a static walk: labels, basis, documents.

Public surface::

    annotations(registry, schema_id)       -> tuple[FieldInfo, ...]  (cached)

Annotations of our own read here:

- ``x-fundamento``: list of citations (``"lei#fragmento"``) of the legal basis.
- ``x-documento``: ``true`` marks a document the law asks for (the shared
  ``documento`` definition carries it).
- ``x-condicao`` / ``x-condicao-senao`` on the object holding ``if``: the words of the
  condition for the ``then`` / ``else`` branch (``required_when``).

:func:`show_value` is how a value appears inside a pt-BR message, here (the words of
a condition) and in :mod:`lavra.inputs.schemas.validation`.
"""

# No ``from __future__ import annotations`` here, against the house rule: this module
# defines the public function ``annotations`` (its agreed name), which that import's
# binding would shadow for mypy. Forward references are quoted instead.

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from referencing.jsonschema import DRAFT202012, Schema, SchemaRegistry

from lavra.errors import ContentPackError
from lavra.inputs import pointers
from lavra.inputs.schemas.registry import MAX_DEPTH, cached, lookup, root_schema, schema_uri

if TYPE_CHECKING:
    from referencing._core import Resolver

__all__ = ["FieldInfo", "annotations", "field_annotations", "show_number", "show_value"]

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
    "ou". ``depends_on``: with ``required_when``, the pointers of the answers the
    condition reads (the properties its ``if`` names, the ``dependentSchemas`` /
    ``dependentRequired`` trigger): while none of them is given, the case is not yet
    chosen. ``schema``: the property's schema with its ``$ref`` chain merged in (the
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
    depends_on: tuple[str, ...] = ()


# --- registry ------------------------------------------------------------------------

CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def show_value(value: Any) -> str:
    """A value as shown inside a message: short, quoted, without control characters."""
    if isinstance(value, bool):
        return "«sim»" if value else "«não»"
    if value is None:
        return "vazio"
    if isinstance(value, int | float):
        return show_number(value)
    if isinstance(value, list):
        return "uma lista"
    if isinstance(value, Mapping):
        return "um grupo de campos"
    text = CONTROL_CHARS.sub("?", str(value))
    if len(text) > 60:
        text = text[:57] + "…"
    return f"«{text}»"


def show_number(value: float) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace(".", ",")






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
        root = root_schema(registry, uri)
        walker = _Walker()
        try:
            walker.walk(root, registry.resolver(base_uri=uri), "", _Group(), 0, frozenset())
        except RecursionError:
            raise ContentPackError(f"Esquema {uri} aninhado em excesso.") from None
        return tuple(builder.freeze() for builder in walker.fields.values())

    return cached(registry, ("annotations", uri), build)


field_annotations = annotations
"""Alias of :func:`annotations` for modules that use ``from __future__ import
annotations`` (whose binding of that name would shadow an import of it)."""


@dataclass(frozen=True)
class _Group:
    """What a branch passes to the properties it declares or requires."""

    basis: tuple[str, ...] = ()
    condition: str | None = None
    triggers: tuple[str, ...] = ()

    def under(
        self, basis: Iterable[str], condition: str | None = None, triggers: Iterable[str] = ()
    ) -> "_Group":
        joined = self.condition
        if condition is not None:
            joined = condition if joined is None else f"{joined} e {condition}"
        return _Group((*self.basis, *basis), joined, (*self.triggers, *triggers))


@dataclass
class _Builder:
    pattern: str
    title: str | None = None
    description: str | None = None
    basis: list[str] = field(default_factory=list)
    document: bool = False
    required: bool = False
    conditions: list[str] = field(default_factory=list)
    triggers: list[str] = field(default_factory=list)
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
            depends_on=tuple(dict.fromkeys(self.triggers)) if when else (),
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
        if not isinstance(node, Mapping) or depth > MAX_DEPTH or id(node) in active:
            return
        active = active | {id(node)}
        if isinstance(node.get("$id"), str) and depth:
            resolver = resolver.in_subresource(DRAFT202012.create_resource(node))
        at = f"{pointer or '/'} (anotações)"
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = lookup(resolver, ref, at)
            inner = group.under(_basis_of(target.contents)) if branch else group
            self.walk(target.contents, target.resolver, pointer, inner, depth + 1, active,
                      branch=branch)
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            for name, sub in properties.items():
                self.declare(f"{pointer}/{pointers.escape(name)}", sub, resolver, group, depth,
                             active)
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
                trig = (f"{pointer}/{pointers.escape(trigger)}",)
                self.walk(sub, resolver, pointer, group.under(_basis_of(sub), words, trig),
                          depth + 1, active, branch=True)
        dependent_required = node.get("dependentRequired")
        if isinstance(dependent_required, Mapping):
            for trigger, names in dependent_required.items():
                words = f"{self.title_or_name(pointer, trigger)} informado"
                trig = (f"{pointer}/{pointers.escape(trigger)}",)
                for name in names:
                    self.require(
                        f"{pointer}/{pointers.escape(name)}", group.under((), words, trig)
                    )
        required = node.get("required")
        if isinstance(required, list):
            for name in required:
                self.require(f"{pointer}/{pointers.escape(name)}", group)
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
        triggers = tuple(dict.fromkeys(_answers(test, pointer)))
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
            inner = group.under([*if_basis, *_basis_of(sub)], words, triggers)
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
            builder.triggers.extend(group.triggers)

    def title_or_name(self, pointer: str, name: str) -> str:
        existing = self.fields.get(f"{pointer}/{pointers.escape(name)}")
        if existing is not None and existing.title:
            return existing.title
        return f"«{name}»"

    def value_label(self, pointer: str, name: str, value: Any) -> Any:
        """An enum value by its label (the property's ``x-rotulos``), as the form shows
        it; the value itself when it has none."""
        existing = self.fields.get(f"{pointer}/{pointers.escape(name)}")
        schema: Mapping[str, Any] = existing.schema if existing is not None else {}
        items = schema.get("items")
        labels = schema.get("x-rotulos") or (
            items.get("x-rotulos") if isinstance(items, Mapping) else None)
        if isinstance(labels, Mapping) and not isinstance(value, bool):
            label = labels.get(str(value))
            if isinstance(label, str) and label:
                return label
        return value


def _answers(test: Mapping[str, Any], pointer: str) -> Iterator[str]:
    """The pointers of the answers an ``if`` reads: its properties, down to the leaves
    (``if.properties.requerente.properties.sede`` → ``/requerente/sede``)."""
    props = test.get("properties")
    names = [*(props or {}), *(test.get("required") or [])]
    for name in dict.fromkeys(str(n) for n in names):
        at = f"{pointer}/{pointers.escape(name)}"
        sub = props.get(name) if isinstance(props, Mapping) else None
        if isinstance(sub, Mapping) and isinstance(sub.get("properties"), Mapping):
            yield from _answers(sub, at)
        else:
            yield at


def _merge_chain(
    node: Any, resolver: "Resolver[Schema]", at: str
) -> tuple[dict[str, Any], list[str]]:
    """A property schema merged with the definitions its ``$ref`` chain leads to."""
    chain: list[Mapping[str, Any]] = []
    seen: set[int] = set()
    while isinstance(node, Mapping) and id(node) not in seen and len(chain) < MAX_DEPTH:
        seen.add(id(node))
        chain.append(node)
        ref = node.get("$ref")
        if not isinstance(ref, str):
            break
        resolved = lookup(resolver, ref, at)
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
                def shown(value: Any, name: str = name) -> str:
                    return show_value(walker.value_label(where, name, value))

                if "const" in sub:
                    parts.append(f"{label} = {shown(sub['const'])}")
                elif isinstance(sub.get("enum"), list):
                    parts.append(f"{label} em {', '.join(shown(v) for v in sub['enum'])}")
                elif isinstance(sub.get("contains"), Mapping) and "const" in sub["contains"]:
                    parts.append(f"{label} inclui {shown(sub['contains']['const'])}")
                elif isinstance(sub.get("properties"), Mapping):
                    visit(sub, f"{where}/{pointers.escape(name)}", f"{label} › ")
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
