"""The staff inbox of requerimentos filed online: ``/equipe/protocolos``.

The list shows the filings newest first, 25 a page, filtered by form, by the day of
filing (dd/mm/aaaa, both ends included) and by status. Opening one
(``/equipe/protocolos/{id}``) shows its data labelled as the form's schema names the
fields, the attachments (each downloaded from the registry, where its bytes are), the
completeness report as the staff form shows it, the review of each attachment, and
«Preparar ato».

Reviewing an attachment: accept, or refuse with the reason. A refusal makes the filing
``pendente``, with what is missing and the period to supply it: the pack's period
(:attr:`lavra.pack.ContentPack.filing_period`) counted from the applicant's ciência of
the refusal (the page states the period until then, and the last day once the ciência
is recorded: :meth:`lavra.registry.inbox.Inbox.acknowledge`), or the last day staff
type when the pack fixes none. «Vincular processo administrativo (PA)» links the
municipality's PA number to the filing's processo (:mod:`lavra.registry.processos`).
«Preparar ato» creates the draft of the act the pack maps
for the requerimento (:mod:`lavra.filedacts`) and forwards it to the signer's queue.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.errors import ConfigError, InputError, LavraError
from lavra.filedacts import ActChoice, choices_for, decided_by, prepare_act
from lavra.registry.filing_status import FilingStatus
from lavra.registry.inbox import Case, Inbox
from lavra.registry.party_names import filed_name_change
from lavra.registry.processos import Processos
from lavra.web.common import (
    NotFound,
    context_of,
    file_response,
    page,
    read_form,
    redirect,
    require_user,
)
from lavra.web.context import WebContext
from lavra.web.formmodel import display_value, item_schema, options_of, properties, report_view
from lavra.web.pages_drafts import draft_title

router = APIRouter(include_in_schema=False)

BASE = "/equipe/protocolos"
_DAY = re.compile(r"^(\d{2})/(\d{2})/(\d{4})$")
_MAX_ROWS = 400


@dataclass(frozen=True)
class Row:
    """One labelled value of the filed data: the labels of its path and the value."""

    label: str
    value: str
    depth: int


def parse_day(value: object, label: str, field: str) -> date | None:
    """A day typed dd/mm/aaaa (empty: None)."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        return None
    found = _DAY.match(text)
    if found is None:
        raise InputError(f"{label}: informe a data no formato dd/mm/aaaa.", field=field)
    day, month, year = (int(g) for g in found.groups())
    try:
        return date(year, month, day)
    except ValueError:
        raise InputError(f"{label}: a data {text} não existe.", field=field) from None


def _title(schema: Mapping[str, Any], name: str | int) -> str:
    title = schema.get("title")
    return str(title) if isinstance(title, str) and title else str(name).replace("_", " ")


def labelled(schema: Mapping[str, Any], data: Any, depth: int = 0) -> list[Row]:
    """The data as rows labelled by the schema's titles (an enum by its labels, a date
    as dd/mm/aaaa, yes/no as sim/não), in the schema's order, then any other key."""
    rows: list[Row] = []
    if isinstance(data, Mapping):
        props = properties(schema)
        for name in [*[k for k in props if k in data], *[k for k in data if k not in props]]:
            rows.extend(_entry(props.get(name, {}), name, data[name], depth))
    return rows[:_MAX_ROWS]


def _entry(schema: Mapping[str, Any], name: str | int, value: Any, depth: int) -> list[Row]:
    label = _title(schema, name)
    if isinstance(value, Mapping):
        inner = labelled(schema, value, depth + 1)
        return [Row(label, "", depth), *inner] if inner else []
    if isinstance(value, list):
        rows: list[Row] = []
        item = item_schema(schema)
        for index, entry in enumerate(value, 1):
            name_of = f"{_title(item, label)} {index}"
            if isinstance(entry, Mapping):
                inner = labelled(item, entry, depth + 1)
                rows.extend([Row(name_of, "", depth), *inner] if inner else [])
            elif isinstance(entry, list):
                rows.extend(_entry(item, name_of, entry, depth))
            elif entry is not None and entry != "":
                rows.append(Row(name_of, _shown(item, entry), depth))
        return rows
    if value is None or value == "":
        return []
    return [Row(label, _shown(schema, value), depth)]


def _shown(schema: Mapping[str, Any], value: Any) -> str:
    if isinstance(value, bool):
        return "sim" if value else "não"
    labels = dict((str(v), text) for v, text in options_of(dict(schema)))
    return labels.get(str(value)) or display_value(dict(schema), value)


def item_titles(schema: Mapping[str, Any]) -> dict[str, str]:
    """The documents of the checklist by pointer (``/documentos/crlv``) → their titles."""
    documents = properties(schema).get("documentos")
    if not isinstance(documents, Mapping):
        return {}
    return {f"/documentos/{name}": _title(sub, name)
            for name, sub in properties(documents).items()}


def _inbox(ctx: WebContext) -> Inbox:
    return Inbox(ctx.registry)


def _case(ctx: WebContext, filing_id: int) -> Case:
    found = _inbox(ctx).case(filing_id)
    if found is None:
        raise NotFound("O protocolo não consta do registro.")
    return found


def _choices(ctx: WebContext, case: Case) -> tuple[ActChoice, ...]:
    """The acts offered: before a decision, the pack's; once decided, those of the next
    instance the deciding act forwarded the request to (:mod:`lavra.filedacts`)."""
    return choices_for(ctx.engine.content.pack.filed_acts, case.filed.form,
                       decided_by(ctx.registry, case))


def _detail(request: Request, ctx: WebContext, case: Case, *, status: int = 200,
            error: str | None = None, error_at: str | None = None,
            typed_pa: str | None = None) -> Response:
    filed = case.filed
    link = None if filed.pa is None else Processos(ctx.registry).link_of(filed.protocol)
    schema = ctx.schema(filed.form)
    report = ctx.engine.check(filed.form, filed.data)
    items = item_titles(schema)
    draft = None if case.draft_id is None else ctx.registry.draft(case.draft_id)
    renamed = filed_name_change(ctx.registry, filed.cpf_cnpj, filed.name)
    return page(request, "caixa_protocolo.html", {
        "mudanca_nome": None if renamed is None else renamed.message("o requerimento"),
        "caso": case, "dados": labelled(schema, filed.data),
        "relatorio": report_view(report, ctx.cite), "titulo_de": ctx.form_title,
        "item_de": lambda item: items.get(item, item),
        "atos": _choices(ctx, case), "minuta": draft,
        "prazo_do_pacote": ctx.engine.content.pack.filing_period is not None,
        "prazo_texto": ctx.engine.content.pack.filing_period_terms,
        "vinculo": link, "pa_digitado": typed_pa, "erro": error, "erro_em": error_at},
        status)


# ------------------------------------------------------------------ pages
@router.get(BASE)
async def inbox_list(request: Request, formulario: str = "", de: str = "", ate: str = "",
                     situacao: str = "", pagina: str = "1") -> Response:
    require_user(request)
    ctx = context_of(request)
    error = None
    since = until = None
    try:
        since = parse_day(de, "Recebidos a partir de", "de")
        until = parse_day(ate, "Recebidos até", "ate")
        if situacao and situacao not in {s.value for s in FilingStatus}:
            raise InputError("Situação desconhecida: escolha uma da lista.", field="situacao")
    except InputError as failure:
        error, since, until = failure.message, None, None
    status = situacao if situacao in {s.value for s in FilingStatus} else ""
    listing = await run_in_threadpool(lambda: _inbox(ctx).listing(
        form=formulario[:100] or None, since=since, until=until, status=status or None,
        page=int(pagina) if pagina.isascii() and pagina.isdigit() and len(pagina) < 7
        else 1))
    filters = {"formulario": formulario[:100], "de": de[:10], "ate": ate[:10],
               "situacao": status}
    query = urlencode({k: v for k, v in filters.items() if v})
    return page(request, "caixa.html", {
        "lista": listing, "filtros": filters, "consulta": query,
        "formularios": ctx.fillable_forms(), "situacoes": list(FilingStatus),
        "titulo_de": ctx.form_title, "erro": error}, 422 if error else 200)


@router.get(BASE + "/{filing_id}")
async def inbox_open(request: Request, filing_id: int) -> Response:
    require_user(request)
    ctx = context_of(request)
    case = await run_in_threadpool(_case, ctx, filing_id)
    return await run_in_threadpool(lambda: _detail(request, ctx, case))


@router.get(BASE + "/{filing_id}/anexos/{attachment_id}")
async def inbox_attachment(request: Request, filing_id: int, attachment_id: int) -> Response:
    require_user(request)
    ctx = context_of(request)
    case = await run_in_threadpool(_case, ctx, filing_id)
    if attachment_id not in {a.id for a in case.filed.attachments}:
        raise NotFound("O documento não pertence a este protocolo.")
    found = await run_in_threadpool(_inbox(ctx).filings.attachment, attachment_id)
    if found is None:  # pragma: no cover - listed above
        raise NotFound("O documento não consta do registro.")
    stored, content = found
    return file_response(content, stored.name, stored.content_type, inline=False)


@router.post(BASE + "/{filing_id}/anexos/{attachment_id}/analise")
async def inbox_review(request: Request, filing_id: int, attachment_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    posted = await read_form(request)
    case = await run_in_threadpool(_case, ctx, filing_id)
    decision = str(posted.get("decisao") or "")
    reason = str(posted.get("motivo") or "")[:1000]

    def run() -> None:
        if decision not in ("aceitar", "recusar"):
            raise InputError("Escolha aceitar ou recusar o documento.", field="decisao")
        refused = decision == "recusar"
        deadline = None
        from_ciencia = ctx.engine.content.pack.filing_period is not None
        if refused and not from_ciencia:
            deadline = parse_day(posted.get("prazo"), "Último dia para apresentar o documento",
                                 "prazo")
        _inbox(ctx).review(case.filed.id, attachment_id, accepted=not refused,
                           reason=reason or None, deadline=deadline, by=user.actor,
                           titles=item_titles(ctx.schema(case.filed.form)),
                           from_ciencia=refused and from_ciencia)

    try:
        await run_in_threadpool(run)
    except LavraError as error:
        message = error.message
        return await run_in_threadpool(lambda: _detail(
            request, ctx, case, status=422, error=message, error_at=f"anexo-{attachment_id}"))
    return redirect(f"{BASE}/{case.filed.id}?aviso=documento-analisado#anexo-{attachment_id}")


@router.post(BASE + "/{filing_id}/ato")
async def inbox_prepare(request: Request, filing_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    posted = await read_form(request)
    case = await run_in_threadpool(_case, ctx, filing_id)
    chosen = str(posted.get("ato") or "")

    def run() -> int:
        choices = _choices(ctx, case)
        picked = next((c for i, c in enumerate(choices) if str(i) == chosen), None)
        if picked is None:
            raise InputError("Escolha o ato a preparar.", field="ato")
        role = ctx.form(picked.form).signer_role
        if role is None:
            raise ConfigError(f"O formulário «{ctx.form_title(picked.form)}» não indica "
                              "quem o assina.")
        draft = prepare_act(ctx.registry, case, picked, signer_role=role, title=draft_title(
            ctx, picked.form, {}) + f" — {case.filed.name} — {case.filed.protocol}",
            on=ctx.today(), by=user.actor)
        return draft.id

    try:
        await run_in_threadpool(run)
    except LavraError as error:
        message = error.message
        return await run_in_threadpool(lambda: _detail(
            request, ctx, case, status=422, error=message, error_at="preparar-ato"))
    return redirect(f"{BASE}/{case.filed.id}?aviso=ato-preparado#preparar-ato")


@router.post(BASE + "/{filing_id}/pa")
async def inbox_link_pa(request: Request, filing_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    posted = await read_form(request)
    case = await run_in_threadpool(_case, ctx, filing_id)
    typed = str(posted.get("pa") or "")[:200]
    try:
        await run_in_threadpool(lambda: Processos(ctx.registry).link(
            case.filed.protocol, typed, by=user.actor))
    except LavraError as error:
        message = error.message
        return await run_in_threadpool(lambda: _detail(
            request, ctx, case, status=422, error=message, error_at="pa", typed_pa=typed))
    return redirect(f"{BASE}/{case.filed.id}?aviso=pa-vinculado#vincular-pa")
