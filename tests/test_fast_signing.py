"""The PAdES B-B fast path (CMS template, lavra.signing.fastcms) against pyHanko's own path.

Documents signed through the template are validated by pyHanko and by poppler's pdfsig,
their CMS is compared with what pyHanko builds, and the paths the template cannot
serve (ECDSA here, B-T in test_signing.py) are shown to go through pyHanko.
"""

from __future__ import annotations

import asyncio
import io
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import weasyprint
from asn1crypto import cms
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from outputcheck import pdf_problems
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.signers.pdf_cms import PdfCMSSignedAttributes
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko_certvalidator import ValidationContext
from trustpki import SIGNING

from lavra.errors import RenderError
from lavra.signing import fastcms
from lavra.signing.pades import DIGEST, DocumentSigner
from lavra.signing.pki import (
    DEV_ORGANIZATION,
    DevPki,
    SignerIdentity,
    init_dev_pki,
    load_signer,
)

SECRETARIO = "Secretário Municipal de Transportes e Sistema Viário"
BOX = (56.0, 56.0, 330.0, 120.0)
PINNED = datetime(2026, 3, 2, 17, 5, 30, tzinfo=UTC)


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> DevPki:
    return init_dev_pki(tmp_path_factory.mktemp("pki"), {"secretario-transportes": SECRETARIO})


@pytest.fixture(scope="module")
def fast(pki: DevPki) -> DocumentSigner:
    return DocumentSigner(pki.load("secretario-transportes"), cargo=SECRETARIO)


@pytest.fixture(scope="module")
def slow(pki: DevPki) -> DocumentSigner:
    return DocumentSigner(pki.load("secretario-transportes"), cargo=SECRETARIO, cms_template=False)


@pytest.fixture(scope="module")
def pdfa() -> bytes:
    html = "<h1>Alvará</h1><p>Texto do documento.</p><p style='page-break-before: always'>2</p>"
    return bytes(weasyprint.HTML(string=html).write_pdf(pdf_variant="pdf/a-3b"))


def _sign(signer: DocumentSigner, pdf: bytes, name: str = "José da Silva Conceição") -> bytes:
    return signer.sign(
        pdf,
        signer_name=name,
        field_box=BOX,
        reason="Emissão de alvará",
        location="Americana/SP",
        signing_time=PINNED,
    ).pdf


def _pyhanko_status(pdf: bytes, root: x509.Certificate) -> Any:
    root_asn1 = asn1_x509.Certificate.load(root.public_bytes(serialization.Encoding.DER))
    context = ValidationContext(trust_roots=[root_asn1], allow_fetching=False)
    signatures = PdfFileReader(io.BytesIO(pdf)).embedded_signatures
    assert len(signatures) == 1
    return validate_pdf_signature(signatures[0], context)


def _pdfsig(pdf: bytes, folder: Path) -> str:
    executable = shutil.which("pdfsig")
    if executable is None:
        pytest.skip("pdfsig (poppler-utils) ausente")
    path = folder / "documento.pdf"
    path.write_bytes(pdf)
    run = subprocess.run(
        [executable, "-nocert", str(path)], capture_output=True, text=True, timeout=60
    )
    return run.stdout


def _signer_info(pdf: bytes) -> tuple[cms.SignedData, cms.SignerInfo, Any]:
    signature = PdfFileReader(io.BytesIO(pdf)).embedded_signatures[0]
    signed_data = signature.signed_data
    return signed_data, signed_data["signer_infos"][0], signature


def _attributes(signer_info: cms.SignerInfo) -> dict[str, Any]:
    return {item["type"].native: item["values"].native for item in signer_info["signed_attrs"]}


def test_fast_path_validates_with_pyhanko_and_pdfsig(
    fast: DocumentSigner, pki: DevPki, pdfa: bytes, tmp_path: Path
) -> None:
    pdf = _sign(fast, pdfa)
    assert pdf.startswith(pdfa)  # incremental update over the PDF/A bytes
    status = _pyhanko_status(pdf, pki.root_certificate)
    assert (status.intact, status.valid, status.trusted) == (True, True, True)
    assert status.coverage.name == "ENTIRE_FILE"
    out = _pdfsig(pdf, tmp_path)
    assert "Signature Validation: Signature is Valid." in out
    assert "Signature Type: ETSI.CAdES.detached" in out
    assert "Total document signed" in out
    assert pdf_problems(pdf) == []


def test_fast_and_slow_paths_build_the_same_container(
    fast: DocumentSigner, slow: DocumentSigner, pdfa: bytes
) -> None:
    fast_pdf, slow_pdf = _sign(fast, pdfa), _sign(slow, pdfa)
    fast_data, fast_info, fast_sig = _signer_info(fast_pdf)
    slow_data, slow_info, slow_sig = _signer_info(slow_pdf)
    fast_attrs, slow_attrs = _attributes(fast_info), _attributes(slow_info)
    assert set(fast_attrs) == {"content_type", "message_digest", "signing_certificate_v2"}
    assert "signing_time" not in fast_attrs  # PAdES: the time is /M, not a CMS attribute
    fast_digest, slow_digest = fast_attrs.pop("message_digest"), slow_attrs.pop("message_digest")
    assert fast_attrs == slow_attrs
    assert fast_digest != slow_digest  # two documents (different font subset prefixes)
    for key in ("version", "digest_algorithms", "encap_content_info", "certificates"):
        assert fast_data[key].dump() == slow_data[key].dump(), key
    for key in ("version", "sid", "digest_algorithm", "signature_algorithm", "unsigned_attrs"):
        assert fast_info[key].dump() == slow_info[key].dump(), key
    for key in ("/Type", "/Filter", "/SubFilter", "/M", "/Name", "/Reason", "/Location"):
        assert fast_sig.sig_object[key] == slow_sig.sig_object[key], key
    assert fast_sig.sig_object["/M"] == "D:20260302140530-03'00'"
    assert len(fast_sig.sig_object["/Contents"]) == len(slow_sig.sig_object["/Contents"])


def test_template_output_is_byte_for_byte_pyhankos(fast: DocumentSigner, pki: DevPki) -> None:
    identity = pki.load("secretario-transportes")
    template = fastcms.build_template(
        fast._signer, identity.private_key, DIGEST, signing_time=PINNED
    )
    assert template is not None
    for digest in (bytes(32), bytes(range(32)), b"\xff" * 32):
        expected = asyncio.run(
            fast._signer.async_sign(
                digest,
                DIGEST,
                use_pades=True,
                timestamper=None,
                signed_attr_settings=PdfCMSSignedAttributes(signing_time=PINNED),
            )
        )
        assert template.sign(digest) == expected.dump()
    with pytest.raises(ValueError):
        template.sign(bytes(31))


def test_one_flipped_byte_in_the_signed_range_fails(
    fast: DocumentSigner, pki: DevPki, pdfa: bytes, tmp_path: Path
) -> None:
    pdf = bytearray(_sign(fast, pdfa))
    _, _, signature = _signer_info(bytes(pdf))
    first, length = int(signature.byte_range[0]), int(signature.byte_range[1])
    assert first == 0 and length > 200
    offset = 120  # inside the first signed range, in the PDF/A body
    pdf[offset] ^= 0x01
    status = _pyhanko_status(bytes(pdf), pki.root_certificate)
    assert not status.intact  # the digest over the byte range no longer matches
    assert not status.bottom_line
    assert "Signature is Valid." not in _pdfsig(bytes(pdf), tmp_path)


def test_documents_in_a_row_get_their_own_digest_and_signature(
    fast: DocumentSigner, pki: DevPki, pdfa: bytes
) -> None:
    signed = [_sign(fast, pdfa, name=name) for name in ("Ana Souza", "Bruno Lima", "Ana Souza")]
    digests, signatures = set(), set()
    for pdf in signed:
        _, info, signature = _signer_info(pdf)
        digests.add(_attributes(info)["message_digest"][0])
        signatures.add(info["signature"].native)
        status = _pyhanko_status(pdf, pki.root_certificate)
        assert (status.intact, status.valid, status.trusted) == (True, True, True)
        # the digest in the CMS is this document's own
        assert signature.compute_digest() == _attributes(info)["message_digest"][0]
    assert len(digests) == len(signatures) == 3


def _ecdsa_identity(pki: DevPki) -> SignerIdentity:
    root = load_signer(pki.folder / "raiz.p12", pki.passphrase)
    key = ec.generate_private_key(ec.SECP256R1())
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=5)
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.COUNTRY_NAME, "BR"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, DEV_ORGANIZATION),
            x509.NameAttribute(NameOID.COMMON_NAME, "Signatário ECDSA de teste"),
        ]
    )
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(root.certificate.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(SIGNING, critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(
                root.private_key.public_key()  # type: ignore[arg-type]
            ),
            critical=False,
        )
        .sign(root.private_key, hashes.SHA256())
    )
    return SignerIdentity(certificate=certificate, private_key=key, chain=(root.certificate,))


def _refuse_template(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    calls: list[bytes] = []

    def refuse(self: fastcms.CmsTemplate, digest: bytes) -> bytes:
        calls.append(digest)
        raise AssertionError("the CMS template must not serve this signer")

    monkeypatch.setattr(fastcms.CmsTemplate, "sign", refuse)
    return calls


def test_ecdsa_keeps_pyhankos_path(
    pki: DevPki, pdfa: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    signer = DocumentSigner(_ecdsa_identity(pki), cargo="Agente de teste")
    calls = _refuse_template(monkeypatch)
    pdf = _sign(signer, pdfa)
    assert calls == []
    _, info, _ = _signer_info(pdf)
    assert info["signature_algorithm"]["algorithm"].native == "sha256_ecdsa"
    status = _pyhanko_status(pdf, pki.root_certificate)
    assert (status.intact, status.valid, status.trusted) == (True, True, True)
    assert "Signature Validation: Signature is Valid." in _pdfsig(pdf, tmp_path)


def test_rsa_b_b_goes_through_the_template(
    pki: DevPki, pdfa: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    signer = DocumentSigner(pki.load("secretario-transportes"), cargo=SECRETARIO)
    calls = _refuse_template(monkeypatch)
    with pytest.raises(RenderError, match="must not serve"):
        _sign(signer, pdfa)
    assert len(calls) == 1
