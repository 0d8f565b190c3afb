"""Drafts staff keep before issuing (lavra.registry.drafts).

``drafts`` holds the form, the data as typed, the title staff see, who created and
last changed it and when, the status (rascunho, encaminhado, emitido, descartado), the
signer role it goes to, the document issued from it, and the version an update names.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "drafts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("form", sa.String(length=100), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("signer_role", sa.String(length=100), nullable=True),
        sa.Column("document_id", sa.Integer(), nullable=True),
        sa.Column("created_by", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.String(length=200), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "status IN ('rascunho', 'encaminhado', 'emitido', 'descartado')",
            name=op.f("ck_drafts_status")),
        sa.CheckConstraint("version > 0", name=op.f("ck_drafts_version_positive")),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"],
                                name=op.f("fk_drafts_document_id_documents")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_drafts")),
    )
    op.create_index("ix_drafts_status_form", "drafts", ["status", "form"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_drafts_status_form", table_name="drafts")
    op.drop_table("drafts")
