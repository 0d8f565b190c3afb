"""The staff API's /check and /draft (with a staff token) and the staff pages read the
registry as the issue does: a company barred by a cassação (fretamento art. 22,
parágrafo único) is a pendência before signing. Without a token the API reads nothing
of the registry and says so; a public page never shows it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_licensing_state import act, alvara_fretamento, example
from webhelpers import ALV, PASSWORD, SECRET, csrf_of, form_data, login

from lavra.config import Config
from lavra.web import WebContext, WebSettings, create_app
from lavra.web.formparse import to_pairs
from lavra.web.staffcheck import UNCHECKED
from lavra.web.users import Role

REPO = Path(__file__).resolve().parents[2]
BAR_BASIS = "fretamento#art22_par1u"


@pytest.fixture(scope="module")
def barred(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[WebContext, str]]:
    """An application whose registry holds the example company's alvará cassado, the bar
    running past any day the tests run on (the staff page checks on today: the alvará
    has no date of its own); and a staff token."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("LAVRA_DATABASE_URL", raising=False)
        folder = tmp_path_factory.mktemp("barrado") / "dados"
        ctx = WebContext(Config(pack_dir=REPO, data_dir=folder),
                         WebSettings(secret_key=SECRET))
        old = alvara_fretamento(ctx.registry, on=date(2026, 1, 5))
        data = example("decisao-cassacao-fretamento")
        data["alvaras"] = [{"numero": old.printed, "placa": "ABC1D23"}]
        act(ctx.registry, "CAS-FRET", "decisao-cassacao-fretamento", data,
            on=date(2026, 1, 6), computed={"impedimento": {"ultimo_dia": "2099-12-31"}})
        user = ctx.users.add("clara", PASSWORD, Role.CLERK, full_name="Clara Redatora")
        token = ctx.users.create_token(user.id, "testes")[1]
        yield ctx, token
        ctx.registry.close()


@pytest.fixture
def client(barred: tuple[WebContext, str]) -> Iterator[TestClient]:
    with TestClient(create_app(barred[0])) as test_client:
        yield test_client


def bar_items(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for i in report["items"] if BAR_BASIS in i["basis"]]


def test_api_check_and_draft_read_the_registry_with_a_staff_token(
    client: TestClient, barred: tuple[WebContext, str]
) -> None:
    body = {"form": ALV, "data": example(ALV), "on": "2026-12-01"}
    staff = {"Authorization": f"Bearer {barred[1]}"}
    checked = client.post("/api/check", json=body, headers=staff).json()
    assert checked["complete"] is False and "unchecked" not in checked
    [item] = bar_items(checked)
    assert item["status"] == "invalid" and "CAS-FRET nº 0001/2026" in item["message"]
    drafted = client.post("/api/draft", json=body, headers=staff)
    assert drafted.status_code == 200
    assert drafted.headers["X-Lavra-Pendencias"] == "1"
    assert drafted.headers["X-Lavra-Cadastro"] == "consultado"
    # Without a token nothing of the registry is read, and the answer says so.
    public = client.post("/api/check", json=body).json()
    assert public["complete"] is True and bar_items(public) == []
    assert public["unchecked"] == UNCHECKED
    plain = client.post("/api/draft", json=body)
    assert plain.headers["X-Lavra-Pendencias"] == "0"
    assert plain.headers["X-Lavra-Cadastro"] == "nao-consultado"
    bad = client.post("/api/check", json=body, headers={"Authorization": "Bearer errado"})
    assert bad.status_code == 401


def test_the_staff_pages_show_the_bar_before_signing(
    client: TestClient, barred: tuple[WebContext, str]
) -> None:
    ctx = barred[0]
    login(client, "clara")
    new = f"/equipe/novo/{ALV}"
    pairs = to_pairs(ctx.schema(ALV), example(ALV))
    token = csrf_of(client, new)
    saved = client.post(f"{new}/salvar", data=form_data([("csrf", token), ("_acao", "salvar"),
                                                         *pairs]), follow_redirects=False)
    match = re.fullmatch(r"/equipe/minutas/(\d+)\?aviso=minuta-salva", saved.headers["location"])
    assert match is not None
    opened = client.get(f"/equipe/minutas/{match.group(1)}").text
    assert "CAS-FRET nº 0001/2026" in opened and "art. 22, parágrafo único" in opened
    live = client.post(f"{new}/relatorio", data=form_data([("csrf", token), *pairs]))
    assert "CAS-FRET nº 0001/2026" in live.text
