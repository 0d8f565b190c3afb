"""``lavra processo vincular``: staff link the municipality's PA number to the processo
a protocol opened (:mod:`lavra.registry.processos`: the readings chosen)."""

from __future__ import annotations

import click

from lavra.cli.support import REGISTRY_OPTION, registry_of, shielded
from lavra.errors import InputError
from lavra.filing import PROTOCOL_SERIES
from lavra.registry.filings import parse_protocol
from lavra.registry.processos import Processos
from lavra.registry.records import LOCAL_TZ
from lavra.textutil import format_date

__all__ = ["processo"]

_OPTIONS = {"/pa": "--pa", "/responsavel": "--responsavel"}


@click.group("processo")
def processo() -> None:
    """Os processos abertos pelos protocolos e o número do processo administrativo."""


@processo.command("vincular")
@click.argument("protocol", metavar="PROTOCOLO")
@click.option("--pa", "pa", required=True, metavar="NÚMERO",
              help="Número do processo administrativo (PA) dado pelo protocolo da "
              "Prefeitura, como em «PA 3.210/2026».")
@click.option("--responsavel", "by", required=True, metavar="NOME",
              help="Quem vincula (fica registrado com a data e a hora).")
@REGISTRY_OPTION
@shielded
def link_command(protocol: str, pa: str, by: str, registry_url: str | None) -> None:
    """Vincula o número do processo administrativo (PA) ao processo do PROTOCOLO."""
    printed = parse_protocol(protocol, PROTOCOL_SERIES) or protocol
    with registry_of(registry_url) as registry:
        try:
            link = Processos(registry).link(printed, pa, by=by)
        except InputError as error:  # the field by the option the person typed
            raise InputError(error.message, field=_OPTIONS.get(error.field or "")) from None
    local = link.linked_at.astimezone(LOCAL_TZ)
    click.echo(f"Processo {link.processo} (protocolo {link.protocol}) vinculado ao {link.pa} "
               f"por {link.linked_by} em {format_date(local.date())}, às "
               f"{local:%H:%M}.")
    if link.moved:
        click.echo(f"Atos emitidos antes com o {link.pa} que passaram ao processo: "
                   f"{link.moved}.")
