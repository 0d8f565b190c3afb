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
- ``transporte-escolar#art26`` — the penalty the tracking page reaches: the decision
  that revoked the alvará as a penalty (REV-ESC: art. 23, III; art. 9º, § 2º; the autos
  are signed on the spot, their ciência in themselves, and are not a requerimento's
  acts): recurso to the Prefeito, in a single instance, in the 10 days of art. 26
  counted from the ciência (art. 25), filed as ``recurso-transporte-escolar`` with the
  act as ``auto.especie: decisao_revogacao`` (:func:`recurso_penalidade_escolar`).
  **Reading chosen**: that form is built around the auto; for the decision it names
  the decision (number, date) and, as "data da infração", the day of the last
  infraction the decision counted (its computed ``autos``; the decision's own day
  when it lists none), the penalty in the words of the ground the decision applied.
  The revogação by motivo fundamentado (art. 3º) is no penalty: its deadline is Lei nº
  9.784/1999's, not this one.

- ``transporte-escolar#art11`` — the refusal of the inscription in the selection (the
  choice that leaves the candidate out, :mod:`lavra_americana.comum.indeferimento`):
  written recurso to the Prefeito in 5 days counted from the ciência of the refusal,
  filed as ``recurso-classificacao`` naming the refusal (``indeferimento``) instead of
  the edital de resultado, the candidate's inscription being the protocol of the
  processo (:func:`recurso_selecao`). The result published in the edital is no act of
  a requerimento's processo: its appeal stays the candidate's form.

- ``decisao-revogacao-alvara/lei-9784-1999#art59`` — the revogação of the escolar
  alvará "por motivo fundamentado" (art. 3º), no penalty
  (:mod:`lavra_americana.comum.recurso_9784`): recurso under Lei nº 9.784/1999, in the
  10 days of art. 59 counted from the ciência, addressed to the Secretário who decided,
  who reconsiders it or forwards it to the Prefeito (art. 56, § 1º), filed as
  ``recurso-lei-9784`` naming the decision (:func:`recurso_revogacao_motivo`).
  «Preparar ato» prepares the Secretário's decision (DEC-SETRANSV,
  ``decisao-recurso-secretario``, hipótese ``lei-9784-1999#art56_par1``). Once that
  decision is issued keeping the revogação in whole or in part, it forwards the recurso
  (art. 56, § 1º: "o encaminhará à autoridade superior"), and «Preparar ato» on the
  same recurso then offers the Prefeito's decision (DEC-GP, ``decisao-recurso-prefeito``,
  hipótese ``lei-9784-1999#art56``) with the recurso, the recorrente and the revogação
  with its ciência carried from the forwarding decision as the registry holds it
  (:func:`decisao_prefeito_revogacao_motivo`); granted in full, it restores the alvará
  (:mod:`lavra_americana.comum.recurso_estado`). **Reading chosen**: a reconsideration
  in full ("provido") leaves nothing to forward, nor does an appeal not known
  (untimely: it carries no result); the party files nothing new (the period of art.
  59 was counted once, to the filing).

- ``decisao-indeferimento/lei-9784-1999#art59`` and
  ``declaracao-vacancia/lei-9784-1999#art59`` — the other acts of the Secretário of
  transporte escolar whose appeal is the same art. 59: the refusal of a requerimento
  outside the selection (:mod:`lavra_americana.comum.indeferimento`: the fretamento
  refusal carries art. 24, the inscription's art. 11, and are filed under those) and
  the declaração de vacância (art. 13; :mod:`lavra_americana.transporte_escolar.
  vacancia`: the law is silent, Lei nº 9.784/1999 applies). The same form
  ``recurso-lei-9784``, naming the act by its number with series (IND, DV-ESC), the
  same 10 days from the ciência on record, the same authority (the Secretário who
  decided, art. 56, § 1º) and the same two decisions, whose words name the act
  (:data:`lavra_americana.comum.recurso_9784.ACTS`) (:func:`recurso_revogacao_motivo`,
  which builds all three).

**Fretamento art. 23 is not filed here — reading chosen.** Art. 23 gives the company 15
days "a contar da data da infração" to appeal to the Secretário against the auto de
infração (AIF-FRET) or the termo de impedimento (TIM-FRET). Those acts are drawn up by
the agent on the spot, with the ciência in themselves; they open no requerimento's
processo and are not addressed to anyone who holds a protocol: no protocol and CPF/CNPJ
identify the company as their addressee (:mod:`lavra_americana.comum.ciencia_eletronica`
keeps them out of :data:`~lavra_americana.comum.ciencia_eletronica.DESTINATARIOS`), and
their period runs from the infraction, not from an access the page could record. Tying
them to a filer would mean this page asserting an addressee the act does not have. The
art. 23 recurso stays the company's fillable form ``recurso-fretamento`` (instância
``secretario``), filed at the Secretariat or as a requerimento of its own; its period is
the one the auto prints.

**Reading chosen**: the recurso filed online is a requerimento like any other (Lei nº
9.784/1999, art. 6º): received as filed, its receipt lists what its form's report
leaves pending (an address, a representative), which the Secretariat may ask for
(art. 39); its date is the day of filing (``data_recurso``), which is what the period
is judged on (art. 59: "contado a partir da ciência"; the last day included).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.filedacts import ActChoice, ActSource
from lavra.filing import AppealQuery
from lavra.inputs import pointers
from lavra.inputs.formats import mask_cnpj, mask_cpf
from lavra_americana.comum import recurso_9784 as federal

__all__ = [
    "ATOS",
    "IMPLEMENTED",
    "RECURSOS",
    "decisao_prefeito_revogacao_motivo",
    "decisao_recurso_escolar",
    "decisao_recurso_fretamento",
    "decisao_recurso_revogacao_motivo",
    "decisao_recurso_selecao",
    "recurso_fretamento",
    "recurso_penalidade_escolar",
    "recurso_revogacao_motivo",
    "recurso_selecao",
]

IMPLEMENTED = ("fretamento#art24", "transporte-escolar#art25", "transporte-escolar#art11")

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


PENALIDADES = {
    "terceira_multa": "Revogação do Alvará para Transporte Escolar após a terceira multa "
    "(art. 23, III, da Lei nº 4.515/2007)",
    "auxiliar_veiculo_irregular": "Revogação do alvará do condutor auxiliar flagrado em "
    "veículo que não atende ao art. 17 (art. 9º, § 2º, I, da Lei nº 4.515/2007)",
    "veiculo_outro_condutor": "Revogação do Alvará para Transporte Escolar: veículo "
    "dirigido por condutor que não o titular ou o auxiliar (art. 9º, § 2º, II, da Lei nº "
    "4.515/2007)",
}
"""The penalty of each ground of a penalty revogação, as the recurso names it."""


def _last_infraction(query: AppealQuery) -> str:
    """The day of the last infraction the decision counted (module doc)."""
    autos = query.act_computed.get("autos")
    days = sorted(str(row["data_infracao"])[:10] for row in autos or ()
                  if isinstance(row, dict) and row.get("data_infracao")
                  ) if isinstance(autos, list) else []
    return days[-1] if days else query.act_issued_on.isoformat()


def recurso_penalidade_escolar(query: AppealQuery) -> tuple[str, dict[str, Any]]:
    """The recurso to the Prefeito against the revogação applied as a penalty (arts. 25
    and 26): the form of the escolar penalty appeal, with the decision as its act."""
    data = query.act_data
    ground = pointers.get(data, "/hipotese/tipo")
    autos = [str(a["numero"]) for a in pointers.get(data, "/hipotese/autos") or ()
             if isinstance(a, dict) and a.get("numero")]
    penalty = PENALIDADES.get(str(ground), "Revogação do Alvará para Transporte Escolar")
    if autos:
        penalty += ", pelos autos de infração " + ", ".join(autos)
    recorrente: dict[str, Any] = {"nome": query.name, "cpf": mask_cpf(query.cpf_cnpj)}
    alvara = pointers.get(data, "/alvara/numero")
    if isinstance(alvara, str):
        recorrente["alvara"] = alvara
    decided = pointers.get(data, "/decisao/data")
    auto: dict[str, Any] = {
        "especie": "decisao_revogacao", "numero": query.act_printed,
        "data_decisao": decided if isinstance(decided, str)
        else query.act_issued_on.isoformat(),
        "data_infracao": _last_infraction(query), "penalidade": penalty + "."}
    placa = pointers.get(data, "/veiculo/placa")
    if isinstance(placa, str):
        auto["placa"] = placa
    return "recurso-transporte-escolar", {
        "recorrente": recorrente,
        "auto": auto,
        "ciencia": {"no_auto": False, "data": query.ciencia_on.isoformat()},
        "razoes": query.reasons,
        "pedido": "A reforma da decisão recorrida e o restabelecimento do alvará.",
        "data_recurso": query.on.isoformat(),
    }


def recurso_selecao(query: AppealQuery) -> tuple[str, dict[str, Any]]:
    """The written recurso to the Prefeito against the refusal of the inscription in
    the selection (art. 11), 5 days from its ciência."""
    decided = pointers.get(query.act_data, "/decisao/data")
    inscricao = pointers.get(query.act_data, "/processo/numero")
    return "recurso-classificacao", {
        "recorrente": {"nome": query.name, "cpf": mask_cpf(query.cpf_cnpj),
                       "protocolo_inscricao": str(inscricao or "")},
        "indeferimento": {"numero": query.act_printed,
                          "data": decided if isinstance(decided, str)
                          else query.act_issued_on.isoformat(),
                          "data_ciencia": query.ciencia_on.isoformat()},
        "situacao_recorrida": "nao_classificacao",
        "razoes": query.reasons,
        "pedido": "A reforma da decisão que indeferiu a inscrição e a sua admissão à "
                  "classificação do processo seletivo.",
        "interposicao": {"data": query.on.isoformat()},
    }


PEDIDOS = {
    "decisao-indeferimento": "A reconsideração da decisão e o deferimento do requerimento; "
    "não reconsiderada, o encaminhamento do recurso ao Prefeito Municipal.",
    "declaracao-vacancia": "A reconsideração da declaração de vacância e o "
    "restabelecimento do alvará; não reconsiderada, o encaminhamento do recurso ao "
    "Prefeito Municipal.",
}
"""The pedido of the recurso against a refusal or a vacância (the revogação's below)."""


def recurso_revogacao_motivo(query: AppealQuery) -> tuple[str, dict[str, Any]]:
    """The Lei nº 9.784/1999 recurso against the revogação by motivo fundamentado (art.
    3º), the escolar refusal outside the selection or the declaração de vacância (art.
    13): to the Secretário who decided, 10 days from the ciência (arts. 56 and 59)."""
    data = query.act_data
    recorrente: dict[str, Any] = {"nome": query.name, "cpf": mask_cpf(query.cpf_cnpj)}
    alvara = pointers.get(data, "/alvara/numero")
    if isinstance(alvara, str):
        recorrente["alvara"] = alvara
    decided = pointers.get(data, "/decisao/data") or pointers.get(data, "/data_declaracao")
    return "recurso-lei-9784", {
        "recorrente": recorrente,
        "ato_recorrido": {"numero": query.act_printed,
                          "data": decided if isinstance(decided, str)
                          else query.act_issued_on.isoformat(),
                          "data_ciencia": query.ciencia_on.isoformat()},
        "razoes": query.reasons,
        "pedido": PEDIDOS.get(query.act_form, "A reconsideração da decisão e o "
                              "restabelecimento do alvará; não reconsiderada, o "
                              "encaminhamento do recurso ao Prefeito Municipal."),
        "data_recurso": query.on.isoformat(),
    }


RECURSOS = {"fretamento#art24": recurso_fretamento,
            "transporte-escolar#art26": recurso_penalidade_escolar,
            "transporte-escolar#art11": recurso_selecao,
            "decisao-revogacao-alvara/lei-9784-1999#art59": recurso_revogacao_motivo,
            "decisao-indeferimento/lei-9784-1999#art59": recurso_revogacao_motivo,
            "declaracao-vacancia/lei-9784-1999#art59": recurso_revogacao_motivo}
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


def decisao_recurso_escolar(source: ActSource) -> dict[str, Any]:
    """«Preparar ato» of a recurso-transporte-escolar: the Prefeito's decision (DEC-GP,
    in a single instance, art. 25) with the recurso, the recorrente and the act appealed
    (the auto, the advertência or the revogação) and its ciência carried over."""
    request = source.request
    data = request.data if isinstance(request.data, dict) else {}
    auto = data.get("auto", {}) if isinstance(data.get("auto"), dict) else {}
    ciencia = data.get("ciencia", {}) if isinstance(data.get("ciencia"), dict) else {}
    if auto.get("especie") == "decisao_revogacao":
        appealed = {"especie": "decisao", "numero": auto.get("numero"),
                    "data": auto.get("data_decisao")}
    else:
        kind = ("advertencia" if str(auto.get("penalidade", "")).lower()
                .startswith("advert") else "auto_infracao")
        appealed = {"especie": kind, "numero": auto.get("numero"),
                    "data": auto.get("data_infracao")}
    if ciencia.get("data"):
        appealed["data_ciencia"] = ciencia["data"]
    return _escolar_decision(source, "transporte-escolar#art25", appealed)


def _escolar_decision(source: ActSource, hypothesis: str, appealed: dict[str, Any]
                      ) -> dict[str, Any]:
    """The Prefeito's decision on an escolar recurso filed by the candidate or driver
    (CPF): the recurso, the recorrente as the recurso names them, the act appealed."""
    request = source.request
    data = request.data if isinstance(request.data, dict) else {}
    named = data.get("recorrente")
    recorrente = named if isinstance(named, dict) else {}
    return {
        "recurso": {"hipotese": hypothesis, "numero_protocolo": request.protocol,
                    "data_protocolo": request.filed_on.isoformat(),
                    "razoes": data.get("razoes", "")},
        "recorrente": {"nome": recorrente.get("nome") or request.name,
                       "cpf": recorrente.get("cpf") or mask_cpf(request.cpf_cnpj)},
        "ato_recorrido": {k: v for k, v in appealed.items() if v is not None},
        "decisao": {"data": source.on.isoformat()},
    }


def decisao_recurso_selecao(source: ActSource) -> dict[str, Any]:
    """«Preparar ato» of a recurso-classificacao: the Prefeito's decision on the appeal
    against the ato de escolha (DEC-GP, art. 11) — the refusal of the inscription or the
    result of the selection — with the recurso and the recorrente carried over."""
    request = source.request
    data = request.data if isinstance(request.data, dict) else {}
    refusal = data.get("indeferimento")
    edital = data.get("edital_resultado")
    if isinstance(refusal, dict):
        appealed = {"especie": "decisao", "numero": refusal.get("numero"),
                    "data": refusal.get("data"), "data_ciencia": refusal.get("data_ciencia")}
    else:
        edital = edital if isinstance(edital, dict) else {}
        appealed = {"especie": "resultado_selecao", "numero": edital.get("numero"),
                    "data": edital.get("data_publicacao")}
    return _escolar_decision(source, "transporte-escolar#art11", appealed)


def decisao_recurso_revogacao_motivo(source: ActSource) -> dict[str, Any]:
    """«Preparar ato» of a recurso-lei-9784: the Secretário's decision that reconsiders
    the act appealed (the revogação, the refusal, the vacância) or keeps it and forwards
    the recurso (DEC-SETRANSV, art. 56, § 1º), with the recurso, the recorrente and the
    act with its ciência carried over."""
    data = source.request.data if isinstance(source.request.data, dict) else {}
    named = data.get("ato_recorrido")
    ato: dict[str, Any] = named if isinstance(named, dict) else {}
    appealed = {"especie": "decisao", "numero": ato.get("numero"), "data": ato.get("data"),
                "data_ciencia": ato.get("data_ciencia")}
    return _escolar_decision(source, "lei-9784-1999#art56_par1", appealed)


FORWARDED = ("nao_provido", "parcialmente_provido")
"""The results of the Secretário's decision that forward the recurso to the Prefeito
(Lei nº 9.784/1999, art. 56, § 1º; :data:`lavra_americana.comum.recurso_9784.WORDS`)."""


def forwarded_to_prefeito(form: str, data: Mapping[str, Any]) -> bool:
    """The act that decided a recurso-lei-9784 is the Secretário's decision that did not
    reconsider the revogação in whole, forwarding the recurso (module doc)."""
    return (form == "decisao-recurso-secretario"
            and pointers.get(data, "/recurso/hipotese") == federal.RECONSIDERED
            and pointers.get(data, "/decisao/resultado") in FORWARDED)


def decisao_prefeito_revogacao_motivo(source: ActSource) -> dict[str, Any]:
    """«Preparar ato» of a recurso-lei-9784 the Secretário forwarded: the Prefeito's
    decision (DEC-GP, art. 56, § 1º) with the recurso and the recorrente as the
    forwarding decision names them, the revogação with its ciência as that decision,
    issued from the registry, holds it, and that decision itself (number with series,
    date: :mod:`lavra_americana.comum.encaminhamento`) (module doc)."""
    forwarding = source.decided
    if forwarding is None:
        raise ValueError("no forwarding decision")
    held = forwarding.data

    def part(key: str) -> Mapping[str, Any]:
        found = held.get(key)
        return found if isinstance(found, Mapping) else {}

    recurso, ato, named = part("recurso"), part("ato_recorrido"), part("recorrente")
    request = source.request
    return {
        "recurso": {"hipotese": federal.SUPERIOR,
                    "numero_protocolo": recurso.get("numero_protocolo") or request.protocol,
                    "data_protocolo": recurso.get("data_protocolo")
                    or request.filed_on.isoformat(),
                    "razoes": recurso.get("razoes") or request.data.get("razoes", "")},
        "recorrente": {"nome": named.get("nome") or request.name,
                       "cpf": named.get("cpf") or mask_cpf(request.cpf_cnpj)},
        "ato_recorrido": {k: v for k in ("especie", "numero", "data", "data_ciencia")
                          if (v := ato.get(k)) is not None},
        "encaminhamento": {"numero": forwarding.printed,
                           "data": forwarding.reference_date.isoformat()},
        "decisao": {"data": source.on.isoformat()},
    }


ATOS = {
    "recurso-fretamento": (
        ActChoice("decisao-recurso-prefeito", "Decisão do Prefeito sobre o recurso (art. 24)",
                  decisao_recurso_fretamento, refusal=True),),
    "recurso-transporte-escolar": (
        ActChoice("decisao-recurso-prefeito",
                  "Decisão do Prefeito sobre o recurso contra penalidade (art. 25)",
                  decisao_recurso_escolar, refusal=True),),
    "recurso-classificacao": (
        ActChoice("decisao-recurso-prefeito",
                  "Decisão do Prefeito sobre o recurso contra o ato de escolha (art. 11)",
                  decisao_recurso_selecao, refusal=True),),
    "recurso-lei-9784": (
        ActChoice("decisao-recurso-secretario",
                  "Decisão do Secretário sobre o recurso: reconsidera ou encaminha ao "
                  "Prefeito (Lei nº 9.784/1999, art. 56, § 1º)",
                  decisao_recurso_revogacao_motivo, refusal=True),
        ActChoice("decisao-recurso-prefeito",
                  "Decisão do Prefeito sobre o recurso não reconsiderado pelo Secretário "
                  "(Lei nº 9.784/1999, art. 56, § 1º)",
                  decisao_prefeito_revogacao_motivo, refusal=True,
                  after=forwarded_to_prefeito),),
}
"""«Preparar ato» of the recursos filed online (the decision may deny the recurso, so it
is prepared whatever the attachments' standing: ``refusal``)."""
