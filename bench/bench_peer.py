"""The docassemble-style peer, measured in the same run as lavra, on the same alvará.

    python bench/bench_peer.py 30 [FORMULARIO]

Run from the repository root with ``PYTHONPATH=engine:.:tests``; installs nothing. Where
``soffice`` (LibreOffice) is on the PATH, the peer is measured per document, all CPU:

- ``docx``: the editable DOCX of the same alvará, from the same prepared data, by the
  engine's docxtpl path (what docassemble does): the CPU of ``render_final`` with the
  DOCX minus the same without it;
- ``soffice``: DOCX → PDF by LibreOffice headless, many files per call (``soffice
  --convert-to pdf`` over the N files), warm (a first call creates the profile and
  fills the disk cache, not counted). Its CPU is the children's (``RUSAGE_CHILDREN``:
  ``soffice`` and ``soffice.bin``). Printed twice: per file of the N-file call (one
  start of LibreOffice shared by the N), and marginal, ``(cpu(N) - cpu(1)) / (N - 1)``
  (the start removed: a LibreOffice kept running, the peer's best case);
- ``pyhanko``: PAdES signature of each LibreOffice PDF with pyHanko's own path (a
  ``SimpleSigner`` whose key is loaded once, the same visible stamp font and box).

lavra's side, in the same process: ``render+sign`` (the final document with Typst, its
QR, the PAdES signature with the CMS template) and ``build`` (``Issuer.build_document``:
also the checks against the registry, which the peer does not do). The ratio is the
peer's CPU per document (marginal soffice: the stricter figure) over lavra's; the
issue's target is at least 10. Wall time beside CPU; not a test: print ``uptime``.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from asn1crypto import keys as asn1_keys
from asn1crypto import x509 as asn1_x509
from bench_renderers import ON, URL, timed_cpu
from cryptography.hazmat.primitives import serialization
from issuers import dev_issuer
from pyhanko.pdf_utils.font.opentype import GlyphAccumulatorFactory
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.text import TextBoxStyle
from pyhanko.sign import fields, signers
from pyhanko.stamp import TextStampStyle
from pyhanko_certvalidator.registry import SimpleCertificateStore
from pypdf import PdfReader

from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.pack import default_pack_dir
from lavra.render.pdf import LaidOutPdf
from lavra.signing.pades import STAMP_FONT_CANDIDATES
from lavra.signing.pki import SignerIdentity
from lavra.signing.verification import new_code, qr_png

BOX = (56, 56, 330, 120)


def children_cpu() -> float:
    """CPU seconds of the waited-for children (user + system)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def convert(docx_files: list[Path], out: Path, profile: Path) -> tuple[float, float]:
    """One ``soffice`` call converting the files: its CPU and wall, in seconds."""
    cpu, wall = children_cpu(), time.perf_counter()
    subprocess.run(
        ["soffice", f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
         "--nologo", "--convert-to", "pdf", "--outdir", str(out), *map(str, docx_files)],
        check=True, capture_output=True, timeout=1800,
    )
    return children_cpu() - cpu, time.perf_counter() - wall


def pyhanko_signer(identity: SignerIdentity) -> signers.SimpleSigner:
    """pyHanko's SimpleSigner over the same key and certificate, loaded once."""
    der = serialization.Encoding.DER
    key = identity.private_key.private_bytes(
        der, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    chain = [asn1_x509.Certificate.load(c.public_bytes(der)) for c in identity.chain]
    return signers.SimpleSigner(
        signing_cert=asn1_x509.Certificate.load(identity.certificate.public_bytes(der)),
        signing_key=asn1_keys.PrivateKeyInfo.load(key),
        cert_registry=SimpleCertificateStore.from_certs(chain),  # type: ignore[no-untyped-call]
    )


def pyhanko_sign(signer: signers.SimpleSigner, style: TextStampStyle,
                 pdf: bytes) -> bytes:
    meta = signers.PdfSignatureMetadata(field_name="Assinatura",
                                        subfilter=fields.SigSeedSubFilter.PADES,
                                        reason="Emissão", location="Americana/SP")
    out = signers.PdfSigner(meta, signer, stamp_style=style,
                            new_field_spec=fields.SigFieldSpec("Assinatura", on_page=-1,
                                                               box=BOX),
                            ).sign_pdf(IncrementalPdfFileWriter(io.BytesIO(pdf)))
    return bytes(out.getvalue())


def line(label: str, cpu_ms: float, wall_ms: float) -> None:
    print(f"  {label:50} {cpu_ms:8.1f} ms CPU {wall_ms:8.1f} ms parede")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("count", type=int, nargs="?", default=30)
    parser.add_argument("form", nargs="?", default="alvara-transporte-escolar")
    args = parser.parse_args()
    count = max(2, args.count)
    logging.getLogger("fontTools").setLevel(logging.ERROR)  # "FFTM NOT subset" noise
    print(f"carga: {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f}; {count} documentos; "
          f"{args.form}")
    engine = Engine(Content(default_pack_dir()), pool=None)
    engine.final_renderer = "typst"
    spec = engine.content.form(args.form)
    assert spec.example is not None and spec.signer_role is not None
    data = json.loads(spec.example.read_text(encoding="utf-8"))
    prepared = engine.prepare(args.form, data, ON, example_values=True, draft=False)
    printed = f"{spec.series} nº 0001/2026"
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        issuer = dev_issuer(engine, work / "dados")
        signer, name = issuer.signers.get(spec.signer_role)

        def final(docx: bool) -> Callable[[], tuple[LaidOutPdf, bytes | None]]:
            def one() -> tuple[LaidOutPdf, bytes | None]:
                code = new_code()
                return engine.render_final(prepared, number=printed, code=code, url=URL,
                                           qr_png=qr_png(f"{URL}?c={code}"),
                                           signer_name=name, docx=docx)
            return one

        def render_sign() -> object:
            laid, _ = final(False)()
            return signer.sign(laid.pdf, signer_name=name, field_box=laid.signature_box,
                               reason="Emissão", location="Americana/SP")

        def build() -> object:
            return issuer.build_document(args.form, data, ON, printed, docx=False,
                                         example_values=True)

        print("lavra (Typst, assinatura pelo modelo do CMS), num processo aquecido:")
        ours_wall, ours_cpu = timed_cpu(count, render_sign)
        line("renderizar + assinar", ours_cpu, ours_wall)
        build_wall, build_cpu = timed_cpu(count, build)
        line("emitir inteiro (build_document)", build_cpu, build_wall)
        if shutil.which("soffice") is None:
            print("soffice não encontrado: o par (DOCX → LibreOffice → pyHanko) não foi medido")
            issuer.close()
            return

        print("par docassemble (DOCX → LibreOffice headless → pyHanko):")
        with_wall, with_cpu = timed_cpu(count, final(True))
        without_wall, without_cpu = timed_cpu(count, final(False))
        docx_cpu, docx_wall = with_cpu - without_cpu, with_wall - without_wall
        line("DOCX (docxtpl)", docx_cpu, docx_wall)
        docx_dir, out, profile = work / "docx", work / "pdf", work / "perfil"
        docx_dir.mkdir()
        files = []
        for index in range(count):
            _, docx_bytes = final(True)()
            assert docx_bytes is not None
            path = docx_dir / f"alvara-{index:04d}.docx"
            path.write_bytes(docx_bytes)
            files.append(path)
        convert(files[:1], work / "aquecimento", profile)  # profile, disk cache
        one_cpu, one_wall = convert(files[:1], work / "um", profile)
        many_cpu, many_wall = convert(files, out, profile)
        line("soffice, 1 arquivo por chamada (partida inclusa)", 1000 * one_cpu,
             1000 * one_wall)
        line(f"soffice, {count} por chamada (por arquivo)", 1000 * many_cpu / count,
             1000 * many_wall / count)
        marginal_cpu = 1000 * (many_cpu - one_cpu) / (count - 1)
        marginal_wall = 1000 * (many_wall - one_wall) / (count - 1)
        line("soffice, marginal (sem a partida)", marginal_cpu, marginal_wall)
        font = next(path for path in STAMP_FONT_CANDIDATES if path.is_file())
        style = TextStampStyle(
            stamp_text="Documento assinado eletronicamente por %(signer)s em %(ts)s",
            text_box_style=TextBoxStyle(font=GlyphAccumulatorFactory(str(font), font_size=9)))
        identity = signer.identity
        assert isinstance(identity, SignerIdentity)
        hanko = pyhanko_signer(identity)
        pdfs = [(out / f"{path.stem}.pdf").read_bytes() for path in files]
        pages = len(PdfReader(io.BytesIO(pdfs[0])).pages)
        cycle = iter(pdfs * 4)
        sign_wall, sign_cpu = timed_cpu(count, lambda: pyhanko_sign(hanko, style,
                                                                    next(cycle)))
        line("pyHanko (chave carregada uma vez)", sign_cpu, sign_wall)
        issuer.close()
    peer = docx_cpu + marginal_cpu + sign_cpu
    peer_call = docx_cpu + 1000 * many_cpu / count + sign_cpu
    print(f"par, por documento: {peer:.1f} ms CPU (soffice marginal); {peer_call:.1f} ms "
          f"(soffice por arquivo da chamada de {count}); páginas do PDF do "
          f"LibreOffice: {pages}")
    print(f"razão par / lavra (renderizar + assinar): {peer / ours_cpu:.1f}× "
          f"({peer_call / ours_cpu:.1f}×); par / emitir inteiro: {peer / build_cpu:.1f}× "
          f"({peer_call / build_cpu:.1f}×); meta: ≥ 10×")


if __name__ == "__main__":
    main()
