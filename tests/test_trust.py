"""Trust outside the development PKI: revocation (CRL, OCSP) and one reason per failure.

A PKI that is not lavra's (tests/trustpki.py) signs real PDFs; CRLs and OCSP responses
are built with ``cryptography`` and given locally, so everything runs offline. The
validation time is pinned (``moment``) in the tests of ``verify_pdf``; the tests of
``Issuer.verify`` and ``lavra verify`` build their certificates around the present.
"""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import trustpki as tp
from click.testing import CliRunner
from cryptography.hazmat.primitives import serialization
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter

from lavra.checking.content import Content
from lavra.cli.main import main
from lavra.config import Config
from lavra.documents import Engine
from lavra.errors import ConfigError
from lavra.issuing import Issuer
from lavra.registry.database import database_url
from lavra.registry.store import open_registry
from lavra.signing import verification as v
from lavra.signing.pades import DocumentSigner
from lavra.signing.pki import init_dev_pki, load_revocation_info

SIGNED_AT = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
MOMENT = SIGNED_AT + timedelta(hours=2)
ISSUED = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def root() -> Any:
    return tp.root_ca(datetime(2020, 1, 1, tzinfo=UTC))


@pytest.fixture(scope="module")
def signer(root: Any) -> Any:
    return tp.end_entity(root, valid_from=ISSUED, ocsp_url=tp.OCSP_URL)


@pytest.fixture(scope="module")
def signed(signer: Any) -> bytes:
    return tp.signed_pdf(signer, SIGNED_AT)


@pytest.fixture(scope="module")
def good_crl(root: Any) -> bytes:
    return tp.crl(root, SIGNED_AT - timedelta(hours=1))


def check(pdf: bytes, root: Any, **revocation: Any) -> v.SignatureCheck:
    return v.verify_pdf(pdf, [root.certificate], moment=MOMENT, **revocation)


# --- revocation --------------------------------------------------------------------


def test_revoked_by_crl_is_not_trusted(signed: bytes, root: Any, signer: Any) -> None:
    crl = tp.crl(root, SIGNED_AT - timedelta(hours=1), (signer.certificate,))
    result = check(signed, root, crls=[crl])
    assert result.intact and result.unmodified and not result.trusted and not result.valid
    assert result.problems == (v.REVOKED,)
    assert "revogado" in result.problems[0]


def test_revoked_by_ocsp_is_not_trusted(signed: bytes, root: Any, signer: Any) -> None:
    response = tp.ocsp_response(
        root, signer.certificate, SIGNED_AT, revoked_at=SIGNED_AT - timedelta(days=3)
    )
    assert check(signed, root, ocsps=[response]).problems == (v.REVOKED,)


def test_good_by_crl_or_ocsp_is_trusted(
    signed: bytes, root: Any, signer: Any, good_crl: bytes
) -> None:
    assert check(signed, root, crls=[good_crl]).valid
    response = tp.ocsp_response(root, signer.certificate, SIGNED_AT - timedelta(hours=1))
    by_ocsp = check(signed, root, ocsps=[response])
    assert by_ocsp.valid and by_ocsp.problems == ()


def test_without_revocation_information_it_is_not_trusted(signed: bytes, root: Any) -> None:
    result = check(signed, root)
    assert result.intact and result.unmodified and not result.trusted
    assert result.problems == (v.REVOCATION_UNKNOWN,)
    assert "Não foi possível verificar a revogação" in result.problems[0]
    assert "não é considerada confiável" in result.problems[0]


def test_a_stale_crl_does_not_establish_revocation(signed: bytes, root: Any) -> None:
    stale = tp.crl(root, SIGNED_AT - timedelta(days=30))  # next update a week later
    assert check(signed, root, crls=[stale]).problems == (v.REVOCATION_UNKNOWN,)


def test_the_development_root_alone_keeps_soft_fail(
    signed: bytes, root: Any, tmp_path: Path
) -> None:
    """The development PKI publishes no CRL: its signatures stay trusted without one,
    also when another root is trusted beside it; the other root's signers need one."""
    pki = init_dev_pki(tmp_path / "pki", {"secretario-transportes": "Secretário"})
    dev_signed = (
        DocumentSigner(pki.load("secretario-transportes"), cargo="Secretário")
        .sign(
            tp.plain_pdf(), signer_name="Maria", field_box=None, reason="r", location="Americana/SP"
        )
        .pdf
    )
    assert v.is_dev_root(pki.root_certificate) and not v.is_dev_root(root.certificate)
    both = [pki.root_certificate, root.certificate]
    assert v.verify_pdf(dev_signed, [pki.root_certificate]).valid
    assert v.verify_pdf(dev_signed, both).valid
    result = v.verify_pdf(signed, both, moment=MOMENT)
    assert result.problems == (v.REVOCATION_UNKNOWN,)


# --- one reason per certificate problem -----------------------------------------------


def test_not_yet_valid_signer(root: Any, good_crl: bytes) -> None:
    early = tp.end_entity(root, valid_from=datetime(2026, 7, 1, 3, tzinfo=UTC))
    result = check(tp.signed_pdf(early, SIGNED_AT), root, crls=[good_crl])
    assert not result.trusted
    assert result.problems == (
        "O certificado do signatário ainda não era válido na data da verificação: a sua "
        "validade só começa em 01/07/2026.",
    )


def test_self_signed_signer(root: Any, good_crl: bytes) -> None:
    alone = tp.end_entity(None, valid_from=ISSUED)
    pdf = tp.signed_pdf(alone, SIGNED_AT)
    assert check(pdf, root, crls=[good_crl]).problems == (v.SELF_SIGNED,)
    # even when someone puts the signer's own certificate among the trust roots
    trusted_itself = v.verify_pdf(pdf, [alone.certificate], moment=MOMENT)
    assert not trusted_itself.trusted and trusted_itself.problems == (v.SELF_SIGNED,)


def test_wrong_key_usage(root: Any, good_crl: bytes) -> None:
    enciphering = tp.end_entity(root, valid_from=ISSUED, key_usage=tp.ENCIPHERMENT_ONLY)
    result = check(tp.signed_pdf(enciphering, SIGNED_AT), root, crls=[good_crl])
    assert result.intact and not result.trusted
    assert result.problems == (v.KEY_USAGE,)


def test_expired_without_time_stamp(root: Any) -> None:
    expired = tp.end_entity(
        root, valid_from=datetime(2023, 1, 1, 3, tzinfo=UTC), valid_for=timedelta(days=365)
    )
    crl = tp.crl(root, SIGNED_AT - timedelta(hours=1))
    result = check(tp.signed_pdf(expired, datetime(2023, 6, 1, tzinfo=UTC)), root, crls=[crl])
    assert result.problems == (
        "O certificado do signatário expirou em 01/01/2024 e não há carimbo do tempo que "
        "prove que a assinatura foi feita durante a sua validade.",
    )


def test_signer_from_an_untrusted_chain(signed: bytes, good_crl: bytes) -> None:
    other = tp.root_ca(datetime(2020, 1, 1, tzinfo=UTC))
    assert check(signed, other, crls=[good_crl]).problems == (v.UNTRUSTED_CHAIN,)


# --- one reason per coverage anomaly ---------------------------------------------------


def test_coverage_anomalies_have_their_own_reasons(
    signed: bytes, root: Any, signer: Any, good_crl: bytes
) -> None:
    def problems(pdf: bytes) -> tuple[str, ...]:
        result = check(pdf, root, crls=[good_crl])
        assert result.intact and result.trusted and not result.unmodified
        return result.problems

    assert problems(signed + b"\n% acrescimo\n") == (v.APPENDED,)
    writer = IncrementalPdfFileWriter(io.BytesIO(signed))
    writer.update_root()
    output = io.BytesIO()
    writer.write(output)
    assert problems(output.getvalue()) == (v.VALIDATION_DATA_ADDED,)
    assert problems(tp.second_signature(signed, signer)) == (
        "O documento recebeu 1 assinatura(s) depois da assinatura de emissão; o lavra "
        "emite documentos com uma única assinatura.",
    )
    reasons = {v.APPENDED, v.VALIDATION_DATA_ADDED, v.CONTENT_CHANGED, v.UNCLEAR_COVERAGE}
    assert len(reasons) == 4 and all("modificado" not in r for r in reasons - {v.CONTENT_CHANGED})


# --- the issuer and the CLI: roots in pki/confiaveis/, CRLs in pki/lcr/ ----------------


def _now_pki(tmp_path: Path) -> tuple[Any, Any, Path]:
    """A PKI around the present, its root in ``pki/confiaveis/`` (no development PKI)."""
    now = datetime.now(UTC).replace(microsecond=0)
    root = tp.root_ca(now - timedelta(days=365))
    signer = tp.end_entity(root, valid_from=now - timedelta(days=30))
    data = tmp_path / "lavra-dados"
    (data / "pki" / "confiaveis").mkdir(parents=True)
    pem = root.certificate.public_bytes(serialization.Encoding.PEM)
    (data / "pki" / "confiaveis" / "raiz-teste.pem").write_bytes(pem)
    return root, signer, data


def _issuer(pack_dir: Path, data: Path) -> Issuer:
    config = Config(pack_dir=pack_dir, data_dir=data)
    return Issuer(Engine(Content(pack_dir)), open_registry(database_url(data)), config)


def test_issuer_checks_revocation_for_roots_in_confiaveis(pack_dir: Path, tmp_path: Path) -> None:
    root, signer, data = _now_pki(tmp_path)
    pdf = tp.signed_pdf(signer, datetime.now(UTC) - timedelta(minutes=1))
    issuer = _issuer(pack_dir, data)
    try:
        # no [assinantes], no CRL: revocation cannot be established, so not trusted
        result = issuer.verify(pdf)
        assert not result.trusted and v.REVOCATION_UNKNOWN in result.problems
        lcr = data / "pki" / "lcr"
        lcr.mkdir()
        now = datetime.now(UTC) - timedelta(minutes=5)
        (lcr / "raiz-teste.crl").write_bytes(tp.crl(root, now, (signer.certificate,)))
        result = issuer.verify(pdf)
        assert not result.trusted and not result.valid and v.REVOKED in result.problems
        (lcr / "raiz-teste.crl").write_bytes(tp.crl(root, now))
        result = issuer.verify(pdf)
        assert result.trusted and result.intact and result.unmodified
        assert not result.registered  # not issued by this registry
    finally:
        issuer.close()


def test_cli_verify_says_revoked(
    pack_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, signer, data = _now_pki(tmp_path)
    lcr = data / "pki" / "lcr"
    lcr.mkdir()
    crl = tp.crl(root, datetime.now(UTC) - timedelta(minutes=5), (signer.certificate,))
    pem = b"-----BEGIN X509 CRL-----\n" + __import__("base64").encodebytes(crl)
    (lcr / "raiz-teste.pem").write_bytes(pem + b"-----END X509 CRL-----\n")
    document = tmp_path / "assinado.pdf"
    document.write_bytes(tp.signed_pdf(signer, datetime.now(UTC) - timedelta(minutes=1)))
    monkeypatch.chdir(tmp_path)
    for name in ("LAVRA_CONFIG", "LAVRA_DATA", "LAVRA_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    runner = CliRunner()
    result = runner.invoke(main, ["verify", str(document)])
    assert result.exit_code == 1, result.output
    assert "Documento NÃO confere:" in result.output and f"  - {v.REVOKED}" in result.output
    result = runner.invoke(main, ["verify", str(document), "--json"])
    assert result.exit_code == 1
    payload = json.loads(result.output)
    assert payload["valid"] is False and payload["trusted"] is False
    assert v.REVOKED in payload["problems"]


def test_revocation_folder_refuses_other_files(tmp_path: Path, root: Any) -> None:
    (tmp_path / "lcr").mkdir()
    (tmp_path / "lcr" / "boa.crl").write_bytes(tp.crl(root, SIGNED_AT))
    (tmp_path / "lcr" / ".oculto").write_bytes(b"ignorado")
    info = load_revocation_info(tmp_path / "lcr")
    assert len(info.crls) == 1 and info.ocsps == ()
    (tmp_path / "lcr" / "leia-me.txt").write_text("não é uma LCR", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"leia-me\.txt não é uma lista de certificados"):
        load_revocation_info(tmp_path / "lcr")
    assert load_revocation_info(tmp_path / "nao-existe").crls == ()
