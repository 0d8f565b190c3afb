"""Server-side sessions: a copied cookie is worth nothing once the session has ended.

Each test signs in, copies the session cookie into a second client (another browser,
or an attacker who copied it), ends the session the way staff do (signing out, a
password change, deactivation) and checks the copy no longer opens the staff area.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from webhelpers import PASSWORD, csrf_of, login

from lavra.web import WebContext
from lavra.web.users import Role, User, sessions_table

# The throw-away PostgreSQL cluster of the registry tests (skips without PostgreSQL); if
# it moves to a shared conftest, it is found there.
with contextlib.suppress(ImportError):
    from test_registry import postgres_url  # noqa: F401

COOKIE = "lavra_sessao"


@pytest.fixture
def browser(app: FastAPI) -> Iterator[TestClient]:
    """A second, independent browser."""
    with TestClient(app) as other:
        yield other


def _account(context: WebContext, name: str, role: Role = Role.CLERK) -> User:
    found = context.users.by_name(name)
    return found or context.users.add(name, PASSWORD, role, full_name=name.capitalize())


def _copy(client: TestClient, app: FastAPI) -> TestClient:
    """A client that holds only a copy of ``client``'s session cookie."""
    value = client.cookies.get(COOKIE)
    assert value
    return TestClient(app, cookies={COOKIE: value})


def _signed_out(copy: TestClient) -> bool:
    page = copy.get("/equipe", follow_redirects=False)
    api = copy.get("/equipe", headers={"accept": "application/json"}, follow_redirects=False)
    return (
        page.status_code == 303
        and page.headers["location"] == "/entrar?proximo=/equipe"
        and api.status_code == 401
    )


def test_a_cookie_copied_before_sign_out_opens_nothing_afterwards(
    client: TestClient, browser: TestClient, app: FastAPI, web_context: WebContext
) -> None:
    _account(web_context, "sofia")
    assert login(client, "sofia").status_code == 303
    copy = _copy(client, app)
    assert copy.get("/equipe").status_code == 200  # the copy works while the session lasts
    out = client.post("/sair", data={"csrf": csrf_of(client, "/equipe")},
                      follow_redirects=False)
    assert out.status_code == 303
    assert _signed_out(copy)
    # signing in again elsewhere does not bring the old session back
    assert login(browser, "sofia").status_code == 303
    assert browser.get("/equipe").status_code == 200
    assert _signed_out(copy)


def test_signing_out_ends_only_that_session(
    client: TestClient, browser: TestClient, web_context: WebContext
) -> None:
    account = _account(web_context, "tales")
    login(client, "tales")
    login(browser, "tales")
    assert web_context.users.open_sessions(account.id) == 2
    client.post("/sair", data={"csrf": csrf_of(client, "/equipe")})
    assert browser.get("/equipe").status_code == 200
    assert web_context.users.open_sessions(account.id) == 1


def test_a_password_change_ends_every_session_of_the_account(
    client: TestClient, browser: TestClient, app: FastAPI, web_context: WebContext
) -> None:
    account = _account(web_context, "ursula")
    login(browser, "ursula")
    copy = _copy(browser, app)
    login(client, "admin")
    token = csrf_of(client, "/equipe/contas")
    changed = client.post(
        f"/equipe/contas/{account.id}",
        data={"csrf": token, "papel": "clerk", "ativa": "sim", "senha": "nova-senha-do-teste"},
        follow_redirects=False,
    )
    assert changed.status_code == 303
    assert _signed_out(copy) and _signed_out(browser)
    assert login(browser, "ursula", "nova-senha-do-teste").status_code == 303


def test_changing_ones_own_password_keeps_this_session_and_ends_the_others(
    client: TestClient, browser: TestClient, app: FastAPI, web_context: WebContext
) -> None:
    account = _account(web_context, "vera", Role.ADMIN)
    login(browser, "vera")
    elsewhere = _copy(browser, app)
    login(client, "vera")
    here = _copy(client, app)
    token = csrf_of(client, "/equipe/contas")
    changed = client.post(
        f"/equipe/contas/{account.id}",
        data={"csrf": token, "papel": "admin", "ativa": "sim", "senha": "outra-senha-da-vera"},
        follow_redirects=False,
    )
    assert changed.status_code == 303
    assert client.get("/equipe/contas").status_code == 200
    assert here.get("/equipe").status_code == 200  # the session that made the change
    assert _signed_out(browser) and _signed_out(elsewhere)


def test_deactivation_ends_every_session_and_reactivation_brings_none_back(
    client: TestClient, browser: TestClient, app: FastAPI, web_context: WebContext
) -> None:
    account = _account(web_context, "wagner")
    login(browser, "wagner")
    copy = _copy(browser, app)
    login(client, "admin")
    token = csrf_of(client, "/equipe/contas")
    off = client.post(f"/equipe/contas/{account.id}", data={"csrf": token, "papel": "clerk"},
                      follow_redirects=False)
    assert off.status_code == 303
    assert _signed_out(copy) and _signed_out(browser)
    assert login(browser, "wagner").status_code == 401
    web_context.users.update(account.id, active=True)
    assert _signed_out(copy)
    assert web_context.users.open_sessions(account.id) == 0


def test_a_role_change_applies_to_the_open_session_at_once(
    client: TestClient, browser: TestClient, web_context: WebContext
) -> None:
    account = _account(web_context, "xenia", Role.ADMIN)
    login(browser, "xenia")
    assert browser.get("/equipe/contas").status_code == 200
    login(client, "admin")
    token = csrf_of(client, "/equipe/contas")
    client.post(f"/equipe/contas/{account.id}",
                data={"csrf": token, "papel": "clerk", "ativa": "sim"})
    assert browser.get("/equipe/contas").status_code == 403  # the role is read every request
    assert browser.get("/equipe").status_code == 200


def test_an_expired_session_opens_nothing(
    client: TestClient, app: FastAPI, web_context: WebContext
) -> None:
    account = _account(web_context, "yara")
    login(client, "yara")
    copy = _copy(client, app)
    engine = web_context.registry.engine
    with engine.begin() as connection:
        connection.execute(
            update(sessions_table)
            .where(sessions_table.c.user_id == account.id)
            .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
        )
    assert _signed_out(copy) and _signed_out(client)


def test_the_cookie_carries_only_a_random_id_and_the_database_only_its_hash(
    client: TestClient, web_context: WebContext
) -> None:
    account = _account(web_context, "zeca")
    login(client, "zeca")
    value = client.cookies.get(COOKIE)
    assert value
    import base64
    import json

    payload = json.loads(base64.b64decode(value.split(".")[0] + "=="))
    assert set(payload) == {"sid", "csrf"}
    with web_context.registry.engine.connect() as connection:
        stored = connection.execute(
            select(sessions_table.c.session_sha256).where(sessions_table.c.user_id == account.id)
        ).scalars().all()
    assert len(stored) == 1 and payload["sid"] not in stored[0] and len(stored[0]) == 64


def test_sessions_on_postgresql(postgres_url: str) -> None:
    """The same store over PostgreSQL: migrations at head (0006), sessions end for good."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import MetaData

    from lavra.registry.name_index import include_object
    from lavra.registry.store import open_registry
    from lavra.registry.tables import metadata
    from lavra.registry.webshared import shared_metadata
    from lavra.web.users import UserStore, users_metadata

    with open_registry(postgres_url) as registry:
        combined = MetaData()
        for table in (*metadata.tables.values(), *users_metadata.tables.values(),
                      *shared_metadata.tables.values()):
            table.to_metadata(combined)
        with registry.engine.connect() as connection:
            context = MigrationContext.configure(
            connection, opts={"include_object": include_object})
            assert context.get_current_heads() == ("0027",)
            assert compare_metadata(context, combined) == []
        store = UserStore(registry.engine)
        account = store.add("pgconta", PASSWORD, Role.CLERK)
        first, second = store.open_session(account.id, 3600), store.open_session(account.id, 60)
        assert store.session_user(first) == store.session_user(second) == account
        store.close_session(first)
        assert store.session_user(first) is None and store.session_user(second) == account
        third = store.open_session(account.id, 3600)
        store.set_password(account.id, "senha-nova-no-pg", keep_session=third)
        assert store.session_user(second) is None and store.session_user(third) is not None
        store.update(account.id, active=False)
        assert store.session_user(third) is None and store.open_sessions(account.id) == 0
        assert store.session_user(store.open_session(account.id, -1)) is None  # expired
