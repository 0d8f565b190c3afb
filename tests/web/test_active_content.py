"""Uploaded PDFs with JavaScript, launch actions, embedded files or XFA are flagged.

Real files: a requerimento from ``lavra prefill`` and a document just issued, each with
one kind of active content appended the way an attacker would (tests/web/hostilepdfs.py).
The fields are still read as before; the applicant's result page, the verification page,
``/api/read``, ``/api/verify``, ``lavra read`` and ``lavra verify`` all say what was found.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from fastapi.testclient import TestClient
from hostilepdfs import VARIANTS, javascript_open_action, launch_action, xfa_form
from webhelpers import ALV, REQ, csrf_of, example

from lavra.cli.main import main
from lavra.signing.pdfinspect import MESSAGES, Active, inspect_pdf
from lavra.web import WebContext


@pytest.fixture(scope="module")
def requerimento(web_context: WebContext) -> bytes:
    return web_context.engine.prefill(REQ, example(REQ))


@pytest.fixture(scope="module")
def issued(web_context: WebContext) -> bytes:
    issuer = web_context.require_issuer()
    data = example(ALV)
    # A vehicle of its own in the session's registry (one alvará per vehicle).
    data["veiculo"]["placa"] = "ATV1C23"
    pdf: bytes = issuer.issue(ALV, data, actor="Testes (testes)").pdf
    return pdf


def test_the_documents_lavra_makes_carry_no_active_content(
    requerimento: bytes, issued: bytes
) -> None:
    assert inspect_pdf(requerimento) == ()
    assert inspect_pdf(issued) == ()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_kind_of_active_content_is_flagged_and_the_fields_are_still_read(
    variant: str, requerimento: bytes, web_context: WebContext
) -> None:
    build, word = VARIANTS[variant]
    hostile = build(requerimento)
    assert hostile.startswith(requerimento)  # appended: the original bytes are untouched
    warnings = inspect_pdf(hostile)
    assert len(warnings) == 1 and word in warnings[0], warnings
    engine = web_context.engine
    assert engine.read(hostile).data == engine.read(requerimento).data


def test_several_kinds_are_each_named_once(requerimento: bytes) -> None:
    hostile = xfa_form(launch_action(javascript_open_action(requerimento)))
    assert inspect_pdf(hostile) == (
        MESSAGES[Active.JAVASCRIPT], MESSAGES[Active.LAUNCH], MESSAGES[Active.XFA],
    )


def test_an_object_reusing_an_old_xref_stream_number_is_seen(requerimento: bytes) -> None:
    """pypdf caches xref streams by number (py-pdf/pypdf#265); a later update may reuse
    the number (pypdf's own incremental writer does): the newest object must be read."""
    import re

    once = launch_action(requerimento)
    xref_number = re.findall(rb"(\d+) 0 obj\s*<<\s*/Type /XRef", once[len(requerimento):])[-1]
    twice = javascript_open_action(once)
    assert re.search(rb"/OpenAction " + xref_number + rb" 0 R", twice[len(once):])
    assert inspect_pdf(twice) == (MESSAGES[Active.JAVASCRIPT], MESSAGES[Active.LAUNCH])


def test_hex_escaped_names_do_not_hide_javascript(requerimento: bytes) -> None:
    hostile = javascript_open_action(requerimento)
    tail = hostile[len(requerimento):]
    assert b"/JavaScript" in tail and b"/JS " in tail
    disguised = requerimento + tail.replace(b"/JavaScript", b"/J#61vaScript").replace(
        b"/JS ", b"/#4AS "
    )
    assert MESSAGES[Active.JAVASCRIPT] in inspect_pdf(disguised)


def test_damaged_files_never_raise(requerimento: bytes) -> None:
    hostile = javascript_open_action(requerimento)
    step = max(1, len(hostile) // 41)
    for offset in range(0, len(hostile), step):  # a byte flipped in every region
        damaged = bytearray(hostile)
        damaged[offset] ^= 0xFF
        assert isinstance(inspect_pdf(bytes(damaged)), tuple)
    for size in (0, 10, len(hostile) // 3, len(hostile) - 30):
        assert isinstance(inspect_pdf(hostile[:size]), tuple)
    assert inspect_pdf(b"%PDF-1.7\n" + b"[" * 100_000) == (MESSAGES[Active.UNREADABLE],)


def test_a_self_referencing_file_ends_and_a_huge_one_is_cut(requerimento: bytes) -> None:
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /Loop 1 0 R /Names << /Self 1 0 R >> >>",
        b"<< /Type /Pages /Kids [2 0 R 2 0 R] /Count 0 /Parent 2 0 R >>",
    ]
    loop = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(loop))
        loop += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    start = len(loop)
    loop += b"xref\n0 3\n0000000000 65535 f \n"
    loop += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    loop += b"trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % start
    assert inspect_pdf(bytes(loop)) == ()
    cut = inspect_pdf(javascript_open_action(requerimento), max_objects=5)
    assert MESSAGES[Active.INCOMPLETE] in cut
    late = inspect_pdf(javascript_open_action(requerimento), max_seconds=-1)
    assert MESSAGES[Active.INCOMPLETE] in late


# ------------------------------------------------------------------ the web pages and API
def _upload(client: TestClient, url: str, pdf: bytes) -> str:
    token = csrf_of(client, url)
    page = client.post(url, data={"csrf": token},
                       files={"arquivo": ("enviado.pdf", pdf, "application/pdf")})
    assert page.status_code == 200, page.text[:500]
    return page.text


def test_the_applicants_result_page_warns_and_shows_the_data(
    client: TestClient, requerimento: bytes
) -> None:
    clean = _upload(client, "/requerimentos/ler", requerimento)
    assert 'class="alertas"' not in clean
    html = _upload(client, "/requerimentos/ler", launch_action(requerimento))
    assert 'class="alertas"' in html and "abre outro programa ou arquivo do computador" in html
    assert "Dados lidos do requerimento enviado" in html
    assert 'value="Viação Exemplo de Fretamento Ltda."' in html


def test_the_verification_page_warns(client: TestClient, issued: bytes) -> None:
    clean = _upload(client, "/verificar", issued)
    assert "Documento autêntico" in clean and 'class="alertas"' not in clean
    html = _upload(client, "/verificar", javascript_open_action(issued))
    assert 'class="alertas"' in html and "JavaScript" in html


def test_the_api_answers_carry_the_warnings(
    client: TestClient, requerimento: bytes, issued: bytes
) -> None:
    def post(url: str, pdf: bytes) -> dict[str, object]:
        answer = client.post(url, files={"file": ("f.pdf", pdf, "application/pdf")})
        assert answer.status_code == 200, answer.text
        body: dict[str, object] = answer.json()
        return body

    read = post("/api/read", xfa_form(requerimento))
    assert read["alertas"] == [MESSAGES[Active.XFA]] and read["form"] == REQ
    verified = post("/api/verify", launch_action(issued))
    assert verified["alertas"] == [MESSAGES[Active.LAUNCH]] and "valid" in verified
    described = client.get("/openapi.json").json()
    schemas = described["components"]["schemas"]
    assert schemas["ReadResponse"]["properties"]["alertas"]["type"] == "array"
    assert schemas["VerifyResponse"]["properties"]["alertas"]["type"] == "array"
    read_op = described["paths"]["/api/read"]["post"]["responses"]["200"]
    assert read_op["content"]["application/json"]["schema"]["$ref"].endswith("/ReadResponse")


# ------------------------------------------------------------------ the command line
def _cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, web_context: WebContext
) -> Callable[..., Result]:
    monkeypatch.setenv("LAVRA_PACK", str(web_context.config.pack_dir))
    monkeypatch.setenv("LAVRA_DATA", str(web_context.config.data_dir))
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def run(*args: str) -> Result:
        return runner.invoke(main, list(args))

    return run


def test_lavra_read_and_verify_print_the_warnings(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    web_context: WebContext,
    requerimento: bytes,
    issued: bytes,
) -> None:
    run = _cli(tmp_path, monkeypatch, web_context)
    hostile_req = tmp_path / "req.pdf"
    hostile_req.write_bytes(javascript_open_action(requerimento))
    plain = run("read", str(hostile_req))
    assert "Atenção (o conteúdo do arquivo não foi executado):" in plain.output
    assert MESSAGES[Active.JAVASCRIPT] in plain.output
    as_json = run("read", str(hostile_req), "--json")
    body = json.loads(as_json.output)
    assert body["alertas"] == [MESSAGES[Active.JAVASCRIPT]] and body["form"] == REQ
    clean_doc = tmp_path / "doc.pdf"
    clean_doc.write_bytes(issued)
    clean = run("verify", str(clean_doc))
    assert clean.exit_code == 0, clean.output
    assert "Atenção" not in clean.output
    hostile_doc = tmp_path / "doc-hostil.pdf"
    hostile_doc.write_bytes(launch_action(issued))
    flagged = run("verify", str(hostile_doc))
    assert MESSAGES[Active.LAUNCH] in flagged.output
    verified = json.loads(run("verify", str(hostile_doc), "--json").output)
    assert verified["alertas"] == [MESSAGES[Active.LAUNCH]]


def test_a_file_that_is_not_a_pdf_gets_no_second_warning() -> None:
    # verify/read already say it is not a PDF; "damaged or protected" would repeat it
    assert inspect_pdf(b"") == ()
    assert inspect_pdf(b"isto nao e um PDF") == ()
    assert inspect_pdf(b"%PDF-1.7 truncado")  # a PDF cut short is still flagged
