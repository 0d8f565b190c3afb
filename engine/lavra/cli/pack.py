"""``lavra pack``: check the content pack before it is used.

``lavra pack check`` lists every error of the pack's templates (syntax, unknown
filters, tests, names, included templates), each with its template and line, and then
loads the pack as the engine does. Exit status 0 when the pack is sound, 1 when it has
errors, 2 when it cannot be read at all.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from lavra.checking.content import Content
from lavra.cli.support import EXIT_INCOMPLETE, shielded
from lavra.config import load_config
from lavra.errors import ContentPackError
from lavra.pack import checked_pack_dir
from lavra.render.templatecheck import check_templates


@click.group("pack")
def pack() -> None:
    """Verifica o pacote de conteúdo (leis, esquemas, formulários e modelos)."""


@pack.command("check")
@click.argument(
    "folder",
    metavar="[PASTA]",
    required=False,
    type=click.Path(path_type=Path, file_okay=False),
)
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@shielded
def check_command(folder: Path | None, as_json: bool) -> None:
    """Lista todos os erros dos modelos do pacote (padrão: o pacote configurado).

    Cada erro indica o modelo (formulário e arquivo) e a linha. Sai com 0 quando o
    pacote está correto, 1 quando há erros, 2 quando o pacote não pode ser lido.
    """
    root = checked_pack_dir(folder) if folder else load_config().pack_dir
    issues = check_templates(root)
    problems = [issue.describe() for issue in issues]
    if not issues:
        try:
            Content(root)
        except ContentPackError as error:
            # Its message names the pack's file and the place in it (what the maintainer
            # editing that file looks for); no field of a form's data to label.
            problems.append(error.message)
    if as_json:
        payload = {
            "modelos": [
                {"modelo": issue.template, "linha": issue.line, "mensagem": issue.message}
                for issue in issues
            ],
            "erros": problems,
        }
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
    elif problems:
        click.echo(f"O pacote de conteúdo tem {len(problems)} erro(s):")
        for problem in problems:
            click.echo(f"  {problem}")
    else:
        click.echo("Pacote de conteúdo sem erros: todos os modelos foram verificados.")
    sys.exit(EXIT_INCOMPLETE if problems else 0)
