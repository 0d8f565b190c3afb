"""Filings counted by every web worker alike (``web_events``, the sliding window of
lavra.registry.webshared.SharedEvents).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "web_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.String(length=160), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_events")),
    )
    op.create_index("ix_web_events_key_at", "web_events", ["key", "at"])


def downgrade() -> None:
    op.drop_index("ix_web_events_key_at", table_name="web_events")
    op.drop_table("web_events")
