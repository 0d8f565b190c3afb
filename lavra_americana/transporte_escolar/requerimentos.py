"""The requerimentos of Lei nº 4.515/2007 (transporte escolar): inscrição (art. 7º) and
renewal (art. 13, § 5º).

Each is a :data:`lavra.checking.computations.Computation` named under ``"calculos"`` in a form's
``formulario.json`` and found through :func:`lavra.checking.computations.find_computation`::

    COMPUTATIONS["requerimento_inscricao_escolar"](ComputeInput(...)).items

Like every computation, they are pure functions of their :class:`ComputeInput` and
never raise for what the data or the pack lack: a value they cannot compute becomes a
*missing* (or *invalid*) report item that blocks issuance, and the values say it is
pending. They run only on data the schema accepted.

``requerimento_inscricao_escolar`` — the requerimento padrão of art. 7º
    The rules of art. 7º that a schema cannot say, on the date of the requerimento (the
    form's reference date): more than 21 years of age (I), residence in the Município for
    3 years (III), the vehicle's age (IV with art. 17, I) and the infractions of the last
    12 months (VIII). They are decided by
    :func:`lavra_americana.transporte_escolar.eligibility.candidate_eligibility` (see its
    module for each counting decision), fed from the form: a document of art. 7º presented
    is the proof of its inciso; the infractions listed are those of the certidão de
    prontuário, and an empty list with the certidão presented is a clean record. The
    condutor auxiliar (art. 9º, § 1º) is exempt from incisos IV and VII: those items are
    *not applicable*. Each item is reported at the form's own field (``/candidato/...``,
    ``/veiculo/...``, ``/documentos/...``). Two items of that function are left out here:
    one licence per transporter (art. 14) and the bar after a transfer (art. 15, § 2º)
    concern the *grant* of the licence and the registry's knowledge of the licences a
    person holds, not what the applicant proves at registration; the form has nothing to
    feed them with, and reporting them as met would assert what was not checked.

``requerimento_renovacao_escolar`` — the renewal requerimento of art. 13, § 5º
    Filed "com até 30 dias de antecedência, contados retroativamente da data do seu
    vencimento": :func:`lavra.checking.timeliness.check_timeliness` with the rule
    ``transporte-escolar#art13_par5`` from the vencimento of the alvará being renewed
    (``/alvara_anterior/valido_ate``) to the date of the requerimento (the form's
    reference date); the item, at ``/data_requerimento``, is *invalid* when the
    request is premature or late. The vehicle's age (art. 17, I) on the date of the
    requerimento, and the renewal fee of art. 16, II (informative: the applicant
    attaches its receipt, inciso IX), are computed too.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
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
from lavra.inputs.reading import maybe_date
from lavra_americana.comum.computing import MUNICIPALITY_NAMES, vehicle_age_items
from lavra_americana.comum.sources import rule_sources
from lavra_americana.transporte_escolar.alvara import (
    RENEWAL_FEE,
    RENEWAL_WINDOW,
    fee_values,
    with_consequence,
)
from lavra_americana.transporte_escolar.candidate import Candidate, Role, TrafficInfraction, Vehicle
from lavra_americana.transporte_escolar.eligibility import REGISTRY_ONLY, candidate_eligibility
from lavra_americana.transporte_escolar.renovacao_requisitos import (
    request_items as renewal_request_items,
)
from lavra_americana.transporte_escolar.renovacao_requisitos import (
    state_items as renewal_state_items,
)

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "requerimento_inscricao_escolar",
    "requerimento_renovacao_escolar",
]

SCHOOL = "transporte-escolar"


# Where the eligibility rules' fields live in the requerimento de inscrição.
_INSCRIPTION_FIELDS: Mapping[str, str] = {
    "/data_nascimento": "/candidato/data_nascimento",
    "/cnh_categoria": "/candidato/cnh/categoria",
    "/residente_desde": "/candidato/residente_desde",
    "/veiculo": "/veiculo",
    "/veiculo/ano_fabricacao": "/veiculo/ano_fabricacao",
    "/veiculo/licenciado_no_municipio": "/veiculo/municipio_licenciamento",
    "/veiculo/seguro_vigente": "/veiculo/seguro",
    "/veiculo/pneus_regulares": "/veiculo/pneus_regulares",
    "/veiculo/laudo_vistoria_ciretran": "/documentos/laudo_vistoria_ciretran",
    "/sem_antecedentes_criminais": "/documentos/antecedentes_criminais",
    "/curso_condutor_escolar": "/documentos/curso_condutor_escolar",
    "/infracoes": "/infracoes",
    "/exigencias_edital": "/edital",
}


_ROLE_LABEL = {"titular": "condutor titular", "auxiliar": "condutor auxiliar"}

IMPLEMENTED: tuple[str, ...] = (
    f"{SCHOOL}#art7_inc1",
    f"{SCHOOL}#art7_inc3",
    f"{SCHOOL}#art7_inc4",
    f"{SCHOOL}#art7_inc8",
    f"{SCHOOL}#art13_par5",
    f"{SCHOOL}#art16_inc2",
)
"""Citations these computations apply (coverage): for the inscrição, by the rules of
:mod:`lavra_americana.transporte_escolar.eligibility`, age, residence, vehicle and
infractions; for the renewal, its window (art. 13, § 5º) and fee (art. 16, II)."""


def _presented(data: Mapping[str, Any], pointer: str) -> bool | None:
    """A document of the form presented: True, else None (not proven)."""
    return True if pointers.get(data, pointer + "/apresentado") is True else None


def _inscription_candidate(data: Mapping[str, Any], on: date, role: Role) -> Candidate:
    infractions: tuple[TrafficInfraction, ...] | None = None
    if _presented(data, "/documentos/prontuario_cnh"):
        found = []
        listed = pointers.get(data, "/infracoes")
        for entry in listed if isinstance(listed, list) else []:
            day = maybe_date(entry.get("data")) if isinstance(entry, Mapping) else None
            if day is not None:
                gravity, text = entry["gravidade"], clean_text(entry.get("descricao"))
                found.append(TrafficInfraction(day, gravity, text))
        infractions = tuple(found)
    vehicle: Vehicle | None = None
    car = pointers.get(data, "/veiculo")
    if role == "titular" and isinstance(car, Mapping):
        town = clean_text(car.get("municipio_licenciamento"))
        expiry = maybe_date(pointers.get(data, "/veiculo/seguro/validade"))
        year = car.get("ano_fabricacao")
        vehicle = Vehicle(
            year_of_manufacture=year
            if isinstance(year, int) and not isinstance(year, bool)
            else None,
            plate=clean_text(car.get("placa")),
            licensed_in_municipality=None
            if town is None
            else town.casefold() in MUNICIPALITY_NAMES,
            inspection_report=_presented(data, "/documentos/laudo_vistoria_ciretran"),
            insured=None if expiry is None else expiry >= on,
            tyres_compliant=True if car.get("pneus_regulares") is True else None,
        )
    cnh = clean_text(pointers.get(data, "/candidato/cnh/categoria"))
    return Candidate(
        name=clean_text(pointers.get(data, "/candidato/nome")) or "O candidato",
        birth_date=maybe_date(pointers.get(data, "/candidato/data_nascimento")),
        cnh_category=cnh,
        resident_since=maybe_date(pointers.get(data, "/candidato/residente_desde")),
        no_criminal_record=_presented(data, "/documentos/antecedentes_criminais"),
        course_completed=_presented(data, "/documentos/curso_condutor_escolar"),
        infractions=infractions,
        vehicle=vehicle,
        edital_requirements_met=True
        if pointers.get(data, "/edital/exigencias_atendidas") is True
        else None,
    )


def _at_form_field(item: Item) -> Item | None:
    """The eligibility item moved to the form's field (None: left out)."""
    if item.field in REGISTRY_ONLY:
        return None
    field = _INSCRIPTION_FIELDS.get(item.field, item.field)
    return Item(pointers.dotted(field), item.status, field, item.message, item.basis)


def requerimento_inscricao_escolar(request: ComputeInput) -> Computed:
    """Art. 7º on the date of the requerimento (module docstring).

    ``values``: ``funcao`` (``titular``/``auxiliar``), ``funcao_texto``, ``elegivel``,
    ``explicacao`` (the pt-BR explanation of :func:`candidate_eligibility`).
    """
    data = request.data if isinstance(request.data, Mapping) else {}
    on = request.on
    role_value = pointers.get(data, "/funcao")
    role: Role = "auxiliar" if role_value == "auxiliar" else "titular"
    values: dict[str, Any] = {
        "funcao": role,
        "funcao_texto": _ROLE_LABEL[role],
        "elegivel": False,
        "explicacao": None,
    }
    context, _ = rule_sources(request, False)
    try:
        candidate = _inscription_candidate(data, on, role)
        result = candidate_eligibility(
            candidate, on, role, params=context.parameters, laws=context.laws
        )
    except LavraError as error:
        message = f"Não foi possível verificar os requisitos do art. 7º: {error.message}"
        values["explicacao"] = message
        field = error.field or "/candidato"
        return Computed(values, (item_at(field, Status.INVALID, message, f"{SCHOOL}#art7"),))
    moved = [found for item in result.items if (found := _at_form_field(item)) is not None]
    values["elegivel"] = not any(item.pending for item in moved)
    values["explicacao"] = result.explanation
    return Computed(values, tuple(moved))


def requerimento_renovacao_escolar(request: ComputeInput) -> Computed:
    """Timeliness of the renewal request (art. 13, § 5º), vehicle age, renewal fee.

    ``values``: ``vencimento``, ``prazo`` (``abre_em``, ``ultimo_dia``,
    ``explicacao``), ``tempestivo``, ``resultado`` (``atende``/``nao_atende``/
    ``prematuro``), ``explicacao``, ``taxa`` (as in the alvará).
    """
    data = request.data if isinstance(request.data, Mapping) else {}
    on = request.on
    context, sources = rule_sources(request, False)
    items: list[Item] = list(vehicle_age_items(data, "/veiculo", on, context, "transporte-escolar"))
    items.extend(renewal_request_items(data))  # what the renewed alvará prints from it
    items.extend(renewal_state_items(data, request.history))  # and the state lacks
    fee, _ = fee_values(RENEWAL_FEE, on, sources, "/documentos/comprovante_taxa_renovacao")
    values: dict[str, Any] = {
        "vencimento": None,
        "prazo": None,
        "tempestivo": None,
        "resultado": None,
        "explicacao": None,
        "taxa": fee,
    }
    expiry = maybe_date(pointers.get(data, "/alvara_anterior/valido_ate"))
    if expiry is None:
        return Computed(values, tuple(items))
    try:
        judged = check_timeliness(
            RENEWAL_WINDOW, expiry, on, context=context, field="/data_requerimento"
        )
    except LavraError as error:
        items.append(item_at("/data_requerimento", Status.INVALID, error.message, RENEWAL_WINDOW))
        values["explicacao"] = error.message
        return Computed(values, tuple(items))
    deadline = judged.deadline
    values.update(
        {
            "vencimento": expiry,
            "prazo": {
                "abre_em": deadline.first_day,
                "ultimo_dia": deadline.last_day,
                "explicacao": deadline.explanation,
            },
            "tempestivo": judged.timely,
            "resultado": judged.outcome,
            "explicacao": judged.explanation,
        }
    )
    items.extend(with_consequence(judged, context))
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "requerimento_inscricao_escolar": requerimento_inscricao_escolar,
    "requerimento_renovacao_escolar": requerimento_renovacao_escolar,
}
"""The computations of this module a form may name under ``"calculos"``."""
