"""The acts «Preparar ato» drafts from the requerimentos of transporte escolar filed
online (Lei nº 4.515/2007), besides the renewal (:mod:`lavra_americana.comum.protocolos`),
each with every field the request or the registry knows. What neither knows is the
staff's to complete on the draft before it is signed.

- **Publicity** (art. 17, § 2º: the vehicle "poderá exibir publicidade" once authorised;
  § 3º the content): ``requerimento-licenca-publicidade`` → the
  ``autorizacao-publicidade-escolar`` with the holder, the alvará (its validity from the
  registry), the vehicle, the advertiser, the publicity and the croqui as filed, the
  request's protocol and day. The dimensions are carried when the request writes them as
  "L cm × A cm". Reading chosen: the verification of the content (art. 17, § 2º, I–IV)
  and the conformity with the CONTRAN resolution are the servant's, made on the croqui:
  the applicant's declarations do not fill them.
- **Transfer** (art. 15: the licence transferred "mediante requerimento" of both
  parties): ``requerimento-transferencia-licenca`` → the ``termo-transferencia-licenca``
  with the cedente, the licence (its validity from the registry), the cessionário, the
  vehicle and the documents as filed. The fee's receipt (art. 15, § 2º) and the
  signatures are the staff's: paid and signed after the request.
- **Change of vehicle** (art. 17, § 1º): ``requerimento-troca-veiculo-escolar`` → the
  ``termo-substituicao-veiculo-escolar`` with the request as filed, its protocol and
  the day of the act; the conferência is the inbox's review of every document
  (the reviewer's name), else the staff's.
- **Licença especial** (art. 20: the school transport of another municipality's
  students to Americana): ``requerimento-licenca-especial-intermunicipal`` → the
  ``licenca-especial-escolar`` with the applicant, the municipality of origin, the
  vehicle, the documents and the students as filed.

Each act that rests on an alvará of the registry (the publicity, the change of vehicle,
the transfer) is refused, naming the field, when the registry's alvará is another
person's than the one the act names as its holder (the requerente; the cedente of a
transfer): the act would grant on someone else's licence. Reading chosen: the
registry's holder wins over the number typed; staff prepare the refusal.

Every act names the processo as the protocol opened it (its PA once linked) and the
day of the request; the day of the act is the day it is prepared (staff may change it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from lavra.filedacts import ActSource
from lavra_americana.fretamento.alvara_protocolo import conferencia
from lavra_americana.fretamento.atos_protocolo import held_by

__all__ = ["IMPLEMENTED", "licenca_especial", "publicidade", "substituicao_veiculo",
           "transferencia"]

IMPLEMENTED = ("transporte-escolar#art15", "transporte-escolar#art17_par2",
               "transporte-escolar#art17_par1", "transporte-escolar#art20")

_DIMENSIONS = re.compile(
    r"^\s*(\d+(?:[.,]\d+)?)\s*(?:cm)?\s*[x×X]\s*(\d+(?:[.,]\d+)?)\s*cm\s*$")


def publicidade(source: ActSource) -> dict[str, Any]:
    """The authorisation of publicity (art. 17, § 2º; module docstring)."""
    req = source.request.data
    holder = _pick(req.get("requerente"), ("nome", "cpf", "prontuario"))
    _held_by(source, holder.get("cpf"), "/alvara/numero")
    publicity = _pick(req.get("publicidade"), ("local", "conteudo", "formato"))
    size = _dimensions(req.get("publicidade", {}).get("dimensoes"))
    if size is not None:
        publicity["dimensoes"] = size
    data: dict[str, Any] = {
        "processo": {"numero": source.request.processo},
        "titular": holder,
        "alvara": _alvara(source, req.get("alvara")),
        "veiculo": _pick(req.get("veiculo"), ("placa", "renavam", "marca_modelo")),
        "requerimento": {"data": _filed_on(source), "protocolo": source.request.protocol},
        "anunciante": _pick(req.get("anunciante"), ("nome", "documento")),
        "publicidade": publicity,
        "data_expedicao": source.on.isoformat(),
    }
    croqui = req.get("documentos", {}).get("croqui")
    if isinstance(croqui, Mapping):
        data["croqui"] = dict(croqui)
    return data


def transferencia(source: ActSource) -> dict[str, Any]:
    """The termo de transferência (art. 15; module docstring)."""
    req = dict(source.request.data)
    _held_by(source, (req.get("cedente") or {}).get("cpf"), "/licenca/numero")
    data_requerimento = _filed_on(source)
    req.pop("data_requerimento", None)
    req["licenca"] = {**dict(req.get("licenca") or {}),
                      **_alvara(source, req.get("licenca"))}
    return {"processo": {"numero": source.request.processo,
                         "data_requerimento": data_requerimento},
            **req, "data_termo": source.on.isoformat()}


def substituicao_veiculo(source: ActSource) -> dict[str, Any]:
    """The termo de substituição de veículo (art. 17, § 1º; module docstring)."""
    data = dict(source.request.data)
    _held_by(source, (data.get("requerente") or {}).get("cpf"), "/alvara/numero")
    data["data_requerimento"] = _filed_on(source)
    if source.licence is not None:  # the number as the registry prints it
        data["alvara"] = {"numero": source.licence.printed}
    data["protocolo_requerimento"] = source.request.protocol
    data["data_expedicao"] = source.on.isoformat()
    review = conferencia(source)
    if review is not None:
        data["responsavel_conferencia"] = review["responsavel"]
    return data


def licenca_especial(source: ActSource) -> dict[str, Any]:
    """The licença especial (art. 20; module docstring)."""
    req = source.request.data
    return {
        "processo": {"numero": source.request.processo,
                     "data_requerimento": _filed_on(source)},
        "requerente": _pick(req.get("requerente"),
                            ("nome", "cpf", "endereco", "telefone", "cnh")),
        "municipio_origem": _pick(req.get("municipio_origem"),
                                  ("nome", "uf", "alvara_numero")),
        "veiculo": dict(req.get("veiculo") or {}),
        "documentos": dict(req.get("documentos") or {}),
        "estudantes": list(req.get("estudantes") or []),
        "data_expedicao": source.on.isoformat(),
    }


def _alvara(source: ActSource, named: object) -> dict[str, Any]:
    """The alvará the request names, with its validity as the registry holds it."""
    alvara = _pick(named, ("numero",))
    licence = source.licence
    if licence is not None:
        alvara["numero"] = alvara.get("numero") or licence.printed
        if licence.valid_until is not None:
            alvara["valido_ate"] = licence.valid_until.isoformat()
    return alvara


def _held_by(source: ActSource, cpf: object, field: str) -> None:
    """Refused when the registry's alvará is another person's (module docstring)."""
    held_by(source, cpf, field, "outro transportador")


def _filed_on(source: ActSource) -> str:
    day = source.request.data.get("data_requerimento")
    return day if isinstance(day, str) and day else source.request.filed_on.isoformat()


def _pick(value: object, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        return {}
    return {k: value[k] for k in keys if k in value}


def _dimensions(text: object) -> dict[str, float | int] | None:
    """"80 cm × 30 cm" as the act's width and height; None when written otherwise."""
    found = _DIMENSIONS.match(text) if isinstance(text, str) else None
    if found is None:
        return None
    width, height = (float(n.replace(",", ".")) for n in found.groups())
    return {"largura_cm": int(width) if width.is_integer() else width,
            "altura_cm": int(height) if height.is_integer() else height}
