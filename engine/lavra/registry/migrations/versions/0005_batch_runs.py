"""Batch runs: a run planned once (which document and which number each holder gets),
then worked through item by item, resumable after any interruption.

``batch_runs`` holds one planned run (its kind, the key that names it, e.g. the year
it renews, the fingerprint of its inputs, its reference date); ``batch_items`` holds
one row per output of the run, in the order of the input: a document numbered by the
plan (``series``/``year``/``number``, unique across runs, so that no number is ever
reserved twice), an unsigned companion file (its bytes in ``content``), or a record
refused with its reason. ``document_id`` points to the issued document once recorded.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "batch_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=80), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("reference_date", sa.Date(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("actor", sa.String(length=500), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('planned', 'done')", name=op.f("ck_batch_runs_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_batch_runs")),
    )
    op.create_index(op.f("ix_batch_runs_key"), "batch_runs", ["key"], unique=False)
    op.create_table(
        "batch_items",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("holder", sa.String(length=200), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("outcome", sa.String(length=40), nullable=False),
        sa.Column("role", sa.String(length=12), nullable=False),
        sa.Column("form", sa.String(length=120), nullable=True),
        sa.Column("series", sa.String(length=40), nullable=True),
        sa.Column("year", sa.Integer(), nullable=True),
        sa.Column("number", sa.Integer(), nullable=True),
        sa.Column("data", sa.JSON(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("file", sa.String(length=200), nullable=True),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=True),
        sa.Column("content", sa.LargeBinary(), nullable=True),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('pending', 'done')", name=op.f("ck_batch_items_status")),
        sa.CheckConstraint(
            "role IN ('documento', 'anexo', 'recusado')", name=op.f("ck_batch_items_role")
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["batch_runs.id"], name=op.f("fk_batch_items_run_id_batch_runs")
        ),
        sa.ForeignKeyConstraint(
            ["document_id"], ["documents.id"],
            name=op.f("fk_batch_items_document_id_documents"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_batch_items")),
        sa.UniqueConstraint(
            "run_id", "position", "seq", name=op.f("uq_batch_items_run_id_position_seq")
        ),
        sa.UniqueConstraint(
            "series", "year", "number", name=op.f("uq_batch_items_series_year_number")
        ),
    )
    op.create_index(op.f("ix_batch_items_run_id"), "batch_items", ["run_id"], unique=False)
    op.create_index(op.f("ix_batch_items_status"), "batch_items", ["status"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_batch_items_status"), table_name="batch_items")
    op.drop_index(op.f("ix_batch_items_run_id"), table_name="batch_items")
    op.drop_table("batch_items")
    op.drop_index(op.f("ix_batch_runs_key"), table_name="batch_runs")
    op.drop_table("batch_runs")
