"""The page of one issued document (``/equipe/documentos/{id}``): its data, history,
licence and facts. Shared by the document's route and the facts form, which shows the
page again, with what was typed and the message at the field, when it refuses a fact."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.recording import FactRecorder
from lavra.registry.records import IssuedRecord
from lavra.verifying import act_situation, licence_situation
from lavra.web.common import page
from lavra.web.context import WebContext
from lavra.web.dataview import data_view
from lavra.web.issuance import may_cancel
from lavra.web.pages_licences import licence_section
from lavra.web.users import User

__all__ = ["document_response", "facts_page_context"]


def facts_page_context(ctx: WebContext, record: IssuedRecord) -> dict[str, Any]:
    """What the document page shows of its facts: the list and the deadlines."""
    recorder = FactRecorder(ctx.registry, ctx.engine.content)
    facts = ctx.registry.facts(record.id)
    return {"fatos": facts, "prazos_ciencia": recorder.deadlines(record, facts),
            "pode_registrar_fato": not record.cancelled}


def _values(ctx: WebContext, user: User, record: IssuedRecord) -> dict[str, Any]:
    return {
        "doc": record, "historico": ctx.registry.history(record.id),
        "tem_docx": ctx.registry.docx(record.id) is not None,
        "dados": data_view(ctx.schema(record.form), record.data),
        "titulo": ctx.record_title(record), "erro": None,
        "pode_cancelar": may_cancel(ctx, user, record),
        "fato_enviado": {}, "fato_erros": {},
        # The record's and the act's situation in the public page's words (verificar.html)
        "situacao_ato": act_situation(ctx.registry, record.id),
        "situacao_licenca": licence_situation(ctx.registry, record.id, ctx.today()),
        **facts_page_context(ctx, record), **licence_section(ctx, record.id),
    }


async def document_response(request: Request, ctx: WebContext, user: User,
                            record: IssuedRecord, *, extra: Mapping[str, Any] | None = None,
                            status: int = 200) -> Response:
    values = await run_in_threadpool(_values, ctx, user, record)
    return page(request, "documento.html", {**values, **(extra or {})}, status)
