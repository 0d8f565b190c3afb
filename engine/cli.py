"""The command line: a thin shell over the engine. Help and messages in pt-BR."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

import click

from lavra import cli_i18n
from lavra.cli_amount import amount
from lavra.cli_deadline import deadline
from lavra.cli_law import law
from lavra.config import load_config
from lavra.content import describe_error
from lavra.documents import Engine
from lavra.errors import LavraError
from lavra.inputs import parse_date, read_data
from lavra.report import STATUS_LABELS, Report

cli_i18n.install()
F = TypeVar("F", bound=Callable[..., Any])
EXIT_INCOMPLETE = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


def shielded(func: F) -> F:
    """Turn every error into a pt-BR message and an exit code; never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except LavraError as error:
            click.echo(f"Erro: {describe_error(error)}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as error:
            if os.environ.get("LAVRA_DEBUG"):
                raise
            click.echo(
                f"Erro interno inesperado ({type(error).__name__}). Nada foi gravado. "
                "Repita com LAVRA_DEBUG=1 para detalhes técnicos e informe o suporte.",
                err=True,
            )
            sys.exit(EXIT_INTERNAL)

    return wrapper  # type: ignore[return-value]


def _engine() -> Engine:
    return Engine.from_config()


def _on(value: str | None) -> date | None:
    return parse_date(value, what="data de referência") if value else None


ON_OPTION = click.option(
    "--on",
    "on",
    metavar="AAAA-MM-DD",
    help="Data de referência (padrão: a data do próprio documento, ou hoje em Americana).",
)


def print_report(report: Report, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
        return
    state = "COMPLETO" if report.complete else "INCOMPLETO"
    click.echo(f"Formulário {report.form} em {report.on:%d/%m/%Y}: {state}")
    for item in report.items:
        label = STATUS_LABELS[item.status].upper()
        basis = f" [{'; '.join(item.basis)}]" if item.basis else ""
        click.echo(f"  {label:<14} {item.message}{basis}")
    pending = len(report.pending)
    if pending:
        click.echo(f"{pending} pendência(s).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="lavra", message="lavra %(version)s")
def main() -> None:
    """lavra: documentos oficiais da SETRANSV conforme a lei.

    Verifica a completude dos dados frente à lei, gera minutas e requerimentos
    preenchíveis, emite documentos numerados e assinados, verifica-os, e calcula
    prazos e valores fixados pelas leis.
    """


main.add_command(law)
main.add_command(deadline)
main.add_command(amount)


@main.command("check")
@click.argument("form")
@click.argument("data", type=click.Path(path_type=Path, dir_okay=False))
@ON_OPTION
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@shielded
def check_command(form: str, data: Path, on: str | None, as_json: bool) -> None:
    """Verifica os dados DATA do formulário FORM frente à lei.

    Sai com 0 quando completo, 1 quando incompleto, 2 para entrada inutilizável.
    """
    report = _engine().check(form, read_data(data), _on(on))
    print_report(report, as_json)
    sys.exit(0 if report.complete else EXIT_INCOMPLETE)


@main.command("draft")
@click.argument("form")
@click.argument("data", type=click.Path(path_type=Path, dir_okay=False))
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
    """Gera a MINUTA do documento FORM com os dados DATA, mesmo incompletos."""
    rendered = _engine().draft(form, read_data(data), _on(on), docx=docx is not None)
    _write(output, rendered.pdf)
    if docx is not None and rendered.docx is not None:
        _write(docx, rendered.docx)
    pending = len(rendered.report.pending)
    click.echo(
        f"Minuta gravada em {output}"
        + (f" e {docx}" if docx else "")
        + f"; {pending} pendência(s)."
    )


@main.command("prefill")
@click.argument("form")
@click.argument("data", type=click.Path(path_type=Path, dir_okay=False), required=False)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    help="Arquivo PDF preenchível.",
)
@shielded
def prefill_command(form: str, data: Path | None, output: Path) -> None:
    """Gera o requerimento FORM em PDF preenchível, já preenchido com DATA."""
    pdf = _engine().prefill(form, read_data(data) if data else {})
    _write(output, pdf)
    click.echo(f"Requerimento preenchível gravado em {output}.")


@main.command("read")
@click.argument("filled", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--form", "form", help="Formulário, quando o PDF não o identifica.")
@ON_OPTION
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@shielded
def read_command(filled: Path, form: str | None, on: str | None, as_json: bool) -> None:
    """Lê os dados de um requerimento preenchido (FILLED) e verifica a completude."""
    try:
        raw = filled.read_bytes()
    except OSError as error:
        raise LavraError(f"Não foi possível ler o arquivo {filled}: {error.strerror}.") from None
    result = _engine().read(raw, form, _on(on))
    if as_json:
        click.echo(
            json.dumps(
                {"form": result.form, "data": result.data, "report": result.report.to_json()},
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        click.echo(json.dumps(result.data, ensure_ascii=False, indent=2))
        print_report(result.report, False)


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
    SQLite, emite e verifica cada documento emissível, e gera minuta e requerimento
    preenchível de cada requerimento.
    """
    from lavra.demo import run_demo

    rows = run_demo(load_config(), output)
    click.echo(f"{'formulário':<32} {'número':<10} {'situação':<40} arquivos")
    for row in rows:
        files = ", ".join(str(p) for p in row.files)
        click.echo(f"{row.form:<32} {row.number:<10} {row.status:<40} {files}")
    click.echo(f"Registro e PKI de desenvolvimento (sem validade jurídica) em {output / 'dados'}.")


@main.group("keys")
def keys_group() -> None:
    """Certificados de assinatura."""


@keys_group.command("init")
@click.option("--force", is_flag=True, help="Recria a PKI mesmo que já exista.")
@shielded
def keys_init_command(force: bool) -> None:
    """Cria a PKI de desenvolvimento (SEM VALIDADE JURÍDICA) na pasta de dados.

    Uma autoridade raiz e um certificado por papel de assinatura (secretário de
    transportes, agente de fiscalização, prefeito). Em produção use o certificado
    do Município (configuração [assinantes]).
    """
    from lavra.pki import init_dev_pki

    config = load_config()
    engine = Engine.from_config(config)
    pki = init_dev_pki(config.pki_dir, engine.content.organization.roles, force=force)
    click.echo(f"PKI de desenvolvimento (sem validade jurídica) em {pki.folder}:")
    for role, path in sorted(pki.signers.items()):
        click.echo(f"  {role:<24} {path}")


def _issuer() -> Any:
    from lavra.issuing import Issuer

    return Issuer.from_config()


@main.command("issue")
@click.argument("form")
@click.argument("data", type=click.Path(path_type=Path, dir_okay=False))
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
@ON_OPTION
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@shielded
def issue_command(
    form: str,
    data: Path,
    output: Path,
    docx: Path | None,
    key: str | None,
    on: str | None,
    as_json: bool,
) -> None:
    """Emite o documento FORM: numera, assina e registra; ou recusa se incompleto."""
    from lavra.issuing import IncompleteError

    issuer = _issuer()
    try:
        result = issuer.issue(
            form,
            read_data(data),
            _on(on),
            idempotency_key=key,
            actor=os.environ.get("USER"),
            docx=docx is not None,
        )
    except IncompleteError as error:
        click.echo(error.message, err=True)
        print_report(error.report, as_json)
        sys.exit(EXIT_INCOMPLETE)
    _write(output, result.pdf)
    if docx is not None and result.docx is not None:
        _write(docx, result.docx)
    record = result.record
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
            f"Emitido {record.series} nº {record.formatted}, código verificador "
            f"{record.verification_code}, gravado em {output}."
        )


@main.command("verify")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False), required=False)
@click.option("--code", "code", help="Consulta um código verificador no registro.")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@shielded
def verify_command(file: Path | None, code: str | None, as_json: bool) -> None:
    """Verifica um documento emitido: assinatura íntegra, confiável, sem alteração
    posterior, e o registro com este código e este hash. Sai com 0 só quando tudo confere."""
    issuer = _issuer()
    if code is not None:
        record = issuer.lookup_code(code)
        if record is None:
            raise LavraError(f"Código verificador {code} não encontrado no registro.")
        payload = {
            "registered": True,
            "number": record.formatted,
            "form": record.form,
            "series": record.series,
            "issued_at": record.issued_at_local.isoformat(),
            "signer": record.signer_subject,
            "cancelled": record.cancelled,
            "cancel_reason": record.cancel_reason,
        }
        if as_json:
            click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        else:
            state = f"CANCELADO ({record.cancel_reason})" if record.cancelled else "válido"
            click.echo(
                f"{record.form} nº {record.formatted}, emitido em "
                f"{record.issued_at_local:%d/%m/%Y %H:%M}, assinado por "
                f"{record.signer_subject}: {state}."
            )
        sys.exit(0 if not record.cancelled else EXIT_INCOMPLETE)
    if file is None:
        raise LavraError("Informe o arquivo PDF ou --code CÓDIGO.")
    try:
        raw = file.read_bytes()
    except OSError as error:
        raise LavraError(f"Não foi possível ler o arquivo {file}: {error.strerror}.") from None
    result = issuer.verify(raw)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    elif result.valid:
        click.echo(
            f"Documento válido: {result.form} nº {result.number}, assinado por {result.signer}."
        )
    else:
        click.echo("Documento NÃO confere:")
        for problem in result.problems:
            click.echo(f"  - {problem}")
    sys.exit(0 if result.valid else EXIT_INCOMPLETE)


@main.command("cancel")
@click.argument("number")
@click.option("--reason", "reason", required=True, help="Motivo do cancelamento.")
@click.option("--series", "series", help="Série, quando o número se repete entre séries.")
@click.option("--by", "by", default=None, help="Quem cancela (padrão: o usuário do sistema).")
@shielded
def cancel_command(number: str, reason: str, series: str | None, by: str | None) -> None:
    """Cancela o documento NUMBER (ex.: 0001/2026): ele permanece no registro."""
    record = _issuer().cancel(number, reason, by or os.environ.get("USER") or "lavra", series)
    click.echo(
        f"Documento {record.series} nº {record.formatted} cancelado: {record.cancel_reason}."
    )


def _write(path: Path, content: bytes) -> None:
    """Write atomically: a file is either whole or absent."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".parcial")
        partial.write_bytes(content)
        partial.replace(path)
    except OSError as error:
        raise LavraError(f"Não foi possível gravar {path}: {error.strerror}.") from None


cli_i18n.localize_metavars(main)

if __name__ == "__main__":  # pragma: no cover
    main()
