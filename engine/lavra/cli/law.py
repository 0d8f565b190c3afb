"""``lavra law``: consult the laws of the content pack, citations and coverage.

A thin shell over :mod:`lavra.law.model` and :mod:`lavra.law.coverage`. Errors of lavra are
printed in pt-BR on stderr with exit status 2; ``coverage`` exits 1 when some citation
of the pack does not resolve.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from lavra.config import load_config
from lavra.errors import LavraError
from lavra.law.coverage import (
    COVERED_BY_CHILDREN,
    IMPLEMENTED,
    MARKED,
    PENDING,
    TEXT_MISSING,
    CoverageReport,
    compute_coverage,
)
from lavra.law.model import Citation, Law, load_laws, resolve, short_reference

F = TypeVar("F", bound=Callable[..., Any])

_STATUS_TITLES = {
    IMPLEMENTED: "Implementados",
    MARKED: "Marcados como sem implementação",
    COVERED_BY_CHILDREN: "Cobertos pelos dispositivos subordinados",
    PENDING: "Pendentes (nem implementados nem marcados)",
    TEXT_MISSING: "Em vigor, sem texto na fonte (registrar o texto antes de aplicar)",
}


def _lavra_errors(func: F) -> F:
    """Turn a LavraError into a pt-BR message on stderr and exit status 2."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except LavraError as exc:
            click.echo(f"Erro: {exc.message}", err=True)
            sys.exit(2)

    return cast(F, wrapper)


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _laws() -> dict[str, Law]:
    laws: dict[str, Law] = load_laws(load_config().pack_dir)
    return laws


@click.group(name="law", help="Consulta as leis do pacote de conteúdo: dispositivos, "
             "citações e cobertura.")
def law() -> None:
    """Group of law commands."""


@law.command(
    name="list",
    help="Lista os dispositivos de uma lei do pacote (ex.: lavra law list LEI; para uma "
    "lei que não existe, a mensagem lista as do pacote).",
)
@click.argument("lei")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@_lavra_errors
def list_command(lei: str, as_json: bool) -> None:
    law_obj = resolve(_laws(), lei).law
    rows = [
        {
            "id": f.id,
            "tipo": f.kind,
            "referencia": short_reference(law_obj, f.id),
            "texto": f.text,
            "sem_implementacao": f.no_implementation,
            "revogado": f.revoked,
        }
        for f in law_obj.fragments.values()
    ]
    if as_json:
        _echo_json({"lei": law_obj.id, "titulo": law_obj.title, "dispositivos": rows})
        return
    click.echo(f"{law_obj.title} ({law_obj.id}): {len(rows)} dispositivos")
    for row in rows:
        text = row["texto"] if row["texto"] is not None else "[texto não consta da fonte]"
        flag = " [revogado]" if row["revogado"] else ""
        click.echo(f"{row['id']:<24} {text}{flag}")


def _citation_dict(cit: Citation) -> dict[str, Any]:
    frag = cit.fragment
    return {
        "citacao": cit.citation,
        "referencia": cit.reference,
        "referencia_curta": cit.short,
        "texto": cit.text,
        "texto_completo": cit.full_text() if frag is not None else None,
        "notas": [{"texto": n.text, "posicao": n.position} for n in frag.notes] if frag else [],
        "sem_implementacao": frag.no_implementation if frag else None,
        "revogado": frag.revoked if frag else False,
        "urn": cit.law.urn,
        "observacao_numero": cit.law.number_note,
    }


@law.command(name="show", help="Mostra um dispositivo: referência, texto literal e notas "
             "(ex.: lavra law show LEI#art7_inc4).")
@click.argument("citacao")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@click.option("--completo", is_flag=True,
              help="Inclui os dispositivos subordinados (parágrafos, incisos, alíneas).")
@_lavra_errors
def show_command(citacao: str, as_json: bool, completo: bool) -> None:
    cit = resolve(_laws(), citacao)
    if as_json:
        _echo_json(_citation_dict(cit))
        return
    click.echo(cit.reference)
    click.echo(f"({cit.short})")
    click.echo("")
    if cit.fragment is None:
        click.echo(cit.full_text() if completo else f"URN: {cit.law.urn}")
    elif completo:
        click.echo(cit.full_text())
    else:
        click.echo(cit.text if cit.text is not None else "[texto não consta da fonte]")
    if cit.fragment is not None:
        for note in cit.fragment.notes:
            click.echo(f"Nota: {note.text}")
        if cit.fragment.no_implementation:
            click.echo(f"Sem implementação: {cit.fragment.no_implementation}")
    if cit.law.number_note:
        click.echo(f"Observação sobre o número da lei: {cit.law.number_note}")


def _print_report(report: CoverageReport) -> None:
    counts = report.counts()
    click.echo(
        f"Cobertura de {', '.join(report.laws)}: "
        f"{counts[IMPLEMENTED]} implementados, {counts[MARKED]} marcados, "
        f"{counts[COVERED_BY_CHILDREN]} cobertos pelos subordinados, "
        f"{counts[PENDING]} pendentes, "
        f"{counts[TEXT_MISSING]} em vigor sem texto."
    )
    for status, title in _STATUS_TITLES.items():
        entries = report.with_status(status)
        if not entries:
            continue
        click.echo(f"\n{title}:")
        for entry in entries:
            line = f"  {entry.law}#{entry.fragment:<22} {entry.reference}"
            if status == IMPLEMENTED:
                line += " ← " + ", ".join(u.location for u in entry.uses)
            elif status in (MARKED, TEXT_MISSING):
                line += f" — {entry.reason}"
            click.echo(line)
    if report.dangling:
        click.echo("\nCitações que não se resolvem:")
        for item in report.dangling:
            click.echo(f"  {item.use.location}: {item.use.citation} — {item.message}")


@law.command(name="coverage", help="Relatório de cobertura: dispositivos implementados, "
             "marcados e pendentes, os em vigor cujo texto falta, e citações inválidas "
             "do pacote.")
@click.argument("lei", required=False)
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@_lavra_errors
def coverage_command(lei: str | None, as_json: bool) -> None:
    pack: Path = load_config().pack_dir
    report = compute_coverage(pack, lei)
    if as_json:
        _echo_json(report.to_dict())
    else:
        _print_report(report)
    if not report.ok:
        sys.exit(1)
