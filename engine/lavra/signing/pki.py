"""Signing keys: a development PKI for demos and tests, and loading production keys.

Development PKI (no legal validity, and every certificate says so in its subject)::

    pki = init_dev_pki(Path("dados/pki"), {"secretario-transportes": "Secretário ..."})
    identity = pki.load("secretario-transportes")

It creates, in ``folder``: ``raiz.pem`` (the root certificate, to configure as the
trust root when verifying), ``raiz.p12`` (root key, to issue more role certificates
later), one ``<papel>.p12`` per role (the signer's key, certificate and the root) and
``LEIA-ME.txt``. Every PKCS#12 file is encrypted with :data:`DEV_PASSPHRASE` unless
another passphrase is given. The call is idempotent: an existing PKI is reused (roles
added since are issued by the existing root); nothing is overwritten unless
``force=True``.

Verification trusts the roots in ``<pasta_dados>/pki/confiaveis/`` (PEM), and checks
the revocation of every certificate under them with the CRLs (LCR) and OCSP responses
copied into ``<pasta_dados>/pki/lcr/`` (:func:`load_revocation_info`) and those fetched
from the addresses the certificates publish. The development PKI publishes none: its
signatures are verified without revocation checking, and say they have no validity.

Production uses the municipality's ICP-Brasil certificate:

* a PKCS#12 file (A1 certificate) read by :func:`load_signer`, its passphrase taken
  from the environment variable :data:`PASSPHRASE_ENV` (:func:`passphrase_from_env`),
  never from a file in the repository;
* or a token / smart card (A3 certificate) through PKCS#11: pyHanko's
  ``pyhanko.sign.pkcs11.PKCS11Signer`` (needs the ``python-pkcs11`` package and the
  token's module). Not implemented here: the signing pipeline takes a loaded
  identity and would need a pyHanko signer backed by the token instead.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeAlias

from cryptography import x509
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509 import ocsp
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from lavra.errors import ConfigError, InputError
from lavra.inputs.reading import describe_os_error

DEV_PASSPHRASE = "lavra-dev-sem-validade"
"""Passphrase of the development PKI's PKCS#12 files (public on purpose: no validity)."""

PASSPHRASE_ENV = "LAVRA_SIGNING_PASSPHRASE"
"""Environment variable holding the production PKCS#12 passphrase."""

DEV_ORGANIZATION = "lavra – PKI de desenvolvimento, SEM VALIDADE JURÍDICA"
DEV_ROOT_NAME = "lavra – AC raiz de desenvolvimento"
DEV_VALIDITY = timedelta(days=3 * 365)

ROOT_CERT_FILE = "raiz.pem"
TRUSTED_DIR = "confiaveis"
REVOCATION_DIR = "lcr"
ROOT_P12_FILE = "raiz.p12"
README_FILE = "LEIA-ME.txt"

_ROLE_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_NAME_MAX = 64  # X.520 upper bound for CN and O
_RSA_BITS = 2048

SigningKey: TypeAlias = rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey
KeySource: TypeAlias = Callable[[], rsa.RSAPrivateKey]
"""Where a new certificate's key comes from: :func:`new_rsa_key` (a fresh key) unless a
caller passes another (the tests reuse keys across their throw-away PKIs)."""


@dataclass(frozen=True)
class SignerIdentity:
    """A signer's private key, certificate and the other certificates of its chain."""

    certificate: x509.Certificate
    private_key: SigningKey
    chain: tuple[x509.Certificate, ...] = ()

    @property
    def subject(self) -> str:
        """The certificate subject as an RFC 4514 string."""
        return self.certificate.subject.rfc4514_string()

    @property
    def serial(self) -> str:
        """The certificate serial number in upper-case hexadecimal."""
        return certificate_serial(self.certificate)


@dataclass(frozen=True)
class DevPki:
    """A development PKI on disk: root certificate and one PKCS#12 file per role."""

    folder: Path
    root_certificate: x509.Certificate
    signers: Mapping[str, Path]
    passphrase: str

    @property
    def root_path(self) -> Path:
        return self.folder / ROOT_CERT_FILE

    def load(self, role: str) -> SignerIdentity:
        """The identity of ``role`` (InputError when the PKI has no such role)."""
        try:
            path = self.signers[role]
        except KeyError:
            known = ", ".join(sorted(self.signers)) or "nenhum"
            raise InputError(
                f"O papel «{role}» não existe na PKI de desenvolvimento em {self.folder}. "
                f"Papéis disponíveis: {known}."
            ) from None
        return load_signer(path, self.passphrase)


def certificate_serial(certificate: x509.Certificate) -> str:
    """Serial number of ``certificate`` in upper-case hexadecimal."""
    return format(certificate.serial_number, "X")


def passphrase_from_env(name: str = PASSPHRASE_ENV) -> str:
    """The production passphrase from the environment; ConfigError when unset or empty."""
    value = os.environ.get(name, "")
    if not value:
        raise ConfigError(
            f"A senha do certificado de assinatura não foi informada: defina a variável "
            f"de ambiente {name}."
        )
    return value


def new_rsa_key() -> rsa.RSAPrivateKey:
    """A freshly generated RSA key: the key source of every certificate unless a caller
    passes another; ``lavra keys init`` and the signers always use it."""
    return rsa.generate_private_key(public_exponent=65537, key_size=_RSA_BITS)


def make_certificate(
    common_name: str,
    *,
    issuer: SignerIdentity | None = None,
    organization: str = DEV_ORGANIZATION,
    organizational_unit: str | None = None,
    title: str | None = None,
    valid_from: datetime | None = None,
    valid_for: timedelta = DEV_VALIDITY,
    ca: bool = False,
    timestamping: bool = False,
    new_key: KeySource = new_rsa_key,
) -> SignerIdentity:
    """A new RSA key (from ``new_key``) and certificate; self-signed (a root CA) when
    ``issuer`` is None.

    ``title``: the signer's cargo (X.520 ``title``), beside the person's name in CN.
    End-entity certificates have key usage digitalSignature + nonRepudiation;
    ``timestamping=True`` makes a time-stamping authority certificate instead.
    """
    for label, text in (("nome (CN)", common_name), ("organização (O)", organization)):
        if not text.strip() or len(text) > _NAME_MAX:
            raise InputError(
                f"O {label} do certificado deve ter de 1 a {_NAME_MAX} caracteres: «{text}»."
            )
    key = new_key()
    attributes = [
        x509.NameAttribute(NameOID.COUNTRY_NAME, "BR"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, organization),
    ]
    if organizational_unit:
        attributes.append(x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, organizational_unit))
    if title:
        if len(title) > _NAME_MAX:
            raise InputError(
                f"O cargo (title) do certificado deve ter até {_NAME_MAX} caracteres: «{title}»."
            )
        attributes.append(x509.NameAttribute(NameOID.TITLE, title))
    attributes.append(x509.NameAttribute(NameOID.COMMON_NAME, common_name))
    subject = x509.Name(attributes)
    start = (valid_from or datetime.now(UTC)).replace(microsecond=0)
    signing_key: SigningKey = key if issuer is None else issuer.private_key
    issuer_name = subject if issuer is None else issuer.certificate.subject
    issuer_public = key.public_key() if issuer is None else issuer.private_key.public_key()
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + valid_for)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_public), critical=False
        )
        .add_extension(_key_usage(ca=ca, timestamping=timestamping), critical=True)
    )
    if timestamping:
        builder = builder.add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True
        )
    certificate = builder.sign(signing_key, hashes.SHA256())
    chain = () if issuer is None else (issuer.certificate, *issuer.chain)
    return SignerIdentity(certificate=certificate, private_key=key, chain=chain)


def _key_usage(*, ca: bool, timestamping: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=not ca,
        content_commitment=not ca and not timestamping,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=ca,
        crl_sign=ca,
        encipher_only=False,
        decipher_only=False,
    )


def pkcs12_bytes(identity: SignerIdentity, passphrase: str, *, name: str = "lavra") -> bytes:
    """``identity`` as a PKCS#12 archive encrypted with ``passphrase``."""
    return pkcs12.serialize_key_and_certificates(
        name=name.encode("utf-8"),
        key=identity.private_key,
        cert=identity.certificate,
        cas=list(identity.chain) or None,
        encryption_algorithm=serialization.BestAvailableEncryption(passphrase.encode("utf-8")),
    )


def load_signer(p12_path: Path, passphrase: str | bytes) -> SignerIdentity:
    """Key and certificates from a PKCS#12 file (``.p12``/``.pfx``).

    Raises ConfigError (pt-BR) when the file is missing or unreadable, the passphrase
    is wrong, or the archive lacks a key or certificate of a supported kind (RSA, EC).
    """
    path = Path(p12_path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"Arquivo do certificado de assinatura não encontrado: {path}.") from None
    except OSError as error:
        raise ConfigError(
            "Não foi possível ler o arquivo do certificado de assinatura "
            f"{path}: {describe_os_error(error)}."
        ) from None
    secret = passphrase.encode("utf-8") if isinstance(passphrase, str) else passphrase
    try:
        key, certificate, others = pkcs12.load_key_and_certificates(data, secret or None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise ConfigError(
            f"Não foi possível abrir o certificado de assinatura {path}: senha incorreta "
            "ou arquivo PKCS#12 inválido."
        ) from None
    if certificate is None or key is None:
        raise ConfigError(
            f"O arquivo {path} não contém a chave privada e o certificado do signatário."
        )
    if not isinstance(key, rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey):
        raise ConfigError(
            f"A chave do certificado {path} é de tipo não suportado; use RSA ou curva elíptica."
        )
    return SignerIdentity(certificate=certificate, private_key=key, chain=tuple(others))


def load_certificates(path: Path) -> tuple[x509.Certificate, ...]:
    """Every certificate in a PEM (one or more) or DER file, e.g. a trust root."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ConfigError(
            f"Não foi possível ler o arquivo de certificados {path}: {describe_os_error(error)}."
        ) from None
    try:
        if b"-----BEGIN" in data:
            return tuple(x509.load_pem_x509_certificates(data))
        return (x509.load_der_x509_certificate(data),)
    except ValueError:
        raise ConfigError(f"O arquivo {path} não contém certificados X.509 legíveis.") from None


@dataclass(frozen=True)
class RevocationInfo:
    """CRLs and OCSP responses supplied locally (DER), for checking revocation offline."""

    crls: tuple[bytes, ...] = ()
    ocsps: tuple[bytes, ...] = ()


def load_revocation_info(folder: Path) -> RevocationInfo:
    """Every CRL (PEM or DER) and OCSP response (DER) in ``folder``; none when absent.

    The folder is ``<pasta_dados>/pki/lcr/``: the lists of revoked certificates
    (LCR) published by the certification authorities, and OCSP responses, copied
    there for verifying without network access or in addition to it. Any file
    that is neither is a ConfigError naming it (hidden files are skipped).
    """
    folder = Path(folder)
    if not folder.is_dir():
        return RevocationInfo()
    crls: list[bytes] = []
    responses: list[bytes] = []
    try:
        paths = sorted(path for path in folder.iterdir() if path.is_file())
        for path in paths:
            if path.name.startswith("."):
                continue
            data = path.read_bytes()
            kind, der = _revocation_file(data)
            if kind is None:
                raise ConfigError(
                    f"O arquivo {path} não é uma lista de certificados revogados (LCR) nem "
                    "uma resposta OCSP legível."
                )
            (crls if kind == "crl" else responses).append(der)
    except OSError as error:
        raise ConfigError(
            f"Não foi possível ler as listas de revogação em {folder}: "
            f"{describe_os_error(error)}."
        ) from None
    return RevocationInfo(crls=tuple(crls), ocsps=tuple(responses))


def _revocation_file(data: bytes) -> tuple[str | None, bytes]:
    try:
        if b"-----BEGIN X509 CRL" in data:
            crl = x509.load_pem_x509_crl(data)
            return "crl", crl.public_bytes(serialization.Encoding.DER)
        x509.load_der_x509_crl(data)
        return "crl", data
    except ValueError:
        pass
    try:
        ocsp.load_der_ocsp_response(data)
    except ValueError:
        return None, data
    return "ocsp", data


def init_dev_pki(
    folder: Path,
    roles: Mapping[str, str],
    *,
    passphrase: str = DEV_PASSPHRASE,
    force: bool = False,
    valid_from: datetime | None = None,
    new_key: KeySource = new_rsa_key,
) -> DevPki:
    """Create (or reuse) the development PKI in ``folder``; ``roles`` maps role id → cargo.

    ``valid_from``: the start of the new certificates' validity (default now): ``lavra
    demo`` signs its case histories on an earlier clock. ``new_key``: where each new
    certificate's key comes from, the root's first (default: a fresh key each).

    Each role's certificate has CN = the cargo, O = :data:`DEV_ORGANIZATION` (which says
    it has no legal validity) and OU = ``papel: <role id>``.
    """
    folder = Path(folder)
    for role, cargo in roles.items():
        if not _ROLE_ID.match(role):
            raise InputError(
                f"Identificador de papel inválido: «{role}». Use letras minúsculas, "
                "algarismos e hífens (ex.: secretario-transportes)."
            )
        if not cargo.strip():
            raise InputError(f"O cargo do papel «{role}» está vazio.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        root = _root(folder, passphrase, force=force, valid_from=valid_from, new_key=new_key)
        signers: dict[str, Path] = {}
        for role, cargo in roles.items():
            path = folder / f"{role}.p12"
            if force or not path.exists():
                identity = make_certificate(
                    cargo, issuer=root, organizational_unit=f"papel: {role}",
                    valid_from=valid_from, new_key=new_key,
                )
                _write_private(path, pkcs12_bytes(identity, passphrase, name=role))
            signers[role] = path
        _write_readme(folder)
    except OSError as error:
        raise ConfigError(
            f"Não foi possível criar a PKI de desenvolvimento em {folder}: {error.strerror}."
        ) from None
    return DevPki(
        folder=folder, root_certificate=root.certificate, signers=signers, passphrase=passphrase
    )


def _root(
    folder: Path, passphrase: str, *, force: bool, valid_from: datetime | None, new_key: KeySource
) -> SignerIdentity:
    p12 = folder / ROOT_P12_FILE
    if p12.exists() and not force:
        return load_signer(p12, passphrase)
    if not force and any(folder.glob("*.p12")):
        raise ConfigError(
            f"A pasta {folder} tem certificados de assinatura mas não a AC raiz ({ROOT_P12_FILE}); "
            "recrie a PKI de desenvolvimento com a opção de forçar."
        )
    root = make_certificate(
        DEV_ROOT_NAME, ca=True, valid_for=2 * DEV_VALIDITY, valid_from=valid_from,
        new_key=new_key,
    )
    _write_private(p12, pkcs12_bytes(root, passphrase, name="raiz"))
    pem = root.certificate.public_bytes(serialization.Encoding.PEM)
    _write_atomic(folder / ROOT_CERT_FILE, pem)
    return root


def _write_readme(folder: Path) -> None:
    role_files = sorted(path.name for path in folder.glob("*.p12") if path.name != ROOT_P12_FILE)
    lines = [
        "PKI DE DESENVOLVIMENTO DO LAVRA – SEM VALIDADE JURÍDICA",
        "",
        "Estes certificados servem apenas para demonstração e testes. Documentos",
        "assinados com eles não têm validade jurídica. Em produção, use o certificado",
        "ICP-Brasil do órgão (arquivo PKCS#12 ou token PKCS#11).",
        "",
        f"Certificado raiz (âncora de confiança para verificação): {ROOT_CERT_FILE}",
        "Chave e certificado de cada papel (um arquivo PKCS#12 por papel):",
        *(f"  {name}" for name in role_files),
        "",
        "Certificado de cada pessoa que assina (nome da pessoa no CN, cargo no título),",
        "criado com «lavra keys init --signatario» ou ao criar a conta de assinante:",
        "  assinantes/<conta>.<papel>.p12",
        f"Senha de todos os arquivos PKCS#12 desta pasta: {DEV_PASSPHRASE}",
        "",
    ]
    _write_atomic(folder / README_FILE, "\n".join(lines).encode("utf-8"))


def _write_private(path: Path, data: bytes) -> None:
    _write_atomic(path, data, mode=0o600)


def _write_atomic(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
