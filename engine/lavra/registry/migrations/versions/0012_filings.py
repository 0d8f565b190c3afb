"""Requerimentos filed online and their attachments (lavra.registry.filings).

``filings`` holds each requerimento filed: its protocol number (the number of its
receipt in the protocol series; the receipt is a document of the registry), the form,
the data as filed, the applicant's CPF/CNPJ and name, when, the status, whether the
report called it complete and what it left pending, and the processo it opened, tied
to the party and, where the requerimento names one, to the licence.
``filing_attachments`` holds the documents attached, bytes included (in the database,
so that every web worker and machine reads the same files).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "filings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("receipt_id", sa.Integer(), nullable=False),
        sa.Column("protocol", sa.String(length=80), nullable=False),
        sa.Column("form", sa.String(length=100), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("cpf_cnpj", sa.String(length=14), nullable=False),
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column("filed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("pending", sa.JSON(), nullable=False),
        sa.Column("processo_id", sa.Integer(), nullable=False),
        sa.Column("party_id", sa.Integer(), nullable=False),
        sa.Column("licence_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("status IN ('recebido')", name=op.f("ck_filings_status")),
        sa.ForeignKeyConstraint(["receipt_id"], ["documents.id"],
                                name=op.f("fk_filings_receipt_id_documents")),
        sa.ForeignKeyConstraint(["processo_id"], ["processos.id"],
                                name=op.f("fk_filings_processo_id_processos")),
        sa.ForeignKeyConstraint(["party_id"], ["parties.id"],
                                name=op.f("fk_filings_party_id_parties")),
        sa.ForeignKeyConstraint(["licence_id"], ["licences.id"],
                                name=op.f("fk_filings_licence_id_licences")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_filings")),
        sa.UniqueConstraint("receipt_id", name=op.f("uq_filings_receipt_id")),
        sa.UniqueConstraint("protocol", name=op.f("uq_filings_protocol")),
    )
    for column in ("form", "cpf_cnpj", "processo_id", "party_id", "licence_id"):
        op.create_index(op.f(f"ix_filings_{column}"), "filings", [column])
    op.create_table(
        "filing_attachments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("filing_id", sa.Integer(), nullable=False),
        sa.Column("item", sa.String(length=300), nullable=False),
        sa.Column("original_name", sa.String(length=255), nullable=False),
        sa.Column("content_type", sa.String(length=40), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.CheckConstraint("size > 0", name=op.f("ck_filing_attachments_size_positive")),
        sa.ForeignKeyConstraint(["filing_id"], ["filings.id"],
                                name=op.f("fk_filing_attachments_filing_id_filings")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_filing_attachments")),
    )
    op.create_index(op.f("ix_filing_attachments_filing_id"), "filing_attachments",
                    ["filing_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_filing_attachments_filing_id"), table_name="filing_attachments")
    op.drop_table("filing_attachments")
    for column in ("licence_id", "party_id", "processo_id", "cpf_cnpj", "form"):
        op.drop_index(op.f(f"ix_filings_{column}"), table_name="filings")
    op.drop_table("filings")
