"""Fretamento acts after the auto: cassação and the impediment/withdrawal term.

Lei nº 4.419/2006 (fretamento). Two computations, named under ``"calculos"`` by their
forms and found through :func:`lavra.checking.computations.find_computation`:

``decisao_cassacao_fretamento`` (form ``decisao-cassacao-fretamento``) — the
Secretário's decision that cancels the Alvará de Licença de Circulação (art. 14, d):

- the hypotheses of art. 22 stated under ``/hipoteses`` (I dolo, II unpaid fines
  without appeal, III non-renewal, IV bankruptcy or dissolution), each with its
  citation and text; for II, no appeal can be said to be missing while the appeal
  period of an auto (art. 23, 15 days from the infraction) still runs on the date of
  the decision: such an auto is an *invalid* item; facts dated after the decision
  (an auto, a bankruptcy) are *invalid* too;
- the defence: a notice after the decision, or a defence filed after it, is
  *invalid* (a cassação without prior defence would be void, CF art. 5º, LV);
- the 12-month bar of art. 22, parágrafo único, counted from the date of the decision
  by :func:`lavra.law.statutory.deadline_for` (``carencia``): the last day of the bar and
  the first day a new alvará may be obtained;
- the appeal to the Prefeito (art. 24: "da decisão do Secretário", in the same 15
  days, from the ciência): the rule always, and the last day when ``/ciencia/data``
  is given (a ciência before the decision is *invalid*);
- a decision dated after the day of issue is *invalid*;
- the "Fundamento legal" list: art. 14, d, art. 22 and the incisos applied, its
  parágrafo único, art. 24 and art. 25.

``termo_impedimento_fretamento`` (form ``termo-impedimento-fretamento``) — the
temporary impediment (art. 14, b) and withdrawal of a vehicle:

- motive ``art21``: whether art. 21 applies is decided by
  :func:`lavra_americana.penalties.temporary_impediment` from the auto's infractions (alínea c)
  and the stated facts (alíneas a and b); when no alínea applies the term is
  *invalid* (the impediment is not at the agent's discretion);
- motive ``art13``: the extraordinary inspection whose requirements (safety, hygiene,
  working order) were not met, with the immediate withdrawal until regularised;
- the outcome: sanado no local → released (art. 21, § 1º); otherwise withdrawal by a
  licensed driver with the alvará collected against receipt (§ 2º), continuity of
  the passengers' transport (§ 3º) and return after regularisation and costs (§ 4º);
  under art. 21 a withdrawal needs the risk to the passengers stated (§ 2º); the
  driver's CNH must be valid on the date;
- art. 19 (the fine does not release from correcting the fault) is printed;
- facts dated after the day of issue, or an auto dated other than the impediment
  (art. 21: cumulative with the fine of that auto), are *invalid*.

Art. 14, c (impedimento definitivo) is listed by the law without any hypothesis or
procedure: no form applies it, and the term says it imposes the temporary one only.

Like every computation, these never raise for what the data lack: a value they cannot
compute is a *missing* item and the value is pending.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    bare_reference,
    in_legal_order,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.model import Law, resolve
from lavra.law.statutory import StatutoryContext, deadline_for
from lavra.render.templating import format_moeda
from lavra.textutil import format_date
from lavra_americana.computations.common import rule_sources
from lavra_americana.penalties import temporary_impediment

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "decisao_cassacao_fretamento",
    "termo_impedimento_fretamento",
]

LAW = "fretamento"
CASSATION = f"{LAW}#art14_ali4"
CASSATION_CASES = f"{LAW}#art22"
BAR = f"{LAW}#art22_par1u"
FIRST_APPEAL = f"{LAW}#art23"
APPEAL = f"{LAW}#art24"
LIABILITY = f"{LAW}#art25"
IMPEDIMENT = f"{LAW}#art14_ali2"
INSPECTION = f"{LAW}#art13"
FAULT = f"{LAW}#art19"
ART21 = f"{LAW}#art21"
RELEASE = f"{LAW}#art21_par1"
WITHDRAWAL = f"{LAW}#art21_par2"
CONTINUITY = f"{LAW}#art21_par3"
RETURN = f"{LAW}#art21_par4"

IMPLEMENTED: tuple[str, ...] = (
    CASSATION,
    *(f"{LAW}#art22_inc{n}" for n in range(1, 5)),
    BAR,
    APPEAL,
    LIABILITY,
    IMPEDIMENT,
    INSPECTION,
    FAULT,
    f"{LAW}#art21_ali1",
    f"{LAW}#art21_ali2",
    f"{LAW}#art21_ali3",
    RELEASE,
    WITHDRAWAL,
    CONTINUITY,
    RETURN,
)
"""Citations these computations apply (coverage): the cassação (art. 14, d; art. 22,
I–IV and parágrafo único; the appeal of art. 24; art. 25) and the temporary impediment
(art. 14, b; art. 13; art. 19; art. 21, alíneas and §§ 1º to 4º)."""

# Where the data lives (schemas/decisao-cassacao-fretamento.json).
DECISION_DATE = "/decisao/data"
CIENCIA_DATE = "/ciencia/data"
HYPOTHESES = "/hipoteses"
UNPAID_AUTOS = "/hipoteses/multas_nao_recolhidas/autos"
BANKRUPTCY_DATE = "/hipoteses/falencia_dissolucao/data"
NOTICE_DATE = "/defesa/notificacao_data"
DEFENCE_DATE = "/defesa/data_apresentacao"

# (schemas/termo-impedimento-fretamento.json)
TERM_DATE = "/ocorrencia/data"
AUTO_DATE = "/auto/data"
CNH_VALIDITY = "/retirada/condutor/cnh/validade"

HYPOTHESIS_KEYS: tuple[tuple[str, str], ...] = (
    ("dolo", f"{LAW}#art22_inc1"),
    ("multas_nao_recolhidas", f"{LAW}#art22_inc2"),
    ("nao_renovacao", f"{LAW}#art22_inc3"),
    ("falencia_dissolucao", f"{LAW}#art22_inc4"),
)

REQUIREMENT_LABELS = {
    "seguranca": "segurança",
    "higiene": "higiene",
    "funcionamento": "condições de funcionamento",
}


# ---------------------------------------------------------------- helpers


def _date_at(data: Mapping[str, Any], pointer: str) -> date | None:
    return maybe_date(pointers.get(data, pointer))


def _short(laws: Mapping[str, Law], citation: str) -> str:
    return resolve(laws, citation).short


def _after_issue(on: date, issued_on: date, pointer: str, what: str, basis: str) -> list[Item]:
    if on <= issued_on:
        return []
    return [
        Item(
            pointers.dotted(pointer),
            Status.INVALID,
            pointer,
            f"A {what} ({format_date(on)}) é posterior à data de emissão do documento "
            f"({format_date(issued_on)}): o documento registra fato já ocorrido. Corrija a data.",
            (basis,),
        )
    ]


def _deadline_values(
    citation: str, start: date, context: StatutoryContext, pointer: str
) -> tuple[dict[str, Any] | None, list[Item]]:
    try:
        deadline = deadline_for(citation, start, context=context)
    except LavraError as error:
        message = f"Não foi possível calcular o prazo ({citation}): {error.message}"
        return None, [Item(f"prazo.{citation}", Status.MISSING, pointer, message, (citation,))]
    values = {
        "ultimo_dia": deadline.last_day,
        "primeiro_dia_permitido": deadline.first_allowed_day,
        "prorrogado": deadline.moved,
        "explicacao": deadline.explanation,
        "contagem": deadline.counting,
        "referencia": deadline.reference,
        "prazo": deadline.period.amount if deadline.period is not None else None,
        "unidade": deadline.period.unit if deadline.period is not None else None,
    }
    return values, []


# ---------------------------------------------------------------- cassação


def _unpaid_autos(
    data: Mapping[str, Any], on: date, context: StatutoryContext
) -> tuple[list[dict[str, Any]], list[Item]]:
    """The autos of art. 22, II, each with the end of its appeal period (art. 23)."""
    listed = pointers.get(data, UNPAID_AUTOS)
    rows: list[dict[str, Any]] = []
    items: list[Item] = []
    if not isinstance(listed, list):
        return rows, items
    laws = context.laws
    for index, entry in enumerate(listed):
        if not isinstance(entry, Mapping):
            continue
        pointer = f"{UNPAID_AUTOS}/{index}/data_infracao"
        number = entry.get("numero") if isinstance(entry.get("numero"), str) else "-"
        infraction = maybe_date(entry.get("data_infracao"))
        row: dict[str, Any] = {
            "numero": number,
            "data_infracao": infraction,
            "valor": entry.get("valor"),
            "valor_texto": _money(entry.get("valor")),
            "fim_prazo_recurso": None,
        }
        rows.append(row)
        if infraction is None:
            continue
        deadline, missing = _deadline_values(FIRST_APPEAL, infraction, context, pointer)
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
                    f"O auto nº {number} tem data de infração ({format_date(infraction)}) "
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
                    f"O prazo de recurso do auto nº {number} ({_short(laws, FIRST_APPEAL)}) "
                    f"corre até {format_date(deadline['ultimo_dia'])}, inclusive: na data da "
                    f"decisão ({format_date(on)}) ainda não se pode afirmar que a multa deixou "
                    "de ser recolhida sem interposição de recurso "
                    f"({_short(laws, f'{LAW}#art22_inc2')}).",
                    (f"{LAW}#art22_inc2", FIRST_APPEAL),
                )
            )
        else:
            items.append(
                Item(
                    requirement,
                    Status.MET,
                    pointer,
                    f"Auto nº {number}: o prazo de recurso encerrou-se em "
                    f"{format_date(deadline['ultimo_dia'])}, antes da decisão.",
                    (f"{LAW}#art22_inc2", FIRST_APPEAL),
                )
            )
    return rows, items


def _money(value: Any) -> str | None:
    try:
        return format_moeda(value) if isinstance(value, str) else None
    except LavraError:
        return None


def _defence_items(data: Mapping[str, Any], on: date) -> list[Item]:
    items: list[Item] = []
    for pointer, what in (
        (NOTICE_DATE, "notificação para defesa"),
        (DEFENCE_DATE, "apresentação da defesa"),
    ):
        when = _date_at(data, pointer)
        if when is not None and when > on:
            items.append(
                Item(
                    pointers.dotted(pointer),
                    Status.INVALID,
                    pointer,
                    f"A data da {what} ({format_date(when)}) é posterior à da decisão "
                    f"({format_date(on)}): a cassação só pode ser decidida depois de "
                    "oportunizada a defesa (Constituição Federal, art. 5º, LV).",
                    (CASSATION_CASES,),
                )
            )
    return items


def _cassation_pending(reason: str) -> dict[str, Any]:
    return {
        "hipoteses": [],
        "autos": [],
        "total_multas_texto": None,
        "impedimento": None,
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
    on = _date_at(data, DECISION_DATE)
    if on is None:
        return Computed(
            _cassation_pending(
                "Informe a data da decisão para calcular o impedimento e o prazo de recurso."
            )
        )
    context, _ = rule_sources(request.pack_dir, request.example_values)
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
    autos, auto_items = _unpaid_autos(data, on, context)
    items.extend(auto_items)
    total = _total(autos)

    bankruptcy = _date_at(data, BANKRUPTCY_DATE)
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
    items.extend(_defence_items(data, on))
    items.extend(
        _after_issue(on, request.issued_on, DECISION_DATE, "data da decisão", CASSATION_CASES)
    )

    bar, bar_items = _deadline_values(BAR, on, context, DECISION_DATE)
    items.extend(bar_items)

    appeal_rule = (
        f"Desta decisão cabe recurso ao Prefeito Municipal, no prazo de 15 dias contados da "
        f"ciência da decisão ({_short(laws, APPEAL)}, que concede recurso ao Prefeito da "
        "decisão do Secretário no mesmo prazo do art. 23)."
    )
    appeal: dict[str, Any] = {"regra": appeal_rule, "ultimo_dia": None, "explicacao": None}
    ciencia = _date_at(data, CIENCIA_DATE)
    if ciencia is not None:
        if ciencia < on:
            items.append(
                Item(
                    "ciencia.data",
                    Status.INVALID,
                    CIENCIA_DATE,
                    f"A data da ciência ({format_date(ciencia)}) é anterior à data da decisão "
                    f"({format_date(on)}).",
                    (APPEAL,),
                )
            )
        else:
            found, appeal_items = _deadline_values(APPEAL, ciencia, context, CIENCIA_DATE)
            items.extend(appeal_items)
            if found is not None:
                appeal.update(
                    ultimo_dia=found["ultimo_dia"],
                    explicacao=found["explicacao"],
                    prorrogado=found["prorrogado"],
                    contagem=found["contagem"],
                )

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


# ---------------------------------------------------------------- impediment term


def _term_pending(reason: str) -> dict[str, Any]:
    return {
        "aplica": False,
        "explicacao": reason,
        "hipoteses": [],
        "exigencias": [],
        "fundamento": [],
    }


def _impediment_art21(
    data: Mapping[str, Any], laws: Mapping[str, Law]
) -> tuple[dict[str, Any], list[Item]]:
    listed = data.get("infracoes")
    citations = [c for c in listed if isinstance(c, str)] if isinstance(listed, list) else []
    try:
        found = temporary_impediment(
            citations,
            laws,
            no_inspection_certificate=data.get("comprovante_inspecao_nao_apresentado") is True,
            unpaid_after_appeal=data.get("multa_nao_recolhida_apos_recurso") is True,
        )
    except LavraError as error:
        return {"aplica": False, "explicacao": error.message, "hipoteses": []}, [
            Item("infracoes", Status.INVALID, "/infracoes", error.message, (ART21,))
        ]
    values = {
        "aplica": found.applies,
        "explicacao": found.explanation,
        "hipoteses": [bare_reference(laws, g) for g in found.grounds],
        "dispositivos": list(found.grounds),
    }
    if found.applies:
        return values, [
            Item("impedimento.hipotese", Status.MET, "/infracoes", found.explanation, found.basis)
        ]
    return values, [
        Item(
            "impedimento.hipotese",
            Status.INVALID,
            "/infracoes",
            f"{found.explanation} O impedimento temporário só se aplica nos casos das alíneas "
            "do art. 21: indique as infrações do auto ou os fatos que o fundamentam, ou "
            "lavre o termo pela vistoria extraordinária do art. 13.",
            (ART21,),
        )
    ]


def _impediment_art13(
    data: Mapping[str, Any], laws: Mapping[str, Law]
) -> tuple[dict[str, Any], list[Item]]:
    listed = pointers.get(data, "/vistoria/exigencias")
    names = (
        [REQUIREMENT_LABELS[k] for k in listed if k in REQUIREMENT_LABELS]
        if isinstance(listed, list)
        else []
    )
    if not names:
        return {"aplica": False, "explicacao": None, "hipoteses": []}, []
    joined = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} e {names[-1]}"
    explanation = (
        "Em inspeção ou vistoria extraordinária, não foram atendidas as exigências quanto à "
        f"{joined} do veículo: determina-se a sua imediata retirada do serviço até a "
        f"regularização da situação ({_short(laws, INSPECTION)})."
    )
    return {
        "aplica": True,
        "explicacao": explanation,
        "hipoteses": [bare_reference(laws, INSPECTION)],
        "dispositivos": [INSPECTION],
    }, []


def _withdrawal_items(data: Mapping[str, Any], on: date, motive: str) -> list[Item]:
    items: list[Item] = []
    if motive == "art21" and not isinstance(pointers.get(data, "/retirada/risco"), str):
        items.append(
            Item(
                "retirada.risco",
                Status.MISSING,
                "/retirada/risco",
                "A retirada do veículo de circulação com o recolhimento do alvará, no caso do "
                "art. 21, exige que a irregularidade não possa ser sanada no local e ofereça "
                "risco à segurança dos passageiros: descreva o risco (art. 21, § 2º).",
                (WITHDRAWAL,),
            )
        )
    validity = _date_at(data, CNH_VALIDITY)
    if validity is not None and validity < on:
        items.append(
            Item(
                "retirada.condutor.cnh.validade",
                Status.INVALID,
                CNH_VALIDITY,
                f"A CNH do condutor venceu em {format_date(validity)}, antes da retirada "
                f"({format_date(on)}): a retirada é feita por condutor regularmente habilitado "
                "(art. 21, § 2º).",
                (WITHDRAWAL,),
            )
        )
    return items


def termo_impedimento_fretamento(request: ComputeInput) -> Computed:
    """Temporary impediment (art. 14, b; art. 21; art. 13), release or withdrawal.

    ``values`` keys: ``motivo``, ``aplica``, ``explicacao``, ``hipoteses`` (short
    references of the alíneas or of art. 13), ``retirada`` (bool), ``devolucao`` (the
    return rule of § 4º), ``fundamento``.
    """
    data = request.data if isinstance(request.data, Mapping) else {}
    on = _date_at(data, TERM_DATE)
    if on is None:
        return Computed(_term_pending("Informe a data da constatação."))
    context, _ = rule_sources(request.pack_dir, request.example_values)
    laws = context.laws
    motive = data.get("motivo")
    items: list[Item] = []
    if motive == "art21":
        found, found_items = _impediment_art21(data, laws)
        auto_day = _date_at(data, AUTO_DATE)
        if auto_day is not None and auto_day != on:
            items.append(
                Item(
                    "auto.data",
                    Status.INVALID,
                    AUTO_DATE,
                    f"O auto informado é de {format_date(auto_day)} e o impedimento de "
                    f"{format_date(on)}: o impedimento do art. 21 é aplicado cumulativamente à "
                    "multa do auto lavrado na mesma constatação.",
                    (ART21,),
                )
            )
    elif motive == "art13":
        found, found_items = _impediment_art13(data, laws)
    else:
        return Computed(_term_pending("Informe o motivo do impedimento (art. 21 ou art. 13)."))
    items.extend(found_items)
    withdrawal = data.get("desfecho") == "retirada"
    if withdrawal:
        items.extend(_withdrawal_items(data, on, motive))
    items.extend(_after_issue(on, request.issued_on, TERM_DATE, "data da constatação", IMPEDIMENT))
    ciencia = _date_at(data, "/ciencia/data")
    if ciencia is not None and ciencia < on:
        items.append(
            Item(
                "ciencia.data",
                Status.INVALID,
                "/ciencia/data",
                f"A data da ciência ({format_date(ciencia)}) é anterior à da constatação "
                f"({format_date(on)}).",
                (IMPEDIMENT,),
            )
        )
    grounds = found.get("dispositivos", [])
    outcome = [WITHDRAWAL, CONTINUITY, RETURN] if withdrawal else [RELEASE]
    fundamento = in_legal_order(
        [
            IMPEDIMENT,
            *([ART21] if motive == "art21" else []),
            *grounds,
            *outcome,
            FAULT,
            f"{LAW}#art28",
        ],
        laws,
    )
    values = {
        "motivo": motive,
        "aplica": found.get("aplica", False),
        "explicacao": found.get("explicacao"),
        "hipoteses": found.get("hipoteses", []),
        "retirada": withdrawal,
        "devolucao": (
            "O Alvará de Licença de Circulação será devolvido somente após a apresentação do "
            "veículo devidamente regularizado e o recolhimento de eventuais custas "
            f"({_short(laws, RETURN)})."
        ),
        "fundamento": fundamento,
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "decisao_cassacao_fretamento": decisao_cassacao_fretamento,
    "termo_impedimento_fretamento": termo_impedimento_fretamento,
}
"""The computations of this module a form may name under ``"calculos"``."""
