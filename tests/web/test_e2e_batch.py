"""End to end in Debian's Chromium: a signer starts the school renewal run from the
page, watches the page refresh itself (no script) until the run ends, and downloads a
signed alvará. Holders as in ``test_web_batch`` (a registry of 2025, run of 10/12/2025)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from batchcases import RUN_DAY, YEAR, envelope, seed, write_jsonl
from issuers import dev_issuer
from test_e2e import ARGS, CHROMIUM, _free_port, _login
from webhelpers import REPO, make_context, serving

from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.web import WebContext, create_app
from lavra.web.batchjobs import BatchJobs

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Chromium do Debian ausente (apt-get install chromium)"),
]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, WebContext, Path]]:
    folder = tmp_path_factory.mktemp("e2e-lote")
    issuer = dev_issuer(Engine(Content(REPO), pool=None), folder / "dados")
    numbers = seed(issuer, 2)
    issuer.close()
    pedidos = write_jsonl(folder / "pedidos.jsonl", [envelope(0, numbers[0])])
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    context = make_context(folder / "dados", base)
    app = create_app(context)
    # One worker: this test is about the page (start, refresh, download); a web run worked
    # by two spawned workers is tested in test_web_batch. Each spawned worker imports
    # lavra and loads the pack again (≈ 3.5 s of CPU).
    app.state.lavra_lotes = BatchJobs(context.config, workers=1)
    with serving(app, port):
        yield base, context, pedidos


def test_signer_starts_a_run_sees_it_finish_and_downloads(
    live: tuple[str, WebContext, Path]
) -> None:
    from playwright.sync_api import expect, sync_playwright

    base, _, pedidos = live
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = chromium.new_context(accept_downloads=True, locale="pt-BR").new_page()
            _login(page, base, "sergio")
            page.click('a[href="/equipe/lotes"]')
            kind = "renovacao-transporte-escolar"
            page.fill(f"#{kind}-ano", str(YEAR))
            year, month, day = RUN_DAY.split("-")
            page.fill(f"#{kind}-data", f"{day}/{month}/{year}")  # as staff type it
            page.set_input_files(f"#{kind}-pedidos", str(pedidos))
            page.locator(f'form:has(#{kind}-ano) button[type=submit]').click()
            status = page.locator("#situacao")
            expect(status).to_contain_text("concluída", timeout=300_000)  # by meta refresh
            expect(status).to_contain_text("4 de 4 itens concluídos")
            link = page.locator("a", has_text="00001-1-alvara-").first
            with page.expect_download() as info:
                link.click()
            download: Any = info.value
            content = Path(download.path()).read_bytes()
            assert content.startswith(b"%PDF") and b"/ByteRange" in content
        finally:
            chromium.close()
