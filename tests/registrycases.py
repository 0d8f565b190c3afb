"""Helpers shared by the registry tests: a ``build`` that makes a real PDF per number."""

from __future__ import annotations

import io
import uuid
from collections.abc import Callable
from datetime import date
from typing import Any

from pypdf import PdfReader, PdfWriter

from lavra.registry.records import Built, search_keys


def pdf_with_title(title: str) -> bytes:
    """A real one-page PDF whose title is ``title`` (stands in for the signed document)."""
    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)
    writer.add_metadata({"/Title": title})
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def title_of(pdf: bytes) -> str:
    meta = PdfReader(io.BytesIO(pdf)).metadata
    assert meta is not None
    return str(meta.title)


def builder(
    data: dict[str, Any],
    *,
    reference: date = date(2026, 3, 2),
    valid_until: date | None = None,
    calls: list[int] | None = None,
) -> Callable[[int, str], Built]:
    """A ``build`` that renders the number into a real PDF and reports its search keys."""

    def build(number: int, formatted: str) -> Built:
        if calls is not None:
            calls.append(number)
        holder, plate = search_keys(data)
        computed: dict[str, Any] = {"numero": formatted}
        if valid_until is not None:
            computed["valido_ate"] = valid_until
        return Built(
            pdf=pdf_with_title(f"Documento nº {formatted}"),
            docx=b"PK docx " + formatted.encode(),
            data=data,
            computed=computed,
            reference_date=reference,
            verification_code=uuid.uuid4().hex[:20].upper(),
            signer_subject="CN=Servidor de Teste, O=Prefeitura (sem validade jurídica)",
            signer_serial="0A1B2C",
            pack_version="americana-2026.1",
            cpf_cnpj=holder,
            placa=plate,
        )

    return build
