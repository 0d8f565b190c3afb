"""The filing online a batch run's item answers (``batch_items.filing_id``).

While the item is pending, the run holds the filing: staff cannot prepare another act
for it in the inbox («Preparar ato»), and a run cannot plan one for a filing whose act
staff are preparing (:mod:`lavra.registry.filing_holds`). Null for the items of runs
planned before this revision and for those that answer no filing.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("batch_items") as batch:
        batch.add_column(sa.Column("filing_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_batch_items_filing_id_filings", "filings",
                                 ["filing_id"], ["id"])
        batch.create_index("ix_batch_items_filing_id", ["filing_id"])


def downgrade() -> None:
    with op.batch_alter_table("batch_items") as batch:
        batch.drop_index("ix_batch_items_filing_id")
        batch.drop_constraint("fk_batch_items_filing_id_filings", type_="foreignkey")
        batch.drop_column("filing_id")
