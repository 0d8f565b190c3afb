"""``lavra amount``: the fine or fee a cited provision sets on a date.

A thin shell over the content pack's answer (:attr:`lavra.pack.ContentPack.amount`,
asked with a :class:`lavra.checking.computations.AmountQuery`). The dates given with
``--anterior`` are earlier infractions of the same provision by the same subject; they
decide repeat offences. Errors of lavra are printed in pt-BR on stderr with exit status
2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

import click

from lavra.checking.computations import AmountQuery
from lavra.cli.support import aliased
from lavra.cli.values import configured_staff_values
from lavra.config import load_config
from lavra.errors import InputError, LavraError
from lavra.inputs.reading import parse_date
from lavra.pack import pack_at

__all__ = ["amount", "ask"]

_EXAMPLE_WARNING = (
    "ATENÇÃO: valor de EXEMPLO, fictício, tirado da tabela de exemplo; não é o valor "
    "oficial e não serve para lavrar auto."
)


def ask(query: AmountQuery) -> Mapping[str, Any]:
    """The pack's answer to ``query`` (InputError when its laws fix no amounts)."""
    pack = pack_at(query.pack_dir)
    if pack.amount is None:
        raise InputError(
            f"O pacote de conteúdo «{pack.name}» não calcula multas nem taxas.",
            field="/citacao",
        )
    return pack.amount(query)


@click.command(
    name="amount",
    help=(
        "Calcula a multa ou a taxa que o dispositivo citado fixa na data indicada, por "
        "extenso e em algarismos, com a reincidência decidida pelas datas das infrações "
        "anteriores do mesmo tipo, pelo mesmo veículo ou titular. Exemplos: "
        "lavra amount LEI#art16_inc1 --data 2026-03-01; "
        "lavra amount LEI#art16_inc2 --data 2026-03-01 --anterior 2025-10-10 "
        "(os dispositivos de cada lei: lavra law list LEI)."
    ),
)
@click.argument("citacao", metavar="CITAÇÃO")
@aliased("--data", dest="on", aliases=("--on",), required=True, metavar="DATA",
              help="Data da infração ou do fato gerador da taxa (AAAA-MM-DD).")
@aliased("--anterior", dest="previous", aliases=("--previous",), multiple=True, metavar="DATA",
              help="Data de infração anterior do mesmo tipo, pelo mesmo veículo ou "
                   "titular (AAAA-MM-DD); repita a opção para cada uma.")
@click.option("--exemplo", is_flag=True,
              help="Na falta do valor corrigido oficial de uma multa, usa a "
                   "tabela de EXEMPLO (valores fictícios, só para demonstração).")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@click.help_option("--help", "-h", help="Mostra esta ajuda e sai.")
def amount(citacao: str, on: str, previous: tuple[str, ...], exemplo: bool,
           as_json: bool) -> None:
    try:
        day = parse_date(on, what="data de referência (--data)", field="--data")
        earlier = tuple(
            parse_date(p, what="data de infração anterior (--anterior)", field="--anterior")
            for p in previous
        )
        answer = ask(AmountQuery(citacao, day, earlier, load_config().pack_dir, exemplo,
                                 staff_values=configured_staff_values()()))
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
