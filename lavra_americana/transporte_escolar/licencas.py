"""The other licences of Lei nº 4.515/2007 (transporte escolar): the Licença Especial
(art. 20), the advertising licence (art. 17, §§ 2º and 3º) and the exchange of vehicle
(art. 17, § 1º).

Each is a :data:`lavra.checking.computations.Computation` named under ``"calculos"`` in a form's
``formulario.json`` and found through :func:`lavra.checking.computations.find_computation`.
Like every computation, they are pure functions of their :class:`ComputeInput`, run
only on data the schema accepted, and never raise for what the data or the pack lack:
a value they cannot compute becomes a *missing* or *invalid* report item.

``licenca_especial_escolar`` — the "Licença Especial" (art. 20)
    Every student listed resides in the municipality of origin (§ 2º) and attends a
    school in this Município (caput). The law sets no term: the licence rests on the
    alvará of the municipality of origin (caput, § 1º, I) and on the state
    authorisation for intermunicipal transport (§ 1º, IV; Lei estadual nº
    11.258/2002), and lasts while both are in force: to the earlier of their
    validity dates. Both must be in force on the date of issue. The vehicle's age
    (art. 17, I), as the "conformidade com esta lei" of § 1º, V, is checked on the
    date of issue. The licence follows its requerimento (§ 1º): the process's
    ``data_requerimento`` may not be after the date of issue.

``requerimento_licenca_especial_intermunicipal`` — the requerimento of art. 20, § 1º
    "deverão inscrever-se através de requerimento protocolizado na Prefeitura Municipal,
    apresentando, no ato da inscrição" the five documents of § 1º, and (§ 2º) the
    passenger list and the contracts (art. 1º, § 3º) endorsed by the body of the
    municipality of origin that issues this kind of licence: the fillable form lists
    the seven from its first screen. The same scope checks as the licence (students of
    the municipality of origin, schools here; the vehicle's age), on the date of the
    requerimento, so that a licence prepared from it meets no surprise; two Sim/Não
    declarations (only students of the origin, § 2º; the state law, caput) keep it
    incomplete when answered "Não". The data have the licence's shape.

``autorizacao_publicidade_escolar`` — the advertising licence of art. 17, §§ 2º and 3º
    The licence is accessory to the alvará of the vehicle: it lasts to the alvará's
    vencimento (``/alvara/valido_ate``), which must not have passed on the date of
    issue; the requerimento (§ 3º) precedes the issue.

``requerimento_troca_veiculo_escolar`` — the requerimento of art. 17, § 1º
    The new vehicle meets art. 17, I (age on the date of the requerimento) and is not
    the vehicle replaced (a different plate).
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
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import StatutoryContext
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import (
    MUNICIPALITY_NAMES,
    after_issue,
    data_of,
    issue_items,
    licence_pending,
    vehicle_age_items,
)
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import (
    Limit,
    act_at,
    earliest,
    validity_explanation,
    vehicle_limit,
)

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "autorizacao_publicidade_escolar",
    "licenca_especial_escolar",
    "requerimento_licenca_especial_intermunicipal",
    "requerimento_troca_veiculo_escolar",
]

SCHOOL = "transporte-escolar"
ALVARA_FORM = "alvara-transporte-escolar"
VEHICLE_AGE = f"{SCHOOL}#art17_inc1"
EXCHANGE = f"{SCHOOL}#art17_par1"
ADVERTISING = f"{SCHOOL}#art17_par2"
ADVERTISING_REQUEST = f"{SCHOOL}#art17_par3"
SPECIAL = f"{SCHOOL}#art20"
SPECIAL_ORIGIN_ALVARA = f"{SCHOOL}#art20_par1_inc1"
SPECIAL_STATE_AUTHORISATION = f"{SCHOOL}#art20_par1_inc4"
SPECIAL_CONFORMITY = f"{SCHOOL}#art20_par1_inc5"
SPECIAL_ORIGIN_STUDENTS = f"{SCHOOL}#art20_par2"
SPECIAL_REQUEST = f"{SCHOOL}#art20_par1"

IMPLEMENTED: tuple[str, ...] = (
    ADVERTISING,
    SPECIAL,
    SPECIAL_REQUEST,
    SPECIAL_ORIGIN_STUDENTS,
)
"""Citations these computations apply (coverage): the advertising licence's
dependence on the alvará (art. 17, § 2º), the Licença Especial's scope and term (art.
20 and § 2º) and its requerimento (§ 1º)."""


def licenca_especial_escolar(request: ComputeInput) -> Computed:
    """Scope (art. 20, caput and § 2º) and term of the Licença Especial.

    ``values``: ``valido_ate``, ``vigencia_explicacao``, ``estudantes`` (count),
    ``municipio_origem``, ``pendente``.
    """
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    items: list[Item] = list(
        vehicle_age_items(
            data, "/veiculo", on, context, "transporte-escolar", VEHICLE_AGE, SPECIAL_CONFORMITY
        )
    )
    origin = clean_text(pointers.get(data, "/municipio_origem/nome"))
    students = pointers.get(data, "/estudantes")
    students = students if isinstance(students, list) else []
    items.extend(_students_items(data, context))
    items.extend(
        issue_items(on, request.issued_on, "/data_expedicao", "a Licença Especial", SPECIAL)
    )
    items.extend(_filed_before(data, on, context))
    alvara = maybe_date(pointers.get(data, "/documentos/alvara_origem/validade"))
    state = maybe_date(pointers.get(data, "/documentos/autorizacao_intermunicipal/validade"))
    base = {"estudantes": len(students), "municipio_origem": origin}
    if alvara is None or state is None:
        reason = (
            "Informe a validade do alvará do Município de origem e a da autorização "
            "para o transporte intermunicipal."
        )
        return Computed({**base, **licence_pending(reason)}, unique_items(items))
    limits = [
        Limit(alvara, "o vencimento do alvará do Município de origem"),
        Limit(state, "o vencimento da autorização para o transporte intermunicipal"),
    ]
    vehicle = vehicle_limit(data, "/veiculo", on, context, "transporte-escolar")
    if vehicle is not None:
        limits.append(vehicle)
    end = earliest(limits).end
    values = {
        **base,
        "inicio_vigencia": on,
        "valido_ate": end,
        "vigencia_explicacao": (
            f"Licença Especial válida de {format_date(on)} a {format_date(end)}: vale "
            f"enquanto vigorarem o alvará do Município de origem e a autorização para o "
            f"transporte intermunicipal de que depende ({short(context.laws, SPECIAL)}, § 1º, "
            f"I e IV), com o veículo em conformidade com esta lei (§ 1º, V). "
            f"{validity_explanation(limits)}"
        ),
        "pendente": None,
    }
    return Computed(values, unique_items(items))


def _filed_before(
    data: Mapping[str, Any], on: date, context: StatutoryContext
) -> list[Item]:
    """§ 1º: the licence follows the requerimento protocolized at the Prefeitura; it is
    not issued before it (the requerimento itself is the applicant's, not registered:
    its date is the process's)."""
    filed = maybe_date(pointers.get(data, "/processo/data_requerimento"))
    if filed is None or filed <= on:
        return []
    return [
        item_at(
            "/processo/data_requerimento",
            Status.INVALID,
            f"O requerimento ({format_date(filed)}) é posterior à data de expedição "
            f"({format_date(on)}): a Licença Especial é expedida a requerimento "
            f"({short(context.laws, SPECIAL_REQUEST)}).",
            SPECIAL_REQUEST,
        )
    ]


def _students_items(data: Mapping[str, Any], context: StatutoryContext) -> list[Item]:
    """Each student resides in the municipality of origin (art. 20, § 2º) and attends a
    school in this Município (caput): the Licença Especial and its requerimento."""
    origin = clean_text(pointers.get(data, "/municipio_origem/nome"))
    students = pointers.get(data, "/estudantes")
    items: list[Item] = []
    for index, student in enumerate(students if isinstance(students, list) else []):
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
                    f"da sua cidade de origem ({short(context.laws, SPECIAL_ORIGIN_STUDENTS)}).",
                    SPECIAL_ORIGIN_STUDENTS,
                )
            )
        school_town = clean_text(pointers.get(student, "/escola/municipio"))
        if school_town is not None and school_town.casefold() not in MUNICIPALITY_NAMES:
            items.append(
                item_at(
                    f"/estudantes/{index}/escola/municipio",
                    Status.INVALID,
                    f"{student.get('nome')}: a escola fica em {school_town}; a Licença Especial "
                    f"é para estudantes que frequentem escolas situadas neste Município "
                    f"({short(context.laws, SPECIAL)}).",
                    SPECIAL,
                )
            )
    return items


def requerimento_licenca_especial_intermunicipal(request: ComputeInput) -> Computed:
    """The requerimento of the Licença Especial (art. 20, § 1º): the same scope as the
    licence (the students, § 2º and caput) and the vehicle's age (art. 17, I, as the
    "conformidade com esta lei" of § 1º, V), on the date of the requerimento; the five
    documents of § 1º and the two of § 2º are the schema's, so that the checklist lists
    them from the first screen. A requerimento dated after the day it is read is
    *invalid* (it records a filing already made).

    ``values``: ``estudantes`` (count), ``municipio_origem``.
    """
    data = data_of(request)
    context = statutory_context(request)
    items: list[Item] = list(
        vehicle_age_items(
            data, "/veiculo", request.on, context, "transporte-escolar", VEHICLE_AGE,
            SPECIAL_CONFORMITY,
        )
    )
    items.extend(_students_items(data, context))
    items.extend(after_issue(request.on, request.issued_on, "/data_requerimento",
                             "data do requerimento", SPECIAL_REQUEST))
    students = pointers.get(data, "/estudantes")
    values = {
        "estudantes": len(students) if isinstance(students, list) else 0,
        "municipio_origem": clean_text(pointers.get(data, "/municipio_origem/nome")),
    }
    return Computed(values, unique_items(items))


def autorizacao_publicidade_escolar(request: ComputeInput) -> Computed:
    """Term of the advertising licence (art. 17, § 2º): the alvará's vencimento.

    ``values``: ``inicio_vigencia``, ``valido_ate``, ``vigencia_explicacao``,
    ``pendente``.
    """
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    items = issue_items(on, request.issued_on, "/data_expedicao", "a autorização", ADVERTISING)
    filed = maybe_date(pointers.get(data, "/requerimento/data"))
    if filed is not None and filed > on:
        items.append(
            item_at(
                "/requerimento/data",
                Status.INVALID,
                f"O requerimento ({format_date(filed)}) é posterior à data de expedição "
                f"({format_date(on)}): a autorização é expedida a requerimento "
                f"({short(context.laws, ADVERTISING_REQUEST)}).",
                ADVERTISING_REQUEST,
            )
        )
    stated = maybe_date(pointers.get(data, "/alvara/valido_ate"))
    found, checked = act_at(
        request.history, ALVARA_FORM, data, "/alvara", on, "Alvará para Transporte Escolar",
        (ADVERTISING,), holder_at="/titular/cpf", laws=context.laws,
    )
    items.extend(checked)
    end = found.valid_until if found is not None and found.valid_until is not None else stated
    if end is None:
        pending = licence_pending("Informe a validade do alvará do veículo.")
        return Computed(pending, unique_items(items))
    if end < on:
        items.append(
            item_at(
                "/alvara/valido_ate",
                Status.INVALID,
                f"O alvará do veículo venceu em {format_date(end)}: a publicidade só se autoriza "
                f"em veículo licenciado ({short(context.laws, ADVERTISING)}).",
                ADVERTISING,
            )
        )
    else:
        items.append(
            item_at(
                "/alvara/valido_ate",
                Status.MET,
                f"Alvará do veículo em vigor até {format_date(end)} "
                f"({short(context.laws, ADVERTISING)}).",
                ADVERTISING,
            )
        )
    values = {
        "inicio_vigencia": on,
        "valido_ate": end,
        "vigencia_explicacao": (
            f"Autorização válida de {format_date(on)} a {format_date(end)}, data de "
            f"vencimento do alvará do veículo licenciado, de que é acessória "
            f"({short(context.laws, ADVERTISING)}); renovado o alvará, a publicidade depende de "
            "nova autorização."
        ),
        "pendente": None,
    }
    return Computed(values, unique_items(items))


def requerimento_troca_veiculo_escolar(request: ComputeInput) -> Computed:
    """The new vehicle (art. 17, I, with § 1º) on the date of the requerimento.

    ``values``: ``idade_veiculo_novo`` (the explanation of the age check).
    """
    data = data_of(request)
    context = statutory_context(request)
    items = vehicle_age_items(
        data, "/veiculo_novo", request.on, context, "transporte-escolar", VEHICLE_AGE, EXCHANGE
    )
    old = clean_text(pointers.get(data, "/veiculo_substituido/placa"))
    new = clean_text(pointers.get(data, "/veiculo_novo/placa"))
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
                + f" ({short(context.laws, EXCHANGE)}).",
                EXCHANGE,
            )
        )
    values = {"idade_veiculo_novo": items[0].message if items else None}
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "licenca_especial_escolar": licenca_especial_escolar,
    "autorizacao_publicidade_escolar": autorizacao_publicidade_escolar,
    "requerimento_troca_veiculo_escolar": requerimento_troca_veiculo_escolar,
    "requerimento_licenca_especial_intermunicipal": requerimento_licenca_especial_intermunicipal,
}
"""The computations of this module a form may name under ``"calculos"``."""
