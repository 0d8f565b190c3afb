"""Batch runs: a renewal planned once, and a claim through an index.

``batch_renewals`` holds what each run planned for each holder (its key, the holder,
the outcome), unique: the database decides that the same renewal (or notice) is
planned once, whatever the inputs or the processes racing (lavra.registry.once). The
runs already recorded fill it, the first run of each renewal keeping it.

``ix_batch_items_pending`` (partial, on the pending items in plan order) lets the claim
take one item without reading the items already done.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PENDING = sa.text("status = 'pending'")


def upgrade() -> None:
    op.create_table(
        "batch_renewals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("holder", sa.String(length=200), nullable=False),
        sa.Column("outcome", sa.String(length=40), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["batch_runs.id"],
                                name=op.f("fk_batch_renewals_run_id_batch_runs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_batch_renewals")),
        sa.UniqueConstraint("key", "holder", "outcome",
                            name=op.f("uq_batch_renewals_key_holder_outcome")),
    )
    op.create_index(op.f("ix_batch_renewals_run_id"), "batch_renewals", ["run_id"],
                    unique=False)
    op.execute(
        "INSERT INTO batch_renewals (key, holder, outcome, run_id, position) "
        "SELECT key, holder, outcome, run_id, position FROM ("
        " SELECT r.key, i.holder, i.outcome, i.run_id, i.position, ROW_NUMBER() OVER ("
        "  PARTITION BY r.key, i.holder, i.outcome ORDER BY i.run_id, i.position) AS n"
        " FROM batch_items i JOIN batch_runs r ON r.id = i.run_id"
        " WHERE i.role <> 'recusado') AS planned WHERE n = 1"
    )
    op.create_index("ix_batch_items_pending", "batch_items", ["run_id", "position", "seq"],
                    unique=False, sqlite_where=PENDING, postgresql_where=PENDING)


def downgrade() -> None:
    op.drop_index("ix_batch_items_pending", table_name="batch_items")
    op.drop_index(op.f("ix_batch_renewals_run_id"), table_name="batch_renewals")
    op.drop_table("batch_renewals")
