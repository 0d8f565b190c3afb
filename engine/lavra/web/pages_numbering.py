"""The administrator's page of the numbering check (``/equipe/numeracao``): per series
and year, the last number taken, how many acts lavra issued and imported, the voided
numbers (when, by whom, why), the numbers used before lavra and the unexplained ones.
A thin shell over :meth:`lavra.registry.store.Registry.numbering_report`, the same as
``lavra cadastro numeracao`` (:mod:`lavra.cli.numbering`). Other accounts get 403."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from lavra.registry.voiding import spans
from lavra.web.common import AccessDenied, context_of, page, require_user

__all__ = ["PATH", "router"]

router = APIRouter(include_in_schema=False)

PATH = "/equipe/numeracao"


@router.get(PATH)
async def numbering_page(request: Request) -> Response:
    if not require_user(request).is_admin:
        raise AccessDenied("Somente a administração pode conferir a numeração dos documentos.")
    reports = await run_in_threadpool(context_of(request).registry.numbering_report)
    return page(request, "numeracao.html", {
        "series": [{"report": r, "antes": spans(r.before_lavra, r.year) or "—",
                    "lacunas": spans(r.gaps, r.year) or "—"} for r in reports],
        "inutilizados": [v for r in reports for v in r.voided],
        "sem_explicacao": any(r.gaps for r in reports),
    })
