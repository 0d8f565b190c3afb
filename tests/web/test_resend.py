"""Sending again a document the staff refused, from the tracking page (issue 26): until
the last day of the refusal the replacement is read as a filing's files are and kept
against the filing, which goes back to the inbox with the document «reenviado»; after
the last day it is refused in pt-BR and nothing is written. Read back from the registry."""

from __future__ import annotations

import html
import re
import struct
import zlib
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


def _refused_from_ciencia(web_context: WebContext, placa: str,
                          deadline: date | None = None) -> tuple[Inbox, Any, int]:
    """A filing of 01/12/2026 whose image staff refused on 02/12, its period to run from
    the ciência (the pack's reading), or to end on the ``deadline`` staff typed."""
    inbox = Inbox(web_context.registry)
    filed, _ = _filed(web_context, placa, datetime(2026, 12, 1, 13, 5, tzinfo=UTC))
    png_id = filed.attachments[1].id
    inbox.review(filed.id, png_id, accepted=False, reason=REASON, deadline=deadline,
                 by="Clara", from_ciencia=deadline is None,
                 now=datetime(2026, 12, 2, 12, 0, tzinfo=UTC))
    return inbox, filed, png_id


def test_the_period_runs_from_the_ciencia_of_the_refusal(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lei nº 9.784/1999, art. 66 counts from the «cientificação oficial» (arts. 26, 39):
    a refusal in the inbox starts no period until the applicant's ciência, taken on the
    tracking page (or by sending the document again); then the last day shows."""
    inbox, filed, _ = _refused_from_ciencia(web_context, "CIE1A26")
    monkeypatch.setattr(web_context, "today", lambda: date(2026, 12, 4))
    monkeypatch.setattr(web_context, "now", lambda: datetime(2026, 12, 4, 14, 0, tzinfo=UTC))

    before = _plain(_track(client, filed.protocol).text)
    assert "Prazo para reenviar: 10 (dez) dias, contados da ciência da recusa" in before
    assert "Último dia para reenviar" not in before and "Tomar ciência da recusa" in before

    def take(doc: str = CNPJ) -> Any:
        return client.post("/acompanhar/ciencia-recusa", data={
            "csrf": csrf_of(client, "/acompanhar"), "protocolo": filed.protocol,
            "documento": doc})

    assert take("529.982.247-25").status_code == 404  # another CPF: an unknown protocol
    assert inbox.case(filed.id).awaiting_ciencia  # type: ignore[union-attr]
    taken = take()
    assert taken.status_code == 200
    text = _plain(taken.text)
    # 04/12 + 10 days = Monday 14/12/2026 (art. 66: the day of the ciência excluded)
    assert "Ciência da recusa registrada: o último dia para reenviar é 14/12/2026." in text
    assert "Último dia para reenviar: 14/12/2026" in text
    assert ("Ciência da recusa em 04/12/2026 às 11:00 (horário de Brasília), por acesso "
            "eletrônico pelo acompanhamento.") in text
    assert "Tomar ciência da recusa" not in text
    case = inbox.case(filed.id)
    assert case is not None and case.deadline == date(2026, 12, 14)
    assert case.ciencia_means == "eletronico" and case.ciencia_at == datetime(
        2026, 12, 4, 14, 0, tzinfo=UTC)
    assert case.ciencia_by == f"{filed.name}, requerente do protocolo {filed.protocol}"

    monkeypatch.setattr(web_context, "now", lambda: datetime(2026, 12, 9, 14, 0, tzinfo=UTC))
    again = _plain(take().text)  # the first ciência counts
    assert "A ciência da recusa já consta do registro: o último dia para reenviar é 14/12/2026." \
        in again
    assert inbox.case(filed.id).deadline == date(2026, 12, 14)  # type: ignore[union-attr]

    login(client, "clara")
    staff = _plain(client.get(f"/equipe/protocolos/{filed.id}").text)
    assert ("Prazo para apresentar o que falta até 14/12/2026 (ciência da recusa em "
            "04/12/2026 às 11:00)") in staff


def test_sending_again_before_the_ciencia_records_it(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    inbox, filed, png_id = _refused_from_ciencia(web_context, "CIE2B26")
    # long after the refusal: no period ran without the ciência
    monkeypatch.setattr(web_context, "today", lambda: date(2027, 1, 20))
    monkeypatch.setattr(web_context, "now", lambda: datetime(2027, 1, 20, 15, 0, tzinfo=UTC))
    sent = _resend(client, filed.protocol, png_id, _png())
    assert sent.status_code == 200, _plain(sent.text)[:800]
    case = inbox.case(filed.id)
    assert case is not None and case.status is FilingStatus.REVIEWING and len(case.resent) == 1
    assert case.ciencia_at == datetime(2027, 1, 20, 15, 0, tzinfo=UTC)
    # a new refusal is a new intimação: the ciência on record no longer counts
    inbox.review(filed.id, case.resent[0].id, accepted=False, reason=REASON, deadline=None,
                 by="Clara", from_ciencia=True, now=datetime(2027, 1, 21, 12, 0, tzinfo=UTC))
    again = inbox.case(filed.id)
    assert again is not None and again.awaiting_ciencia and again.ciencia_at is None


def test_staff_record_the_ciencia_of_the_refusal_with_lavra_fato(
    web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from lavra.cli.main import main

    inbox = Inbox(web_context.registry)
    filed, _ = _filed(web_context, "CIE3C26", datetime(2026, 10, 1, 13, 5, tzinfo=UTC))
    monkeypatch.setenv("LAVRA_DATA", str(web_context.config.data_dir))
    monkeypatch.delenv("LAVRA_DATABASE_URL", raising=False)

    def fato(*args: str) -> Any:
        return CliRunner().invoke(main, ["fato", "ciencia", filed.protocol, *args,
                                         "--por", "Clara"])

    nothing = fato("--data", "2026-10-07", "--meio", "ar")
    assert nothing.exit_code != 0
    assert "não tem documento recusado à espera da ciência" in nothing.output
    inbox.review(filed.id, filed.attachments[0].id, accepted=False, reason=REASON,
                 deadline=None, by="Clara", from_ciencia=True,
                 now=datetime(2026, 10, 2, 12, 0, tzinfo=UTC))
    early = fato("--data", "2026-10-01", "--meio", "ar")
    assert early.exit_code != 0 and "anterior à recusa" in early.output
    done = fato("--data", "2026-10-07", "--meio", "ar", "--referencia", "AR BR123")
    assert done.exit_code == 0, done.output
    # 07/10 + 10 days = Saturday 17/10/2026: the next business day, Monday 19/10
    assert (f"Ciência da recusa de documento do protocolo {filed.protocol} registrada (por "
            "aviso de recebimento (AR)); último dia para reenviar: 19/10/2026.") in done.output
    case = inbox.case(filed.id)
    assert case is not None and case.deadline == date(2026, 10, 19)
    assert case.ciencia_means == "ar" and case.ciencia_by == "Clara"


def _bomb_png(side: int = 30_000) -> bytes:
    """A PNG whose header declares side × side pixels (900 million) over a few bytes of
    data: the decompression bomb its header alone gives away."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def test_an_image_sent_again_is_decoded_in_the_sandbox(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    inbox, filed, png_id = _refused_from_ciencia(web_context, "IMG1A26", date(2026, 12, 14))
    monkeypatch.setattr(web_context, "today", lambda: date(2026, 12, 10))
    whole = _png()
    for content, name, reason in (
            (whole[: len(whole) // 2], "cortado.png",
             "está danificado ou incompleto e não pode ser aberto"),
            (_bomb_png(), "bomba.png", "tem dimensões excessivas; envie uma digitalização "
             "de até 50 milhões de pixels")):
        refused = _resend(client, filed.protocol, png_id, content, name)
        assert refused.status_code == 422
        assert f"O arquivo «{name}» {reason}." in _plain(refused.text)
        assert f'aria-describedby="erro-reenvio-{png_id}"' in refused.text
    case = inbox.case(filed.id)
    assert case is not None and len(case.filed.attachments) == 2 and case.resent == ()
