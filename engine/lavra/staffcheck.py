"""The completeness report and the MINUTA as staff read them before signing: with the
registry as the case history when there is one (:meth:`lavra.issuing.Issuer.check`), so
that a cassação's bar, a licence in force or a fine the registry holds as paid is a
pendência, citing its article, before anything is numbered, as the issue will judge;
with the engine alone otherwise.

The one dispatch the command line (:mod:`lavra.cli.staffcheck`: ``lavra check``,
``lavra draft``) and the web (:mod:`lavra.web.staffcheck`: staff pages, the API with a
staff token) share; each shell says in its own words when the registry was not read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lavra.checking.report import Report
    from lavra.documents import Engine, Rendered
    from lavra.issuing import Issuer

__all__ = ["StaffChecker"]


@dataclass(frozen=True)
class StaffChecker:
    """Checks and drafts with the registry when there is one (``issuer``), else with
    ``engine`` alone."""

    engine: Engine
    issuer: Issuer | None

    @property
    def consulted(self) -> bool:
        """Whether the registry is read (there is an issuer)."""
        return self.issuer is not None

    def check(self, form: str, data: Mapping[str, Any], on: date | None) -> Report:
        if self.issuer is not None:
            return self.issuer.check(form, data, on)
        return self.engine.check(form, data, on)

    def draft(self, form: str, data: Mapping[str, Any], on: date | None, *,
              docx: bool) -> Rendered:
        if self.issuer is not None:
            return self.issuer.draft(form, data, on, docx=docx)
        return self.engine.draft(form, data, on, docx=docx)
