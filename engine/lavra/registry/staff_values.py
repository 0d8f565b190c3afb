"""Values staff keep over the pack's data: days without expediente and yearly values.

    registry.add_staff_day(date(2026, 6, 5), "ponto_facultativo", "Ponto facultativo",
                           act="Decreto nº 12.345, de 1º de junho de 2026", by="Ana Admin")
    registry.add_staff_parameter("x.multa", 2027, "147,00", act="Decreto nº 12.400, de 2 "
                                 "de janeiro de 2027", by="Ana Admin", settable={...})
    registry.staff_values()              # in force and revoked, each with who and when
    registry.revoke_staff_value(3, reason="Decreto revogado", by="Ana Admin")

A row is never deleted: a wrong one is revoked, with who, when and why, and only the
rows in force count. A day is one date (``kind`` ``dia``, key the ISO date); a
parameter value covers one year, 1 January to 31 December (``kind`` ``parametro``,
key the parameter's name), as the yearly corrections the law orders. Two rows in force
for the same day, or the same parameter and year, are refused (checked in the write
transaction and by the partial unique index of migration 0004, so that two
administrators at once cannot both succeed). Which parameters staff may set is the
pack's to say: the caller passes them (``settable``), the registry knows no law.

Every bad argument is an :class:`InputError` in pt-BR naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from sqlalchemy import select

from lavra.errors import InputError
from lavra.registry.database import Conflict
from lavra.registry.queries import RegistryQueries
from lavra.registry.records import LOCAL_TZ, check_ident, check_text
from lavra.registry.statements import STAFF_VALUES_STAMP
from lavra.registry.tables import StaffValueRow
from lavra.textutil import format_date

__all__ = [
    "DAY_KINDS",
    "StaffKind",
    "StaffValue",
    "StaffValueStore",
    "parse_day",
]

DAY_KINDS: Mapping[str, str] = {"feriado": "feriado", "ponto_facultativo": "ponto facultativo"}
"""The kinds of a registered day, with their names in messages."""

_ACT = re.compile(
    r"(?P<type>[A-ZÀ-Ú][\w\-À-ú ]*?)\s+n[º°o.]\s*\d[\d.]*(?:/\d{2,4})?\s*,\s*de\s+\S.*\d{4}",
    re.IGNORECASE,
)
_ACT_EXAMPLE = "«Decreto nº 12.345, de 1º de junho de 2026»"
_MAX_VALUE = Decimal("1e12")


class StaffKind(StrEnum):
    DAY = "dia"
    PARAMETER = "parametro"


@dataclass(frozen=True)
class StaffValue:
    """One registered value: what, the act that fixed it, who recorded it and when.

    For a day, ``key`` is the ISO date and ``value`` holds ``tipo`` and ``nome``; for
    a parameter, ``key`` is its name and ``value`` holds ``valor`` (a decimal text).
    """

    id: int
    kind: StaffKind
    key: str
    value: Mapping[str, Any]
    since: date
    until: date
    act: str
    recorded_by: str
    recorded_at: datetime
    revoked_at: datetime | None = None
    revoked_by: str | None = None
    revoke_reason: str | None = None

    @property
    def in_force(self) -> bool:
        return self.revoked_at is None

    @property
    def amount(self) -> Decimal:
        """The value of a parameter row."""
        return Decimal(str(self.value["valor"]))

    @property
    def describe(self) -> str:
        """``05/06/2026 (ponto facultativo: ...)`` or ``x.multa em 2027: 147.00``."""
        if self.kind is StaffKind.DAY:
            kind = DAY_KINDS.get(str(self.value.get("tipo")), str(self.value.get("tipo")))
            return f"{format_date(self.since)} ({kind}: {self.value.get('nome')})"
        return f"{self.key} em {self.since.year}: {self.value.get('valor')}"


def _of(row: StaffValueRow) -> StaffValue:
    assert row.since is not None and row.until is not None
    return StaffValue(
        id=row.id, kind=StaffKind(row.kind), key=row.key, value=dict(row.value),
        since=row.since, until=row.until, act=row.act, recorded_by=row.recorded_by,
        recorded_at=row.recorded_at, revoked_at=row.revoked_at, revoked_by=row.revoked_by,
        revoke_reason=row.revoke_reason,
    )


def parse_day(value: object, pointer: str = "/data") -> date:
    """A date from a ``date``, ``DD/MM/AAAA`` or ``AAAA-MM-DD``; InputError otherwise."""
    if isinstance(value, datetime):
        raise InputError("Informe a data sem horário (DD/MM/AAAA).", field=pointer)
    if isinstance(value, date):
        return value
    text = value.strip() if isinstance(value, str) else ""
    for pattern in ("%d/%m/%Y", "%Y-%m-%d"):
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    shown = text or "vazia"
    raise InputError(f"Data inválida: «{shown}». Informe uma data válida no formato "
                     "DD/MM/AAAA.", field=pointer)


def _act(value: object, *, decree: bool) -> str:
    act = check_text(value, "o ato que o fixou (número e data)", "/ato", 500)
    match = _ACT.fullmatch(" ".join(act.split()))
    if match is None or (decree and not match["type"].lower().startswith("decreto")):
        what = "o decreto que o fixou" if decree else "o ato que o fixou"
        raise InputError(
            f"Informe {what} com o número e a data, no formato {_ACT_EXAMPLE}.",
            field="/ato",
        )
    return act


def _amount(value: object, places: int) -> Decimal:
    if isinstance(value, Decimal | int) and not isinstance(value, bool):
        amount = Decimal(value)
    else:
        text = value.strip().removeprefix("R$").strip() if isinstance(value, str) else ""
        if "," in text:
            text = text.replace(".", "").replace(",", ".")
        try:
            amount = Decimal(text)
        except InvalidOperation:
            amount = Decimal("NaN")
    if not amount.is_finite() or amount <= 0 or amount >= _MAX_VALUE:
        raise InputError("O valor deve ser um número decimal maior que zero (ex.: 147,00).",
                         field="/valor")
    if amount != amount.quantize(Decimal(1).scaleb(-places)):
        raise InputError(f"O valor admite no máximo {places} casas decimais.", field="/valor")
    return amount


def _year(value: object) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not 1900 <= value <= 9999:
        raise InputError(f"Ano inválido: «{value}». Informe o ano com quatro algarismos.",
                         field="/ano")
    return value


class StaffValueStore(RegistryQueries):
    """The registry's side of the staff values (mixed into the Registry)."""

    def add_staff_day(
        self, on: object, kind: object, name: object, *, act: object, by: object
    ) -> StaffValue:
        """Register a day without expediente (a feriado or a ponto facultativo decreed)."""
        day = parse_day(on)
        if kind not in DAY_KINDS:
            raise InputError("O tipo do dia deve ser feriado ou ponto facultativo.",
                             field="/tipo")
        title = check_text(name, "o nome do dia", "/nome", 200)
        decree = _act(act, decree=True)
        who = check_text(by, "quem cadastra", "/responsavel", 500)
        return self._add(StaffKind.DAY, day.isoformat(), {"tipo": kind, "nome": title},
                         day, day, decree, who)

    def add_staff_parameter(
        self, name: object, year: object, value: object, *, act: object, by: object,
        settable: Mapping[str, str], places: int = 4,
    ) -> StaffValue:
        """Register the value of parameter ``name`` for ``year`` (1 January–31 December).

        ``settable`` maps the parameters staff may set to their descriptions (the pack
        says which); any other name is refused. ``places``: decimal places admitted.
        """
        key = name.strip() if isinstance(name, str) else ""
        if key not in settable:
            known = "; ".join(f"{k} ({v})" for k, v in sorted(settable.items())) or "nenhum"
            raise InputError(
                f"O parâmetro «{key or 'vazio'}» não pode ser cadastrado pela administração "
                f"(não existe no pacote ou só o pacote o define). Podem ser cadastrados: "
                f"{known}.",
                field="/parametro",
            )
        when = _year(year)
        amount = _amount(value, places)
        fixed_by = _act(act, decree=False)
        who = check_text(by, "quem cadastra", "/responsavel", 500)
        return self._add(StaffKind.PARAMETER, key, {"valor": str(amount)},
                         date(when, 1, 1), date(when, 12, 31), fixed_by, who)

    def _add(self, kind: StaffKind, key: str, value: dict[str, Any], since: date,
             until: date, act: str, who: str) -> StaffValue:
        try:
            with self.database_errors(), self.write_session() as session:
                self._refuse_duplicate(session, kind, key, since)
                row = StaffValueRow(kind=kind.value, key=key, value=value, since=since,
                                    until=until, act=act, recorded_by=who,
                                    recorded_at=datetime.now(UTC))
                session.add(row)
                session.flush()
                return _of(row)
        except Conflict:  # a concurrent registration won the partial unique index
            with self.read_session() as session:
                self._refuse_duplicate(session, kind, key, since)
            raise

    @staticmethod
    def _refuse_duplicate(session: Any, kind: StaffKind, key: str, since: date) -> None:
        row = session.scalars(select(StaffValueRow).where(
            StaffValueRow.kind == kind.value, StaffValueRow.key == key,
            StaffValueRow.since == since, StaffValueRow.revoked_at.is_(None),
        )).first()
        if row is None:
            return
        found = _of(row)
        raise InputError(
            f"Já está cadastrado {found.describe}, com o ato «{found.act}», por "
            f"{found.recorded_by} em {_local(found.recorded_at)}. Para corrigi-lo, revogue "
            "esse cadastro e cadastre o novo.",
            field="/data" if kind is StaffKind.DAY else "/ano",
        )

    def revoke_staff_value(self, ident: object, *, reason: object, by: object) -> StaffValue:
        """Revoke a registered value: it stays, with who, when and why, and stops counting."""
        number = check_ident(ident)
        why = check_text(reason, "o motivo da revogação", "/motivo", 2000)
        who = check_text(by, "quem revoga", "/responsavel", 500)
        with self.database_errors(), self.write_session() as session:
            row = session.get(StaffValueRow, number)
            if row is None:
                raise InputError(f"Cadastro nº {number} não encontrado.", field="/id")
            if row.revoked_at is not None:
                raise InputError(
                    f"O cadastro nº {number} já foi revogado em {_local(row.revoked_at)} por "
                    f"{row.revoked_by}.", field="/id")
            row.revoked_at, row.revoked_by, row.revoke_reason = datetime.now(UTC), who, why
            session.flush()
            return _of(row)

    def staff_values(
        self, kind: StaffKind | None = None, *, include_revoked: bool = True
    ) -> tuple[StaffValue, ...]:
        """The registered values (by kind, date, then order of registration)."""
        query = select(StaffValueRow)
        if kind is not None:
            query = query.where(StaffValueRow.kind == kind.value)
        if not include_revoked:
            query = query.where(StaffValueRow.revoked_at.is_(None))
        query = query.order_by(StaffValueRow.kind, StaffValueRow.since, StaffValueRow.key,
                               StaffValueRow.id)
        with self.database_errors(), self.read_session() as session:
            return tuple(_of(row) for row in session.scalars(query).all())

    def staff_values_stamp(self) -> tuple[int, int, int]:
        """A cheap fingerprint of the table: it changes with every registration or revocation."""
        with self.database_errors(), self.read_session() as session:
            count, last, revoked = session.execute(STAFF_VALUES_STAMP).one()
            return int(count), int(last), int(revoked)


def _local(moment: datetime | None) -> str:
    if moment is None:
        return "data desconhecida"
    return moment.astimezone(LOCAL_TZ).strftime("%d/%m/%Y %H:%M")
