"""Money the laws fix: fretamento fines and transporte-escolar fees and fines.

Every amount is a :class:`Decimal` in reais, shown in figures and in words with the
template helpers (``moeda``, ``moeda_extenso``) so a computed amount and a printed one
never differ. Each function is pure: it takes the reference date and the loaded pack
data (:class:`AmountSources`) and returns a frozen :class:`Amount` carrying the value,
report items and a pt-BR explanation citing what it applies.

Fretamento (Lei nº 4.419/2006)
    The fines of arts. 15 (R$ 140,00), 16 (R$ 280,00) and 17 (R$ 700,00), in force from
    17/11/2006, are corrected every 1 January (art. 14, parágrafo único, and Lei nº
    3.610/2001). The corrected value of each year is content-pack data (parameters
    ``fretamento.multa.art15|16|17`` in ``legal_text/parametros.json``, one period per
    year with the act that fixed it). The engine never invents a value: for a year with
    none the auto cannot be issued and :class:`ParameterError` names the missing value
    and year; a draft (``draft=True``) gets the amount as *pending* instead. The value
    that applies is the one in force on the date of the infraction (the law in force
    when the act was committed). Citing an inciso of arts. 15–17 gives its article's
    fine.

    ``legal_text/exemplo-valores-corrigidos.json`` holds FICTITIOUS corrected values for
    demonstrations. It is loaded only when asked (``load_sources(..., exemplo=True)``);
    even then an official value, when registered, wins, and an amount taken from the
    example table says so in its explanation and has ``example=True``.

Transporte escolar (Lei nº 4.515/2007)
    Fees of art. 16 (I: 10 UFESP for issuing; II: 1 for renewing; III: 30 for
    transferring) and the fine of art. 23, II (10 UFESP), at the UFESP of the year of the
    date (parameter ``ufesp.valor``, one period per exercise, source SEFAZ-SP). The
    doubling on repeat multiplies by ``transporte-escolar.fator_reincidencia`` (2); the
    fretamento one (:mod:`lavra_americana.penalties`) by ``fretamento.fator_reincidencia`` (2).
    The parameter name is dotted (``ufesp.valor``, not ``ufesp``) because
    :mod:`lavra.law.params` requires a dotted name.

Rounding: amount = units × UFESP, quantized to centavos with ROUND_HALF_UP. With whole
units and a UFESP of two decimals the product is already exact; rounding only matters
if a UFESP with more decimals or a fraction of a unit ever appears. Half-up is the
commercial rounding people expect on a guia de recolhimento and, above all, the one the
``moeda`` helper applies when printing: rounding half-even (Decimal's default) here
would let the figure computed and the figure printed differ by one centavo.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from lavra.checking.report import Item, Status
from lavra.errors import ContentPackError, InputError, ParameterError
from lavra.law.model import FRAGMENT_ID, Law, load_laws, resolve
from lavra.law.params import (
    PARAMETERS_FILE,
    PackFile,
    Parameters,
    ParameterValue,
    load_parameters,
    parameters_from_table,
)
from lavra.render.templating import format_moeda, format_moeda_extenso
from lavra.textutil import format_date

__all__ = [
    "EXAMPLE_FILE",
    "FRETAMENTO",
    "TRANSPORTE_ESCOLAR",
    "UFESP_PARAMETER",
    "Amount",
    "AmountSources",
    "escolar_fee",
    "escolar_fine",
    "fretamento_fine",
    "fretamento_fine_article",
    "is_escolar_fee",
    "load_example_values",
    "load_sources",
    "money_words",
    "times_text",
    "to_cents",
    "ufesp_value",
]

FRETAMENTO = "fretamento"
IMPLEMENTED: tuple[str, ...] = (
    "fretamento#art14_par1u",
    "fretamento#art15",
    "fretamento#art16",
    "fretamento#art17",
    "transporte-escolar#art16",
    "transporte-escolar#art16_inc1",
    "transporte-escolar#art16_inc2",
    "transporte-escolar#art16_inc3",
)
"""Citations whose amount this module computes (coverage): the fretamento fines at the
value corrected for the year, and the school-transport fees in UFESP."""
TRANSPORTE_ESCOLAR = "transporte-escolar"
EXAMPLE_FILE = Path("legal_text") / "exemplo-valores-corrigidos.json"
EXAMPLES = PackFile(EXAMPLE_FILE, "_pacote/exemplo-valores-corrigidos.json",
                    "da tabela de valores de exemplo", "Tabela de exemplo inválida")
UFESP_PARAMETER = "ufesp.valor"
CORRECTION_LAW = "Lei nº 3.610/2001"

_CENT = Decimal("0.01")
_FINE_ARTICLES = (15, 16, 17)
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


@dataclass(frozen=True)
class AmountSources:
    """What amounts are computed from: the laws, the parameters, the example table.

    ``examples`` is None unless the example table was explicitly asked for.
    """

    laws: Mapping[str, Law]
    parameters: Parameters
    examples: Parameters | None = None


def load_example_values(pack_dir: Path) -> Parameters:
    """The FICTITIOUS corrected values of ``legal_text/exemplo-valores-corrigidos.json``.

    The file must declare ``"exemplo": true`` and an ``aviso`` that says EXEMPLO, and
    every period's ``fonte`` must begin with ``EXEMPLO`` (its schema,
    ``schemas/_pacote/exemplo-valores-corrigidos.json``, says so): a table that does not
    say it is an example is refused (:class:`ContentPackError`), so it can never pass
    for official data.
    """
    return parameters_from_table(EXAMPLES.load(pack_dir)["parametros"], EXAMPLES)


def load_sources(pack_dir: Path, *, exemplo: bool = False) -> AmountSources:
    """Laws and parameters of the pack; the example table only when ``exemplo``."""
    return AmountSources(
        laws=load_laws(pack_dir),
        parameters=load_parameters(pack_dir),
        examples=load_example_values(pack_dir) if exemplo else None,
    )


@dataclass(frozen=True)
class Amount:
    """A fine or fee on a date.

    ``value`` is None only for a draft whose value is not registered (``pending`` says
    what is missing). ``base`` is the value before doubling. ``units``/``ufesp`` are set
    for amounts in UFESP. ``example`` is True when the value came from the example
    table. ``source`` is where the value (or the UFESP) comes from.
    """

    citation: str
    on: date
    value: Decimal | None
    base: Decimal | None
    doubled: bool
    explanation: str
    basis: tuple[str, ...]
    items: tuple[Item, ...]
    source: str | None = None
    units: int | None = None
    ufesp: Decimal | None = None
    example: bool = False
    pending: str | None = None

    @property
    def figures(self) -> str | None:
        """``"R$ 384,20"``."""
        return None if self.value is None else format_moeda(self.value)

    @property
    def in_words(self) -> str | None:
        """``"R$ 384,20 (trezentos e oitenta e quatro reais e vinte centavos)"``."""
        return None if self.value is None else format_moeda_extenso(self.value)

    @property
    def words(self) -> str | None:
        """Only the words: ``"trezentos e oitenta e quatro reais e vinte centavos"``."""
        return None if self.value is None else money_words(self.value)


def to_cents(value: Decimal) -> Decimal:
    """Quantize to centavos, half up (see the module docstring for why)."""
    return value.quantize(_CENT, rounding=ROUND_HALF_UP)


def money_words(value: Decimal) -> str:
    """The amount in words alone, taken from :func:`format_moeda_extenso`."""
    full = format_moeda_extenso(value)
    figures = format_moeda(value)
    return full.removeprefix(f"{figures} (").removesuffix(")")


def _check_on(on: object, what: str) -> date:
    if isinstance(on, datetime) or not isinstance(on, date):
        raise InputError(f"Informe a {what} como data (dia, mês e ano), sem horário.",
                         field="/data")
    return on


def _split(citation: str) -> tuple[str, str]:
    law_id, sep, fragment = citation.partition("#")
    return law_id, fragment if sep else ""


def fretamento_fine_article(citation: str, laws: Mapping[str, Law]) -> int:
    """The article (15, 16 or 17) whose fine ``citation`` carries; InputError otherwise."""
    resolve(laws, citation)
    law_id, fragment = _split(citation)
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


def _item(requirement: str, status: Status, message: str, basis: tuple[str, ...]) -> Item:
    return Item(requirement, status, "", message, basis)


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
    on = _check_on(on, "data da infração")
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
            f"{on.year}: cadastre-o em {PARAMETERS_FILE.as_posix()} (correção anual, "
            f"{CORRECTION_LAW})."
        )
        if not draft:
            raise ParameterError(message, field="/valor")
        return Amount(
            citation=citation, on=on, value=None, base=None, doubled=False,
            explanation=f"Multa prevista no {cited}: valor pendente. {message}",
            basis=basis, items=(_item(name, Status.MISSING, message, basis),),
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
        items=(_item(name, Status.MET, explanation, basis),),
        source=found.source, example=example,
    )


def ufesp_value(on: date, sources: AmountSources) -> ParameterValue:
    """The UFESP of the exercise of ``on``; ParameterError naming the missing year."""
    on = _check_on(on, "data de referência")
    try:
        return sources.parameters.value(UFESP_PARAMETER, on)
    except ParameterError:
        raise ParameterError(
            f"Não há valor da UFESP para o exercício de {on.year}: cadastre-o em "
            f"{PARAMETERS_FILE.as_posix()} (parâmetro {UFESP_PARAMETER}, valor fixado pela "
            "SEFAZ-SP).",
            field="/data",
        ) from None


def _units(name: str, on: date, sources: AmountSources) -> int:
    raw = sources.parameters.value(name, on).value
    if isinstance(raw, Decimal) and raw != raw.to_integral_value():
        raise ContentPackError(f"O parâmetro {name} deve ser um número inteiro de UFESP.")
    return int(raw)


def _escolar_in_force(on: date, laws: Mapping[str, Law], what: str) -> None:
    law = laws[TRANSPORTE_ESCOLAR]
    if on < law.in_force_since:
        raise InputError(
            f"A {law.short_title} vigora desde {format_date(law.in_force_since)}; não há "
            f"{what} em {format_date(on)}.",
            field="/data",
        )


def times_text(factor: int) -> str:
    """``"em dobro"`` for 2, else ``"multiplicada por N"``."""
    return "em dobro" if factor == 2 else f"multiplicada por {factor}"


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
        items=(_item(requirement, Status.MET, explanation, (citation,)),),
        source=ufesp.source, units=units, ufesp=unit_value,
    )


def is_escolar_fee(citation: str) -> bool:
    """True for the fees of art. 16, I to III, of the school-transport law."""
    law_id, fragment = _split(citation)
    return law_id == TRANSPORTE_ESCOLAR and fragment in _ESCOLAR_FEES


def escolar_fee(citation: str, on: date, sources: AmountSources) -> Amount:
    """The fee of art. 16, I, II or III (10, 1 or 30 UFESP) at the UFESP of ``on``'s year.

    ``on`` is the date of the taxable event (issuing, renewing or transferring).
    """
    on = _check_on(on, "data de referência")
    resolve(sources.laws, citation)
    if not is_escolar_fee(citation):
        raise InputError(
            f"A citação {citation!r} não fixa taxa: as taxas do transporte escolar são as "
            "do art. 16, I, II e III (transporte-escolar#art16_inc1, _inc2, _inc3).",
            field="/citacao",
        )
    _escolar_in_force(on, sources.laws, "a taxa")
    name, label = _ESCOLAR_FEES[_split(citation)[1]]
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
    on = _check_on(on, "data da infração")
    name, fragment = _ESCOLAR_FINE
    fine_citation = f"{TRANSPORTE_ESCOLAR}#{fragment}"
    _escolar_in_force(on, sources.laws, "multa")
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
