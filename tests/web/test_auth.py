"""Staff sign-in: argon2 passwords, signed cookies, CSRF, throttling, roles, tokens."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from webhelpers import ALV, PASSWORD, csrf_of, login, make_context

from lavra.errors import InputError
from lavra.web import WebContext, create_app
from lavra.web.throttle import LoginThrottle
from lavra.web.users import Role


def test_passwords_are_stored_as_argon2id_hashes(web_context: WebContext) -> None:
    from sqlalchemy import select

    from lavra.web.users import users_table

    with web_context.registry._engine.connect() as connection:
        stored = connection.execute(
            select(users_table.c.password_hash).where(users_table.c.name == "clara")
        ).scalar_one()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert web_context.users.authenticate("clara", PASSWORD) is not None
    assert web_context.users.authenticate("clara", PASSWORD + "x") is None
    assert web_context.users.authenticate("ninguem", PASSWORD) is None
    with pytest.raises(InputError, match="no mínimo 10"):
        web_context.users.add("curta", "123", Role.CLERK)


def test_anonymous_staff_pages_redirect_to_sign_in(client: TestClient) -> None:
    response = client.get("/equipe/registro", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/entrar?proximo=/equipe/registro"


def test_sign_in_sets_a_signed_httponly_lax_cookie_and_sign_out_ends_it(
    client: TestClient,
) -> None:
    response = login(client, "clara")
    assert response.status_code == 303 and response.headers["location"] == "/equipe"
    cookie = response.headers["set-cookie"].lower()
    assert "lavra_sessao=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert "Clara Redatora" in client.get("/equipe").text
    token = csrf_of(client, "/equipe")
    out = client.post("/sair", data={"csrf": token}, follow_redirects=False)
    assert out.status_code == 303
    assert client.get("/equipe", follow_redirects=False).status_code == 303


def test_a_tampered_session_cookie_is_ignored(client: TestClient) -> None:
    login(client, "admin")
    value = client.cookies.get("lavra_sessao")
    assert value
    client.cookies.set("lavra_sessao", value[:-2] + ("AA" if value[-2:] != "AA" else "BB"))
    assert client.get("/equipe", follow_redirects=False).status_code == 303


def test_wrong_password_is_refused_and_login_needs_csrf(client: TestClient) -> None:
    wrong = login(client, "sergio", "senha-errada-000")
    assert wrong.status_code == 401
    assert "Usuário ou senha incorretos." in wrong.text
    forged = client.post(
        "/entrar", data={"usuario": "sergio", "senha": PASSWORD}, follow_redirects=False
    )
    assert forged.status_code == 403


def test_failed_logins_are_throttled_with_exponential_back_off(tmp_path: Path) -> None:
    now = [1000.0]
    context = make_context(tmp_path / "dados")
    context.throttle = LoginThrottle(clock=lambda: now[0])
    with TestClient(create_app(context)) as client:
        for _ in range(3):
            assert login(client, "clara", "senha-errada-000").status_code == 401
        blocked = login(client, "clara")  # even the right password must wait
        assert blocked.status_code == 429
        assert "Aguarde 1 segundo(s)" in blocked.text
        now[0] += 1.5
        assert login(client, "clara", "senha-errada-000").status_code == 401
        again = login(client, "clara")
        assert again.status_code == 429 and "Aguarde 2 segundo(s)" in again.text
        assert login(client, "sergio").status_code == 303  # other accounts are not blocked
        now[0] += 2.5
        assert login(client, "clara").status_code == 303


def test_throttle_per_address_after_many_accounts() -> None:
    now = [0.0]
    throttle = LoginThrottle(clock=lambda: now[0])
    for index in range(10):
        throttle.failed(f"conta{index}", "10.0.0.1")
    assert throttle.wait_seconds("outra", "10.0.0.1") == 1
    assert throttle.wait_seconds("outra", "10.0.0.2") == 0
    throttle.failed("outra", "10.0.0.1")
    assert throttle.wait_seconds("nova", "10.0.0.1") == 2


def test_roles_are_enforced_on_pages(client: TestClient) -> None:
    login(client, "clara")
    page = client.get(f"/equipe/novo/{ALV}")
    assert page.status_code == 200
    assert 'id="emitir"' not in page.text and 'id="ver-minuta"' in page.text
    token = csrf_of(client, f"/equipe/novo/{ALV}")
    refused = client.post(f"/equipe/novo/{ALV}", data={"csrf": token, "_acao": "emitir"})
    assert refused.status_code == 403
    assert client.get("/equipe/contas").status_code == 403
    login(client, "sergio")
    assert 'id="emitir"' in client.get(f"/equipe/novo/{ALV}").text


def test_admin_manages_accounts_and_tokens(client: TestClient, web_context: WebContext) -> None:
    login(client, "admin")
    token = csrf_of(client, "/equipe/contas")
    created = client.post(
        "/equipe/contas",
        data={"csrf": token, "usuario": "davi", "nome": "Davi Novo", "senha": PASSWORD,
              "papel": "clerk"},
        follow_redirects=False,
    )
    assert created.status_code == 303
    davi = web_context.users.by_name("davi")
    assert davi is not None and davi.role is Role.CLERK
    page = client.post(f"/equipe/contas/{davi.id}/tokens",
                       data={"csrf": token, "descricao": "integração de teste"})
    match = re.search(r'<code id="novo-token">([^<]+)</code>', page.text)
    assert match is not None
    secret = match.group(1)
    api = TestClient(client.app)
    auth = {"Authorization": f"Bearer {secret}"}
    assert api.get("/api/documents", params={"q": "ABC1D23"}, headers=auth).status_code == 200
    listed = web_context.users.tokens(davi.id)
    client.post(f"/equipe/tokens/{listed[0].id}/revogar", data={"csrf": token})
    revoked = api.get("/api/documents", params={"q": "ABC1D23"}, headers=auth)
    assert revoked.status_code == 401 and revoked.headers["www-authenticate"] == "Bearer"
    disabled = client.post(f"/equipe/contas/{davi.id}",
                           data={"csrf": token, "papel": "clerk", "ativa": "nao"},
                           follow_redirects=False)
    assert disabled.status_code == 303
    assert login(TestClient(client.app), "davi").status_code == 401
    admin = web_context.users.by_name("admin")
    assert admin is not None
    last = client.post(f"/equipe/contas/{admin.id}",
                       data={"csrf": token, "papel": "clerk", "ativa": "sim"})
    assert last.status_code == 422 and "última conta de administração" in last.text
