"""``lavra valores``: the days and yearly values staff register, with the act, who and when.

    lavra valores dia adicionar 16/03/2026 --tipo ponto_facultativo --nome "Ponto facultativo" \\
        --ato "Decreto nº 12.345, de 10 de março de 2026" --por "Ana Administradora"
    lavra valores dia listar
    lavra valores multa adicionar lei.multa 2027 "294,00" --ato "..." --por "..."
    lavra valores dia revogar 3 --motivo "Decreto tornado sem efeito" --por "..."

A thin shell over :mod:`lavra.registry.staff_values`; the registry is the configured one
(``LAVRA_DATABASE_URL`` or the data folder's) unless ``--registro URL`` names another.
:func:`with_staff_values` makes the CLI's drafts and checks read the same values.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from lavra.cli.support import shielded
from lavra.config import load_config
from lavra.documents import Engine
from lavra.errors import LavraError
from lavra.law.overlay import EMPTY_OVERLAY, StaffOverlay
from lavra.registry.database import DATABASE_URL_ENV, SQLITE_FILE, database_url
from lavra.registry.staff_values import DAY_KINDS, StaffKind, StaffValue
from lavra.registry.store import Registry, open_registry
from lavra.staff import RegistryStaffValues, add_staff_parameter, settable_parameters

__all__ = ["configured_staff_values", "values", "with_staff_values"]

_REGISTRY = click.option("--registro", "url", metavar="URL",
                         help="Registro a usar (padrão: o da configuração).")
_BY = click.option("--por", "by", required=True, metavar="NOME",
                   help="Quem cadastra ou revoga (o registro guarda o nome e a hora).")


def _open(url: str | None) -> Registry:
    return open_registry(url or database_url(load_config().data_dir))


def _has_registry() -> bool:
    import os

    if os.environ.get(DATABASE_URL_ENV, "").strip():
        return True
    return (Path(load_config().data_dir) / SQLITE_FILE).is_file()


def configured_staff_values() -> Callable[[], StaffOverlay]:
    """The configured registry's staff values; none when there is no registry yet."""
    if not _has_registry():
        return lambda: EMPTY_OVERLAY
    return RegistryStaffValues(_open(None))


def with_staff_values(engine: Engine) -> Engine:
    """``engine`` reading the configured registry's staff values (drafts, checks)."""
    engine.use_staff_values(configured_staff_values())
    return engine


def _line(value: StaffValue) -> str:
    recorded = value.recorded_at.astimezone(_zone()).strftime("%d/%m/%Y %H:%M")
    text = (f"nº {value.id}  {value.describe} — {value.act}; cadastrado por "
            f"{value.recorded_by} em {recorded}")
    if value.revoked_at is not None:
        revoked = value.revoked_at.astimezone(_zone()).strftime("%d/%m/%Y %H:%M")
        text += f"; REVOGADO em {revoked} por {value.revoked_by}: {value.revoke_reason}"
    return text


def _zone() -> Any:
    from lavra.inputs.reading import TIMEZONE

    return TIMEZONE


def _list(kind: StaffKind, url: str | None, everything: bool) -> None:
    with _open(url) as registry:
        found = registry.staff_values(kind, include_revoked=everything)
    if not found:
        click.echo("Nenhum cadastro.")
    for value in found:
        click.echo(_line(value))


def _revoke(kind: StaffKind, ident: int, reason: str, by: str, url: str | None) -> None:
    with _open(url) as registry:
        known = {v.id: v for v in registry.staff_values(kind)}
        if ident not in known:
            raise LavraError(f"Cadastro nº {ident} não encontrado entre os "
                             f"{'dias' if kind is StaffKind.DAY else 'valores'} cadastrados.")
        click.echo(f"Revogado: {_line(registry.revoke_staff_value(ident, reason=reason, by=by))}")


@click.group("valores")
def values() -> None:
    """Dias sem expediente e valores anuais cadastrados pela administração."""


@values.group("dia")
def day_group() -> None:
    """Feriados e pontos facultativos decretados (Lei nº 9.784/1999, art. 66, § 1º)."""


@day_group.command("adicionar")
@click.argument("data", metavar="DATA")
@click.option("--tipo", "kind", required=True, type=click.Choice(sorted(DAY_KINDS)),
              help="feriado ou ponto_facultativo.")
@click.option("--nome", "name", required=True, help="Nome do dia (ex.: Ponto facultativo).")
@click.option("--ato", "act", required=True,
              help="O decreto, com número e data (ex.: Decreto nº 12.345, de 1º de junho "
                   "de 2026).")
@_BY
@_REGISTRY
@shielded
def day_add(data: str, kind: str, name: str, act: str, by: str, url: str | None) -> None:
    """Cadastra a DATA (DD/MM/AAAA) como dia sem expediente; vale para o próximo documento."""
    with _open(url) as registry:
        value = registry.add_staff_day(data, kind, name, act=act, by=by)
    click.echo(f"Cadastrado: {_line(value)}")


@values.group("multa")
def value_group() -> None:
    """Valores anuais: multas corrigidas e outros parâmetros que o pacote deixa cadastrar."""


@value_group.command("adicionar")
@click.argument("parametro", metavar="PARÂMETRO")
@click.argument("ano", metavar="ANO")
@click.argument("valor", metavar="VALOR")
@click.option("--ato", "act", required=True,
              help="O ato que fixou o valor, com número e data.")
@_BY
@_REGISTRY
@shielded
def value_add(parametro: str, ano: str, valor: str, act: str, by: str, url: str | None) -> None:
    """Cadastra o VALOR (ex.: 294,00) do PARÂMETRO para o ANO (1º/1 a 31/12)."""
    parameters = Engine.from_config().content.parameters
    with _open(url) as registry:
        value = add_staff_parameter(registry, parameters, parametro, ano, valor, act=act,
                                    by=by)
    click.echo(f"Cadastrado: {_line(value)}")


def _list_and_revoke(group: click.Group, kind: StaffKind,
                     after_list: Callable[[], None] = lambda: None) -> None:
    """The ``listar`` and ``revogar`` commands of ``group`` (days or yearly values)."""

    @group.command("listar")
    @click.option("--todos", "everything", is_flag=True, help="Inclui os revogados.")
    @_REGISTRY
    @shielded
    def listing(everything: bool, url: str | None) -> None:
        """Lista os cadastros em vigor (com --todos, também os revogados)."""
        _list(kind, url, everything)
        after_list()

    @group.command("revogar")
    @click.argument("ident", metavar="NÚMERO", type=int)
    @click.option("--motivo", "reason", required=True, help="Por que o cadastro é revogado.")
    @_BY
    @_REGISTRY
    @shielded
    def revoking(ident: int, reason: str, by: str, url: str | None) -> None:
        """Revoga o cadastro NÚMERO: ele permanece no registro e deixa de contar."""
        _revoke(kind, ident, reason, by, url)


def _settable_list() -> None:
    settable = settable_parameters(Engine.from_config().content.parameters)
    click.echo("Parâmetros que a administração cadastra: "
               + ("; ".join(f"{k} ({v})" for k, v in sorted(settable.items())) or "nenhum")
               + ".")


_list_and_revoke(day_group, StaffKind.DAY)
_list_and_revoke(value_group, StaffKind.PARAMETER, _settable_list)
