"""No developer text reaches a user (issue 25): the text a person reads on each page (the
page without its tags, scripts and attribute values) carries no JSON pointer, no form id
on an error page, no time-zone name, no raw schema key or enum, no ISO date, no bare
CPF/CNPJ digits and no X.509 distinguished name. One document issued at a fixed moment
(the issuer's clock, 29/11/2026); the fact recorded on it is dated 01/12/2026, after
the issue and before any day these tests run."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from identities import set_vehicle
from webhelpers import ALV, PASSWORD, REPO, REQ, csrf_of, login, make_context

from lavra.registry.records import LOCAL_TZ, IssuedRecord
from lavra.web import WebContext, create_app
from lavra.web.issuance import signer_of


def _example(form_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (REPO / "forms" / form_id / "exemplo.json").read_text("utf-8"))
    return data


FORM_IDS = re.compile(r"\b(?:alvara|requerimento|termo|decisao|notificacao)(?:-[a-z]+)+\b")
PATTERNS = {
    "ponteiro JSON": re.compile(r"\(campo /|campo /[a-z]"),
    "fuso horário": re.compile(r"America/Sao_Paulo|UTC[+-]"),
    "chave ou enum crua": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "data ISO": re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    "DN X.509": re.compile(r"\b(?:CN|OU|O|C|serialNumber)=\S"),
}


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> WebContext:
    return make_context(Path(tmp_path_factory.mktemp("textos")) / "dados")


def issue_one(context: WebContext) -> IssuedRecord:
    """An ALV-FRET signed by Sérgio at 29/11/2026 10:30 (the issuer's clock), and a draft."""
    issuer = context.require_issuer()
    sergio = context.users.authenticate("sergio", PASSWORD)
    assert sergio is not None
    data = _example(ALV)
    set_vehicle(data["veiculo"], "ABC1234")
    issuer.clock = lambda: datetime(2026, 11, 29, 10, 30, tzinfo=LOCAL_TZ)
    try:
        issued = issuer.issue(ALV, data, date(2026, 11, 29),
                              signer=signer_of(context, sergio, ALV)).record
    finally:
        issuer.clock = None
    context.registry.save_draft(ALV, data, title="Alvará — ABC1234", by="Clara Redatora")
    return issued


@pytest.fixture(scope="module")
def record(context: WebContext) -> IssuedRecord:
    return issue_one(context)


@pytest.fixture
def client(context: WebContext, record: IssuedRecord) -> Iterator[TestClient]:
    with TestClient(create_app(context)) as test_client:
        yield test_client


def visible_text(page: str) -> str:
    """What a person reads: the page without scripts, styles, templates, tags, attributes."""
    page = re.sub(r"<(script|style|template)\b.*?</\1>", " ", page, flags=re.S | re.I)
    page = re.sub(r"<!--.*?-->", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return " ".join(html.unescape(page).split())


MASKED = re.compile(r"\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}")
# the CPFs and CNPJs of the example, as bare digits: a page shows them masked
BARE = sorted({re.sub(r"\D", "", m) for m in MASKED.findall(json.dumps(_example(ALV)))})


def _problems(text: str) -> dict[str, list[str]]:
    found = {what: sorted(set(p.findall(text))) for what, p in PATTERNS.items()}
    found["CPF/CNPJ sem máscara"] = [d for d in BARE if re.search(rf"(?<!\d){d}(?!\d)", text)]
    return {what: hits for what, hits in found.items() if hits}


def test_pages_show_no_developer_text(client: TestClient, record: IssuedRecord) -> None:
    problems: dict[str, dict[str, list[str]]] = {}

    def check(url: str, status: int = 200) -> str:
        response = client.get(url)
        assert response.status_code == status, (url, response.text[:300])
        text = visible_text(response.text)
        if found := _problems(text):
            problems[url] = found
        return text

    for url in ("/", "/requerimentos", f"/requerimentos/{REQ}", "/verificar",
                f"/verificar/{record.verification_code}", "/entrar"):
        check(url)
    missing = check("/requerimentos/nao-existe", 404)
    assert not FORM_IDS.search(missing), missing
    assert "Formulário não encontrado" in missing
    bad_code = check("/verificar/ABCD-1234-XXXX", 422)
    assert "(campo" not in bad_code and "código" in bad_code.lower()

    assert login(client, "admin").status_code == 303
    for url in ("/equipe", f"/equipe/novo/{ALV}", "/equipe/minutas", "/equipe/minutas/1",
                "/equipe/registro", "/equipe/registro?q=Via%C3%A7%C3%A3o",
                f"/equipe/documentos/{record.id}", "/equipe/valores", "/equipe/lotes",
                "/equipe/contas"):
        check(url)
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)


def test_a_short_password_is_refused_by_the_label_not_the_pointer(
        client: TestClient) -> None:
    assert login(client, "admin").status_code == 303
    token = csrf_of(client, "/equipe/contas")
    response = client.post("/equipe/contas", data={
        "csrf": token, "usuario": "nova", "nome": "Nova Pessoa", "papel": "redator",
        "senha": "curta"})
    assert response.status_code == 422, response.text[:300]
    text = visible_text(response.text)
    assert "senha" in text.lower() and "(campo /" not in text


def test_the_facts_form_takes_dd_mm_aaaa_and_a_refused_date_keeps_the_entry(
        client: TestClient, record: IssuedRecord) -> None:
    assert login(client, "clara").status_code == 303
    url = f"/equipe/documentos/{record.id}"
    page = client.get(url).text
    assert 'id="fato-data" name="data" type="text"' in page and 'placeholder="dd/mm/aaaa"' in page
    sent = {"csrf": csrf_of(client, url), "tipo": "ciencia", "meio": "ar",
            "referencia": "AR-12345"}
    refused = client.post(f"{url}/fatos", data={**sent, "data": "31/02/2026"})
    assert refused.status_code == 422
    field = re.search(r'<div class="campo com-erro">\s*<label for="fato-data">.*?</div>\s*'
                      r'<ul class="erros-campo" id="erro-fato-data"><li>([^<]+)</li>',
                      refused.text, re.S)
    assert field is not None, refused.text[-3000:]
    assert "data" in field.group(1).lower() and "(campo" not in field.group(1)
    assert 'value="31/02/2026"' in refused.text and 'value="AR-12345"' in refused.text
    assert '<option value="ar" selected>' in refused.text
    assert client.get(url).text.count("AR-12345") == 0  # nothing was recorded

    accepted = client.post(f"{url}/fatos", data={**sent, "data": "01/12/2026"},
                           follow_redirects=False)
    assert accepted.status_code == 303
    shown = visible_text(client.get(url).text)
    assert "01/12/2026" in shown and not _problems(shown)
