"""Development PKI and PAdES signing: real keys, real signatures, read back."""

from __future__ import annotations

import hashlib
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import weasyprint
from asn1crypto import keys as asn1_keys
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from fontTools import ttLib
from outputcheck import pdf_problems
from pyhanko.pdf_utils.font.opentype import GlyphAccumulator
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.pdf_utils.writer import PdfFileWriter
from pyhanko.sign.timestamps import DummyTimeStamper
from pypdf import PdfReader
from pypdf.generic import ContentStream

from lavra.errors import ConfigError, InputError
from lavra.signing import fastcms
from lavra.signing.pades import STAMP_FONT_CANDIDATES, DocumentSigner, _latin_subset
from lavra.signing.pki import (
    DEV_ORGANIZATION,
    DevPki,
    init_dev_pki,
    load_signer,
    make_certificate,
    passphrase_from_env,
)
from lavra.signing.stampfont import StampFontEngine, StampFontPrograms
from lavra.signing.verification import verify_pdf

SECRETARIO = "Secretário Municipal de Transportes e Sistema Viário"
ROLES = {
    "secretario-transportes": SECRETARIO,
    "agente-fiscalizacao": "Agente de Fiscalização de Transportes",
    "prefeito": "Prefeito Municipal",
}
BOX = (56.0, 56.0, 330.0, 120.0)


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> DevPki:
    return init_dev_pki(tmp_path_factory.mktemp("pki"), ROLES)


@pytest.fixture(scope="module")
def signer(pki: DevPki) -> DocumentSigner:
    return DocumentSigner(pki.load("secretario-transportes"), cargo=SECRETARIO)


@pytest.fixture(scope="module")
def pdfa() -> bytes:
    return bytes(
        weasyprint.HTML(string="<h1>Alvará</h1><p>Texto do documento.</p>").write_pdf(
            pdf_variant="pdf/a-3b"
        )
    )


def _sign(signer: DocumentSigner, pdf: bytes, **options: object) -> bytes:
    arguments: dict[str, object] = {
        "signer_name": "José da Silva Conceição",
        "field_box": BOX,
        "reason": "Emissão de alvará",
        "location": "Americana/SP",
    }
    arguments.update(options)
    return signer.sign(pdf, **arguments).pdf  # type: ignore[arg-type]


# --- development PKI -------------------------------------------------------------


def test_dev_certificates_say_they_have_no_legal_validity(pki: DevPki) -> None:
    assert set(pki.signers) == set(ROLES)
    root = pki.root_certificate
    for role, cargo in ROLES.items():
        identity = pki.load(role)
        cert = identity.certificate
        subject = cert.subject
        assert subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)[0].value == cargo
        organization = subject.get_attributes_for_oid(x509.NameOID.ORGANIZATION_NAME)[0].value
        assert organization == DEV_ORGANIZATION
        assert "SEM VALIDADE JURÍDICA" in identity.subject
        usage = cert.extensions.get_extension_for_class(x509.KeyUsage).value
        assert usage.digital_signature and usage.content_commitment and not usage.key_cert_sign
        assert cert.issuer == root.subject
        # the root really signed it
        cert.verify_directly_issued_by(root)
        lifetime = cert.not_valid_after_utc - cert.not_valid_before_utc
        assert timedelta(days=365) < lifetime < timedelta(days=6 * 365)
        assert cert.not_valid_before_utc <= datetime.now(UTC) < cert.not_valid_after_utc
        assert identity.chain == (root,)
    assert "SEM VALIDADE JURÍDICA" in (pki.folder / "LEIA-ME.txt").read_text(encoding="utf-8")
    assert (pki.folder / "raiz.pem").read_bytes() == root.public_bytes(serialization.Encoding.PEM)


def test_dev_pki_is_idempotent_and_only_force_replaces_it(tmp_path: Path) -> None:
    first = init_dev_pki(tmp_path, {"prefeito": "Prefeito Municipal"})
    p12_before = (tmp_path / "prefeito.p12").read_bytes()
    again = init_dev_pki(
        tmp_path, {"prefeito": "Prefeito Municipal", "agente-fiscalizacao": "Agente"}
    )
    assert again.root_certificate == first.root_certificate
    assert (tmp_path / "prefeito.p12").read_bytes() == p12_before
    # a role added later is issued by the existing root
    assert again.load("agente-fiscalizacao").certificate.issuer == first.root_certificate.subject
    forced = init_dev_pki(tmp_path, {"prefeito": "Prefeito Municipal"}, force=True)
    assert forced.root_certificate != first.root_certificate
    assert (tmp_path / "prefeito.p12").read_bytes() != p12_before


def test_dev_pki_rejects_bad_role_ids(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="Identificador de papel inválido"):
        init_dev_pki(tmp_path, {"../fora": "Cargo"})


def test_load_signer_errors_are_pt_br(pki: DevPki, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="senha incorreta"):
        load_signer(pki.signers["prefeito"], "senha-errada")
    with pytest.raises(ConfigError, match="não encontrado"):
        load_signer(tmp_path / "nao-existe.p12", "x")
    (tmp_path / "lixo.p12").write_bytes(b"isto nao e um pkcs12")
    with pytest.raises(ConfigError, match="PKCS#12 inválido"):
        load_signer(tmp_path / "lixo.p12", "x")
    with pytest.raises(InputError, match="Papéis disponíveis"):
        pki.load("vereador")


def test_production_passphrase_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("LAVRA_SIGNING_PASSPHRASE", raising=False)
    with pytest.raises(ConfigError, match="LAVRA_SIGNING_PASSPHRASE"):
        passphrase_from_env()
    monkeypatch.setenv("LAVRA_SIGNING_PASSPHRASE", "segredo")
    assert passphrase_from_env() == "segredo"


# --- signing ----------------------------------------------------------------------


def test_signature_is_an_incremental_pades_update_with_a_visible_stamp(
    signer: DocumentSigner, pki: DevPki, pdfa: bytes
) -> None:
    pinned = datetime(2026, 3, 2, 17, 5, 30, tzinfo=UTC)
    result = signer.sign(
        pdfa,
        signer_name="José da Silva Conceição",
        field_box=BOX,
        reason="Emissão de alvará",
        location="Americana/SP",
        signing_time=pinned,
    )
    # incremental update: the PDF/A bytes (and its XMP conformance claim) untouched
    assert result.pdf.startswith(pdfa)
    assert result.sha256 == hashlib.sha256(result.pdf).hexdigest()
    assert result.signed_at == pinned
    assert result.signed_at.utcoffset() == timedelta(hours=-3)
    certificate = pki.load("secretario-transportes").certificate
    assert result.signer_serial == format(certificate.serial_number, "X")

    reader = PdfReader(io.BytesIO(result.pdf))
    metadata = reader.xmp_metadata
    assert metadata is not None
    pdfa_part = metadata.get_element("", "http://www.aiim.org/pdfa/ns/id/", "part")
    assert [str(getattr(node, "value", node)) for node in pdfa_part] == ["3"]
    # the signed revision leaves the metadata as written: XMP packet and /Info, consistent
    original = PdfReader(io.BytesIO(pdfa))
    assert original.xmp_metadata is not None
    assert metadata.stream.get_data() == original.xmp_metadata.stream.get_data()
    assert reader.metadata == original.metadata
    last_page = reader.pages[-1]
    widget = last_page["/Annots"][0].get_object()
    assert widget["/FT"] == "/Sig"
    assert [float(value) for value in widget["/Rect"]] == list(BOX)
    signature = widget["/V"].get_object()
    assert signature["/SubFilter"] == "/ETSI.CAdES.detached"
    assert signature["/Name"] == "José da Silva Conceição"
    assert signature["/Reason"] == "Emissão de alvará"
    byte_range = [int(value) for value in signature["/ByteRange"]]
    assert byte_range[2] + byte_range[3] == len(result.pdf)

    appearance = widget["/AP"]["/N"].get_object()
    lines = [
        operands[1]["/ActualText"]
        for operands, operator in ContentStream(appearance, reader).operations
        if operator == b"BDC"
    ]
    stamp = " ".join(lines)
    assert (
        "Documento assinado eletronicamente por José da Silva Conceição, "
        f"{SECRETARIO}, em 02/03/2026, às 14:05, conforme horário oficial de Brasília."
    ) in stamp
    assert "SEM VALIDADE JURÍDICA" in stamp
    # the stamp font is embedded (PDF/A forbids otherwise)
    font = appearance["/Resources"]["/Font"]["/F1"].get_object()
    descendant = font["/DescendantFonts"][0].get_object()
    assert "/FontFile2" in descendant["/FontDescriptor"].get_object()

    check = verify_pdf(result.pdf, [pki.root_certificate])
    assert (check.intact, check.trusted, check.unmodified) == (True, True, True)
    assert check.problems == ()
    assert check.signer_serial == result.signer_serial
    assert check.signed_at == pinned
    assert pdf_problems(result.pdf) == []  # poppler's pdfsig and qpdf agree


def test_batch_signing_reuses_one_signer(signer: DocumentSigner, pki: DevPki, pdfa: bytes) -> None:
    signed = [_sign(signer, pdfa, signer_name=f"Servidor {n}") for n in range(3)]
    assert len({hashlib.sha256(pdf).digest() for pdf in signed}) == 3
    for pdf in signed:
        assert verify_pdf(pdf, [pki.root_certificate]).valid
        assert pdf_problems(pdf) == []


def test_invisible_signature(signer: DocumentSigner, pki: DevPki, pdfa: bytes) -> None:
    pdf = _sign(signer, pdfa, field_box=None)
    assert verify_pdf(pdf, [pki.root_certificate]).valid
    assert pdf_problems(pdf) == []


def test_stamp_font_engine_sets_what_pyhankos_accumulator_sets() -> None:
    """The engine reads the font parsed once instead of the file: it must leave no
    attribute of pyHanko's GlyphAccumulator unset (a pyHanko upgrade would show here)."""
    font = next(path for path in STAMP_FONT_CANDIDATES if path.is_file())
    programs = StampFontPrograms(_latin_subset(font)[0])
    reference = GlyphAccumulator(PdfFileWriter(), io.BytesIO(programs.data), 9)
    engine = StampFontEngine(PdfFileWriter(), programs, 9)
    assert set(vars(reference)) <= set(vars(engine))
    assert engine.tt is StampFontEngine(PdfFileWriter(), programs, 9).tt  # parsed once
    assert engine.subset_prefix != reference.subset_prefix


@pytest.mark.parametrize(
    "lines",
    [
        ("Documento assinado eletronicamente por José", "às 14:05", "Documento assinado"),
        # q + combining acute: a cluster of two glyphs (the mark is not in the subset),
        # whose ToUnicode entries depend on the lines shaped before: shaped every time
        ("q\u0301 e ç", "ç q\u0301", "q\u0301 e ç"),
    ],
)
def test_a_line_shaped_again_notes_down_what_pyhankos_shaping_does(
    lines: tuple[str, ...],
) -> None:
    """The stamp's lines are shaped once (lavra.signing.stampfont): a line shaped again
    gives pyHanko's operators and advance and notes down the same glyphs and ToUnicode
    entries, in a document of its own and in the next one, with the same ToUnicode map."""
    font = next(path for path in STAMP_FONT_CANDIDATES if path.is_file())
    programs = StampFontPrograms(_latin_subset(font)[0])
    for _ in range(2):  # the second engine finds the lines shaped by the first one
        reference = GlyphAccumulator(PdfFileWriter(), io.BytesIO(programs.data), 9)
        engine = StampFontEngine(PdfFileWriter(), programs, 9)
        for line in lines:
            assert engine.shape(line) == reference.shape(line)
        assert engine._glyphs == reference._glyphs
        assert list(engine._cid_to_unicode.items()) == list(reference._cid_to_unicode.items())
        # the ToUnicode map too (the second time, the stream compressed the first time)
        unicode_map = engine._format_tounicode_cmap()
        assert unicode_map.encoded_data == reference._format_tounicode_cmap().encoded_data
        assert unicode_map["/Filter"] == "/FlateDecode"
    assert ("q\u0301 e ç", True, 9.0) not in programs.lines
    assert len(programs.lines) == (0 if "ç q\u0301" in lines else 3)
    assert len(programs.unicode_maps) == 1


def _stamp_font_program(pdf: bytes) -> tuple[str, ttLib.TTFont]:
    reader = PdfReader(io.BytesIO(pdf))
    appearance = reader.pages[-1]["/Annots"][0].get_object()["/AP"]["/N"].get_object()
    text = " ".join(
        operands[1]["/ActualText"]
        for operands, operator in ContentStream(appearance, reader).operations
        if operator == b"BDC"
    )
    font = appearance["/Resources"]["/Font"]["/F1"].get_object()
    descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
    return text, ttLib.TTFont(io.BytesIO(descriptor["/FontFile2"].get_object().get_data()))


def test_each_stamp_embeds_the_outlines_of_its_own_characters(
    signer: DocumentSigner, pki: DevPki, pdfa: bytes
) -> None:
    """Signers in a row with new letters each (a subset made from the font parsed once,
    which fontTools would otherwise cut down in place), then the first one again (its
    program reused): every character of each stamp has its outline in that PDF's font."""
    names = ["Ana Souza", "Wladimir Kühn Ybarra", "Zélia Quintão", "Ana Souza"]
    for name in names:
        pdf = _sign(signer, pdfa, signer_name=name)
        assert verify_pdf(pdf, [pki.root_certificate]).valid
        assert pdf_problems(pdf) == []
        text, program = _stamp_font_program(pdf)
        assert name in text
        cmap, glyphs = program.getBestCmap(), program["glyf"]
        for char in set(text) - {" "}:
            assert glyphs[cmap[ord(char)]].numberOfContours != 0, (name, char)


def test_refuses_double_signing_bad_boxes_and_garbage(signer: DocumentSigner, pdfa: bytes) -> None:
    signed = _sign(signer, pdfa)
    with pytest.raises(InputError, match="já está assinado"):
        _sign(signer, signed)
    with pytest.raises(InputError, match="ultrapassa a última página"):
        _sign(signer, pdfa, field_box=(56.0, 56.0, 5000.0, 120.0))
    with pytest.raises(InputError, match="Retângulo da assinatura inválido"):
        _sign(signer, pdfa, field_box=(330.0, 56.0, 56.0, 120.0))
    with pytest.raises(InputError, match="não é um PDF legível"):
        _sign(signer, b"isto nao e um pdf")
    with pytest.raises(InputError, match="fuso horário"):
        _sign(signer, pdfa, signing_time=datetime(2026, 1, 1, 12, 0))


def test_pades_b_t_with_a_local_time_stamping_authority(
    pki: DevPki, pdfa: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    root_identity = load_signer(pki.folder / "raiz.p12", pki.passphrase)
    tsa = make_certificate(
        "lavra – carimbo do tempo de teste", issuer=root_identity, timestamping=True
    )
    key_der = tsa.private_key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    stamper = DummyTimeStamper(
        tsa_cert=asn1_x509.Certificate.load(
            tsa.certificate.public_bytes(serialization.Encoding.DER)
        ),
        tsa_key=asn1_keys.PrivateKeyInfo.load(key_der),
    )
    timestamped = DocumentSigner(
        pki.load("prefeito"), cargo="Prefeito Municipal", timestamper=stamper
    )
    assert timestamped.timestamped

    def no_template(template: fastcms.CmsTemplate, digest: bytes) -> bytes:
        raise AssertionError("B-T signatures are built by pyHanko, not by the CMS template")

    monkeypatch.setattr(fastcms.CmsTemplate, "sign", no_template)
    pdf = _sign(timestamped, pdfa)
    check = verify_pdf(pdf, [pki.root_certificate])
    assert check.timestamped
    assert check.valid, check.problems
    assert pdf_problems(pdf) == []
    signer_info = PdfFileReader(io.BytesIO(pdf)).embedded_signatures[0].signer_info
    unsigned = [item["type"].native for item in signer_info["unsigned_attrs"]]
    assert unsigned == ["signature_time_stamp_token"]
