"""``lavra cadastro``: the licensing state the acts created (licences and their status,
parties, vehicles, bars), shown by plate, CPF/CNPJ or number, and rebuilt from the acts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

import click

from lavra.cli.support import shielded
from lavra.errors import InputError
from lavra.inputs.formats import has_cnpj_shape, has_cpf_shape, has_placa_shape
from lavra.inputs.reading import today
from lavra.registry.licensing import LicenceView
from lavra.registry.store import Registry

__all__ = ["cadastro"]

REGISTRY_OPTION = click.option(
    "--registro", "registry_url", metavar="URL",
    help="Banco do registro (padrão: LAVRA_DATABASE_URL, ou o da pasta de dados).",
)


def _registry(registry_url: str | None) -> Registry:
    from lavra.config import load_config
    from lavra.documents import Engine
    from lavra.registry.store import open_default_registry, open_registry

    config = load_config()
    registry = (open_registry(registry_url) if registry_url
                else open_default_registry(config.data_dir))
    registry.use_effects(Engine.from_config(config).content.pack.effects)
    return registry


@click.group("cadastro")
def cadastro() -> None:
    """A situação das licenças criada pelos atos emitidos."""


@cadastro.command("reconstruir")
@click.option("--apenas-verificar", "dry_run", is_flag=True,
              help="Só compara o cadastro gravado com o reconstruído; nada é gravado.")
@REGISTRY_OPTION
@shielded
def rebuild_command(dry_run: bool, registry_url: str | None) -> None:
    """Reconstrói o cadastro a partir dos atos emitidos e relata as diferenças."""
    with _registry(registry_url) as registry:
        diff = registry.rebuild_state(apply=not dry_run)
    click.echo(f"Atos percorridos: {diff.acts}.")
    if diff.same:
        click.echo("O cadastro gravado confere com o reconstruído a partir dos atos.")
        return
    for line in diff.only_stored:
        click.echo(f"  só no cadastro gravado: {line}")
    for line in diff.only_rebuilt:
        click.echo(f"  só no reconstruído:     {line}")
    click.echo("Diferenças encontradas: " + (
        "nada foi gravado (--apenas-verificar)." if dry_run
        else "o cadastro foi regravado a partir dos atos."))
    if dry_run:
        raise SystemExit(1)


@cadastro.command("mostrar")
@click.argument("key", metavar="PLACA|CPF|CNPJ|NÚMERO")
@click.option("--serie", "series", help="Série, quando o número se repete entre séries.")
@REGISTRY_OPTION
@shielded
def show_command(key: str, series: str | None, registry_url: str | None) -> None:
    """A situação atual e o histórico de um veículo, de uma pessoa ou de uma licença."""
    on = today()
    with _registry(registry_url) as registry:
        if has_placa_shape(key):
            click.echo(f"Veículo {key.upper()}")
            _licences(registry.licence_views(placa=key), on)
            _timeline(registry.state_changes(placa=key))
        elif has_cpf_shape(key) or has_cnpj_shape(key):
            names = registry.party_names(key)
            click.echo(f"{'CPF' if has_cpf_shape(key) else 'CNPJ'} {key}: "
                       + (" → ".join(names) if names else "sem nome registrado"))
            for scope, until, act in registry.bars_of(key, on):
                click.echo(f"  Impedimento ({scope}) até {until:%d/%m/%Y}, pelo {act}.")
            _licences(registry.licence_views(holder=key), on)
            _timeline(registry.state_changes(holder=key))
        else:
            record = registry.by_number(key, series=series)
            if record is None:
                raise InputError(f"Nada consta do registro sob «{key}».", field="/numero")
            view = registry.licence_of(record.id)
            if view is None:
                click.echo(f"{record.printed}: este ato não concede licença.")
            else:
                _licences((view,), on)
            _timeline(registry.state_changes(licence_document=record.id))


def _licences(views: Sequence[LicenceView], on: date) -> None:
    if not views:
        click.echo("  Nenhuma licença no cadastro.")
    for view in views:
        holder = view.holder_name or view.holder or "titular não identificado"
        until = "" if view.valid_until is None else f", válido até {view.valid_until:%d/%m/%Y}"
        click.echo(f"  {view.printed} ({holder}{until}): {view.describe(on)}.")


def _timeline(changes: Iterable[tuple[date, str, str]]) -> None:
    rows = list(changes)
    if rows:
        click.echo("Histórico:")
    for on, act, detail in rows:
        click.echo(f"  {on:%d/%m/%Y}  {act}: {detail}")
