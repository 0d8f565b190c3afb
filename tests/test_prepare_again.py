"""«Preparar ato» again on a requerimento-alvara-fretamento, decided by one alvará per
vehicle (issue 26; fretamento#art8): once the first draft is discarded, only the
vehicles no draft of this request still holds are drafted — a draft open, or issued
into an alvará not cancelled, holds its vehicle; a discarded draft or a cancelled alvará
frees it; the drafts still match the request once staff linked its PA. Over a real
registry, SQLite and PostgreSQL; every date fixed."""

from __future__ import annotations

import copy
import secrets
from datetime import UTC, date, datetime

import pytest
from identities import set_vehicle
from test_licensing_state import act, example

from lavra.errors import InputError
from lavra.filedacts import prepare_act
from lavra.registry.drafts import Draft
from lavra.registry.filings import Filed, FilingInput, Filings
from lavra.registry.inbox import Inbox
from lavra.registry.processos import Processos
from lavra.registry.records import Built
from lavra.registry.store import Registry
from lavra_americana.comum import protocolos

REQ, ALV = "requerimento-alvara-fretamento", "alvara-fretamento"
GRANT = protocolos.ATOS[REQ][0]
ON = date(2026, 12, 3)
BY = "Clara Redatora (clara)"


def _receipt(number: int, printed: str, moment: datetime) -> Built:
    """A stand-in receipt: «Preparar ato» reads the filing, not its receipt."""
    return Built(pdf=b"%PDF-1.4 " + printed.encode(), data={"protocolo": printed},
                 computed={}, reference_date=moment.date(),
                 verification_code=f"PRA-{secrets.token_hex(6)}", signer_subject="Selo",
                 signer_serial="1", pack_version="t", issued_at=moment)


def _file(registry: Registry, *plates: str) -> Filed:
    data = example(REQ)
    model = data["veiculos"][0]
    data["veiculos"] = [set_vehicle(copy.deepcopy(model), plate) for plate in plates]
    return Filings(registry).file(FilingInput(
        series="PROT", form=REQ, data=data, cpf_cnpj=data["requerente"]["cnpj"],
        name=data["requerente"]["razao_social"], attachments=()),
        _receipt, receipt_form="comprovante-protocolo",
        now=datetime(2026, 12, 1, 13, 5, tzinfo=UTC))


def _prepare(registry: Registry, filed: Filed) -> Draft:
    case = Inbox(registry).case(filed.id)
    assert case is not None
    return prepare_act(registry, case, GRANT, signer_role="secretario-transportes",
                       title=f"Alvará — {filed.protocol}", on=ON, by=BY)


def _drafts(registry: Registry, filed: Filed) -> list[tuple[str, str, str]]:
    """The drafts from the filing, oldest first: plate, status, the title's «i de n»."""
    drafts = sorted((d for d in registry.drafts(form=ALV) if filed.protocol in d.title),
                    key=lambda d: d.id)
    return [(d.data["veiculo"]["placa"], d.status.value, d.title.rsplit("(", 1)[-1])
            for d in drafts]


def _discard(registry: Registry, draft_id: int) -> None:
    draft = registry.draft(draft_id)
    assert draft is not None
    registry.discard_draft(draft_id, version=draft.version, by=BY)


def _linked(registry: Registry, filed: Filed) -> int | None:
    case = Inbox(registry).case(filed.id)
    assert case is not None
    return case.draft_id


def _open(registry: Registry, filed: Filed, plate: str) -> int:
    return next(d.id for d in registry.drafts(form=ALV)
                if filed.protocol in d.title and d.data["veiculo"]["placa"] == plate
                and not d.status.final)


def test_preparing_again_drafts_only_the_vehicles_without_an_alvara(
        registry: Registry) -> None:
    filed = _file(registry, "AGN1A26", "AGN2B26", "AGN3C26")
    first = _prepare(registry, filed)
    assert _drafts(registry, filed) == [
        ("AGN1A26", "encaminhado", "1 de 3)"), ("AGN2B26", "encaminhado", "2 de 3)"),
        ("AGN3C26", "encaminhado", "3 de 3)")]
    with pytest.raises(InputError, match="já está preparado na minuta"):
        _prepare(registry, filed)  # the first draft is open: nothing written

    # the first discarded, the PA linked: only the first vehicle, again the linked draft
    _discard(registry, first.id)
    Processos(registry).link(filed.protocol, "PA 4.026/2026", by=BY)
    again = _prepare(registry, filed)
    assert again.data["veiculo"]["placa"] == "AGN1A26"
    assert again.data["processo"]["numero"] == "PA 4.026/2026"
    assert _linked(registry, filed) == again.id
    assert _drafts(registry, filed)[3:] == [("AGN1A26", "encaminhado", "1 de 3)")]

    # the second issued; the first and third discarded: both drafted again, not the second
    second = registry.draft(_open(registry, filed, "AGN2B26"))
    assert second is not None
    issued = act(registry, "ALV-FRET", ALV, dict(second.data), on=ON,
                 computed={"inicio_vigencia": "2026-12-03", "valido_ate": "2031-12-02"})
    registry.mark_draft_issued(second.id, document_id=issued.id, by=BY)
    _discard(registry, _open(registry, filed, "AGN3C26"))
    _discard(registry, again.id)
    third = _prepare(registry, filed)
    assert _drafts(registry, filed)[4:] == [
        ("AGN1A26", "encaminhado", "1 de 3)"), ("AGN3C26", "encaminhado", "3 de 3)")]
    assert _linked(registry, filed) == third.id

    # the second's alvará cancelled: it frees its vehicle; the third's open draft holds it
    registry.cancel("ALV-FRET", ON.year, issued.number, reason="Emitido por engano.", by=BY)
    _discard(registry, third.id)
    fourth = _prepare(registry, filed)
    assert _drafts(registry, filed)[6:] == [
        ("AGN1A26", "encaminhado", "1 de 3)"), ("AGN2B26", "encaminhado", "2 de 3)")]
    assert fourth.data["veiculo"]["placa"] == "AGN1A26"


def test_nothing_left_to_prepare_is_refused_naming_the_drafts(registry: Registry) -> None:
    """A request naming one plate twice: the second draft holds the plate, so once the
    first is discarded there is no act left; refused, nothing written."""
    filed = _file(registry, "AGN4D26", "agn-4d26")
    first = _prepare(registry, filed)
    _discard(registry, first.id)
    before = _drafts(registry, filed)
    held = _open(registry, filed, "agn-4d26")
    with pytest.raises(InputError) as refused:
        _prepare(registry, filed)
    assert refused.value.message == (
        f"Cada ato do protocolo {filed.protocol} já está preparado ou emitido (minutas nº "
        f"{held}): não há ato a preparar de novo.")
    assert refused.value.field == "/ato"
    assert _drafts(registry, filed) == before and _linked(registry, filed) == first.id
