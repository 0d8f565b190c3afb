"""Abandoning a batch run from its page (``/equipe/lotes/N/abandonar``): a signer who may
start the run abandons one holder's items, then the rest, with a reason; the reserved
numbers are voided and the page says so; a clerk is refused; a short reason, a bad
item and a second abandon are refused in pt-BR, at the form. The run is planned in this
process and never worked: the test stays fast.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from batchcases import REPO, RUN_DAY, YEAR, envelope, issuer_over, seeded_folder, write_jsonl
from fastapi.testclient import TestClient
from webhelpers import csrf_of, login, make_context

from lavra.batch.model import RunRequest
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.registry.runs import get_run, run_items
from lavra.web import create_app

KIND = "renovacao-transporte-escolar"
WHY = "Alvará anterior cassado depois do planejamento."


def _post(client: TestClient, run_id: int, **fields: str) -> Any:
    token = csrf_of(client, f"/equipe/lotes/{run_id}")
    return client.post(f"/equipe/lotes/{run_id}/abandonar", data={"csrf": token, **fields},
                       follow_redirects=False)


def test_a_signer_abandons_an_item_then_the_run_from_its_page(tmp_path: Any) -> None:
    engine = Engine(Content(REPO), pool=None)
    data, numbers = seeded_folder(engine, tmp_path, 2)
    issuer = issuer_over(engine, data)
    try:
        kind = find_kind(issuer, KIND)
        pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [envelope(0, numbers[0])])
        request = RunRequest(KIND, {"ano": YEAR}, date.fromisoformat(RUN_DAY), None, pedidos)
        run = write_plan(issuer, kind, decide(issuer, kind, request), "teste")
        reserved = [i.printed for i in run_items(issuer.registry, run.id)
                    if i.position == 0 and i.printed]
    finally:
        issuer.close()
    assert reserved
    context = make_context(data)
    app = create_app(context)
    with TestClient(app) as clerk, TestClient(app) as signer:
        login(clerk, "clara")
        assert "Abandonar e inutilizar" not in clerk.get(f"/equipe/lotes/{run.id}").text
        refused = _post(clerk, run.id, motivo=WHY, item="1")
        assert refused.status_code == 403
        assert "não pode abandonar esta execução" in refused.text

        login(signer, "sergio")
        assert "Abandonar e inutilizar os números" in signer.get(f"/equipe/lotes/{run.id}").text
        short = _post(signer, run.id, motivo="curto", item="1")
        assert short.status_code == 422
        assert "ao menos 10 caracteres" in short.text
        bad = _post(signer, run.id, motivo=WHY, item="primeiro")
        assert bad.status_code == 422 and "ordem do titular no resumo" in bad.text
        assert WHY in bad.text  # the entry is kept

        done = _post(signer, run.id, motivo=WHY, item="1")
        assert done.status_code == 303, done.text[:500]
        shown = signer.get(done.headers["location"]).text
        assert "abandonado" in shown and "foi inutilizado" in shown
        assert all(number in shown for number in reserved)
        assert "Sérgio Signatário" in shown and WHY in shown
        again = _post(signer, run.id, motivo=WHY, item="1")
        assert again.status_code == 422 and "já foi abandonado" in again.text

        user = context.users.by_name("sergio")
        assert user is not None
        _, secret = context.users.create_token(user.id, "teste do abandono")
        whole = signer.post(f"/api/batch/{run.id}/abandon",
                            data={"motivo": "Execução encerrada pela Secretaria."},
                            headers={"Authorization": f"Bearer {secret}"})
        assert whole.status_code == 200, whole.text[:500]
        assert whole.json()["status"] == "concluída" and whole.json()["pending"] == 0
        final = signer.get(f"/equipe/lotes/{run.id}").text
        assert "Abandonar e inutilizar" not in final and "concluída" in final
        search = signer.get("/equipe/registro", params={"q": reserved[0]}).text
        assert "Números inutilizados" in search and f"{reserved[0]}: não corresponde" in search
        assert "Numeração inutilizada em" in search and WHY in search
    ended = get_run(context.registry, run.id)
    assert ended is not None and ended.status == "done"
    assert context.registry.numbering_gaps() == ()
    assert {v.printed for v in context.registry.voided_numbers(run.id)} >= set(reserved)
