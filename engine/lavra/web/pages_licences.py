"""Staff pages of the licensing state: a vehicle's and a party's licences, with their
status, and their timeline, each change linking to the act's page; and the section
"Situação e histórico da licença" of a document that granted a licence. A person's
page (CPF) has the form «Registrar alteração de nome»: staff record a change of name
proven by the civil registry's certidão (:mod:`lavra.registry.name_records`), shown in
the timeline with who, when and the evidence.

The status is said on today in America/Sao_Paulo (:meth:`WebContext.today`); every
lookup reads the registry's state alone (:mod:`lavra.registry.licensing`)."""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.errors import LavraError
from lavra.inputs.formats import (
    has_cnpj_shape,
    has_cpf_shape,
    has_placa_shape,
    mask_cpf_cnpj,
    mask_placa,
    normalize_placa,
    unmask,
)
from lavra.recording import FactRecorder
from lavra.registry.acts_history import with_acts
from lavra.registry.licensing import LicenceView, TimelineEntry
from lavra.registry.name_records import NameRecords
from lavra.registry.name_timeline import with_name_changes
from lavra.web.common import (
    BadRequest,
    NotFound,
    context_of,
    page,
    read_form,
    redirect,
    require_user,
)
from lavra.web.context import WebContext

__all__ = ["licence_section", "router"]

router = APIRouter(include_in_schema=False)

#: Longest key read from the address (a plate has 7 characters, a masked CNPJ 18).
MAX_KEY = 40


def _licence_rows(views: tuple[LicenceView, ...], on: date) -> list[dict[str, Any]]:
    return [
        {"licenca": view, "situacao": view.describe(on),
         "titular": view.holder_name or _masked_doc(view.holder) or "titular não identificado",
         "placa": mask_placa(view.placa) if view.placa else None}
        for view in views
    ]


def _masked_doc(doc: str | None) -> str | None:
    if not doc:
        return None
    return mask_cpf_cnpj(doc)


def _timeline(ctx: WebContext, **key: Any) -> tuple[TimelineEntry, ...]:
    """The timeline with each act's ciência and the last day counted from it; a
    vehicle's or party's with the acts naming it that changed no state
    (:func:`lavra.registry.acts_history.with_acts`)."""
    entries = ctx.registry.timeline(**key)
    if "licence_document" not in key:
        titles = {form: spec.title for form, spec in ctx.engine.content.forms.items()}
        entries = with_acts(ctx.registry, entries, titles, **key)
    return FactRecorder(ctx.registry, ctx.engine.content).annotate(entries)


def licence_section(ctx: WebContext, document_id: int) -> dict[str, Any]:
    """The document page's licence context: the licence it granted with its status
    today, and the licence's timeline (nothing when it granted none); ``anulado``: the
    act that annulled it on appeal and its date (an auto), None while it stands."""
    view = ctx.registry.licence_of(document_id)
    annulled = ctx.registry.annulled_acts((document_id,)).get(document_id)
    if view is None:
        return {"licenca": None, "historico_licenca": (), "anulado": annulled}
    on = ctx.today()
    return {"licenca": _licence_rows((view,), on)[0], "situacao_em": on, "anulado": annulled,
            "historico_licenca": _timeline(ctx, licence_document=document_id)}


def _vehicle(ctx: WebContext, placa: str) -> dict[str, Any]:
    on = ctx.today()
    views = ctx.registry.licence_views(placa=placa)
    timeline = _timeline(ctx, placa=placa)
    if not views and not timeline:
        raise NotFound(f"Nada consta do cadastro de licenças para o veículo de placa "
                            f"{mask_placa(placa)}.", field="/placa")
    return {"titulo": f"Veículo {mask_placa(placa)}", "tipo": "veiculo", "situacao_em": on,
            "licencas": _licence_rows(views, on), "historico": timeline,
            "nomes": (), "impedimentos": ()}


def _party(ctx: WebContext, doc: str) -> dict[str, Any]:
    on = ctx.today()
    names = ctx.registry.party_names(doc)
    bars = ctx.registry.bars_of(doc, on)
    views = ctx.registry.licence_views(holder=doc)
    person = has_cpf_shape(doc)
    timeline = _timeline(ctx, holder=doc)
    if person:
        timeline = with_name_changes(timeline, NameRecords(ctx.registry).of(doc))
    kind = "CPF" if person else "CNPJ"
    masked = _masked_doc(doc)
    if not (names or bars or views or timeline):
        raise NotFound(f"Nada consta do cadastro de licenças para o {kind} {masked}.",
                            field="/cpf_cnpj")
    return {"titulo": f"{kind} {masked}", "tipo": "pessoa", "situacao_em": on,
            "licencas": _licence_rows(views, on), "historico": timeline, "nomes": names,
            "impedimentos": bars, "cpf": doc if person and names else None,
            "erro": None, "erro_em": None, "enviado": {}}


@router.get("/equipe/veiculos/{placa}")
async def vehicle_page(request: Request, placa: str) -> Response:
    require_user(request)
    key = placa[:MAX_KEY]
    if not has_placa_shape(key):
        raise BadRequest(f"Placa inválida: «{key}». Use o formato ABC1234 ou ABC1D23.",
                         field="/placa")
    context = await run_in_threadpool(_vehicle, context_of(request), normalize_placa(key))
    return page(request, "cadastro.html", context)


@router.get("/equipe/pessoas/{cpf_cnpj:path}")  # a masked CNPJ has a slash
async def party_page(request: Request, cpf_cnpj: str) -> Response:
    require_user(request)
    key = cpf_cnpj[:MAX_KEY]
    if not (has_cpf_shape(key) or has_cnpj_shape(key)):
        raise BadRequest(f"CPF ou CNPJ inválido: «{key}». Informe os 11 dígitos do CPF ou "
                         "os 14 caracteres do CNPJ.", field="/cpf_cnpj")
    context = await run_in_threadpool(_party, context_of(request), unmask(key))
    return page(request, "cadastro.html", context)


#: The fields of the form «Registrar alteração de nome», by the pointer of an error.
_NAME_FIELDS = {"/nome": "nome", "/comprovante": "comprovante"}


@router.post("/equipe/pessoas/{cpf}/alteracao-de-nome")
async def party_name_change(request: Request, cpf: str) -> Response:
    """Record a change of a person's name (the form on the CPF's page); on bad input,
    the page again with the error at its field (422), nothing recorded."""
    user = require_user(request)
    ctx = context_of(request)
    key = cpf[:MAX_KEY]
    if not has_cpf_shape(key):
        raise BadRequest(f"CPF inválido: «{key}». Informe os 11 dígitos do CPF.",
                         field="/cpf_cnpj")
    doc = unmask(key)
    posted = await read_form(request)
    sent = {name: str(posted.get(name) or "")[:1200] for name in ("nome", "comprovante")}
    day = ctx.today()
    try:
        await run_in_threadpool(lambda: NameRecords(ctx.registry).record(
            doc, sent["nome"], sent["comprovante"], by=user.actor, on=day, today=day))
    except LavraError as error:
        message = error.message
        field = _NAME_FIELDS.get(error.field or "", "cpf")
        context = await run_in_threadpool(_party, ctx, doc)
        context.update(erro=message, erro_em=field, enviado=sent)
        return page(request, "cadastro.html", context, status=422)
    return redirect(f"/equipe/pessoas/{doc}?aviso=nome-registrado#alteracao-de-nome")
