"""Signing N documents: pyHanko's default path vs lavra's cached DocumentSigner.

    python bench/bench_signing.py 50

Default path: per document, load the PKCS#12 (as a process without a warm signer
would), let pyHanko estimate the signature size (a throw-away signature) and sign
with its SimpleSigner (which re-parses the private key on every signature).
Cached path: one DocumentSigner, key parsed once, fixed reserved size, one signature.
Both put a visible stamp with the same embedded font on the last page.
"""

from __future__ import annotations

import io
import logging
import sys
import tempfile
import time
from pathlib import Path

import weasyprint
from pyhanko.pdf_utils.font.opentype import GlyphAccumulatorFactory
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.text import TextBoxStyle
from pyhanko.sign import fields, signers
from pyhanko.stamp import TextStampStyle

from lavra.signing.pades import STAMP_FONT_CANDIDATES, DocumentSigner
from lavra.signing.pki import init_dev_pki
from lavra.signing.verification import verify_pdf

CARGO = "Secretário Municipal de Transportes e Sistema Viário"
BOX = (56, 56, 330, 120)


def main(count: int) -> None:
    logging.getLogger("fontTools").setLevel(logging.ERROR)  # "FFTM NOT subset" noise
    pdf = bytes(
        weasyprint.HTML(string="<h1>Alvará</h1><p>Documento de teste.</p>").write_pdf(
            pdf_variant="pdf/a-3b"
        )
    )
    with tempfile.TemporaryDirectory() as folder:
        pki = init_dev_pki(Path(folder), {"secretario-transportes": CARGO})
        p12 = pki.signers["secretario-transportes"]
        font = next(path for path in STAMP_FONT_CANDIDATES if path.is_file())

        style = TextStampStyle(
            stamp_text="Documento assinado eletronicamente por %(signer)s em %(ts)s",
            text_box_style=TextBoxStyle(font=GlyphAccumulatorFactory(str(font), font_size=9)),
        )

        def pyhanko_default(signer: signers.SimpleSigner | None) -> bytes:
            if signer is None:
                signer = signers.SimpleSigner.load_pkcs12(
                    str(p12), passphrase=pki.passphrase.encode()
                )
            meta = signers.PdfSignatureMetadata(
                field_name="Assinatura",
                subfilter=fields.SigSeedSubFilter.PADES,
                reason="Emissão",
                location="Americana/SP",
            )
            writer = IncrementalPdfFileWriter(io.BytesIO(pdf))
            out = signers.PdfSigner(
                meta,
                signer,
                stamp_style=style,
                new_field_spec=fields.SigFieldSpec("Assinatura", on_page=-1, box=BOX),
            ).sign_pdf(writer)
            return bytes(out.getvalue())

        start = time.perf_counter()
        for _ in range(count):
            default_last = pyhanko_default(None)
        default_ms = (time.perf_counter() - start) * 1000 / count

        loaded = signers.SimpleSigner.load_pkcs12(str(p12), passphrase=pki.passphrase.encode())
        start = time.perf_counter()
        for _ in range(count):
            pyhanko_default(loaded)
        loaded_ms = (time.perf_counter() - start) * 1000 / count

        start = time.perf_counter()
        cached = DocumentSigner(pki.load("secretario-transportes"), cargo=CARGO)
        setup_ms = (time.perf_counter() - start) * 1000
        start, cpu = time.perf_counter(), time.process_time()
        for n in range(count):
            cached_last = cached.sign(
                pdf,
                signer_name=f"Servidor {n}",
                field_box=BOX,
                reason="Emissão",
                location="Americana/SP",
            ).pdf
        cached_ms = (time.perf_counter() - start) * 1000 / count
        cached_cpu = (time.process_time() - cpu) * 1000 / count

        for label, output in (("padrão", default_last), ("lavra", cached_last)):
            check = verify_pdf(output, [pki.root_certificate])
            assert check.intact and check.trusted and check.unmodified, (label, check.problems)

    print(f"documentos: {count}")
    print(f"pyHanko, caminho padrão:          {default_ms:8.1f} ms/documento")
    print(f"pyHanko, PKCS#12 carregado 1 vez: {loaded_ms:8.1f} ms/documento")
    print(f"lavra, DocumentSigner em cache:   {cached_ms:8.1f} ms/documento "
          f"(CPU {cached_cpu:.1f} ms)")
    print(f"  (preparação única do DocumentSigner: {setup_ms:.0f} ms)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
