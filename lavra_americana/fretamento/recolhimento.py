"""The alvará collected and given back, Lei nº 4.419/2006 (fretamento): art. 21, §§ 2º
to 4º.

``recibo_recolhimento_alvara`` (form ``recibo-recolhimento-alvara``, series
``REC-ALV-FRET``, signed by the agent) — the receipt of § 2º: "mediante o
recolhimento, contra recibo, do Alvará de Licença de Circulação, por parte do servidor
ou agente de trânsito municipal".

- It is numbered in its own series. The law only says "contra recibo", but the receipt
  is the company's one proof that the administration holds its alvará (without it the
  vehicle may not circulate, art. 11, II, b), the termo de impedimento cites it by
  number (``/retirada/recibo_alvara``), and the return of § 4º must point at exactly one
  receipt, so that the registry can tell an alvará given back from one still held and
  refuse a second return of the same receipt. A gapless series also shows a receipt
  lost or never registered.
- It states its basis and may be issued only on it: the irregularity, why it could not
  be remedied on the spot (§ 1º: otherwise the vehicle is released, nothing is
  collected) and the risk to the passengers' safety (§ 2º); each is required. So also
  when the termo removes the vehicle from service under art. 13: that article orders
  the withdrawal but does not take the alvará, which only § 2º allows, and only on a
  risk to the passengers stated in the receipt.
- It belongs to the termo de impedimento (``TIM-FRET``) or the auto de infração
  (``AIF-FRET``) of the same constatação. The termo names the receipt it rests on, so
  the receipt is given first, on the spot, when the termo may not be in the registry
  yet: a receipt the company is owed by law is not refused for that. When the registry
  holds the act it is checked — not cancelled, same vehicle, same day, and not an act
  whose irregularity was remedied on the spot (then nothing may be collected) —
  and when it does not, the receipt prints that it was not found there.
- The alvará taken is printed with its series as the registry records it (the
  registry's number wins over the one typed); an alvará of another vehicle or company
  is *invalid*. One the registry does not hold (issued before the system) is printed as
  typed, with that said.
- The company's duty of § 3º (continuity of the passengers' transport) and what gives
  the alvará back (§ 4º) are printed.
- No future facts (issue 10, class 2): the collection's date and hour and the receipt's
  ciência are not after the moment of issue; the ciência not before the collection.

``termo_devolucao_alvara`` (form ``termo-devolucao-alvara``, series ``DEV-ALV-FRET``)
— the return of § 4º: "somente após a apresentação do veículo devidamente regularizado
e mediante o recolhimento de eventuais custas decorrentes". Complete only when

- the receipt is in the registry (*missing* otherwise: lavra does not give back what
  it cannot see was taken), not cancelled, of the same vehicle and alvará, and not
  already given back by a standing termo de devolução;
- the vehicle was presented regularised: who checked, when (not before the
  collection, not after the return) and what; ``regularizado`` false is *invalid*;
- the costs were paid (what, amount, date not before the collection nor after the
  return, receipt) or the termo says there were none (``custas.houve`` false). The law
  creates no cost: it only lets the administration charge those "decorrentes" the
  collection caused (a tow, a yard) under the act that fixes them, so "none" is an
  honest answer and is printed as such;
- the return's date and hour, and the ciência of who received the alvará, are not
  after the moment of issue.

Signer. The law names no authority for the return; it is a bound act (two conditions,
no discretion) of the same servants § 2º charges with the collection, so the agent
signs it, and the servant who checked the vehicle is named beside.

Like every computation, these never raise for what the data lack: a value they cannot
compute is a *missing* item and the value is pending.
"""

from __future__ import annotations

from collections.abc import Mapping
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
from lavra.inputs.reading import DATE_MAX
from lavra.law.model import Law
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum.auto_anulado import annulled_item
from lavra_americana.comum.citing import numbered, short
from lavra_americana.comum.computing import (
    after_issue,
    data_of,
    date_at,
    fact_after_issue,
    on_the_spot_items,
)
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import bare_number, same_plate

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "RECEIPT_FORM",
    "RETURN_FORM",
    "recibo_recolhimento_alvara",
    "termo_devolucao_alvara",
]

LAW = "fretamento"
ART21 = f"{LAW}#art21"
RELEASE = f"{LAW}#art21_par1"
WITHDRAWAL = f"{LAW}#art21_par2"
CONTINUITY = f"{LAW}#art21_par3"
RETURN = f"{LAW}#art21_par4"
INSPECTION_POWER = f"{LAW}#art28"

RECEIPT_FORM = "recibo-recolhimento-alvara"
RETURN_FORM = "termo-devolucao-alvara"
ALVARA_FORM = "alvara-fretamento"
ACT_FORMS = {
    "termo-impedimento": ("termo-impedimento-fretamento", "Termo de Impedimento Temporário"),
    "auto-infracao": ("auto-infracao-fretamento", "Auto de Infração"),
}

IMPLEMENTED: tuple[str, ...] = (WITHDRAWAL, CONTINUITY, RETURN)
"""Citations these computations apply (coverage): the alvará collected against a
numbered receipt (art. 21, § 2º, with the duty of § 3º printed) and given back only on
the two conditions of § 4º."""

# (schemas/recibo-recolhimento-alvara.json)
COLLECTED_ON = "/ocorrencia/data"
COLLECTED_AT = "/ocorrencia/hora"
CIENCIA = "/ciencia/data"
# (schemas/termo-devolucao-alvara.json)
RETURNED_ON = "/devolucao/data"
RETURNED_AT = "/devolucao/hora"
PRESENTED_ON = "/apresentacao/data"
PRESENTED_AT = "/apresentacao/hora"
PAID_ON = "/custas/data_pagamento"
RECEIPT_NUMBER = "/recibo/numero"


def _pending(reason: str) -> dict[str, Any]:
    return {"pendente": reason, "fundamento": []}


def _moment(day: date | None, hour: Any) -> tuple[date, str] | None:
    """(day, "HH:MM") to compare two facts of the same acts; None without a day."""
    if day is None:
        return None
    return day, hour.strip() if isinstance(hour, str) else "00:00"


def _out_of_order(
    first: tuple[date, str] | None, second: tuple[date, str] | None, field: str,
    message: str,
) -> list[Item]:
    """*Invalid* at ``field`` when the fact ``first`` is strictly earlier than the fact
    ``second`` it must follow (both known); ``message`` names them ``{first}``,
    ``{second}``."""
    if first is None or second is None or not first < second:
        return []
    text = message.format(first=_when(first), second=_when(second))
    return [item_at(field, Status.INVALID, text, RETURN)]


def _when(moment: tuple[date, str]) -> str:
    return f"{format_date(moment[0])}, às {moment[1]}"


def _same_company(record: PriorRecord, data: Mapping[str, Any]) -> bool | None:
    """Whether the record is of the company of ``data`` (by CNPJ digits); None if unknown."""
    theirs = clean_text(pointers.get(record.data, "/empresa/cnpj"))
    ours = clean_text(pointers.get(data, "/empresa/cnpj"))
    if theirs is None or ours is None:
        return None
    return "".join(c for c in theirs if c.isalnum()) == "".join(c for c in ours if c.isalnum())


def _ownership_items(
    record: PriorRecord, data: Mapping[str, Any], field: str, label: str, basis: str
) -> list[Item]:
    """*Invalid* when ``record`` is of another vehicle or company than the data's."""
    items = []
    plate = pointers.get(record.data, "/veiculo/placa")
    if same_plate(plate, pointers.get(data, "/veiculo/placa")) is False:
        items.append(item_at(field, Status.INVALID,
                             f"{label} é do veículo de placa {plate}, não deste.", basis))
    if _same_company(record, data) is False:
        company = pointers.get(record.data, "/empresa/razao_social") or "outra empresa"
        items.append(item_at(field, Status.INVALID,
                             f"{label} é de {company}, não da empresa deste documento.", basis))
    return items


def _alvara(
    history: History | None, data: Mapping[str, Any], basis: str
) -> tuple[dict[str, Any], list[Item]]:
    """The alvará named at ``/alvara/numero``, printed as the registry records it."""
    typed = clean_text(pointers.get(data, "/alvara/numero"))
    if typed is None:
        return {"numero": None, "no_registro": None}, []
    found = None if history is None else history.document(ALVARA_FORM, typed)
    if found is None:
        return {"numero": typed, "no_registro": False if history is not None else None}, []
    label = f"O Alvará de Licença de Circulação {found.printed}"
    items = _ownership_items(found, data, "/alvara/numero", label, basis)
    return {"numero": found.printed, "no_registro": True}, items


def _act(
    history: History | None, data: Mapping[str, Any], on: date, laws: Mapping[str, Law]
) -> tuple[dict[str, Any], list[Item]]:
    """The termo or auto the receipt belongs to, checked when the registry holds it."""
    kind = pointers.get(data, "/ato/tipo")
    number = clean_text(pointers.get(data, "/ato/numero"))
    if kind not in ACT_FORMS or number is None:
        return {"descricao": None, "numero": number, "no_registro": None}, []
    form, what = ACT_FORMS[kind]
    found = None if history is None else history.document(form, number)
    if found is None:
        registered = False if history is not None else None
        return {"descricao": what, "numero": number, "no_registro": registered}, []
    values = {"descricao": what, "numero": found.printed, "no_registro": True}
    label = f"O {what} {found.printed}"
    field = "/ato/numero"
    items = _ownership_items(found, data, field, label, WITHDRAWAL)
    if found.cancelled:
        items.append(item_at(field, Status.INVALID,
                             f"{label} foi cancelado: o recibo não pode pertencer a ele.",
                             WITHDRAWAL))
    void = annulled_item(found, field, "o recibo não pode pertencer a ele.", WITHDRAWAL)
    items.extend([] if void is None else [void])
    if found.reference_date != on:
        items.append(item_at(
            field, Status.INVALID,
            f"{label} é de {format_date(found.reference_date)} e o recolhimento de "
            f"{format_date(on)}: o alvará é recolhido na constatação que o ato registra "
            f"({short(laws, WITHDRAWAL)}).", WITHDRAWAL))
    remedied = (
        found.data.get("desfecho") == "sanado_no_local"
        or pointers.get(found.data, "/impedimento/sanado_no_local") is True
    )
    if remedied:
        items.append(item_at(
            field, Status.INVALID,
            f"{label} registra a irregularidade sanada no local e o veículo liberado "
            f"({short(laws, RELEASE)}): nesse caso o alvará não é recolhido.", RELEASE))
    return values, items


def _outcome_texts(laws: Mapping[str, Law]) -> dict[str, str]:
    return {
        "continuidade": (
            "A empresa ou entidade deverá providenciar a continuidade do transporte dos "
            "passageiros, de forma satisfatória, segura e imediata "
            f"({short(laws, CONTINUITY)})."
        ),
        "devolucao": (
            "O Alvará de Licença de Circulação será devolvido ao transportador somente após "
            "a apresentação do veículo devidamente regularizado e mediante o recolhimento "
            f"de eventuais custas decorrentes ({short(laws, RETURN)}), por termo de "
            "devolução que cita o número deste recibo."
        ),
    }


def recibo_recolhimento_alvara(request: ComputeInput) -> Computed:
    """The receipt of the alvará collected (art. 21, § 2º).

    ``values``: ``alvara`` (``numero`` as the registry prints it, ``no_registro``),
    ``ato`` (``descricao``, ``numero``, ``no_registro``), ``continuidade``,
    ``devolucao``, ``fundamento``; ``pendente`` while the date is unknown.
    """
    data = data_of(request)
    on = date_at(data, COLLECTED_ON)
    if on is None:
        return Computed(_pending("Informe a data do recolhimento."))
    laws = statutory_context(request).laws
    items: list[Item] = [
        *after_issue(on, request.issued_on, COLLECTED_ON, "data do recolhimento", WITHDRAWAL),
        *on_the_spot_items(request, "data e hora do recolhimento", WITHDRAWAL),
    ]
    ciencia = date_at(data, CIENCIA)
    if ciencia is not None and ciencia < on:
        items.append(item_at(
            CIENCIA, Status.INVALID,
            f"A data do recebimento do recibo ({format_date(ciencia)}) é anterior à do "
            f"recolhimento ({format_date(on)}).", WITHDRAWAL))
    alvara, alvara_items = _alvara(request.history, data, WITHDRAWAL)
    act, act_items = _act(request.history, data, on, laws)
    items.extend(alvara_items + act_items)
    values = {
        "alvara": alvara,
        "ato": act,
        **_outcome_texts(laws),
        "pendente": None,
        "fundamento": in_legal_order(
            [ART21, WITHDRAWAL, CONTINUITY, RETURN, INSPECTION_POWER], laws
        ),
    }
    return Computed(values, unique_items(items))


# ---------------------------------------------------------------- the return (§ 4º)


def _receipt(
    request: ComputeInput, data: Mapping[str, Any], laws: Mapping[str, Law]
) -> tuple[PriorRecord | None, list[Item]]:
    """The receipt in the registry: exists, stands, same vehicle, company and alvará."""
    wanted = clean_text(pointers.get(data, RECEIPT_NUMBER))
    if wanted is None:
        return None, []  # the schema reports it
    history = request.history
    found = None if history is None else history.document(RECEIPT_FORM, wanted)
    if found is None:
        return None, [item_at(
            RECEIPT_NUMBER, Status.MISSING,
            f"O {numbered('recibo de recolhimento', wanted)} não consta do registro de documentos "
            "emitidos: sem conferir no registro que o alvará foi recolhido contra esse "
            "recibo, e que ele não foi devolvido, o termo de devolução não pode ser emitido "
            f"({short(laws, RETURN)}).", RETURN)]
    label = f"O recibo {found.printed}"
    items = _ownership_items(found, data, RECEIPT_NUMBER, label, RETURN)
    if found.cancelled:
        reason = f" ({found.cancel_reason})" if found.cancel_reason else ""
        items.append(item_at(RECEIPT_NUMBER, Status.INVALID,
                             f"{label} foi cancelado{reason}.", RETURN))
    theirs = clean_text(pointers.get(found.data, "/alvara/numero"))
    ours = clean_text(pointers.get(data, "/alvara/numero"))
    if theirs and ours and bare_number(theirs) != bare_number(ours):
        items.append(item_at(
            "/alvara/numero", Status.INVALID,
            f"{label} registra o recolhimento do alvará {format_act_number(theirs)}, não do "
            f"{format_act_number(ours)}: "
            "devolve-se o alvará recolhido.", RETURN))
    return found, items


def _already_returned(request: ComputeInput, receipt: PriorRecord) -> list[Item]:
    """*Invalid* when a standing termo de devolução already gave this receipt back."""
    plate = clean_text(pointers.get(request.data, "/veiculo/placa"))
    if request.history is None or plate is None:
        return []
    wanted = bare_number(receipt.number)
    for record in request.history.prior_autos(plate, RETURN_FORM, receipt.reference_date,
                                              DATE_MAX):
        theirs = clean_text(pointers.get(record.data, RECEIPT_NUMBER)) or ""
        if bare_number(theirs) == wanted:
            return [item_at(
                RECEIPT_NUMBER, Status.INVALID,
                f"O alvará recolhido pelo recibo {receipt.printed} já foi devolvido pelo "
                f"termo {record.printed}, de {format_date(record.reference_date)}.", RETURN)]
    return []


def _presentation_items(
    request: ComputeInput, data: Mapping[str, Any], collected: tuple[date, str] | None,
    returned: tuple[date, str] | None,
) -> list[Item]:
    day = date_at(data, PRESENTED_ON)
    presented = _moment(day, pointers.get(data, PRESENTED_AT))
    items = fact_after_issue(
        request, day, PRESENTED_ON, "apresentação do veículo regularizado", RETURN,
        hour=pointers.get(data, PRESENTED_AT), hour_pointer=PRESENTED_AT,
    )
    if pointers.get(data, "/apresentacao/regularizado") is False:
        items.append(item_at(
            "/apresentacao/regularizado", Status.INVALID,
            "O veículo não foi apresentado devidamente regularizado: o alvará só é devolvido "
            "após a apresentação do veículo regularizado (art. 21, § 4º).", RETURN))
    items.extend(_out_of_order(
        presented, collected, PRESENTED_ON,
        "A apresentação do veículo ({first}) é anterior ao recolhimento do alvará "
        "({second}): a regularização que autoriza a devolução é a verificada depois do "
        "recolhimento."))
    items.extend(_out_of_order(
        returned, presented, RETURNED_ON,
        "A devolução ({first}) é anterior à apresentação do veículo regularizado "
        "({second}): o alvará é devolvido somente após ela (art. 21, § 4º)."))
    return items


def _costs(
    request: ComputeInput, data: Mapping[str, Any], collected: tuple[date, str] | None,
    returned_on: date,
) -> tuple[str | None, list[Item]]:
    """The sentence the termo prints about the costs, and the items of their dates."""
    had = pointers.get(data, "/custas/houve")
    if had is False:
        return "Não houve custas decorrentes do recolhimento do alvará.", []
    if had is not True:
        return None, []  # the schema reports it
    paid = date_at(data, PAID_ON)
    items = fact_after_issue(request, paid, PAID_ON, "data do pagamento das custas", RETURN)
    if paid is not None and paid > returned_on:
        items.append(item_at(
            PAID_ON, Status.INVALID,
            f"As custas foram pagas em {format_date(paid)}, depois da devolução "
            f"({format_date(returned_on)}): o alvará é devolvido mediante o recolhimento "
            "das custas (art. 21, § 4º).", RETURN))
    if paid is not None and collected is not None and paid < collected[0]:
        items.append(item_at(
            PAID_ON, Status.INVALID,
            f"O pagamento ({format_date(paid)}) é anterior ao recolhimento do alvará "
            f"({format_date(collected[0])}): as custas do § 4º são as decorrentes dele.",
            RETURN))
    what = clean_text(pointers.get(data, "/custas/descricao"))
    proof = clean_text(pointers.get(data, "/custas/comprovante"))
    if what is None or paid is None:
        return None, items
    return (f"Custas decorrentes do recolhimento ({what}) pagas em {format_date(paid)}"
            + (f", comprovante nº {proof}" if proof else "") + "."), items


def termo_devolucao_alvara(request: ComputeInput) -> Computed:
    """The return of the alvará collected (art. 21, § 4º).

    ``values``: ``recibo`` (``numero`` as the registry prints it, ``data``, ``hora``,
    ``irregularidade``, ``ato``), ``custas`` (the sentence printed), ``fundamento``;
    ``pendente`` while the date is unknown.
    """
    data = data_of(request)
    on = date_at(data, RETURNED_ON)
    if on is None:
        return Computed(_pending("Informe a data da devolução."))
    laws = statutory_context(request).laws
    items = fact_after_issue(request, on, RETURNED_ON, "devolução do alvará", RETURN,
                             hour=pointers.get(data, RETURNED_AT), hour_pointer=RETURNED_AT)
    ciencia = date_at(data, CIENCIA)
    if ciencia is not None and ciencia != on:
        items.append(item_at(
            CIENCIA, Status.INVALID,
            f"O recebimento do alvará ({format_date(ciencia)}) é o ato da devolução: sua "
            f"data é a da devolução ({format_date(on)}).", RETURN))
    receipt, receipt_items = _receipt(request, data, laws)
    items.extend(receipt_items)
    collected = None
    if receipt is not None:
        items.extend(_already_returned(request, receipt))
        collected = _moment(receipt.reference_date,
                            pointers.get(receipt.data, COLLECTED_AT))
    returned = _moment(on, pointers.get(data, RETURNED_AT))
    items.extend(_presentation_items(request, data, collected, returned))
    costs, cost_items = _costs(request, data, collected, on)
    items.extend(cost_items)
    values = {
        "recibo": None if receipt is None else {
            "numero": receipt.printed,
            "data": receipt.reference_date,
            "hora": pointers.get(receipt.data, COLLECTED_AT),
            "irregularidade": pointers.get(receipt.data, "/irregularidade"),
            "ato": pointers.get(receipt.data, "/ato/numero"),
        },
        "custas": costs,
        "pendente": None,
        "fundamento": in_legal_order([WITHDRAWAL, RETURN, INSPECTION_POWER], laws),
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "recibo_recolhimento_alvara": recibo_recolhimento_alvara,
    "termo_devolucao_alvara": termo_devolucao_alvara,
}
"""The computations of this module a form may name under ``"calculos"``."""
