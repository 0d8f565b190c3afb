"""The municipality's PA number linked to a processo (``processos.pa``, unique: one PA
belongs to one processo) and the links staff made, with who and when
(``processo_links``), from which a rebuild of the state reads the PA again.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("processos") as batch:
        batch.add_column(sa.Column("pa", sa.String(length=80), nullable=True))
        batch.create_unique_constraint("uq_processos_pa", ["pa"])
    op.create_table(
        "processo_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("processo_id", sa.Integer(), nullable=False),
        sa.Column("pa", sa.String(length=80), nullable=False),
        sa.Column("linked_by", sa.String(length=200), nullable=False),
        sa.Column("linked_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["processo_id"], ["processos.id"],
                                name=op.f("fk_processo_links_processo_id_processos")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_processo_links")),
    )
    op.create_index(op.f("ix_processo_links_processo_id"), "processo_links",
                    ["processo_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_processo_links_processo_id"), table_name="processo_links")
    op.drop_table("processo_links")
    with op.batch_alter_table("processos") as batch:
        batch.drop_constraint("uq_processos_pa", type_="unique")
        batch.drop_column("pa")
