"""Behind a reverse proxy: X-Forwarded-For is believed only from the proxy's address.

A client that talks to the application directly cannot escape the per-address login
limit by sending a new ``X-Forwarded-For`` with every attempt; through the trusted
proxy, each real client is limited on its own.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi import FastAPI
from fastapi.testclient import TestClient
from webhelpers import REPO, make_context

from lavra.cli.web import serve
from lavra.errors import ConfigError
from lavra.web import WebContext, create_app
from lavra.web.context import parse_proxies
from lavra.web.throttle import LoginThrottle, address_key

PROXY = "10.0.0.2"


def _app(tmp_path: Path, proxies: tuple[str, ...]) -> tuple[FastAPI, WebContext]:
    context = make_context(tmp_path / "dados")
    context.settings = replace(context.settings, trusted_proxies=proxies)
    context.throttle = LoginThrottle(clock=lambda: 1000.0)  # time stands still
    return create_app(context), context


def _attempt(client: TestClient, account: str, forwarded: str | None) -> int:
    headers = {"x-forwarded-for": forwarded} if forwarded else {}
    page = client.get("/entrar", headers=headers)
    token = page.text.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    response = client.post(
        "/entrar",
        data={"csrf": token, "usuario": account, "senha": "senha-errada-000"},
        headers=headers,
        follow_redirects=False,
    )
    return response.status_code


def test_through_the_trusted_proxy_each_real_client_is_limited_on_its_own(
    tmp_path: Path,
) -> None:
    app, _ = _app(tmp_path, ("10.0.0.0/29",))
    with TestClient(app, client=(PROXY, 40000)) as proxy:
        # eleven different people behind the proxy: nobody is blocked by the others
        assert [_attempt(proxy, f"outra{i}", f"198.51.100.{i}") for i in range(11)] == [401] * 11
        # one person rotating a forged header of their own: the proxy appends the real
        # address, and the right-most address that is not a proxy is the one counted
        forged = [_attempt(proxy, f"conta{i}", f"192.0.2.{i}, 203.0.113.50") for i in range(11)]
        assert forged[:10] == [401] * 10 and forged[10] == 429
        # a chain of trusted proxies is skipped too
        assert _attempt(proxy, "mais1", "203.0.113.50, 10.0.0.3") == 429
        assert _attempt(proxy, "mais2", "203.0.113.51, 10.0.0.3") == 401


def test_rotating_within_one_ipv6_block_counts_as_one_address() -> None:
    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff::9") == (
        "2001:db8:1:2::/64"
    )
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert address_key("203.0.113.7") == "203.0.113.7"
    throttle = LoginThrottle(clock=lambda: 0.0)
    for index in range(10):
        throttle.failed(f"conta{index}", f"2001:db8:1:2::{index + 1:x}")
    assert throttle.wait_seconds("outra", "2001:db8:1:2:abcd::1") == 1
    assert throttle.wait_seconds("outra", "2001:db8:9::1") == 0


def test_proxy_addresses_are_checked() -> None:
    assert parse_proxies(["10.0.0.5", " 10.0.0.0/24 ", "", "::1", "10.0.0.5"]) == (
        "10.0.0.5", "10.0.0.0/24", "::1",
    )
    for wrong in ("*", "proxy.local", "10.0.0.300"):
        with pytest.raises(ConfigError, match="não é um endereço IP"):
            parse_proxies([wrong])


def _served(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *args: str) -> Any:
    """What ``lavra serve ARGS`` would run: its app and uvicorn's options, not started."""
    import uvicorn

    from lavra.web import context as web_context

    monkeypatch.setattr(web_context, "LoginThrottle", lambda **kw: LoginThrottle(lambda: 1000.0))
    monkeypatch.setenv("LAVRA_DATA", str(tmp_path / "dados"))
    monkeypatch.setenv("LAVRA_PACK", str(REPO))
    monkeypatch.setenv("LAVRA_WEB_SEGREDO", "s" * 40)
    monkeypatch.chdir(tmp_path)
    seen: dict[str, Any] = {}

    def run(app: FastAPI, **options: Any) -> None:
        seen.update(options, app=app)

    monkeypatch.setattr(uvicorn, "run", run)
    result = CliRunner().invoke(serve, list(args))
    seen["result"] = result
    return seen


def _as_uvicorn_runs_it(seen: dict[str, Any]) -> Any:
    """The ASGI application uvicorn would serve with these options (its own wrapping)."""
    import uvicorn

    options = {k: v for k, v in seen.items() if k not in ("app", "result")}
    config = uvicorn.Config(seen["app"], **options)
    config.load()
    return config.loaded_app


def test_serve_with_proxy_limits_a_direct_client_rotating_x_forwarded_for_as_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen = _served(monkeypatch, tmp_path, "--proxy")
    assert seen["result"].exit_code == 0, seen["result"].output
    served = _as_uvicorn_runs_it(seen)
    with TestClient(served, client=("203.0.113.7", 40000)) as client:
        codes = [_attempt(client, f"conta{i}", f"198.51.100.{i}") for i in range(11)]
    assert codes[:10] == [401] * 10
    assert codes[10] == 429  # the eleventh account from the same real address must wait
    with TestClient(served, client=("127.0.0.1", 40000)) as proxy:  # the trusted proxy
        assert _attempt(proxy, "nova", "198.51.100.200") == 401  # another client: allowed
        assert [_attempt(proxy, f"x{i}", f"192.0.2.{i}, 203.0.113.9") for i in range(11)][
            10
        ] == 429  # a header forged before the proxy's own entry changes nothing


def _trusted(app: FastAPI) -> list[str] | None:
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    for layer in app.user_middleware:
        if layer.cls is ProxyHeadersMiddleware:
            return list(layer.kwargs["trusted_hosts"])
    return None


def test_serve_trusts_only_the_named_proxies(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    direct = _served(monkeypatch, tmp_path)
    assert direct["result"].exit_code == 0, direct["result"].output
    assert direct["proxy_headers"] is False and _trusted(direct["app"]) is None
    loopback = _served(monkeypatch, tmp_path, "--proxy")
    assert loopback["proxy_headers"] is False
    assert _trusted(loopback["app"]) == ["127.0.0.1", "::1"]
    named = _served(monkeypatch, tmp_path, "--proxy-ip", "10.1.2.3", "--proxy-ip", "fd00::/8")
    assert _trusted(named["app"]) == ["10.1.2.3", "fd00::/8"]
    monkeypatch.setenv("LAVRA_WEB_PROXIES", "192.168.0.10, 192.168.0.11")
    from_env = _served(monkeypatch, tmp_path, "--proxy")
    assert _trusted(from_env["app"]) == ["192.168.0.10", "192.168.0.11"]
    refused = _served(monkeypatch, tmp_path, "--proxy-ip", "*")
    assert refused["result"].exit_code != 0 and "app" not in refused
    assert "«*» não é aceito" in refused["result"].output
