"""An issuer over a fresh registry and the development PKI, as the tests that issue need."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from lavra.config import Config
from lavra.documents import Engine
from lavra.issuing import Issuer, ensure_dev_pki
from lavra.registry.database import database_url
from lavra.registry.store import Registry, open_registry
from lavra.signing.pki import KeySource, new_rsa_key

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric import rsa

VERIFICATION_URL = "https://verifica.example.invalid/verificar"

# The benchmarks under bench/ (which import these helpers, and batchcases through them)
# issue on fixed past dates with the real signing clock, as the suite does: the bound on
# backdating (lavra.checking.backdating) is lifted for them as tests/conftest.py lifts it
# for the suite, before any Config is read and inherited by the runs' workers.
os.environ.setdefault("LAVRA_RETROACAO_MAXIMA_DIAS", "sem limite")


_SHARED_KEYS: list[rsa.RSAPrivateKey] = []


def shared_keys() -> KeySource:
    """The key source of one test PKI: its n-th key is this process's n-th shared key,
    generated the first time a PKI asks for it and reused by every later one (its five
    RSA keys were ≈ 0.25 s of CPU per PKI, ≈ 110 PKIs a run). Within a PKI the keys
    stay distinct (the root's first, then one per role); the certificates are still
    made per PKI, with the validity its caller asks. Two PKIs from this source share
    their root key: a test of a signature from another root makes that one with fresh
    keys (``init_dev_pki``'s default)."""
    taken = itertools.count()

    def next_key() -> rsa.RSAPrivateKey:
        index = next(taken)
        while len(_SHARED_KEYS) <= index:
            _SHARED_KEYS.append(new_rsa_key())
        return _SHARED_KEYS[index]

    return next_key


def dev_issuer(engine: Engine, data_dir: Path) -> Issuer:
    """An Issuer with a SQLite registry and a development PKI in ``data_dir`` (close it);
    the PKI's keys are the process's :func:`shared_keys`."""
    config = Config(
        pack_dir=engine.content.root, data_dir=data_dir, verification_url=VERIFICATION_URL
    )
    ensure_dev_pki(config, engine.content, new_key=shared_keys())
    return Issuer(engine, open_registry(database_url(config.data_dir)), config)


def clocked_issuer(engine: Engine, data_dir: Path, now: datetime) -> Issuer:
    """:func:`dev_issuer` signing at ``now`` (the PKI valid from 30 days before), so that
    a test never depends on today's date (close it)."""
    config = Config(
        pack_dir=engine.content.root, data_dir=data_dir, verification_url=VERIFICATION_URL
    )
    ensure_dev_pki(config, engine.content, valid_from=now - timedelta(days=30),
                   new_key=shared_keys())
    return Issuer(engine, open_registry(database_url(config.data_dir)), config,
                  clock=lambda: now)


def poppler(pdf: bytes) -> str:
    """The PDF's text as poppler's ``pdftotext -layout`` reads it, whitespace collapsed."""
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                         check=True, timeout=60)
    return " ".join(out.stdout.decode("utf-8").split())


def flowing(pdf: bytes) -> str:
    """Like :func:`poppler`, without the page furniture: the "Página N de M" lines and the
    running header repeated atop every page after the first, so that a sentence a page
    break cuts reads whole (as its signer reads it across the pages)."""
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                         check=True, timeout=60)
    pages = [[line.strip() for line in page.splitlines() if line.strip()]
             for page in out.stdout.decode("utf-8").split("\f")]
    pages = [[line for line in page if not re.fullmatch(r"Página \d+ de \d+", line)]
             for page in pages if page]
    kept = pages[:1]
    if len(pages) > 1:
        top = set(pages[0][:8])
        for page in pages[1:]:
            start = 0
            while start < len(page) and page[start] in top:
                start += 1
            kept.append(page[start:])
    return " ".join(" ".join(line for page in kept for line in page).split())


def state_registry(url: str) -> Iterator[Registry]:
    """The registry at ``url`` with the Americana pack's effects and its licensing state
    built, closed afterwards (``yield from`` it in a fixture). The pack is imported here,
    not at the top: the second-pack tests import this module and no Americana module."""
    from lavra_americana import pacote

    opened = open_registry(url)
    opened.use_effects(pacote().effects)
    opened.ensure_state()
    yield opened
    opened.close()
