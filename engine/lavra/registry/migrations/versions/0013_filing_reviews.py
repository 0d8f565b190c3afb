"""The staff inbox of filed requerimentos (lavra.registry.inbox): the review of each
attachment, where the handling stands, and the statuses that follow «recebido».

``filing_reviews`` keeps every review of an attachment (accepted or refused, the
reason, who and when; a refusal always has its reason). ``filing_progress`` holds, per
filing, what is missing and the last day to supply it (while pendente), the draft of
the act prepared from it and the act that decided it. ``filings.status`` admits
``em_analise``, ``pendente`` and ``decidido`` besides ``recebido``.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_STATUSES = "status IN ('recebido', 'em_analise', 'pendente', 'decidido')"


def upgrade() -> None:
    with op.batch_alter_table("filings") as batch:
        batch.drop_constraint(op.f("ck_filings_status"), type_="check")
        batch.create_check_constraint(op.f("ck_filings_status"), _STATUSES)
    op.create_table(
        "filing_reviews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("filing_id", sa.Integer(), nullable=False),
        sa.Column("attachment_id", sa.Integer(), nullable=False),
        sa.Column("decision", sa.String(length=20), nullable=False),
        sa.Column("reason", sa.String(length=1000), nullable=True),
        sa.Column("reviewed_by", sa.String(length=200), nullable=False),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("decision IN ('aceito', 'recusado')",
                           name=op.f("ck_filing_reviews_decision")),
        sa.CheckConstraint("decision = 'aceito' OR reason IS NOT NULL",
                           name=op.f("ck_filing_reviews_refusal_reason")),
        sa.ForeignKeyConstraint(["filing_id"], ["filings.id"],
                                name=op.f("fk_filing_reviews_filing_id_filings")),
        sa.ForeignKeyConstraint(
            ["attachment_id"], ["filing_attachments.id"],
            name=op.f("fk_filing_reviews_attachment_id_filing_attachments")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_filing_reviews")),
    )
    op.create_index(op.f("ix_filing_reviews_filing_id"), "filing_reviews", ["filing_id"])
    op.create_index(op.f("ix_filing_reviews_attachment_id"), "filing_reviews",
                    ["attachment_id"])
    op.create_table(
        "filing_progress",
        sa.Column("filing_id", sa.Integer(), nullable=False),
        sa.Column("missing", sa.JSON(), nullable=False),
        sa.Column("deadline", sa.Date(), nullable=True),
        sa.Column("draft_id", sa.Integer(), nullable=True),
        sa.Column("act_id", sa.Integer(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_by", sa.String(length=200), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["filing_id"], ["filings.id"],
                                name=op.f("fk_filing_progress_filing_id_filings")),
        sa.ForeignKeyConstraint(["draft_id"], ["drafts.id"],
                                name=op.f("fk_filing_progress_draft_id_drafts")),
        sa.ForeignKeyConstraint(["act_id"], ["documents.id"],
                                name=op.f("fk_filing_progress_act_id_documents")),
        sa.PrimaryKeyConstraint("filing_id", name=op.f("pk_filing_progress")),
    )
    op.create_index(op.f("ix_filing_progress_draft_id"), "filing_progress", ["draft_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_filing_progress_draft_id"), table_name="filing_progress")
    op.drop_table("filing_progress")
    op.drop_index(op.f("ix_filing_reviews_attachment_id"), table_name="filing_reviews")
    op.drop_index(op.f("ix_filing_reviews_filing_id"), table_name="filing_reviews")
    op.drop_table("filing_reviews")
    op.execute("UPDATE filings SET status = 'recebido'")
    with op.batch_alter_table("filings") as batch:
        batch.drop_constraint(op.f("ck_filings_status"), type_="check")
        batch.create_check_constraint(op.f("ck_filings_status"), "status IN ('recebido')")
