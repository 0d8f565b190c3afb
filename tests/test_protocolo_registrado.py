"""A protocol of lavra's series typed in an act is a filing the registry holds, of the
requerimento the act answers (``comum/protocolo_registrado.py``): the registry's lookup
of a filing by protocol, on SQLite and on PostgreSQL (``registry_url``), for an act that
cites one protocol and for the result edital, which lists one per inscrição. Every date
and time is passed explicitly."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from formcases import example
from issuers import VERIFICATION_URL, poppler
from sqlalchemy import select

from lavra.checking.content import Content
from lavra.config import Config
from lavra.documents import Engine
from lavra.filing import FilingDesk
from lavra.inputs.reading import TIMEZONE
from lavra.issuing import Issuer, ensure_dev_pki
from lavra.registry.filings import Filed
from lavra.registry.store import open_registry
from lavra.registry.tables import EventRow

REPO = Path(__file__).resolve().parents[1]
FILED_ON = datetime(2026, 2, 2, 9, 10, tzinfo=TIMEZONE)
EDITAL = "edital-resultado-classificacao"
PUB = "autorizacao-publicidade-escolar"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


@pytest.fixture(scope="module")
def config(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Config:
    """One development PKI for the module's tests (its keys take seconds to make)."""
    made = Config(pack_dir=engine.content.root, data_dir=tmp_path_factory.mktemp("pki"),
                  verification_url=VERIFICATION_URL)
    ensure_dev_pki(made, engine.content, valid_from=datetime(2026, 1, 1))
    return made


@pytest.fixture
def issuer(engine: Engine, config: Config, registry_url: str) -> Iterator[Issuer]:
    opened = Issuer(engine, open_registry(registry_url), config, clock=lambda: FILED_ON)
    yield opened
    opened.close()


def _file(engine: Engine, issuer: Issuer, form: str) -> Filed:
    filed, _ = FilingDesk(issuer).file(
        form, example(engine, form), cpf_cnpj="529.982.247-25",
        name="Carlos Exemplo Lima", attachments=(), item_titles={}, now=FILED_ON)
    return filed


def _pending(engine: Engine, issuer: Issuer, form: str, data: dict[str, Any],
             on: date) -> dict[str, str]:
    report = engine.prepare(form, data, on, history=issuer.history).report
    return {i.requirement: i.message for i in report.items
            if i.pending and i.requirement.endswith(".registro")}


def test_the_result_edital_lists_only_inscricoes_the_registry_holds(
    engine: Engine, issuer: Issuer
) -> None:
    inscricao = _file(engine, issuer, "requerimento-inscricao-escolar")
    other = _file(engine, issuer, "requerimento-licenca-publicidade")
    data = example(engine, EDITAL)
    on = date(2026, 2, 20)
    first, second = data["candidatos"][:2]
    first["protocolo"] = inscricao.protocol
    # An inscrição of lavra's series the registry holds, and one on paper: both pass.
    assert _pending(engine, issuer, EDITAL, data, on) == {}
    text = poppler(engine.draft(EDITAL, data, on, history=issuer.history).pdf)
    assert inscricao.protocol.replace(" nº", "") in text.replace(" nº", "")
    # Each protocol listed is checked: one the registry does not hold, and the filing of
    # another requerimento, each refused naming its own entry.
    second["protocolo"] = "PROT 0099/2026"
    data["candidatos"][2:2] = [dict(first, protocolo=other.protocol)]
    pending = _pending(engine, issuer, EDITAL, data, on)
    assert set(pending) == {"candidatos.1.protocolo.registro",
                            "candidatos.2.protocolo.registro"}, pending
    assert "não consta do registro de protocolos" in pending["candidatos.1.protocolo.registro"]
    assert ("de outro requerimento (Requerimento de Licença de Publicidade em Veículo de "
            "Transporte Escolar)") in pending["candidatos.2.protocolo.registro"]


def test_a_cited_protocol_is_looked_up_in_the_registry(
    engine: Engine, issuer: Issuer
) -> None:
    filed = _file(engine, issuer, "requerimento-licenca-publicidade")
    data = example(engine, PUB)
    on = date(2026, 2, 20)
    data["requerimento"]["protocolo"] = filed.protocol.replace(" nº", "")
    assert _pending(engine, issuer, PUB, data, on) == {}
    data["requerimento"]["protocolo"] = "PROT 0099/2026"
    pending = _pending(engine, issuer, PUB, data, on)
    assert "não consta do registro de protocolos" in pending["requerimento.protocolo.registro"]
    # a protocol of another requerimento: named by its title, never by its form id
    other = _file(engine, issuer, "requerimento-troca-veiculo-escolar")
    data["requerimento"]["protocolo"] = other.protocol.replace(" nº", "")
    said = _pending(engine, issuer, PUB, data, on)["requerimento.protocolo.registro"]
    assert "é de outro requerimento (Requerimento de" in said, said
    assert "requerimento-troca-veiculo-escolar" not in said and "«" not in said, said
    # the registry's event of the receipt names the requerimento by its title too
    with issuer.registry.engine.connect() as connection:
        detail = connection.execute(
            select(EventRow.detail).where(EventRow.document_id == other.receipt.id,
                                          EventRow.kind == "issued")).scalar_one()
    assert detail is not None and detail.endswith(": Requerimento de Troca de Veículo de "
                                                  "Transporte Escolar recebido."), detail
