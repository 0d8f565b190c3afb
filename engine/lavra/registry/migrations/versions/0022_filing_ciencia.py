"""The ciência of the refusal of a filing's attachments (lavra.registry.inbox): when the
period to supply what is missing runs from it, ``filing_progress`` keeps when the
applicant took ciência, by what means and who recorded it; the last day
(``filing_progress.deadline``) is then counted from it.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("filing_progress") as batch:
        batch.add_column(sa.Column("ciencia_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("ciencia_means", sa.String(length=20), nullable=True))
        batch.add_column(sa.Column("ciencia_by", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("filing_progress") as batch:
        batch.drop_column("ciencia_by")
        batch.drop_column("ciencia_means")
        batch.drop_column("ciencia_at")
