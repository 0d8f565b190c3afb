"""Following a filed requerimento: ``/acompanhar``, public.

The applicant types the protocol number (``PROT nº 0001/2026``, ``PROT 0001/2026`` or
``0001/2026``) and the CPF/CNPJ that filed it (masked or digits) and sees the request
(form, when it was filed), its status and the acts issued in its processo, each with
its public verification page and its PDF. The pair is sent by POST (with the page's
CSRF token), so that the CPF/CNPJ never lands in an address or a server log.

Status, read from the processo (:meth:`lavra.registry.filings.Filings.acts`; an act
belongs to it when its data names the processo's number, as the licensing state ties
acts, :class:`lavra.registry.effects.InProcesso`); cancelled acts are listed as such and
count for nothing:

- **decidido**: the processo holds an act other than a notice (the decision: the act
  granted, or the reasoned refusal); when the act's computation states the appeal that
  lies (``recurso.regra``, as a refusal prints it), the page shows it;
- **pendente**: the processo holds only notices (documents of the content's kind
  ``notificacao``: the staff's request to supply what is missing); the page links them
  and shows the last day their computation gives (``prazo_final``);
- **recebido**: nothing yet; the pending items the receipt listed are shown.

A notice joins the processo when its data name it: a batch run's notice on a request
filed online does (the pack puts the protocol's processo in it), and the run's record
of it makes the filing pending as well (:mod:`lavra.registry.filing_status`).

A wrong pair (a protocol filed by another CPF/CNPJ) answers as an unknown protocol, and
failed look-ups wait as failed logins do, per protocol and per address
(:class:`lavra.web.throttle.LoginThrottle`), so that guessing soon stalls.

**Ciência by electronic access** (``POST /acompanhar/ciencia``): an act the pack
addresses to the CPF/CNPJ that filed the protocol (:attr:`lavra.pack.ContentPack.
addressee`), whose form starts periods from the ciência and records none in itself, and
of which no ciência is on record, is not offered as a plain download: the page states
that opening it counts as ciência and starts those periods, and the person clicks
"Tomar ciência e abrir o documento". The pair is checked again (and throttled as a
look-up), the ciência is recorded as ``lavra fato ciencia`` records it (means
``eletronico``, the instant of the access, :meth:`lavra.web.context.WebContext.now`),
once — the first access counts (``first_only``) — and the page shows the act with its
link, the ciência and the last days that run from it. The reading (when such an access
is a ciência at all) is the pack's.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from lavra.errors import LavraError
from lavra.filing import PROTOCOL_SERIES
from lavra.recording import FactDeadline, FactRecorder
from lavra.registry.facts import FactKind, Means
from lavra.registry.filings import Filed, Filings, parse_protocol
from lavra.registry.inbox import Case, FilingStatus, Inbox
from lavra.registry.records import IssuedRecord, Status
from lavra.textutil import format_date
from lavra.web.common import context_of, error_message, page, read_form
from lavra.web.context import WebContext
from lavra.web.resend_view import resend_view

router = APIRouter(include_in_schema=False)

#: The content's document kind of a notice (``"tipo": "notificacao"``).
NOTICE_KIND = "notificacao"
RECEIVED, PENDING, DECIDED = "recebido", "pendente", "decidido"
NOT_FOUND = ("Não encontramos requerimento com este número de protocolo e este CPF ou CNPJ. "
             "Confira os dois e tente de novo.")


@dataclass(frozen=True)
class ActView:
    """One act of the processo as the tracking page shows it: ``acknowledge`` when the
    applicant may take ciência of it here (and its PDF waits for that click);
    ``ciencia`` the ciência on record, ``deadlines`` the last days that run from it."""

    id: int
    title: str
    printed: str
    issued_on: str
    code: str
    cancelled: bool
    has_pdf: bool
    notice: bool
    last_day: str | None
    appeal: str | None
    acknowledge: bool = False
    ciencia: str | None = None
    deadlines: tuple[str, ...] = ()
    appeal_until: str | None = None
    """The last day to file the recurso from this page, while it is open."""


@dataclass(frozen=True)
class Tracking:
    """What the page shows for a protocol: the filing, its form's title, its status
    (:data:`RECEIVED`, :data:`PENDING` or :data:`DECIDED`) and the processo's acts."""

    filed: Filed
    form_title: str
    status: str
    acts: tuple[ActView, ...]
    case: Case | None = None
    """The staff's review of the attachments (the inbox): refused documents, the last
    day to send them again, the documents sent again."""


def _computed(record: IssuedRecord, key: str) -> Any:
    computed = record.computed if isinstance(record.computed, Mapping) else {}
    return computed.get(key)


def _last_day(record: IssuedRecord) -> str | None:
    value = _computed(record, "prazo_final")
    if isinstance(value, str):
        try:
            return format_date(date.fromisoformat(value[:10]))
        except ValueError:
            return None
    return format_date(value) if isinstance(value, date) else None


def _appeal(record: IssuedRecord) -> str | None:
    appeal = _computed(record, "recurso")
    rule = appeal.get("regra") if isinstance(appeal, Mapping) else None
    return rule.strip() if isinstance(rule, str) and rule.strip() else None


def _addressed_to(ctx: WebContext, record: IssuedRecord, filed: Filed) -> bool:
    """The pack addresses the act to the CPF/CNPJ that filed the protocol, and the act
    is one whose ciência starts periods and is not recorded in the act itself."""
    addressee = ctx.engine.content.pack.addressee
    spec = ctx.engine.content.forms.get(record.form)
    ack = None if spec is None else spec.acknowledgement
    if (addressee is None or ack is None or ack.field is not None or not ack.deadlines
            or record.cancelled or record.origin is not None):
        return False
    return addressee(record.form, record.data) == filed.cpf_cnpj


def appeal_terms(ctx: WebContext, record: IssuedRecord, filed: Filed,
                 recorder: FactRecorder) -> FactDeadline:
    """The deadline a recurso against ``record`` is filed under from the tracking page
    (open on ``ctx.today()``); LavraError with the reason when none is: the act is not
    addressed to the filer, admits no recurso, is appealed on paper only, has no
    ciência on record yet, or its period has ended."""
    printed = record.printed
    if not _addressed_to(ctx, record, filed):
        raise LavraError(f"{printed} não é dirigido ao requerente deste protocolo, ou não "
                         "admite recurso por esta página. Nada foi protocolado.")
    spec = ctx.engine.content.forms.get(record.form)
    ack = None if spec is None else spec.acknowledgement
    cited = _computed(record, "fundamento")
    applying = [c for c in (ack.deadlines if ack is not None else ())
                if not isinstance(cited, list) or c in cited]
    pack = ctx.engine.content.pack
    online = [c for c in applying if pack.appeal_for(record.form, c) is not None]
    if not applying:
        raise LavraError(f"Contra {printed} não cabe recurso. Nada foi protocolado.")
    if not online:
        raise LavraError(f"O recurso contra {printed} ainda não pode ser protocolado por "
                         "esta página: protocole-o na Secretaria, no prazo indicado no "
                         "ato. Nada foi protocolado.")
    found = [d for d in recorder.deadlines(record) if d.citation in online]
    if not found:
        raise LavraError(f"O prazo do recurso contra {printed} corre da ciência: tome "
                         "ciência do ato («Tomar ciência e abrir o documento») e então "
                         "interponha o recurso. Nada foi protocolado.")
    deadline = found[0]
    if ctx.today() > deadline.last_day:
        raise LavraError(f"O prazo do recurso contra {printed} encerrou-se em "
                         f"{format_date(deadline.last_day)} ({deadline.reference}), contado "
                         f"da ciência em {format_date(deadline.ciencia.on)}. Nada foi "
                         "protocolado.")
    return deadline


def _open_appeal(ctx: WebContext, record: IssuedRecord, filed: Filed,
                 recorder: FactRecorder) -> str | None:
    try:
        return format_date(appeal_terms(ctx, record, filed, recorder).last_day)
    except LavraError:
        return None


def _view(ctx: WebContext, record: IssuedRecord, filed: Filed,
          recorder: FactRecorder) -> ActView:
    spec = ctx.engine.content.forms.get(record.form)
    notice = spec is not None and spec.kind == NOTICE_KIND
    ciencia = None if record.cancelled else recorder.ciencia(record)
    return ActView(
        id=record.id, title=ctx.record_title(record), printed=record.printed,
        issued_on=format_date(record.act_date),  # an imported act: its own date
        code=record.verification_code, cancelled=record.status == Status.CANCELLED,
        has_pdf=record.origin is None, notice=notice,
        last_day=_last_day(record) if notice else None,
        appeal=None if notice else _appeal(record),
        acknowledge=ciencia is None and _addressed_to(ctx, record, filed),
        ciencia=None if ciencia is None else ciencia.source,
        deadlines=tuple(d.summary for d in recorder.deadlines(record)) if ciencia else (),
        appeal_until=_open_appeal(ctx, record, filed, recorder) if ciencia else None)


def status_of(acts: Sequence[ActView]) -> str:
    standing = [act for act in acts if not act.cancelled]
    if any(not act.notice for act in standing):
        return DECIDED
    return PENDING if standing else RECEIVED


def track(ctx: WebContext, protocol: str, cpf_cnpj: str) -> Tracking | None:
    filings = Filings(ctx.registry)
    filed = filings.find(protocol, cpf_cnpj, series=PROTOCOL_SERIES)
    if filed is None:
        return None
    recorder = FactRecorder(ctx.registry, ctx.engine.content)
    acts = tuple(_view(ctx, record, filed, recorder) for record in filings.acts(filed))
    case = Inbox(ctx.registry).case(filed.id)
    status = status_of(acts)
    if status == RECEIVED and case is not None and case.status is FilingStatus.PENDING:
        status = PENDING  # a document refused in the inbox
    return Tracking(filed=filed, form_title=ctx.form_title(filed.form),
                    status=status, acts=acts, case=case)


def acknowledge(ctx: WebContext, protocol: str, cpf_cnpj: str, act_id: int
                ) -> tuple[Tracking, str] | None:
    """Record the applicant's ciência of act ``act_id`` of the protocol's processo (the
    module's doc); the page's new state and what to tell the person. None for an unknown
    pair; LavraError when the act is not one the applicant may take ciência of here."""
    found = track(ctx, protocol, cpf_cnpj)
    if found is None:
        return None
    act = next((a for a in found.acts if a.id == act_id), None)
    if act is not None and act.ciencia is not None:
        return found, f"A ciência de {act.printed} já consta do registro: {act.ciencia}."
    if act is None or not act.acknowledge:
        raise LavraError("Este documento não é dirigido ao requerente deste protocolo, ou "
                         "não admite ciência por esta página. Nada foi registrado.")
    recorder = FactRecorder(ctx.registry, ctx.engine.content)
    record = ctx.registry.get_by_id(act_id)
    if record is None:  # pragma: no cover - listed a moment ago
        return None
    moment = ctx.now()
    filed = found.filed
    recorder.record(record, FactKind.CIENCIA.value, on=moment, now=moment,
                    by=f"{filed.name}, requerente do protocolo {filed.protocol}",
                    means=Means.ELECTRONIC.value, reference=filed.protocol,
                    first_only=True)
    refreshed = track(ctx, protocol, cpf_cnpj)
    if refreshed is None:  # pragma: no cover - the pair was just found
        return None
    now = next((a for a in refreshed.acts if a.id == act_id), act)
    return refreshed, f"Ciência de {now.printed} registrada: {now.ciencia}."


def tracking_page(request: Request, values: Mapping[str, str], error: str | None,
          found: Tracking | None, status: int = 200, notice: str | None = None,
          opened: int | None = None, extra: Mapping[str, Any] | None = None) -> Response:
    ctx = context_of(request)
    return page(request, "acompanhar.html", {
        "valores": values, "erro": error, "acompanhamento": found,
        "ciencia_registrada": notice, "ato_aberto": opened,
        "token": secrets.token_urlsafe(24),
        "limite_arquivo": ctx.settings.max_attachment_bytes // (1024 * 1024),
        "limite_total": ctx.settings.max_filing_bytes // (1024 * 1024),
        "reenvio": resend_view(ctx, found) if found is not None else None,
        "erro_reenvio": None, "reenviado": None, "ciencia_recusa": None,
        **(extra or {}),
    }, status)


@router.get("/acompanhar")
async def tracking_form(request: Request) -> Response:
    return tracking_page(request, {}, None, None)


async def checked_pair(request: Request, files: int = 0
                       ) -> tuple[dict[str, str], Response | None, str, FormData]:
    """The posted pair, and the page to answer at once (missing field, throttled)."""
    ctx = context_of(request)
    posted = await read_form(request, files=files)
    values = {key: " ".join(str(posted.get(key) or "").split())[:80]
              for key in ("protocolo", "documento", "ato")}
    missing = [what for key, what in (("protocolo", "o número de protocolo"),
                                      ("documento", "o CPF ou CNPJ do requerente"))
               if not values[key]]
    if missing:
        return values, tracking_page(request, values, f"Informe {' e '.join(missing)}.", None,
                             422), "", posted
    address = request.client.host if request.client else "desconhecido"
    account = parse_protocol(values["protocolo"], PROTOCOL_SERIES) or values["protocolo"]
    wait = ctx.tracking_throttle.wait_seconds(account, address)
    if wait:
        return values, tracking_page(request, values, f"Muitas consultas sem resultado. Aguarde "
                             f"{wait} segundos e tente de novo.", None, 429), account, posted
    return values, None, account, posted


def not_found(request: Request, values: Mapping[str, str], account: str) -> Response:
    address = request.client.host if request.client else "desconhecido"
    context_of(request).tracking_throttle.failed(account, address)
    return tracking_page(request, values, NOT_FOUND, None, 404)


async def authenticated(request: Request, files: int = 0) -> tuple[
        dict[str, str], Response | None, Tracking | None, FormData]:
    """The posted pair's protocol (``Tracking``), or the page to answer instead (missing
    field, throttled, unknown pair: counted as a failed look-up)."""
    ctx = context_of(request)
    values, answer, account, posted = await checked_pair(request, files)
    if answer is not None:
        return values, answer, None, posted
    found = await run_in_threadpool(track, ctx, values["protocolo"], values["documento"])
    if found is None:
        return values, not_found(request, values, account), None, posted
    ctx.tracking_throttle.succeeded(account)
    return values, None, found, posted


@router.post("/acompanhar")
async def tracking_result(request: Request) -> Response:
    values, answer, found, _ = await authenticated(request)
    return answer or tracking_page(request, values, None, found)


@router.post("/acompanhar/ciencia")
async def tracking_ciencia(request: Request) -> Response:
    """"Tomar ciência e abrir o documento" (the module's doc)."""
    ctx = context_of(request)
    values, answer, account, _ = await checked_pair(request)
    if answer is not None:
        return answer
    act_id = int(values["ato"]) if values["ato"].isdigit() else 0
    try:
        done = await run_in_threadpool(acknowledge, ctx, values["protocolo"],
                                       values["documento"], act_id)
    except LavraError as error:
        found = await run_in_threadpool(track, ctx, values["protocolo"],
                                        values["documento"])
        return tracking_page(request, values, error_message(error), found, 422)
    if done is None:
        return not_found(request, values, account)
    ctx.tracking_throttle.succeeded(account)
    found, notice = done
    return tracking_page(request, values, None, found, notice=notice, opened=act_id)
