"""Indexes for lookups that walked a whole table: a document by its number and year
without the series (``documents``), and the licences of a kind by their last day
(``licences``: the holders a renewal run takes).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_documents_number_year", "documents", ["number", "year"])
    op.create_index("ix_licences_kind_valid_until", "licences", ["kind", "valid_until"])


def downgrade() -> None:
    op.drop_index("ix_licences_kind_valid_until", table_name="licences")
    op.drop_index("ix_documents_number_year", table_name="documents")
