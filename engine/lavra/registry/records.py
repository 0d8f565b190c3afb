"""The registry's values: issued records and events, numbers, search keys, argument checks.

:class:`IssuedRecord` and :class:`Event` are what every query returns (frozen, read
from the rows of :mod:`lavra.registry.tables`); :class:`Built` is what the ``build``
callback of an issue hands back. Numbers are written ``0001/2026``
(:func:`format_number`, :func:`parse_number`); a document is found by the CPF/CNPJ of
its holder and its vehicle's plate (:func:`search_keys`). The ``check_*`` functions
turn a bad argument into an :class:`InputError` naming it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo

from lavra.errors import InputError
from lavra.inputs.formats import (
    has_cnpj_shape,
    has_cpf_shape,
    has_placa_shape,
    normalize_placa,
    unmask,
)
from lavra.registry.tables import DocumentRow, EventRow

__all__ = [
    "COUNTER_BEFORE",
    "LOCAL_TZ",
    "NUMBER_RE",
    "Built",
    "Event",
    "EventKind",
    "IssuedRecord",
    "Status",
    "check_ident",
    "check_number",
    "check_series",
    "check_text",
    "check_year",
    "event_of",
    "format_number",
    "local_date",
    "normalize_cpf_cnpj",
    "normalize_plate",
    "parse_number",
    "printed_number",
    "record_of",
    "search_keys",
    "subject_cn",
]

LOCAL_TZ = ZoneInfo("America/Sao_Paulo")
NUMBER_RE = re.compile(r"\s*(?:n[º°o.]*\s*)?(\d{1,9})\s*/\s*(\d{4})\s*", re.IGNORECASE)
_SERIES_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")


# ============================================================================ values
class Status(StrEnum):
    ISSUED = "issued"
    CANCELLED = "cancelled"


class EventKind(StrEnum):
    ISSUED = "issued"
    CANCELLED = "cancelled"
    VERIFIED = "verified"


COUNTER_BEFORE = "contador_antes"
"""In the ``issued`` event of an imported act, the series counter as the import found
it: the numbers between it and the act's number were used before lavra."""


@dataclass(frozen=True, kw_only=True)
class Built:
    """What ``build(number, formatted)`` returns: the final files and what they say.

    ``computed`` may hold dates (stored as ISO text); ``computed["valido_ate"]``, when
    present, is the end of the document's validity. ``cpf_cnpj`` (the holder) and
    ``placa`` (the vehicle) are the search keys of the case history; see
    :func:`search_keys` to take them from the data.
    """

    pdf: bytes
    docx: bytes | None = None
    data: Mapping[str, Any]
    computed: Mapping[str, Any]
    reference_date: date
    verification_code: str
    signer_subject: str
    signer_serial: str
    pack_version: str
    cpf_cnpj: str | None = None
    placa: str | None = None
    issued_at: datetime | None = None
    """The moment of issue the registry records (timezone-aware); None: now. Only an
    issuer on an injected clock (``lavra demo``, tests) sets it; a real signing never."""


@dataclass(frozen=True)
class IssuedRecord:
    """One document of the registry (without its files: see Registry.pdf/docx)."""

    id: int
    series: str
    year: int
    number: int
    form: str
    data: Mapping[str, Any]
    computed: Mapping[str, Any]
    reference_date: date
    valid_until: date | None
    sha256: str
    verification_code: str
    signer_subject: str
    signer_serial: str
    pack_version: str
    issued_at: datetime
    status: Status
    cancel_reason: str | None
    cancelled_by: str | None
    cancelled_at: datetime | None
    idempotency_key: str | None
    cpf_cnpj: str | None
    placa: str | None
    origin: str | None = None
    """Where an act from before lavra came from (``lavra cadastro importar``: the file and
    its line); None for a document lavra issued. An imported act has no PDF."""

    @property
    def formatted(self) -> str:
        """The number within its series: ``0001/2026`` (each series numbers from 1)."""
        return format_number(self.number, self.year)

    @property
    def printed(self) -> str:
        """The number as printed on the document and shown to a user, with its series:
        ``ALV-FRET nº 0001/2026`` (two series may both have a 0001/2026)."""
        return printed_number(self.series, self.number, self.year)

    @property
    def cancelled(self) -> bool:
        return self.status is Status.CANCELLED

    @property
    def issued_at_local(self) -> datetime:
        """The moment of issue in America/Sao_Paulo."""
        return self.issued_at.astimezone(LOCAL_TZ)

    @property
    def act_date(self) -> date:
        """The day the act is of: the local day of issue, or an imported act's own date
        (``reference_date``; its ``issued_at`` is when the import wrote it)."""
        return self.reference_date if self.origin is not None else self.issued_at_local.date()

    @property
    def imported_note(self) -> str | None:
        """How a page names an imported act's date: «ato anterior ao lavra, de 10/02/2024
        (importado em 15/01/2026)»; None for a document lavra issued."""
        if self.origin is None:
            return None
        return (f"ato anterior ao lavra, de {self.reference_date:%d/%m/%Y} "
                f"(importado em {self.issued_at_local:%d/%m/%Y})")

    @property
    def cancelled_at_local(self) -> datetime | None:
        return self.cancelled_at.astimezone(LOCAL_TZ) if self.cancelled_at else None


@dataclass(frozen=True)
class Event:
    id: int
    document_id: int
    kind: str
    actor: str
    at: datetime
    detail: str | None
    occurred_at: datetime | None = None
    """When a recorded fact happened (``at`` is when it was recorded); None for the
    registry's own steps (issued, cancelled, verified)."""
    data: Mapping[str, Any] | None = None
    """The content of a recorded fact (its means, amount, reference; a revocation names
    the fact it revokes): see :mod:`lavra.registry.facts`."""

    @property
    def at_local(self) -> datetime:
        return self.at.astimezone(LOCAL_TZ)

    @property
    def occurred_at_local(self) -> datetime | None:
        return None if self.occurred_at is None else self.occurred_at.astimezone(LOCAL_TZ)


# ============================================================================ helpers
def format_number(number: int, year: int) -> str:
    """``format_number(1, 2026) == "0001/2026"``."""
    return f"{number:04d}/{year}"


def printed_number(series: str, number: int, year: int) -> str:
    """``printed_number("ALV-FRET", 1, 2026) == "ALV-FRET nº 0001/2026"``."""
    return f"{series} nº {format_number(number, year)}"


def parse_number(formatted: str) -> tuple[int, int]:
    """``"0001/2026"`` (also ``"nº 1/2026"``) → ``(1, 2026)``; InputError otherwise."""
    match = NUMBER_RE.fullmatch(formatted) if isinstance(formatted, str) else None
    if match is None or int(match.group(1)) == 0:
        raise InputError(
            f"Número de documento inválido: «{formatted}». Use o formato 0001/2026.",
            field="/numero",
        )
    return int(match.group(1)), int(match.group(2))


def normalize_cpf_cnpj(value: str) -> str:
    """A CPF (11 digits) or CNPJ (14 characters) without mask; InputError for anything else."""
    if not isinstance(value, str) or not (has_cpf_shape(value) or has_cnpj_shape(value)):
        raise InputError(
            f"CPF ou CNPJ inválido: «{value}». Informe os 11 dígitos do CPF ou os 14 do CNPJ.",
            field="/cpf_cnpj",
        )
    return unmask(value)


def normalize_plate(value: str) -> str:
    """A vehicle plate, old (ABC1234) or Mercosul (ABC1D23), upper case without dash."""
    if not isinstance(value, str) or not has_placa_shape(value):
        raise InputError(
            f"Placa inválida: «{value}». Use o formato ABC1234 ou ABC1D23.", field="/placa"
        )
    return normalize_placa(value)


_RDN_SPLIT = re.compile(r"(?<!\\)(?:\\\\)*[,+]")
_ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2}|.)")


def _unescape(value: str) -> str:
    """An RFC 4514 value: ``\\,`` is a comma, ``\\C3\\A9`` the UTF-8 bytes of «é»."""
    out = bytearray()
    position = 0
    for match in _ESCAPE.finditer(value):
        out += value[position:match.start()].encode("utf-8")
        escaped = match.group(1)
        out += bytes.fromhex(escaped) if len(escaped) == 2 else escaped.encode("utf-8")
        position = match.end()
    out += value[position:].encode("utf-8")
    return out.decode("utf-8", "replace")


def subject_cn(subject: str) -> str | None:
    """The first CN of an RFC 4514 subject (``CN=Sérgio Signatário,O=…``), unescaped;
    None when there is none (an imported act names where it came from, not a DN)."""
    start = 0
    for match in [*_RDN_SPLIT.finditer(subject), None]:
        end = match.end() - 1 if match is not None else len(subject)
        kind, equals, value = subject[start:end].partition("=")
        start = end + 1
        if equals and kind.strip().upper() == "CN":
            return _unescape(value.strip())
    return None


def search_keys(data: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """``(cpf_cnpj, placa)`` found in form data, for :class:`Built`.

    The holder is the first ``cnpj`` found (a company holds the licence), else the
    first ``cpf``; the vehicle is the first ``placa``. Objects are searched breadth
    first, so top-level parties win over people listed deeper in the form.
    """
    found: dict[str, str] = {}
    queue: list[Any] = [data]
    while queue:
        current = queue.pop(0)
        if isinstance(current, Mapping):
            for key, value in current.items():
                if key in ("cnpj", "cpf", "placa") and isinstance(value, str) and value.strip():
                    found.setdefault(str(key), value)
                elif isinstance(value, Mapping | list):
                    queue.append(value)
        elif isinstance(current, list):
            queue.extend(item for item in current if isinstance(item, Mapping | list))
    holder = found.get("cnpj") or found.get("cpf")
    plate = found.get("placa")
    try:
        return (
            normalize_cpf_cnpj(holder) if holder else None,
            normalize_plate(plate) if plate else None,
        )
    except InputError:
        return (None, None)


def check_text(value: object, name: str, pointer: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"Informe {name}.", field=pointer)
    value = value.strip()
    if len(value) > limit:
        raise InputError(f"{name.capitalize()} excede {limit} caracteres.", field=pointer)
    if any(ord(char) < 32 and char not in "\n\t" for char in value):
        raise InputError(f"{name.capitalize()} contém caracteres de controle.", field=pointer)
    return value


def check_series(value: object) -> str:
    if not isinstance(value, str) or not _SERIES_RE.fullmatch(value):
        raise InputError(
            f"Série de numeração inválida: «{value}». Use letras, dígitos, ponto, hífen ou "
            "sublinhado (até 40 caracteres).",
            field="/serie",
        )
    return value


def check_year(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1900 <= value <= 9999:
        raise InputError(f"Ano de numeração inválido: «{value}».", field="/ano")
    return value


def check_number(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InputError(f"Número de documento inválido: «{value}».", field="/numero")
    return value


def check_ident(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InputError(f"Identificador de documento inválido: «{value}».", field="/documento")
    return value


def local_date(value: datetime | date, pointer: str) -> date:
    """A date; an aware datetime is read in America/Sao_Paulo."""
    if isinstance(value, datetime):
        return value.astimezone(LOCAL_TZ).date() if value.tzinfo else value.date()
    if isinstance(value, date):
        return value
    raise InputError(f"Data inválida: «{value}».", field=pointer)


def record_of(row: DocumentRow) -> IssuedRecord:
    return IssuedRecord(
        id=row.id,
        series=row.series,
        year=row.year,
        number=row.number,
        form=row.form,
        data=row.data,
        computed=row.computed,
        reference_date=row.reference_date,
        valid_until=row.valid_until,
        sha256=row.sha256,
        verification_code=row.verification_code,
        signer_subject=row.signer_subject,
        signer_serial=row.signer_serial,
        pack_version=row.pack_version,
        issued_at=row.issued_at,
        status=Status(row.status),
        cancel_reason=row.cancel_reason,
        cancelled_by=row.cancelled_by,
        cancelled_at=row.cancelled_at,
        idempotency_key=row.idempotency_key,
        cpf_cnpj=row.cpf_cnpj,
        placa=row.placa,
        origin=row.origin,
    )


def event_of(row: EventRow) -> Event:
    return Event(row.id, row.document_id, row.kind, row.actor, row.at, row.detail,
                 row.occurred_at, row.data if isinstance(row.data, Mapping) else None)


