"""The compiled "valid?" before jsonschema (lavra.inputs.schemas.fast): whatever it calls
valid, jsonschema calls valid too, on every form's example and on faults made in it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from lavra.checking.content import FormSpec
from lavra.documents import Engine
from lavra.inputs.schemas import fast
from lavra.inputs.schemas.registry import validator
from lavra.inputs.schemas.validation import validate

pytestmark = pytest.mark.skipif(fast.jsonschema_rs is None, reason="jsonschema_rs ausente")

FAULTS: tuple[Any, ...] = (None, 7, "", "@@", "2026-02-30", "111.111.111-11", [])


def _example(spec: FormSpec) -> Any:
    assert spec.example is not None
    return json.loads(spec.example.read_text(encoding="utf-8"))


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key)
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield (*path, index)
            yield from _paths(value, (*path, index))


def _faulted(data: Any, path: tuple[Any, ...]) -> Iterator[Any]:
    """``data`` with the value at ``path`` replaced by each fault, then removed (changed
    in place, put back after each)."""
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    kept = parent[key]
    try:
        for fault in FAULTS:
            parent[key] = fault
            yield data
        if isinstance(parent, dict):
            del parent[key]
            yield data
    finally:
        parent[key] = kept


def test_what_the_compiled_check_calls_valid_jsonschema_calls_valid(engine: Engine) -> None:
    content = engine.content
    registry = content.registry
    examples = [(spec.schema_id, _example(spec)) for spec in content.forms.values()
                if spec.example is not None]
    assert len(examples) > 30
    refused = 0
    for schema_id, example in examples:
        checker = validator(registry, schema_id)
        assert fast.known_valid(registry, schema_id, example) == checker.is_valid(example), \
            schema_id
        for path in list(_paths(example)):
            for data in _faulted(example, path):
                if fast.known_valid(registry, schema_id, data):
                    assert checker.is_valid(data), (schema_id, path, data)
                else:
                    refused += 1
    assert refused > 1000  # the faults are caught by it, not only passed on


def test_invalid_data_keep_their_ptbr_issues(engine: Engine) -> None:
    """A fault the compiled check sees is worded by jsonschema as before: the CPF's check
    digits, by the field's title."""
    registry = engine.content.registry
    spec = engine.content.forms["alvara-fretamento"]
    data = _example(spec)
    assert isinstance(data, dict) and validate(registry, spec.schema_id, data) == ()
    data["empresa"]["cnpj"] = "65.563.842/0001-06"
    assert not fast.known_valid(registry, spec.schema_id, data)
    issues = validate(registry, spec.schema_id, data)
    assert [i.pointer for i in issues] == ["/empresa/cnpj"]
    assert "CNPJ" in issues[0].message and "format" not in issues[0].message


def test_data_it_cannot_read_go_to_jsonschema(engine: Engine) -> None:
    registry = engine.content.registry
    spec = engine.content.forms["alvara-fretamento"]
    data = _example(spec)
    assert isinstance(data, dict)
    data["empresa"]["razao_social"] = object()  # no JSON value
    assert not fast.known_valid(registry, spec.schema_id, data)
    assert validate(registry, spec.schema_id, data)
