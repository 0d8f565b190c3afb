"""«Preparar ato» of a renewal names the licence the request names: only for its holder
(the CPF/CNPJ that filed the request, as the renewal run selects holders). A request
naming someone else's alvará is refused at the licence's field, without saying whose it
is, and nothing is written (issue 26). The same for the school alvará and the fretamento
alvará: one check, the engine's (lavra.filedacts), for every renewal."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from identities import cpf_for, set_person, set_vehicle
from sqlalchemy import update
from test_formats import cnpj_check_digits
from test_inbox import BASE, _built, _post
from test_licensing_state import act
from webhelpers import errors_in, example, login

from lavra.inputs.formats import mask_cnpj, only_digits
from lavra.registry.filings import FilingInput, Filings
from lavra.registry.inbox import Inbox
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry
from lavra.registry.tables import LicenceRow
from lavra.web import WebContext


def _school(registry: Registry, tag: str = "hold26", placa: str = "HLD1A26",
            ) -> tuple[IssuedRecord, dict[str, Any], str, str]:
    """A school alvará of one person, and a renewal request of it by another (``tag``
    and ``placa``: their own, the web context being shared by the cases)."""
    data = example("alvara-transporte-escolar")
    holder = cpf_for(f"titular do alvará, {tag}")
    set_person(data["titular"], holder)
    data["titular"]["nome"] = "Titular Verdadeiro da Silva"
    set_vehicle(data["veiculo"], placa)
    alvara = act(registry, "ALV-ESC", "alvara-transporte-escolar", data,
                 on=date(2026, 3, 10),
                 computed={"inicio_vigencia": "2026-03-10", "valido_ate": "2026-12-31"})
    request = example("requerimento-renovacao-escolar")
    filer = cpf_for(f"outra pessoa, {tag}")
    set_person(request["requerente"], filer)
    request["alvara_anterior"]["numero"] = alvara.printed
    return alvara, request, filer, holder


def _fretamento(registry: Registry) -> tuple[IssuedRecord, dict[str, Any], str, str]:
    """A fretamento alvará of one company, and a renewal request of it by another."""
    data = example("alvara-fretamento")
    holder = mask_cnpj("481736520099" + cnpj_check_digits("481736520099"))
    data["empresa"]["cnpj"] = holder
    data["empresa"]["razao_social"] = "Titular Verdadeira Transportes Ltda."
    set_vehicle(data["veiculo"], "HLD2B26")
    alvara = act(registry, "ALV-FRET", "alvara-fretamento", data, on=date(2021, 12, 31),
                 computed={"inicio_vigencia": "2021-12-31", "valido_ate": "2026-12-31"})
    request = example("requerimento-renovacao-alvara-fretamento")
    filer = mask_cnpj("481736520088" + cnpj_check_digits("481736520088"))
    request["requerente"]["cnpj"] = filer
    request["alvara_anterior"]["numero"] = alvara.printed
    set_vehicle(request["veiculo"], "HLD2B26")
    return alvara, request, filer, holder


def _holderless(registry: Registry) -> tuple[IssuedRecord, dict[str, Any], str, str]:
    """The school alvará as the registry may hold one with no holder identified: not
    the filer's either."""
    alvara, request, filer, holder = _school(registry, "hold26-none", "HLD3C26")
    with registry.write_session() as session:
        session.execute(update(LicenceRow).where(LicenceRow.document_id == alvara.id)
                        .values(holder_id=None))
    return alvara, request, filer, holder


@pytest.mark.parametrize(("form", "made", "label"), [
    ("requerimento-renovacao-escolar", _school,
     "Alvará de transporte escolar — renovação"),
    ("requerimento-renovacao-escolar", _holderless,
     "Alvará de transporte escolar — renovação"),
    ("requerimento-renovacao-alvara-fretamento", _fretamento,
     "Alvará de Licença de Circulação (fretamento) — renovação"),
], ids=["escolar", "escolar without holder", "fretamento"])
def test_preparar_ato_refuses_the_renewal_of_another_holders_alvara(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch,
    form: str, made: Callable[[Registry], tuple[IssuedRecord, dict[str, Any], str, str]],
    label: str,
) -> None:
    monkeypatch.setattr(web_context, "today", lambda: date(2026, 12, 4))
    alvara, request, filer, holder = made(web_context.registry)
    filed = Filings(web_context.registry).file(
        FilingInput(series="PROT", form=form, data=request, cpf_cnpj=filer,
                    name="Outra Requerente de Souza", attachments=()),
        _built, receipt_form="comprovante-protocolo",
        now=datetime(2026, 12, 3, 12, 0, tzinfo=UTC))
    drafts = len(web_context.registry.drafts())

    login(client, "clara")
    url = f"{BASE}/{filed.id}"
    refused = _post(client, f"{url}/ato", url, ato="0")  # the renewed alvará
    assert refused.status_code == 422
    message = (f"{alvara.printed} não está em nome do requerente do protocolo "
               f"{filed.protocol} (CPF/CNPJ de quem o protocolou): «{label}» só se "
               "prepara para o titular. Prepare o indeferimento, se for o caso.")
    assert errors_in(refused.text) == [message]
    assert "Titular Verdadeir" not in refused.text and holder not in refused.text
    assert only_digits(holder) not in refused.text
    case = Inbox(web_context.registry).case(filed.id)
    assert case is not None and case.draft_id is None
    assert len(web_context.registry.drafts()) == drafts  # nothing written
    # the refusal of the request is still prepared
    assert _post(client, f"{url}/ato", url, ato="1").status_code == 303
