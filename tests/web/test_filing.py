"""Filing a requerimento online: attachments, protocol number, sealed receipt, processo."""

from __future__ import annotations

import hashlib
import html
import io
import json
import re
import subprocess
import threading
from datetime import UTC, date, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hostilepdfs import javascript_open_action
from PIL import Image, ImageFile
from pypdf import PdfWriter
from sqlalchemy import select
from webhelpers import REQ, csrf_of, example

from lavra.errors import InputError, LavraError
from lavra.registry.filings import Attachment, FilingInput, Filings
from lavra.registry.records import LOCAL_TZ, Built
from lavra.registry.store import open_registry
from lavra.registry.tables import (
    FilingAttachmentRow,
    FilingRow,
    PartyRow,
    ProcessoActRow,
    ProcessoRow,
)
from lavra.web import WebContext
from lavra.web.pdftasks import check_image

CNPJ = "65.563.842/0001-05"


def _pdf(**options: Any) -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    if options.get("password"):
        writer.encrypt(options["password"])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(out, format="PNG")
    return out.getvalue()


def _items(client: TestClient) -> tuple[str, list[str]]:
    """The filing page's CSRF token and the checklist items it asks files for."""
    token = csrf_of(client, f"/requerimentos/{REQ}")
    response = client.post(f"/requerimentos/{REQ}/protocolar",
                           data={"csrf": token, "_acao": "protocolar"})
    assert response.status_code == 200, response.text[:500]
    assert "Documentos a anexar" in response.text
    return token, re.findall(r'name="(anexo:[^"]+)"', response.text)


def _file(client: TestClient, files: list[tuple[str, tuple[str, bytes, str]]], **extra: str
          ) -> Any:
    token = csrf_of(client, f"/requerimentos/{REQ}")
    fields = {"csrf": token, "dados": json.dumps(example(REQ), ensure_ascii=False),
              "nome": "Viação Exemplo de Fretamento Ltda.", "documento": CNPJ,
              "confirmo": "sim", **extra}
    return client.post(f"/requerimentos/{REQ}/protocolar/confirmar", data=fields,
                       files=files or None, follow_redirects=False)


def _count(ctx: WebContext) -> tuple[int, int]:
    with ctx.registry.read_session() as session:
        return (len(session.scalars(select(FilingRow)).all()),
                len(session.scalars(select(FilingAttachmentRow)).all()))


def test_filing_with_two_attachments(client: TestClient, web_context: WebContext) -> None:
    _, items = _items(client)
    assert len(items) >= 2
    pdf, png = _pdf(), _png()
    response = _file(client, [(items[0], ("crlv.pdf", pdf, "application/pdf")),
                              (items[1], ("foto.jpg", png, "image/jpeg"))])
    assert response.status_code == 303, response.text[:800]
    code = response.headers["location"].rsplit("/", 1)[-1]
    shown = client.get(response.headers["location"])
    assert shown.status_code == 200
    protocol = re.search(r'id="numero-protocolo">([^<]+)<', shown.text)
    assert protocol is not None and protocol.group(1).startswith("PROT nº ")

    receipt = client.get(f"/verificar/{code}/documento.pdf")
    assert receipt.status_code == 200
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=receipt.content,
                          capture_output=True, check=True).stdout.decode()
    flat = " ".join(text.split())
    filed = Filings(web_context.registry).by_receipt(
        web_context.registry.by_code(code).id)  # type: ignore[union-attr]
    assert filed is not None
    assert protocol.group(1) in flat and "Viação Exemplo de Fretamento Ltda." in flat
    assert "65.563.***/****-05" in flat and "65.563.842/0001-05" not in flat
    assert "crlv.pdf" in flat and "foto.jpg (image/png)" in flat  # type from the bytes
    hashes = "".join(text.split())
    assert hashlib.sha256(pdf).hexdigest() in hashes
    assert hashlib.sha256(png).hexdigest() in hashes
    assert filed.filed_at_local.strftime("%d/%m/%Y, às %H:%M") in flat
    assert code in flat

    verified = client.get(f"/verificar/{code}")
    assert verified.status_code == 200 and "Comprovante de protocolo" in verified.text
    sealed = web_context.require_issuer().verify(receipt.content)
    assert sealed.valid and sealed.registered and sealed.code == code, sealed.problems

    assert filed.status == "recebido" and filed.cpf_cnpj == "65563842000105"
    assert [a.name for a in filed.attachments] == ["crlv.pdf", "foto.jpg"]
    assert [a.size for a in filed.attachments] == [len(pdf), len(png)]
    assert filed.data == example(REQ)
    with web_context.registry.read_session() as session:
        processo = session.scalars(
            select(ProcessoRow).where(ProcessoRow.numero == filed.processo)).one()
        assert session.scalars(select(ProcessoActRow).where(
            ProcessoActRow.processo_id == processo.id)).one().document_id == filed.receipt.id
        row = session.scalars(select(FilingRow).where(FilingRow.id == filed.id)).one()
        assert row.processo_id == processo.id
        assert session.get(PartyRow, row.party_id).doc == "65563842000105"  # type: ignore[union-attr]
        stored = session.scalars(select(FilingAttachmentRow).where(
            FilingAttachmentRow.filing_id == filed.id)).all()
        assert [a.content for a in stored] == [pdf, png]


REFUSED = [
    ("foto.pdf", b"GIF89a" + b"\x00" * 40, "não é PDF, PNG nem JPEG"),
    ("quebrado.pdf", b"%PDF-1.7\n1 0 obj <<", "está danificado"),
    ("senha.pdf", _pdf(password="x"), "protegido por senha"),
    ("script.pdf", javascript_open_action(_pdf()), "conteúdo ativo"),
]


def test_refused_attachments_are_named_at_their_fields(
    client: TestClient, web_context: WebContext
) -> None:
    _, items = _items(client)
    assert len(items) >= len(REFUSED)
    before = _count(web_context)
    response = _file(client, [(item, (name, content, "application/pdf"))
                              for item, (name, content, _) in zip(items, REFUSED, strict=False)])
    assert response.status_code == 422
    assert "Nenhum dado foi gravado" in response.text
    for item, (name, _, message) in zip(items, REFUSED, strict=False):
        ident = re.search(rf'name="{re.escape(item)}"[^>]*aria-invalid="true" '
                          r'aria-describedby="([^"]+)"', response.text)
        assert ident is not None, item
        error = re.search(rf'id="{ident.group(1)}">([^<]+)<', response.text)
        assert error is not None and message in error.group(1) and name in error.group(1)
    assert _count(web_context) == before


def test_a_truncated_image_is_refused_in_a_process_where_weasyprint_allows_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """WeasyPrint sets Pillow's LOAD_TRUNCATED_IMAGES for the whole process at import; a
    sandbox worker that rendered before (or was forked from one that did) must still
    refuse a truncated attachment (found by CI: the truncated PNG passed there)."""
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)
    whole = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(whole, format="PNG")
    assert check_image(whole.getvalue()) is None
    cut = whole.getvalue()[: len(whole.getvalue()) // 2]
    assert check_image(cut) == "está danificado ou incompleto e não pode ser aberto"


def test_oversized_and_unconfirmed_are_refused(
    client: TestClient, web_context: WebContext
) -> None:
    _, items = _items(client)
    before = _count(web_context)
    limit = web_context.settings.max_attachment_bytes
    big = _pdf() + b"%" * limit
    response = _file(client, [(items[0], ("grande.pdf", big, "application/pdf"))])
    assert response.status_code == 422 and "excede o tamanho máximo" in response.text
    response = _file(client, [], confirmo="", documento="123")
    assert response.status_code == 422
    assert 'id="erro-confirmo"' in response.text and 'id="erro-documento"' in response.text
    # an image is decoded whole in the sandbox: a truncated PNG is refused at its item
    whole = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(whole, format="PNG")
    cut = whole.getvalue()[: len(whole.getvalue()) // 2]
    response = _file(client, [(items[0], ("cortado.png", cut, "image/png"))])
    assert response.status_code == 422
    assert ("O arquivo «cortado.png» está danificado ou incompleto e não pode ser aberto."
            in html.unescape(response.text))
    response = _file(client, [], licenca="ALV-FRET nº 9999/2020")
    assert response.status_code == 422
    error = re.search(r'id="erro-licenca">([^<]+)<', response.text)
    assert error is not None and "não consta do cadastro" in error.group(1)
    assert _count(web_context) == before


def test_two_filings_get_consecutive_numbers(client: TestClient) -> None:
    numbers = []
    for _ in range(2):
        response = _file(client, [], documento="017.539.359-11", nome="Maria Exemplo")
        assert response.status_code == 303
        page = client.get(response.headers["location"]).text
        found = re.search(r"PROT nº (\d{4})/(\d{4})", page)
        assert found is not None
        numbers.append(int(found.group(1)))
    assert numbers[1] == numbers[0] + 1


# ------------------------------------------------------------------ the registry alone
def _built(number: int, printed: str, moment: datetime) -> Built:
    return Built(pdf=b"%PDF-1.4 " + printed.encode(), data={"protocolo": printed},
                 computed={}, reference_date=date(2026, 3, 2),
                 verification_code=f"CODE-{number:04d}-{printed[-4:]}",
                 signer_subject="Selo", signer_serial="1", pack_version="t",
                 issued_at=moment)


def test_numbering_is_gap_free_under_concurrency(registry_url: str) -> None:
    registry = open_registry(registry_url)
    filings = Filings(registry)
    moment = datetime(2026, 3, 2, 13, 0, tzinfo=UTC)

    def entry(doc: str) -> FilingInput:
        return FilingInput(series="PROT", form="requerimento-x", data={"a": 1},
                           cpf_cnpj=doc, name="Fulana", attachments=(
                               Attachment("/documentos/a", "a.png", _png()),))

    def failing(number: int, printed: str, moment: datetime) -> Built:
        raise LavraError("falhou")

    with pytest.raises(LavraError):
        filings.file(entry("01753935911"), failing, receipt_form="comprovante", now=moment)
    results: list[str] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(filings.file(entry("01753935911"), _built,
                                        receipt_form="comprovante", now=moment).protocol)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert sorted(results) == [f"PROT nº {n:04d}/2026" for n in range(1, 5)]
    found = filings.by_protocol("PROT nº 0003/2026")
    assert found is not None and found.processo == "PROT Nº 0003/2026"
    assert found.attachments[0].content_type == "image/png"
    registry.close()


# ------------------------------------------------------------------ the leftovers
def test_double_submit_gives_one_protocol_and_the_receipt_has_labels(
    client: TestClient, web_context: WebContext
) -> None:
    token = csrf_of(client, f"/requerimentos/{REQ}")
    response = client.post(f"/requerimentos/{REQ}/protocolar",
                           data={"csrf": token, "_acao": "protocolar"})
    sent = re.search(r'name="token" value="([^"]+)"', response.text)
    assert sent is not None
    before = _count(web_context)
    first = _file(client, [], token=sent.group(1))
    second = _file(client, [], token=sent.group(1))
    assert first.status_code == second.status_code == 303
    assert second.headers["location"] == first.headers["location"] + "?repetido=1"
    assert _count(web_context)[0] == before[0] + 1
    shown = client.get(second.headers["location"]).text
    assert 'id="ja-protocolado"' in shown and "nenhum novo número" in shown
    other = _file(client, [], token=sent.group(1), documento="017.539.359-11")
    assert other.status_code == 422 and "outro requerente" in other.text
    assert _count(web_context)[0] == before[0] + 1
    # Cancelled by staff, the resend of the page is refused, naming the protocol.
    receipt = web_context.registry.by_code(first.headers["location"].rsplit("/", 1)[-1])
    assert receipt is not None
    web_context.registry.cancel(receipt.series, receipt.year, receipt.number,
                                reason="Enviado por engano.", by="Servidor")
    again = _file(client, [], token=sent.group(1))
    assert again.status_code == 422, again.text[:300]
    shown = " ".join(html.unescape(again.text).split())
    assert (f"já foi protocolado sob o {receipt.series} nº {receipt.number:04d}/"
            f"{receipt.year}, cancelado em") in shown and "(motivo: Enviado por engano)" in shown
    assert "abra o requerimento de novo" in shown and _count(web_context)[0] == before[0] + 1

    code = first.headers["location"].rsplit("/", 1)[-1]
    receipt = client.get(f"/verificar/{code}/documento.pdf")
    flat = " ".join(subprocess.run(["pdftotext", "-", "-"], input=receipt.content,
                                   capture_output=True, check=True).stdout.decode().split())
    assert "Empresa ou entidade requerente › Razão social" in flat
    assert "Relação de veículos (item 1) › Placa" in flat
    assert "razao social" not in flat and "veiculos 1" not in flat
    # values as the form shows them: an option by its label, a date dd/mm/aaaa
    assert "Relação de veículos (item 1) › Tipo de veículo Ônibus rodoviário" in flat
    assert "onibus_rodoviario" not in flat and "microonibus" not in flat
    assert "10/05/2029" in flat  # the driver's CNH, typed 2029-05-10
    assert re.search(r"\b\d{4}-\d{2}-\d{2}\b", flat) is None, flat


def test_filing_names_a_licence(registry_url: str) -> None:
    """The processo a filing opens is tied to the licence it names (own registry)."""
    from test_licensing_state import alvara_fretamento

    from lavra.registry.tables import LicenceRow
    from lavra_americana import pacote

    registry = open_registry(registry_url)
    registry.use_effects(pacote().effects)
    registry.ensure_state()
    licence = alvara_fretamento(registry)
    filings = Filings(registry)
    entry = FilingInput(series="PROT", form=REQ, data={"a": 1}, cpf_cnpj=CNPJ,
                        name="Viação Exemplo", attachments=(), licence=licence.printed)
    filed = filings.file(entry, _built, receipt_form="comprovante",
                         now=datetime(2026, 6, 1, 13, 0, tzinfo=UTC))
    assert filed.licence == licence.printed
    with registry.read_session() as session:
        row = session.scalars(select(FilingRow).where(FilingRow.id == filed.id)).one()
        tied = session.get(LicenceRow, row.licence_id)
        assert tied is not None and tied.document_id == licence.id
        assert session.get(ProcessoRow, row.processo_id).numero == filed.processo  # type: ignore[union-attr]
    unknown = "A licença «ALV-FRET nº 0099/2026» não consta do cadastro em nome do CPF/CNPJ"
    with pytest.raises(InputError, match=unknown):
        filings.file(FilingInput(series="PROT", form=REQ, data={"a": 1}, cpf_cnpj=CNPJ,
                                 name="Viação Exemplo", attachments=(),
                                 licence="ALV-FRET nº 0099/2026"), _built,
                     receipt_form="comprovante", now=datetime(2026, 6, 1, 13, 0, tzinfo=UTC))
    # another company's licence answers as an unknown one (whose it is, not said);
    # nothing is recorded, no protocol number is used
    with registry.read_session() as session:
        before = len(session.scalars(select(FilingRow)).all())
    with pytest.raises(InputError) as other:
        filings.file(FilingInput(series="PROT", form=REQ, data={"a": 1},
                                 cpf_cnpj="11222333000181", name="Outra Viação Ltda.",
                                 attachments=(), licence=licence.printed), _built,
                     receipt_form="comprovante", now=datetime(2026, 6, 1, 13, 0, tzinfo=UTC))
    assert other.value.field == "/licenca"
    assert other.value.message == (
        f"A licença «{licence.printed}» não consta do cadastro em nome do CPF/CNPJ do "
        "requerente. Confira o número.")
    with registry.read_session() as session:
        assert len(session.scalars(select(FilingRow)).all()) == before
    registry.close()


def test_same_token_files_once_under_concurrency(registry_url: str) -> None:
    registry = open_registry(registry_url)
    filings = Filings(registry)
    entry = FilingInput(series="PROT", form=REQ, data={"a": 1}, cpf_cnpj=CNPJ,
                        name="Viação Exemplo", attachments=(), token="t" * 32)
    results: list[str] = []

    def run() -> None:
        results.append(filings.file(entry, _built, receipt_form="comprovante",
                                    now=datetime(2026, 6, 1, 13, 0, tzinfo=UTC)).protocol)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == ["PROT nº 0001/2026"] * 3
    assert registry.next_number("PROT", 2026) == 2
    found = filings.by_token("t" * 32, "65563842000105")
    assert found is not None and found.protocol == "PROT nº 0001/2026"
    with pytest.raises(InputError, match="outro requerente"):
        filings.file(FilingInput(series="PROT", form=REQ, data={"a": 1},
                                 cpf_cnpj="017.539.359-11", name="Outra", attachments=(),
                                 token="t" * 32), _built, receipt_form="comprovante")
    # The receipt cancelled, a resend of the same page is refused saying so (never the
    # cancelled receipt presented as the filing), and no number is taken.
    cancelled = registry.cancel("PROT", 2026, 1, reason="Requerimento enviado em duplicidade.",
                                by="Servidor").cancelled_at
    assert cancelled is not None  # the day as the registry recorded it, in Americana
    said = ("Este formulário já foi protocolado sob o PROT nº 0001/2026, cancelado em "
            f"{cancelled.astimezone(LOCAL_TZ):%d/%m/%Y} (motivo: Requerimento enviado em "
            "duplicidade). Para protocolá-lo, abra o requerimento de novo e envie-o.")
    for retry in (lambda: filings.file(entry, _built, receipt_form="comprovante"),
                  lambda: filings.by_token("t" * 32, CNPJ)):
        with pytest.raises(InputError) as refused:
            retry()
        assert refused.value.message == said and refused.value.field == "/token"
    assert registry.next_number("PROT", 2026) == 2
    registry.close()
