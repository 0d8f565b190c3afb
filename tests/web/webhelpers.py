"""Helpers shared by the web tests (imported by name: tests/web is on sys.path)."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from issuers import shared_keys

from lavra.checking.content import loaded_content
from lavra.cli.demo import current_example
from lavra.config import Config
from lavra.issuing import ensure_dev_pki
from lavra.web import WebContext, WebSettings
from lavra.web.sandbox import Limits
from lavra.web.users import Role

REPO = Path(__file__).resolve().parents[2]
REQ = "requerimento-alvara-fretamento"
ALV = "alvara-fretamento"
PASSWORD = "senha-de-teste-123"
SECRET = "chave-de-teste-das-sessoes-0123456789-abcdef"


def example(form_id: str) -> dict[str, Any]:
    """The form's example as of today (dates moved as the demo moves them)."""
    data: dict[str, Any] = json.loads(
        (REPO / "forms" / form_id / "exemplo.json").read_text(encoding="utf-8")
    )
    spec = loaded_content(REPO).form(form_id)
    return current_example(spec, data)[0] if spec.series else data


def make_context(data_dir: Path, base_url: str = "http://testserver") -> WebContext:
    """An application context over ``data_dir`` with three staff accounts and the
    development PKI, its keys the process's :func:`issuers.shared_keys` (≈ 0.25 s of CPU
    saved per context). No web test needs two installations that do not trust each other
    (a document from a foreign root is tested in tests/test_trust.py, with fresh keys):
    one that did would make its second PKI with fresh keys."""
    config = Config(pack_dir=REPO, data_dir=data_dir, verification_url=f"{base_url}/verificar")
    ensure_dev_pki(config, loaded_content(REPO), new_key=shared_keys())
    context = WebContext(config, WebSettings(secret_key=SECRET, sandbox=Limits(timeout=90)))
    users = context.users
    users.add("admin", PASSWORD, Role.ADMIN, full_name="Administração de Teste")
    users.add("clara", PASSWORD, Role.CLERK, full_name="Clara Redatora")
    users.add(
        "sergio",
        PASSWORD,
        Role.SIGNER,
        full_name="Sérgio Signatário",
        signer_roles=["secretario-transportes"],
    )
    return context


def csrf_of(client: TestClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.text[:500]
    match = re.search(r'name="csrf" value="([^"]+)"', response.text)
    assert match is not None
    return match.group(1)


def form_data(pairs: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """Pairs as httpx posts them (repeated names as lists)."""
    out: dict[str, list[str]] = {}
    for key, value in pairs:
        out.setdefault(key, []).append(value)
    return out


def login(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    token = csrf_of(client, "/entrar")
    return client.post(
        "/entrar",
        data={"csrf": token, "usuario": name, "senha": password, "proximo": "/equipe"},
        follow_redirects=False,
    )


def errors_in(html: str) -> list[str]:
    return re.findall(r'class="erro"[^>]*>([^<]*)', html)


@contextmanager
def serving(app: Any, port: int) -> Iterator[None]:
    """``app`` served by uvicorn on 127.0.0.1:``port`` in a thread, for the browser tests."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(600):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "o servidor de teste não iniciou"
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(30)


def blank_pdf() -> bytes:
    """A one-page blank PDF: an attachment the filing sandbox accepts."""
    import io

    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def listed(client: TestClient, **params: str) -> list[int]:
    """The document ids the staff registry page lists for ``params``, in its order."""
    response = client.get("/equipe/registro", params=params)
    assert response.status_code == 200, response.text[:500]
    return [int(i) for i in re.findall(r'href="/equipe/documentos/(\d+)"', response.text)]
