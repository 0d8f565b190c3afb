"""Facts that happen after a document is issued, recorded on its registry entry.

A signed act records only what has happened by the moment it is signed. What comes
later — the party's ciência (with its means: in person, by aviso de recebimento, by
edital or publication), a notice received, a payment — is recorded afterwards on the
document's entry, with who recorded it and when, and the deadlines that run from it
are counted from that record::

    fact = registry.record_fact(doc.id, FactKind.CIENCIA, on=date(2026, 3, 27),
                                by="Maria (maria)", means=Means.AR, reference="AR BR123")
    registry.facts(doc.id)                       # every fact, revoked ones included
    registry.revoke_fact(fact.id, reason="AR de outro processo", by="Maria (maria)")

Each fact is an event of the document's history (``events``: ``at`` when it was
recorded, ``occurred_at`` when it happened, ``data`` its content). Nothing is ever
deleted: a wrong fact is revoked by a later event that names it and gives the reason,
and it then no longer counts. Refused, with a pt-BR message naming the field: a fact
dated before the document's issue (for an act imported from before lavra, before the
act's own date: its entry was written on the day of the import) or after the moment
it is recorded, any fact on a cancelled document, a second ciência (or notice) of the
same document while the first stands, a payment without its amount.

A fact given by its date alone happened on that day: it is compared with the day of
issue and the day of recording (America/Sao_Paulo); one given with its time is
compared instant by instant.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from sqlalchemy import select

from lavra.errors import InputError
from lavra.registry.queries import RegistryQueries
from lavra.registry.records import LOCAL_TZ, Status, check_ident, check_text, printed_number
from lavra.registry.statements import EVENTS_OF
from lavra.registry.tables import DocumentRow, EventRow
from lavra.textutil import format_date

__all__ = [
    "FACT_KINDS",
    "KIND_LABELS",
    "MEANS_LABELS",
    "REVOKED",
    "Fact",
    "FactKind",
    "Means",
    "RegistryFacts",
    "facts_from_events",
    "parse_amount",
    "parse_moment",
]

REVOKED = "fato_revogado"
"""The event kind that revokes an earlier fact (``data["fato"]`` names it)."""


class FactKind(StrEnum):
    CIENCIA = "ciencia"
    NOTICE = "notificacao"
    PAYMENT = "pagamento"


class Means(StrEnum):
    """How the party was given knowledge (Lei nº 9.784/1999, art. 26, § 3º and § 4º)."""

    PERSONAL = "pessoal"
    AR = "ar"
    EDICT = "edital"
    #: The party's own access to the act, authenticated, after a notice that opening it
    #: counts as ciência (the tracking page of a filed requerimento; the pack's reading).
    ELECTRONIC = "eletronico"


FACT_KINDS = frozenset(kind.value for kind in FactKind)

KIND_LABELS = {
    FactKind.CIENCIA.value: "ciência do interessado",
    FactKind.NOTICE.value: "notificação recebida",
    FactKind.PAYMENT.value: "pagamento",
    REVOKED: "revogação de fato registrado",
}

MEANS_LABELS = {
    Means.PERSONAL.value: "pessoalmente",
    Means.AR.value: "por aviso de recebimento (AR)",
    Means.EDICT.value: "por edital ou publicação oficial",
    Means.ELECTRONIC.value: "por acesso eletrônico pelo acompanhamento",
}

# Kinds of which a document has at most one standing record: the party learns of an
# act once; a second ciência would move the deadlines that run from the first.
_ONCE = frozenset({FactKind.CIENCIA, FactKind.NOTICE})


@dataclass(frozen=True)
class Fact:
    """A fact recorded on a document's entry after its issue.

    ``occurred_at`` when it happened (aware; the start of the day in America/Sao_Paulo
    when only the date was given, ``with_time`` False); ``recorded_at`` and
    ``recorded_by`` when and by whom it was recorded; ``means`` of a ciência or notice;
    ``amount`` of a payment (text, ``"123.45"``); ``reference`` (the AR's code, the
    publication, the payment slip); ``revoked_*`` when a later event revoked it.
    """

    id: int
    document_id: int
    kind: str
    occurred_at: datetime
    with_time: bool
    recorded_at: datetime
    recorded_by: str
    means: str | None = None
    amount: str | None = None
    reference: str | None = None
    note: str | None = None
    revoked_at: datetime | None = None
    revoked_by: str | None = None
    revoke_reason: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def recorded_at_local(self) -> datetime:
        return self.recorded_at.astimezone(LOCAL_TZ)

    @property
    def on(self) -> date:
        """The day it happened, in America/Sao_Paulo."""
        return self.occurred_at.astimezone(LOCAL_TZ).date()

    @property
    def label(self) -> str:
        return KIND_LABELS.get(self.kind, self.kind)

    def describe(self) -> str:
        """``"ciência do interessado em 27/03/2026, por aviso de recebimento (AR)"``."""
        when = (self.occurred_at.astimezone(LOCAL_TZ).strftime("%d/%m/%Y %H:%M")
                if self.with_time else format_date(self.on))
        text = f"{self.label} em {when}"
        if self.means:
            text += f", {MEANS_LABELS.get(self.means, self.means)}"
        if self.amount:
            text += f", no valor de R$ {_brl(self.amount)}"
        if self.reference:
            text += f" ({self.reference})"
        return text


def _brl(amount: str) -> str:
    whole, _, cents = f"{Decimal(amount):,.2f}".partition(".")
    return f"{whole.replace(',', '.')},{cents}"


def parse_moment(value: object, pointer: str = "/data") -> tuple[datetime, bool]:
    """``"2026-03-27"`` or ``"2026-03-27T10:15"`` (or a date/datetime) → (aware, with time).

    A date alone is the start of that day in America/Sao_Paulo; a naive time is read
    there too.
    """
    if isinstance(value, datetime):
        moment, with_time = value, True
    elif isinstance(value, date):
        moment, with_time = datetime.combine(value, time.min), False
    elif isinstance(value, str) and value.strip():
        text = value.strip()
        try:
            if "T" in text or " " in text:
                moment, with_time = datetime.fromisoformat(text), True
            else:
                moment, with_time = datetime.combine(date.fromisoformat(text), time.min), False
        except ValueError:
            raise InputError(
                f"Data do fato inválida: «{text}». Use AAAA-MM-DD ou AAAA-MM-DDTHH:MM.",
                field=pointer,
            ) from None
    else:
        raise InputError("Informe a data do fato (AAAA-MM-DD).", field=pointer)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=LOCAL_TZ)
    if not 1900 <= moment.year <= 9999:
        raise InputError(f"Data do fato fora do intervalo admitido: «{value}».", field=pointer)
    return moment.astimezone(UTC), with_time


def parse_amount(value: object, pointer: str = "/valor") -> str:
    """A positive amount in reais with at most two decimals, as text (``"1234.50"``).

    Accepts ``1234.5``, ``"1234,50"``, ``"1.234,50"``.
    """
    text = str(value).strip() if isinstance(value, str | int | float | Decimal) else ""
    if isinstance(value, bool) or not text:
        raise InputError("Informe o valor pago (em reais, ex.: 192,10).", field=pointer)
    if "," in text:
        text = text.replace(".", "").replace(",", ".")
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise InputError(f"Valor pago inválido: «{value}».", field=pointer) from None
    if not amount.is_finite() or amount <= 0 or amount != amount.quantize(Decimal("0.01")):
        raise InputError(
            f"Valor pago inválido: «{value}». Informe um valor positivo com até dois "
            "decimais.",
            field=pointer,
        )
    if amount >= Decimal("1e12"):
        raise InputError(f"Valor pago fora do intervalo admitido: «{value}».", field=pointer)
    return f"{amount:.2f}"


def _optional(value: object, name: str, pointer: str, limit: int) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return check_text(value, name, pointer, limit)


def facts_from_events(rows: Iterable[EventRow]) -> list[Fact]:
    """The facts among a document's events, each with its revocation if any."""
    ordered = list(rows)
    revocations: dict[int, EventRow] = {}
    for row in ordered:
        if row.kind == REVOKED and isinstance(row.data, Mapping):
            target = row.data.get("fato")
            if isinstance(target, int):
                revocations.setdefault(target, row)
    found = []
    for row in ordered:
        if row.kind not in FACT_KINDS or row.occurred_at is None:
            continue
        content = row.data if isinstance(row.data, Mapping) else {}
        revocation = revocations.get(row.id)
        found.append(Fact(
            id=row.id,
            document_id=row.document_id,
            kind=row.kind,
            occurred_at=row.occurred_at,
            with_time=bool(content.get("com_hora")),
            recorded_at=row.at,
            recorded_by=row.actor,
            means=content.get("meio"),
            amount=content.get("valor"),
            reference=content.get("referencia"),
            note=row.detail,
            revoked_at=None if revocation is None else revocation.at,
            revoked_by=None if revocation is None else revocation.actor,
            revoke_reason=None if revocation is None else revocation.detail,
            data=dict(content),
        ))
    return found


def _when(moment: datetime, with_time: bool) -> str:
    local = moment.astimezone(LOCAL_TZ)
    return local.strftime("%d/%m/%Y %H:%M") if with_time else format_date(local.date())


class RegistryFacts(RegistryQueries):
    """Recording, revoking and reading the facts of a document (the module's doc)."""

    def record_fact(
        self,
        document_id: int,
        kind: str,
        *,
        on: object,
        by: str,
        means: str | None = None,
        amount: object = None,
        reference: str | None = None,
        note: str | None = None,
        now: datetime | None = None,
        first_only: bool = False,
    ) -> Fact:
        """Record that ``kind`` happened ``on`` (a date, or a date and time) for the document.

        ``means`` is required for a ciência or notice (``pessoal``, ``ar``, ``edital``,
        ``eletronico``; an edital needs the ``reference`` of its publication); ``amount``
        for a payment. ``now`` is the moment of recording (tests; default: now). With
        ``first_only``, a ciência (or notice) already standing is returned unchanged
        instead of refused: the first one counts (an access repeated, two at once).
        Raises InputError naming the field for every refusal of the module's doc.
        """
        ident = check_ident(document_id)
        if kind not in FACT_KINDS:
            raise InputError(
                f"Tipo de fato desconhecido: «{kind}». Use ciencia, notificacao ou pagamento.",
                field="/tipo",
            )
        fact_kind = FactKind(kind)
        who = check_text(by, "quem registra o fato", "/responsavel", 500)
        moment, with_time = parse_moment(on)
        recorded = (now or datetime.now(UTC)).astimezone(UTC)
        ref = _optional(reference, "a referência do fato", "/referencia", 500)
        detail = _optional(note, "a observação", "/observacao", 2000)
        content: dict[str, Any] = {"com_hora": with_time}
        if fact_kind is FactKind.PAYMENT:
            if means is not None and str(means).strip():
                raise InputError("O pagamento não tem meio de ciência.", field="/meio")
            content["valor"] = parse_amount(amount)
        else:
            if amount is not None and str(amount).strip():
                raise InputError("Só o pagamento tem valor.", field="/valor")
            if means not in MEANS_LABELS:
                raise InputError(
                    "Informe o meio da ciência: pessoal, ar (aviso de recebimento, com a data "
                    "nele lançada) ou edital (publicação oficial).",
                    field="/meio",
                )
            if means == Means.EDICT and ref is None:
                raise InputError(
                    "Informe a publicação do edital (veículo, número e data): a ciência por "
                    "edital só se prova por ela.",
                    field="/referencia",
                )
            content["meio"] = means
        if ref is not None:
            content["referencia"] = ref
        with self.database_errors(), self.write_session() as session:
            row = session.scalars(
                select(DocumentRow).where(DocumentRow.id == ident).with_for_update()
            ).one_or_none()
            if row is None:
                raise InputError(f"Documento {ident} não consta do registro.", field="/documento")
            number = printed_number(row.series, row.number, row.year)
            self._check_moment(row, number, moment, with_time, recorded)
            if fact_kind in _ONCE:
                standing = [
                    fact for fact in facts_from_events(self._events(session, ident))
                    if fact.kind == fact_kind.value and not fact.revoked
                ]
                if standing and first_only:
                    return standing[0]
                if standing:
                    first = standing[0]
                    raise InputError(
                        f"Já consta do registro do documento {number} a {first.describe()}, "
                        f"registrada por {first.recorded_by} em "
                        f"{_when(first.recorded_at, True)}. Para corrigi-la, revogue-a com o "
                        "motivo e registre a correta.",
                        field="/tipo",
                    )
            event = EventRow(
                document_id=ident,
                kind=fact_kind.value,
                actor=who,
                at=recorded,
                detail=detail,
                occurred_at=moment,
                data=content,
            )
            session.add(event)
            session.flush()
            return facts_from_events([event])[0]

    @staticmethod
    def _check_moment(
        row: DocumentRow, number: str, moment: datetime, with_time: bool, recorded: datetime
    ) -> None:
        if row.status == Status.CANCELLED.value:
            raise InputError(
                f"O documento {number} foi cancelado"
                + (f" em {_when(row.cancelled_at, True)}" if row.cancelled_at else "")
                + ": não se registram fatos posteriores em documento cancelado.",
                field="/documento",
            )
        if row.origin is not None:
            # An act from before lavra (imported): its registry entry was written on the
            # day of the import, but the act is of its own date, and what followed it
            # (a payment, a ciência, a recurso) happened from that date on.
            if moment.astimezone(LOCAL_TZ).date() < row.reference_date:
                raise InputError(
                    f"A data do fato ({_when(moment, with_time)}) é anterior à data do "
                    f"documento {number} ({format_date(row.reference_date)}): o que "
                    "aconteceu antes do ato não se registra nele.",
                    field="/data",
                )
        elif (moment < row.issued_at) if with_time else (
                moment.astimezone(LOCAL_TZ).date() < row.issued_at.astimezone(LOCAL_TZ).date()):
            raise InputError(
                f"A data do fato ({_when(moment, with_time)}) é anterior à emissão do documento "
                f"{number} ({_when(row.issued_at, True)}): o que aconteceu antes da assinatura "
                "consta do próprio ato, não se registra depois.",
                field="/data",
            )
        if (moment > recorded) if with_time else (
                moment.astimezone(LOCAL_TZ).date() > recorded.astimezone(LOCAL_TZ).date()):
            raise InputError(
                f"A data do fato ({_when(moment, with_time)}) é posterior ao momento do registro "
                f"({_when(recorded, True)}): só se registra o que já aconteceu.",
                field="/data",
            )

    def revoke_fact(
        self, fact_id: int, *, reason: str, by: str, now: datetime | None = None
    ) -> Fact:
        """Revoke a recorded fact (it stays in the history, with who, when and why)."""
        if not isinstance(fact_id, int) or isinstance(fact_id, bool) or fact_id < 1:
            raise InputError(f"Identificador de fato inválido: «{fact_id}».", field="/fato")
        why = check_text(reason, "o motivo da revogação", "/motivo", 2000)
        who = check_text(by, "quem revoga o fato", "/responsavel", 500)
        recorded = (now or datetime.now(UTC)).astimezone(UTC)
        with self.database_errors(), self.write_session() as session:
            target = session.get(EventRow, fact_id)
            if target is None or target.kind not in FACT_KINDS:
                raise InputError(f"Fato {fact_id} não consta do registro.", field="/fato")
            document = session.scalars(
                select(DocumentRow).where(DocumentRow.id == target.document_id).with_for_update()
            ).one()
            current = next(f for f in facts_from_events(self._events(session, document.id))
                           if f.id == fact_id)
            if current.revoked_at is not None:
                raise InputError(
                    f"O fato {fact_id} já foi revogado em {_when(current.revoked_at, True)} "
                    f"por {current.revoked_by}.",
                    field="/fato",
                )
            session.add(EventRow(
                document_id=document.id,
                kind=REVOKED,
                actor=who,
                at=recorded,
                detail=why,
                data={"fato": fact_id},
            ))
            session.flush()
            return next(f for f in facts_from_events(self._events(session, document.id))
                        if f.id == fact_id)

    def facts(self, document_id: int) -> tuple[Fact, ...]:
        """The facts recorded on the document, oldest record first (revoked ones marked)."""
        ident = check_ident(document_id)
        with self.database_errors(), self.read_session() as session:
            if session.get(DocumentRow, ident) is None:
                raise InputError(f"Documento {ident} não consta do registro.", field="/documento")
            return tuple(facts_from_events(self._events(session, ident)))

    def facts_of(self, document_ids: Iterable[int]) -> dict[int, tuple[Fact, ...]]:
        """The facts of several documents at once (absent ids: no facts)."""
        wanted = sorted({check_ident(i) for i in document_ids})
        found: dict[int, list[EventRow]] = {i: [] for i in wanted}
        if not wanted:
            return {}
        with self.database_errors(), self.read_session() as session:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                for row in session.scalars(
                    EVENTS_OF, {"ids": chunk, "kinds": [*FACT_KINDS, REVOKED]}
                ):
                    found[row.document_id].append(row)
            return {i: tuple(facts_from_events(rows)) for i, rows in found.items()}

    @staticmethod
    def _events(session: Any, ident: int) -> list[EventRow]:
        return list(session.scalars(
            select(EventRow).where(EventRow.document_id == ident)
            .order_by(EventRow.at, EventRow.id)
        ))
