"""Money in both laws: the amount of a fine or fee, and what it is computed from.

Every amount is a :class:`Decimal` in reais, shown in figures and in words with the
template helpers (``moeda``, ``moeda_extenso``) so a computed amount and a printed one
never differ. Each function is pure: it takes the reference date and the loaded pack
data (:class:`AmountSources`) and returns a frozen :class:`Amount` carrying the value,
report items and a pt-BR explanation citing what it applies.

Implements no provision by itself: the fines of Lei nº 4.419/2006 are in
:mod:`lavra_americana.fretamento.fines`, the fees and fine of Lei nº 4.515/2007 in
:mod:`lavra_americana.transporte_escolar.fees`; both build the :class:`Amount` defined here.

``legal_text/exemplo-valores-corrigidos.json`` holds FICTITIOUS corrected values for
demonstrations. It is loaded only when asked (``load_sources(..., exemplo=True)``);
even then an official value, when registered, wins, and an amount taken from the
example table says so in its explanation and has ``example=True``.

Rounding: amount = units × UFESP, quantized to centavos with ROUND_HALF_UP. With whole
units and a UFESP of two decimals the product is already exact; rounding only matters
if a UFESP with more decimals or a fraction of a unit ever appears. Half-up is the
commercial rounding people expect on a guia de recolhimento and, above all, the one the
``moeda`` helper applies when printing: rounding half-even (Decimal's default) here
would let the figure computed and the figure printed differ by one centavo.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from lavra.checking.report import Item, Status
from lavra.errors import InputError
from lavra.law.model import Law, load_laws
from lavra.law.params import (
    PackFile,
    Parameter,
    Parameters,
    load_parameters,
    parameters_from_table,
)
from lavra.render.templating import format_moeda, format_moeda_extenso

__all__ = [
    "EXAMPLE_FILE",
    "FRETAMENTO",
    "IMPLEMENTED",
    "TRANSPORTE_ESCOLAR",
    "Amount",
    "AmountSources",
    "amount_item",
    "check_on",
    "load_example_values",
    "load_sources",
    "money_words",
    "split_citation",
    "times_text",
    "to_cents",
    "whom_to_ask",
]

FRETAMENTO = "fretamento"
TRANSPORTE_ESCOLAR = "transporte-escolar"
EXAMPLE_FILE = Path("legal_text") / "exemplo-valores-corrigidos.json"
EXAMPLES = PackFile(EXAMPLE_FILE, "_pacote/exemplo-valores-corrigidos.json",
                    "da tabela de valores de exemplo", "Tabela de exemplo inválida")


_CENT = Decimal("0.01")

IMPLEMENTED: tuple[str, ...] = ()
"""This module implements no provision: it is the money both laws' rules share."""


@dataclass(frozen=True)
class AmountSources:
    """What amounts are computed from: the laws, the parameters, the example table.

    ``examples`` is None unless the example table was explicitly asked for.
    """

    laws: Mapping[str, Law]
    parameters: Parameters
    examples: Parameters | None = None


def whom_to_ask(parameter: Parameter) -> str:
    """Whom a field agent asks for a value the registry lacks: the person the pack names
    (``cadastrado_por``), never a file. E.g. "Procure o administrador do lavra na ...,
    que o cadastra com o ato que o fixou"."""
    who = parameter.registered_by
    if who is None:
        return "Peça à administração que cadastre o valor, com o ato que o fixou"
    return f"Procure {who}, que o cadastra com o ato que o fixou"


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


def check_on(on: object, what: str) -> date:
    if isinstance(on, datetime) or not isinstance(on, date):
        raise InputError(f"Informe a {what} como data (dia, mês e ano), sem horário.",
                         field="/data")
    return on


def split_citation(citation: str) -> tuple[str, str]:
    law_id, sep, fragment = citation.partition("#")
    return law_id, fragment if sep else ""


def amount_item(requirement: str, status: Status, message: str, basis: tuple[str, ...]) -> Item:
    return Item(requirement, status, "", message, basis)


def times_text(factor: int) -> str:
    """``"em dobro"`` for 2, else ``"multiplicada por N"``."""
    return "em dobro" if factor == 2 else f"multiplicada por {factor}"
