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
signing, with one pt-BR sentence per failed property.
"""

from __future__ import annotations

import asyncio
import io
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import quote, urlsplit
from zoneinfo import ZoneInfo

import segno
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import serialization
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

from lavra.errors import InputError, LavraError

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


def qr_png(url: str, *, scale: int = 4) -> bytes:
    """A QR code (PNG) for ``url``, error correction level M, with the quiet zone."""
    if not url:
        raise InputError("Não há endereço para o código QR.")
    qr = segno.make_qr(url, error="m", boost_error=False)
    buffer = io.BytesIO()
    qr.save(buffer, kind="png", scale=scale, border=4)
    return buffer.getvalue()


def find_verification_code(pdf: bytes) -> str | None:
    """The verification code printed in the PDF's text, or None when there is none.

    Only codes whose check character is right count; InputError when the text holds
    two different valid codes, or the file is not a readable PDF.
    """
    try:
        reader = PdfReader(io.BytesIO(pdf))
        text = "\n".join(page.extract_text() or "" for page in reader.pages)
    except Exception as error:  # pypdf raises assorted errors on damaged files
        raise InputError(f"Não foi possível ler o texto do PDF: {error}.") from error
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


@dataclass(frozen=True)
class SignatureCheck:
    """What the signature of an issued PDF says about it.

    ``intact``: the digest of the signed bytes matches the signed digest and the
    signature value is cryptographically valid. ``trusted``: the signer's certificate
    chains to one of the configured roots and is valid at validation time.
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


def verify_pdf(
    pdf: bytes,
    trust_roots: Sequence[x509.Certificate],
    *,
    allow_fetching: bool = False,
) -> SignatureCheck:
    """Check the (single, issuing) signature of ``pdf`` against ``trust_roots``.

    Revocation: with ``allow_fetching=False`` (the default, for the development PKI,
    which publishes no CRL or OCSP) revocation is not checked ("soft-fail" with
    nothing to fetch); with ``allow_fetching=True`` CRLs/OCSP are fetched and a
    certificate whose status cannot be established is not trusted ("hard-fail"), as
    production with ICP-Brasil certificates requires.

    Modifications: pyHanko's difference analysis is always run; only
    ``ModificationLevel.NONE`` is accepted, with coverage of the entire file. A
    document with a later signature therefore fails: lavra issues one signature per
    document (co-signing would justify accepting FORM_FILLING for earlier ones).

    Raises InputError for a file that is not a readable PDF, has no signature, or
    whose signature cannot be parsed.
    """
    if not trust_roots:
        raise InputError("Nenhum certificado raiz de confiança foi configurado para a verificação.")
    try:
        reader = PdfFileReader(io.BytesIO(pdf), strict=False)
        signatures = reader.embedded_regular_signatures
    except Exception as error:  # pyHanko raises assorted errors on damaged files
        raise InputError(f"O arquivo não é um PDF legível: {error}.") from error
    if not signatures:
        raise InputError("O PDF não contém assinatura digital.")
    context = ValidationContext(
        trust_roots=[_asn1(root) for root in trust_roots],
        allow_fetching=allow_fetching,
        revocation_mode="hard-fail" if allow_fetching else "soft-fail",
    )
    embedded: EmbeddedPdfSignature = signatures[0]
    try:
        status = asyncio.run(
            async_validate_pdf_signature(
                embedded, signer_validation_context=context, skip_diff=False
            )
        )
    except LavraError:
        raise
    except Exception as error:
        raise InputError(
            f"A assinatura do PDF está corrompida e não pôde ser lida: {error}."
        ) from error
    return _check(status, extra_signatures=len(signatures) - 1)


def _check(status: PdfSignatureStatus, *, extra_signatures: int) -> SignatureCheck:
    certificate = x509.load_der_x509_certificate(status.signing_cert.dump())
    problems: list[str] = []

    intact = bool(status.intact and status.valid)
    if not status.intact:
        problems.append(
            "O conteúdo assinado foi alterado: o resumo (hash) dos bytes assinados não "
            "confere com o registrado na assinatura."
        )
    elif not status.valid:
        problems.append("O valor da assinatura é inválido para o conteúdo assinado.")

    trusted = bool(status.trusted)
    if not trusted:
        problems.append(_trust_problem(status, certificate))

    level = status.modification_level
    covers_file = status.coverage == SignatureCoverageLevel.ENTIRE_FILE
    unmodified = covers_file and level == ModificationLevel.NONE
    if not unmodified:
        if extra_signatures:
            problems.append(
                f"O documento recebeu {extra_signatures} assinatura(s) depois da assinatura "
                "de emissão; o lavra emite documentos com uma única assinatura."
            )
        elif level is not None and level > ModificationLevel.NONE:
            problems.append(
                "O documento foi modificado depois de assinado: uma atualização posterior à "
                "assinatura altera o seu conteúdo."
            )
        else:
            problems.append(
                "A assinatura não cobre o arquivo inteiro: houve acréscimo de conteúdo após "
                "a assinatura."
            )

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


def _trust_problem(status: PdfSignatureStatus, certificate: x509.Certificate) -> str:
    indication: AdESSubIndic | None = status.trust_problem_indic
    expiry = certificate.not_valid_after_utc.astimezone(TIMEZONE).strftime("%d/%m/%Y")
    start = certificate.not_valid_before_utc.astimezone(TIMEZONE).strftime("%d/%m/%Y")
    if status.revoked or indication in (
        AdESFailure.REVOKED,
        AdESIndeterminate.REVOKED_NO_POE,
        AdESIndeterminate.REVOKED_CA_NO_POE,
    ):
        return "O certificado do signatário (ou de sua cadeia) foi revogado."
    if indication in (AdESIndeterminate.EXPIRED, AdESIndeterminate.OUT_OF_BOUNDS_NO_POE):
        return (
            f"O certificado do signatário expirou em {expiry} e não há carimbo do tempo que "
            "prove que a assinatura foi feita durante a sua validade."
        )
    if indication in (AdESFailure.NOT_YET_VALID, AdESIndeterminate.NOT_YET_VALID):
        return f"O certificado do signatário só é válido a partir de {start}."
    if indication in (
        AdESIndeterminate.NO_CERTIFICATE_CHAIN_FOUND,
        AdESIndeterminate.CERTIFICATE_CHAIN_GENERAL_FAILURE,
    ):
        return (
            "O certificado do signatário não pertence a uma cadeia de certificação "
            "confiável configurada para a verificação."
        )
    if indication in (
        AdESIndeterminate.TRY_LATER,
        AdESIndeterminate.REVOCATION_OUT_OF_BOUNDS_NO_POE,
    ):
        return "Não foi possível confirmar que o certificado do signatário não foi revogado."
    if indication == AdESIndeterminate.SIG_CONSTRAINTS_FAILURE:
        return "O certificado do signatário não é próprio para assinatura (uso de chave)."
    if indication is None and status.validation_path is not None:
        return "A assinatura não pode ser considerada confiável porque não está íntegra."
    return "O certificado do signatário não pôde ser validado como confiável."


def _asn1(certificate: x509.Certificate) -> asn1_x509.Certificate:
    return asn1_x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER))
