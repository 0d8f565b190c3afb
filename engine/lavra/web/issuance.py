"""Issuing and cancelling from the web: who may, and the call to the issuer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.errors import InputError
from lavra.registry.drafts import Draft
from lavra.registry.records import IssuedRecord
from lavra.web.context import WebContext
from lavra.web.users import User


def may_issue(ctx: WebContext, user: User, form_id: str) -> bool:
    form = ctx.form(form_id)
    return bool(form.series) and user.may_sign(form.signer_role)


def may_cancel(ctx: WebContext, user: User, record: IssuedRecord) -> bool:
    """A signer who may sign documents of the record's form may cancel it, once."""
    if record.cancelled:
        return False
    form = ctx.engine.content.forms.get(record.form)
    return form is not None and user.may_sign(form.signer_role)


def issue_document(
    ctx: WebContext,
    form_id: str,
    data: Mapping[str, Any],
    key: str | None,
    user: User,
    password: str | None = None,
    signer: Any = None,
) -> Any:
    """Number, sign and record the document; raises the issuer's errors (pt-BR).

    ``password``: typed by the signer at signing (the page asks it; an API token
    signs without it). ``signer``: the signer's key already unlocked by
    :func:`signer_of` (a batch unlocks it once), else it is unlocked here."""
    if not may_issue(ctx, user, form_id):
        raise InputError("A sua conta não pode emitir este documento.")
    issuer = ctx.require_issuer()
    if signer is None:
        signer = signer_of(ctx, user, form_id, password)
    with ctx.render_lock:
        return issuer.issue(form_id, data, idempotency_key=key, actor=user.actor, signer=signer)


def signer_of(ctx: WebContext, user: User, form_id: str, password: str | None = None) -> Any:
    """The logged-in signer's own key for the form's role (the person signs, by name).

    ``password`` (the page's "Senha de assinatura"): in production it unlocks the
    person's PKCS#12; with the development certificates it must be the account's own
    password (the development files' passphrase is public)."""
    role = ctx.form(form_id).signer_role
    if role is None:
        raise InputError("Este formulário não é assinado pela Secretaria.")
    if password is not None:
        if not password:
            raise InputError("Informe a sua senha de assinatura para emitir.")
        if not ctx.config.production_signing and ctx.users.authenticate(
                user.name, password) is None:
            raise InputError("Senha de assinatura incorreta. Nada foi emitido.")
    return ctx.require_issuer().signer_for(
        user.name, user.full_name, role,
        password if ctx.config.production_signing else None)


#: The signing password's field on the form page (never kept nor echoed).
PASSWORD_FIELD = "_senha_assinatura"


def issue_from_draft(
    ctx: WebContext,
    form_id: str,
    data: Mapping[str, Any],
    key: str | None,
    user: User,
    draft: Draft | None,
    password: str | None = None,
    signer: Any = None,
) -> Any:
    """Issue the document; when it comes from a stored draft, the draft is marked
    ``emitido`` with the document's id (an issued or discarded draft is not issued)."""
    if draft is not None:
        if draft.form != form_id:
            raise InputError("A minuta é de outro formulário.")
        if draft.status.final:
            raise InputError(f"A minuta nº {draft.id} já foi {draft.status.label} "
                             f"({draft.changed}); não pode ser emitida.")
    result = issue_document(ctx, form_id, data, key, user, password, signer)
    if draft is not None:
        ctx.registry.mark_draft_issued(draft.id, document_id=result.record.id, by=user.actor)
    return result
