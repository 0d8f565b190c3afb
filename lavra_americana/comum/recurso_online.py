"""The recurso filed from the tracking page of a requerimento: which lie, and as what.

The applicant, identified on the tracking page by the protocol and the CPF/CNPJ that
filed it, may appeal an act of that processo addressed to them
(:mod:`lavra_americana.comum.ciencia_eletronica`) within the period the act's own
appeal runs in, counted from the ciência on record (the registry's, never a typed
day): the engine finds that deadline among those the act's form lists under
``"ciencia"`` and its computed basis cites, and files the recurso only while its last
day has not passed. Which law and which instance: the deadline's own (issue 23, class
2 — each act carries the appeal of its law and stage), mapped here to the recurso form
the Secretariat already uses for it (:data:`RECURSOS`):

- ``fretamento#art24`` — the decision of the Secretário (a refused request, a
  cassação, a decision on the appeal of art. 23): recurso to the Prefeito Municipal in
  the 15 days of art. 23 counted from the ciência (Lei nº 4.419/2006, art. 24), filed
  as ``recurso-fretamento`` with ``instancia: prefeito``.

Not yet filed online (the page says the recurso is filed at the Secretariat): the
escolar appeal against a penalty (arts. 25 and 26 — its form, ``recurso-transporte-
escolar``, is built around the auto and its ciência), the selection's appeal (art. 11)
and the Lei nº 9.784/1999 appeal (art. 59), which has no recurso form of its own.

**Reading chosen**: the recurso filed online is a requerimento like any other (Lei nº
9.784/1999, art. 6º): received as filed, its receipt lists what its form's report
leaves pending (an address, a representative), which the Secretariat may ask for
(art. 39); its date is the day of filing (``data_recurso``), which is what the period
is judged on (art. 59: "contado a partir da ciência"; the last day included).
"""

from __future__ import annotations

from typing import Any

from lavra.filedacts import ActChoice, ActSource
from lavra.filing import AppealQuery
from lavra.inputs.formats import mask_cnpj, mask_cpf

__all__ = ["ATOS", "IMPLEMENTED", "RECURSOS", "decisao_recurso_fretamento",
           "recurso_fretamento"]

IMPLEMENTED = ("fretamento#art24",)

PEDIDO = "A reforma da decisão recorrida."


def recurso_fretamento(query: AppealQuery) -> tuple[str, dict[str, Any]]:
    """The recurso to the Prefeito against the Secretário's decision (art. 24)."""
    doc = query.cpf_cnpj
    recorrente: dict[str, Any] = (
        {"razao_social": query.name, "cnpj": mask_cnpj(doc)} if len(doc) == 14 else
        {"razao_social": query.name, "cpf": mask_cpf(doc)})
    return "recurso-fretamento", {
        "recorrente": recorrente,
        "instancia": "prefeito",
        "ato_recorrido": {"numero": query.act_printed,
                          "data": query.act_issued_on.isoformat(),
                          "data_ciencia": query.ciencia_on.isoformat()},
        "razoes": query.reasons,
        "pedido": PEDIDO,
        "local": "Americana",
        "data_recurso": query.on.isoformat(),
    }


RECURSOS = {"fretamento#art24": recurso_fretamento}
"""The recursos filed online, by the citation of the deadline they are filed under."""


def decisao_recurso_fretamento(source: ActSource) -> dict[str, Any]:
    """«Preparar ato» of a recurso-fretamento filed online: the Prefeito's decision
    (DEC-GP, art. 24), with the recurso, the recorrente and the act appealed carried
    over; the result and its reasons are the staff's to write (Lei nº 9.784/1999, art.
    50, V: the decision on a recurso is motivated)."""
    request = source.request
    data = request.data
    ato = data.get("ato_recorrido", {}) if isinstance(data, dict) else {}
    doc = request.cpf_cnpj
    recorrente: dict[str, Any] = {"nome": request.name}
    recorrente["cnpj" if len(doc) == 14 else "cpf"] = (
        mask_cnpj(doc) if len(doc) == 14 else mask_cpf(doc))
    appealed = {"especie": "decisao", "numero": ato.get("numero"), "data": ato.get("data")}
    if ato.get("data_ciencia"):
        appealed["data_ciencia"] = ato["data_ciencia"]
    return {
        "recurso": {"hipotese": "fretamento#art24", "numero_protocolo": request.protocol,
                    "data_protocolo": request.filed_on.isoformat(),
                    "razoes": data.get("razoes", "")},
        "recorrente": recorrente,
        "ato_recorrido": appealed,
        "decisao": {"data": source.on.isoformat()},
    }


ATOS = {"recurso-fretamento": (
    ActChoice("decisao-recurso-prefeito", "Decisão do Prefeito sobre o recurso (art. 24)",
              decisao_recurso_fretamento, refusal=True),)}
"""«Preparar ato» of the recursos filed online (the decision may deny the recurso, so it
is prepared whatever the attachments' standing: ``refusal``)."""
