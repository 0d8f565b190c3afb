"""The cassação of the Alvará de Licença de Circulação, Lei nº 4.419/2006
(fretamento): art. 14, d, art. 22 and its parágrafo único, arts. 24 and 25.

``decisao_cassacao_fretamento`` (form ``decisao-cassacao-fretamento``) — the
Secretário's decision that cancels the Alvará de Licença de Circulação (art. 14, d):

- the hypotheses of art. 22 stated under ``/hipoteses`` (I dolo, II unpaid fines
  without appeal, III non-renewal, IV bankruptcy or dissolution), each with its
  citation and text; for II, no appeal can be said to be missing while the appeal
  period of an auto (art. 23, 15 days from the infraction) still runs on the date of
  the decision: such an auto is an *invalid* item; facts dated after the decision
  (an auto, a bankruptcy) are *invalid* too; each auto of lavra's series is read from the
  registry (held, not cancelled, of the company, its date and amount printed from the
  registry, a typed date or amount that differs *invalid*: the reading beside
  :func:`_registry_facts`); one under a recurso filed and not yet decided (art. 23, or
  art. 24 against the decision that kept it) is *invalid*: the fine is not unpaid "sem
  interposição de recurso" (the reading beside :func:`_appeal_item`); and so is, for
  III, an alvará whose expiry is not before the decision (it has not yet failed to be
  renewed), or a typed expiry that is not the registry's validity of an alvará listed
  (:func:`_expiry_items`);
- due process (:func:`lavra_americana.comum.due_process.defence`): the notice for
  defence (``notificacao-defesa-cassacao``, by its number, from the registry: the same
  company, process and alvarás, every hypothesis applied accused in it) and its ciência
  recorded on its entry, then the defence presented (date and summary) or the lapse of
  its period (10 days from the ciência,
  Lei nº 9.784/1999, art. 44, by analogy; the deadline table's ``fretamento#art22``) —
  a decision without defence on or before the last day is *invalid*; a notice after the
  decision, or a defence filed after it, is *invalid* (a cassação without prior defence
  would be void, CF art. 5º, LV);
- the 12-month bar of art. 22, parágrafo único, counted from the date of the decision
  by :func:`lavra.law.statutory.deadline_for` (``carencia``): the last day of the bar and
  the first day a new alvará may be obtained;
- the appeal to the Prefeito (art. 24: "da decisão do Secretário", in the same 15
  days, from the ciência): the rule, the period counted from the ciência, never a last
  day: the ciência comes after the signature, its line is left blank and the registry
  counts the last day from the ciência recorded on the entry; a ciência date typed in
  the data is *invalid* (:func:`lavra_americana.comum.computing.appeal_from_ciencia`);
- a decision dated after the day of issue is *invalid*;
- the "Fundamento legal" list: art. 14, d, art. 22 and the incisos applied, its

Like every computation, these never raise for what the data lack: a value they cannot
compute is a *missing* item and the value is pending.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    History,
    PriorRecord,
    bare_reference,
    in_legal_order,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.formats import mask_cpf_cnpj
from lavra.inputs.reading import maybe_date
from lavra.law.model import Law, resolve
from lavra.law.statutory import StatutoryContext
from lavra.registry.effects import LicenceStatus
from lavra.registry.licensing import LicenceView
from lavra.render.templating import format_moeda
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum import due_process
from lavra_americana.comum.auto_anulado import annulled_item
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import (
    after_issue,
    appeal_from_ciencia,
    date_at,
    deadline_values,
)
from lavra_americana.comum.guards import standing_items
from lavra_americana.comum.sources import rule_sources
from lavra_americana.fretamento.autos_registro import (
    auto_amount,
    pending_appeal,
    registered_auto,
    second_appeal_open,
)
from lavra_americana.fretamento.guia_multa import recorded_payment

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "decisao_cassacao_fretamento",
]

LAW = "fretamento"
ALVARA_FORM = "alvara-fretamento"
CASSATION = f"{LAW}#art14_ali4"
CASSATION_CASES = f"{LAW}#art22"
BAR = f"{LAW}#art22_par1u"
FIRST_APPEAL = f"{LAW}#art23"
APPEAL = f"{LAW}#art24"
LIABILITY = f"{LAW}#art25"


# Where the data lives (schemas/decisao-cassacao-fretamento.json).
DECISION_DATE = "/decisao/data"
CIENCIA_DATE = "/ciencia/data"
HYPOTHESES = "/hipoteses"
UNPAID_AUTOS = "/hipoteses/multas_nao_recolhidas/autos"
BANKRUPTCY_DATE = "/hipoteses/falencia_dissolucao/data"
EXPIRY_DATE = "/hipoteses/nao_renovacao/vencimento"
DEFENCE = f"{LAW}#art22"
"""The deadline-table key of the defence period (Lei nº 9.784/1999, art. 44, by analogy)."""
HYPOTHESIS_KEYS: tuple[tuple[str, str], ...] = (
    ("dolo", f"{LAW}#art22_inc1"),
    ("multas_nao_recolhidas", f"{LAW}#art22_inc2"),
    ("nao_renovacao", f"{LAW}#art22_inc3"),
    ("falencia_dissolucao", f"{LAW}#art22_inc4"),
)
HYPOTHESIS_LABELS = {
    "dolo": "Desvio de finalidade, agindo dolosamente em detrimento dos demais serviços de "
            "transporte (art. 22, I)",
    "multas_nao_recolhidas": "Multas aplicadas não recolhidas, sem interposição de recurso "
                             "(art. 22, II)",
    "nao_renovacao": "Alvará de Licença de Circulação não renovado quando exigido (art. 22, III)",
    "falencia_dissolucao": "Falência decretada ou processo de dissolução (art. 22, IV)",
}
NOTICE_FORM = "notificacao-defesa-cassacao"
PROCEEDING = due_process.Proceeding(
    DEFENCE, "a empresa ou entidade", "notificada", "a cassação", (CASSATION_CASES,),
    notice_form=NOTICE_FORM, party_field="/empresa/cnpj", licence_field="/alvaras",
    grounds=tuple((k, c, HYPOTHESIS_LABELS[k]) for k, c in HYPOTHESIS_KEYS),
    adverse="cassação do Alvará de Licença de Circulação",
    adverse_basis=(CASSATION, CASSATION_CASES, BAR),
)


IMPLEMENTED: tuple[str, ...] = (
    CASSATION,
    *(f"{LAW}#art22_inc{n}" for n in range(1, 5)),
    BAR,
    APPEAL,
    LIABILITY,
)
"""Citations whose rule this module applies (coverage): the cassação, its cases
and bar, the appeal to the Prefeito and the liability."""


def _paid_item(history: History | None, found: PriorRecord, index: int) -> Item | None:
    """*Invalid* when the auto was annulled on appeal (:mod:`lavra_americana.comum.
    auto_anulado`), or when the registry holds a payment of its fines (on the auto or on
    its guia, :mod:`lavra_americana.fretamento.guia_multa`): art. 22, II speaks of fines
    "não recolhidas"; an annulled fine or a recorded payment rules the auto out of the
    hypothesis."""
    void = annulled_item(found, f"{UNPAID_AUTOS}/{index}/numero", "a cassação não pode "
                         "apoiar-se nele: não há multa a recolher (art. 22, II).",
                         f"{LAW}#art22_inc2")
    if void is not None:
        return void
    payment = recorded_payment(history, found)
    if payment is None:
        return None
    day, where = payment
    return Item(
        f"hipoteses.multas_nao_recolhidas.autos.{index}.pagamento", Status.INVALID,
        f"{UNPAID_AUTOS}/{index}/numero",
        f"Consta do registro o pagamento das multas do Auto de Infração {found.printed} em "
        f"{format_date(day)}, {where}: a multa foi recolhida e não é hipótese de cassação "
        "(art. 22, II).",
        (f"{LAW}#art22_inc2",),
    )


def _appeal_item(history: History | None, found: PriorRecord, company: Any, on: date,
                 index: int) -> Item | None:
    """*Invalid* when the registry holds a recurso of the company against the auto (art.
    23), or against the decision that kept it (art. 24), filed and not yet decided on
    the date of the cassação (:func:`lavra_americana.fretamento.autos_registro.
    pending_appeal`).

    The reading kept: art. 22, II conditions the hypothesis on the fines being unpaid
    "sem interposição de recurso por sua parte". A fine under an appeal still pending is
    not one the company left unpaid without appeal, and cannot ground the cassação; once
    the appeal is decided keeping the fine (and the appeal to the Prefeito can no longer
    be brought, :func:`lavra_americana.fretamento.autos_registro.second_appeal_open`, nor
    is pending), the fine is final and the hypothesis may apply, as if no appeal had been filed:
    reading the words as barring for ever a fine once appealed would let any appeal,
    however denied, shield the company from art. 22, II."""
    found_appeal = pending_appeal(history, found, company, on)
    if found_appeal is None:
        return None
    protocol, appealed = found_appeal
    return item_at(
        f"{UNPAID_AUTOS}/{index}/numero", Status.INVALID,
        f"Consta do registro o recurso {protocol} contra o {appealed}, ainda não decidido "
        f"na data da decisão ({format_date(on)}): a multa do Auto de Infração "
        f"{found.printed} está em recurso e não é hipótese de cassação (art. 22, II: "
        "multas não recolhidas \"sem interposição de recurso\").",
        f"{LAW}#art22_inc2", FIRST_APPEAL if appealed == found.printed else APPEAL)


def _registry_facts(request: ComputeInput, found: PriorRecord, entry: Mapping[str, Any],
                    row: dict[str, Any], index: int) -> list[Item]:
    """The auto's date and amount as the registry holds them, printed in ``row``.

    The reading kept (art. 22, II; art. 23): the decision prints the registry's date of
    the infraction and the registry's total of the fines, never the typed copies; a typed
    value that differs is *invalid*, naming both, and is not replaced in silence: the
    Secretário's reasoning (and the count of the appeal period of art. 23 from the
    infraction) was written on the typed fact, so he must see that it is not the
    registry's before signing. An auto whose amount the registry cannot compute (imported
    without its infractions) keeps the typed amount."""
    items: list[Item] = []
    basis = (f"{LAW}#art22_inc2",)
    day = found.reference_date
    typed_day = maybe_date(entry.get("data_infracao"))
    row["data_infracao"] = day
    if typed_day is not None and typed_day != day:
        items.append(Item(
            f"hipoteses.multas_nao_recolhidas.autos.{index}.data_registro", Status.INVALID,
            f"{UNPAID_AUTOS}/{index}/data_infracao",
            f"A data da infração informada ({format_date(typed_day)}) difere da registrada no "
            f"Auto de Infração {found.printed} ({format_date(day)}): a decisão imprime a do "
            "registro, de onde se conta o prazo de recurso do art. 23; corrija a data "
            "informada (art. 22, II).", (*basis, FIRST_APPEAL)))
    amount = auto_amount(request, found)
    if amount is None:
        return items
    typed_amount = entry.get("valor")
    row["valor"], row["valor_texto"] = amount, _money(amount)
    try:
        differs = typed_amount is not None and Decimal(str(typed_amount)) != Decimal(amount)
    except InvalidOperation:
        differs = True
    if differs:
        items.append(Item(
            f"hipoteses.multas_nao_recolhidas.autos.{index}.valor_registro", Status.INVALID,
            f"{UNPAID_AUTOS}/{index}/valor",
            f"O valor informado ({_money(str(typed_amount)) or typed_amount}) difere do total "
            f"das multas do Auto de Infração {found.printed} no registro ({_money(amount)}): "
            "a decisão imprime o do registro; corrija o valor informado (art. 22, II).",
            basis))
    return items


def _unpaid_autos(
    request: ComputeInput, data: Mapping[str, Any], on: date, context: StatutoryContext
) -> tuple[list[dict[str, Any]], list[Item]]:
    """The autos of art. 22, II, each with the end of its appeal period (art. 23). An auto
    of lavra's series is read from the registry (:func:`lavra_americana.fretamento.
    autos_registro.registered_auto`: held, not cancelled, the company's, not after the
    decision; its date and amount the registry's, :func:`_registry_facts`); one whose
    payment the registry records is *invalid* (:func:`_paid_item`)."""
    history = request.history
    listed = pointers.get(data, UNPAID_AUTOS)
    rows: list[dict[str, Any]] = []
    items: list[Item] = []
    if not isinstance(listed, list):
        return rows, items
    laws = context.laws
    company = pointers.get(data, "/empresa/cnpj")
    for index, entry in enumerate(listed):
        if not isinstance(entry, Mapping):
            continue
        pointer = f"{UNPAID_AUTOS}/{index}/data_infracao"
        typed = entry.get("numero")
        number = format_act_number(typed) if isinstance(typed, str) and typed.strip() else "-"
        row: dict[str, Any] = {
            "numero": number,
            "data_infracao": maybe_date(entry.get("data_infracao")),
            "valor": entry.get("valor"),
            "valor_texto": _money(entry.get("valor")),
            "fim_prazo_recurso": None,
        }
        rows.append(row)
        found, refused = registered_auto(
            history, typed, company=company, on=on, field=f"{UNPAID_AUTOS}/{index}/numero",
            basis=(f"{LAW}#art22_inc2",), act="a cassação")
        items.extend(refused)
        if refused:
            continue
        if found is not None:
            items.extend(_registry_facts(request, found, entry, row, index))
            paid = _paid_item(history, found, index) or _appeal_item(
                history, found, company, on, index) or second_appeal_open(
                history, found, company, on, context, f"{UNPAID_AUTOS}/{index}/numero")
            if paid is not None:
                items.append(paid)
                continue
        infraction = row["data_infracao"]
        if infraction is None:
            continue
        deadline, missing = deadline_values(FIRST_APPEAL, infraction, context, pointer)
        items.extend(missing)
        if deadline is None:
            continue
        row["fim_prazo_recurso"] = deadline["ultimo_dia"]
        requirement = f"hipoteses.multas_nao_recolhidas.autos.{index}.prazo_recurso"
        if infraction > on:
            items.append(
                Item(
                    requirement,
                    Status.INVALID,
                    pointer,
                    f"O Auto de Infração {number} tem data de infração ({format_date(infraction)}) "
                    f"posterior à da decisão ({format_date(on)}).",
                    (f"{LAW}#art22_inc2",),
                )
            )
        elif deadline["ultimo_dia"] >= on:
            items.append(
                Item(
                    requirement,
                    Status.INVALID,
                    pointer,
                    f"O prazo de recurso do Auto de Infração {number} "
                    f"({short(laws, FIRST_APPEAL)}) corre até "
                    f"{format_date(deadline['ultimo_dia'])}, inclusive: na data da decisão "
                    f"({format_date(on)}) ainda não se pode afirmar que a multa deixou "
                    "de ser recolhida sem interposição de recurso "
                    f"({short(laws, f'{LAW}#art22_inc2')}).",
                    (f"{LAW}#art22_inc2", FIRST_APPEAL),
                )
            )
        else:
            items.append(
                Item(
                    requirement,
                    Status.MET,
                    pointer,
                    f"Auto de Infração {number}: o prazo de recurso encerrou-se em "
                    f"{format_date(deadline['ultimo_dia'])}, antes da decisão.",
                    (f"{LAW}#art22_inc2", FIRST_APPEAL),
                )
            )
    return rows, items


def _expiry_items(data: Mapping[str, Any], held: Sequence[tuple[str, date]]) -> list[Item]:
    """Art. 22, III: the typed expiry (``/hipoteses/nao_renovacao/vencimento``) against
    the validity the registry holds for the alvarás the cassação ends (``held``: each
    printed number and its last day).

    The reading kept, as :func:`_registry_facts` does for the autos: the hypothesis is
    that the alvará was not renewed when it had to be, so the expiry the Secretário
    reasons on must be the registry's; a typed date that is the last day of none of the
    alvarás listed is *invalid*, naming both, and not replaced in silence. An alvará
    outside the registry (on paper, not imported) keeps the typed date."""
    typed = date_at(data, EXPIRY_DATE)
    if typed is None or not held or any(until == typed for _, until in held):
        return []
    registered = "; ".join(f"{printed}: {format_date(until)}" for printed, until in held)
    return [item_at(
        EXPIRY_DATE, Status.INVALID,
        f"O vencimento informado ({format_date(typed)}) difere do registrado para o alvará "
        f"({registered}): a decisão deve apoiar-se na validade do registro; corrija a data "
        "informada (art. 22, III).", f"{LAW}#art22_inc3")]


def _renewed_items(view: LicenceView, field: str) -> list[Item]:
    """Art. 22, III: *invalid* when the registry holds the alvará renewed ("renovado
    pelo …"). The reading kept, where the law says only "quando assim exigido": the
    renewal was due and not done — the alvará reached its last day (the expiry before
    the decision, checked by the caller) with no renewal in the registry. A renewal on
    record, even one granted after the last day, answers the hypothesis: the
    secretariat cannot cassate for not renewing an alvará its own registry shows
    renewed."""
    if view.status != LicenceStatus.RENEWED:
        return []
    when = "" if view.status_since is None else f", em {format_date(view.status_since)}"
    until = "" if view.valid_until is None else f", válido até {format_date(view.valid_until)},"
    return [item_at(
        field, Status.INVALID,
        f"Consta do registro que o Alvará de Licença de Circulação {view.printed}{until} "
        "foi renovado pelo "
        f"{view.renewed_by or view.status_act or 'ato de renovação'}{when}: não se pode "
        "cassá-lo por não ter sido renovado quando exigido (art. 22, III).",
        f"{LAW}#art22_inc3")]


def _alvara_items(history: History | None, data: Mapping[str, Any], on: date,
                  laws: Mapping[str, Law]) -> list[Item]:
    """Each alvará the cassação ends (art. 22), as the state holds it: one of lavra's
    ALV-FRET series must be there (issued or imported) and in force, and be the
    company's; the typed expiry of art. 22, III is compared with its validity
    (:func:`_expiry_items`). A number outside the series (on paper, not imported) is
    not checked."""
    listed = data.get("alvaras")
    renewal = isinstance(pointers.get(data, "/hipoteses/nao_renovacao"), Mapping)
    company = re.sub(r"\D", "", str(pointers.get(data, "/empresa/cnpj") or ""))
    items: list[Item] = []
    held: list[tuple[str, date]] = []
    for index, entry in enumerate(listed if isinstance(listed, list) else ()):
        if not isinstance(entry, Mapping):
            continue
        field = f"/alvaras/{index}/numero"
        view, found = standing_items(
            history, entry.get("numero"), on, kind=ALVARA_FORM,
            what="Alvará de Licença de Circulação", field=field, basis=(f"{LAW}#art22",),
            laws=laws)
        items.extend(found)
        if view is not None and view.valid_until is not None:
            held.append((view.printed, view.valid_until))
        if view is not None and not found and renewal:
            items.extend(_renewed_items(view, field))
        if view is not None and not found and company and view.holder not in (None, company):
            items.append(item_at(
                field, Status.INVALID,
                f"O {view.printed} é de "
                f"{view.holder_name or mask_cpf_cnpj(view.holder or '')}, não da empresa "
                f"cuja cassação se decide ({short(laws, f'{LAW}#art22')}).", f"{LAW}#art22"))
    items.extend(_expiry_items(data, held))
    return items


def _money(value: Any) -> str | None:
    try:
        return format_moeda(value) if isinstance(value, str) else None
    except LavraError:
        return None


def _cassation_pending(reason: str) -> dict[str, Any]:
    return {
        "hipoteses": [],
        "autos": [],
        "total_multas_texto": None,
        "impedimento": None,
        "defesa": None,
        "recurso": None,
        "explicacao": reason,
        "fundamento": [],
    }


def decisao_cassacao_fretamento(request: ComputeInput) -> Computed:
    """Cassação do Alvará (art. 14, d; art. 22), its 12-month bar and the appeal (art. 24).

    ``values`` keys: ``hipoteses`` (``chave``, ``dispositivo``, ``referencia``,
    ``texto_legal`` for each hypothesis stated), ``autos`` (art. 22, II: ``numero``,
    ``data_infracao``, ``valor_texto``, ``fim_prazo_recurso``), ``total_multas_texto``,
    ``impedimento`` (``ultimo_dia``, ``primeiro_dia_permitido``, ``explicacao``),
    ``recurso`` (``regra``, ``ultimo_dia`` or None, ``explicacao``), ``explicacao``,
    ``fundamento``.
    """
    data = request.data if isinstance(request.data, Mapping) else {}
    on = date_at(data, DECISION_DATE)
    if on is None:
        return Computed(
            _cassation_pending(
                "Informe a data da decisão para calcular o impedimento e o prazo de recurso."
            )
        )
    context, _ = rule_sources(request, request.example_values)
    laws = context.laws
    items: list[Item] = []

    stated = pointers.get(data, HYPOTHESES)
    stated = stated if isinstance(stated, Mapping) else {}
    hypotheses: list[dict[str, Any]] = [
        {
            "chave": key,
            "dispositivo": citation,
            "referencia": bare_reference(laws, citation),
            "texto_legal": resolve(laws, citation).text,
        }
        for key, citation in HYPOTHESIS_KEYS
        if isinstance(stated.get(key), Mapping)
    ]
    autos, auto_items = _unpaid_autos(request, data, on, context)
    items.extend(auto_items)
    items.extend(_alvara_items(request.history, data, on, laws))
    total = _total(autos)

    bankruptcy = date_at(data, BANKRUPTCY_DATE)
    if bankruptcy is not None and bankruptcy > on:
        items.append(
            Item(
                "hipoteses.falencia_dissolucao.data",
                Status.INVALID,
                BANKRUPTCY_DATE,
                f"A falência ou a dissolução ({format_date(bankruptcy)}) é posterior à data da "
                f"decisão ({format_date(on)}).",
                (f"{LAW}#art22_inc4",),
            )
        )
    expiry = date_at(data, EXPIRY_DATE)
    if expiry is not None and expiry >= on:
        items.append(
            Item(
                "hipoteses.nao_renovacao.vencimento",
                Status.INVALID,
                EXPIRY_DATE,
                f"O alvará vence em {format_date(expiry)}, não antes da data da decisão "
                f"({format_date(on)}): enquanto vigente, não se pode afirmar que deixou de ser "
                "renovado.",
                (f"{LAW}#art22_inc3",),
            )
        )
    defence, defence_items = due_process.defence(
        request, on, context, PROCEEDING, [h["chave"] for h in hypotheses]
    )
    items.extend(defence_items)
    items.extend(
        after_issue(on, request.issued_on, DECISION_DATE, "data da decisão", CASSATION_CASES)
    )

    bar, bar_items = deadline_values(BAR, on, context, DECISION_DATE)
    items.extend(bar_items)

    appeal_rule = (
        f"Desta decisão cabe recurso ao Prefeito Municipal, no prazo de 15 dias contados da "
        f"ciência da decisão ({short(laws, APPEAL)}, que concede recurso ao Prefeito da "
        "decisão do Secretário no mesmo prazo do art. 23)."
    )
    appeal, appeal_items = appeal_from_ciencia(
        request, on, context, APPEAL, appeal_rule, CIENCIA_DATE
    )
    items.extend(appeal_items)

    applied = [h["dispositivo"] for h in hypotheses]
    fundamento = in_legal_order(
        [
            CASSATION,
            CASSATION_CASES,
            *applied,
            BAR,
            *([FIRST_APPEAL] if autos else []),
            APPEAL,
            LIABILITY,
        ],
        laws,
    )
    listed = ", ".join(h["referencia"] for h in hypotheses) or "nenhuma hipótese informada"
    explanation = (
        f"Cassação do Alvará de Licença de Circulação ({bare_reference(laws, CASSATION)}) pelas "
        f"hipóteses do {listed} da {laws[LAW].short_title}."
    )
    values = {
        "hipoteses": hypotheses,
        "autos": autos,
        "total_multas_texto": format_moeda(total) if total is not None else None,
        "impedimento": bar,
        "defesa": defence,
        "recurso": appeal,
        "explicacao": explanation,
        "fundamento": fundamento,
    }
    return Computed(values, unique_items(items))


def _total(autos: Sequence[Mapping[str, Any]]) -> str | None:
    total = Decimal("0")
    for auto in autos:
        try:
            total += Decimal(str(auto.get("valor")))
        except InvalidOperation:
            return None
    return f"{total:.2f}" if autos else None


COMPUTATIONS: dict[str, Computation] = {
    "decisao_cassacao_fretamento": decisao_cassacao_fretamento,
}
"""The computation of this module a form may name under ``"calculos"``."""
