"""The registry search shared by the staff page (/equipe/registro) and GET /api/documents:
the typed filters read into :class:`lavra.registry.search.Filters`, and each document
shown with its values formatted (CPF/CNPJ masked, dates dd/mm/aaaa, labels, never
enums or keys)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from lavra.errors import InputError
from lavra.inputs.formats import mask_cpf_cnpj, mask_placa
from lavra.inputs.reading import parse_date
from lavra.inputs.textnorm import clean_text
from lavra.registry.identifiers import normalize_series
from lavra.registry.queries import RegistryPage
from lavra.registry.records import IssuedRecord, Status
from lavra.registry.search import Filters, ParsedQuery, parse_query
from lavra.signing.persons import signer_label
from lavra.signing.verification import normalize_code
from lavra.web.context import WebContext

__all__ = ["STATUS_LABELS", "Row", "filters_of", "masked_doc", "query_of", "row_of",
           "search_page"]

STATUS_LABELS = {Status.ISSUED: "Válido", Status.CANCELLED: "Cancelado"}
"""The document's status as the registry knows it, as the staff read it."""


@dataclass(frozen=True)
class Row:
    """One document as the registry page shows it."""

    id: int
    printed: str
    title: str
    form_title: str
    issued_on: str
    reference_on: str
    valid_until: str
    holder: str
    holder_key: str
    placa: str
    placa_key: str
    signer: str
    status: str
    cancelled: bool


def masked_doc(doc: str | None) -> str:
    if not doc:
        return ""
    return mask_cpf_cnpj(doc)


def _br(day: date | None) -> str:
    return day.strftime("%d/%m/%Y") if day is not None else ""


def row_of(ctx: WebContext, record: IssuedRecord) -> Row:
    status = STATUS_LABELS[Status.CANCELLED if record.cancelled else Status.ISSUED]
    if record.cancelled and record.cancelled_at_local is not None:
        status += f" em {_br(record.cancelled_at_local.date())}"
    return Row(
        id=record.id, printed=record.printed, title=ctx.record_title(record),
        form_title=ctx.form_title(record.form),
        issued_on=record.imported_note or record.issued_at_local.strftime("%d/%m/%Y %H:%M"),
        reference_on=_br(record.reference_date), valid_until=_br(record.valid_until),
        holder=masked_doc(record.cpf_cnpj), holder_key=record.cpf_cnpj or "",
        placa=mask_placa(record.placa) if record.placa else "", placa_key=record.placa or "",
        signer=signer_label(record.signer_subject), status=status,
        cancelled=record.cancelled,
    )


def query_of(text: str | None) -> ParsedQuery | None:
    """The typed query read (None: empty, every document)."""
    typed = clean_text((text or "").strip()[:200], field="/q", what="O texto da busca").strip()
    return parse_query(typed, normalize_code) if typed else None


def _text(value: str | None, field: str, what: str, size: int) -> str | None:
    typed = clean_text((value or "").strip(), field=field, what=what).strip()
    if len(typed) > size:
        raise InputError(f"{what} é longo demais (até {size} caracteres).", field=field)
    return typed or None


def filters_of(ctx: WebContext, *, form: str | None = None, series: str | None = None,
               year: str | int | None = None, status: str | None = None,
               since: str | date | None = None, until: str | date | None = None,
               signer: str | None = None) -> Filters:
    """The filters as typed (page) or sent (API); a clear pt-BR error naming the field."""
    form_id = _text(form, "/formulario", "O formulário", 120)
    if form_id is not None and form_id not in ctx.engine.content.forms:
        raise InputError("Formulário desconhecido: escolha um da lista.", field="/formulario")
    year_value: int | None = None
    if isinstance(year, int) or (year or "").strip():
        text = str(year).strip()
        if not text.isascii() or not text.isdigit() or not 1900 <= int(text) <= 2999:
            raise InputError(f"Ano inválido: «{text[:10]}». Informe o ano com 4 dígitos.",
                             field="/ano")
        year_value = int(text)
    state: Status | None = None
    if (status or "").strip():
        wanted = (status or "").strip().lower()
        aliases = {"valido": Status.ISSUED, "válido": Status.ISSUED,
                   "emitido": Status.ISSUED, "cancelado": Status.CANCELLED}
        found = aliases.get(wanted) or next((s for s in Status if s.value == wanted), None)
        if found is None:
            raise InputError("Situação inválida: escolha «válido» ou «cancelado».",
                             field="/situacao")
        state = found
    return Filters(
        form=form_id, series=normalize_series(_text(series, "/serie", "A série", 40)),
        year=year_value,
        status=state, issued_from=_day(since, "/de", "data inicial"),
        issued_until=_day(until, "/ate", "data final"),
        signer=_text(signer, "/signatario", "O nome do signatário", 200),
    )


def _day(value: str | date | None, field: str, what: str) -> date | None:
    if isinstance(value, date):
        return value
    text = (value or "").strip()
    return parse_date(text[:40], what=what, field=field) if text else None


def search_page(ctx: WebContext, query: ParsedQuery | None, filters: Filters, page: int,
                per_page: int) -> RegistryPage:
    return ctx.registry.browse(query, filters, page=page, per_page=per_page)


def signer_names(ctx: WebContext) -> list[str]:
    """The names of the accounts that sign (the signer filter's choices)."""
    return sorted({user.full_name for user in ctx.users.all() if user.signer_roles})


def form_choices(ctx: WebContext) -> list[tuple[str, str]]:
    """(id, title) of every form issued with a number, by title."""
    return sorted(((form.id, form.title) for form in ctx.staff_forms() if form.series),
                  key=lambda pair: pair[1])


def series_choices(ctx: WebContext) -> list[str]:
    return sorted({form.series for form in ctx.staff_forms() if form.series})


def page_context(ctx: WebContext) -> dict[str, Any]:
    """The choices of the registry page's filters."""
    return {"formularios": form_choices(ctx), "series": series_choices(ctx),
            "signatarios": signer_names(ctx),
            "situacoes": [("valido", "Válido"), ("cancelado", "Cancelado")]}
