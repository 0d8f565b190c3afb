"""A batch of the signing queue opens the person's PKCS#12 once (lavra.signers
``Signers.unlock``): a wrong passphrase fails there, before anything is signed, and the
opened key then signs without being unlocked again."""

from __future__ import annotations

from pathlib import Path

import pytest
from webhelpers import REPO

from lavra import signers as signers_module
from lavra.checking.content import Content
from lavra.config import Config, PersonCertificate
from lavra.errors import ConfigError
from lavra.signers import SignerKey, Signers
from lavra.signing.pki import make_certificate, pkcs12_bytes

ROLE = "secretario-transportes"
CARGO = "Secretário Municipal de Transportes e Sistema Viário"


def test_unlock_once_for_a_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p12 = tmp_path / "ana.p12"
    p12.write_bytes(pkcs12_bytes(make_certificate("Ana Souza", title=CARGO), "pin-da-ana"))
    config = Config(pack_dir=REPO, data_dir=tmp_path, person_certificates={
        "ana.souza": PersonCertificate(passphrase_env="LAVRA_TESTE_SENHA_ANA", file=p12)})
    signers = Signers(config, Content(REPO).organization.roles)
    with pytest.raises(ConfigError, match="senha incorreta"):
        signers.unlock(SignerKey(p12, "outra", "ana.souza"), ROLE)
    key = signers.for_account("ana.souza", "Ana Souza", ROLE, passphrase="pin-da-ana")
    opened = signers.unlock(key, ROLE)
    assert opened == key and "pin-da-ana" not in repr(opened)

    def refuse(*_: object) -> None:
        raise AssertionError("a chave já aberta não é aberta de novo")

    monkeypatch.setattr(signers_module, "load_signer", refuse)
    first, name = signers.for_key(opened, ROLE)
    assert name == "Ana Souza" and signers.for_key(opened, ROLE)[0] is first
