"""Signing issued PDFs: PAdES (``/ETSI.CAdES.detached``) with pyHanko, with a visible stamp.

    signer = DocumentSigner(pki.load("secretario-transportes"), cargo="Secretário ...")
    signed = signer.sign(pdf, signer_name="Fulano de Tal", field_box=(56, 56, 330, 120),
                         reason="Emissão do alvará", location="Cidade/UF")

One :class:`DocumentSigner` per process and per role: the private key is parsed once,
the certificate chain, stamp style and signature size are prepared once, so a batch
pays only for the signature itself. pyHanko's default path, by contrast, re-parses the
key from DER on every signature operation (about 50 ms for RSA 2048) and signs each
document twice: once with a dummy container to estimate its size, once for real.

Profiles: PAdES B-B by default; B-T when a time-stamping authority is configured
(``timestamp_url`` → pyHanko's ``HTTPTimeStamper``, or any pyHanko ``TimeStamper``).
The document is always signed by an incremental update appended to the input bytes,
so a PDF/A input keeps its bytes (and its conformance declaration) unchanged; the
stamp's font is embedded (a TrueType font, DejaVu Sans by default) as PDF/A requires.

Each document carries exactly one signature: a PDF that is already signed is refused
(re-running a batch must not sign twice; verification expects one issuing signature).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any
from zoneinfo import ZoneInfo

from asn1crypto import keys as asn1_keys
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.asymmetric.padding import PKCS1v15
from fontTools import subset, ttLib
from fontTools.ttLib.scaleUpem import scale_upem
from pyhanko.pdf_utils import layout
from pyhanko.pdf_utils.font.api import FontEngine, FontEngineFactory
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.misc import PdfError
from pyhanko.pdf_utils.text import TextBoxStyle
from pyhanko.pdf_utils.writer import BasePdfFileWriter
from pyhanko.sign.fields import SigFieldSpec, SigSeedSubFilter
from pyhanko.sign.general import SigningError
from pyhanko.sign.signers import PdfSignatureMetadata, PdfSigner, Signer, SimpleSigner
from pyhanko.sign.signers.pdf_cms import PdfCMSSignedAttributes
from pyhanko.sign.signers.pdf_signer import PdfTBSDocument
from pyhanko.sign.timestamps import HTTPTimeStamper, TimeStamper
from pyhanko.sign.timestamps.common_utils import TimestampRequestError
from pyhanko.stamp import TextStampStyle
from pyhanko_certvalidator.registry import SimpleCertificateStore
from pyhanko_certvalidator.util import get_pyca_cryptography_hash

from lavra.errors import ConfigError, InputError, LavraError, RenderError
from lavra.signing.fastcms import CmsTemplate, build_template
from lavra.signing.pkcs11token import TokenKey
from lavra.signing.pki import DEV_ORGANIZATION, SignerIdentity, certificate_serial, load_signer

TIMEZONE = ZoneInfo("America/Sao_Paulo")
FIELD_NAME = "Assinatura"
DIGEST = "sha256"
STAMP_FONT_SIZE = 9
STAMP_FONT_CANDIDATES = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/TTF/DejaVuSans.ttf"),
    Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
)
STAMP_SENTENCE = (
    "Documento assinado eletronicamente por {nome}, {cargo}, em {data}, às {hora}, "
    "conforme horário oficial de Brasília."
)
DEV_STAMP_NOTE = "Certificado de teste (PKI de desenvolvimento): SEM VALIDADE JURÍDICA."

# Room for the CMS container beyond the certificates and the raw signature:
# signed attributes, algorithm identifiers, ASN.1 framing.
_CMS_OVERHEAD = 2048
# A time-stamp token carries the TSA's certificates; unknown in advance.
_TIMESTAMP_ALLOWANCE = 12 * 1024
_STAMP_CHARACTERS = [*range(0x20, 0x7F), *range(0xA0, 0x180), *map(ord, "–—‘’“”•…€ºª")]
_STAMP_MARGIN = 4  # points between the stamp's border and its text


@dataclass(frozen=True)
class SignedPdf:
    """A signed PDF and what the registry records about it."""

    pdf: bytes
    sha256: str
    signer_subject: str
    signer_serial: str
    signed_at: datetime


def _asn1_certificate(certificate: x509.Certificate) -> asn1_x509.Certificate:
    return asn1_x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER))


class _CachedKeySigner(SimpleSigner):
    """pyHanko's SimpleSigner, with the private key parsed once instead of per signature."""

    def __init__(self, identity: SignerIdentity) -> None:
        store = SimpleCertificateStore()  # type: ignore[no-untyped-call]
        store.register_multiple([_asn1_certificate(cert) for cert in identity.chain])
        key_der = identity.private_key.private_bytes(
            serialization.Encoding.DER,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        super().__init__(
            signing_cert=_asn1_certificate(identity.certificate),
            signing_key=asn1_keys.PrivateKeyInfo.load(key_der),
            cert_registry=store,
        )
        self._key = identity.private_key

    def sign_raw(self, data: bytes, digest_algorithm: str) -> bytes:
        mechanism = self.get_signature_mechanism_for_digest(digest_algorithm).signature_algo
        hash_algorithm = get_pyca_cryptography_hash(digest_algorithm)
        if mechanism == "rsassa_pkcs1v15" and isinstance(self._key, rsa.RSAPrivateKey):
            return self._key.sign(data, PKCS1v15(), hash_algorithm)
        if mechanism == "ecdsa" and isinstance(self._key, ec.EllipticCurvePrivateKey):
            return self._key.sign(data, ec.ECDSA(hash_algorithm))
        return super().sign_raw(data, digest_algorithm)


class DocumentSigner:
    """Signs PDFs for one signer identity and one cargo (role title)."""

    def __init__(
        self,
        identity: SignerIdentity | TokenKey,
        *,
        cargo: str,
        timestamp_url: str | None = None,
        timestamper: TimeStamper | None = None,
        stamp_font: Path | None = None,
        cms_template: bool = True,
    ) -> None:
        if not cargo.strip():
            raise InputError("O cargo do signatário não pode ser vazio.")
        if timestamp_url is not None and timestamper is not None:
            raise ConfigError(
                "Informe a URL do serviço de carimbo do tempo ou o carimbador, não ambos."
            )
        self.identity = identity
        self.cargo = cargo.strip()
        self.signer_subject = identity.subject
        self.signer_serial = certificate_serial(identity.certificate)
        # A key on a token (PKCS#11) never leaves it: each signature is made by the
        # token, in a session of its own (lavra.signing.pkcs11token), by pyHanko's path.
        self._token: TokenKey | None = None
        self._signer: _CachedKeySigner | None = None
        if isinstance(identity, TokenKey):
            self._token = identity
        else:
            self._signer = _CachedKeySigner(identity)
        self._timestamper = (
            HTTPTimeStamper(timestamp_url, timeout=10) if timestamp_url else timestamper
        )
        self._font, self._advances = _stamp_font(stamp_font)
        self._style = self._stamp_style()
        self._dev_certificate = _is_dev_certificate(identity.certificate)
        self._bytes_reserved = _reserved_size(identity, timestamped=self._timestamper is not None)
        # PAdES B-B by an RSA key: the CMS container is encoded once (lavra.signing.fastcms);
        # B-T, ECDSA, a token and cms_template=False build it with pyHanko for every document.
        self._template: CmsTemplate | None = None
        if cms_template and self._timestamper is None and isinstance(identity, SignerIdentity):
            assert self._signer is not None
            self._template = build_template(
                self._signer, identity.private_key, DIGEST, signing_time=datetime.now(TIMEZONE)
            )

    @classmethod
    def from_pkcs12(
        cls,
        p12_path: Path,
        passphrase: str | bytes,
        *,
        cargo: str,
        timestamp_url: str | None = None,
        stamp_font: Path | None = None,
    ) -> DocumentSigner:
        """A signer for the key in a PKCS#12 file (see :func:`lavra.signing.pki.load_signer`)."""
        return cls(
            load_signer(p12_path, passphrase),
            cargo=cargo,
            timestamp_url=timestamp_url,
            stamp_font=stamp_font,
        )

    @property
    def timestamped(self) -> bool:
        """True when signatures get a time stamp (PAdES B-T), False for B-B."""
        return self._timestamper is not None

    def sign(
        self,
        pdf: bytes,
        *,
        signer_name: str,
        field_box: tuple[float, float, float, float] | None,
        reason: str,
        location: str,
        signing_time: datetime | None = None,
    ) -> SignedPdf:
        """Sign ``pdf`` by an incremental update; a visible stamp on the last page.

        ``field_box`` is the stamp rectangle (x1, y1, x2, y2) in PDF points, origin at
        the bottom-left corner of the last page; None makes an invisible signature.
        ``signing_time`` (timezone-aware) pins the claimed signing time; default now.
        """
        if not signer_name.strip():
            raise InputError("O nome do signatário não pode ser vazio.")
        signed_at = _signing_time(signing_time)
        writer = _open(pdf)
        box = _checked_box(writer, field_box)
        stamp = self._stamp_text(signer_name.strip(), signed_at, box)
        try:
            output = self._run(writer, signer_name.strip(), box, reason, location, signed_at, stamp)
        except SigningError as error:
            if "larger than expected" not in str(error):
                raise RenderError(f"Não foi possível assinar o documento: {error}.") from error
            # The reserved size was too small (e.g. a large time-stamp token): double
            # it, for this document and the next ones, and sign again.
            self._bytes_reserved *= 2
            output = self._run(
                _open(pdf), signer_name.strip(), box, reason, location, signed_at, stamp
            )
        return SignedPdf(
            pdf=output,
            sha256=hashlib.sha256(output).hexdigest(),
            signer_subject=self.signer_subject,
            signer_serial=self.signer_serial,
            signed_at=signed_at,
        )

    def _run(
        self,
        writer: IncrementalPdfFileWriter,
        name: str,
        box: tuple[int, int, int, int] | None,
        reason: str,
        location: str,
        signed_at: datetime,
        stamp: str,
    ) -> bytes:
        try:
            if self._token is None:
                assert self._signer is not None
                return self._sign_prepared(
                    self._signer, writer, name, box, reason, location, signed_at, stamp)
            with self._token.signer() as token_signer:
                return self._sign_prepared(
                    token_signer, writer, name, box, reason, location, signed_at, stamp)
        except SigningError:
            raise
        except TimestampRequestError as error:
            raise RenderError(
                f"Não foi possível obter o carimbo do tempo para a assinatura: {error}."
            ) from error
        except LavraError:
            raise
        except Exception as error:
            raise RenderError(f"Não foi possível assinar o documento: {error}.") from error

    def _sign_prepared(
        self,
        signer: Signer,
        writer: IncrementalPdfFileWriter,
        name: str,
        box: tuple[int, int, int, int] | None,
        reason: str,
        location: str,
        signed_at: datetime,
        stamp: str,
    ) -> bytes:
        metadata = PdfSignatureMetadata(
            field_name=FIELD_NAME,
            md_algorithm=DIGEST,
            subfilter=SigSeedSubFilter.PADES,
            name=name,
            reason=reason,
            location=location,
        )
        pdf_signer = PdfSigner(
            metadata,
            signer,
            timestamper=self._timestamper,
            stamp_style=self._style,
            new_field_spec=SigFieldSpec(sig_field_name=FIELD_NAME, on_page=-1, box=box),
        )
        # These are the steps of PdfSigner.async_sign_pdf, minus the size estimation
        # (a throw-away signature) and with the signing time pinned, so that the
        # stamp, the /M entry and the returned signed_at agree.
        session = pdf_signer.init_signing_session(writer)
        session.system_time = signed_at
        tbs = session.prepare_tbs_document(
            validation_info=None,
            bytes_reserved=self._bytes_reserved,
            appearance_text_params={"texto": stamp},
        )
        prepared, output = tbs.digest_tbs_document(output=io.BytesIO())
        if self._template is not None:
            # PAdES B-B by an RSA key: the CMS container from the template (see
            # lavra.signing.fastcms), placed by pyHanko in the reserved /Contents.
            cms = self._template.sign(prepared.document_digest)
            PdfTBSDocument.resume_signing(output, prepared, cms)
        else:
            asyncio.run(self._finish_async(tbs, prepared.document_digest, output, signed_at))
        output.seek(0)
        return bytes(output.read())

    @staticmethod
    async def _finish_async(
        tbs: PdfTBSDocument, document_digest: bytes, output: IO[bytes], signed_at: datetime
    ) -> None:
        post = await tbs.perform_signature(
            document_digest=document_digest,
            pdf_cms_signed_attrs=PdfCMSSignedAttributes(signing_time=signed_at),
        )
        await post.post_signature_processing(output)

    def _stamp_style(self) -> TextStampStyle:
        return TextStampStyle(
            stamp_text="%(texto)s",
            text_box_style=TextBoxStyle(
                font=self._font,
                font_size=STAMP_FONT_SIZE,
                box_layout_rule=layout.SimpleBoxLayoutRule(
                    x_align=layout.AxisAlignment.ALIGN_MIN,
                    y_align=layout.AxisAlignment.ALIGN_MID,
                    margins=layout.Margins(),
                ),
            ),
            border_width=1,
            background=None,
            inner_content_layout=layout.SimpleBoxLayoutRule(
                x_align=layout.AxisAlignment.ALIGN_MIN,
                y_align=layout.AxisAlignment.ALIGN_MID,
                margins=layout.Margins(
                    left=_STAMP_MARGIN, right=_STAMP_MARGIN, top=_STAMP_MARGIN, bottom=_STAMP_MARGIN
                ),
            ),
        )

    def _stamp_text(
        self, name: str, signed_at: datetime, box: tuple[int, int, int, int] | None
    ) -> str:
        sentence = STAMP_SENTENCE.format(
            nome=name,
            cargo=self.cargo,
            data=signed_at.strftime("%d/%m/%Y"),
            hora=signed_at.strftime("%H:%M"),
        )
        paragraphs = [sentence, DEV_STAMP_NOTE] if self._dev_certificate else [sentence]
        if box is None:
            return "\n".join(paragraphs)
        width = (box[2] - box[0] - 2 * _STAMP_MARGIN - 2) * 1000 / STAMP_FONT_SIZE
        return "\n".join(line for text in paragraphs for line in _wrap(text, width, self._advances))


def _wrap(text: str, width: float, advances: Mapping[str, int]) -> list[str]:
    """Lines of ``text`` no wider than ``width`` (in 1/1000 em), breaking at spaces.

    pyHanko's text boxes do not wrap (they shrink the text to fit the box instead).
    """
    space = advances.get(" ", 500)
    lines: list[str] = []
    current: list[str] = []
    current_width = 0.0
    for word in text.split():
        word_width = sum(advances.get(char, 1000) for char in word)
        extra = word_width + (space if current else 0)
        if current and current_width + extra > width:
            lines.append(" ".join(current))
            current, current_width = [word], word_width
        else:
            current.append(word)
            current_width += extra
    if current:
        lines.append(" ".join(current))
    return lines


def _signing_time(pinned: datetime | None) -> datetime:
    if pinned is None:
        return datetime.now(TIMEZONE).replace(microsecond=0)
    if pinned.tzinfo is None or pinned.utcoffset() is None:
        raise InputError("A data e hora da assinatura devem indicar o fuso horário.")
    return pinned.astimezone(TIMEZONE).replace(microsecond=0)


class _SigningWriter(IncrementalPdfFileWriter):
    """pyHanko's incremental writer, leaving the document's metadata as it was written.

    pyHanko's writer, on every write, parses the document's XMP packet, adds its own
    modification date and producer, and serialises the packet again, with the /Info
    entries to match (≈ 2 ms a document, more than a third of a signature). The signed
    revision needs neither: the signing time is the signature's /M, and the renderer's
    XMP (its PDF/A conformance claim included) and /Info stay byte for byte as written,
    consistent with each other as PDF/A requires. Nothing else of the writer changes.
    """

    def _update_meta(self) -> None:
        return None


def _open(pdf: bytes) -> IncrementalPdfFileWriter:
    try:
        writer = _SigningWriter(io.BytesIO(pdf))
        already_signed = bool(writer.prev.embedded_signatures)
    except (PdfError, ValueError, KeyError, TypeError, IndexError) as error:
        raise InputError(f"O arquivo a assinar não é um PDF legível: {error}.") from error
    if writer.prev.encrypted:
        raise InputError("O PDF a assinar está criptografado; não é possível assiná-lo.")
    if already_signed:
        raise InputError("O PDF já está assinado; o lavra não acrescenta uma segunda assinatura.")
    return writer


def _checked_box(
    writer: IncrementalPdfFileWriter, box: tuple[float, float, float, float] | None
) -> tuple[int, int, int, int] | None:
    if box is None:
        return None
    x1, y1, x2, y2 = (round(value) for value in box)
    if x1 < 0 or y1 < 0 or x2 - x1 < 20 or y2 - y1 < 10:
        raise InputError(
            f"Retângulo da assinatura inválido: {box}. Use (x1, y1, x2, y2) em pontos, "
            "com x1 < x2, y1 < y2, a partir do canto inferior esquerdo da página."
        )
    try:
        page_ref = writer.find_page_for_modification(-1)[0]  # type: ignore[no-untyped-call]
        page = page_ref.get_object()
        media_box = [float(value) for value in page["/MediaBox"]]
    except (PdfError, KeyError, ValueError, TypeError, IndexError):
        media_box = []
    if len(media_box) == 4 and (x2 > media_box[2] or y2 > media_box[3]):
        raise InputError(
            f"O retângulo da assinatura {box} ultrapassa a última página "
            f"({media_box[2]:.0f} × {media_box[3]:.0f} pontos)."
        )
    return (x1, y1, x2, y2)


def _stamp_font(font: Path | None) -> tuple[FontEngineFactory, dict[str, int]]:
    """An embedding font engine for the stamp (PDF/A forbids non-embedded fonts),
    and the advance width of each character, in 1/1000 em, for line wrapping."""
    path = font or next((path for path in STAMP_FONT_CANDIDATES if path.is_file()), None)
    if path is None or not path.is_file():
        raise ConfigError(
            "Fonte TrueType para o carimbo da assinatura não encontrada"
            + (f": {font}." if font else "; informe uma (ex.: DejaVuSans.ttf).")
        )
    try:
        from lavra.signing.stampfont import StampFontEngine, StampFontPrograms
    except ImportError:
        raise ConfigError(
            "O carimbo da assinatura requer o pyHanko com fontes OpenType: instale "
            "«pyHanko[opentype]» (pacote uharfbuzz)."
        ) from None
    try:
        data, advances = _latin_subset(path)
    except Exception as error:  # fontTools raises assorted errors on a bad font file
        raise ConfigError(f"Fonte do carimbo da assinatura ilegível: {path} ({error}).") from None

    programs = StampFontPrograms(data)

    class StampFont(FontEngineFactory):
        """Creates pyHanko's embedding font engine from the in-memory font subset,
        with the font programs embedded so far (see :mod:`lavra.signing.stampfont`)."""

        def create_font_engine(
            self, writer: BasePdfFileWriter, obj_stream: Any = None
        ) -> FontEngine:
            return StampFontEngine(writer, programs, STAMP_FONT_SIZE)

    return StampFont(), advances


def _latin_subset(path: Path) -> tuple[bytes, dict[str, int]]:
    """The font cut down once to the Latin-1 range without layout tables, 1000 units/em.

    pyHanko subsets the font for every document it embeds it in; subsetting a
    full font (DejaVu Sans: 6,000 glyphs, large GSUB/GPOS) costs about 200 ms a
    document, subsetting this cut-down copy a few milliseconds.
    """
    options = subset.Options()
    options.layout_features = []
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "FFTM", "kern"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    font = ttLib.TTFont(str(path))
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(unicodes=_STAMP_CHARACTERS)
    subsetter.subset(font)
    # pyHanko writes glyph widths (/W) in font units, which PDF reads as 1/1000 em:
    # right for 1000-unit fonts only, so rescale (TrueType fonts often use 2048).
    scale_upem(font, 1000)
    metrics = font["hmtx"].metrics
    advances = {chr(code): int(metrics[glyph][0]) for code, glyph in font.getBestCmap().items()}
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue(), advances


def _is_dev_certificate(certificate: x509.Certificate) -> bool:
    organizations = certificate.subject.get_attributes_for_oid(x509.NameOID.ORGANIZATION_NAME)
    return any(attribute.value == DEV_ORGANIZATION for attribute in organizations)


def _reserved_size(identity: SignerIdentity | TokenKey, *, timestamped: bool) -> int:
    """Hex digits to reserve for the CMS container, computed once per signer."""
    certificates = sum(
        len(cert.tbs_certificate_bytes) + len(cert.signature) + 64
        for cert in (identity.certificate, *identity.chain)
    )
    public_key = identity.certificate.public_key()
    bits = 4096  # any other key type is refused later, by pyHanko or the token
    if isinstance(public_key, rsa.RSAPublicKey | ec.EllipticCurvePublicKey):
        bits = public_key.key_size
    signature = (bits + 7) // 8 + 16
    size = certificates + signature + _CMS_OVERHEAD
    if timestamped:
        size += _TIMESTAMP_ALLOWANCE
    return 2 * size
