"""Fixtures of the web application tests: an app over a throw-away data folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from argon2 import Parameters, PasswordHasher, Type
from fastapi import FastAPI
from fastapi.testclient import TestClient
from webhelpers import make_context

from lavra.web import WebContext, create_app
from lavra.web import users as users_module

CHEAP_ARGON2 = Parameters(type=Type.ID, version=19, salt_len=16, hash_len=32, time_cost=1,
                          memory_cost=8, parallelism=1)
"""Argon2id at its least cost (one pass over 8 KiB, one lane), for the tests only."""


def _cheap_hasher() -> PasswordHasher:
    return PasswordHasher.from_parameters(CHEAP_ARGON2)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "e2e: testes de ponta a ponta no Chromium do Debian (/usr/bin/chromium)"
    )
    # The accounts' passwords hashed and checked with Argon2id at its least cost: the
    # RFC 9106 defaults (3 passes over 64 MiB, 4 lanes) took ≈ 0.2 s of CPU per hash and
    # per sign-in, four hashes each make_context and one each login, repeated under the
    # four moved clocks for the DATE_MODULES web modules. Still Argon2id, still checked
    # (test_auth); set here, before any test module builds a context at import.
    users_module.PasswordHasher = _cheap_hasher  # type: ignore[misc, assignment]


@pytest.fixture(scope="session")
def web_context(tmp_path_factory: pytest.TempPathFactory) -> WebContext:
    return make_context(tmp_path_factory.mktemp("web") / "dados")


@pytest.fixture(scope="session")
def app(web_context: WebContext) -> FastAPI:
    return create_app(web_context)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


