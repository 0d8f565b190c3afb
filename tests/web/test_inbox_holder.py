"""«Preparar ato» of a renewal names the licence the request names: only for its holder
(the CPF/CNPJ that filed the request, as the renewal run selects holders). A request
naming someone else's alvará is refused at the licence's field, without saying whose it
is, and nothing is written (issue 26)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from fastapi.testclient import TestClient
from identities import cpf_for, set_person, set_vehicle
from test_inbox import BASE, _built, _post
from test_licensing_state import act
from webhelpers import errors_in, example, login

from lavra.registry.filings import FilingInput, Filings
from lavra.registry.inbox import Inbox
from lavra.web import WebContext

REN = "requerimento-renovacao-escolar"


def test_preparar_ato_refuses_the_renewal_of_another_persons_alvara(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_context, "today", lambda: date(2026, 12, 4))
    data = example("alvara-transporte-escolar")
    holder = cpf_for("titular do alvará, hold26")
    set_person(data["titular"], holder)
    data["titular"]["nome"] = "Titular Verdadeiro da Silva"
    set_vehicle(data["veiculo"], "HLD1A26")
    alvara = act(web_context.registry, "ALV-ESC", "alvara-transporte-escolar", data,
                 on=date(2026, 3, 10),
                 computed={"inicio_vigencia": "2026-03-10", "valido_ate": "2026-12-31"})
    request = example(REN)
    filer = cpf_for("outra pessoa, hold26")
    set_person(request["requerente"], filer)
    request["alvara_anterior"]["numero"] = alvara.printed
    filed = Filings(web_context.registry).file(
        FilingInput(series="PROT", form=REN, data=request, cpf_cnpj=filer,
                    name="Outra Pessoa de Souza", attachments=()),
        _built, receipt_form="comprovante-protocolo",
        now=datetime(2026, 12, 3, 12, 0, tzinfo=UTC))
    drafts = len(web_context.registry.drafts())

    login(client, "clara")
    url = f"{BASE}/{filed.id}"
    refused = _post(client, f"{url}/ato", url, ato="0")  # the renewed alvará
    assert refused.status_code == 422
    message = (f"{alvara.printed} não está em nome do requerente do protocolo "
               f"{filed.protocol} (CPF/CNPJ de quem o protocolou): «Alvará de transporte "
               "escolar — renovação» só se prepara para o titular. Prepare o "
               "indeferimento, se for o caso.")
    assert errors_in(refused.text) == [message]
    assert "Titular Verdadeiro" not in refused.text and holder not in refused.text
    assert holder.replace(".", "").replace("-", "") not in refused.text
    case = Inbox(web_context.registry).case(filed.id)
    assert case is not None and case.draft_id is None
    assert len(web_context.registry.drafts()) == drafts  # nothing written
    # the refusal of the request is still prepared
    assert _post(client, f"{url}/ato", url, ato="1").status_code == 303
