"""A signer's key on a token or smart card (PKCS#11, an ICP-Brasil A3 certificate).

    spec = TokenSpec(Path("/usr/lib/softhsm/libsofthsm2.so"), "ANA SOUZA", "Assinatura")
    key = open_token(spec, pin)          # checks the PIN, reads the certificate
    with key.signer() as signer: ...     # a pyHanko signer, in a session logged in

The private key never leaves the token: every signature is computed by the token, in a
session opened and logged in with the PIN for that signature and closed (logged out)
right after. PKCS#11 keeps the login state per process and token, so the sessions of
one token are serialised by a lock: a PIN is always checked from a logged-out token
(a login over another session's would answer "already logged in", not "wrong PIN").
The PIN stays in memory for as long as the caller keeps the :class:`TokenKey` (a
signing queue or a batch run types it once), as the passphrase of a PKCS#12 does.

python-pkcs11 (``pip install 'lavra[pkcs11]'``) is needed only when a token is used.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography import x509

from lavra.errors import ConfigError, InputError

__all__ = ["TokenKey", "TokenSpec", "open_token"]

_LOCKS: dict[tuple[str, str], threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


@dataclass(frozen=True)
class TokenSpec:
    """Where a person's key is: the PKCS#11 module, the token's label and (optional) the
    label of the key and of its certificate on the token."""

    module: Path
    token: str
    key_label: str | None = None

    def __str__(self) -> str:
        key = f", chave «{self.key_label}»" if self.key_label else ""
        return f"token «{self.token}»{key} (módulo {self.module})"


def _lock(spec: TokenSpec) -> threading.Lock:
    with _LOCKS_GUARD:
        return _LOCKS.setdefault((str(spec.module), spec.token), threading.Lock())


def _library(spec: TokenSpec) -> Any:
    try:
        import pkcs11
    except ImportError:
        raise ConfigError(
            "A assinatura com token (PKCS#11) requer o pacote python-pkcs11: instale-o com "
            "«pip install 'lavra[pkcs11]'»."
        ) from None
    if not spec.module.is_file():
        raise ConfigError(f"O módulo PKCS#11 do token não foi encontrado: {spec.module}.")
    try:
        return pkcs11.lib(str(spec.module))
    except pkcs11.PKCS11Error:
        raise ConfigError(
            f"O arquivo {spec.module} não pôde ser carregado como módulo PKCS#11."
        ) from None


def _token(spec: TokenSpec) -> Any:
    import pkcs11

    library = _library(spec)
    try:
        return library.get_token(token_label=spec.token)
    except pkcs11.NoSuchToken:
        raise ConfigError(
            f"O token «{spec.token}» não foi encontrado: confira se está conectado e se o "
            "rótulo configurado é o dele."
        ) from None
    except pkcs11.MultipleTokensReturned:
        raise ConfigError(f"Há mais de um token com o rótulo «{spec.token}».") from None
    except pkcs11.PKCS11Error as error:
        raise ConfigError(
            f"O token «{spec.token}» não pôde ser lido ({type(error).__name__})."
        ) from None


@contextmanager
def _session(spec: TokenSpec, pin: str) -> Iterator[Any]:
    """A session on the token, logged in with ``pin``, closed (logged out) on leaving."""
    import pkcs11

    if not pin:
        raise InputError("Informe o PIN do token.", field="/pin")
    token = _token(spec)
    with _lock(spec):
        try:
            session = token.open(user_pin=pin)
        except (pkcs11.PinIncorrect, pkcs11.PinLenRange, pkcs11.PinInvalid):
            raise ConfigError(
                f"PIN incorreto para o token «{spec.token}». Nada foi assinado. (Após "
                "algumas tentativas erradas o token se bloqueia.)"
            ) from None
        except (pkcs11.PinLocked, pkcs11.PinExpired):
            raise ConfigError(
                f"O PIN do token «{spec.token}» está bloqueado ou expirado: desbloqueie-o "
                "com o PUK, na ferramenta do fabricante. Nada foi assinado."
            ) from None
        except pkcs11.PKCS11Error as error:
            raise ConfigError(
                f"Não foi possível abrir uma sessão no token «{spec.token}» "
                f"({type(error).__name__}). Nada foi assinado."
            ) from None
        try:
            yield session
        finally:
            with suppress(pkcs11.PKCS11Error):  # a token removed: nothing to log out of
                session.close()


def _certificates(session: Any) -> list[tuple[bytes, str, x509.Certificate]]:
    from pkcs11 import Attribute, ObjectClass

    found = []
    for item in session.get_objects({Attribute.CLASS: ObjectClass.CERTIFICATE}):
        try:
            cert = x509.load_der_x509_certificate(bytes(item[Attribute.VALUE]))
        except ValueError:
            continue
        found.append((bytes(item[Attribute.ID] or b""), str(item[Attribute.LABEL]), cert))
    return found


def _read(spec: TokenSpec, session: Any) -> tuple[bytes, x509.Certificate,
                                                  tuple[x509.Certificate, ...]]:
    """The signing key's ID, its certificate and the token's other certificates."""
    from pkcs11 import Attribute, ObjectClass

    query: dict[Any, Any] = {Attribute.CLASS: ObjectClass.PRIVATE_KEY, Attribute.SIGN: True}
    if spec.key_label:
        query[Attribute.LABEL] = spec.key_label
    keys = list(session.get_objects(query))
    which = f" com o rótulo «{spec.key_label}»" if spec.key_label else ""
    if not keys:
        raise ConfigError(f"O token «{spec.token}» não tem chave de assinatura{which}.")
    if len(keys) > 1:
        raise ConfigError(
            f"O token «{spec.token}» tem {len(keys)} chaves de assinatura{which}: informe "
            "o rótulo da chave (pkcs11_chave)."
        )
    key_id = bytes(keys[0][Attribute.ID] or b"")
    label = str(keys[0][Attribute.LABEL])
    certificates = _certificates(session)
    own = [c for i, _, c in certificates if key_id and i == key_id] or [
        c for _, lbl, c in certificates if lbl == label]
    if len(own) != 1:
        raise ConfigError(
            f"O token «{spec.token}» não tem o certificado da chave «{label}» (ou tem mais "
            "de um)."
        )
    chain = tuple(c for _, _, c in certificates if c != own[0])
    return key_id, own[0], chain


@dataclass(frozen=True)
class TokenKey:
    """A key on a token, its PIN checked once and its certificate read."""

    spec: TokenSpec
    pin: str = field(repr=False)
    key_id: bytes
    certificate: x509.Certificate
    chain: tuple[x509.Certificate, ...] = ()

    @property
    def subject(self) -> str:
        return self.certificate.subject.rfc4514_string()

    @contextmanager
    def signer(self) -> Iterator[Any]:
        """A pyHanko PKCS#11 signer for this key, in a session logged in for the time of
        the ``with`` block (one signature)."""
        from asn1crypto import x509 as asn1_x509
        from cryptography.hazmat.primitives import serialization
        from pyhanko.sign.pkcs11 import PKCS11Signer

        def der(cert: x509.Certificate) -> asn1_x509.Certificate:
            return asn1_x509.Certificate.load(cert.public_bytes(serialization.Encoding.DER))

        with _session(self.spec, self.pin) as session:
            yield PKCS11Signer(
                session,
                signing_cert=der(self.certificate),
                ca_chain=[der(c) for c in self.chain],
                key_id=self.key_id or None,
                key_label=None if self.key_id else self.spec.key_label,
            )


def open_token(spec: TokenSpec, pin: str) -> TokenKey:
    """The key on the token, its PIN checked (a wrong PIN raises a pt-BR ConfigError and
    counts as a wrong try on the token) and its certificate read."""
    with _session(spec, pin) as session:
        key_id, certificate, chain = _read(spec, session)
    return TokenKey(spec, pin, key_id, certificate, chain)
