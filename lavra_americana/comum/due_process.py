"""Due process before an adverse decision of either law: notice, then the defence or
the lapse of its period.

A decision that takes away a right the administration granted (the cassação of the
fretamento Alvará de Licença de Circulação, the revogação of an Alvará para Transporte
Escolar) is taken in a proceeding: it may be complete only when the party was notified
of the accusation and either presented its defence (date and summary) or let the period
lapse (Constituição Federal, art. 5º, LV; Lei nº 9.784/1999, arts. 3º, III, 26 to 28).
Neither municipal law sets the period: each deadline-table row
(``fretamento#art22``, ``transporte-escolar#art23_inc3``) applies art. 44 of Lei nº
9.784/1999 by analogy (10 days from the notice, on the municipal calendar, the last day
moved off a day without expediente). Without a defence, the decision may be taken only
from the day after the last day; a notice or a defence dated after the decision is
*invalid*; a defence presented needs its date and its summary (the decision must
examine it, Lei nº 9.784/1999, art. 50).

:func:`defence` reads ``/defesa`` (``notificacao_data``, ``apresentada``,
``data_apresentacao``, ``sintese``) and the decision's date; :class:`Proceeding` says
whose defence and which act, so that each decision prints its own words. Implements no
provision by itself: the items cite the rule of the proceeding that asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from lavra.checking.computations import period_words
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.law.statutory import StatutoryContext
from lavra.textutil import format_date
from lavra_americana.comum.computing import date_at, deadline_values

__all__ = ["DECISION_DATE", "IMPLEMENTED", "Proceeding", "defence"]

IMPLEMENTED: tuple[str, ...] = ()
"""Helpers only: each item cites the rule of the proceeding that asked."""

DECISION_DATE = "/decisao/data"
NOTICE_DATE = "/defesa/notificacao_data"
DEFENCE_DATE = "/defesa/data_apresentacao"
DEFENCE_SUMMARY = "/defesa/sintese"


@dataclass(frozen=True)
class Proceeding:
    """Whose defence, before which act.

    ``deadline``: the deadline-table key of the defence period; ``party``: the party
    with its article, in lower case (``"a empresa ou entidade"``, ``"o condutor"``);
    ``notified``: the participle agreeing with it (``"notificada"``); ``act``: the
    decision with its article (``"a cassação"``); ``basis``: the citations of the
    items about the decision's timing.
    """

    deadline: str
    party: str
    notified: str
    act: str
    basis: tuple[str, ...]

    @property
    def party_subject(self) -> str:
        return self.party[:1].upper() + self.party[1:]


def _period_source(context: StatutoryContext, key: str, notice: date) -> str | None:
    """Where the defence period comes from (the parameter's source), for the print."""
    rule = context.rules.get(key)
    if rule is None or rule.parameter is None:
        return None
    try:
        return context.parameters.value(rule.parameter, notice).source
    except LavraError:
        return None


def defence(
    data: Mapping[str, Any], on: date, context: StatutoryContext, proceeding: Proceeding
) -> tuple[dict[str, Any] | None, list[Item]]:
    """The notice and the defence before the decision of ``on`` (module docstring).

    ``values``: ``notificacao``, ``ultimo_dia``, ``explicacao``, ``apresentada``,
    ``texto`` (the sentence the decision prints); None while the notice or the period
    is missing.
    """
    key = proceeding.deadline
    items: list[Item] = []
    notice = date_at(data, NOTICE_DATE)
    if notice is None:
        return None, [
            Item(
                "defesa.notificacao_data",
                Status.MISSING,
                NOTICE_DATE,
                f"Informe a data em que {proceeding.party} foi {proceeding.notified} para "
                f"apresentar defesa: sem notificação, {proceeding.act} não pode ser decidida "
                "(Constituição Federal, art. 5º, LV).",
                (key,),
            )
        ]
    for pointer, what in (
        (NOTICE_DATE, "notificação para defesa"),
        (DEFENCE_DATE, "apresentação da defesa"),
    ):
        when = date_at(data, pointer)
        if when is not None and when > on:
            items.append(
                Item(
                    pointers.dotted(pointer),
                    Status.INVALID,
                    pointer,
                    f"A data da {what} ({format_date(when)}) é posterior à da decisão "
                    f"({format_date(on)}): {proceeding.act} só pode ser decidida depois de "
                    "oportunizada a defesa (Constituição Federal, art. 5º, LV).",
                    (*proceeding.basis, key),
                )
            )
    found, deadline_items = deadline_values(key, notice, context, NOTICE_DATE)
    items.extend(deadline_items)
    if found is None:
        return None, items
    last = found["ultimo_dia"]
    period = (
        period_words(found["prazo"], found["unidade"])[0]
        if isinstance(found["prazo"], int) and isinstance(found["unidade"], str)
        else "legal"
    )
    source = _period_source(context, key, notice)
    if source:
        period = f"{period} ({source})"
    opening = (
        f"{proceeding.party_subject} foi {proceeding.notified} para apresentar defesa em "
        f"{format_date(notice)}, no prazo de {period}"
    )
    values: dict[str, Any] = {
        "notificacao": notice,
        "ultimo_dia": last,
        "explicacao": found["explicacao"],
        "apresentada": False,
        "texto": None,
    }
    if pointers.get(data, "/defesa/apresentada") is True:
        presented = date_at(data, DEFENCE_DATE)
        summary = pointers.get(data, DEFENCE_SUMMARY)
        if presented is None:
            items.append(
                Item(
                    "defesa.data_apresentacao",
                    Status.MISSING,
                    DEFENCE_DATE,
                    "Informe a data em que a defesa foi apresentada.",
                    (key,),
                )
            )
        if not (isinstance(summary, str) and summary.strip()):
            items.append(
                Item(
                    "defesa.sintese",
                    Status.MISSING,
                    DEFENCE_SUMMARY,
                    "Informe a síntese da defesa apresentada: a decisão deve examinar as "
                    f"alegações d{proceeding.party} (Lei federal nº 9.784/1999, art. 50).",
                    (key,),
                )
            )
        values["apresentada"] = True
        values["texto"] = opening + ", e a apresentou" + (
            f" em {format_date(presented)}." if presented else "."
        )
        return values, items
    if on <= last:
        items.append(
            Item(
                "defesa.prazo",
                Status.INVALID,
                DECISION_DATE,
                f"Sem defesa apresentada, {proceeding.act} só pode ser decidida depois de "
                f"esgotado o prazo de defesa: {found['explicacao']} A decisão, datada de "
                f"{format_date(on)}, não é posterior ao último dia do prazo; só pode ser "
                f"tomada a partir de {format_date(last + timedelta(days=1))} (Constituição "
                "Federal, art. 5º, LV; Lei federal nº 9.784/1999, art. 44).",
                (key, *proceeding.basis),
            )
        )
    else:
        items.append(
            Item(
                "defesa.prazo",
                Status.MET,
                NOTICE_DATE,
                f"{found['explicacao']} Não foi apresentada defesa.",
                (key,),
            )
        )
    values["texto"] = f"{opening}, encerrado em {format_date(last)}, e não a apresentou."
    return values, items
