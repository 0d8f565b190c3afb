"""The guia de recolhimento of the fines of an auto de infração of Lei nº 4.419/2006.

``guia_multa_fretamento`` (form ``guia-recolhimento-multa-fretamento``, series
``GUIA-FRET``): the generic guia for the fines an auto applied, payable to the Fundo
Municipal de Trânsito (art. 26). The city's DAM layout is not in the sources, so the guia
carries what the law asks of it and nothing invented: the legal basis, the payer, the
debt, the amount in figures and in words, the due date, the destination and, like every
issued document, the verification code.

Only the date of issue, the auto's number and the payer's CNPJ are typed; the CNPJ is
checked against the auto's (it files the guia under the payer in the registry, where the
cassação finds it). The auto is read from the registry by its number:

- absent from the registry: *missing* (a guia is issued only for an auto lavra holds);
  cancelled, or annulled on appeal: *invalid*; its appeal granted only in part (the
  decision fixed another fine): *invalid*, naming the decision (the reading is in
  :mod:`lavra_americana.comum.auto_anulado`); already paid (a payment recorded on the
  auto, or on an earlier guia of the same auto): *invalid*, naming the payment;
- the payer (razão social, CNPJ), the vehicle and each infraction are the auto's;
- the amounts are those of the pack's amount rules, applied to the auto as it was
  issued (:func:`lavra_americana.fretamento.auto_infracao.auto_infracao_fretamento`:
  the fine in force on the date of the infraction, corrected yearly, art. 14, parágrafo
  único; doubled for a repeat offence, art. 18; one per infraction, art. 20), the same
  answer ``lavra amount CITAÇÃO --data DATA`` gives; an amount the pack lacks is *missing*.

The due date. The law sets no term to pay a fine. Its art. 22, II makes "multas
aplicadas não recolhidas, sem interposição de recurso" a ground of cassação, and the
only period it gives the company after an auto is the appeal of art. 23 (15 days from
the infraction). The reading kept: the fine falls due on the last day of that appeal
period (moved off weekends and holidays as the auto's own appeal notice is); a guia
issued after that day says the fine is overdue since then and is due at sight, on the
day of issue. An appeal filed stays with the appeal's decision: the guia does not judge
it.

A payment is recorded on the guia (``lavra fato pagamento GUIA-FRET nº …``): the guia is
the number the payment cites, and :func:`paid_guias` finds it for the auto (the cassação
of art. 22, II reads it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    History,
    PriorRecord,
    clean_text,
    in_legal_order,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.inputs.formats import only_digits_and_letters
from lavra.law.model import resolve
from lavra.textutil import format_date
from lavra_americana.comum.auto_anulado import annulled_item, partial_decision
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import after_issue, data_of, date_at
from lavra_americana.comum.guards import bare_number
from lavra_americana.comum.sources import statutory_context
from lavra_americana.fretamento.autos_registro import AUTO_FORM, auto_computed

__all__ = ["AUTO_FORM", "COMPUTATIONS", "GUIA_FORM", "IMPLEMENTED", "guia_multa_fretamento",
           "paid_guias", "recorded_payment"]

LAW = "fretamento"
FINE = f"{LAW}#art14_ali1"
CORRECTION = f"{LAW}#art14_par1u"
UNPAID = f"{LAW}#art22_inc2"
APPEAL = f"{LAW}#art23"
FUND = f"{LAW}#art26"
REPEAT = f"{LAW}#art18"
SEVERAL = f"{LAW}#art20"
GUIA_FORM = "guia-recolhimento-multa-fretamento"
ISSUED_ON = "/guia/data_emissao"
PAYER = "/pagador/cnpj"
AUTO_NUMBER = "/auto/numero"
PAYMENT = "pagamento"

IMPLEMENTED: tuple[str, ...] = (FUND,)
"""The destination of the fines (art. 26): the guia that collects them to the Fundo."""


def _pending(reason: str) -> dict[str, Any]:
    return {"auto": None, "pagador": None, "infracoes": [], "total_texto": None,
            "total_extenso": None, "vencimento": None, "vencimento_explicacao": None,
            "destino": None, "aviso_exemplo": None, "pendente": reason, "fundamento": []}


def paid_guias(history: History | None, auto: PriorRecord) -> list[tuple[PriorRecord, date]]:
    """The guias of ``auto`` (same CNPJ, naming its number) with a payment recorded, and
    the day of each payment; cancelled guias left out."""
    if history is None:
        return []
    cnpj = clean_text(pointers.get(auto.data, "/empresa/cnpj"))
    if cnpj is None:
        return []
    wanted = bare_number(auto.printed)
    found = []
    for guia in history.by_holder(cnpj, GUIA_FORM):
        named = clean_text(pointers.get(guia.data, AUTO_NUMBER))
        paid = guia.fact(PAYMENT)
        if guia.cancelled or named is None or paid is None:
            continue
        if bare_number(named) == wanted:
            found.append((guia, paid.on))
    return found


def recorded_payment(history: History | None, auto: PriorRecord) -> tuple[date, str] | None:
    """The payment of ``auto``'s fines the registry records, on the auto itself or on a
    guia of it: its day and where ("no próprio auto", "na guia GUIA-FRET nº …"); None
    when none is recorded."""
    paid = auto.fact(PAYMENT)
    if paid is not None:
        return paid.on, "no próprio auto"
    guias = paid_guias(history, auto)
    return (guias[0][1], f"na guia {guias[0][0].printed}") if guias else None


def _auto(
    history: History | None, wanted: str, laws: Mapping[str, Any]
) -> tuple[PriorRecord | None, list[Item]]:
    found = None if history is None else history.document(AUTO_FORM, wanted)
    if found is None:
        return None, [item_at(
            AUTO_NUMBER, Status.MISSING,
            f"O auto de infração {wanted} não consta do registro de documentos emitidos: a "
            "guia é emitida só para o auto que o registro tem, de onde vêm o pagador, as "
            f"infrações e os valores ({short(laws, FUND)}).", FUND)]
    if found.cancelled:
        reason = f" ({found.cancel_reason})" if found.cancel_reason else ""
        return found, [item_at(
            AUTO_NUMBER, Status.INVALID,
            f"O auto de infração {found.printed} foi cancelado{reason}: não há multa a "
            f"recolher ({short(laws, FUND)}).", FUND)]
    void = annulled_item(found, AUTO_NUMBER, f"não há multa a recolher ({short(laws, FUND)}).",
                         FUND)
    if void is not None:
        return found, [void]
    partial = partial_decision(history, found, pointers.get(found.data, "/empresa/cnpj"))
    if partial is not None:
        return found, [item_at(
            AUTO_NUMBER, Status.INVALID,
            f"O recurso contra o auto de infração {found.printed} foi parcialmente provido "
            f"pelo {partial.printed}: a multa a recolher é a que essa decisão fixou, e a guia "
            f"calcula só a do auto; recolha-a como a decisão determina ({short(laws, FUND)}).",
            FUND)]
    items = []
    payment = recorded_payment(history, found)
    if payment is not None:
        day, where = payment
        items.append(item_at(
            AUTO_NUMBER, Status.INVALID,
            f"Consta do registro o pagamento das multas do auto de infração {found.printed} "
            f"em {format_date(day)}, {where}: outra guia não pode ser emitida "
            f"({short(laws, FUND)}).", FUND))
    return found, items


def _digits(value: Any) -> str:
    """A CPF or CNPJ without its mask (the alphanumeric CNPJ keeps its letters)."""
    return only_digits_and_letters(value) if isinstance(value, str) else ""


def _payer_items(data: Mapping[str, Any], auto: PriorRecord, laws: Mapping[str, Any]) -> list[Item]:
    typed = _digits(pointers.get(data, PAYER))
    held = _digits(pointers.get(auto.data, "/empresa/cnpj"))
    if not typed or typed == held:
        return []  # the schema reports a missing CNPJ
    return [item_at(
        PAYER, Status.INVALID,
        f"O CNPJ do pagador difere do CNPJ da empresa ou entidade autuada no auto de infração "
        f"{auto.printed}: a guia é emitida em nome do autuado ({short(laws, FINE)}).", FINE)]


def _due(on: date, appeal: Mapping[str, Any], laws: Mapping[str, Any]) -> tuple[date, str]:
    """The reading of the module docstring: the last day of the appeal of art. 23."""
    last: date = appeal["ultimo_dia"]
    if on <= last:
        return last, (
            f"Vencimento no último dia do prazo de recurso ({short(laws, APPEAL)}), "
            f"{format_date(last)}: após ele, a multa não recolhida sem interposição de "
            f"recurso é causa de cassação do alvará ({short(laws, UNPAID)}).")
    return on, (
        f"Multa vencida desde {format_date(last)}, último dia do prazo de recurso "
        f"({short(laws, APPEAL)}); pagamento à vista, na data de emissão desta guia. A multa "
        "não recolhida sem interposição de recurso é causa de cassação do alvará "
        f"({short(laws, UNPAID)}).")


def guia_multa_fretamento(request: ComputeInput) -> Computed:
    """The guia of the fines of an auto (art. 26); see the module docstring.

    ``values``: ``auto`` (``numero``, ``data_infracao``, ``placa``), ``pagador``
    (``razao_social``, ``cnpj``), ``infracoes`` (``referencia``, ``descricao``,
    ``valor_texto``, ``em_dobro``), ``total``, ``total_texto``, ``total_extenso``,
    ``vencimento``, ``vencimento_explicacao``, ``destino``, ``aviso_exemplo``,
    ``fundamento``; ``pendente`` while something is missing.
    """
    data = data_of(request)
    on = date_at(data, ISSUED_ON)
    wanted = clean_text(pointers.get(data, AUTO_NUMBER))
    if on is None or wanted is None:
        return Computed(_pending("Informe a data de emissão e o número do auto de infração."))
    laws = statutory_context(request).laws
    items = after_issue(on, request.issued_on, ISSUED_ON, "data de emissão da guia", FUND)
    auto, auto_items = _auto(request.history, wanted, laws)
    items.extend(auto_items)
    if auto is None:
        return Computed(_pending(auto_items[0].message), unique_items(items))
    items.extend(_payer_items(data, auto, laws))
    infraction = auto.reference_date
    if on < infraction:
        items.append(item_at(
            ISSUED_ON, Status.INVALID,
            f"A guia ({format_date(on)}) é anterior à infração do auto {auto.printed} "
            f"({format_date(infraction)}).", FUND))
    computed = auto_computed(request, auto)
    total = computed.get("total")
    appeal = computed.get("recurso") or {}
    if total is None or appeal.get("ultimo_dia") is None:
        reason = (f"O valor das multas do auto {auto.printed} não pôde ser calculado na data "
                  f"da infração ({format_date(infraction)}): {computed.get('explicacao') or ''}"
                  ).rstrip(": ")
        items.append(item_at(AUTO_NUMBER, Status.MISSING, reason, CORRECTION))
        return Computed(_pending(reason), unique_items(items))
    due, why = _due(on, appeal, laws)
    values = {
        "auto": {"numero": auto.printed, "data_infracao": infraction,
                 "placa": pointers.get(auto.data, "/veiculo/placa")},
        "pagador": {"razao_social": pointers.get(auto.data, "/empresa/razao_social"),
                    "cnpj": pointers.get(auto.data, "/empresa/cnpj")},
        "infracoes": [
            {"referencia": line["referencia"], "descricao": line.get("descricao"),
             "valor_texto": line["valor_texto"], "em_dobro": line["em_dobro"],
             "fundamento": line.get("fundamento") or []}
            for line in computed.get("infracoes") or ()
        ],
        "total": total,
        "total_texto": computed.get("total_texto"),
        "total_extenso": computed.get("total_extenso"),
        "vencimento": due,
        "vencimento_explicacao": why,
        "destino": resolve(laws, FUND).text,
        "aviso_exemplo": computed.get("aviso_exemplo"),
        "pendente": None,
        "fundamento": in_legal_order(_basis(computed.get("infracoes") or ()), laws),
    }
    return Computed(values, unique_items(items))


def _basis(lines: Sequence[Mapping[str, Any]]) -> list[str]:
    """The guia's "Fundamento legal": each fine applied (its article, art. 18 only when
    doubled), art. 20 for several, the correction, the due date's reading and art. 26;
    not the impediment of art. 21, which the guia does not collect."""
    applied = [c for line in lines for c in line.get("fundamento") or ()
               if c != REPEAT or line.get("em_dobro")]
    several = [SEVERAL] if len(lines) > 1 else []
    return list(dict.fromkeys([FINE, *applied, *several, CORRECTION, APPEAL, UNPAID, FUND]))


COMPUTATIONS: dict[str, Computation] = {"guia_multa_fretamento": guia_multa_fretamento}
"""The computations of this module a form may name under ``"calculos"``."""
