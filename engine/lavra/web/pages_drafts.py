"""Drafts staff keep in the registry: save, list, resume, forward for signing, discard.

The staff form posts «Salvar minuta» (and «Encaminhar para assinatura») to
``/equipe/novo/{form}/salvar``, with the draft's id and version in hidden fields once it
was saved: the first save creates the draft, the next ones update it, refused when
another person changed it since (:class:`lavra.registry.drafts.StaleDraft`), the typed
data shown again with the message.

A save posted when the session has expired stores nothing: the answer is the sign-in
page, which carries the data as typed in a hidden field (``pendente``); signing in
there saves the draft as the account that signed in, then opens it. Nothing is kept on
the server meanwhile, and the data never left the person's own page.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.checking.content import FormSpec
from lavra.errors import InputError, LavraError
from lavra.inputs.reading import parse_data
from lavra.registry.drafts import Draft, DraftStatus, StaleDraft
from lavra.web.common import (
    PDF,
    NotFound,
    check_csrf,
    context_of,
    current_user,
    error_message,
    file_response,
    page,
    read_form,
    redirect,
    require_user,
    text_pairs,
)
from lavra.web.context import WebContext
from lavra.web.formmodel import MAX_FIELDS
from lavra.web.forms import form_page, submission
from lavra.web.staffcheck import staff_check, staff_draft
from lavra.web.users import User

router = APIRouter(include_in_schema=False)

SAVE = "salvar"
FORWARD = "encaminhar"
_NAME_KEYS = ("razao_social", "nome")


@dataclass(frozen=True)
class DraftSave:
    """A save asked for: the form, the data as typed, the draft it updates (if any)."""

    form: str
    data: dict[str, Any]
    draft_id: int | None
    version: int | None
    action: str
    signer_account: str | None = None


# ------------------------------------------------------------------ helpers
def draft_title(ctx: WebContext, form_id: str, data: Mapping[str, Any]) -> str:
    """The title staff see: the form's, then the first name and plate the data holds
    (searched breadth first, as the registry's search keys are)."""
    found: dict[str, str] = {}
    queue: list[Any] = [data]
    while queue:
        current = queue.pop(0)
        items = current.items() if isinstance(current, Mapping) else enumerate(current)
        for key, value in items:
            if key in (*_NAME_KEYS, "placa") and isinstance(value, str) and value.strip():
                found.setdefault("nome" if key in _NAME_KEYS else "placa", value.strip())
            elif isinstance(value, Mapping | list):
                queue.append(value)
    parts = [ctx.form_title(form_id), *(found[k] for k in ("nome", "placa") if k in found)]
    return " — ".join(parts)[:300]


async def preview(ctx: WebContext, form_id: str, data: Mapping[str, Any],
                  filename: str) -> Response:
    """The MINUTA PDF of ``data`` (no number, no signature), shown in the browser."""

    def render() -> bytes:
        with ctx.render_lock:
            return staff_draft(ctx, form_id, data).pdf  # the registry's items pending

    pdf = await run_in_threadpool(render)
    return file_response(pdf, filename, PDF, inline=True)


def _number(value: object, name: str) -> int | None:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        return None
    if not text.isdigit() or len(text) > 12:
        raise InputError(f"{name} inválido(a): abra a minuta novamente.")
    return int(text)


def _account(value: object) -> str | None:
    """The signer account «Encaminhar a» names (empty: anyone of the role)."""
    text = value.strip().lower() if isinstance(value, str) else ""
    return text[:80] or None


def _draft(ctx: WebContext, draft_id: int) -> Draft:
    found = ctx.registry.draft(draft_id)
    if found is None:
        raise NotFound("A minuta não consta do registro.")
    return found


def draft_of_post(ctx: WebContext, posted: Mapping[str, Any]) -> Draft | None:
    """The draft a staff form names in its hidden ``_minuta`` field, if any."""
    ident = _number(posted.get("_minuta"), "Número da minuta")
    return None if ident is None else _draft(ctx, ident)


def store(ctx: WebContext, user: User, save: DraftSave) -> Draft:
    """Save (or update) the draft, and forward it when asked."""
    form = ctx.form(save.form)
    title = draft_title(ctx, form.id, save.data)
    if save.draft_id is None:
        draft = ctx.registry.save_draft(form.id, save.data, title=title, by=user.actor)
    else:
        current = _draft(ctx, save.draft_id)
        if current.form != form.id:
            raise InputError("A minuta é de outro formulário.")
        draft = ctx.registry.update_draft(current.id, save.data, version=save.version or 0,
                                          title=title, by=user.actor)
    if save.action == FORWARD:
        if not (form.series and form.signer_role):
            raise InputError("Este documento não é assinado: não há a quem encaminhá-lo.")
        account = save.signer_account or None
        if account is not None:
            chosen = ctx.users.by_name(account)
            if chosen is None or not chosen.may_sign(form.signer_role):
                raise InputError("A pessoa escolhida em «Encaminhar a» não assina este "
                                 "documento; escolha outra ou deixe para quem assina no "
                                 "papel.")
        draft = ctx.registry.forward_draft(draft.id, version=draft.version,
                                           signer_role=form.signer_role, by=user.actor,
                                           signer_account=account)
    return draft


def _saved(draft: Draft, action: str) -> Response:
    notice = "minuta-encaminhada" if action == FORWARD else "minuta-salva"
    return redirect(f"/equipe/minutas/{draft.id}?aviso={notice}")


def _refused(request: Request, form: FormSpec, save: DraftSave, draft: Draft | None,
             user: User, error: LavraError) -> Response:
    """The form again with the data as typed and the reason nothing was saved (the
    message names the draft: no field pointer is shown)."""
    message = error.message if error.field == "/minuta" else error_message(error)
    return form_page(request, form, save.data, staff=True, report=None, show_errors=False,
                     error=message, status=409 if isinstance(error, StaleDraft) else 422,
                     user=user, draft=draft)


# ------------------------------------------------------------------ save
@router.post("/equipe/novo/{form_id}/salvar")
async def draft_save(request: Request, form_id: str) -> Response:
    ctx = context_of(request)
    form = ctx.form(form_id)
    posted = await request.form(max_files=0, max_fields=MAX_FIELDS + 50,
                                max_part_size=ctx.settings.max_upload_bytes + 1024)
    user = await run_in_threadpool(current_user, request)
    sent = submission(request, form.id, text_pairs(posted))
    action = FORWARD if sent.action == FORWARD else SAVE
    save = DraftSave(form.id, sent.data, _number(posted.get("_minuta"), "Número da minuta"),
                     _number(posted.get("_versao"), "Versão da minuta"), action,
                     _account(posted.get("_assinante")))
    if user is None:  # nothing stored: the sign-in page keeps what was typed
        pending = json.dumps({"formulario": save.form, "dados": save.data,
                              "minuta": save.draft_id, "versao": save.version,
                              "acao": save.action, "assinante": save.signer_account},
                             ensure_ascii=False)
        return page(request, "entrar.html", {
            "proximo": f"/equipe/novo/{form.id}", "usuario_digitado": "",
            "pendente": pending, "erro": "A sua sessão expirou e a minuta ainda não foi "
            "salva. Entre novamente: os dados digitados serão salvos em seguida."}, 401)
    check_csrf(request, posted)
    try:
        draft = await run_in_threadpool(store, ctx, user, save)
    except LavraError as error:
        current = ctx.registry.draft(save.draft_id) if save.draft_id else None
        return _refused(request, form, save, current, user, error)
    return _saved(draft, action)


def pending_save(value: object) -> DraftSave | None:
    """The save a sign-in page carried (``pendente``), read as strictly as a post."""
    if not isinstance(value, str) or not value.strip():
        return None
    raw = parse_data(value, source="da minuta pendente")
    data, form = raw.get("dados"), raw.get("formulario")
    draft_id, version, action = raw.get("minuta"), raw.get("versao"), raw.get("acao")
    account = _account(raw.get("assinante"))
    if not (isinstance(data, dict) and isinstance(form, str)
            and all(v is None or (isinstance(v, int) and not isinstance(v, bool) and v > 0)
                    for v in (draft_id, version))):
        raise InputError("Os dados da minuta pendente estão incompletos; preencha o "
                         "formulário novamente.")
    return DraftSave(form, data, draft_id, version, FORWARD if action == FORWARD else SAVE,
                     account)


async def save_after_login(request: Request, user: User, save: DraftSave) -> Response:
    """Signing in from an expired save: store it now, as the account that signed in."""
    ctx = context_of(request)
    form = ctx.form(save.form)
    try:
        draft = await run_in_threadpool(store, ctx, user, save)
    except LavraError as error:
        current = ctx.registry.draft(save.draft_id) if save.draft_id else None
        return _refused(request, form, save, current, user, error)
    return _saved(draft, save.action)


# ------------------------------------------------------------------ list, open, discard
@router.get("/equipe/minutas")
async def drafts_list(request: Request, formulario: str | None = None,
                      situacao: str | None = None) -> Response:
    require_user(request)
    ctx = context_of(request)
    form = formulario if formulario in ctx.engine.content.forms else None
    status = situacao if situacao in {s.value for s in DraftStatus} else None
    found = await run_in_threadpool(lambda: ctx.registry.drafts(form=form, status=status))
    return page(request, "minutas.html", {
        "minutas": found, "formularios": ctx.staff_forms(), "situacoes": list(DraftStatus),
        "formulario": form or "", "situacao": status or "", "titulo_de": ctx.form_title,
        "papeis": ctx.signer_roles()})


@router.get("/equipe/minutas/{draft_id}")
async def draft_open(request: Request, draft_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    draft = await run_in_threadpool(_draft, ctx, draft_id)
    form = ctx.form(draft.form)
    report = await run_in_threadpool(staff_check, ctx, form.id, draft.data)
    notices = {"minuta-salva": "Minuta salva.",
               "minuta-encaminhada": "Minuta salva e encaminhada para assinatura."}
    return form_page(request, form, draft.data, staff=True, report=report, show_errors=False,
                     user=user, draft=draft,
                     notice=notices.get(request.query_params.get("aviso") or ""))


@router.post("/equipe/minutas/{draft_id}/descartar")
async def draft_discard(request: Request, draft_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    posted = await read_form(request)
    version = _number(posted.get("_versao"), "Versão da minuta") or 0
    try:
        await run_in_threadpool(lambda: ctx.registry.discard_draft(draft_id, version=version,
                                                                   by=user.actor))
    except LavraError as error:  # changed or closed meanwhile: the draft as it is now
        draft = await run_in_threadpool(_draft, ctx, draft_id)
        return form_page(request, ctx.form(draft.form), draft.data, staff=True, report=None,
                         show_errors=False, error=error.message, user=user, draft=draft,
                         status=409 if isinstance(error, StaleDraft) else 422)
    return redirect("/equipe/minutas?aviso=minuta-descartada")
