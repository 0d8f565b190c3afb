"""The facts a licence keeps in the state (``licences.facts``, JSON: pointer → value),
as the pack's effects declare them (a school alvará's vehicle type, licensing
municipality and year; its holder's inscription in the Cadastro de Atividades), so
that an act reading the licence later (the renewal run) finds what a transfer or a
change of vehicle stated, not only what the granting act named (issues 22 and 24).

The column starts empty. The facts come from the documents: the view is marked to be
built again from the acts the next time the registry is opened with its pack (as
0024 does), and that rebuild replays every issued and imported act with its effects,
so each licence gets the facts its acts stated, as ``lavra cadastro reconstruir``
would build them.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BUILT_KEY = "construido"  # lavra.registry.licensing.BUILT_KEY: the view was built

_meta = sa.table("state_meta", sa.column("key", sa.String))


def upgrade() -> None:
    op.add_column("licences", sa.Column("facts", sa.JSON(), nullable=True))
    op.get_bind().execute(sa.delete(_meta).where(_meta.c.key == BUILT_KEY))


def downgrade() -> None:
    op.drop_column("licences", "facts")
