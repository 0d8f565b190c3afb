"""Web paths found by the review of issue 8: what a person sees after hostile input."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi.testclient import TestClient
from webhelpers import csrf_of, errors_in, login

BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def test_a_too_large_upload_from_a_browser_is_a_page_naming_the_limit(
    client: TestClient,
) -> None:
    big = b"%PDF-1.7\n" + b"0" * (6 * 1024 * 1024)
    for url in ("/verificar", "/requerimentos/ler"):
        token = csrf_of(client, url)
        response = client.post(url, data={"csrf": token}, headers=BROWSER,
                               files={"arquivo": ("a.pdf", big, "application/pdf")})
        assert response.status_code == 413
        assert response.headers["content-type"].startswith("text/html")
        assert '<html lang="pt-BR">' in response.text
        assert "excede o tamanho máximo de 5 MiB" in response.text
        assert '"detail"' not in response.text
        assert "default-src" in response.headers["content-security-policy"]
        assert response.headers["x-frame-options"] == "SAMEORIGIN"
    api = client.post("/api/verify", files={"arquivo": ("a.pdf", big, "application/pdf")},
                      headers=BROWSER)
    assert api.status_code == 413
    assert api.json()["detail"] == "O envio excede o tamanho máximo de 5 MiB."


def test_the_registry_search_refuses_invisible_characters(client: TestClient) -> None:
    login(client, "clara")
    for query, code in (("\u202eABC1D23", "U+202E"), ("ABC\u00851D23", "U+0085"),
                        ("ABC\u200b1D23", "U+200B")):
        response = client.get("/equipe/registro", params={"q": query})
        assert response.status_code == 200
        shown = " ".join(errors_in(response.text))
        assert "O texto da busca contém um caractere" in shown and code in shown, shown


def test_a_field_posted_twice_with_different_values_is_refused(client: TestClient) -> None:
    url = "/requerimentos/requerimento-alvara-fretamento"
    token = csrf_of(client, url)
    for action in ("verificar", "baixar"):
        body = urlencode([("csrf", token), ("categoria", "fretamento"),
                          ("requerente/razao_social", "Empresa Um Ltda."),
                          ("requerente/razao_social", "Empresa Dois Ltda."), ("_acao", action)])
        response = client.post(url, content=body, headers={
            "content-type": "application/x-www-form-urlencoded", **BROWSER})
        assert response.status_code == 422, response.text[:300]
        assert response.headers["content-type"].startswith("text/html")
        shown = " ".join(errors_in(response.text))
        assert ("«Empresa ou entidade requerente › Razão social» foi enviado mais de uma vez"
                in shown), shown  # the form's label, never the pointer (issue 25)
    same = urlencode([("csrf", token), ("categoria", "fretamento"),
                      ("categoria", "fretamento"), ("_acao", "verificar")])
    response = client.post(url, content=same, headers={
        "content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 200


def test_a_malformed_request_field_says_what_is_wrong(client: TestClient) -> None:
    cases = [
        ({"form": "alvara-fretamento", "data": {}, "on": "2026-02-29"}, "/on", "data inexistente"),
        ({"form": "alvara-fretamento", "data": {}, "on": "0000-01-01"}, "/on", "AAAA-MM-DD"),
        ({"form": 5, "data": {}}, "/form", "deve ser um texto"),
        ({"form": "alvara-fretamento", "data": [1]}, "/data", "deve ser um objeto JSON"),
    ]
    for body, field, words in cases:
        response = client.post("/api/check", json=body)
        assert response.status_code == 422, response.text
        problem = response.json()
        assert problem["field"] == field
        assert words in problem["detail"], problem
        assert "valor inválido" not in problem["detail"]
