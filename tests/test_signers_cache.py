"""A person's PKCS#12 is opened once per process, not per document (lavra.signers
``_opened``): the same file and passphrase reuse the identity; a wrong passphrase still
fails; a file replaced (another modification time) is opened again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lavra import signers as signers_module
from lavra.checking.content import Content
from lavra.config import Config
from lavra.errors import ConfigError
from lavra.signers import SignerKey, Signers
from lavra.signing.pki import make_certificate, pkcs12_bytes

REPO = Path(__file__).resolve().parents[1]
ROLE = "secretario-transportes"


def test_the_certificate_is_opened_once_per_file_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p12 = tmp_path / "ana.p12"
    p12.write_bytes(pkcs12_bytes(make_certificate("Ana Souza"), "pin-da-ana"))
    opened: list[Path] = []
    real = signers_module.load_signer

    def counting(path: Path, passphrase: str) -> object:
        opened.append(path)
        return real(path, passphrase)

    monkeypatch.setattr(signers_module, "load_signer", counting)
    signers = Signers(Config(pack_dir=REPO, data_dir=tmp_path),
                      Content(REPO).organization.roles)
    key = SignerKey(p12, "pin-da-ana", "ana.souza")
    first, name = signers.for_key(key, ROLE)
    for _ in range(5):
        assert signers.for_key(key, ROLE) == (first, name)
    assert name == "Ana Souza" and len(opened) == 1
    with pytest.raises(ConfigError, match="senha incorreta"):
        signers.for_key(SignerKey(p12, "pin-errado", "ana.souza"), ROLE)
    with pytest.raises(ConfigError, match="senha incorreta"):  # a failure is not kept
        signers.for_key(SignerKey(p12, "pin-errado", "ana.souza"), ROLE)
    assert len(opened) == 3
    p12.write_bytes(pkcs12_bytes(make_certificate("Ana Souza Lima"), "pin-da-ana"))
    stat = p12.stat()
    os.utime(p12, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert signers.for_key(key, ROLE)[1] == "Ana Souza Lima" and len(opened) == 4
    assert not any("pin-da-ana" in p.name for p in tmp_path.iterdir())
