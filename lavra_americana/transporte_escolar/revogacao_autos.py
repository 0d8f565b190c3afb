"""The autos a revocation of an escolar alvará rests on, and the count of art. 23, III.

Split from :mod:`lavra_americana.transporte_escolar.revogacao` (the decision): for the
penalty grounds (art. 23, III, "após a terceira multa"; art. 9º, § 2º, I and II) each
auto named is checked in the registry — it exists, is neither cancelled nor annulled on
appeal (:mod:`lavra_americana.comum.auto_anulado`), is of the same driver (CPF) and not
dated after the decision — and, for the third fine, the
infractions are judged again in order (THIRD_FINE_READING below). The revocation by
motivo fundamentado (art. 3º) rests on no auto and does not come here. Implements no
provision by itself: the decision's module claims the citations.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from babel.lists import format_list

from lavra.checking.computations import ComputeInput, PriorRecord, clean_text, item_at
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.formats import unmask
from lavra.inputs.reading import maybe_date
from lavra.textutil import format_date
from lavra_americana.comum.auto_anulado import annulled, situacao
from lavra_americana.comum.citing import numbered, short
from lavra_americana.comum.infractions import PriorInfraction
from lavra_americana.comum.sources import rule_sources
from lavra_americana.transporte_escolar.penalties import SanctionKind, escolar_sanction

__all__ = ["auto_rows", "laws_of", "same", "third_fine"]

IMPLEMENTED: tuple[str, ...] = ()
"""Helpers of the decision (:mod:`lavra_americana.transporte_escolar.revogacao`), which
claims art. 23, III, and art. 9º, § 2º."""

ESC = "transporte-escolar"
AUTO_FORM = "auto-infracao-escolar"
REVOCATION = f"{ESC}#art23_inc3"
REPEAT = f"{ESC}#art23_par1u"
HOLDER_CPF = "/condutor/cpf"
AUTOS = "/hipotese/autos"


def same(a: Any, b: Any) -> bool | None:
    first, second = clean_text(a), clean_text(b)
    if first is None or second is None:
        return None
    return unmask(first) == unmask(second)


def auto_rows(
    request: ComputeInput, data: Mapping[str, Any], on: date, citation: str,
    at: str = AUTOS,
) -> tuple[list[dict[str, Any]], list[PriorInfraction], list[Item]]:
    """The autos of the ground, each checked in the registry (module docstring); ``at``:
    where the list is (the decision's ``/hipotese/autos``, the notice's
    ``/acusacao/autos``)."""
    listed = pointers.get(data, at)
    rows: list[dict[str, Any]] = []
    infractions: list[PriorInfraction] = []
    items: list[Item] = []
    if not isinstance(listed, list):
        return rows, infractions, items
    cpf = pointers.get(data, HOLDER_CPF)
    for index, entry in enumerate(listed):
        number = clean_text(entry.get("numero")) if isinstance(entry, Mapping) else None
        if number is None:
            continue
        field = f"{at}/{index}/numero"
        found: PriorRecord | None = (
            None if request.history is None else request.history.document(AUTO_FORM, number)
        )
        row: dict[str, Any] = {"numero": number, "data_infracao": None, "dispositivos": []}
        rows.append(row)
        if found is None:
            items.append(
                item_at(
                    field,
                    Status.MISSING,
                    f"O {numbered('Auto de Infração', number)} não consta do registro de "
                    "documentos emitidos: sem conferir no registro que ele existe, não foi "
                    "cancelado e é deste condutor, a revogação não pode nele se fundar.",
                    citation,
                )
            )
            continue
        label = f"O Auto de Infração {found.printed}"
        row["numero"] = found.printed
        infraction = maybe_date(pointers.get(found.data, "/ocorrencia/data"))
        row["data_infracao"] = infraction
        cited: list[str] = [
            str(i["dispositivo"])
            for i in pointers.get(found.data, "/infracoes") or []
            if isinstance(i, Mapping) and isinstance(i.get("dispositivo"), str)
        ]
        row["dispositivos"] = [short(laws_of(request), c) for c in cited if "#" in c]
        problems: list[str] = []
        if found.cancelled:
            reason = f" ({found.cancel_reason})" if found.cancel_reason else ""
            problems.append(f"{label} foi cancelado{reason}: não subsiste.")
        if annulled(found):
            problems.append(f"{label} foi {situacao(found)}: não subsiste, e a revogação "
                            "não pode nele se fundar.")
        if same(pointers.get(found.data, HOLDER_CPF), cpf) is False:
            problems.append(f"{label} foi lavrado contra outro condutor (outro CPF).")
        if infraction is not None and infraction > on:
            problems.append(
                f"{label} registra infração de {format_date(infraction)}, posterior à data "
                f"da decisão ({format_date(on)})."
            )
        if citation != REVOCATION and citation not in cited:
            problems.append(
                f"{label} não registra a infração do {short(laws_of(request), citation)}, "
                "fundamento da revogação."
            )
        for problem in problems:
            items.append(item_at(field, Status.INVALID, problem, citation))
        if not problems:
            items.append(
                item_at(
                    field,
                    Status.MET,
                    f"{label} consta do registro, não cancelado, deste condutor.",
                    citation,
                )
            )
            if infraction is not None and clean_text(cpf):
                infractions.extend(
                    PriorInfraction(infraction, c, str(cpf), found.printed)
                    for c in cited
                    if c.startswith(f"{ESC}#")
                )
    return rows, infractions, items


def laws_of(request: ComputeInput) -> Any:
    return rule_sources(request, request.example_values)[0].laws


def _year_before(day: date) -> date:
    """The first day of the year before ``day`` (the same day and month, a year
    earlier; 29/02 → 28/02), included in the count (a fine exactly 1 year earlier
    counts)."""
    try:
        return day.replace(year=day.year - 1)
    except ValueError:
        return day.replace(year=day.year - 1, day=28)


def _fine_words(p: PriorInfraction) -> str:
    """"Auto de Infração AIE-ESC nº 0002/2026 (infração de 20/01/2026)"."""
    auto = f"Auto de Infração {p.document}" if p.document else "auto sem número"
    return f"{auto} (infração de {format_date(p.date)})"


def _listed(fines: list[PriorInfraction]) -> str:
    return format_list([_fine_words(p) for p in fines], locale="pt_BR")


def third_fine(
    request: ComputeInput, infractions: list[PriorInfraction], complete: bool,
    at: str = AUTOS,
) -> tuple[str | None, list[Item]]:
    """Art. 23, III: the last infraction of the autos reaches the revocation.

    THIRD_FINE_READING. Art. 23, III, says only "após a terceira multa"; the parágrafo
    único says that, "para fins desta lei", there is no reincidência when more than 1
    year passed between the first infraction and the later one. Reading kept: the
    fines counted for III are those imposed for infractions within 1 year before the
    last one (the day one year before included), the parágrafo único applied by
    analogy. Reasons: III is the last step of the same scale of aggravation as I and II
    (advertência, multa, multa em dobro, revogação), all of which the parágrafo único
    bounds "para fins desta lei"; a sanctioning rule is read restrictively, and the
    harshest sanction answers to recent conduct (proportionality, Lei nº 9.784/1999,
    art. 2º, parágrafo único, VI); the literal reading would let three fines years apart
    end a licence, which the law's own measure of recidivism rejects. The act states
    the reading and lists, by number and date, the fines it counts and the autos it
    does not count, with the reason."""
    if not infractions or not complete:
        return None, []
    context, sources = rule_sources(request, request.example_values)
    ordered = sorted(infractions, key=lambda p: (p.date, p.citation))
    last, earlier = ordered[-1], ordered[:-1]
    try:
        sanction = escolar_sanction(
            last.citation, last.date, earlier, sources, holder=last.subject
        )
    except LavraError as error:
        return None, [
            item_at(
                at,
                Status.MISSING,
                f"Não foi possível conferir a terceira multa: {error.message}",
                REVOCATION,
            )
        ]
    if sanction.kind is SanctionKind.REVOGACAO:
        fines = [*sanction.earlier_fines, last]
        opens = _year_before(last.date)
        text = (
            # The law named once in the sentence: its inciso III and its parágrafo único
            # are the article's own ("seu inciso III", "do mesmo artigo").
            f"Julgadas em ordem as infrações dos autos, pelas regras do "
            f"{short(context.laws, f'{ESC}#art23')}, contam-se para o seu inciso III "
            f"(\"após a terceira multa\") as multas "
            f"impostas ao condutor por infrações cometidas de {format_date(opens)} a "
            f"{format_date(last.date)}, no período de 1 (um) ano anterior à última "
            f"infração, medida da reincidência que o parágrafo único do mesmo artigo "
            f"fixa \"para fins desta lei\", aplicada por analogia. São {len(fines)} as "
            f"multas contadas: {_listed(fines)}. A última é "
            "a terceira multa, após a qual cabe a revogação do alvará."
        )
        others = [p for p in earlier if p not in sanction.earlier_fines]
        if others:
            text += " Não se contam: " + format_list(
                [f"{_fine_words(p)}, "
                 + ("anterior a esse período" if p.date < opens else "sem multa imposta")
                 for p in others],
                locale="pt_BR",
            ) + "."
        return text, [item_at(at, Status.MET, text, *sanction.basis)]
    return None, [
        item_at(
            at,
            Status.INVALID,
            "As infrações dos autos informados não levam à revogação do "
            f"{short(context.laws, REVOCATION)} (\"após a terceira multa\"): julgadas em "
            f"ordem, a última ({format_date(last.date)}) resulta em: {sanction.explanation}",
            REVOCATION,
            REPEAT,
        )
    ]
