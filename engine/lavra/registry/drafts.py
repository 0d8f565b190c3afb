"""Drafts staff keep before issuing: saved, listed, resumed, forwarded, issued, discarded.

    draft = registry.save_draft("alvara-x", data, title="Alvará — Fulana", by="Clara")
    draft = registry.update_draft(draft.id, data, version=draft.version, title=..., by=...)
    registry.forward_draft(draft.id, version=draft.version, signer_role="secretario", by=...)
    registry.drafts(status="encaminhado", signer_role="secretario")
    registry.signing_queue(["secretario"], account="sergio")   # what waits for a signer
    registry.return_draft(draft.id, version=..., reason="Falta o CRLV.", by="Sérgio")
    registry.mark_draft_issued(draft.id, document_id=12, by="Sérgio")
    registry.discard_draft(draft.id, version=draft.version, by="Clara")

A draft holds the data as typed (through the strict reader's limits,
:func:`lavra.inputs.reading.parse_data`), whatever the completeness report says. Every
change names the version it was read at: the row changes only while it still has that
version (``UPDATE ... WHERE version = ?``, atomic on SQLite and PostgreSQL), so two
clerks never silently overwrite each other: the later save is refused with
:class:`StaleDraft`, which names who changed it and when. ``emitido`` and
``descartado`` are final. Editing a forwarded draft keeps it forwarded: the signer
signs what the draft holds when signing.

The signing queue (SEI's «bloco de assinatura»): a forwarded draft goes to a signer
role and, optionally, to one named signer account; :meth:`DraftStore.signing_queue`
lists what waits for an account that signs in some roles, the first forwarded first. A
signer may return a draft (:meth:`DraftStore.return_draft`): it is a ``rascunho`` again,
and keeps the reason, who returned it and when (the last return: shown while it is a
rascunho).

The registry knows no law: the form ids and signer roles are the caller's to check.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.inputs.reading import parse_data
from lavra.registry.filing_status import settle
from lavra.registry.queries import RegistryQueries
from lavra.registry.records import LOCAL_TZ, check_ident, check_text
from lavra.registry.tables import DocumentRow, DraftRow

__all__ = ["Draft", "DraftStatus", "DraftStore", "StaleDraft", "add_forwarded"]

_MAX_LISTED = 500


class DraftStatus(StrEnum):
    DRAFT = "rascunho"
    FORWARDED = "encaminhado"
    ISSUED = "emitido"
    DISCARDED = "descartado"

    @property
    def label(self) -> str:
        """How staff read the status (pt-BR)."""
        return _LABELS[self]

    @property
    def final(self) -> bool:
        return self in (DraftStatus.ISSUED, DraftStatus.DISCARDED)


_LABELS = {
    DraftStatus.DRAFT: "rascunho",
    DraftStatus.FORWARDED: "encaminhado para assinatura",
    DraftStatus.ISSUED: "emitido",
    DraftStatus.DISCARDED: "descartado",
}


@dataclass(frozen=True)
class Draft:
    """One stored draft, as read."""

    id: int
    form: str
    data: Mapping[str, Any]
    title: str
    status: DraftStatus
    signer_role: str | None
    document_id: int | None
    created_by: str
    created_at: datetime
    updated_by: str
    updated_at: datetime
    version: int
    signer_account: str | None = None
    forwarded_by: str | None = None
    forwarded_at: datetime | None = None
    returned_reason: str | None = None
    returned_by: str | None = None
    returned_at: datetime | None = None

    @property
    def forwarded(self) -> str:
        """``por Clara Redatora em 06/12/2026 14:03``, or empty if never forwarded."""
        if self.forwarded_by is None or self.forwarded_at is None:
            return ""
        return f"por {self.forwarded_by} em {_local(self.forwarded_at)}"

    @property
    def returned(self) -> str:
        """``por Sérgio Signatário em 06/12/2026 15:10``, or empty if never returned."""
        if self.returned_by is None or self.returned_at is None:
            return ""
        return f"por {self.returned_by} em {_local(self.returned_at)}"

    @property
    def changed(self) -> str:
        """``por Clara Redatora em 06/12/2026 14:03`` (local time, pt-BR)."""
        return f"por {self.updated_by} em {_local(self.updated_at)}"

    @property
    def created(self) -> str:
        """``por Clara Redatora em 06/12/2026 13:40`` (local time, pt-BR)."""
        return f"por {self.created_by} em {_local(self.created_at)}"


def _local(moment: datetime) -> str:
    return moment.astimezone(LOCAL_TZ).strftime("%d/%m/%Y %H:%M")


class StaleDraft(InputError):
    """The draft changed after it was read: the save is refused, nothing written."""

    def __init__(self, current: Draft) -> None:
        super().__init__(
            f"A minuta nº {current.id} foi alterada {current.changed}, depois que você a "
            "abriu; nada foi gravado. Abra a minuta novamente para ver a versão atual e "
            "refaça a alteração.",
            field="/minuta",
        )
        self.current = current


def _draft_of(row: DraftRow) -> Draft:
    return Draft(row.id, row.form, dict(row.data), row.title, DraftStatus(row.status),
                 row.signer_role, row.document_id, row.created_by, row.created_at,
                 row.updated_by, row.updated_at, row.version, row.signer_account,
                 row.forwarded_by, row.forwarded_at, row.returned_reason, row.returned_by,
                 row.returned_at)


def _checked_data(data: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise InputError("Os dados da minuta devem ser um objeto.", field="/dados")
    return parse_data(json.dumps(dict(data), ensure_ascii=False), source="da minuta")


def _form(value: object) -> str:
    return check_text(value, "o formulário da minuta", "/formulario", 100)


def _title(value: object) -> str:
    return " ".join(check_text(value, "o título da minuta", "/titulo", 300).split())


def _who(value: object) -> str:
    return check_text(value, "quem altera a minuta", "/responsavel", 200)


def _version(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError("Versão da minuta inválida: abra a minuta novamente.",
                         field="/versao")
    return value


def _role(value: object) -> str:
    return check_text(value, "o papel de quem assina", "/papel_assinatura", 100)


def _account(value: object) -> str:
    return check_text(value, "a conta de quem assina", "/assinante", 80)


def _reason(value: object) -> str:
    text = " ".join(check_text(value, "o motivo da devolução", "/motivo", 1000).split())
    if len(text) < 5:
        raise InputError("Informe o motivo da devolução (ao menos 5 caracteres).",
                         field="/motivo")
    return text


def add_forwarded(session: Session, form: str, data: Mapping[str, Any], *, title: str,
                  signer_role: str, by: str, now: datetime) -> Draft:
    """Inside the caller's transaction: a new draft already forwarded to
    ``signer_role`` (status ``encaminhado``, version 1), as :meth:`DraftStore.save_draft`
    then :meth:`DraftStore.forward_draft` leave it, in one step (the inbox's «Preparar
    ato» writes it with the filing's link, or nothing)."""
    who = _who(by)
    row = DraftRow(form=_form(form), data=_checked_data(data), title=_title(title),
                   status=DraftStatus.FORWARDED.value, signer_role=_role(signer_role),
                   document_id=None, created_by=who, created_at=now, updated_by=who,
                   updated_at=now, version=1, forwarded_by=who, forwarded_at=now)
    session.add(row)
    session.flush()
    return _draft_of(row)


class DraftStore(RegistryQueries):
    """Drafts kept in the registry (module docstring)."""

    def save_draft(self, form: str, data: Mapping[str, Any], *, title: str, by: str,
                   signer_role: str | None = None, now: datetime | None = None) -> Draft:
        """Store a new draft (status ``rascunho``, version 1)."""
        values = _checked_data(data)
        form, name, who = _form(form), _title(title), _who(by)
        role = None if signer_role is None else _role(signer_role)
        moment = now or datetime.now(UTC)
        with self.database_errors(), self.write_session() as session:
            row = DraftRow(form=form, data=values, title=name, status=DraftStatus.DRAFT.value,
                           signer_role=role, document_id=None, created_by=who,
                           created_at=moment, updated_by=who, updated_at=moment, version=1)
            session.add(row)
            session.flush()
            return _draft_of(row)

    def update_draft(self, draft_id: int, data: Mapping[str, Any], *, version: int,
                     title: str, by: str, now: datetime | None = None) -> Draft:
        """Replace the data and title of a draft still at ``version``; StaleDraft if it
        changed since, InputError if it was issued or discarded."""
        values = _checked_data(data)
        return self._change(draft_id, version, by, now, {"data": values, "title": _title(title)})

    def forward_draft(self, draft_id: int, *, version: int, signer_role: str, by: str,
                      signer_account: str | None = None,
                      now: datetime | None = None) -> Draft:
        """Hand the draft to whoever signs as ``signer_role`` (status ``encaminhado``),
        or only to the account ``signer_account`` (the caller checks that it signs so)."""
        account = None if signer_account is None else _account(signer_account)
        return self._change(draft_id, version, by, now,
                            {"status": DraftStatus.FORWARDED.value,
                             "signer_role": _role(signer_role), "signer_account": account,
                             "forwarded_by": _who(by),
                             "forwarded_at": now or datetime.now(UTC)})

    def return_draft(self, draft_id: int, *, version: int, reason: str, by: str,
                     now: datetime | None = None) -> Draft:
        """A signer hands a forwarded draft back to the clerk: ``rascunho`` again, with
        the reason, who and when (the last return is kept)."""
        text, who = _reason(reason), _who(by)
        ident = check_ident(draft_id)
        with self.database_errors(), self.write_session() as session:
            current = self._current(session, ident)
            if current.status is not DraftStatus.FORWARDED:
                raise InputError(f"A minuta nº {current.id} não está encaminhada para "
                                 f"assinatura ({current.status.label}); não há o que "
                                 "devolver.", field="/minuta")
            return self._apply(session, current, _version(version), who, now,
                               {"status": DraftStatus.DRAFT.value, "returned_reason": text,
                                "returned_by": who,
                                "returned_at": now or datetime.now(UTC)})

    def signing_queue(self, signer_roles: Sequence[str], *, account: str,
                      limit: int = 200) -> tuple[Draft, ...]:
        """Forwarded drafts waiting for ``account``, who signs in ``signer_roles``: those
        sent to one of the roles and to no account or to this one; first forwarded first."""
        stmt = self._queue(select(DraftRow), signer_roles, account)
        if stmt is None:
            return ()
        stmt = stmt.order_by(DraftRow.forwarded_at, DraftRow.id)
        with self.database_errors(), self.read_session() as session:
            rows = session.scalars(stmt.limit(max(1, min(limit, _MAX_LISTED)))).all()
            return tuple(_draft_of(row) for row in rows)

    def signing_queue_count(self, signer_roles: Sequence[str], *, account: str) -> int:
        """How many drafts :meth:`signing_queue` would list (without the limit)."""
        stmt = self._queue(select(func.count()).select_from(DraftRow), signer_roles, account)
        if stmt is None:
            return 0
        with self.database_errors(), self.read_session() as session:
            return int(session.execute(stmt).scalar_one())

    @staticmethod
    def _queue(stmt: Any, signer_roles: Sequence[str], account: str) -> Any:
        roles = sorted({_role(role) for role in signer_roles})
        if not roles:
            return None
        return stmt.where(DraftRow.status == DraftStatus.FORWARDED.value,
                          DraftRow.signer_role.in_(roles),
                          or_(DraftRow.signer_account.is_(None),
                              DraftRow.signer_account == _account(account)))

    def discard_draft(self, draft_id: int, *, version: int, by: str,
                      now: datetime | None = None) -> Draft:
        """Discard the draft (final: it is kept, listed as ``descartado``)."""
        return self._change(draft_id, version, by, now,
                            {"status": DraftStatus.DISCARDED.value})

    def mark_draft_issued(self, draft_id: int, *, document_id: int, by: str,
                          now: datetime | None = None) -> Draft:
        """Record that the document ``document_id`` was issued from the draft (whatever
        its version: the issue used the data it was sent)."""
        ident, document = check_ident(draft_id), check_ident(document_id)
        with self.database_errors(), self.write_session() as session:
            if session.get(DocumentRow, document) is None:
                raise InputError(f"Documento {document} não consta do registro.",
                                 field="/documento")
            current = self._current(session, ident)
            issued = self._apply(session, current, current.version, by, now,
                                 {"status": DraftStatus.ISSUED.value, "document_id": document})
            settle(session, ident, document, now or datetime.now(UTC))  # its filing, if any
            return issued

    def draft(self, draft_id: int) -> Draft | None:
        ident = check_ident(draft_id)
        with self.database_errors(), self.read_session() as session:
            row = session.get(DraftRow, ident)
            return None if row is None else _draft_of(row)

    def drafts(self, *, form: str | None = None, status: DraftStatus | str | None = None,
               signer_role: str | None = None, limit: int = 200) -> tuple[Draft, ...]:
        """Drafts, the last changed first, filtered by form, status and signer role."""
        stmt = select(DraftRow)
        if form:
            stmt = stmt.where(DraftRow.form == _form(form))
        if status:
            try:
                stmt = stmt.where(DraftRow.status == DraftStatus(status).value)
            except ValueError:
                raise InputError(f"Situação de minuta desconhecida: «{status}».",
                                 field="/situacao") from None
        if signer_role:
            stmt = stmt.where(DraftRow.signer_role == _role(signer_role))
        stmt = stmt.order_by(DraftRow.updated_at.desc(), DraftRow.id.desc())
        with self.database_errors(), self.read_session() as session:
            rows = session.scalars(stmt.limit(max(1, min(limit, _MAX_LISTED)))).all()
            return tuple(_draft_of(row) for row in rows)

    # ------------------------------------------------------------ internals
    def _change(self, draft_id: int, version: int, by: str, now: datetime | None,
                values: dict[str, Any]) -> Draft:
        ident, seen = check_ident(draft_id), _version(version)
        with self.database_errors(), self.write_session() as session:
            return self._apply(session, self._current(session, ident), seen, by, now, values)

    @staticmethod
    def _current(session: Session, ident: int) -> Draft:
        row = session.get(DraftRow, ident)
        if row is None:
            raise InputError(f"A minuta nº {ident} não existe.", field="/minuta")
        return _draft_of(row)

    @staticmethod
    def _apply(session: Session, current: Draft, seen: int, by: str, now: datetime | None,
               values: dict[str, Any]) -> Draft:
        if current.status.final:
            raise InputError(f"A minuta nº {current.id} já foi {current.status.label} "
                             f"({current.changed}); não pode mais ser alterada.",
                             field="/minuta")
        if current.version != seen:
            raise StaleDraft(current)
        changed = session.execute(
            update(DraftRow)
            .where(DraftRow.id == current.id, DraftRow.version == seen)
            .values(**values, updated_by=_who(by), updated_at=now or datetime.now(UTC),
                    version=seen + 1)
            .execution_options(synchronize_session=False)
        )
        if getattr(changed, "rowcount", 1) != 1:  # changed between the read and the write
            raise StaleDraft(current)
        row = session.get(DraftRow, current.id, populate_existing=True)
        assert row is not None
        return _draft_of(row)
