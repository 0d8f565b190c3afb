"""The appeal against a penalty of Lei nº 4.515/2007 (transporte escolar) and the
notice of a penalty to an offender who was not present: arts. 25 to 27.

Art. 25: the penalties SETRANSV applies "através da fiscalização" admit an appeal, in a
single instance, to the Prefeito. Art. 26: "O prazo para interposição do recurso será de
10 (dez) dias, contados da data em que o infrator tenha tomado ciência da punição".
Art. 27: SETRANSV may reconsider while no appeal decision exists.

``recurso_transporte_escolar`` — the appellant's own form (fillable, no series)
    The auto is identified by its printed number *with its series*
    ("AIE-ESC nº 0001/2026", the schema's pattern). The last day is counted from the
    ciência the appellant states (``transporte-escolar#art26`` in the deadline table:
    art. 66 of Lei nº 9.784/1999 by analogy, the last day moved off days without
    expediente) and printed. When the registry holds the auto, the stated date of the
    infraction must be its date, and a ciência written in the auto is the one the
    period runs from (a different stated date is *invalid*). An appeal dated after the
    last day is *invalid* and says so: it may still be filed (the right of petition is
    not taken away), but the Prefeito does not take cognisance of an appeal out of time
    (Lei nº 9.784/1999, art. 63, I), save for a review of his own motion (§ 2º); the
    appellant is told before filing, which protects him more than silence would. An
    appeal filed *before* the ciência is timely (the period has not begun). The filing
    date may not be after the day the form is drafted (no future facts).
    :func:`prefill_from_auto` builds the form's data from the auto's registry record.

``notificacao_penalidade`` — the act of SETRANSV (series NOT-PEN)
    Notifies the penalty of an auto whose offender gave no ciência in it (absent, or
    refused to sign). The auto must be in the registry, not cancelled, and without a
    ciência written in it: a notice of a penalty already known would suggest a new
    period that the law does not give (*invalid*). The ciência of the notice is a later
    fact (signed receipt or aviso de recebimento), so the notice cannot print the last
    day: it states how the period runs — 10 days from the ciência of the notice,
    excluding that day, the last day moved to the next working day. Recording that
    ciência on the registry entry and counting the period from it is the registry's
    part, not this act's. The notice's date may not precede the infraction nor follow
    the issue.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    PriorRecord,
    clean_text,
    item_at,
    period_words,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum.auto_anulado import annulled_item
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import (
    after_issue,
    data_of,
    date_at,
    deadline_values,
    period_of,
)
from lavra_americana.comum.orgao import secretaria
from lavra_americana.comum.sources import statutory_context

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "notificacao_penalidade",
    "prefill_from_auto",
    "recurso_transporte_escolar",
]

SCHOOL = "transporte-escolar"
AUTO_FORM = "auto-infracao-escolar"
APPEAL = f"{SCHOOL}#art25"
APPEAL_PERIOD = f"{SCHOOL}#art26"
RECONSIDER = f"{SCHOOL}#art27"

IMPLEMENTED: tuple[str, ...] = (APPEAL, APPEAL_PERIOD, RECONSIDER)
"""Citations this module applies (coverage)."""

AUTO_NUMBER = "/auto/numero"
AUTO_DATE = "/auto/data_infracao"
CIENCIA = "/ciencia/data"
FILED = "/data_recurso"
NOTICE_DATE = "/notificacao/data"


def _period_rule(request: ComputeInput, on: date) -> str:
    context = statutory_context(request)
    period = period_of(context, APPEAL_PERIOD, on)
    length, counted = period_words(*period) if period else ("o prazo", "contado")
    return (
        "Da penalidade cabe recurso, em única instância, ao Prefeito Municipal "
        f"({short(context.laws, APPEAL)}), no prazo de {length} {counted} da data em que o "
        f"infrator tomar ciência da punição ({short(context.laws, APPEAL_PERIOD)})."
    )


def _auto_record(request: ComputeInput, number: Any) -> PriorRecord | None:
    wanted = clean_text(number)
    if wanted is None or request.history is None:
        return None
    return request.history.document(AUTO_FORM, wanted)


def prefill_from_auto(record: PriorRecord, printed: str) -> dict[str, Any]:
    """The appeal's data taken from the auto's registry record (``printed``: its number
    as printed, with the series): the appellant, the auto and the ciência written in it."""
    data = record.data
    driver = pointers.get(data, "/condutor") or {}
    filled: dict[str, Any] = {
        "recorrente": {k: driver[k] for k in ("nome", "cpf") if k in driver},
        "auto": {"numero": printed, "data_infracao": record.reference_date.isoformat()},
    }
    if isinstance(driver.get("alvara"), str):
        filled["recorrente"]["alvara"] = driver["alvara"]
    placa = pointers.get(data, "/veiculo/placa")
    if isinstance(placa, str):
        filled["auto"]["placa"] = placa
    ciencia = clean_text(pointers.get(data, CIENCIA))
    if ciencia is not None:
        filled["ciencia"] = {"no_auto": True, "data": ciencia}
    return filled


def _registry_items(
    record: PriorRecord | None, data: Mapping[str, Any], ciencia: date | None
) -> list[Item]:
    if record is None:
        return []
    found: list[Item] = []
    label = f"O auto {format_act_number(record.printed)}"
    if record.cancelled:
        found.append(item_at(AUTO_NUMBER, Status.INVALID,
                             f"{label} foi cancelado: não há penalidade a recorrer.", APPEAL))
    void = annulled_item(record, AUTO_NUMBER, "não há penalidade a notificar nem a recorrer.",
                         APPEAL)
    if void is not None:
        found.append(void)
    stated = date_at(data, AUTO_DATE)
    if stated is not None and stated != record.reference_date:
        found.append(item_at(
            AUTO_DATE, Status.INVALID,
            f"{label} registra a infração em {format_date(record.reference_date)}, não em "
            f"{format_date(stated)}.", APPEAL))
    in_auto = date_at(record.data, CIENCIA)
    if in_auto is not None and ciencia is not None and ciencia != in_auto:
        found.append(item_at(
            CIENCIA, Status.INVALID,
            f"{label} registra a ciência da punição em {format_date(in_auto)}, dada no "
            f"próprio auto: o prazo conta-se dessa data, não de {format_date(ciencia)}.",
            APPEAL_PERIOD))
    return found


def recurso_transporte_escolar(request: ComputeInput) -> Computed:
    """The appeal's last day (art. 26) and its timeliness.

    ``values``: ``regra`` (the rule, printed), ``ultimo_dia`` (date or None),
    ``prazo`` (the deadline values or None), ``tempestivo`` (bool or None),
    ``reconsideracao`` (art. 27, printed), ``auto_registrado`` (bool).
    """
    data = data_of(request)
    context = statutory_context(request)
    ciencia = date_at(data, CIENCIA)
    filed = date_at(data, FILED)
    record = _auto_record(request, pointers.get(data, AUTO_NUMBER))
    items = _registry_items(record, data, ciencia)
    if filed is not None:
        items.extend(after_issue(filed, request.issued_on, FILED, "data do recurso", APPEAL))
    infraction = date_at(data, AUTO_DATE)
    if ciencia is not None and infraction is not None and ciencia < infraction:
        items.append(item_at(
            CIENCIA, Status.INVALID,
            f"A data da ciência ({format_date(ciencia)}) é anterior à da infração "
            f"({format_date(infraction)}).", APPEAL_PERIOD))
    values: dict[str, Any] = {
        "regra": _period_rule(request, ciencia or request.on),
        "ultimo_dia": None,
        "prazo": None,
        "tempestivo": None,
        "auto_registrado": record is not None,
        "reconsideracao": (
            f"A {secretaria(request)} poderá, por motivo devidamente "
            "justificado, reconsiderar a decisão que aplicou a penalidade, enquanto não "
            f"houver decisão deste recurso ({short(context.laws, RECONSIDER)})."
        ),
    }
    if ciencia is None:
        return Computed(values, unique_items(items))
    deadline, problems = deadline_values(APPEAL_PERIOD, ciencia, context, CIENCIA)
    items.extend(problems)
    if deadline is None:
        return Computed(values, unique_items(items))
    last: date = deadline["ultimo_dia"]
    values.update(prazo=deadline, ultimo_dia=last)
    if filed is not None:
        timely = filed <= last
        values["tempestivo"] = timely
        items.append(item_at(
            FILED,
            Status.MET if timely else Status.INVALID,
            f"Recurso de {format_date(filed)}, até o último dia do prazo "
            f"({format_date(last)}), contado da ciência dada em {format_date(ciencia)}: "
            f"tempestivo ({short(context.laws, APPEAL_PERIOD)})."
            if timely else
            f"O prazo de recurso, contado da ciência dada em {format_date(ciencia)}, "
            f"terminou em {format_date(last)} ({short(context.laws, APPEAL_PERIOD)}): o "
            f"recurso de {format_date(filed)} é intempestivo. Pode ser protocolado, mas dele "
            "o Prefeito não conhecerá, salvo revisão de ofício (Lei nº 9.784/1999, "
            "art. 63, I e § 2º).",
            APPEAL_PERIOD,
        ))
    return Computed(values, unique_items(items))


def notificacao_penalidade(request: ComputeInput) -> Computed:
    """The notice of a penalty (art. 26): the auto checked in the registry, the rule of
    the period printed as it runs from the notice's ciência.

    ``values``: ``regra`` (printed), ``contagem`` (how the days are counted),
    ``reconsideracao`` (art. 27), ``auto_registrado`` (bool).
    """
    data = data_of(request)
    context = statutory_context(request)
    notice = date_at(data, NOTICE_DATE)
    number = clean_text(pointers.get(data, AUTO_NUMBER))
    record = _auto_record(request, number)
    items: list[Item] = []
    if notice is not None:
        items.extend(after_issue(notice, request.issued_on, NOTICE_DATE,
                                 "data da notificação", APPEAL_PERIOD))
    if number is not None and record is None:
        items.append(item_at(
            AUTO_NUMBER, Status.MISSING,
            f"O auto de infração {number} não consta do registro de documentos emitidos: sem "
            "conferir no registro que ele existe e não foi cancelado, não se notifica a "
            "penalidade.", APPEAL_PERIOD))
    elif record is not None:
        items.extend(_registry_items(record, data, None))
        in_auto = date_at(record.data, CIENCIA)
        if in_auto is not None:
            items.append(item_at(
                AUTO_NUMBER, Status.INVALID,
                "O infrator tomou ciência da punição no próprio auto "
                f"{format_act_number(record.printed)}, em {format_date(in_auto)}: o prazo de "
                f"recurso corre desde então ({short(context.laws, APPEAL_PERIOD)}). Nova "
                "notificação sugeriria um prazo que a lei não dá.", APPEAL_PERIOD))
        if notice is not None and notice < record.reference_date:
            items.append(item_at(
                NOTICE_DATE, Status.INVALID,
                f"A notificação ({format_date(notice)}) é anterior à infração "
                f"({format_date(record.reference_date)}).", APPEAL_PERIOD))
    rule = _period_rule(request, notice or request.on).removesuffix(".")
    values: dict[str, Any] = {
        "regra": rule.replace("ciência da punição", "ciência desta notificação") + ".",
        "contagem": (
            "A ciência desta notificação é a data do recibo assinado pelo notificado ou a do "
            "aviso de recebimento. Na contagem exclui-se o dia da ciência e inclui-se o do "
            "vencimento; se este cair em dia sem expediente na Prefeitura, o prazo prorroga-se "
            "para o primeiro dia útil seguinte (Lei nº 9.784/1999, art. 66, aplicado "
            "por analogia)."
        ),
        "reconsideracao": (
            f"A {secretaria(request)} poderá, por motivo devidamente "
            "justificado, reconsiderar a decisão que aplicou a penalidade, enquanto não "
            f"houver decisão do recurso interposto ({short(context.laws, RECONSIDER)})."
        ),
        "auto_registrado": record is not None,
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "recurso_transporte_escolar": recurso_transporte_escolar,
    "notificacao_penalidade": notificacao_penalidade,
}
"""The computations of this module a form may name under ``"calculos"``."""
