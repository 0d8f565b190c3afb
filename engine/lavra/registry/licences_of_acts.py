"""The licences some acts granted, as the state holds them, in one indexed read.

A renewal run's plan takes the alvarás coming due (:meth:`lavra.registry.licensing.
RegistryState.licences`, by their last day) and reads each one's licence as the state
holds it (holder, vehicle, facts): by the acts' ids, through the licences' unique
``document_id``, so that the read grows with the licences the run renews, never with
every licence of the kind in the registry (issue 24, "Flat in the size of the
registry"). Implements no provision.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, func

from lavra.registry.effects import LicenceStatus
from lavra.registry.licensing import LicenceView, _view_of
from lavra.registry.records import check_ident
from lavra.registry.statements import view_select
from lavra.registry.tables import LicenceRow

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["VIEWS_OF_ACTS", "active_licences_of"]

VIEWS_OF_ACTS = view_select().where(
    LicenceRow.document_id.in_(bindparam("ids", expanding=True)),
    # the kind and the status only filter what the acts' ids found: written as
    # expressions, SQLite's planner (without statistics) cannot walk the status's or the
    # kind's index through every active licence instead, as it did for a list of more
    # than a few ids (a 200-holder plan: 0.6 thousand VM steps per document at 10,000
    # licences, 0.1 at 100); both columns are NOT NULL, so the answer is the same
    func.coalesce(LicenceRow.kind, "") == bindparam("kind"),
    func.coalesce(LicenceRow.status, "") == bindparam("status"))
"""The licences of ``kind`` and ``status`` the acts ``ids`` granted."""

CHUNK = 500
"""Ids per statement (a bound list stays well under every database's limits)."""


def active_licences_of(registry: Registry, kind: str,
                       document_ids: Iterable[int]) -> tuple[LicenceView, ...]:
    """The licences of ``kind`` in force (status ``active``) the acts ``document_ids`` granted,
    as :meth:`~lavra.registry.licensing.RegistryState.licence_views` reads them (an act
    that granted none, or whose licence is no longer active, has none here)."""
    wanted = sorted({check_ident(i) for i in document_ids})
    found: list[LicenceView] = []
    with registry.database_errors(), registry.read_session() as session:
        connection = session.connection()
        for start in range(0, len(wanted), CHUNK):
            values = {"ids": wanted[start:start + CHUNK], "kind": kind,
                      "status": LicenceStatus.ACTIVE.value}
            found.extend(_view_of(row) for row in connection.execute(VIEWS_OF_ACTS, values))
    return tuple(found)
