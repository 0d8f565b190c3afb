"""Configuration: defaults that work out of the box, loud failure on unknown keys.

Sources, later ones winning: built-in defaults; the TOML file named by
``LAVRA_CONFIG`` (or ``lavra.toml`` in the working directory when present);
environment variables ``LAVRA_PACK`` and ``LAVRA_DATA``.

    # lavra.toml
    pacote = "/srv/lavra/americana"     # content pack (legal_text/, schemas/, forms/)
    pasta_dados = "/var/lib/lavra"      # registry, keys, generated files
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lavra.errors import ConfigError
from lavra.pack import PACK_ENV, checked_pack_dir, default_pack_dir

CONFIG_ENV = "LAVRA_CONFIG"
DATA_ENV = "LAVRA_DATA"
KNOWN_KEYS = {"pacote": "caminho do pacote de conteúdo", "pasta_dados": "pasta de dados"}


@dataclass(frozen=True)
class Config:
    pack_dir: Path
    data_dir: Path


def _read_file(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            raw = tomllib.load(handle)
    except OSError as error:
        raise ConfigError(
            f"Não foi possível ler o arquivo de configuração {path}: {error.strerror}."
        ) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"Arquivo de configuração {path} inválido: {error}.") from None
    unknown = sorted(set(raw) - set(KNOWN_KEYS))
    if unknown:
        known = ", ".join(sorted(KNOWN_KEYS))
        raise ConfigError(
            f"Chave desconhecida em {path}: {', '.join(unknown)}. Chaves aceitas: {known}."
        )
    for key, value in raw.items():
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(
                f"Em {path}, «{key}» ({KNOWN_KEYS[key]}) deve ser um texto não vazio."
            )
    return raw


def load_config(cwd: Path | None = None) -> Config:
    """The configuration in force for this process."""
    here = cwd or Path.cwd()
    named = os.environ.get(CONFIG_ENV)
    file_values: dict[str, Any] = {}
    if named:
        file_values = _read_file(Path(named))
    elif (here / "lavra.toml").is_file():
        file_values = _read_file(here / "lavra.toml")
    pack = os.environ.get(PACK_ENV) or file_values.get("pacote")
    pack_dir = checked_pack_dir(Path(pack)) if pack else default_pack_dir()
    data = os.environ.get(DATA_ENV) or file_values.get("pasta_dados") or str(here / "lavra-dados")
    return Config(pack_dir=pack_dir, data_dir=Path(data))
