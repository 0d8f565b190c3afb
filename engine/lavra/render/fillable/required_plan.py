"""A requerimento's check with the objects its schema always requires, from a plan read
once per schema.

:func:`lavra.render.fillable.schema.with_required_objects` reads the properties of each
object schema it passes (``allOf``, ``if``/``then`` branches, conditions in words) on
every call: a check of a requerimento, for each holder of a run's plan. The schema of a
form is fixed (:class:`lavra.documents.Engine` inlines it once), so :class:`RequiredObjects`
keeps, per object schema reached, what the function reads of it (each property that is
an object and not a document, by name, and whether it is required) and applies the same
steps in the same order: the same data. Each object schema is read the first time the
data reaches it (as the function reads it: a malformed schema fails where it did).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.render.fillable.schema import Schema, is_document, is_object, object_props

__all__ = ["RequiredObjects", "with_required_objects"]


class RequiredObjects:
    """What :func:`~lavra.render.fillable.schema.with_required_objects` reads of
    ``schema``: its object properties (not documents), read on first use."""

    __slots__ = ("_children", "_schema")

    def __init__(self, schema: Schema) -> None:
        self._schema = schema
        self._children: tuple[tuple[str, bool, RequiredObjects], ...] | None = None

    def _steps(self) -> tuple[tuple[str, bool, RequiredObjects], ...]:
        if self._children is None:
            self._children = tuple(
                (prop.name, prop.required, RequiredObjects(prop.schema))
                for prop in object_props(self._schema)
                if is_object(prop.schema) and not is_document(prop.schema)
            )
        return self._children

    def apply(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """``with_required_objects(schema, data)``."""
        result = dict(data)
        for name, required, inner in self._steps():
            value = result.get(name)
            if value is None and required:
                value = {}
            if isinstance(value, Mapping):
                result[name] = inner.apply(value)
        return result


_PLANS: dict[int, tuple[Schema, RequiredObjects]] = {}


def with_required_objects(schema: Schema, data: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`lavra.render.fillable.schema.with_required_objects` of a schema that does
    not change once built (a form's inlined schema: kept, with its plan, for the process)."""
    kept = _PLANS.get(id(schema))
    if kept is None or kept[0] is not schema:
        kept = _PLANS[id(schema)] = (schema, RequiredObjects(schema))
    return kept[1].apply(data)
