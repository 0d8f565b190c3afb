"""The dates of facts an act records, against the moment it is issued (issue 10, class 2).

A signed act records only what has happened by the time it is signed: a requerimento
filed, a fee paid, a document (certificate, laudo, CNH record) issued, an inspection
made, the event that justifies a temporary licence, a servant's conference of the file.
None of them may be after the moment of issue (their time of day too, when the form
records it: the licença temporária's occurrence, appearance and inspection hours).
Dates the act sets for the future (its validity, a deadline) are not facts and are not
read here; the act's own date (``data_expedicao``) is checked by each form's module.

``datas_de_fatos`` is a computation listed in the ``calculos`` of the licences and
alvarás (``formulario.json``) after the form's own: it walks the data and reports an
*invalid* item at each fact date (or hour) after the issue, through
:func:`lavra_americana.comum.computing.fact_after_issue`. The autos, termo, cassação and
appeal decisions check their facts in their own modules.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from lavra.checking.computations import Computation, Computed, ComputeInput, unique_items
from lavra.checking.report import Item
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra_americana.comum.computing import data_of, fact_after_issue

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "datas_de_fatos"]

IMPLEMENTED: tuple[str, ...] = ()
"""A rule of every act (the act records facts already happened), not of one provision."""

# key of a fact date → how the message names it
FACT_KEYS = {
    "data_emissao": "data de emissão do documento apresentado",
    "data_requerimento": "data do requerimento",
    "data_pagamento_taxa": "data do pagamento da taxa",
    "data_nascimento": "data de nascimento",
    "data_publicacao_resultado": "data de publicação do resultado do processo seletivo",
    "data_ciencia_classificacao": "data da ciência da classificação",
    "data_inscricao_cadastro": "data da inscrição no cadastro",
}
# objects whose ``data`` (and ``hora``) is a fact → how the message names it
FACT_OBJECTS = {
    "ocorrencia": "data do fato que justifica a licença",
    "comparecimento": "data do comparecimento do interessado",
    "vistoria": "data da vistoria",
    "requerimento": "data do requerimento",
    "conferencia_requerimento": "data da conferência do requerimento",
    "conferencia_outra_licenca": "data da conferência de outra licença",
    "conferencia_transferencia": "data da conferência da transferência",
}


def _facts(value: Any, pointer: str = "") -> Iterator[tuple[str, str, Any, str | None]]:
    """(pointer, what, hour, hour pointer) of each fact date in the data."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield from _facts(item, f"{pointer}/{index}")
        return
    if not isinstance(value, Mapping):
        return
    name = pointer.rsplit("/", 1)[-1]
    for key, item in value.items():
        here = f"{pointer}/{key}"
        if key in FACT_KEYS and isinstance(item, str):
            yield here, FACT_KEYS[key], None, None
        elif key == "data" and name in FACT_OBJECTS and isinstance(item, str):
            yield here, FACT_OBJECTS[name], value.get("hora"), f"{pointer}/hora"
        elif isinstance(item, Mapping | list):
            yield from _facts(item, here)


def datas_de_fatos(request: ComputeInput) -> Computed:
    """Invalid items for each fact date (or hour) after the moment of issue."""
    items: list[Item] = []
    for pointer, what, hour, hour_pointer in _facts(data_of(request)):
        items.extend(fact_after_issue(request, maybe_date(_at(request, pointer)), pointer,
                                      what, hour=hour, hour_pointer=hour_pointer))
    return Computed({}, unique_items(items))


def _at(request: ComputeInput, pointer: str) -> Any:
    return pointers.get(data_of(request), pointer)


COMPUTATIONS: dict[str, Computation] = {"datas_de_fatos": datas_de_fatos}
