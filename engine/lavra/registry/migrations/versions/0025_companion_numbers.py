"""Companion numbers: a number of another series reserved with an act issued one at a
time, for the act issued later that goes with it (a licence's numbered seal, as a pack
declares it; :mod:`lavra.registry.companions`).

``companion_numbers`` holds the number and the act it was reserved with (its series,
year and number); whether it was used or voided is read from ``documents`` and
``voided_numbers``, never stored twice.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "companion_numbers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("series", sa.String(length=40), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("principal_series", sa.String(length=40), nullable=False),
        sa.Column("principal_year", sa.Integer(), nullable=False),
        sa.Column("principal_number", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_companion_numbers")),
        sa.UniqueConstraint("series", "year", "number",
                            name=op.f("uq_companion_numbers_series_year_number")),
    )
    op.create_index("ix_companion_numbers_principal", "companion_numbers",
                    ["principal_series", "principal_year", "principal_number"])


def downgrade() -> None:
    op.drop_index("ix_companion_numbers_principal", table_name="companion_numbers")
    op.drop_table("companion_numbers")
