"""The notifications and determinations of SETRANSV to a fretamento company (Lei nº
4.419/2006): form ``notificacao-fretamento``, numbered in its own series (``NOT-FRET``)
and signed by the Secretário, head of the SETRANSV the law names ("a SETRANSV poderá
exigir", art. 10, § 1º; "determinando", art. 13; "notificações ou determinações da
SETRANSV", art. 15, II; "cujo afastamento tenha sido exigido pela SETRANSV", art. 17,
II).

``notificacao_fretamento`` — a :data:`lavra.checking.computations.Computation`. The
case (``/hipotese``) decides the title, what is required, its basis and the consequence
of not complying, each printed:

- ``discos_tacografo``: the discs of the tachograph (art. 10, § 1º), each by the day it
  records. The company must keep them 90 days (deadline ``fretamento#art10_par1``: the
  duty lasts to the 90th day after the day recorded): a disc whose guard ended before
  the notification cannot be required, and requiring it is *invalid* (its refusal
  would not be the infraction of art. 16, III). Refusal: art. 16, III; adulteration:
  art. 17, V;
- ``documentos``: documents the inspection requires; not presenting them: art. 15, IV;
- ``vistoria_extraordinaria`` (art. 13): the vehicle presented for an extraordinary
  inspection on the day, hour and place stated (the term is the inspection day). Not
  presented: art. 15, II. Failing safety, hygiene or working order, the vehicle is
  removed from service at once until regularised (art. 13: that removal has no term),
  and keeping it in service is art. 17, VI;
- ``atualizacao_documentos``: the registration documents to update; not updating them:
  art. 15, V, with the temporary impediment of art. 21, c;
- ``afastamento_preposto``: the preposto named, removed from the service; keeping him:
  art. 17, II.

The term. The law punishes not complying (art. 15, II) but sets no period to comply.
One cannot fail what one could not do: the notification grants at least 3 working days
from its receipt (deadline ``fretamento#art15_inc2``, Lei nº 9.784/1999, art. 26, § 2º,
and art. 41, by analogy); a term before the earliest admissible day is *invalid*. The
receipt is not known when the act is signed: the term is checked from the
notification's date (the earliest receipt), and the document also says that, received
later, the term is never shorter than those 3 working days from the receipt.

Motivation. A notification that imposes a duty states its facts (``/motivo``, Lei nº
9.784/1999, art. 50, I). The act is the Secretário's decision: the appeal of art. 24
(to the Prefeito, 15 days from the ciência) is printed, the period stated and never a
last day, and that it does not stop the term (Lei nº 9.784/1999, art. 61).

The ciência. The notification is signed by the Secretário and handed over (or posted)
afterwards: its receipt is a fact after the signature. The act leaves the ciência line
blank (``forms/_modelos/ciencia_em_branco.html``), for the day to be written by hand
when the company receives it (or to be the day of the aviso de recebimento); it is then
recorded on the document's entry (``lavra fato ciencia``), from which the registry counts
the last day of the appeal (form ``ciencia.prazos``: ``fretamento#art24``) and shows it
on the facts page and the public verification page. A ciência date typed in the data
would print as fact what has not happened: it is *invalid*
(:func:`lavra_americana.comum.computing.ciencia_after_signature`). The term to comply
is checked against the notification's own date, the earliest possible receipt; the act
says that, received later, it is never shorter than 3 working days from the receipt.

A signed act records only what happened: the notification's date is not after the
issue, a disc not after the notification.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    in_legal_order,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.law.statutory import StatutoryContext, deadline_for
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import (
    after_issue,
    ciencia_after_signature,
    data_of,
    date_at,
)
from lavra_americana.comum.sources import statutory_context

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "notificacao_fretamento"]

LAW = "fretamento"
COMPETENCE = f"{LAW}#art2"
NOTICE = f"{LAW}#art15_inc2"
DISCS = f"{LAW}#art10_par1"
APPEAL = f"{LAW}#art24"
FAULT = f"{LAW}#art19"
CIENCIA_DATE = "/ciencia/data"

IMPLEMENTED: tuple[str, ...] = (NOTICE, DISCS, f"{LAW}#art13")
"""Citations this computation applies (coverage): the notifications and determinations
of SETRANSV with the minimum term to comply (art. 15, II), the discs of the tachograph
within their 90 days (art. 10, § 1º), the extraordinary inspection (art. 13)."""


@dataclass(frozen=True)
class _Case:
    title: str
    basis: tuple[str, ...]
    consequence: str
    consequence_basis: tuple[str, ...]


CASES: dict[str, _Case] = {
    "discos_tacografo": _Case(
        "Notificação para Apresentação de Discos do Tacógrafo",
        (DISCS,),
        "A recusa na entrega dos discos sujeita a empresa à multa do {art16_inc3}; a "
        "adulteração de disco, à do {art17_inc5}.",
        (f"{LAW}#art16_inc3", f"{LAW}#art17_inc5"),
    ),
    "documentos": _Case(
        "Notificação para Apresentação de Documentos",
        (f"{LAW}#art15_inc4",),
        "A não apresentação dos documentos exigidos sujeita a empresa à multa do "
        "{art15_inc4}.",
        (f"{LAW}#art15_inc4",),
    ),
    "vistoria_extraordinaria": _Case(
        "Notificação de Vistoria Extraordinária",
        (f"{LAW}#art13",),
        "Não apresentado o veículo à vistoria, a empresa fica sujeita à multa do "
        "{art15_inc2}. Não atendidas, na vistoria, as exigências quanto à segurança, "
        "higiene e condições de funcionamento, o veículo será imediatamente retirado do "
        "serviço até a regularização da situação ({art13}); mantê-lo em serviço sujeita "
        "a empresa à multa do {art17_inc6}.",
        (f"{LAW}#art15_inc2", f"{LAW}#art13", f"{LAW}#art17_inc6"),
    ),
    "atualizacao_documentos": _Case(
        "Notificação para Atualização dos Documentos do Registro",
        (f"{LAW}#art15_inc5",),
        "Deixar de atualizar os documentos relativos ao registro sujeita a empresa à "
        "multa do {art15_inc5}, aplicada cumulativamente com o impedimento temporário "
        "da circulação do veículo ({art21_ali3}).",
        (f"{LAW}#art15_inc5", f"{LAW}#art21_ali3"),
    ),
    "afastamento_preposto": _Case(
        "Determinação de Afastamento de Preposto",
        (f"{LAW}#art17_inc2",),
        "Manter em serviço o preposto cujo afastamento é exigido sujeita a empresa à "
        "multa do {art17_inc2}.",
        (f"{LAW}#art17_inc2",),
    ),
}


def _consequence(case: _Case, context: StatutoryContext) -> str:
    names = {c.split("#", 1)[1]: short(context.laws, c) for c in case.consequence_basis}
    return case.consequence.format(**names)


def _pending(**extra: Any) -> dict[str, Any]:
    return {
        "titulo_documento": None,
        "fundamento": None,
        "consequencia": None,
        "prazo": None,
        "discos": [],
        "recurso": None,
        **extra,
    }


def _disc_items(
    data: Any, notified: date, context: StatutoryContext
) -> tuple[list[dict[str, Any]], list[Item]]:
    """Each disc with the last day of its guard; one no longer kept, or from after the
    notification, is *invalid* (art. 10, § 1º)."""
    discs: list[dict[str, Any]] = []
    items: list[Item] = []
    for index in range(len(pointers.get(data, "/discos") or [])):
        field = f"/discos/{index}/data_registro"
        day = date_at(data, field)
        if day is None:
            continue
        if day > notified:
            items.append(
                item_at(
                    field,
                    Status.INVALID,
                    f"O disco de {format_date(day)} é posterior à notificação "
                    f"({format_date(notified)}): só se exige disco já registrado.",
                    DISCS,
                )
            )
            continue
        try:
            guard = deadline_for(DISCS, day, context=context)
        except LavraError as error:
            items.append(item_at(field, Status.MISSING, error.message, DISCS))
            continue
        discs.append({"data_registro": day, "guarda_ate": guard.last_day})
        if notified > guard.last_day:
            items.append(
                item_at(
                    field,
                    Status.INVALID,
                    f"{guard.explanation} O disco de {format_date(day)} já não está sujeito "
                    f"à guarda obrigatória em {format_date(notified)}: não pode ser exigido, "
                    f"e sua falta não é a infração do {short(context.laws, LAW + '#art16_inc3')}.",
                    DISCS,
                )
            )
    return discs, items


def _term_items(
    data: Any, case_id: str, received: date, context: StatutoryContext
) -> tuple[dict[str, Any] | None, list[Item]]:
    """The term stated against the minimum of 3 working days from the receipt."""
    field = "/prazo/data_limite"
    term = date_at(data, field)
    items: list[Item] = []
    if case_id == "vistoria_extraordinaria":
        inspection = date_at(data, "/vistoria/data")
        if inspection is not None and term is not None and inspection != term:
            items.append(
                item_at(
                    field,
                    Status.INVALID,
                    f"Na vistoria extraordinária, o prazo é o dia da vistoria "
                    f"({format_date(inspection)}): informe-o como data-limite.",
                    f"{LAW}#art13",
                )
            )
    if term is None:
        return None, items
    try:
        minimum = deadline_for(NOTICE, received, context=context)
    except LavraError as error:
        items.append(item_at(field, Status.MISSING, error.message, NOTICE))
        return None, items
    if term < minimum.last_day:
        items.append(
            item_at(
                field,
                Status.INVALID,
                f"A notificação fixa o prazo até {format_date(term)}, antes do mínimo: "
                f"{minimum.explanation} Conceda ao menos esse prazo.",
                NOTICE,
            )
        )
    else:
        items.append(item_at(field, Status.MET, minimum.explanation, NOTICE))
    return {"data_limite": term, "minimo": minimum.last_day,
            "explicacao": minimum.explanation}, items


def _appeal(context: StatutoryContext, what: str) -> dict[str, Any]:
    """The appeal of art. 24: the period counted from the ciência, never a last day (the
    ciência comes after the signature; the registry counts the last day from the ciência
    recorded on the entry)."""
    ref = short(context.laws, APPEAL)
    rule = (
        f"Desta {what} cabe recurso ao Prefeito Municipal, no prazo de 15 (quinze) "
        f"dias contados da ciência ({ref}), cuja data é lançada abaixo no momento em que "
        "for dada (ou é a do aviso de recebimento); o recurso não suspende o prazo fixado "
        "acima (Lei nº 9.784/1999, art. 61)."
    )
    return {"regra": rule, "ultimo_dia": None}


def notificacao_fretamento(request: ComputeInput) -> Computed:
    """The case's title, basis and consequence, the term, the discs' guard, the appeal.

    ``values``: ``titulo_documento``, ``fundamento`` (citations, for the "Fundamento
    legal" list), ``consequencia`` (printed), ``prazo`` (``data_limite``, ``minimo``,
    ``explicacao``), ``discos`` (each with ``guarda_ate``), ``recurso`` (``regra``,
    ``ultimo_dia``, always None).
    """
    data = data_of(request)
    case_id = str(pointers.get(data, "/hipotese") or "")
    case = CASES.get(case_id)
    if case is None:
        return Computed(_pending(), ())  # the schema reports the missing case
    context = statutory_context(request)
    values = _pending(
        titulo_documento=case.title,
        fundamento=in_legal_order(
            (COMPETENCE, *case.basis, NOTICE, *case.consequence_basis, FAULT, APPEAL),
            context.laws,
        ),
        consequencia=_consequence(case, context),
    )
    items: list[Item] = []
    notified = date_at(data, "/data")
    what = "determinação" if case_id == "afastamento_preposto" else "notificação"
    values["recurso"] = _appeal(context, what)
    ciencia = date_at(data, CIENCIA_DATE)
    if ciencia is not None:
        items.append(
            item_at(CIENCIA_DATE, Status.INVALID, ciencia_after_signature(ciencia), APPEAL)
        )
    if notified is None:
        return Computed(values, unique_items(items))
    items.extend(after_issue(notified, request.issued_on, "/data", "data da notificação",
                             NOTICE))
    values["prazo"], term_items = _term_items(data, case_id, notified, context)
    items.extend(term_items)
    if case_id == "discos_tacografo":
        values["discos"], disc_items = _disc_items(data, notified, context)
        items.extend(disc_items)
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {"notificacao_fretamento": notificacao_fretamento}
"""The computation of this module a form may name under ``"calculos"``."""
