"""Rules of the fictitious táxi law (Lei nº 1.234/2025 de Vila Fictícia), for the tests.

Each computation sits under the article it implements; ``IMPLEMENTED`` lists the
provisions this module implements (``lavra law coverage`` counts them). The texts a
citizen reads are in pt-BR.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from dateutil.relativedelta import relativedelta

from lavra.checking.computations import Computation, Computed, ComputeInput, item_at
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.params import load_parameters
from lavra.law.statutory import deadline_for, load_statutory_context
from lavra.render.templating import format_moeda, format_moeda_extenso
from lavra.textutil import format_date

LICENCE = "taxi#art3"
FINE = "taxi#art4"
REPEAT = "taxi#art4_par1u"
APPEAL = "taxi#art5"

IMPLEMENTED = (LICENCE, FINE, REPEAT, APPEAL)


# ------------------------------------------------------------------ art. 3º
def validade_licenca_taxi(request: ComputeInput) -> Computed:
    """Art. 3º: two years from issue, and never beyond the holder's CNH."""
    issued = request.on
    years = int(load_parameters(request.pack_dir).value("taxi.validade_licenca", issued).value)
    by_term = issued + relativedelta(years=years)
    cnh = maybe_date(pointers.get(request.data, "/cnh/validade"))
    if cnh is None:
        message = "Informe a validade da CNH do titular: a licença não vale além dela."
        return Computed(
            {"valido_ate": None, "pendente": message},
            (item_at("/cnh/validade", Status.MISSING, message, LICENCE),),
        )
    if cnh < issued:
        message = f"A CNH do titular venceu em {format_date(cnh)}: a licença não pode ser expedida."
        return Computed(
            {"valido_ate": None, "pendente": message},
            (item_at("/cnh/validade", Status.INVALID, message, LICENCE),),
        )
    until = min(by_term, cnh)
    if until == by_term:
        explanation = (
            f"Válida até {format_date(until)}: {years} anos da expedição, antes do vencimento "
            f"da CNH do titular em {format_date(cnh)} (art. 3º)."
        )
    else:
        explanation = (
            f"Válida até {format_date(until)}, vencimento da CNH do titular, antes dos "
            f"{years} anos da expedição (art. 3º)."
        )
    item = Item("validade", Status.MET, "/cnh/validade", explanation, (LICENCE,))
    return Computed(
        {"valido_ate": until, "validade_anos": years, "explicacao_validade": explanation},
        (item,),
    )


# ------------------------------------------------------------------ arts. 4º e 5º
def _repeat(request: ComputeInput, on: date) -> tuple[bool, str | None]:
    """Art. 4º, parágrafo único: an earlier auto within the period doubles the fine."""
    plate = pointers.get(request.data, "/veiculo/placa")
    if request.history is None or not isinstance(plate, str):
        return False, None
    months = int(load_parameters(request.pack_dir).value("taxi.periodo_reincidencia", on).value)
    since = on - relativedelta(months=months)
    prior = request.history.prior_autos(plate, request.form_id, since, on)
    if not prior:
        return False, None
    latest = max(prior, key=lambda record: record.reference_date)
    return True, (
        f"Reincidência: auto nº {latest.number}, de {format_date(latest.reference_date)}, "
        f"nos {months} meses anteriores; multa em dobro (art. 4º, parágrafo único)."
    )


def _appeal(request: ComputeInput, on: date) -> tuple[dict[str, Any], list[Item]]:
    """Art. 5º: appeal within 10 business days of the infraction."""
    try:
        found = deadline_for(APPEAL, on, context=load_statutory_context(request.pack_dir))
    except LavraError as error:
        message = f"Não foi possível calcular o prazo de recurso (art. 5º): {error.message}"
        return {"recurso": None}, [Item("recurso", Status.MISSING, "/ocorrencia/data", message,
                                        (APPEAL,))]
    notice = (
        f"Do presente auto cabe recurso ao Secretário Municipal de Mobilidade até "
        f"{format_date(found.last_day)} ({found.reference})."
    )
    item = Item("recurso", Status.MET, "/ocorrencia/data",
                f"Prazo de recurso até {format_date(found.last_day)}.", found.basis)
    return {"recurso": notice, "recurso_ultimo_dia": found.last_day,
            "recurso_contagem": found.counting}, [item]


def auto_infracao_taxi(request: ComputeInput) -> Computed:
    """Arts. 4º e 5º: the fine in force on the infraction's date, doubled on a repeat."""
    on = request.on
    base = load_parameters(request.pack_dir).value("taxi.multa_sem_licenca", on).value
    repeated, repeat_text = _repeat(request, on)
    amount = base * 2 if repeated else base
    appeal, items = _appeal(request, on)
    basis = (FINE, REPEAT) if repeated else (FINE,)
    fine = f"Multa de {format_moeda(amount)}" + (", em dobro pela reincidência" if repeated else "")
    items.append(Item("multa", Status.MET, "/ocorrencia/data", f"{fine} (art. 4º).", basis))
    values: Mapping[str, Any] = {
        "valor": amount,
        "valor_texto": format_moeda_extenso(amount),
        "reincidencia": repeat_text,
        **appeal,
    }
    return Computed(values, tuple(items))


COMPUTATIONS: Mapping[str, Computation] = {
    "validade_licenca_taxi": validade_licenca_taxi,
    "auto_infracao_taxi": auto_infracao_taxi,
}
