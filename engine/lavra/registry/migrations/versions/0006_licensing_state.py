"""The licensing state: parties (and the names they were registered under), vehicles,
drivers, licences with their status, bars, processos, and the changes each act made.

The view is derived from the issued acts by the content pack's effects, which this
migration cannot run (a migration knows no pack): it creates the tables empty, and
the registry builds the view from the documents already issued the first time it is
opened with a pack (``state_meta`` then records that it was built; see
lavra.registry.licensing). ``lavra cadastro reconstruir`` rebuilds it at any time.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}")
    )


def _index(table: str, *columns: str, unique: bool = False) -> None:
    op.create_index(op.f(f"ix_{table}_{columns[0]}"), table, list(columns), unique=unique)


def upgrade() -> None:
    # Acts from before lavra, imported with where they came from (their PDF is empty).
    op.add_column("documents", sa.Column("origin", sa.Text(), nullable=True))
    op.create_table(
        "parties",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("doc", sa.String(length=14), nullable=False),
        sa.Column("name", sa.String(length=300), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_parties")),
        sa.UniqueConstraint("doc", name=op.f("uq_parties_doc")),
    )
    op.create_table(
        "party_names",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("party_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=True),
        sa.Column("since", sa.Date(), nullable=True),
        _fk("party_names", "party_id", "parties"),
        _fk("party_names", "document_id", "documents"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_party_names")),
        sa.UniqueConstraint("party_id", "name", name=op.f("uq_party_names_party_id_name")),
    )
    _index("party_names", "party_id")
    op.create_table(
        "vehicles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("placa", sa.String(length=7), nullable=False),
        sa.Column("renavam", sa.String(length=11), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vehicles")),
        sa.UniqueConstraint("placa", name=op.f("uq_vehicles_placa")),
    )
    _index("vehicles", "renavam")
    op.create_table(
        "drivers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("cnh", sa.String(length=20), nullable=False),
        sa.Column("party_id", sa.Integer(), nullable=True),
        _fk("drivers", "party_id", "parties"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_drivers")),
        sa.UniqueConstraint("cnh", name=op.f("uq_drivers_cnh")),
    )
    _index("drivers", "party_id")
    op.create_table(
        "licences",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=120), nullable=False),
        sa.Column("printed", sa.String(length=80), nullable=False),
        sa.Column("holder_id", sa.Integer(), nullable=True),
        sa.Column("vehicle_id", sa.Integer(), nullable=True),
        sa.Column("driver_id", sa.Integer(), nullable=True),
        sa.Column("base_id", sa.Integer(), nullable=True),
        sa.Column("valid_from", sa.Date(), nullable=False),
        sa.Column("valid_until", sa.Date(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("status_document_id", sa.Integer(), nullable=True),
        sa.Column("status_since", sa.Date(), nullable=True),
        sa.Column("exclusive", sa.String(length=60), nullable=True),
        sa.Column("per_holder", sa.String(length=60), nullable=True),
        _fk("licences", "document_id", "documents"),
        _fk("licences", "holder_id", "parties"),
        _fk("licences", "vehicle_id", "vehicles"),
        _fk("licences", "driver_id", "drivers"),
        _fk("licences", "base_id", "licences"),
        _fk("licences", "status_document_id", "documents"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_licences")),
        sa.UniqueConstraint("document_id", name=op.f("uq_licences_document_id")),
    )
    for column in ("kind", "holder_id", "vehicle_id", "driver_id", "base_id", "status"):
        _index("licences", column)
    # One licence in force per vehicle in its group, and per holder in its group.
    for name, columns, group in (
        ("uq_licences_vehicle_in_force", ["vehicle_id", "exclusive"], "exclusive"),
        ("uq_licences_holder_in_force", ["holder_id", "per_holder"], "per_holder"),
    ):
        where = sa.text(f"status = 'active' AND {group} IS NOT NULL")
        op.create_index(name, "licences", columns, unique=True, sqlite_where=where,
                        postgresql_where=where)
    op.create_table(
        "bars",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("party_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=60), nullable=False),
        sa.Column("until", sa.Date(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("citation", sa.String(length=200), nullable=True),
        _fk("bars", "party_id", "parties"),
        _fk("bars", "document_id", "documents"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bars")),
    )
    _index("bars", "party_id")
    _index("bars", "document_id")
    op.create_table(
        "processos",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("numero", sa.String(length=80), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_processos")),
        sa.UniqueConstraint("numero", name=op.f("uq_processos_numero")),
    )
    op.create_table(
        "processo_acts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("processo_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        _fk("processo_acts", "processo_id", "processos"),
        _fk("processo_acts", "document_id", "documents"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_processo_acts")),
        sa.UniqueConstraint("processo_id", "document_id",
                            name=op.f("uq_processo_acts_processo_id_document_id")),
    )
    _index("processo_acts", "processo_id")
    _index("processo_acts", "document_id")
    op.create_table(
        "state_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("licence_id", sa.Integer(), nullable=True),
        sa.Column("party_id", sa.Integer(), nullable=True),
        sa.Column("vehicle_id", sa.Integer(), nullable=True),
        sa.Column("on", sa.Date(), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        _fk("state_changes", "document_id", "documents"),
        _fk("state_changes", "licence_id", "licences"),
        _fk("state_changes", "party_id", "parties"),
        _fk("state_changes", "vehicle_id", "vehicles"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_state_changes")),
    )
    for column in ("document_id", "licence_id", "party_id", "vehicle_id"):
        _index("state_changes", column)
    op.create_table(
        "state_meta",
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_state_meta")),
    )


def downgrade() -> None:
    for table in ("state_meta", "state_changes", "processo_acts", "processos", "bars",
                  "licences", "drivers", "vehicles", "party_names", "parties"):
        op.drop_table(table)
    with op.batch_alter_table("documents") as batch:
        batch.drop_column("origin")
