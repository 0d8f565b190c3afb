"""The external checks of issued files (tests/outputcheck.py) catch what they must."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest
import weasyprint
from outputcheck import docx_problems, docx_problems_each, pdf_problems

from lavra.signing.pades import DocumentSigner
from lavra.signing.pki import init_dev_pki

needs_tools = pytest.mark.skipif(
    shutil.which("pdfsig") is None or shutil.which("qpdf") is None,
    reason="pdfsig/qpdf ausentes (apt-get install poppler-utils qpdf)",
)


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    pki = init_dev_pki(tmp_path_factory.mktemp("pki"), {"secretario-transportes": "Secretário"})
    pdf = weasyprint.HTML(string="<h1>Alvará</h1><p>Texto.</p>").write_pdf(pdf_variant="pdf/a-3b")
    signer = DocumentSigner(pki.load("secretario-transportes"), cargo="Secretário")
    return signer.sign(
        bytes(pdf), signer_name="Fulano", field_box=(56.0, 56.0, 330.0, 120.0),
        reason="Teste", location="Americana/SP",
    ).pdf


@needs_tools
def test_a_signed_pdf_passes_pdfsig_and_qpdf(signed: bytes) -> None:
    assert pdf_problems(signed) == []


@needs_tools
def test_an_altered_signed_range_fails_pdfsig(signed: bytes) -> None:
    position = signed.index(b"Alvar") if b"Alvar" in signed else len(signed) // 4
    altered = signed[:position] + bytes([signed[position] ^ 0x01]) + signed[position + 1 :]
    problems = pdf_problems(altered)
    assert problems and "pdfsig" in problems[0]


@needs_tools
def test_an_unsigned_or_appended_pdf_is_not_totally_signed(signed: bytes) -> None:
    assert any("pdfsig" in p for p in pdf_problems(signed + b"\n% depois da assinatura\n"))
    unsigned = bytes(weasyprint.HTML(string="<p>x</p>").write_pdf())
    assert any("pdfsig" in p for p in pdf_problems(unsigned))


@needs_tools
def test_a_broken_structure_fails_qpdf(signed: bytes) -> None:
    broken = signed.replace(b"startxref", b"startxrex")
    assert any("qpdf" in p for p in pdf_problems(broken))


def test_a_docx_python_docx_cannot_open_is_reported(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", "<w:document/>")  # no [Content_Types].xml
    assert docx_problems(buffer.getvalue())
    assert docx_problems(b"PK isto nao e um docx")


def test_docx_checked_together_are_each_judged_alone() -> None:
    """One LibreOffice run converts them all; only the broken one has a problem."""
    import docx as python_docx

    buffer = io.BytesIO()
    python_docx.Document().save(buffer)
    good = buffer.getvalue()
    first, broken, last = docx_problems_each([good, b"PK isto nao e um docx", good])
    assert first == [] and last == []
    assert broken and "python-docx" in broken[0]
