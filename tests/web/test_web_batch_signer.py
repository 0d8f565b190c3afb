"""The run's signer on the web: a signer with a certificate of their own
(``[certificados.sergio]``) starts the school renewal run with its password, checked
once before anything is planned or numbered (a wrong or missing password is refused at
the field, nothing numbered), and every act of the run names the person who signed.

One holder of 2025 renewed for 2026 by a run dated 10/12/2025 (``batchcases``), so that
no test depends on today.
"""

from __future__ import annotations

import csv
import io
import subprocess
import time
from dataclasses import replace
from pathlib import Path

from batchcases import RUN_DAY, YEAR, envelope, seed, write_jsonl
from fastapi.testclient import TestClient
from issuers import dev_issuer
from webhelpers import REPO, csrf_of, login, make_context

from lavra.checking.content import Content
from lavra.config import PersonCertificate
from lavra.documents import Engine
from lavra.registry.runs import list_runs
from lavra.signing.pki import make_certificate, pkcs12_bytes
from lavra.web import WebContext, create_app
from lavra.web.batchjobs import BatchJobs

KIND = "renovacao-transporte-escolar"
CARGO = "Secretário Municipal de Transportes e Sistema Viário"
PERSON = "Sérgio Signatário"
PIN = "pin-do-sergio-123"


def _start(client: TestClient, password: str | None, pedidos: bytes) -> object:
    data = {"csrf": csrf_of(client, "/equipe/lotes"), "execucao": KIND, "ano": str(YEAR),
            "data": RUN_DAY}
    if password is not None:
        data["_senha_assinatura"] = password
    return client.post("/equipe/lotes/iniciar", data=data,
                       files={"pedidos": ("pedidos.jsonl", pedidos)}, follow_redirects=False)


def test_a_run_is_signed_with_the_key_of_the_signer_who_starts_it(tmp_path: Path) -> None:
    data = tmp_path / "dados"
    issuer = dev_issuer(Engine(Content(REPO), pool=None), data)
    numbers = seed(issuer, 1)
    issuer.close()
    base = make_context(data)
    p12 = tmp_path / "sergio.p12"
    p12.write_bytes(pkcs12_bytes(make_certificate(PERSON, title=CARGO), PIN))
    config = replace(base.config, person_certificates={"sergio": PersonCertificate(
        passphrase_env="LAVRA_TESTE_SENHA_SERGIO_LOTE", file=p12)})
    context = WebContext(config, base.settings)
    app = create_app(context)
    app.state.lavra_lotes = BatchJobs(config, workers=1, registry=context.registry)
    pedidos = write_jsonl(tmp_path / "pedidos.jsonl", [envelope(0, numbers[0])]).read_bytes()
    with TestClient(app) as client:
        login(client, "sergio")
        assert 'name="_senha_assinatura"' in client.get("/equipe/lotes").text
        for password, said in ((None, "Informe a sua senha de assinatura"),
                               ("senha-errada", "Senha de assinatura incorreta")):
            refused = _start(client, password, pedidos)
            assert refused.status_code == 422, refused.text[:500]  # type: ignore[attr-defined]
            text = refused.text  # type: ignore[attr-defined]
            assert said in text and "Nada foi planejado nem numerado" in text
            assert 'aria-invalid="true"' in text and PIN not in text
            assert not list_runs(context.registry)  # nothing planned, nothing numbered
        started = _start(client, PIN, pedidos)
        assert started.status_code == 303, started.text[:500]  # type: ignore[attr-defined]
        job_url = started.headers["location"]  # type: ignore[attr-defined]
        deadline = time.monotonic() + 300
        page = client.get(job_url).text
        while "Situação: <strong>concluída" not in page and time.monotonic() < deadline:
            assert 'class="erro"' not in page, page[:2000]
            time.sleep(0.5)
            page = client.get(job_url).text
        run = next(iter(list_runs(context.registry)))
        base_url = f"/equipe/lotes/{run.id}/arquivos"
        rows = list(csv.DictReader(io.StringIO(client.get(f"{base_url}/resumo.csv").text)))
        documents = [r for r in rows if r["papel"] == "documento"]
        assert [r["formulario"] for r in documents] == [
            "alvara-transporte-escolar", "selo-identificacao"]
        for row in documents:
            pdf = client.get(f"{base_url}/{row['arquivo']}").content
            text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                                  check=True).stdout.decode("utf-8")
            flat = " ".join(text.split())
            assert f"por {PERSON}, {CARGO}" in flat, flat[-600:]
            assert "Signatário de desenvolvimento" not in flat  # not the role's certificate
        # "Retomar" checks the password the same way, before anything else.
        token = csrf_of(client, f"/equipe/lotes/{run.id}")
        again = client.post(f"/equipe/lotes/{run.id}/retomar",
                            data={"csrf": token, "_senha_assinatura": "senha-errada"})
        assert again.status_code == 422 and "Senha de assinatura incorreta" in again.text
        assert again.text.count("Senha de assinatura incorreta") == 1
