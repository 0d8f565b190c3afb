"""``lavra fato``: facts recorded on an issued document after its issue (ciência, notice
received, payment), their revocation, and the deadlines that run from the ciência."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import click

from lavra.cli.support import REGISTRY_OPTION, registry_and_engine, series_option, shielded
from lavra.errors import InputError, LavraError
from lavra.filing import RECEIPT_FORM
from lavra.inputs.textnorm import clean_text
from lavra.recording import FactRecorder
from lavra.registry.facts import MEANS_LABELS, Fact, FactKind, Means, parse_moment
from lavra.registry.filings import Filings
from lavra.registry.inbox import Inbox
from lavra.registry.records import LOCAL_TZ

__all__ = ["fact_group"]

BY_OPTION = click.option("--por", "by", metavar="NOME",
                         help="Quem registra (padrão: o usuário do sistema).")


def _recorder(registry_url: str | None) -> FactRecorder:
    registry, engine = registry_and_engine(registry_url)
    return FactRecorder(registry, engine.content)


def _who(by: str | None) -> str:
    who = by or os.environ.get("USER")
    if not who:
        raise LavraError("Informe quem registra o fato (--por NOME): o registro guarda o autor.")
    return clean_text(who, what="O nome de quem registra (--por)", field="--por")


def _show_deadlines(recorder: FactRecorder, record: Any) -> None:
    for deadline in recorder.deadlines(record):
        click.echo(f"  {deadline.summary} ({deadline.act}, {deadline.reference}); contado "
                   f"da {deadline.ciencia.source}.")


def _record(kind: FactKind) -> Callable[..., None]:
    @click.argument("document", metavar="NÚMERO_OU_ID")
    @click.option("--data", "on", required=True, metavar="AAAA-MM-DD[THH:MM]",
                  help="Quando o fato aconteceu (a data do AR, da publicação, do pagamento).")
    @series_option("--serie")
    @click.option("--referencia", "reference",
                  help="Código do AR, publicação do edital, guia de pagamento.")
    @click.option("--obs", "note", help="Observação.")
    @BY_OPTION
    @REGISTRY_OPTION
    @shielded
    def command(document: str, on: str, series: str | None, reference: str | None,
                note: str | None, by: str | None, registry_url: str | None,
                means: str | None = None, amount: str | None = None) -> None:
        recorder = _recorder(registry_url)
        record = recorder.document(document, series)
        if kind is FactKind.CIENCIA and _refusal_ciencia(recorder, record, on, means, by):
            return
        fact = recorder.record(record, kind.value, on=on, by=_who(by), means=means,
                               amount=amount, reference=reference, note=note)
        click.echo(f"Registrado no documento {record.printed} (fato {fact.id}): "
                   f"{fact.describe()}.")
        _show_deadlines(recorder, record)

    return command


def _refusal_ciencia(recorder: FactRecorder, record: Any, on: str, means: str | None,
                     by: str | None) -> bool:
    """For a protocol's receipt (``PROT nº …``) whose filing awaits the ciência of a
    refused document: record that ciência, from which the pack's period runs
    (:meth:`lavra.registry.inbox.Inbox.acknowledge`); True when it was the receipt."""
    if record.form != RECEIPT_FORM:
        return False
    filed = Filings(recorder.registry).by_receipt(record.id)
    period = recorder.content.pack.filing_period
    case = None if filed is None else Inbox(recorder.registry).case(filed.id)
    if filed is None or case is None or period is None or not case.awaiting_ciencia:
        raise LavraError(f"O protocolo {record.printed} não tem documento recusado à espera "
                         "da ciência do requerente. Nada foi registrado.")
    moment, with_time = parse_moment(on)
    if moment > datetime.now(UTC):
        raise InputError("A data da ciência não pode ser futura.", field="--data")
    after, _ = Inbox(recorder.registry).acknowledge(
        filed.id, at=moment, with_time=with_time, means=means or Means.PERSONAL.value,
        by=_who(by), last_day=period)
    last = after.deadline.strftime("%d/%m/%Y") if after.deadline else "—"
    click.echo(f"Ciência da recusa de documento do protocolo {filed.protocol} registrada "
               f"({MEANS_LABELS.get(means or '', means)}); último dia para reenviar: {last}.")
    return True


@click.group("fato")
def fact_group() -> None:
    """Fatos posteriores à emissão, no registro do documento: ciência, notificação
    recebida, pagamento (com quem registrou e quando); nunca apagados, só revogados."""


MEANS_OPTION = click.option(
    "--meio", "means", required=True, type=click.Choice(["pessoal", "ar", "edital"]),
    help="Meio da ciência: pessoal, ar (aviso de recebimento, com a data nele lançada) ou "
    "edital (publicação oficial; informe --referencia).",
)

fact_group.command("ciencia", help="Registra a ciência do interessado no documento.")(
    MEANS_OPTION(_record(FactKind.CIENCIA)))
fact_group.command("aviso", help="Registra o recebimento de notificação do documento.")(
    MEANS_OPTION(_record(FactKind.NOTICE)))
fact_group.command("pagamento", help="Registra o pagamento (multa ou taxa) do documento.")(
    click.option("--valor", "amount", required=True, metavar="VALOR",
                 help="Valor pago, em reais (ex.: 384,20).")(_record(FactKind.PAYMENT)))


@fact_group.command("revogar")
@click.argument("fact_id", metavar="FATO", type=int)
@click.option("--motivo", "reason", required=True, help="Por que o registro está errado.")
@BY_OPTION
@REGISTRY_OPTION
@shielded
def revoke_command(fact_id: int, reason: str, by: str | None, registry_url: str | None) -> None:
    """Revoga o fato FATO (número mostrado ao registrá-lo): permanece no histórico."""
    recorder = _recorder(registry_url)
    why = clean_text(reason, what="O motivo da revogação (--motivo)", field="--motivo")
    fact = recorder.revoke(fact_id, reason=why, by=_who(by))
    click.echo(f"Fato {fact.id} revogado: {fact.describe()} — {fact.revoke_reason}.")


@fact_group.command("listar")
@click.argument("document", metavar="NÚMERO_OU_ID")
@series_option("--serie")
@REGISTRY_OPTION
@shielded
def list_command(document: str, series: str | None, registry_url: str | None) -> None:
    """Fatos registrados no documento e os prazos contados da ciência."""
    recorder = _recorder(registry_url)
    record = recorder.document(document, series)
    facts = recorder.registry.facts(record.id)
    click.echo(f"Documento {record.printed}:")
    if not facts:
        click.echo("  Nenhum fato registrado após a emissão.")
    for fact in facts:
        click.echo("  " + _line(fact))
    _show_deadlines(recorder, record)


def _line(fact: Fact) -> str:
    text = (f"[{fact.id}] {fact.describe()} — registrado por {fact.recorded_by} em "
            f"{fact.recorded_at.astimezone(LOCAL_TZ):%d/%m/%Y %H:%M}")
    if fact.revoked:
        text += f"; REVOGADO por {fact.revoked_by}: {fact.revoke_reason}"
    return text
