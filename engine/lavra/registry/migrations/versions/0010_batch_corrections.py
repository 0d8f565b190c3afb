"""Corrections of a batch item's data by staff, and the field an item's failure names.

``batch_corrections`` holds each field of a pending batch item's data that staff
corrected before resuming the run: the JSON pointer, the value before and after, the
failure it answered, who and when. ``batch_items.failed_field`` keeps the field the
item's last failure named, so that the run's page offers it for correction.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("batch_items") as batch:
        batch.add_column(sa.Column("failed_field", sa.String(length=500), nullable=True))
    op.create_table(
        "batch_corrections",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("pointer", sa.String(length=500), nullable=False),
        sa.Column("op", sa.String(length=12), nullable=False),
        sa.Column("previous", sa.JSON(), nullable=True),
        sa.Column("value", sa.JSON(), nullable=True),
        sa.Column("failure", sa.Text(), nullable=True),
        sa.Column("corrected_by", sa.String(length=200), nullable=False),
        sa.Column("corrected_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("op IN ('replace', 'remove')", name=op.f("ck_batch_corrections_op")),
        sa.ForeignKeyConstraint(["item_id"], ["batch_items.id"],
                                name=op.f("fk_batch_corrections_item_id_batch_items")),
        sa.ForeignKeyConstraint(["run_id"], ["batch_runs.id"],
                                name=op.f("fk_batch_corrections_run_id_batch_runs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_batch_corrections")),
    )
    op.create_index(op.f("ix_batch_corrections_item_id"), "batch_corrections", ["item_id"])
    op.create_index(op.f("ix_batch_corrections_run_id"), "batch_corrections", ["run_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_batch_corrections_run_id"), table_name="batch_corrections")
    op.drop_index(op.f("ix_batch_corrections_item_id"), table_name="batch_corrections")
    op.drop_table("batch_corrections")
    with op.batch_alter_table("batch_items") as batch:
        batch.drop_column("failed_field")
