"""Issued documents with each renderer: layout, layout + signature, and the whole build.

    python bench/bench_renderers.py 50 [FORMULARIO ...]

Run from the repository root with ``PYTHONPATH=engine:.:tests``. For each form (default:
the documents of the renewal runs) and each renderer of issued documents (WeasyPrint,
Typst: lavra.toml ``renderizador``), in one warm process without a worker pool, times

- ``render``: the final document from its prepared data (template, layout, PDF/A, the
  reserved signature box), as a batch worker does it;
- ``render+sign``: that, plus the PAdES signature with its visible stamp;
- ``build``: the whole :meth:`Issuer.build_document` (checks and computations against
  the registry, render, sign), what a batch worker does per document before recording;

and prints milliseconds per document, documents per second, pages, and the ratio to the
docassemble-style pipeline the issue measured on this machine (DOCX → LibreOffice
headless → pyHanko, 415 ms per document with a warm ``soffice``). Not a test: the
figures depend on the machine and on its load (print ``uptime`` with them).
"""

from __future__ import annotations

import io
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from issuers import dev_issuer
from pypdf import PdfReader

from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.errors import LavraError
from lavra.issuing import Issuer
from lavra.pack import default_pack_dir
from lavra.render.pdf import LaidOutPdf
from lavra.signing.verification import new_code, qr_png

FORMS = ("alvara-transporte-escolar", "selo-identificacao", "alvara-fretamento",
         "notificacao-pendencias-renovacao", "notificacao-pendencias-renovacao-fretamento")
RENDERERS = ("weasyprint", "typst")
DOCASSEMBLE_MS = 415.0
ON = date(2026, 11, 29)
URL = "https://verifica.example.invalid/verificar"


def timed(count: int, one: Callable[[], object]) -> float:
    for _ in range(3):  # warm-up: fonts, templates, the compiler's memo
        one()
    start = time.perf_counter()
    for _ in range(count):
        one()
    return 1000 * (time.perf_counter() - start) / count


def measure(engine: Engine, issuer: Issuer, form: str, renderer: str, count: int) -> None:
    """One line of the table: ``form`` issued with ``renderer``."""
    spec = engine.content.form(form)
    assert spec.example is not None and spec.signer_role is not None
    data = json.loads(spec.example.read_text(encoding="utf-8"))
    prepared = engine.prepare(form, data, ON, example_values=True, draft=False)
    signer, name = issuer.signers.get(spec.signer_role)
    printed = f"{spec.series} nº 0001/2026"
    engine.final_renderer = renderer

    def render() -> LaidOutPdf:
        code = new_code()
        laid, _ = engine.render_final(prepared, number=printed, code=code, url=URL,
                                      qr_png=qr_png(f"{URL}?c={code}"), signer_name=name,
                                      docx=False)
        return laid

    def render_sign() -> object:
        laid = render()
        return signer.sign(laid.pdf, signer_name=name, field_box=laid.signature_box,
                           reason="bench", location="bench")

    def build() -> object:
        return issuer.build_document(form, data, ON, printed, docx=False, example_values=True)

    pages = len(PdfReader(io.BytesIO(render().pdf)).pages)
    ms_render = timed(count, render)
    ms_signed = timed(count, render_sign)
    try:
        ms_build = timed(count, build)
    except LavraError as error:  # a selo whose alvará is not in this registry
        ms_build = float("nan")
        print(f"  (build de {form} não medido: {type(error).__name__})")
    per_doc = ms_signed if math.isnan(ms_build) else ms_build
    print(f"{form:44} {renderer:10} {pages:3d} {ms_render:8.1f} {ms_signed:8.1f} "
          f"{ms_build:8.1f} {1000 / per_doc:6.1f} {DOCASSEMBLE_MS / per_doc:8.1f}")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    forms = sys.argv[2:] or list(FORMS)
    engine = Engine(Content(default_pack_dir()), pool=None)
    with tempfile.TemporaryDirectory() as folder:
        issuer = dev_issuer(engine, Path(folder))
        print(f"{'formulário':44} {'gerador':10} {'pág':>3} {'render':>8} {'+assin.':>8} "
              f"{'build':>8} {'doc/s':>6} {'× 415 ms':>8}")
        for form in forms:
            for renderer in RENDERERS:
                measure(engine, issuer, form, renderer, count)
        issuer.close()
    print("ms por documento, num processo aquecido; × 415 ms: quantas vezes mais rápido que "
          "DOCX → LibreOffice → pyHanko (medido na issue 12)")


if __name__ == "__main__":
    main()
