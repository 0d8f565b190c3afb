"""The auto de infração or advertência of Lei nº 4.515/2007 (transporte escolar):
arts. 19, 21, 23 to 26 and 28.

Like every computation of the pack, it never raises for what the data or the pack lack:
a value that cannot be computed is a *missing* item, a fact against the law an
*invalid* one, and the values say pending.

``auto_infracao_escolar`` — form ``auto-infracao-escolar``:

- the sanction of art. 23 for each infraction listed (``/infracoes``), decided by
  :func:`lavra_americana.transporte_escolar.penalties.escolar_sanction` on the date of the
  infraction: written advertência for a first breach of an art. 21 duty, a fine of 10
  UFESP for a repeat or for other infractions (art. 24 and other precepts), the fine
  doubled for a further repeat, revocation of the alvará in the cases of art. 9º, § 2º,
  and after the third fine. A revocation is never decided inside a field agent's auto: it
  is an adverse decision that needs notice and defence first (CF, art. 5º, LV; Lei nº
  9.784/1999, arts. 3º, III, 26–28). When the escalation reaches it, the auto applies
  what it may (the fine, for the third one), records the infraction and prints that the
  revocation proceeding lies (``values["revogacao_cabivel"]``, ``revogacao_aviso``); it
  never says the alvará is revoked (``values["revogacao"]`` is always False). The
  revocation is decided in its own act, after the defence. The document's own name
  follows what it applies (``values["titulo_documento"]``): "Advertência" when every
  sanction is an advertência, "Auto de Infração" when it only records a case of
  revocation (art. 9º, § 2º), else "Auto de Infração e Imposição de Multa";
- the holder's earlier infractions: for transporte escolar the subject of repeat is
  the holder, not the vehicle, and :class:`lavra.checking.computations.History` can only be
  asked for autos of a vehicle (``prior_autos(placa, ...)``). Until the registry
  offers a query by holder, the earlier infractions that stand (autos not cancelled
  nor annulled on appeal: one the registry holds annulled is an *invalid* item,
  :mod:`lavra_americana.comum.auto_anulado`) are typed by staff under
  ``/infracoes_anteriores`` (date, provision, number of the auto), as the registry
  records them; ``history`` is not consulted, and ``values["historico_consultado"]``
  is False. An earlier infraction
  dated after the one judged is an *invalid* item (a typing error, not something to
  ignore silently);
- an infraction committed after the alvará was revoked carries no sanction of this law
  (the exploitation without licence falls under art. 19): *invalid* item;
- the appeal notice: recurso ao Prefeito, em única instância (art. 25), within 10 days
  counted from the ciência of the punishment (art. 26). The last day exists only once
  the ciência is known: the rule is always printed; when ``/ciencia/data`` is given
  the last day is computed (moved off days without expediente) and printed too; and
  the auto may not be issued after that last day (the holder would be notified with
  the appeal already lost, CF, art. 5º, LV);
- dates against each other: an infraction after the date of issue (or, on that day,
  at a time after the moment of issue), or a ciência before the infraction or after the
  issue, is *invalid*;
- the "Fundamento legal" of the document (``values["fundamento"]``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from num2words import num2words

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    bare_reference,
    clean_text,
    form_basis,
    in_legal_order,
    period_words,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.model import Law, resolve
from lavra.law.statutory import StatutoryContext, deadline_for
from lavra.render.templating import format_moeda, format_moeda_extenso
from lavra.textutil import format_date
from lavra_americana.comum.amounts import TRANSPORTE_ESCOLAR
from lavra_americana.comum.auto_anulado import listed_items
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import (
    data_of,
    invalid,
    missing,
    on_the_spot_items,
    period_of,
)
from lavra_americana.comum.infractions import PriorInfraction
from lavra_americana.comum.orgao import secretaria
from lavra_americana.comum.sources import pack_root, rule_sources
from lavra_americana.transporte_escolar.penalties import Sanction, SanctionKind, escolar_sanction

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "auto_infracao_escolar",
]

ESC = TRANSPORTE_ESCOLAR
AUTO_DATE = "/ocorrencia/data"
AUTO_INFRACTIONS = "/infracoes"
AUTO_PRIORS = "/infracoes_anteriores"
AUTO_HOLDER = "/condutor/cpf"
AUTO_CIENCIA = "/ciencia/data"
ESC_APPEAL = f"{ESC}#art25"
ESC_APPEAL_DEADLINE = f"{ESC}#art26"
ESC_RECONSIDER = f"{ESC}#art27"
ESC_FINES = f"{ESC}#art23"
ESC_INSPECTION = f"{ESC}#art28"
SANCTION_LABELS = {
    SanctionKind.ADVERTENCIA: "Advertência por escrito",
    SanctionKind.MULTA: "Multa",
    SanctionKind.MULTA_EM_DOBRO: "Multa em dobro, por reincidência",
    SanctionKind.REVOGACAO: "nenhuma aplicada neste auto (hipótese de revogação do alvará, "
    "a decidir em processo próprio)",
    SanctionKind.ALVARA_REVOGADO: "Sem sanção: alvará já revogado",
}


TITLE_WARNING = "Advertência"
TITLE_FINE = "Auto de Infração e Imposição de Multa"
TITLE_RECORD = "Auto de Infração"
"""The auto of a case of revocation only (art. 9º, § 2º): it records the infraction and
says the revocation proceeding lies; it applies no sanction."""

REVOCATION_NOTICE = (
    "A infração registrada neste auto enseja a revogação do alvará ({cited}). A revogação "
    "não é aplicada neste auto: será decidida pela {organ} em processo próprio, no qual o "
    "condutor será notificado da acusação e poderá apresentar defesa antes da "
    "decisão{period} (Constituição Federal, art. 5º, LV; Lei "
    "nº 9.784/1999, arts. 3º, III, e 26 a 28). Até essa decisão, o alvará permanece "
    "em vigor."
)
"""Printed when the escalation of art. 23 reaches the revocation (module doc)."""

IMPLEMENTED: tuple[str, ...] = (
    f"{ESC}#art25",
    f"{ESC}#art26",
)
"""Citations whose rule this module applies (coverage): the appeal notice printed
in the auto."""


def _listed_infractions(
    data: Mapping[str, Any], pointer: str
) -> list[tuple[int, str, Mapping[str, Any]]]:
    listed = pointers.get(data, pointer)
    found: list[tuple[int, str, Mapping[str, Any]]] = []
    if isinstance(listed, list):
        for index, entry in enumerate(listed):
            if isinstance(entry, Mapping) and isinstance(entry.get("dispositivo"), str):
                found.append((index, entry["dispositivo"], entry))
    return found


def _priors(
    data: Mapping[str, Any], holder: str, on: date, laws: Mapping[str, Law]
) -> tuple[list[PriorInfraction], list[Item]]:
    """The earlier infractions typed by staff, checked against the one judged."""
    priors: list[PriorInfraction] = []
    items: list[Item] = []
    for index, citation, entry in _listed_infractions(data, AUTO_PRIORS):
        when = maybe_date(entry.get("data"))
        if when is None:
            continue  # the schema reports it
        where = f"{AUTO_PRIORS}/{index}/data"
        number = clean_text(entry.get("auto"))
        if when > on:
            items.append(
                invalid(
                    f"infracoes_anteriores.{index}.data",
                    where,
                    f"A infração anterior do item {index + 1} está datada de "
                    f"{format_date(when)}, depois da infração deste auto "
                    f"({format_date(on)}): informe apenas infrações anteriores, com a data "
                    "registrada no auto respectivo.",
                    f"{ESC}#art23_par1u",
                )
            )
            continue
        priors.append(PriorInfraction(when, citation, holder, number))
    return priors, items


AUTO_HISTORY = "/historico_conferido"


def _history_attested(
    data: Mapping[str, Any], issued_on: date, laws: Mapping[str, Law]
) -> tuple[bool, list[Item]]:
    """The holder's earlier autos, attested by staff (art. 23, parágrafo único).

    The registry cannot be asked for a holder's autos yet; an empty list of earlier
    infractions means "no history" only when a servant attests having checked it
    (``/historico_conferido``: conferido, responsavel, data). Without it the repeat
    cannot be judged: a *missing* item, never a met one.
    """
    basis = f"{ESC}#art23_par1u"
    ref = short(laws, basis)
    entry = pointers.get(data, AUTO_HISTORY)
    if not isinstance(entry, Mapping) or entry.get("conferido") is not True:
        return False, [
            missing(
                "historico_conferido",
                AUTO_HISTORY,
                "Falta a conferência, por servidor, das infrações anteriores do condutor no "
                f"registro de documentos ({ref}): sem ela não se apura a reincidência. Informe "
                "quem conferiu e em que data.",
                basis,
            )
        ]
    who = clean_text(entry.get("responsavel"))
    when = maybe_date(entry.get("data"))
    if who is None or when is None:
        return False, [
            missing(
                "historico_conferido",
                AUTO_HISTORY,
                f"Informe o servidor que conferiu o histórico do condutor e a data ({ref}).",
                basis,
            )
        ]
    if when > issued_on:
        return False, [
            invalid(
                "historico_conferido",
                AUTO_HISTORY,
                f"A conferência do histórico ({format_date(when)}) é posterior à emissão do ato "
                f"({format_date(issued_on)}).",
                basis,
            )
        ]
    return True, [
        Item(
            "historico_conferido",
            Status.MET,
            AUTO_HISTORY,
            f"Histórico do condutor conferido por {who} em {format_date(when)} ({ref}).",
            (basis,),
        )
    ]


REPEAT_PERIOD = "transporte-escolar.prazo_reincidencia"


def _repeat_period_words(context: StatutoryContext, on: date) -> str | None:
    """The repeat period of art. 23, parágrafo único, in force on ``on`` ("1 (um) ano").

    Printed from the parameter, never hard-coded. The reading of the period (review
    finding 10, for the Procuradoria) is unchanged: it is the one
    :func:`lavra_americana.transporte_escolar.penalties.escolar_sanction` applies, an
    earlier infraction counting when the one judged falls within the period from it; None
    when no value is in force.
    """
    try:
        value = context.parameters.value(REPEAT_PERIOD, on)
    except LavraError:
        return None
    amount = int(value.value)
    length, _ = period_words(amount, str(value.unit))
    number, _, unit = length.partition(" ")
    return f"{number} ({num2words(amount, lang='pt_BR')}) {unit}"


def _sanction_label(sanction: Sanction) -> str:
    if sanction.kind is SanctionKind.REVOGACAO and sanction.amount is not None:
        fine = "Multa em dobro" if sanction.doubled else "Multa"
        return f"{fine} (cabível a revogação do alvará, a decidir em processo próprio)"
    return SANCTION_LABELS[sanction.kind]


def _escolar_line(
    index: int, entry: Mapping[str, Any], sanction: Sanction, laws: Mapping[str, Law]
) -> dict[str, Any]:
    cited = resolve(laws, sanction.citation)
    amount = sanction.amount
    repeat = sanction.repeat_of
    return {
        "indice": index,
        "dispositivo": sanction.citation,
        "dispositivo_curto": bare_reference(laws, sanction.citation),
        "referencia": cited.short,
        "texto_legal": cited.text,
        "descricao": clean_text(entry.get("descricao")),
        "sancao": sanction.kind.value,
        "sancao_texto": _sanction_label(sanction),
        "advertencia": sanction.kind is SanctionKind.ADVERTENCIA,
        "revogacao": False,
        "revogacao_cabivel": sanction.kind is SanctionKind.REVOGACAO,
        "em_dobro": sanction.doubled,
        "valor": amount.value if amount else None,
        "valor_texto": amount.figures if amount else None,
        "valor_extenso": amount.in_words if amount else None,
        "exemplo": bool(amount and amount.example),
        "infracao_anterior": repeat.document if repeat else None,
        "data_infracao_anterior": repeat.date if repeat else None,
        "explicacao": sanction.explanation,
        "fundamento": list(sanction.basis),
    }


def _escolar_appeal(
    on: date, ciencia: date | None, context: StatutoryContext, organ: str
) -> tuple[dict[str, Any], list[Item]]:
    laws = context.laws
    period = period_of(context, ESC_APPEAL_DEADLINE, ciencia or on)
    length, counted = period_words(*period) if period else ("", "contado")
    rule = (
        "Da penalidade aplicada cabe recurso, em única instância, ao Prefeito Municipal "
        f"({short(laws, ESC_APPEAL)}), no prazo de {length} {counted} da data em que o "
        f"infrator tomar ciência da punição ({short(laws, ESC_APPEAL_DEADLINE)})."
    )
    values: dict[str, Any] = {
        "regra": rule,
        "prazo": period[0] if period else None,
        "unidade": period[1] if period else None,
        "data_ciencia": ciencia,
        "ultimo_dia": None,
        "prorrogado": False,
        "contagem": None,
        "aviso": rule
        + " O último dia do prazo será contado da data da ciência, que não consta deste "
        "documento.",
        "reconsideracao": (
            f"A {organ} poderá, por motivo devidamente "
            "justificado, reconsiderar a decisão que aplicou a penalidade, desde que não haja "
            f"decisão do recurso interposto ao Prefeito ({short(laws, ESC_RECONSIDER)})."
        ),
        "fundamento": [ESC_APPEAL, ESC_APPEAL_DEADLINE],
    }
    if ciencia is None:
        return values, []
    try:
        deadline = deadline_for(ESC_APPEAL_DEADLINE, ciencia, context=context)
    except LavraError as error:
        message = f"Não foi possível calcular o prazo de recurso (art. 26): {error.message}"
        return values, [missing("recurso.prazo", AUTO_CIENCIA, message, ESC_APPEAL_DEADLINE)]
    values.update(
        ultimo_dia=deadline.last_day,
        prorrogado=deadline.moved,
        contagem=deadline.counting,
        aviso=f"{rule} Tendo o infrator tomado ciência em {format_date(ciencia)}, o prazo "
        f"encerra-se em {format_date(deadline.last_day)}.",
    )
    return values, []


def _escolar_pending(reason: str) -> dict[str, Any]:
    return {
        "titulo_documento": None,
        "infracoes": [],
        "total": None,
        "total_texto": None,
        "total_extenso": None,
        "valores_pendentes": True,
        "valores_exemplo": False,
        "advertencia": False,
        "revogacao": False,
        "revogacao_cabivel": False,
        "revogacao_aviso": None,
        "recurso": None,
        "explicacao": reason,
        "fundamento": [],
        "historico_consultado": False,
    }


def auto_infracao_escolar(request: ComputeInput) -> Computed:
    """Sanctions of art. 23, title of the act, appeal notice of arts. 25–27 (module doc).

    ``values`` keys: ``titulo_documento``, ``infracoes`` (per infraction:
    ``dispositivo_curto``, ``texto_legal``, ``descricao``, ``sancao``, ``sancao_texto``,
    ``valor``, ``valor_texto``, ``em_dobro``, ``explicacao``...), ``total``,
    ``total_texto``, ``total_extenso``, ``valores_pendentes``, ``valores_exemplo``,
    ``advertencia`` (every sanction is one), ``revogacao``, ``recurso`` (``regra``,
    ``aviso``, ``ultimo_dia``, ``reconsideracao``), ``fundamento``,
    ``historico_consultado``.
    """
    data = data_of(request)
    on = maybe_date(pointers.get(data, AUTO_DATE))
    if on is None:
        return Computed(_escolar_pending("Informe a data da infração para apurar a sanção."))
    context, sources = rule_sources(request, request.example_values)
    laws = sources.laws
    holder = clean_text(pointers.get(data, AUTO_HOLDER)) or "-"
    priors, items = _priors(data, holder, on, laws)
    items.extend(listed_items(request.history, request.form_id, data, AUTO_PRIORS, "auto",
                              "não conta para a reincidência.", f"{ESC}#art23_par1u"))
    attested, history_items = _history_attested(data, request.issued_on, laws)
    items.extend(history_items)

    lines: list[dict[str, Any]] = []
    sanctions: list[Sanction] = []
    seen: dict[str, int] = {}
    for index, citation, entry in _listed_infractions(data, AUTO_INFRACTIONS):
        pointer = f"{AUTO_INFRACTIONS}/{index}/dispositivo"
        if citation in seen:
            items.append(
                invalid(
                    f"infracoes.{index}.dispositivo",
                    pointer,
                    f"A infração ao {short(laws, citation)} já consta do item "
                    f"{seen[citation] + 1} deste auto: informe cada infração uma só vez.",
                    ESC_FINES,
                )
            )
            continue
        seen[citation] = index
        try:
            sanction = escolar_sanction(citation, on, priors, sources, holder=holder)
        except LavraError as error:
            items.append(missing(f"infracoes.{index}.sancao", pointer, error.message, ESC_FINES))
            continue
        if sanction.kind is SanctionKind.ALVARA_REVOGADO:
            items.append(
                invalid(
                    f"infracoes.{index}.sancao",
                    pointer,
                    f"{sanction.explanation} A exploração do serviço sem licença sujeita o "
                    "infrator às penalidades da lei própria "
                    f"({short(laws, f'{ESC}#art19')}), fora deste auto.",
                    *sanction.basis,
                )
            )
            continue
        requirement = f"infracoes.{index}.sancao"
        if attested:
            items.append(
                Item(requirement, Status.MET, pointer, sanction.explanation, sanction.basis)
            )
        else:
            items.append(
                missing(
                    requirement,
                    pointer,
                    f"{sanction.explanation} Sanção a confirmar: o histórico do condutor não foi "
                    "conferido (reincidência não apurada).",
                    *sanction.basis,
                )
            )
        if sanction.amount is not None:
            items.extend(
                Item(i.requirement, i.status, pointer, i.message, i.basis)
                for i in sanction.amount.items
                if i.pending
            )
        sanctions.append(sanction)
        lines.append(_escolar_line(index, entry, sanction, laws))
    if not sanctions:
        return Computed(
            _escolar_pending("Informe ao menos uma infração sujeita a sanção."), unique_items(items)
        )

    ciencia = maybe_date(pointers.get(data, AUTO_CIENCIA))
    appeal, appeal_items = _escolar_appeal(on, ciencia, context, secretaria(request))
    items.extend(appeal_items)
    items.extend(_escolar_dates(on, ciencia, request.issued_on, appeal))
    items.extend(on_the_spot_items(request, "data e hora da infração", ESC_FINES, ESC_INSPECTION))

    fined = [s.amount for s in sanctions if s.amount is not None]
    values_ = [a.value for a in fined]
    total = (
        None
        if not fined or any(v is None for v in values_)
        else sum((v for v in values_ if v is not None), Decimal(0))
    )
    kinds = {s.kind for s in sanctions}
    if kinds == {SanctionKind.ADVERTENCIA}:
        title = TITLE_WARNING
    elif not fined and kinds <= {SanctionKind.REVOGACAO, SanctionKind.ADVERTENCIA}:
        # Revocation is never decided inside a field agent's auto (module doc).
        title = TITLE_RECORD
    else:
        title = TITLE_FINE
    revocable = SanctionKind.REVOGACAO in kinds
    if title == TITLE_RECORD:
        appeal = {
            **appeal,
            "aviso": "Este auto não aplica penalidade: registra a infração. A defesa será "
            "exercida no processo de revogação, antes da decisão; da decisão que revogar o "
            f"alvará caberá recurso ao Prefeito Municipal ({short(laws, ESC_APPEAL)}), no "
            f"prazo contado da ciência da decisão ({short(laws, ESC_APPEAL_DEADLINE)}).",
            "reconsideracao": None,
        }
    applied = [b for s in sanctions for b in s.basis]
    fixed = form_basis(pack_root(request.pack_dir), request.form_id)
    example = any(a.example for a in fined)
    values: dict[str, Any] = {
        "titulo_documento": title,
        "data_infracao": on,
        "lei": laws[ESC].short_title,
        "infracoes": lines,
        "total": total,
        "total_texto": format_moeda(total) if total is not None else None,
        "total_extenso": format_moeda_extenso(total) if total is not None else None,
        "valores_pendentes": bool(fined) and total is None,
        "valores_exemplo": example,
        "advertencia": kinds == {SanctionKind.ADVERTENCIA},
        "revogacao": False,
        "revogacao_cabivel": revocable,
        "revogacao_aviso": (
            _revocation_notice(context, on, secretaria(request))
            if revocable
            else None
        ),
        "recurso": appeal,
        "explicacao": " ".join(s.explanation for s in sanctions),
        "fundamento": in_legal_order(
            [*applied, *appeal["fundamento"], ESC_RECONSIDER, *fixed], laws
        ),
        "historico_consultado": False,
        "historico_conferido": attested,
        "prazo_reincidencia_texto": _repeat_period_words(context, on),
    }
    return Computed(values, unique_items(items))


REVOCATION_DEFENCE = f"{ESC}#art23_inc3"
"""The deadline-table key of the defence before a revocation (Lei nº 9.784/1999, art. 44)."""


def _revocation_notice(context: StatutoryContext, on: date, organ: str) -> str:
    period = period_of(context, REVOCATION_DEFENCE, on)
    words = (
        ", no prazo de {} {} da ciência da notificação".format(*period_words(*period))
        if period else ""
    )
    return REVOCATION_NOTICE.format(
        cited=short(context.laws, REVOCATION_DEFENCE), period=words, organ=organ)


def _escolar_dates(
    on: date, ciencia: date | None, issued_on: date, appeal: Mapping[str, Any]
) -> list[Item]:
    """An auto may not precede its facts; the ciência falls between them and the issue."""
    found: list[Item] = []
    if on > issued_on:
        found.append(
            invalid(
                "ocorrencia.data",
                AUTO_DATE,
                f"A data da infração ({format_date(on)}) é posterior à data de emissão do "
                f"auto ({format_date(issued_on)}): o auto registra infração já constatada, "
                "não fato futuro.",
                ESC_FINES,
                ESC_INSPECTION,
            )
        )
    if ciencia is None:
        return found
    if ciencia < on:
        found.append(
            invalid(
                "ciencia.data",
                AUTO_CIENCIA,
                f"A data da ciência ({format_date(ciencia)}) é anterior à data da infração "
                f"({format_date(on)}).",
                ESC_APPEAL_DEADLINE,
            )
        )
    elif ciencia > issued_on:
        found.append(
            invalid(
                "ciencia.data",
                AUTO_CIENCIA,
                f"A data da ciência ({format_date(ciencia)}) é posterior à data de emissão "
                f"do auto ({format_date(issued_on)}): a ciência registrada neste auto é a "
                "dada no próprio ato.",
                ESC_APPEAL_DEADLINE,
            )
        )
    last_day = appeal.get("ultimo_dia")
    if isinstance(last_day, date) and issued_on > last_day:
        found.append(
            invalid(
                "recurso.prazo",
                AUTO_CIENCIA,
                f"O prazo de recurso ao Prefeito, contado da ciência dada em "
                f"{format_date(ciencia)}, terminou em {format_date(last_day)}, antes da "
                f"data de emissão ({format_date(issued_on)}): emitido nessa data, o ato "
                "chegaria ao infrator com o prazo de defesa já esgotado, suprimindo o "
                "contraditório e a ampla defesa (Constituição Federal, art. 5º, LV).",
                ESC_APPEAL_DEADLINE,
            )
        )
    return found


COMPUTATIONS: dict[str, Computation] = {
    "auto_infracao_escolar": auto_infracao_escolar,
}
"""The computation of this module a form may name under ``"calculos"``."""
