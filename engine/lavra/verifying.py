"""Verification of an issued PDF: its signature and its registry record.

    from lavra.verifying import Verifier
    result = Verifier.from_config().verify(pdf_bytes)

Needs neither the content pack nor the renderer: ``lavra verify`` and the web
verification worker load only the signature validator and the registry, so that a
verification does not pay for WeasyPrint and the pack (:class:`lavra.issuing.Issuer`
delegates its ``verify`` here). Only the pack's law files are read, and only to print
the article of a divergência that stored its raw citation id (:meth:`Verifier.cite`).

For a document that granted a licence, the result also says the licence's status on
the date asked (``em vigor``, ``cassado em 20/04/2026 pelo CAS-FRET nº 0001/2026``,
``vencido em ...``), read from the registry's licensing state alone: the shells pass
today in America/Sao_Paulo, the tests a fixed date.

For any act whose effect a decision on appeal reversed (an auto de infração, a
cassação), the result also says so beside the signature's validity
(:func:`act_situation`: ``anulado em recurso pelo DEC-… nº …, de 20/03/2026``): the
signature still holds, the act no longer stands. The registry knows the reversal
generically (:meth:`lavra.registry.store.Registry.annulled_acts`); a cancelled act is
already stated among the problems.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from cryptography import x509

from lavra.config import Config, load_config
from lavra.errors import ConfigError, InputError, LavraError
from lavra.law.model import Law, load_laws, resolve
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry, open_registry
from lavra.signing.persons import signer_label
from lavra.signing.pki import REVOCATION_DIR, TRUSTED_DIR, load_certificates, load_revocation_info
from lavra.signing.verification import find_verification_code, normalize_code, verify_pdf

__all__ = [
    "LicenceSituation",
    "VerificationResult",
    "Verifier",
    "act_situation",
    "licence_situation",
    "registry_url",
    "trust_roots",
]


@dataclass(frozen=True)
class LicenceSituation:
    """The status, on a date, of the licence a document granted (its number as printed,
    the state's status code, and the pt-BR text: ``cassado em ... pelo ...``)."""

    printed: str
    status: str
    text: str
    valid_until: date | None
    on: date

    def to_json(self) -> dict[str, Any]:
        return {
            "printed": self.printed,
            "status": self.status,
            "situation": self.text,
            "valid_until": self.valid_until.isoformat() if self.valid_until else None,
            "on": self.on.isoformat(),
        }


def licence_situation(registry: Registry, document_id: int, on: date, *,
                      personal: bool = True) -> LicenceSituation | None:
    """The status on ``on`` of the licence the document ``document_id`` granted; None
    when it granted none (or was cancelled: its effects are undone). Without
    ``personal`` (the public page), a transfer is told without the cessionário's name."""
    view = registry.licence_of(document_id)
    if view is None:
        return None
    text = view.describe(on, personal=personal)
    note = registry.vehicle_change_note(document_id, on)
    if note is not None:
        text += f"; {note}"
    return LicenceSituation(printed=view.printed, status=view.status, text=text,
                            valid_until=view.valid_until, on=on)


def act_situation(registry: Registry, document_id: int) -> str | None:
    """What became of the act ``document_id`` itself, when a decision on appeal that
    stands annulled it: ``anulado em recurso pelo DEC-X nº 0001/2026, de 20/03/2026``
    (the decision as printed and its date); None while the act stands."""
    found = registry.annulled_acts((document_id,)).get(document_id)
    if found is None:
        return None
    by, on = found
    return f"anulado em recurso pelo {by}, de {on:%d/%m/%Y}"


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
    #: The series and the number as printed (``ALV-FRET nº 0001/2026``).
    series: str | None = None
    printed: str | None = None
    #: The status of the licence the document granted, when it granted one and the
    #: status was asked for a date (the signature's validity does not depend on it).
    licence: LicenceSituation | None = None
    #: The divergências the registry records for the act (issued against a rule added
    #: after it), in the words of the public verification page
    #: (:meth:`lavra.registry.store.Registry.public_divergences`).
    divergences: tuple[str, ...] = ()
    #: What became of the act itself (annulled on appeal: :func:`act_situation`).
    situation: str | None = None

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
            "series": self.series,
            "printed": self.printed,
            "form": self.form,
            "signer": self.signer,
            "code": self.code,
            "problems": list(self.problems),
            "licence": self.licence.to_json() if self.licence else None,
            "divergences": list(self.divergences),
            "situation": self.situation,
        }


def trust_roots(config: Config) -> list[x509.Certificate]:
    """Every certificate in ``<pki>/confiaveis/``, plus the development root while no
    production signer is configured (a document signed by the development PKI must
    never pass as authentic once the municipality's certificates are in use)."""
    roots: list[x509.Certificate] = []
    dev_root = config.pki_dir / "raiz.pem"
    if dev_root.exists() and not config.production_signing:
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
        self._laws: Mapping[str, Law] | None = None

    def cite(self, citation: str) -> str:
        """``citation`` as a document prints it, from the pack's laws, read once and only
        for a divergência that stored its raw citation id (:func:`lavra.registry.guards.
        printed_basis`); unreadable, none (the article is then left out, never raw)."""
        if self._laws is None:
            try:
                self._laws = load_laws(self.config.pack_dir)
            except LavraError:
                self._laws = {}
        return resolve(self._laws, citation).short

    @classmethod
    def from_config(cls, config: Config | None = None) -> Verifier:
        config = config or load_config()
        return cls(open_registry(registry_url(config)), config)

    def lookup_code(self, code: str) -> IssuedRecord | None:
        return self.registry.by_code(normalize_code(code))

    def verify(self, pdf: bytes, *, on: date | None = None,
               personal: bool = True) -> VerificationResult:
        """Signature (intact, trusted, unmodified) and the registry record of this PDF;
        with ``on``, the status on that date of the licence the document granted (when
        the file is the registered original of an act that granted one; without
        ``personal``, as the public page tells it: :func:`licence_situation`).

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
        licence = (licence_situation(self.registry, record.id, on, personal=personal)
                   if record is not None and registered and on is not None else None)
        diverging = (self.registry.public_divergences(record.id, self.cite)
                     if record is not None and registered else ())
        situation = (act_situation(self.registry, record.id)
                     if record is not None and registered else None)
        return VerificationResult(
            intact=check.intact,
            trusted=check.trusted,
            unmodified=check.unmodified,
            registered=registered,
            cancelled=cancelled,
            number=record.formatted if record else None,
            form=record.form if record else None,
            signer=signer_label(check.signer_subject),
            code=code,
            problems=tuple(problems),
            series=record.series if record else None,
            printed=record.printed if record else None,
            licence=licence,
            divergences=diverging,
            situation=situation,
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
