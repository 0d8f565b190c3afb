"""Facts recorded on a document after its issue, and values staff keep over the pack.

``events`` gains ``occurred_at`` (when a recorded fact happened: a ciência, a notice
received, a payment) and ``data``; ``staff_values`` holds what an administrator
registers with the act that fixed it (a decreed day without expediente, a year's
corrected value), never deleted, only revoked.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("data", sa.JSON(), nullable=True))
    op.create_table(
        "staff_values",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        sa.Column("since", sa.Date(), nullable=True),
        sa.Column("until", sa.Date(), nullable=True),
        sa.Column("act", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=500), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_by", sa.String(length=500), nullable=True),
        sa.Column("revoke_reason", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "revoked_at IS NULL OR revoked_by IS NOT NULL",
            name=op.f("ck_staff_values_revoked_by"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_staff_values")),
    )
    op.create_index(op.f("ix_staff_values_kind"), "staff_values", ["kind"], unique=False)
    op.create_index(op.f("ix_staff_values_key"), "staff_values", ["key"], unique=False)
    op.create_index(
        "uq_staff_values_in_force", "staff_values", ["kind", "key", "since"], unique=True,
        sqlite_where=sa.text("revoked_at IS NULL"),
        postgresql_where=sa.text("revoked_at IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("uq_staff_values_in_force", table_name="staff_values")
    op.drop_index(op.f("ix_staff_values_key"), table_name="staff_values")
    op.drop_index(op.f("ix_staff_values_kind"), table_name="staff_values")
    op.drop_table("staff_values")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("data")
        batch.drop_column("occurred_at")
