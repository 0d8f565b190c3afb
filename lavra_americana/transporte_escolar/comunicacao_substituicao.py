"""The substitution of the school driver for other reasons than health, of Lei nº
4.515/2007 (transporte escolar): art. 4º, parágrafo único.

Art. 4º, caput, lets SETRANSV *issue* a Licença Temporária for a substitute driver when
the licensed driver is ill (:mod:`lavra_americana.transporte_escolar.licenca_temporaria`).
Its parágrafo único is of another nature: for "motivos adversos, que não seja saúde", the
licensed driver "poderá ... se valer de um condutor substituto, desde que" (I) the
substitute meets art. 7º except IV, VII and IX, (II) "seja providenciada a imediata
comunicação do fato a SETRANSV" and (III) the substitution does not exceed 48 hours. The
law gives SETRANSV no act to issue: the right is the licensed driver's, under three
conditions, one of which is that he *communicates*. The document is therefore the
licensed driver's own communication (a fillable form he signs and files, like the
requerimento of art. 17, § 1º), not a licence: requiring a licence, or any act of
SETRANSV, before the substitute may drive would add a condition the law does not set
and, within 48 hours, empty the right.

``comunicacao_substituicao_condutor`` — the computation of that form
    I: art. 7º for the substitute except IV, VII and IX
        (:func:`lavra_americana.transporte_escolar.eligibility.candidate_eligibility`, the
        role ``substituto``), on the day of the communication.
    II: "imediata" is read as: the communication (``/comunicacao``, date and hour) is
        made no later than the start of the substitution (``/substituicao/inicio``): the
        substitute may not drive before SETRANSV knows, since the agents on the street
        must be able to tell a substitute from an unlicensed driver (art. 9º, § 2º, II).
        A communication after the start is *invalid*.
    III: the substitution ends at most 48 hours after its start
        (``transporte-escolar#art4_par1u_inc3`` in the deadline table: hours, not moved
        off weekends or holidays, since it limits an exceptional situation and is not a
        term for an act before the Administration). It is also bounded by the alvará it
        rests on: a substitute never drives under an alvará that has expired, so the
        limit is the earlier of the 48 hours and the end of the alvará's last day; the
        document prints the limit and which of the two set it. A planned end
        (``/substituicao/fim``) outside [start, limit] is *invalid*; a start after the
        alvará's expiry, too.
    The communication records a fact already done when the document is issued: a
    communication dated after the day of issue (``ComputeInput.issued_on``) is
    *invalid* (:func:`lavra_americana.comum.computing.after_issue`).
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import deadline_for
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import after_issue, data_of
from lavra_americana.comum.sources import statutory_context
from lavra_americana.transporte_escolar.licenca_temporaria import _substitute_items
from lavra_americana.transporte_escolar.vistoria_substituto import moment as _moment

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "comunicacao_substituicao_condutor",
]

SCHOOL = "transporte-escolar"
OTHER_REASONS = f"{SCHOOL}#art4_par1u"
SUBSTITUTE_REQUIREMENTS = f"{SCHOOL}#art4_par1u_inc1"
COMMUNICATION = f"{SCHOOL}#art4_par1u_inc2"
MAX_48_HOURS = f"{SCHOOL}#art4_par1u_inc3"

IMPLEMENTED: tuple[str, ...] = (
    OTHER_REASONS,
    SUBSTITUTE_REQUIREMENTS,
    COMMUNICATION,
    MAX_48_HOURS,
)
"""Citations this computation applies (coverage): the substitution of art. 4º,
parágrafo único, and its three conditions."""


def _at(moment: datetime) -> str:
    return f"{format_date(moment)}, às {moment:%Hh%M}"


def _pending(reason: str, **extra: Any) -> dict[str, Any]:
    return {"inicio": None, "limite": None, "limite_explicacao": None, "pendente": reason,
            **extra}


def comunicacao_substituicao_condutor(request: ComputeInput) -> Computed:
    """The conditions of art. 4º, parágrafo único, and the 48-hour limit.

    ``values``: ``inicio`` and ``limite`` (datetimes: the start and the latest end of
    the substitution), ``limite_explicacao`` (how the limit was reached, printed),
    ``limitado_pelo_alvara`` (bool), ``fim_previsto`` (datetime or None),
    ``elegibilidade`` (the substitute's art. 7º), ``pendente`` (None, or why nothing
    could be computed).
    """
    data = data_of(request)
    context = statutory_context(request)
    laws = context.laws
    told = _moment(data, "/comunicacao")
    on = told.date() if told is not None else request.on
    items, explanation = _substitute_items(data, on, context)
    items = [
        i if i.basis else Item(i.requirement, i.status, i.field, i.message,
                               (SUBSTITUTE_REQUIREMENTS,))
        for i in items
    ]
    items.extend(
        after_issue(on, request.issued_on, "/comunicacao/data",
                    "data da comunicação", COMMUNICATION)
    )
    start = _moment(data, "/substituicao/inicio")
    if start is None or told is None:
        reason = "Informe o início da substituição e a comunicação à SETRANSV (data e hora)."
        return Computed(_pending(reason, elegibilidade=explanation), unique_items(items))
    timely = told <= start
    items.append(
        item_at(
            "/comunicacao",
            Status.MET if timely else Status.INVALID,
            (
                f"Comunicação à SETRANSV em {_at(told)}, até o início da substituição "
                f"({_at(start)}): imediata ({short(laws, COMMUNICATION)})."
                if timely
                else f"A SETRANSV foi comunicada em {_at(told)}, depois do início da "
                f"substituição ({_at(start)}): a comunicação deve ser imediata "
                f"({short(laws, COMMUNICATION)}), antes de o condutor substituto assumir "
                "o serviço."
            ),
            COMMUNICATION,
        )
    )
    try:
        limit = deadline_for(MAX_48_HOURS, start, context=context)
    except LavraError as error:
        message = f"Não foi possível calcular o limite da substituição: {error.message}"
        items.append(item_at("/substituicao/inicio", Status.MISSING, message, MAX_48_HOURS))
        return Computed(_pending(message, elegibilidade=explanation), unique_items(items))
    assert limit.end is not None  # an hour deadline always has its moment
    end = limit.end.replace(tzinfo=None)
    text = limit.explanation
    by_alvara = False
    alvara_end = maybe_date(pointers.get(data, "/alvara/valido_ate"))
    if alvara_end is not None:
        alvara_limit = datetime.combine(alvara_end + timedelta(days=1), time(0, 0))
        if start >= alvara_limit:
            items.append(
                item_at(
                    "/substituicao/inicio",
                    Status.INVALID,
                    f"A substituição começa em {_at(start)}, depois do vencimento do alvará "
                    f"({format_date(alvara_end)}): não há licença a exercer por condutor "
                    f"substituto ({short(laws, OTHER_REASONS)}).",
                    OTHER_REASONS,
                )
            )
        elif alvara_limit < end:
            end, by_alvara = alvara_limit, True
            text = (
                f"{text} O alvará do condutor licenciado vence em {format_date(alvara_end)}: "
                f"a substituição termina, por isso, às 24h00 desse dia, antes das 48 horas."
            )
    planned = _moment(data, "/substituicao/fim")
    if planned is not None and not start < planned <= end:
        items.append(
            item_at(
                "/substituicao/fim",
                Status.INVALID,
                f"O término previsto ({_at(planned)}) deve ser posterior ao início da "
                f"substituição e não ultrapassar o limite de {_at(end)} "
                f"({short(laws, MAX_48_HOURS)}).",
                MAX_48_HOURS,
            )
        )
    values = {
        "inicio": start,
        "limite": end,
        "limite_texto": "24h00 de " + format_date(alvara_end) if by_alvara and alvara_end
        else _at(end),
        "limite_explicacao": text,
        "limitado_pelo_alvara": by_alvara,
        "fim_previsto": planned,
        "elegibilidade": explanation,
        "pendente": None,
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "comunicacao_substituicao_condutor": comunicacao_substituicao_condutor,
}
"""The computation of this module a form may name under ``"calculos"``."""
