"""The licences of one holder of one kind by an index of both (issue 24): a check that
asks for a holder's licences of one kind (a company's registration among its alvarás)
walked every licence of the holder through ``ix_licences_holder_id``, its whole fleet,
per document. The new index leads with the holder, so it replaces the old one.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_licences_holder_id_kind", "licences", ["holder_id", "kind"])
    op.drop_index("ix_licences_holder_id", table_name="licences")


def downgrade() -> None:
    op.create_index("ix_licences_holder_id", "licences", ["holder_id"])
    op.drop_index("ix_licences_holder_id_kind", table_name="licences")
