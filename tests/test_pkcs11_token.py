"""Signing with a token (PKCS#11, issue 25), against SoftHSM2: a development signer's
key and certificate are imported into a fresh token, and the act it signs names the
person, for pyHanko, poppler's pdfsig and `lavra verify` alike. The key never leaves
the token: pyHanko's signer computes each signature there (no CMS template)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from issuers import dev_issuer
from softhsm import KEY, MODULE, need_softhsm, softhsm_token
from test_signers import ALV, CARGO, ON, ROLE, example, pdfsig_signer, pdftotext, pyhanko_signer

from lavra.cli.main import main
from lavra.config import Config, PersonCertificate
from lavra.documents import Engine
from lavra.errors import ConfigError
from lavra.issuing import Issuer, SignerKey
from lavra.signing.persons import issue_person_certificate
from lavra.signing.pkcs11token import TokenSpec
from lavra.signing.pki import DEV_PASSPHRASE, load_signer

LABEL = "ANA SOUZA"
PIN = "2468"


@pytest.fixture(scope="module")
def token(tmp_path_factory: pytest.TempPathFactory, engine: Engine) -> Iterator[Path]:
    """A SoftHSM2 token holding Ana Souza's development key and certificate (the PKI's
    root too); yields the data folder of that PKI."""
    need_softhsm()
    base = tmp_path_factory.mktemp("softhsm")
    data = base / "dados"
    dev_issuer(engine, data).close()
    person = load_signer(
        issue_person_certificate(data / "pki", "ana.souza", "Ana Souza", ROLE, CARGO),
        DEV_PASSPHRASE)
    with softhsm_token(base, LABEL, PIN, person):
        yield data


@pytest.fixture
def issuer(engine: Engine, token: Path) -> Iterator[Issuer]:
    issuer = dev_issuer(engine, token)
    yield issuer
    issuer.close()


SPEC = TokenSpec(MODULE, LABEL, KEY)


def test_a_token_signs_an_act_that_names_its_person(
    issuer: Issuer, engine: Engine, tmp_path: Path
) -> None:
    key = SignerKey(SPEC, PIN, None)
    result = issuer.issue(ALV, example(engine, "TOK1A11"), ON, signer=key)
    root = issuer.config.pki_dir / "raiz.pem"
    assert pyhanko_signer(result.pdf, root) == "Ana Souza"
    assert "Signer full Distinguished Name: CN=Ana Souza" in pdfsig_signer(result.pdf, tmp_path)
    text = pdftotext(result.pdf)
    assert f"assinado eletronicamente por Ana Souza, {CARGO}, em" in text
    assert "CN=" not in text and "Signatário de desenvolvimento" not in text
    check = issuer.verify(result.pdf, on=ON)
    assert check.valid, check.problems
    assert check.signer == f"Ana Souza, {CARGO}"
    # the key never left the token: pyHanko's path, no CMS template
    signer, name = issuer.signers.for_key(key, ROLE)
    assert name == "Ana Souza" and signer._template is None


def test_the_cli_signs_with_a_token(
    token: Path, engine: Engine, pack_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LAVRA_DATA", str(token))
    monkeypatch.setenv("LAVRA_PACK", str(pack_dir))
    monkeypatch.delenv("LAVRA_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "dados.json"
    data.write_text(json.dumps(example(engine, "TOK2B22")), "utf-8")
    out = tmp_path / "alvara.pdf"
    # without --token-chave: the token's only signing key is found by itself
    command = ["issue", ALV, str(data), "-o", str(out), "--token", LABEL,
               "--token-modulo", str(MODULE), "--on", ON.strftime("%d/%m/%Y")]
    runner = CliRunner()
    wrong = runner.invoke(main, command, env={"LAVRA_SENHA_CERTIFICADO": "9999"})
    assert wrong.exit_code != 0 and "PIN incorreto" in wrong.output, wrong.output
    assert not out.exists()
    issued = runner.invoke(main, command, env={"LAVRA_SENHA_CERTIFICADO": PIN})
    assert issued.exit_code == 0, issued.output
    verified = runner.invoke(main, ["verify", str(out)])
    assert f"assinado por Ana Souza, {CARGO}." in verified.output, verified.output
    both = runner.invoke(main, [*command, "--certificado", str(out)])
    assert both.exit_code != 0 and "não os dois" in both.output, both.output


def test_a_wrong_pin_signs_and_records_nothing(issuer: Issuer, engine: Engine) -> None:
    before = issuer.registry.next_number("ALV-FRET", ON.year)
    with pytest.raises(ConfigError) as refused:
        issuer.issue(ALV, example(engine, "TOK3C33"), ON, signer=SignerKey(SPEC, "0000", None))
    assert refused.value.message == (
        "PIN incorreto para o token «ANA SOUZA». Nada foi assinado. (Após algumas "
        "tentativas erradas o token se bloqueia.)")
    assert issuer.registry.next_number("ALV-FRET", ON.year) == before
    # a token that is not there, and a key label it does not have
    with pytest.raises(ConfigError, match="O token «OUTRO» não foi encontrado"):
        issuer.signers.for_key(SignerKey(TokenSpec(MODULE, "OUTRO"), PIN, None), ROLE)
    with pytest.raises(ConfigError, match="não tem chave de assinatura com o rótulo «X»"):
        issuer.signers.for_key(SignerKey(TokenSpec(MODULE, LABEL, "X"), PIN, None), ROLE)


def test_a_configured_token_is_the_accounts_key_and_its_pin_is_asked(
    engine: Engine, token: Path
) -> None:
    from lavra.signers import Signers

    config = Config(pack_dir=engine.content.root, data_dir=token, person_certificates={
        "ana.souza": PersonCertificate(passphrase_env="LAVRA_TESTE_PIN_ANA", pkcs11_module=MODULE,
                                       pkcs11_token=LABEL, pkcs11_key=KEY)})
    signers = Signers(config, engine.content.organization.roles)
    with pytest.raises(ConfigError, match="variável LAVRA_TESTE_PIN_ANA"):
        signers.for_account("ana.souza", "Ana Souza", ROLE)
    key = signers.for_account("ana.souza", "Ana Souza", ROLE, passphrase=PIN)
    assert key.certificate == SPEC
    # the signing queue unlocks it once, and signs with it without asking again
    unlocked = signers.unlock(key, ROLE)
    assert unlocked.opened is not None and unlocked.opened[2] == "Ana Souza"
    wrong = signers.for_account("ana.souza", "Ana Souza", ROLE, passphrase="1111")
    with pytest.raises(ConfigError, match="PIN incorreto"):
        signers.unlock(wrong, ROLE)
