"""The changes of a person's name staff recorded, proven by the civil registry's
certidão (``party_name_changes``: the CPF, the new and the former name, the evidence,
who and on which day), from which a rebuild of the state reads them again
(:mod:`lavra.registry.name_records`).

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "party_name_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("doc", sa.String(length=14), nullable=False),
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column("previous", sa.String(length=300), nullable=False),
        sa.Column("evidence", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=200), nullable=False),
        sa.Column("recorded_on", sa.Date(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_party_name_changes")),
    )
    op.create_index(op.f("ix_party_name_changes_doc"), "party_name_changes", ["doc"])


def downgrade() -> None:
    op.drop_index(op.f("ix_party_name_changes_doc"), table_name="party_name_changes")
    op.drop_table("party_name_changes")
