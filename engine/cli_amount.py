"""``lavra amount``: the fine or fee a cited provision sets on a date.

A thin shell over :mod:`lavra.amounts` and :mod:`lavra.penalties`. The dates given with
``--previous`` are earlier infractions of the same provision by the same vehicle
(fretamento) or holder (transporte escolar); they decide repeat offences. Errors of
lavra are printed in pt-BR on stderr with exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from datetime import date
from decimal import Decimal
from typing import Any

import click

from lavra.amounts import (
    FRETAMENTO,
    TRANSPORTE_ESCOLAR,
    Amount,
    AmountSources,
    escolar_fee,
    is_escolar_fee,
    load_sources,
    money_words,
)
from lavra.config import load_config
from lavra.errors import InputError, LavraError
from lavra.inputs import parse_date
from lavra.law import resolve
from lavra.penalties import (
    PriorInfraction,
    escolar_sanction,
    fretamento_penalty,
    temporary_impediment,
)
from lavra.templating import format_moeda
from lavra.textutil import format_date

__all__ = ["amount", "compute"]

_SUBJECT = "sujeito-informado"
_EXAMPLE_WARNING = (
    "ATENÇÃO: valor de EXEMPLO, fictício, tirado da tabela de exemplo; não é o valor "
    "oficial e não serve para lavrar auto."
)


def _money(value: Decimal | None) -> dict[str, Any]:
    shown = value if value is not None else Decimal("0.00")
    return {
        "amount": f"{shown:.2f}",
        "amount_figures": format_moeda(shown),
        "amount_words": money_words(shown),
    }


def _from_amount(result: Amount) -> dict[str, Any]:
    return {
        **_money(result.value),
        "doubled": result.doubled,
        "explanation": result.explanation,
        "basis": list(result.basis),
        "example": result.example,
    }


def compute(
    citation: str, on: date, previous: tuple[date, ...], sources: AmountSources
) -> dict[str, Any]:
    """The JSON answer of ``lavra amount`` (also used for the text output)."""
    resolve(sources.laws, citation)
    later = [day for day in previous if day > on]
    if later:
        raise InputError(
            f"A infração anterior de {format_date(later[0])} é posterior à data "
            f"informada em --on ({format_date(on)}).",
            field="/previous",
        )
    law_id = citation.partition("#")[0]
    priors = [PriorInfraction(day, citation, _SUBJECT) for day in previous]
    answer: dict[str, Any] = {"citation": citation, "on": on.isoformat()}
    if law_id == FRETAMENTO:
        penalty = fretamento_penalty(citation, on, _SUBJECT, priors, sources)
        impediment = temporary_impediment([citation], sources.laws)
        answer.update(_from_amount(penalty.amount))
        answer["explanation"] = penalty.explanation
        answer["basis"] = list(penalty.basis)
        answer["impediment"] = {
            "applies": impediment.applies,
            "explanation": impediment.explanation,
            "basis": list(impediment.basis),
        }
        if impediment.applies:
            answer["explanation"] += " " + impediment.explanation
        return answer
    if law_id == TRANSPORTE_ESCOLAR and is_escolar_fee(citation):
        if previous:
            raise InputError(
                "A opção --previous não se aplica a taxas: só multas têm reincidência.",
                field="/previous",
            )
        answer.update(_from_amount(escolar_fee(citation, on, sources)))
        return answer
    if law_id == TRANSPORTE_ESCOLAR:
        sanction = escolar_sanction(citation, on, priors, sources, holder=_SUBJECT)
        answer.update(_money(None if sanction.amount is None else sanction.amount.value))
        answer.update({
            "doubled": sanction.doubled,
            "sanction": sanction.kind.value,
            "explanation": sanction.explanation,
            "basis": list(sanction.basis),
            "example": False,
        })
        return answer
    raise InputError(
        f"A citação {citation!r} não fixa multa nem taxa: use um dispositivo da lei de "
        "fretamento (arts. 15 a 17) ou da lei de transporte escolar (art. 16, taxas; "
        "infrações, art. 23).",
        field="/citacao",
    )


@click.command(
    name="amount",
    help=(
        "Calcula a multa ou a taxa que o dispositivo citado fixa na data indicada, por "
        "extenso e em algarismos, com a reincidência decidida pelas datas das infrações "
        "anteriores do mesmo tipo, pelo mesmo veículo ou titular. Exemplos: "
        "lavra amount transporte-escolar#art16_inc1 --on 2026-03-01; "
        "lavra amount fretamento#art16_inc2 --on 2026-03-01 --previous 2025-10-10."
    ),
)
@click.argument("citacao", metavar="CITAÇÃO")
@click.option("--on", "on", required=True, metavar="DATA",
              help="Data da infração ou do fato gerador da taxa (AAAA-MM-DD).")
@click.option("--previous", "previous", multiple=True, metavar="DATA",
              help="Data de infração anterior do mesmo tipo, pelo mesmo veículo ou "
                   "titular (AAAA-MM-DD); repita a opção para cada uma.")
@click.option("--exemplo", is_flag=True,
              help="Na falta do valor corrigido oficial de uma multa de fretamento, usa a "
                   "tabela de EXEMPLO (valores fictícios, só para demonstração).")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@click.help_option("--help", "-h", help="Mostra esta ajuda e sai.")
def amount(citacao: str, on: str, previous: tuple[str, ...], exemplo: bool,
           as_json: bool) -> None:
    try:
        day = parse_date(on, what="data de referência (--on)", field="--on")
        earlier = tuple(
            parse_date(p, what="data de infração anterior (--previous)", field="--previous")
            for p in previous
        )
        sources = load_sources(load_config().pack_dir, exemplo=exemplo)
        answer = compute(citacao, day, earlier, sources)
    except LavraError as exc:
        click.echo(f"Erro: {exc.message}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(answer, ensure_ascii=False, indent=2))
        return
    if answer.get("example"):
        click.echo(_EXAMPLE_WARNING)
    click.echo(answer["explanation"])
    if "sanction" in answer and answer["amount"] == "0.00":  # advertência, art. 9º, § 2º
        click.echo("Valor: não há multa.")
    else:
        click.echo(f"Valor: {answer['amount_figures']} ({answer['amount_words']}).")
