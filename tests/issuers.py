"""An issuer over a fresh registry and the development PKI, as the tests that issue need."""

from __future__ import annotations

from pathlib import Path

from lavra.config import Config
from lavra.documents import Engine
from lavra.issuing import Issuer, ensure_dev_pki
from lavra.registry.database import database_url
from lavra.registry.store import open_registry

VERIFICATION_URL = "https://verifica.example.invalid/verificar"


def dev_issuer(engine: Engine, data_dir: Path) -> Issuer:
    """An Issuer with a SQLite registry and a development PKI in ``data_dir`` (close it)."""
    config = Config(
        pack_dir=engine.content.root, data_dir=data_dir, verification_url=VERIFICATION_URL
    )
    ensure_dev_pki(config, engine.content)
    return Issuer(engine, open_registry(database_url(config.data_dir)), config)
