"""What a school-transport renewal needs: the one definition read by the public
requerimento (``requerimento-renovacao-escolar``: its completeness report), the renewal
run's plan (``renovacao_lote.py``: the renewed alvará's data) and the act
(``alvara-transporte-escolar``: its completeness check).

The requerimento's schema asks for each document of art. 13, § 5º, with its date of
issue; a document's number is optional there, as most of them have none worth
printing. The renewed alvará, however, prints two numbers taken from the request: the
receipt of the renewal fee (art. 3º, § 1º, and art. 13, § 3º: "Recolhimento comprovado
por ...") and the last CIRETRAN inspection report (art. 17, III). :data:`CARRIED` lists
what goes from the request into the act; the requerimento is complete only when each
is given, and the alvará is complete only when each is in it, so that what the public
page calls "Completo" is what the act accepts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lavra.checking.computations import item_at
from lavra.checking.report import Item, Status
from lavra.inputs import pointers

__all__ = ["CARRIED", "IMPLEMENTED", "Carried", "act_items", "carry", "request_items"]

IMPLEMENTED: tuple[str, ...] = ()
"""A definition shared by the forms: the articles are cited by each item."""


@dataclass(frozen=True)
class Carried:
    """One value the renewed alvará takes from the renewal request."""

    request: str
    """Its pointer in the requerimento."""
    act: str
    """Its pointer in the alvará."""
    document: str
    """The document it belongs to, as the citizen and staff name it (pt-BR)."""
    what: str
    """What of that document is needed (pt-BR, lower case)."""
    basis: tuple[str, ...]


CARRIED: tuple[Carried, ...] = (
    Carried("/documentos/comprovante_taxa_renovacao/numero", "/processo/comprovante_taxa",
            "Comprovante de recolhimento da taxa de renovação", "o número do comprovante",
            ("transporte-escolar#art3_par1", "transporte-escolar#art13_par3")),
    Carried("/documentos/comprovante_taxa_renovacao/data_emissao",
            "/processo/data_pagamento_taxa",
            "Comprovante de recolhimento da taxa de renovação", "a data do recolhimento",
            ("transporte-escolar#art3_par1", "transporte-escolar#art13_par3")),
    Carried("/documentos/laudo_vistoria_ultimo/numero",
            "/veiculo/laudo_vistoria_ciretran/numero",
            "Último laudo de vistoria do veículo expedido pela CIRETRAN",
            "o número do laudo", ("transporte-escolar#art13_par5_inc3",
                                  "transporte-escolar#art17_inc3")),
    Carried("/documentos/laudo_vistoria_ultimo/data_emissao",
            "/veiculo/laudo_vistoria_ciretran/data_emissao",
            "Último laudo de vistoria do veículo expedido pela CIRETRAN",
            "a data de emissão do laudo", ("transporte-escolar#art13_par5_inc3",
                                           "transporte-escolar#art17_inc3")),
)


def _given(data: Mapping[str, Any], pointer: str) -> bool:
    value = pointers.get(data, pointer)
    return value is not None and (not isinstance(value, str) or bool(value.strip()))


def _document_given(data: Mapping[str, Any], carried: Carried) -> bool:
    """The document itself is in the request (its absence is the schema's item)."""
    return isinstance(pointers.get(data, carried.request.rsplit("/", 1)[0]), Mapping)


def request_items(data: Mapping[str, Any]) -> list[Item]:
    """The requerimento's items: each value the renewed alvará prints, missing from a
    document the request does carry. The message reads "<why>: <document>", as the
    pending notice lists a document."""
    return [
        item_at(c.request, Status.MISSING,
                f"Informe {c.what}, que o alvará renovado imprime: {c.document}", *c.basis)
        for c in CARRIED if _document_given(data, c) and not _given(data, c.request)
    ]


def act_items(data: Mapping[str, Any]) -> list[Item]:
    """The alvará's items: each value it prints that the data lack."""
    return [
        item_at(c.act, Status.MISSING,
                f"Falta {c.what} ({c.document}), que o alvará imprime.", *c.basis)
        for c in CARRIED if not _given(data, c.act)
    ]


def carry(request: Mapping[str, Any], act: dict[str, Any]) -> dict[str, Any]:
    """``act`` with each value of :data:`CARRIED` the request gives set in it."""
    for c in CARRIED:
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
