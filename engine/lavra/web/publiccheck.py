"""The completeness report of a requerimento on the public pages (the form, its live
report, reading a filled PDF, the filing page): the engine's check without the
registry, except for the forms the pack lists in
:attr:`lavra.pack.ContentPack.public_questions`, whose check may ask the holder's own
question (:mod:`lavra.checking.holder_questions`) through :class:`PublicQuestions`,
so that the page calls «Completo» what the run accepts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from lavra.checking.computations import History, PriorRecord
from lavra.checking.holder_questions import answer
from lavra.checking.report import Report
from lavra.registry.store import Registry
from lavra.web.context import WebContext

__all__ = ["PublicQuestions", "public_check", "public_history"]


class PublicQuestions:
    """The registry as a public page's check sees it: it answers the holder's own
    question and nothing else; the case history's lookups find nothing (it is given
    only to the forms the pack lists, whose checks ask nothing else)."""

    def __init__(self, registry: Registry) -> None:
        self._registry = registry

    def holder_knows(self, number: str, kind: str, cpf_cnpj: str, pointer: str) -> bool | None:
        if not isinstance(number, str) or not number.strip():
            return None
        return answer(self._registry.licence_by_number(number, kind), cpf_cnpj, pointer)

    def prior_autos(self, placa: str, form: str, since: date, before: date
                    ) -> Sequence[PriorRecord]:
        return ()

    def document(self, form: str, number: str) -> PriorRecord | None:
        return None

    def in_force(self, placa: str, form: str, on: date) -> Sequence[PriorRecord]:
        return ()

    def by_holder(self, cpf_cnpj: str, form: str) -> Sequence[PriorRecord]:
        return ()


def public_history(ctx: WebContext, form_id: str) -> History | None:
    """:class:`PublicQuestions` for a form the pack lists, when the application has a
    registry; None otherwise (the check then reads no registry at all)."""
    if form_id not in ctx.engine.content.pack.public_questions:
        return None
    registry = getattr(ctx.issuer, "registry", None)
    return PublicQuestions(registry) if isinstance(registry, Registry) else None


def public_check(ctx: WebContext, form_id: str, data: Mapping[str, Any]) -> Report:
    """The report the public pages show of ``data``."""
    return ctx.engine.check(form_id, data, history=public_history(ctx, form_id))
