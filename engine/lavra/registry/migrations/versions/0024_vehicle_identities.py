"""A RENAVAM on one plate, held by the database: the unique partial index
``uq_vehicles_renavam`` (``renavam IS NOT NULL``) replaces the plain index
``ix_vehicles_renavam``, so that two clerks recording two new plates with one RENAVAM
at the same moment cannot both commit (issue 22). The CNH already was: ``drivers.cnh``
is unique since 0006, and a driver row holds one person.

A registry that already holds one RENAVAM on several plates (two acts recorded at once
on PostgreSQL before this index) is resolved, not refused, with the reading of the
rebuild of the state (``lavra cadastro reconstruir``, which replays the acts in the
order they were issued): the vehicle recorded first keeps the RENAVAM, the later plates
stay in the view without it. The acts themselves are untouched (the RENAVAM typed in
each stays in its data). The view is marked to be built again from the acts the next
time the registry is opened with its pack, and that rebuild records on each later act
the divergência naming it and the rule, for staff to see in its timeline; the log says
which plates were found.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-06
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LOG = logging.getLogger("lavra.registry")
BUILT_KEY = "construido"  # lavra.registry.licensing.BUILT_KEY: the view was built

_vehicles = sa.table("vehicles", sa.column("id", sa.Integer), sa.column("placa", sa.String),
                     sa.column("renavam", sa.String))
_meta = sa.table("state_meta", sa.column("key", sa.String))
_WHERE = sa.text("renavam IS NOT NULL")


def _resolve_duplicates(connection: sa.Connection) -> None:
    """Leave each RENAVAM on the vehicle recorded first (module doc)."""
    shared = (sa.select(_vehicles.c.renavam).where(_vehicles.c.renavam.is_not(None))
              .group_by(_vehicles.c.renavam).having(sa.func.count() > 1))
    rows = connection.execute(
        sa.select(_vehicles.c.id, _vehicles.c.placa, _vehicles.c.renavam)
        .where(_vehicles.c.renavam.in_(shared)).order_by(_vehicles.c.renavam, _vehicles.c.id)
    ).all()
    if not rows:
        return
    kept: dict[str, str] = {}
    cleared: list[int] = []
    for ident, placa, renavam in rows:
        if renavam in kept:
            cleared.append(ident)
            LOG.warning(
                "Cadastro de veículos: o RENAVAM %s constava das placas %s e %s. Fica na "
                "placa %s, registrada primeiro; a placa %s fica sem RENAVAM até que um ato "
                "o informe. O cadastro será reconstruído a partir dos atos na próxima "
                "abertura do registro, com a divergência anotada no histórico do ato.",
                renavam, kept[renavam], placa, kept[renavam], placa)
        else:
            kept[renavam] = placa
    connection.execute(sa.update(_vehicles).where(_vehicles.c.id.in_(cleared))
                       .values(renavam=None))
    connection.execute(sa.delete(_meta).where(_meta.c.key == BUILT_KEY))


def upgrade() -> None:
    _resolve_duplicates(op.get_bind())
    op.drop_index("ix_vehicles_renavam", table_name="vehicles")
    op.create_index("uq_vehicles_renavam", "vehicles", ["renavam"], unique=True,
                    sqlite_where=_WHERE, postgresql_where=_WHERE)


def downgrade() -> None:
    op.drop_index("uq_vehicles_renavam", table_name="vehicles")
    op.create_index("ix_vehicles_renavam", "vehicles", ["renavam"])
