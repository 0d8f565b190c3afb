"""The completeness report: one item per requirement, a value rather than an exception.

Each item says whether a requirement of the law is ``met``, ``missing``, ``invalid``
or ``not_applicable`` for the data at hand, which field it concerns (a JSON pointer),
a pt-BR message a clerk understands, and its legal basis (citation ids).

The schema tells which properties are requirements (those carrying ``x-fundamento``);
schema validation issues decide their status; rule findings (checks a schema cannot
express, made on a reference date) are items of the same kind and override a
requirement they concern when they find it invalid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from functools import lru_cache
from typing import Any, NamedTuple

from lavra.inputs import pointers
from lavra.inputs.schemas.fields import FieldInfo
from lavra.inputs.schemas.validation import SchemaIssue


class Status(StrEnum):
    MET = "met"
    MISSING = "missing"
    INVALID = "invalid"
    NOT_APPLICABLE = "not_applicable"


STATUS_LABELS = {
    Status.MET: "atendido",
    Status.MISSING: "pendente",
    Status.INVALID: "irregular",
    Status.NOT_APPLICABLE: "não se aplica",
}


@dataclass(frozen=True)
class Item:
    requirement: str
    status: Status
    field: str
    message: str
    basis: tuple[str, ...] = ()
    awaiting: str | None = None
    """For a conditional requirement whose case is not chosen yet: the answers it
    depends on (pt-BR), instead of "não se aplica"."""

    @property
    def pending(self) -> bool:
        return self.status in (Status.MISSING, Status.INVALID)

    def to_json(self) -> dict[str, Any]:
        return {
            "requirement": self.requirement,
            "status": self.status.value,
            "field": self.field,
            "message": self.message,
            "basis": list(self.basis),
            **({"awaiting": self.awaiting} if self.awaiting else {}),
        }


AWAITING_LABEL = "depende de resposta"
"""The label of a requirement that depends on an answer not yet given."""


@dataclass(frozen=True)
class Report:
    form: str
    on: date
    items: tuple[Item, ...]

    @property
    def complete(self) -> bool:
        return not any(item.pending for item in self.items)

    @property
    def pending(self) -> tuple[Item, ...]:
        return tuple(item for item in self.items if item.pending)

    def to_json(self) -> dict[str, Any]:
        return {
            "form": self.form,
            "on": self.on.isoformat(),
            "complete": self.complete,
            "items": [item.to_json() for item in self.items],
        }


def _document_missing(issue: SchemaIssue, pointer: str) -> bool:
    """An attachment present in the data but not presented (``apresentado`` false)."""
    return issue.pointer == pointer + "/apresentado" and issue.keyword in ("const", "required")


def _awaiting(
    info: FieldInfo, pointer: str, data: Mapping[str, Any], titles: Mapping[str, str]
) -> str | None:
    """The answers a conditional requirement waits for: those its condition reads that
    are not given yet (the case is not chosen: it may still apply). None when every one
    is given (the answers excluded it: it does not apply) or it is not conditional."""
    if not info.required_when or not info.depends_on:
        return None
    given = pointers.split(pointer)
    wanted: list[str] = []
    for pattern in info.depends_on:
        parts = pointers.split(pattern)
        concrete = [
            given[i] if part == "*" and i < len(given) else part for i, part in enumerate(parts)
        ]
        if "*" in concrete:
            return None
        at = "/" + "/".join(pointers.escape(p) for p in concrete)
        if pointers.get(data, at, _ABSENT) is _ABSENT:
            wanted.append(f"«{titles.get(pattern) or pointers.dotted(at)}»")
    return " e ".join(dict.fromkeys(wanted)) or None


class _Words(NamedTuple):
    """What a requirement's items say whatever the data: they depend only on the
    schema's property (its pointer, title, kind and basis)."""

    ident: str
    label: str
    basis: tuple[str, ...]
    met: Item
    missing: Item
    not_applicable: Item


@lru_cache(maxsize=8192)
def _words(pointer: str, title: str | None, document: bool, basis: tuple[str, ...]) -> _Words:
    """Kept per process (a run checks the same requirements for every document)."""
    label = title or pointers.dotted(pointer)
    ident = pointers.dotted(pointer)
    met = Item(ident, Status.MET, pointer,
               f"{'Apresentado' if document else 'Atendido'}: {label}.", basis)
    missing = Item(ident, Status.MISSING, pointer,
                   f"{'Documento não apresentado' if document else 'Não informado'}: {label}.",
                   basis)
    absent = Item(ident, Status.NOT_APPLICABLE, pointer, f"Não se aplica: {label}.", basis)
    return _Words(ident, label, basis, met, missing, absent)


def _requirement_item(
    info: FieldInfo,
    pointer: str,
    issues: Sequence[SchemaIssue],
    data: Mapping[str, Any],
    titles: Mapping[str, str] | None = None,
) -> Item:
    words = _words(pointer, info.title, info.document, tuple(info.basis))
    if issues:
        if any(i.keyword == "required" and i.pointer == pointer for i in issues) or (
            info.document and any(_document_missing(i, pointer) for i in issues)
        ):
            return words.missing
        text = " ".join(dict.fromkeys(i.message for i in issues))
        return Item(words.ident, Status.INVALID, pointer, text, words.basis)
    if pointers.get(data, pointer, _ABSENT) is _ABSENT:
        awaiting = _awaiting(info, pointer, data, titles or {})
        if awaiting is not None:
            when = info.required_when or ""
            when = when if when.startswith("quando") else f"quando {when}"
            message = f"Depende da resposta a {awaiting}: {words.label} (exigido {when})."
            return Item(words.ident, Status.NOT_APPLICABLE, pointer, message, words.basis,
                        awaiting)
        return words.not_applicable
    return words.met


_ABSENT = object()


def build_report(
    form: str,
    on: date,
    data: Mapping[str, Any],
    fields: Iterable[FieldInfo],
    issues: Sequence[SchemaIssue],
    findings: Iterable[Item] = (),
) -> Report:
    """Combine requirements, schema issues and rule findings into one report."""
    fields = tuple(fields)
    titles = {info.pattern: info.title for info in fields if info.title}
    requirements: list[tuple[str, FieldInfo]] = [
        (pointer, info)
        for info in fields
        if info.basis
        for pointer in pointers.expand(info.pattern, data)
    ]
    # Each issue belongs to the deepest requirement that contains it.
    owned: dict[str, list[SchemaIssue]] = {pointer: [] for pointer, _ in requirements}
    orphans: list[SchemaIssue] = []
    for issue in issues:
        owners = [p for p, _ in requirements if pointers.is_within(issue.pointer, p)]
        if owners:
            owned[max(owners, key=len)].append(issue)
        else:
            orphans.append(issue)

    items: dict[str, Item] = {}
    for pointer, info in requirements:
        item = _requirement_item(info, pointer, owned[pointer], data, titles)
        items.setdefault(item.requirement, item)
    for issue in orphans:
        status = Status.MISSING if issue.keyword == "required" else Status.INVALID
        ident = pointers.dotted(issue.pointer) or "dados"
        key = ident
        while key in items:
            key += "'"
        items[key] = Item(ident, status, issue.pointer, issue.message, ())
    for finding in findings:
        current = items.get(finding.requirement)
        if current is None or (finding.pending and not current.pending):
            items[finding.requirement] = finding
    return Report(form, on, tuple(items.values()))
