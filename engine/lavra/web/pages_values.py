"""The administrator's page of the values staff keep: days without expediente and yearly
values (``/equipe/valores``).

An administrator registers a day the Prefeito decreed (feriado or ponto facultativo,
with the decree) or a year's value of a parameter the pack lets staff set (a corrected
fine, with the act that fixed it), and revokes a wrong one (it stays, with who, when
and why). Each row shows the act, who recorded it and when. The next document reads
them (:class:`lavra.staff.RegistryStaffValues`). Other accounts get 403.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.errors import LavraError
from lavra.law.calendar import load_calendar
from lavra.registry.staff_values import DAY_KINDS, StaffKind
from lavra.staff import add_staff_parameter, settable_parameters
from lavra.web.common import (
    AccessDenied,
    context_of,
    error_message,
    page,
    read_form,
    redirect,
    require_user,
)
from lavra.web.users import User

router = APIRouter(include_in_schema=False)

PATH = "/equipe/valores"
_NOTICES = {"dia-cadastrado": "Dia cadastrado: vale a partir do próximo documento.",
            "valor-cadastrado": "Valor cadastrado: vale a partir do próximo documento.",
            "revogado": "Cadastro revogado: deixa de valer a partir do próximo documento."}


def require_values_admin(request: Request) -> User:
    user = require_user(request)
    if not user.is_admin:
        raise AccessDenied("Somente a administração pode cadastrar dias sem expediente e "
                           "valores anuais.")
    return user


def _values_page(request: Request, *, erro: str | None = None, enviado: dict[str, Any] | None
                 = None, status: int = 200) -> Response:
    ctx = context_of(request)
    registry = ctx.registry
    parameters = ctx.engine.content.parameters
    shipped = load_calendar(ctx.engine.content.root)
    return page(request, "valores.html", {
        "dias": registry.staff_values(StaffKind.DAY),
        "valores": registry.staff_values(StaffKind.PARAMETER),
        "tipos": DAY_KINDS,
        "parametros": settable_parameters(parameters),
        "pacote": shipped.entries,
        "erro": erro,
        "enviado": enviado or {},
        "mensagem": _NOTICES.get(request.query_params.get("aviso") or ""),
    }, status)


def _sent(form: Any, *names: str) -> dict[str, str]:
    return {name: str(form.get(name) or "")[:600] for name in names}


@router.get(PATH)
async def values_page(request: Request) -> Response:
    require_values_admin(request)
    return await run_in_threadpool(_values_page, request)


async def _record(request: Request, names: tuple[str, ...],
                  save: Callable[[dict[str, str], User], object], notice: str) -> Response:
    """Record what the form sent; on bad input, the page again with the error (422)."""
    user = require_values_admin(request)
    sent = _sent(await read_form(request), *names)
    try:
        await run_in_threadpool(save, sent, user)
    except LavraError as error:
        message = error_message(error)
        return await run_in_threadpool(lambda: _values_page(
            request, erro=message, enviado=sent, status=422))
    return redirect(f"{PATH}?aviso={notice}")


@router.post(f"{PATH}/dias")
async def day_add(request: Request) -> Response:
    registry = context_of(request).registry
    return await _record(
        request, ("data", "tipo", "nome", "ato"),
        lambda sent, user: registry.add_staff_day(sent["data"], sent["tipo"], sent["nome"],
                                                  act=sent["ato"], by=user.actor),
        "dia-cadastrado")


@router.post(f"{PATH}/parametros")
async def value_add(request: Request) -> Response:
    ctx = context_of(request)
    return await _record(
        request, ("parametro", "ano", "valor", "ato"),
        lambda sent, user: add_staff_parameter(
            ctx.registry, ctx.engine.content.parameters, sent["parametro"], sent["ano"],
            sent["valor"], act=sent["ato"], by=user.actor),
        "valor-cadastrado")


@router.post(PATH + "/{ident}/revogar")
async def value_revoke(request: Request, ident: int) -> Response:
    user = require_values_admin(request)
    ctx = context_of(request)
    sent = _sent(await read_form(request), "motivo")
    try:
        await run_in_threadpool(lambda: ctx.registry.revoke_staff_value(
            ident, reason=sent["motivo"], by=user.actor))
    except LavraError as error:
        message = error_message(error)
        return await run_in_threadpool(lambda: _values_page(request, erro=message, status=422))
    return redirect(f"{PATH}?aviso=revogado")
