"""The numbering check of ``lavra cadastro numeracao``, printed: a pt-BR table per series
and year, the voided numbers with their reasons, or JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence

import click

from lavra.registry.voiding import NumberingReport, spans

__all__ = ["print_numbering"]

_HEADS = ("Série", "Ano", "Até o nº", "Emitidos", "Importados", "Inutilizados",
          "Anteriores ao lavra", "Sem explicação")


def _row(report: NumberingReport) -> tuple[str, ...]:
    return (report.series, str(report.year), f"{report.last_number:04d}", str(report.issued),
            str(report.imported), str(len(report.voided)),
            spans(report.before_lavra, report.year) or "—",
            spans(report.gaps, report.year) or "—")


def _as_json(report: NumberingReport) -> dict[str, object]:
    return {
        "serie": report.series, "ano": report.year, "ultimo_numero": report.last_number,
        "emitidos": report.issued, "importados": report.imported,
        "inutilizados": [{"numero": v.printed, "motivo": v.reason, "responsavel": v.by,
                          "em": v.at.isoformat()} for v in report.voided],
        "anteriores_ao_lavra": list(report.before_lavra),
        "sem_explicacao": list(report.gaps),
    }


def print_numbering(reports: Sequence[NumberingReport], *, as_json: bool,
                    scope: str = "") -> bool:
    """Print the reports; True when some number is unexplained (exit code 1).
    ``scope``: the filter asked, as said when nothing matched (" da série X em 2024")."""
    unexplained = any(report.gaps for report in reports)
    if as_json:
        click.echo(json.dumps([_as_json(r) for r in reports], ensure_ascii=False, indent=2))
        return unexplained
    if not reports:
        click.echo(f"Nenhuma numeração tomada no registro{scope}.")
        return False
    rows = [_HEADS, *(_row(r) for r in reports)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_HEADS) - 1)]
    for row in rows:
        click.echo("  ".join([*(cell.ljust(w) for cell, w in zip(row, widths, strict=False)),
                              row[-1]]).rstrip())
    voided = [v for r in reports for v in r.voided]
    if voided:
        click.echo("Números inutilizados:")
        for number in voided:
            click.echo(f"  {number.printed}: {number.text}.")
    if unexplained:
        click.echo("Há números sem explicação: nem documento, nem número inutilizado, nem "
                   "reservado em lote, nem anterior ao lavra (ex.: registro apagado fora do "
                   "lavra). Verifique-os.")
    else:
        click.echo("Numeração sem lacunas: cada número tomado está explicado.")
    return unexplained
