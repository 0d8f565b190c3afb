"""Render N draft documents with one warm Renderer; print speed and memory.

    python bench/bench_render.py 200 [--docx]

Not a test: figures depend on the machine. Peak RSS comes from
``resource.getrusage`` (KiB on Linux), Python allocations from ``tracemalloc``
(which itself slows the run: the speed is measured in a first pass without it).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc

from lavra.pack import default_pack_dir
from lavra.render.pdf import PageFrame, Renderer
from lavra.render.templating import make_environment, render_string

WORDING = """
<h2>Do pedido</h2>
<p>{{ requerente.nome }}, CPF {{ requerente.cpf | cpf }}, residente em {{ endereco }},
CEP {{ cep | cep }}, requer a renovação do alvará do veículo de placa
{{ placa | placa }}, conforme {{ fundamento }}.</p>
<table><thead><tr><th>Documento</th><th>Situação</th></tr></thead><tbody>
{% for item in documentos %}<tr><td>{{ item }}</td><td>{{ situacao }}</td></tr>{% endfor %}
</tbody></table>
<p>Taxa: {{ taxa | moeda_extenso }}.</p>
<p class="assinatura">Americana, {{ hoje | data_extenso }}.</p>
"""


def rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("n", type=int, nargs="?", default=100)
    parser.add_argument("--docx", action="store_true", help="also render the DOCX")
    args = parser.parse_args()

    renderer = Renderer(default_pack_dir() / "forms" / "_base")
    env = make_environment([], draft=True)
    frame = PageFrame("Prefeitura Municipal de Americana",
                      "Secretaria de Transportes e Sistema Viário",
                      "Alvará de Transporte Escolar", minuta=True)

    def one(i: int) -> None:
        data = {
            "requerente": {"nome": f"Titular {i}", "cpf": "12345678909"},
            "cep": "13465000", "placa": "ABC1D23", "taxa": f"{100 + i}.50",
            "hoje": "2026-11-29", "documentos": ["CNH", "Vistoria", "Seguro"],
            "situacao": "apresentado",  # "endereco" and "fundamento" missing: draft blanks
        }
        body = render_string(env, WORDING, data)
        renderer.pdf(body, frame)
        if args.docx:
            renderer.docx(body, frame)

    for i in range(3):  # warm-up: fonts, CSS, imports
        one(i)
    rss_warm = rss_kib()

    start = time.perf_counter()
    for i in range(args.n):
        one(i)
    elapsed = time.perf_counter() - start
    rss_after = rss_kib()

    tracemalloc.start()
    one(0)
    base, _ = tracemalloc.get_traced_memory()
    for i in range(args.n):
        one(i)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    kind = "PDF+DOCX" if args.docx else "PDF"
    print(f"{args.n} minutas ({kind}) em {elapsed:.2f} s: {args.n / elapsed:.1f} documentos/s")
    print(f"RSS máximo: {rss_after / 1024:.1f} MiB (após aquecimento: {rss_warm / 1024:.1f} MiB); "
          f"crescimento do RSS por documento: {(rss_after - rss_warm) / args.n:.1f} KiB")
    print(f"tracemalloc: pico {peak / 1024 / 1024:.1f} MiB; crescimento por documento "
          f"{(current - base) / args.n / 1024:.2f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
