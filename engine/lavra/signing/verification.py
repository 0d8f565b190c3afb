"""Verification codes, their QR codes, and checking the signature of an issued PDF.

Verification code: 11 random characters and one check character, shown in three
groups (``7KQM-X4RD-2HNT``). The alphabet has 29 characters that are hard to confuse
when read or typed: digits 2–9 and the capital letters without B, I, L, O and S
(no 0/O, 1/I/L, 8/B, 5/S pairs). The check character is ISO 7064 MOD 29-2, the
pure ISO 7064 system (the family of MOD 11-2 and MOD 37-2) computed by
``stdnum.iso7064.mod_37_2`` over this alphabet: 29 is prime and 2 is a primitive
root modulo 29, so it catches every single-character substitution and every
transposition of two characters (adjacent or not) in a code of this length. The
hybrid MOD 37,36 misses some adjacent transpositions, hence not used.

Signature check (:func:`verify_pdf`): the registry lookup is the caller's; this
module says whether the signature is intact, trusted and the file unmodified since
signing, with one pt-BR sentence per failed property. The sentences are fixed (the
constants below, plus a few with a date or a count): no parser message, which would
be English and technical, reaches a user. Each failure has its own sentence: digest,
signature value, self-signed signer, untrusted chain, revoked, revocation not
verifiable, not yet valid, expired without time stamp, key usage; bytes appended,
irregular /ByteRange, later update (content, form/annotations, or none), a second
signature.

Revocation is required for every signer outside lavra's development PKI (see
:func:`verify_pdf`): a root in ``pki/confiaveis/`` is trusted only together with the
revocation status of the certificates under it.
"""

from __future__ import annotations

import asyncio
import io
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from urllib.parse import quote, urlsplit
from zoneinfo import ZoneInfo

import segno
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from PIL import Image, ImageOps
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.ades.report import AdESFailure, AdESIndeterminate, AdESSubIndic
from pyhanko.sign.diff_analysis import ModificationLevel
from pyhanko.sign.validation import (
    EmbeddedPdfSignature,
    PdfSignatureStatus,
    SignatureCoverageLevel,
    async_validate_pdf_signature,
)
from pyhanko_certvalidator import ValidationContext
from pypdf import PdfReader
from stdnum.iso7064 import mod_37_2

from lavra.errors import InputError
from lavra.signing.pki import DEV_ORGANIZATION

ALPHABET = "23456789ACDEFGHJKMNPQRTUVWXYZ"
CODE_LENGTH = 12  # including the check character
GROUP = 4
TIMEZONE = ZoneInfo("America/Sao_Paulo")

_SEPARATORS = re.compile(r"[\s\-.]+")
_CODE_IN_TEXT = re.compile(
    rf"(?<![{ALPHABET}])([{ALPHABET}]{{4}})\s*-\s*([{ALPHABET}]{{4}})\s*-\s*([{ALPHABET}]{{4}})"
    rf"(?![{ALPHABET}])"
)


# --- verification codes --------------------------------------------------------------


def new_code() -> str:
    """A new random verification code, grouped: ``XXXX-XXXX-XXXX``."""
    body = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH - 1))
    return _grouped(body + mod_37_2.calc_check_digit(body, alphabet=ALPHABET))


def normalize_code(text: str) -> str:
    """The canonical form (upper case, grouped) of a typed code; InputError when invalid.

    Spaces, hyphens and dots are ignored and lower case is accepted, so
    ``"7kqm x4rd 2hnt"`` becomes ``"7KQM-X4RD-2HNT"``.
    """
    compact = _SEPARATORS.sub("", text).upper()
    if len(compact) != CODE_LENGTH:
        raise InputError(
            f"O código de verificação deve ter {CODE_LENGTH} caracteres "
            f"(ex.: 7KQM-X4RD-2HNT); foram informados {len(compact)}.",
            field="/codigo",
        )
    wrong = sorted({char for char in compact if char not in ALPHABET})
    if wrong:
        raise InputError(
            f"O código de verificação contém caracteres que ele não usa: {', '.join(wrong)}. "
            "Os códigos não têm as letras B, I, L, O, S nem os algarismos 0 e 1.",
            field="/codigo",
        )
    if not mod_37_2.is_valid(compact, alphabet=ALPHABET):
        raise InputError("Código de verificação inválido: confira a digitação.", field="/codigo")
    return _grouped(compact)


def is_valid_code(text: str) -> bool:
    """True when ``text`` is a well-formed code whose check character matches."""
    try:
        normalize_code(text)
    except InputError:
        return False
    return True


def _grouped(compact: str) -> str:
    return "-".join(compact[start : start + GROUP] for start in range(0, len(compact), GROUP))


def verification_url(base_url: str, code: str) -> str:
    """The public verification address of ``code``: ``base_url`` + ``/`` + the code."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise InputError(
            f"Endereço de verificação inválido: «{base_url}». Use um endereço http(s) "
            "sem parâmetros, como https://exemplo.gov.br/verificar.",
            field="/endereco_verificacao",
        )
    return f"{base_url.rstrip('/')}/{quote(normalize_code(code))}"


#: The QR's data mask. ISO/IEC 18004 lets the encoder use any of the eight: every reader
#: tries them all (the mask is written in the format information). Choosing the best
#: one by the standard's penalty scores (segno's default) means applying and scoring
#: all eight in pure Python, four fifths of the QR's time; a URL of fixed shape read
#: from a printed page or a screen does not need it (tests/test_typst.py decodes codes
#: made with it from the rendered page).
QR_MASK = 0
_QR_BORDER = 4  # modules of quiet zone around the symbol (ISO/IEC 18004: at least 4)
_QR_GREY = bytes([255, 0]) + bytes(254)  # module value -> grey level (dark is black)


def qr_png(url: str, *, scale: int = 4) -> bytes:
    """A QR code (PNG, 1 bit) for ``url``, error correction level M, with the quiet zone.

    segno encodes; Pillow writes the PNG (scaled up without smoothing), ten times
    faster than segno's pure-Python PNG writer."""
    if not url:
        raise InputError("Não há endereço para o código QR.")
    qr = segno.make_qr(url, error="m", boost_error=False, mask=QR_MASK)
    side = len(qr.matrix)  # its modules: 1 dark, 0 light
    symbol = Image.frombytes("L", (side, side), b"".join(qr.matrix).translate(_QR_GREY))
    image = ImageOps.expand(symbol, border=_QR_BORDER, fill=255).resize(
        ((side + 2 * _QR_BORDER) * scale,) * 2, Image.Resampling.NEAREST
    )
    buffer = io.BytesIO()
    image.convert("1").save(buffer, format="PNG")
    return buffer.getvalue()


def find_verification_code(pdf: bytes) -> str | None:
    """The verification code printed in the PDF's text, or None when there is none.

    Only codes whose check character is right count; InputError when the text holds
    two different valid codes, or the file is not a readable PDF (whatever pypdf
    raises on a damaged file: loops of indirect objects, broken streams, ...).
    """
    try:
        reader = PdfReader(io.BytesIO(pdf))
        text = "\n".join(page.extract_text() or "" for page in reader.pages)
    except Exception:  # pypdf raises assorted errors on damaged files
        raise InputError(TEXT_UNREADABLE) from None
    codes = {
        code
        for match in _CODE_IN_TEXT.finditer(text)
        if is_valid_code(code := "-".join(match.groups()))
    }
    if len(codes) > 1:
        raise InputError(
            f"O PDF contém mais de um código de verificação: {', '.join(sorted(codes))}."
        )
    return codes.pop() if codes else None


# --- signature check ----------------------------------------------------------------

NOT_A_PDF = "O arquivo não é um PDF: falta o cabeçalho «%PDF-» no início."
UNREADABLE = (
    "O arquivo não é um PDF legível: a sua estrutura está danificada ou foi alterada, "
    "e não é possível localizar a assinatura."
)
UNSIGNED = "O PDF não contém assinatura digital."
SIGNATURE_UNREADABLE = (
    "A assinatura do PDF está corrompida e não pôde ser lida: o arquivo foi danificado "
    "ou alterado depois de assinado."
)
TEXT_UNREADABLE = (
    "Não foi possível ler o texto do PDF para localizar o código verificador: o arquivo "
    "está danificado ou foi alterado."
)
DIGEST_MISMATCH = (
    "O conteúdo assinado foi alterado: o resumo (hash) dos bytes assinados não "
    "confere com o registrado na assinatura."
)
BAD_SIGNATURE_VALUE = "O valor da assinatura é inválido para o conteúdo assinado."
REVOKED = "O certificado do signatário (ou de sua cadeia) foi revogado."
REVOCATION_UNKNOWN = (
    "Não foi possível verificar a revogação do certificado do signatário: não há lista "
    "de certificados revogados (LCR) nem resposta OCSP válida disponível. Sem essa "
    "verificação, a assinatura não é considerada confiável."
)
UNTRUSTED_CHAIN = (
    "O certificado do signatário não pertence a uma cadeia de certificação confiável "
    "configurada para a verificação."
)
SELF_SIGNED = (
    "O certificado do signatário é autoassinado: não foi emitido por uma autoridade "
    "certificadora, e por isso não comprova a identidade de quem assinou."
)
KEY_USAGE = (
    "O certificado do signatário não é próprio para assinar documentos: o seu uso de "
    "chave (key usage) não inclui o não repúdio (nonRepudiation)."
)
NOT_INTACT_SO_UNTRUSTED = "A assinatura não pode ser considerada confiável porque não está íntegra."
UNVALIDATED = "O certificado do signatário não pôde ser validado como confiável."
APPENDED = (
    "A assinatura não cobre o arquivo inteiro: houve acréscimo de conteúdo após a assinatura."
)
UNCLEAR_COVERAGE = (
    "O intervalo de bytes coberto pela assinatura (/ByteRange) é irregular: partes do "
    "arquivo ficam fora da assinatura."
)
CONTENT_CHANGED = (
    "O documento foi modificado depois de assinado: uma atualização posterior à "
    "assinatura altera o seu conteúdo."
)
FORM_CHANGED = (
    "O documento recebeu, depois de assinado, uma atualização que preenche campos de "
    "formulário ou acrescenta anotações; o lavra emite documentos sem atualizações "
    "posteriores."
)
VALIDATION_DATA_ADDED = (
    "O arquivo recebeu, depois de assinado, uma atualização incremental que não altera o "
    "conteúdo (no máximo dados de validação ou carimbo do tempo); o lavra emite documentos "
    "sem atualizações posteriores."
)
EMPTY_UPDATE = (
    "O arquivo recebeu, depois de assinado, uma atualização incremental (uma nova revisão "
    "do PDF); o lavra emite documentos sem atualizações posteriores."
)

# Where the header may sit (ISO 32000-2, 7.5.2 tolerates leading bytes; readers allow 1 KB).
_HEADER_WINDOW = 1024


@dataclass(frozen=True)
class SignatureCheck:
    """What the signature of an issued PDF says about it.

    ``intact``: the digest of the signed bytes matches the signed digest and the
    signature value is cryptographically valid. ``trusted``: the signer's certificate
    chains to one of the configured roots, is valid at validation time, is fit for
    signing and (outside the development PKI) is known not to be revoked.
    ``unmodified``: the signature covers the entire file and nothing was added after
    it. ``problems``: one pt-BR sentence per property that failed.
    """

    intact: bool
    trusted: bool
    unmodified: bool
    signer_subject: str
    signer_serial: str
    signed_at: datetime | None
    timestamped: bool
    problems: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return self.intact and self.trusted and self.unmodified


def is_dev_root(certificate: x509.Certificate) -> bool:
    """True for a root of lavra's development PKI (its subject says it has no validity)."""
    organizations = certificate.subject.get_attributes_for_oid(x509.NameOID.ORGANIZATION_NAME)
    return any(attribute.value == DEV_ORGANIZATION for attribute in organizations)


def verify_pdf(
    pdf: bytes,
    trust_roots: Sequence[x509.Certificate],
    *,
    crls: Sequence[bytes] = (),
    ocsps: Sequence[bytes] = (),
    allow_fetching: bool = False,
    moment: datetime | None = None,
) -> SignatureCheck:
    """Check the (single, issuing) signature of ``pdf`` against ``trust_roots``.

    Revocation: a signer issued by a root of the development PKI (:func:`is_dev_root`;
    that PKI publishes no CRL or OCSP and its certificates say they have no legal
    validity) is validated without revocation checking. Any other signer must have
    its revocation status established for every certificate of its chain ("require"
    mode): from the DER CRLs and OCSP responses given (``crls``, ``ocsps``), and,
    with ``allow_fetching=True``, from the addresses its certificates publish. When
    the status cannot be established the signature is not trusted, with a sentence
    saying so (:data:`REVOCATION_UNKNOWN`); a revoked certificate is not trusted
    (:data:`REVOKED`).

    Modifications: pyHanko's difference analysis is always run; only
    ``ModificationLevel.NONE`` is accepted, with coverage of the entire file. A
    document with a later signature or any later update therefore fails, each
    anomaly with its own sentence: lavra issues one signature per document and
    never updates a signed file.

    ``moment``: validation time (default now), for reproducible checks.

    Raises InputError, with a fixed pt-BR sentence, for a file that is not a PDF, is
    not readable, has no signature or has a signature that cannot be parsed; never
    any other exception, whatever the parsers raise on a damaged file.
    """
    if not trust_roots:
        raise InputError("Nenhum certificado raiz de confiança foi configurado para a verificação.")
    if b"%PDF-" not in pdf[:_HEADER_WINDOW]:
        raise InputError(NOT_A_PDF)
    try:
        reader = PdfFileReader(io.BytesIO(pdf), strict=False)
        signatures = reader.embedded_regular_signatures
    except Exception:  # pyHanko raises assorted errors on damaged files
        raise InputError(UNREADABLE) from None
    if not signatures:
        raise InputError(UNSIGNED)
    embedded: EmbeddedPdfSignature = signatures[0]
    try:
        signer = _pyca(embedded.signer_cert)
        others = [_pyca(cert) for cert in embedded.other_embedded_certs]
        dev_signer = _uses_dev_root(signer, trust_roots)
        roots = [root for root in trust_roots if is_dev_root(root) == dev_signer]
        context = _context(roots, crls, ocsps, allow_fetching, moment, require=not dev_signer)
        status = _validate(embedded, context)
        facts = _Facts(anchored=_anchored(signer, others, roots), revocation_unknown=False)
        if (
            not dev_signer
            and facts.anchored
            and not status.trusted
            and status.trust_problem_indic == AdESIndeterminate.CERTIFICATE_CHAIN_GENERAL_FAILURE
        ):
            # pyHanko reports "no revocation information" as a general chain failure:
            # validate again without requiring it, to tell that case apart.
            relaxed = _validate(embedded, _context(roots, (), (), False, moment, require=False))
            facts = replace(facts, revocation_unknown=bool(relaxed.trusted))
        later = reader.xrefs.total_revisions - 1 - embedded.signed_revision
        return _check(status, facts, extra_signatures=len(signatures) - 1, later_revisions=later)
    except Exception:  # a damaged signature dictionary, container or revision
        raise InputError(SIGNATURE_UNREADABLE) from None


@dataclass(frozen=True)
class _Facts:
    """What lavra establishes itself about the signer, beyond pyHanko's indications."""

    anchored: bool  # a chain of valid issuer signatures leads to a trust root
    revocation_unknown: bool  # trusted but for the missing revocation information


def _validate(embedded: EmbeddedPdfSignature, context: ValidationContext) -> PdfSignatureStatus:
    return asyncio.run(
        async_validate_pdf_signature(embedded, signer_validation_context=context, skip_diff=False)
    )


def _uses_dev_root(signer: x509.Certificate, roots: Sequence[x509.Certificate]) -> bool:
    """The development roots decide for this signer: it names one of them as issuer,
    or no other root is trusted."""
    dev = [root for root in roots if is_dev_root(root)]
    if not dev:
        return False
    return len(dev) == len(roots) or any(signer.issuer == root.subject for root in dev)


def _context(
    roots: Sequence[x509.Certificate],
    crls: Sequence[bytes],
    ocsps: Sequence[bytes],
    allow_fetching: bool,
    moment: datetime | None,
    *,
    require: bool,
) -> ValidationContext:
    """Revocation required for every certificate of the chain, or soft-fail (development)."""
    return ValidationContext(
        trust_roots=[_asn1(root) for root in roots],
        moment=moment,
        crls=list(crls),
        ocsps=list(ocsps),
        allow_fetching=allow_fetching,
        revocation_mode="require" if require else "soft-fail",
    )


def _anchored(
    signer: x509.Certificate,
    others: Sequence[x509.Certificate],
    roots: Sequence[x509.Certificate],
) -> bool:
    """True when issuer signatures lead from ``signer`` to one of ``roots`` (no dates,
    no revocation: only to tell "no trusted chain" apart from the other failures)."""
    current = signer
    for _ in range(8):  # ICP-Brasil chains are shorter (root, two ACs, signer)
        if any(_issued_by(current, root) for root in roots):
            return True
        parent = next(
            (cert for cert in others if cert != current and _issued_by(current, cert)), None
        )
        if parent is None:
            return False
        current = parent
    return False


def _issued_by(certificate: x509.Certificate, issuer: x509.Certificate) -> bool:
    if certificate.issuer != issuer.subject:
        return False
    try:
        certificate.verify_directly_issued_by(issuer)
    except (ValueError, TypeError, InvalidSignature, UnsupportedAlgorithm):
        return False
    return True


def _check(
    status: PdfSignatureStatus,
    facts: _Facts,
    *,
    extra_signatures: int,
    later_revisions: int,
) -> SignatureCheck:
    certificate = _pyca(status.signing_cert)
    problems: list[str] = []

    intact = bool(status.intact and status.valid)
    if not status.intact:
        problems.append(DIGEST_MISMATCH)
    elif not status.valid:
        problems.append(BAD_SIGNATURE_VALUE)

    self_signed = _issued_by(certificate, certificate)
    trusted = bool(status.trusted) and not self_signed
    if not trusted:
        problems.append(_trust_problem(status, certificate, facts, self_signed=self_signed))

    unmodified = (
        status.coverage == SignatureCoverageLevel.ENTIRE_FILE
        and status.modification_level == ModificationLevel.NONE
        and not extra_signatures
        and not later_revisions
    )
    if not unmodified:
        problems.append(_coverage_problem(status, extra_signatures, later_revisions))

    timestamp = status.timestamp_validity
    signed_at = timestamp.timestamp if timestamp is not None else status.signer_reported_dt
    return SignatureCheck(
        intact=intact,
        trusted=trusted,
        unmodified=unmodified,
        signer_subject=certificate.subject.rfc4514_string(),
        signer_serial=format(certificate.serial_number, "X"),
        signed_at=signed_at.astimezone(TIMEZONE) if signed_at is not None else None,
        timestamped=timestamp is not None,
        problems=tuple(problems),
    )


def _coverage_problem(
    status: PdfSignatureStatus, extra_signatures: int, later_revisions: int
) -> str:
    coverage = status.coverage
    level = status.modification_level
    if extra_signatures:
        return (
            f"O documento recebeu {extra_signatures} assinatura(s) depois da assinatura "
            "de emissão; o lavra emite documentos com uma única assinatura."
        )
    if coverage == SignatureCoverageLevel.CONTIGUOUS_BLOCK_FROM_START or (
        coverage == SignatureCoverageLevel.ENTIRE_REVISION and not later_revisions
    ):
        return APPENDED  # bytes after the signed revision that form no new revision
    if coverage != SignatureCoverageLevel.ENTIRE_REVISION and coverage != (
        SignatureCoverageLevel.ENTIRE_FILE
    ):
        return UNCLEAR_COVERAGE
    if level is None or level == ModificationLevel.OTHER:
        return CONTENT_CHANGED
    if level in (ModificationLevel.FORM_FILLING, ModificationLevel.ANNOTATIONS):
        return FORM_CHANGED
    if level == ModificationLevel.LTA_UPDATES:
        return VALIDATION_DATA_ADDED
    return EMPTY_UPDATE


def _trust_problem(
    status: PdfSignatureStatus,
    certificate: x509.Certificate,
    facts: _Facts,
    *,
    self_signed: bool,
) -> str:
    """The reason the signer is not trusted: the most specific one first."""
    indication: AdESSubIndic | None = status.trust_problem_indic
    moment = status.validation_time
    if self_signed:
        return SELF_SIGNED
    if not facts.anchored:
        return UNTRUSTED_CHAIN
    if status.revoked or indication in (
        AdESFailure.REVOKED,
        AdESIndeterminate.REVOKED_NO_POE,
        AdESIndeterminate.REVOKED_CA_NO_POE,
    ):
        return REVOKED
    if indication in (AdESFailure.NOT_YET_VALID, AdESIndeterminate.NOT_YET_VALID) or (
        moment is not None and moment < certificate.not_valid_before_utc
    ):
        start = certificate.not_valid_before_utc.astimezone(TIMEZONE).strftime("%d/%m/%Y")
        return (
            "O certificado do signatário ainda não era válido na data da verificação: a sua "
            f"validade só começa em {start}."
        )
    if indication in (AdESIndeterminate.EXPIRED, AdESIndeterminate.OUT_OF_BOUNDS_NO_POE) or (
        moment is not None and moment > certificate.not_valid_after_utc
    ):
        expiry = certificate.not_valid_after_utc.astimezone(TIMEZONE).strftime("%d/%m/%Y")
        return (
            f"O certificado do signatário expirou em {expiry} e não há carimbo do tempo que "
            "prove que a assinatura foi feita durante a sua validade."
        )
    if indication == AdESIndeterminate.SIG_CONSTRAINTS_FAILURE or not _fit_for_signing(
        certificate
    ):
        return KEY_USAGE
    if facts.revocation_unknown or indication in (
        AdESIndeterminate.TRY_LATER,
        AdESIndeterminate.REVOCATION_OUT_OF_BOUNDS_NO_POE,
    ):
        return REVOCATION_UNKNOWN
    if indication in (
        AdESIndeterminate.NO_CERTIFICATE_CHAIN_FOUND,
        AdESIndeterminate.CERTIFICATE_CHAIN_GENERAL_FAILURE,
    ):
        return UNTRUSTED_CHAIN
    if indication is None and status.validation_path is not None:
        return NOT_INTACT_SO_UNTRUSTED
    return UNVALIDATED


def _fit_for_signing(certificate: x509.Certificate) -> bool:
    """Key usage allows signing documents: nonRepudiation, as pyHanko requires by default."""
    try:
        usage = certificate.extensions.get_extension_for_class(x509.KeyUsage).value
    except x509.ExtensionNotFound:
        return True
    return bool(usage.content_commitment)


def _pyca(certificate: asn1_x509.Certificate) -> x509.Certificate:
    return x509.load_der_x509_certificate(certificate.dump())


def _asn1(certificate: x509.Certificate) -> asn1_x509.Certificate:
    return asn1_x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER))
