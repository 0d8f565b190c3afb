"""Damaged and altered copies of an issued PDF are never valid and never crash verification.

One issued PDF is damaged in every region of the file (tests/pdfdamage.py): flips,
zeroed ranges, deletions and truncations in the header, each indirect object (page
content streams, fonts, the signature dictionary), the signature's /Contents and
/ByteRange, xref tables and trailers (Typst writes them), startxref, %%EOF and beyond
(and, in a copy written by WeasyPrint, object and xref streams); and appended bytes
and incremental updates. Each copy must be reported not valid, with fixed pt-BR
reasons, by ``Issuer.verify``, by ``lavra verify`` (exit 1) and by the web
verification path, whatever pypdf or pyHanko raise on it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import weasyprint
from click.testing import CliRunner
from issuers import dev_issuer
from pdfdamage import damaged_copies, regions

from lavra.checking.content import Content
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import Issuer
from lavra.signing import verification as v
from lavra.signing.pades import DocumentSigner
from lavra.verifying import trust_roots
from lavra.web.pdftasks import verify_document

ALV = "alvara-fretamento"
ON = date(2026, 11, 29)
SECRETARIO = "Secretário Municipal de Transportes e Sistema Viário"

FIXED_REASONS = {
    v.NOT_A_PDF,
    v.UNREADABLE,
    v.UNSIGNED,
    v.SIGNATURE_UNREADABLE,
    v.TEXT_UNREADABLE,
    v.DIGEST_MISMATCH,
    v.BAD_SIGNATURE_VALUE,
    v.NOT_INTACT_SO_UNTRUSTED,
    v.UNVALIDATED,
    v.UNTRUSTED_CHAIN,
    v.APPENDED,
    v.UNCLEAR_COVERAGE,
    v.CONTENT_CHANGED,
    v.FORM_CHANGED,
    v.VALIDATION_DATA_ADDED,
    v.EMPTY_UPDATE,
    "O documento não traz um código verificador do lavra.",
    "Este arquivo difere do original registrado com o mesmo código verificador.",
}
PATTERNS = (
    re.compile(
        r"O código verificador [2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4} não consta do "
        r"registro de documentos\."
    ),
    re.compile(r"O PDF contém mais de um código de verificação: [2-9A-Z, -]+\."),
    re.compile(
        r"O documento recebeu \d+ assinatura\(s\) depois da assinatura de emissão; "
        r"o lavra emite documentos com uma única assinatura\."
    ),
)


def known_reason(problem: str) -> bool:
    """One of verification's fixed pt-BR sentences: no parser message leaks through."""
    return problem in FIXED_REASONS or any(p.fullmatch(problem) for p in PATTERNS)


@pytest.fixture(scope="module")
def issued(pack_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    engine = Engine(Content(pack_dir))
    issuer = dev_issuer(engine, tmp_path_factory.mktemp("danificados") / "dados")
    path = engine.content.form(ALV).example
    assert path is not None
    pdf = issuer.issue(ALV, json.loads(path.read_text(encoding="utf-8")), ON).pdf
    assert issuer.verify(pdf).valid
    yield issuer, pdf
    issuer.close()


def _failures(issuer: Issuer, copies: list[tuple[str, bytes]]) -> list[str]:
    failures = []
    for label, data in copies:
        try:
            result = issuer.verify(data)
        except Exception as error:
            failures.append(f"{label}: {type(error).__name__}: {error}")
            continue
        if result.valid or not result.problems:
            failures.append(f"{label}: considerado válido ({result.problems})")
        unknown = [problem for problem in result.problems if not known_reason(problem)]
        if unknown:
            failures.append(f"{label}: motivo fora do padrão {unknown}")
    return failures


def test_damage_reaches_every_region_of_the_issued_pdf(issued: Any) -> None:
    _, pdf = issued
    names = " | ".join(name for name, _, _ in regions(pdf))
    for kind in (
        "cabeçalho",
        "página",
        "fonte",
        "programa de fonte",
        "fluxo ",  # page content streams
        "tabela xref",  # Typst writes xref tables (the streams' copy is the test below)
        "trailer",
        "dicionário da assinatura",
        "/ByteRange",
        "/Contents (contêiner CMS)",
        "/Contents (zeros de preenchimento)",
        "startxref",
        "%%EOF",
    ):
        assert kind in names, kind
    assert len(damaged_copies(pdf)) > 300


@pytest.mark.parametrize("part", range(4))
def test_every_damaged_copy_is_reported_not_valid_with_a_reason(issued: Any, part: int) -> None:
    issuer, pdf = issued
    failures = _failures(issuer, damaged_copies(pdf)[part::4])  # four parts, for xdist
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(
    "error", [RecursionError("loop"), KeyError("/Root"), MemoryError(), AssertionError("x")]
)
@pytest.mark.parametrize("target", ["PdfFileReader", "_validate", "PdfReader"])
def test_whatever_the_parser_raises_the_copy_is_not_valid(
    issued: Any, monkeypatch: pytest.MonkeyPatch, target: str, error: Exception
) -> None:
    issuer, pdf = issued

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise error

    monkeypatch.setattr(v, target, broken)
    result = issuer.verify(pdf)
    assert not result.valid and result.problems
    assert all(known_reason(problem) for problem in result.problems), result.problems


def test_damaged_copies_of_a_pdf_with_xref_and_object_streams(issued: Any) -> None:
    """The same, on a signed PDF written as WeasyPrint writes it (renderizador =
    "weasyprint"): objects in object streams, an xref stream instead of a table."""
    issuer, _ = issued
    html = "<h1>Alvará</h1><p>Código de verificação: 7KQM-X4RD-2HNT</p>"
    plain = bytes(weasyprint.HTML(string=html).write_pdf())
    identity = issuer.signers._dev_pki().load("secretario-transportes")
    signed = (
        DocumentSigner(identity, cargo=SECRETARIO)
        .sign(
            plain,
            signer_name="Maria Souza",
            field_box=None,
            reason="Emissão",
            location="Americana/SP",
        )
        .pdf
    )
    names = " | ".join(name for name, _, _ in regions(signed))
    assert "fluxo xref" in names and "fluxo de objetos" in names
    copies = damaged_copies(signed)
    assert not _failures(issuer, copies)
    # verify_pdf itself raises nothing but InputError, with a fixed sentence
    root = trust_roots(issuer.config)
    for label, data in copies[::7]:
        try:
            check = v.verify_pdf(data, root)
        except InputError as error:
            assert error.message in FIXED_REASONS, (label, error.message)
        else:
            assert all(known_reason(problem) for problem in check.problems), label


def test_not_a_pdf_at_all_is_not_valid_either(issued: Any) -> None:
    issuer, _ = issued
    for data in (b"", b"lixo", b"\x00" * 2048, "Alvará nº 1".encode()):
        result = issuer.verify(data)
        assert not result.valid and result.problems == (v.NOT_A_PDF,)


def test_web_verification_reports_damaged_copies(issued: Any) -> None:
    issuer, pdf = issued
    for label, data in damaged_copies(pdf)[::60]:
        payload = verify_document(data, issuer.config)
        assert payload["valid"] is False and payload["problems"], label
        assert all(known_reason(problem) for problem in payload["problems"]), label


def test_cli_verify_exits_one_with_the_reason_for_damaged_copies(
    pack_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LAVRA_CONFIG", raising=False)
    monkeypatch.delenv("LAVRA_DATA", raising=False)
    runner = CliRunner()
    assert runner.invoke(main, ["keys", "init"]).exit_code == 0
    data = tmp_path / "dados.json"
    data.write_text((pack_dir / "forms" / ALV / "exemplo.json").read_text(encoding="utf-8"))
    original = tmp_path / "alvara.pdf"
    result = runner.invoke(
        main, ["issue", ALV, str(data), "-o", str(original), "--on", "2026-11-29"]
    )
    assert result.exit_code == 0, result.output
    pdf = original.read_bytes()
    # one copy of each kind of damage (each CLI run loads the pack: keep them few)
    wanted = (
        "cabeçalho: bit 0x01 invertido no início",
        "página",
        "/Contents (contêiner CMS): bit 0x80",
        "tabela xref",
        "startxref",
        "truncado em",
        "atualização incremental com texto novo",
    )
    copies = damaged_copies(pdf)
    picked = [next((c for c in copies if c[0].startswith(prefix)), None) for prefix in wanted]
    assert None not in picked
    target = tmp_path / "copia.pdf"
    for label, copy in (c for c in picked if c is not None):
        target.write_bytes(copy)
        result = runner.invoke(main, ["verify", str(target)])
        assert result.exit_code == 1, (label, result.output)
        lines = result.output.splitlines()
        assert lines[0] == "Documento NÃO confere:", (label, result.output)
        # the reasons, then (for a file pdfinspect could not read through) its warnings
        alerts = [i for i, line in enumerate(lines) if line.startswith("Atenção")]
        reasons = lines[1 : alerts[0] if alerts else len(lines)]
        assert reasons and all(
            line.startswith("  - ") and known_reason(line[4:]) for line in reasons
        ), (label, result.output)
        warnings = lines[alerts[0] + 1 :] if alerts else []
        assert all(line.startswith("  ! ") for line in warnings), (label, result.output)
        result = runner.invoke(main, ["verify", str(target), "--json"])
        assert result.exit_code == 1, (label, result.output)
        payload = json.loads(result.output)
        assert payload["valid"] is False and payload["problems"], label
    target.write_bytes(b"isto nao e um PDF")
    result = runner.invoke(main, ["verify", str(target)])
    assert result.exit_code == 1 and v.NOT_A_PDF in result.output
