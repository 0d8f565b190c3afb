"""The renewal requests a run reads from the registry: the requerimentos filed online
(issue 26, step 4), for the runs of ``transporte_escolar/renovacao_lote.py`` and
``fretamento/renovacao_lote.py``.

**Where the requests come from.** With ``--pedidos`` (a file from another system), the
file's lines, as before (``lote.read_pedidos``). Without it (the command line) or with
"pedidos protocolados" (the web's start form), the requerimentos of the run's renewal
form filed online (:func:`lavra.batch.intake.filed_requests`), still ``recebido``, over
the days the run names (each run says which: its period). **Both together are
refused**, with a message naming the protocols: a line of the file carries no moment of
filing, so for an alvará requested in both there is no "latest" to keep, and running
the file alone would notify as absent a holder whose request is on file online (issue
24: a request is never lost without a word). Requests received by another system are
filed through the public page too, so that one source holds them all; the file stays
for a period in which nothing was filed online.

**Each filed request** becomes the envelope the file's lines make:
``{"requerimento": <the data filed>, "processo": <the protocol number>}``, so that the
act cites the protocol as its processo (the protocol opened the processo in the
licensing state, ``lavra.registry.filings``). Its ``data_requerimento`` is the day of
the protocol, local time (the law counts the request's timeliness from its filing,
art. 8º of Lei nº 4.419/2006, art. 13, § 5º, of Lei nº 4.515/2007; the date the
applicant typed is not the filing's). Reading chosen where the law is silent: the
protocol's day, not the typed one, when they differ.

**The staff's conferência.** The run reads the filings not yet decided: received,
under review or pending in the staff inbox (``lavra.registry.inbox``). A filing with a
document staff refused (its standing review) is held: its holder is refused in the
summary with the documents refused and the last day the inbox gave to supply them, and
nothing is issued nor notified (reading chosen: the inbox's refusal already told the
applicant what is missing and until when, Lei nº 9.784/1999, arts. 39 and 40,
``protocolos.py``; a second notice of the same lack would repeat it with another
term). Where the law asks for the servant's conferência of the documents before the
act (fretamento: the renewed alvará says "atendidos os requisitos do art. 7º" only on
that attestation, art. 7º with the art. 8º, ``fretamento/renovacao_lote.py``), a
filing is held, "aguardando conferência dos documentos pela SETRANSV", until staff
have accepted every attachment; the conferência is then the last acceptance: who made
it and on which day. The school renewal's law asks for no such attestation
(art. 13 of Lei nº 4.515/2007: the request and its documents), so a school filing no
one has reviewed yet is taken as filed, as before.

**An act staff are preparing.** A filing from which staff prepared the act in the
inbox ("Preparar ato", its draft a rascunho or in the signing queue) is held the same
way, "ato em preparação pela equipe: minuta nº …": that act decides it, and the run
issues nothing beside it (two acts on one request would contradict each other).

**Its holder.** The licence the filing is tied to, when it is one of the run's; else
the alvará its data name (``/alvara_anterior/numero``); else the one alvará of the
run held by the requerente's CPF/CNPJ. The requerente must be the alvará's holder
(the CPF/CNPJ filed against the holder's): otherwise the request is refused, with its
reason. Several requests of the same alvará: the latest filed counts, the others are
reported as replaced. A request that matches no holder, or that the strict reader
refuses, is reported in the summary with its reason, never dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from lavra.batch.intake import FiledRequest, FiledScope, filed_requests
from lavra.batch.model import PlanContext, PlannedHolder
from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.inputs.formats import cpf_cnpj_label
from lavra.registry.records import LOCAL_TZ
from lavra.textutil import format_date
from lavra_americana.comum.lote import (
    HELD,
    PROTOCOL,
    REFUSED,
    UNKNOWN,
    Pedido,
    Requests,
    number_key,
)

__all__ = ["IMPLEMENTED", "PROTOCOL", "notice_processo", "requests_for"]


def notice_processo(holder: PlannedHolder, notice: str,
                    envelope: Mapping[str, Any] | None) -> PlannedHolder:
    """``holder`` with its ``notice`` citing, for a request filed online, the processo
    its protocol opened (``/processo/numero``), so that the notice joins it and the
    applicant's tracking page shows it, with its last day (the filing is then pending,
    ``lavra.registry.filing_status``); unchanged for a line of ``--pedidos``.

    **A notice on a filing is its own act** (issue 24). A holder first notified as
    having filed nothing, who then files an incomplete request, is notified again: the
    new notice tells what is missing from what was filed and opens its own term to
    supply it (Lei nº 9.784/1999, arts. 39 and 40: the interested party is summoned to
    present the documents the request lacks, with the term to do so), within the
    processo the protocol opened. Reading chosen where the municipal law is silent: the
    first notice (of the request not filed) stays valid and is not repeated nor
    revoked; the second answers the filing, so its planned-once key carries the
    protocol (``claim``, :func:`lavra.registry.once.act_of`): the same filing is
    notified once, whatever the runs or the processes racing, and another filing
    (another protocol) is another act."""
    protocol = None if envelope is None else envelope.get(PROTOCOL)
    if not protocol:
        return holder
    if not any(out.form == notice for out in holder.outputs):
        return holder
    return replace(holder, claim=f"{protocol}", outputs=tuple(
        replace(out, data={**out.data, "processo": {"numero": str(protocol)}})
        if out.form == notice else out for out in holder.outputs))

L = TypeVar("L")

IMPLEMENTED: tuple[str, ...] = ()
"""Helpers only: the runs cite their own articles."""


def requests_for(context: PlanContext, scope: FiledScope, due: Mapping[str, L],
                 holder_of: Callable[[L], str], *,
                 conference: str | None = None) -> Requests | None:
    """The run's requests filed online (``scope``: the run's form and days, as its
    ``filed`` says), by the key of the alvará each renews (module docstring); None when
    the run reads a ``--pedidos`` file (InputError if requests were also filed for it).
    ``conference``: the provision that asks for the servant's conferência of the
    documents (the request is held until staff accept them all), none if the law
    asks for none."""
    found = filed_requests(context.registry, scope.form, since=scope.since,
                           until=scope.until)
    if context.request.pedidos is not None:
        if found:
            shown = ", ".join(f.protocol for f in found[:3])
            more = f" e mais {len(found) - 3}" if len(found) > 3 else ""
            raise InputError(
                f"Há {len(found)} requerimento(s) de renovação protocolado(s) pelo "
                f"portal para esta execução ({shown}{more}): a execução lê os pedidos de "
                "uma só fonte. Execute sem --pedidos para usar os protocolados; o arquivo "
                "de outro sistema não pode ser somado a eles, porque não diz quando cada "
                "pedido foi protocolado, e para um mesmo alvará não se saberia qual "
                "prevalece.", field="/pedidos")
        return None
    by_key: dict[str, Pedido] = {}
    refused: list[tuple[int, PlannedHolder]] = []
    for order, filed in enumerate(found, 1):
        if filed.problem is not None or filed.data is None:
            refused.append((order, PlannedHolder(
                filed.label, filed.name, REFUSED,
                reason=f"{filed.problem or 'Requerimento ilegível.'} O pedido não foi "
                "considerado; o requerente deve protocolar um novo.")))
            continue
        key = _holder_key(filed, due, holder_of)
        if key is not None and key in due and holder_of(due[key]) != filed.cpf_cnpj:
            refused.append((order, PlannedHolder(
                filed.label, filed.name, REFUSED,
                reason=f"O pedido do protocolo {filed.protocol} renova o alvará «{key}», "
                f"mas o {cpf_cnpj_label(filed.cpf_cnpj)} de quem o protocolou não é o do "
                "titular do alvará: o pedido não foi considerado.")))
            continue
        pedido = Pedido(order, _envelope(filed, _held(filed, conference)),
                        protocol=filed.protocol)
        key = key or f"{UNKNOWN}{order}"  # each unidentified request reported on its own
        earlier = by_key.get(key)
        if earlier is not None:
            pedido = Pedido(order, pedido.envelope,
                            (*earlier.replaced, Pedido(earlier.line, earlier.envelope,
                                                       protocol=earlier.protocol)),
                            filed.protocol)
        by_key[key] = pedido
    return Requests(by_key, tuple(refused))


def _holder_key(filed: FiledRequest, due: Mapping[str, L],
                holder_of: Callable[[L], str]) -> str | None:
    """The number key of the alvará the request renews (module docstring)."""
    if filed.licence and number_key(filed.licence) in due:
        return number_key(filed.licence)
    named = number_key(pointers.get(filed.data or {}, "/alvara_anterior/numero"))
    if named in due:
        return named
    held = [key for key, licence in due.items() if holder_of(licence) == filed.cpf_cnpj]
    if len(held) == 1:
        return held[0]
    return named or (number_key(filed.licence) if filed.licence else None)


def _held(filed: FiledRequest, conference: str | None) -> str | None:
    """Why the run may not take the request yet (module docstring, "The staff's
    conferência"), or None."""
    if filed.draft is not None:
        # the inbox's act decides the filing (Preparar ato): the run issues nothing
        # beside it, neither the act nor a notice of it
        return (f"O pedido do protocolo {filed.protocol} tem ato em preparação pela "
                f"equipe: minuta nº {filed.draft}. Nada foi emitido nem notificado por esta "
                "execução; o pedido é decidido pelo ato preparado na caixa de protocolos.")
    checked = filed.conference
    after = ("nada foi emitido nem notificado por esta execução; o pedido será "
             "considerado pela execução seguinte, depois que os documentos forem aceitos "
             "na caixa de protocolos.")
    if checked.refused:
        until = f", a reapresentar até {format_date(checked.deadline)}" \
            if checked.deadline else ""
        return (f"O pedido do protocolo {filed.protocol} tem documento(s) recusado(s) na "
                f"conferência pela SETRANSV ({'; '.join(checked.refused)}){until}: {after}")
    if conference is not None and not checked.done:
        return (f"Pedido do protocolo {filed.protocol} aguardando conferência dos "
                f"documentos pela SETRANSV ({conference}): {after}")
    return None


def _envelope(filed: FiledRequest, held: str | None) -> dict[str, Any]:
    requerimento = dict(filed.data or {})
    requerimento["data_requerimento"] = filed.filed_at.astimezone(LOCAL_TZ).date().isoformat()
    envelope: dict[str, Any] = {"requerimento": requerimento, "processo": filed.protocol,
                                PROTOCOL: filed.protocol}
    checked = filed.conference
    if checked.done and checked.checked_on is not None:
        # the servant who accepted the last document attests the conferência, that day
        envelope["conferencia"] = {"responsavel": checked.checked_by,
                                   "data": checked.checked_on.isoformat()}
    if held is not None:
        envelope[HELD] = held
    return envelope
