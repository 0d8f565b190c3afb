"""The fines of Lei nº 4.419/2006 (fretamento): arts. 15, 16 and 17, corrected yearly
(art. 14, parágrafo único).

The fines of arts. 15 (R$ 140,00), 16 (R$ 280,00) and 17 (R$ 700,00), in force from
17/11/2006, are corrected every 1 January (art. 14, parágrafo único, and Lei nº
3.610/2001). The corrected value of each year is content-pack data (parameters
``fretamento.multa.art15|16|17``): the pack ships the law's original value, and
the administrator registers each year's corrected value in the registry with the act
that fixed it (:mod:`lavra.law.overlay` lays it over the pack's). The engine never
invents a value: for a year with none the auto cannot be issued and
:class:`ParameterError` names the missing value and year and whom to ask (the person
the pack names in ``cadastrado_por``, never a file); a draft (``draft=True``) gets the
amount as *pending* instead. The value
that applies is the one in force on the date of the infraction (the law in force
when the act was committed). Citing an inciso of arts. 15–17 gives its article's
fine.

The FICTITIOUS example table (:func:`lavra_americana.comum.amounts.load_example_values`)
fills a year only when asked; an official value, when registered, wins, and an amount
taken from the example table says so in its explanation and has ``example=True``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal

from lavra.checking.report import Status
from lavra.errors import ContentPackError, InputError, ParameterError
from lavra.law.model import FRAGMENT_ID, Law, resolve
from lavra.law.params import (
    PARAMETERS_FILE,
    ParameterValue,
)
from lavra.render.templating import format_moeda_extenso
from lavra.textutil import format_date
from lavra_americana.comum.amounts import (
    EXAMPLE_FILE,
    FRETAMENTO,
    Amount,
    AmountSources,
    amount_item,
    check_on,
    split_citation,
    to_cents,
    whom_to_ask,
)

__all__ = [
    "IMPLEMENTED",
    "fretamento_fine",
    "fretamento_fine_article",
]

CORRECTION_LAW = "Lei nº 3.610/2001"
_FINE_ARTICLES = (15, 16, 17)

IMPLEMENTED: tuple[str, ...] = (
    "fretamento#art14_par1u",
    "fretamento#art15",
    "fretamento#art16",
    "fretamento#art17",
)
"""Citations whose amount this module computes (coverage): the fretamento fines at
the value corrected for the year."""


def fretamento_fine_article(citation: str, laws: Mapping[str, Law]) -> int:
    """The article (15, 16 or 17) whose fine ``citation`` carries; InputError otherwise."""
    resolve(laws, citation)
    law_id, fragment = split_citation(citation)
    match = FRAGMENT_ID.match(fragment) if law_id == FRETAMENTO else None
    if (
        match is None
        or match["art"] is None
        or int(match["art"]) not in _FINE_ARTICLES
        or match["letter"] or match["par"] or match["ali"]
    ):
        raise InputError(
            f"A citação {citation!r} não fixa multa da Lei nº 4.419/2006: cite o art. 15, "
            "16 ou 17 ou um de seus incisos (ex.: fretamento#art16_inc2).",
            field="/citacao",
        )
    return int(match["art"])


def fretamento_fine(
    citation: str, on: date, sources: AmountSources, *, draft: bool = False
) -> Amount:
    """The fine of art. 15, 16 or 17 of Lei nº 4.419/2006 for an infraction on ``on``.

    The corrected value of the infraction's year applies. Without it,
    :class:`ParameterError` ("Não há valor corrigido da multa do art. 16 da Lei nº
    4.419/2006 para 2026: ..."), or, with ``draft``, an :class:`Amount` whose value is
    None and whose report item is *missing*. An infraction before the law's entry into
    force is an :class:`InputError`.
    """
    on = check_on(on, "data da infração")
    article = fretamento_fine_article(citation, sources.laws)
    law = sources.laws[FRETAMENTO]
    name = f"fretamento.multa.art{article}"
    cited = resolve(sources.laws, citation).short
    article_ref = resolve(sources.laws, f"{FRETAMENTO}#art{article}").short
    if on < law.in_force_since:
        raise InputError(
            f"A {law.short_title} vigora desde {format_date(law.in_force_since)}; não há "
            f"multa do {article_ref} para infração ocorrida em {format_date(on)}.",
            field="/data",
        )
    if name not in sources.parameters:
        raise ContentPackError(
            f"O parâmetro {name} (multa do {article_ref}) não consta de "
            f"{PARAMETERS_FILE.as_posix()}."
        )
    official = sources.parameters.parameter(name)
    basis = tuple(dict.fromkeys(
        (citation, *(b for b in official.basis if "_inc" not in b.partition("#")[2]))
    ))
    found: ParameterValue | None = None
    example = False
    try:
        found = sources.parameters.value(name, on)
    except ParameterError:
        if sources.examples is not None and name in sources.examples:
            try:
                found = sources.examples.value(name, on)
                example = True
            except ParameterError:
                found = None
    if found is None:
        message = (
            f"Não há valor corrigido da multa do art. {article} da {law.short_title} para "
            f"{on.year} (correção anual, {CORRECTION_LAW}). {whom_to_ask(official)}; sem "
            "ele, o auto não pode ser lavrado."
        )
        if not draft:
            raise ParameterError(message, field="/valor")
        return Amount(
            citation=citation, on=on, value=None, base=None, doubled=False,
            explanation=f"Multa prevista no {cited}: valor pendente. {message}",
            basis=basis, items=(amount_item(name, Status.MISSING, message, basis),),
            pending=message,
        )
    value = to_cents(Decimal(found.value))
    corrected = found.since > law.in_force_since
    when = (
        f"valor corrigido para {on.year} ({CORRECTION_LAW})" if corrected
        else "valor original da lei"
    )
    explanation = (
        f"Multa de {format_moeda_extenso(value)}, prevista no {cited}, {when}, "
        f"vigente na data da infração, {format_date(on)}."
    )
    if example:
        explanation = (
            f"EXEMPLO, NÃO OFICIAL — {explanation} O valor é fictício, tirado da tabela de "
            f"exemplo ({EXAMPLE_FILE.as_posix()}), e não serve para lavrar auto."
        )
    return Amount(
        citation=citation, on=on, value=value, base=value, doubled=False,
        explanation=explanation, basis=basis,
        items=(amount_item(name, Status.MET, explanation, basis),),
        source=found.source, example=example,
    )
