"""Sending again a document the staff refused: ``POST /acompanhar/reenviar``, public.

The tracking page (:mod:`lavra.web.pages_tracking`) lists each refused document with
its reason and last day, and a file field for its replacement. The form carries the
protocol and the CPF/CNPJ the person typed to see the page; they are checked again here,
as a look-up is (a wrong pair answers as an unknown protocol, and counts against the
same throttle). The file is read as a filing's are (size per file, type by its bytes,
PDFs opened in the sandbox: :func:`lavra.web.pages_filing.read_upload`); the registry
keeps it against the filing, beside the refused one, until the last day given with the
refusal, inclusive, in the secretariat's calendar (:meth:`lavra.registry.inbox.Inbox.
resend`); after it, the file is refused with the day the period ended. The staff inbox
then shows it as "reenviado", awaiting its review.

**The ciência of the refusal** (``POST /acompanhar/ciencia-recusa``). When the pack's
period runs from the ciência (:attr:`lavra.pack.ContentPack.filing_period`), the page
states the period and that the click on «Tomar ciência da recusa» records the ciência
(means ``eletronico``, the instant of the access) and starts it; the page then shows
the last day. Sending a document again before any ciência records it first, at that
instant: the applicant who answers the refusal knows of it. The reading is the
pack's, beside its period.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from lavra.errors import InputError, LavraError
from lavra.filing import PROTOCOL_SERIES
from lavra.registry.facts import Means
from lavra.registry.filings import Attachment, parse_protocol
from lavra.registry.inbox import Inbox
from lavra.textutil import format_date
from lavra.web.common import context_of, error_message, read_form
from lavra.web.context import WebContext
from lavra.web.pages_filing import read_upload
from lavra.web.pages_inbox import item_titles
from lavra.web.pages_tracking import NOT_FOUND, Tracking, authenticated, track, tracking_page

router = APIRouter(include_in_schema=False)


def take_ciencia(ctx: WebContext, found: Tracking) -> bool:
    """Record the applicant's ciência of the standing refusal now, when its period runs
    from it and none is on record; True when recorded."""
    period = ctx.engine.content.pack.filing_period
    if period is None or found.case is None or not found.case.awaiting_ciencia:
        return False
    filed = found.filed
    _, recorded = Inbox(ctx.registry).acknowledge(
        filed.id, at=ctx.now(), means=Means.ELECTRONIC.value, last_day=period,
        by=f"{filed.name}, requerente do protocolo {filed.protocol}")
    return recorded


def _keep(ctx: WebContext, found: Tracking, attachment_id: int,
          attachment: Attachment) -> Tracking | None:
    take_ciencia(ctx, found)
    Inbox(ctx.registry).resend(
        found.filed.id, attachment_id, attachment, on=ctx.today(),
        by=f"{found.filed.name} (requerente)", titles=item_titles(ctx.schema(found.filed.form)),
        max_attachment_bytes=ctx.settings.max_attachment_bytes,
        max_total_bytes=ctx.settings.max_filing_bytes)
    return track(ctx, found.filed.protocol, found.filed.cpf_cnpj)


@router.post("/acompanhar/reenviar")
async def resend(request: Request) -> Response:
    ctx = context_of(request)
    posted = await read_form(request, files=1)
    values = {key: " ".join(str(posted.get(key) or "").split())[:80]
              for key in ("protocolo", "documento")}
    address = request.client.host if request.client else "desconhecido"
    account = parse_protocol(values["protocolo"], PROTOCOL_SERIES) or values["protocolo"]
    upload = posted.get("arquivo")
    wait = ctx.tracking_throttle.wait_seconds(account, address)
    if wait:
        if isinstance(upload, UploadFile):
            await upload.close()
        return tracking_page(request, values, f"Muitas consultas sem resultado. Aguarde {wait} "
                     "segundos e tente de novo.", None, 429)
    found = None
    if values["protocolo"] and values["documento"]:
        found = await run_in_threadpool(track, ctx, values["protocolo"], values["documento"])
    if found is None:
        if isinstance(upload, UploadFile):
            await upload.close()
        ctx.tracking_throttle.failed(account, address)
        return tracking_page(request, values, NOT_FOUND, None, 404)
    ctx.tracking_throttle.succeeded(account)
    raw_id = str(posted.get("anexo") or "")
    refused = {a.id for a in (found.case.refused if found.case else ())}
    if not raw_id.isdigit() or int(raw_id) not in refused:
        if isinstance(upload, UploadFile):
            await upload.close()
        return tracking_page(request, values, None, found, 422, extra={"erro_reenvio": (
            "", "Este documento não aguarda reenvio: não foi recusado pela Secretaria "
            "ou já foi reenviado.")})
    attachment_id = int(raw_id)
    item = next(a.item for a in found.filed.attachments if a.id == attachment_id)
    attachment: Attachment | None = None
    refusal: str | None = "Escolha o arquivo a reenviar."
    if isinstance(upload, UploadFile):
        attachment, refusal = await read_upload(ctx, item, upload)
        if attachment is None and refusal is None:
            refusal = "Escolha o arquivo a reenviar."
    if attachment is None:
        return tracking_page(request, values, None, found, 422, extra=
                     {"erro_reenvio": (raw_id, refusal)})
    try:
        after = await run_in_threadpool(_keep, ctx, found, attachment_id, attachment)
    except InputError as error:
        return tracking_page(request, values, None, found, 422, extra=
                     {"erro_reenvio": (raw_id, error_message(error))})
    return tracking_page(request, values, None, after or found, 200,
                         extra={"reenviado": attachment.name})


@router.post("/acompanhar/ciencia-recusa")
async def refusal_ciencia(request: Request) -> Response:
    """«Tomar ciência da recusa» (the module's doc)."""
    ctx = context_of(request)
    values, answer, found, _ = await authenticated(request)
    if answer is not None or found is None:
        return answer or tracking_page(request, values, NOT_FOUND, None, 404)
    try:
        recorded = await run_in_threadpool(take_ciencia, ctx, found)
    except LavraError as error:
        return tracking_page(request, values, error_message(error), found, 422)
    after = await run_in_threadpool(track, ctx, found.filed.protocol, found.filed.cpf_cnpj)
    shown = after or found
    view = shown.case
    notice = ("Ciência da recusa registrada" if recorded else
              "A ciência da recusa já consta do registro")
    if view is not None and view.deadline is not None:
        notice += f": o último dia para reenviar é {format_date(view.deadline)}."
    else:
        notice += "."
    return tracking_page(request, values, None, shown, extra={"ciencia_recusa": notice})
