"""The appeal against an escolar revogação "por motivo fundamentado" (Lei nº 4.515/2007,
art. 3º), under Lei nº 9.784/1999, arts. 56, 59 and 64: the Secretário's decision that
reconsiders it or not (form ``decisao-recurso-secretario``, ``/recurso/hipotese``
``lei-9784-1999#art56_par1``) and the Prefeito's decision as the superior authority
(form ``decisao-recurso-prefeito``, ``lei-9784-1999#art56``). The computation is
:mod:`lavra_americana.comum.decisao_recurso`'s; this module holds what is particular to
this appeal: the act it lies against, the words of the result and the next remedy.

The same appeal lies, under the same articles, against the other acts of the Secretário
of transporte escolar the municipal law gives no appeal: the refusal of a requerimento
outside the selection (IND: :mod:`lavra_americana.comum.indeferimento`) and the
declaração de vacância (DV-ESC, art. 13: :mod:`lavra_americana.transporte_escolar.
vacancia`). The decisions' words name the act appealed (:data:`ACTS`, by its series);
what the Secretário's reconsideration or the Prefeito's reform does is the same: granted
in full, the act is undone (the vacância's licence comes back, as the revogação's;
reading chosen for the refusal: undone, the requerimento is to be granted by its own act
— the alvará or the renewal —, which the decision does not replace: art. 64 lets the
decision reform the refusal, and the act granting the request is issued as any other).

Readings chosen where the municipal law is silent:

- *Which appeal.* The revogação of art. 3º is no penalty (the reading beside
  ``GROUNDS`` in :mod:`lavra_americana.transporte_escolar.revogacao`): the appeal of
  arts. 25 and 26 ("das penalidades", to the Prefeito, in a single instance) and the
  reconsideração of art. 27 do not reach it, and the municipal law gives it none. Lei nº
  9.784/1999 applies subsidiarily (as to the indeferimentos and the vacância): 10 days
  from the ciência of the revogação (art. 59), addressed to the Secretário who decided,
  who may reconsider within 5 days and, if he does not, forwards it to the Prefeito
  (art. 56, § 1º). Conversely, an appeal of art. 25 or a reconsideração of art. 27
  against a revogação by motivo fundamentado is refused, naming this appeal, and this
  appeal against a revogação that applied a penalty (art. 23, III; art. 9º, § 2º) is
  refused, naming arts. 25 to 27 (:func:`kind_items`).
- *One appeal, two decisions.* The party files once, with the Secretário; the period is
  counted once, from the ciência of the revogação the registry holds, to that filing,
  and both decisions check it. The Secretário's decision either reconsiders
  ("provido": the revogação is undone) or keeps the revogação and forwards the appeal
  (the next remedy says so: the party need not appeal again); the Prefeito decides the
  forwarded appeal, and with it the administrative instance in the Município closes
  (the Prefeito has no superior; art. 57's three instances are a ceiling, not a
  requirement).
- *What the decision does* (art. 64: "confirmar, modificar, anular ou revogar, total ou
  parcialmente, a decisão recorrida"). Granted in full, the revogação is undone: the
  alvará returns to the status it had (the same :class:`lavra.registry.effects.Restore`
  the granted appeals of the penalties use, :mod:`lavra_americana.comum.recurso_estado`);
  denied, or granted in part (a modification the determinações state), the revogação
  stays in force and the timeline records the decision. Both decisions require the
  revogação to be still in force as that act left it: once reconsidered, or once the
  alvará changed by another act, there is nothing left for the other decision to undo.
- *The 30 days to decide* (art. 59, § 1º, from the receipt of the autos by the
  authority that decides). It is the administration's period, not the party's: its lapse
  neither voids the decision nor the appeal (the law extends it on an explicit
  justification, § 2º). lavra states it — the days between the filing and the decision,
  and, past 30, that the delay needs its justification in the reasoning — and never
  refuses a late decision. For the Prefeito the receipt of the forwarded autos is
  unknown to the registry; the count from the filing is then the longest it can be.
- *The Secretário's 5 days to reconsider* (art. 56, § 1º: "se não a reconsiderar no
  prazo de cinco dias, o encaminhará à autoridade superior"). Counted from the filing
  (the appeal is filed with the Secretaria of the Secretário who decided: its receipt
  is the protocol), by art. 66 (first day excluded, last included, a last day without
  expediente moved to the next business day). Reading chosen: lavra *states* the
  period, never refuses a late reconsideration. The five days are the
  administration's, like the thirty of art. 59, § 1º ("prazo impróprio"): the law
  attaches no loss of competence to their lapse, and the Administração may at any
  time annul or revoke its own act (art. 53; Súmula 473 do STF), so a reconsideration
  after the fifth day is valid. Refusing it would send the party to the Prefeito, with
  more delay, only because the administration was late, against the appellant and the
  efficiency art. 2º requires; a procurador signs the late act that says so. The
  report states the days in every decision of the Secretário; past the fifth day the
  decision itself states the delay and that it neither voids the reconsideration nor
  the forwarding (:func:`reconsideration_period`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta

from lavra.checking.computations import ComputeInput, clean_text, licensing
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.law.calendar import BusinessCalendar
from lavra.law.model import Law
from lavra.registry.state import parse_printed
from lavra.textutil import format_date
from lavra_americana.comum.citing import cite_many, short
from lavra_americana.comum.computing import data_of, invalid

__all__ = [
    "ACTS",
    "APPEALS",
    "DECIDED_IN",
    "IMPLEMENTED",
    "LABELS",
    "RECONSIDERED",
    "RECONSIDER_DAYS",
    "SUBTITLES",
    "SUPERIOR",
    "SUPERIOR_WORDS",
    "WORDS",
    "AppealedAct",
    "appealed_act",
    "deadline_item",
    "kind_items",
    "next_remedy",
    "reconsideration_period",
    "subtitle",
]

LEI = "lei-9784-1999"
RECONSIDERED = f"{LEI}#art56_par1"
"""The Secretário's decision on the appeal addressed to him: reconsiders or forwards."""
SUPERIOR = f"{LEI}#art56"
"""The Prefeito's decision on the appeal the Secretário did not reconsider."""
DEADLINE = f"{LEI}#art59"
DECIDED_IN = f"{LEI}#art59_par1"
DECIDES = f"{LEI}#art64"
APPEALS = (RECONSIDERED, SUPERIOR)
RECONSIDER_DAYS = 5
"""Art. 56, § 1º: the days the Secretário has to reconsider (module doc)."""

IMPLEMENTED: tuple[str, ...] = (DECIDED_IN, DECIDES)
"""Citations this module applies (coverage): the period to decide (art. 59, § 1º) and
what the decision may do to the revogação (art. 64). Arts. 56 and 59, caput, are claimed
by :mod:`lavra_americana.comum.indeferimento`; the decisions cite them here too."""

REVOCATION_FORM = "decisao-revogacao-alvara"
MOTIVE = "motivo_fundamentado"
PENALTY_APPEALS = ("transporte-escolar#art25", "transporte-escolar#art27")
ACT_NUMBER = "/ato_recorrido/numero"

SUBTITLES: Mapping[str, str] = {
    RECONSIDERED: "Recurso contra a revogação do alvará escolar por motivo fundamentado: "
    "reconsideração pelo Secretário",
    SUPERIOR: "Recurso contra a revogação do alvará escolar por motivo fundamentado, "
    "não reconsiderada, à autoridade superior",
}

WORDS: dict[str, str] = {
    "provido": "reconsidera-se a decisão que revogou o alvará, que fica restabelecido",
    "parcialmente_provido": "reconsidera-se em parte a decisão que revogou o alvará, que "
    "permanece revogado, e encaminha-se o recurso, quanto ao mais, ao Prefeito Municipal",
    "nao_provido": "mantém-se a decisão que revogou o alvará e encaminha-se o recurso ao "
    "Prefeito Municipal",
}
"""The Secretário's operative words (art. 56, § 1º); the Prefeito's are the appeals'."""

SUPERIOR_WORDS: dict[str, str] = {
    "provido": "dá-se provimento ao recurso e reforma-se a decisão que revogou o alvará, "
    "que fica restabelecido",
    "parcialmente_provido": "dá-se provimento parcial ao recurso, mantida a revogação do "
    "alvará",
    "nao_provido": "nega-se provimento ao recurso e mantém-se a decisão que revogou o "
    "alvará",
}
"""The Prefeito's operative words (art. 64): what becomes of the revogação, as the
registry applies it (granted in full, the alvará is restored; otherwise it stays
revoked)."""

LABELS: dict[str, str] = {
    "provido": "Recurso conhecido; revogação reconsiderada",
    "parcialmente_provido": "Recurso conhecido; revogação reconsiderada em parte",
    "nao_provido": "Recurso conhecido; revogação mantida e recurso encaminhado ao Prefeito",
}


@dataclass(frozen=True)
class AppealedAct:
    """What the decisions on this appeal say of the act appealed (module doc)."""

    form: str
    article: str | None
    subtitle: str
    words: dict[str, str]
    superior_words: dict[str, str]
    labels: dict[str, str]
    undone: str
    stands: str
    not_reconsidered: str = "não reconsiderada"
    """How the Prefeito's subtitle says the act was kept (its gender)."""


REVOCATION = AppealedAct(
    REVOCATION_FORM, "transporte-escolar#art3", SUBTITLES[RECONSIDERED], WORDS,
    SUPERIOR_WORDS, LABELS,
    "a revogação deixa de produzir efeitos e o alvará é restabelecido",
    "a revogação permanece em vigor")

ACTS: Mapping[str, AppealedAct] = {
    "REV-ESC": REVOCATION,
    "IND": AppealedAct(
        "decisao-indeferimento", None,
        "Recurso contra o indeferimento de requerimento do transporte escolar",
        {"provido": "reconsidera-se a decisão que indeferiu o requerimento, que será "
                    "deferido pelo ato próprio",
         "parcialmente_provido": "reconsidera-se em parte a decisão que indeferiu o "
         "requerimento, que permanece indeferido, e encaminha-se o recurso, quanto ao "
         "mais, ao Prefeito Municipal",
         "nao_provido": "mantém-se a decisão que indeferiu o requerimento e encaminha-se "
                        "o recurso ao Prefeito Municipal"},
        {"provido": "dá-se provimento ao recurso e reforma-se a decisão que indeferiu o "
                    "requerimento, que será deferido pelo ato próprio",
         "parcialmente_provido": "dá-se provimento parcial ao recurso, mantido o "
                                 "indeferimento do requerimento",
         "nao_provido": "nega-se provimento ao recurso e mantém-se a decisão que indeferiu "
                        "o requerimento"},
        {"provido": "Recurso conhecido; indeferimento reconsiderado",
         "parcialmente_provido": "Recurso conhecido; indeferimento reconsiderado em parte",
         "nao_provido": "Recurso conhecido; indeferimento mantido e recurso encaminhado ao "
                        "Prefeito"},
        "o indeferimento deixa de produzir efeitos e o requerimento será deferido pelo ato "
        "próprio", "o indeferimento permanece em vigor", "não reconsiderado"),
    "DV-ESC": AppealedAct(
        "declaracao-vacancia", "transporte-escolar#art13",
        "Recurso contra a declaração de vacância do transporte escolar",
        {"provido": "reconsidera-se a declaração de vacância, que fica sem efeito, e o "
                    "alvará é restabelecido",
         "parcialmente_provido": "reconsidera-se em parte a declaração de vacância, que "
         "permanece, e encaminha-se o recurso, quanto ao mais, ao Prefeito Municipal",
         "nao_provido": "mantém-se a declaração de vacância e encaminha-se o recurso ao "
                        "Prefeito Municipal"},
        {"provido": "dá-se provimento ao recurso e reforma-se a declaração de vacância, "
                    "que fica sem efeito, e o alvará é restabelecido",
         "parcialmente_provido": "dá-se provimento parcial ao recurso, mantida a "
                                 "declaração de vacância",
         "nao_provido": "nega-se provimento ao recurso e mantém-se a declaração de "
                        "vacância"},
        {"provido": "Recurso conhecido; vacância reconsiderada",
         "parcialmente_provido": "Recurso conhecido; vacância reconsiderada em parte",
         "nao_provido": "Recurso conhecido; vacância mantida e recurso encaminhado ao "
                        "Prefeito"},
        "a declaração de vacância deixa de produzir efeitos e o alvará é restabelecido",
        "a declaração de vacância permanece em vigor"),
}
"""The acts this appeal lies against, by their series (module doc)."""


def appealed_act(number: object) -> AppealedAct:
    """The act appealed, by the series of its number (the revogação when unknown)."""
    parsed = parse_printed(number) if isinstance(number, str) else None
    series = None if parsed is None or parsed[0] is None else parsed[0].upper()
    return ACTS.get(series or "", REVOCATION)


def subtitle(hypothesis: str, number: object) -> str:
    """The decision's subtitle, naming the act appealed."""
    act = appealed_act(number)
    if act is REVOCATION:
        return SUBTITLES[hypothesis]
    return (f"{act.subtitle}: reconsideração pelo Secretário" if hypothesis == RECONSIDERED
            else f"{act.subtitle}, {act.not_reconsidered}, à autoridade superior")


def _revocation(request: ComputeInput) -> tuple[str, str | None, str | None] | None:
    """(printed number, ground key, alvará number) of the appealed REV-ESC in the
    registry, or None when the appealed act is not one."""
    number = clean_text(pointers.get(data_of(request), ACT_NUMBER))
    if request.history is None or number is None:
        return None
    parsed = parse_printed(number)
    if parsed is None or parsed[0] is None or parsed[0].upper() != "REV-ESC":
        return None
    record = request.history.document(REVOCATION_FORM, number)
    if record is None or record.cancelled:
        return None  # recurso_estado.appealed_items says so
    ground = clean_text(pointers.get(record.data, "/hipotese/tipo"))
    return record.printed, ground, clean_text(pointers.get(record.data, "/alvara/numero"))


def kind_items(request: ComputeInput, laws: Mapping[str, Law], hypothesis: str) -> list[Item]:
    """*Invalid* when the appeal does not fit the revogação it lies against, or (this
    appeal) when the revogação no longer stands (module doc)."""
    found = _revocation(request)
    if found is None:
        return []
    printed, ground, alvara = found
    federal = (f"{short(laws, SUPERIOR)}, {short(laws, RECONSIDERED)} e "
               f"{short(laws, DEADLINE)}")
    if hypothesis in PENALTY_APPEALS and ground == MOTIVE:
        return [invalid(
            "ato_recorrido.registro", ACT_NUMBER,
            f"A {printed} revogou o alvará por motivo fundamentado "
            f"({short(laws, 'transporte-escolar#art3')}), que não é penalidade: dela não "
            f"cabe o recurso em única instância nem a reconsideração dos "
            f"{short(laws, hypothesis)}, mas o recurso da Lei nº 9.784/1999 "
            f"({federal}), dirigido ao Secretário, que o reconsidera ou o encaminha ao "
            "Prefeito Municipal.", hypothesis)]
    if hypothesis not in APPEALS:
        return []
    if ground != MOTIVE:
        return [invalid(
            "ato_recorrido.registro", ACT_NUMBER,
            f"A {printed} aplicou penalidade (revogação do "
            f"{short(laws, 'transporte-escolar#art23_inc3')}): dela cabe o recurso ao "
            "Prefeito Municipal, em única instância "
            f"({short(laws, 'transporte-escolar#art25')}), ou a reconsideração da "
            f"Secretaria ({short(laws, 'transporte-escolar#art27')}), não o recurso da Lei "
            f"nº 9.784/1999 ({short(laws, hypothesis)}).", hypothesis)]
    state = licensing(request.history)
    if state is None or alvara is None:
        return []
    view = state.licence_status(alvara)
    if view is None or view.status_act == printed:
        return []
    return [invalid(
        "ato_recorrido.registro", ACT_NUMBER,
        f"A revogação {printed} já não está em vigor: o alvará {view.printed} está "
        f"{view.describe(request.on)}. Não há revogação a reconsiderar ou a reformar "
        f"({short(laws, DECIDES)}).", hypothesis)]


def deadline_item(
    laws: Mapping[str, Law], filed: date | None, on: date, hypothesis: str
) -> Item | None:
    """Art. 59, § 1º: the days from the filing to the decision, stated (module doc)."""
    if filed is None or on < filed:
        return None
    days = (on - filed).days
    cited = short(laws, DECIDED_IN)
    message = (f"Recurso decidido {days} dia(s) após o protocolo, dentro do prazo de 30 "
               f"(trinta) dias para decidi-lo ({cited}).")
    if days > 30:
        message = (f"Recurso decidido {days} dia(s) após o protocolo, além dos 30 (trinta) "
                   f"dias para decidi-lo ({cited}): o prazo é da Administração e seu "
                   "excesso não invalida a decisão, mas a fundamentação deve justificá-lo "
                   "(art. 59, § 2º, da Lei nº 9.784/1999).")
    return Item("recurso.prazo_decisao", Status.MET, "/decisao/data", message,
                (DECIDED_IN, hypothesis))


def next_remedy(hypothesis: str, result: str | None, laws: Mapping[str, Law],
                number: object = None) -> str:
    """What follows the decision (module doc); ``number``: the act appealed."""
    act = appealed_act(number)
    if hypothesis == SUPERIOR:
        return (
            "Decidido o recurso pelo Prefeito Municipal, autoridade superior "
            f"({short(laws, RECONSIDERED)}), encerra-se a instância administrativa no "
            "Município: desta decisão não cabe novo recurso administrativo."
        )
    if result == "provido":
        return (
            f"Reconsiderada a decisão, {act.undone}; nada resta à parte recorrente a "
            "impugnar."
        )
    if result == "nao_conhecido":
        return (
            "Recurso interposto fora do prazo não é conhecido (Lei nº 9.784/1999, "
            f"art. 63, I): {act.stands}, e não há encaminhamento ao Prefeito Municipal."
        )
    both = cite_many(laws, RECONSIDERED, DECIDED_IN)
    return (
        "Não reconsiderada a decisão no todo, o recurso é encaminhado ao Prefeito "
        f"Municipal, autoridade superior, que o decidirá ({both}); a parte "
        "recorrente não precisa interpor novo recurso."
    )


def reconsideration_period(
    laws: Mapping[str, Law], filed: date | None, on: date, hypothesis: str,
    calendar: BusinessCalendar,
) -> tuple[Item | None, str | None]:
    """Art. 56, § 1º: the Secretário's 5 days to reconsider, counted from the filing
    (module doc): the report's item, and the sentence the decision prints when the
    reconsideration came after the fifth day (None within it)."""
    if hypothesis != RECONSIDERED or filed is None or on < filed:
        return None, None
    last = calendar.next_business_day(filed + timedelta(days=RECONSIDER_DAYS))
    cited = short(laws, RECONSIDERED)
    counted = (f"o prazo de 5 (cinco) dias para reconsiderar, contado do protocolo do "
               f"recurso em {format_date(filed)}, encerrou-se em {format_date(last)} "
               f"({cited}, contado na forma do art. 66 da mesma lei)")
    if on <= last:
        return Item("recurso.prazo_reconsideracao", Status.MET, "/decisao/data",
                    f"Decisão de {format_date(on)} dentro do prazo: "
                    + counted.replace("encerrou-se", "encerra-se") + ".",
                    (RECONSIDERED,)), None
    printed = (f"A decisão é proferida em {format_date(on)}, depois do prazo: {counted}. "
               "O prazo é da Administração e seu excesso não invalida a reconsideração "
               "nem o encaminhamento do recurso ao Prefeito Municipal, nem prejudica a "
               "parte recorrente.")
    return Item("recurso.prazo_reconsideracao", Status.MET, "/decisao/data", printed,
                (RECONSIDERED,)), printed
