"""The decision on an appeal, in both laws (forms ``decisao-recurso-secretario`` and
``decisao-recurso-prefeito``): fretamento arts. 23 and 24 (Lei nº 4.419/2006);
transporte escolar arts. 11, 25, 26 and 27 (Lei nº 4.515/2007).

Like every computation of the pack, it never raises for what the data or the pack lack:
a value that cannot be computed is a *missing* item, a fact against the law an
*invalid* one, and the values say pending.

``decisao_recurso`` — forms ``decisao-recurso-secretario`` and
``decisao-recurso-prefeito``. Who decides is fixed by the law, and the form metadata
carries one signer: the Secretário decides the fretamento appeal of art. 23 and the
reconsideração of escolar art. 27; the Prefeito decides the fretamento appeal of art.
24 and the escolar appeals of arts. 25 (penalties, única instância) and 11 (choice of
the selection). ``/recurso/hipotese`` names the provision the appeal is based on:

- timeliness with :func:`lavra.checking.timeliness.check_timeliness`, from the start event the
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
  arts. 25 and 26 as the law gives it;
- due process: a result that keeps the penalty (não provido, parcialmente provido) needs
  the party's reasons summarised (``/recurso/razoes``), which the decision answers;
- a signed act records only what happened: the appealed act, its ciência and the filing
  are not after the issue, the filing not before the appealed act, the ciência not
  before the act; a decision dated before the filing or after the issue is *invalid*.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
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
from lavra.law.model import Law
from lavra.law.statutory import StatutoryContext, deadline_for
from lavra.textutil import format_date
from lavra_americana.comum import recurso_9784 as federal
from lavra_americana.comum.amounts import TRANSPORTE_ESCOLAR
from lavra_americana.comum.ciencia_recorrido import appealed_ciencia, from_refusal
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import (
    data_of,
    fact_after_issue,
    form_title,
    invalid,
    missing,
    period_of,
)
from lavra_americana.comum.recurso_estado import appealed_items
from lavra_americana.comum.sources import pack_root, rule_sources

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "decisao_recurso",
]

ESC = TRANSPORTE_ESCOLAR
FRET = "fretamento"
DEC_HYPOTHESIS = "/recurso/hipotese"
DEC_FILED = "/recurso/data_protocolo"
DEC_ACT_DATE = "/ato_recorrido/data"
DEC_ACT_CIENCIA = "/ato_recorrido/data_ciencia"
DEC_ACT_KIND = "/ato_recorrido/especie"
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
    # the revogação by motivo fundamentado (escolar art. 3º): Lei nº 9.784/1999, art. 59
    **{hypothesis: (federal.DEADLINE, DEC_ACT_CIENCIA) for hypothesis in federal.APPEALS},
}


# hypothesis → what the decision is, printed as its subtitle: each document says what it
# is (the form serves several cases; "recurso ... ou reconsideração" is no subtitle).
SUBTITLES: dict[str, str] = {
    f"{FRET}#art23": "Recurso contra auto de infração do transporte por fretamento",
    f"{FRET}#art24": "Recurso contra decisão do Secretário em matéria de transporte por "
    "fretamento",
    f"{ESC}#art25": "Recurso contra penalidade do transporte escolar",
    f"{ESC}#art11": "Recurso contra o ato de escolha do processo seletivo do transporte "
    "escolar",
    RECONSIDERATION: "Reconsideração de penalidade do transporte escolar",
    **federal.SUBTITLES,
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


IMPLEMENTED: tuple[str, ...] = (
    f"{ESC}#art11",
    f"{ESC}#art25",
    f"{ESC}#art26",
    f"{ESC}#art27",
    f"{FRET}#art24",
)
"""Citations whose rule this module applies (coverage): the appeals and their
deadlines, the reconsideração, and the next remedy."""


def _next_remedy(
    hypothesis: str,
    result: str | None,
    known: bool,
    laws: Mapping[str, Law],
    context: StatutoryContext,
    on: date,
    appeal: tuple[date, date] | None = None,
    number: object = None,
) -> str:
    if hypothesis in federal.APPEALS:  # number: the act appealed
        return federal.next_remedy(hypothesis, result, laws, number)
    if hypothesis == f"{FRET}#art23":
        if known and result == "provido":
            return (
                "Provido integralmente o recurso, nada resta à parte recorrente a impugnar; a "
                "autuação anulada não produz efeitos."
            )
        period = period_of(context, f"{FRET}#art24", on)
        length, counted = period_words(*period) if period else ("o mesmo prazo", "contado")
        return (
            "Desta decisão cabe recurso ao Prefeito Municipal, no prazo de "
            f"{length} {counted} da ciência desta decisão ({short(laws, f'{FRET}#art24')})."
        )
    if hypothesis == f"{FRET}#art24":
        return (
            "Decidido o recurso ao Prefeito Municipal, última instância prevista na lei "
            f"({short(laws, f'{FRET}#art24')}), encerra-se a instância administrativa: desta "
            "decisão não cabe novo recurso administrativo."
        )
    if hypothesis == f"{ESC}#art25":
        return (
            "O recurso contra penalidade é decidido pelo Prefeito Municipal em única instância "
            f"({short(laws, f'{ESC}#art25')}): desta decisão não cabe novo recurso "
            "administrativo, nem reconsideração pela Secretaria, que só a pode fazer enquanto "
            f"não houver decisão do recurso ({short(laws, RECONSIDERATION)})."
        )
    if hypothesis == f"{ESC}#art11":
        return (
            "Decidido o recurso contra o ato de escolha, dirigido ao Prefeito Municipal "
            f"({short(laws, f'{ESC}#art11')}), desta decisão não cabe novo recurso "
            "administrativo; a escolha, nos termos desta decisão, é havida como definitiva, e "
            "a licença pode ser concedida na forma do "
            f"{short(laws, f'{ESC}#art12_inc1')}."
        )
    # reconsideração
    if result == "provido":
        return (
            "Reconsiderada a decisão, a penalidade deixa de produzir efeitos; nada resta ao "
            "interessado a impugnar."
        )
    period = period_of(context, f"{ESC}#art26", on)
    length, counted = period_words(*period) if period else ("o prazo legal", "contado")
    rule = (
        f"recurso ao Prefeito Municipal, em única instância ({short(laws, f'{ESC}#art25')}), "
        f"no prazo de {length} {counted} da data em que o infrator tomou ciência da "
        f"punição ({short(laws, f'{ESC}#art26')})"
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
    request: ComputeInput, context: StatutoryContext, ciencia: date | None
) -> tuple[tuple[date, date] | None, list[Item]]:
    """Art. 27: only an escolar penalty of a natural person, with its ciência (the form
    named by its title, never its id).

    Returns (ciência, last day of the appeal of art. 26) when known, and the items.
    """
    laws, data = context.laws, data_of(request)
    ref = short(laws, RECONSIDERATION)
    items: list[Item] = []
    form = clean_text(pointers.get(data, DEC_ACT_FORM))
    kind = clean_text(pointers.get(data, "/ato_recorrido/especie"))
    if form != ESCOLAR_AUTO_FORM or kind not in ("auto_infracao", "advertencia"):
        title = form_title(request.pack_dir, ESCOLAR_AUTO_FORM) or "auto de infração"
        items.append(invalid(
            "ato_recorrido.formulario", DEC_ACT_FORM,
            "A reconsideração só cabe da decisão que aplicou penalidade do transporte "
            f"escolar, lavrada em auto de infração ou advertência escolar ({ref}): informe "
            f"o ato lavrado em «{title}».", RECONSIDERATION))
    if clean_text(pointers.get(data, "/recorrente/cnpj")) is not None:
        items.append(
            invalid(
                "recorrente.cnpj",
                "/recorrente/cnpj",
                "A penalidade do transporte escolar é aplicada ao condutor, pessoa física: a "
                f"reconsideração ({ref}) não cabe a pessoa jurídica inscrita no CNPJ.",
                RECONSIDERATION,
            )
        )
    elif clean_text(pointers.get(data, "/recorrente/cpf")) is None:
        items.append(
            missing(
                "recorrente.cpf",
                "/recorrente/cpf",
                f"Informe o CPF do condutor punido ({ref}).",
                RECONSIDERATION,
            )
        )
    if ciencia is None:
        items.append(
            missing(
                "ato_recorrido.data_ciencia",
                DEC_ACT_CIENCIA,
                "Informe a data em que o condutor tomou ciência da punição: dela se conta o "
                f"prazo do recurso ao Prefeito ({short(laws, ESC_APPEAL_DEADLINE)}).",
                ESC_APPEAL_DEADLINE,
            )
        )
        return None, items
    try:
        deadline = deadline_for(ESC_APPEAL_DEADLINE, ciencia, context=context)
    except LavraError as error:
        items.append(
            missing(
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
    ``prazo_recurso`` (the deadline's last day, or None), ``fundamento``,
    ``subtitulo_documento`` (what the decision is, from the hypothesis, with its basis),
    ``ciencia_registrada`` (where the ciência the deadline runs from is recorded, when the
    registry holds it; :mod:`lavra_americana.comum.ciencia_recorrido`), ``ciencia_ato`` (the
    day of that ciência, registry's or typed).
    """
    data = data_of(request)
    hypothesis = clean_text(pointers.get(data, DEC_HYPOTHESIS))
    context, _ = rule_sources(request, False)
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
        "subtitulo_documento": None,
        "ciencia_registrada": None,
        "ciencia_ato": None,
    }
    if hypothesis is None or (hypothesis not in APPEALS and hypothesis != RECONSIDERATION):
        return Computed(pending)  # the schema reports it
    appealed = pointers.get(data, "/ato_recorrido/numero")  # the act of Lei nº 9.784's appeal
    named = (federal.subtitle(hypothesis, appealed) if hypothesis in federal.APPEALS
             else SUBTITLES[hypothesis])
    pending["subtitulo_documento"] = f"{named} ({short(laws, hypothesis)})"
    on = maybe_date(pointers.get(data, DEC_DATE)) or request.on
    filed = maybe_date(pointers.get(data, DEC_FILED))
    result = clean_text(pointers.get(data, DEC_RESULT))
    items: list[Item] = []
    values = dict(pending)
    fixed = form_basis(pack_root(request.pack_dir), request.form_id)
    basis: list[str] = [hypothesis]

    if filed is not None and filed > on:
        items.append(
            invalid(
                "decisao.data",
                DEC_DATE,
                f"A decisão ({format_date(on)}) não pode ser anterior ao protocolo do pedido "
                f"({format_date(filed)}).",
                hypothesis,
            )
        )

    if on > request.issued_on:
        items.append(
            invalid(
                "decisao.data",
                DEC_DATE,
                f"A data da decisão ({format_date(on)}) é posterior à data de emissão do ato "
                f"({format_date(request.issued_on)}): a decisão não pode ser pós-datada.",
                hypothesis,
            )
        )

    items.extend(_fact_dates(request, data, filed, hypothesis))
    items.extend(appealed_items(request, laws))  # the appealed act, as the registry holds it
    items.extend(federal.kind_items(request, laws, hypothesis))  # penalty or art. 3º
    # The ciência of the appealed act: the registry's when the act is there (the ciência
    # given in it or recorded on its entry afterwards), else the typed date.
    recorded = appealed_ciencia(request, hypothesis)
    items.extend(recorded.items)
    values.update(ciencia_registrada=recorded.source, ciencia_ato=recorded.on)

    known = True
    appeal: tuple[date, date] | None = None
    if hypothesis == RECONSIDERATION:
        labels, words = RECONSIDERATION_LABELS, RECONSIDERATION_RESULTS
        appeal, reconsideration_items = _reconsideration_items(request, context, recorded.on)
        items.extend(reconsideration_items)
        if appeal is not None:
            values["prazo_recurso"] = appeal[1]
        if pointers.get(data, DEC_DECIDED) is True:
            items.append(
                invalid(
                    "reconsideracao.recurso_decidido",
                    DEC_DECIDED,
                    "Já decidido o recurso ao Prefeito contra a penalidade, a Secretaria não "
                    f"pode mais reconsiderá-la ({short(laws, RECONSIDERATION)}).",
                    RECONSIDERATION,
                )
            )
    else:
        labels, words = RESULT_LABELS, RESULTS
        if hypothesis == federal.RECONSIDERED:
            labels = federal.appealed_act(appealed).labels
            words = federal.appealed_act(appealed).words
        elif hypothesis == federal.SUPERIOR:
            words = federal.appealed_act(appealed).superior_words
        deadline_citation, start_pointer = APPEALS[hypothesis]
        if hypothesis == f"{ESC}#art11" and pointers.get(data, DEC_ACT_KIND) == "decisao":
            # the refusal of the inscription: 5 days from its ciência, as the refusal
            # states (comum/indeferimento.py); the result, from its publication
            start_pointer = DEC_ACT_CIENCIA
        basis.append(deadline_citation)
        start = (recorded.on if start_pointer == DEC_ACT_CIENCIA
                 else maybe_date(pointers.get(data, start_pointer)))
        if start is None or filed is None:
            items.append(
                missing(
                    "recurso.tempestividade",
                    DEC_FILED if filed is None else start_pointer,
                    "Informe a data do protocolo do recurso e a data de que se conta o prazo "
                    f"({short(laws, deadline_citation)}) para apurar a tempestividade.",
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
                    missing("recurso.tempestividade", DEC_FILED, error.message, deadline_citation)
                )
                known = False
            else:
                if start_pointer == DEC_ACT_CIENCIA and hypothesis == f"{ESC}#art11":
                    timeliness = replace(timeliness,
                                         explanation=from_refusal(timeliness.explanation))
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
                            invalid(
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
                missing(
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
    items.extend(_reasons_items(data, hypothesis, values["resultado"]))
    values["proximo_recurso"] = _next_remedy(
        hypothesis, values["resultado"], known, laws, context, on, appeal, appealed
    )
    if hypothesis == f"{FRET}#art23" and values["resultado"] != "provido":
        basis.append(f"{FRET}#art24")
    if hypothesis == RECONSIDERATION and values["resultado"] != "provido":
        basis.extend((f"{ESC}#art25", f"{ESC}#art26"))
    if hypothesis in federal.APPEALS:
        basis.extend((*federal.APPEALS, federal.DECIDED_IN, federal.DECIDES))
        decided_in = federal.deadline_item(laws, filed, on, hypothesis)
        reconsidered, values["prazo_reconsideracao"] = federal.reconsideration_period(
            laws, filed, on, hypothesis, context.calendar)
        items.extend(i for i in (decided_in, reconsidered) if i is not None)
    values["fundamento"] = in_legal_order([*basis, *fixed], laws)
    article = federal.appealed_act(appealed).article
    if hypothesis in federal.APPEALS and article:  # the act's article, then the appeal
        values["fundamento"] = [article, *values["fundamento"]]
    return Computed(values, unique_items(items))


ESC_APPEAL_DEADLINE = f"{ESC}#art26"
DEC_REASONS = "/recurso/razoes"
KEEPS_PENALTY = ("nao_provido", "parcialmente_provido")


def _fact_dates(
    request: ComputeInput, data: Mapping[str, Any], filed: date | None, hypothesis: str
) -> list[Item]:
    """A signed decision records only what happened by the time it is signed.

    The appealed act, its ciência and the filing may not be after the issue; the
    filing may not precede the appealed act (nothing to appeal yet), nor the ciência
    precede the act it gives knowledge of.
    """
    act = maybe_date(pointers.get(data, DEC_ACT_DATE))
    ciencia = maybe_date(pointers.get(data, DEC_ACT_CIENCIA))
    found: list[Item] = []
    for day, pointer, what in (
        (act, DEC_ACT_DATE, "data do ato recorrido"),
        (ciencia, DEC_ACT_CIENCIA, "data da ciência do ato recorrido"),
        (filed, DEC_FILED, "data do protocolo do pedido"),
    ):
        found.extend(fact_after_issue(request, day, pointer, what, hypothesis))
    if act is not None and filed is not None and filed < act:
        found.append(
            invalid(
                "recurso.data_protocolo",
                DEC_FILED,
                f"O protocolo do pedido ({format_date(filed)}) é anterior ao ato recorrido "
                f"({format_date(act)}): não se recorre de ato ainda não praticado. Corrija as "
                "datas.",
                hypothesis,
            )
        )
    if act is not None and ciencia is not None and ciencia < act:
        found.append(
            invalid(
                "ato_recorrido.data_ciencia",
                DEC_ACT_CIENCIA,
                f"A ciência do ato recorrido ({format_date(ciencia)}) é anterior ao próprio ato "
                f"({format_date(act)}).",
                hypothesis,
            )
        )
    return found


def _reasons_items(data: Mapping[str, Any], hypothesis: str, result: str | None) -> list[Item]:
    """A decision that keeps a penalty answers the party's defence: its reasons are stated.

    The appeal (or the request for reconsideração) is the party's defence; a decision
    that keeps the penalty in whole or in part is adverse, and it may be complete only
    when the defence it rejects is on record — filed (its date, required above for
    timeliness) and summarised (``/recurso/razoes``), for the reasoning to answer it (CF,
    art. 5º, LV; Lei nº 9.784/1999, arts. 2º, parágrafo único, VII, 3º, III, and 50). A
    reconsideração de ofício has no petitioner and no reasons to summarise.
    """
    if result not in KEEPS_PENALTY:
        return []
    if hypothesis == RECONSIDERATION and pointers.get(data, "/reconsideracao/de_oficio") is True:
        return []
    if clean_text(pointers.get(data, DEC_REASONS)) is not None:
        return []
    return [
        missing(
            "recurso.razoes",
            DEC_REASONS,
            "Informe a síntese das razões do pedido: a decisão que mantém a penalidade, no todo "
            "ou em parte, deve examinar as alegações do interessado (Constituição Federal, art. "
            "5º, LV; Lei nº 9.784/1999, arts. 3º, III, e 50).",
            hypothesis,
        )
    ]


COMPUTATIONS: dict[str, Computation] = {"decisao_recurso": decisao_recurso}
