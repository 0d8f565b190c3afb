"""Pages of the legal staff: sign-in, new documents, issuing, the registry, accounts."""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.errors import InputError, LavraError
from lavra.inputs.textnorm import clean_text, nfc
from lavra.registry.queries import RegistryPage
from lavra.web.common import (
    DOCX,
    PDF,
    AccessDenied,
    NotFound,
    context_of,
    current_session,
    error_message,
    file_response,
    form_labels,
    page,
    read_form,
    redirect,
    require_admin,
    require_user,
    text_pairs,
)
from lavra.web.context import WebContext
from lavra.web.docpage import document_response
from lavra.web.forms import form_page, live_report, submission
from lavra.web.issuance import PASSWORD_FIELD, issue_from_draft, may_cancel
from lavra.web.pages_drafts import draft_of_post, pending_save, save_after_login
from lavra.web.pages_queue import pending_count, signs
from lavra.web.prefill_state import start_from_plate
from lavra.web.registry_search import filters_of, page_context, query_of, row_of, search_page
from lavra.web.staffcheck import staff_check, staff_draft
from lavra.web.users import MAX_PASSWORD, ROLE_LABELS, Role, User, parse_role

router = APIRouter(include_in_schema=False)
PER_PAGE = 25


# ------------------------------------------------------------------ sign-in
def _safe_next(value: Any) -> str:
    text = value if isinstance(value, str) else ""
    if text.startswith("/equipe") and "//" not in text and "\\" not in text:
        return text
    return "/equipe"


@router.get("/entrar")
async def login_page(request: Request, proximo: str | None = None) -> Response:
    return page(request, "entrar.html", {"proximo": _safe_next(proximo), "erro": None,
                                         "usuario_digitado": ""})


@router.post("/entrar")
async def login(request: Request) -> Response:
    ctx = context_of(request)
    form = await read_form(request)
    name = nfc(str(form.get("usuario") or "")).strip().lower()[:80]
    password = str(form.get("senha") or "")[:256]
    target = _safe_next(form.get("proximo"))
    pending = str(form.get("pendente") or "") or None
    kept = {"proximo": target, "usuario_digitado": name, "pendente": pending}
    address = request.client.host if request.client else "desconhecido"
    wait = ctx.throttle.wait_seconds(name, address)
    if wait:
        return page(
            request,
            "entrar.html",
            {**kept,
             "erro": f"Muitas tentativas de entrada sem sucesso. Aguarde {wait} segundo(s) "
                     "e tente novamente."},
            429,
        )
    user = await run_in_threadpool(ctx.users.authenticate, name, password)
    if user is None:
        ctx.throttle.failed(name, address)
        return page(
            request,
            "entrar.html",
            {**kept, "erro": "Usuário ou senha incorretos."},
            401,
        )
    ctx.throttle.succeeded(name)
    previous = current_session(request)
    if previous is not None:  # a new id at every sign-in: no session fixation
        await run_in_threadpool(ctx.users.close_session, previous)
    session = await run_in_threadpool(
        ctx.users.open_session, user.id, ctx.settings.session_max_age
    )
    request.session.clear()
    request.session.update({"sid": session, "csrf": secrets.token_urlsafe(32)})
    request.state.user = user
    try:
        save = pending_save(pending)
    except LavraError as error:
        return page(request, "erro.html", {"mensagem": error_message(error), "situacao": 422},
                    422)
    if save is not None:  # a save posted after the session expired (pages_drafts)
        return await save_after_login(request, user, save)
    return redirect(target)


@router.post("/sair")
async def logout(request: Request) -> Response:
    await read_form(request)
    session = current_session(request)
    if session is not None:  # ended on the server: a copy of the cookie opens nothing
        await run_in_threadpool(context_of(request).users.close_session, session)
    request.session.clear()
    return redirect("/entrar?aviso=saiu")


# ------------------------------------------------------------------ home
@router.get("/equipe")
async def staff_home(request: Request) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    waiting = await run_in_threadpool(pending_count, ctx, user)
    return page(request, "equipe.html", {"formularios": ctx.staff_forms(),
                                         "assina": signs(user), "pendentes": waiting})


# ------------------------------------------------------------------ new document
@router.get("/equipe/novo/{form_id}")
async def new_document(request: Request, form_id: str, placa: str | None = None) -> Response:
    """A new document; a form that starts from a vehicle's plate (an auto) is filled
    from the licensing state when ``placa`` is given (lavra.web.prefill_state)."""
    user = require_user(request)
    ctx = context_of(request)
    form = ctx.form(form_id)
    plate = await run_in_threadpool(start_from_plate, ctx, form.id, placa, user, ctx.today())
    data: dict[str, Any] = dict(plate.data) if plate is not None else {}
    report = await run_in_threadpool(staff_check, ctx, form.id, data)
    return form_page(request, form, data, staff=True, report=report, show_errors=False, user=user,
                     plate=plate)


@router.post("/equipe/novo/{form_id}")
async def new_document_post(request: Request, form_id: str) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    form = ctx.form(form_id)
    posted = await read_form(request)
    pairs = text_pairs(posted)
    # The plate box stays on every re-shown page of a form that starts from a plate
    # (empty: the form's own fields keep what was typed).
    plate = start_from_plate(ctx, form.id, None, user, ctx.today())
    try:
        sent = submission(request, form.id, pairs)
    except LavraError as error:
        return form_page(request, form, {}, staff=True, report=None, show_errors=False,
                         error=error_message(error, form_labels(request, form.id)), status=422,
                         user=user, plate=plate)
    if sent.action == "emitir":
        if not (form.series and user.may_sign(form.signer_role)):
            raise AccessDenied(
                "A sua conta não pode emitir este documento: a emissão cabe a quem assina "
                "como " + (ctx.signer_roles().get(form.signer_role or "") or "o signatário")
                + "."
            )
        key = str(posted.get("_chave") or "")[:100] or None
        password = str(posted.get(PASSWORD_FIELD) or "")[:MAX_PASSWORD]
        draft = None
        try:
            draft = await run_in_threadpool(draft_of_post, ctx, posted)
            result = await run_in_threadpool(issue_from_draft, ctx, form.id, sent.data, key,
                                             user, draft, password)
        except LavraError as error:
            report = getattr(error, "report", None)
            if report is None:
                report = await run_in_threadpool(staff_check, ctx, form.id, sent.data)
            return form_page(request, form, sent.data, staff=True, report=report,
                             show_errors=True, status=422, user=user,
                             error=error_message(error, form_labels(request, form.id)),
                             draft=draft, plate=plate)
        return redirect(f"/equipe/documentos/{result.record.id}?aviso=emitido")
    report = await run_in_threadpool(staff_check, ctx, form.id, sent.data)
    return form_page(request, form, sent.data, staff=True, report=report,
                     show_errors=sent.action == "verificar", extra_rows=sent.extra_rows,
                     user=user, plate=plate)


@router.post("/equipe/novo/{form_id}/relatorio")
async def new_document_live(request: Request, form_id: str) -> Response:
    require_user(request)
    form = context_of(request).form(form_id)
    posted = await read_form(request)
    return await live_report(request, form.id, text_pairs(posted),  # type: ignore[no-any-return]
                             staff=True)


@router.post("/equipe/novo/{form_id}/minuta")
async def new_document_draft(request: Request, form_id: str) -> Response:
    require_user(request)
    ctx = context_of(request)
    form = ctx.form(form_id)
    posted = await read_form(request)
    sent = submission(request, form.id, text_pairs(posted))

    def draft() -> bytes:
        with ctx.render_lock:
            return staff_draft(ctx, form.id, sent.data).pdf

    pdf = await run_in_threadpool(draft)
    return file_response(pdf, f"minuta-{form.id}.pdf", PDF, inline=True)


# ------------------------------------------------------------------ registry
@router.get("/equipe/registro")
async def registry_search(
    request: Request, q: str | None = None, formulario: str | None = None,
    serie: str | None = None, ano: str | None = None, situacao: str | None = None,
    de: str | None = None, ate: str | None = None, signatario: str | None = None,
    pagina: str | None = None,
) -> Response:
    """The registry: with no query the latest documents, newest first; the query and
    the filters combine, and the pages keep them (lavra.web.registry_search)."""
    require_user(request)
    ctx = context_of(request)
    typed = {"q": (q or "").strip()[:200], "formulario": (formulario or "")[:120],
             "serie": (serie or "")[:40], "ano": (ano or "")[:10],
             "situacao": (situacao or "")[:20], "de": (de or "")[:40],
             "ate": (ate or "")[:40], "signatario": (signatario or "")[:200]}
    found: RegistryPage | None = None
    voided: tuple[Any, ...] = ()
    error = None
    wanted = (pagina or "1").strip()[:7]
    number = int(wanted) if wanted.isascii() and wanted.isdigit() else 1
    try:
        query = query_of(typed["q"])
        filters = filters_of(ctx, form=typed["formulario"], series=typed["serie"],
                             year=typed["ano"], status=typed["situacao"],
                             since=typed["de"], until=typed["ate"],
                             signer=typed["signatario"])
        found = await run_in_threadpool(search_page, ctx, query, filters,
                                        max(1, min(number, 1_000_000)), PER_PAGE)
        if query is not None:
            voided = await run_in_threadpool(ctx.registry.voided_search, query.text)
    except LavraError as exc:
        error = error_message(exc)
    kept = {key: value for key, value in typed.items() if value}
    return page(request, "registro.html", {
        **typed, "pagina": found, "erro": error, "inutilizados": voided,
        "linhas": [row_of(ctx, record) for record in found.records] if found else [],
        "anterior": urlencode({**kept, "pagina": found.page - 1}) if found else "",
        "seguinte": urlencode({**kept, "pagina": found.page + 1}) if found else "",
        **page_context(ctx)})


def _document(ctx: WebContext, document_id: int) -> Any:
    record = ctx.registry.get_by_id(document_id)
    if record is None:
        raise NotFound("Documento não consta do registro.", field="/documento")
    return record


@router.get("/equipe/documentos/{document_id}")
async def document_page(request: Request, document_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    record = await run_in_threadpool(_document, ctx, document_id)
    return await document_response(request, ctx, user, record)


@router.get("/equipe/documentos/{document_id}/documento.pdf")
async def document_pdf(request: Request, document_id: int) -> Response:
    require_user(request)
    ctx = context_of(request)
    record = await run_in_threadpool(_document, ctx, document_id)
    pdf = await run_in_threadpool(ctx.registry.pdf, record.id)
    return file_response(pdf, f"{record.series}-{record.number:04d}-{record.year}.pdf", PDF,
                         inline=False)


@router.get("/equipe/documentos/{document_id}/documento.docx")
async def document_docx(request: Request, document_id: int) -> Response:
    require_user(request)
    ctx = context_of(request)
    record = await run_in_threadpool(_document, ctx, document_id)
    docx = await run_in_threadpool(ctx.registry.docx, record.id)
    if docx is None:
        raise InputError("Este documento foi emitido sem a versão DOCX.")
    return file_response(docx, f"{record.series}-{record.number:04d}-{record.year}.docx", DOCX,
                         inline=False)


@router.post("/equipe/documentos/{document_id}/cancelar")
async def document_cancel(request: Request, document_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    form = await read_form(request)
    record = await run_in_threadpool(_document, ctx, document_id)
    if not may_cancel(ctx, user, record):
        raise AccessDenied("A sua conta não pode cancelar este documento.")
    reason = clean_text(str(form.get("motivo") or ""), field="/motivo").strip()
    if len(reason) < 10:
        raise InputError("Informe o motivo do cancelamento (ao menos 10 caracteres).",
                         field="/motivo")
    issuer = ctx.require_issuer()
    await run_in_threadpool(issuer.cancel, record.formatted, reason, user.actor, record.series)
    return redirect(f"/equipe/documentos/{record.id}?aviso=cancelado")


# ------------------------------------------------------------------ accounts
def _accounts_page(request: Request, *, erro: str | None = None, token: str | None = None,
                   status: int = 200) -> Response:
    ctx = context_of(request)
    return page(
        request,
        "contas.html",
        {"contas": ctx.users.all(), "tokens": ctx.users.tokens(), "papeis": ROLE_LABELS,
         "papeis_assinatura": ctx.signer_roles(), "erro": erro, "novo_token": token},
        status,
    )


@router.get("/equipe/contas")
async def accounts(request: Request) -> Response:
    require_admin(request)
    return _accounts_page(request)


def _signer_roles(ctx: WebContext, values: list[str]) -> list[str]:
    known = ctx.signer_roles()
    unknown = [v for v in values if v not in known]
    if unknown:
        raise InputError(f"Papel de assinatura desconhecido: {', '.join(unknown)}.",
                         field="/papeis")
    return values


@router.post("/equipe/contas")
async def account_add(request: Request) -> Response:
    require_admin(request)
    ctx = context_of(request)
    form = await read_form(request)
    try:
        role = parse_role(str(form.get("papel") or ""))
        roles = _signer_roles(ctx, [str(v) for v in form.getlist("papeis_assinatura")])
        await run_in_threadpool(
            lambda: ctx.users.add(
                clean_text(str(form.get("usuario") or ""), field="/usuario"),
                str(form.get("senha") or ""),
                role,
                full_name=clean_text(str(form.get("nome") or ""), field="/nome"),
                signer_roles=roles,
                registration=clean_text(str(form.get("matricula") or ""), what="A matrícula",
                                        field="/matricula"),
            )
        )
    except LavraError as error:
        return _accounts_page(request, erro=error_message(error), status=422)
    return redirect("/equipe/contas?aviso=conta-criada")


@router.post("/equipe/contas/{user_id}")
async def account_update(request: Request, user_id: int) -> Response:
    admin = require_admin(request)
    ctx = context_of(request)
    form = await read_form(request)
    try:
        target = ctx.users.get(user_id)
        if target is None:
            raise InputError("Conta inexistente.", field="/usuario")
        role = parse_role(str(form.get("papel") or target.role.value))
        active = form.get("ativa") == "sim"
        _guard_last_admin(ctx, admin, target, role, active)
        roles = _signer_roles(ctx, [str(v) for v in form.getlist("papeis_assinatura")])
        registration = form.get("matricula")
        ctx.users.update(user_id, role=role, signer_roles=roles, active=active,
                         registration=None if registration is None else clean_text(
                             str(registration), what="A matrícula", field="/matricula"))
        password = str(form.get("senha") or "")
        if password:  # the other sessions of the account end; one's own stays open
            keep = current_session(request) if admin.id == user_id else None
            ctx.users.set_password(user_id, password, keep_session=keep)
    except LavraError as error:
        return _accounts_page(request, erro=error_message(error), status=422)
    return redirect("/equipe/contas?aviso=conta-alterada")


def _guard_last_admin(ctx: WebContext, admin: User, target: User, role: Role,
                      active: bool) -> None:
    losing = target.is_admin and (role is not Role.ADMIN or not active)
    if losing and ctx.users.count_admins() <= 1:
        raise InputError("Não é possível retirar a última conta de administração.")


@router.post("/equipe/contas/{user_id}/tokens")
async def token_create(request: Request, user_id: int) -> Response:
    require_admin(request)
    ctx = context_of(request)
    form = await read_form(request)
    try:
        description = clean_text(str(form.get("descricao") or ""), field="/descricao")
        _, secret = ctx.users.create_token(user_id, description)
    except LavraError as error:
        return _accounts_page(request, erro=error_message(error), status=422)
    return _accounts_page(request, token=secret)


@router.post("/equipe/tokens/{token_id}/revogar")
async def token_revoke(request: Request, token_id: int) -> Response:
    require_admin(request)
    await read_form(request)
    context_of(request).users.revoke_token(token_id)
    return redirect("/equipe/contas?aviso=token-revogado")
