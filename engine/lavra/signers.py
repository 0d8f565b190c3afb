"""Who signs an act: a person's own certificate, or the certificate of the role.

    signers = Signers(config, content.organization.roles)
    key = signers.for_account("ana.souza", "Ana Souza", "secretario-transportes")
    signer, name = signers.for_key(key, "secretario-transportes")   # name: "Ana Souza"

A person's key is unlocked at each signing, or once for a batch (:meth:`Signers.unlock`:
the signing queue); the :class:`~lavra.signing.pades.DocumentSigner`
built on it (with its CMS template, :mod:`lavra.signing.fastcms`) is kept per certificate.
A PKCS#12 file is opened once per process (:func:`_opened`): the unlocked identity is
kept in memory, keyed by the file (path, modification time, size) and a salted digest of
the passphrase, so that a document costs no PKCS#12 decryption and a wrong passphrase
still fails; nothing of it is written anywhere. A key on a token (PKCS#11,
:mod:`lavra.signing.pkcs11token`) is checked by the token itself, its PIN at every call,
and every signature is made there (pyHanko's path: no CMS template).
The role's certificate (``[assinantes]`` or the development PKI's role certificate) signs
what no person starts: ``lavra demo`` and the batch runs for now.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from cryptography.hazmat.primitives import hashes

from lavra.config import Config, SignerConfig
from lavra.errors import ConfigError, InputError
from lavra.signing.pades import DocumentSigner
from lavra.signing.persons import certificate_role, issue_person_certificate, signer_name
from lavra.signing.pkcs11token import TokenKey, TokenSpec, open_token
from lavra.signing.pki import (
    DEV_PASSPHRASE,
    DevPki,
    SignerIdentity,
    init_dev_pki,
    load_signer,
)

__all__ = ["SignerKey", "Signers"]

_SALT = secrets.token_bytes(32)  # this process's own: the digests below mean nothing elsewhere
_OPENED: dict[tuple[str, int, int, bytes], SignerIdentity] = {}
_OPENED_LOCK = threading.Lock()
_OPENED_MAX = 64


def _opened(path: Path, passphrase: str) -> SignerIdentity:
    """The identity in the PKCS#12 file ``path``, opened once per process and file
    version (a file replaced is opened again); the passphrase is checked by its
    digest, salted with this process's secret (a wrong one opens the file, and fails)."""
    try:
        found = path.stat()
    except OSError:
        return load_signer(path, passphrase)  # its own pt-BR error
    digest = hashlib.sha256(_SALT + passphrase.encode("utf-8")).digest()
    key = (str(path.resolve()), found.st_mtime_ns, found.st_size, digest)
    with _OPENED_LOCK:
        identity = _OPENED.get(key)
    if identity is None:
        identity = load_signer(path, passphrase)
        with _OPENED_LOCK:
            if len(_OPENED) >= _OPENED_MAX:
                _OPENED.clear()
            _OPENED[key] = identity
    return identity


@dataclass(frozen=True)
class SignerKey:
    """The key of the person who signs: a PKCS#12 file and its passphrase, or a token
    (PKCS#11, :class:`~lavra.signing.pkcs11token.TokenSpec`) and its PIN.

    ``account``: the staff account it belongs to (for the messages), when known.
    ``opened``: the signer already unlocked for a role (:meth:`Signers.unlock`)."""

    certificate: Path | TokenSpec
    passphrase: str = field(repr=False)
    account: str | None = None
    opened: tuple[str, DocumentSigner, str] | None = field(default=None, repr=False,
                                                           compare=False)


class Signers:
    """Who signs: a person's own certificate (:meth:`for_key`), or the role's certificate
    (the configured ``[assinantes]``, else the development PKI)."""

    def __init__(
        self, config: Config, roles: Mapping[str, str], *, stamp_font: Path | None = None
    ) -> None:
        self.config = config
        self.roles = dict(roles)
        self.stamp_font = stamp_font
        self._cache: dict[str, tuple[DocumentSigner, str]] = {}
        # One signer (and CMS template) per certificate and role: keyed by the
        # certificate's SHA-256, never by the file's name or the account.
        self._people: dict[tuple[str, str], DocumentSigner] = {}

    def _dev_pki(self) -> DevPki:
        if not (self.config.pki_dir / "raiz.pem").exists():
            raise ConfigError(
                "Não há certificado para assinar: execute «lavra keys init» para criar a PKI "
                "de desenvolvimento (sem validade jurídica) ou configure [assinantes] com o "
                "certificado do Município."
            )
        return init_dev_pki(self.config.pki_dir, self.roles, passphrase=DEV_PASSPHRASE)

    def _cargo(self, role: str) -> str:
        cargo = self.roles.get(role)
        if cargo is None:
            raise ConfigError(f"Papel de assinatura desconhecido: «{role}».")
        return cargo

    def for_account(
        self, account: str, full_name: str, role: str, *, valid_from: datetime | None = None,
        passphrase: str | None = None,
    ) -> SignerKey:
        """The key of the staff ``account`` for signing as ``role``.

        Production (``[certificados]`` or ``[assinantes]`` configured): the account's
        entry of ``[certificados]``, its passphrase from the variable it names; an
        account it does not list cannot sign. Development: the account's own
        certificate in the development PKI, issued on first use (CN = ``full_name``).
        ``passphrase``: the one the person typed at signing (production: it unlocks the
        PKCS#12 instead of the variable's; development: the caller checks it, the
        development files keep the public passphrase).
        """
        cargo = self._cargo(role)
        configured = self.config.person_certificates.get(account)
        if configured is not None:
            passphrase = passphrase or os.environ.get(configured.passphrase_env)
            if not passphrase:
                raise ConfigError(
                    f"A senha do certificado de «{account}» deve estar na variável "
                    f"{configured.passphrase_env}."
                )
            if configured.file is not None:
                return SignerKey(configured.file, passphrase, account)
            assert configured.pkcs11_module is not None and configured.pkcs11_token is not None
            token = TokenSpec(configured.pkcs11_module, configured.pkcs11_token,
                              configured.pkcs11_key)
            return SignerKey(token, passphrase, account)
        if self.config.production_signing:
            raise ConfigError(
                f"A conta «{account}» não tem certificado de assinatura: peça à "
                f"administração que configure [certificados.\"{account}\"] com o "
                "certificado ICP-Brasil da pessoa."
            )
        self._dev_pki()
        path = issue_person_certificate(
            self.config.pki_dir, account, full_name, role, cargo, valid_from=valid_from
        )
        return SignerKey(path, DEV_PASSPHRASE, account)

    def for_key(self, key: SignerKey, role: str) -> tuple[DocumentSigner, str]:
        """The signer for a person's key, signing as ``role``, and the person's name.

        The key is checked at every call (a wrong passphrase fails here; the file is
        decrypted once per process, :func:`_opened`), unless it was opened for ``role``
        by :meth:`unlock`; the signer built on it, and its CMS
        template, are kept per certificate."""
        if key.opened is not None and key.opened[0] == role:
            return key.opened[1], key.opened[2]
        cargo = self._cargo(role)
        identity: SignerIdentity | TokenKey
        try:
            if isinstance(key.certificate, TokenSpec):
                # the PIN is checked on the token itself, at every call
                identity = open_token(key.certificate, key.passphrase)
            else:
                identity = _opened(key.certificate, key.passphrase)
        except ConfigError:
            if isinstance(key.certificate, TokenSpec):
                raise  # says what the token answered (wrong PIN, blocked, absent)
            if key.account is None:  # a file named on the command line: say which
                raise
            raise ConfigError(
                f"Não foi possível abrir o certificado de assinatura da conta «{key.account}»: "
                "senha incorreta, ou o arquivo do certificado não pôde ser lido (a "
                "administração confere a configuração [certificados])."
            ) from None
        name = signer_name(identity.certificate.subject)
        issued_for = certificate_role(identity.certificate)
        if issued_for is not None and issued_for != role:
            raise InputError(
                f"O certificado de {name} foi emitido para assinar como "
                f"{self.roles.get(issued_for, issued_for)}; este documento é assinado por "
                f"{cargo}."
            )
        fingerprint = identity.certificate.fingerprint(hashes.SHA256()).hex()
        if isinstance(identity, TokenKey):  # its signer keeps the PIN it signs with
            fingerprint += hashlib.sha256(_SALT + key.passphrase.encode("utf-8")).hexdigest()
        signer = self._people.get((fingerprint, role))
        if signer is None:
            signer = DocumentSigner(
                identity, cargo=cargo, timestamp_url=self.config.timestamp_url,
                stamp_font=self.stamp_font,
            )
            self._people[(fingerprint, role)] = signer
        return signer, name

    def unlock(self, key: SignerKey, role: str) -> SignerKey:
        """The key opened once for signing as ``role`` (a batch signs with it without
        unlocking it again); a wrong passphrase fails here, before anything is signed."""
        signer, name = self.for_key(key, role)
        return replace(key, opened=(role, signer, name))

    def get(self, role: str) -> tuple[DocumentSigner, str]:
        """The signer of ``role`` and the name it signs with (loaded once per process)."""
        if role not in self._cache:
            cargo = self._cargo(role)
            configured: SignerConfig | None = self.config.signers.get(role)
            if configured is not None:
                passphrase = os.environ.get(configured.passphrase_env)
                if passphrase is None:
                    raise ConfigError(
                        f"A senha do certificado de «{role}» deve estar na variável "
                        f"{configured.passphrase_env}."
                    )
                signer = DocumentSigner.from_pkcs12(
                    configured.certificate,
                    passphrase,
                    cargo=cargo,
                    timestamp_url=self.config.timestamp_url,
                    stamp_font=self.stamp_font,
                )
                self._cache[role] = (signer, configured.name)
            else:
                identity = self._dev_pki().load(role)
                signer = DocumentSigner(
                    identity,
                    cargo=cargo,
                    timestamp_url=self.config.timestamp_url,
                    stamp_font=self.stamp_font,
                )
                self._cache[role] = (
                    signer,
                    "Signatário de desenvolvimento (sem validade jurídica)",
                )
        return self._cache[role]
