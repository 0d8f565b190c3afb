"""A small PKI that is not lavra's development one, with CRLs and OCSP responses, offline.

Built with ``cryptography``: a root CA ("ICP de Teste"), end-entity certificates with
chosen validity, key usage and revocation pointers, CRLs and OCSP responses signed
by the root. Times are explicit (no test depends on today's date).
"""

from __future__ import annotations

import io
from datetime import datetime, timedelta

import weasyprint
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509 import ocsp
from cryptography.x509.oid import AuthorityInformationAccessOID, NameOID

from lavra.signing.pades import DocumentSigner
from lavra.signing.pki import SignerIdentity, make_certificate

ORGANIZATION = "ICP de Teste (fora do lavra)"
OCSP_URL = "http://ocsp.exemplo.invalid/"
SIGNING = x509.KeyUsage(
    digital_signature=True,
    content_commitment=True,
    key_encipherment=False,
    data_encipherment=False,
    key_agreement=False,
    key_cert_sign=False,
    crl_sign=False,
    encipher_only=False,
    decipher_only=False,
)
ENCIPHERMENT_ONLY = x509.KeyUsage(
    digital_signature=False,
    content_commitment=False,
    key_encipherment=True,
    data_encipherment=False,
    key_agreement=False,
    key_cert_sign=False,
    crl_sign=False,
    encipher_only=False,
    decipher_only=False,
)


def root_ca(valid_from: datetime) -> SignerIdentity:
    return make_certificate(
        "AC Raiz de Teste",
        organization=ORGANIZATION,
        ca=True,
        valid_from=valid_from,
        valid_for=timedelta(days=20 * 365),
    )


def end_entity(
    issuer: SignerIdentity | None,
    *,
    valid_from: datetime,
    valid_for: timedelta = timedelta(days=3 * 365),
    key_usage: x509.KeyUsage = SIGNING,
    ocsp_url: str | None = None,
    name: str = "Fulano de Tal",
) -> SignerIdentity:
    """A signer certificate issued by ``issuer`` (self-signed when None)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.COUNTRY_NAME, "BR"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANIZATION),
            x509.NameAttribute(NameOID.COMMON_NAME, name),
        ]
    )
    signing_key = key if issuer is None else issuer.private_key
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject if issuer is None else issuer.certificate.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(valid_from)
        .not_valid_after(valid_from + valid_for)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(**_usage(key_usage)), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(signing_key.public_key()),
            critical=False,
        )
    )
    if ocsp_url:
        builder = builder.add_extension(
            x509.AuthorityInformationAccess(
                [
                    x509.AccessDescription(
                        AuthorityInformationAccessOID.OCSP, x509.UniformResourceIdentifier(ocsp_url)
                    )
                ]
            ),
            critical=False,
        )
    certificate = builder.sign(signing_key, hashes.SHA256())
    chain = () if issuer is None else (issuer.certificate,)
    return SignerIdentity(certificate=certificate, private_key=key, chain=chain)


def _usage(usage: x509.KeyUsage) -> dict[str, bool]:
    return {
        "digital_signature": usage.digital_signature,
        "content_commitment": usage.content_commitment,
        "key_encipherment": usage.key_encipherment,
        "data_encipherment": usage.data_encipherment,
        "key_agreement": usage.key_agreement,
        "key_cert_sign": usage.key_cert_sign,
        "crl_sign": usage.crl_sign,
        "encipher_only": False,
        "decipher_only": False,
    }


def crl(
    root: SignerIdentity,
    at: datetime,
    revoked: tuple[x509.Certificate, ...] = (),
    *,
    revoked_at: datetime | None = None,
) -> bytes:
    """A DER CRL of ``root`` issued at ``at`` (valid a week), listing ``revoked``."""
    builder = (
        x509.CertificateRevocationListBuilder()
        .issuer_name(root.certificate.subject)
        .last_update(at)
        .next_update(at + timedelta(days=7))
        .add_extension(x509.CRLNumber(1), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(root.private_key.public_key()),
            critical=False,
        )
    )
    for certificate in revoked:
        builder = builder.add_revoked_certificate(
            x509.RevokedCertificateBuilder()
            .serial_number(certificate.serial_number)
            .revocation_date(revoked_at or at - timedelta(days=30))
            .build()
        )
    return builder.sign(root.private_key, hashes.SHA256()).public_bytes(serialization.Encoding.DER)


def ocsp_response(
    root: SignerIdentity,
    certificate: x509.Certificate,
    at: datetime,
    *,
    revoked_at: datetime | None = None,
) -> bytes:
    """A DER OCSP response signed by ``root`` itself: good, or revoked at ``revoked_at``."""
    status = ocsp.OCSPCertStatus.GOOD if revoked_at is None else ocsp.OCSPCertStatus.REVOKED
    builder = ocsp.OCSPResponseBuilder().add_response(
        cert=certificate,
        issuer=root.certificate,
        algorithm=hashes.SHA256(),
        cert_status=status,
        this_update=at,
        next_update=at + timedelta(days=2),
        revocation_time=revoked_at,
        revocation_reason=None,
    )
    builder = builder.responder_id(ocsp.OCSPResponderEncoding.HASH, root.certificate)
    response = builder.sign(root.private_key, hashes.SHA256())
    return response.public_bytes(serialization.Encoding.DER)


def plain_pdf(text: str = "Código de verificação: 7KQM-X4RD-2HNT") -> bytes:
    return bytes(weasyprint.HTML(string=f"<h1>Alvará</h1><p>{text}</p>").write_pdf())


def signed_pdf(identity: SignerIdentity, at: datetime, pdf: bytes | None = None) -> bytes:
    """``pdf`` (default: a small page) signed by ``identity`` at ``at`` (no time stamp)."""
    signer = DocumentSigner(identity, cargo="Secretário Municipal de Transportes")
    return signer.sign(
        pdf or plain_pdf(),
        signer_name="Fulano de Tal",
        field_box=None,
        reason="Emissão",
        location="Americana/SP",
        signing_time=at,
    ).pdf


def second_signature(pdf: bytes, identity: SignerIdentity) -> bytes:
    """``pdf`` with a second signature added by pyHanko directly (lavra refuses to)."""
    from asn1crypto import keys as asn1_keys
    from asn1crypto import x509 as asn1_x509
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import signers
    from pyhanko_certvalidator.registry import SimpleCertificateStore

    key_der = identity.private_key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    store = SimpleCertificateStore()
    store.register_multiple(
        [
            asn1_x509.Certificate.load(c.public_bytes(serialization.Encoding.DER))
            for c in identity.chain
        ]
    )
    signer = signers.SimpleSigner(
        signing_cert=asn1_x509.Certificate.load(
            identity.certificate.public_bytes(serialization.Encoding.DER)
        ),
        signing_key=asn1_keys.PrivateKeyInfo.load(key_der),
        cert_registry=store,
    )
    output = io.BytesIO()
    signers.sign_pdf(
        IncrementalPdfFileWriter(io.BytesIO(pdf)),
        signers.PdfSignatureMetadata(field_name="Contra-assinatura"),
        signer=signer,
        output=output,
    )
    return output.getvalue()
