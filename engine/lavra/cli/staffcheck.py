"""``lavra check`` and ``lavra draft`` as staff read them before signing: with the
configured registry as the case history (the licensing state: a cassação's bar, a
licence in force, a fine the registry holds as paid), as ``lavra issue`` will judge, so
that the same items, with the same article, appear before anything is numbered
(:meth:`lavra.issuing.Issuer.check`): the dispatch is :mod:`lavra.staffcheck`'s, this
module finds the registry and says when there is none.

Where no registry exists (no ``LAVRA_DATABASE_URL`` nor ``banco``, no SQLite file in the
data folder) none is created as a side effect: the engine checks alone and the output
says so (:data:`NOT_CONSULTED`), so that no one reads «COMPLETO» as checked against the
state.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from lavra.config import Config, load_config
from lavra.staffcheck import StaffChecker as EngineStaffChecker

__all__ = ["NOT_CONSULTED", "StaffChecker", "registry_exists", "staff_checker"]

NOT_CONSULTED = (
    "Cadastro não consultado: esta instalação não tem registro. O relatório não considera "
    "cassações, licenças em vigor nem multas registradas, que a emissão verifica."
)


def registry_exists(config: Config) -> bool:
    """Whether the registry :meth:`lavra.issuing.Issuer.from_config` would open exists
    already: a database named (it is the installation's), or the data folder's SQLite
    file. Asking never creates one."""
    from lavra.registry.database import DATABASE_URL_ENV, SQLITE_FILE

    if config.database_url or os.environ.get(DATABASE_URL_ENV, "").strip():
        return True
    return (Path(config.data_dir) / SQLITE_FILE).is_file()


class StaffChecker(EngineStaffChecker):
    """The engine's staff checker (:class:`lavra.staffcheck.StaffChecker`), saying on
    the command line when the registry was not read."""

    @property
    def unchecked(self) -> str | None:
        """What the output says of the registry it did not read (None: it read it)."""
        return None if self.consulted else NOT_CONSULTED

    def say_unchecked(self) -> None:
        """The «não consultado» line, when the registry was not read."""
        if self.unchecked is not None:
            click.echo(self.unchecked)


@contextmanager
def staff_checker(config: Config | None = None) -> Iterator[StaffChecker]:
    """The configured registry's checker (closed afterwards), or the engine's alone."""
    config = config or load_config()
    if not registry_exists(config):
        from lavra.cli.values import with_staff_values
        from lavra.documents import Engine

        yield StaffChecker(with_staff_values(Engine.from_config(config)), None)
        return
    from lavra.issuing import Issuer

    issuer = Issuer.from_config(config)
    try:
        yield StaffChecker(issuer.engine, issuer)
    finally:
        issuer.close()
