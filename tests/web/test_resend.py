"""Sending again a document the staff refused, from the tracking page (issue 26): until
the last day of the refusal the replacement is read as a filing's files are and kept
against the filing, which goes back to the inbox with the document «reenviado»; after
the last day it is refused in pt-BR and nothing is written. Read back from the registry."""

from __future__ import annotations

import html
import re
from datetime import UTC, date, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_inbox import CNPJ, ITEMS, _filed, _png
from webhelpers import csrf_of, login

from lavra.registry.filing_status import FilingStatus
from lavra.registry.filings import Filings
from lavra.registry.inbox import Inbox
from lavra.web import WebContext

REASON = "Laudo ilegível: envie a digitalização completa."


def _track(client: TestClient, protocol: str, doc: str = CNPJ) -> Any:
    return client.post("/acompanhar", data={"csrf": csrf_of(client, "/acompanhar"),
                                            "protocolo": protocol, "documento": doc})


def _resend(client: TestClient, protocol: str, attachment: int, content: bytes,
            name: str = "laudo-novo.png", doc: str = CNPJ) -> Any:
    token = csrf_of(client, "/acompanhar")
    return client.post("/acompanhar/reenviar",
                       data={"csrf": token, "protocolo": protocol, "documento": doc,
                             "anexo": str(attachment)},
                       files={"arquivo": (name, content, "application/octet-stream")})


def _plain(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_a_refused_document_sent_again_within_the_last_day(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    inbox = Inbox(web_context.registry)
    filed, _ = _filed(web_context, "REE1A26", datetime(2026, 12, 1, 13, 5, tzinfo=UTC))
    pdf_id, png_id = (a.id for a in filed.attachments)
    inbox.review(filed.id, png_id, accepted=False, reason=REASON,
                 deadline=date(2026, 12, 14), by="Clara",
                 titles={ITEMS[1]: "Comprovante de inspeção veicular"})
    monkeypatch.setattr(web_context, "today", lambda: date(2026, 12, 14))  # the last day

    shown = _track(client, filed.protocol)
    assert shown.status_code == 200
    text = _plain(shown.text)
    assert "Situação pendente" in text
    assert (f"Comprovante de inspeção veicular («inspecao.png»): {REASON} Último dia para "
            "reenviar: 14/12/2026") in text
    assert f'id="reenviar-{png_id}"' in shown.text and f'id="reenviar-{pdf_id}"' not in shown.text

    # not a PDF, PNG nor JPEG: refused at the item, nothing kept
    bad = _resend(client, filed.protocol, png_id, b"texto qualquer", "laudo.txt")
    assert bad.status_code == 422
    assert "«laudo.txt» não é PDF, PNG nem JPEG" in _plain(bad.text)
    assert 'aria-describedby="erro-reenvio-' in bad.text
    assert len(Filings(web_context.registry).by_protocol(filed.protocol).attachments) == 2
    # another CPF/CNPJ: as an unknown protocol
    assert _resend(client, filed.protocol, png_id, _png(), doc="529.982.247-25"
                   ).status_code == 404

    content = _png()
    sent = _resend(client, filed.protocol, png_id, content)
    assert sent.status_code == 200, _plain(sent.text)[:800]
    text = _plain(sent.text)
    assert "O arquivo «laudo-novo.png» foi recebido e será analisado pela Secretaria." in text
    assert "Comprovante de inspeção veicular: «laudo-novo.png», reenviado em" in text
    assert f'id="reenviar-{png_id}"' not in sent.text

    case = inbox.case(filed.id)
    assert case is not None and case.status is FilingStatus.REVIEWING
    assert case.refused == () and case.deadline is None and case.missing == ()
    (new,) = case.resent
    assert new.replaces == png_id and new.item == ITEMS[1] and new.name == "laudo-novo.png"
    assert new.sent_at is not None
    stored = Filings(web_context.registry).attachment(new.id)
    assert stored is not None and stored[1] == content
    assert case.replacement(next(a for a in case.filed.attachments if a.id == png_id)) == new

    again = _resend(client, filed.protocol, png_id, _png())  # one replacement per refusal
    assert again.status_code == 422
    assert "Este documento não aguarda reenvio" in _plain(again.text)

    login(client, "clara")
    page = _plain(client.get(f"/equipe/protocolos/{filed.id}").text)
    assert "Reenviado pelo requerente em" in page
    assert "Substituído por «laudo-novo.png», reenviado pelo requerente." in page
    listing = _plain(client.get("/equipe/protocolos").text)
    assert re.search(re.escape(filed.protocol) + r".{0,300}reenviado", listing), listing[:2000]


def test_after_the_last_day_the_document_is_refused(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    inbox = Inbox(web_context.registry)
    filed, _ = _filed(web_context, "REE2B26", datetime(2026, 12, 1, 13, 5, tzinfo=UTC))
    pdf_id = filed.attachments[0].id
    inbox.review(filed.id, pdf_id, accepted=False, reason="Cartão CNPJ de outra empresa.",
                 deadline=date(2026, 12, 14), by="Clara")
    monkeypatch.setattr(web_context, "today", lambda: date(2026, 12, 15))

    shown = _plain(_track(client, filed.protocol).text)
    assert ("O prazo para reenviar este documento terminou em 14/12/2026; o reenvio pela "
            "internet não é mais possível.") in shown
    late = _resend(client, filed.protocol, pdf_id, _png())  # a form kept open in a tab
    assert late.status_code == 422
    assert ("O prazo para reenviar este documento terminou em 14/12/2026. O documento não "
            "foi recebido") in _plain(late.text)
    case = inbox.case(filed.id)
    assert case is not None and case.status is FilingStatus.PENDING
    assert len(case.filed.attachments) == 2 and case.resent == ()
