"""A certificate per signer (issue 25, step 1): the PDF, its stamp and `lavra verify`
name the person who signed, in the cargo the form requires, never an X.509 DN."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from asn1crypto import x509 as asn1_x509
from click.testing import CliRunner
from cryptography.hazmat.primitives import serialization
from identities import set_vehicle
from issuers import dev_issuer
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko_certvalidator import ValidationContext

from lavra.checking.content import Content
from lavra.cli.main import main
from lavra.config import Config, PersonCertificate, load_config
from lavra.documents import Engine
from lavra.errors import ConfigError, InputError
from lavra.issuing import Issuer, SignerKey
from lavra.signing.persons import signer_label
from lavra.signing.pki import DEV_PASSPHRASE, load_certificates, make_certificate, pkcs12_bytes

ALV = "alvara-fretamento"
ON = date(2026, 11, 29)
ROLE = "secretario-transportes"
CARGO = "Secretário Municipal de Transportes e Sistema Viário"


@pytest.fixture
def issuer(engine: Engine, tmp_path: Path) -> Any:
    issuer = dev_issuer(engine, tmp_path / "dados")
    yield issuer
    issuer.close()


def example(engine: Engine, placa: str) -> dict[str, Any]:
    path = engine.content.form(ALV).example
    assert path is not None
    data = json.loads(path.read_text(encoding="utf-8"))
    set_vehicle(data["veiculo"], placa)
    return data


def pdftotext(pdf: bytes) -> str:
    out = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True)
    return " ".join(out.stdout.decode("utf-8").split())


def pyhanko_signer(pdf: bytes, root: Path) -> str:
    """The signing certificate's CN, from a signature pyHanko finds valid and trusted."""
    roots = [asn1_x509.Certificate.load(c.public_bytes(serialization.Encoding.DER))
             for c in load_certificates(root)]
    signatures = PdfFileReader(io.BytesIO(pdf)).embedded_signatures
    assert len(signatures) == 1
    status = validate_pdf_signature(
        signatures[0], ValidationContext(trust_roots=roots, allow_fetching=False))
    assert status.intact and status.valid and status.trusted, status.pretty_print_details()
    return str(status.signing_cert.subject.native["common_name"])


def pdfsig_signer(pdf: bytes, folder: Path) -> str:
    executable = shutil.which("pdfsig")
    if executable is None:
        pytest.skip("pdfsig (poppler-utils) ausente")
    path = folder / "assinado.pdf"
    path.write_bytes(pdf)
    out = subprocess.run([executable, "-nocert", str(path)], capture_output=True, text=True,
                         timeout=60).stdout
    assert "Signature is Valid." in out, out
    return out


def test_two_signers_each_named_in_their_own_document(
    issuer: Issuer, engine: Engine, tmp_path: Path
) -> None:
    ana = issuer.signer_for("ana.souza", "Ana Souza", ROLE)
    bruno = issuer.signer_for("bruno.lima", "Bruno de Lima Conceição", ROLE)
    assert ana.certificate != bruno.certificate
    assert ana.certificate.name == f"ana.souza.{ROLE}.p12"
    first = issuer.issue(ALV, example(engine, "ANA1A11"), ON, signer=ana)
    second = issuer.issue(ALV, example(engine, "BRU2B22"), ON, signer=bruno)
    root = issuer.config.pki_dir / "raiz.pem"
    for result, person in ((first, "Ana Souza"), (second, "Bruno de Lima Conceição")):
        assert pyhanko_signer(result.pdf, root) == person
        assert f"Signer full Distinguished Name: CN={person}" in pdfsig_signer(
            result.pdf, tmp_path)
        text = pdftotext(result.pdf)
        # the document's signature block and the stamp: the person, in the form's cargo
        assert f"Documento assinado eletronicamente por {person}, {CARGO}." in text
        assert f"assinado eletronicamente por {person}, {CARGO}, em" in text
        assert "Signatário de desenvolvimento" not in text and "CN=" not in text
        check = issuer.verify(result.pdf, on=ON)
        assert check.valid, check.problems
        assert check.signer == f"{person}, {CARGO}"
        assert signer_label(result.record.signer_subject) == f"{person}, {CARGO}"
    # one signer (and CMS template) per certificate, not per role
    assert len(issuer.signers._people) == 2


def test_a_wrong_passphrase_or_role_refuses_and_numbers_nothing(
    issuer: Issuer, engine: Engine
) -> None:
    ana = issuer.signer_for("ana.souza", "Ana Souza", ROLE)
    with pytest.raises(ConfigError, match="senha incorreta"):
        issuer.issue(ALV, example(engine, "ANA1A11"), ON,
                     signer=SignerKey(ana.certificate, "errada", "ana.souza"))
    agent = issuer.signer_for("ana.souza", "Ana Souza", "agente-fiscalizacao")
    with pytest.raises(InputError, match="emitido para assinar como Agente de Fiscalização"):
        issuer.issue(ALV, example(engine, "ANA1A11"), ON, signer=agent)
    assert issuer.registry.next_number("ALV-FRET", ON.year) == 1


def test_in_production_a_signer_without_a_certificate_is_refused(
    engine: Engine, tmp_path: Path
) -> None:
    p12 = tmp_path / "ana.p12"
    config = Config(pack_dir=engine.content.root, data_dir=tmp_path, person_certificates={
        "ana.souza": PersonCertificate(passphrase_env="LAVRA_TESTE_SENHA_ANA", file=p12)})
    from lavra.signers import Signers

    signers = Signers(config, engine.content.organization.roles)
    with pytest.raises(ConfigError) as caught:
        signers.for_account("bruno.lima", "Bruno Lima", ROLE)
    assert caught.value.message == (
        "A conta «bruno.lima» não tem certificado de assinatura: peça à administração que "
        'configure [certificados."bruno.lima"] com o certificado ICP-Brasil da pessoa.')
    with pytest.raises(ConfigError, match="variável LAVRA_TESTE_SENHA_ANA"):
        signers.for_account("ana.souza", "Ana Souza", ROLE)
    # the passphrase typed at signing unlocks her own PKCS#12
    p12.write_bytes(pkcs12_bytes(make_certificate("Ana Souza", title=CARGO), "pin-da-ana"))
    key = signers.for_account("ana.souza", "Ana Souza", ROLE, passphrase="pin-da-ana")
    assert signers.for_key(key, ROLE)[1] == "Ana Souza"
    wrong = SignerKey(p12, "outra", "ana.souza")
    with pytest.raises(ConfigError) as refused:
        signers.for_key(wrong, ROLE)
    assert "senha incorreta" in refused.value.message and str(p12) not in refused.value.message


def test_the_configuration_refuses_unknown_or_ambiguous_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    toml = tmp_path / "lavra.toml"
    monkeypatch.setenv("LAVRA_CONFIG", str(toml))
    toml.write_text('[certificados."ana.souza"]\narquivo = "/a.p12"\nsenha = "x"\n'
                    'senha_variavel = "S"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="chaves desconhecidas senha "):
        load_config(tmp_path)
    toml.write_text('[certificados."ana.souza"]\narquivo = "/a.p12"\npkcs11_modulo = "/m.so"\n'
                    'senha_variavel = "S"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="um dos dois"):
        load_config(tmp_path)
    toml.write_text('[certificados."ana.souza"]\npkcs11_modulo = "/m.so"\npkcs11_token = "ANA"\n'
                    'senha_variavel = "PIN"\n', encoding="utf-8")
    token = load_config(tmp_path).person_certificates["ana.souza"]
    assert (token.pkcs11_module, token.pkcs11_token, token.file) == (Path("/m.so"), "ANA", None)


def test_cli_creates_a_persons_certificate_and_signs_with_it(
    pack_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LAVRA_DATA", str(tmp_path / "dados"))
    monkeypatch.setenv("LAVRA_PACK", str(pack_dir))
    monkeypatch.delenv("LAVRA_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    made = runner.invoke(main, ["keys", "init", "--signatario", "Ana Souza", "--papel", ROLE])
    assert made.exit_code == 0, made.output
    p12 = tmp_path / "dados" / "pki" / "assinantes" / f"ana-souza.{ROLE}.p12"
    assert f"Certificado de Ana Souza, {CARGO}: {p12}" in made.output
    data = tmp_path / "dados.json"
    data.write_text(json.dumps(example(Engine(Content(pack_dir)), "CLI3C33")), "utf-8")
    out = tmp_path / "alvara.pdf"
    issued = runner.invoke(
        main, ["issue", ALV, str(data), "-o", str(out), "--certificado", str(p12),
               "--on", ON.strftime("%d/%m/%Y")],
        env={"LAVRA_SENHA_CERTIFICADO": DEV_PASSPHRASE})
    assert issued.exit_code == 0, issued.output
    verified = runner.invoke(main, ["verify", str(out)])
    assert f"assinado por Ana Souza, {CARGO}." in verified.output, verified.output
    assert "CN=" not in verified.output
    unknown = runner.invoke(main, ["keys", "init", "--signatario", "Ana", "--papel", "x"])
    assert unknown.exit_code != 0 and "Papel de assinatura desconhecido: «x»" in unknown.output


def test_the_label_is_never_a_dn() -> None:
    assert signer_label("CN=ANA SOUZA:12345678901,OU=AC SOLUTI,O=ICP-Brasil,C=BR") == (
        "ANA SOUZA")
    assert signer_label(f"CN=Ana Souza,2.5.4.12={CARGO},C=BR") == f"Ana Souza, {CARGO}"
    assert signer_label("O=Prefeitura,C=BR") == "signatário não identificado no certificado"
    assert signer_label("Importação (ato anterior ao lavra)") == (
        "Importação (ato anterior ao lavra)")
