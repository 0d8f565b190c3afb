"""What the sandbox runs on uploaded PDFs and images, in a warm worker of the shared pool.

Each function takes and returns plain values only.
"""

from __future__ import annotations

import io
from datetime import date
from typing import Any

from lavra.errors import InputError

PDF_MAGIC = b"%PDF-"
#: Same key as ``lavra.documents.FORM_ID_KEY`` (not imported: it would load WeasyPrint
#: into the sandboxed child); a test keeps both equal.
FORM_ID_KEY = "/LavraFormulario"


def check_pdf_bytes(pdf: bytes) -> None:
    """Refuse what is obviously not a PDF before starting a process for it."""
    if not pdf:
        raise InputError("Nenhum arquivo foi enviado.", field="/arquivo")
    if PDF_MAGIC not in pdf[:1024]:
        raise InputError("O arquivo enviado não é um PDF.", field="/arquivo")


def read_requerimento(
    pdf: bytes, schemas: dict[str, dict[str, Any]], form_id: str | None
) -> dict[str, Any]:
    """The form id (from the PDF or given) and the raw data typed into its fields.

    ``schemas``: form id → JSON Schema with ``$ref`` inlined, for the forms that may be
    read. Returns ``{"form": id, "data": {...}, "alertas": [...]}``, the warnings about
    active content (:func:`lavra.signing.pdfinspect.inspect_pdf`).
    """
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    from lavra.render.fillable.reading import read_fields

    found = form_id
    if not found:
        try:
            info = PdfReader(io.BytesIO(pdf)).metadata
        except (PyPdfError, ValueError, KeyError, OSError, TypeError, AttributeError):
            raise InputError("O arquivo enviado não é um PDF legível.") from None
        value = info.get(FORM_ID_KEY) if info else None
        found = str(value) if value else None
    if not found:
        raise InputError(
            "O PDF não identifica o formulário: não foi gerado por este sistema. "
            "Indique o formulário."
        )
    if found not in schemas:
        raise InputError(f"O PDF traz um formulário que não é um requerimento aceito: «{found}».")
    data = read_fields(pdf, schemas[found])
    return {"form": found, "data": data, "alertas": list(_alerts(pdf))}


#: The verifier a worker keeps between verifications, by the repr of its configuration
#: (opening the registry costs more than a verification). It reads the trust roots,
#: revocation files and registry afresh on every verification, so keeping it changes
#: nothing but the time. It needs neither the content pack nor the renderer.
_VERIFIERS: dict[str, Any] = {}


def _verifier(config: Any) -> Any:
    key = repr(config)
    verifier = _VERIFIERS.get(key)
    if verifier is None:
        import importlib

        verifying = importlib.import_module("lavra.verifying")
        for previous in _VERIFIERS.values():
            previous.close()
        _VERIFIERS.clear()
        verifier = verifying.Verifier.from_config(config)
        _VERIFIERS[key] = verifier
    return verifier


def verify_document(pdf: bytes, config: Any, on: date | None = None) -> dict[str, Any]:
    """The verification of a PDF (:class:`lavra.verifying.Verifier`), as JSON-ready values;
    with ``on``, the status on that date of the licence the document granted, as the
    public page tells it (nobody's personal data: a transfer without the name)."""
    result = _verifier(config).verify(pdf, on=on, personal=False)
    payload = result.to_json()
    if not isinstance(payload, dict):
        raise InputError("A verificação não produziu um resultado legível.")
    payload["alertas"] = list(_alerts(pdf))
    return payload


def _alerts(pdf: bytes) -> tuple[str, ...]:
    """Warnings about the file's active content (JavaScript, attachments, XFA...)."""
    from lavra.signing.pdfinspect import inspect_pdf

    return inspect_pdf(pdf)


def check_attachment(pdf: bytes) -> str | None:
    """Why a PDF attached to a filing is refused, or None: it must open, have pages,
    not be encrypted, and carry no JavaScript, launch or submit actions nor embedded
    files (:mod:`lavra.signing.pdfinspect`). Plain values in and out (sandboxed)."""
    from pypdf import PdfReader

    from lavra.signing.pdfinspect import MESSAGES, Active, inspect_pdf

    try:
        reader = PdfReader(io.BytesIO(pdf), strict=False)
        if reader.is_encrypted:
            return "está protegido por senha ou criptografado; envie-o sem proteção"
        if len(reader.pages) == 0:
            return "não tem páginas"
    except Exception:  # a parser failure on a hostile file is a refusal, not a crash
        return "está danificado e não pode ser aberto"
    refused = {MESSAGES[kind] for kind in (
        Active.JAVASCRIPT, Active.LAUNCH, Active.EMBEDDED_FILE, Active.FILE_ATTACHMENT,
        Active.SUBMIT_FORM, Active.IMPORT_DATA, Active.UNREADABLE, Active.INCOMPLETE)}
    if any(message in refused for message in inspect_pdf(pdf)):
        return ("contém conteúdo ativo (JavaScript, ações ou arquivos embutidos) ou não pôde "
                "ser examinado; envie uma cópia simples do documento")
    return None


#: The most pixels an attached image may have: an A4 page scanned at 600 dpi is about
#: 35 million; more is no document scan, and decoding it is a decompression bomb.
MAX_IMAGE_PIXELS = 50_000_000


def check_image(content: bytes) -> str | None:
    """Why a PNG or JPEG attached to a filing is refused, or None: its header must
    declare at most :data:`MAX_IMAGE_PIXELS` (read before decoding anything) and the
    whole image must decode (a truncated or corrupt file is refused). Plain values in
    and out (sandboxed: the decoder runs under the worker's time and memory limits)."""
    import warnings

    from PIL import Image, ImageFile

    Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
    # WeasyPrint sets LOAD_TRUNCATED_IMAGES at import, for the whole process: a worker
    # that has rendered (or was forked from one that has) would then load a truncated
    # file as if whole. The attachment's check wants the strict decoder.
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            # opening reads the header alone, and refuses over MAX_IMAGE_PIXELS
            with Image.open(io.BytesIO(content)) as image:
                if image.format not in ("PNG", "JPEG"):
                    return "não é PNG nem JPEG"
                image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return ("tem dimensões excessivas; envie uma digitalização de até 50 milhões de "
                "pixels")
    except Exception:  # a decoder failure on a hostile file is a refusal, not a crash
        return "está danificado ou incompleto e não pode ser aberto"
    return None
