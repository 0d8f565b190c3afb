"""The application factory: pages, JSON API, security headers, error pages in pt-BR.

    from lavra.web import create_app
    app = create_app()          # embedded defaults: SQLite registry, development PKI

The web application is a thin shell over the engine (``lavra.documents``) and the
issuer (``lavra.issuing``); the engine never imports it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from lavra.config import Config
from lavra.errors import (
    CitationError,
    InputError,
    LavraError,
    ParameterError,
    RenderError,
    UnknownFormError,
)
from lavra.web import (
    api,
    pages_appeal,
    pages_batch,
    pages_drafts,
    pages_facts,
    pages_filing,
    pages_inbox,
    pages_licences,
    pages_numbering,
    pages_public,
    pages_queue,
    pages_resend,
    pages_staff,
    pages_tracking,
    pages_values,
)
from lavra.web.batchjobs import BatchBusy
from lavra.web.common import (
    PAGE_FIELDS,
    STATIC_DIR,
    AccessDenied,
    BadRequest,
    CsrfError,
    LoginRequired,
    NotFound,
    error_message,
    form_labels,
    make_templates,
    page,
    redirect,
)
from lavra.web.context import WebContext, WebSettings

LOG = logging.getLogger("lavra.web")
SESSION_COOKIE = "lavra_sessao"

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'self'; frame-src 'self'; frame-ancestors 'self'; base-uri 'none'; "
    "form-action 'self'"
)
# The interactive API documentation page loads Swagger UI from its CDN with inline code.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://fastapi.tiangolo.com; frame-ancestors 'self'; base-uri 'none'"
)


class SecurityHeaders:
    """CSP without inline scripts, no MIME sniffing, framing only by our own pages."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        policy = DOCS_CSP if path in ("/docs", "/redoc") else CSP

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                extra = {
                    b"content-security-policy": policy.encode(),
                    b"x-content-type-options": b"nosniff",
                    b"x-frame-options": b"SAMEORIGIN",
                    b"referrer-policy": b"same-origin",
                    b"cross-origin-opener-policy": b"same-origin",
                    b"permissions-policy": b"camera=(), microphone=(), geolocation=()",
                }
                if path.startswith(("/equipe", "/entrar", "/api/documents", "/api/issue",
                                    "/api/batch")):
                    extra[b"cache-control"] = b"no-store"
                for name, value in extra.items():
                    if name not in names:
                        headers.append((name, value))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, sending)


class BodyLimit:
    """Refuse request bodies larger than ``limit`` bytes (413), declared or streamed.

    ``wide``: (path suffix, limit) of the one kind of request that carries several
    files (a requerimento filed with its attachments), whose pages check each file."""

    def __init__(self, app: ASGIApp, limit: int, shown_mib: int | None = None,
                 wide: tuple[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.shown_mib = shown_mib
        self.wide = wide

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.wide is not None and str(scope.get("path", "")).endswith(self.wide[0]):
            await BodyLimit(self.app, self.wide[1], None)(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.limit + 1
                if declared > self.limit:
                    await self._refuse(scope, send)
                    return
        seen = 0

        async def receiving() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge()
            return message

        try:
            await self.app(scope, receiving, send)
        except _TooLarge:
            await self._refuse(scope, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        message = (
            f"O envio excede o tamanho máximo de {self.shown_mib} MiB."
            if self.shown_mib
            else "A requisição excede o tamanho máximo permitido."
        )
        accept = dict(scope.get("headers", [])).get(b"accept", b"")
        if b"text/html" in accept and not scope.get("path", "").startswith("/api"):
            # A browser's form post: a page, not JSON (the templates are out of reach here).
            body = _TOO_LARGE_PAGE.format(message=message).encode()
            kind = b"text/html; charset=utf-8"
        else:
            body = json.dumps({"detail": message, "field": None}, ensure_ascii=False).encode()
            kind = b"application/json; charset=utf-8"
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", kind),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


_TOO_LARGE_PAGE = """<!DOCTYPE html>
<html lang="pt-BR">
<head><meta charset="utf-8"><title>Envio grande demais</title>
<link rel="stylesheet" href="/static/lavra.css"></head>
<body><main id="conteudo" class="largura">
<h1>Não foi possível atender à solicitação</h1>
<p class="erro" role="alert">{message} Envie um arquivo menor.</p>
<p><a href="/">Página inicial</a></p>
</main></body>
</html>
"""


class _TooLarge(Exception):
    pass


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api") or ("application/json" in request.headers.get(
        "accept", ""
    ) and "text/html" not in request.headers.get("accept", ""))


def _problem(request: Request, status: int, message: str, field: str | None = None,
             headers: Mapping[str, str] | None = None) -> Response:
    if _wants_json(request):
        return JSONResponse({"detail": message, "field": field}, status_code=status,
                            headers=dict(headers or {}))
    try:
        response = page(request, "erro.html", {"mensagem": message, "situacao": status}, status)
    except Exception:  # the error page itself failed: plain text still reaches the person
        LOG.exception("falha ao montar a página de erro")
        return Response(message, status_code=status, media_type="text/plain; charset=utf-8")
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def _status_of(error: LavraError) -> int:
    if isinstance(error, (UnknownFormError, NotFound)):
        return 404
    if isinstance(error, BadRequest):
        return 400
    if isinstance(error, (CsrfError, AccessDenied)):
        return 403
    if isinstance(error, api.TokenRequired):
        return 401
    if isinstance(error, BatchBusy):
        return 409
    if isinstance(error, (InputError, CitationError, ParameterError, RenderError)):
        return 422
    report = getattr(error, "report", None)
    if report is not None:  # IncompleteError of the issuer
        return 422
    return 500


async def _lavra_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, LavraError)
    if isinstance(error, LoginRequired):
        if _wants_json(request):
            return _problem(request, 401, error.message)
        return redirect("/entrar?proximo=" + quote(error.path, safe="/"))
    status = _status_of(error)
    if status >= 500:
        LOG.error("erro do lavra em %s: %s", request.url.path, error.message)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    report = getattr(error, "report", None)
    if report is not None and _wants_json(request) and hasattr(report, "to_json"):
        return JSONResponse({"detail": error.message, "field": error.field,
                             "report": report.to_json()}, status_code=status)
    return _problem(request, status, error_message(error, _form_label(request)), error.field,
                    headers)


def _form_label(request: Request) -> Callable[[str], str] | None:
    """The labels of the form a request is about (the JSON API's ``form``, kept in
    ``request.state.form`` as its body is read; a form page's ``form_id`` in its
    address), for an error on a field of its data: «Empresa › Razão social»."""
    form_id = getattr(request.state, "form", None) or request.path_params.get("form_id")
    return form_labels(request, form_id) if isinstance(form_id, str) else None


def _location(loc: Any) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    return "/" + "/".join(parts) if parts else "/"


def _validation_words(item: Mapping[str, Any]) -> str:
    """What pydantic found wrong with one field of a request, in pt-BR."""
    kind = str(item.get("type", ""))
    limits = item.get("ctx") or {}
    if kind == "missing":
        return "valor ausente"
    if kind.startswith("date"):
        return "data inexistente ou fora do formato AAAA-MM-DD (por exemplo, 2026-11-29)"
    if kind == "string_type":
        return "deve ser um texto"
    if kind == "string_too_short":
        return f"texto curto demais (mínimo de {limits.get('min_length', '?')} caracteres)"
    if kind == "string_too_long":
        return f"texto longo demais (máximo de {limits.get('max_length', '?')} caracteres)"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "deve ser um objeto JSON ({...})"
    if kind in ("list_type",):
        return "deve ser uma lista JSON ([...])"
    if kind.startswith("int") or kind.startswith("float"):
        return "deve ser um número"
    if kind.startswith("bool"):
        return "deve ser true ou false"
    return "valor inválido"


async def _validation_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    problems = [
        {"field": _location(item.get("loc", ())), "message": _validation_words(item)}
        for item in error.errors()
    ]
    # The person reads the words, each field by its page's label where it has one; the
    # pointers stay in "field" and "errors", for programs.
    text = "; ".join(
        f"{PAGE_FIELDS[p['field']]}: {p['message']}" if p["field"] in PAGE_FIELDS
        else p["message"] for p in problems[:5]
    )
    message = f"Requisição inválida ({text})."
    if _wants_json(request):
        return JSONResponse({"detail": message, "field": problems[0]["field"] if problems
                             else None, "errors": problems}, status_code=422)
    return _problem(request, 422, message)


HTTP_MESSAGES = {
    404: "Página não encontrada.",
    405: "Operação não permitida neste endereço.",
    401: "Acesso não autorizado.",
}


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, StarletteHTTPException)
    message = HTTP_MESSAGES.get(error.status_code, "Não foi possível atender à requisição.")
    if error.status_code == 400 and isinstance(error.detail, str):
        message = "Requisição malformada."
    return _problem(request, error.status_code, message,
                    headers=getattr(error, "headers", None))


async def _unexpected(request: Request, error: Exception) -> Response:
    LOG.exception("erro interno em %s", request.url.path)
    return _problem(
        request, 500,
        "Erro interno inesperado. Nada foi gravado. "
        "Tente novamente; se persistir, informe o suporte.",
    )


def _openapi(app: FastAPI, ctx: WebContext) -> dict[str, Any]:
    """The OpenAPI description, with the form ids and example data of the loaded pack."""
    if app.openapi_schema:
        return app.openapi_schema
    from fastapi.openapi.utils import get_openapi

    described = get_openapi(
        title=app.title, version=app.version, summary=app.summary,
        description=app.description, routes=app.routes,
    )
    forms = ctx.engine.content.forms
    examples = []
    for form in forms.values():
        if form.example is not None:
            try:
                examples.append(json.loads(form.example.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                continue
    for name, model in described.get("components", {}).get("schemas", {}).items():
        props = model.get("properties", {})
        if name.endswith("Request") and "form" in props:
            props["form"]["examples"] = sorted(forms)
            if "data" in props:
                props["data"]["examples"] = examples
    app.openapi_schema = described
    return described


def create_app(
    context: WebContext | None = None,
    *,
    config: Config | None = None,
    settings: WebSettings | None = None,
    issuer: Any | None = None,
) -> FastAPI:
    """The web application over one content pack, registry and issuer."""
    ctx = context or WebContext(config, settings, issuer=issuer)
    ctx.engine.content  # noqa: B018 - load the content pack now: a broken one fails here
    ctx.users  # noqa: B018 - opens (and migrates) the registry database
    app = FastAPI(
        title="lavra",
        summary=f"Documentos oficiais do órgão {ctx.engine.content.organization.sigla} "
        "conforme a lei",
        description=(
            "API do lavra: completude, minutas, requerimentos preenchíveis, leitura de "
            "requerimentos, emissão e verificação de documentos. As operações de emissão e "
            "de registro exigem o token de acesso da equipe (Authorization: Bearer)."
        ),
        version="0.1.0",
        docs_url="/docs",
        redoc_url=None,
    )
    app.state.lavra = ctx
    app.openapi = lambda: _openapi(app, ctx)  # type: ignore[method-assign]
    app.state.templates = make_templates()
    app.add_middleware(
        SessionMiddleware,
        secret_key=ctx.settings.secret_key,
        session_cookie=SESSION_COOKIE,
        max_age=ctx.settings.session_max_age,
        same_site="lax",
        https_only=ctx.settings.secure_cookies,
    )
    app.add_middleware(BodyLimit, limit=ctx.settings.max_upload_bytes + 256 * 1024,
                       shown_mib=max(1, ctx.settings.max_upload_bytes // (1024 * 1024)),
                       wide=("/protocolar/confirmar", ctx.settings.max_filing_bytes
                             + ctx.settings.max_attachment_bytes + 1024 * 1024))
    app.add_middleware(SecurityHeaders)  # outside BodyLimit: its 413 page gets them too
    if ctx.settings.trusted_proxies:
        # Outermost: every layer (and the login limits) sees the real client. Only a
        # peer among the trusted proxies may name another client, and the client is the
        # right-most forwarded address that is not a trusted proxy.
        app.add_middleware(ProxyHeadersMiddleware,
                           trusted_hosts=list(ctx.settings.trusted_proxies))
    app.add_exception_handler(LavraError, _lavra_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")
    app.include_router(api.router)
    app.include_router(pages_filing.router)
    app.include_router(pages_tracking.router)
    app.include_router(pages_appeal.router)
    app.include_router(pages_resend.router)
    app.include_router(pages_public.router)
    app.include_router(pages_staff.router)
    app.include_router(pages_drafts.router)
    app.include_router(pages_queue.router)
    app.include_router(pages_inbox.router)
    app.include_router(pages_licences.router)
    app.include_router(pages_facts.router)
    app.include_router(pages_facts.api_router)
    app.include_router(pages_values.router)
    app.include_router(pages_numbering.router)
    app.include_router(pages_batch.router)
    app.include_router(pages_batch.api_router)
    return app
