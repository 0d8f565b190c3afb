"""Due process before an adverse decision of either law: the notice that opens the
defence, its ciência, then the defence or the lapse of its period.

A decision that takes away a right the administration granted (the cassação of the
fretamento Alvará de Licença de Circulação, the revogação of an Alvará para Transporte
Escolar) is taken in a proceeding: it may be complete only when the party was notified
of the accusation and either presented its defence (date and summary) or let the period
lapse (Constituição Federal, art. 5º, LV; Lei nº 9.784/1999, arts. 3º, III, 26 to 28).
Neither municipal law sets the period: each deadline-table row
(``fretamento#art22``, ``transporte-escolar#art23_inc3``) applies art. 44 of Lei nº
9.784/1999 by analogy (10 days from the ciência of the notice, on the municipal
calendar, the last day moved off a day without expediente).

The notice is an act of its own (:mod:`lavra_americana.comum.notificacao_defesa`: forms
``notificacao-defesa-cassacao`` and ``notificacao-defesa-revogacao``, numbered and
signed), and the decision names it by its number (``/defesa/notificacao/numero``).
:func:`defence` reads it from the registry, never from a date typed in the decision:

- the notice must be there, not cancelled, addressed to the same party (CNPJ or CPF),
  in the same process, for every alvará the decision reaches, and it must have accused
  every ground the decision applies (a party cannot be condemned for what it was not
  called to answer; Lei nº 9.784/1999, art. 26, § 1º, VI);
- the party's ciência is the fact recorded afterwards on the notice's registry entry
  (``lavra fato ciencia``, the facts page: who recorded it and when): without it the
  period has not started and the decision is *missing* it;
- the period runs from that ciência; without a defence, the decision may be taken only
  from the day after the last day (*invalid* before); a defence presented (still typed
  by staff: date and summary, the decision must examine it, art. 50) lets it follow at
  once; a ciência, or a defence, dated after the decision is *invalid*.

A notice the registry does not hold (given on paper before lavra, or a check made with
no registry at hand, as ``lavra demo`` and the drafts without history do) is accepted
only as *attested*, as the alvará of fretamento attests the requerimento
(:mod:`lavra_americana.fretamento.alvara`): a servant states who checked it in the
process, when, and the date of the ciência it records (``/defesa/notificacao/
conferencia``: ``responsavel``, ``data``; ``/defesa/notificacao/data_ciencia``); the
decision prints that it rests on that attestation and the process number. The number
alone proves nothing: without the attestation the requirement is *missing*. A number
in the notice form's own series (NOT-DEF-…) that the registry lacks is *invalid*, and
no attestation supplies it: lavra issued every number of its series (issue 22, § 3).

:class:`Proceeding` says whose defence, before which act, with which notice form and
grounds, so that each decision prints its own words. Implements no provision by itself:
the items cite the rule of the proceeding that asked.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from lavra.checking.computations import ComputeInput, PriorRecord, clean_text, period_words
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.law.statutory import StatutoryContext
from lavra.textutil import format_date
from lavra_americana.comum.computing import data_of, date_at, deadline_values
from lavra_americana.comum.guards import series_of
from lavra_americana.comum.processo import printed_after_processo

__all__ = [
    "DECISION_DATE",
    "IMPLEMENTED",
    "NOTICE_NUMBER",
    "Proceeding",
    "defence",
    "licence_numbers",
    "period_source",
    "same_number",
]

IMPLEMENTED: tuple[str, ...] = ("lei-9784-1999#art45",)
"""The one exception to a prior hearing (coverage): a precautionary measure taken at once,
without the party's prior manifestation (Lei nº 9.784/1999, art. 45), as the
vistoria extraordinária's withdrawal of a vehicle from service (fretamento art. 13,
:mod:`lavra_americana.fretamento.vistoria`, whose items cite it). Otherwise helpers
only: each item cites the rule of the proceeding that asked."""

DECISION_DATE = "/decisao/data"
NOTICE = "/defesa/notificacao"
NOTICE_NUMBER = f"{NOTICE}/numero"
NOTICE_CIENCIA = f"{NOTICE}/data_ciencia"
NOTICE_CHECK = f"{NOTICE}/conferencia"
DEFENCE_DATE = "/defesa/data_apresentacao"
DEFENCE_SUMMARY = "/defesa/sintese"
PROCESS = "/processo/numero"
ACCUSED = "/acusacao/hipoteses"


@dataclass(frozen=True)
class Proceeding:
    """Whose defence, before which act, opened by which notice.

    ``deadline``: the deadline-table key of the defence period; ``party``: the party
    with its article, in lower case (``"a empresa ou entidade"``, ``"o condutor"``);
    ``notified``: the participle agreeing with it (``"notificada"``); ``act``: the
    decision with its article (``"a cassação"``); ``basis``: the citations of the
    items about the decision's timing. ``notice_form``: the form of the notice;
    ``party_field``: where the party's CNPJ or CPF is, in the notice and in the decision
    alike; ``licence_field``: where the alvarás reached are (a list of ``{numero}`` or
    one ``numero``); ``grounds``: each ground's key, its citation and its label, as the
    notice accuses and the decision applies them; ``adverse``: the act that may follow,
    without its article, as the notice states it ("cassação do …"), and
    ``adverse_basis`` its citations; ``ground_basis``: the citations the adverse act adds
    for some grounds (key → citations), when a ground's own provision is not the
    sanction's.
    """

    deadline: str
    party: str
    notified: str
    act: str
    basis: tuple[str, ...]
    notice_form: str = ""
    party_field: str = ""
    licence_field: str = ""
    grounds: tuple[tuple[str, str, str], ...] = ()
    adverse: str = ""
    adverse_basis: tuple[str, ...] = ()
    ground_basis: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def party_subject(self) -> str:
        return self.party[:1].upper() + self.party[1:]


def period_source(context: StatutoryContext, key: str, notice: date) -> str | None:
    """Where the defence period comes from (the parameter's source), for the print."""
    rule = context.rules.get(key)
    if rule is None or rule.parameter is None:
        return None
    try:
        return context.parameters.value(rule.parameter, notice).source
    except LavraError:
        return None


_NUMBER = re.compile(r"(\d+)\s*/\s*(\d{4})")


def same_number(one: str | None, other: str | None) -> bool:
    """Whether two act numbers are the same number of the year, with or without series
    and "nº" (``"ALV-FRET 0012/2026"`` and ``"ALV-FRET nº 12/2026"``)."""
    a = _NUMBER.search(one or "")
    b = _NUMBER.search(other or "")
    if a is None or b is None:
        return (one or "").strip() == (other or "").strip() != ""
    return (int(a[1]), a[2]) == (int(b[1]), b[2])


def licence_numbers(data: Mapping[str, Any], field: str) -> list[str]:
    """The alvará numbers at ``field``: a list of ``{numero}``, or one number."""
    value = pointers.get(data, field)
    if isinstance(value, list):
        return [n for e in value if isinstance(e, Mapping)
                if (n := clean_text(e.get("numero"))) is not None]
    number = clean_text(value)
    return [] if number is None else [number]


def _digits(value: Any) -> str:
    return re.sub(r"\D", "", value) if isinstance(value, str) else ""


#: How a recorded ciência was given, as the decision prints it.
_GIVEN = {
    "pessoal": "dada pessoalmente",
    "ar": "dada por aviso de recebimento",
    "edital": "dada por edital",
    "eletronico": "dada por acesso eletrônico ao acompanhamento do requerimento",
}


@dataclass(frozen=True)
class _Notice:
    """The notice as the decision sees it: its number as printed, its ciência and the
    words saying where the ciência comes from; ``items`` what is wrong or missing."""

    printed: str
    ciencia: date | None
    source: str
    items: tuple[Item, ...]
    issued: date | None = None


def _item(status: Status, field: str, message: str, *basis: str, what: str = "") -> Item:
    """An item at ``field``; its requirement is the dotted field, or ``what``."""
    return Item(what or pointers.dotted(field), status, field, message, basis)


def _registered(record: PriorRecord, data: Mapping[str, Any], proceeding: Proceeding,
                grounds: Collection[str]) -> _Notice:
    """The notice the registry holds, checked against the decision (module docstring)."""
    key, printed = proceeding.deadline, record.printed
    items: list[Item] = []

    def wrong(what: str, message: str) -> None:
        items.append(_item(Status.INVALID, NOTICE_NUMBER, message, key, *proceeding.basis,
                           what=f"defesa.notificacao.{what}"))

    if record.cancelled:
        wrong("cancelada", f"A notificação para defesa {printed} foi cancelada no registro"
              + (f" ({record.cancel_reason})" if record.cancel_reason else "")
              + f": não abre a defesa, e {proceeding.act} não pode ser decidida com base nela.")
    notified = _digits(pointers.get(record.data, proceeding.party_field))
    party = _digits(pointers.get(data, proceeding.party_field))
    if notified and party and notified != party:
        wrong("parte", f"A notificação para defesa {printed} foi dirigida a outra parte "
              f"({pointers.get(record.data, proceeding.party_field)}), não à desta decisão "
              f"({pointers.get(data, proceeding.party_field)}).")
    process = clean_text(pointers.get(record.data, PROCESS))
    ours = clean_text(pointers.get(data, PROCESS))
    if process and ours and process.casefold() != ours.casefold():
        wrong("processo", f"A notificação para defesa {printed} é do processo "
              f"{printed_after_processo(process)}, não do processo "
              f"{printed_after_processo(ours)} desta decisão.")
    noticed = licence_numbers(record.data, proceeding.licence_field)
    for number in licence_numbers(data, proceeding.licence_field):
        if not any(same_number(number, n) for n in noticed):
            wrong("alvaras", f"O alvará {number} não consta da notificação para defesa "
                  f"{printed}: a parte não foi chamada a defender-se quanto a ele.")
    accused = pointers.get(record.data, ACCUSED)
    accused = set(accused) if isinstance(accused, list) else set()
    labels = {k: (citation, label) for k, citation, label in proceeding.grounds}
    for ground in grounds:
        if ground not in accused and ground in labels:
            wrong("hipoteses", f"A hipótese «{labels[ground][1]}» não foi imputada na "
                  f"notificação para defesa {printed}: {proceeding.act} não pode fundar-se em "
                  "fato ou dispositivo de que a parte não foi chamada a defender-se (Lei "
                  "nº 9.784/1999, art. 26, § 1º, VI). Notifique-a de novo, com a "
                  "nova imputação.")
    fact = record.fact("ciencia")
    if fact is None:
        items.append(_item(
            Status.MISSING, NOTICE_NUMBER,
            f"A ciência da notificação para defesa {printed} não consta do registro: registre-a "
            "no registro do documento (data e meio: pessoal, aviso de recebimento ou edital). "
            f"O prazo de defesa só corre da ciência, e sem ela {proceeding.act} não pode ser "
            "decidida (Constituição Federal, art. 5º, LV).", key,
            what="defesa.notificacao.ciencia"))
        return _Notice(printed, None, "", tuple(items))
    # The signed decision states how the party learned of the notice (Lei nº 9.784/1999,
    # art. 26, § 3º), from the registry; not the staff account that typed it in (a login
    # is no part of an act).
    source = ", ".join(filter(None, (_GIVEN.get(fact.means or ""),
                                     "conforme o registro do documento")))
    typed = date_at(data, NOTICE_CIENCIA)
    if typed is not None and typed != fact.on:
        items.append(_item(
            Status.INVALID, NOTICE_CIENCIA,
            f"A data da ciência informada ({format_date(typed)}) difere da que consta do "
            f"registro da notificação {printed} ({format_date(fact.on)}): o prazo de defesa "
            "conta-se da ciência registrada. Retire a data informada (ou corrija o registro).",
            key))
    return _Notice(printed, fact.on, source, tuple(items), record.reference_date)


def _attested(data: Mapping[str, Any], number: str, on: date, proceeding: Proceeding) -> _Notice:
    """A notice the registry lacks, accepted on a servant's attestation (module docstring)."""
    key = proceeding.deadline
    process = printed_after_processo(pointers.get(data, PROCESS)) or "-"
    ciencia = date_at(data, NOTICE_CIENCIA)
    entry = pointers.get(data, NOTICE_CHECK)
    who = clean_text(entry.get("responsavel")) if isinstance(entry, Mapping) else None
    checked = date_at(entry, "/data") if isinstance(entry, Mapping) else None
    if who is None or ciencia is None:
        return _Notice(number, None, "", (_item(
            Status.MISSING, NOTICE_CHECK,
            f"A notificação para defesa {number} não consta do registro de documentos "
            f"emitidos: um servidor deve conferi-la nos autos do processo {process} (dirigida "
            f"{_to(proceeding)}, com a imputação desta decisão) e atestar a conferência (quem e "
            "quando) e a data da ciência que ela registra. O número, sozinho, não comprova a "
            "notificação.", key),))
    if checked is None or checked > on or checked < ciencia:
        return _Notice(number, None, "", (_item(
            Status.INVALID, f"{NOTICE_CHECK}/data",
            f"A conferência da notificação deve ser feita depois da ciência "
            f"({format_date(ciencia)}) e até a data da decisão ({format_date(on)}).", key),))
    source = (f"atestada por {who}, em {format_date(checked)}, em conferência nos autos do "
              f"processo {process}")
    return _Notice(number, ciencia, source, ())


def _to(proceeding: Proceeding) -> str:
    return {"a": "à", "o": "ao"}.get(proceeding.party.split(" ", 1)[0], "a") + (
        " " + proceeding.party.split(" ", 1)[1] if " " in proceeding.party else "")


def _notice(request: ComputeInput, on: date, proceeding: Proceeding,
            grounds: Collection[str]) -> _Notice | Item:
    data = data_of(request)
    number = clean_text(pointers.get(data, NOTICE_NUMBER))
    if number is None:
        return _item(
            Status.MISSING, NOTICE_NUMBER,
            f"Informe o número da notificação para defesa de {proceeding.party}: sem "
            f"notificação, {proceeding.act} não pode ser decidida (Constituição Federal, art. "
            "5º, LV).", proceeding.deadline)
    record = (None if request.history is None or not proceeding.notice_form
              else request.history.document(proceeding.notice_form, number))
    if record is not None:
        return _registered(record, data, proceeding, grounds)
    series = series_of(proceeding.notice_form) if proceeding.notice_form else None
    if request.history is not None and series and re.match(
            rf"\s*{re.escape(series)}(?![A-Z-])", number, re.IGNORECASE):
        # Issue 22, § 3: a number of lavra's own series is one the registry holds; the
        # servant's attestation is for a paper notice outside the series only.
        return _item(
            Status.INVALID, NOTICE_NUMBER,
            f"A notificação para defesa {number} não consta do registro: o número é da "
            f"série {series} do lavra e nenhuma notificação expedida ou importada o tem. "
            "Confira o número; a conferência de um servidor supre apenas a notificação em "
            f"papel, de numeração fora da série {series}.", proceeding.deadline)
    return _attested(data, number, on, proceeding)


def defence(
    request: ComputeInput, on: date, context: StatutoryContext, proceeding: Proceeding,
    grounds: Collection[str] = (),
) -> tuple[dict[str, Any] | None, list[Item]]:
    """The notice, its ciência and the defence before the decision of ``on`` (module
    docstring); ``grounds``: the keys of the grounds the decision applies.

    ``values``: ``numero`` (the notice, with its series), ``emitida_em`` (its date; the
    ciência for an attested one), ``notificacao`` (the ciência,
    from which the period runs), ``origem_ciencia``, ``ultimo_dia``, ``explicacao``,
    ``apresentada``, ``texto`` (the sentence the decision prints); None while the notice,
    its ciência or the period is missing.
    """
    data = data_of(request)
    key = proceeding.deadline
    found = _notice(request, on, proceeding, grounds)
    if isinstance(found, Item):
        return None, [found]
    items: list[Item] = list(found.items)
    notice = found.ciencia
    if notice is None:
        return None, items
    for when, pointer, what, requirement in (
        (notice, NOTICE_NUMBER, "ciência da notificação para defesa",
         "defesa.notificacao.ciencia"),
        (date_at(data, DEFENCE_DATE), DEFENCE_DATE, "apresentação da defesa",
         "defesa.data_apresentacao"),
    ):
        if when is not None and when > on:
            items.append(
                _item(Status.INVALID, pointer,
                      f"A data da {what} ({format_date(when)}) é posterior à da decisão "
                      f"({format_date(on)}): {proceeding.act} só pode ser decidida depois de "
                      "oportunizada a defesa (Constituição Federal, art. 5º, LV).",
                      *proceeding.basis, key, what=requirement)
            )
    period_found, deadline_items = deadline_values(key, notice, context, NOTICE_NUMBER)
    items.extend(deadline_items)
    if period_found is None:
        return None, items
    last = period_found["ultimo_dia"]
    amount, unit = period_found["prazo"], period_found["unidade"]
    period = (
        period_words(amount, unit)[0]
        if isinstance(amount, int) and isinstance(unit, str)
        else "legal"
    )
    source = period_source(context, key, notice)
    if source:
        period = f"{period} ({source})"
    opening = (
        f"{proceeding.party_subject} foi {proceeding.notified} para apresentar defesa pela "
        f"notificação {found.printed}, com ciência em {format_date(notice)} ({found.source}), "
        f"no prazo de {period}"
    )
    values: dict[str, Any] = {
        "numero": found.printed,
        "emitida_em": found.issued or notice,
        "notificacao": notice,
        "origem_ciencia": found.source,
        "ultimo_dia": last,
        "explicacao": period_found["explicacao"],
        "apresentada": False,
        "texto": None,
    }
    if pointers.get(data, "/defesa/apresentada") is True:
        presented = date_at(data, DEFENCE_DATE)
        summary = pointers.get(data, DEFENCE_SUMMARY)
        if presented is None:
            items.append(_item(Status.MISSING, DEFENCE_DATE,
                               "Informe a data em que a defesa foi apresentada.", key))
        if not (isinstance(summary, str) and summary.strip()):
            items.append(_item(
                Status.MISSING, DEFENCE_SUMMARY,
                "Informe a síntese da defesa apresentada: a decisão deve examinar as "
                f"alegações d{proceeding.party} (Lei nº 9.784/1999, art. 50).", key))
        values["apresentada"] = True
        values["texto"] = opening + ", e a apresentou" + (
            f" em {format_date(presented)}." if presented else "."
        )
        return values, items
    if on <= last:
        items.append(
            _item(Status.INVALID, DECISION_DATE,
                  f"Sem defesa apresentada, {proceeding.act} só pode ser decidida depois de "
                  f"esgotado o prazo de defesa: {period_found['explicacao']} A decisão, datada "
                  f"de {format_date(on)}, não é posterior ao último dia do prazo; só pode ser "
                  f"tomada a partir de {format_date(last + timedelta(days=1))} (Constituição "
                  "Federal, art. 5º, LV; Lei nº 9.784/1999, art. 44).",
                  key, *proceeding.basis, what="defesa.prazo")
        )
    else:
        items.append(_item(Status.MET, NOTICE_NUMBER,
                           f"{period_found['explicacao']} Não foi apresentada defesa.", key,
                           what="defesa.prazo"))
    values["texto"] = f"{opening}, encerrado em {format_date(last)}, e não a apresentou."
    return values, items
