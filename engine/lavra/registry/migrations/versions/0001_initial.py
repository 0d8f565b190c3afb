"""Registry of issued documents: documents, counters, events.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "documents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("series", sa.String(length=40), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("form", sa.String(length=120), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("computed", sa.JSON(), nullable=False),
        sa.Column("reference_date", sa.Date(), nullable=False),
        sa.Column("valid_until", sa.Date(), nullable=True),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("verification_code", sa.String(length=64), nullable=False),
        sa.Column("signer_subject", sa.String(length=500), nullable=False),
        sa.Column("signer_serial", sa.String(length=100), nullable=False),
        sa.Column("pack_version", sa.String(length=100), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("cancel_reason", sa.Text(), nullable=True),
        sa.Column("cancelled_by", sa.String(length=200), nullable=True),
        sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("idempotency_key", sa.String(length=200), nullable=True),
        sa.Column("request_sha256", sa.String(length=64), nullable=True),
        sa.Column("pdf", sa.LargeBinary(), nullable=False),
        sa.Column("docx", sa.LargeBinary(), nullable=True),
        sa.Column("cpf_cnpj", sa.String(length=14), nullable=True),
        sa.Column("placa", sa.String(length=7), nullable=True),
        sa.CheckConstraint("status IN ('issued', 'cancelled')", name=op.f("ck_documents_status")),
        sa.CheckConstraint("number > 0", name=op.f("ck_documents_number_positive")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_documents")),
        sa.UniqueConstraint(
            "series", "year", "number", name=op.f("uq_documents_series_year_number")
        ),
        sa.UniqueConstraint("verification_code", name=op.f("uq_documents_verification_code")),
        sa.UniqueConstraint("idempotency_key", name=op.f("uq_documents_idempotency_key")),
    )
    for column in ("form", "reference_date", "valid_until", "issued_at", "cpf_cnpj", "placa"):
        op.create_index(op.f(f"ix_documents_{column}"), "documents", [column], unique=False)

    op.create_table(
        "counters",
        sa.Column("series", sa.String(length=40), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("last_number", sa.Integer(), nullable=False),
        sa.CheckConstraint("last_number >= 0", name=op.f("ck_counters_last_number_not_negative")),
        sa.PrimaryKeyConstraint("series", "year", name=op.f("pk_counters")),
    )

    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("actor", sa.String(length=500), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["document_id"], ["documents.id"], name=op.f("fk_events_document_id_documents")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
    )
    op.create_index(op.f("ix_events_document_id"), "events", ["document_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_events_document_id"), table_name="events")
    op.drop_table("events")
    op.drop_table("counters")
    for column in ("placa", "cpf_cnpj", "issued_at", "valid_until", "reference_date", "form"):
        op.drop_index(op.f(f"ix_documents_{column}"), table_name="documents")
    op.drop_table("documents")
