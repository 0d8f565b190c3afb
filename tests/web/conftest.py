"""Fixtures of the web application tests: an app over a throw-away data folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from webhelpers import make_context

from lavra.web import WebContext, create_app


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "e2e: testes de ponta a ponta no Chromium do Debian (/usr/bin/chromium)"
    )


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


