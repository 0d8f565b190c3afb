"""The recurso filed from the tracking page: ``POST /acompanhar/recurso``, public.

The applicant, identified by the protocol and the CPF/CNPJ that filed it (checked again,
and throttled as a look-up, :func:`lavra.web.pages_tracking.checked_pair`), appeals an
act of that processo: the reasons, optional attachments (PDF, PNG or JPEG, read and
limited as a filing's, :func:`lavra.web.pages_filing._attachments`) and the
confirmation. The act must be addressed to the filer, its appeal must be one the pack
files online (:attr:`lavra.pack.ContentPack.appeals`) and its period, counted from the
ciência on record, open on ``ctx.today()``
(:func:`lavra.web.pages_tracking.appeal_terms`); otherwise the page says why, in
pt-BR, and nothing is written. The pack builds the recurso's form and data; it is filed
as any requerimento (:class:`lavra.filing.FilingDesk`): its own PROT number and sealed
receipt, in the processo of the act appealed, which the data names; the staff inbox
lists it under the recurso's form. The answer is the protocol's page, as for a filing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.errors import InputError, LavraError
from lavra.filing import AppealQuery, FilingDesk
from lavra.recording import FactRecorder
from lavra.web.common import context_of, error_message, redirect
from lavra.web.context import WebContext
from lavra.web.pages_filing import _attachments
from lavra.web.pages_tracking import Tracking, appeal_terms, authenticated, tracking_page

router = APIRouter(include_in_schema=False)

#: The checklist item the recurso's attachments answer.
PROVAS = "/provas"
PROVAS_TITLE = "Provas e documentos do recurso"
_MAX_FILES = 10
_MAX_REASONS = 20_000


def _query(ctx: WebContext, found: Tracking, act_id: int, reasons: str) -> AppealQuery:
    """The appeal as the pack reads it; LavraError when none may be filed (the reason)."""
    filed = found.filed
    if act_id not in {act.id for act in found.acts}:
        raise LavraError("O ato indicado não pertence ao processo deste protocolo. Nada foi "
                         "protocolado.")
    record = ctx.registry.get_by_id(act_id)
    if record is None:  # pragma: no cover - listed a moment ago
        raise LavraError("O ato indicado não consta do registro.")
    deadline = appeal_terms(ctx, record, filed, FactRecorder(ctx.registry,
                                                             ctx.engine.content))
    return AppealQuery(
        act_form=record.form, act_data=record.data, act_printed=record.printed,
        act_issued_on=record.reference_date,
        ciencia_on=deadline.ciencia.on, citation=deadline.citation,
        last_day=deadline.last_day, cpf_cnpj=filed.cpf_cnpj, name=filed.name,
        reasons=reasons, on=ctx.today(),
        act_computed=record.computed if isinstance(record.computed, Mapping) else {})


@router.post("/acompanhar/recurso")
async def file_appeal(request: Request) -> Response:
    ctx = context_of(request)
    values, answer, found, posted = await authenticated(request, files=_MAX_FILES)
    if answer is not None or found is None:
        return answer or tracking_page(request, values, None, None, 404)
    act_id = int(values["ato"]) if values["ato"].isdigit() else 0
    reasons = str(posted.get("razoes") or "").strip()
    token = str(posted.get("token") or "")[:100]

    def refuse(message: str) -> Response:
        return tracking_page(request, values, message, found, 422)

    try:
        query = await run_in_threadpool(_query, ctx, found, act_id, reasons)
    except LavraError as error:
        return refuse(error_message(error))
    if not reasons:
        return refuse("Escreva as razões do recurso: o que na decisão deve ser revisto, e "
                      "por quê. Nada foi protocolado.")
    if len(reasons) > _MAX_REASONS:
        return refuse(f"As razões do recurso excedem {_MAX_REASONS} caracteres; resuma-as "
                      "ou anexe-as em PDF. Nada foi protocolado.")
    if posted.get("confirmo") != "sim":
        return refuse("Confirme que as informações e os documentos são verdadeiros. Nada "
                      "foi protocolado.")
    errors: dict[str, str] = {}
    attachments = await _attachments(ctx, posted, {PROVAS: PROVAS_TITLE}, errors)
    if errors:
        return refuse(" ".join(errors.values()) + " Nada foi protocolado.")
    address = request.client.host if request.client else "desconhecido"
    doc = found.filed.cpf_cnpj
    build = ctx.engine.content.pack.appeal_for(query.act_form, query.citation)
    if build is None:  # pragma: no cover - appeal_terms found it a moment ago
        return refuse("Este recurso não se protocola por esta página. Nada foi "
                      "protocolado.")
    form_id, data = build(query)
    desk = FilingDesk(ctx.require_issuer())
    # the place is taken now (atomically) and given back if the filing is refused
    slot = await run_in_threadpool(ctx.filing_throttle.take, doc, address)
    if slot.wait:
        return refuse(f"Muitos protocolos seguidos deste requerente ou desta rede. Aguarde "
                      f"{slot.wait} segundos e envie de novo.")

    def file() -> Any:
        with ctx.render_lock:
            return desk.file(form_id, data, cpf_cnpj=doc, name=found.filed.name,
                             attachments=attachments, item_titles={PROVAS: PROVAS_TITLE},
                             token=token or None, processo=found.filed.processo,
                             limits={"max_attachment_bytes": ctx.settings.max_attachment_bytes,
                                     "max_total_bytes": ctx.settings.max_filing_bytes})

    try:
        filed, _ = await run_in_threadpool(file)
    except BaseException as error:
        await run_in_threadpool(ctx.filing_throttle.release, slot)
        if not isinstance(error, InputError):
            raise
        return refuse(error_message(error) + " Nada foi protocolado.")
    return redirect(f"/protocolo/{filed.receipt.verification_code}")
