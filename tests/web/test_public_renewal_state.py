"""The public renewal page and the run judge a request alike (issue 24): the page asks
the licensing state only the holder's own question (lavra.checking.holder_questions),
so a cessionária whose transfer termo carried no inscription in the Cadastro de
Atividades is told to give it on the page, as the run would notice her, and a CPF that
is not the alvará's holder learns nothing of it. The page's pendências (the filing page,
shown again when the name is missing) are the run's check's (PlanContext.check_request)
for every case. Every date is fixed (the requests are dated 2025)."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from batchcases import RUN_DAY, YEAR, alvara, cpf, request
from fastapi.testclient import TestClient
from test_renewal_state_facts import cessionaria_request, granted, transferred
from webhelpers import csrf_of, make_context

from lavra.batch.model import PlanContext, RunRequest
from lavra.checking.report import Report
from lavra.issuing import Issuer
from lavra.web import WebContext, create_app
from lavra_americana.transporte_escolar.renovacao_requisitos import INSCRIPTION

FORM = "requerimento-renovacao-escolar"
URL = f"/requerimentos/{FORM}"
ASKED = "Informe a inscrição do titular no Cadastro de Atividades"


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[WebContext, list[str]]]:
    """Three alvarás of 2025: the first kept by its holder (her inscription in the state),
    the second transferred with the cessionária's inscription, the third without it."""
    ctx = make_context(tmp_path_factory.mktemp("renovacao") / "dados")
    issuer = ctx.issuer
    assert isinstance(issuer, Issuer)
    printed = [granted(issuer.registry, alvara(n)).printed for n in range(3)]
    transferred(issuer.engine, issuer.registry, printed[1], 1, "CA-TRF-0001")
    transferred(issuer.engine, issuer.registry, printed[2], 2, None)
    yield ctx, printed
    issuer.close()


def _page_pending(client: TestClient, data: dict[str, Any]) -> list[str]:
    """The pendências the public filing page lists for ``data`` (sent without the
    requerente's name, so the page comes back, 422, with its report)."""
    token = csrf_of(client, URL)
    shown = client.post(f"{URL}/protocolar/confirmar", data={
        "csrf": token, "dados": json.dumps(data, ensure_ascii=False), "documento": "",
        "nome": ""})
    assert shown.status_code == 422, shown.text[:500]
    section = re.search(r'<section class="pendencias".*?</section>', shown.text, re.S)
    if section is None:
        return []
    return [html.unescape(li) for li in re.findall(r"<li>(.*?)</li>", section.group(0), re.S)]


def _run_check(ctx: WebContext, data: dict[str, Any]) -> Report:
    issuer = ctx.issuer
    assert isinstance(issuer, Issuer)
    run = RunRequest("renovacao-transporte-escolar", {"ano": YEAR},
                     date.fromisoformat(RUN_DAY), None, Path("pedidos.jsonl"))
    return PlanContext(issuer, run).check_request(FORM, data)


def test_the_public_page_asks_what_the_run_would_and_no_more(
    state: tuple[WebContext, list[str]]
) -> None:
    ctx, printed = state
    without = cessionaria_request(2, printed[2])
    given = cessionaria_request(2, printed[2])
    given["requerente"]["cadastro_atividades"] = "CA-REQ-0002"
    cedente = request(2, printed[2])  # the cedente's CPF: no longer the holder
    assert cedente["requerente"]["cpf"] == cpf(2)
    cases = {"sem inscrição": without, "com inscrição": given,
             "termo com inscrição": cessionaria_request(1, printed[1]),
             "titular de sempre": request(0, printed[0]), "CPF de outro": cedente}
    with TestClient(create_app(ctx)) as client:
        shown = {name: _page_pending(client, data) for name, data in cases.items()}
    run = {name: _run_check(ctx, data) for name, data in cases.items()}
    for name in cases:
        assert shown[name] == [item.message for item in run[name].pending], name
    assert [i.field for i in run["sem inscrição"].pending] == [INSCRIPTION]
    assert len(shown["sem inscrição"]) == 1 and shown["sem inscrição"][0].startswith(ASKED)
    for name in ("com inscrição", "termo com inscrição", "titular de sempre"):
        assert run[name].complete, (name, run[name].pending)
    # another's licence: nothing asked of it (the run refuses the line as no holder's)
    assert not any(ASKED in text for text in shown["CPF de outro"])
