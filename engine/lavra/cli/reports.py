"""The completeness report as the command line prints it (``lavra check``, ``read``,
``issue`` when refused): the form's title (never its id), then one line per
requirement, its status, the message, the legal basis as the acts cite it («art. 7º,
II, da Lei nº 4.419/2006», never a citation id) and, where the message does not name
it already, the field by the label its form gives it («Relação de veículos (item 2) ›
Tipo de veículo»), never a JSON pointer; and the error line of every command
(:func:`error_text`), its field named the same way."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from lavra.inputs import pointers

if TYPE_CHECKING:
    from lavra.checking.content import Content
    from lavra.checking.report import Report
    from lavra.errors import LavraError

__all__ = ["error_text", "print_report"]


def print_report(report: Report, as_json: bool, content: Content | None = None, *,
                 unchecked: str | None = None) -> None:
    """``report`` in pt-BR lines (or its JSON, pointers and citation ids kept: that is for
    programs); ``content`` names the fields and cites the law (without it, a line names
    no field and no basis); ``unchecked``: what the report could not look at (the
    registry), its last line (in JSON, ``"unchecked"``)."""
    from lavra.checking.report import STATUS_LABELS

    if as_json:
        payload = report.to_json()
        if unchecked is not None:
            payload["unchecked"] = unchecked
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    label = _labeller(content, report.form)
    cite = _citer(content)
    state = "COMPLETO" if report.complete else "INCOMPLETO"
    form = content.forms.get(report.form) if content is not None else None
    click.echo(f"{form.title if form else 'Formulário'} em {report.on:%d/%m/%Y}: {state}")
    for item in report.items:
        status = STATUS_LABELS[item.status].upper()
        cited = [cite(c) for c in item.basis]
        basis = f" ({'; '.join(c for c in cited if c)})" if any(cited) else ""
        name = ("opção --data" if item.field == "/on"  # the date the option gave, no field
                else _named(label(item.field), item.field, item.message) if item.field else "")
        where = f" — {name}" if name else ""
        click.echo(f"  {status:<14} {item.message}{basis}{where}")
    pending = len(report.pending)
    if pending:
        click.echo(f"{pending} pendência(s).")
    if unchecked is not None:
        click.echo(unchecked)


def _named(label: str, pointer: str, message: str) -> str:
    """The field's label where the message does not name the field already: a message
    naming its title («Atendido: CNPJ.») needs no more, unless the field sits in a
    list, whose item only its parents tell («Relação de veículos (item 2)»)."""
    said = message.lower()
    if not label or label.lower() in said:
        return ""
    parents, _, leaf = label.rpartition(" › ")
    if leaf.lower() not in said:
        return label
    in_list = any(pointers.is_index(t) for t in pointers.split(pointer))
    return parents if in_list else ""


def _citer(content: Content | None) -> Callable[[str], str]:
    """A citation id as a sentence cites it («art. 7º, II, da Lei nº 4.419/2006»); ""
    when the pack is not at hand or the id does not resolve (never the id itself)."""
    from lavra.errors import CitationError

    def cite(citation: str) -> str:
        if content is None:
            return ""
        try:
            return content.cite_short(citation)
        except CitationError:
            return ""

    return cite


def _labeller(content: Content | None, form_id: str) -> Callable[[str], str]:
    """The field at a pointer of the form's data as its page names it; "" when the form
    is not at hand."""
    if content is None or form_id not in content.forms:
        return lambda _pointer: ""
    from lavra.inputs.schemas.validation import field_label

    registry, schema_id = content.registry, content.forms[form_id].schema_id

    def label(pointer: str) -> str:
        path = [int(t) if pointers.is_index(t) else t for t in pointers.split(pointer)]
        return field_label(registry, schema_id, path) if path else ""

    return label


def error_text(error: LavraError, content: Content | None, form_id: str | None) -> str:
    """The message of ``error`` for a shell: its field by the label ``form_id``'s page
    gives it («Empresa › Razão social»), in the message and after it, never a JSON
    pointer; an option by its name («opção --data»)."""
    message, field = error.message, error.field or ""
    if field.startswith("--"):
        return message if field in message else f"{message} (opção {field})"
    tokens = pointers.split(field) if field.startswith("/") else []
    if not tokens or not all(tokens):
        return message
    label = _labeller(content, form_id or "")(field)
    said = pointers.said_as(message, field, label)
    if said is not None:
        return said
    if label.rpartition(" › ")[2].startswith("«"):
        return message  # no field of the form (a registry's key): never named raw
    name = _named(label, field, message)
    return f"{message} (campo «{name}»)" if name else message
