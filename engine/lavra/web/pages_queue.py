"""The signing queue (SEI's «bloco de assinatura»): what waits for the signed-in signer.

``/equipe/assinaturas`` lists the drafts forwarded to a role the account signs in (and
to no one or to this account), each opened at ``/equipe/assinaturas/{id}`` to be read
(the MINUTA PDF) before signing. The signer signs one or several at once: every signing
asks the signing password again, which unlocks the signer's key once for the whole
selection (:func:`lavra.web.issuance.signer_of`); a wrong password signs nothing. Each
draft is then issued by the same path as the staff form
(:func:`lavra.web.issuance.issue_from_draft`), so the licence state and completeness
are checked at that moment, draft by draft: one refused does not stop the others, and
the page reports each one. A signer may also return a draft to the clerk, with the
reason («Devolver»).

A draft is signed as it was when the signer opened the queue: the selection names each
draft's version, and a draft changed since is refused (open it again and read it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.checking.report import Report
from lavra.errors import InputError, LavraError
from lavra.registry.drafts import Draft, DraftStatus
from lavra.web.common import (
    AccessDenied,
    NotFound,
    context_of,
    error_message,
    page,
    read_form,
    redirect,
    require_user,
)
from lavra.web.context import WebContext
from lavra.web.issuance import PASSWORD_FIELD, issue_from_draft, signer_of
from lavra.web.pages_drafts import preview
from lavra.web.users import MAX_PASSWORD, User

router = APIRouter(include_in_schema=False)

#: The checkboxes of «Assinar selecionados» and the button of one row: ``id:versão``.
SELECTED = "minutas"
ONE = "assinar"
_MAX_BATCH = 200


@dataclass(frozen=True)
class Outcome:
    """What became of one draft of a signing: signed (the document) or refused (why)."""

    draft_id: int
    title: str
    document_id: int | None = None
    number: str | None = None
    reason: str | None = None
    pending: tuple[str, ...] = ()
    """The completeness report's pending items that refused it, each with its article."""


def signs(user: User) -> bool:
    """Whether the account signs documents at all (an active signer with a role)."""
    return any(user.may_sign(role) for role in user.signer_roles)


def pending_count(ctx: WebContext, user: User) -> int:
    """How many drafts wait for ``user`` (0 for an account that signs nothing)."""
    if not signs(user):
        return 0
    return ctx.registry.signing_queue_count(user.signer_roles, account=user.name)


def queue_of(ctx: WebContext, user: User) -> tuple[Draft, ...]:
    if not signs(user):
        return ()
    return ctx.registry.signing_queue(user.signer_roles, account=user.name)


def waits_for(draft: Draft, user: User) -> bool:
    """Whether the draft is in ``user``'s queue now."""
    return (draft.status is DraftStatus.FORWARDED and user.may_sign(draft.signer_role)
            and draft.signer_account in (None, user.name))


def parse_picks(values: Iterable[object]) -> list[tuple[int, int]]:
    """The drafts chosen (``id:versão`` each), in order, each once."""
    picks: dict[int, int] = {}
    for value in values:
        ident, _, version = (value if isinstance(value, str) else "").partition(":")
        if not (ident.isdigit() and version.isdigit() and len(ident) + len(version) < 20):
            raise InputError("Seleção de minutas inválida: abra a lista novamente.")
        picks.setdefault(int(ident), int(version))
    if not picks:
        raise InputError("Selecione ao menos uma minuta para assinar.")
    if len(picks) > _MAX_BATCH:
        raise InputError(f"Assine no máximo {_MAX_BATCH} minutas de cada vez.")
    return list(picks.items())


def _refusal(ident: int, version: int, draft: Draft | None, user: User) -> str | None:
    if draft is None:
        return f"A minuta nº {ident} não consta do registro."
    if draft.status is not DraftStatus.FORWARDED:
        return (f"A minuta já não aguarda assinatura: está {draft.status.label} "
                f"({draft.changed}).")
    if not waits_for(draft, user):
        return "A minuta foi encaminhada a outra pessoa; a sua conta não a assina."
    if draft.version != version:
        return (f"A minuta foi alterada {draft.changed}, depois que você a abriu; abra-a "
                "novamente e leia-a antes de assinar.")
    return None


def sign_drafts(ctx: WebContext, user: User, picks: Sequence[tuple[int, int]],
                password: str) -> tuple[Outcome, ...]:
    """Sign the chosen drafts: the key unlocked once per role, before any is issued (a
    wrong password raises and signs nothing), then each issued on its own."""
    found = [(ident, version, ctx.registry.draft(ident)) for ident, version in picks]
    keys: dict[str, Any] = {}
    for ident, version, draft in found:
        if draft is None or _refusal(ident, version, draft, user) is not None:
            continue
        role = ctx.form(draft.form).signer_role
        if role is not None and role not in keys:  # unlocked here, once for the batch
            keys[role] = ctx.require_issuer().signers.unlock(
                signer_of(ctx, user, draft.form, password), role)
    if not keys:  # nothing can be signed: still, a wrong password is said as such
        signer_of_any(ctx, user, password)
    outcomes = []
    for ident, version, draft in found:
        refused = _refusal(ident, version, draft, user)
        if refused is not None or draft is None:
            outcomes.append(Outcome(ident, draft.title if draft else "", reason=refused))
            continue
        try:
            result = issue_from_draft(
                ctx, draft.form, draft.data, f"minuta-{draft.id}-v{draft.version}", user,
                draft, password, keys.get(ctx.form(draft.form).signer_role or ""))
        except LavraError as error:
            outcomes.append(Outcome(ident, draft.title, reason=error_message(error),
                                    pending=_pending(ctx, getattr(error, "report", None))))
            continue
        outcomes.append(Outcome(ident, draft.title, result.record.id, result.record.printed))
    return tuple(outcomes)


def _pending(ctx: WebContext, report: Report | None) -> tuple[str, ...]:
    if report is None:
        return ()
    return tuple(
        item.message + (f" ({'; '.join(ctx.cite(c).short for c in item.basis)})"
                        if item.basis else "")
        for item in report.pending)


def signer_of_any(ctx: WebContext, user: User, password: str) -> None:
    """Check the password for an account whose selection holds nothing to sign."""
    forms = [f for f in ctx.staff_forms() if f.series and user.may_sign(f.signer_role)]
    if not forms:
        raise AccessDenied("A sua conta não assina documentos.")
    signer_of(ctx, user, forms[0].id, password)


def _queue_page(request: Request, ctx: WebContext, user: User, *, status: int = 200,
                error: str | None = None, outcomes: Sequence[Outcome] = ()) -> Response:
    return page(request, "assinaturas.html", {
        "minutas": queue_of(ctx, user), "titulo_de": ctx.form_title, "erro": error,
        "resultados": outcomes, "assinadas": sum(1 for o in outcomes if o.document_id),
        "assina": signs(user),
        "campo_senha": PASSWORD_FIELD}, status)


def _waiting(ctx: WebContext, user: User, draft_id: int) -> Draft:
    draft = ctx.registry.draft(draft_id)
    if draft is None:
        raise NotFound("A minuta não consta do registro.")
    if not waits_for(draft, user):
        raise NotFound("Esta minuta não aguarda a sua assinatura.")
    return draft


# ------------------------------------------------------------------ pages
@router.get("/equipe/assinaturas")
async def signing_queue(request: Request) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    return await run_in_threadpool(lambda: _queue_page(request, ctx, user))


@router.post("/equipe/assinaturas/assinar")
async def sign_selected(request: Request) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    posted = await read_form(request)
    one = posted.get(ONE)
    chosen = [one] if isinstance(one, str) and one else posted.getlist(SELECTED)
    password = str(posted.get(PASSWORD_FIELD) or "")[:MAX_PASSWORD]
    try:
        picks = parse_picks(chosen)
        outcomes = await run_in_threadpool(sign_drafts, ctx, user, picks, password)
    except LavraError as error:
        message = error_message(error)
        return await run_in_threadpool(lambda: _queue_page(
            request, ctx, user, status=422, error=message))
    return await run_in_threadpool(lambda: _queue_page(request, ctx, user,
                                                       outcomes=outcomes))


@router.get("/equipe/assinaturas/{draft_id}")
async def queued_draft(request: Request, draft_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    draft = await run_in_threadpool(_waiting, ctx, user, draft_id)
    return page(request, "assinatura.html", {
        "minuta": draft, "titulo_de": ctx.form_title, "campo_senha": PASSWORD_FIELD,
        "papeis": ctx.signer_roles(), "erro": None, "motivo": ""})


@router.get("/equipe/assinaturas/{draft_id}/minuta.pdf")
async def queued_draft_pdf(request: Request, draft_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    draft = await run_in_threadpool(_waiting, ctx, user, draft_id)
    return await preview(ctx, draft.form, draft.data, f"minuta-{draft.id}.pdf")


@router.post("/equipe/assinaturas/{draft_id}/devolver")
async def return_draft(request: Request, draft_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    posted = await read_form(request)
    draft = await run_in_threadpool(_waiting, ctx, user, draft_id)
    reason = str(posted.get("motivo") or "")[:1000]
    version = str(posted.get("_versao") or "")
    try:
        if not version.isdigit() or len(version) > 12:
            raise InputError("Versão da minuta inválida: abra a minuta novamente.")
        await run_in_threadpool(lambda: ctx.registry.return_draft(
            draft.id, version=int(version), reason=reason, by=user.actor))
    except LavraError as error:
        return page(request, "assinatura.html", {
            "minuta": draft, "titulo_de": ctx.form_title, "campo_senha": PASSWORD_FIELD,
            "papeis": ctx.signer_roles(), "erro": error.message, "motivo": reason}, 422)
    return redirect("/equipe/assinaturas?aviso=minuta-devolvida")
