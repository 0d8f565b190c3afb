"""The command line: a thin shell over the engine. Help and messages in pt-BR."""

from __future__ import annotations

import importlib
import json
import logging
import os
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from lavra.cli import i18n as cli_i18n
from lavra.cli.files import check_writable, write_atomically
from lavra.cli.reports import print_report
from lavra.cli.staffcheck import staff_checker
from lavra.cli.support import (
    CERTIFICATE_OPTION,
    EXIT_INCOMPLETE,
    aliased,
    series_option,
    shielded,
    signer_key,
    token_options,
)
from lavra.config import load_config
from lavra.errors import InputError, LavraError
from lavra.inputs.reading import MAX_PDF_BYTES, describe_os_error, parse_date, read_data, today
from lavra.inputs.textnorm import clean_text
from lavra.pack import PACK_ENV

if TYPE_CHECKING:
    from lavra.documents import Engine
    from lavra.issuing import Issuer
    from lavra.registry.store import Registry
    from lavra.verifying import LicenceSituation

cli_i18n.install()
# The libraries' own log lines are English and technical: the commands report in pt-BR.
for _library in ("pypdf", "pyhanko", "pyhanko_certvalidator", "weasyprint", "fontTools"):
    logging.getLogger(_library).setLevel(logging.CRITICAL)


def _engine() -> Engine:
    from lavra.cli.values import with_staff_values
    from lavra.documents import Engine

    return with_staff_values(Engine.from_config())


def _on(value: str | None) -> date | None:
    return parse_date(value, what="data de referência (--data)", field="--data") if value else None


ON_OPTION = aliased(
    "--data",
    dest="on",
    aliases=("--on",),
    metavar="AAAA-MM-DD",
    help="Data de referência (padrão: a data do próprio documento, ou a de hoje no "
    "horário de Brasília).",
)


def _choose_pack(choice: str | None) -> None:
    """``--pacote``: set ``LAVRA_PACK`` before any command loads the configuration, so
    that the processes the command starts (rendering, the web server) inherit it. A
    folder is made absolute: those processes may run elsewhere."""
    if not choice:
        return
    if os.sep in choice or "/" in choice or Path(choice).is_dir():
        choice = str(Path(choice).resolve())
    os.environ[PACK_ENV] = choice


class LazyGroup(click.Group):
    """The top command: the groups of commands in other modules are imported only when
    asked for (``lavra verify`` does not load the renderer nor the content pack)."""

    def __init__(self, *args: Any, lazy: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            command = getattr(importlib.import_module(module), attribute)
            cli_i18n.localize_metavars(command)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.NoSuchOption as error:  # suggest the pt-BR names only
            cli_i18n.suggest_shown_options(error)
            raise


LAZY_COMMANDS = {
    "law": "lavra.cli.law:law",
    "pack": "lavra.cli.pack:pack",
    "deadline": "lavra.cli.deadline:deadline",
    "amount": "lavra.cli.amount:amount",
    "serve": "lavra.cli.web:serve",
    "users": "lavra.cli.web:users",
    "fato": "lavra.cli.facts:fact_group",
    "cancel": "lavra.cli.cancel:cancel_command",
    "batch": "lavra.cli.batch:batch",
    "lote": "lavra.cli.batch:lote",
    "valores": "lavra.cli.values:values",
    "cadastro": "lavra.cli.cadastro:cadastro",
    "processo": "lavra.cli.processo:processo",
    "keys": "lavra.cli.keys:keys_group",
}


@click.group(
    cls=LazyGroup,
    lazy=LAZY_COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="lavra", message="lavra %(version)s")
@click.option(
    "--pacote",
    "pack_choice",
    metavar="NOME_OU_PASTA",
    help=f"Pacote de conteúdo a usar: o nome de um pacote instalado ou a pasta de um "
    f"pacote (o mesmo que a variável {PACK_ENV}). Necessário quando há mais de um "
    "pacote instalado.",
)
def main(pack_choice: str | None) -> None:
    """lavra: documentos oficiais conforme a lei, do pacote de conteúdo do município.

    Verifica a completude dos dados frente à lei, gera minutas e requerimentos
    preenchíveis, emite documentos numerados e assinados, verifica-os, e calcula
    prazos e valores fixados pelas leis.
    """
    _choose_pack(pack_choice)


@main.command("check")
@click.argument("form", metavar="FORMULÁRIO")
@click.argument("data", metavar="DADOS.json", type=click.Path(path_type=Path, dir_okay=False))
@ON_OPTION
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@shielded
def check_command(form: str, data: Path, on: str | None, as_json: bool) -> None:
    """Verifica os DADOS do FORMULÁRIO frente à lei.

    Sai com 0 quando completo, 1 quando incompleto, 2 para entrada inutilizável.
    """
    with staff_checker() as checker:  # the registry as history, as `lavra issue` judges
        report = checker.check(form, read_data(data), _on(on))
        print_report(report, as_json, checker.engine.content, unchecked=checker.unchecked)
    sys.exit(0 if report.complete else EXIT_INCOMPLETE)


@main.command("draft")
@click.argument("form", metavar="FORMULÁRIO")
@click.argument("data", metavar="DADOS.json", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    help="Arquivo PDF da minuta.",
)
@click.option(
    "--docx", type=click.Path(path_type=Path, dir_okay=False), help="Também gera o DOCX editável."
)
@ON_OPTION
@shielded
def draft_command(form: str, data: Path, output: Path, docx: Path | None, on: str | None) -> None:
    """Gera a MINUTA do FORMULÁRIO com os DADOS, mesmo incompletos."""
    with staff_checker() as checker:
        rendered = checker.draft(form, read_data(data), _on(on), docx=docx is not None)
    write_atomically(output, rendered.pdf)
    if docx is not None and rendered.docx is not None:
        write_atomically(docx, rendered.docx)
    click.echo(f"Minuta gravada em {output}" + (f" e {docx}" if docx else "")
               + f"; {len(rendered.report.pending)} pendência(s).")
    checker.say_unchecked()


@main.command("prefill")
@click.argument("form", metavar="FORMULÁRIO")
@click.argument(
    "data", metavar="[DADOS.json]", type=click.Path(path_type=Path, dir_okay=False), required=False
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    help="Arquivo PDF preenchível.",
)
@shielded
def prefill_command(form: str, data: Path | None, output: Path) -> None:
    """Gera o requerimento FORMULÁRIO em PDF preenchível, já preenchido com os DADOS."""
    pdf = _engine().prefill(form, read_data(data) if data else {})
    write_atomically(output, pdf)
    click.echo(f"Requerimento preenchível gravado em {output}.")


@main.command("read")
@click.argument("filled", metavar="PREENCHIDO.pdf", type=click.Path(path_type=Path, dir_okay=False))
@aliased("--formulario", dest="form", aliases=("--form",),
         help="Formulário, quando o PDF não o identifica.")
@ON_OPTION
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@shielded
def read_command(filled: Path, form: str | None, on: str | None, as_json: bool) -> None:
    """Lê os dados de um requerimento PREENCHIDO e verifica a completude.

    Sai com 0 quando completo, 1 quando incompleto, 2 para arquivo inutilizável.
    """
    try:
        raw = filled.read_bytes()
    except OSError as error:
        raise LavraError(
            f"Não foi possível ler o arquivo {filled}: {describe_os_error(error)}."
        ) from None
    from lavra.signing.pdfinspect import inspect_pdf

    engine = _engine()
    result = engine.read(raw, form, _on(on))
    alerts = inspect_pdf(raw)
    if as_json:
        click.echo(
            json.dumps(
                {"form": result.form, "data": result.data, "report": result.report.to_json(),
                 "alertas": list(alerts)},
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        click.echo(json.dumps(result.data, ensure_ascii=False, indent=2))
        print_report(result.report, False, engine.content)
        _print_alerts(alerts)
    sys.exit(0 if result.report.complete else EXIT_INCOMPLETE)


@main.command("demo")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("lavra-demo"),
    show_default=True,
    help="Pasta de saída.",
)
@shielded
def demo_command(output: Path) -> None:
    """Gera exemplos de todos os formulários a partir dos dados embutidos.

    Cria na pasta uma PKI de desenvolvimento (sem validade jurídica) e um registro
    SQLite, conta as histórias de casos (os requerimentos que elas começam são
    protocolados, com comprovante), emite e verifica cada documento emissível, e gera
    minuta e requerimento preenchível dos demais requerimentos.
    """
    from lavra.cli.demo import run_demo

    rows = run_demo(load_config(), output)
    width_form = max([len("formulário"), *(len(r.form) for r in rows)])
    click.echo(f"{'formulário':<{width_form}}  {'número':<9}  situação")
    for row in rows:
        click.echo(f"{row.form:<{width_form}}  {row.number:<9}  {row.status}")
        for path in row.files:
            click.echo(f"{'':<{width_form}}  {'':<9}  {path}")
    click.echo(f"Registro e PKI de desenvolvimento (sem validade jurídica) em {output / 'dados'}.")


def _issuer() -> Issuer:
    from lavra.issuing import Issuer

    return Issuer.from_config()


@main.command("issue")
@click.argument("form", metavar="FORMULÁRIO")
@click.argument("data", metavar="DADOS.json", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    help="Arquivo PDF/A assinado.",
)
@click.option(
    "--docx",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Também grava a cópia editável em DOCX.",
)
@click.option(
    "--chave", "key", help="Chave de idempotência: repetir a emissão devolve o mesmo documento."
)
@CERTIFICATE_OPTION
@token_options
@ON_OPTION
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@shielded
def issue_command(
    form: str,
    data: Path,
    output: Path,
    docx: Path | None,
    key: str | None,
    certificate: Path | None,
    token: str | None,
    token_module: Path | None,
    token_key: str | None,
    on: str | None,
    as_json: bool,
) -> None:
    """Emite o FORMULÁRIO com os DADOS: numera, assina e registra; ou recusa se incompleto.

    Com --certificado (ou --token), o documento e o carimbo da assinatura nomeiam a
    pessoa do certificado, no cargo que o formulário exige."""
    from lavra.issuing import IncompleteError

    if key is not None:
        key = clean_text(key, what="A chave de idempotência (--chave)", field="--chave")
    check_writable(output)
    if docx is not None:
        check_writable(docx)
    signer = signer_key(certificate, token, token_module, token_key)
    issuer = _issuer()
    try:
        result = issuer.issue(
            form,
            read_data(data),
            _on(on),
            idempotency_key=key,
            actor=os.environ.get("USER"),
            docx=docx is not None,
            signer=signer,
        )
    except IncompleteError as error:
        click.echo(error.message, err=True)
        print_report(error.report, as_json, issuer.engine.content)
        sys.exit(EXIT_INCOMPLETE)
    record = result.record
    try:
        write_atomically(output, result.pdf)
        if docx is not None and result.docx is not None:
            write_atomically(docx, result.docx)
    except LavraError as error:
        raise LavraError(
            f"Documento {record.printed} emitido e registrado (código "
            f"verificador {record.verification_code}), mas {error.message[0].lower()}"
            f"{error.message[1:]} Obtenha o original com «lavra export {record.formatted} "
            f"--serie {record.series} -o ARQUIVO.pdf»."
        ) from None
    if as_json:
        click.echo(
            json.dumps(
                {
                    "number": record.formatted,
                    "series": record.series,
                    "form": record.form,
                    "verification_code": record.verification_code,
                    "sha256": record.sha256,
                    "path": str(output),
                    "docx": str(docx) if docx else None,
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        click.echo(
            f"Emitido {record.printed}, código verificador "
            f"{record.verification_code}, gravado em {output}."
        )


def _voided_number(registry: Registry, number: str, series: str | None, as_json: bool) -> NoReturn:
    """Report a number that carries no document: voided (exit 1), or unknown (error)."""
    voided = registry.voided_by_number(number, series)
    if voided is None:
        raise InputError(f"Nenhum documento nem numeração inutilizada sob «{number}»"
                         + (f" na série {series}." if series else "."), field="/numero")
    if as_json:
        click.echo(json.dumps({"registered": False, "voided": True, "series": voided.series,
                               "number": f"{voided.number:04d}/{voided.year}",
                               "printed": voided.printed, "reason": voided.reason,
                               "voided_by": voided.by, "voided_at": voided.at.isoformat()},
                              ensure_ascii=False, indent=2))
    else:
        click.echo(f"{voided.printed}: não corresponde a documento emitido. {voided.text}.")
    sys.exit(EXIT_INCOMPLETE)


@main.command("verify")
@click.argument(
    "file",
    metavar="[DOCUMENTO.pdf]",
    type=click.Path(path_type=Path, dir_okay=False),
    required=False,
)
@aliased("--codigo", dest="code", aliases=("--code",),
         help="Consulta um código verificador no registro.")
@click.option("--numero", "number", metavar="0001/2026",
              help="Consulta um número no registro (com --serie): emitido ou inutilizado.")
@series_option("--serie", help="A série do número consultado com --numero.")
@aliased(
    "--data", dest="on", aliases=("--on",), metavar="AAAA-MM-DD",
    help="Data em que se diz a situação da licença concedida pelo documento (padrão: hoje, "
    "no horário de Brasília).",
)
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@shielded
def verify_command(file: Path | None, code: str | None, number: str | None,
                   series: str | None, on: str | None, as_json: bool) -> None:
    """Verifica um documento emitido: assinatura íntegra, confiável, sem alteração
    posterior, e o registro com este código e este hash. Sai com 0 só quando tudo confere.
    Para um documento que concedeu licença, diz também a situação da licença. Com
    --numero, diz se o número foi emitido ou inutilizado (numeração inutilizada)."""
    # Neither the renderer nor the content pack: only the validator and the registry.
    from lavra.signing.persons import signer_label
    from lavra.verifying import Verifier, act_situation, licence_situation

    day = _on(on) or today()
    issuer = Verifier.from_config()
    found = None  # by number: an act imported from before lavra has no typed code
    if number is not None:
        found = issuer.registry.by_number(number, series=series)
        if found is None:
            _voided_number(issuer.registry, number, series, as_json)
        code = found.verification_code
    if code is not None:
        record = found or issuer.lookup_code(code)
        if record is None:
            raise LavraError(f"Código verificador {code} não encontrado no registro.")
        licence = licence_situation(issuer.registry, record.id, day)
        diverging = issuer.registry.public_divergences(record.id, issuer.cite)
        situation = act_situation(issuer.registry, record.id)
        payload = {
            "registered": True,
            "number": record.formatted,
            "series": record.series,
            "printed": record.printed,
            "form": record.form,
            "issued_at": record.issued_at_local.isoformat(),
            "signer": signer_label(record.signer_subject),
            "cancelled": record.cancelled,
            "cancel_reason": record.cancel_reason,
            "origin": record.origin,  # imported from before lavra: the file and line
            "licence": licence.to_json() if licence else None,
            "divergences": list(diverging),
            "situation": situation,
        }
        if as_json:
            click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        else:
            # An imported act has no original: lavra vouches for no authenticity there.
            state = (f"CANCELADO ({record.cancel_reason})" if record.cancelled
                     else "consta do registro, não cancelado" if record.origin else "autêntico")
            click.echo(f"{record.printed}, emitido em {record.issued_at_local:%d/%m/%Y %H:%M}, "
                       f"assinado por {signer_label(record.signer_subject)}: documento {state}."
                       if record.origin is None
                       else f"{record.printed}, de {record.reference_date:%d/%m/%Y}, ato anterior"
                       f" ao lavra, importado de {record.origin}: {state}.")
            _print_state(licence, diverging, situation)
        sys.exit(0 if not record.cancelled else EXIT_INCOMPLETE)
    if file is None:
        raise LavraError("Informe o arquivo PDF ou --codigo CÓDIGO.")
    try:
        if file.stat().st_size > MAX_PDF_BYTES:
            # Read in full and parsed twice otherwise: minutes and gigabytes for nothing.
            raise InputError(
                f"O arquivo {file} excede o tamanho máximo de {MAX_PDF_BYTES // (1024 * 1024)} "
                "MiB: não é um documento emitido pelo lavra."
            )
        raw = file.read_bytes()
    except OSError as error:
        raise LavraError(
            f"Não foi possível ler o arquivo {file}: {describe_os_error(error)}."
        ) from None
    from lavra.signing.pdfinspect import inspect_pdf

    result = issuer.verify(raw, on=day)
    alerts = inspect_pdf(raw)
    if as_json:
        click.echo(json.dumps({**result.to_json(), "alertas": list(alerts)},
                              ensure_ascii=False, indent=2))
    elif result.valid:
        click.echo(f"Documento autêntico: {result.printed}, assinado por {result.signer}.")
    else:
        click.echo("Documento NÃO confere:")
        for problem in result.problems:
            click.echo(f"  - {problem}")
    if not as_json:
        _print_state(result.licence, result.divergences, result.situation)
        _print_alerts(alerts)
    sys.exit(0 if result.valid else EXIT_INCOMPLETE)


def _print_state(licence: LicenceSituation | None, divergences: Sequence[str],
                 situation: str | None = None) -> None:
    """The act's own status (annulled on appeal), the licence's status and the act's
    divergências, in the words of the public verification page
    (:func:`lavra.verifying.act_situation`, :func:`lavra.verifying.licence_situation`,
    :meth:`lavra.registry.store.Registry.public_divergences`)."""
    if situation is not None:
        click.echo(f"Situação do ato: {situation}.")
    if licence is not None:
        click.echo(f"Situação da licença: {licence.text}.")
    for divergence in divergences:
        click.echo(f"Divergência: {divergence}")


def _print_alerts(alerts: tuple[str, ...]) -> None:
    """Warnings about the file's active content (lavra.signing.pdfinspect), after the result."""
    if alerts:
        click.echo("Atenção (o conteúdo do arquivo não foi executado):")
        for alert in alerts:
            click.echo(f"  ! {alert}")


@main.command("export")
@click.argument("number", metavar="NÚMERO")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    metavar="ARQUIVO",
    help="Onde gravar o PDF original assinado.",
)
@click.option(
    "--docx",
    type=click.Path(path_type=Path, dir_okay=False),
    metavar="ARQUIVO",
    help="Também grava a cópia editável em DOCX.",
)
@series_option("--serie", aliases=("--series",), metavar="SÉRIE")
@shielded
def export_command(number: str, output: Path, docx: Path | None, series: str | None) -> None:
    """Grava o original assinado do documento NÚMERO (ex.: 0001/2026), do registro."""
    issuer = _issuer()
    record = issuer.registry.by_number(number, series=series)
    if record is None:
        raise LavraError(f"Documento nº {number} não encontrado no registro.")
    write_atomically(output, issuer.registry.pdf(record.id))
    if docx is not None:
        stored = issuer.registry.docx(record.id)
        if stored is None:
            raise LavraError(f"O documento nº {number} foi emitido sem cópia DOCX.")
        write_atomically(docx, stored)
    click.echo(f"Original de {record.printed} gravado em {output}.")


cli_i18n.localize_metavars(main)

if __name__ == "__main__":  # pragma: no cover
    main()
