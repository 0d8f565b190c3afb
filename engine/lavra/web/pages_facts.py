"""Facts recorded on an issued document after its issue: the staff form on the document's
page (``POST /equipe/documentos/{id}/fatos`` and ``.../fatos/{fato}/revogar``) and the
API (``POST /api/documents/{id}/facts``, ``POST /api/facts/{fato}/revoke``).

Who may record: every active staff account, clerks included. Receiving an AR, noting
that the party signed the notice at the counter or that a fine was paid is the
protocol's clerical work, not an act of the signer: it creates no obligation, and the
record names who made it and when. Revoking a wrong record takes the same accounts and
a reason; nothing is deleted (:mod:`lavra.registry.facts`).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from lavra.errors import InputError
from lavra.inputs.reading import parse_date
from lavra.inputs.textnorm import clean_text
from lavra.recording import FactRecorder
from lavra.registry.facts import Fact
from lavra.registry.records import IssuedRecord
from lavra.web.api import STAFF_ERRORS, Staff, StrictJSONRoute
from lavra.web.common import NotFound, context_of, read_form, redirect, require_user
from lavra.web.context import WebContext
from lavra.web.docpage import document_response

__all__ = ["api_router", "fact_json", "router"]

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api", route_class=StrictJSONRoute)


def _recorder(ctx: WebContext) -> FactRecorder:
    return FactRecorder(ctx.registry, ctx.engine.content)


def fact_json(fact: Fact) -> dict[str, Any]:
    return {
        "id": fact.id,
        "kind": fact.kind,
        "occurred_at": fact.occurred_at.isoformat(),
        "with_time": fact.with_time,
        "on": fact.on.isoformat(),
        "means": fact.means,
        "amount": fact.amount,
        "reference": fact.reference,
        "note": fact.note,
        "recorded_by": fact.recorded_by,
        "recorded_at": fact.recorded_at.isoformat(),
        "revoked": fact.revoked,
        "revoked_by": fact.revoked_by,
        "revoked_at": None if fact.revoked_at is None else fact.revoked_at.isoformat(),
        "revoke_reason": fact.revoke_reason,
        "description": fact.describe(),
    }


def _text(value: Any) -> str | None:
    text = value if isinstance(value, str) else ""
    return text.strip()[:2000] or None


# The facts form's fields, as the refusal names them beside the field.
FORM_FIELDS = {"/tipo": "tipo", "/on": "data", "/data": "data", "/means": "meio",
               "/meio": "meio", "/amount": "valor", "/valor": "valor",
               "/reference": "referencia", "/referencia": "referencia",
               "/note": "observacao", "/observacao": "observacao"}


def _day(value: str | None) -> str | None:
    """The date as typed on the page (dd/mm/aaaa) as the recorder takes it (ISO)."""
    if value is None:
        raise InputError("Informe a data em que o fato aconteceu (dd/mm/aaaa).", field="/data")
    return parse_date(value, what="data do fato", field="/data").isoformat()


def _record_from_form(ctx: WebContext, document_id: int, form: Any, actor: str) -> None:
    recorder = _recorder(ctx)
    record = recorder.document(document_id)
    kind = _text(form.get("tipo")) or ""
    recorder.record(
        record, kind, on=_day(_text(form.get("data"))), by=actor,
        means=_text(form.get("meio")) if kind != "pagamento" else None,
        amount=_text(form.get("valor")) if kind == "pagamento" else None,
        reference=_text(form.get("referencia")), note=_text(form.get("observacao")),
    )


@router.post("/equipe/documentos/{document_id}/fatos")
async def fact_add(request: Request, document_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    form = await read_form(request)
    try:
        await run_in_threadpool(_record_from_form, ctx, document_id, form, user.actor)
    except InputError as error:  # the page again, with the entry and the message at the field
        record = await run_in_threadpool(_recorder(ctx).document, document_id)
        sent = {key: _text(form.get(key)) or "" for key in set(FORM_FIELDS.values())}
        field = FORM_FIELDS.get(error.field or "", "tipo")
        return await document_response(request, ctx, user, record, status=422, extra={
            "fato_enviado": sent, "fato_erros": {field: error.message}})
    return redirect(f"/equipe/documentos/{document_id}?aviso=fato-registrado")


@router.post("/equipe/documentos/{document_id}/fatos/{fact_id}/revogar")
async def fact_revoke(request: Request, document_id: int, fact_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    form = await read_form(request)
    reason = clean_text(str(form.get("motivo") or ""), field="/motivo").strip()
    if len(reason) < 10:
        raise InputError("Informe o motivo da revogação (ao menos 10 caracteres).",
                         field="/motivo")
    facts = await run_in_threadpool(ctx.registry.facts, document_id)
    if not any(f.id == fact_id for f in facts):
        raise InputError(f"Fato {fact_id} não consta do registro deste documento.", field="/fato")
    await run_in_threadpool(lambda: ctx.registry.revoke_fact(fact_id, reason=reason,
                                                             by=user.actor))
    return redirect(f"/equipe/documentos/{document_id}?aviso=fato-revogado")


# ------------------------------------------------------------------ API
class FactRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["ciencia", "notificacao", "pagamento"] = Field(
        description="ciencia (do interessado), notificacao (recebida) ou pagamento.")
    on: str = Field(min_length=10, max_length=40,
                    description="Quando o fato aconteceu: AAAA-MM-DD ou AAAA-MM-DDTHH:MM.")
    means: Literal["pessoal", "ar", "edital"] | None = Field(
        default=None, description="Meio da ciência ou da notificação.")
    amount: str | None = Field(default=None, max_length=40, description="Valor pago (reais).")
    reference: str | None = Field(default=None, max_length=500,
                                  description="Código do AR, publicação do edital, guia.")
    note: str | None = Field(default=None, max_length=2000, description="Observação.")


class RevokeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field(min_length=10, max_length=2000, description="Motivo da revogação.")


def _document(ctx: WebContext, document_id: int) -> IssuedRecord:
    record = None if not 1 <= document_id <= 2**62 else ctx.registry.get_by_id(document_id)
    if record is None:
        raise NotFound("Documento não consta do registro.")
    return record


@api_router.post("/documents/{document_id}/facts", status_code=201, responses=STAFF_ERRORS,
                 summary="Registra fato posterior à emissão: ciência, notificação, pagamento")
def api_fact_add(request: Request, document_id: int, body: FactRequest,
                 user: Staff) -> dict[str, Any]:
    ctx = context_of(request)
    record = _document(ctx, document_id)
    recorder = _recorder(ctx)
    fact = recorder.record(record, body.kind, on=body.on, by=user.actor, means=body.means,
                           amount=body.amount, reference=body.reference, note=body.note)
    return {**fact_json(fact),
            "deadlines": [d.to_json() for d in recorder.deadlines(record)]}


@api_router.post("/facts/{fact_id}/revoke", responses=STAFF_ERRORS,
                 summary="Revoga um fato registrado (permanece no histórico)")
def api_fact_revoke(request: Request, fact_id: int, body: RevokeRequest,
                    user: Staff) -> dict[str, Any]:
    ctx = context_of(request)
    if not 1 <= fact_id <= 2**62:
        raise NotFound("Fato não consta do registro.")
    reason = clean_text(body.reason, field="/reason")
    return fact_json(ctx.registry.revoke_fact(fact_id, reason=reason, by=user.actor))
