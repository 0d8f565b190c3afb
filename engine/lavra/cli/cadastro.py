"""``lavra cadastro``: the licensing state the acts created (licences and their status,
parties, vehicles, bars), shown by plate, CPF/CNPJ or number, and rebuilt from the acts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import click

from lavra.checking.content import Content
from lavra.cli.support import (
    REGISTRY_OPTION,
    aliased,
    registry_and_engine,
    registry_of,
    series_option,
    shielded,
)
from lavra.errors import ImportRefusedError, InputError
from lavra.inputs.formats import (
    cpf_cnpj_label,
    has_cnpj_shape,
    has_cpf_shape,
    has_placa_shape,
    mask_cpf_cnpj,
)
from lavra.inputs.reading import parse_date, today
from lavra.pack import ContentPack
from lavra.recording import FactRecorder
from lavra.registry.acts_history import with_acts
from lavra.registry.licensing import LicenceView, TimelineEntry
from lavra.registry.name_records import NameRecords
from lavra.registry.name_timeline import with_name_changes
from lavra.registry.store import Registry

__all__ = ["cadastro"]



def _registry(registry_url: str | None) -> Registry:
    return _pack_registry(registry_url)[0]


def _pack_registry(registry_url: str | None) -> tuple[Registry, ContentPack]:
    registry, content = _content_registry(registry_url)
    return registry, content.pack


def _content_registry(registry_url: str | None) -> tuple[Registry, Content]:
    registry, engine = registry_and_engine(registry_url)
    registry.use_effects(engine.content.pack.effects)
    return registry, engine.content


@click.group("cadastro")
def cadastro() -> None:
    """A situação das licenças criada pelos atos emitidos."""


@cadastro.command("reconstruir")
@click.option("--apenas-verificar", "dry_run", is_flag=True,
              help="Só compara o cadastro gravado com o reconstruído; nada é gravado.")
@REGISTRY_OPTION
@shielded
def rebuild_command(dry_run: bool, registry_url: str | None) -> None:
    """Reconstrói o cadastro a partir dos atos emitidos e relata as diferenças."""
    with _registry(registry_url) as registry:
        diff = registry.rebuild_state(apply=not dry_run)
    click.echo(f"Atos percorridos: {diff.acts}.")
    if diff.divergences:
        click.echo(f"Atos emitidos contra regra hoje em vigor (divergências, "
                   f"{len(diff.divergences)}): registrados como emitidos, sem recusa.")
        for line in diff.divergences:
            click.echo(f"  {line}")
    if diff.same:
        click.echo("O cadastro gravado confere com o reconstruído a partir dos atos.")
        return
    for line in diff.only_stored:
        click.echo(f"  só no cadastro gravado: {line}")
    for line in diff.only_rebuilt:
        click.echo(f"  só no reconstruído:     {line}")
    click.echo("Diferenças encontradas: " + (
        "nada foi gravado (--apenas-verificar)." if dry_run
        else "o cadastro foi regravado a partir dos atos."))
    if dry_run:
        raise SystemExit(1)


@cadastro.command("importar")
@click.argument("path", metavar="ARQUIVO", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--data", "on_text", metavar="AAAA-MM-DD",
              help="Data da importação: nenhum ato ou pagamento pode ser posterior a ela "
                   "(padrão: hoje, no horário de Brasília).")
@REGISTRY_OPTION
@shielded
def import_command(path: Path, on_text: str | None, registry_url: str | None) -> None:
    """Importa os atos anteriores ao lavra (CSV ou JSON Lines; colunas no README)."""
    from lavra.batch.inputs import read_lines
    from lavra.registry.importing import read_import

    on = (parse_date(on_text, what="data da importação (--data)", field="--data") if on_text
          else today())
    lines = read_lines(path, "/arquivo")
    registry, pack = _pack_registry(registry_url)
    with registry:
        registry.ensure_state()
        try:
            planned, refused = read_import(lines, pack.imports, path.name)
            report = registry.import_acts(planned, pack_version=pack.name, on=on,
                                          refused=refused)
        except ImportRefusedError as refused:
            click.echo(f"Erro: {refused.message}", err=True)
            for problem in refused.problems:
                click.echo(f"  {problem}", err=True)
            raise SystemExit(1) from None
    if not report.imported:
        click.echo("Nada a importar: " + ("o ato do arquivo já consta" if len(report.skipped)
                                          == 1 else f"os {len(report.skipped)} atos do "
                                          "arquivo já constam") + " do registro, com os "
                   "mesmos dados.")
        return
    count = len(report.imported)
    click.echo(("Importado 1 ato anterior" if count == 1 else f"Importados {count} atos "
                "anteriores") + f" ao lavra de {path.name}:")
    for printed in report.imported:
        click.echo(f"  {printed}")
    if report.skipped:
        click.echo(f"Já constavam do registro, com os mesmos dados: {len(report.skipped)}.")


@cadastro.command("mostrar")
@click.argument("key", metavar="PLACA|CPF|CNPJ|NÚMERO")
@series_option("--serie")
@aliased("--data", dest="on_text", aliases=("--on",), metavar="AAAA-MM-DD",
              help="Data em que se diz a situação (padrão: hoje, no horário de Brasília).")
@REGISTRY_OPTION
@shielded
def show_command(key: str, series: str | None, on_text: str | None,
                 registry_url: str | None) -> None:
    """A situação atual e o histórico de um veículo, de uma pessoa ou de uma licença."""
    on = (parse_date(on_text, what="data de referência (--data)", field="--data") if on_text
          else today())
    registry, content = _content_registry(registry_url)
    recorder = FactRecorder(registry, content)

    titles = {form: spec.title for form, spec in content.forms.items()}

    def _history(**wanted: Any) -> tuple[TimelineEntry, ...]:
        """The state's changes with the acts naming the vehicle or party."""
        return recorder.annotate(with_acts(registry, registry.timeline(**wanted), titles,
                                           **wanted))

    def _timeline(**wanted: Any) -> None:
        _print_timeline(recorder.annotate(registry.timeline(**wanted)))

    with registry:
        if has_placa_shape(key):
            click.echo(f"Veículo {key.upper()}")
            _licences(registry.licence_views(placa=key), on)
            _print_timeline(_history(placa=key))
        elif has_cpf_shape(key) or has_cnpj_shape(key):
            names = registry.party_names(key)
            click.echo(f"{cpf_cnpj_label(key)}: "
                       + (" → ".join(names) if names else "sem nome registrado"))
            # Worded as the refusals word a bar (lavra.registry.guards): by the act that
            # imposed it, which names what it bars; the scope is the pack's internal key.
            for _scope, until, act in registry.bars_of(key, on):
                click.echo(f"  Impedimento até {until:%d/%m/%Y}, pelo {act}.")
            _licences(registry.licence_views(holder=key), on)
            _print_timeline(with_name_changes(_history(holder=key), NameRecords(registry).of(key)))
        else:
            record = registry.by_number(key, series=series)
            if record is None:
                voided = registry.voided_by_number(key, series)
                if voided is None:
                    raise InputError(f"Nada consta do registro sob «{key}».", field="/numero")
                click.echo(f"{voided.printed}: não corresponde a documento emitido. "
                           f"{voided.text}.")
                return
            view = registry.licence_of(record.id)
            if record.origin is not None:
                click.echo(f"{record.printed} (importado: {record.origin})")
            annulled = registry.annulled_acts((record.id,)).get(record.id)
            if annulled is not None:
                click.echo(f"{record.printed}: anulado em recurso ({annulled[0]}, de "
                           f"{annulled[1]:%d/%m/%Y}).")
            if view is None:
                click.echo(f"{record.printed}: este ato não concede licença.")
            else:
                _licences((view,), on)
            _timeline(licence_document=record.id)


@cadastro.command("numeracao")
@series_option("--serie", metavar="SÉRIE", help="Só esta série (ex.: ALV-FRET).")
@click.option("--ano", "year", type=int, metavar="AAAA", help="Só este ano.")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON.")
@REGISTRY_OPTION
@shielded
def numbering_command(series: str | None, year: int | None, as_json: bool,
                      registry_url: str | None) -> None:
    """Conferência da numeração: por série e ano, os números emitidos, inutilizados,
    anteriores ao lavra (importados) e os sem explicação (saída 1 se houver algum)."""
    from lavra.cli.numbering import print_numbering

    with registry_of(registry_url) as registry:  # the registry alone: no pack to load
        # --serie comes in capitals («alv-esc» is ALV-ESC): series_option normalises it.
        reports = registry.numbering_report(series=series, year=year)
    scope = (f" da série {series}" if series is not None else "") + (
        f" em {year}" if year is not None else "")
    if print_numbering(reports, as_json=as_json, scope=scope):
        raise SystemExit(1)


@cadastro.command("inutilizar")
@click.argument("printed", metavar="NÚMERO")
@series_option("--serie", metavar="SÉRIE",
               help="A série, quando o NÚMERO não a traz (ex.: SELO-ESC).")
@click.option("--motivo", "reason", required=True, help="Por que o número é inutilizado.")
@click.option("--responsavel", "by", required=True, metavar="NOME",
              help="Quem decide a inutilização (fica registrado com a data).")
@REGISTRY_OPTION
@shielded
def void_command(printed: str, series: str | None, reason: str, by: str,
                 registry_url: str | None) -> None:
    """Inutiliza o NÚMERO (ex.: «SELO-ESC 0003/2026») tomado de uma série que nenhum
    documento leva: a reserva do selo de um alvará depois cassado ou revogado, um
    número que ficou sem ato. Fica registrado como numeração inutilizada, com o motivo
    e o responsável, e a série segue sem lacunas. Número de documento emitido: cancele
    o documento; reservado em lote: «lavra lote abandonar»."""
    from lavra.registry.identifiers import normalize_series, overlong_number, parse_printed

    found = parse_printed(printed)
    if found is None:
        length = "tem mais de 9 algarismos" if overlong_number(printed) else (
            "use o formato SÉRIE 0001/2026 ou 0001/2026 com --serie")
        raise InputError(f"Número inválido: «{printed}»; {length}.", field="NÚMERO")
    typed, number, year = found
    chosen = series if typed is None else normalize_series(typed)
    if chosen is None:
        raise InputError("Informe a série do número (ex.: --serie SELO-ESC).", field="--serie")
    if series is not None and chosen != series:
        raise InputError(f"O número «{printed}» é da série {chosen}, não de {series}.",
                         field="--serie")
    with registry_of(registry_url) as registry:
        try:
            voided = registry.void_number(chosen, year, number, reason=reason, by=by)
        except InputError as error:  # the field by the option the person typed
            raise InputError(error.message, field=_VOID_OPTIONS.get(error.field or "")
                             ) from None
    click.echo(f"Número inutilizado: {voided.printed}: {voided.text}.")


_VOID_OPTIONS = {"/numero": "NÚMERO", "/serie": "--serie", "/ano": "NÚMERO",
                 "/motivo": "--motivo", "/responsavel": "--responsavel"}


_NAME_OPTIONS = {"/cpf": "CPF", "/nome": "--nome", "/comprovante": "--comprovante",
                 "/responsavel": "--responsavel", "/data": "--data"}


@cadastro.command("nome")
@click.argument("cpf", metavar="CPF")
@click.option("--nome", "name", required=True, help="O novo nome, como na certidão.")
@click.option("--comprovante", "evidence", required=True, metavar="TEXTO",
              help="A certidão do registro civil que comprova a alteração e sua "
              "identificação (ex.: «Certidão de casamento, matrícula ...»).")
@click.option("--responsavel", "by", required=True, metavar="NOME",
              help="Quem registra (fica registrado com a data).")
@aliased("--data", dest="on_text", aliases=("--on",), metavar="AAAA-MM-DD",
         help="Data do registro (padrão: hoje, no horário de Brasília).")
@REGISTRY_OPTION
@shielded
def name_command(cpf: str, name: str, evidence: str, by: str, on_text: str | None,
                 registry_url: str | None) -> None:
    """Registra a alteração do nome de uma pessoa (CPF), comprovada por certidão do
    registro civil: o novo nome passa a ser o do registro, e o anterior fica no
    histórico."""
    now = today()
    on = (parse_date(on_text, what="data do registro (--data)", field="--data") if on_text
          else now)
    with _registry(registry_url) as registry:
        try:
            record = NameRecords(registry).record(cpf, name, evidence, by=by, on=on,
                                                  today=now)
        except InputError as error:  # the field by the option the person typed
            raise InputError(error.message, field=_NAME_OPTIONS.get(error.field or "")
                             ) from None
    click.echo(f"Alteração de nome registrada em {record.recorded_on:%d/%m/%Y} por "
               f"{record.recorded_by}: «{record.previous}» passa a «{record.name}» "
               f"(comprovante: {record.evidence}).")


def _licences(views: Sequence[LicenceView], on: date) -> None:
    if not views:
        click.echo("  Nenhuma licença no cadastro.")
    for view in views:
        holder = (view.holder_name or (mask_cpf_cnpj(view.holder) if view.holder else None)
                  or "titular não identificado")
        until = "" if view.valid_until is None else f", válido até {view.valid_until:%d/%m/%Y}"
        click.echo(f"  {view.printed} ({holder}{until}): {view.describe(on)}.")


def _print_timeline(entries: Sequence[TimelineEntry]) -> None:
    """Each change, and under its act the act's ciência and the last day from it."""
    if entries:
        click.echo("Histórico:")
    for entry in entries:
        click.echo(f"  {entry.on:%d/%m/%Y}  {entry.printed}: {entry.detail}")
        for line in entry.ciencia:
            click.echo(f"              {line}.")
