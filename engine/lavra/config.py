"""Configuration: defaults that work out of the box, loud failure on unknown keys.

Sources, later ones winning: built-in defaults; the TOML file named by
``LAVRA_CONFIG`` (or ``lavra.toml`` in the working directory when present);
environment variables ``LAVRA_PACK``, ``LAVRA_DATA``, ``LAVRA_DATABASE_URL`` and
``LAVRA_RETROACAO_MAXIMA_DIAS``.

    # lavra.toml
    pacote = "/srv/lavra/pacote"        # content pack: installed pack's name, or its folder
    pasta_dados = "/var/lib/lavra"      # registry, keys, generated files
    banco = "postgresql+psycopg://lavra@localhost/lavra"   # default: SQLite in pasta_dados
    url_verificacao = "https://servicos.municipio.gov.br/lavra/verificar"
    carimbo_tempo = "https://tsa.exemplo.gov.br"            # PAdES B-T when set
    renderizador = "weasyprint"         # issued documents: "typst" (default) or "weasyprint"
    pasta_lotes = "/var/lib/lavra/lotes"   # web batch runs' files (default: pasta_dados/lotes)
    retroacao_maxima_dias = 30          # a final act dated at most 30 days before signing

    [assinantes.secretario-transportes]  # production: the municipality's certificate
    nome = "Fulano de Tal"
    certificado = "/etc/lavra/secretario.p12"
    senha_variavel = "LAVRA_SENHA_SECRETARIO"   # the passphrase comes from this variable

    [certificados."ana.souza"]           # production: the certificate of one staff account
    arquivo = "/etc/lavra/pessoas/ana.souza.p12"   # her PKCS#12 (A1 certificate)
    senha_variavel = "LAVRA_SENHA_ANA"             # its passphrase comes from this variable

    [certificados."bruno.lima"]          # or a token / smart card (A3) through PKCS#11
    pkcs11_modulo = "/usr/lib/x86_64-linux-gnu/opensc-pkcs11.so"
    pkcs11_token = "BRUNO LIMA"          # the token's label
    pkcs11_chave = "Assinatura"          # the key's label on the token (optional)
    senha_variavel = "LAVRA_PIN_BRUNO"   # the PIN comes from this variable

Without ``[assinantes]`` and ``[certificados]`` the development PKI of ``lavra keys
init`` (no legal validity) signs: a certificate per role, and one per signer account
(:mod:`lavra.signing.persons`). Once ``[certificados]`` is configured, a signer account
it does not list cannot sign.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lavra.errors import ConfigError
from lavra.inputs.reading import describe_os_error
from lavra.pack import PACK_ENV, default_pack_dir, select_pack

CONFIG_ENV = "LAVRA_CONFIG"
DATA_ENV = "LAVRA_DATA"
DATABASE_ENV = "LAVRA_DATABASE_URL"
DEFAULT_VERIFICATION_URL = "http://127.0.0.1:8000/verificar"
BACKDATING_ENV = "LAVRA_RETROACAO_MAXIMA_DIAS"
DEFAULT_BACKDATING_DAYS = 30
"""How many days before the day it is signed a final act may be dated
(``retroacao_maxima_dias``, :mod:`lavra.checking.backdating`). 30: an act decided at a
counter or on paper is typed and signed within the month's routine of a Secretaria,
while an act months old (issue 22, defect 9: an ALV-AUX dated 16/03/2026, signed on
07/12/2026) is refused; a city that must record older acts raises it, or imports them
(``lavra cadastro importar``), each with its own date."""
NO_BACKDATING_BOUND = "sem limite"
"""The value of ``retroacao_maxima_dias`` that lifts the bound (the test suite's, whose
acts are dated by ``on=`` under the real signing clock: tests/conftest.py)."""
KNOWN_KEYS = {
    "pacote": "nome ou pasta do pacote de conteúdo",
    "pasta_dados": "pasta de dados",
    "banco": "URL do banco de dados do registro",
    "url_verificacao": "endereço da página de verificação",
    "carimbo_tempo": "URL da autoridade de carimbo do tempo",
    "assinantes": "certificados dos signatários por papel",
    "renderizador": "gerador do PDF dos documentos emitidos (weasyprint ou typst)",
    "pasta_lotes": "pasta dos arquivos das execuções em lote iniciadas pela web",
    "certificados": "certificado de cada conta de assinante (PKCS#12 ou token PKCS#11)",
    "retroacao_maxima_dias": "quantos dias antes da assinatura um ato final pode ser datado",
}
#: The renderers of issued documents (requerimentos are always WeasyPrint's).
RENDERERS = ("weasyprint", "typst")
#: Where a content pack ships the page of the Typst renderer (lavra.render.typstpdf).
TYPST_PAGE = Path("forms", "_base", "pagina.typ")


def default_renderer(pack_dir: Path) -> str:
    """The renderer of issued documents when none is configured: Typst, where the pack
    ships its page (``forms/_base/pagina.typ``); else WeasyPrint."""
    return RENDERERS[1] if (pack_dir / TYPST_PAGE).is_file() else RENDERERS[0]
SIGNER_KEYS = {"nome", "certificado", "senha_variavel"}
PERSON_KEYS = {"arquivo", "pkcs11_modulo", "pkcs11_token", "pkcs11_chave", "senha_variavel"}


@dataclass(frozen=True)
class SignerConfig:
    """The production certificate of one signing role."""

    name: str
    certificate: Path
    passphrase_env: str


@dataclass(frozen=True)
class PersonCertificate:
    """The production certificate of one staff account: a PKCS#12 file or a PKCS#11 token."""

    passphrase_env: str
    file: Path | None = None
    pkcs11_module: Path | None = None
    pkcs11_token: str | None = None
    pkcs11_key: str | None = None


def backdating_days(raw: Any, where: str) -> int | None:
    """``retroacao_maxima_dias`` read from ``where`` (the file, or the variable): a whole
    number of days, 0 or more, or ``"sem limite"`` (None)."""
    if isinstance(raw, str) and raw.strip().lower() == NO_BACKDATING_BOUND:
        return None
    text = raw.strip() if isinstance(raw, str) else raw
    if isinstance(text, str) and text.isdigit():
        text = int(text)
    if isinstance(text, bool) or not isinstance(text, int) or text < 0:
        raise ConfigError(
            f"Em {where}, «retroacao_maxima_dias» deve ser um número inteiro de dias, 0 ou "
            f"mais, ou \"{NO_BACKDATING_BOUND}\".")
    return text


def default_backdating_days() -> int | None:
    """The bound when the configuration file sets none: ``LAVRA_RETROACAO_MAXIMA_DIAS``
    when set, else :data:`DEFAULT_BACKDATING_DAYS`."""
    named = os.environ.get(BACKDATING_ENV)
    if named is None:
        return DEFAULT_BACKDATING_DAYS
    return backdating_days(named, f"a variável {BACKDATING_ENV}")


@dataclass(frozen=True)
class Config:
    pack_dir: Path
    data_dir: Path
    database_url: str | None = None
    verification_url: str = DEFAULT_VERIFICATION_URL
    timestamp_url: str | None = None
    signers: Mapping[str, SignerConfig] = field(default_factory=dict)
    #: None: :func:`default_renderer` of the pack (see :attr:`issuing_renderer`).
    renderer: str | None = None
    batch_dir: Path | None = None
    #: Each signer account's own certificate (``[certificados.<conta>]``).
    person_certificates: Mapping[str, PersonCertificate] = field(default_factory=dict)
    #: How many days before the day it is signed a final act may be dated (None: no
    #: bound; :data:`DEFAULT_BACKDATING_DAYS`).
    backdating_days: int | None = field(default_factory=default_backdating_days)

    @property
    def issuing_renderer(self) -> str:
        """Who lays out the issued documents: ``renderizador``, or the pack's default."""
        return self.renderer or default_renderer(self.pack_dir)

    @property
    def production_signing(self) -> bool:
        """True once a production certificate is configured (the development PKI's
        certificates then neither sign nor verify)."""
        return bool(self.signers or self.person_certificates)

    @property
    def pki_dir(self) -> Path:
        return self.data_dir / "pki"

    @property
    def batch_output_dir(self) -> Path:
        """Where the web app keeps its batch runs' inputs and files (``pasta_lotes``)."""
        return self.batch_dir or self.data_dir / "lotes"


def _text(path: Path, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"Em {path}, «{key}» deve ser um texto não vazio.")
    return value.strip()


def _signers(path: Path, raw: Any) -> dict[str, SignerConfig]:
    if not isinstance(raw, dict):
        raise ConfigError(f"Em {path}, «assinantes» deve ser uma tabela por papel.")
    signers = {}
    for role, entry in raw.items():
        if not isinstance(entry, dict):
            raise ConfigError(f"Em {path}, «assinantes.{role}» deve ser uma tabela.")
        unknown = sorted(set(entry) - SIGNER_KEYS)
        missing = sorted(SIGNER_KEYS - set(entry))
        if unknown or missing:
            raise ConfigError(
                f"Em {path}, «assinantes.{role}»: chaves desconhecidas {unknown or '-'}, "
                f"ausentes {missing or '-'} (aceitas: {', '.join(sorted(SIGNER_KEYS))})."
            )
        signers[role] = SignerConfig(
            name=_text(path, f"assinantes.{role}.nome", entry["nome"]),
            certificate=Path(_text(path, f"assinantes.{role}.certificado", entry["certificado"])),
            passphrase_env=_text(
                path, f"assinantes.{role}.senha_variavel", entry["senha_variavel"]
            ),
        )
    return signers


def _person_certificates(path: Path, raw: Any) -> dict[str, PersonCertificate]:
    if not isinstance(raw, dict):
        raise ConfigError(f"Em {path}, «certificados» deve ser uma tabela por conta.")
    found = {}
    for account, entry in raw.items():
        where = f"certificados.{account}"
        if not isinstance(entry, dict):
            raise ConfigError(f"Em {path}, «{where}» deve ser uma tabela.")
        unknown = sorted(set(entry) - PERSON_KEYS)
        if unknown:
            raise ConfigError(
                f"Em {path}, «{where}»: chaves desconhecidas {', '.join(unknown)} "
                f"(aceitas: {', '.join(sorted(PERSON_KEYS))})."
            )
        values = {key: _text(path, f"{where}.{key}", value) for key, value in entry.items()}
        if "senha_variavel" not in values:
            raise ConfigError(f"Em {path}, «{where}»: falta «senha_variavel».")
        if ("arquivo" in values) == ("pkcs11_modulo" in values):
            raise ConfigError(
                f"Em {path}, «{where}»: informe «arquivo» (PKCS#12) ou «pkcs11_modulo» "
                "(token), um dos dois."
            )
        if "pkcs11_modulo" in values and "pkcs11_token" not in values:
            raise ConfigError(f"Em {path}, «{where}»: falta «pkcs11_token» (o rótulo do token).")
        if "arquivo" in values and ({"pkcs11_token", "pkcs11_chave"} & set(values)):
            raise ConfigError(
                f"Em {path}, «{where}»: «pkcs11_token» e «pkcs11_chave» valem só para token."
            )
        found[str(account)] = PersonCertificate(
            passphrase_env=values["senha_variavel"],
            file=Path(values["arquivo"]) if "arquivo" in values else None,
            pkcs11_module=Path(values["pkcs11_modulo"]) if "pkcs11_modulo" in values else None,
            pkcs11_token=values.get("pkcs11_token"),
            pkcs11_key=values.get("pkcs11_chave"),
        )
    return found


#: tomllib's messages (English, unstable wording) by their start, in pt-BR.
_TOML_PROBLEMS = (
    ("Cannot overwrite a value", "a mesma chave aparece mais de uma vez"),
    ("Cannot declare", "a mesma seção aparece mais de uma vez"),
    ("Cannot mutate immutable namespace", "a chave já foi definida de outra forma"),
    ("Invalid value", "valor inválido"),
    ("Invalid statement", "linha que não é chave = valor nem [seção]"),
    ("Expected '=' after a key", "falta o sinal = depois da chave"),
    ("Unterminated string", "texto sem aspas de fechamento"),
    ("Illegal character", "caractere não permitido"),
    ("Invalid initial character for a key part", "nome de chave inválido"),
    ("Unclosed array", "lista sem colchete de fechamento"),
)


def _toml_problem(message: str) -> str:
    """A TOML syntax error in pt-BR, with the line and column tomllib gives."""
    what = next(
        (pt for en, pt in _TOML_PROBLEMS if message.startswith(en)), "erro de sintaxe TOML"
    )
    at = re.search(r"\(at line (\d+), column (\d+)\)", message)
    if at is not None:
        return f"{what} (linha {at.group(1)}, coluna {at.group(2)})"
    if "(at end of document)" in message:
        return f"{what} (no fim do arquivo)"
    return what


def _read_file(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            raw = tomllib.load(handle)
    except OSError as error:
        raise ConfigError(
            f"Não foi possível ler o arquivo de configuração {path}: {describe_os_error(error)}."
        ) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(
            f"Arquivo de configuração {path} inválido: {_toml_problem(str(error))}."
        ) from None
    unknown = sorted(set(raw) - set(KNOWN_KEYS))
    if unknown:
        known = ", ".join(sorted(KNOWN_KEYS))
        raise ConfigError(
            f"Chave desconhecida em {path}: {', '.join(unknown)}. Chaves aceitas: {known}."
        )
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "assinantes":
            values[key] = _signers(path, value)
        elif key == "certificados":
            values[key] = _person_certificates(path, value)
        elif key == "retroacao_maxima_dias":
            values[key] = backdating_days(value, str(path))
        else:
            values[key] = _text(path, key, value)
    renderer = values.get("renderizador", RENDERERS[0])
    if renderer not in RENDERERS:
        raise ConfigError(
            f"Em {path}, «renderizador» = «{renderer[:40]}» não é um gerador conhecido: "
            f"use {' ou '.join(RENDERERS)}."
        )
    return values


def load_config(cwd: Path | None = None) -> Config:
    """The configuration in force for this process."""
    here = cwd or Path.cwd()
    named = os.environ.get(CONFIG_ENV)
    values: dict[str, Any] = {}
    if named:
        values = _read_file(Path(named))
    elif (here / "lavra.toml").is_file():
        values = _read_file(here / "lavra.toml")
    pack = os.environ.get(PACK_ENV) or values.get("pacote")
    pack_dir = select_pack(str(pack)).root if pack else default_pack_dir()
    data = os.environ.get(DATA_ENV) or values.get("pasta_dados") or str(here / "lavra-dados")
    bound = (values["retroacao_maxima_dias"]
             if "retroacao_maxima_dias" in values and BACKDATING_ENV not in os.environ
             else default_backdating_days())
    return Config(
        pack_dir=pack_dir,
        data_dir=Path(data),
        database_url=os.environ.get(DATABASE_ENV) or values.get("banco"),
        verification_url=values.get("url_verificacao", DEFAULT_VERIFICATION_URL),
        timestamp_url=values.get("carimbo_tempo"),
        signers=values.get("assinantes", {}),
        renderer=values.get("renderizador"),
        batch_dir=Path(values["pasta_lotes"]) if "pasta_lotes" in values else None,
        person_certificates=values.get("certificados", {}),
        backdating_days=bound,
    )
