"""The signing queue (lavra.registry.drafts): whom a forwarded draft goes to, who
forwarded it and when, and a draft a signer returned to the clerk, with the reason.

``drafts.signer_account`` names the one signer account the draft goes to (none: anyone
who signs in its role); ``forwarded_by``/``forwarded_at`` who handed it for signing;
``returned_reason``/``returned_by``/``returned_at`` the last return by a signer.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = ("signer_account", "forwarded_by", "forwarded_at", "returned_reason",
            "returned_by", "returned_at")


def upgrade() -> None:
    with op.batch_alter_table("drafts") as batch:
        batch.add_column(sa.Column("signer_account", sa.String(length=80), nullable=True))
        batch.add_column(sa.Column("forwarded_by", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("forwarded_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("returned_reason", sa.String(length=1000), nullable=True))
        batch.add_column(sa.Column("returned_by", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("returned_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_drafts_status_signer_role", "drafts", ["status", "signer_role"])


def downgrade() -> None:
    op.drop_index("ix_drafts_status_signer_role", table_name="drafts")
    with op.batch_alter_table("drafts") as batch:
        for name in reversed(_COLUMNS):
            batch.drop_column(name)
