"""The fees and the fine of Lei nº 4.515/2007 (transporte escolar), in UFESP:
art. 16, I to III, and art. 23, II.

Fees of art. 16 (I: 10 UFESP for issuing; II: 1 for renewing; III: 30 for
transferring) and the fine of art. 23, II (10 UFESP), at the UFESP of the year of the
date (parameter ``ufesp.valor``, one period per exercise, source SEFAZ-SP). The
doubling on repeat multiplies by ``transporte-escolar.fator_reincidencia`` (2); the
fretamento one (:mod:`lavra_americana.fretamento.penalties`) by
``fretamento.fator_reincidencia`` (2).
The parameter name is dotted (``ufesp.valor``, not ``ufesp``) because
:mod:`lavra.law.params` requires a dotted name.

The amount is built and rounded as :mod:`lavra_americana.comum.amounts` says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from decimal import Decimal

from lavra.checking.report import Status
from lavra.errors import ContentPackError, InputError, ParameterError
from lavra.law.model import Law, resolve
from lavra.law.params import (
    ParameterValue,
)
from lavra.render.templating import format_moeda, format_moeda_extenso
from lavra.textutil import format_date
from lavra_americana.comum.amounts import (
    TRANSPORTE_ESCOLAR,
    Amount,
    AmountSources,
    amount_item,
    check_on,
    split_citation,
    times_text,
    to_cents,
    whom_to_ask,
)

__all__ = [
    "IMPLEMENTED",
    "UFESP_PARAMETER",
    "check_in_force",
    "escolar_fee",
    "escolar_fine",
    "is_escolar_fee",
    "ufesp_value",
]

UFESP_PARAMETER = "ufesp.valor"
_ESCOLAR_FEES: Mapping[str, tuple[str, str]] = {
    "art16_inc1": ("transporte-escolar.taxa_expedicao",
                   "Taxa de expedição do Alvará para exploração de serviços de Transporte "
                   "Escolar"),
    "art16_inc2": ("transporte-escolar.taxa_renovacao",
                   "Taxa de renovação do Alvará para exploração de serviços de Transporte "
                   "Escolar"),
    "art16_inc3": ("transporte-escolar.taxa_transferencia", "Taxa de transferência da licença"),
}


_ESCOLAR_FINE = ("transporte-escolar.multa", "art23_inc2")

IMPLEMENTED: tuple[str, ...] = (
    "transporte-escolar#art16",
    "transporte-escolar#art16_inc1",
    "transporte-escolar#art16_inc2",
    "transporte-escolar#art16_inc3",
)
"""Citations whose amount this module computes (coverage): the school-transport
fees in UFESP."""


def ufesp_value(on: date, sources: AmountSources) -> ParameterValue:
    """The UFESP of the exercise of ``on``; ParameterError naming the missing year."""
    on = check_on(on, "data de referência")
    try:
        return sources.parameters.value(UFESP_PARAMETER, on)
    except ParameterError:
        raise ParameterError(
            f"Não há valor da UFESP para o exercício de {on.year} (valor fixado pela "
            f"SEFAZ-SP). {whom_to_ask(sources.parameters.parameter(UFESP_PARAMETER))}.",
            field="/data",
        ) from None


def _units(name: str, on: date, sources: AmountSources) -> int:
    raw = sources.parameters.value(name, on).value
    if isinstance(raw, Decimal) and raw != raw.to_integral_value():
        raise ContentPackError(f"O parâmetro {name} deve ser um número inteiro de UFESP.")
    return int(raw)


def check_in_force(on: date, laws: Mapping[str, Law], what: str) -> None:
    """InputError when ``on`` is before Lei nº 4.515/2007 came into force: no ``what`` then."""
    law = laws[TRANSPORTE_ESCOLAR]
    if on < law.in_force_since:
        raise InputError(
            f"A {law.short_title} vigora desde {format_date(law.in_force_since)}; não há "
            f"{what} em {format_date(on)}.",
            field="/data",
        )


def _ufesp_amount(
    citation: str, on: date, units: int, label: str, sources: AmountSources,
    *, factor: int = 1, requirement: str,
) -> Amount:
    ufesp = ufesp_value(on, sources)
    unit_value = Decimal(ufesp.value)
    base = to_cents(units * unit_value)
    doubled = factor != 1
    value = to_cents(base * factor)
    cited = resolve(sources.laws, citation).short
    unit_word = "UFESP" if units == 1 else "UFESPs"
    computation = (
        f"{units} {unit_word} × {format_moeda(unit_value)} (UFESP do exercício de {on.year})"
    )
    if doubled:
        computation += f" = {format_moeda(base)}, {times_text(factor)}"
    explanation = (
        f"{label}: {computation} = {format_moeda_extenso(value)} ({cited})."
    )
    return Amount(
        citation=citation, on=on, value=value, base=base, doubled=doubled,
        explanation=explanation, basis=(citation,),
        items=(amount_item(requirement, Status.MET, explanation, (citation,)),),
        source=ufesp.source, units=units, ufesp=unit_value,
    )


def is_escolar_fee(citation: str) -> bool:
    """True for the fees of art. 16, I to III, of the school-transport law."""
    law_id, fragment = split_citation(citation)
    return law_id == TRANSPORTE_ESCOLAR and fragment in _ESCOLAR_FEES


def escolar_fee(citation: str, on: date, sources: AmountSources) -> Amount:
    """The fee of art. 16, I, II or III (10, 1 or 30 UFESP) at the UFESP of ``on``'s year.

    ``on`` is the date of the taxable event (issuing, renewing or transferring).
    """
    on = check_on(on, "data de referência")
    resolve(sources.laws, citation)
    if not is_escolar_fee(citation):
        raise InputError(
            f"A citação {citation!r} não fixa taxa: as taxas do transporte escolar são as "
            "do art. 16, I, II e III (transporte-escolar#art16_inc1, _inc2, _inc3).",
            field="/citacao",
        )
    check_in_force(on, sources.laws, "a taxa")
    name, label = _ESCOLAR_FEES[split_citation(citation)[1]]
    return _ufesp_amount(citation, on, _units(name, on, sources), label, sources,
                         requirement=name)


def escolar_fine(
    on: date, sources: AmountSources, *, doubled: bool = False, citation: str | None = None
) -> Amount:
    """The fine of art. 23, II (10 UFESP at the UFESP of ``on``'s year), doubled on request.

    Doubling multiplies by ``transporte-escolar.fator_reincidencia`` (2: "em dobro").

    ``citation`` is the precept infringed, shown in the explanation when given; the
    basis always includes art. 23, II.
    """
    on = check_on(on, "data da infração")
    name, fragment = _ESCOLAR_FINE
    fine_citation = f"{TRANSPORTE_ESCOLAR}#{fragment}"
    check_in_force(on, sources.laws, "multa")
    factor = _units("transporte-escolar.fator_reincidencia", on, sources) if doubled else 1
    label = "Multa" + (f" {times_text(factor)}, por reincidência" if doubled else "")
    amount = _ufesp_amount(fine_citation, on, _units(name, on, sources), label, sources,
                           factor=factor, requirement=name)
    if citation is None or citation == fine_citation:
        return amount
    infringed = resolve(sources.laws, citation).short
    return replace(
        amount,
        citation=citation,
        explanation=f"Infração ao {infringed}. {amount.explanation}",
        basis=(citation, fine_citation),
    )
