"""``lavra deadline``: the deadline a cited fragment sets, and whether an act met it.

A thin shell over :mod:`lavra.law.statutory`. Errors of lavra are printed in pt-BR on
stderr with exit status 2; an untimely act is an answer, not an error (exit 0).
"""

from __future__ import annotations

import json
import re
import sys
from datetime import date, datetime
from typing import Any

import click

from lavra.checking.timeliness import check_timeliness
from lavra.cli.support import aliased
from lavra.cli.values import configured_staff_values
from lavra.config import load_config
from lavra.errors import InputError, LavraError
from lavra.inputs.reading import check_date, parse_date
from lavra.law.model import resolve
from lavra.law.overlay import overlay_context
from lavra.law.statutory import (
    StatutoryContext,
    StatutoryDeadline,
    deadline_citations,
    deadline_for,
    load_statutory_context,
)
from lavra.textutil import format_date, format_datetime

__all__ = ["deadline", "parse_moment"]

_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}$")

_HELP = """Mostra o prazo que o dispositivo CITACAO fixa, contado da data --inicio, e, com
--protocolo, se o ato praticado nessa data foi tempestivo.

\b
Exemplos:
  lavra deadline LEI#art23 --inicio 2026-02-20 --protocolo 2026-03-12
  lavra deadline LEI#art5_inc2 --inicio 2026-03-06T10:00
  lavra deadline --listar

Datas no formato AAAA-MM-DD (ou DD/MM/AAAA); prazos em horas pedem também a hora,
AAAA-MM-DDTHH:MM, no fuso horário do Município. A contagem segue o art. 66 da Lei
federal nº 9.784/1999, no calendário de dias úteis do Município."""


def parse_moment(text: str, option: str) -> date | datetime:
    """A date (``AAAA-MM-DD`` or ``DD/MM/AAAA``, read by :func:`lavra.inputs.reading.parse_date`)
    or a local date and time (``AAAA-MM-DDTHH:MM``); :class:`InputError` in pt-BR otherwise."""
    where = f"/{option.lstrip('-')}"
    value = text.strip()
    if _DATE_TIME.match(value):
        try:
            moment = datetime.fromisoformat(value.replace(" ", "T"))
        except ValueError:
            raise InputError(f"A data e hora em {option}, {text}, não existem no calendário.",
                             field=where) from None
        check_date(moment.date(), what=f"data em {option}", field=where)
        return moment
    try:
        return parse_date(value, what=f"data em {option}", field=where)
    except InputError as exc:
        raise InputError(f"{exc.message} Prazos em horas pedem também a hora: "
                         "AAAA-MM-DDTHH:MM.", field=exc.field) from None


def _summary(deadline: StatutoryDeadline) -> list[str]:
    lines = [f"Prazo do {deadline.reference}: {deadline.act}."]
    if deadline.end is not None:
        lines.append(f"Termo final: {format_datetime(deadline.end)}.")
    elif deadline.kind == "carencia":
        assert deadline.first_allowed_day is not None
        lines.append(f"Impedimento até {format_date(deadline.last_day)}; admissível a partir de "
                     f"{format_date(deadline.first_allowed_day)}.")
    elif deadline.first_day is not None:
        lines.append(f"Período: de {format_date(deadline.first_day)} a "
                     f"{format_date(deadline.last_day)}.")
    elif deadline.kind == "prazo_minimo":
        lines.append(f"Encerramento não antes de {format_date(deadline.last_day)}.")
    else:
        lines.append(f"Último dia: {format_date(deadline.last_day)}.")
    lines.append(deadline.explanation)
    return lines


def _list(context: StatutoryContext, as_json: bool) -> None:
    rows = [
        {"citation": citation, "act": rule.act, "kind": rule.kind, "event": rule.event}
        for citation in deadline_citations(context)
        for rule in (context.rules[citation],)
    ]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    # The short citation and the act, as the reports cite; the id only inside the
    # command that asks for the deadline (a command, typed as it is shown).
    for row in rows:
        short = resolve(context.laws, row["citation"]).short
        click.echo(f"{short}: {row['act']} (contado {row['event']}). "
                   f"Prazo: lavra deadline {row['citation']} --inicio DATA")


@click.command(name="deadline", help=_HELP, short_help="Prazos das leis e tempestividade.")
@click.argument("citacao", required=False)
@aliased("--inicio", dest="inicio", aliases=("--from",), metavar="DATA",
         help="Data (ou data e hora) do evento de que o prazo se conta: infração, "
              "ciência, vencimento do alvará...")
@aliased("--protocolo", dest="protocolo", aliases=("--filed",), metavar="DATA",
         help="Data (ou data e hora) em que o ato foi praticado, para verificar a "
              "tempestividade.")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@aliased("--listar", dest="listar", aliases=("--list",), is_flag=True,
         help="Lista os dispositivos que fixam prazo.")
@click.help_option("--help", "-h", help="Mostra esta ajuda e sai.")
def deadline(citacao: str | None, inicio: str | None, protocolo: str | None,
             as_json: bool, listar: bool) -> None:
    try:
        context = overlay_context(load_statutory_context(load_config().pack_dir),
                                  configured_staff_values()())
        if listar:
            _list(context, as_json)
            return
        if not citacao:
            raise InputError(
                "Informe o dispositivo que fixa o prazo. Para ver os dispositivos que "
                "fixam prazo e o comando de cada um: lavra deadline --listar",
                field="/citacao",
            )
        if not inicio:
            raise InputError(
                "Informe, com --inicio, a data do evento de que o prazo se conta "
                "(ex.: --inicio 2026-02-20).",
                field="/inicio",
            )
        start = parse_moment(inicio, "--inicio")
        data: dict[str, Any]
        if protocolo:
            result = check_timeliness(citacao, start, parse_moment(protocolo, "--protocolo"),
                                      context=context)
            data = result.to_json()
            lines = [*_summary(result.deadline), result.explanation]
        else:
            found = deadline_for(citacao, start, context=context)
            data = {**found.to_json(), "timely": None, "outcome": None}
            lines = _summary(found)
    except LavraError as exc:
        click.echo(f"Erro: {exc.message}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        for line in lines:
            click.echo(line)
