"""Repeat offences and the temporary impediment of Lei nº 4.419/2006 (fretamento):
arts. 18, 20 and 21.

The rules take the earlier infractions as :class:`PriorInfraction` records and are pure
functions of them and the date of the infraction judged, as
:mod:`lavra_americana.comum.infractions` says, with the reading common to both laws
(periods, same-day infractions, what is ignored). Choices where this law is silent
(each one tested in ``tests/test_penalties.py``):

Fretamento (Lei nº 4.419/2006)
    - Art. 18, "reincidência na mesma infração, pelo mesmo veículo, dentro do prazo de
      6 meses": the same infraction is the same article AND inciso (citation equal);
      two incisos of one article are infractions of different nature (art. 20). The
      same vehicle is the same placa (compared without hyphen, spaces or case). Any
      earlier identical infraction within the 6 months doubles the fine; the most recent
      one is cited. The fine is doubled once, never quadrupled, however many earlier
      infractions there are.
    - Art. 20: an auto with several infractions of different nature carries one fine for
      each; the same citation listed twice in one auto is refused (it is one infraction).
    - Art. 21: the temporary impediment applies cumulatively with the fine in the cases
      of its alíneas: (a) non-presentation of the inspection certificate and (b) a fine
      unpaid after the appeal decision — facts the caller states — and (c) the
      infractions of art. 15, I (requirements of art. 11), art. 15, V, and art. 16, II
      and VI.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from lavra.checking.report import Item, Status
from lavra.errors import InputError
from lavra.law.model import Law
from lavra.render.templating import format_moeda_extenso
from lavra.textutil import format_date
from lavra_americana.comum.amounts import FRETAMENTO, Amount, AmountSources, times_text, to_cents
from lavra_americana.comum.citing import short
from lavra_americana.comum.infractions import (
    PriorInfraction,
    check_infraction_day,
    relevant_priors,
    window_end,
)
from lavra_americana.fretamento.fines import fretamento_fine, fretamento_fine_article

__all__ = [
    "IMPLEMENTED",
    "AutoAssessment",
    "FretamentoPenalty",
    "Impediment",
    "RepeatFinding",
    "fretamento_auto",
    "fretamento_penalty",
    "fretamento_repeat",
    "temporary_impediment",
]

_IMPEDIMENT_C = frozenset({"art15_inc1", "art15_inc5", "art16_inc2", "art16_inc6"})

IMPLEMENTED: tuple[str, ...] = (
    "fretamento#art18",
    "fretamento#art20",
    "fretamento#art21",
    "fretamento#art21_ali1",
    "fretamento#art21_ali2",
    "fretamento#art21_ali3",
    "fretamento#art21_par1",
)
"""Citations whose rule this module implements (for coverage reporting)."""


def _fragment(citation: str) -> str:
    return citation.partition("#")[2]


@dataclass(frozen=True)
class RepeatFinding:
    """Art. 18 of Lei nº 4.419/2006: whether the infraction repeats an earlier one."""

    repeat: bool
    prior: PriorInfraction | None
    window_end: dt.date | None
    explanation: str
    basis: tuple[str, ...]


def fretamento_repeat(
    citation: str,
    on: dt.date,
    vehicle: str,
    priors: Sequence[PriorInfraction],
    sources: AmountSources,
) -> RepeatFinding:
    """Art. 18: the same infraction by the same vehicle within 6 months doubles the fine.

    ``priors`` may hold anything; only the same citation, the same vehicle and earlier
    dates count (:mod:`lavra_americana.comum.infractions`). The most recent qualifying
    infraction is cited.
    """
    on = check_infraction_day(on)
    fretamento_fine_article(citation, sources.laws)
    months = int(sources.parameters.value("fretamento.prazo_reincidencia", on).value)
    cited = short(sources.laws, citation)
    art18 = f"{FRETAMENTO}#art18"
    rule = short(sources.laws, art18)
    same = [p for p in relevant_priors(priors, FRETAMENTO, vehicle, on) if p.citation == citation]
    within = [p for p in same if on <= window_end(p.date, months)]
    if within:
        prior = within[-1]
        end = window_end(prior.date, months)
        explanation = (
            f"Reincidência na mesma infração ({cited}), pelo mesmo veículo, dentro do prazo "
            f"de {months} meses: a infração anterior, "
            f"{prior.describe()}, e esta, ocorrida em {format_date(on)}, distam não mais de "
            f"{months} meses (prazo contado de data a data, encerrado em {format_date(end)}). "
            f"Aplica-se a multa em dobro ({rule})."
        )
        return RepeatFinding(True, prior, end, explanation, (art18, citation))
    if same:
        prior = same[-1]
        end = window_end(prior.date, months)
        explanation = (
            f"A infração anterior idêntica ({cited}) pelo mesmo veículo, "
            f"{prior.describe()}, tem prazo de {months} meses encerrado em "
            f"{format_date(end)}, antes desta infração ({format_date(on)}): não há "
            f"reincidência ({rule})."
        )
        return RepeatFinding(False, prior, end, explanation, (art18,))
    explanation = (
        f"Não consta infração anterior idêntica ({cited}) pelo mesmo veículo nos {months} "
        f"meses que antecedem {format_date(on)}: não há reincidência ({rule})."
    )
    return RepeatFinding(False, None, None, explanation, (art18,))


@dataclass(frozen=True)
class Impediment:
    """Art. 21 of Lei nº 4.419/2006: temporary impediment cumulative with the fine."""

    applies: bool
    grounds: tuple[str, ...]
    explanation: str
    basis: tuple[str, ...]


def temporary_impediment(
    citations: Sequence[str],
    laws: Mapping[str, Law],
    *,
    no_inspection_certificate: bool = False,
    unpaid_after_appeal: bool = False,
) -> Impediment:
    """Whether art. 21 applies: alíneas a and b are stated facts, c follows the citations.

    ``citations`` are the fine citations of the auto (arts. 15–17 and incisos); the
    temporary impediment applies when any alínea does.
    """
    for citation in citations:
        fretamento_fine_article(citation, laws)
    grounds: list[str] = []
    reasons: list[str] = []
    if no_inspection_certificate:
        grounds.append(f"{FRETAMENTO}#art21_ali1")
        reasons.append("não apresentação do comprovante de inspeção veicular")
    if unpaid_after_appeal:
        grounds.append(f"{FRETAMENTO}#art21_ali2")
        reasons.append("multa não recolhida após a decisão do recurso")
    matched = [c for c in citations if _fragment(c) in _IMPEDIMENT_C]
    if matched:
        grounds.append(f"{FRETAMENTO}#art21_ali3")
        listed = ", ".join(short(laws, c) for c in matched)
        reasons.append(f"infração ao {listed}")
    if not grounds:
        explanation = (
            "Não se aplica o impedimento temporário da circulação do veículo: o caso não "
            f"está entre as hipóteses do {short(laws, f'{FRETAMENTO}#art21')}."
        )
        return Impediment(False, (), explanation, (f"{FRETAMENTO}#art21",))
    letters = [chr(ord("a") + int(g.rsplit("_ali", 1)[1]) - 1) for g in grounds]
    joined = letters[0] if len(letters) == 1 else (f"{', '.join(letters[:-1])} e {letters[-1]}")
    alineas = f"art. 21, {joined}, da {laws[FRETAMENTO].short_title}"
    release = short(laws, f"{FRETAMENTO}#art21_par1")
    explanation = (
        "Aplica-se, cumulativamente à multa, o impedimento temporário da circulação do "
        f"veículo ({alineas}): {'; '.join(reasons)}. Se a irregularidade puder ser sanada "
        f"no local, o veículo será liberado após a regularização ({release})."
    )
    return Impediment(True, tuple(grounds), explanation, (*grounds, f"{FRETAMENTO}#art21_par1"))


@dataclass(frozen=True)
class FretamentoPenalty:
    """The fine of one infraction, doubled when art. 18 applies."""

    citation: str
    amount: Amount
    repeat: RepeatFinding
    explanation: str
    basis: tuple[str, ...]

    @property
    def doubled(self) -> bool:
        return self.repeat.repeat


def fretamento_penalty(
    citation: str,
    on: dt.date,
    vehicle: str,
    priors: Sequence[PriorInfraction],
    sources: AmountSources,
    *,
    draft: bool = False,
) -> FretamentoPenalty:
    """The fine of ``citation`` for an infraction on ``on``, with art. 18 applied.

    Without the corrected value of the year: :class:`ParameterError`, or with ``draft``
    a pending amount (value None) whose report item is *missing*.
    """
    base = fretamento_fine(citation, on, sources, draft=draft)
    repeat = fretamento_repeat(citation, on, vehicle, priors, sources)
    amount = base
    if repeat.repeat:
        factor = int(sources.parameters.value("fretamento.fator_reincidencia", on).value)
        doubled = None if base.value is None else to_cents(base.value * factor)
        text = f"{base.explanation} {repeat.explanation}" + (
            f" Valor da multa {times_text(factor)}: {format_moeda_extenso(doubled)}."
            if doubled is not None
            else ""
        )
        items = tuple(
            Item(
                i.requirement,
                i.status,
                i.field,
                text if i.status is Status.MET else i.message,
                i.basis + repeat.basis[:1],
            )
            for i in base.items
        )
        amount = Amount(
            citation=citation,
            on=on,
            value=doubled,
            base=base.value,
            doubled=True,
            explanation=text,
            basis=(*base.basis, *repeat.basis[:1]),
            items=items,
            source=base.source,
            example=base.example,
            pending=base.pending,
        )
    explanation = (
        amount.explanation if repeat.repeat else (f"{base.explanation} {repeat.explanation}")
    )
    return FretamentoPenalty(
        citation, amount, repeat, explanation, tuple(dict.fromkeys((*amount.basis, *repeat.basis)))
    )


@dataclass(frozen=True)
class AutoAssessment:
    """Art. 20 of Lei nº 4.419/2006: one fine per infraction of an auto, and the total.

    ``total`` is None when some value is pending (draft); ``items`` are the report
    items of every line.
    """

    on: dt.date
    vehicle: str
    lines: tuple[FretamentoPenalty, ...]
    total: Decimal | None
    impediment: Impediment
    explanation: str
    basis: tuple[str, ...]
    items: tuple[Item, ...] = field(default=())

    @property
    def complete(self) -> bool:
        return self.total is not None


def fretamento_auto(
    citations: Sequence[str],
    on: dt.date,
    vehicle: str,
    priors: Sequence[PriorInfraction],
    sources: AmountSources,
    *,
    no_inspection_certificate: bool = False,
    unpaid_after_appeal: bool = False,
    draft: bool = False,
) -> AutoAssessment:
    """The fines of an auto with one or more infractions of different nature (art. 20).

    Each citation gets its own line (art. 18 applied to each); the total is their sum;
    the temporary impediment (art. 21) is decided for the whole auto.
    """
    if isinstance(citations, str) or not citations:
        raise InputError("Informe ao menos uma infração do auto.", field="/infracoes")
    seen: set[str] = set()
    for citation in citations:
        if citation in seen:
            raise InputError(
                f"A infração {citation!r} foi informada mais de uma vez no mesmo auto: "
                "informe cada infração uma só vez.",
                field="/infracoes",
            )
        seen.add(citation)
    lines = tuple(
        fretamento_penalty(c, on, vehicle, priors, sources, draft=draft) for c in citations
    )
    impediment = temporary_impediment(
        citations,
        sources.laws,
        no_inspection_certificate=no_inspection_certificate,
        unpaid_after_appeal=unpaid_after_appeal,
    )
    values = [line.amount.value for line in lines]
    total = (
        None
        if any(v is None for v in values)
        else to_cents(sum((v for v in values if v is not None), Decimal(0)))
    )
    rule = short(sources.laws, f"{FRETAMENTO}#art20")
    if len(lines) == 1:
        body = lines[0].explanation
    else:
        parts = " ".join(
            f"{index}) {line.explanation}" for index, line in enumerate(lines, start=1)
        )
        total_text = (
            f"Total: {format_moeda_extenso(total)}."
            if total is not None
            else "Total pendente: há valor de multa não cadastrado."
        )
        body = (
            f"Cometidas {len(lines)} infrações de natureza diversa, aplica-se a multa "
            f"correspondente a cada uma delas ({rule}). {parts} {total_text}"
        )
    explanation = body + (f" {impediment.explanation}" if impediment.applies else "")
    basis = tuple(
        dict.fromkeys(
            [
                *(b for line in lines for b in line.basis),
                *([f"{FRETAMENTO}#art20"] if len(lines) > 1 else []),
                *(impediment.basis if impediment.applies else ()),
            ]
        )
    )
    items = tuple(i for line in lines for i in line.amount.items)
    return AutoAssessment(on, vehicle, lines, total, impediment, explanation, basis, items)
