"""Repeat offences and escalation of sanctions in both laws.

Rules take the earlier infractions as input: a sequence of :class:`PriorInfraction`
(date, citation of the provision infringed, subject, optional document number). The
registry will supply them; it must give only infractions that stand (autos not
cancelled nor annulled on appeal). Every rule is a pure function of its inputs and the
date of the infraction under judgement, and returns a frozen result with a pt-BR
explanation citing the fragments it applies.

Choices where the laws are silent (each one tested in ``tests/test_penalties.py``):

Common to both laws
    - Periods ("dentro do prazo de 6 meses", "período superior a 1 ano") count from
      date to date, and when the final month lacks the day, the last day of that month
      (Código Civil, art. 132, § 3º; Lei nº 9.784/1999, art. 66, § 3º): 31/08 + 6 months
      → 28/02 (29/02 in leap years); 29/02 + 1 year → 28/02. The period includes its
      final day ("expiram no dia de igual número do de início"), so an infraction
      exactly 6 months (fretamento) or exactly 1 year (escolar) after the earlier one
      is still within it. They are not moved to a business day: they are not deadlines
      for anybody to act but look-back periods, and infractions happen on any day.
    - An earlier infraction on the *same date* as the one judged is not a repeat: the
      records carry no time, so it cannot be said which came first, and in doubt the
      sanctioning rule is read in the offender's favour.
    - Earlier infractions of another law, of another subject (vehicle or holder), or
      dated after the one judged are ignored.

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

Transporte escolar (Lei nº 4.515/2007, art. 23)
    - Repeat ("reincidência") is of the same provision (same citation) by the same
      holder. The law does not qualify the word; the only definition in the municipal
      legislation on transport (fretamento, art. 18) is of the *same* infraction, and a
      sanctioning rule is read restrictively.
    - The 1-year window is opened by the *first* infraction (parágrafo único: "entre a
      data da primeira infração e a data da infração posterior"): later infractions of
      the same provision up to 1 year after it are repeats; the first one more than a
      year after it is not a repeat and opens a new window. So a chain of infractions
      each less than a year apart does not stay "repeat" forever.
    - Duties of art. 21: first infraction → written advertência (I); a repeat → a fine
      (I); a further repeat in the same window, once a fine was imposed in it → the
      fine doubled (II). The repeat that turns the advertência into a fine does not
      also double it: the same fact cannot aggravate twice.
    - Other infractions: those of art. 24 (which subjects them to a fine) and those of
      any other precept of the law with no sanction of its own (art. 23, caput: "as
      infrações aos preceitos desta lei"), both fined under art. 23, II; a repeat → the
      fine doubled (II). The second kind is worded "infração a preceito da lei (...):
      aplica-se a multa do art. 23, II": art. 23, II, sets the sanction, nobody
      infringes it, so it is never accepted as the infraction — the caller cites the
      precept actually infringed.
    - Revocation (III) "após a terceira multa": when the infraction judged carries a
      fine and the holder had already been fined twice for infractions within 1 year
      before it (any provision), this is the third fine: it is imposed and the
      revocation follows. A doubled fine is one fine (one sanction of art. 23, II, in
      double value), not two. The 1-year measure of the parágrafo único is applied to
      the count by analogy: the harshest sanction should answer to recent conduct
      (proportionality, Lei nº 9.784/1999, art. 2º, parágrafo único, VI). The ordinal
      printed is the number of fines counted plus this one.
    - Revocation also in the cases of art. 9º, § 2º (I and II), with no fine.
    - A revocation ends the chain: the alvará it revoked carries no further sanction.
      Infractions dated after a revocation are not fined nor counted under that
      alvará; the one judged gets :attr:`SanctionKind.ALVARA_REVOGADO` (no amount), with
      an explanation naming the revocation. A holder who obtained a new alvará since is
      judged on the infractions committed under it: the caller passes only those.
    - Citations accepted as the infraction: art. 21 and its incisos (duties), art. 9º,
      § 2º, and its incisos (revocation), and any other provision of arts. 1–22 and 24
      (a fine). Refused: the fees (art. 16), the sanctions and procedure (arts. 23,
      25–27, art. 23, II, included), the final provisions (arts. 28–30) and revoked
      provisions or those without text.
    - The sanctions of earlier infractions are not an input: they are derived in
      chronological order by these same rules, so the chain is always consistent.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from babel.lists import format_list
from dateutil.relativedelta import relativedelta

from lavra.checking.report import Item, Status
from lavra.errors import InputError
from lavra.inputs.formats import unmask
from lavra.law.model import FRAGMENT_ID, Law, resolve
from lavra.render.templating import format_moeda_extenso
from lavra.textutil import format_date
from lavra_americana.amounts import (
    FRETAMENTO,
    TRANSPORTE_ESCOLAR,
    Amount,
    AmountSources,
    escolar_fine,
    fretamento_fine,
    fretamento_fine_article,
    times_text,
    to_cents,
)

__all__ = [
    "AutoAssessment",
    "FretamentoPenalty",
    "Impediment",
    "PriorInfraction",
    "RepeatFinding",
    "Sanction",
    "SanctionKind",
    "escolar_sanction",
    "fretamento_auto",
    "fretamento_penalty",
    "fretamento_repeat",
    "same_subject",
    "temporary_impediment",
]

_IMPEDIMENT_C = frozenset({"art15_inc1", "art15_inc5", "art16_inc2", "art16_inc6"})
_ESCOLAR_REVOCATION = frozenset({"art9_par2", "art9_par2_inc1", "art9_par2_inc2"})
_ESCOLAR_NOT_INFRACTION = re.compile(r"^art(?:16|23|25|26|27|28|29|30)[a-z]?(?:_|$)")
_ESCOLAR_SANCTIONS = re.compile(r"^art23[a-z]?(?:_|$)")
_ESCOLAR_FINE_ARTICLE = re.compile(r"^art24(?:_|$)")
_ORDINALS = {
    1: "primeira",
    2: "segunda",
    3: "terceira",
    4: "quarta",
    5: "quinta",
    6: "sexta",
    7: "sétima",
    8: "oitava",
    9: "nona",
    10: "décima",
}


IMPLEMENTED: tuple[str, ...] = (
    "fretamento#art18",
    "fretamento#art20",
    "fretamento#art21",
    "fretamento#art21_ali1",
    "fretamento#art21_ali2",
    "fretamento#art21_ali3",
    "fretamento#art21_par1",
    "transporte-escolar#art9_par2",
    "transporte-escolar#art9_par2_inc1",
    "transporte-escolar#art9_par2_inc2",
    "transporte-escolar#art21",
    *(f"transporte-escolar#art21_inc{n}" for n in range(1, 10)),
    "transporte-escolar#art23",
    "transporte-escolar#art23_inc1",
    "transporte-escolar#art23_inc2",
    "transporte-escolar#art23_inc3",
    "transporte-escolar#art23_par1u",
    "transporte-escolar#art24",
    *(f"transporte-escolar#art24_inc{n}" for n in range(1, 5)),
)
"""Citations whose rule this module implements (for coverage reporting)."""


def _cite(laws: Mapping[str, Law], citation: str) -> str:
    return resolve(laws, citation).short


def _fragment(citation: str) -> str:
    return citation.partition("#")[2]


# ---------------------------------------------------------------- records


def same_subject(a: str, b: str) -> bool:
    """Same vehicle or holder: compared without spaces, dots, hyphens, slashes, case."""
    return unmask(a) == unmask(b)


@dataclass(frozen=True)
class PriorInfraction:
    """An earlier infraction that stands: its date, the provision, who committed it.

    ``subject`` is the vehicle's placa (fretamento) or the holder's identification
    (transporte escolar: CPF or alvará number, as the registry keeps it). ``document``
    is the number of the auto, cited in explanations when known.
    """

    date: dt.date
    citation: str
    subject: str
    document: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.date, dt.datetime) or not isinstance(self.date, dt.date):
            raise InputError(
                "Data de infração anterior inválida: informe dia, mês e ano.",
                field="/anteriores/data",
            )
        if not isinstance(self.citation, str) or "#" not in self.citation:
            raise InputError(
                f"Citação de infração anterior inválida: {self.citation!r} (use lei#dispositivo).",
                field="/anteriores/citacao",
            )
        if not isinstance(self.subject, str) or not self.subject.strip():
            raise InputError(
                "Informe o veículo ou o titular da infração anterior.", field="/anteriores/sujeito"
            )

    def describe(self) -> str:
        """``"ocorrida em 10/01/2026 (auto nº 12/2026)"``."""
        text = f"ocorrida em {format_date(self.date)}"
        return text + (f" (auto nº {self.document})" if self.document else "")


def _check_day(on: object) -> dt.date:
    if isinstance(on, dt.datetime) or not isinstance(on, dt.date):
        raise InputError("Informe a data da infração (dia, mês e ano), sem horário.", field="/data")
    return on


def _window_end(start: dt.date, months: int) -> dt.date:
    """Date-to-date end of a period of ``months`` (last day of month when lacking)."""
    return start + relativedelta(months=months)


def _relevant(
    priors: Iterable[PriorInfraction], law_id: str, subject: str, on: dt.date
) -> list[PriorInfraction]:
    """Earlier (strictly) infractions of ``law_id`` by ``subject``, oldest first."""
    found = [
        p
        for p in priors
        if p.citation.partition("#")[0] == law_id
        and same_subject(p.subject, subject)
        and p.date < on
    ]
    return sorted(found, key=lambda p: (p.date, p.citation, p.document or ""))


# ---------------------------------------------------------------- fretamento


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
    dates count (module docstring). The most recent qualifying infraction is cited.
    """
    on = _check_day(on)
    fretamento_fine_article(citation, sources.laws)
    months = int(sources.parameters.value("fretamento.prazo_reincidencia", on).value)
    cited = _cite(sources.laws, citation)
    art18 = f"{FRETAMENTO}#art18"
    rule = _cite(sources.laws, art18)
    same = [p for p in _relevant(priors, FRETAMENTO, vehicle, on) if p.citation == citation]
    within = [p for p in same if on <= _window_end(p.date, months)]
    if within:
        prior = within[-1]
        end = _window_end(prior.date, months)
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
        end = _window_end(prior.date, months)
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
        listed = ", ".join(_cite(laws, c) for c in matched)
        reasons.append(f"infração ao {listed}")
    if not grounds:
        explanation = (
            "Não se aplica o impedimento temporário da circulação do veículo: o caso não "
            f"está entre as hipóteses do {_cite(laws, f'{FRETAMENTO}#art21')}."
        )
        return Impediment(False, (), explanation, (f"{FRETAMENTO}#art21",))
    letters = [chr(ord("a") + int(g.rsplit("_ali", 1)[1]) - 1) for g in grounds]
    joined = letters[0] if len(letters) == 1 else (f"{', '.join(letters[:-1])} e {letters[-1]}")
    alineas = f"art. 21, {joined}, da {laws[FRETAMENTO].short_title}"
    release = _cite(laws, f"{FRETAMENTO}#art21_par1")
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
    rule = _cite(sources.laws, f"{FRETAMENTO}#art20")
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


# ---------------------------------------------------------------- transporte escolar


class SanctionKind(StrEnum):
    ADVERTENCIA = "advertencia"
    MULTA = "multa"
    MULTA_EM_DOBRO = "multa_em_dobro"
    REVOGACAO = "revogacao"
    ALVARA_REVOGADO = "alvara_revogado"
    """The infraction came after the alvará was revoked: no sanction under it."""


_FINED = (SanctionKind.MULTA, SanctionKind.MULTA_EM_DOBRO)


@dataclass(frozen=True)
class Sanction:
    """The sanction of art. 23 of the school-transport law for one infraction.

    ``amount`` is the fine (None for an advertência, a revocation of art. 9º, § 2º,
    and an infraction after the revocation); a revocation after the third fine carries
    that fine. ``repeat_of`` is the first infraction of the window the infraction
    repeats; ``earlier_fines`` the fined infractions counted for art. 23, III;
    ``revoked_by`` the earlier infraction whose sanction revoked the alvará, when the
    one judged came after it.
    """

    kind: SanctionKind
    citation: str
    on: dt.date
    amount: Amount | None
    doubled: bool
    repeat_of: PriorInfraction | None
    earlier_fines: tuple[PriorInfraction, ...]
    explanation: str
    basis: tuple[str, ...]
    items: tuple[Item, ...]
    revoked_by: PriorInfraction | None = None


def _escolar_category(citation: str, laws: Mapping[str, Law]) -> str:
    """What the infringed precept brings; InputError when it describes no infraction.

    "dever" (art. 21: advertência, then fine), "revogacao" (art. 9º, § 2º), "multa"
    (art. 24: subject to a fine) or "preceito" (any other precept of the law, fined
    under art. 23, II).
    """
    found = resolve(laws, citation)
    if found.fragment is not None and (found.fragment.revoked or found.fragment.text is None):
        raise InputError(
            f"O {found.short} foi revogado ou não tem texto na fonte: não descreve infração.",
            field="/citacao",
        )
    law_id, _, fragment = citation.partition("#")
    if law_id != TRANSPORTE_ESCOLAR or not fragment or FRAGMENT_ID.match(fragment) is None:
        raise InputError(
            f"A citação {citation!r} não é infração da {laws[TRANSPORTE_ESCOLAR].short_title}"
            " (use transporte-escolar#dispositivo).",
            field="/citacao",
        )
    if fragment == "art21" or fragment.startswith("art21_"):
        return "dever"
    if fragment in _ESCOLAR_REVOCATION:
        return "revogacao"
    if _ESCOLAR_FINE_ARTICLE.match(fragment):
        return "multa"
    if not _ESCOLAR_NOT_INFRACTION.match(fragment):
        return "preceito"
    what = (
        "fixa sanção, e não conduta que se possa infringir"
        if _ESCOLAR_SANCTIONS.match(fragment)
        else "não descreve infração"
    )
    raise InputError(
        f"O {_cite(laws, citation)} {what}: cite o preceito da lei efetivamente "
        "infringido (ex.: transporte-escolar#art21_inc3, transporte-escolar#art24_inc2, "
        "transporte-escolar#art9_par3); a multa do art. 23, II, é aplicada a partir dele.",
        field="/citacao",
    )


@dataclass(frozen=True)
class _Step:
    """One infraction in the chain, with the sanction derived for it."""

    record: PriorInfraction
    category: str
    kind: SanctionKind
    fined: bool
    doubled: bool
    repeat_of: PriorInfraction | None
    outside: PriorInfraction | None
    earlier_fines: tuple[PriorInfraction, ...]
    revoked_by: PriorInfraction | None = None


def _chain(
    events: Sequence[PriorInfraction],
    laws: Mapping[str, Law],
    months: int,
    revoking_fine: int,
) -> list[_Step]:
    """Derive the sanction of every infraction, oldest first (see the module docstring).

    ``months`` is the repeat window (12: "período superior a 1 ano"); the
    ``revoking_fine``-th fine (3: "após a terceira multa") brings the revocation, which
    ends the chain: later infractions are neither sanctioned nor counted.
    """
    opened: dict[str, PriorInfraction] = {}
    fined_in_window: dict[str, bool] = {}
    fines: list[PriorInfraction] = []
    steps: list[_Step] = []
    revoked: PriorInfraction | None = None
    for event in events:
        category = _escolar_category(event.citation, laws)
        if revoked is not None and event.date > revoked.date:
            steps.append(
                _Step(event, category, SanctionKind.ALVARA_REVOGADO, False, False, None, None,
                      (), revoked)
            )
            continue
        opener = opened.get(event.citation)
        outside: PriorInfraction | None = None
        repeat_of: PriorInfraction | None = None
        if opener is not None and event.date > _window_end(opener.date, months):
            outside, opener = opener, None
        if opener is None:
            opened[event.citation] = event
            fined_in_window[event.citation] = False
        elif opener.date < event.date:
            repeat_of = opener
        fined, doubled = False, False
        if category == "revogacao":
            kind = SanctionKind.REVOGACAO
        elif category == "dever" and repeat_of is None:
            kind = SanctionKind.ADVERTENCIA
        elif category == "dever":
            fined, doubled = True, fined_in_window[event.citation]
            kind = SanctionKind.MULTA_EM_DOBRO if doubled else SanctionKind.MULTA
        else:
            fined, doubled = True, repeat_of is not None
            kind = SanctionKind.MULTA_EM_DOBRO if doubled else SanctionKind.MULTA
        earlier: tuple[PriorInfraction, ...] = ()
        if fined:
            fined_in_window[event.citation] = True
            earlier = tuple(
                f
                for f in fines
                if f.date < event.date and event.date <= _window_end(f.date, months)
            )
            fines.append(event)
            if len(earlier) >= revoking_fine - 1:
                kind = SanctionKind.REVOGACAO
        if kind is SanctionKind.REVOGACAO and revoked is None:
            revoked = event
        steps.append(_Step(event, category, kind, fined, doubled, repeat_of, outside, earlier))
    return steps


def escolar_sanction(
    infraction_citation: str,
    on: dt.date,
    priors: Sequence[PriorInfraction],
    sources: AmountSources,
    *,
    holder: str,
) -> Sanction:
    """The sanction of art. 23 of the school-transport law for an infraction on ``on``.

    ``priors`` are earlier infractions; only the holder's, of this law, before ``on``
    count, and their own sanctions are derived in order by the same rules. Fines are
    10 UFESP at the UFESP of the year of the infraction, doubled on repeat.
    """
    on = _check_day(on)
    laws = sources.laws
    law = laws[TRANSPORTE_ESCOLAR]
    if on < law.in_force_since:
        raise InputError(
            f"A {law.short_title} vigora desde {format_date(law.in_force_since)}; não há "
            f"sanção para infração ocorrida em {format_date(on)}.",
            field="/data",
        )
    current = PriorInfraction(on, infraction_citation, holder)
    _escolar_category(infraction_citation, laws)
    years = int(sources.parameters.value("transporte-escolar.prazo_reincidencia", on).value)
    earlier = _relevant(priors, TRANSPORTE_ESCOLAR, holder, on)
    revoking = int(sources.parameters.value("transporte-escolar.multas_para_revogacao", on).value)
    step = _chain([*earlier, current], laws, 12 * years, revoking)[-1]

    def ref(fragment: str) -> str:
        return _cite(laws, f"{TRANSPORTE_ESCOLAR}#{fragment}")

    def add(fragment: str) -> None:
        basis.append(f"{TRANSPORTE_ESCOLAR}#{fragment}")

    cited = _cite(laws, infraction_citation)
    period = f"{years} ano" if years == 1 else f"{years} anos"
    basis: list[str] = [infraction_citation]
    sentences: list[str] = []
    if step.revoked_by is not None:
        return _after_revocation(step, infraction_citation, on, laws)
    if step.category == "revogacao":
        sentences.append(
            f"Hipótese do {cited}, ocorrida em {format_date(on)}: aplica-se a revogação do "
            f"alvará ({ref('art23_inc3')})."
        )
        add("art23_inc3")
    if step.outside is not None:
        sentences.append(
            f"A primeira infração ao mesmo dispositivo, {step.outside.describe()}, dista "
            f"mais de {period} desta, ocorrida em {format_date(on)}: não há reincidência "
            f"({ref('art23_par1u')})."
        )
        add("art23_par1u")
    repeat = step.repeat_of
    if repeat is not None:
        sentences.append(
            f"Reincidência na infração ao {cited}: entre a primeira infração, "
            f"{repeat.describe()}, e esta, ocorrida em {format_date(on)}, não decorreu "
            f"período superior a {period} ({ref('art23_par1u')})."
        )
        add("art23_par1u")
    if step.category == "dever":
        add("art23_inc1")
        if repeat is None:
            sentences.append(
                f"Infração ao dever do {cited}, ocorrida em {format_date(on)}: aplica-se "
                f"advertência por escrito ({ref('art23_inc1')})."
            )
        elif not step.doubled:
            sentences.append(
                "Por reincidência no descumprimento de dever do condutor escolar, aplica-se "
                f"multa em lugar da advertência ({ref('art23_inc1')})."
            )
        else:
            sentences.append(
                "Já imposta multa por esta infração no mesmo período, a nova reincidência "
                f"sujeita o infrator à multa em dobro ({ref('art23_inc2')})."
            )
    elif step.category == "multa":
        sentences.append(
            f"Infração ao {cited}, ocorrida em {format_date(on)}: aplica-se multa "
            f"({ref('art23_inc2')})."
            if repeat is None
            else f"Aplica-se a multa em dobro ({ref('art23_inc2')})."
        )
    elif step.category == "preceito":
        sentences.append(
            f"Infração a preceito da {law.short_title} "
            f"({_without_law(cited, law)}), ocorrida em {format_date(on)}: aplica-se a "
            f"multa do {ref('art23_inc2')}."
            if repeat is None
            else f"Aplica-se a multa do {ref('art23_inc2')}, em dobro."
        )
    amount: Amount | None = None
    if step.fined:
        amount = escolar_fine(on, sources, doubled=step.doubled, citation=infraction_citation)
        sentences.append(amount.explanation.removeprefix(f"Infração ao {cited}. "))
        add("art23_inc2")
        if step.kind == SanctionKind.REVOGACAO:
            count = len(step.earlier_fines) + 1
            dates = format_list([format_date(f.date) for f in step.earlier_fines],
                                locale="pt_BR")
            sentences.append(
                f"É a {_ORDINALS.get(count, f'{count}ª')} multa imposta ao condutor "
                f"em período de {period} (multas "
                f"anteriores pelas infrações de {dates}): aplica-se também a revogação do "
                f"alvará ({ref('art23_inc3')})."
            )
            add("art23_inc3")
    explanation = " ".join(sentences)
    unique = tuple(dict.fromkeys(basis))
    items = (Item("sancao", Status.MET, "", explanation, unique),)
    return Sanction(
        step.kind,
        infraction_citation,
        on,
        amount,
        step.doubled,
        repeat,
        step.earlier_fines,
        explanation,
        unique,
        items,
    )


def _without_law(short: str, law: Law) -> str:
    """``"art. 9º, § 3º"`` from ``"art. 9º, § 3º, da Lei nº 4.515/2007"``."""
    return short.removesuffix(f", da {law.short_title}").removesuffix(f" da {law.short_title}")


def _after_revocation(
    step: _Step, citation: str, on: dt.date, laws: Mapping[str, Law]
) -> Sanction:
    """The infraction judged came after the revocation of the alvará: no sanction."""
    revoked = step.revoked_by
    if revoked is None:  # pragma: no cover - only called after a revocation
        raise InputError("Não consta revogação anterior do alvará.", field="/anteriores")
    rule = f"{TRANSPORTE_ESCOLAR}#art23_inc3"
    explanation = (
        f"Alvará já revogado: a infração {revoked.describe()} acarretou a revogação do "
        f"alvará do condutor ({_cite(laws, rule)}). A infração ao {_cite(laws, citation)}, "
        f"ocorrida em {format_date(on)}, é posterior à revogação: não há advertência, "
        "multa nem revogação a aplicar com base no alvará revogado. Se o condutor obteve "
        "novo alvará depois da revogação, informe somente as infrações cometidas sob o "
        "novo alvará."
    )
    basis = (citation, rule)
    return Sanction(
        SanctionKind.ALVARA_REVOGADO,
        citation,
        on,
        None,
        False,
        None,
        (),
        explanation,
        basis,
        (Item("sancao", Status.NOT_APPLICABLE, "", explanation, basis),),
        revoked,
    )
