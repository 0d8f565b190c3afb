"""The batch run in the web app (``/equipe/lotes`` and ``/api/batch``): a signer starts
the school renewal run over a fresh registry, watches it to the end and downloads its
files (signed PDFs, DOCX, the summary CSV); a clerk is refused; a second start of the
same kind while one runs is refused; a download outside the run's files is refused; a
dry run issues nothing; bad input files are refused naming the field, with nothing
written; an unfinished run is resumed from its page.

Holders are the pack's examples one year back (``batchcases``): alvarás of 2025
renewed for 2026 by a run dated 10/12/2025, so that no test depends on today.
"""

from __future__ import annotations

import csv
import html
import io
import re
import shutil
import time
import zipfile
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from batchcases import RUN_DAY, YEAR, envelope, numbers_in, seed, write_jsonl
from fastapi.testclient import TestClient
from issuers import dev_issuer
from webhelpers import REPO, csrf_of, login, make_context

from lavra.batch.model import RunRequest
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.inputs.reading import TIMEZONE
from lavra.issuing import ensure_dev_pki, registry_url
from lavra.registry.runs import list_runs, open_run
from lavra.signing.verification import verify_pdf
from lavra.web import WebContext, create_app, pages_batch
from lavra.web.batchjobs import BatchJobs

KIND = "renovacao-transporte-escolar"
HOLDERS = 3
"""Holder 0 renewed (alvará and selo), 1 with an incomplete request, 2 without one."""


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


@pytest.fixture(scope="module")
def seeded(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A data folder (SQLite registry and development PKI) with the HOLDERS alvarás of
    2025 issued, and their numbers: issued once for the module, copied by :func:`_web`."""
    data = tmp_path_factory.mktemp("lote-semente") / "dados"
    issuer = dev_issuer(engine, data)
    numbers = seed(issuer, HOLDERS)
    issuer.close()
    return data, numbers


def _web(seeded: tuple[Path, list[str]], folder: Path, workers: int = 2
         ) -> tuple[WebContext, list[str], TestClient]:
    """An application over a copy of the seeded folder: a registry of its own (its runs
    seen by no other test), without issuing the HOLDERS alvarás again. Its runs are worked
    by ``workers`` spawned processes (the server runs threads: never forked), each
    importing lavra and loading the pack again (≈ 3.5 s of CPU)."""
    data = folder / "dados"
    shutil.copytree(seeded[0], data)
    numbers = list(seeded[1])
    context = make_context(data)
    app = create_app(context)
    app.state.lavra_lotes = BatchJobs(context.config, workers=workers)
    return context, numbers, TestClient(app)


@pytest.fixture(scope="module")
def web(seeded: tuple[Path, list[str]], tmp_path_factory: pytest.TempPathFactory
        ) -> Iterator[tuple[WebContext, list[str], TestClient, Path]]:
    folder = tmp_path_factory.mktemp("lote-web")
    context, numbers, client = _web(seeded, folder)
    with client:
        yield context, numbers, client, folder


def _pedidos(folder: Path, numbers: list[str]) -> bytes:
    path = write_jsonl(folder / "pedidos.jsonl", [
        envelope(0, numbers[0]), envelope(1, numbers[1], missing=("laudo_medico",))])
    return path.read_bytes()


def _start(client: TestClient, files: dict[str, tuple[str, bytes]] | None = None,
           **fields: str) -> Any:
    token = csrf_of(client, "/equipe/lotes")
    data = {"csrf": token, "execucao": KIND, "ano": str(YEAR), "data": RUN_DAY, **fields}
    return client.post("/equipe/lotes/iniciar", data=data, files=files or None,
                       follow_redirects=False)


def _after_tomorrow() -> str:
    return (datetime.now(TIMEZONE).date() + timedelta(days=2)).isoformat()


def _runs(context: WebContext) -> int:
    return len(list_runs(context.registry))


def _wait_page(client: TestClient, url: str, done: str, timeout: float = 400) -> str:
    """Follow ``url`` (a job page, then the run page it sends to) until ``done`` shows."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        response = client.get(url)
        assert response.status_code == 200, response.text[:800]
        if done in response.text:
            return response.text
        assert 'class="erro"' not in response.text, response.text[:2000]
        time.sleep(1)
    raise AssertionError(f"{done!r} não apareceu em {url}")


def test_a_clerk_may_not_start_a_run(web: tuple[WebContext, list[str], TestClient, Path]
                                     ) -> None:
    context, _, client, _ = web
    login(client, "clara")
    page = client.get("/equipe/lotes")
    assert "Iniciar esta execução cabe a quem assina" in page.text
    token = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert token is not None
    response = client.post("/equipe/lotes/iniciar", data={
        "csrf": token.group(1), "execucao": KIND, "ano": str(YEAR), "data": RUN_DAY})
    assert response.status_code == 403
    assert "não pode iniciar a execução" in response.text
    assert _runs(context) == 0


def test_bad_files_and_parameters_are_refused_naming_the_field(
    web: tuple[WebContext, list[str], TestClient, Path]
) -> None:
    context, _, client, _ = web
    login(client, "sergio")
    root = context.config.batch_output_dir
    cases = [
        ({"pedidos": ("pedidos.jsonl", b'{"a": 1}\nnao e json\n')}, {},
         "Linha 2 do arquivo de pedidos: a linha não contém JSON válido"),
        ({"entrada": ("titulares.xlsx", b"PK\x03\x04")}, {},
         "O arquivo de entrada deve ser CSV (.csv) ou JSON Lines (.jsonl)"),
        ({"entrada": ("titulares.csv", "alvara,cpf\n".encode("latin-1") + b"\xe9\xff\n")}, {},
         "O arquivo de entrada não está em UTF-8"),
        (None, {"ano": "20x7"}, "Ano do exercício a renovar: informe um ano entre 2000 e 2100"),
        (None, {"data": _after_tomorrow()}, "A data de expedição não pode ser futura"),
        (None, {"data": "31/02/2026"}, "A data de expedição 31/02/2026 não existe no calendário"),
    ]
    for files, fields, message in cases:
        response = _start(client, files, **fields)
        assert response.status_code == 422, response.text[:500]
        assert message in response.text
    assert _runs(context) == 0
    assert not root.exists() or not any(root.iterdir())  # nothing half-written


def test_a_dry_run_issues_nothing(web: tuple[WebContext, list[str], TestClient, Path]) -> None:
    context, numbers, client, folder = web
    login(client, "sergio")
    response = _start(client, {"pedidos": ("pedidos.jsonl", _pedidos(folder, numbers))},
                      simular="1", docx="1")
    assert response.status_code == 303
    page = _wait_page(client, response.headers["location"], "Simulação concluída")
    assert "nada foi emitido" in page
    assert f"ALV-ESC nº {HOLDERS + 1:04d}/" in page  # the number it would take
    assert "DOCX previsto" in page
    assert _runs(context) == 0
    url = registry_url(context.config)
    assert numbers_in(url, "ALV-ESC") == list(range(1, HOLDERS + 1))
    assert numbers_in(url, "NOT-REN-ESC") == []
    root = context.config.batch_output_dir
    assert not root.exists() or not any(root.iterdir())


def test_a_signer_runs_it_watches_it_and_downloads_signed_files(
    web: tuple[WebContext, list[str], TestClient, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    context, numbers, client, folder = web
    login(client, "sergio")
    pedidos = {"pedidos": ("pedidos.jsonl", _pedidos(folder, numbers))}
    response = _start(client, pedidos, docx="1", pdf_unico="1")
    assert response.status_code == 303
    job_url = response.headers["location"]
    # A second start of the same kind while the first runs is refused.
    again = _start(client, pedidos)
    assert again.status_code == 409, again.text[:500]
    assert "Já há uma execução «Renovação anual" in again.text
    page = _wait_page(client, job_url, "Situação: <strong>concluída</strong>")
    run = next(iter(list_runs(context.registry)))
    assert f"Execução em lote nº {run.id}" in page
    assert _runs(context) == 1
    # The server keeps the finished run's counts, not its rows (read a page at a time).
    kept = client.app.state.lavra_lotes._jobs[job_url.rstrip("/").rsplit("/", 1)[-1]]  # type: ignore[attr-defined]
    assert kept.summary is None and kept.rows == () and kept.counts

    # The summary CSV: who got what, with the numbers; a DOCX beside each document.
    base = f"/equipe/lotes/{run.id}/arquivos"
    listed = client.get(f"/api/batch/{run.id}", headers=_bearer(context))
    assert listed.status_code == 200, listed.text[:500]
    view = listed.json()
    assert view["status"] == "concluída" and view["pending"] == 0 and view["failed"] == 0
    names = [f["name"] for f in view["files"]]
    assert names[:3] == ["resumo.csv", "resumo.pdf", "lote-para-impressao.pdf"]
    summary = client.get(f"{base}/resumo.csv")
    assert summary.status_code == 200
    rows = list(csv.DictReader(io.StringIO(summary.text)))
    assert [r["resultado"] for r in rows] == [
        "renovado", "renovado", "notificado", "notificado", "notificado", "notificado"]
    documents = [r for r in rows if r["papel"] == "documento"]
    assert [r["formulario"] for r in documents] == [
        "alvara-transporte-escolar", "selo-identificacao", "notificacao-pendencias-renovacao",
        "notificacao-pendencias-renovacao"]
    assert documents[0]["numero"].startswith(f"ALV-ESC nº {HOLDERS + 1:04d}/")
    assert all(r["arquivo_docx"] == r["arquivo"].removesuffix(".pdf") + ".docx"
               for r in documents)
    assert all(r["arquivo_docx"] == "" for r in rows if r["papel"] == "anexo")
    assert all(r["situacao"] == "concluído" for r in rows)

    # The run's page and the API show the summary a page at a time (bounded).
    monkeypatch.setattr(pages_batch, "ROWS_PER_PAGE", 4)
    second = client.get(f"/equipe/lotes/{run.id}?pagina=2").text
    assert "Linhas 5 a 6 de 6 (página 2 de 2" in second and "Página anterior" in second
    assert rows[5]["nome"] in second and rows[0]["nome"] not in second
    first = client.get(f"/equipe/lotes/{run.id}?pagina=x").text
    assert "Próxima página" in first and rows[0]["nome"] in first
    paged = client.get(f"/api/batch/{run.id}?pagina=2", headers=_bearer(context)).json()
    assert [r["order"] for r in paged["rows"]] == [int(r["ordem"]) for r in rows[4:]]
    assert paged["page"] == {"number": 2, "pages": 2, "per_page": 4, "lines": 6}
    monkeypatch.undo()

    alvara = client.get(f"{base}/{documents[0]['arquivo']}")
    assert alvara.status_code == 200
    assert alvara.headers["content-type"] == "application/pdf"
    assert alvara.headers["cache-control"] == "no-store"
    pki = ensure_dev_pki(context.config, context.engine.content)
    check = verify_pdf(alvara.content, [pki.root_certificate])
    assert (check.intact, check.trusted, check.unmodified) == (True, True, True)
    issuer = context.require_issuer()
    assert issuer.verify(alvara.content).valid
    docx = client.get(f"{base}/{documents[0]['arquivo_docx']}")
    assert docx.status_code == 200
    assert zipfile.ZipFile(io.BytesIO(docx.content)).testzip() is None
    assert docx.headers["content-type"].startswith("application/vnd.openxmlformats")

    # Only the run's own files are served, by name: no path reaches the disk.
    for name in ("..%2Fexecucao.json", "%2E%2E%2F%2E%2E%2Fsegredo-web", "execucao.json",
                 "..%2F..%2F..%2Fpki%2Fraiz.pem", ".resumo.csv.1.tmp"):
        refused = client.get(f"{base}/{name}")
        assert refused.status_code == 404, name
    dotted = client.get(f"/equipe/lotes/{run.id}/arquivos/../../execucao.json")
    assert dotted.status_code in (404, 422) and "iniciada_por" not in dotted.text
    # Files and pages are for staff only.
    client.post("/sair", data={"csrf": csrf_of(client, "/equipe")})
    assert client.get(f"{base}/resumo.csv", follow_redirects=False).status_code == 303
    assert client.get(f"/api/batch/{run.id}/files/resumo.csv").status_code == 401


def _bearer(context: WebContext) -> dict[str, str]:
    user = next(u for u in context.users.all() if u.name == "sergio")
    _, secret = context.users.create_token(user.id, "teste do lote")
    return {"Authorization": f"Bearer {secret}"}


def test_an_unfinished_run_is_resumed_from_its_page(
    seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """A run planned over the registry and left unworked (the server stopped after the
    plan) is finished by «Retomar»: its reserved numbers, nothing planned again. One
    worker: a run worked by two is test_a_signer_runs_it_watches_it_and_downloads_signed_files."""
    context, numbers, client = _web(seeded, tmp_path, workers=1)
    issuer = context.require_issuer()
    kind = find_kind(issuer, KIND)  # type: ignore[arg-type]
    request = RunRequest(KIND, {"ano": YEAR}, date.fromisoformat(RUN_DAY))
    planned = write_plan(issuer, kind, decide(issuer, kind, request), "teste")  # type: ignore[arg-type]
    with client:
        login(client, "sergio")
        page = client.get(f"/equipe/lotes/{planned.id}")
        assert "Retomar a execução" in page.text and "não concluída" in page.text
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        response = client.post(f"/equipe/lotes/{planned.id}/retomar",
                               data={"csrf": token.group(1)}, follow_redirects=False)
        assert response.status_code == 303
        _wait_page(client, f"/equipe/lotes/{planned.id}", "Situação: <strong>concluída")
    assert open_run(context.registry, f"{KIND}:{YEAR}") is None
    assert [r.id for r in list_runs(context.registry)] == [planned.id]
    url = registry_url(context.config)
    assert numbers_in(url, "NOT-REN-ESC") == list(range(1, HOLDERS + 1))
    assert numbers[0].startswith("ALV-ESC")


def test_the_api_starts_a_dry_run_and_reports_it(
    web: tuple[WebContext, list[str], TestClient, Path]
) -> None:
    """``POST /api/batch`` (multipart, bearer token of a signer): 202 and the job's
    address; the job reports what would be issued; a clerk's token is refused."""
    context, numbers, client, folder = web
    fields = {"execucao": KIND, "ano": str(YEAR), "data": RUN_DAY, "simular": "1"}
    files = {"pedidos": ("pedidos.jsonl", _pedidos(folder, numbers))}
    kinds = client.get("/api/batch", headers=_bearer(context)).json()["kinds"]
    school = next(k for k in kinds if k["name"] == KIND)
    assert school["may_start"] is True
    assert [p["name"] for p in school["parameters"]] == ["ano"]
    clerk = next(u for u in context.users.all() if u.name == "clara")
    _, secret = context.users.create_token(clerk.id, "teste")
    refused = client.post("/api/batch", data=fields, files=files,
                          headers={"Authorization": f"Bearer {secret}"})
    assert refused.status_code == 403
    assert "não pode iniciar a execução" in refused.json()["detail"]
    started = client.post("/api/batch", data=fields, files=files, headers=_bearer(context))
    assert started.status_code == 202, started.text[:500]
    status_url = started.json()["status_url"]
    deadline = time.monotonic() + 300
    job = client.get(status_url, headers=_bearer(context)).json()
    while job["state"] == "planejando" and time.monotonic() < deadline:
        time.sleep(0.5)
        job = client.get(status_url, headers=_bearer(context)).json()
    assert job["state"] == "concluída" and job["simulated"] and job["run"] is None
    assert (job["counts"]["renovado"], job["counts"]["notificado"]) == (1, 2)
    assert {r["state"] for r in job["rows"]} == {"previsto (simulação)"}
    bad = client.post("/api/batch", data={**fields, "ano": ""}, headers=_bearer(context))
    assert bad.status_code == 422 and bad.json()["field"] == "/ano"


def test_the_command_line_offers_docx(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``lavra batch … --docx`` asks the run for a DOCX beside each PDF."""
    from click.testing import CliRunner

    import lavra.batch.runner as runner
    from lavra.cli.main import main

    asked: dict[str, Any] = {}

    def fake(*args: Any, **kwargs: Any) -> Any:
        asked.update(kwargs)
        raise SystemExit(0)

    monkeypatch.setattr(runner, "run_batch", fake)
    monkeypatch.setenv("LAVRA_DATA", str(tmp_path / "dados"))
    monkeypatch.setenv("LAVRA_PACK", str(REPO))
    result = CliRunner().invoke(main, ["batch", KIND, "--ano", str(YEAR), "--data", RUN_DAY,
                                       "-o", str(tmp_path / "saida"), "--docx"])
    assert result.exit_code == 0, result.output
    assert asked["docx"] is True
    CliRunner().invoke(main, ["batch", KIND, "--ano", str(YEAR), "--data", RUN_DAY,
                              "-o", str(tmp_path / "saida")])
    assert asked["docx"] is False


@pytest.mark.parametrize(("name", "raw", "words"), [
    ("pedidos.jsonl", b"[" * 200_000 + b"]" * 200_000, "dados aninhados em excesso"),
    ("pedidos.jsonl", b'{"processo": "PA 1/2025", "processo": "PA 666/2026 DUPLICADO"}',
     "o campo «processo» aparece mais de uma vez"),
    ("pedidos.jsonl", b'{"requerimento": {"idade": NaN}}', "«requerimento.idade» contém NaN"),
    ("pedidos.txt", b"alvara,cpf\nA,1\n", "deve ser CSV (.csv) ou JSON Lines (.jsonl)"),
])
def test_the_api_refuses_hostile_files_in_pt_br_not_500(
    web: tuple[WebContext, list[str], TestClient, Path], name: str, raw: bytes, words: str
) -> None:
    context, _, client, _ = web
    fields = {"execucao": KIND, "ano": str(YEAR), "data": RUN_DAY, "simular": "1"}
    response = client.post("/api/batch", data=fields, files={"pedidos": (name, raw)},
                           headers=_bearer(context))
    assert response.status_code == 422, response.text[:500]
    body = response.json()
    assert body["field"] == "/pedidos" and words in body["detail"], body
    assert "Traceback" not in body["detail"]


def test_a_failed_item_is_shown_as_a_failure(seeded: tuple[Path, list[str]], tmp_path: Path
                                             ) -> None:
    """An item whose building failed is shown as a failure (red, «falhou», its reason
    naming the holder and the document), never in the green status box."""
    from lavra.batch.work import failure_text
    from lavra.registry.corrections import record_failure
    from lavra.registry.runs import ItemFailed, run_items

    context, numbers, client = _web(seeded, tmp_path)
    issuer = context.require_issuer()
    kind = find_kind(issuer, KIND)  # type: ignore[arg-type]
    pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [envelope(0, numbers[0])])
    request = RunRequest(KIND, {"ano": YEAR}, date.fromisoformat(RUN_DAY), None, pedidos)
    planned = write_plan(issuer, kind, decide(issuer, kind, request), "teste")  # type: ignore[arg-type]
    item = next(i for i in run_items(context.registry, planned.id)
                if i.form == "alvara-transporte-escolar")
    reason = failure_text(issuer, ItemFailed(item, "Falta o número do laudo.",
                                             "/veiculo/laudo_vistoria_ciretran/numero"))
    record_failure(context.registry, item.id, reason)
    with client:
        login(client, "sergio")
        page = client.get(f"/equipe/lotes/{planned.id}")
    assert page.status_code == 200
    assert 'class="erro" role="alert" id="falhas"' in page.text
    assert "Falha na emissão" in page.text
    assert 'class="erro" role="status" id="situacao"' in page.text
    assert 'class="aviso" role="status" id="situacao"' not in page.text
    cell = re.search(r'<td class="erro falha"><strong>falhou</strong><br><small>([^<]+)',
                     page.text)
    assert cell is not None
    assert "Titular Exemplo 0000" in cell.group(1) and str(item.printed) in cell.group(1)
    cpf = item.holder  # the registry's digits; every message prints them formatted
    assert f"({cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]})" in cell.group(1), cell.group(1)
    assert f">{cpf}<" not in page.text and f"({cpf})" not in page.text
    # the field by its label; the terminal's correction command is not the page's
    assert "Campo: Veículo › " in cell.group(1) and "lavra lote" not in cell.group(1)
    assert "/veiculo" not in cell.group(1)


FAILURES = [
    (InputError("O dado «Número do laudo» não foi informado e é necessário para emitir o "
                "Alvará de Transporte Escolar.", field="/veiculo/laudo_vistoria/numero"),
     "O dado «Número do laudo» não foi informado e é necessário para emitir o Alvará",
     ("/veiculo", "campo /", "InputError")),
    (KeyError("/srv/lavra/engine/lavra/batch/work.py"),
     "Erro interno inesperado na execução. O que foi registrado fica; retome a execução",
     ("KeyError", "/srv/lavra", "work.py", "Traceback")),
]


def test_a_failed_task_shows_a_pt_br_sentence_and_no_developer_text(
    seeded: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The task page of a run that failed (issue 25) shows the failure as a person reads
    it: the message without the field's JSON pointer, or, for an unexpected error, a
    sentence with no exception class, path nor traceback (those go to the log). A
    registry of its own: no other test's run is in its way."""
    from lavra.web import batchjobs

    context, numbers, client = _web(seeded, tmp_path)
    with client:
        login(client, "sergio")
        for raised, said, hidden in FAILURES:
            def failing(*_args: Any, error: Exception = raised, **_kwargs: Any) -> None:
                raise error

            monkeypatch.setattr(batchjobs, "run_batch", failing)
            response = _start(client, {"pedidos": ("pedidos.jsonl",
                                                   _pedidos(tmp_path, numbers))}, simular="1")
            assert response.status_code == 303, response.text[:800]
            deadline = time.monotonic() + 60
            while 'class="erro"' not in (text := client.get(response.headers["location"]).text):
                assert time.monotonic() < deadline, text[:2000]
                time.sleep(0.2)
            message = re.search(r'<p class="erro" role="alert">([^<]+)</p>', text)
            assert message is not None, text[:2000]
            assert said in html.unescape(message.group(1))
            for word in hidden:
                assert word not in text, word
    assert _runs(context) == 0
