"""Numbers voided by a recorded act (numeração inutilizada), and abandoned batch items.

``voided_numbers`` holds each number taken from a series counter that will never be
issued (a batch run reserved it, then the item was abandoned), with the reason, who
decided and when: with ``documents`` it explains every number up to the counter.
``batch_items.status`` gains ``abandoned``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "voided_numbers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("series", sa.String(length=40), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("voided_by", sa.String(length=200), nullable=False),
        sa.Column("voided_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("number > 0", name=op.f("ck_voided_numbers_number_positive")),
        sa.ForeignKeyConstraint(["run_id"], ["batch_runs.id"],
                                name=op.f("fk_voided_numbers_run_id_batch_runs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_voided_numbers")),
        sa.UniqueConstraint("series", "year", "number",
                            name=op.f("uq_voided_numbers_series_year_number")),
    )
    op.create_index(op.f("ix_voided_numbers_run_id"), "voided_numbers", ["run_id"])
    with op.batch_alter_table("batch_items") as batch:
        batch.drop_constraint(op.f("ck_batch_items_status"), type_="check")
        batch.create_check_constraint(
            "status", sa.text("status IN ('pending', 'done', 'abandoned')"))


def downgrade() -> None:
    with op.batch_alter_table("batch_items") as batch:
        batch.drop_constraint(op.f("ck_batch_items_status"), type_="check")
        batch.create_check_constraint("status", sa.text("status IN ('pending', 'done')"))
    op.drop_index(op.f("ix_voided_numbers_run_id"), table_name="voided_numbers")
    op.drop_table("voided_numbers")
