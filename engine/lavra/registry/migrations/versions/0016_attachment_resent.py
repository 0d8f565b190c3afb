"""A document sent again by the applicant in place of one the staff refused.

``filing_attachments.replaces_id``: the attachment this one replaces (the refused one;
null for the documents sent with the filing); ``filing_attachments.sent_at``: when a
replacement was received (null for the documents sent with the filing, which were
received at the filing's moment).

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
    with op.batch_alter_table("filing_attachments") as batch:
        batch.add_column(sa.Column("replaces_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_foreign_key("fk_filing_attachments_replaces_id_filing_attachments",
                                 "filing_attachments", ["replaces_id"], ["id"])
        batch.create_index("ix_filing_attachments_replaces_id", ["replaces_id"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("filing_attachments") as batch:
        batch.drop_index("ix_filing_attachments_replaces_id")
        batch.drop_constraint("fk_filing_attachments_replaces_id_filing_attachments",
                              type_="foreignkey")
        batch.drop_column("sent_at")
        batch.drop_column("replaces_id")
