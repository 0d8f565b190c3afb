"""The administrator's page of the numbering check (``/equipe/numeracao``): per series
and year, the last number taken, how many acts lavra issued and imported, the voided
numbers (when, by whom, why), the numbers used before lavra and the unexplained ones.
A thin shell over :meth:`lavra.registry.store.Registry.numbering_report`, the same as
``lavra cadastro numeracao`` (:mod:`lavra.cli.numbering`). Other accounts get 403.

The page also records the numbering-void act of ``lavra cadastro inutilizar``
(:meth:`lavra.registry.store.Registry.void_number`, the same call): a number taken that
no act will carry (unexplained, or reserved by a batch item that failed), with the reason
typed and, as who decides, the signed-in administrator's account as every staff act of
the web names it (:attr:`lavra.web.users.User.actor`). The registry refuses, in pt-BR, a
number never taken, one a document carries (cancel the document) or a pending batch item
holds (abandon the item), and one already voided; the refusal is shown at the field and
nothing is written."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.errors import InputError, LavraError
from lavra.registry.identifiers import normalize_series, overlong_number, parse_printed
from lavra.registry.voiding import VoidedNumber, spans
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

__all__ = ["PATH", "router"]

router = APIRouter(include_in_schema=False)

PATH = "/equipe/numeracao"
VOID_PATH = f"{PATH}/inutilizar"
_EXAMPLE = "ex.: SELO-ESC 0003/2026"
_FIELDS = {"/numero": "numero", "/serie": "numero", "/ano": "numero", "/motivo": "motivo",
           "/confirmo": "confirmo"}
"""The page's field where a refusal (by its pointer) is shown; any other above the form."""


def _require_admin(request: Request, what: str) -> User:
    user = require_user(request)
    if not user.is_admin:
        raise AccessDenied(f"Somente a administração pode {what}.")
    return user


def _numbering_page(request: Request, *, erros: dict[str, str] | None = None,
                    enviado: dict[str, str] | None = None, status: int = 200) -> Response:
    reports = context_of(request).registry.numbering_report()
    return page(request, "numeracao.html", {
        "series": [{"report": r, "antes": spans(r.before_lavra, r.year) or "—",
                    "lacunas": spans(r.gaps, r.year) or "—"} for r in reports],
        "inutilizados": [v for r in reports for v in r.voided],
        "sem_explicacao": any(r.gaps for r in reports),
        "lacunas": [f"{r.series} {n:04d}/{r.year}" for r in reports for n in r.gaps],
        "exemplo": _EXAMPLE,
        "erros": erros or {},
        "enviado": enviado or {},
        "mensagem": ("Número inutilizado: consta abaixo, com a data, quem decidiu e o motivo."
                     if request.query_params.get("aviso") == "inutilizado" else None),
    }, status)


@router.get(PATH)
async def numbering_page(request: Request) -> Response:
    _require_admin(request, "conferir a numeração dos documentos")
    return await run_in_threadpool(_numbering_page, request)


def _number_of(typed: str) -> tuple[str, int, int]:
    """(series, year, number) of a number typed as printed (``ALV-FRET nº 0002/2019``):
    the series is part of it, the page has no field of its own for it."""
    if not typed:
        raise InputError(f"Informe o número a inutilizar, com a série ({_EXAMPLE}).",
                         field="/numero")
    found = parse_printed(typed)
    if found is None:
        said = ("tem mais de 9 algarismos" if overlong_number(typed)
                else f"use o formato SÉRIE 0001/2026 ({_EXAMPLE})")
        raise InputError(f"Número inválido: «{typed}»; {said}.", field="/numero")
    series, number, year = found
    chosen = normalize_series(series)
    if chosen is None:
        raise InputError(f"Informe a série antes do número ({_EXAMPLE}).", field="/numero")
    return chosen, year, number


def _void(request: Request, user: User, sent: dict[str, str]) -> VoidedNumber:
    series, year, number = _number_of(sent["numero"])
    if not sent["confirmo"]:
        raise InputError("Confirme que o número não será emitido: a inutilização é "
                         "definitiva.", field="/confirmo")
    return context_of(request).registry.void_number(
        series, year, number, reason=sent["motivo"], by=user.actor)


@router.post(VOID_PATH)
async def void_number(request: Request) -> Response:
    user = _require_admin(request, "inutilizar números da numeração dos documentos")
    form = await read_form(request)
    sent = {name: str(form.get(name) or "").strip()[:2100]
            for name in ("numero", "motivo", "confirmo")}
    try:
        await run_in_threadpool(_void, request, user, sent)
    except LavraError as error:
        where = _FIELDS.get(error.field or "", "geral")
        erros = {where: error_message(error)}
        return await run_in_threadpool(lambda: _numbering_page(
            request, erros=erros, enviado=sent, status=422))
    return redirect(f"{PATH}?aviso=inutilizado")
