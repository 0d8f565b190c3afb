"""What a renewal carries from the request into the act: the shape shared by each
law's one definition (``transporte_escolar/renovacao_requisitos.py``,
``fretamento/renovacao_requisitos.py``).

A renewal's act prints some values that only the renewal request gives (a receipt's
number, an inspection report's number). Each law lists them once, as :class:`Carried`
values; the public requerimento is complete only when each is given
(:func:`request_items`), the run's plan copies them into the act (:func:`carry`), and
the act is complete only when each is in it (:func:`act_items`): what the public page
calls "Completo" is what the act accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lavra.checking.computations import item_at
from lavra.checking.report import Item, Status
from lavra.inputs import pointers

__all__ = ["IMPLEMENTED", "Carried", "act_items", "carry", "given", "request_items"]

IMPLEMENTED: tuple[str, ...] = ()
"""A shape shared by the laws' definitions: the articles are cited by each value."""


@dataclass(frozen=True)
class Carried:
    """One value the renewed act takes from the renewal request."""

    request: str
    """Its pointer in the requerimento."""
    act: str
    """Its pointer in the act."""
    document: str
    """The document it belongs to, as the citizen and staff name it (pt-BR)."""
    what: str
    """What of that document is needed (pt-BR, lower case)."""
    basis: tuple[str, ...]


def given(data: Mapping[str, Any], pointer: str) -> bool:
    value = pointers.get(data, pointer)
    return value is not None and (not isinstance(value, str) or bool(value.strip()))


def _document_given(data: Mapping[str, Any], carried: Carried) -> bool:
    """The document itself is in the request (its absence is the schema's item)."""
    return isinstance(pointers.get(data, carried.request.rsplit("/", 1)[0]), Mapping)


def request_items(carried: Sequence[Carried], data: Mapping[str, Any]) -> list[Item]:
    """The requerimento's items: each value the renewed act prints, missing from a
    document the request does carry. The message reads "<why>: <document>", as the
    pending notice lists a document."""
    return [
        item_at(c.request, Status.MISSING,
                f"Informe {c.what}, que o alvará renovado imprime: {c.document}", *c.basis)
        for c in carried if _document_given(data, c) and not given(data, c.request)
    ]


def act_items(carried: Sequence[Carried], data: Mapping[str, Any]) -> list[Item]:
    """The act's items: each value it prints that the data lack."""
    return [
        item_at(c.act, Status.MISSING,
                f"Falta {c.what} ({c.document}), que o alvará imprime.", *c.basis)
        for c in carried if not given(data, c.act)
    ]


def carry(carried: Sequence[Carried], request: Mapping[str, Any],
          act: dict[str, Any]) -> dict[str, Any]:
    """``act`` with each value of ``carried`` the request gives set in it."""
    for c in carried:
        value = pointers.get(request, c.request)
        if value is not None:
            _set(act, c.act, value)
    return act


def _set(data: dict[str, Any], pointer: str, value: Any) -> None:
    parts = pointer.strip("/").split("/")
    for part in parts[:-1]:
        found = data.get(part)
        if not isinstance(found, dict):
            found = {} if found is None else dict(found)
            data[part] = found
        data = found
    data[parts[-1]] = value
