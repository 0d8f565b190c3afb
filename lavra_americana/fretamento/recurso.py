"""The company's appeal in fretamento (Lei nº 4.419/2006, arts. 23 and 24): form
``recurso-fretamento``, filled and signed by the company (a fillable form, no series).

``recurso_fretamento`` — a :data:`lavra.checking.computations.Computation`. The case
(``/instancia``) decides everything the document says of itself:

- ``secretario``: "Caberá à empresa ou entidade, no prazo de 15 (quinze) dias, a contar
  da data da infração, protocolar recurso em sua defesa diretamente ao Secretário"
  (art. 23). The act appealed is the one that records the infraction: the auto de
  infração (series ``AIF-FRET``) or the termo de impedimento (``TIM-FRET``; the termo
  itself prints art. 23, applied by analogy to the art. 13 removal). The 15 days run
  from ``/ato_recorrido/data``, the date of the infraction;
- ``prefeito``: "Da decisão do Secretário ... caberá recurso ao Senhor Prefeito
  Municipal, no mesmo prazo, a contar da ciência da decisão anterior" (art. 24). The
  act appealed is a decision of the Secretário: on an appeal (``DEC-SETRANSV``) or the
  cassação he decides (art. 22, ``CAS-FRET``) or a determination he notifies
  (``NOT-FRET``, e.g. the removal of a preposto). The 15 days run from the ciência
  (``/ato_recorrido/data_ciencia``), which cannot precede the decision.

The title (``titulo_documento``, also on the prefilled PDF) names the authority the
appeal goes to and its article; no title says "X ou Y". The appealed act is named by its
printed number *with its series* ("AIF-FRET nº 0021/2026"): the series says which kind
of act is appealed, and a number whose series does not belong to the case (an auto
appealed to the Prefeito) is *invalid*. When the registry holds the act (History
``document``), it must not be cancelled and its date must be the one the company
states (for an auto, the date of the infraction), since the deadline runs from it.

The last day (:func:`lavra.law.statutory.deadline_for`, the rows ``fretamento#art23``
and ``fretamento#art24`` of ``legal_text/prazos.json``: 15 days, the last one moved to
the next working day) is computed, printed on the appeal and above the fields of the
prefilled form (``avisos_preenchimento``). An appeal dated after it is *invalid*, with
what follows: it may be *não conhecido* (Lei nº 9.784/1999, art. 63, I), but the
company keeps the right to file it (Constituição, art. 5º, XXXIV, a) and the
Administration may still review an illegal act of its own motion (art. 63, § 2º): the
message says so, rather than telling the company it cannot file. The appeal records
facts already done: its date, the infraction and the ciência are not later than the
day it is drafted (``ComputeInput.issued_on``), and the ciência not before the act.
"""

from __future__ import annotations

import re
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.checking.timeliness import check_timeliness
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import deadline_for
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import after_issue, data_of
from lavra_americana.comum.orgao import secretario
from lavra_americana.comum.sources import statutory_context

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "recurso_fretamento"]

TO_SECRETARY = "fretamento#art23"
TO_MAYOR = "fretamento#art24"
NUMBER = "/ato_recorrido/numero"
ACT_DATE = "/ato_recorrido/data"
CIENCIA = "/ato_recorrido/data_ciencia"
FILED = "/data_recurso"

IMPLEMENTED: tuple[str, ...] = (TO_SECRETARY, TO_MAYOR)
"""Citations this computation applies (coverage): the company's appeal to the
Secretário (art. 23) and to the Prefeito (art. 24), each with its 15 days."""

# series of the appealed act → (the form that issues it, what it is)
ACTS: dict[str, tuple[str, str]] = {
    "AIF-FRET": ("auto-infracao-fretamento", "auto de infração"),
    "TIM-FRET": ("termo-impedimento-fretamento", "termo de impedimento"),
    "DEC-SETRANSV": ("decisao-recurso-secretario", "decisão do Secretário em recurso"),
    "CAS-FRET": ("decisao-cassacao-fretamento", "decisão de cassação"),
    "NOT-FRET": ("notificacao-fretamento", "determinação do Secretário"),
}
FEMININE = ("DEC-SETRANSV", "CAS-FRET", "NOT-FRET")


class _Case:
    """What the case (``/instancia``) fixes: the article, the title, whom it addresses,
    the series of the acts it appeals and the event the 15 days run from."""

    def __init__(
        self, basis: str, title: str, vocative: str, series: tuple[str, ...], start: str
    ) -> None:
        self.basis, self.title, self.vocative = basis, title, vocative
        self.series, self.start = series, start

    def named(self, secretary: str) -> _Case:
        """The case with the Secretário's title (forms/orgao.json) in its words."""
        return _Case(self.basis, self.title.format(secretario=secretary),
                     self.vocative.format(secretario=secretary), self.series, self.start)


CASES: dict[str, _Case] = {
    "secretario": _Case(
        TO_SECRETARY,
        "Recurso ao {secretario}",
        "Ilustríssimo Senhor {secretario},",
        ("AIF-FRET", "TIM-FRET"),
        ACT_DATE,
    ),
    "prefeito": _Case(
        TO_MAYOR,
        "Recurso ao Prefeito Municipal",
        "Excelentíssimo Senhor Prefeito Municipal de Americana,",
        ("DEC-SETRANSV", "CAS-FRET", "NOT-FRET"),
        CIENCIA,
    ),
}

_PRINTED = re.compile(r"([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*) (?:nº )?(\d{1,6}/\d{4})")


def _pending(**extra: Any) -> dict[str, Any]:
    return {
        "titulo_documento": None,
        "vocativo": None,
        "fundamento": None,
        "fundamento_texto": None,
        "local": None,
        "ato_recorrido": None,
        "prazo": None,
        "avisos_preenchimento": [],
        **extra,
    }


def _series_items(number: str | None, case: _Case, laws: Any) -> tuple[str | None, list[Item]]:
    """The series of the appealed act's printed number, and its items."""
    if number is None:
        return None, []
    match = _PRINTED.fullmatch(number.strip())
    allowed = " ou ".join(
        f"{ACTS[s][1]} ({s} nº 0000/AAAA)" for s in case.series
    )
    ref = short(laws, case.basis)
    if match is None:
        return None, [
            item_at(
                NUMBER,
                Status.INVALID,
                f"Identifique o ato recorrido pelo número impresso nele, com a série "
                f"(por exemplo, {case.series[0]} nº 0021/2026): {allowed} ({ref}).",
                case.basis,
            )
        ]
    series = match.group(1)
    if series not in case.series:
        kind = ACTS[series][1] if series in ACTS else f"série {series}"
        return series, [
            item_at(
                NUMBER,
                Status.INVALID,
                f"O ato {format_act_number(number)} ({kind}) não é recorrível nesta instância: "
                f"{case.title.lower().replace('recurso', 'o recurso', 1)} ({ref}) "
                f"cabe contra {allowed}.",
                case.basis,
            )
        ]
    return series, []


def _registry_items(
    request: ComputeInput, series: str, number: str, stated: Any
) -> list[Item]:
    """The appealed act, when the registry holds it: not cancelled, with the date stated."""
    if request.history is None:
        return []
    form, kind = ACTS[series]
    found = request.history.document(form, number)
    if found is None:
        return []  # a paper act, or one issued before the registry: checked at protocol
    if found.cancelled:
        return [
            item_at(
                NUMBER,
                Status.INVALID,
                f"O {kind} {format_act_number(number)} foi cancelado"
                + (f" ({found.cancel_reason})" if found.cancel_reason else "")
                + ": não há ato a recorrer.",
                TO_SECRETARY if series in CASES["secretario"].series else TO_MAYOR,
            )
        ]
    day = maybe_date(stated)
    if day is not None and day != found.reference_date:
        return [
            item_at(
                ACT_DATE,
                Status.INVALID,
                f"Segundo o registro, o {kind} {format_act_number(number)} é de "
                f"{format_date(found.reference_date)}, não de {format_date(day)}: corrija a "
                "data, da qual se conta o prazo.",
                TO_SECRETARY if series in CASES["secretario"].series else TO_MAYOR,
            )
        ]
    return []


def _late(message: str) -> str:
    return (
        f"{message} Interposto fora do prazo, o recurso pode não ser conhecido (Lei "
        "nº 9.784/1999, art. 63, I); a empresa pode, ainda assim, protocolá-lo "
        "(Constituição, art. 5º, XXXIV, a), e a Administração pode rever de ofício ato "
        "ilegal (art. 63, § 2º, da mesma lei)."
    )


def recurso_fretamento(request: ComputeInput) -> Computed:
    """The case's title and basis, the appealed act's series, the 15 days (arts. 23, 24).

    ``values``: ``titulo_documento``, ``vocativo``, ``fundamento`` (the case's
    citation, for the "Fundamento legal" list), ``fundamento_texto`` (the article, as
    printed), ``ato_recorrido`` (what the act is, with its article: "o auto de
    infração"), ``local`` (where the company signs), ``prazo`` (``ultimo_dia``,
    ``explicacao``: the deadline; ``tempestividade``: the judgment of this appeal's
    date), ``avisos_preenchimento`` (the last day, for the prefilled form).
    """
    data = data_of(request)
    case = CASES.get(str(pointers.get(data, "/instancia") or ""))
    if case is None:
        return Computed(_pending(), ())  # the schema reports the missing case
    case = case.named(secretario(request))
    context = statutory_context(request)
    laws = context.laws
    ref = short(laws, case.basis)
    number = clean_text(pointers.get(data, NUMBER))
    series, items = _series_items(number, case, laws)
    values = _pending(
        titulo_documento=f"{case.title} ({ref})",
        vocativo=case.vocative,
        fundamento=[case.basis],
        fundamento_texto=ref,
        local=clean_text(pointers.get(data, "/local")),
        ato_recorrido=(
            f"{'a' if series in FEMININE else 'o'} {ACTS[series][1]}"
            if series in case.series
            else None
        ),
    )
    if series in case.series and number is not None:
        items.extend(_registry_items(request, series, number, pointers.get(data, ACT_DATE)))
    act = maybe_date(pointers.get(data, ACT_DATE))
    ciencia = maybe_date(pointers.get(data, CIENCIA))
    filed = maybe_date(pointers.get(data, FILED))
    issued = request.issued_on
    for day, pointer, what in (
        (filed, FILED, "data do recurso"),
        (act, ACT_DATE, "data do ato recorrido"),
        (ciencia, CIENCIA, "data da ciência"),
    ):
        if day is not None:
            items.extend(after_issue(day, issued, pointer, what, case.basis))
    if case.start == CIENCIA and act is not None and ciencia is not None and ciencia < act:
        items.append(
            item_at(
                CIENCIA,
                Status.INVALID,
                f"A ciência ({format_date(ciencia)}) não pode ser anterior à decisão "
                f"recorrida ({format_date(act)}).",
                case.basis,
            )
        )
    start = act if case.start == ACT_DATE else ciencia
    if start is None:
        return Computed(values, unique_items(items))
    try:
        if filed is None:
            deadline = deadline_for(case.basis, start, context=context)
            judged_text = None
        else:
            judged = check_timeliness(case.basis, start, filed, context=context, field=FILED)
            deadline = judged.deadline
            judged_text = judged.explanation
            items.extend(
                judged.items
                if judged.timely
                else [
                    Item(i.requirement, i.status, i.field, _late(i.message), i.basis)
                    for i in judged.items
                ]
            )
    except LavraError as error:
        message = f"Não foi possível calcular o prazo do recurso: {error.message}"
        items.append(item_at(case.start, Status.MISSING, message, case.basis))
        return Computed(values, unique_items(items))
    last = format_date(deadline.last_day)
    values["prazo"] = {
        "ultimo_dia": deadline.last_day,
        "explicacao": deadline.explanation,
        "tempestividade": judged_text,
    }
    values["avisos_preenchimento"] = [
        f"Último dia para protocolar este recurso: {last}. {deadline.explanation}"
    ]
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {"recurso_fretamento": recurso_fretamento}
"""The computation of this module a form may name under ``"calculos"``."""
