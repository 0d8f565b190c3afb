"""``lavra batch``: a batch run of the content pack (an annual renewal), with progress.

A thin shell over :mod:`lavra.batch.runner`: the options become a
:class:`lavra.batch.model.RunRequest`; on a terminal a rich progress bar shows the
counts, the rate and the time left, otherwise one plain line per step; a final table
gives the totals. Exit codes as every command (:mod:`lavra.cli.support`): 0 when every
holder was planned and worked; 1 (incomplete) when the run is unfinished or any line
was refused (the summary gives each reason); 2 when an input is refused whole and
nothing was written.

``lavra lote abandonar`` ends a run that cannot finish (or one holder's items of it):
the pending items are abandoned with the reason and their reserved numbers voided by
the numbering-void act (:mod:`lavra.registry.abandon`). ``lavra lote corrigir`` (also
``lavra batch corrigir``) corrects the data of an item whose building failed, recorded
with who and when; the item keeps its number, and the same ``lavra batch`` command
resumes the run (:mod:`lavra.batch.correction`, :mod:`lavra.registry.corrections`).
"""

from __future__ import annotations

import os
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from lavra.cli.support import (
    CERTIFICATE_OPTION,
    EXIT_INCOMPLETE,
    REGISTRY_OPTION,
    shielded,
    signer_key,
    token_options,
)
from lavra.config import load_config
from lavra.errors import InputError
from lavra.inputs.formats import mask_holder_key
from lavra.inputs.reading import TIMEZONE, parse_date

__all__ = ["batch", "lote"]


def _progress(plain: bool) -> tuple[Any, Any]:
    """A (callback, closer) pair: rich bar on a terminal, plain lines otherwise."""
    if not plain:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeRemainingColumn,
        )

        bar = Progress(TextColumn("Emitindo"), BarColumn(), MofNCompleteColumn(),
                       TaskProgressColumn(), TextColumn("{task.fields[rate]}"),
                       TimeRemainingColumn())
        task = bar.add_task("lote", total=None, rate="")
        start = time.monotonic()
        bar.start()

        def update(done: int, total: int) -> None:
            elapsed = max(time.monotonic() - start, 1e-6)
            bar.update(task, completed=done, total=total, rate=f"{done / elapsed:.1f}/s")

        return update, bar.stop
    last = [-1, time.monotonic()]

    def line(done: int, total: int) -> None:
        now = time.monotonic()
        if done != last[0] and (now - last[1] >= 2 or done == total):
            click.echo(f"{done}/{total} itens concluídos")
            last[0], last[1] = done, now

    return line, lambda: None


class _BatchCommand(click.Command):
    """``lavra batch EXECUÇÃO``, and ``lavra batch corrigir ...`` for ``lavra lote
    corrigir``: the run's correction where staff look for it, beside the run."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        if args[:1] == ["corrigir"]:
            return correct_command.make_context(f"{info_name} corrigir", args[1:],
                                                parent=parent, **extra)
        return super().make_context(info_name, args, parent=parent, **extra)


@click.command("batch", cls=_BatchCommand)
@click.argument("kind", metavar="EXECUÇÃO")
@click.option("--ano", type=int, help="Ano do exercício a renovar (renovação anual).")
@click.option("--vencendo-ate", "vencendo_ate", metavar="AAAA-MM-DD",
              help="Renova as licenças que vencem até esta data.")
@click.option("-o", "--output", "folder", required=True,
              type=click.Path(path_type=Path, file_okay=False),
              help="Pasta dos arquivos gerados (criada se não existir); cada execução "
              "grava numa subpasta sua, execucao-NNNN.")
@click.option("--entrada", type=click.Path(path_type=Path, dir_okay=False, exists=True),
              help="Titulares a renovar, em CSV ou JSON Lines (sem ela: os do registro).")
@click.option("--pedidos", type=click.Path(path_type=Path, dir_okay=False, exists=True),
              help="Requerimentos de renovação recebidos de outro sistema, um por linha "
              "(JSON Lines); sem ela, os protocolados pelo portal (não se somam: havendo "
              "protocolados, o arquivo é recusado).")
@click.option("--data", "on", metavar="AAAA-MM-DD",
              help="Data de expedição dos documentos (padrão: hoje; nunca no futuro).")
@click.option("--simular", is_flag=True,
              help="Não numera, não registra nem grava nada: diz o que seria emitido.")
@click.option("--registro", "registry_url", metavar="URL",
              help="Banco do registro (padrão: o da configuração).")
@click.option("--trabalhadores", type=click.IntRange(1, 64), default=None,
              help="Processos de emissão em paralelo (padrão: um por núcleo).")
@click.option("--pdf-unico", is_flag=True,
              help="Também grava um PDF único, na ordem da entrada, para impressão.")
@click.option("--docx", is_flag=True,
              help="Também grava, ao lado do PDF de cada documento, a versão DOCX editável.")
@CERTIFICATE_OPTION
@token_options
@shielded
def batch(kind: str, ano: int | None, vencendo_ate: str | None, folder: Path,
          entrada: Path | None, pedidos: Path | None, on: str | None, simular: bool,
          registry_url: str | None, trabalhadores: int | None, pdf_unico: bool,
          docx: bool, certificate: Path | None, token: str | None,
          token_module: Path | None, token_key: str | None) -> None:
    """Executa em lote a EXECUÇÃO do pacote (por exemplo a renovação anual dos alvarás):
    planeja uma vez (cada titular, na ordem da entrada, recebe o seu documento e o seu
    número), emite em paralelo e registra; repetir o mesmo comando conclui uma execução
    interrompida, sem emitir duas vezes nem pular números. Com --certificado (ou --token),
    todos os atos do lote são assinados com o certificado de quem o inicia (ou retoma),
    cuja senha (ou PIN) é pedida uma vez, no início."""
    from dataclasses import replace

    from lavra.batch.model import RunRequest
    from lavra.batch.runner import find_kind, run_batch
    from lavra.checking.content import loaded_content
    from lavra.documents import Engine
    from lavra.issuing import Issuer
    from lavra.issuing import registry_url as configured_url
    from lavra.registry.runs import REFUSED
    from lavra.registry.store import open_registry

    signer = None if simular else signer_key(certificate, token, token_module, token_key)
    today = datetime.now(TIMEZONE).date()
    day = parse_date(on, field="/data") if on else today
    if day > today:
        raise InputError("A data de expedição não pode ser futura.", field="/data")
    options: dict[str, Any] = {}
    if ano is not None:
        options["ano"] = ano
    if vencendo_ate is not None:
        options["vencendo_ate"] = parse_date(vencendo_ate, field="/vencendo_ate").isoformat()
    config = load_config()
    if registry_url:
        config = replace(config, database_url=registry_url)
    url = configured_url(config)
    issuer = Issuer(Engine(loaded_content(config.pack_dir), pool=None), open_registry(url), config)
    try:
        run = find_kind(issuer, kind)
        request = RunRequest(kind, options, day, entrada, pedidos)
        update, close = (None, lambda: None) if simular else _progress(not sys.stderr.isatty())
        try:
            summary = run_batch(issuer, run, request, folder, database_url=url,
                                workers=trabalhadores or os.cpu_count() or 1,
                                merged=pdf_unico, simulate=simular, docx=docx,
                                progress=update, own_folder=True, signer=signer)
        finally:
            close()
    finally:
        issuer.close()
    _final_table(summary, summary.folder or folder, issuer.engine.content)
    refused = summary.counts.get(REFUSED, 0)
    if refused:
        click.echo(f"Atenção: {refused} linha(s) recusada(s); o motivo de cada uma está no "
                   "resumo.", err=True)
    if not summary.complete or refused:
        sys.exit(EXIT_INCOMPLETE)


def _final_table(summary: Any, folder: Path, content: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(soft_wrap=True)
    title = "Simulação (nada foi emitido)" if summary.simulated else (
        "Execução retomada e concluída" if summary.resumed else "Execução concluída")
    if not summary.complete:
        title = "Execução incompleta: repita o mesmo comando"
    table = Table(title=title)
    table.add_column("Total")
    table.add_column("Quantidade", justify="right")
    for name, value in summary.counts.items():
        table.add_row(name, str(value))
    console.print(table)
    if summary.simulated:
        for row in summary.rows:
            # the act as a reader names it: its title and printed number, not the form id
            what = row.reason if row.role == "recusado" else ", ".join(
                part for part in (row.form and content.form(row.form).title, row.number)
                if part)
            who = row.name or mask_holder_key(row.holder)
            console.print(f"{row.order:>5} {who}: {row.outcome} – {what}")
    else:
        also = " (e o DOCX ao lado de cada um)" if summary.counts.get("docx") else ""
        console.print(f"Arquivos em {folder}: resumo.csv, resumo.pdf e um PDF por "
                      f"documento{also}.")



@click.group("lote")
def lote() -> None:
    """As execuções em lote gravadas no registro."""


@lote.command("abandonar")
@click.argument("run_id", metavar="EXECUÇÃO", type=click.IntRange(min=1))
@click.option("--item", "item", type=click.IntRange(min=1), default=None, metavar="N",
              help="Só o item (titular) de ordem N no resumo; sem ele, toda a execução.")
@click.option("--motivo", required=True, help="Por que o item ou a execução é abandonado.")
@click.option("--responsavel", required=True, help="Quem decide o abandono.")
@REGISTRY_OPTION
@shielded
def abandon_command(run_id: int, item: int | None, motivo: str, responsavel: str,
                    registry_url: str | None) -> None:
    """Abandona a EXECUÇÃO em lote (ou só um item dela) que não pode ser concluída: os
    documentos pendentes não serão emitidos, e cada número reservado para eles é
    inutilizado por ato registrado (numeração inutilizada), com o motivo e o
    responsável. Os documentos já emitidos permanecem; para desfazê-los, cancele-os."""
    from lavra.cli.support import registry_of
    from lavra.registry.abandon import abandon
    from lavra.registry.runs import get_run

    with registry_of(registry_url) as registry:
        items = abandon(registry, run_id, reason=motivo, by=responsavel,
                        position=None if item is None else item - 1)
        run = get_run(registry, run_id)
    for found in items:
        what = found.printed or found.file or found.outcome
        click.echo(f"Item {found.position + 1} ({found.name}): {what} abandonado.")
    voided = [found.printed for found in items if found.printed]
    click.echo(f"{len(items)} documento(s) pendente(s) abandonado(s); "
               f"{len(voided)} número(s) inutilizado(s)"
               + (f": {', '.join(voided)}." if voided else "."))
    if run is not None and run.status == "done":
        click.echo(f"A execução em lote nº {run_id} está concluída.")
    else:
        click.echo(f"A execução em lote nº {run_id} segue com itens pendentes.")


@lote.command("corrigir")
@click.argument("run_id", metavar="EXECUÇÃO", type=click.IntRange(min=1))
@click.option("--item", "item", type=click.IntRange(min=1), required=True, metavar="N",
              help="O item (titular) de ordem N no resumo.")
@click.option("--formulario", default=None,
              help="O documento do item a corrigir, quando ele tem mais de um pendente.")
@click.option("--campo", default=None, metavar="/PONTEIRO",
              help="O campo a corrigir, como o comando dado no motivo da falha o traz "
              "(ex.: /veiculo/placa).")
@click.option("--valor", default=None, help="O novo valor do campo (texto).")
@click.option("--json", "as_json", is_flag=True,
              help="Lê --valor como JSON (número, true/false, objeto, lista).")
@click.option("--arquivo", type=click.Path(path_type=Path, dir_okay=False, exists=True),
              help='Correções em JSON: {"/campo": valor, ...} ou lista JSON Patch.')
@click.option("--responsavel", required=True, help="Quem faz a correção.")
@REGISTRY_OPTION
@shielded
def correct_command(run_id: int, item: int, formulario: str | None, campo: str | None,
                    valor: str | None, as_json: bool, arquivo: Path | None,
                    responsavel: str, registry_url: str | None) -> None:
    """Corrige os dados de um item da EXECUÇÃO em lote cuja emissão falhou: o campo que
    o motivo da falha nomeia recebe o novo valor, e a correção fica registrada no item,
    com o responsável e a hora. O item conserva o número reservado; repetir o comando
    da execução (ou «Retomar» na página dela) emite-o com os dados corrigidos."""
    from lavra.batch.correction import change_from_text, changes_from_patch
    from lavra.cli.support import registry_of
    from lavra.inputs.reading import describe_os_error
    from lavra.registry.corrections import correct, find_item

    if (arquivo is None) == (campo is None) or (campo is None) != (valor is None):
        raise InputError("Informe --campo e --valor, ou --arquivo com as correções.",
                         field="/campo")
    with registry_of(registry_url) as registry:
        found = find_item(registry, run_id, item - 1, formulario)
        if arquivo is not None:
            try:
                raw = arquivo.read_bytes()
            except OSError as error:
                raise InputError(f"Não foi possível ler o arquivo {arquivo}: "
                                 f"{describe_os_error(error)}.", field="/arquivo") from None
            changes = changes_from_patch(raw, source=f"o arquivo {arquivo.name}")
        else:
            changes = (change_from_text(str(campo), str(valor), as_json=as_json,
                                        data=found.data),)
        corrected, made = correct(registry, found.id, changes, by=responsavel)
    for correction in made:
        click.echo(f"{correction.text}.")
    click.echo(f"Item {corrected.position + 1} ({corrected.name}): "
               f"{corrected.printed or corrected.file} corrigido; o número reservado é "
               "mantido. Repita o comando da execução (ou use «Retomar» na página dela) "
               "para emiti-lo.")
