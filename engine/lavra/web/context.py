"""What the web application holds for its whole life: settings, engine, issuer, accounts."""

from __future__ import annotations

import importlib
import ipaddress
import os
import secrets
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

from lavra.checking.content import FormSpec
from lavra.config import Config, load_config
from lavra.documents import Engine
from lavra.errors import CitationError, ConfigError, LavraError
from lavra.inputs import pointers, reading
from lavra.inputs.schemas.validation import field_label
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry, open_default_registry
from lavra.registry.webshared import SharedAttempts, SharedEvents
from lavra.render.fillable.schema import inline_refs
from lavra.signers import Signers
from lavra.web.formmodel import CitationView
from lavra.web.sandbox import Limits, MiB
from lavra.web.throttle import LoginThrottle, WindowThrottle
from lavra.web.users import UserStore

SECRET_ENV = "LAVRA_WEB_SEGREDO"
SECURE_ENV = "LAVRA_WEB_COOKIE_SEGURO"
MAX_UPLOAD_ENV = "LAVRA_WEB_MAX_ENVIO"
PROXIES_ENV = "LAVRA_WEB_PROXIES"
SECRET_FILE = "segredo-web"
#: The proxy addresses trusted by ``lavra serve --proxy`` when none is named.
LOOPBACK_PROXIES = ("127.0.0.1", "::1")


@dataclass(frozen=True)
class WebSettings:
    """How the web application behaves; every value has a safe default.

    ``secret_key`` signs the session cookies (``LAVRA_WEB_SEGREDO``; otherwise a
    random key kept in ``<pasta_dados>/segredo-web``, readable only by its owner).
    ``secure_cookies``: cookies only over https (``LAVRA_WEB_COOKIE_SEGURO=1``; always
    set it in production behind https). ``max_upload_bytes``: the largest PDF accepted.
    ``trusted_proxies``: addresses (or networks) of the reverse proxies whose
    ``X-Forwarded-For``/``-Proto`` are believed (``LAVRA_WEB_PROXIES``, comma-separated);
    the client is then the right-most forwarded address that is not one of them. Empty:
    the headers are ignored and the client is the connection's peer.
    """

    secret_key: str
    secure_cookies: bool = False
    session_max_age: int = 8 * 3600
    max_upload_bytes: int = 5 * MiB
    #: A requerimento filed online: the largest attachment, and all of them together.
    max_attachment_bytes: int = 10 * MiB
    max_filing_bytes: int = 25 * MiB
    sandbox: Limits = field(default_factory=Limits)
    trusted_proxies: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, data_dir: Path) -> WebSettings:
        secret = os.environ.get(SECRET_ENV) or _stored_secret(data_dir)
        if len(secret) < 32:
            raise ConfigError(f"{SECRET_ENV} deve ter no mínimo 32 caracteres.")
        secure = os.environ.get(SECURE_ENV, "").strip().lower() in ("1", "sim", "true", "yes")
        size = os.environ.get(MAX_UPLOAD_ENV)
        max_upload = 5 * MiB
        if size:
            if not size.strip().isdigit() or not 1 <= int(size) <= 50:
                raise ConfigError(f"{MAX_UPLOAD_ENV} deve ser um número de MiB entre 1 e 50.")
            max_upload = int(size) * MiB
        proxies = parse_proxies(os.environ.get(PROXIES_ENV, "").split(","), PROXIES_ENV)
        return cls(secret_key=secret, secure_cookies=secure, max_upload_bytes=max_upload,
                   trusted_proxies=proxies)


def parse_proxies(values: Iterable[str], source: str = "--proxy-ip") -> tuple[str, ...]:
    """Proxy addresses or networks (``10.0.0.5``, ``10.0.0.0/24``, ``::1``), checked.

    Refuses ``*`` and anything that is not an IP address or network: trusting every
    peer would let any client choose its own address (and escape the login limits).
    """
    found: list[str] = []
    for value in values:
        text = value.strip()
        if not text:
            continue
        try:
            address = (
                str(ipaddress.ip_network(text, strict=False))
                if "/" in text
                else str(ipaddress.ip_address(text))
            )
        except ValueError:
            raise ConfigError(
                f"{source}: «{text[:60]}» não é um endereço IP nem uma rede (ex.: 10.0.0.5 "
                "ou 10.0.0.0/24). Informe os endereços do proxy reverso; «*» não é aceito."
            ) from None
        if address not in found:
            found.append(address)
    return tuple(found)


def _stored_secret(data_dir: Path) -> str:
    path = data_dir / SECRET_FILE
    try:
        if path.is_file():
            return path.read_text(encoding="utf-8").strip()
        data_dir.mkdir(parents=True, exist_ok=True)
        secret = secrets.token_urlsafe(48)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(secret)
        return secret
    except FileExistsError:
        return path.read_text(encoding="utf-8").strip()
    except OSError as error:
        raise ConfigError(
            f"Não foi possível guardar a chave das sessões em {path}: {error.strerror}. "
            f"Defina {SECRET_ENV}."
        ) from None


class IssuerLike(Protocol):
    """The part of :class:`lavra.issuing.Issuer` the web application uses."""

    def issue(
        self,
        form_id: str,
        data: Mapping[str, Any],
        on: date | None = None,
        *,
        idempotency_key: str | None = None,
        actor: str | None = None,
        signer: Any = None,
    ) -> Any: ...

    def signer_for(
        self, account: str, full_name: str, role: str, passphrase: str | None = None
    ) -> Any: ...

    @property
    def signers(self) -> Signers: ...

    def verify(self, pdf: bytes) -> Any: ...

    def lookup_code(self, code: str) -> IssuedRecord | None: ...

    def cancel(
        self, number: str, reason: str, by: str, series: str | None = None
    ) -> IssuedRecord: ...


class WebContext:
    """Engine, issuer, registry and accounts shared by every request."""

    def __init__(
        self,
        config: Config | None = None,
        settings: WebSettings | None = None,
        *,
        issuer: Any | None = None,
    ) -> None:
        self.config = config or load_config()
        self.settings = settings or WebSettings.from_env(self.config.data_dir)
        self._issuer = issuer
        self.render_lock = threading.Lock()
        #: Counted in the registry, so that every worker over it throttles as one.
        self.throttle = LoginThrottle(store=lambda: self._attempts("entrar"))
        #: Filings counted per CPF/CNPJ and address in a sliding hour (5 and 30), in the
        #: registry, so that every worker over it counts as one.
        self.filing_throttle = WindowThrottle(store=lambda: self._events("protocolar"))
        #: Failed look-ups on the tracking page, per protocol and address (the login's
        #: back-off), counted in the registry like the logins.
        self.tracking_throttle = LoginThrottle(store=lambda: self._attempts("acompanhar"))
        self._citations: dict[str, CitationView] = {}
        self._schemas: dict[str, dict[str, Any]] = {}

    def _attempts(self, scope: str) -> SharedAttempts:
        return SharedAttempts(_registry_engine(self.registry), scope)

    def _events(self, scope: str) -> SharedEvents:
        return SharedEvents(_registry_engine(self.registry), scope)

    def today(self) -> date:
        """Today in America/Sao_Paulo: the date a licence's status is stated on (the
        tests replace it with a fixed date)."""
        return reading.today()

    def now(self) -> datetime:
        """The present instant (aware, UTC): when an applicant's electronic ciência is
        recorded (the tests replace it with a fixed instant)."""
        return datetime.now(UTC)

    # ----------------------------------------------------------------- engine
    @cached_property
    def issuer(self) -> IssuerLike | None:
        """The issuer (numbering, signing, verification), when lavra.issuing is installed."""
        if self._issuer is not None:
            issuer: IssuerLike = self._issuer
            return issuer
        try:
            module = importlib.import_module("lavra.issuing")
        except ImportError:
            return None
        made: IssuerLike = module.Issuer.from_config(self.config)
        return made

    @cached_property
    def engine(self) -> Engine:
        issuer = self.issuer
        found = getattr(issuer, "engine", None) if issuer is not None else None
        return found if isinstance(found, Engine) else Engine.from_config(self.config)

    @cached_property
    def registry(self) -> Registry:
        issuer = self.issuer
        found = getattr(issuer, "registry", None) if issuer is not None else None
        if isinstance(found, Registry):
            return found
        return open_default_registry(self.config.data_dir)

    @cached_property
    def users(self) -> UserStore:
        return UserStore(_registry_engine(self.registry))

    def require_issuer(self) -> IssuerLike:
        issuer = self.issuer
        if issuer is None:
            raise LavraError(
                "A emissão e a verificação de documentos não estão disponíveis nesta "
                "instalação (módulo de emissão ausente)."
            )
        return issuer

    # ----------------------------------------------------------------- content
    def form(self, form_id: str) -> FormSpec:
        return self.engine.content.form(form_id)

    def field_label(self, form_id: str, pointer: str) -> str:
        """The field at ``pointer`` of the form's data as its page names it (its title
        qualified by its parents': «Destinatário › Prontuário»)."""
        content = self.engine.content
        path = [int(t) if pointers.is_index(t) else t for t in pointers.split(pointer)]
        if form_id not in content.forms:
            return " › ".join(f"«{t}»" for t in path if isinstance(t, str)) or pointer
        return field_label(content.registry, content.forms[form_id].schema_id, path)

    def fillable_forms(self) -> list[FormSpec]:
        return [f for f in self.engine.content.forms.values() if f.fillable]

    def staff_forms(self) -> list[FormSpec]:
        return list(self.engine.content.forms.values())

    def schema(self, form_id: str) -> dict[str, Any]:
        """The form's JSON Schema with every ``$ref`` inlined."""
        if form_id not in self._schemas:
            form = self.form(form_id)
            content = self.engine.content
            raw = content.registry.resolver().lookup(form.schema_id).contents
            self._schemas[form_id] = inline_refs(raw, content.registry)
        return self._schemas[form_id]

    def cite(self, citation: str) -> CitationView:
        found = self._citations.get(citation)
        if found is None:
            content = self.engine.content
            try:
                found = CitationView(
                    citation,
                    content.cite_short(citation),
                    content.cite(citation),
                    content.cite_text(citation),
                )
            except CitationError:
                found = CitationView(citation, citation, citation, "")
            self._citations[citation] = found
        return found

    def form_title(self, form_id: str) -> str:
        spec = self.engine.content.forms.get(form_id)
        return spec.title if spec is not None else form_id

    def record_title(self, record: Any) -> str:
        """The title the issued document bears: the one its computation gave the case
        (``titulo_documento``: an "Advertência"), else the form's."""
        computed = getattr(record, "computed", None) or {}
        title = computed.get("titulo_documento") if isinstance(computed, Mapping) else None
        return str(title) if title else self.form_title(record.form)

    def signer_roles(self) -> Mapping[str, str]:
        """Signature roles of the issuing body (key → office), from the content pack."""
        return self.engine.content.organization.roles


def _registry_engine(registry: Registry) -> Any:
    return registry.engine
