"""The schema-driven form page, shared by applicants and staff."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.concurrency import run_in_threadpool

from lavra.checking.content import FormSpec
from lavra.checking.report import Report
from lavra.inputs.reading import parse_data
from lavra.registry.drafts import Draft
from lavra.web.common import context_of, page, templates_of
from lavra.web.formmodel import build_form, checklist, field_errors, report_view
from lavra.web.formparse import parse_form, remove_row
from lavra.web.publiccheck import public_check
from lavra.web.staffcheck import staff_check
from lavra.web.users import User


@dataclass(frozen=True)
class Submission:
    """A posted form: the data it holds and what the person asked for."""

    data: dict[str, Any]
    action: str
    extra_rows: Mapping[str, int]


def submission(request: Request, form_id: str, pairs: Sequence[tuple[str, str]]) -> Submission:
    ctx = context_of(request)
    data = parse_form(ctx.schema(form_id), pairs)
    data = parse_data(json.dumps(data, ensure_ascii=False), source="do formulário")
    action = next((v for k, v in pairs if k == "_acao"), "verificar")[:300]
    extra: dict[str, int] = {}
    if action.startswith("adicionar:"):
        extra["/" + action.removeprefix("adicionar:")] = 1
    elif action.startswith("remover:"):
        data = remove_row(data, "/" + action.removeprefix("remover:"))
    return Submission(data, action, extra)


def check(request: Request, form_id: str, data: Mapping[str, Any]) -> Report:
    """The report a public page shows (:func:`lavra.web.publiccheck.public_check`)."""
    return public_check(context_of(request), form_id, data)


async def live_report(request: Request, form_id: str, pairs: Sequence[tuple[str, str]], *,
                      staff: bool = False) -> Any:
    """The JSON the page's script asks for as the person types; ``staff``: with the
    registry as history (:func:`lavra.web.staffcheck.staff_check`), never on a public page."""
    sent = submission(request, form_id, pairs)
    ctx = context_of(request)
    report = await (run_in_threadpool(staff_check, ctx, form_id, sent.data) if staff
                    else run_in_threadpool(check, request, form_id, sent.data))
    view = report_view(report, ctx.cite)
    env = templates_of(request).env
    html = env.get_template("_relatorio.html").render(relatorio=view)
    root = build_form(ctx.schema(form_id), sent.data, fields=ctx.engine.content.fields(
        ctx.form(form_id)), cite=ctx.cite, report=report, show_errors=False)
    documents = env.get_template("_documentos.html").render(documentos=checklist(root, report))
    return JSONResponse(
        {"complete": report.complete, "pending": len(report.pending), "html": html,
         "documentos": documents, "campos": field_errors(report), "report": report.to_json()}
    )


def signers_of(ctx: Any, signer_role: str | None) -> tuple[User, ...]:
    """The active accounts that sign as ``signer_role`` (a draft may go to one of them)."""
    if not signer_role:
        return ()
    return tuple(u for u in ctx.users.all() if u.may_sign(signer_role))


def form_page(
    request: Request,
    form: FormSpec,
    data: Mapping[str, Any],
    *,
    staff: bool,
    report: Report | None,
    show_errors: bool,
    extra_rows: Mapping[str, int] | None = None,
    error: str | None = None,
    notice: str | None = None,
    status: int = 200,
    user: User | None = None,
    alerts: Sequence[str] = (),
    draft: Draft | None = None,
    plate: Any = None,
    restore: bool = False,
) -> HTMLResponse:
    """``plate``: the plate box of a staff form that starts from a vehicle's plate
    (:class:`lavra.web.prefill_state.PlateStart`), None for the others. ``restore``: the
    page is the applicant's empty form, which the page's script fills again with what
    this browser kept of it."""
    ctx = context_of(request)
    root = build_form(
        ctx.schema(form.id),
        data,
        fields=ctx.engine.content.fields(form),
        cite=ctx.cite,
        report=report,
        show_errors=show_errors,
        extra_rows=extra_rows,
    )
    base = f"/equipe/novo/{form.id}" if staff else f"/requerimentos/{form.id}"
    may_issue = bool(staff and user is not None and form.series and user.may_sign(form.signer_role))
    return page(
        request,
        "formulario.html",
        {
            "formulario": form,
            "raiz": root,
            "documentos": checklist(root, report),
            "relatorio": report_view(report, ctx.cite) if report is not None else None,
            "fundamento": [ctx.cite(c) for c in form.basis],
            "equipe": staff,
            "acao": base,
            "acao_relatorio": base + "/relatorio",
            "acao_minuta": base + "/minuta",
            "pode_emitir": may_issue,
            "emite_com_papel": ctx.signer_roles().get(form.signer_role or "", ""),
            "chave": secrets.token_urlsafe(16),
            "erro": error,
            "notice": notice,
            "alertas": tuple(alerts),
            "minuta": draft,
            "pode_encaminhar": bool(staff and form.series and form.signer_role),
            "assinantes": signers_of(ctx, form.signer_role) if staff else (),
            "busca_placa": plate,
            "restaurar": restore and not staff,
        },
        status=status,
    )
