"""Every fillable requerimento in pdf.js, the viewer of Firefox and of many web pages,
run in Debian's Chromium: check marks and chosen buttons show, both as pdf.js paints the
widgets' appearance streams and as its viewer shows form controls; a person ticks and
answers "Não" in the viewer, saves, and lavra reads back what was chosen.

pdf.js comes from the npm registry, pinned in ``tests/web/pdfjs/package.json``;
``.ci/run`` installs it (``npm ci --omit=optional --prefix tests/web/pdfjs``).
"""

from __future__ import annotations

import base64
import http.server
import io
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from formcases import example
from outputcheck import ON_CI
from pypdf import PdfReader

from lavra.checking.content import Content
from lavra.documents import Engine

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent / "pdfjs"
PDFJS = HERE / "node_modules" / "pdfjs-dist"
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCALE = 100 / 72  # 100 dpi, as the poppler check renders
FRET = "requerimento-alvara-fretamento"

pytestmark = [pytest.mark.e2e]


def _missing(what: str, how: str) -> None:
    reason = f"{what} ausente ({how})"
    if ON_CI:  # CI must run this check, not skip it
        pytest.fail(f"{reason} sob CI=true")
    pytest.skip(reason)


def fillable_forms(pack_dir: Path) -> list[str]:
    return sorted(form for form, spec in Content(pack_dir).forms.items() if spec.fillable)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "form" in metafunc.fixturenames:
        metafunc.parametrize("form", fillable_forms(REPO))


class _Server(http.server.ThreadingHTTPServer):
    documents: dict[str, bytes]


class _Handler(http.server.SimpleHTTPRequestHandler):
    """pdf.js under /pdfjs/, the test page, and the PDFs the test puts in ``documents``."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
    }
    server: _Server

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path.startswith("/doc/"):
            body = self.server.documents.get(path[len("/doc/"):])
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/pdf")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0]
        if path.startswith("/pdfjs/"):
            return str(PDFJS / path[len("/pdfjs/"):])
        return str(HERE / path.lstrip("/"))

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[_Server]:
    if not (PDFJS / "build" / "pdf.mjs").exists():
        _missing("pdf.js", "npm ci --omit=optional --prefix tests/web/pdfjs")
    httpd = _Server(("127.0.0.1", 0), _Handler)
    httpd.documents = {}
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join(10)


@pytest.fixture(scope="module")
def viewer(server: _Server) -> Iterator[Any]:
    if not CHROMIUM.exists():
        _missing("Chromium do Debian", "apt-get install chromium")
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/viewer.html")
            page.wait_for_function("window.ready === true", timeout=60_000)
            yield page
        finally:
            browser.close()
    assert not errors, errors


def _widgets(pdf: bytes) -> dict[str, tuple[str, Any]]:
    """Each widget of the PDF by pdf.js's id ("12R"): its field type and what lavra put
    in it (a button: ticked or not, its /AS; a text field: its /V)."""
    widgets: dict[str, tuple[str, Any]] = {}
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for annotation in page.get("/Annots", []):
            widget = annotation.get_object()
            if widget.get("/Subtype") != "/Widget":
                continue
            field = widget if "/T" in widget else widget["/Parent"].get_object()
            kind = str(field.get("/FT"))
            reference = annotation.indirect_reference or annotation
            if kind == "/Btn":
                value: Any = str(widget.get("/AS", "/Off")) != "/Off"
            else:
                value = str(field.get("/V", ""))
            widgets[f"{reference.idnum}R"] = (kind, value)
    return widgets


def _serve(server: _Server, name: str, pdf: bytes) -> str:
    server.documents[name] = pdf
    return f"/doc/{name}"


def _untick_first(node: Any) -> bool:
    """Untick the first document marked presented anywhere in ``node``."""
    if isinstance(node, dict):
        if node.get("apresentado") is True:
            node["apresentado"] = False
            return True
        return any(_untick_first(value) for value in node.values())
    if isinstance(node, list):
        return any(_untick_first(value) for value in node)
    return False


def _variant(engine: Engine, form: str) -> dict[str, Any]:
    """The form's example with one document not presented, so that the PDF has ticked and
    blank boxes alike."""
    data = example(engine, form)
    _untick_first(data)
    return data


def test_requerimento_shows_in_pdfjs(
    engine: Engine, server: _Server, viewer: Any, form: str
) -> None:
    """Check marks painted and shown as lavra drew them; every field a control of the viewer
    holding the prefilled value."""
    pdf = engine.prefill(form, _variant(engine, form))
    widgets = _widgets(pdf)
    buttons = {key: ticked for key, (kind, ticked) in widgets.items() if kind == "/Btn"}
    assert len(widgets) >= 5, form
    url = _serve(server, f"{form}.pdf", pdf)

    # painted with the appearance streams (pdf.js's printing, viewers without forms)
    painted = viewer.evaluate("([url, scale]) => window.paintAppearances(url, scale)",
                              [url, SCALE])
    assert {button["id"] for button in painted} == set(buttons), form
    ticked = [b["ink"] for b in painted if buttons[b["id"]]]
    blank = [b["ink"] for b in painted if not buttons[b["id"]]]
    if buttons:
        assert ticked and blank, form
        assert min(ticked) > 0.2, (form, painted)
        assert max(blank) < 0.05, (form, painted)

    # the viewer, forms on: every widget an HTML control holding what lavra put in it
    shown = viewer.evaluate("url => window.openInViewer(url)", url)
    assert {widget["id"] for widget in shown} == set(widgets), form
    for widget in shown:
        kind, value = widgets[widget["id"]]
        assert widget["shown"], (form, widget)
        if kind == "/Btn":
            assert widget["type"] == ("radio" if widget["radio"] else "checkbox"), widget
            assert widget["checked"] is value, (form, widget)
        else:  # a text field, or a list to choose from (/Ch)
            expected = ("select-one",) if kind == "/Ch" else ("text", "textarea")
            assert widget["type"] in expected, (form, widget)
            assert widget["value"] == value, (form, widget)


def test_filled_and_saved_in_pdfjs_reads_back(
    engine: Engine, server: _Server, viewer: Any
) -> None:
    """A person opens the prefilled fretamento requerimento in pdf.js, answers "Não" to a
    question left unanswered, unticks a document and ticks another, saves; lavra reads it."""
    data = example(engine, FRET)
    data["requerente"].pop("sede_em_americana", None)
    documents = data["documentos"]
    untick, tick = [name for name, entry in documents.items() if entry.get("apresentado")][:2]
    documents[tick]["apresentado"] = False
    pdf = engine.prefill(FRET, data)
    assert "sede_em_americana" not in engine.read(pdf).data["requerente"]

    shown = viewer.evaluate("url => window.openInViewer(url)", _serve(server, "fill.pdf", pdf))
    by_field: dict[str, list[dict[str, Any]]] = {}
    for button in shown:
        by_field.setdefault(button["field"], []).append(button)
    nao = [b["id"] for b in by_field["requerente/sede_em_americana"] if b["buttonValue"] == "nao"]
    clicks = nao + [by_field[f"documentos/{name}/apresentado"][0]["id"] for name in (untick, tick)]
    assert viewer.evaluate("ids => window.tick(ids)", clicks) == [True, False, True]

    saved = base64.b64decode(viewer.evaluate("() => window.save()"))
    back = engine.read(saved).data
    assert back["requerente"]["sede_em_americana"] is False
    assert not back["documentos"].get(untick, {}).get("apresentado")
    assert back["documentos"][tick]["apresentado"] is True
    # the rest as prefilled
    assert back["requerente"]["razao_social"] == data["requerente"]["razao_social"]
