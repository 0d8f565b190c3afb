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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.filing import PROTOCOL_SERIES
from lavra.registry.filings import Filed, Filings, parse_protocol
from lavra.registry.records import IssuedRecord, Status
from lavra.textutil import format_date
from lavra.web.common import context_of, page, read_form
from lavra.web.context import WebContext

router = APIRouter(include_in_schema=False)

#: The content's document kind of a notice (``"tipo": "notificacao"``).
NOTICE_KIND = "notificacao"
RECEIVED, PENDING, DECIDED = "recebido", "pendente", "decidido"
NOT_FOUND = ("Não encontramos requerimento com este número de protocolo e este CPF ou CNPJ. "
             "Confira os dois e tente de novo.")


@dataclass(frozen=True)
class ActView:
    """One act of the processo as the tracking page shows it."""

    title: str
    printed: str
    issued_on: str
    code: str
    cancelled: bool
    has_pdf: bool
    notice: bool
    last_day: str | None
    appeal: str | None


@dataclass(frozen=True)
class Tracking:
    """What the page shows for a protocol: the filing, its form's title, its status
    (:data:`RECEIVED`, :data:`PENDING` or :data:`DECIDED`) and the processo's acts."""

    filed: Filed
    form_title: str
    status: str
    acts: tuple[ActView, ...]


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


def _view(ctx: WebContext, record: IssuedRecord) -> ActView:
    spec = ctx.engine.content.forms.get(record.form)
    notice = spec is not None and spec.kind == NOTICE_KIND
    return ActView(
        title=ctx.record_title(record), printed=record.printed,
        issued_on=format_date(record.issued_at_local.date()),
        code=record.verification_code, cancelled=record.status == Status.CANCELLED,
        has_pdf=record.origin is None, notice=notice,
        last_day=_last_day(record) if notice else None,
        appeal=None if notice else _appeal(record))


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
    acts = tuple(_view(ctx, record) for record in filings.acts(filed))
    return Tracking(filed=filed, form_title=ctx.form_title(filed.form),
                    status=status_of(acts), acts=acts)


def _page(request: Request, values: Mapping[str, str], error: str | None,
          found: Tracking | None, status: int = 200) -> Response:
    return page(request, "acompanhar.html", {
        "valores": values, "erro": error, "acompanhamento": found,
    }, status)


@router.get("/acompanhar")
async def tracking_form(request: Request) -> Response:
    return _page(request, {}, None, None)


@router.post("/acompanhar")
async def tracking_result(request: Request) -> Response:
    ctx = context_of(request)
    posted = await read_form(request)
    values = {key: " ".join(str(posted.get(key) or "").split())[:80]
              for key in ("protocolo", "documento")}
    missing = [what for key, what in (("protocolo", "o número de protocolo"),
                                      ("documento", "o CPF ou CNPJ do requerente"))
               if not values[key]]
    if missing:
        return _page(request, values, f"Informe {' e '.join(missing)}.", None, 422)
    address = request.client.host if request.client else "desconhecido"
    account = parse_protocol(values["protocolo"], PROTOCOL_SERIES) or values["protocolo"]
    wait = ctx.tracking_throttle.wait_seconds(account, address)
    if wait:
        return _page(request, values, f"Muitas consultas sem resultado. Aguarde {wait} "
                     "segundos e tente de novo.", None, 429)
    found = await run_in_threadpool(track, ctx, values["protocolo"], values["documento"])
    if found is None:
        ctx.tracking_throttle.failed(account, address)
        return _page(request, values, NOT_FOUND, None, 404)
    ctx.tracking_throttle.succeeded(account)
    return _page(request, values, None, found)
