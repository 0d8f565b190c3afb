"""Computations of the other school-transport licences (Lei nº 4.515/2007).

Each is a :data:`lavra.checking.computations.Computation` named under ``"calculos"`` in a form's
``formulario.json`` and found through :func:`lavra.checking.computations.find_computation`.
Like every computation, they are pure functions of their :class:`ComputeInput`, run
only on data the schema accepted, and never raise for what the data or the pack lack:
a value they cannot compute becomes a *missing* or *invalid* report item.

``licenca_temporaria_escolar`` — the "Licença Temporária" (arts. 4º and 5º)
    ``/modalidade`` chooses the case:

    ``condutor_saude`` (art. 4º, caput): the licensed driver cannot work for health
        reasons proven by a laudo médico; the substitute driver must meet art. 7º
        except IV, VII and IX (:func:`lavra_americana.eligibility.candidate_eligibility` with the
        role ``substituto``, on the date of issue). The law sets no term: the licence
        lasts while the incapacity the laudo states (``/laudo_medico/afastamento_ate``)
        and never beyond the alvará it depends on (``/alvara/valido_ate``): the earlier
        of the two.
    ``condutor_outros_motivos`` (art. 4º, parágrafo único): the same requirements of
        the substitute (I); the fact communicated to SETRANSV "imediata[mente]" (II),
        read as: no later than the start of the substitution, since the substitute may
        not drive before SETRANSV knows; the substitution lasting at most 48 hours
        from its start (III, ``transporte-escolar#art4_par1u_inc3`` in the deadline
        table, not moved off weekends). The validity is that end.
    ``veiculo_substituto`` (art. 5º): validity of 20 days from the issue
        (``transporte-escolar#art5``); a prorrogação (``/prorrogacao``, "se
        comprovada a necessidade") counts another 20 days from the day the previous
        licence ended. Unplanned occurrence (I): the licensed driver appears at
        SETRANSV within 24 hours of it (``#art5_inc1``); planned occurrence (IV):
        SETRANSV is contacted before the day of the occurrence. The substitute vehicle
        (II): similar to the replaced one (declared by the vistoria), at most 10 years
        of manufacture on the date of issue (:func:`lavra_americana.eligibility.vehicle_age`,
        ``transporte-escolar-substituto``) and presented for vistoria within 24 hours
        of the occurrence (``#art5_inc2``). Times are given as a date and an
        ``HH:MM`` hour in separate fields, so examples move whole when their dates are
        shifted. The driver of the substitute vehicle, when not the licensed one,
        holds a CNH "D" and the course (III): the schema says so.

``licenca_especial_escolar`` — the "Licença Especial" (art. 20)
    Every student listed resides in the municipality of origin (§ 2º) and attends a
    school in this Município (caput). The law sets no term: the licence rests on the
    alvará of the municipality of origin (caput, § 1º, I) and on the state
    authorisation for intermunicipal transport (§ 1º, IV; Lei estadual nº
    11.258/2002), and lasts while both are in force: to the earlier of their
    validity dates. Both must be in force on the date of issue. The vehicle's age
    (art. 17, I), as the "conformidade com esta lei" of § 1º, V, is checked on the
    date of issue.

``autorizacao_publicidade_escolar`` — the advertising licence of art. 17, §§ 2º and 3º
    The licence is accessory to the alvará of the vehicle: it lasts to the alvará's
    vencimento (``/alvara/valido_ate``), which must not have passed on the date of
    issue; the requerimento (§ 3º) precedes the issue.

``requerimento_troca_veiculo_escolar`` — the requerimento of art. 17, § 1º
    The new vehicle meets art. 17, I (age on the date of the requerimento) and is not
    the vehicle replaced (a different plate).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from lavra.checking.computations import Computed, ComputeInput, clean_text, item_at, unique_items
from lavra.checking.report import Item, Status
from lavra.checking.timeliness import check_timeliness
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.model import resolve
from lavra.law.statutory import StatutoryContext, deadline_for, load_statutory_context
from lavra.textutil import format_date
from lavra_americana.eligibility import (
    Candidate,
    TrafficInfraction,
    VehicleLaw,
    candidate_eligibility,
    vehicle_age,
)

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "autorizacao_publicidade_escolar",
    "clear_caches",
    "licenca_especial_escolar",
    "licenca_temporaria_escolar",
    "requerimento_troca_veiculo_escolar",
]

SCHOOL = "transporte-escolar"
HEALTH = f"{SCHOOL}#art4"
OTHER_REASONS = f"{SCHOOL}#art4_par1u"
SUBSTITUTE_REQUIREMENTS = f"{SCHOOL}#art4_par1u_inc1"
COMMUNICATION = f"{SCHOOL}#art4_par1u_inc2"
MAX_48_HOURS = f"{SCHOOL}#art4_par1u_inc3"
VEHICLE_LICENCE = f"{SCHOOL}#art5"
UNPLANNED = f"{SCHOOL}#art5_inc1"
PRESENTED = f"{SCHOOL}#art5_inc2"
PLANNED = f"{SCHOOL}#art5_inc4"
VEHICLE_AGE = f"{SCHOOL}#art17_inc1"
EXCHANGE = f"{SCHOOL}#art17_par1"
ADVERTISING = f"{SCHOOL}#art17_par2"
ADVERTISING_REQUEST = f"{SCHOOL}#art17_par3"
SPECIAL = f"{SCHOOL}#art20"
SPECIAL_ORIGIN_ALVARA = f"{SCHOOL}#art20_par1_inc1"
SPECIAL_STATE_AUTHORISATION = f"{SCHOOL}#art20_par1_inc4"
SPECIAL_CONFORMITY = f"{SCHOOL}#art20_par1_inc5"
SPECIAL_ORIGIN_STUDENTS = f"{SCHOOL}#art20_par2"

IMPLEMENTED: tuple[str, ...] = (
    HEALTH,
    SUBSTITUTE_REQUIREMENTS,
    COMMUNICATION,
    MAX_48_HOURS,
    VEHICLE_LICENCE,
    UNPLANNED,
    PRESENTED,
    PLANNED,
    ADVERTISING,
    SPECIAL,
    SPECIAL_ORIGIN_STUDENTS,
)
"""Citations these computations apply (coverage): the Licença Temporária's cases and
terms (arts. 4º and 5º), the advertising licence's dependence on the alvará (art. 17,
§ 2º) and the Licença Especial's scope and term (art. 20 and § 2º)."""

MUNICIPALITY_NAMES = ("americana",)
"""How the licensing municipality is written in the data (the schemas accept these)."""

_MODALITY_LABEL = {
    "condutor_saude": "condutor substituto, por motivo de saúde do condutor licenciado",
    "condutor_outros_motivos": "condutor substituto, por motivo adverso que não a saúde",
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
# Items the licence cannot feed: they concern the grant of a licence of one's own,
# which the substitute does not receive (not applicable to the role anyway).
_LEFT_OUT = frozenset({"/licencas_ativas", "/transferencia_licenca_em", "/cassacao_licenca_em"})


# ---------------------------------------------------------------- cached sources


@lru_cache(maxsize=8)
def _context(root: Path) -> StatutoryContext:
    return load_statutory_context(root)


def clear_caches() -> None:
    """Forget the laws, parameters, calendars and deadline tables loaded so far."""
    _context.cache_clear()


def _load(pack_dir: Path) -> StatutoryContext:
    return _context(Path(pack_dir).resolve())


# ---------------------------------------------------------------- helpers


def _data(request: ComputeInput) -> Mapping[str, Any]:
    return request.data if isinstance(request.data, Mapping) else {}


def _get(data: Mapping[str, Any], pointer: str) -> Any:
    return pointers.get(data, pointer)


def _moment(data: Mapping[str, Any], pointer: str) -> datetime | None:
    """The moment at ``pointer`` (an object with ``data`` and ``hora`` HH:MM)."""
    day = maybe_date(_get(data, pointer + "/data"))
    hour = clean_text(_get(data, pointer + "/hora"))
    if day is None or hour is None:
        return None
    try:
        return datetime.combine(day, time.fromisoformat(hour))
    except ValueError:
        return None


def _short(context: StatutoryContext, citation: str) -> str:
    return resolve(context.laws, citation).short


def _vehicle_age_items(
    data: Mapping[str, Any],
    pointer: str,
    on: date,
    context: StatutoryContext,
    law: VehicleLaw,
    *basis: str,
) -> list[Item]:
    year = _get(data, pointer + "/ano_fabricacao")
    if isinstance(year, bool) or not isinstance(year, int):
        return []
    field = pointer + "/ano_fabricacao"
    try:
        found = vehicle_age(
            year,
            on,
            law=law,
            params=context.parameters,
            laws=context.laws,
            plate=clean_text(_get(data, pointer + "/placa")),
            field=field,
            basis=basis or None,
        )
    except LavraError as error:
        return [item_at(field, Status.INVALID, error.message, *(basis or (VEHICLE_AGE,)))]
    return list(found.items)


def _issue_items(on: date, issued_on: date, field: str, what: str, basis: str) -> list[Item]:
    if on <= issued_on:
        return []
    return [
        item_at(
            field,
            Status.INVALID,
            f"A data de expedição ({format_date(on)}) é posterior à data de emissão "
            f"({format_date(issued_on)}): {what} não pode ser pós-datada.",
            basis,
        )
    ]


def _pending(reason: str, **extra: Any) -> dict[str, Any]:
    return {"valido_ate": None, "vigencia_explicacao": None, "pendente": reason, **extra}


# ---------------------------------------------------------------- Licença Temporária


def _substitute(data: Mapping[str, Any]) -> Candidate:
    infractions: tuple[TrafficInfraction, ...] | None = None
    if _get(data, "/documentos_substituto/prontuario_cnh/apresentado") is True:
        found = []
        listed = _get(data, "/condutor_substituto/infracoes")
        for entry in listed if isinstance(listed, list) else []:
            day = maybe_date(entry.get("data")) if isinstance(entry, Mapping) else None
            if day is not None:
                found.append(
                    TrafficInfraction(day, entry["gravidade"], clean_text(entry.get("descricao")))
                )
        infractions = tuple(found)

    def presented(name: str) -> bool | None:
        return True if _get(data, f"/documentos_substituto/{name}/apresentado") is True else None

    return Candidate(
        name=clean_text(_get(data, "/condutor_substituto/nome")) or "O condutor substituto",
        birth_date=maybe_date(_get(data, "/condutor_substituto/data_nascimento")),
        cnh_category=clean_text(_get(data, "/condutor_substituto/cnh/categoria")),
        resident_since=maybe_date(_get(data, "/condutor_substituto/residente_desde")),
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
        if item.field in _LEFT_OUT:
            continue
        field = _SUBSTITUTE_FIELDS.get(item.field, "/condutor_substituto" + item.field)
        items.append(Item(pointers.dotted(field), item.status, field, item.message, item.basis))
    return items, result.explanation


def _health(
    data: Mapping[str, Any], on: date, context: StatutoryContext
) -> tuple[dict[str, Any], list[Item]]:
    items, explanation = _substitute_items(data, on, context)
    leave = maybe_date(_get(data, "/laudo_medico/afastamento_ate"))
    alvara = maybe_date(_get(data, "/alvara/valido_ate"))
    if leave is None or alvara is None:
        reason = "Informe o afastamento atestado no laudo médico e a validade do alvará."
        return _pending(reason, elegibilidade=explanation), items
    end = min(leave, alvara)
    if end < on:
        items.append(
            item_at(
                "/laudo_medico/afastamento_ate",
                Status.INVALID,
                f"O afastamento atestado no laudo médico ou o alvará terminam em "
                f"{format_date(end)}, antes da data de expedição ({format_date(on)}): não há "
                f"impossibilidade a suprir ({_short(context, HEALTH)}).",
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
            f"médico ({_short(context, HEALTH)}), limitada por {cause}."
        ),
        "elegibilidade": explanation,
        "pendente": None,
    }
    return values, items


def _other_reasons(
    data: Mapping[str, Any], on: date, context: StatutoryContext
) -> tuple[dict[str, Any], list[Item]]:
    items, explanation = _substitute_items(data, on, context)
    start = _moment(data, "/substituicao/inicio")
    told = _moment(data, "/substituicao/comunicacao")
    if start is None or told is None:
        reason = "Informe o início da substituição e a comunicação à SETRANSV (data e hora)."
        return _pending(reason, elegibilidade=explanation), items
    if told > start:
        items.append(
            item_at(
                "/substituicao/comunicacao",
                Status.INVALID,
                f"A SETRANSV foi comunicada em {format_date(told)}, às {told:%Hh%M}, depois do "
                f"início da substituição ({format_date(start)}, às {start:%Hh%M}): a comunicação "
                f"deve ser imediata ({_short(context, COMMUNICATION)}), antes de o condutor "
                "substituto assumir o serviço.",
                COMMUNICATION,
            )
        )
    else:
        items.append(
            item_at(
                "/substituicao/comunicacao",
                Status.MET,
                f"Comunicação à SETRANSV em {format_date(told)}, às {told:%Hh%M}, até o início da "
                f"substituição ({_short(context, COMMUNICATION)}).",
                COMMUNICATION,
            )
        )
    try:
        limit = deadline_for(MAX_48_HOURS, start, context=context)
    except LavraError as error:
        message = f"Não foi possível calcular o limite da substituição: {error.message}"
        items.append(item_at("/substituicao/inicio", Status.MISSING, message, MAX_48_HOURS))
        return _pending(message, elegibilidade=explanation), items
    end = limit.end
    planned_end = _moment(data, "/substituicao/fim")
    if planned_end is not None and end is not None:
        planned = planned_end.replace(tzinfo=end.tzinfo)
        if planned > end or planned_end < start:
            items.append(
                item_at(
                    "/substituicao/fim",
                    Status.INVALID,
                    f"O término previsto ({format_date(planned_end)}, às {planned_end:%Hh%M}) "
                    f"deve estar entre o início da substituição e o limite legal: "
                    f"{limit.explanation}",
                    MAX_48_HOURS,
                )
            )
    values = {
        "inicio_vigencia": start.date(),
        "inicio": start,
        "fim": end,
        "valido_ate": limit.last_day,
        "vigencia_explicacao": limit.explanation,
        "elegibilidade": explanation,
        "pendente": None,
    }
    if on > limit.last_day:
        items.append(
            item_at(
                "/data_expedicao",
                Status.INVALID,
                f"A substituição de até 48 horas terminou em {format_date(limit.last_day)}, "
                f"antes da data de expedição ({format_date(on)}) "
                f"({_short(context, MAX_48_HOURS)}).",
                MAX_48_HOURS,
            )
        )
    return values, items


def _vehicle(
    data: Mapping[str, Any], on: date, context: StatutoryContext
) -> tuple[dict[str, Any], list[Item]]:
    items: list[Item] = []
    items.extend(
        _vehicle_age_items(
            data,
            "/veiculo_substituto",
            on,
            context,
            "transporte-escolar-substituto",
            f"{SCHOOL}#art5_inc2",
        )
    )
    occurred = _moment(data, "/ocorrencia")
    planned = _get(data, "/ocorrencia/programada") is True
    if occurred is not None:
        if planned:
            told = maybe_date(_get(data, "/ocorrencia/contato_previo"))
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
                        + f" ({_short(context, PLANNED)}).",
                        PLANNED,
                    )
                )
        else:
            appeared = _moment(data, "/ocorrencia/comparecimento")
            if appeared is not None:
                items.extend(
                    _timely(UNPLANNED, occurred, appeared, "/ocorrencia/comparecimento", context)
                )
        presented = _moment(data, "/veiculo_substituto/vistoria")
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
    previous_end = maybe_date(_get(data, "/prorrogacao/valida_ate_anterior"))
    start = on if previous_end is None else previous_end
    try:
        deadline = deadline_for(VEHICLE_LICENCE, start, context=context)
    except LavraError as error:
        message = f"Não foi possível calcular a validade da Licença Temporária: {error.message}"
        items.append(item_at("/data_expedicao", Status.MISSING, message, VEHICLE_LICENCE))
        return _pending(message), items
    explanation = deadline.explanation
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
                    f"licença em vigor ({_short(context, VEHICLE_LICENCE)}); expeça nova licença.",
                    VEHICLE_LICENCE,
                )
            )
    values = {
        "inicio_vigencia": on if previous_end is None else previous_end + timedelta(days=1),
        "valido_ate": deadline.last_day,
        "vigencia_explicacao": explanation,
        "prazo_dias": deadline.period.amount if deadline.period is not None else None,
        "pendente": None,
    }
    return values, items


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
    data = _data(request)
    on = request.on
    context = _load(request.pack_dir)
    modality = clean_text(_get(data, "/modalidade")) or ""
    base: dict[str, Any] = {
        "modalidade": modality,
        "modalidade_texto": _MODALITY_LABEL.get(modality),
    }
    if modality == "condutor_saude":
        values, items = _health(data, on, context)
    elif modality == "condutor_outros_motivos":
        values, items = _other_reasons(data, on, context)
    elif modality == "veiculo_substituto":
        values, items = _vehicle(data, on, context)
    else:
        return Computed({**base, **_pending("Informe a modalidade da Licença Temporária.")})
    items.extend(
        _issue_items(
            on,
            request.issued_on,
            "/data_expedicao",
            "a Licença Temporária",
            VEHICLE_LICENCE if modality == "veiculo_substituto" else HEALTH,
        )
    )
    return Computed({**base, **values}, unique_items(items))


# ---------------------------------------------------------------- Licença Especial


def licenca_especial_escolar(request: ComputeInput) -> Computed:
    """Scope (art. 20, caput and § 2º) and term of the Licença Especial.

    ``values``: ``valido_ate``, ``vigencia_explicacao``, ``estudantes`` (count),
    ``municipio_origem``, ``pendente``.
    """
    data = _data(request)
    on = request.on
    context = _load(request.pack_dir)
    items: list[Item] = list(
        _vehicle_age_items(
            data, "/veiculo", on, context, "transporte-escolar", VEHICLE_AGE, SPECIAL_CONFORMITY
        )
    )
    origin = clean_text(_get(data, "/municipio_origem/nome"))
    students = _get(data, "/estudantes")
    students = students if isinstance(students, list) else []
    for index, student in enumerate(students):
        if not isinstance(student, Mapping):
            continue
        town = clean_text(student.get("municipio_residencia"))
        if origin is not None and town is not None and town.casefold() != origin.casefold():
            items.append(
                item_at(
                    f"/estudantes/{index}/municipio_residencia",
                    Status.INVALID,
                    f"{student.get('nome')}: reside em {town}, não no Município de origem "
                    f"({origin}); o condutor de outra cidade transporta exclusivamente alunos "
                    f"da sua cidade de origem ({_short(context, SPECIAL_ORIGIN_STUDENTS)}).",
                    SPECIAL_ORIGIN_STUDENTS,
                )
            )
        school_town = clean_text(_get(student, "/escola/municipio"))
        if school_town is not None and school_town.casefold() not in MUNICIPALITY_NAMES:
            items.append(
                item_at(
                    f"/estudantes/{index}/escola/municipio",
                    Status.INVALID,
                    f"{student.get('nome')}: a escola fica em {school_town}; a Licença Especial "
                    f"é para estudantes que frequentem escolas situadas neste Município "
                    f"({_short(context, SPECIAL)}).",
                    SPECIAL,
                )
            )
    items.extend(
        _issue_items(on, request.issued_on, "/data_expedicao", "a Licença Especial", SPECIAL)
    )
    alvara = maybe_date(_get(data, "/documentos/alvara_origem/validade"))
    state = maybe_date(_get(data, "/documentos/autorizacao_intermunicipal/validade"))
    base = {"estudantes": len(students), "municipio_origem": origin}
    if alvara is None or state is None:
        reason = (
            "Informe a validade do alvará do Município de origem e a da autorização "
            "para o transporte intermunicipal."
        )
        return Computed({**base, **_pending(reason)}, unique_items(items))
    end = min(alvara, state)
    cause = (
        "o alvará do Município de origem"
        if alvara <= state
        else "a autorização para o transporte intermunicipal"
    )
    values = {
        **base,
        "inicio_vigencia": on,
        "valido_ate": end,
        "vigencia_explicacao": (
            f"Licença Especial válida de {format_date(on)} a {format_date(end)}: vale "
            f"enquanto vigorarem o alvará do Município de origem e a autorização para o "
            f"transporte intermunicipal de que depende ({_short(context, SPECIAL)}, § 1º, "
            f"I e IV), e vence com {cause}."
        ),
        "pendente": None,
    }
    return Computed(values, unique_items(items))


# ---------------------------------------------------------------- publicidade


def autorizacao_publicidade_escolar(request: ComputeInput) -> Computed:
    """Term of the advertising licence (art. 17, § 2º): the alvará's vencimento.

    ``values``: ``inicio_vigencia``, ``valido_ate``, ``vigencia_explicacao``,
    ``pendente``.
    """
    data = _data(request)
    on = request.on
    context = _load(request.pack_dir)
    items = _issue_items(on, request.issued_on, "/data_expedicao", "a autorização", ADVERTISING)
    filed = maybe_date(_get(data, "/requerimento/data"))
    if filed is not None and filed > on:
        items.append(
            item_at(
                "/requerimento/data",
                Status.INVALID,
                f"O requerimento ({format_date(filed)}) é posterior à data de expedição "
                f"({format_date(on)}): a autorização é expedida a requerimento "
                f"({_short(context, ADVERTISING_REQUEST)}).",
                ADVERTISING_REQUEST,
            )
        )
    end = maybe_date(_get(data, "/alvara/valido_ate"))
    if end is None:
        return Computed(_pending("Informe a validade do alvará do veículo."), unique_items(items))
    if end < on:
        items.append(
            item_at(
                "/alvara/valido_ate",
                Status.INVALID,
                f"O alvará do veículo venceu em {format_date(end)}: a publicidade só se autoriza "
                f"em veículo licenciado ({_short(context, ADVERTISING)}).",
                ADVERTISING,
            )
        )
    else:
        items.append(
            item_at(
                "/alvara/valido_ate",
                Status.MET,
                f"Alvará do veículo em vigor até {format_date(end)} "
                f"({_short(context, ADVERTISING)}).",
                ADVERTISING,
            )
        )
    values = {
        "inicio_vigencia": on,
        "valido_ate": end,
        "vigencia_explicacao": (
            f"Autorização válida de {format_date(on)} a {format_date(end)}, data de "
            f"vencimento do alvará do veículo licenciado, de que é acessória "
            f"({_short(context, ADVERTISING)}); renovado o alvará, a publicidade depende de "
            "nova autorização."
        ),
        "pendente": None,
    }
    return Computed(values, unique_items(items))


# ---------------------------------------------------------------- troca de veículo


def requerimento_troca_veiculo_escolar(request: ComputeInput) -> Computed:
    """The new vehicle (art. 17, I, with § 1º) on the date of the requerimento.

    ``values``: ``idade_veiculo_novo`` (the explanation of the age check).
    """
    data = _data(request)
    context = _load(request.pack_dir)
    items = _vehicle_age_items(
        data, "/veiculo_novo", request.on, context, "transporte-escolar", VEHICLE_AGE, EXCHANGE
    )
    old = clean_text(_get(data, "/veiculo_substituido/placa"))
    new = clean_text(_get(data, "/veiculo_novo/placa"))
    if old is not None and new is not None:
        same = old.replace("-", "").upper() == new.replace("-", "").upper()
        items.append(
            item_at(
                "/veiculo_novo/placa",
                Status.INVALID if same else Status.MET,
                (
                    "O veículo novo tem a mesma placa do substituído: informe o veículo que o "
                    "substitui"
                    if same
                    else "Veículo novo distinto do substituído"
                )
                + f" ({_short(context, EXCHANGE)}).",
                EXCHANGE,
            )
        )
    values = {"idade_veiculo_novo": items[0].message if items else None}
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Callable[[ComputeInput], Computed]] = {
    "licenca_temporaria_escolar": licenca_temporaria_escolar,
    "licenca_especial_escolar": licenca_especial_escolar,
    "autorizacao_publicidade_escolar": autorizacao_publicidade_escolar,
    "requerimento_troca_veiculo_escolar": requerimento_troca_veiculo_escolar,
}
"""The computations of this module a form may name under ``"calculos"``."""
