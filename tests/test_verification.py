"""Verification codes, QR codes and checking signed PDFs (tampered ones too)."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime, timedelta

import pytest
import segno
import weasyprint
import zxingcpp
from pdfdamage import incremental_update
from PIL import Image

from lavra.errors import InputError
from lavra.signing.pades import DocumentSigner
from lavra.signing.pki import DevPki, init_dev_pki, load_signer, make_certificate
from lavra.signing.verification import (
    ALPHABET,
    QR_MASK,
    find_verification_code,
    is_valid_code,
    new_code,
    normalize_code,
    qr_png,
    verification_url,
    verify_pdf,
)

SECRETARIO = "Secretário Municipal de Transportes e Sistema Viário"
BOX = (56.0, 56.0, 330.0, 120.0)


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> DevPki:
    return init_dev_pki(tmp_path_factory.mktemp("pki"), {"secretario-transportes": SECRETARIO})


@pytest.fixture(scope="module")
def pdfa() -> bytes:
    html = "<h1>Auto de infração</h1><p>Código de verificação: 7KQM-X4RD-2HNT</p>"
    return bytes(weasyprint.HTML(string=html).write_pdf(pdf_variant="pdf/a-3b"))


@pytest.fixture(scope="module")
def signed(pki: DevPki, pdfa: bytes) -> bytes:
    signer = DocumentSigner(pki.load("secretario-transportes"), cargo=SECRETARIO)
    return _sign(signer, pdfa)


def _sign(signer: DocumentSigner, pdf: bytes, signing_time: datetime | None = None) -> bytes:
    return signer.sign(
        pdf,
        signer_name="Maria Souza",
        field_box=BOX,
        reason="Emissão",
        location="Americana/SP",
        signing_time=signing_time,
    ).pdf


# --- codes -----------------------------------------------------------------------


def test_new_codes_are_grouped_valid_and_use_the_unambiguous_alphabet() -> None:
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert len(code) == 14 and code[4] == code[9] == "-"
        assert set(code.replace("-", "")) <= set(ALPHABET)
        assert is_valid_code(code)
    assert not set("01BILOS") & set(ALPHABET)


def test_check_character_catches_substitutions_and_transpositions() -> None:
    rng = random.Random(4419)
    for _ in range(300):
        compact = new_code().replace("-", "")
        for position in range(len(compact)):
            for char in ALPHABET:
                if char != compact[position]:
                    typo = compact[:position] + char + compact[position + 1 :]
                    assert not is_valid_code(typo), (compact, typo)
        for position in range(len(compact) - 1):
            a, b = compact[position], compact[position + 1]
            if a != b:
                swapped = compact[:position] + b + a + compact[position + 2 :]
                assert not is_valid_code(swapped), (compact, swapped)
        # a transposition at a distance, too
        i, j = sorted(rng.sample(range(len(compact)), 2))
        if compact[i] != compact[j]:
            chars = list(compact)
            chars[i], chars[j] = chars[j], chars[i]
            assert not is_valid_code("".join(chars))


def test_normalize_code_accepts_what_people_type_and_explains_errors() -> None:
    code = new_code()
    assert normalize_code(f"  {code.lower().replace('-', ' ')} ") == code
    assert normalize_code(code.replace("-", "")) == code
    with pytest.raises(InputError, match="12 caracteres") as error:
        normalize_code(code[:-2])
    assert error.value.field == "/codigo"
    with pytest.raises(InputError, match="B, I, L, O, S"):
        normalize_code("O" + code[1:])
    wrong = ALPHABET[(ALPHABET.index(code[-1]) + 1) % len(ALPHABET)]
    with pytest.raises(InputError, match="confira a digitação"):
        normalize_code(code[:-1] + wrong)


def test_verification_url() -> None:
    code = new_code()
    url = verification_url("https://transito.exemplo.gov.br/verificar/", code.lower())
    assert url == f"https://transito.exemplo.gov.br/verificar/{code}"
    with pytest.raises(InputError, match="Endereço de verificação inválido"):
        verification_url("javascript:alert(1)", code)
    with pytest.raises(InputError):
        verification_url("https://exemplo.gov.br/verificar", "AAAA-AAAA-AAAA")


def test_qr_png_draws_the_symbol_of_the_url() -> None:
    url = verification_url("https://transito.exemplo.gov.br/verificar", new_code())
    png = qr_png(url, scale=3)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png)).convert("L")
    expected = segno.make_qr(url, error="m", boost_error=False, mask=QR_MASK)
    size = expected.symbol_size(scale=1, border=4)[0]
    assert image.size == (size * 3, size * 3)
    drawn = [
        tuple(image.getpixel((3 * (x + 4) + 1, 3 * (y + 4) + 1)) < 128 for x in range(size - 8))
        for y in range(size - 8)
    ]
    assert drawn == [tuple(bool(module) for module in row) for row in expected.matrix]
    assert expected.error == "M"
    assert not expected.is_micro


def test_qr_png_with_its_fixed_mask_decodes_to_the_url() -> None:
    """Whatever the code, the fixed mask leaves a symbol a reader decodes (zxing-cpp)."""
    for _ in range(40):
        url = verification_url("https://transito.exemplo.gov.br/verificar", new_code())
        [found] = zxingcpp.read_barcodes(Image.open(io.BytesIO(qr_png(url))))
        assert found.format == zxingcpp.BarcodeFormat.QRCode
        assert found.text == url


def test_find_verification_code_in_pdf_text(pdfa: bytes) -> None:
    assert is_valid_code("7KQM-X4RD-2HNT")  # the code printed by the fixture
    assert find_verification_code(pdfa) == "7KQM-X4RD-2HNT"
    plain = bytes(weasyprint.HTML(string="<p>Código com erro: 7KQM-X4RD-2HNC</p>").write_pdf())
    assert find_verification_code(plain) is None
    with pytest.raises(InputError):
        find_verification_code(b"lixo")


# --- verify_pdf ------------------------------------------------------------------


def test_untouched_signed_pdf_is_valid(signed: bytes, pki: DevPki) -> None:
    check = verify_pdf(signed, [pki.root_certificate])
    assert (check.intact, check.trusted, check.unmodified) == (True, True, True)
    assert check.problems == ()
    assert "SEM VALIDADE JURÍDICA" in check.signer_subject
    assert check.signed_at is not None and check.signed_at.utcoffset() == timedelta(hours=-3)


def test_flipped_byte_inside_the_signed_range_is_not_intact(signed: bytes, pki: DevPki) -> None:
    # a byte of the page content stream, well inside the first signed range
    position = signed.index(b"stream") + 20
    tampered = bytearray(signed)
    tampered[position] ^= 0x01
    check = verify_pdf(bytes(tampered), [pki.root_certificate])
    assert not check.intact
    assert not check.valid
    assert any("resumo (hash)" in problem for problem in check.problems)


def test_incremental_update_changing_the_page_is_not_unmodified(signed: bytes, pki: DevPki) -> None:
    updated = incremental_update(signed, b"MULTA CANCELADA")
    check = verify_pdf(updated, [pki.root_certificate])
    assert check.intact and check.trusted
    assert not check.unmodified
    assert check.problems == (
        "O documento foi modificado depois de assinado: uma atualização posterior à "
        "assinatura altera o seu conteúdo.",
    )


def test_bytes_appended_after_the_signature(signed: bytes, pki: DevPki) -> None:
    check = verify_pdf(signed + b"\n% acrescimo\n", [pki.root_certificate])
    assert check.intact and check.trusted
    assert not check.unmodified
    assert check.problems == (
        "A assinatura não cobre o arquivo inteiro: houve acréscimo de conteúdo após a assinatura.",
    )


def test_signature_from_another_root_is_not_trusted(
    pki: DevPki, pdfa: bytes, tmp_path_factory: pytest.TempPathFactory
) -> None:
    other = init_dev_pki(tmp_path_factory.mktemp("outra"), {"secretario-transportes": SECRETARIO})
    forged = _sign(DocumentSigner(other.load("secretario-transportes"), cargo=SECRETARIO), pdfa)
    check = verify_pdf(forged, [pki.root_certificate])
    assert check.intact and check.unmodified
    assert not check.trusted
    assert check.problems == (
        "O certificado do signatário não pertence a uma cadeia de certificação confiável "
        "configurada para a verificação.",
    )
    # the same file is trusted by its own root
    assert verify_pdf(forged, [other.root_certificate]).valid


def test_expired_signer_certificate_is_not_trusted(pki: DevPki, pdfa: bytes) -> None:
    root = load_signer(pki.folder / "raiz.p12", pki.passphrase)
    now = datetime.now(UTC)
    expired = make_certificate(
        SECRETARIO,
        issuer=root,
        valid_from=now - timedelta(days=3 * 365),
        valid_for=timedelta(days=365),
    )
    signer = DocumentSigner(expired, cargo=SECRETARIO)
    # signed while the certificate was valid, but with no time stamp to prove it
    pdf = _sign(signer, pdfa, signing_time=now - timedelta(days=2 * 365 + 100))
    check = verify_pdf(pdf, [pki.root_certificate])
    assert check.intact and check.unmodified
    assert not check.trusted
    assert len(check.problems) == 1
    assert check.problems[0].startswith("O certificado do signatário expirou em ")


def test_unsigned_pdf_and_garbage_raise_lavra_errors(pdfa: bytes, pki: DevPki) -> None:
    with pytest.raises(InputError, match="não contém assinatura"):
        verify_pdf(pdfa, [pki.root_certificate])
    with pytest.raises(InputError, match="não é um PDF: falta o cabeçalho"):
        verify_pdf(b"\x00\x01 lixo", [pki.root_certificate])
    with pytest.raises(InputError, match="raiz de confiança"):
        verify_pdf(pdfa, [])
