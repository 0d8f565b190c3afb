"""The Licença Temporária of Lei nº 4.515/2007 (transporte escolar): art. 4º, caput, and art. 5º.

Each is a :data:`lavra.checking.computations.Computation` named under ``"calculos"`` in a form's
``formulario.json`` and found through :func:`lavra.checking.computations.find_computation`.
Like every computation, they are pure functions of their :class:`ComputeInput`, run
only on data the schema accepted, and never raise for what the data or the pack lack:
a value they cannot compute becomes a *missing* or *invalid* report item.

``licenca_temporaria_escolar`` — the "Licença Temporária" (art. 4º, caput, and art. 5º)
    ``/modalidade`` chooses the case:

    ``condutor_saude`` (art. 4º, caput): the licensed driver cannot work for health
        reasons proven by a laudo médico; the substitute driver must meet art. 7º except
        IV, VII and IX
        (:func:`lavra_americana.transporte_escolar.eligibility.candidate_eligibility` with
        the role ``substituto``, on the date of issue). The law sets no term: the licence
        lasts while the incapacity the laudo states (``/laudo_medico/afastamento_ate``)
        and never beyond the alvará it depends on (``/alvara/valido_ate``): the earlier of
        the two.
    The substitution of the driver for other reasons (art. 4º, parágrafo único) is no
        licence: the licensed driver communicates it
        (:mod:`lavra_americana.transporte_escolar.comunicacao_substituicao`).
    ``veiculo_substituto`` (art. 5º): validity of 20 days from the issue
        (``transporte-escolar#art5``); a prorrogação (``/prorrogacao``, "se
        comprovada a necessidade") counts another 20 days from the day the previous
        licence ended. Unplanned occurrence (I): the licensed driver appears at
        SETRANSV within 24 hours of it (``#art5_inc1``); planned occurrence (IV):
        SETRANSV is contacted before the day of the occurrence. The substitute vehicle
        (II): similar to the replaced one (declared by the vistoria), at most 10 years
        of manufacture on the date of issue (:func:`lavra_americana.comum.vehicle_age.vehicle_age`,
        ``transporte-escolar-substituto``) and presented for vistoria within 24 hours
        of the occurrence (``#art5_inc2``); the termo of that vistoria, approved, of the
        same vehicle, comes from the registry
        (:func:`lavra_americana.transporte_escolar.vistoria_substituto.licence_items`).
        Times are given as a date and an ``HH:MM`` hour in separate fields, so examples
        move whole when their dates are shifted. The driver of the substitute vehicle,
        when not the licensed one, holds a CNH "D" and the course (III): the schema says
        so.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.checking.timeliness import check_timeliness
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.formats import mask_cpf_cnpj
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import StatutoryContext, deadline_for
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, issue_items, licence_pending, vehicle_age_items
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import (
    Limit,
    act_at,
    earliest,
    parent_act_items,
    validity_explanation,
    vehicle_limit,
)
from lavra_americana.transporte_escolar import vistoria_substituto
from lavra_americana.transporte_escolar.candidate import Candidate, TrafficInfraction
from lavra_americana.transporte_escolar.eligibility import REGISTRY_ONLY, candidate_eligibility
from lavra_americana.transporte_escolar.vistoria_substituto import moment

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "licenca_temporaria_escolar",
]

SCHOOL = "transporte-escolar"
ALVARA_FORM = "alvara-transporte-escolar"
HEALTH = f"{SCHOOL}#art4"
VEHICLE_LICENCE = f"{SCHOOL}#art5"
UNPLANNED = f"{SCHOOL}#art5_inc1"
PRESENTED = f"{SCHOOL}#art5_inc2"
PLANNED = f"{SCHOOL}#art5_inc4"
_MODALITY_LABEL = {
    "condutor_saude": "condutor substituto, por motivo de saúde do condutor licenciado",
    "veiculo_substituto": "veículo substituto",
}


# Where the eligibility rules' fields live in the Licença Temporária.
_SUBSTITUTE_FIELDS: Mapping[str, str] = {
    "/data_nascimento": "/condutor_substituto/data_nascimento",
    "/cnh_categoria": "/condutor_substituto/cnh/categoria",
    "/residente_desde": "/condutor_substituto/residente_desde",
    "/sem_antecedentes_criminais": "/documentos_substituto/antecedentes_criminais",
    "/curso_condutor_escolar": "/documentos_substituto/curso_condutor_escolar",
    "/infracoes": "/condutor_substituto/infracoes",
    # Exempt for the substitute (art. 4º): reported, not applicable, at fields of their own.
    "/veiculo": "/condutor_substituto/veiculo_proprio",
    "/veiculo/laudo_vistoria_ciretran": "/condutor_substituto/laudo_vistoria_ciretran",
    "/exigencias_edital": "/condutor_substituto/exigencias_edital",
}


IMPLEMENTED: tuple[str, ...] = (
    HEALTH,
    VEHICLE_LICENCE,
    UNPLANNED,
    PRESENTED,
    PLANNED,
)
"""Citations this computation applies (coverage): the Licença Temporária's cases
and terms (arts. 4º and 5º)."""


def _substitute(data: Mapping[str, Any]) -> Candidate:
    infractions: tuple[TrafficInfraction, ...] | None = None
    if pointers.get(data, "/documentos_substituto/prontuario_cnh/apresentado") is True:
        found = []
        listed = pointers.get(data, "/condutor_substituto/infracoes")
        for entry in listed if isinstance(listed, list) else []:
            day = maybe_date(entry.get("data")) if isinstance(entry, Mapping) else None
            if day is not None:
                found.append(
                    TrafficInfraction(day, entry["gravidade"], clean_text(entry.get("descricao")))
                )
        infractions = tuple(found)

    def presented(name: str) -> bool | None:
        shown = pointers.get(data, f"/documentos_substituto/{name}/apresentado")
        return True if shown is True else None

    return Candidate(
        name=clean_text(pointers.get(data, "/condutor_substituto/nome")) or "O condutor substituto",
        birth_date=maybe_date(pointers.get(data, "/condutor_substituto/data_nascimento")),
        cnh_category=clean_text(pointers.get(data, "/condutor_substituto/cnh/categoria")),
        resident_since=maybe_date(pointers.get(data, "/condutor_substituto/residente_desde")),
        no_criminal_record=presented("antecedentes_criminais"),
        course_completed=presented("curso_condutor_escolar"),
        infractions=infractions,
    )


def _substitute_items(
    data: Mapping[str, Any], on: date, context: StatutoryContext
) -> tuple[list[Item], str | None]:
    """Art. 7º for the substitute driver (art. 4º): items at the form's fields."""
    try:
        result = candidate_eligibility(
            _substitute(data), on, "substituto", params=context.parameters, laws=context.laws
        )
    except LavraError as error:
        message = (
            f"Não foi possível verificar os requisitos do condutor substituto: {error.message}"
        )
        return [item_at("/condutor_substituto", Status.INVALID, message, HEALTH)], message
    items = []
    for item in result.items:
        if item.field in REGISTRY_ONLY:
            continue
        field = _SUBSTITUTE_FIELDS.get(item.field, "/condutor_substituto" + item.field)
        items.append(Item(pointers.dotted(field), item.status, field, item.message, item.basis))
    return items, result.explanation


def _health(
    data: Mapping[str, Any], on: date, context: StatutoryContext
) -> tuple[dict[str, Any], list[Item]]:
    items, explanation = _substitute_items(data, on, context)
    leave = maybe_date(pointers.get(data, "/laudo_medico/afastamento_ate"))
    alvara = maybe_date(pointers.get(data, "/alvara/valido_ate"))
    if leave is None or alvara is None:
        reason = "Informe o afastamento atestado no laudo médico e a validade do alvará."
        return licence_pending(reason, elegibilidade=explanation), items
    end = min(leave, alvara)
    if end < on:
        items.append(
            item_at(
                "/laudo_medico/afastamento_ate",
                Status.INVALID,
                f"O afastamento atestado no laudo médico ou o alvará terminam em "
                f"{format_date(end)}, antes da data de expedição ({format_date(on)}): não há "
                f"impossibilidade a suprir ({short(context.laws, HEALTH)}).",
                HEALTH,
            )
        )
    cause = (
        "o afastamento atestado no laudo médico"
        if leave <= alvara
        else "o vencimento do alvará do condutor licenciado"
    )
    values = {
        "inicio_vigencia": on,
        "valido_ate": end,
        "vigencia_explicacao": (
            f"Licença Temporária válida de {format_date(on)} a {format_date(end)}, "
            f"enquanto perdurar a impossibilidade do condutor licenciado comprovada por laudo "
            f"médico ({short(context.laws, HEALTH)}), limitada por {cause}."
        ),
        "elegibilidade": explanation,
        "pendente": None,
    }
    return values, items


def _vehicle(
    data: Mapping[str, Any], on: date, context: StatutoryContext
) -> tuple[dict[str, Any], list[Item]]:
    items: list[Item] = []
    items.extend(
        vehicle_age_items(
            data,
            "/veiculo_substituto",
            on,
            context,
            "transporte-escolar-substituto",
            f"{SCHOOL}#art5_inc2",
        )
    )
    occurred = moment(data, "/ocorrencia")
    planned = pointers.get(data, "/ocorrencia/programada") is True
    if occurred is not None:
        if planned:
            told = maybe_date(pointers.get(data, "/ocorrencia/contato_previo"))
            if told is not None:
                early = told < occurred.date()
                items.append(
                    item_at(
                        "/ocorrencia/contato_previo",
                        Status.MET if early else Status.INVALID,
                        (
                            f"SETRANSV contatada em {format_date(told)}, com antecedência da "
                            f"ocorrência programada de {format_date(occurred.date())}"
                            if early
                            else f"Ocorrência programada ({format_date(occurred.date())}): "
                    f"a SETRANSV "
                            f"devia ser contatada com antecedência, e o foi só em "
                            f"{format_date(told)}"
                        )
                        + f" ({short(context.laws, PLANNED)}).",
                        PLANNED,
                    )
                )
        else:
            appeared = moment(data, "/ocorrencia/comparecimento")
            if appeared is not None:
                items.extend(
                    _timely(UNPLANNED, occurred, appeared, "/ocorrencia/comparecimento", context)
                )
        presented = moment(data, "/veiculo_substituto/vistoria")
        if presented is not None:
            items.extend(
                _timely(PRESENTED, occurred, presented, "/veiculo_substituto/vistoria", context)
            )
        if occurred.date() > on:
            items.append(
                item_at(
                    "/ocorrencia/data",
                    Status.INVALID,
                    f"A ocorrência ({format_date(occurred.date())}) é posterior à data de "
                    f"expedição ({format_date(on)}).",
                    VEHICLE_LICENCE,
                )
            )
    previous_end = maybe_date(pointers.get(data, "/prorrogacao/valida_ate_anterior"))
    first_day = on if previous_end is None else previous_end + timedelta(days=1)
    try:
        # The table counts "excluído o dia do começo"; the licence is valid on its first
        # day, so the count starts from the day before it (see VEHICLE_LICENCE_DAYS).
        deadline = deadline_for(VEHICLE_LICENCE, first_day - timedelta(days=1),
                                context=context)
    except LavraError as error:
        message = f"Não foi possível calcular a validade da Licença Temporária: {error.message}"
        items.append(item_at("/data_expedicao", Status.MISSING, message, VEHICLE_LICENCE))
        return licence_pending(message), items
    days = deadline.period.amount if deadline.period is not None else None
    last_day = deadline.last_day
    explanation = (
        f"Validade máxima de {days} dias ({short(context.laws, VEHICLE_LICENCE)}), contados "
        f"os dias de calendário de {format_date(first_day)} a {format_date(last_day)}, "
        "incluídos o primeiro e o último."
    )
    items.extend(_days_items(first_day, last_day, days))
    if previous_end is not None:
        explanation = (
            f"Prorrogação, comprovada a necessidade, da licença anterior, válida até "
            f"{format_date(previous_end)}: {explanation}"
        )
        if previous_end < on - timedelta(days=1):
            items.append(
                item_at(
                    "/prorrogacao/valida_ate_anterior",
                    Status.INVALID,
                    f"A licença anterior venceu em {format_date(previous_end)}: só se prorroga "
                    f"licença em vigor ({short(context.laws, VEHICLE_LICENCE)}); expeça nova "
                    "licença.",
                    VEHICLE_LICENCE,
                )
            )
    values = {
        "inicio_vigencia": first_day,
        "valido_ate": last_day,
        "vigencia_explicacao": explanation,
        "prazo_dias": days,
        "pendente": None,
    }
    return values, items


def inclusive_days(first: date, last: date) -> int:
    """The days of a validity from ``first`` to ``last``, both counted."""
    return (last - first).days + 1


def _days_items(first: date, last: date, allowed: int | None) -> list[Item]:
    """VEHICLE_LICENCE_DAYS: art. 5º gives the licence "validade máxima de até 20
    (vinte) dias". Reading: the licence is valid from the day it is issued (the
    substitute vehicle carries the students that day), so that day is the first of the
    20; a licence "de 05/12 a 25/12" lasts 21 days and exceeds the law. Each validity
    (the licence, each prorrogação) is counted inclusively and refused beyond the
    maximum."""
    if allowed is None or inclusive_days(first, last) <= allowed:
        return []
    return [
        item_at(
            "/data_expedicao",
            Status.INVALID,
            f"A Licença Temporária de {format_date(first)} a {format_date(last)} teria "
            f"{inclusive_days(first, last)} dias de validade, contados o primeiro e o "
            f"último; o art. 5º admite no máximo {allowed} dias.",
            VEHICLE_LICENCE,
        )
    ]


def _within_the_alvara(
    request: ComputeInput,
    values: dict[str, Any],
    items: list[Item],
    context: StatutoryContext,
    basis: str,
) -> dict[str, Any]:
    """The licence rests on the alvará of the licensed driver and vehicle (arts. 4º and
    5º: the substitute drives "o mesmo veículo", the substitute vehicle replaces the
    licensed one): the alvará is checked in the registry and the licence ends no later
    than it; under art. 5º, no later than the substitute vehicle's tenth year either
    (art. 5º, II). ``items`` receives the registry's items; the values, capped."""
    data = data_of(request)
    found, checked = act_at(
        request.history, ALVARA_FORM, data, "/alvara", request.on,
        "Alvará para Transporte Escolar", (basis,), holder_at="/titular/cpf",
        laws=context.laws,
    )
    items.extend(checked)
    own = values.get("valido_ate")
    if not isinstance(own, date):
        return values
    limits = [Limit(own, f"o prazo próprio da licença ({short(context.laws, basis)})", (basis,))]
    alvara_end = (
        found.valid_until
        if found is not None and found.valid_until is not None
        else maybe_date(pointers.get(data, "/alvara/valido_ate"))
    )
    if alvara_end is not None:
        typed = clean_text(pointers.get(data, "/alvara/numero"))
        number = found.printed if found is not None else format_act_number(typed or "-")
        limits.append(
            Limit(alvara_end, f"o vencimento do alvará {number}, de que a licença depende")
        )
    if basis == VEHICLE_LICENCE:
        vehicle = vehicle_limit(
            data,
            "/veiculo_substituto",
            max(request.on, values.get("inicio_vigencia") or request.on),
            context,
            "transporte-escolar-substituto",
            what="do veículo substituto",
        )
        if vehicle is not None:
            limits.append(vehicle)
    chosen = earliest(limits)
    if chosen is limits[0]:
        return values
    return {
        **values,
        "valido_ate": chosen.end,
        "vigencia_explicacao": f"{values.get('vigencia_explicacao') or ''} "
        f"{validity_explanation(limits)}".strip(),
    }


def _timely(
    citation: str, start: datetime, done: datetime, field: str, context: StatutoryContext
) -> list[Item]:
    try:
        judged = check_timeliness(citation, start, done, context=context, field=field)
    except LavraError as error:
        return [item_at(field, Status.INVALID, error.message, citation)]
    return list(judged.items)


def licenca_temporaria_escolar(request: ComputeInput) -> Computed:
    """Validity and conditions of the Licença Temporária (arts. 4º and 5º).

    ``values``: ``modalidade``, ``modalidade_texto``, ``inicio_vigencia``,
    ``valido_ate``, ``vigencia_explicacao``, ``elegibilidade`` (the substitute
    driver's, for the art. 4º cases), ``pendente`` (None, or why nothing was computed).
    """
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    modality = clean_text(pointers.get(data, "/modalidade")) or ""
    base: dict[str, Any] = {
        "modalidade": modality,
        "modalidade_texto": _MODALITY_LABEL.get(modality),
    }
    if modality == "condutor_saude":
        values, items = _health(data, on, context)
    elif modality == "veiculo_substituto":
        values, items = _vehicle(data, on, context)
        items.extend(vistoria_substituto.licence_items(request.history, data, on, context))
        if isinstance(pointers.get(data, "/prorrogacao"), Mapping):
            items.extend(_extension_items(request, data, on))
    else:
        return Computed({**base, **licence_pending("Informe a modalidade da Licença Temporária.")})
    basis = VEHICLE_LICENCE if modality == "veiculo_substituto" else HEALTH
    if modality != "condutor_outros_motivos":
        values = _within_the_alvara(request, values, items, context, basis)
    items.extend(
        issue_items(
            on,
            request.issued_on,
            "/data_expedicao",
            "a Licença Temporária",
            basis,
        )
    )
    return Computed({**base, **values}, unique_items(items))


LICENCE_FORM = "licenca-temporaria-escolar"
EXTENDED = "/prorrogacao/licenca_anterior"


def _extension_items(request: ComputeInput, data: Mapping[str, Any], on: date) -> list[Item]:
    """A prorrogação (art. 5º, "prorrogável se comprovada a necessidade") extends a
    licence the registry holds: the licence for a substitute vehicle of the same licensed
    vehicle (checked by :func:`parent_act_items`) and holder, not cancelled, with the
    validity the data state, issued before this one; the new term of 20 days counts from
    the day after it ends (computed above), so the extension follows it and stays within
    the law's limit. A licence for the driver's health (art. 4º) is not extended by art. 5º.
    The registry is read as it stands: an earlier licence not in it (issued on paper) is
    a missing item, as for the alvará a licence rests on.
    """
    found, items = parent_act_items(
        request.history, LICENCE_FORM, pointers.get(data, EXTENDED),
        maybe_date(pointers.get(data, "/prorrogacao/valida_ate_anterior")), on,
        "Licença Temporária", (VEHICLE_LICENCE,), number_field=EXTENDED,
        until_field="/prorrogacao/valida_ate_anterior",
        plate=pointers.get(data, "/veiculo/placa"), in_force=False,
        laws=statutory_context(request).laws,
    )
    if found is None:
        return items
    label = f"A Licença Temporária nº {found.number}"
    if pointers.get(found.data, "/modalidade") != "veiculo_substituto":
        items.append(item_at(
            EXTENDED, Status.INVALID,
            f"{label} não é licença para veículo substituto: só esta se prorroga "
            f"({short(statutory_context(request).laws, VEHICLE_LICENCE)}).",
            VEHICLE_LICENCE))
    holder = clean_text(pointers.get(found.data, "/titular/cpf"))
    wanted = clean_text(pointers.get(data, "/titular/cpf"))
    if holder and wanted and _digits(holder) != _digits(wanted):
        items.append(item_at(
            EXTENDED, Status.INVALID,
            f"{label} é de outro titular (CPF {mask_cpf_cnpj(holder)}): só o titular a prorroga.",
            VEHICLE_LICENCE))
    if found.reference_date > on:
        items.append(item_at(
            EXTENDED, Status.INVALID,
            f"{label} é de {format_date(found.reference_date)}, posterior a esta expedição "
            f"({format_date(on)}): a prorrogação segue a licença que prorroga.",
            VEHICLE_LICENCE))
    return items


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


COMPUTATIONS: dict[str, Computation] = {
    "licenca_temporaria_escolar": licenca_temporaria_escolar,
}
"""The computation of this module a form may name under ``"calculos"``."""
