"""JSON endpoints mirroring the command line; the staff ones need a bearer token."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from datetime import date
from email.message import Message
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, File, Query, Request, UploadFile
from fastapi import Path as PathParam
from fastapi.responses import Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from lavra.errors import InputError, LavraError
from lavra.inputs.reading import MAX_DATA_BYTES, MAX_STRING_CHARS, check_date, load_json, parse_data
from lavra.inputs.textnorm import MAX_DEPTH, clean_text, clean_tree
from lavra.law.model import resolve
from lavra.signing.persons import signer_label
from lavra.web.common import DOCX, PDF, AccessDenied, NotFound, context_of, file_response
from lavra.web.context import WebContext
from lavra.web.issuance import issue_document, may_cancel, signer_of
from lavra.web.pages_public import _read, lookup, public_record, verify_upload_bytes
from lavra.web.registry_search import filters_of, query_of, search_page
from lavra.web.staffcheck import UNCHECKED, staff_check, staff_draft
from lavra.web.users import User


class _StrictJSONRequest(Request):
    """A request whose JSON body is the one :func:`lavra.inputs.reading.load_json` reads: no
    repeated key (another reader of the same body would see other data than the one
    checked and signed), every string in NFC and without invisible characters."""

    _strict: Any = None
    _parsed = False

    async def json(self) -> Any:
        if not self._parsed:
            body = await self.body()
            if len(body) > MAX_DATA_BYTES + 64 * 1024:
                raise InputError(
                    f"A requisição excede o tamanho máximo de {MAX_DATA_BYTES // 1024} KiB."
                )
            value = load_json(body, source="o corpo da requisição", inner=("data",))
            if isinstance(value, dict):
                if isinstance(value.get("form"), str):  # its labels name a field at fault
                    self.state.form = value["form"]
                # Fields of ``data`` are named from the data's root, as the report does.
                value = {
                    key: clean_tree(item, max_string=MAX_STRING_CHARS, max_depth=MAX_DEPTH)
                    if key == "data"
                    else clean_tree(item, max_string=MAX_STRING_CHARS, path=(key,))
                    for key, item in value.items()
                }
            self._strict = value
            self._parsed = True
        return self._strict


def _is_json(content_type: str | None) -> bool:
    if not content_type:
        return True
    message = Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


class StrictJSONRoute(APIRoute):
    """A route that parses JSON bodies with the engine's strict parser before FastAPI
    validates them: the declared models (and so /openapi.json) are unchanged, but a body
    with a repeated key or a hidden character is refused with a pt-BR error naming the
    field (422), and the models see the cleaned values."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            wrapped = _StrictJSONRequest(request.scope, request.receive)
            json_body = request.method in ("POST", "PUT", "PATCH") and _is_json(
                request.headers.get("content-type")
            )
            if json_body and await wrapped.body():
                await wrapped.json()
            return await handler(wrapped)

        return strict


router = APIRouter(prefix="/api", route_class=StrictJSONRoute)
bearer = HTTPBearer(auto_error=False, description="Token de acesso da equipe.")

FormId = Annotated[str, Field(min_length=1, max_length=120, description="Id do formulário.")]


class TokenRequired(LavraError):
    """No valid bearer token."""


class Problem(BaseModel):
    detail: str = Field(description="Mensagem em português.")
    field: str | None = Field(default=None, description="Ponteiro JSON do campo em causa.")


class DataRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    form: FormId
    data: dict[str, Any] = Field(default_factory=dict, description="Dados do formulário.")
    on: date | None = Field(default=None, description="Data de referência (AAAA-MM-DD).")


class DraftRequest(DataRequest):
    format: Literal["pdf", "docx"] = "pdf"


class PrefillRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    form: FormId
    data: dict[str, Any] = Field(default_factory=dict)


class IssueRequest(DataRequest):
    idempotency_key: str | None = Field(default=None, min_length=1, max_length=200)


class CancelRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field(min_length=10, max_length=2000, description="Motivo do cancelamento.")


ALERTS_DESCRIPTION = (
    "Avisos em português sobre conteúdo ativo do PDF enviado (JavaScript, ações que abrem "
    "programas ou enviam dados, arquivos embutidos, formulário XFA, links externos); "
    "vazio quando não há nenhum. Os dados lidos não dependem desse conteúdo."
)


class ReadResponse(BaseModel):
    form: str = Field(description="Id do formulário lido.")
    data: dict[str, Any] = Field(description="Dados lidos dos campos.")
    report: dict[str, Any] = Field(description="Relatório de completude.")
    alertas: list[str] = Field(default_factory=list, description=ALERTS_DESCRIPTION)


class VerifyResponse(BaseModel):
    """The issuer's verification result, with the warnings about the file's content."""

    model_config = ConfigDict(extra="allow")
    alertas: list[str] = Field(default_factory=list, description=ALERTS_DESCRIPTION)


ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": Problem, "description": "Não encontrado."},
    413: {"model": Problem, "description": "Requisição grande demais."},
    422: {"model": Problem, "description": "Entrada inválida."},
}
STAFF_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    401: {"model": Problem, "description": "Token ausente ou inválido."},
    403: {"model": Problem, "description": "Conta sem permissão."},
}


def _data(raw: dict[str, Any]) -> dict[str, Any]:
    """The same checks as the command line's data files (sizes, control characters)."""
    try:
        text = json.dumps(raw, ensure_ascii=False, allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        raise InputError("Os dados contêm valores não permitidos em JSON.", field="/data") from None
    return parse_data(text, source="data")


def _on(on: date | None) -> date | None:
    """The reference date of a request, within the range every date is held to."""
    return None if on is None else check_date(on, what="data de referência (on)", field="/on")


def staff_user(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> User:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise TokenRequired("Informe o token de acesso da equipe (Authorization: Bearer ...).")
    user = context_of(request).users.user_for_token(credentials.credentials)
    if user is None:
        raise TokenRequired("Token de acesso inválido, revogado ou de conta desativada.")
    return user


Staff = Annotated[User, Depends(staff_user)]


# ------------------------------------------------------------------ public
@router.get("/forms", summary="Formulários do pacote de conteúdo", responses=ERRORS)
def forms(request: Request) -> list[dict[str, Any]]:
    ctx = context_of(request)
    return [
        {"id": f.id, "titulo": f.title, "tipo": f.kind, "lei": f.law,
         "preenchivel": f.fillable, "serie": f.series, "papel_assinatura": f.signer_role,
         "fundamento": list(f.basis)}
        for f in ctx.staff_forms()
    ]


@router.get("/forms/{form_id}/schema", summary="JSON Schema do formulário", responses=ERRORS)
def form_schema(request: Request, form_id: str) -> dict[str, Any]:
    return context_of(request).schema(form_id)


def maybe_staff(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> User | None:
    """The staff account of the token, when one is sent (a bad one is refused); None
    for a call without a token."""
    return None if credentials is None else staff_user(request, credentials)


MaybeStaff = Annotated[User | None, Depends(maybe_staff)]


@router.post("/check", summary="Relatório de completude (lavra check)", responses=ERRORS)
def check(request: Request, body: DataRequest, user: MaybeStaff) -> dict[str, Any]:
    """Com o token da equipe, o relatório considera o cadastro (impedimento por cassação,
    licença em vigor, multa paga), como a emissão; sem ele, o cadastro não é consultado e
    o campo ``unchecked`` o diz."""
    ctx = context_of(request)
    data, on = _data(body.data), _on(body.on)
    if user is None:
        report: dict[str, Any] = ctx.engine.check(body.form, data, on).to_json()
        return {**report, "unchecked": UNCHECKED}
    return staff_check(ctx, body.form, data, on).to_json()


@router.post(
    "/draft",
    summary="Minuta em PDF ou DOCX (lavra draft)",
    responses={**ERRORS, 200: {"content": {PDF: {}, DOCX: {}}, "description": "A minuta."}},
    response_class=Response,
)
def draft(request: Request, body: DraftRequest, user: MaybeStaff) -> Response:
    """O relatório da minuta é o de /check; o cabeçalho ``X-Lavra-Cadastro`` diz se o
    cadastro foi consultado (``consultado``, com o token da equipe) ou não
    (``nao-consultado``)."""
    ctx = context_of(request)
    data, on, docx = _data(body.data), _on(body.on), body.format == "docx"
    with ctx.render_lock:
        rendered = (ctx.engine.draft(body.form, data, on, docx=docx) if user is None
                    else staff_draft(ctx, body.form, data, on, docx=docx))
    headers = {"X-Lavra-Pendencias": str(len(rendered.report.pending)),
               "X-Lavra-Cadastro": "nao-consultado" if user is None else "consultado"}
    if body.format == "docx" and rendered.docx is not None:
        response = file_response(rendered.docx, f"minuta-{body.form}.docx", DOCX, inline=False)
    else:
        response = file_response(rendered.pdf, f"minuta-{body.form}.pdf", PDF, inline=False)
    response.headers.update(headers)
    return response


@router.post(
    "/prefill",
    summary="Requerimento em PDF preenchível (lavra prefill)",
    responses={**ERRORS, 200: {"content": {PDF: {}}, "description": "O requerimento."}},
    response_class=Response,
)
def prefill(request: Request, body: PrefillRequest) -> Response:
    ctx = context_of(request)
    data = _data(body.data)
    with ctx.render_lock:
        pdf = ctx.engine.prefill(body.form, data)
    return file_response(pdf, f"{body.form}.pdf", PDF, inline=False)


async def _upload(request: Request, upload: UploadFile) -> bytes:
    limit = context_of(request).settings.max_upload_bytes
    content = await upload.read(limit + 1)
    if len(content) > limit:
        raise InputError(f"O arquivo excede o tamanho máximo de {limit // (1024 * 1024)} MiB.",
                         field="/file")
    return content


@router.post("/read", summary="Lê um requerimento preenchido (lavra read)", responses=ERRORS,
             response_model=ReadResponse)
async def read(
    request: Request,
    file: Annotated[UploadFile, File(description="Requerimento em PDF preenchido.")],
) -> dict[str, Any]:
    ctx = context_of(request)
    pdf = await _upload(request, file)
    result = await run_in_threadpool(_read, ctx, pdf)
    return {"form": result["form"], "data": result["data"], "report": result["report"].to_json(),
            "alertas": list(result["alertas"])}


@router.post("/verify", summary="Verifica um documento emitido (lavra verify)",
             responses=ERRORS, response_model=VerifyResponse)
async def verify(
    request: Request,
    file: Annotated[UploadFile, File(description="Documento emitido, em PDF.")],
) -> dict[str, Any]:
    ctx = context_of(request)
    pdf = await _upload(request, file)
    result: dict[str, Any] = await run_in_threadpool(verify_upload_bytes, ctx, pdf)
    return result


@router.get("/verify/{code}", summary="Registro público de um código de verificação",
            responses=ERRORS)
def verify_code(request: Request, code: Annotated[str, PathParam(max_length=64)]) -> dict[str, Any]:
    ctx = context_of(request)
    record = lookup(ctx, code[:64])
    if record is None:
        raise NotFound("Nenhum documento emitido tem este código de verificação.")
    return public_record(ctx, record, ctx.today())


@router.get("/law/{citation}", summary="Texto e referência de um dispositivo (lavra law show)",
            responses=ERRORS)
def law(request: Request, citation: str) -> dict[str, Any]:
    ctx = context_of(request)
    found = resolve(ctx.engine.content.laws, citation[:200])
    return {"citation": citation, "reference": found.reference, "short": found.short,
            "text": found.text or ""}


# ------------------------------------------------------------------ staff
def _record_json(ctx: WebContext, record: Any) -> dict[str, Any]:
    return {
        "id": record.id,
        "series": record.series,
        "number": record.formatted,
        "printed_number": record.printed,
        "form": record.form,
        "title": ctx.record_title(record),
        "verification_code": record.verification_code,
        "status": "cancelled" if record.cancelled else "issued",
        "issued_at": record.issued_at.isoformat(),
        "act_date": record.act_date.isoformat(),  # an imported act: its own date
        "reference_date": record.reference_date.isoformat(),
        "valid_until": record.valid_until.isoformat() if record.valid_until else None,
        "signer": signer_label(record.signer_subject),
        "cpf_cnpj": record.cpf_cnpj,
        "placa": record.placa,
        "cancel_reason": record.cancel_reason,
        "pdf": f"/api/documents/{record.id}/pdf",
        "docx": f"/api/documents/{record.id}/docx",
    }


@router.post("/issue", summary="Emite o documento: número, assinatura, registro (staff)",
             responses=STAFF_ERRORS, status_code=201)
def issue(request: Request, body: IssueRequest, user: Staff) -> dict[str, Any]:
    ctx = context_of(request)
    form = ctx.form(body.form)
    if not (form.series and user.may_sign(form.signer_role)):
        raise AccessDenied("A conta do token não pode emitir documentos deste formulário.")
    data = _data(body.data)
    if body.on is not None:
        issuer = ctx.require_issuer()
        signer = signer_of(ctx, user, body.form)
        with ctx.render_lock:
            result = issuer.issue(body.form, data, _on(body.on),
                                  idempotency_key=body.idempotency_key, actor=user.actor,
                                  signer=signer)
    else:
        result = issue_document(ctx, body.form, data, body.idempotency_key, user)
    return {**_record_json(ctx, result.record), "report": result.report.to_json()}


@router.get("/documents", summary="Busca e listagem do registro (número, código, CPF/CNPJ, "
            "placa, nome; filtros)", responses=STAFF_ERRORS)
def documents(
    request: Request, response: Response, user: Staff,
    q: Annotated[str | None, Query(
        max_length=200,
        description="Texto da busca: número com ou sem a série («ALV-FRET nº 0001/2026», "
        "«alv-fret 1/2026», «0001/2026»), código de verificação com ou sem hífens, CPF/CNPJ "
        "com ou sem máscara, placa antiga ou Mercosul (o veículo em qualquer das duas "
        "formas) ou nome de parte registrado no cadastro. Vazio: todos os documentos, "
        "do mais recente ao mais antigo.")] = None,
    form: Annotated[str | None, Query(max_length=120,
                                      description="Formulário (id do pacote de conteúdo)")
                    ] = None,
    series: Annotated[str | None, Query(max_length=40, description="Série (ex.: ALV-FRET)")
                      ] = None,
    year: Annotated[int | None, Query(ge=1900, le=2999, description="Ano da numeração")
                    ] = None,
    status: Annotated[Literal["issued", "cancelled"] | None, Query(
        description="Situação no registro: issued (válido) ou cancelled (cancelado)")] = None,
    issued_from: Annotated[date | None, Query(
        description="Emitidos a partir deste dia (AAAA-MM-DD, horário de Brasília)")] = None,
    issued_until: Annotated[date | None, Query(
        description="Emitidos até este dia, inclusive (AAAA-MM-DD)")] = None,
    signer: Annotated[str | None, Query(max_length=200,
                                        description="Nome de quem assinou, como no certificado")
                      ] = None,
    page: Annotated[int, Query(ge=1, le=1_000_000, description="Página, a partir de 1")] = 1,
    per_page: Annotated[int, Query(ge=1, le=200, description="Documentos por página")] = 50,
) -> list[dict[str, Any]]:
    """A mesma busca da página /equipe/registro. O total de documentos encontrados vem no
    cabeçalho ``X-Total-Count``."""
    ctx = context_of(request)
    query = query_of(q)
    filters = filters_of(ctx, form=form, series=series, year=year, status=status,
                         since=issued_from, until=issued_until, signer=signer)
    found = search_page(ctx, query, filters, page, per_page)
    response.headers["X-Total-Count"] = str(found.total)
    return [_record_json(ctx, r) for r in found.records]


def _get(ctx: WebContext, document_id: int) -> Any:
    if document_id < 1 or document_id > 2**62:
        raise NotFound("Documento não consta do registro.")
    record = ctx.registry.get_by_id(document_id)
    if record is None:
        raise NotFound("Documento não consta do registro.")
    return record


@router.get("/documents/{document_id}", summary="Documento do registro, com o histórico",
            responses=STAFF_ERRORS)
def document(request: Request, document_id: int, user: Staff) -> dict[str, Any]:
    ctx = context_of(request)
    record = _get(ctx, document_id)
    history = [
        {"kind": e.kind, "actor": e.actor, "at": e.at.isoformat(), "detail": e.detail,
         "occurred_at": e.occurred_at.isoformat() if e.occurred_at else None, "data": e.data}
        for e in ctx.registry.history(record.id)
    ]
    return {**_record_json(ctx, record), "data": dict(record.data), "history": history}


@router.get("/documents/{document_id}/pdf", summary="PDF assinado, como emitido",
            responses={**STAFF_ERRORS, 200: {"content": {PDF: {}}, "description": "O PDF."}},
            response_class=Response)
def document_pdf(request: Request, document_id: int, user: Staff) -> Response:
    ctx = context_of(request)
    record = _get(ctx, document_id)
    return file_response(ctx.registry.pdf(record.id), f"documento-{record.id}.pdf", PDF,
                         inline=False)


@router.get("/documents/{document_id}/docx", summary="DOCX emitido com o PDF",
            responses={**STAFF_ERRORS, 200: {"content": {DOCX: {}}, "description": "O DOCX."}},
            response_class=Response)
def document_docx(request: Request, document_id: int, user: Staff) -> Response:
    ctx = context_of(request)
    record = _get(ctx, document_id)
    docx = ctx.registry.docx(record.id)
    if docx is None:
        raise NotFound("Este documento foi emitido sem a versão DOCX.")
    return file_response(docx, f"documento-{record.id}.docx", DOCX, inline=False)


@router.post("/documents/{document_id}/cancel", summary="Cancela um documento (staff)",
             responses=STAFF_ERRORS)
def cancel(request: Request, document_id: int, body: CancelRequest,
           user: Staff) -> dict[str, Any]:
    ctx = context_of(request)
    record = _get(ctx, document_id)
    if not may_cancel(ctx, user, record):
        raise AccessDenied("A conta do token não pode cancelar este documento.")
    issuer = ctx.require_issuer()
    reason = clean_text(body.reason, field="/reason")
    done = issuer.cancel(record.formatted, reason, user.actor, record.series)
    return _record_json(ctx, done)

