"""Helpers shared by the table-driven form tests: examples, changes, report items, PDF text."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from typing import Any

from pypdf import PdfReader

from lavra.checking.report import Item, Report, Status
from lavra.documents import Engine

Change = Callable[[dict[str, Any]], None]
DELETE = object()
"""A value for :func:`setter` that removes the key instead."""


def example(engine: Engine, form: str) -> dict[str, Any]:
    path = engine.content.form(form).example
    assert path is not None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def at(report: Report, field: str) -> Item:
    """The pending item at ``field`` (else the first item there)."""
    found = [i for i in report.items if i.field == field]
    assert found, f"nenhum item em {field}: {[i.field for i in report.items]}"
    pending = [i for i in found if i.pending]
    return (pending or found)[0]


def pdf_text(pdf: bytes) -> str:
    text = "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)
    return " ".join(text.replace("-\n", "-").split())  # a word broken at its hyphen


def setter(pointer: str, value: Any) -> Change:
    """A change that sets (or, with DELETE, removes) the value at ``pointer``."""

    def apply(data: dict[str, Any]) -> None:
        *path, last = pointer.strip("/").split("/")
        node: Any = data
        for key in path:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if value is DELETE:
            del node[last]
        else:
            node[last] = copy.deepcopy(value)

    return apply


def chain(*changes: Change) -> Change:
    def apply(data: dict[str, Any]) -> None:
        for change in changes:
            change(data)

    return apply


def assert_reported(report: Report, field: str, status: Status, citation: str) -> None:
    """The report is incomplete, with an item of ``status`` at ``field`` citing ``citation``."""
    found = at(report, field)
    assert found.status is status, found
    assert citation in found.basis, found
    assert not report.complete


def pending_at(report: Report, pointer: str) -> bool:
    """Whether a field removed at ``pointer`` is pending: the schema reports a missing key
    at the key itself or at the object that lacks it."""
    parent = pointer.rsplit("/", 1)[0] or pointer
    return any(i.field in (pointer, parent) and i.pending for i in report.items)


def assert_pending(report: Report, field: str, status: Status, citation: str | None) -> None:
    """:func:`assert_reported`; with no ``citation``, a field the form requires where the
    law names none: only the status and the incompleteness are asserted."""
    if citation is not None:
        assert_reported(report, field, status, citation)
        return
    assert at(report, field).status is status
    assert not report.complete
