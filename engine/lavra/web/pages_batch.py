"""The batch runs of the content pack in the web app: start, progress, outputs.

Pages (``/equipe/lotes``): the pack's kinds of run (``ContentPack.batch_runs``), each
with a start form asking its own parameters, and the runs of the registry (number,
kind, reference date, state, counts); a run's page with its progress (done, pending,
failed, rate, time left), refreshed by the page itself every few seconds while it runs
(``<meta http-equiv="refresh">``: no script needed, within the CSP), the summary table
once finished, and the links to its files. A run that cannot finish is abandoned there
(whole, or one holder's items), with a reason: its reserved numbers are voided. A
failed item is shown with its reason and a form to correct the field(s) it names: the
correction is recorded on the item with who and when (:mod:`lavra.registry.corrections`),
the item keeps its number, and «Retomar» builds it again. The JSON API
(``/api/batch``, bearer token) does the same, but for the correction (the page only).

Who may: every staff account sees runs and downloads their files; starting or resuming
a run takes a signer account that may sign every document the run issues
(:attr:`lavra.batch.model.BatchRun.forms`), as issuing one of them would. The work is
:class:`lavra.web.batchjobs.BatchJobs` (checks, folders, background thread).
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from lavra.batch.correction import change_from_text
from lavra.batch.model import BatchRun
from lavra.batch.output import docx_name, summary_rows
from lavra.batch.runner import find_kind
from lavra.errors import InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.textnorm import clean_text
from lavra.registry.corrections import correct, run_corrections
from lavra.registry.run_pages import failed_items, item_count, items_page
from lavra.registry.run_progress import run_progress
from lavra.registry.runs import (
    ItemRecord,
    RunRecord,
    get_run,
    list_runs,
    run_items,
)
from lavra.web.api import STAFF_ERRORS, staff_user
from lavra.web.batch_signer import FIELD as PASSWORD_POINTER
from lavra.web.batch_signer import asks_password, run_signer
from lavra.web.batchjobs import BatchBusy, BatchJobs, Job, StartRequest, Upload
from lavra.web.common import (
    DOCX,
    PDF,
    AccessDenied,
    NotFound,
    context_of,
    error_message,
    file_response,
    page,
    read_form,
    redirect,
    require_user,
)
from lavra.web.context import WebContext
from lavra.web.dataview import label_pointers
from lavra.web.issuance import PASSWORD_FIELD
from lavra.web.users import Role, User

__all__ = ["api_router", "jobs_of", "router"]

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api/batch", tags=["lotes"])
PATH = "/equipe/lotes"
REFRESH_SECONDS = 3
MEDIA = {".pdf": PDF, ".docx": DOCX, ".csv": "text/csv; charset=utf-8"}
STATES = {"planned": "não concluída", "done": "concluída"}
ROWS_PER_PAGE = 100
"""Lines of the summary table a run's page (and the API) shows at a time: the page
reads only those from the registry, so a run of any size costs the server the same."""


def jobs_of(request: Request) -> BatchJobs:
    """The app's runs (made on first use, with the app's configuration)."""
    state = request.app.state
    jobs = getattr(state, "lavra_lotes", None)
    if not isinstance(jobs, BatchJobs):
        ctx = context_of(request)
        jobs = BatchJobs(ctx.config, max_upload=ctx.settings.max_upload_bytes,
                         registry=ctx.registry)
        state.lavra_lotes = jobs
    return jobs


def _kinds(ctx: WebContext) -> list[BatchRun]:
    return list(ctx.engine.content.pack.batch_runs.values())


def may_start(ctx: WebContext, user: User, kind: BatchRun) -> bool:
    """A signer who may sign every numbered document the run issues."""
    forms = ctx.engine.content.forms
    signed = [forms[f] for f in kind.forms if f in forms and forms[f].series]
    return user.role is Role.SIGNER and all(user.may_sign(f.signer_role) for f in signed)


def _require_start(ctx: WebContext, user: User, kind: BatchRun) -> None:
    if not may_start(ctx, user, kind):
        raise AccessDenied(
            f"A sua conta não pode iniciar a execução «{kind.title}»: ela emite e assina "
            "documentos, o que cabe a quem assina como "
            + ", ".join(sorted({ctx.signer_roles().get(ctx.form(f).signer_role or "", "")
                                for f in kind.forms if f in ctx.engine.content.forms} - {""}))
            + ".")


# ------------------------------------------------------------------ views
def _options_shown(kind: BatchRun | None, options: dict[str, Any]) -> list[tuple[str, str]]:
    """The run's options as staff read them: the kind's labels, dates as DD/MM/AAAA."""
    labels = {p.name: p for p in kind.parameters} if kind is not None else {}
    shown = []
    for name, value in options.items():
        parameter = labels.get(name)
        text = str(value)
        if parameter is not None and parameter.kind == "data" and len(text) == 10:
            text = f"{text[8:10]}/{text[5:7]}/{text[:4]}"
        shown.append((parameter.label if parameter else name, text))
    return shown


def run_view(ctx: WebContext, jobs: BatchJobs, run: RunRecord,
             *, rows: bool = False, page_number: int = 1) -> dict[str, Any]:
    """What the run page and the API show of one run; with ``rows``, the page
    ``page_number`` of its summary table (:data:`ROWS_PER_PAGE` lines)."""
    progress = run_progress(ctx.registry, run.id)
    live = jobs.live_for_run(run.id)
    rate = live.rate() if live is not None else None
    eta = round(progress.pending / rate) if rate else None
    runs = ctx.engine.content.pack.batch_runs
    files = jobs.files(run.id)
    state = "em andamento" if live is not None else STATES.get(run.status, run.status)
    view: dict[str, Any] = {
        "id": run.id, "kind": run.kind,
        "title": runs[run.kind].title if run.kind in runs else run.kind,
        "key": run.key, "reference_date": run.reference_date.isoformat(),
        "reference_date_br": run.reference_date.strftime("%d/%m/%Y"),
        "status": state, "running": live is not None,
        "resumable": live is None and run.status != "done",
        "options": dict(run.params.get("opcoes") or {}),
        "options_shown": _options_shown(runs.get(run.kind), run.params.get("opcoes") or {}),
        "created_at": run.created_at.isoformat(),
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "done": progress.done, "pending": progress.pending, "failed": progress.failed,
        "refused": progress.refused, "abandoned": progress.abandoned,
        "total": progress.total,
        "rate": round(rate, 2) if rate is not None else None, "eta_seconds": eta,
        "files_elsewhere": not files and jobs.folder_elsewhere(run.id),
        "files": [{"name": n, "url": f"/api/batch/{run.id}/files/{n}",
                   "page_url": f"{PATH}/{run.id}/arquivos/{n}"} for n in files],
    }
    if rows:
        per_page = ROWS_PER_PAGE
        total = item_count(ctx.registry, run.id)
        pages = max(1, -(-total // per_page))
        current = min(max(page_number, 1), pages)
        items = items_page(ctx.registry, run.id, (current - 1) * per_page, per_page)
        present = set(files)
        with_docx = {(i.position, i.seq) for i in items if docx_name(i) in present}
        found = summary_rows(items, docx=with_docx)
        view["rows"] = [{
            "order": r.order, "holder": r.holder, "name": r.name, "outcome": r.outcome,
            "role": r.role, "form": r.form, "number": r.number, "state": r.state,
            "reason": _labelled(ctx, r.form, r.reason), "docx_file": r.docx_file,
            "file": r.file if r.file in present else "",
        } for r in found]
        view["page"] = {"number": current, "pages": pages, "per_page": per_page,
                        "lines": total}
        view["correctable"] = [_correctable(ctx, i)
                               for i in failed_items(ctx.registry, run.id)]
        view["corrections"] = [{"order": c.position + 1, "form": c.form,
                                "text": _labelled(ctx, c.form, c.text)}
                               for c in run_corrections(ctx.registry, run.id)]
    return view


#: The correction command of a stored failure (:func:`lavra.batch.work.failure_text`).
_COMMAND = re.compile(r" Para corrigir: lavra lote corrigir [^\n]*?--responsavel NOME\.")


def _labelled(ctx: WebContext, form_id: str | None, text: str | None) -> str | None:
    """A stored reason or correction as staff read it: the fields it names by pointer
    named by their labels in the item's form; the command line a failure gives for the
    terminal goes, the page offering its own correction form."""
    if not text:
        return text
    text = _COMMAND.sub("", text)
    return label_pointers(text, lambda pointer: ctx.field_label(form_id or "", pointer))


def _correctable(ctx: WebContext, item: ItemRecord) -> dict[str, Any]:
    """A failed item as its correction form shows it: the failure and the field named."""
    current = pointers.get(item.data, item.failed_field) if item.failed_field else None
    return {
        "id": item.id, "order": item.position + 1, "name": item.name, "holder": item.holder,
        "form": item.form,
        "title": ctx.form_title(item.form or ""), "number": item.printed or "",
        "reason": _labelled(ctx, item.form, item.reason), "field": item.failed_field or "",
        "field_label": ctx.field_label(item.form or "", item.failed_field)
        if item.failed_field else "",
        "current": "" if current is None else (
            current if isinstance(current, str) else json.dumps(current, ensure_ascii=False)),
    }


def _job_view(job: Job) -> dict[str, Any]:
    return {
        "job": job.token, "kind": job.kind, "title": job.title, "state": job.state,
        "simulated": job.simulate, "run": job.run_id, "error": job.error,
        "run_url": f"/api/batch/{job.run_id}" if job.run_id else None,
        "counts": job.counts,
        "rows": [{"order": r.order, "holder": r.holder, "name": r.name,
                  "outcome": r.outcome, "role": r.role, "form": r.form, "number": r.number,
                  "state": r.state, "reason": r.reason, "docx_file": r.docx_file}
                 for r in job.rows] if job.simulate else [],
    }


def _list(ctx: WebContext, jobs: BatchJobs) -> list[dict[str, Any]]:
    return [run_view(ctx, jobs, run) for run in list_runs(ctx.registry, 100)]


# ------------------------------------------------------------------ starting
async def _upload(form: FormData, name: str) -> Upload | None:
    value = form.get(name)
    if not isinstance(value, UploadFile):
        return None
    content = await value.read()
    await value.close()
    return Upload(value.filename or "", content) if content else None


async def _start_request(form: FormData, kind_name: str | None = None) -> StartRequest:
    kind = kind_name or str(form.get("execucao") or "")
    options = {k: v for k, v in form.multi_items()
               if isinstance(v, str) and k != PASSWORD_FIELD}
    return StartRequest(
        kind=kind[:80], options=options, on=str(form.get("data") or "")[:20],
        simulate=form.get("simular") in ("1", "sim", "true", "on"),
        merged=form.get("pdf_unico") in ("1", "sim", "true", "on"),
        docx=form.get("docx") in ("1", "sim", "true", "on"),
        entrada=await _upload(form, "entrada"), pedidos=await _upload(form, "pedidos"),
    )


def _start(ctx: WebContext, jobs: BatchJobs, sent: StartRequest, user: User,
           password: str | None, *, required: bool = True) -> Job:
    issuer = ctx.require_issuer()
    kind = find_kind(issuer, sent.kind)  # type: ignore[arg-type]
    _require_start(ctx, user, kind)
    signer = run_signer(ctx, user, kind, password, simulate=sent.simulate,
                        required=required)
    return jobs.start(issuer, sent, user.actor, signer)


def _resume(ctx: WebContext, jobs: BatchJobs, run_id: int, user: User,
            password: str | None, *, required: bool = True) -> Job:
    issuer = ctx.require_issuer()
    run = _run(ctx, run_id)
    kind = find_kind(issuer, run.kind)  # type: ignore[arg-type]
    _require_start(ctx, user, kind)
    signer = run_signer(ctx, user, kind, password, simulate=False, required=required)
    return jobs.resume(issuer, run, user.actor, signer)


def _run(ctx: WebContext, run_id: int) -> RunRecord:
    run = get_run(ctx.registry, run_id) if 0 < run_id < 2**62 else None
    if run is None:
        raise NotFound(f"Execução em lote nº {run_id} não consta do registro.",
                       field="/execucao")
    return run


def _lotes_page(request: Request, user: User, *, erro: str | None = None,
                enviado: dict[str, str] | None = None, status: int = 200,
                erro_senha: bool = False) -> Response:
    ctx = context_of(request)
    kinds = _kinds(ctx)
    return page(request, "lotes.html", {
        "tipos": [(k, may_start(ctx, user, k)) for k in kinds],
        "execucoes": _list(ctx, jobs_of(request)), "erro": erro, "enviado": enviado or {},
        "pede_senha": asks_password(ctx, user), "erro_senha": erro_senha,
    }, status)


@router.get(PATH)
async def batch_home(request: Request) -> Response:
    user = require_user(request)
    return await run_in_threadpool(_lotes_page, request, user)


@router.post(f"{PATH}/iniciar")
async def batch_start(request: Request) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    form = await read_form(request, files=2)
    sent = await _start_request(form)
    password = str(form.get(PASSWORD_FIELD) or "")
    try:
        job = await run_in_threadpool(_start, ctx, jobs_of(request), sent, user, password)
    except AccessDenied:
        raise
    except LavraError as error:
        message = error_message(error)
        status = 409 if isinstance(error, BatchBusy) else 422
        shown = {k: v for k, v in sent.options.items() if k != "csrf"}
        at_password = error.field == PASSWORD_POINTER
        return await run_in_threadpool(lambda: _lotes_page(
            request, user, erro=message, enviado=shown, status=status,
            erro_senha=at_password))
    return redirect(f"{PATH}/tarefas/{job.token}")


@router.get(f"{PATH}/tarefas/{{token}}")
async def batch_job(request: Request, token: str) -> Response:
    require_user(request)
    job = jobs_of(request).job(token[:40])
    if job is None:
        raise NotFound("Esta tarefa não existe (ou o servidor foi reiniciado desde então).")
    if job.run_id is not None:
        return redirect(f"{PATH}/{job.run_id}")
    return page(request, "lote_tarefa.html", {
        "tarefa": job, "totais": job.counts or {},
        "atualizar": REFRESH_SECONDS if job.live else None,
        "titulo_de": context_of(request).form_title})


def _page_number(request: Request) -> int:
    """The ``?pagina=N`` of a run's page: a page past the end shows the last, anything
    not a number the first."""
    text = request.query_params.get("pagina", "1")
    return int(text) if text.isdigit() and len(text) < 9 else 1


@router.get(PATH + "/{run_id}")
async def batch_run(request: Request, run_id: int) -> Response:
    user = require_user(request)
    ctx = context_of(request)
    jobs = jobs_of(request)
    run = await run_in_threadpool(_run, ctx, run_id)
    number = _page_number(request)
    view = await run_in_threadpool(
        lambda: run_view(ctx, jobs, run, rows=True, page_number=number))
    may = view["resumable"] and any(
        may_start(ctx, user, k) for k in _kinds(ctx) if k.name == run.kind)
    return page(request, "lote.html", {
        "execucao": view, "atualizar": REFRESH_SECONDS if view["running"] else None,
        "pode_retomar": may, "pode_abandonar": may, "motivo": "", "item": "",
        "pede_senha": asks_password(ctx, user),
        "abandonado": request.query_params.get("aviso") == "abandonado",
        "corrigido": request.query_params.get("aviso") == "corrigido",
        "erro": None, "titulo_de": ctx.form_title})


def _abandon(ctx: WebContext, jobs: BatchJobs, run_id: int, user: User, reason: str,
             item: str) -> int:
    issuer = ctx.require_issuer()
    run = _run(ctx, run_id)
    kind = find_kind(issuer, run.kind)  # type: ignore[arg-type]
    if not may_start(ctx, user, kind):
        raise AccessDenied("A sua conta não pode abandonar esta execução: isso cabe a quem "
                           "pode iniciá-la.")
    if len(reason) < 10:
        raise InputError("Informe o motivo do abandono (ao menos 10 caracteres).",
                         field="/motivo")
    position = None
    if item:
        if not item.isdigit() or not 0 < int(item) < 10**9:
            raise InputError("O item é a ordem do titular no resumo (um número a partir de "
                             "1); deixe em branco para abandonar toda a execução.",
                             field="/item")
        position = int(item) - 1
    return len(jobs.abandon(issuer, run, user.actor, reason, position))


@router.post(PATH + "/{run_id}/abandonar")
async def batch_abandon(request: Request, run_id: int) -> Response:
    user = require_user(request)
    form = await read_form(request)
    ctx = context_of(request)
    reason = clean_text(str(form.get("motivo") or ""), field="/motivo").strip()
    item = str(form.get("item") or "").strip()[:12]
    try:
        await run_in_threadpool(_abandon, ctx, jobs_of(request), run_id, user, reason, item)
    except AccessDenied:
        raise
    except LavraError as error:
        run = await run_in_threadpool(_run, ctx, run_id)
        view = await run_in_threadpool(lambda: run_view(ctx, jobs_of(request), run, rows=True))
        return page(request, "lote.html", {
            "execucao": view, "atualizar": None, "pode_retomar": False,
            "pode_abandonar": view["resumable"], "motivo": reason, "item": item,
            "abandonado": False, "corrigido": False,
            "erro": error_message(error), "titulo_de": ctx.form_title}, 422)
    return redirect(f"{PATH}/{run_id}?aviso=abandonado")


MAX_CHANGES = 10
"""Fields one correction form may change at once."""


def _correct(ctx: WebContext, jobs: BatchJobs, run_id: int, item_id: int, user: User,
             fields: list[tuple[str, str]], as_json: bool) -> int:
    """Apply the page's corrections to the item; the number of fields corrected."""
    run = _run(ctx, run_id)
    if jobs.live_for_run(run.id) is not None:
        raise InputError("A execução está em andamento: aguarde que termine para corrigir "
                         "um item.", field="/item")
    item = next((i for i in run_items(ctx.registry, run.id) if i.id == item_id), None)
    if item is None:
        raise NotFound(f"O item não pertence à execução em lote nº {run_id}.", field="/item")
    changes = [change_from_text(campo, valor, as_json=as_json, data=item.data)
               for campo, valor in fields if campo]
    if not changes:
        raise InputError("Informe o campo a corrigir e o novo valor.", field="/campo")
    _, made = correct(ctx.registry, item.id, changes, by=user.actor)
    return len(made)


@router.post(PATH + "/{run_id}/itens/{item_id}/corrigir")
async def batch_correct(request: Request, run_id: int, item_id: int) -> Response:
    """Correct a failed item's data (any staff account: a signer resumes the run)."""
    user = require_user(request)
    form = await read_form(request)
    ctx = context_of(request)
    campos = [clean_text(str(v), field="/campo").strip() for v in form.getlist("campo")]
    valores = [clean_text(str(v), field="/valor") for v in form.getlist("valor")]
    fields = list(zip(campos, valores, strict=False))[:MAX_CHANGES]
    as_json = form.get("json") in ("1", "sim", "on", "true")
    try:
        await run_in_threadpool(_correct, ctx, jobs_of(request), run_id, item_id, user,
                                fields, as_json)
    except (AccessDenied, NotFound):
        raise
    except LavraError as error:
        run = await run_in_threadpool(_run, ctx, run_id)
        view = await run_in_threadpool(lambda: run_view(ctx, jobs_of(request), run, rows=True))
        may = view["resumable"] and any(
            may_start(ctx, user, k) for k in _kinds(ctx) if k.name == run.kind)
        return page(request, "lote.html", {
            "execucao": view, "atualizar": None, "pode_retomar": may,
            "pode_abandonar": may, "motivo": "", "item": "", "abandonado": False,
            "pede_senha": asks_password(ctx, user),
            "corrigido": False,
            "erro": _labelled(ctx, next((c["form"] for c in view["correctable"]
                                         if c["id"] == item_id), None),
                              error_message(error)), "titulo_de": ctx.form_title}, 422)
    return redirect(f"{PATH}/{run_id}?aviso=corrigido")


@router.post(PATH + "/{run_id}/retomar")
async def batch_resume(request: Request, run_id: int) -> Response:
    user = require_user(request)
    form = await read_form(request)
    ctx = context_of(request)
    password = str(form.get(PASSWORD_FIELD) or "")
    try:
        await run_in_threadpool(_resume, ctx, jobs_of(request), run_id, user, password)
    except (AccessDenied, NotFound):
        raise
    except LavraError as error:
        run = await run_in_threadpool(_run, ctx, run_id)
        view = await run_in_threadpool(lambda: run_view(ctx, jobs_of(request), run, rows=True))
        return page(request, "lote.html", {
            "execucao": view, "atualizar": None, "pode_retomar": view["resumable"],
            "pode_abandonar": view["resumable"], "motivo": "", "item": "",
            "abandonado": False, "corrigido": False, "pede_senha": asks_password(ctx, user),
            "erro": error_message(error),
            "erro_senha": view["resumable"] and error.field == PASSWORD_POINTER,
            "titulo_de": ctx.form_title}, 409 if isinstance(error, BatchBusy) else 422)
    return redirect(f"{PATH}/{run_id}")


def _file(request: Request, run_id: int, name: str) -> Response:
    content = jobs_of(request).file(run_id, name)
    if content is None:
        raise NotFound("Arquivo não encontrado entre os desta execução.", field="/arquivo")
    suffix = name[name.rfind("."):].lower() if "." in name else ""
    return file_response(content, name, MEDIA.get(suffix, "application/octet-stream"),
                         inline=False)


@router.get(PATH + "/{run_id}/arquivos/{name}")
async def batch_file(request: Request, run_id: int, name: str) -> Response:
    require_user(request)
    return await run_in_threadpool(_file, request, run_id, name[:220])


# ------------------------------------------------------------------ API
StaffUser = Annotated[User, Depends(staff_user)]


@api_router.get("", summary="Execuções em lote do pacote e do registro", responses=STAFF_ERRORS)
def api_batch(request: Request, user: StaffUser) -> dict[str, Any]:
    ctx = context_of(request)
    return {
        "kinds": [{"name": k.name, "title": k.title, "may_start": may_start(ctx, user, k),
                   "parameters": [{"name": p.name, "label": p.label, "type": p.kind,
                                   "option": p.flag, "help": p.help} for p in k.parameters]}
                  for k in _kinds(ctx)],
        "runs": _list(ctx, jobs_of(request)),
    }


@api_router.post("", summary="Inicia uma execução em lote (multipart: execucao, parâmetros "
                 "do tipo, data, simular, pdf_unico, docx, arquivos entrada e pedidos)",
                 responses={**STAFF_ERRORS, 409: STAFF_ERRORS[422]}, status_code=202)
async def api_batch_start(request: Request, user: StaffUser) -> dict[str, Any]:
    ctx = context_of(request)
    form = await request.form(max_files=2, max_part_size=ctx.settings.max_upload_bytes + 1024)
    sent = await _start_request(form)
    job = await run_in_threadpool(_start, ctx, jobs_of(request), sent, user,
                                  str(form.get(PASSWORD_FIELD) or ""), required=False)
    return {**_job_view(job), "status_url": f"/api/batch/jobs/{job.token}"}


@api_router.get("/jobs/{token}", summary="Situação de uma tarefa iniciada", responses=STAFF_ERRORS)
def api_batch_job(request: Request, token: str, user: StaffUser) -> dict[str, Any]:
    job = jobs_of(request).job(token[:40])
    if job is None:
        raise NotFound("Esta tarefa não existe (ou o servidor foi reiniciado desde então).")
    return _job_view(job)


@api_router.get("/{run_id}", summary="Progresso, resumo e arquivos de uma execução",
                responses=STAFF_ERRORS)
def api_batch_run(request: Request, run_id: int, user: StaffUser) -> dict[str, Any]:
    ctx = context_of(request)
    return run_view(ctx, jobs_of(request), _run(ctx, run_id), rows=True,
                    page_number=_page_number(request))


@api_router.post("/{run_id}/resume", summary="Retoma uma execução não concluída",
                 responses={**STAFF_ERRORS, 409: STAFF_ERRORS[422]}, status_code=202)
def api_batch_resume(request: Request, run_id: int, user: StaffUser) -> dict[str, Any]:
    return _job_view(_resume(context_of(request), jobs_of(request), run_id, user, None,
                             required=False))


@api_router.post("/{run_id}/abandon", summary="Abandona uma execução não concluída, ou um "
                 "item dela (formulário: motivo; item, a ordem do titular no resumo): os "
                 "números reservados são inutilizados", responses=STAFF_ERRORS)
async def api_batch_abandon(request: Request, run_id: int, user: StaffUser) -> dict[str, Any]:
    ctx = context_of(request)
    form = await request.form(max_files=0)
    reason = clean_text(str(form.get("motivo") or ""), field="/motivo").strip()
    item = str(form.get("item") or "").strip()[:12]
    jobs = jobs_of(request)
    count = await run_in_threadpool(_abandon, ctx, jobs, run_id, user, reason, item)
    view = await run_in_threadpool(lambda: run_view(ctx, jobs, _run(ctx, run_id), rows=True))
    return {"abandoned_items": count, **view}


@api_router.get("/{run_id}/files/{name}", summary="Um arquivo da execução",
                responses=STAFF_ERRORS, response_class=Response)
def api_batch_file(request: Request, run_id: int, name: str, user: StaffUser) -> Response:
    return _file(request, run_id, name[:220])
