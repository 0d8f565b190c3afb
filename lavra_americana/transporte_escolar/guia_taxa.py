"""The guia de recolhimento of the fees of Lei nº 4.515/2007 (transporte escolar, art. 16).

``guia_taxa_escolar`` (form ``guia-recolhimento-taxa-escolar``, series ``GUIA-ESC``): the
generic guia for the fee of issuing the first alvará (art. 16, I), of the yearly
renewal (II) or of the transfer (III), reverted to the Fundo Municipal de Trânsito (art.
16, parágrafo único). The city's DAM layout is not in the sources: the guia carries the
legal basis, the payer, the fee and the act it is for, the amount in figures and in
words, the due date, the destination and the verification code.

- The amount is the pack's amount rule (:func:`lavra_americana.transporte_escolar.fees.
  escolar_fee`, the answer of ``lavra amount transporte-escolar#art16_incN --data DATA``)
  at the UFESP of the year of the guia's date; an amount the pack lacks is *missing*.
- Renewal and transfer rest on an alvará: its number is required (*missing* without it)
  and it is read from the registry: absent, cancelled, or of another holder than the
  payer, *invalid* (the fee is "paga pelo licenciado", art. 16, II and III).
- The due date. The law sets no calendar day; it makes the fee precede the act it pays
  for: the alvará "mediante recolhimento da taxa" (art. 3º, § 1º), withdrawn on the
  receipt of payment (art. 13, § 3º), the transfer valid only with the fee paid (art.
  15, § 1º). The reading kept: the first alvará's and the transfer's fees fall due
  before that act, and the guia says so without a date; the renewal's falls due on the
  last day of the alvará in force, as the registry holds it, the renewal being due before
  it ends (art. 13, caput and § 5º).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    History,
    clean_text,
    in_legal_order,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.inputs.formats import only_digits_and_letters
from lavra.law.model import Law, resolve
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import after_issue, data_of, date_at
from lavra_americana.comum.sources import rule_sources
from lavra_americana.transporte_escolar.alvara import fee_values

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "guia_taxa_escolar"]

LAW = "transporte-escolar"
ISSUE_FEE = f"{LAW}#art3_par1"
WITHDRAWAL = f"{LAW}#art13_par3"
RENEWAL = f"{LAW}#art13"
TRANSFER_FEE_PAID = f"{LAW}#art15_par1"
FUND = f"{LAW}#art16_par1u"
ALVARA_FORM = "alvara-transporte-escolar"
ISSUED_ON = "/guia/data_emissao"
ALVARA = "/alvara/numero"
FEES: Mapping[str, tuple[str, str]] = {
    "expedicao": (f"{LAW}#art16_inc1", "pela expedição do primeiro alvará"),
    "renovacao": (f"{LAW}#art16_inc2", "pela renovação anual do alvará"),
    "transferencia": (f"{LAW}#art16_inc3", "pela transferência da licença"),
}

IMPLEMENTED: tuple[str, ...] = (FUND,)
"""The destination of the fees (art. 16, parágrafo único): the guia that collects them."""


def _pending(reason: str) -> dict[str, Any]:
    return {"taxa": None, "alvara": None, "vencimento": None, "vencimento_explicacao": None,
            "destino": None, "pendente": reason, "fundamento": []}


def _digits(value: Any) -> str:
    """A CPF or CNPJ without its mask (the alphanumeric CNPJ keeps its letters)."""
    return only_digits_and_letters(value) if isinstance(value, str) else ""


def _alvara(
    history: History | None, data: Mapping[str, Any], citation: str, laws: Mapping[str, Law]
) -> tuple[dict[str, Any] | None, list[Item]]:
    """The alvará renewed or transferred, read from the registry (module docstring)."""
    wanted = clean_text(pointers.get(data, ALVARA))
    if wanted is None:
        return None, [item_at(
            ALVARA, Status.MISSING,
            f"Informe o número do alvará a que a taxa se refere ({short(laws, citation)}).",
            citation)]
    found = None if history is None else history.document(ALVARA_FORM, wanted)
    if found is None:
        return None, [item_at(
            ALVARA, Status.INVALID,
            f"O alvará {wanted} não consta do registro de documentos emitidos: a taxa é paga "
            f"pelo licenciado do alvará que o registro tem ({short(laws, citation)}).",
            citation)]
    if found.cancelled:
        return None, [item_at(
            ALVARA, Status.INVALID,
            f"O alvará {found.printed} foi cancelado: não há taxa a recolher por ele "
            f"({short(laws, citation)}).", citation)]
    holder = _digits(pointers.get(found.data, "/titular/cpf"))
    if holder and holder != _digits(pointers.get(data, "/contribuinte/cpf")):
        return None, [item_at(
            "/contribuinte/cpf", Status.INVALID,
            f"O CPF do contribuinte difere do CPF do titular do alvará {found.printed}: a taxa "
            f"é paga pelo licenciado ({short(laws, citation)}).", citation)]
    return {"numero": found.printed, "valido_ate": found.valid_until}, []


def _due(kind: str, alvara: Mapping[str, Any] | None, laws: Mapping[str, Law]
         ) -> tuple[date | None, str]:
    """The reading of the module docstring."""
    if kind == "expedicao":
        return None, (f"Antes da expedição do alvará, que se expede mediante o recolhimento "
                      f"da taxa ({short(laws, ISSUE_FEE)}) e se retira com o comprovante "
                      f"({short(laws, WITHDRAWAL)}).")
    if kind == "transferencia":
        return None, (f"Antes do termo de transferência, que só vale com a taxa paga "
                      f"({short(laws, TRANSFER_FEE_PAID)}).")
    until = None if alvara is None else alvara.get("valido_ate")
    if until is None:
        return None, (f"Antes do fim da validade do alvará, até quando a renovação deve "
                      f"ser feita ({short(laws, RENEWAL)}).")
    return until, (f"Último dia de validade do alvará {alvara['numero'] if alvara else ''}, "
                   f"antes do qual a renovação deve ser feita ({short(laws, RENEWAL)}); o "
                   f"alvará renovado retira-se com o comprovante ({short(laws, WITHDRAWAL)}).")


def guia_taxa_escolar(request: ComputeInput) -> Computed:
    """The guia of a fee of art. 16; see the module docstring.

    ``values``: ``taxa`` (``referencia``, ``valor_texto``, ``valor_extenso``,
    ``explicacao``, ``ato``), ``alvara`` (``numero``, ``valido_ate``) or None,
    ``vencimento`` (a date, or None when due before an act), ``vencimento_explicacao``,
    ``destino``, ``fundamento``; ``pendente`` while something is missing.
    """
    data = data_of(request)
    on = date_at(data, ISSUED_ON)
    kind = pointers.get(data, "/taxa")
    if on is None or kind not in FEES:
        return Computed(_pending("Informe a data de emissão e a taxa."))
    citation, act = FEES[str(kind)]
    _, sources = rule_sources(request, request.example_values)
    laws = sources.laws
    items = after_issue(on, request.issued_on, ISSUED_ON, "data de emissão da guia", citation)
    fee, fee_items = fee_values(citation, on, sources, "/taxa")
    items.extend(fee_items)
    alvara = None
    if kind != "expedicao":
        alvara, alvara_items = _alvara(request.history, data, citation, laws)
        items.extend(alvara_items)
    due, why = _due(str(kind), alvara, laws)
    if due is not None and due < on:
        items.append(item_at(
            ISSUED_ON, Status.INVALID,
            f"O alvará {alvara['numero'] if alvara else ''} venceu em {format_date(due)}, antes "
            f"da guia: o alvará vencido não se renova ({short(laws, RENEWAL)}).", RENEWAL))
    values = {
        "taxa": {**fee, "ato": act},
        "alvara": alvara,
        "vencimento": due,
        "vencimento_explicacao": why,
        "destino": resolve(laws, FUND).text,
        "pendente": fee.get("pendente"),
        "fundamento": in_legal_order(
            [ISSUE_FEE, *([RENEWAL] if kind == "renovacao" else []), WITHDRAWAL,
             *([TRANSFER_FEE_PAID] if kind == "transferencia" else []), citation, FUND], laws),
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {"guia_taxa_escolar": guia_taxa_escolar}
"""The computations of this module a form may name under ``"calculos"``."""
