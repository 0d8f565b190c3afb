"""The tests' development PKIs share their RSA keys (tests/issuers.py ``shared_keys``), each
still with distinct keys and its own certificates; ``lavra keys init`` never shares any."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives import serialization
from issuers import VERIFICATION_URL, shared_keys

from lavra.checking.content import Content
from lavra.cli.main import main
from lavra.config import Config, load_config
from lavra.issuing import ensure_dev_pki
from lavra.signing.pki import DevPki, SigningKey, load_signer

REPO = Path(__file__).resolve().parents[1]


def public(key: SigningKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def keys_of(pki: DevPki) -> list[bytes]:
    """The public keys of the PKI's root and of each role, root first."""
    root = load_signer(pki.folder / "raiz.p12", pki.passphrase)
    return [public(root.private_key), *(public(pki.load(role).private_key)
                                        for role in sorted(pki.signers))]


@pytest.fixture(scope="module")
def content() -> Content:
    return Content(REPO)


def shared_pki(content: Content, data_dir: Path, valid_from: datetime) -> DevPki:
    config = Config(pack_dir=REPO, data_dir=data_dir, verification_url=VERIFICATION_URL)
    return ensure_dev_pki(config, content, valid_from=valid_from, new_key=shared_keys())


def test_shared_pkis_reuse_keys_but_make_their_own_certificates(
    content: Content, tmp_path: Path
) -> None:
    early, late = datetime(2025, 3, 1, tzinfo=UTC), datetime(2026, 8, 15, tzinfo=UTC)
    first = shared_pki(content, tmp_path / "um", early)
    second = shared_pki(content, tmp_path / "dois", late)
    keys = keys_of(first)
    assert len(set(keys)) == len(keys) == 1 + len(content.organization.roles)
    assert keys_of(second) == keys
    for pki, start in ((first, early), (second, late)):
        assert pki.root_certificate.not_valid_before_utc == start
        for role in pki.signers:
            signer = pki.load(role)
            assert signer.certificate.not_valid_before_utc == start
            assert signer.certificate.issuer == pki.root_certificate.subject
            assert signer.chain[0] == pki.root_certificate
    assert first.root_certificate.serial_number != second.root_certificate.serial_number


def test_keys_init_generates_fresh_keys_every_time(
    content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = set(keys_of(shared_pki(content, tmp_path / "compartilhada",
                                        datetime(2026, 1, 1, tzinfo=UTC))))
    monkeypatch.delenv("LAVRA_DATABASE_URL", raising=False)
    made: list[bytes] = []
    for name in ("primeira", "segunda"):
        folder = tmp_path / name
        folder.mkdir()
        monkeypatch.chdir(folder)
        result = CliRunner().invoke(main, ["keys", "init"])
        assert result.exit_code == 0, result.output
        config = load_config(folder)
        assert config.pki_dir.is_relative_to(folder)
        roles = content.organization.roles
        pki = ensure_dev_pki(config, content)  # reuses what keys init made: no new key
        assert sorted(pki.signers) == sorted(roles)
        made += keys_of(pki)
    assert len(set(made)) == len(made) == 2 * (1 + len(content.organization.roles))
    assert not shared & set(made)
