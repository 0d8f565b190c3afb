"""Helpers shared by the pages: templates, CSRF, the signed-in account, form submission."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from starlette.datastructures import FormData, UploadFile

from lavra.errors import InputError, LavraError, UnknownFormError
from lavra.inputs import pointers
from lavra.inputs.formats import mask_holder_key
from lavra.signing.persons import signer_label
from lavra.web.context import WebContext
from lavra.web.formmodel import MAX_FIELDS
from lavra.web.users import User

HERE = Path(__file__).resolve().parent
TEMPLATES_DIR = HERE / "templates"
STATIC_DIR = HERE / "static"


def _date_br(value: Any) -> str:
    return value.strftime("%d/%m/%Y") if hasattr(value, "strftime") else str(value or "")


def _datetime_br(value: Any) -> str:
    return value.strftime("%d/%m/%Y %H:%M") if hasattr(value, "strftime") else str(value or "")


def make_templates() -> Jinja2Templates:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["data_br"] = _date_br
    env.filters["assinante"] = signer_label
    env.filters["data_hora_br"] = _datetime_br
    env.filters["cpf_cnpj"] = lambda value: mask_holder_key(str(value or ""))
    env.filters["urlquote"] = lambda value: quote(str(value), safe="")
    return Jinja2Templates(env=env)


def context_of(request: Request) -> WebContext:
    ctx: WebContext = request.app.state.lavra
    return ctx


def templates_of(request: Request) -> Jinja2Templates:
    templates: Jinja2Templates = request.app.state.templates
    return templates


# ------------------------------------------------------------------------ CSRF
def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if not isinstance(token, str) or len(token) < 20:
        token = secrets.token_urlsafe(32)
        request.session["csrf"] = token
    return token


def check_csrf(request: Request, form: FormData) -> None:
    sent = form.get("csrf")
    expected = request.session.get("csrf")
    if (
        not isinstance(sent, str)
        or not isinstance(expected, str)
        or not hmac.compare_digest(sent.encode(), expected.encode())
    ):
        raise CsrfError()


class CsrfError(LavraError):
    def __init__(self) -> None:
        super().__init__(
            "O formulário expirou ou não foi enviado por esta página (proteção contra "
            "falsificação de requisições). Recarregue a página e envie novamente."
        )


class AccessDenied(LavraError):
    """The signed-in account may not do this."""


class NotFound(InputError):
    """Nothing with that key (a 404 page, or the API's 404 problem)."""


class BadRequest(InputError):
    """A key in the address that cannot name anything (a 400 page)."""


class LoginRequired(LavraError):
    def __init__(self, path: str) -> None:
        super().__init__("É preciso entrar com a sua conta para acessar esta página.")
        self.path = path


async def read_form(request: Request, *, files: int = 0) -> FormData:
    ctx = context_of(request)
    form = await request.form(
        max_files=files,
        max_fields=MAX_FIELDS + 50,
        max_part_size=ctx.settings.max_upload_bytes + 1024,
    )
    check_csrf(request, form)
    return form


async def uploaded_pdf(request: Request, form: FormData, name: str = "arquivo") -> bytes:
    upload = form.get(name)
    if not isinstance(upload, UploadFile):
        raise InputError("Escolha o arquivo PDF a enviar.", field="/arquivo")
    limit = context_of(request).settings.max_upload_bytes
    content = await upload.read(limit + 1)
    await upload.close()
    if len(content) > limit:
        raise InputError(
            f"O arquivo excede o tamanho máximo de {limit // (1024 * 1024)} MiB.", field="/arquivo"
        )
    return content


def text_pairs(form: FormData) -> list[tuple[str, str]]:
    return [(k, v) for k, v in form.multi_items() if isinstance(v, str)]


# ------------------------------------------------------------------------ accounts
def current_user(request: Request) -> User | None:
    cached = getattr(request.state, "user", None)
    if isinstance(cached, User):
        return cached
    session = request.session.get("sid")
    if not isinstance(session, str):
        return None
    user = context_of(request).users.session_user(session)
    if user is None:
        return None
    request.state.user = user
    return user


def current_session(request: Request) -> str | None:
    """The server-side session id the cookie carries (None when signed out)."""
    session = request.session.get("sid")
    return session if isinstance(session, str) else None


def require_user(request: Request) -> User:
    user = current_user(request)
    if user is None:
        raise LoginRequired(request.url.path)
    return user


def require_admin(request: Request) -> User:
    user = require_user(request)
    if not user.is_admin:
        raise AccessDenied("Somente a administração pode gerir as contas da equipe.")
    return user


# ------------------------------------------------------------------------ responses
def page(
    request: Request, name: str, values: Mapping[str, Any] | None = None, status: int = 200
) -> HTMLResponse:
    ctx = context_of(request)
    org = ctx.engine.content.organization
    base = {
        "request": request,
        "csrf": csrf_token(request),
        "usuario": current_user(request),
        "orgao": org,
        "aviso": request.query_params.get("aviso"),
    }
    base.update(values or {})
    response: HTMLResponse = templates_of(request).TemplateResponse(
        request, name, base, status_code=status
    )
    return response


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


# The labels of the fields of the application's own pages (login, verification, accounts,
# facts...), named in a message whose text does not already say which field it is about.
# A form's own fields are never named here: their messages are shown at the field.
PAGE_FIELDS = {
    "/senha": "Senha", "/codigo": "Código de verificação", "/arquivo": "Arquivo",
    "/motivo": "Motivo", "/usuario": "Usuário", "/nome": "Nome completo", "/papel": "Papel",
    "/papeis": "Assina como", "/descricao": "Descrição", "/on": "Data de referência",
    "/issued_on": "Data de emissão", "/protocolo": "Protocolo",
}


def form_labels(request: Request, form_id: str) -> Callable[[str], str]:
    """The label the form ``form_id`` gives the field at a pointer of its data, for
    :func:`error_message`: «Empresa ou entidade requerente › Razão social»."""
    ctx = context_of(request)
    return lambda pointer: ctx.field_label(form_id, pointer)


def error_message(error: LavraError, form_label: Callable[[str], str] | None = None) -> str:
    """The message a person reads: never a JSON pointer nor a form id. The field, when
    the message does not name it already, by the label the page shows beside it, or,
    for a field of a form's data, by ``form_label`` (the form's label of a pointer: the
    JSON API, whose scripts show the message where no field is beside it)."""
    if isinstance(error, UnknownFormError):
        return ("Formulário não encontrado: confira o endereço ou escolha o documento na "
                "lista de requerimentos.")
    field = error.field or ""
    label = PAGE_FIELDS.get(field, "")
    if not label and form_label is not None and field.startswith("/"):
        named = form_label(field)
        label = "" if "«" in named else named  # a key the form has no label for: unsaid
    said = pointers.said_as(error.message, field, label)
    if said is not None:
        return said
    if label and label.lower() not in error.message.lower():
        return f"{error.message} (campo «{label}»)"
    return error.message


def file_response(content: bytes, filename: str, media_type: str, *, inline: bool) -> Response:
    disposition = "inline" if inline else "attachment"
    return Response(
        content,
        media_type=media_type,
        headers={
            "Content-Disposition": f'{disposition}; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )


PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
