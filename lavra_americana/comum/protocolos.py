"""The staff inbox of requerimentos filed online: the acts that decide each one
(«Preparar ato») and the period to supply a refused document.

**The period** (:func:`prazo_complementacao`). When a document attached to a filed
requerimento is refused, the applicant is intimated to present it (Lei nº 9.784/1999,
art. 39: the intimação names "data, prazo, forma e condições de atendimento"); not
presenting it in the period "fixado pela Administração" leads to the archiving of the
processo (art. 40). Neither Lei nº 4.419/2006 (fretamento) nor Lei nº 4.515/2007
(transporte escolar) sets a period for completing the instruction of a request.
Reading chosen: 10 (dez) days, counted from the day after the applicant's ciência of
the refusal (art. 66: the periods "começam a correr a partir da data da cientificação
oficial, excluindo-se da contagem o dia do começo e incluindo-se o do vencimento"), the
last day moved to the next business day of the secretariat's calendar when it falls on
a day without expediente (art. 66, § 1º). The refusal is the intimação of art. 39, and
art. 26 (its § 3º: "outro meio que assegure a certeza da ciência") gives its means: the
ciência is the applicant's click on «Tomar ciência da recusa» on the tracking page of
the protocol, identified by the protocol and the CPF/CNPJ that filed it, after the page
states that it starts the period (the reading of :mod:`lavra_americana.comum.
ciencia_eletronica`, applied to the refusal shown in full on that page), or the ciência
staff record with ``lavra fato ciencia PROT nº …`` (in person, by AR, by edital).
Sending the document again before any ciência supplies it (art. 26, § 5º: "o
comparecimento do administrado supre sua falta ou irregularidade"). Before the ciência
the page states the period (:data:`PRAZO_TEXTO`); after it, the last day. Counting from
the refusal itself, as this module did before, ran the period against an applicant who
had not yet been told of it. Each new refusal is a new intimação of everything still
missing: its period runs from its own ciência (:mod:`lavra.registry.inbox`).
Ten days rather than the five of art. 24 (the default for the acts of the
interested parties "inexistindo disposição específica"): art. 40 leaves the period to
the Administration, and gathering a document from another body (a certidão, a laudo)
rarely takes less; it is also the period the same law gives to appeal (art. 59),
which the pack already applies. The number is :data:`PRAZO_DIAS`.

**The acts** (:data:`ATOS`), per requerimento form:

- ``requerimento-renovacao-escolar`` → the renewed ``alvara-transporte-escolar``,
  built as the renewal run builds it (:func:`~lavra_americana.transporte_escolar.
  renovacao_lote.renewed_alvara`: the previous alvará's data from the registry, updated
  by the request; art. 13 of Lei nº 4.515/2007), or the refusal;
- ``requerimento-alvara-fretamento`` → one ``alvara-fretamento`` per vehicle (art. 8º
  of Lei nº 4.419/2006), each with what the request and the registry know
  (:mod:`lavra_americana.fretamento.alvara_protocolo`: the company, the vehicle with
  the characteristics of its earlier alvará, the inspection, the processo opened by the
  protocol, the conferência of the documents accepted in the inbox, the client of the
  company's contract of continuous service), or the refusal. What neither knows is the
  staff's to complete on the drafts before they are signed (a new vehicle's vistoria,
  art. 10; a client no contract in the registry names, art. 11, I, c);
- ``requerimento-renovacao-alvara-fretamento`` → the renewed ``alvara-fretamento``,
  built as the renewal run builds it (the previous alvará's data from the registry,
  updated by the request; art. 8º of Lei nº 4.419/2006), or the refusal;
- the publicity authorisation, the transfer, the change of vehicle and the licença
  especial of transporte escolar, and the alteration and the third party's vehicle of
  fretamento → the act that grants each, with what the request and the registry know
  (:mod:`lavra_americana.transporte_escolar.atos_protocolo`,
  :mod:`lavra_americana.fretamento.atos_protocolo`), or the refusal;
- ``requerimento-inscricao-escolar`` → only the refusal here: the inscrição in a
  chamamento is granted by the classification that decides every inscrição together
  (``edital-resultado-classificacao``), not by an act per request;
- every requerimento the refusal act names → ``decisao-indeferimento`` (Lei nº
  9.784/1999, art. 50, I; :mod:`lavra_americana.comum.indeferimento`), with the request
  as filed, its protocol and the applicant: the act finds the motivos in the request's
  own completeness report; staff add any others on the draft.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from lavra.errors import InputError
from lavra.filedacts import ActChoice, ActSource
from lavra.inputs.formats import mask_cnpj, mask_cpf
from lavra.law.calendar import load_calendar
from lavra_americana.fretamento import atos_protocolo as fretamento
from lavra_americana.fretamento.alvara_protocolo import alvaras_fretamento, renovacao_fretamento
from lavra_americana.transporte_escolar import atos_protocolo as escolar

__all__ = ["ATOS", "IMPLEMENTED", "PRAZO_DIAS", "PRAZO_TEXTO", "prazo_complementacao"]

LEI = "lei-9784-1999"
IMPLEMENTED = (f"{LEI}#art39", f"{LEI}#art40")
"""The intimação to present a missing document, with its period (module docstring)."""

PRAZO_DIAS = 10
"""Days to supply a refused document (Lei nº 9.784/1999, art. 40; reading above)."""
PRAZO_TEXTO = "10 (dez) dias, contados da ciência da recusa"
"""The period as the applicant reads it before the ciência (art. 66; reading above)."""

ESCOLAR_RENOVACAO = "requerimento-renovacao-escolar"
FRETAMENTO = "requerimento-alvara-fretamento"
FRETAMENTO_RENOVACAO = "requerimento-renovacao-alvara-fretamento"
INDEFERIMENTO = "decisao-indeferimento"
_REFUSABLE = (
    "requerimento-alvara-fretamento", "requerimento-autorizacao-alteracao-veiculo",
    "requerimento-autorizacao-veiculo-terceiro", "requerimento-renovacao-alvara-fretamento",
    "requerimento-inscricao-escolar", "requerimento-licenca-especial-intermunicipal",
    "requerimento-licenca-publicidade", "requerimento-renovacao-escolar",
    "requerimento-transferencia-licenca", "requerimento-troca-veiculo-escolar",
)


def prazo_complementacao(ciencia_on: date) -> date:
    """The last day to present a refused document whose refusal the applicant took
    ciência of on ``ciencia_on`` (arts. 26, 39, 40 and 66; reading above)."""
    from lavra_americana import ROOT

    return load_calendar(ROOT).next_business_day(ciencia_on + timedelta(days=PRAZO_DIAS))


def indeferimento(source: ActSource) -> dict[str, Any]:
    """The refusal of the request as filed (Lei nº 9.784/1999, art. 50, I)."""
    request = source.request
    digits = request.cpf_cnpj
    applicant: dict[str, Any] = (
        {"tipo": "pessoa_fisica", "nome": request.name, "cpf": mask_cpf(digits)}
        if len(digits) == 11 else
        {"tipo": "pessoa_juridica", "nome": request.name, "cnpj": mask_cnpj(digits)})
    return {
        "processo": {"numero": request.processo},
        "requerimento": {"formulario": request.form, "protocolo": request.protocol,
                         "data_protocolo": request.filed_on.isoformat(),
                         "dados": dict(request.data)},
        "requerente": applicant,
        "decisao": {"data": source.on.isoformat()},
    }


def renovacao_escolar(source: ActSource) -> dict[str, Any]:
    """The renewed alvará, as the renewal run makes it (art. 13 of Lei nº 4.515/2007)."""
    from lavra_americana.transporte_escolar.renovacao_lote import renewed_alvara

    licence, previous = source.licence, source.licence_data
    if licence is None or previous is None or licence.valid_until is None:
        raise InputError(
            "O requerimento não indica um alvará do cadastro a renovar: a renovação "
            "parte dos dados do alvará anterior. Prepare o alvará pelo formulário da "
            "equipe ou o indeferimento.", field="/alvara_anterior/numero")
    data = dict(source.request.data)
    data.setdefault("data_requerimento", source.request.filed_on.isoformat())
    envelope = {"requerimento": data, "processo": source.request.processo}
    return renewed_alvara(previous, licence.printed, licence.valid_until, envelope,
                          source.on)


_REFUSAL = ActChoice(INDEFERIMENTO, "Decisão de indeferimento do requerimento",
                     indeferimento, refusal=True)
ATOS: dict[str, tuple[ActChoice, ...]] = {form: (_REFUSAL,) for form in _REFUSABLE}
ATOS[ESCOLAR_RENOVACAO] = (
    ActChoice("alvara-transporte-escolar", "Alvará de transporte escolar — renovação",
              renovacao_escolar, licence_at="/alvara_anterior/numero"), _REFUSAL)
ATOS[FRETAMENTO] = (
    ActChoice("alvara-fretamento", "Alvará de Licença de Circulação (fretamento)",
              lambda source: alvaras_fretamento(source)[0],
              build_all=alvaras_fretamento, item_at="/veiculo/placa",
              processo_at="/processo/numero"), _REFUSAL)
ATOS[FRETAMENTO_RENOVACAO] = (
    ActChoice("alvara-fretamento", "Alvará de Licença de Circulação (fretamento) — renovação",
              renovacao_fretamento, licence_at="/alvara_anterior/numero"), _REFUSAL)
ATOS["requerimento-licenca-publicidade"] = (
    ActChoice("autorizacao-publicidade-escolar", "Autorização de publicidade no veículo escolar",
              escolar.publicidade, licence_at="/alvara/numero"), _REFUSAL)
ATOS["requerimento-transferencia-licenca"] = (
    ActChoice("termo-transferencia-licenca", "Termo de transferência da licença",
              escolar.transferencia, licence_at="/licenca/numero"), _REFUSAL)
ATOS["requerimento-troca-veiculo-escolar"] = (
    ActChoice("termo-substituicao-veiculo-escolar", "Termo de substituição de veículo escolar",
              escolar.substituicao_veiculo, licence_at="/alvara/numero"), _REFUSAL)
ATOS["requerimento-licenca-especial-intermunicipal"] = (
    ActChoice("licenca-especial-escolar", "Licença especial de transporte escolar",
              escolar.licenca_especial), _REFUSAL)
ATOS["requerimento-autorizacao-alteracao-veiculo"] = (
    ActChoice("autorizacao-previa-alteracao-veiculo",
              "Autorização prévia de alteração do veículo (fretamento)",
              fretamento.alteracao_veiculo, licence_at="/alvara/numero"), _REFUSAL)
ATOS["requerimento-autorizacao-veiculo-terceiro"] = (
    ActChoice("autorizacao-veiculo-terceiro", "Autorização de uso de veículo de terceiro",
              fretamento.veiculo_terceiro, licence_at="/requerente/alvara/numero"), _REFUSAL)
