"""Pages anyone may use: requerimentos, reading a filled requerimento, verification."""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.errors import InputError, LavraError
from lavra.recording import FactDeadline, FactRecorder
from lavra.registry.guards import CitationPrinter
from lavra.registry.records import IssuedRecord
from lavra.signing.persons import signer_label
from lavra.signing.verification import normalize_code
from lavra.verifying import act_situation, licence_situation
from lavra.web.common import (
    PDF,
    context_of,
    error_message,
    file_response,
    form_labels,
    page,
    read_form,
    text_pairs,
    uploaded_pdf,
)
from lavra.web.context import WebContext
from lavra.web.forms import form_page, live_report, submission
from lavra.web.pdftasks import check_pdf_bytes, read_requerimento, verify_document
from lavra.web.publiccheck import public_check
from lavra.web.sandbox import run_isolated

router = APIRouter(include_in_schema=False)


@router.get("/")
async def home(request: Request) -> Response:
    return page(request, "inicio.html", {"requerimentos": context_of(request).fillable_forms()})


@router.get("/requerimentos")
async def requerimentos(request: Request) -> Response:
    return page(
        request, "requerimentos.html", {"requerimentos": context_of(request).fillable_forms()}
    )


def fillable(request: Request, form_id: str) -> Any:
    form = context_of(request).form(form_id)
    if not form.fillable:
        raise InputError(
            f"O formulário «{form.title}» não é um requerimento preenchível pelo interessado."
        )
    return form


# ------------------------------------------------------------------ reading a filled PDF
@router.get("/requerimentos/ler")
async def read_page(request: Request) -> Response:
    return page(request, "leitura.html", {"resultado": None, "erro": None})


def _read(ctx: WebContext, pdf: bytes) -> dict[str, Any]:
    check_pdf_bytes(pdf)
    schemas = {form.id: ctx.schema(form.id) for form in ctx.fillable_forms()}
    raw = run_isolated(read_requerimento, pdf, schemas, None, limits=ctx.settings.sandbox)
    form_id = str(raw["form"])
    data = raw["data"] if isinstance(raw.get("data"), dict) else {}
    alerts = tuple(str(a) for a in raw.get("alertas") or ())
    return {"form": form_id, "data": data, "report": public_check(ctx, form_id, data),
            "alertas": alerts}


@router.post("/requerimentos/ler")
async def read_upload(request: Request) -> Response:
    ctx = context_of(request)
    form = await read_form(request, files=1)
    try:
        pdf = await uploaded_pdf(request, form)
        result = await run_in_threadpool(_read, ctx, pdf)
    except LavraError as error:
        return page(
            request, "leitura.html", {"resultado": None, "erro": error_message(error)}, 422
        )
    spec = ctx.form(result["form"])
    return form_page(
        request,
        spec,
        result["data"],
        staff=False,
        report=result["report"],
        show_errors=True,
        notice=(
            "Dados lidos do requerimento enviado. Confira-os abaixo, com o relatório de "
            "completude; corrija o que for preciso e baixe de novo o requerimento."
        ),
        alerts=result["alertas"],
    )


# ------------------------------------------------------------------ requerimento form
@router.get("/requerimentos/{form_id}")
async def form_get(request: Request, form_id: str) -> Response:
    form = fillable(request, form_id)
    report = await run_in_threadpool(context_of(request).engine.check, form.id, {})
    return form_page(request, form, {}, staff=False, report=report, show_errors=False,
                     restore=True)


@router.post("/requerimentos/{form_id}")
async def form_post(request: Request, form_id: str) -> Response:
    form = fillable(request, form_id)
    ctx = context_of(request)
    posted = await read_form(request)
    pairs = text_pairs(posted)
    try:
        sent = submission(request, form.id, pairs)
    except LavraError as error:
        return form_page(
            request, form, {}, staff=False, report=None, show_errors=False,
            error=error_message(error, form_labels(request, form.id)), status=422,
        )
    if sent.action == "baixar":

        def prefill() -> bytes:
            with ctx.render_lock:
                return ctx.engine.prefill(form.id, sent.data)

        pdf = await run_in_threadpool(prefill)
        return file_response(pdf, f"{form.id}.pdf", PDF, inline=False)
    report = await run_in_threadpool(public_check, ctx, form.id, sent.data)
    return form_page(
        request,
        form,
        sent.data,
        staff=False,
        report=report,
        show_errors=sent.action == "verificar",
        extra_rows=sent.extra_rows,
    )


@router.post("/requerimentos/{form_id}/relatorio")
async def form_live(request: Request, form_id: str) -> Response:
    form = fillable(request, form_id)
    posted = await read_form(request)
    return await live_report(request, form.id, text_pairs(posted))  # type: ignore[no-any-return]


# ------------------------------------------------------------------ verification
def lookup(ctx: WebContext, code: str) -> IssuedRecord | None:
    canonical = normalize_code(code)
    issuer = ctx.issuer
    if issuer is not None:
        return issuer.lookup_code(canonical)
    return ctx.registry.by_code(canonical)


def public_record(ctx: WebContext, record: IssuedRecord, on: date) -> dict[str, Any]:
    """The minimal record the public may see for a valid code: nobody's personal data;
    for an act that granted a licence, the licence's status on ``on``."""
    licence = licence_situation(ctx.registry, record.id, on, personal=False)
    return {
        "numero": record.formatted,
        "serie": record.series,
        "numero_impresso": record.printed,
        "formulario": record.form,
        "titulo": ctx.record_title(record),
        "emitido_em": record.issued_at_local.isoformat(timespec="minutes"),
        "data_do_ato": record.act_date.isoformat(),  # an imported act: its own date
        "assinante": signer_label(record.signer_subject),
        "situacao": "cancelado" if record.cancelled else "válido",
        "cancelado_em": record.cancelled_at_local.isoformat(timespec="minutes")
        if record.cancelled_at_local
        else None,
        "valido_ate": record.valid_until.isoformat() if record.valid_until else None,
        "codigo": record.verification_code,
        "situacao_licenca": licence.text if licence else None,
        "licenca": licence.to_json() if licence else None,
        "divergencias": list(ctx.registry.public_divergences(record.id, _cite(ctx))),
        "situacao_ato": act_situation(ctx.registry, record.id),
    }


def _cite(ctx: WebContext) -> CitationPrinter:
    """Prints the article of an older divergência that stored its raw citation id
    (:func:`lavra.registry.guards.printed_basis`): the pack is loaded only then."""
    return lambda citation: ctx.engine.content.cite_short(citation)


def public_deadlines(ctx: WebContext, record: IssuedRecord) -> tuple[FactDeadline, ...]:
    """The last days counted from the ciência recorded on the document's entry (after
    the signature: the act itself leaves the ciência blank): dates only, not who
    recorded it."""
    return FactRecorder(ctx.registry, ctx.engine.content).deadlines(record)


async def _verify_code_page(request: Request, code: str) -> Response:
    ctx = context_of(request)
    try:
        record = await run_in_threadpool(lookup, ctx, code)
    except LavraError as error:
        return page(request, "verificar.html", {"codigo": code, "erro": error_message(error),
                                                "registro": None, "resultado": None}, 422)
    if record is None:
        return page(
            request,
            "verificar.html",
            {"codigo": code, "registro": None, "resultado": None,
             "erro": "Nenhum documento emitido tem este código de verificação. "
                     "Confira a digitação."},
            404,
        )
    licence = await run_in_threadpool(licence_situation, ctx.registry, record.id, ctx.today(),
                                      personal=False)
    return page(
        request,
        "verificar.html",
        {"codigo": record.verification_code, "registro": record, "erro": None,
         "resultado": None, "titulo": ctx.record_title(record), "licenca": licence,
         "divergencias": await run_in_threadpool(ctx.registry.public_divergences, record.id,
                                                 _cite(ctx)),
         "situacao_ato": await run_in_threadpool(act_situation, ctx.registry, record.id),
         "prazos_ciencia": await run_in_threadpool(public_deadlines, ctx, record)},
    )


@router.get("/verificar")
async def verify_page(request: Request, codigo: str | None = None) -> Response:
    if codigo:
        return await _verify_code_page(request, codigo[:64])
    return page(
        request, "verificar.html", {"codigo": "", "registro": None, "erro": None, "resultado": None}
    )


@router.get("/verificar/{code}")
async def verify_code(request: Request, code: str) -> Response:
    return await _verify_code_page(request, code[:64])


@router.get("/verificar/{code}/documento.pdf")
async def verify_original(request: Request, code: str) -> Response:
    ctx = context_of(request)
    record = await run_in_threadpool(lookup, ctx, code[:64])
    if record is None:
        raise InputError("Nenhum documento emitido tem este código de verificação.")
    pdf = await run_in_threadpool(ctx.registry.pdf, record.id)
    name = f"{record.series}-{record.number:04d}-{record.year}.pdf"
    return file_response(pdf, name, PDF, inline=False)


def verify_upload_bytes(ctx: WebContext, pdf: bytes) -> dict[str, Any]:
    check_pdf_bytes(pdf)
    ctx.require_issuer()
    result = run_isolated(verify_document, pdf, ctx.config, ctx.today(),
                          limits=ctx.settings.sandbox)
    if not isinstance(result, dict):
        raise LavraError("A verificação não produziu um resultado legível.")
    return result


@router.post("/verificar")
async def verify_upload(request: Request) -> Response:
    ctx = context_of(request)
    form = await read_form(request, files=1)
    try:
        pdf = await uploaded_pdf(request, form)
        result = await run_in_threadpool(verify_upload_bytes, ctx, pdf)
    except LavraError as error:
        return page(request, "verificar.html", {"codigo": "", "registro": None,
                                                "erro": error_message(error), "resultado": None},
                    422)
    return page(
        request,
        "verificar.html",
        {"codigo": "", "registro": None, "erro": None, "resultado": result,
         "titulo": ctx.form_title(str(result.get("form") or ""))},
    )
