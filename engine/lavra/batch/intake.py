"""The requests a run reads from the registry: the requerimentos filed online.

    found = filed_requests(registry, "requerimento-renovacao",
                           since=date(2026, 1, 1), until=date(2026, 12, 6))

Each filing (:mod:`lavra.registry.filings`) of the form ``form`` still ``recebido``,
filed on a local day from ``since`` to ``until``, becomes a :class:`FiledRequest`, in
the order it was filed (the latest last): its protocol number (the processo it opened,
which the act cites), who filed it, when, the printed number of the licence it is tied
to, and its data read again through the one strict reader of data from outside
(:func:`lavra.inputs.reading.load_json`, :func:`~lavra.inputs.reading.check_values`),
the same rules as a line of a ``--pedidos`` file: a filing the reader refuses keeps
its ``problem`` (a pt-BR reason naming the protocol and the field), for the pack to
fail its item, never to drop it.

Which form a run reads and over which days is the pack's to say; the engine knows no
law.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import select

from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.inputs.reading import check_values, load_json
from lavra.registry.filings import RECEIVED
from lavra.registry.records import LOCAL_TZ
from lavra.registry.store import Registry
from lavra.registry.tables import FilingRow, LicenceRow

__all__ = ["FiledRequest", "filed_requests"]


@dataclass(frozen=True)
class FiledRequest:
    """One requerimento filed online, as a run reads it (module docstring)."""

    protocol: str
    form: str
    cpf_cnpj: str
    name: str
    filed_at: datetime
    licence: str | None
    data: Mapping[str, Any] | None
    problem: str | None = None

    @property
    def label(self) -> str:
        """The request as the summary names it: ``protocolo PROT nº 0001/2026``."""
        return f"protocolo {self.protocol}"


def _bound(day: date) -> datetime:
    return datetime.combine(day, time(0), LOCAL_TZ).astimezone(UTC)


def _strict(protocol: str, data: object) -> tuple[Mapping[str, Any] | None, str | None]:
    try:
        value = check_values(load_json(json.dumps(data, ensure_ascii=False),
                                       source="o requerimento"))
    except InputError as error:
        text = error.message
        if error.field and error.field != "/":
            text = text.replace(error.field, f"«{pointers.dotted(error.field)}»")
        return None, (f"O requerimento do protocolo {protocol} foi recusado na leitura: "
                      f"{text[:1].lower()}{text[1:]}")
    if not isinstance(value, Mapping):
        return None, (f"O requerimento do protocolo {protocol} não traz os dados como "
                      "um objeto JSON.")
    return value, None


def filed_requests(registry: Registry, form: str, *, since: date,
                   until: date) -> list[FiledRequest]:
    """The filings of ``form`` received from ``since`` to ``until`` (local days, both
    included), the earliest first (module docstring)."""
    query = (
        select(FilingRow, LicenceRow.printed)
        .outerjoin(LicenceRow, LicenceRow.id == FilingRow.licence_id)
        .where(FilingRow.form == form, FilingRow.status == RECEIVED,
               FilingRow.filed_at >= _bound(since),
               FilingRow.filed_at < _bound(until + timedelta(days=1)))
        .order_by(FilingRow.filed_at, FilingRow.id)
    )
    found: list[FiledRequest] = []
    with registry._database_errors(), registry._read() as session:
        for row, printed in session.execute(query).all():
            data, problem = _strict(row.protocol, row.data)
            found.append(FiledRequest(
                protocol=row.protocol, form=row.form, cpf_cnpj=row.cpf_cnpj,
                name=row.name, filed_at=row.filed_at, licence=printed, data=data,
                problem=problem))
    return found
