"""The Alvará de Licença de Circulação of Lei nº 4.419/2006 (fretamento): its validity
(arts. 8º and 10, I), its renewal (art. 8º) and what it may assert (art. 7º).

``alvara_fretamento`` — a :data:`lavra.checking.computations.Computation` named under
``"calculos"`` in the form's ``formulario.json``. Pure function of its
:class:`ComputeInput`; what the data or the pack lack becomes a *missing* or *invalid*
report item, never an exception.

Validity. The alvará lasts 5 years (art. 8º, parameter ``fretamento.validade_alvara``)
but never beyond the vehicle's age limit (art. 10, I: 20 years for the ônibus
rodoviário, 10 for the microônibus, 5 for the others, parameters
``fretamento.idade_maxima_veiculo.<tipo>``): art. 10, § 5º forbids the vehicle to
circulate without an alvará *atualizado*, and a vehicle past its age no longer has the
characteristics the alvará certifies. The age counts by year of manufacture, the
vehicle taken as made on 31 December (:mod:`lavra_americana.comum.vehicle_age`): the
last day is 31/12 of the year of manufacture plus the limit. The vencimento is the
earlier of the two; the alvará prints which one set it
(:func:`lavra_americana.comum.validity.validity_explanation`). The 5 years run from the
start to the day of the same number (Lei nº 9.784/1999, art. 66, § 3º), as the engine
counted them before. The annual vehicle inspection (art. 7º, XI, and art. 10, § 4º) is
a condition of use renewed every 12 months, not a term of the alvará: the alvará says
so and is not cut to it (cutting it would force a new alvará and fee every year, which
the 5-year term of art. 8º excludes).

Start. The date of issue; for a renewal ("renovável por igual período"), the day after
the current alvará expires, or the date of issue if later: the new period follows the
old, and an alvará never authorizes retroactively.

Renewal (art. 8º). ``/processo/renovacao`` with the alvará renewed
(``/processo/alvara_anterior``) and its vencimento (``/processo/vencimento_alvara_anterior``).
The request must be made at least 30 days before that vencimento (deadline
``fretamento#art8`` of ``legal_text/prazos.json``: the 30th day before, and on it, is
timely); a later one does not renew: the company files a new requerimento (art. 7º).
The renewal is decided within 90 days before that vencimento, on documents valid on
the first day of the new period (the reading of "documentação atualizada ... na
ocasião" in :mod:`lavra_americana.fretamento.renovacao_janela`).
When the registry holds the alvará renewed, it must be the same vehicle's, not
cancelled, and its vencimento is the registry's (a difference is *invalid*); a paper
alvará issued before the registry existed is taken with the vencimento the process
states (the reading that does not deny the renewal to a holder for the registry's
youth).

Registration (art. 2º, § 1º, with art. 7º caput). The company must be registered at
SETRANSV: with a registry, the alvará reads the registration in force from the
licensing state, or a servant's attestation of one from before lavra, and prints it
(:func:`lavra_americana.fretamento.registro.registration_items`).

What it asserts. The alvará says "atendidos os requisitos do art. 7º" (art. 8º:
"Atendidos os requisitos arrolados no artigo anterior, a SETRANSV emitirá"). The
requerimento is not registered (it is the company's filing), so a servant attests in
``/processo/conferencia_requerimento`` that the requerimento of the process, on its date,
was instructed with every document of art. 7º (the updated ones, for a renewal): who,
when, and that it was complete. Without it the requirement is *missing* and the
sentence is not printed; the process number alone proves nothing.

One alvará per vehicle (art. 8º, "para cada veículo"). A vehicle that already holds
an alvará in force gets another only to renew it or to replace it
(``/processo/substitui_alvara``, e.g. a second copy or a change of the company's data):
:func:`lavra_americana.comum.validity.duplicate_items`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    History,
    clean_text,
    item_at,
    licence_answers,
    licensing,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.checking.timeliness import StatutoryTimeliness, check_timeliness
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import StatutoryContext, deadline_for
from lavra.registry.licence_reads import LicenceQuestions
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, licence_pending
from lavra_americana.comum.guards import bar_items, held_items
from lavra_americana.comum.periods import term_end
from lavra_americana.comum.processo import printed_after_processo
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import (
    Limit,
    duplicate_items,
    earliest,
    in_full,
    parent_act_items,
    validity_explanation,
    vehicle_limit,
)
from lavra_americana.fretamento.estado import OPERATION, OPERATION_BASIS, SCOPE
from lavra_americana.fretamento.registro import FORM as REGISTRATION_FORM
from lavra_americana.fretamento.registro import registration_items
from lavra_americana.fretamento.renovacao_janela import renewal_window_items
from lavra_americana.fretamento.renovacao_requisitos import act_items as printed_items

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "alvara_fretamento", "late_renewal", "limits_from"]

FORM = "alvara-fretamento"
REQUIREMENTS = "fretamento#art7"
TERM = "fretamento#art8"
AGE = "fretamento#art10_inc1"
TERM_PARAMETER = "fretamento.validade_alvara"
BAR = "fretamento#art22_par1u"

IMPLEMENTED: tuple[str, ...] = (TERM,)
"""Citations this computation applies (coverage): the alvará's term, its renewal
with 30 days' notice and its issue only once art. 7º is met (art. 8º)."""


def _renewal(
    data: Mapping[str, Any], on: date, history: Any, context: StatutoryContext
) -> tuple[date | None, str | None, list[Item]]:
    """The vencimento of the alvará renewed, its number with the series as the registry
    prints it (None when the registry lacks it), and the renewal's items (art. 8º)."""
    number = pointers.get(data, "/processo/alvara_anterior")
    expiry = maybe_date(pointers.get(data, "/processo/vencimento_alvara_anterior"))
    found, items = parent_act_items(
        history,
        FORM,
        number,
        expiry,
        on,
        "alvará renovado",
        (TERM,),
        number_field="/processo/alvara_anterior",
        until_field="/processo/vencimento_alvara_anterior",
        plate=pointers.get(data, "/veiculo/placa"),
        in_force=False, holder=pointers.get(data, "/empresa/cnpj"),
        holder_field="/empresa/cnpj", laws=context.laws,
    )
    printed = found.printed if found is not None else None
    if found is None:
        # Not in the registry (a paper alvará): the vencimento the process states.
        items = []
    elif found.valid_until is not None:
        expiry = found.valid_until
    filed = maybe_date(pointers.get(data, "/processo/data_requerimento"))
    if expiry is None or filed is None:
        return expiry, printed, items
    try:
        judged = check_timeliness(
            TERM, expiry, filed, context=context, field="/processo/data_requerimento"
        )
    except LavraError as error:
        items.append(item_at("/processo/data_requerimento", Status.INVALID, error.message, TERM))
        return expiry, printed, items
    items.extend(late_renewal(judged, context))
    return expiry, printed, items


def late_renewal(judged: StatutoryTimeliness, context: StatutoryContext) -> list[Item]:
    """The renewal's timeliness items; a late one says what follows (art. 8º)."""
    if judged.timely:
        return list(judged.items)
    consequence = (
        " Sem a manifestação com 30 (trinta) dias de antecedência, o alvará não se "
        "renova: a empresa deve apresentar novo requerimento, instruído na forma do "
        f"{short(context.laws, REQUIREMENTS)}."
    )
    return [
        Item(item.requirement, item.status, item.field, item.message + consequence, item.basis)
        for item in judged.items
    ]


def _attested(field: str, status: Status, message: str) -> Item:
    return item_at(field, status, message, REQUIREMENTS, TERM)


def _requirements_items(data: Mapping[str, Any], on: date, laws: Any) -> tuple[bool, list[Item]]:
    """Whether the requerimento on file was attested complete (art. 7º, with art. 8º)."""
    field = "/processo/conferencia_requerimento"
    ref = short(laws, REQUIREMENTS)
    entry = pointers.get(data, field)
    filed = maybe_date(pointers.get(data, "/processo/data_requerimento"))
    number = printed_after_processo(pointers.get(data, "/processo/numero")) or "-"
    if not isinstance(entry, Mapping):
        message = (
            f"Falta a conferência, por servidor, de que o requerimento do processo {number} "
            f"foi instruído com todos os documentos do {ref}: informe quem conferiu, em que "
            "data e o resultado. O número do processo, sozinho, não comprova que os "
            "requisitos foram atendidos."
        )
        return False, [_attested(field, Status.MISSING, message)]
    checked = maybe_date(entry.get("data"))
    who = clean_text(entry.get("responsavel")) or "servidor não identificado"
    if entry.get("completo") is not True:
        missing_docs = clean_text(entry.get("pendencias"))
        message = (
            f"A conferência de {who} registra que o requerimento não está completo ({ref})"
            + (f": {missing_docs}" if missing_docs else "")
            + ". O alvará só se emite atendidos os requisitos do art. 7º (art. 8º)."
        )
        return False, [_attested(field + "/completo", Status.INVALID, message)]
    if checked is None or checked > on or (filed is not None and checked < filed):
        message = (
            "A conferência do requerimento deve ser feita depois do protocolo"
            + (f" ({format_date(filed)})" if filed else "")
            + f" e até a expedição do alvará ({format_date(on)})."
        )
        return False, [_attested(field + "/data", Status.INVALID, message)]
    message = (
        f"Requerimento do processo {number}"
        + (f", de {format_date(filed)}," if filed else "")
        + f" conferido completo em {format_date(checked)} por {who} ({ref})."
    )
    return True, [_attested(field + "/completo", Status.MET, message)]


def limits_from(
    data: Mapping[str, Any], start: date, context: StatutoryContext
) -> list[Limit]:
    """The alvará's own term and the vehicle's age limit (arts. 8º and 10, I).

    A vehicle already past its limit on ``start`` is reported by the form's check
    ``idade_veiculo`` and by :func:`alvara_fretamento` (no validity left)."""
    years = int(context.parameters.value(TERM_PARAMETER, start).value)
    limits = [
        Limit(
            # in force from ``start`` inclusive: ends on the eve of the anniversary
            # (art. 8º, "validade de 5 anos"; reading in comum/periods.py, term_end)
            term_end(start, years=years),
            f"o prazo de {in_full(years, 'anos')} do alvará ({short(context.laws, TERM)})",
            (TERM,),
        )
    ]
    vehicle = vehicle_limit(
        data,
        "/veiculo",
        start,
        context,
        "fretamento",
        kind=clean_text(pointers.get(data, "/veiculo/tipo")),
    )
    return limits if vehicle is None else [*limits, vehicle]


#: The renewal is its own act (art. 8º: "renovável por igual período"): the alvará that
#: renews says so in its title, and its text names the alvará renewed with its series.
RENEWAL_TITLE = "Alvará de Licença de Circulação – Renovação"


def _answering(history: History | None, data: Mapping[str, Any], renewal: bool
               ) -> History | None:
    """``history`` answering at once the three licences the check asks the licensing
    state (:mod:`lavra.registry.licence_reads`): the alvará renewed, the company's
    registration, the vehicle's licences; each asked exactly as the check below asks it
    (:func:`~lavra_americana.comum.guards.standing_items`, :func:`registration_items`,
    :func:`~lavra_americana.comum.guards.held_items`), and only where the state follows it."""
    state = licensing(history)
    if state is None or not state.tracks(FORM):
        return history
    renewed = clean_text(pointers.get(data, "/processo/alvara_anterior")) if renewal else None
    return licence_answers(history, LicenceQuestions(
        number=renewed, kind=FORM,
        holder=(clean_text(pointers.get(data, "/empresa/cnpj"))
                if state.tracks(REGISTRATION_FORM) else None),
        holder_kind=REGISTRATION_FORM, placa=clean_text(pointers.get(data, "/veiculo/placa"))))


def alvara_fretamento(request: ComputeInput) -> Computed:
    """Validity (arts. 8º and 10, I), renewal (art. 8º), art. 7º attested, one per vehicle.

    ``values``: ``inicio_vigencia``, ``valido_ate``, ``validade_anos``,
    ``vigencia_explicacao``, ``limite_vigencia`` (``prazo`` or ``idade_veiculo``),
    ``requisitos_art7`` (whether the sentence may be printed), ``renovacao``
    (``ultimo_dia_pedido``: the last day to request the next renewal), ``pendente``,
    ``titulo_documento`` (the renewal's title, None for a first alvará).
    """
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    items: list[Item] = []
    renewal = pointers.get(data, "/processo/renovacao") is True
    history = _answering(request.history, data, renewal)
    start = on
    renewed_number = None
    if renewal:
        previous, renewed_number, renewal_items = _renewal(data, on, history, context)
        items.extend(renewal_items)
        if previous is not None:
            start = max(on, previous + timedelta(days=1))
            items.extend(renewal_window_items(data, on, previous, context))
    attested, attested_items = _requirements_items(data, on, context.laws)
    items.extend(attested_items)
    # art. 7º caput: "além de atender aos dispositivos constantes do art. 2º" - the
    # company registered at SETRANSV (art. 2º, § 1º), read from the licensing state
    registered, registered_items = registration_items(history, data, on,
                                                      context.laws)
    items.extend(registered_items)
    items.extend(printed_items(data))  # the values it prints (renovacao_requisitos)
    allowed = [
        str(pointers.get(data, pointer) or "")
        for pointer in ("/processo/alvara_anterior", "/processo/substitui_alvara")
        if pointer != "/processo/alvara_anterior" or renewal
    ]
    items.extend(bar_items(
        history, pointers.get(data, "/empresa/cnpj"), SCOPE, start,
        who="A empresa", what="novo Alvará de Licença de Circulação", by="pela cassação",
        field="/empresa/cnpj",
        basis=(BAR,), laws=context.laws,
    ))
    state = licensing(history)
    if state is not None and state.tracks(FORM):  # one operating alvará per vehicle
        items.extend(held_items(
            history, start, placa=pointers.get(data, "/veiculo/placa"),
            group=OPERATION, allowed=allowed,
            who=f"O veículo de placa {pointers.get(data, '/veiculo/placa')}",
            field="/veiculo/placa", basis=(OPERATION_BASIS,), laws=context.laws,
        ))
    else:
        items.extend(duplicate_items(
            history, FORM, pointers.get(data, "/veiculo/placa"), on, allowed,
            "/veiculo/placa", "Alvará de Licença de Circulação", (OPERATION_BASIS,),
        ))
    try:
        limits = limits_from(data, start, context)
        chosen = earliest(limits)
        next_request = deadline_for(TERM, chosen.end, context=context)
    except LavraError as error:
        message = f"Não foi possível calcular a validade do alvará: {error.message}"
        items.append(item_at("/processo", Status.MISSING, message, TERM))
        return Computed(
            {**licence_pending(message), "requisitos_art7": attested,
             "registro_setransv": registered,
             "titulo_documento": RENEWAL_TITLE if renewal else None},
            unique_items(items),
        )
    if chosen.end < start:
        items.append(
            item_at(
                "/veiculo/ano_fabricacao",
                Status.INVALID,
                f"O veículo já ultrapassou o limite de idade em {format_date(start)}: "
                "não há validade a conceder.",
                AGE,
            )
        )
    years = int(context.parameters.value(TERM_PARAMETER, start).value)
    values = {
        "inicio_vigencia": start,
        "valido_ate": chosen.end,
        "validade_anos": years,
        "limite_vigencia": "prazo" if chosen is limits[0] else "idade_veiculo",
        "vigencia_explicacao": validity_explanation(limits),
        "requisitos_art7": attested,
        "registro_setransv": registered,
        "renovacao": {
            "ultimo_dia_pedido": next_request.last_day,
            "explicacao": next_request.explanation,
        },
        "pendente": None,
        "titulo_documento": RENEWAL_TITLE if renewal else None,
        # the alvará renewed, printed with its series when the registry holds it (a bare
        # number typed by staff would otherwise print without it)
        "alvara_anterior_impresso": renewed_number,
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {"alvara_fretamento": alvara_fretamento}
"""The computation of this module a form may name under ``"calculos"``."""
