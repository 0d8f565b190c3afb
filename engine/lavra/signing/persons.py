"""A certificate per person who signs, and the name a signature is shown under.

Every signed act names the person who signed, in the cargo the form requires, never
an X.509 distinguished name. The development PKI (:mod:`lavra.signing.pki`) gives each
signer a certificate of their own::

    path = issue_person_certificate(pki_dir, "ana.souza", "Ana Souza",
                                    "secretario-transportes", "Secretário Municipal ...")

The certificate's CN is the person's name, its ``title`` the cargo, its OU
``papel: <role id>`` (what the certificate may sign) and its O says it has no legal
validity. The file is ``<pki>/assinantes/<conta>.<papel>.p12``, encrypted with the
development passphrase (public on purpose, like the rest of that PKI).

Production certificates (ICP-Brasil) carry the person's name in the CN, often as
``NOME:CPF``: :func:`signer_name` keeps the name.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from pathlib import Path

from cryptography import x509
from cryptography.x509.oid import NameOID

from lavra.errors import ConfigError, InputError
from lavra.signing.pki import (
    DEV_PASSPHRASE,
    ROOT_P12_FILE,
    _write_private,
    load_signer,
    make_certificate,
    pkcs12_bytes,
)

SIGNERS_DIR = "assinantes"
_ROLE_PREFIX = "papel: "
_KEY = re.compile(r"^[a-z0-9][a-z0-9._-]{0,79}$")
# ICP-Brasil: CN = "NOME DA PESSOA:CPF" (11 digits) for e-CPF certificates.
_ICP_CPF_SUFFIX = re.compile(r":\d{11}$")


def person_key(name: str) -> str:
    """A file key for a person without an account: «Ana Souza» → ``ana-souza``."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    key = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    if not key:
        raise InputError(f"O nome do signatário «{name}» não tem letras nem algarismos.")
    return key[:80]


def person_certificate_path(pki_dir: Path, account: str, role: str) -> Path:
    """Where the development certificate of ``account`` for ``role`` is kept."""
    if not _KEY.match(account) or ".." in account:
        raise InputError(f"Nome de conta inválido para o certificado: «{account}».")
    return Path(pki_dir) / SIGNERS_DIR / f"{account}.{role}.p12"


def issue_person_certificate(
    pki_dir: Path,
    account: str,
    full_name: str,
    role: str,
    cargo: str,
    *,
    valid_from: datetime | None = None,
    force: bool = False,
) -> Path:
    """Create (or keep) the development certificate of one person for one role.

    ``pki_dir`` must hold a development PKI (``lavra keys init``): its root issues the
    certificate. An existing file is kept unless ``force``. Returns the file's path.
    """
    path = person_certificate_path(pki_dir, account, role)
    if path.exists() and not force:
        return path
    root_p12 = Path(pki_dir) / ROOT_P12_FILE
    if not root_p12.exists():
        raise ConfigError(
            "Não há PKI de desenvolvimento para emitir o certificado do signatário: "
            "execute «lavra keys init»."
        )
    name = " ".join(full_name.split())
    if not name:
        raise InputError("O nome do signatário está vazio.", field="--signatario")
    root = load_signer(root_p12, DEV_PASSPHRASE)
    identity = make_certificate(
        name, issuer=root, organizational_unit=f"{_ROLE_PREFIX}{role}",
        title=cargo.strip()[:64] or None, valid_from=valid_from,
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_private(path, pkcs12_bytes(identity, DEV_PASSPHRASE, name=f"{account}.{role}"))
    except OSError as error:
        raise ConfigError(
            f"Não foi possível gravar o certificado do signatário em {path}: "
            f"{error.strerror}."
        ) from None
    return path


def _first(name: x509.Name, oid: x509.ObjectIdentifier) -> str | None:
    found = name.get_attributes_for_oid(oid)
    value = found[0].value if found else None
    return value.strip() if isinstance(value, str) and value.strip() else None


def _name(subject: x509.Name | str) -> x509.Name | None:
    if isinstance(subject, x509.Name):
        return subject
    try:
        return x509.Name.from_rfc4514_string(subject)
    except (ValueError, TypeError):
        return None


def signer_name(subject: x509.Name | str) -> str:
    """The person's name in a certificate subject (its CN, without an ICP-Brasil CPF);
    a text that is no DN is kept (an imported act records who it came from)."""
    name = _name(subject)
    if name is None:
        return str(subject).strip()
    common = _first(name, NameOID.COMMON_NAME)
    if common is None:
        return "signatário não identificado no certificado"
    return _ICP_CPF_SUFFIX.sub("", common).strip()


def signer_label(subject: x509.Name | str | None) -> str:
    """«Nome, Cargo» for a certificate subject (a Name or its RFC 4514 text); never a DN.

    The cargo is the certificate's ``title`` when it has one (the development
    certificates of each person); a role certificate names only its cargo in CN.
    """
    if subject is None:
        return ""
    name = _name(subject)
    title = _first(name, NameOID.TITLE) if name is not None else None
    person = signer_name(subject)
    return f"{person}, {title}" if title and title != person else person


def certificate_role(certificate: x509.Certificate) -> str | None:
    """The signing role a development certificate was issued for (its OU), else None."""
    unit = _first(certificate.subject, NameOID.ORGANIZATIONAL_UNIT_NAME)
    if unit is None or not unit.startswith(_ROLE_PREFIX):
        return None
    return unit[len(_ROLE_PREFIX):].strip() or None


__all__ = [
    "SIGNERS_DIR",
    "certificate_role",
    "issue_person_certificate",
    "person_certificate_path",
    "person_key",
    "signer_label",
    "signer_name",
]
