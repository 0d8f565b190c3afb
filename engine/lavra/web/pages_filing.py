"""Filing a requerimento online: attachments, confirmation, protocol number and receipt.

``POST /requerimentos/{form}/protocolar`` takes the requerimento's fields (from its
page) and shows the filing page: the documents the checklist asks for, each with its
file, who files it, what the report leaves pending. ``.../protocolar/confirmar``
receives it (multipart): the attachments are checked (size per file and per filing;
type read from the bytes; PDFs opened and images decoded in the sandbox), the
requerimento is protocolled (:class:`lavra.filing.FilingDesk`) and the person is sent
to the protocol's page, with the receipt to download. Nothing is written when anything is refused.

The filing page carries an idempotency token (hidden field ``token``, issued with the
page): a second send of the same page (a double click, a resent request) is shown the
first protocol (``/protocolo/{código}?repetido=1``), not given a new number. Filings
count per CPF/CNPJ and address in a sliding hour (:data:`lavra.web.throttle.FILING_PER_HOLDER`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from lavra.errors import InputError, LavraError
from lavra.filing import FilingDesk, mask_doc
from lavra.inputs.formats import is_cnpj, is_cpf, unmask
from lavra.inputs.reading import parse_data
from lavra.registry.filings import Attachment, sniff_type
from lavra.registry.records import search_keys
from lavra.web.common import context_of, error_message, page, read_form, redirect, text_pairs
from lavra.web.context import WebContext
from lavra.web.formmodel import ChecklistEntry, build_form, checklist
from lavra.web.forms import submission
from lavra.web.pages_public import fillable
from lavra.web.pdftasks import check_attachment, check_image
from lavra.web.publiccheck import public_check
from lavra.web.sandbox import run_isolated

router = APIRouter(include_in_schema=False)

_FILE_PREFIX = "anexo:"
_MAX_FILES = 40


def _items(ctx: WebContext, form_id: str, data: Mapping[str, Any], report: Any
           ) -> tuple[ChecklistEntry, ...]:
    root = build_form(ctx.schema(form_id), data, fields=ctx.engine.content.fields(
        ctx.form(form_id)), cite=ctx.cite, report=report, show_errors=False)
    return checklist(root, report)


def _filing_page(request: Request, form: Any, data: Mapping[str, Any], values: Mapping[
        str, str], errors: Mapping[str, str], status: int = 200, token: str = "") -> Response:
    ctx = context_of(request)
    report = public_check(ctx, form.id, data)
    return page(request, "protocolar.html", {
        "formulario": form,
        "dados": json.dumps(data, ensure_ascii=False),
        "itens": _items(ctx, form.id, data, report),
        "pendencias": [item.message for item in report.items if item.pending],
        "valores": values,
        "erros": errors,
        "token": token or secrets.token_urlsafe(24),
        "limite_arquivo": ctx.settings.max_attachment_bytes // (1024 * 1024),
        "limite_total": ctx.settings.max_filing_bytes // (1024 * 1024),
    }, status)


@router.post("/requerimentos/{form_id}/protocolar")
async def prepare(request: Request, form_id: str) -> Response:
    """The filing page for the requerimento's fields as typed on its page."""
    form = fillable(request, form_id)
    posted = await read_form(request)
    sent = submission(request, form.id, text_pairs(posted))
    holder, _ = search_keys(sent.data)
    return await run_in_threadpool(
        _filing_page, request, form, sent.data, {"documento": holder or ""}, {})


async def read_upload(ctx: WebContext, item: str, value: UploadFile
                      ) -> tuple[Attachment | None, str | None]:
    """One file sent for the checklist item ``item``: the attachment, or why it is refused
    (empty, over the size per file, not PDF/PNG/JPEG by its bytes, a PDF or an image the
    sandbox refuses: an image is decoded there whole, under its limits, and refused when
    truncated or over :data:`~lavra.web.pdftasks.MAX_IMAGE_PIXELS`); (None, None) for a
    file field left empty."""
    limit = ctx.settings.max_attachment_bytes
    content = await value.read(limit + 1)
    await value.close()
    name = (value.filename or "arquivo").replace("\\", "/").rsplit("/", 1)[-1][:255]
    if not content and not value.filename:
        return None, None
    if not content:
        return None, f"O arquivo «{name}» está vazio."
    if len(content) > limit:
        return None, (f"O arquivo «{name}» excede o tamanho máximo de "
                      f"{limit // (1024 * 1024)} MiB por arquivo.")
    if sniff_type(content) is None:
        return None, (f"O arquivo «{name}» não é PDF, PNG nem JPEG (o tipo é lido do "
                      "conteúdo do arquivo, não da extensão do nome).")
    check = check_attachment if sniff_type(content) == "application/pdf" else check_image
    try:  # PDFs opened, images decoded, in the sandbox
        reason = await run_in_threadpool(
            run_isolated, check, content, limits=ctx.settings.sandbox)
    except InputError as error:  # the sandbox's limits: time or memory
        reason = f"não pôde ser examinado: {error_message(error)}"
    if reason:
        return None, f"O arquivo «{name}» {reason}."
    return Attachment(item, name, content), None


async def _attachments(ctx: WebContext, posted: FormData, items: Mapping[str, str],
                       errors: dict[str, str]) -> list[Attachment]:
    """The files sent, one per checklist item; a refusal goes to ``errors`` at its item."""
    out: list[Attachment] = []
    total = 0
    for key, value in posted.multi_items():
        if not key.startswith(_FILE_PREFIX) or not isinstance(value, UploadFile):
            continue
        item = key.removeprefix(_FILE_PREFIX)
        if item not in items:
            await value.close()
            if value.filename:
                errors["anexos"] = "Um dos arquivos não corresponde a um documento da lista."
            continue
        attachment, refusal = await read_upload(ctx, item, value)
        if refusal:
            errors[key] = refusal
        elif attachment is not None:
            total += attachment.size
            out.append(attachment)
    if total > ctx.settings.max_filing_bytes:
        errors["anexos"] = ("Os arquivos anexados somam mais que o máximo de "
                            f"{ctx.settings.max_filing_bytes // (1024 * 1024)} MiB por "
                            "requerimento.")
    return out


@router.post("/requerimentos/{form_id}/protocolar/confirmar")
async def confirm(request: Request, form_id: str) -> Response:
    ctx = context_of(request)
    form = fillable(request, form_id)
    posted = await read_form(request, files=_MAX_FILES)
    try:
        data = parse_data(str(posted.get("dados") or ""), source="do requerimento")
    except InputError as error:
        return page(request, "erro.html", {"mensagem": error_message(error)}, 422)
    values = {k: str(posted.get(k) or "").strip()[:300] for k in ("nome", "documento",
                                                                   "licenca")}
    token = str(posted.get("token") or "")[:100]
    desk = FilingDesk(ctx.require_issuer())
    if token and (is_cpf(values["documento"]) or is_cnpj(values["documento"])):
        try:
            earlier = await run_in_threadpool(desk.filings.by_token, token,
                                              values["documento"])
        except InputError as error:
            return page(request, "erro.html", {"mensagem": error_message(error)}, 422)
        if earlier is not None:
            return redirect(f"/protocolo/{earlier.receipt.verification_code}?repetido=1")
    errors: dict[str, str] = {}
    if not values["nome"]:
        errors["nome"] = "Informe o nome do requerente."
    doc = values["documento"]
    if not (is_cpf(doc) or is_cnpj(doc)):
        errors["documento"] = ("Informe um CPF (11 dígitos) ou CNPJ (14 caracteres) válido; "
                               "confira os dígitos verificadores.")
    if posted.get("confirmo") != "sim":
        errors["confirmo"] = "Confirme que as informações e os documentos são verdadeiros."
    report = await run_in_threadpool(public_check, ctx, form.id, data)
    items = {entry.pointer: entry.title for entry in _items(ctx, form.id, data, report)}
    try:
        attachments = await _attachments(ctx, posted, items, errors)
    except LavraError as error:
        errors["anexos"] = error_message(error)
        attachments = []
    address = request.client.host if request.client else "desconhecido"
    slot = None
    if not errors:  # the place is taken now (atomically) and given back if refused below
        slot = await run_in_threadpool(  # masked or not, one count
            ctx.filing_throttle.take, unmask(doc), address)
        if slot.wait:
            errors["anexos"] = (f"Muitos protocolos seguidos deste requerente ou desta rede. "
                                f"Aguarde {slot.wait} segundos e envie de novo.")
    if errors:
        return await run_in_threadpool(_filing_page, request, form, data, values, errors, 422,
                                       token)

    def file() -> Any:
        with ctx.render_lock:
            return desk.file(form.id, data, cpf_cnpj=doc, name=values["nome"],
                             attachments=attachments, item_titles=items,
                             licence=values["licenca"] or None, token=token or None,
                             limits={"max_attachment_bytes": ctx.settings.max_attachment_bytes,
                                     "max_total_bytes": ctx.settings.max_filing_bytes})

    assert slot is not None
    try:
        filed, _ = await run_in_threadpool(file)
    except BaseException as error:
        await run_in_threadpool(ctx.filing_throttle.release, slot)
        if not isinstance(error, InputError):
            raise
        field = (error.field or "").lstrip("/")
        key = _FILE_PREFIX + (error.field or "") if error.field in items else (
            field if field in ("licenca", "nome", "documento") else "anexos")
        return await run_in_threadpool(_filing_page, request, form, data, values,
                                       {key: error_message(error)}, 422, token)
    return redirect(f"/protocolo/{filed.receipt.verification_code}")


@router.get("/protocolo/{code}")
async def protocol_page(request: Request, code: str) -> Response:
    """The protocol just received: its number, when, and the receipt to download."""
    ctx = context_of(request)
    record = await run_in_threadpool(ctx.registry.by_code, code[:64])
    filed = None
    if record is not None:
        filed = await run_in_threadpool(
            FilingDesk(ctx.require_issuer()).filings.by_receipt, record.id)
    if filed is None:
        return page(request, "erro.html", {"mensagem": "Protocolo não encontrado."}, 404)
    return page(request, "protocolo.html", {
        "protocolo": filed, "titulo_formulario": ctx.form_title(filed.form),
        "documento": mask_doc(filed.cpf_cnpj),
        "repetido": request.query_params.get("repetido") == "1",
    })
