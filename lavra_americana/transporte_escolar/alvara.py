"""The alvará of Lei nº 4.515/2007 (transporte escolar), first or renewed: arts. 3º,
6º, 11 to 17 (validity, renewal window, revalidations, fees, selection).

Each is a :data:`lavra.checking.computations.Computation` named under ``"calculos"`` in a form's
``formulario.json`` (``COMPUTATIONS["alvara_transporte_escolar"]``).

Pure functions of their :class:`ComputeInput`: what they cannot compute is a *missing*
(or *invalid*) item that blocks issuance. They run only on data the schema accepted.

``alvara_transporte_escolar`` — the Alvará para exploração de serviços de Transporte Escolar
    Validity. Art. 3º caps it at 12 months; art. 13 makes the alvará *annual* ("o
    alvará anual", § 3º), renewed every year "até o último dia útil do ano", the
    renewal requested "com até 30 dias de antecedência ... da data do seu vencimento"
    (§ 5º). The alvará is therefore taken as the licence of one exercise (calendar
    year), and::

        início   = the date of issue (first alvará, art. 16, I); for a renewal
                   (art. 16, II), the day after the previous alvará expires, or the
                   date of issue if later (an alvará never authorizes retroactively);
        vencimento (valido_ate) = min(início + 12 months − 1 day, 31/12 of the
                   início's year).

    The vencimento is 31 December, not the last business day: the exercise (and the
    annual fee) runs to 31/12, and with that vencimento the renewal window of § 5º
    (from the 30th day before the vencimento, closing on the vencimento moved back to
    the previous business day, ``legal_text/prazos.json``) ends exactly on the last
    business day of the year, the deadline of art. 13, caput: the two provisions then
    say the same thing. Taking the last business day as the vencimento would cut the
    exercise short by the days of a year-end holiday or weekend, a restriction the
    text does not impose. The 12-month cap (art. 3º) is applied too, though with a
    start in the same year as the vencimento it never binds: a renewal issued in
    December starts on 1 January, so even then the alvará lasts exactly 12 months.
    The renewal request window and the last business day of the year are printed
    (:func:`lavra.law.statutory.deadline_for`, ``art13_par5`` and ``art13``), as are the
    semiannual revalidations of § 6º that fall within the validity (the months of
    May and November whose period opens after the início: the alvará is checked when
    issued, so a revalidation month already under way at the início is not asked for).

    Fee: art. 16, I (10 UFESP, first alvará) or II (1 UFESP, renewal), at the UFESP of the
    year of the date of issue, the taxable event ("no ato da expedição";
    :func:`lavra_americana.transporte_escolar.fees.escolar_fee`), in figures and in words.
    No UFESP registered for the year is a *missing* item: the alvará cannot be issued
    until the pack has it.

    Renewal: the request (``/processo/data_requerimento``) must have been filed
    within the window of art. 13, § 5º, counted back from the previous alvará's
    vencimento (:func:`lavra.checking.timeliness.check_timeliness`): a late request means the
    licence was cassada (art. 13, caput) and a new alvará needs a new selection (art.
    3º, § 4º); a premature one must be repeated within the window. Both are
    *invalid* items.

    First alvará (``expedicao``): only "após regular processo de seleção" (art. 6º).
    ``/selecao`` gives the edital, the classification, the publication of the result
    and whether an appeal was filed and decided; the alvará may not be issued on or
    before the last day of the appeal of art. 11 (:func:`deadline_for`), nor while an
    appeal is undecided (art. 12, I); when the selection names the result edital
    (``/selecao/edital_resultado``), the registry must hold it and its publication date
    is the one counted (:func:`lavra_americana.transporte_escolar.resultado.result_in_registry`);
    the Cadastro de Atividades entry must fall within the 30 days of art. 8º, § 2º
    (:func:`check_timeliness`). Art. 14 (one licence per person) and the vehicle's one
    operating alvará (art. 1º, § 1º, as the registry's refusal) are read from the state
    (``comum.guards``); attestations of arts. 14 and 15, § 2º, cover what lies outside
    lavra; a transfer in the registry under 3 years old bars it (``transferencia``). The fee
    must have been paid, with its date, on or before the date of issue (art. 3º, § 1º;
    art. 13, § 3º).

    The vehicle's age (art. 17, I) is checked on the início of the validity: the age
    counts by year of manufacture (:mod:`lavra_americana.comum.vehicle_age`) and the
    validity ends in the início's year, so a vehicle within the limit then stays within it
    to the vencimento. A date of issue written in the data after the day the alvará is
    actually issued (``ComputeInput.issued_on``) is *invalid*: an alvará is not
    post-dated.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from dateutil.relativedelta import relativedelta

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    form_basis,
    in_legal_order,
    item_at,
    licensing,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.checking.timeliness import StatutoryTimeliness, check_timeliness
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.model import Law, resolve
from lavra.law.statutory import StatutoryContext, deadline_for
from lavra.textutil import format_date, month_name
from lavra_americana.comum.amounts import AmountSources
from lavra_americana.comum.computing import vehicle_age_items
from lavra_americana.comum.guards import held_items
from lavra_americana.comum.sources import pack_root, rule_sources
from lavra_americana.comum.validity import act_at, duplicate_items
from lavra_americana.fretamento.estado import OPERATION
from lavra_americana.transporte_escolar.estado import PER_PERSON, VEHICLE_BASIS
from lavra_americana.transporte_escolar.fees import escolar_fee
from lavra_americana.transporte_escolar.leituras import alvara_questions, answered
from lavra_americana.transporte_escolar.renovacao_requisitos import act_items as printed_items
from lavra_americana.transporte_escolar.resultado import result_in_registry

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "alvara_transporte_escolar",
    "fee_values",
    "with_consequence",
]

SCHOOL = "transporte-escolar"
VALIDITY = f"{SCHOOL}#art3"
ANNUAL = f"{SCHOOL}#art13"
RENEWAL_WINDOW = f"{SCHOOL}#art13_par5"
REVALIDATION = f"{SCHOOL}#art13_par6"
FIRST_FEE = f"{SCHOOL}#art16_inc1"
RENEWAL_FEE = f"{SCHOOL}#art16_inc2"
NEW_SELECTION = f"{SCHOOL}#art3_par4"
SELECTION = f"{SCHOOL}#art6"
CHOICE_APPEAL = f"{SCHOOL}#art11"
FINAL_CHOICE = f"{SCHOOL}#art12_inc1"
ACTIVITY_REGISTER = f"{SCHOOL}#art8_par2"
ONE_LICENCE = f"{SCHOOL}#art14"
TRANSFER_BAR = f"{SCHOOL}#art15_par2"
FEE_PAID = f"{SCHOOL}#art3_par1"
VALIDITY_PARAMETER = f"{SCHOOL}.validade_alvara"

IMPLEMENTED: tuple[str, ...] = (
    VALIDITY,
    ANNUAL,
    RENEWAL_WINDOW,
    REVALIDATION,
    FIRST_FEE,
    RENEWAL_FEE,
)
"""Citations these computations apply (coverage): the alvará's validity (art. 3º with
art. 13), the renewal window (art. 13, § 5º), the revalidations (art. 13, § 6º) and
the fees of art. 16, I and II printed in the alvará."""


def fee_values(
    citation: str, on: date, sources: AmountSources, field: str
) -> tuple[dict[str, Any], list[Item]]:
    """The fee of art. 16 (I or II) on ``on``: values, and a missing item when unknown."""
    try:
        amount = escolar_fee(citation, on, sources)
    except LavraError as error:
        message = (
            f"Não foi possível calcular a taxa "
            f"({resolve(sources.laws, citation).short}): {error.message}"
        )
        return (
            {
                "citacao": citation,
                "pendente": message,
                "valor": None,
                "valor_texto": None,
                "valor_extenso": None,
                "explicacao": message,
            },
            [item_at(field, Status.MISSING, message, citation)],
        )
    return (
        {
            "citacao": citation,
            "referencia": resolve(sources.laws, citation).short,
            "unidades": amount.units,
            "ufesp": amount.ufesp,
            "valor": amount.value,
            "valor_texto": amount.figures,
            "valor_extenso": amount.in_words,
            "explicacao": amount.explanation,
            "fonte": amount.source,
            "pendente": None,
        },
        [],
    )


def validity(start: date, months: int) -> date:
    """The vencimento of an alvará whose validity starts on ``start`` (module docstring).

    ``min(start + months − 1 day, 31/12 of start's year)``.
    """
    cap = start + relativedelta(months=months) - timedelta(days=1)
    return min(cap, date(start.year, 12, 31))


def _revalidations(start: date, end: date, context: StatutoryContext) -> list[dict[str, Any]]:
    """The revalidation periods of art. 13, § 6º, that open after ``start`` up to ``end``."""
    found: list[dict[str, Any]] = []
    day = start + timedelta(days=1)
    while day <= end:
        window = deadline_for(REVALIDATION, day, context=context)
        first = window.first_day
        if first is None or first > end:
            break
        if first > start:
            found.append(
                {
                    "mes": f"{month_name(first)} de {first.year}",
                    "de": first,
                    "ate": window.last_day,
                }
            )
        day = window.last_day + timedelta(days=1)
    return found


def _alvara_pending(reason: str) -> dict[str, Any]:
    return {
        "modalidade": None,
        "inicio_vigencia": None,
        "valido_ate": None,
        "vigencia_explicacao": reason,
        "renovacao": None,
        "revalidacoes": [],
        "taxa": None,
        "pendente": reason,
        "fundamento": [],
    }


def _renewal_request_items(data: Mapping[str, Any], context: StatutoryContext) -> list[Item]:
    expiry = maybe_date(pointers.get(data, "/alvara_anterior/valido_ate"))
    filed = maybe_date(pointers.get(data, "/processo/data_requerimento"))
    if expiry is None or filed is None:
        return []
    try:
        judged = check_timeliness(
            RENEWAL_WINDOW, expiry, filed, context=context, field="/processo/data_requerimento"
        )
    except LavraError as error:
        return [
            item_at("/processo/data_requerimento", Status.INVALID, error.message, RENEWAL_WINDOW)
        ]
    return with_consequence(judged, context)


def with_consequence(judged: StatutoryTimeliness, context: StatutoryContext) -> list[Item]:
    """The renewal timeliness items, an untimely one saying what follows (art. 13)."""
    if judged.timely:
        return list(judged.items)
    if judged.outcome == "prematuro":
        consequence = " O requerimento deve ser renovado dentro do prazo."
    else:
        selection = resolve(context.laws, NEW_SELECTION).short
        annual = resolve(context.laws, ANNUAL).short
        consequence = (
            f" A não renovação no prazo implica a cassação automática da licença "
            f"({annual}), e a outorga de novo alvará depende de habilitação e "
            f"classificação em novo processo seletivo ({selection})."
        )
    return [
        Item(
            item.requirement,
            item.status,
            item.field,
            item.message + consequence,
            (*item.basis, ANNUAL),
        )
        for item in judged.items
    ]


_ATTESTATIONS: tuple[tuple[str, str, str], ...] = (
    (
        "conferencia_outra_licenca",
        ONE_LICENCE,
        "de que o candidato não detém outra licença de transporte escolar",
    ),
    (
        "conferencia_transferencia",
        TRANSFER_BAR,
        "de que o candidato não transferiu licença nos 3 (três) anos anteriores",
    ),
)


def _attestation_items(
    selection: Mapping[str, Any], on: date, laws: Mapping[str, Law]
) -> list[Item]:
    """Arts. 14 and 15, § 2º: what staff checked, by whom and when; MISSING without it.

    The licensing state answers for every act lavra issued or imported; the attestation
    covers only what lies outside it (paper acts not imported), and the act says so.
    """
    items: list[Item] = []
    for key, citation, what in _ATTESTATIONS:
        field = f"/selecao/{key}"
        ref = resolve(laws, citation).short
        entry = selection.get(key)
        if not isinstance(entry, Mapping):
            items.append(
                item_at(
                    field,
                    Status.MISSING,
                    f"Falta a conferência, por servidor, {what} ({ref}), nos registros "
                    "anteriores ao cadastro de licenças, que o lavra já consulta: informe "
                    "o que foi conferido, por quem e em que data.",
                    citation,
                )
            )
            continue
        field += "/resultado"
        checked = maybe_date(entry.get("data"))
        who = clean_text(entry.get("responsavel")) or "servidor não identificado"
        if entry.get("resultado") != "sem_impedimento":
            items.append(
                item_at(
                    field,
                    Status.INVALID,
                    f"A conferência feita por {who} encontrou impedimento ({ref}): "
                    "o alvará não pode ser expedido.",
                    citation,
                )
            )
        elif checked is None or checked > on:
            items.append(
                item_at(
                    field,
                    Status.INVALID,
                    f"A conferência {what} ({ref}) deve ser anterior à expedição do "
                    f"alvará, em {format_date(on)}.",
                    citation,
                )
            )
        else:
            items.append(
                item_at(
                    field,
                    Status.MET,
                    f"Conferido por {who} em {format_date(checked)} ({ref}), fora do cadastro "
                    f"de licenças: {clean_text(entry.get('verificacao')) or ''}",
                    citation,
                )
            )
    return items


def _selection_items(data: Mapping[str, Any], on: date, context: StatutoryContext) -> list[Item]:
    """The first alvará only after a final selection (arts. 6º, 8º, § 2º, 11, 12, I, 14, 15)."""
    selection = pointers.get(data, "/selecao")
    if not isinstance(selection, Mapping):
        return []  # the schema reports /selecao missing
    laws = context.laws
    items: list[Item] = []
    published = maybe_date(selection.get("data_publicacao_resultado"))
    if published is not None:
        field = "/selecao/data_publicacao_resultado"
        try:
            appeal = deadline_for(CHOICE_APPEAL, published, context=context)
        except LavraError as error:
            items.append(item_at(field, Status.MISSING, error.message, CHOICE_APPEAL))
        else:
            last = format_date(appeal.last_day)
            ref = resolve(laws, CHOICE_APPEAL).short
            if on <= appeal.last_day:
                items.append(
                    item_at(
                        field,
                        Status.INVALID,
                        f"O prazo de recurso contra o ato de escolha ({ref}), contado da "
                        f"publicação do resultado em {format_date(published)}, encerra-se em "
                        f"{last}: a escolha ainda não é definitiva e o alvará não pode ser "
                        f"expedido em {format_date(on)} ({resolve(laws, FINAL_CHOICE).short}).",
                        CHOICE_APPEAL,
                        FINAL_CHOICE,
                    )
                )
            else:
                items.append(
                    item_at(
                        field,
                        Status.MET,
                        f"O prazo de recurso contra o ato de escolha ({ref}) encerrou-se em "
                        f"{last}.",
                        CHOICE_APPEAL,
                        FINAL_CHOICE,
                    )
                )
    if selection.get("recurso_interposto") is True:
        field = "/selecao/recurso_decidido_em"
        decided = maybe_date(selection.get("recurso_decidido_em"))
        if decided is None:
            items.append(
                item_at(
                    field,
                    Status.MISSING,
                    "Houve recurso contra o ato de escolha: o alvará só pode ser "
                    "expedido depois de decidido pelo Prefeito (art. 12, I).",
                    CHOICE_APPEAL,
                    FINAL_CHOICE,
                )
            )
        elif decided > on:
            items.append(
                item_at(
                    field,
                    Status.INVALID,
                    f"O recurso contra o ato de escolha foi decidido em "
                    f"{format_date(decided)}, depois da expedição do alvará: a "
                    "escolha não era definitiva (art. 12, I).",
                    CHOICE_APPEAL,
                    FINAL_CHOICE,
                )
            )
        else:
            items.append(
                item_at(
                    field,
                    Status.MET,
                    f"Recurso contra o ato de escolha decidido em "
                    f"{format_date(decided)} (art. 12, I).",
                    CHOICE_APPEAL,
                    FINAL_CHOICE,
                )
            )
    informed = maybe_date(selection.get("data_ciencia_classificacao"))
    registered = maybe_date(selection.get("data_inscricao_cadastro"))
    if informed is not None and registered is not None:
        try:
            judged = check_timeliness(
                ACTIVITY_REGISTER,
                informed,
                registered,
                context=context,
                field="/selecao/data_inscricao_cadastro",
            )
        except LavraError as error:
            items.append(
                item_at(
                    "/selecao/data_inscricao_cadastro",
                    Status.INVALID,
                    error.message,
                    ACTIVITY_REGISTER,
                )
            )
        else:
            items.extend(judged.items)
    items.extend(_attestation_items(selection, on, laws))
    return items


def _fee_paid_items(data: Mapping[str, Any], on: date) -> list[Item]:
    """The fee is paid before the alvará goes out (art. 3º, § 1º; art. 13, § 3º)."""
    paid = maybe_date(pointers.get(data, "/processo/data_pagamento_taxa"))
    field = "/processo/data_pagamento_taxa"
    if paid is None:
        return []  # the schema reports it missing
    if paid > on:
        return [
            item_at(
                field,
                Status.INVALID,
                f"A taxa foi recolhida em {format_date(paid)}, depois da expedição do "
                f"alvará em {format_date(on)}: o alvará é expedido mediante o "
                "recolhimento da taxa (art. 3º, § 1º).",
                FEE_PAID,
                f"{SCHOOL}#art13_par3",
            )
        ]
    return [
        item_at(
            field,
            Status.MET,
            f"Taxa recolhida em {format_date(paid)}.",
            FEE_PAID,
            f"{SCHOOL}#art13_par3",
        )
    ]


@answered(alvara_questions)  # its licences read at once (leituras)
def alvara_transporte_escolar(request: ComputeInput) -> Computed:
    """Validity (arts. 3º and 13), renewal and revalidations, fee (art. 16, I or II).

    ``values``: ``modalidade`` (``expedicao``/``renovacao``), ``inicio_vigencia``,
    ``valido_ate``, ``vigencia_explicacao``, ``renovacao`` (``abre_em``,
    ``ultimo_dia``, ``ultimo_dia_util_do_ano``, ``explicacao``), ``revalidacoes``
    (``mes``, ``de``, ``ate``), ``taxa`` (``valor``, ``valor_texto``,
    ``valor_extenso``, ``explicacao``, ``referencia``, ``pendente``...), ``pendente``
    (None, or why nothing could be computed), ``fundamento``.
    """
    data = request.data if isinstance(request.data, Mapping) else {}
    on = request.on
    context, sources = rule_sources(request, False)
    items: list[Item] = []
    renewal = pointers.get(data, "/modalidade") == "renovacao"
    start = on
    if renewal:
        previous = maybe_date(pointers.get(data, "/alvara_anterior/valido_ate"))
        found, checked = act_at(
            request.history, request.form_id, data, "/alvara_anterior", on,
            "alvará renovado", (ANNUAL,), in_force=False, holder_at="/titular/cpf",
            laws=context.laws)
        # Not in the registry (a paper alvará): the vencimento the process states.
        items.extend(checked if found is not None else ())
        if previous is not None:
            start = max(on, previous + timedelta(days=1))
        items.extend(_renewal_request_items(data, context))
    else:
        from lavra_americana.transporte_escolar import transferencia  # it imports this one

        items.extend(_selection_items(data, on, context))
        items.extend(result_in_registry(request.history, data))
        cpf, history = pointers.get(data, "/titular/cpf"), request.history
        items.extend(transferencia.transferor_bar_items(history, cpf, on, context, "/titular/cpf"))
    renewed = [str(pointers.get(data, "/alvara_anterior/numero") or "")] if renewal else []
    plate, state = pointers.get(data, "/veiculo/placa"), licensing(request.history)
    if state is not None and state.tracks(request.form_id):  # the registry knows
        items += held_items(request.history, start, placa=plate, group=OPERATION,
                            allowed=renewed, who=f"O veículo de placa {plate}",
                            field="/veiculo/placa", basis=(VEHICLE_BASIS,), laws=context.laws)
        items += held_items(request.history, start, cpf_cnpj=pointers.get(data, "/titular/cpf"),
                            group=PER_PERSON, allowed=renewed, who="O transportador",
                            field="/titular/cpf", basis=(ONE_LICENCE,), laws=context.laws)
    else:
        items += duplicate_items(request.history, request.form_id, plate, on, renewed,
                                 "/veiculo/placa", "Alvará para Transporte Escolar",
                                 (VEHICLE_BASIS,))
    items.extend(_fee_paid_items(data, on))
    items.extend(printed_items(data))  # the values it prints (renovacao_requisitos)
    if on > request.issued_on:
        items.append(
            item_at(
                "/data_expedicao",
                Status.INVALID,
                f"A data de expedição ({format_date(on)}) é posterior à data de emissão do "
                f"alvará ({format_date(request.issued_on)}): o alvará não pode ser pós-datado.",
                VALIDITY,
            )
        )
    try:
        months = int(context.parameters.value(VALIDITY_PARAMETER, start).value)
        end = validity(start, months)
        annual = deadline_for(ANNUAL, end, context=context)
        window = deadline_for(RENEWAL_WINDOW, end, context=context)
        revalidations = _revalidations(start, end, context)
    except LavraError as error:
        message = f"Não foi possível calcular a validade do alvará: {error.message}"
        items.append(item_at("/data_expedicao", Status.MISSING, message, VALIDITY, ANNUAL))
        return Computed(_alvara_pending(message), tuple(items))

    items.extend(vehicle_age_items(data, "/veiculo", start, context, "transporte-escolar"))
    fee_citation = RENEWAL_FEE if renewal else FIRST_FEE
    fee, fee_items = fee_values(fee_citation, on, sources, "/modalidade")
    items.extend(fee_items)

    law = context.laws[SCHOOL].short_title
    explanation = (
        f"Alvará anual, válido de {format_date(start)} a {format_date(end)}: o prazo de "
        f"validade máximo é de {months} meses (art. 3º da {law}) e o alvará é renovado "
        f"anualmente, até o último dia útil do ano (art. 13 da mesma lei); vence, por isso, "
        f"no fim do exercício de {end.year}."
    )
    values: dict[str, Any] = {
        "modalidade": "renovacao" if renewal else "expedicao",
        "inicio_vigencia": start,
        "valido_ate": end,
        "validade_meses": months,
        "vigencia_explicacao": explanation,
        "renovacao": {
            "abre_em": window.first_day,
            "ultimo_dia": window.last_day,
            "ultimo_dia_util_do_ano": annual.last_day,
            "explicacao": window.explanation,
        },
        "revalidacoes": revalidations,
        "taxa": fee,
        "pendente": None,
        "fundamento": in_legal_order(
            [
                *form_basis(pack_root(request.pack_dir), request.form_id),
                fee_citation,
                *(
                    ()
                    if renewal
                    else (SELECTION, CHOICE_APPEAL, FINAL_CHOICE, ONE_LICENCE, TRANSFER_BAR)
                ),
            ],
            context.laws,
        ),
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {"alvara_transporte_escolar": alvara_transporte_escolar}
"""The computation of this module a form may name under ``"calculos"``."""
