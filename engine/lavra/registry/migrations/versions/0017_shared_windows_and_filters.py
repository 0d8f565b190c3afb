"""Filings counted by every web worker alike (``web_events``, the sliding window of
lavra.registry.webshared.SharedEvents), and the registry page's year-only and signer
filters served by an index: ``documents.year`` indexed, and ``documents.signer_name``
(the certificate's CN, filled from ``signer_subject`` for the documents already
issued) with its index.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from lavra.registry.records import subject_cn

revision: str = "0017"
down_revision: str | None = "0016"
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
    with op.batch_alter_table("documents") as batch:
        batch.add_column(sa.Column("signer_name", sa.String(length=500), nullable=True))
    documents = sa.table("documents", sa.column("id", sa.Integer),
                         sa.column("signer_subject", sa.String),
                         sa.column("signer_name", sa.String))
    connection = op.get_bind()
    rows = connection.execute(sa.select(documents.c.id, documents.c.signer_subject)).all()
    for ident, subject in rows:
        name = subject_cn(subject or "")
        if name is not None:
            connection.execute(sa.update(documents).where(documents.c.id == ident)
                               .values(signer_name=name))
    op.create_index(op.f("ix_documents_signer_name"), "documents", ["signer_name"])
    op.create_index(op.f("ix_documents_year"), "documents", ["year"])


def downgrade() -> None:
    op.drop_index(op.f("ix_documents_year"), table_name="documents")
    op.drop_index(op.f("ix_documents_signer_name"), table_name="documents")
    with op.batch_alter_table("documents") as batch:
        batch.drop_column("signer_name")
    op.drop_index("ix_web_events_key_at", table_name="web_events")
    op.drop_table("web_events")
