"""The sanctions of Lei nº 4.515/2007 (transporte escolar): arts. 9º, § 2º, 21, 23
and 24, with repeat offences and the revocation of the alvará.

The rules take the earlier infractions as :class:`PriorInfraction` records and are pure
functions of them and the date of the infraction judged, as
:mod:`lavra_americana.comum.infractions` says, with the reading common to both laws
(periods, same-day infractions, what is ignored). Choices where this law is silent
(each one tested in ``tests/test_penalties.py``):

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
    - Another law's penalties (art. 19): the exploitation of the service without the
      licence subjects the offender "às penalidades previstas na Lei nº 3.149, de 14 de
      abril de 1998" — not to those of art. 23. So art. 19, and art. 2º (the licence the
      exploitation depends on) when cited for it, never get a sanction of this law: the
      sanction is that of Lei nº 3.149/1998, whose values the pack does not register, and
      :func:`escolar_sanction` says so (:class:`lavra.errors.ParameterError` naming the
      law), so a document that would apply it shows a pending item instead of a fine of
      this law in its place. Such an earlier infraction is no infraction of this law:
      it is neither a repeat nor a fine counted for art. 23, III (a sanction of another
      law cannot aggravate one of this law; the reading that protects the holder).
    - The sanctions of earlier infractions are not an input: they are derived in
      chronological order by these same rules, so the chain is always consistent.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from babel.lists import format_list

from lavra.checking.report import Item, Status
from lavra.errors import InputError, ParameterError
from lavra.law.model import FRAGMENT_ID, Law, resolve
from lavra.textutil import format_date
from lavra_americana.comum.amounts import (
    TRANSPORTE_ESCOLAR,
    Amount,
    AmountSources,
    split_citation,
)
from lavra_americana.comum.citing import short, without_law
from lavra_americana.comum.infractions import (
    PriorInfraction,
    check_infraction_day,
    relevant_priors,
    window_end,
)
from lavra_americana.transporte_escolar.fees import check_in_force, escolar_fine

__all__ = [
    "IMPLEMENTED",
    "Sanction",
    "SanctionKind",
    "escolar_sanction",
    "remission_message",
]

_ESCOLAR_REMISSIONS: Mapping[str, str] = {"art19": "lei-3149-1998", "art2": "lei-3149-1998"}
"""Provisions whose infraction this law sends to another law's penalties (art. 19; art.
2º, the licence the exploitation depends on, is the precept art. 19 sanctions)."""
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
    "transporte-escolar#art19",
)
"""Citations whose rule this module implements (for coverage reporting)."""


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

    "remissao" (art. 19: another law's penalties), "dever" (art. 21: advertência, then
    fine), "revogacao" (art. 9º, § 2º), "multa" (art. 24: subject to a fine) or
    "preceito" (any other precept of the law, fined under art. 23, II).
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
    if fragment in _ESCOLAR_REMISSIONS:
        return "remissao"
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
        f"O {short(laws, citation)} {what}: cite o preceito da lei efetivamente "
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
        if category == "remissao":  # sanctioned by another law: not in this chain
            continue
        if revoked is not None and event.date > revoked.date:
            steps.append(
                _Step(event, category, SanctionKind.ALVARA_REVOGADO, False, False, None, None,
                      (), revoked)
            )
            continue
        opener = opened.get(event.citation)
        outside: PriorInfraction | None = None
        repeat_of: PriorInfraction | None = None
        if opener is not None and event.date > window_end(opener.date, months):
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
                if f.date < event.date and event.date <= window_end(f.date, months)
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
    on = check_infraction_day(on)
    laws = sources.laws
    law = laws[TRANSPORTE_ESCOLAR]
    check_in_force(on, laws, "sanção para infração ocorrida")
    current = PriorInfraction(on, infraction_citation, holder)
    if _escolar_category(infraction_citation, laws) == "remissao":
        raise ParameterError(remission_message(infraction_citation, laws), field="/citacao")
    years = int(sources.parameters.value("transporte-escolar.prazo_reincidencia", on).value)
    earlier = relevant_priors(priors, TRANSPORTE_ESCOLAR, holder, on)
    revoking = int(sources.parameters.value("transporte-escolar.multas_para_revogacao", on).value)
    step = _chain([*earlier, current], laws, 12 * years, revoking)[-1]

    def ref(fragment: str) -> str:
        return short(laws, f"{TRANSPORTE_ESCOLAR}#{fragment}")

    def add(fragment: str) -> None:
        basis.append(f"{TRANSPORTE_ESCOLAR}#{fragment}")

    cited = short(laws, infraction_citation)
    period = f"{years} ano" if years == 1 else f"{years} anos"
    basis: list[str] = [infraction_citation]
    sentences: list[str] = []
    if step.revoked_by is not None:
        return _after_revocation(step, infraction_citation, on, laws)
    if step.category == "revogacao":
        sentences.append(
            f"Hipótese do {cited}, ocorrida em {format_date(on)}: é cabível a revogação do "
            f"alvará ({ref('art23_inc3')}), a decidir em processo próprio, com defesa."
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
            f"({without_law(cited, law)}), ocorrida em {format_date(on)}: aplica-se a "
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
                f"anteriores pelas infrações de {dates}): é cabível também a revogação do "
                f"alvará ({ref('art23_inc3')}), a decidir em processo próprio, com defesa."
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


def remission_message(citation: str, laws: Mapping[str, Law]) -> str:
    """Why no sanction of this law applies to ``citation`` (art. 19), in pt-BR: the law
    whose penalties apply and that the pack lacks its values."""
    other = resolve(laws, _ESCOLAR_REMISSIONS[split_citation(citation)[1]])
    rule = short(laws, f"{TRANSPORTE_ESCOLAR}#art19")
    via = "" if citation.endswith("#art19") else f" ({short(laws, citation)})"
    return (
        f"A exploração do serviço de transporte escolar sem a licença{via} sujeita o "
        f"infrator às penalidades previstas na {other.reference}, e não às da "
        f"{laws[TRANSPORTE_ESCOLAR].short_title} ({rule}). O texto e os valores das "
        f"penalidades da {other.short} não estão registrados no sistema: a penalidade não "
        "pode ser calculada nem aplicada até que sejam registrados."
    )


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
        f"alvará do condutor ({short(laws, rule)}). A infração ao {short(laws, citation)}, "
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
