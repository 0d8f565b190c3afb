"""Every document the test suite issues is checked by tools no one here wrote.

An autouse fixture (loaded by tests/conftest.py) wraps ``Issuer.issue``: each PDF issued
during a test is read by poppler's ``pdfsig`` (every signature valid, the whole document
signed) and by ``qpdf --check`` (no error, no warning); each DOCX is opened with
python-docx and, where LibreOffice is installed, converted by it. A bad file fails the
test that issued it, at its teardown. Without pdfsig or qpdf the PDF checks are skipped,
except under CI (``CI=true``), where their absence is a failure.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

ON_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _tool(name: str) -> str | None:
    found = shutil.which(name)
    if found is None and ON_CI:
        pytest.fail(f"{name} ausente: sob CI=true os PDFs emitidos precisam ser conferidos por ele")
    return found


def pdf_problems(pdf: bytes) -> list[str]:
    """What pdfsig and qpdf find wrong with ``pdf`` (empty when both accept it)."""
    pdfsig, qpdf = _tool("pdfsig"), _tool("qpdf")
    if pdfsig is None or qpdf is None:
        return []
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="lavra-pdfcheck-") as folder:
        path = Path(folder) / "documento.pdf"
        path.write_bytes(pdf)
        # -nocert: the development root is not in any trust store; the signature itself
        # (digest over the signed ranges, CMS) is what is validated here.
        sig = subprocess.run(
            [pdfsig, "-nocert", str(path)], capture_output=True, text=True, timeout=60
        )
        out = sig.stdout
        signatures = out.count("Signature #")
        if sig.returncode != 0 or signatures == 0:
            problems.append(f"pdfsig (código {sig.returncode}): {out.strip()} {sig.stderr.strip()}")
        elif out.count("Signature Validation: Signature is Valid.") != signatures:
            problems.append(f"pdfsig: assinatura inválida:\n{out}")
        elif "Total document signed" not in out.rsplit("Signature #", 1)[-1]:
            # the last signature of an incrementally signed file must cover it all
            problems.append(f"pdfsig: a assinatura não cobre o documento inteiro:\n{out}")
        check = subprocess.run(
            [qpdf, "--check", str(path)], capture_output=True, text=True, timeout=60
        )
        if check.returncode != 0 or "WARNING" in check.stdout + check.stderr:
            problems.append(
                f"qpdf --check (código {check.returncode}): {check.stdout}{check.stderr}"
            )
    return problems


def docx_problems(docx: bytes) -> list[str]:
    """What python-docx (and LibreOffice, when installed) find wrong with ``docx``."""
    return docx_problems_each([docx])[0]


def docx_problems_each(docxs: Sequence[bytes]) -> list[list[str]]:
    """What python-docx (and LibreOffice, when installed) find wrong with each of ``docxs``.

    LibreOffice converts them all in one run of ``soffice`` (its start, a fresh profile,
    is most of the cost of a conversion: ≈ 1.5 s each, 49 DOCX in a demo); a DOCX it
    gave no PDF for is a problem of that DOCX."""
    import docx as python_docx

    problems: list[list[str]] = [[] for _ in docxs]
    opened: list[int] = []
    for index, docx in enumerate(docxs):
        try:
            python_docx.Document(io.BytesIO(docx))
        except Exception as error:  # any failure to open is the finding
            problems[index].append(f"python-docx não abre o DOCX: {type(error).__name__}: {error}")
        else:
            opened.append(index)
    soffice = shutil.which("soffice")
    if soffice is None or not opened:
        return problems
    with tempfile.TemporaryDirectory(prefix="lavra-docxcheck-") as folder:
        sources = []
        for index in opened:
            source = Path(folder) / f"documento-{index}.docx"
            source.write_bytes(docxs[index])
            sources.append(str(source))
        run = subprocess.run(
            [soffice, f"-env:UserInstallation=file://{folder}/perfil", "--headless",
             "--convert-to", "pdf", "--outdir", folder, *sources],
            capture_output=True, text=True, timeout=180 + 20 * len(sources),
        )
        missing = [i for i in opened if not (Path(folder) / f"documento-{i}.pdf").is_file()]
        # a failed run that still converted every DOCX cannot say whose it was: all of them
        for index in missing or (opened if run.returncode != 0 else []):
            problems[index].append(f"LibreOffice não converte o DOCX: {run.stdout}{run.stderr}")
    return problems


@pytest.fixture(autouse=True)
def _issued_files_pass_external_checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from lavra.issuing import Issuer

    issued: dict[str, tuple[str, bytes]] = {}
    original = Issuer.issue

    def issue(self: Issuer, *args: Any, **kwargs: Any) -> Any:
        result = original(self, *args, **kwargs)
        for kind, content in (("pdf", result.pdf), ("docx", result.docx)):
            if content:
                issued.setdefault(hashlib.sha256(content).hexdigest(), (kind, content))
        return result

    monkeypatch.setattr(Issuer, "issue", issue)
    yield
    problems: list[str] = []
    for kind, content in issued.values():
        if kind == "pdf":
            problems.extend(f"PDF emitido: {problem}" for problem in pdf_problems(content))
    docxs = [content for kind, content in issued.values() if kind == "docx"]
    for found in docx_problems_each(docxs):
        problems.extend(f"DOCX emitido: {problem}" for problem in found)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
