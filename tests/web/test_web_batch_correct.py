"""Correcting a failed batch item on the run's page (``/equipe/lotes/N/itens/M/corrigir``)
and resuming the run: the failure names the holder, the document and the field, in
pt-BR; the form offers the field; a value the strict reader refuses is refused at the
form, nothing written; the correction is recorded with who and when; «Retomar» issues
the item under the number it kept.

The school run (no request: the holder gets the pending notice) is planned as the web
page plans it, its notice broken after the plan (the holder's name lost) and
worked in this process, so that it fails as a worker's item fails; only the resume
starts a worker.
"""

from __future__ import annotations

import re
import time
from datetime import date
from pathlib import Path
from typing import Any

from batchcases import (
    REPO,
    RUN_DAY,
    YEAR,
    issuer_over,
    numbers_in,
    seeded_folder,
)
from fastapi.testclient import TestClient
from webhelpers import csrf_of, login, make_context

from lavra.batch.model import RunRequest
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.batch.work import work_items
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.issuing import registry_url
from lavra.registry.corrections import run_corrections
from lavra.registry.runs import run_items
from lavra.registry.tables import BatchItemRow
from lavra.web import create_app
from lavra.web.batchjobs import BatchJobs

KIND = "renovacao-transporte-escolar"
FIELD = "/destinatario/nome"
NOTICE = "notificacao-pendencias-renovacao"


def _failed_run(engine: Engine, tmp_path: Path) -> tuple[Path, int, int, str]:
    """A run whose notice failed at work: (data folder, run, item, its number)."""
    data, _ = seeded_folder(engine, tmp_path, 1)
    issuer = issuer_over(engine, data)
    on = date.fromisoformat(RUN_DAY)
    try:
        kind = find_kind(issuer, KIND)
        request = RunRequest(KIND, {"ano": YEAR}, on)
        run = write_plan(issuer, kind, decide(issuer, kind, request), "teste")
        notice = next(i for i in run_items(issuer.registry, run.id) if i.form == NOTICE)
        with issuer.registry.write_session() as session:
            row = session.get(BatchItemRow, notice.id)
            assert row is not None
            broken = dict(row.data)
            broken["destinatario"] = {k: v for k, v in broken["destinatario"].items()
                                      if k != "nome"}
            row.data = broken
        work_items(issuer, run.id, worker="teste", on=on)
    finally:
        issuer.close()
    return data, run.id, notice.id, str(notice.printed)


def _post(client: TestClient, url: str, page: str, **fields: Any) -> Any:
    token = csrf_of(client, page)
    return client.post(url, data={"csrf": token, **fields}, follow_redirects=False)


def _wait(client: TestClient, url: str, done: str, timeout: float = 400) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = client.get(url).text
        if done in text:
            return text
        time.sleep(1)
    raise AssertionError(f"{done!r} não apareceu em {url}")


def test_staff_correct_a_failed_item_on_the_page_and_resume_the_run(tmp_path: Path) -> None:
    engine = Engine(Content(REPO), pool=None)
    data, run_id, item_id, printed = _failed_run(engine, tmp_path)
    context = make_context(data)
    app = create_app(context)
    app.state.lavra_lotes = BatchJobs(context.config, workers=1)
    page_url = f"/equipe/lotes/{run_id}"
    fix_url = f"{page_url}/itens/{item_id}/corrigir"
    with TestClient(app) as clerk, TestClient(app) as signer:
        login(clerk, "clara")
        page = clerk.get(page_url).text
        assert "Corrigir os itens com falha" in page
        form = re.search(rf'<form [^>]*action="{fix_url}".*?</form>', page, re.S)
        assert form is not None
        assert f"{printed}" in form.group(0) and "Titular Exemplo 0000" in form.group(0)
        reason = re.search(r'<p class="erro falha"><small>(.*?)</small>', form.group(0))
        assert reason is not None  # the field by its label, once, never by its pointer
        assert ("não informado: Titular do alvará › Nome completo. Campo: Titular do "
                "alvará › Nome completo." in reason.group(1)), reason.group(1)
        # the page has its own correction form: no command line to type
        assert "lavra lote corrigir" not in reason.group(1)
        assert "Campo que falhou: <strong>Titular do alvará › Nome completo</strong>" in (
            form.group(0))
        assert f"campo {FIELD}" not in page.lower() and f"Campo: {FIELD}" not in page
        assert f'name="campo" value="{FIELD}"' in form.group(0)

        bad = _post(clerk, fix_url, page_url, campo=FIELD, valor="NaN", json="1")
        assert bad.status_code == 422
        assert "não é um número válido" in bad.text
        assert run_corrections(context.registry, run_id) == ()

        done = _post(clerk, fix_url, page_url, campo=[FIELD, ""],
                     valor=["Titular Exemplo 0000", ""])
        assert done.status_code == 303 and done.headers["location"].endswith("corrigido")
        page = clerk.get(done.headers["location"]).text
        assert "Correção registrada" in page
        listed = re.search(r'<ul id="correcoes">(.*?)</ul>', page, re.S)
        assert listed is not None
        assert ("Campo «Titular do alvará › Nome completo»: de (vazio) para «Titular Exemplo "
                "0000»; corrigido por" in listed.group(1))
        assert "Clara" in listed.group(1)
        assert "Corrigir os itens com falha" not in page  # nothing failed any more

        login(signer, "sergio")
        resumed = _post(signer, f"{page_url}/retomar", page_url)
        assert resumed.status_code == 303
        _wait(signer, page_url, "Situação: <strong>concluída")
    items = run_items(context.registry, run_id)
    assert all(i.done for i in items)
    url = registry_url(context.config)
    assert numbers_in(url, "NOT-REN-ESC") == [1]  # the number it kept
    (made,) = run_corrections(context.registry, run_id)
    assert made.item_id == item_id and made.value == "Titular Exemplo 0000"
