"""``lavra cancel``: cancel an issued document; it stays in the registry, with the reason.

Like every command that writes the registry, it takes ``--registro`` (the registry's URL;
by default ``LAVRA_DATABASE_URL``, or the one in the data folder).
"""

from __future__ import annotations

import os

import click

from lavra.cli.support import REGISTRY_OPTION, aliased, series_option, shielded
from lavra.errors import LavraError
from lavra.inputs.textnorm import clean_text

__all__ = ["cancel_command"]


@click.command("cancel")
@click.argument("number", metavar="NÚMERO")
@aliased("--motivo", dest="reason", aliases=("--reason",), required=True,
         help="Motivo do cancelamento.")
@series_option("--serie", aliases=("--series",))
@aliased("--responsavel", dest="by", aliases=("--by",), default=None,
         help="Quem cancela (padrão: o usuário do sistema).")
@REGISTRY_OPTION
@shielded
def cancel_command(number: str, reason: str, series: str | None, by: str | None,
                   registry_url: str | None) -> None:
    """Cancela o documento NÚMERO (ex.: 0001/2026): ele permanece no registro."""
    from lavra.config import load_config
    from lavra.documents import Engine
    from lavra.issuing import Issuer
    from lavra.registry.store import open_registry

    who = by or os.environ.get("USER")
    if not who:
        raise LavraError("Informe quem cancela o documento (--responsavel NOME): o registro "
                         "guarda o autor.")
    reason = clean_text(reason, what="O motivo do cancelamento (--motivo)", field="--motivo")
    who = clean_text(who, what="O nome de quem cancela (--responsavel)", field="--responsavel")
    if registry_url:
        config = load_config()
        issuer = Issuer(Engine.from_config(config), open_registry(registry_url), config)
    else:
        issuer = Issuer.from_config()
    record = issuer.cancel(number, reason, who, series)
    click.echo(f"Documento {record.printed} cancelado: "
               f"{(record.cancel_reason or '').rstrip('.')}.")
