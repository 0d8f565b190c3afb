"""The completeness report and the MINUTA as staff read them before signing: with the
registry as the case history (:meth:`lavra.issuing.Issuer.check`), so that a cassação's
bar, a licence in force or a fine the registry holds as paid is a pendência, citing its
article, before the document is numbered, as the issue will judge.

Only staff pages and the API called with a staff token read the registry this way: the
public pages (a citizen's requerimento) never show what the registry holds of anyone,
and the API without a token says the registry was not consulted (:data:`UNCHECKED`).
The dispatch is :class:`lavra.staffcheck.StaffChecker`'s, shared with the command line.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import TYPE_CHECKING, Any

from lavra.staffcheck import StaffChecker
from lavra.web.context import WebContext

if TYPE_CHECKING:
    from lavra.checking.report import Report
    from lavra.documents import Rendered

__all__ = ["UNCHECKED", "staff_check", "staff_draft"]

UNCHECKED = (
    "Cadastro não consultado: sem o token de acesso da equipe, o relatório não considera "
    "cassações, licenças em vigor nem multas registradas, que a emissão verifica."
)


def _checker(ctx: WebContext) -> StaffChecker:
    """The engine's staff checker over the application's issuer (the engine alone when
    the application has none)."""
    try:
        from lavra.issuing import Issuer
    except ImportError:  # pragma: no cover - the engine without the issuer
        return StaffChecker(ctx.engine, None)
    found = ctx.issuer
    return StaffChecker(ctx.engine, found if isinstance(found, Issuer) else None)


def staff_check(ctx: WebContext, form_id: str, data: Mapping[str, Any],
                on: date | None = None) -> Report:
    """The report of ``data`` with the registry as history (the engine's alone when the
    application has no issuer)."""
    return _checker(ctx).check(form_id, data, on)


def staff_draft(ctx: WebContext, form_id: str, data: Mapping[str, Any],
                on: date | None = None, *, docx: bool = False) -> Rendered:
    """The MINUTA of ``data``, its report read as :func:`staff_check` reads it (the
    caller holds ``ctx.render_lock``)."""
    return _checker(ctx).draft(form_id, data, on, docx=docx)
