"""Computations of the acts that follow: escolar auto/advertência, appeal decisions, edital.

Each is a :data:`lavra.checking.computations.Computation` (``ComputeInput`` → ``Computed``),
named by a form under ``"calculos"``; like those of
:mod:`lavra_americana.computations.auto_fretamento`, they
never raise for what the data or the pack lack: a value that cannot be computed is a
*missing* item, a fact against the law an *invalid* one, and the values say pending.

``auto_infracao_escolar`` — Lei nº 4.515/2007 (transporte escolar), form
``auto-infracao-escolar``:

- the sanction of art. 23 for each infraction listed (``/infracoes``), decided by
  :func:`lavra_americana.penalties.escolar_sanction` on the date of the infraction: written
  advertência for a first breach of an art. 21 duty, a fine of 10 UFESP for a repeat
  or for other infractions (art. 24 and other precepts), the fine doubled for a
  further repeat, revocation of the alvará in the cases of art. 9º, § 2º, and after
  the third fine. The document's own name follows the sanction
  (``values["titulo_documento"]``): "Advertência" when every sanction is an
  advertência, "Auto de Infração e Revogação do Alvará" when the alvará is revoked,
  else "Auto de Infração e Imposição de Multa";
- the holder's earlier infractions: for transporte escolar the subject of repeat is
  the holder, not the vehicle, and :class:`lavra.checking.computations.History` can only be
  asked for autos of a vehicle (``prior_autos(placa, ...)``). Until the registry
  offers a query by holder, the earlier infractions that stand (autos not cancelled
  nor annulled on appeal) are typed by staff under ``/infracoes_anteriores`` (date,
  provision, number of the auto), as the registry records them; ``history`` is not
  consulted, and ``values["historico_consultado"]`` is False. An earlier infraction
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
- dates against each other: an infraction after the date of issue, or a ciência
  before the infraction or after the issue, is *invalid*;
- the "Fundamento legal" of the document (``values["fundamento"]``).

``decisao_recurso`` — forms ``decisao-recurso-secretario`` and
``decisao-recurso-prefeito``. Who decides is fixed by the law, and the form metadata
carries one signer: the Secretário decides the fretamento appeal of art. 23 and the
reconsideração of escolar art. 27; the Prefeito decides the fretamento appeal of art.
24 and the escolar appeals of arts. 25 (penalties, única instância) and 11 (choice of
the selection). ``/recurso/hipotese`` names the provision the appeal is based on:

- timeliness with :func:`lavra.law.statutory.check_timeliness`, from the start event the
  law names (art. 23: the infraction, ``/ato_recorrido/data``; art. 24: the ciência of
  the Secretário's decision; escolar art. 26: the ciência of the punishment, both
  ``/ato_recorrido/data_ciencia``; art. 11: the publication of the result,
  ``/ato_recorrido/data``) to the filing (``/recurso/data_protocolo``). Its
  explanation is printed verbatim. An untimely appeal is *não conhecido*: that is a
  decision the authority may issue, so the report item is *met* (with the
  explanation), and a merit result typed for it is *invalid* (no merit is judged);
- a timely appeal needs the merit result (provido / parcialmente provido / não
  provido) and the reasoning typed by staff;
- reconsideração (escolar art. 27): no deadline, but it is barred once the appeal of
  art. 25 was decided (``/reconsideracao/recurso_decidido``): *invalid* item. Its
  result reads "reconsiderada" / "reconsiderada em parte" / "mantida";
- the next remedy: after the Secretário's decision on art. 23 (unless the appeal was
  fully granted), the appeal to the Prefeito of art. 24, 15 days from the ciência of
  this decision; after art. 25 (única instância), art. 24 (second and last instance)
  and art. 11, none: the administrative instance is closed (art. 11: the choice
  becomes definitive); after a reconsideração that keeps the penalty, the appeal of
  arts. 25 and 26 as the law gives it.

``edital_chamamento_escolar`` — form ``edital-chamamento-escolar`` (arts. 6º to 11):

- places: :func:`lavra_americana.ranking.licence_cap` on the publication date, from the latest
  IBGE figure of ``legal_text/populacao.json`` and the active licences typed by staff
  (``/licencas_ativas``: the registry has no count query yet). A figure marked
  ``a_confirmar`` leaves the population item *missing*: the edital cannot be issued.
  Staff may state the official figure with its publication
  (``/populacao_oficial``: value, year, kind, date of publication and source, e.g.
  the DOU issue); it is used only if it is the latest IBGE figure (not older than the
  pack's latest, published by the date of the edital). The engine never invents a
  figure. The places offered (``/vagas``) may be fewer than the open places (art. 6º:
  "em quantidade limitada, a critério da Secretaria"), never more; with no open place
  there is no edital (*invalid*);
- registration period of at least 20 days (art. 6º, parágrafo único:
  ``check_timeliness("transporte-escolar#art6_par1u", start, end)``), opening not
  before the publication; publication at least 20 days before the date to which the
  candidates are called, which is the end of the registration
  (``check_timeliness("transporte-escolar#art10", end, publication)``);
- the documents (art. 7º, I to IX, and art. 10, parágrafo único) and the criteria of
  choice (art. 8º and its Anexo). The Anexo is not in the pack: the shipped scoring
  table is an EXAMPLE. An edital is the act that binds the Administration and the
  candidates to its criteria (vinculação ao instrumento convocatório); publishing
  fictitious criteria, even with a warning, would be publishing criteria that are not
  the law's, and a selection held under them would be void. So the edital refuses to
  be issued while the table is the example (*missing* item), and the draft prints
  the table with its warning. Ties: art. 8º, § 1º, then the subsidiary rule of
  :mod:`lavra_americana.ranking` (order of protocol), which the edital states;
- the appeal against the choice, 5 days (art. 11), counted from the publication of
  the result: the rule is printed (the result is not yet published).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from pathlib import Path
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
from lavra.checking.timeliness import check_timeliness
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.model import Law, resolve
from lavra.law.statutory import StatutoryContext, deadline_for
from lavra.render.templating import format_moeda, format_moeda_extenso
from lavra.textutil import format_date
from lavra_americana.amounts import TRANSPORTE_ESCOLAR
from lavra_americana.computations.common import pack_root, rule_sources
from lavra_americana.penalties import PriorInfraction, Sanction, SanctionKind, escolar_sanction
from lavra_americana.ranking import (
    Population,
    PopulationFigure,
    latest_figure,
    licence_cap,
    load_population,
    load_scoring_table,
)

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "auto_infracao_escolar",
    "decisao_recurso",
    "edital_chamamento_escolar",
]

ESC = TRANSPORTE_ESCOLAR
FRET = "fretamento"

IMPLEMENTED: tuple[str, ...] = (
    f"{ESC}#art6_par1u",
    f"{ESC}#art10",
    f"{ESC}#art10_par1u",
    f"{ESC}#art11",
    f"{ESC}#art25",
    f"{ESC}#art26",
    f"{ESC}#art27",
    f"{FRET}#art24",
)
"""Citations whose rule this module applies (coverage): the appeal notices and
decisions, reconsideração, and the edital's periods, documents and criteria."""


# ---------------------------------------------------------------- helpers


def _data(request: ComputeInput) -> Mapping[str, Any]:
    return request.data if isinstance(request.data, Mapping) else {}


def _short(laws: Mapping[str, Law], citation: str) -> str:
    return resolve(laws, citation).short


def _period_of(context: StatutoryContext, citation: str, on: date) -> tuple[int, str] | None:
    """``(amount, unit)`` of the deadline ``citation`` sets, as in force on ``on``."""
    rule = context.rules.get(citation)
    if rule is None or rule.parameter is None:
        return None
    try:
        value = context.parameters.value(rule.parameter, on)
    except LavraError:
        return None
    return int(value.value), str(value.unit)


def _invalid(requirement: str, pointer: str, message: str, *basis: str) -> Item:
    return Item(requirement, Status.INVALID, pointer, message, tuple(basis))


def _missing(requirement: str, pointer: str, message: str, *basis: str) -> Item:
    return Item(requirement, Status.MISSING, pointer, message, tuple(basis))


# ---------------------------------------------------------------- auto / advertência

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
    SanctionKind.REVOGACAO: "Revogação do alvará",
    SanctionKind.ALVARA_REVOGADO: "Sem sanção: alvará já revogado",
}
TITLE_WARNING = "Advertência"
TITLE_FINE = "Auto de Infração e Imposição de Multa"
TITLE_REVOCATION = "Auto de Infração e Revogação do Alvará"


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
                _invalid(
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
    ref = _short(laws, basis)
    entry = pointers.get(data, AUTO_HISTORY)
    if not isinstance(entry, Mapping) or entry.get("conferido") is not True:
        return False, [
            _missing(
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
            _missing(
                "historico_conferido",
                AUTO_HISTORY,
                f"Informe o servidor que conferiu o histórico do condutor e a data ({ref}).",
                basis,
            )
        ]
    if when > issued_on:
        return False, [
            _invalid(
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
    :func:`lavra_americana.penalties.escolar_sanction` applies, an earlier infraction counting
    when the one judged falls within the period from it; None when no value is in force.
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
        return f"{fine} e revogação do alvará"
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
        "revogacao": sanction.kind is SanctionKind.REVOGACAO,
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
    on: date, ciencia: date | None, context: StatutoryContext
) -> tuple[dict[str, Any], list[Item]]:
    laws = context.laws
    period = _period_of(context, ESC_APPEAL_DEADLINE, ciencia or on)
    length, counted = period_words(*period) if period else ("", "contado")
    rule = (
        "Da penalidade aplicada cabe recurso, em única instância, ao Prefeito Municipal "
        f"({_short(laws, ESC_APPEAL)}), no prazo de {length} {counted} da data em que o "
        f"infrator tomar ciência da punição ({_short(laws, ESC_APPEAL_DEADLINE)})."
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
            "A Secretaria de Transportes e Sistema Viário poderá, por motivo devidamente "
            "justificado, reconsiderar a decisão que aplicou a penalidade, desde que não haja "
            f"decisão do recurso interposto ao Prefeito ({_short(laws, ESC_RECONSIDER)})."
        ),
        "fundamento": [ESC_APPEAL, ESC_APPEAL_DEADLINE],
    }
    if ciencia is None:
        return values, []
    try:
        deadline = deadline_for(ESC_APPEAL_DEADLINE, ciencia, context=context)
    except LavraError as error:
        message = f"Não foi possível calcular o prazo de recurso (art. 26): {error.message}"
        return values, [_missing("recurso.prazo", AUTO_CIENCIA, message, ESC_APPEAL_DEADLINE)]
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
    data = _data(request)
    on = maybe_date(pointers.get(data, AUTO_DATE))
    if on is None:
        return Computed(_escolar_pending("Informe a data da infração para apurar a sanção."))
    context, sources = rule_sources(request.pack_dir, request.example_values)
    laws = sources.laws
    holder = clean_text(pointers.get(data, AUTO_HOLDER)) or "-"
    priors, items = _priors(data, holder, on, laws)
    attested, history_items = _history_attested(data, request.issued_on, laws)
    items.extend(history_items)

    lines: list[dict[str, Any]] = []
    sanctions: list[Sanction] = []
    seen: dict[str, int] = {}
    for index, citation, entry in _listed_infractions(data, AUTO_INFRACTIONS):
        pointer = f"{AUTO_INFRACTIONS}/{index}/dispositivo"
        if citation in seen:
            items.append(
                _invalid(
                    f"infracoes.{index}.dispositivo",
                    pointer,
                    f"A infração ao {_short(laws, citation)} já consta do item "
                    f"{seen[citation] + 1} deste auto: informe cada infração uma só vez.",
                    ESC_FINES,
                )
            )
            continue
        seen[citation] = index
        try:
            sanction = escolar_sanction(citation, on, priors, sources, holder=holder)
        except LavraError as error:
            items.append(_missing(f"infracoes.{index}.sancao", pointer, error.message, ESC_FINES))
            continue
        if sanction.kind is SanctionKind.ALVARA_REVOGADO:
            items.append(
                _invalid(
                    f"infracoes.{index}.sancao",
                    pointer,
                    f"{sanction.explanation} A exploração do serviço sem licença sujeita o "
                    "infrator às penalidades da lei própria "
                    f"({_short(laws, f'{ESC}#art19')}), fora deste auto.",
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
                _missing(
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
    appeal, appeal_items = _escolar_appeal(on, ciencia, context)
    items.extend(appeal_items)
    items.extend(_escolar_dates(on, ciencia, request.issued_on, appeal))

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
    elif SanctionKind.REVOGACAO in kinds:
        title = TITLE_REVOCATION
    else:
        title = TITLE_FINE
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
        "revogacao": SanctionKind.REVOGACAO in kinds,
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


def _escolar_dates(
    on: date, ciencia: date | None, issued_on: date, appeal: Mapping[str, Any]
) -> list[Item]:
    """An auto may not precede its facts; the ciência falls between them and the issue."""
    found: list[Item] = []
    if on > issued_on:
        found.append(
            _invalid(
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
            _invalid(
                "ciencia.data",
                AUTO_CIENCIA,
                f"A data da ciência ({format_date(ciencia)}) é anterior à data da infração "
                f"({format_date(on)}).",
                ESC_APPEAL_DEADLINE,
            )
        )
    elif ciencia > issued_on:
        found.append(
            _invalid(
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
            _invalid(
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


# ---------------------------------------------------------------- appeal decisions

DEC_HYPOTHESIS = "/recurso/hipotese"
DEC_FILED = "/recurso/data_protocolo"
DEC_ACT_DATE = "/ato_recorrido/data"
DEC_ACT_CIENCIA = "/ato_recorrido/data_ciencia"
DEC_RESULT = "/decisao/resultado"
DEC_DATE = "/decisao/data"
DEC_DECIDED = "/reconsideracao/recurso_decidido"

RECONSIDERATION = f"{ESC}#art27"
# hypothesis → (the citation that sets the deadline, the pointer of its start event)
APPEALS: dict[str, tuple[str, str]] = {
    f"{FRET}#art23": (f"{FRET}#art23", DEC_ACT_DATE),
    f"{FRET}#art24": (f"{FRET}#art24", DEC_ACT_CIENCIA),
    f"{ESC}#art25": (f"{ESC}#art26", DEC_ACT_CIENCIA),
    f"{ESC}#art11": (f"{ESC}#art11", DEC_ACT_DATE),
}
RESULTS = {
    "provido": "dá-se provimento ao recurso",
    "parcialmente_provido": "dá-se provimento parcial ao recurso",
    "nao_provido": "nega-se provimento ao recurso",
}
RECONSIDERATION_RESULTS = {
    "provido": "reconsidera-se a decisão que aplicou a penalidade",
    "parcialmente_provido": "reconsidera-se em parte a decisão que aplicou a penalidade",
    "nao_provido": "mantém-se a decisão que aplicou a penalidade",
}
RESULT_LABELS = {
    "provido": "Recurso conhecido e provido",
    "parcialmente_provido": "Recurso conhecido e parcialmente provido",
    "nao_provido": "Recurso conhecido e não provido",
}
RECONSIDERATION_LABELS = {
    "provido": "Penalidade reconsiderada",
    "parcialmente_provido": "Penalidade reconsiderada em parte",
    "nao_provido": "Penalidade mantida",
}


def _next_remedy(
    hypothesis: str,
    result: str | None,
    known: bool,
    laws: Mapping[str, Law],
    context: StatutoryContext,
    on: date,
    appeal: tuple[date, date] | None = None,
) -> str:
    if hypothesis == f"{FRET}#art23":
        if known and result == "provido":
            return (
                "Provido integralmente o recurso, nada resta à recorrente a impugnar; a "
                "autuação anulada não produz efeitos."
            )
        period = _period_of(context, f"{FRET}#art24", on)
        length, counted = period_words(*period) if period else ("o mesmo prazo", "contado")
        return (
            "Desta decisão cabe recurso ao Prefeito Municipal, no prazo de "
            f"{length} {counted} da ciência desta decisão ({_short(laws, f'{FRET}#art24')})."
        )
    if hypothesis == f"{FRET}#art24":
        return (
            "Decidido o recurso ao Prefeito Municipal, última instância prevista na lei "
            f"({_short(laws, f'{FRET}#art24')}), encerra-se a instância administrativa: desta "
            "decisão não cabe novo recurso administrativo."
        )
    if hypothesis == f"{ESC}#art25":
        return (
            "O recurso contra penalidade é decidido pelo Prefeito Municipal em única instância "
            f"({_short(laws, f'{ESC}#art25')}): desta decisão não cabe novo recurso "
            "administrativo, nem reconsideração pela Secretaria, que só a pode fazer enquanto "
            f"não houver decisão do recurso ({_short(laws, RECONSIDERATION)})."
        )
    if hypothesis == f"{ESC}#art11":
        return (
            "Decidido o recurso contra o ato de escolha, dirigido ao Prefeito Municipal "
            f"({_short(laws, f'{ESC}#art11')}), desta decisão não cabe novo recurso "
            "administrativo; a escolha, nos termos desta decisão, é havida como definitiva, e "
            "a licença pode ser concedida na forma do "
            f"{_short(laws, f'{ESC}#art12_inc1')}."
        )
    # reconsideração
    if result == "provido":
        return (
            "Reconsiderada a decisão, a penalidade deixa de produzir efeitos; nada resta ao "
            "interessado a impugnar."
        )
    period = _period_of(context, f"{ESC}#art26", on)
    length, counted = period_words(*period) if period else ("o prazo legal", "contado")
    rule = (
        f"recurso ao Prefeito Municipal, em única instância ({_short(laws, f'{ESC}#art25')}), "
        f"no prazo de {length} {counted} da data em que o infrator tomou ciência da "
        f"punição ({_short(laws, f'{ESC}#art26')})"
    )
    if appeal is None:
        return f"Quanto à penalidade mantida, cabe {rule}; o último dia depende da ciência."
    ciencia, last = appeal
    if on > last:
        return (
            f"Quanto à penalidade mantida: o prazo do {rule}, tendo a ciência ocorrido em "
            f"{format_date(ciencia)}, encerrou-se em {format_date(last)}; não cabe mais "
            "recurso administrativo contra ela."
        )
    return (
        f"Quanto à penalidade mantida, permanece cabível o {rule}; tendo a ciência ocorrido "
        f"em {format_date(ciencia)}, o prazo encerra-se em {format_date(last)}."
    )


ESCOLAR_AUTO_FORM = "auto-infracao-escolar"
DEC_ACT_FORM = "/ato_recorrido/formulario"


def _reconsideration_items(
    data: Mapping[str, Any], context: StatutoryContext
) -> tuple[tuple[date, date] | None, list[Item]]:
    """Art. 27: only an escolar penalty of a natural person, with its ciência.

    Returns (ciência, last day of the appeal of art. 26) when known, and the items.
    """
    laws = context.laws
    ref = _short(laws, RECONSIDERATION)
    items: list[Item] = []
    form = clean_text(pointers.get(data, DEC_ACT_FORM))
    kind = clean_text(pointers.get(data, "/ato_recorrido/especie"))
    if form != ESCOLAR_AUTO_FORM or kind not in ("auto_infracao", "advertencia"):
        items.append(
            _invalid(
                "ato_recorrido.formulario",
                DEC_ACT_FORM,
                "A reconsideração só cabe da decisão que aplicou penalidade do transporte "
                f"escolar, lavrada em auto de infração ou advertência escolar ({ref}): informe "
                f"o ato do formulário {ESCOLAR_AUTO_FORM}.",
                RECONSIDERATION,
            )
        )
    if clean_text(pointers.get(data, "/recorrente/cnpj")) is not None:
        items.append(
            _invalid(
                "recorrente.cnpj",
                "/recorrente/cnpj",
                "A penalidade do transporte escolar é aplicada ao condutor, pessoa física: a "
                f"reconsideração ({ref}) não cabe a pessoa jurídica inscrita no CNPJ.",
                RECONSIDERATION,
            )
        )
    elif clean_text(pointers.get(data, "/recorrente/cpf")) is None:
        items.append(
            _missing(
                "recorrente.cpf",
                "/recorrente/cpf",
                f"Informe o CPF do condutor punido ({ref}).",
                RECONSIDERATION,
            )
        )
    ciencia = maybe_date(pointers.get(data, DEC_ACT_CIENCIA))
    if ciencia is None:
        items.append(
            _missing(
                "ato_recorrido.data_ciencia",
                DEC_ACT_CIENCIA,
                "Informe a data em que o condutor tomou ciência da punição: dela se conta o "
                f"prazo do recurso ao Prefeito ({_short(laws, ESC_APPEAL_DEADLINE)}).",
                ESC_APPEAL_DEADLINE,
            )
        )
        return None, items
    try:
        deadline = deadline_for(ESC_APPEAL_DEADLINE, ciencia, context=context)
    except LavraError as error:
        items.append(
            _missing(
                "ato_recorrido.data_ciencia", DEC_ACT_CIENCIA, error.message, ESC_APPEAL_DEADLINE
            )
        )
        return None, items
    return (ciencia, deadline.last_day), items


def decisao_recurso(request: ComputeInput) -> Computed:
    """Timeliness, knowledge, result and next remedy of an appeal decision (module doc).

    ``values`` keys: ``hipotese``, ``reconsideracao`` (bool), ``tempestividade``
    (the explanation of :func:`check_timeliness`, verbatim), ``tempestivo``,
    ``conhecido``, ``resultado``, ``resultado_texto`` (the operative words),
    ``resultado_rotulo`` (the summary: "Recurso não conhecido"...), ``proximo_recurso``,
    ``prazo_recurso`` (the deadline's last day, or None), ``fundamento``.
    """
    data = _data(request)
    hypothesis = clean_text(pointers.get(data, DEC_HYPOTHESIS))
    context, _ = rule_sources(request.pack_dir, False)
    laws = context.laws
    pending: dict[str, Any] = {
        "hipotese": hypothesis,
        "reconsideracao": hypothesis == RECONSIDERATION,
        "tempestividade": None,
        "tempestivo": None,
        "conhecido": None,
        "resultado": None,
        "resultado_texto": None,
        "resultado_rotulo": None,
        "proximo_recurso": None,
        "prazo_recurso": None,
        "fundamento": [],
    }
    if hypothesis is None or (hypothesis not in APPEALS and hypothesis != RECONSIDERATION):
        return Computed(pending)  # the schema reports it
    on = maybe_date(pointers.get(data, DEC_DATE)) or request.on
    filed = maybe_date(pointers.get(data, DEC_FILED))
    result = clean_text(pointers.get(data, DEC_RESULT))
    items: list[Item] = []
    values = dict(pending)
    fixed = form_basis(pack_root(request.pack_dir), request.form_id)
    basis: list[str] = [hypothesis]

    if filed is not None and filed > on:
        items.append(
            _invalid(
                "decisao.data",
                DEC_DATE,
                f"A decisão ({format_date(on)}) não pode ser anterior ao protocolo do pedido "
                f"({format_date(filed)}).",
                hypothesis,
            )
        )

    if on > request.issued_on:
        items.append(
            _invalid(
                "decisao.data",
                DEC_DATE,
                f"A data da decisão ({format_date(on)}) é posterior à data de emissão do ato "
                f"({format_date(request.issued_on)}): a decisão não pode ser pós-datada.",
                hypothesis,
            )
        )

    known = True
    appeal: tuple[date, date] | None = None
    if hypothesis == RECONSIDERATION:
        labels, words = RECONSIDERATION_LABELS, RECONSIDERATION_RESULTS
        appeal, reconsideration_items = _reconsideration_items(data, context)
        items.extend(reconsideration_items)
        if appeal is not None:
            values["prazo_recurso"] = appeal[1]
        if pointers.get(data, DEC_DECIDED) is True:
            items.append(
                _invalid(
                    "reconsideracao.recurso_decidido",
                    DEC_DECIDED,
                    "Já decidido o recurso ao Prefeito contra a penalidade, a Secretaria não "
                    f"pode mais reconsiderá-la ({_short(laws, RECONSIDERATION)}).",
                    RECONSIDERATION,
                )
            )
    else:
        labels, words = RESULT_LABELS, RESULTS
        deadline_citation, start_pointer = APPEALS[hypothesis]
        basis.append(deadline_citation)
        start = maybe_date(pointers.get(data, start_pointer))
        if start is None or filed is None:
            items.append(
                _missing(
                    "recurso.tempestividade",
                    DEC_FILED if filed is None else start_pointer,
                    "Informe a data do protocolo do recurso e a data de que se conta o prazo "
                    f"({_short(laws, deadline_citation)}) para apurar a tempestividade.",
                    deadline_citation,
                )
            )
            known = False
        else:
            try:
                timeliness = check_timeliness(
                    deadline_citation, start, filed, context=context, field=DEC_FILED
                )
            except LavraError as error:
                items.append(
                    _missing("recurso.tempestividade", DEC_FILED, error.message, deadline_citation)
                )
                known = False
            else:
                # Not knowing an untimely appeal is a decision that may be issued: the
                # item is met, its message says why.
                items.append(
                    Item(
                        "recurso.tempestividade",
                        Status.MET,
                        DEC_FILED,
                        timeliness.explanation,
                        timeliness.basis,
                    )
                )
                values.update(
                    tempestividade=timeliness.explanation,
                    tempestivo=timeliness.timely,
                    prazo_recurso=timeliness.deadline.last_day,
                )
                if not timeliness.timely:
                    values.update(
                        conhecido=False,
                        resultado="nao_conhecido",
                        resultado_rotulo="Recurso não conhecido, por intempestivo",
                        resultado_texto="não se conhece do recurso, por intempestivo, "
                        "ficando prejudicado o exame do mérito",
                    )
                    if result is not None:
                        items.append(
                            _invalid(
                                "decisao.resultado",
                                DEC_RESULT,
                                "Recurso intempestivo não é conhecido: não há julgamento de "
                                "mérito. Deixe o resultado em branco; a fundamentação registra "
                                "a intempestividade.",
                                deadline_citation,
                            )
                        )
    if values["conhecido"] is not False:
        if result is None:
            items.append(
                _missing(
                    "decisao.resultado",
                    DEC_RESULT,
                    "Informe o resultado da decisão (provido, parcialmente provido ou não "
                    "provido).",
                    hypothesis,
                )
            )
        elif result in words:
            values.update(
                conhecido=known or None,
                resultado=result,
                resultado_rotulo=labels[result],
                resultado_texto=words[result],
            )
    values["proximo_recurso"] = _next_remedy(
        hypothesis, values["resultado"], known, laws, context, on, appeal
    )
    if hypothesis == f"{FRET}#art23" and values["resultado"] != "provido":
        basis.append(f"{FRET}#art24")
    if hypothesis == RECONSIDERATION and values["resultado"] != "provido":
        basis.extend((f"{ESC}#art25", f"{ESC}#art26"))
    values["fundamento"] = in_legal_order([*basis, *fixed], laws)
    return Computed(values, unique_items(items))


# ---------------------------------------------------------------- edital

EDT_PUBLISHED = "/publicacao/data"
EDT_OPEN = "/inscricoes/inicio"
EDT_CLOSE = "/inscricoes/fim"
EDT_ACTIVE = "/licencas_ativas"
EDT_PLACES = "/vagas"
EDT_OFFICIAL = "/populacao_oficial"
ART6 = f"{ESC}#art6"
ART6_PERIOD = f"{ESC}#art6_par1u"
ART8 = f"{ESC}#art8"
ART10 = f"{ESC}#art10"
ART11 = f"{ESC}#art11"


def _stated_population(
    data: Mapping[str, Any], pack: Population, on: date, laws: Mapping[str, Law]
) -> tuple[Population | None, list[Item]]:
    """The official figure typed by staff, if any and if it is the latest boletim."""
    raw = pointers.get(data, EDT_OFFICIAL)
    if not isinstance(raw, Mapping):
        return None, []
    value, year = raw.get("valor"), raw.get("ano")
    published = maybe_date(raw.get("divulgacao"))
    source, kind = clean_text(raw.get("fonte")), raw.get("tipo")
    if not (
        isinstance(value, int)
        and isinstance(year, int)
        and published
        and source
        and kind in ("estimativa", "censo")
    ):
        return None, []  # the schema reports it
    ref = _short(laws, ART6)
    where = f"{EDT_OFFICIAL}/divulgacao"
    if published > on:
        return None, [
            _invalid(
                "populacao",
                where,
                f"O dado populacional informado foi divulgado em {format_date(published)}, "
                f"depois da publicação do edital ({format_date(on)}) ({ref}).",
                ART6,
            )
        ]
    try:
        latest: PopulationFigure | None = latest_figure(pack, on)
    except LavraError:
        latest = None
    if latest is not None and (
        published < latest.published and not (latest.year == year and latest.kind == kind)
    ):
        return None, [
            _invalid(
                "populacao",
                where,
                f"O dado informado ({year}, divulgado em {format_date(published)}) é "
                f"anterior ao último boletim do IBGE registrado, a {latest.describe()}: "
                f"o art. 6º manda considerar a população do último boletim ({ref}).",
                ART6,
            )
        ]
    figure = PopulationFigure(
        year=year,
        kind=kind,
        reference_date=None,
        published=min(published, on),
        value=value,
        status="confirmado",
        source=source,
    )
    return Population(pack.municipality, pack.basis, (figure,)), []


def _criteria(pack_dir: Path) -> tuple[dict[str, Any] | None, list[Item]]:
    try:
        table = load_scoring_table(pack_dir)
    except LavraError as error:
        return None, [_missing("tabela_pontuacao", "", error.message, ART8)]
    values = {
        "titulo": table.title,
        "exemplo": table.example,
        "aviso": table.notice,
        "fonte": table.source,
        "criterios": [
            {
                "descricao": c.description,
                "tipo": c.kind,
                "pontos": _points(c.points),
                "maximo": _points(c.maximum) if c.maximum is not None else None,
                "unidade": c.unit,
            }
            for c in table.criteria
        ],
    }
    if table.example:
        return values, [
            _missing(
                "tabela_pontuacao",
                "",
                "Critérios de escolha: a tabela de pontuação do pacote é um EXEMPLO, não o "
                "Anexo da lei. O edital vincula a Administração e os candidatos aos critérios "
                "que publica, e critérios fictícios tornariam nulo o processo seletivo: o "
                "edital não pode ser publicado enquanto o Anexo oficial não for cadastrado "
                "(legal_text/anexo-pontuacao.json).",
                ART8,
                f"{ESC}#art10_par1u",
            )
        ]
    return values, [
        Item(
            "tabela_pontuacao",
            Status.MET,
            "",
            f"Critérios de escolha: {table.title} ({table.source}).",
            (ART8, f"{ESC}#art10_par1u"),
        )
    ]


def _points(value: Decimal) -> str:
    if value == value.to_integral():
        return str(int(value))
    return format(value.normalize(), "f").replace(".", ",")


def _edital_periods(
    published: date | None,
    opening: date | None,
    closing: date | None,
    context: StatutoryContext,
) -> tuple[dict[str, Any], list[Item]]:
    items: list[Item] = []
    values: dict[str, Any] = {"inscricao": None, "antecedencia": None, "encerramento_minimo": None}
    laws = context.laws
    if published is not None and opening is not None and opening < published:
        items.append(
            _invalid(
                "inscricoes.inicio",
                EDT_OPEN,
                f"As inscrições não podem abrir ({format_date(opening)}) antes da "
                f"publicação do edital ({format_date(published)}) "
                f"({_short(laws, ART6_PERIOD)}).",
                ART6_PERIOD,
            )
        )
    if opening is not None and closing is not None:
        try:
            period = check_timeliness(
                ART6_PERIOD, opening, closing, context=context, field=EDT_CLOSE
            )
        except LavraError as error:
            items.append(_missing("inscricoes.fim", EDT_CLOSE, error.message, ART6_PERIOD))
        else:
            items.extend(period.items)
            values["inscricao"] = period.explanation
            values["encerramento_minimo"] = period.deadline.last_day
    if published is not None and opening is not None:
        # Art. 10 counted back from the opening of registration, the day the candidates
        # are called to (the cautious reading: counted from the closing, the antecedence
        # would be swallowed by the registration period of art. 6º, parágrafo único).
        try:
            notice = check_timeliness(
                ART10, opening, published, context=context, field=EDT_PUBLISHED
            )
        except LavraError as error:
            items.append(_missing("publicacao.data", EDT_PUBLISHED, error.message, ART10))
        else:
            deadline = notice.deadline
            size = "" if deadline.period is None else deadline.period.describe()
            text = (
                f"Edital publicado em {format_date(published)}; com a antecedência mínima de "
                f"{size} da abertura das inscrições, em {format_date(opening)}, data para a "
                f"qual os interessados são convocados ({_short(laws, ART10)}), a publicação "
                f"{'deveria ocorrer' if notice.timely else 'deveria ter ocorrido'} até "
                f"{format_date(deadline.last_day)}: "
                + (
                    "publicação com a antecedência legal."
                    if notice.timely
                    else "publicação sem a antecedência mínima legal."
                )
            )
            items.extend(
                Item(i.requirement, i.status, i.field, text, i.basis) for i in notice.items
            )
            values["antecedencia"] = text
    return values, items


def _population_age_items(year: int, on: date, laws: Mapping[str, Law]) -> list[Item]:
    """A figure older than the latest IBGE estimate due on ``on`` is *missing*.

    The IBGE publishes its estimates in the DOU around the end of August: from
    September the estimate of the current year is due, before it that of the previous
    year. An older figure may not be taken for "o último boletim" (art. 6º).
    """
    due = on.year if on > date(on.year, 8, 31) else on.year - 1
    if year >= due:
        return []
    return [
        _missing(
            "populacao_atualizada",
            EDT_OFFICIAL,
            f"O dado populacional usado é de {year}, mas em {format_date(on)} o último "
            f"boletim do IBGE já deve trazer a estimativa de {due} (divulgada no Diário "
            "Oficial da União por volta do fim de agosto): informe a estimativa mais "
            f"recente ({_short(laws, ART6)}).",
            ART6,
        )
    ]


def edital_chamamento_escolar(request: ComputeInput) -> Computed:
    """Places (art. 6º), periods (arts. 6º, par. único, and 10), criteria (art. 8º).

    ``values`` keys: ``vagas`` (places offered), ``limite`` (cap of art. 6º),
    ``vagas_abertas``, ``licencas_ativas``, ``populacao`` (``valor``, ``descricao``,
    ``fonte``, ``confirmado``), ``explicacao_vagas``, ``inscricao`` and
    ``antecedencia`` (timeliness explanations), ``encerramento_minimo``,
    ``criterios`` (the scoring table: ``titulo``, ``exemplo``, ``aviso``,
    ``criterios``), ``recurso`` (the rule of art. 11), ``fundamento``.
    """
    data = _data(request)
    context, _ = rule_sources(request.pack_dir, False)
    laws = context.laws
    root = pack_root(request.pack_dir)
    published = maybe_date(pointers.get(data, EDT_PUBLISHED))
    on = published or request.on
    items: list[Item] = []
    values: dict[str, Any] = {
        "vagas": None,
        "limite": None,
        "vagas_abertas": None,
        "licencas_ativas": None,
        "populacao": None,
        "explicacao_vagas": None,
    }

    active = pointers.get(data, EDT_ACTIVE)
    try:
        pack_population = load_population(root)
        stated, stated_items = _stated_population(data, pack_population, on, laws)
        items.extend(stated_items)
        population = stated or pack_population
        if isinstance(active, int) and not isinstance(active, bool):
            cap = licence_cap(population, on, active, params=context.parameters, laws=laws)
        else:
            cap = None
    except LavraError as error:
        items.append(_missing("populacao", "/populacao_oficial", error.message, ART6))
        cap = None
    if cap is not None:
        items.extend(
            Item(i.requirement, i.status, EDT_OFFICIAL, i.message, i.basis) for i in cap.items
        )
        offered = pointers.get(data, EDT_PLACES)
        places = (
            offered
            if isinstance(offered, int) and not isinstance(offered, bool)
            else cap.open_places
        )
        values.update(
            limite=cap.cap,
            vagas_abertas=cap.open_places,
            licencas_ativas=cap.active,
            vagas=places,
            explicacao_vagas=cap.explanation,
            populacao={
                "valor": cap.population,
                "descricao": cap.figure.describe(),
                "fonte": cap.figure.source,
                "confirmado": cap.figure.confirmed,
            },
        )
        items.extend(_population_age_items(cap.figure.year, on, laws))
        if cap.open_places == 0:
            items.append(
                _invalid(
                    "vagas",
                    EDT_ACTIVE,
                    f"{cap.explanation} Sem vaga a preencher não há edital de chamamento "
                    f"({_short(laws, ART6)}).",
                    ART6,
                )
            )
        elif places > cap.open_places:
            items.append(
                _invalid(
                    "vagas",
                    EDT_PLACES,
                    f"O edital oferece {places} vagas, mais que as {cap.open_places} "
                    f"abertas no limite do {_short(laws, ART6)}: {cap.explanation}",
                    ART6,
                )
            )
        elif places < 1:
            items.append(
                _invalid("vagas", EDT_PLACES, "O edital deve oferecer ao menos uma vaga.", ART6)
            )

    periods, period_items = _edital_periods(
        published,
        maybe_date(pointers.get(data, EDT_OPEN)),
        maybe_date(pointers.get(data, EDT_CLOSE)),
        context,
    )
    values.update(periods)
    items.extend(period_items)

    criteria, criteria_items = _criteria(root)
    values["criterios"] = criteria
    items.extend(criteria_items)

    period = _period_of(context, ART11, on)
    length, counted = period_words(*period) if period else ("", "contado")
    values["recurso"] = (
        "Do ato de escolha caberá recurso escrito dirigido ao Prefeito Municipal, no prazo "
        f"de {length} {counted} da publicação do resultado, findo o qual a escolha será "
        f"havida como definitiva ({_short(laws, ART11)})."
    )
    fixed = form_basis(root, request.form_id)
    values["fundamento"] = in_legal_order([ART6, ART6_PERIOD, ART8, ART10, ART11, *fixed], laws)
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "auto_infracao_escolar": auto_infracao_escolar,
    "decisao_recurso": decisao_recurso,
    "edital_chamamento_escolar": edital_chamamento_escolar,
}
"""The computations of this module a form may name under ``"calculos"``."""
