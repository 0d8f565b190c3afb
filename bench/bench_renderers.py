"""Issued documents with each renderer: layout, layout + signature, and the whole build.

    python bench/bench_renderers.py 50 [FORMULARIO ...]
    python bench/bench_renderers.py --memoria 100 500 [--gerador typst]

Run from the repository root with ``PYTHONPATH=engine:.:tests``. For each form (default:
the documents of the renewal runs) and each renderer of issued documents (WeasyPrint,
Typst: lavra.toml ``renderizador``), in one warm process without a worker pool, times

- ``render``: the final document from its prepared data (template, layout, PDF/A, the
  reserved signature box), as a batch worker does it;
- ``render+sign``: that, plus the PAdES signature with its visible stamp;
- ``build``: the whole :meth:`Issuer.build_document` (checks and computations against
  the registry, render, sign), what a batch worker does per document before recording;

and prints milliseconds per document (wall clock; ``cpu``: the process's CPU time for
``render``), documents per second, pages, and the ratio to the docassemble-style
pipeline the issue measured on this machine (DOCX → LibreOffice headless → pyHanko,
415 ms per document with a warm ``soffice``: a fixed figure, wall clock; the peer
measured in the same run, CPU against CPU, is ``bench/bench_peer.py``). ``render``
includes the QR code (``qr_png``), timed alone on the first line.

``--memoria N1 N2 ...``: one process renders N documents of the alvará in a row, each
with its own holder, number, code and QR, as a batch worker does, and prints its RSS
(now and peak, ``resource.getrusage``) at each N: it must stay flat. Not a test: the
figures depend on the machine and on its load (print ``uptime`` with them).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import resource
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
    return timed_cpu(count, one)[0]


def timed_cpu(count: int, one: Callable[[], object]) -> tuple[float, float]:
    """Milliseconds per call, wall clock and CPU time of this process."""
    for _ in range(3):  # warm-up: fonts, templates, the compiler's memo
        one()
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(count):
        one()
    return (1000 * (time.perf_counter() - start) / count,
            1000 * (time.process_time() - cpu) / count)


def rss_mib() -> tuple[float, float]:
    """This process's resident memory now and at its peak, in MiB (Linux)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    now = pages * resource.getpagesize() / 2**20
    return now, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


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
    ms_render, cpu_render = timed_cpu(count, render)
    ms_signed = timed(count, render_sign)
    try:
        ms_build = timed(count, build)
    except LavraError as error:  # a selo whose alvará is not in this registry
        ms_build = float("nan")
        print(f"  (build de {form} não medido: {type(error).__name__})")
    per_doc = ms_signed if math.isnan(ms_build) else ms_build
    print(f"{form:44} {renderer:10} {pages:3d} {ms_render:8.1f} {cpu_render:6.1f} "
          f"{ms_signed:8.1f} {ms_build:8.1f} {1000 / per_doc:6.1f} "
          f"{DOCASSEMBLE_MS / per_doc:8.1f}")


def with_holder(data: object, index: int) -> object:
    """``data`` with its first person's name made unique (the first "nome" key found)."""
    found = [False]

    def walk(value: object) -> object:
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if key == "nome" and isinstance(item, str) and not found[0]:
                    found[0] = True
                    out[key] = f"{item} {index:05d}"
                else:
                    out[key] = walk(item)
            return out
        if isinstance(value, list):
            return [walk(item) for item in value]
        return value

    return walk(data)


def memory(engine: Engine, renderer: str, checkpoints: list[int]) -> None:
    """RSS of one process rendering documents in a row, at each checkpoint."""
    form = FORMS[0]
    spec = engine.content.form(form)
    assert spec.example is not None
    data = json.loads(spec.example.read_text(encoding="utf-8"))
    engine.final_renderer = renderer
    print(f"{form}, gerador {renderer}: documentos, RSS agora e pico (MiB), ms/doc (CPU)")
    done, start_cpu = 0, time.process_time()
    print(f"{0:6d} {rss_mib()[0]:7.1f} {rss_mib()[1]:7.1f}")
    for checkpoint in sorted(checkpoints):
        render_cpu = 0.0
        first = done
        while done < checkpoint:
            prepared = engine.prepare(form, with_holder(data, done), ON, example_values=True,
                                      draft=False)  # type: ignore[arg-type]
            code = new_code()
            cpu = time.process_time()
            engine.render_final(prepared, number=f"{spec.series} nº {done + 1:04d}/2026",
                                code=code, url=URL, qr_png=qr_png(f"{URL}?c={code}"),
                                signer_name="Fulana de Tal", docx=False)
            render_cpu += time.process_time() - cpu
            done += 1
        now, peak = rss_mib()
        print(f"{done:6d} {now:7.1f} {peak:7.1f}   render_final+QR "
              f"{1000 * render_cpu / max(1, done - first):5.1f} ms CPU")
    print(f"CPU total {time.process_time() - start_cpu:.1f} s (com prepare)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("count", type=int, nargs="?", default=30)
    parser.add_argument("forms", nargs="*")
    parser.add_argument("--memoria", type=int, nargs="+", metavar="N")
    parser.add_argument("--gerador", choices=RENDERERS, default="typst")
    args = parser.parse_args()
    engine = Engine(Content(default_pack_dir()), pool=None)
    if args.memoria:
        memory(engine, args.gerador, args.memoria)
        return
    url = f"{URL}?c={new_code()}"
    ms_qr, cpu_qr = timed_cpu(args.count, lambda: qr_png(url))
    print(f"qr_png: {ms_qr:.1f} ms ({cpu_qr:.1f} ms CPU)")
    with tempfile.TemporaryDirectory() as folder:
        issuer = dev_issuer(engine, Path(folder))
        print(f"{'formulário':44} {'gerador':10} {'pág':>3} {'render':>8} {'cpu':>6} "
              f"{'+assin.':>8} {'build':>8} {'doc/s':>6} {'× 415 ms':>8}")
        for form in args.forms or list(FORMS):
            for renderer in RENDERERS:
                measure(engine, issuer, form, renderer, args.count)
        issuer.close()
    print("ms por documento, num processo aquecido; × 415 ms: quantas vezes mais rápido que "
          "DOCX → LibreOffice → pyHanko (medido na issue 12; o par medido nesta máquina, "
          "em CPU: bench/bench_peer.py)")


if __name__ == "__main__":
    main()
