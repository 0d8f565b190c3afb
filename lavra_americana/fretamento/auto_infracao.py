"""The auto de infração of Lei nº 4.419/2006 (fretamento): arts. 14 to 21 and 23.

Values the law computes for a form, asked for by the form's metadata.

A form lists the computations it needs under ``"calculos"`` in its
``formulario.json``; the engine runs each one after the schema and the checks, merges
its :attr:`Computed.values` into the template variable ``calculado`` and its
:attr:`Computed.items` into the completeness report::

    result = COMPUTATIONS["auto_infracao_fretamento"](ComputeInput(
        form_id="auto-infracao-fretamento", data=data, on=date(2026, 3, 2),
        pack_dir=pack, history=registry_history, draft=True,
    ))
    result.values["total"], result.items

A computation is a pure function of its :class:`ComputeInput`. It never raises for
what the data or the pack lack: a value it cannot compute is reported as a *missing*
item naming it (so a draft lists it as pending and the document cannot be issued),
and ``values`` mark it as pending. The laws, parameters, business calendar and
deadline table are loaded once per content-pack folder (:func:`clear_caches` forgets
them, e.g. after the pack was edited in a long-running process).

``auto_infracao_fretamento`` — Lei nº 4.419/2006 (fretamento):

- the fine of each infraction (arts. 15 to 17) in force on the date of the infraction
  (``/ocorrencia/data``), corrected yearly (art. 14, parágrafo único): the corrected
  values are read from ``legal_text/parametros.json``; with
  ``ComputeInput.example_values`` (set by ``lavra demo`` only, never for real
  issuance) the pack's FICTITIOUS example table fills the years it lacks, and
  ``values["valores_exemplo"]`` says so, for the document to print
  :data:`EXAMPLE_NOTICE`;
- the fine doubled (art. 18) when the history holds an auto for the same infraction (same
  article and inciso) and the same vehicle (placa) within the 6 months before the
  infraction; the earlier auto's number is cited. The rules of
  :mod:`lavra_americana.fretamento.penalties` decide (period counted date to date,
  same-day autos are not repeats, doubled once however many). ``history=None`` (a draft
  made without a registry) is taken as an empty history: no earlier autos, no doubling,
  and no item says so; whoever issues a real auto must pass the registry's history. Errors
  of the history itself (the registry) propagate: they are not defects of the data;
- one fine for each infraction of different nature, and their total in figures and
  words (art. 20); an infraction listed twice in one auto is an *invalid* item;
- the temporary impediment of art. 21, cumulative with the fine, with its
  explanation (alíneas a and b from the facts stated under ``/impedimento``, c from
  the infractions);
- the last day to appeal to the Secretário (art. 23: 15 days from the date of the
  infraction), moved off weekends and holidays on the pack's municipal calendar, and
  the appeal notice printed in the auto;
- the date of issue (``ComputeInput.issued_on``, today in America/Sao_Paulo unless
  given) against the facts: an infraction dated after the issue is an *invalid* item
  (an auto records what the agent found, not what is yet to happen); an auto issued
  after the last day to appeal is an *invalid* item too: the company would be notified
  with its appeal time already spent, which takes away the defence that art. 23
  grants and the Constitution guarantees (CF, art. 5º, LV). Such an auto cannot be
  issued; the values are still computed, for the draft to show them. An issue on the
  last day itself is allowed (the appeal can still be filed that day);
- a ciência dated before the infraction, or after the issue, and an infraction at a time
  of the day of issue later than the moment of issue (``ComputeInput.issued_at``), are
  *invalid* items: a signed act records only what has happened;
- the "Fundamento legal" list of the auto (``values["fundamento"]``, printed instead
  of the form's fixed list): the provisions of each line (the precept infringed, the
  article that fines it, art. 14 and its parágrafo único), art. 18 only for a doubled
  fine, art. 20 only with several infractions, art. 21 (the alíneas that apply and
  its § 1º) only when the impediment applies, the appeal rule, and the form's fixed
  procedural list (``"fundamento"`` in its ``formulario.json``), in the order of the
  law.

``ComputeInput.on`` (the reference date the engine decided) is not used by this
computation: the law applies on the date of the infraction written in the data, which
the form's ``data_referencia`` also makes the reference date. Without a valid date
of infraction, nothing is computed and the values are pending (the schema reports the
date).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from dateutil.relativedelta import relativedelta

from lavra.checking.computations import (
    EXAMPLE_NOTICE,
    Computation,
    Computed,
    ComputeInput,
    PriorRecord,
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
from lavra_americana.comum.amounts import FRETAMENTO, AmountSources
from lavra_americana.comum.citing import lower_first
from lavra_americana.comum.computing import on_the_spot_items
from lavra_americana.comum.infractions import PriorInfraction
from lavra_americana.comum.sources import pack_root, rule_sources
from lavra_americana.fretamento.fines import fretamento_fine_article
from lavra_americana.fretamento.penalties import AutoAssessment, FretamentoPenalty, fretamento_auto

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "auto_infracao_fretamento",
]

APPEAL = f"{FRETAMENTO}#art23"
REPEAT = f"{FRETAMENTO}#art18"
SEVERAL = f"{FRETAMENTO}#art20"
FINES = f"{FRETAMENTO}#art14"
INSPECTION = f"{FRETAMENTO}#art28"
REPEAT_PERIOD = "fretamento.prazo_reincidencia"


# Where the auto's data lives (schemas/auto-infracao-fretamento.json).
DATE_POINTER = "/ocorrencia/data"

IMPLEMENTED: tuple[str, ...] = (
    "fretamento#art14_ali1",
    *(f"fretamento#art15_inc{n}" for n in range(1, 9)),
    *(f"fretamento#art16_inc{n}" for n in range(1, 7)),
    *(f"fretamento#art17_inc{n}" for n in range(1, 11)),
    "fretamento#art23",
)
"""Citations this computation applies (coverage): each infraction of arts. 15 to 17 with
its fine, and the appeal notice of art. 23, in the auto de infração."""


PLATE_POINTER = "/veiculo/placa"
INFRACTIONS_POINTER = "/infracoes"
NO_INSPECTION_POINTER = "/impedimento/comprovante_inspecao_nao_apresentado"
UNPAID_POINTER = "/impedimento/multa_nao_recolhida_apos_recurso"
CIENCIA_DATE_POINTER = "/ciencia/data"


def _flag(data: Mapping[str, Any], pointer: str) -> bool:
    return pointers.get(data, pointer) is True


def _infractions(data: Mapping[str, Any]) -> list[tuple[int, str, str | None]]:
    """``(index, citation, description)`` of each infraction that names a citation."""
    listed = pointers.get(data, INFRACTIONS_POINTER)
    found: list[tuple[int, str, str | None]] = []
    if not isinstance(listed, list):
        return found
    for index, entry in enumerate(listed):
        if isinstance(entry, Mapping) and isinstance(entry.get("dispositivo"), str):
            found.append((index, entry["dispositivo"], clean_text(entry.get("descricao"))))
    return found


def _prior_infractions(records: Sequence[PriorRecord], plate: str) -> list[PriorInfraction]:
    """Each infraction of each earlier auto, dated by the auto's reference date."""
    priors: list[PriorInfraction] = []
    for record in records:
        data = record.data if isinstance(record.data, Mapping) else {}
        subject = clean_text(pointers.get(data, PLATE_POINTER)) or plate
        for _, citation, _ in _infractions(data):
            if "#" in citation:
                priors.append(
                    PriorInfraction(record.reference_date, citation, subject, record.printed)
                )
    return priors


def _repeat_since(on: date, sources: AmountSources) -> date | None:
    """The earliest date an earlier auto may have to count under art. 18.

    One month more than the period is asked for, and
    :mod:`lavra_americana.fretamento.penalties` decides exactly (date-to-date counting
    with month ends). None when the period has no value on ``on`` (before the law): the
    assessment then reports the date.
    """
    try:
        months = int(sources.parameters.value(REPEAT_PERIOD, on).value)
    except LavraError:
        return None
    return on - relativedelta(months=months + 1)


def _document_basis(
    assessment: AutoAssessment,
    appeal: Mapping[str, Any],
    fixed: Sequence[str],
    laws: Mapping[str, Law],
) -> list[str]:
    """The auto's "Fundamento legal": what was applied, plus the form's fixed list."""
    applied: list[str] = []
    for line in assessment.lines:
        applied.extend(b for b in line.basis if b != REPEAT or line.doubled)
    if len(assessment.lines) > 1:
        applied.append(SEVERAL)
    if assessment.impediment.applies:
        applied.extend(assessment.impediment.basis)
    applied.extend(appeal.get("fundamento") or (APPEAL,))
    return in_legal_order([*applied, *(c for c in fixed if c != REPEAT)], laws)


def _line_values(
    index: int, line: FretamentoPenalty, description: str | None, sources: AmountSources
) -> dict[str, Any]:
    cited = resolve(sources.laws, line.citation)
    amount = line.amount
    prior = line.repeat.prior if line.repeat.repeat else None
    return {
        "indice": index,
        "dispositivo": line.citation,
        "referencia": cited.short,
        "dispositivo_curto": cited.short.removesuffix(f", da {cited.law.short_title}"),
        "texto_legal": cited.text,
        "artigo": fretamento_fine_article(line.citation, sources.laws),
        "descricao": description,
        "valor": amount.value,
        "valor_base": amount.base,
        "valor_texto": amount.figures,
        "valor_extenso": amount.in_words,
        "em_dobro": line.doubled,
        "auto_anterior": prior.document if prior else None,
        "data_auto_anterior": prior.date if prior else None,
        "reincidencia": line.repeat.explanation,
        "explicacao": line.explanation,
        "pendente": amount.pending,
        "exemplo": amount.example,
        "fonte": amount.source,
        "fundamento": list(line.basis),
    }


def _requirement(data: Mapping[str, Any], index: int) -> str | None:
    """Art. 15, I punishes not meeting "qualquer das exigências estabelecidas pelo art. 11":
    the auto names which one (``exigencia_art11``, required by the schema for that
    infraction), so that the company knows what to defend against. The citation, or None
    (another infraction, or none given)."""
    entry = f"{INFRACTIONS_POINTER}/{index}"
    chosen = pointers.get(data, f"{entry}/exigencia_art11")
    if pointers.get(data, f"{entry}/dispositivo") != f"{FRETAMENTO}#art15_inc1":
        return None
    if not isinstance(chosen, str) or not chosen.startswith(f"{FRETAMENTO}#art11_"):
        return None
    return chosen


def _requirement_text(citation: str | None, sources: AmountSources) -> str | None:
    """The precept as the auto prints it: its short reference and its text."""
    if citation is None:
        return None
    cited = resolve(sources.laws, citation)
    return f"{cited.short.removesuffix(f', da {cited.law.short_title}')}: {cited.text}"


def _line_items(index: int, line: FretamentoPenalty) -> list[Item]:
    """The report items of one line: met per line, missing once per missing value."""
    pointer = f"{INFRACTIONS_POINTER}/{index}/dispositivo"
    result: list[Item] = []
    for item in line.amount.items:
        if item.status is Status.MET:
            result.append(
                Item(f"infracoes.{index}.valor", Status.MET, pointer, line.explanation, line.basis)
            )
        else:
            result.append(Item(item.requirement, item.status, pointer, item.message, item.basis))
    return result


def _appeal(on: date, context: StatutoryContext) -> tuple[dict[str, Any], list[Item]]:
    try:
        deadline = deadline_for(APPEAL, on, context=context)
    except LavraError as error:
        message = f"Não foi possível calcular o prazo de recurso (art. 23): {error.message}"
        return {"pendente": message}, [
            Item("recurso.prazo", Status.MISSING, DATE_POINTER, message, (APPEAL,))
        ]
    rule = context.rules[deadline.citation]
    period = deadline.period
    length, counted = (
        period_words(period.amount, period.unit) if period is not None else ("", "contado")
    )
    notice = (
        f"Da presente autuação cabe {lower_first(rule.act)}, no prazo de {length} "
        f"{counted} {rule.event}, até {format_date(deadline.last_day)} "
        f"({deadline.reference})."
    )
    values = {
        "prazo": period.amount if period is not None else None,
        "unidade": period.unit if period is not None else None,
        "ultimo_dia": deadline.last_day,
        "termo_sem_prorrogacao": deadline.plain_last_day,
        "prorrogado": deadline.moved,
        "explicacao": deadline.explanation,
        "contagem": deadline.counting,
        "aviso": notice,
        "fundamento": list(deadline.basis),
        "pendente": None,
    }
    return values, []


def _impediment_values(assessment: AutoAssessment, sources: AmountSources) -> dict[str, Any]:
    impediment = assessment.impediment
    return {
        "aplica": impediment.applies,
        "explicacao": impediment.explanation,
        "hipoteses": [resolve(sources.laws, g).short for g in impediment.grounds],
        "fundamento": list(impediment.basis),
    }


def _pending_values(reason: str) -> dict[str, Any]:
    return {
        "infracoes": [],
        "total": None,
        "total_texto": None,
        "total_extenso": None,
        "valores_pendentes": True,
        "valores_exemplo": False,
        "aviso_exemplo": None,
        "reincidencia": False,
        "impedimento": None,
        "recurso": None,
        "explicacao": reason,
        "fundamento_calculo": [],
        "fundamento": [],
        "historico_consultado": False,
    }


def auto_infracao_fretamento(request: ComputeInput) -> Computed:
    """Fines (arts. 15–18, 20), impediment (art. 21) and appeal deadline (art. 23).

    See the module docstring for the decisions. ``values`` keys: ``infracoes`` (one
    entry per distinct infraction: ``dispositivo``, ``referencia``, ``descricao``,
    ``valor``, ``valor_texto``, ``valor_extenso``, ``em_dobro``, ``auto_anterior``,
    ``explicacao``, ``pendente``...), ``total``, ``total_texto``, ``total_extenso``,
    ``valores_pendentes``, ``valores_exemplo``, ``aviso_exemplo``, ``reincidencia``,
    ``impedimento`` (``aplica``, ``explicacao``, ``hipoteses``), ``recurso``
    (``ultimo_dia``, ``prorrogado``, ``aviso``, ``explicacao``), ``explicacao``,
    ``fundamento_calculo``, ``historico_consultado``.
    """
    data = request.data if isinstance(request.data, Mapping) else {}
    on = maybe_date(pointers.get(data, DATE_POINTER))
    if on is None:
        return Computed(
            _pending_values(
                "Informe a data da infração para calcular as multas e o prazo de recurso."
            )
        )
    context, sources = rule_sources(request, request.example_values)
    items: list[Item] = []

    # The infractions: each known fine citation once (art. 20).
    lines: list[tuple[int, str, str | None]] = []
    seen: dict[str, int] = {}
    for index, citation, description in _infractions(data):
        pointer = f"{INFRACTIONS_POINTER}/{index}/dispositivo"
        try:
            fretamento_fine_article(citation, sources.laws)
        except LavraError as error:
            items.append(
                Item(
                    f"infracoes.{index}.dispositivo",
                    Status.INVALID,
                    pointer,
                    error.message,
                    (f"{FRETAMENTO}#art14",),
                )
            )
            continue
        if citation in seen:
            items.append(
                Item(
                    f"infracoes.{index}.dispositivo",
                    Status.INVALID,
                    pointer,
                    f"A infração do {resolve(sources.laws, citation).short} já consta do item "
                    f"{seen[citation] + 1} deste auto: cada infração é informada uma só vez, e "
                    "só infrações de natureza diversa têm multas próprias (art. 20).",
                    (f"{FRETAMENTO}#art20",),
                )
            )
            continue
        seen[citation] = index
        lines.append((index, citation, description))
    if not lines:
        pending = _pending_values("Informe ao menos uma infração dos arts. 15 a 17.")
        return Computed(pending, tuple(items))

    # The case history (art. 18).
    plate = clean_text(pointers.get(data, PLATE_POINTER))
    consulted = request.history is not None and plate is not None
    since = _repeat_since(on, sources)
    if request.history is not None and plate is not None and since is not None:
        # Errors of the history itself (the registry) are not data errors: they propagate.
        records = request.history.prior_autos(plate, request.form_id, since, on)
    else:
        records = ()
    try:
        priors = _prior_infractions(records, plate or "-")
        assessment = fretamento_auto(
            [citation for _, citation, _ in lines],
            on,
            plate or "-",
            priors,
            sources,
            no_inspection_certificate=_flag(data, NO_INSPECTION_POINTER),
            unpaid_after_appeal=_flag(data, UNPAID_POINTER),
            draft=True,
        )
    except LavraError as error:
        items.append(
            Item(
                "infracoes.valor",
                Status.INVALID,
                DATE_POINTER,
                error.message,
                (f"{FRETAMENTO}#art14",),
            )
        )
        return Computed(_pending_values(error.message), tuple(items))

    line_values = [
        _line_values(index, line, description, sources)
        for (index, _, description), line in zip(lines, assessment.lines, strict=True)
    ]
    requirements = [_requirement(data, line_value["indice"]) for line_value in line_values]
    for line_value, requirement in zip(line_values, requirements, strict=True):
        line_value["exigencia"] = _requirement_text(requirement, sources)
    for (index, _, _), line in zip(lines, assessment.lines, strict=True):
        items.extend(_line_items(index, line))

    appeal, appeal_items = _appeal(on, context)
    items.extend(appeal_items)
    items.extend(_issue_date_items(on, request.issued_on, appeal, sources))
    items.extend(on_the_spot_items(request, "data e hora da infração", FINES, INSPECTION))

    ciencia = maybe_date(pointers.get(data, CIENCIA_DATE_POINTER))
    if ciencia is not None and ciencia < on:
        items.append(
            Item(
                "ciencia.data",
                Status.INVALID,
                CIENCIA_DATE_POINTER,
                f"A data da ciência ({format_date(ciencia)}) é anterior à data da infração "
                f"({format_date(on)}).",
                (APPEAL,),
            )
        )

    total = assessment.total
    example = any(line.amount.example for line in assessment.lines)
    values: dict[str, Any] = {
        "data_infracao": on,
        "lei": sources.laws[FRETAMENTO].short_title,
        "infracoes": line_values,
        "total": total,
        "total_texto": format_moeda(total) if total is not None else None,
        "total_extenso": format_moeda_extenso(total) if total is not None else None,
        "valores_pendentes": total is None,
        "valores_exemplo": example,
        "aviso_exemplo": EXAMPLE_NOTICE if example else None,
        "reincidencia": any(line.doubled for line in assessment.lines),
        "impedimento": _impediment_values(assessment, sources),
        "recurso": appeal,
        "explicacao": assessment.explanation,
        "fundamento_calculo": list(assessment.basis),
        "fundamento": _document_basis(
            assessment,
            appeal,
            [*form_basis(pack_root(request.pack_dir), request.form_id),
             *(r for r in requirements if r is not None)],
            sources.laws,
        ),
        "historico_consultado": consulted,
    }
    return Computed(values, unique_items(items))


def _issue_date_items(
    on: date, issued_on: date, appeal: Mapping[str, Any], sources: AmountSources
) -> list[Item]:
    """An auto may not precede its infraction nor follow the last day to appeal."""
    if on > issued_on:
        return [
            Item(
                pointers.dotted(DATE_POINTER),
                Status.INVALID,
                DATE_POINTER,
                f"A data da infração ({format_date(on)}) é posterior à data de emissão do "
                f"auto ({format_date(issued_on)}): o auto registra infração já constatada "
                "pelo agente, não fato futuro. Corrija a data da infração.",
                (FINES, INSPECTION),
            )
        ]
    last_day = appeal.get("ultimo_dia")
    if isinstance(last_day, date) and issued_on > last_day:
        rule = resolve(sources.laws, APPEAL).short
        amount, unit = appeal.get("prazo"), appeal.get("unidade")
        period = (
            "prazo de {} {} da data da infração, {}".format(
                *period_words(amount, unit), format_date(on)
            )
            if isinstance(amount, int) and isinstance(unit, str)
            else f"contado da data da infração, {format_date(on)}"
        )
        return [
            Item(
                "recurso.prazo",
                Status.INVALID,
                DATE_POINTER,
                f"O prazo de recurso terminou em {format_date(last_day)} ({rule}: "
                f"{period}), antes da data de "
                f"emissão do auto ({format_date(issued_on)}). Emitido nessa data, o auto "
                "chegaria à empresa ou entidade com o prazo de defesa já esgotado, "
                "suprimindo o contraditório e a ampla defesa que o art. 23 concede e a "
                "Constituição Federal assegura (art. 5º, LV). O auto não pode ser emitido "
                "com esta data de infração.",
                (APPEAL,),
            )
        ]
    return []


COMPUTATIONS: dict[str, Computation] = {
    "auto_infracao_fretamento": auto_infracao_fretamento,
}
"""The computations of this module a form may name under ``"calculos"``."""
