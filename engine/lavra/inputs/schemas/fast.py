"""A quick "these data are valid" before jsonschema explains what is not.

jsonschema walks a form's schema in Python: about 0.9 ms for a valid alvará, twice in a
batch run's plan (the requerimento and the act) and once more in its worker, about
2.5 ms of a document's CPU. Most data checked are valid, and a valid datum has no issue
to explain. ``jsonschema_rs`` (compiled) answers "valid?" in about 0.05 ms over the same
resources, with the engine's own format checks (:data:`lavra.inputs.formats.EXPLAINERS`,
which replace the standard ``date``, ``date-time`` and ``email`` there as they do in
jsonschema). Only its "valid" is taken: anything else (invalid, an error of its own,
data it cannot read, the library absent, a schema it cannot compile) is answered by
jsonschema as before, which also words every issue (:func:`lavra.inputs.schemas.
validation.validate`). The two agree on the pack's examples and their faults
(tests/test_schemas_fast.py).
"""

from __future__ import annotations

import importlib
from typing import Any

from referencing.jsonschema import SchemaRegistry

from lavra.inputs.formats import EXPLAINERS, Explainer
from lavra.inputs.schemas.registry import cached, schema_uri


def _library() -> Any:
    try:
        return importlib.import_module("jsonschema_rs")
    except ImportError:  # optional: without it every datum is checked by jsonschema alone
        return None


jsonschema_rs: Any = _library()

__all__ = ["known_valid"]


def _conforms(explainer: Explainer) -> Any:
    return lambda value: explainer(value) is None


def _compiled(registry: SchemaRegistry, uri: str) -> Any:
    """The compiled validator of ``uri`` over every resource of the pack (None when the
    library is absent or does not take the schema)."""
    if jsonschema_rs is None:
        return None
    try:
        resources = [(u, registry[u].contents) for u in registry]
        return jsonschema_rs.validator_for(
            registry[uri].contents, registry=jsonschema_rs.Registry(resources),
            formats={name: _conforms(e) for name, e in EXPLAINERS.items()},
            validate_formats=True,
        )
    except Exception:  # a schema it cannot compile: jsonschema alone, as before
        return None


def known_valid(registry: SchemaRegistry, schema_id: str, data: Any) -> bool:
    """True when ``data`` are surely valid against ``schema_id``; False: ask jsonschema."""
    uri = schema_uri(schema_id)
    compiled = cached(registry, ("compiled", uri), lambda: _compiled(registry, uri))
    if compiled is None:
        return False
    try:
        return compiled.is_valid(data) is True
    except Exception:  # data it cannot read (a Python value that is no JSON), deep nesting
        return False
