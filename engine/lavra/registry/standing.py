"""The licences an act rests on, renews or ends, checked where the act is recorded, and
the row locks that make those checks (and the bar's) hold under concurrency.

The form checks see the state when the draft is prepared, possibly outside the record's
transaction (a renewal run checks at plan time); these guards read it again inside it,
so that what the law forbids is refused even then (:meth:`lavra.registry.state.
StateWriter.refuse_or_diverge`: a replayed act records a divergência instead).

- An accessory (``Grant.rests_on``) rests on a licence the registry holds, that has not
  ended (:data:`STANDING`) and is not past its last day on the accessory's first day.
  A number in one of lavra's own series (a series the registry numbers) that the
  registry lacks is refused; a number outside them (a paper act a servant attested) is
  the form's to check.
- A renewal (``Grant.renews``) renews a licence in force or expired (:data:`RENEWABLE`),
  never one cassated, revoked, recalled or already renewed; a licence the registry
  lacks (a paper one) is the form's to check.
- An act that ends or suspends a licence (``SetStatus``) finds it not ended
  (:data:`STANDING`), and not already in the status it gives.

Reading chosen where the law is silent: a renewed licence stands until its own last day
(the form checks read it so), so an accessory may still rest on it and an act may
still end it; a suspended one is still its holder's (``LicenceStatus.SUSPENDED``).

Locks. On PostgreSQL two transactions may each check, then write, unaware of the other:
a cassação's bar and a new alvará of the same company; a revogação and an accessory on
the revoked alvará. So the holder's party row is locked (``SELECT ... FOR UPDATE``)
before a grant checks the bars and before a bar is written, and the licence an act rests
on, renews or ends is locked (and read again) before it is checked. Licences are locked
before parties, in every act, and the licences one act ends (a cassação naming several)
all together by ascending id before it ends any (:meth:`lavra.registry.state.
StateWriter.apply`), so that two acts never wait on each other. SQLite takes
the writer lock at ``BEGIN IMMEDIATE`` (:mod:`lavra.registry.database`): writers are
already serialised there, and nothing more is asked of it.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.registry.effects import STATUS_TEXT, Act, Grant, LicenceStatus, SetStatus
from lavra.registry.guards import Refusal
from lavra.registry.identifiers import parse_printed
from lavra.registry.records import LOCAL_TZ
from lavra.registry.tables import (
    CounterRow,
    DocumentRow,
    DriverRow,
    LicenceRow,
    PartyRow,
    VehicleRow,
)
from lavra.textutil import format_date

if TYPE_CHECKING:
    from lavra.registry.state import StateWriter

__all__ = ["RENEWABLE", "STANDING", "base_refusal", "end_refusal", "locked",
           "renewal_refusal"]

STANDING = (LicenceStatus.ACTIVE.value, LicenceStatus.SUSPENDED.value,
            LicenceStatus.RENEWED.value)
"""The statuses of a licence that has not ended."""
RENEWABLE = (LicenceStatus.ACTIVE.value, LicenceStatus.EXPIRED.value)
"""The statuses of a licence a renewal may renew."""
RESTS_ON = "a regra de que o ato acessório se vincula a licença em vigor"
RENEWS = "a regra de que só se renova licença em vigor ou vencida"
ENDS = "a regra de que o ato só atinge licença que não terminou"

RowT = TypeVar("RowT", LicenceRow, PartyRow, VehicleRow, DriverRow, DocumentRow)


def locked(session: Session, row: RowT) -> RowT:
    """``row`` locked for the rest of the transaction and read again (PostgreSQL: a
    transaction that changed it meanwhile has committed); as it is on SQLite."""
    if session.get_bind().dialect.name != "postgresql":
        return row
    again: RowT = session.scalars(_lock(type(row)), {"id": row.id}).one()
    return again


@cache  # built once per table: a renewal locks its old licence and holder at every act
def _lock(table: type[Any]) -> Any:
    return (select(table).where(table.id == bindparam("id")).with_for_update()
            .execution_options(populate_existing=True))


def _cited(basis: str) -> str:
    return f" ({basis})" if basis else ""


def _since(licence: LicenceRow) -> str:
    return "" if licence.status_since is None else f" desde {format_date(licence.status_since)}"


def _own_series(writer: StateWriter, printed: str) -> str | None:
    """The series of ``printed`` when the registry numbers in it (lavra's own)."""
    parsed = parse_printed(printed)
    if parsed is None or parsed[0] is None:
        return None
    series = parsed[0].upper()
    found = writer.session.scalars(
        select(CounterRow.series).where(CounterRow.series == series).limit(1)).first()
    return series if found is not None else None


def _cancelled(writer: StateWriter, printed: str) -> str | None:
    """When the act numbered ``printed`` was issued and then cancelled (its licence
    undone with it): when and by whom, as recorded (" em 05/03/2026, por Chefia");
    None when the registry never held it."""
    parsed = parse_printed(printed)
    if parsed is None or parsed[0] is None:
        return None
    row = writer.session.scalars(select(DocumentRow).where(
        DocumentRow.series == parsed[0].upper(), DocumentRow.number == parsed[1],
        DocumentRow.year == parsed[2], DocumentRow.status == "cancelled")
        .order_by(DocumentRow.id.desc()).limit(1)).first()
    if row is None:
        return None
    when = ("" if row.cancelled_at is None
            else f" em {format_date(row.cancelled_at.astimezone(LOCAL_TZ).date())}")
    who = f", por {row.cancelled_by}" if row.cancelled_by else ""
    return f"{when}{who}"


def base_refusal(writer: StateWriter, act: Act, grant: Grant,
                 base: LicenceRow | None) -> Refusal | None:
    """The refusal of an accessory whose base (``grant.rests_on``) is missing from the
    registry, ended, or past its last day (None when it stands, or names none)."""
    if grant.rests_on is None:
        return None
    cited = _cited(grant.basis)
    if base is None:
        series = _own_series(writer, grant.rests_on)
        if series is None:
            return None
        cancelled = _cancelled(writer, grant.rests_on)
        message = (f"O {grant.rests_on}, a que o {act.printed} se vincula, não consta do "
                   f"cadastro: o número é da série {series} do lavra e nenhum ato expedido "
                   f"ou importado o tem; o {act.printed} não pode ser expedido{cited}."
                   if cancelled is None else
                   f"O {grant.rests_on}, a que o {act.printed} se vincula, foi cancelado"
                   f"{cancelled}, e não concede licença alguma; o {act.printed} não pode "
                   f"ser expedido{cited}.")
    elif base.status not in STANDING:
        message = (f"O {base.printed}, a que o {act.printed} se vincula, não está em vigor "
                   f"({STATUS_TEXT.get(base.status, base.status)}{_since(base)}); o "
                   f"{act.printed} não pode ser expedido{cited}.")
    elif base.valid_until is not None and base.valid_until < grant.valid_from:
        message = (f"O {base.printed}, a que o {act.printed} se vincula, venceu em "
                   f"{format_date(base.valid_until)}, antes do início do {act.printed} "
                   f"({format_date(grant.valid_from)}); o {act.printed} não pode ser "
                   f"expedido{cited}.")
    else:
        return None
    return Refusal(InputError(message), RESTS_ON, grant.basis)


def renewal_refusal(act: Act, grant: Grant, old: LicenceRow) -> Refusal | None:
    """The refusal of a renewal of a licence that is neither in force nor expired."""
    if old.status in RENEWABLE:
        return None
    return Refusal(InputError(
        f"O {old.printed} está {STATUS_TEXT.get(old.status, old.status)}{_since(old)}: só "
        f"se renova licença em vigor ou vencida, e o {act.printed} não pode renová-lo"
        f"{_cited(grant.basis)}."
    ), RENEWS, grant.basis)


def end_refusal(act: Act, effect: SetStatus, licence: LicenceRow) -> Refusal | None:
    """The refusal of an act ending (or suspending) a licence that has already ended,
    or that already has the status the act gives."""
    status = LicenceStatus(effect.status).value
    if licence.status in STANDING and licence.status != status:
        return None
    return Refusal(InputError(
        f"O {licence.printed} está {STATUS_TEXT.get(licence.status, licence.status)}"
        f"{_since(licence)}: o {act.printed} não pode declará-lo "
        f"{STATUS_TEXT[status]}{_cited(effect.basis)}."
    ), ENDS, effect.basis)
