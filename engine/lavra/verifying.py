"""Verification of an issued PDF: its signature and its registry record.

    from lavra.verifying import Verifier
    result = Verifier.from_config().verify(pdf_bytes)

Needs neither the content pack nor the renderer: ``lavra verify`` and the web
verification worker load only the signature validator and the registry, so that a
verification does not pay for WeasyPrint and the pack (:class:`lavra.issuing.Issuer`
delegates its ``verify`` here).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from cryptography import x509

from lavra.config import Config, load_config
from lavra.errors import ConfigError, InputError
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry, open_registry
from lavra.signing.pki import REVOCATION_DIR, TRUSTED_DIR, load_certificates, load_revocation_info
from lavra.signing.verification import find_verification_code, normalize_code, verify_pdf

__all__ = ["VerificationResult", "Verifier", "registry_url", "trust_roots"]


@dataclass(frozen=True)
class VerificationResult:
    """What ``lavra verify`` says of a PDF: its signature and its registry record."""

    intact: bool
    trusted: bool
    unmodified: bool
    registered: bool
    cancelled: bool
    number: str | None
    form: str | None
    signer: str | None
    code: str | None
    problems: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return (
            self.intact
            and self.trusted
            and self.unmodified
            and self.registered
            and not self.cancelled
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "intact": self.intact,
            "trusted": self.trusted,
            "unmodified": self.unmodified,
            "registered": self.registered,
            "cancelled": self.cancelled,
            "number": self.number,
            "form": self.form,
            "signer": self.signer,
            "code": self.code,
            "problems": list(self.problems),
        }


def trust_roots(config: Config) -> list[x509.Certificate]:
    """Every certificate in ``<pki>/confiaveis/``, plus the development root while no
    production signer is configured (a document signed by the development PKI must
    never pass as authentic once the municipality's certificates are in use)."""
    roots: list[x509.Certificate] = []
    dev_root = config.pki_dir / "raiz.pem"
    if dev_root.exists() and not config.signers:
        roots.extend(load_certificates(dev_root))
    trusted = config.pki_dir / TRUSTED_DIR
    if trusted.is_dir():
        for path in sorted(trusted.glob("*.pem")):
            roots.extend(load_certificates(path))
    return roots


class Verifier:
    """Verifies PDFs against the trust roots of ``config`` and the registry."""

    def __init__(self, registry: Registry, config: Config) -> None:
        self.registry = registry
        self.config = config

    @classmethod
    def from_config(cls, config: Config | None = None) -> Verifier:
        config = config or load_config()
        return cls(open_registry(registry_url(config)), config)

    def lookup_code(self, code: str) -> IssuedRecord | None:
        return self.registry.by_code(normalize_code(code))

    def verify(self, pdf: bytes) -> VerificationResult:
        """Signature (intact, trusted, unmodified) and the registry record of this PDF.

        Never raises for the file's content: a file that is not a PDF, is damaged,
        unsigned or altered in any way is reported not valid, with pt-BR reasons
        (whatever the PDF parsers raise on it). ConfigError only when no trust root
        is configured or a file of ``pki/lcr/`` is unreadable.

        Revocation: signers under a root other than the development one must have
        their revocation status established, from the CRLs and OCSP responses of
        ``<pasta_dados>/pki/lcr/`` or fetched from the addresses their certificates
        publish; otherwise they are not trusted (see :func:`lavra.signing.verification.verify_pdf`).
        """
        roots = trust_roots(self.config)
        if not roots:
            raise ConfigError(
                "Nenhum certificado raiz de confiança configurado: execute «lavra keys init» "
                "ou coloque as raízes em pasta_dados/pki/confiaveis/."
            )
        revocation = load_revocation_info(self.config.pki_dir / REVOCATION_DIR)
        try:
            check = verify_pdf(
                pdf,
                roots,
                crls=revocation.crls,
                ocsps=revocation.ocsps,
                allow_fetching=True,
            )
        except InputError as error:
            # Not a PDF, unreadable, unsigned or with a damaged signature: not authentic.
            return _not_authentic(error.message)
        problems = list(check.problems)
        try:
            code = find_verification_code(pdf)
        except InputError as error:  # unreadable text, or two different codes
            code = None
            problems.append(error.message)
        else:
            if code is None:
                problems.append("O documento não traz um código verificador do lavra.")
        record = self.registry.by_code(code) if code else None
        sha = hashlib.sha256(pdf).hexdigest()
        registered = record is not None and record.sha256 == sha
        if code is not None and record is None:
            problems.append(f"O código verificador {code} não consta do registro de documentos.")
        elif record is not None and not registered:
            problems.append(
                "Este arquivo difere do original registrado com o mesmo código verificador."
            )
        cancelled = record is not None and record.cancelled
        if record is not None and record.cancelled:
            problems.append(
                f"O documento {record.printed} foi cancelado: {record.cancel_reason}."
            )
        return VerificationResult(
            intact=check.intact,
            trusted=check.trusted,
            unmodified=check.unmodified,
            registered=registered,
            cancelled=cancelled,
            number=record.formatted if record else None,
            form=record.form if record else None,
            signer=check.signer_subject,
            code=code,
            problems=tuple(problems),
        )

    def close(self) -> None:
        self.registry.close()


def _not_authentic(problem: str) -> VerificationResult:
    return VerificationResult(
        intact=False,
        trusted=False,
        unmodified=False,
        registered=False,
        cancelled=False,
        number=None,
        form=None,
        signer=None,
        code=None,
        problems=(problem,),
    )


def registry_url(config: Config) -> str:
    """The registry's database URL for ``config`` (what :meth:`Issuer.from_config` opens)."""
    if config.database_url:
        return config.database_url
    from lavra.registry.database import database_url

    return database_url(config.data_dir)
