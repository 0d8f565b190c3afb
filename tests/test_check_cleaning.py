"""The check's one-walk cleaning gives what check_values gives: the same copy, or the
same error (message and field), on clean data and on every kind it refuses; the
required objects of a requerimento from a plan read once, as the function gives them."""

from __future__ import annotations

import json
from copy import deepcopy
from pathlib import Path
from typing import Any

import pytest

from lavra.checking.cleaning import checked_values, json_copy
from lavra.checking.content import loaded_content
from lavra.errors import InputError
from lavra.inputs.reading import check_values
from lavra.render.fillable.required_plan import with_required_objects as planned_required_objects
from lavra.render.fillable.schema import inline_refs
from lavra.render.fillable.schema import with_required_objects as fillable_required_objects
from lavra.render.glyphs import Coverage, _walk, undrawable

REPO = Path(__file__).resolve().parents[1]


def _deep(levels: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    node = root
    for _ in range(levels):
        node["x"] = {}
        node = node["x"]
    return root


CASES: list[Any] = [
    {"a": "x", "b": [1, 2.5, True, None, {"c": "São", "d": "Sa\u0303o"}]},
    {"a": "linha 1\nlinha 2\tfim"},
    {"a": "e\u0301" * 5001},  # 10,002 decomposed, 5,001 in NFC: within the bound
    {"a": ("x", "Sa\u0303o")},
    [1, {"é": 2}],
    {"a": float("nan")},
    {"b": [1, float("inf")]},
    {"a": "x\u200b"},
    {"a": "é\u200b"},
    {"a": "\x07"},
    {"a": "\ud800"},
    {"a": "y" * 10_001},
    {"a": "e\u0301" * 10_001},
    {"a\u0301": 1, "á": 2},
    {1: "a", "1": "b"},
    _deep(12),
    _deep(40),
]


def _outcome(clean: Any, data: Any) -> tuple[Any, ...]:
    try:
        return ("copy", clean(data))
    except InputError as error:
        return ("error", error.message, error.field)


@pytest.mark.parametrize("data", CASES)
def test_checked_values_is_check_values(data: Any) -> None:
    ours = _outcome(checked_values, data)
    assert ours == _outcome(check_values, data)
    if ours[0] == "copy" and isinstance(data, dict):
        assert ours[1] is not data  # a copy: the caller's data is not the check's


def test_checked_values_normalizes_like_check_values() -> None:
    assert checked_values({"nome": "Sa\u0303o"}) == {"nome": "São"}


def test_undrawable_fast_answer_matches_the_walk() -> None:
    coverage = Coverage(("f",), frozenset(range(0x20, 0x7F)) | {ord("ã")})
    for data in ({"a": "São", "b": [1, None, "ok"]}, {"a": ["x", {"b": "株式"}]},
                 {"a": ("é",)}, {"a": "ã"}):
        assert undrawable(data, coverage) == tuple(_walk(data, (), coverage))
    assert [u.pointer for u in undrawable({"a": ["x", {"b": "株式"}]}, coverage)] == ["/a/1/b"]


def test_required_objects_plan_is_the_function_on_every_requerimento() -> None:
    """Every fillable form of the pack, empty and with its example (each object emptied
    and each dropped in turn): the plan read once gives what the function gives."""
    content = loaded_content(REPO)
    fillable = [form for form in content.forms.values() if form.fillable]
    assert fillable
    for form in fillable:
        raw = content.registry.resolver().lookup(form.schema_id).contents
        schema = inline_refs(raw, content.registry)
        example = json.loads(form.example.read_text()) if form.example else {}
        cases = [{}, example]
        for key, value in example.items():
            if isinstance(value, dict):
                cases += [{**example, key: {}}, {k: v for k, v in example.items() if k != key}]
        for data in cases:
            expected = fillable_required_objects(schema, data)
            assert planned_required_objects(schema, data) == expected
            assert planned_required_objects(schema, data) == expected  # the plan kept


def test_json_copy_is_a_deep_copy() -> None:
    data: dict[str, Any] = {"a": {"b": [1, 2.5, True, None, "x", {"c": "São"}]},
                            "t": ("y", ["z"])}
    copied = json_copy(data)
    assert copied == deepcopy(data)
    copied["a"]["b"][5]["c"] = "outro"
    copied["t"][1].append("w")
    assert data == {"a": {"b": [1, 2.5, True, None, "x", {"c": "São"}]}, "t": ("y", ["z"])}
