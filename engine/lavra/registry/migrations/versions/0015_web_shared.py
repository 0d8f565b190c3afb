"""What every web worker shares (lavra.registry.webshared): failed-attempt counters
(``web_attempts``) and the batch runs started from the web (``web_batch_jobs``).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "web_attempts",
        sa.Column("key", sa.String(length=160), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_web_attempts")),
    )
    op.create_index(op.f("ix_web_attempts_last_at"), "web_attempts", ["last_at"])
    op.create_table(
        "web_batch_jobs",
        sa.Column("token", sa.String(length=16), nullable=False),
        sa.Column("kind", sa.String(length=80), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("run_key", sa.String(length=300), nullable=False),
        sa.Column("simulate", sa.Boolean(), nullable=False),
        sa.Column("actor", sa.String(length=300), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("live_kind", sa.String(length=80), nullable=True),
        sa.Column("run_id", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("progress", sa.JSON(), nullable=True),
        sa.Column("summary", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("token", name=op.f("pk_web_batch_jobs")),
        sa.UniqueConstraint("live_kind", name=op.f("uq_web_batch_jobs_live_kind")),
    )
    op.create_index(op.f("ix_web_batch_jobs_run_id"), "web_batch_jobs", ["run_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_web_batch_jobs_run_id"), table_name="web_batch_jobs")
    op.drop_table("web_batch_jobs")
    op.drop_index(op.f("ix_web_attempts_last_at"), table_name="web_attempts")
    op.drop_table("web_attempts")
