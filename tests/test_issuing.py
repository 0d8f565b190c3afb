"""Issuing: number → render → sign → record, all or nothing; verify and cancel."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from identities import set_vehicle
from issuers import dev_issuer
from pypdf import PdfReader

from lavra.cli.main import main
from lavra.documents import Engine
from lavra.errors import InputError, LavraError
from lavra.inputs.reading import TIMEZONE
from lavra.issuing import IncompleteError, Issuer, ensure_dev_pki
from lavra.registry.database import database_url
from lavra.registry.store import open_registry
from lavra.signing.pades import DocumentSigner

ALV = "alvara-fretamento"
ON = date(2026, 11, 29)


@pytest.fixture
def issuer(engine: Engine, tmp_path: Path) -> Any:
    issuer = dev_issuer(engine, tmp_path / "dados")
    yield issuer
    issuer.close()


def example(engine: Engine) -> dict[str, Any]:
    path = engine.content.form(ALV).example
    assert path is not None
    return json.loads(path.read_text(encoding="utf-8"))


def year() -> int:
    from datetime import datetime

    return datetime.now(TIMEZONE).year


def test_issue_numbers_signs_records_and_verifies(issuer: Issuer, engine: Engine) -> None:
    result = issuer.issue(ALV, example(engine), ON)
    record = result.record
    assert (record.series, record.formatted) == ("ALV-FRET", f"0001/{year()}")
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(result.pdf)).pages)
    text = " ".join(text.split())
    # printed with its series, as the registry keeps it (issue 10): never a bare number
    assert f"ALV-FRET nº 0001/{year()}" in text and "Nº 0001" not in text
    assert "MINUTA" not in text
    assert record.verification_code in text.replace(" ", "")  # may break at a hyphen
    assert "A autenticidade deste documento pode ser conferida em " in text
    assert "https://verifica.example.invalid/verificar" in text.replace(" ", "")
    assert issuer.registry.pdf(record.id) == result.pdf
    assert record.computed["valido_ate"] == "2031-11-28"
    check = issuer.verify(result.pdf)
    assert check.valid and check.registered and check.number == record.formatted, check.problems
    assert result.docx is not None and result.docx[:2] == b"PK"
    # One alvará per vehicle (fretamento art. 8º): the next number goes to another vehicle.
    other = example(engine)
    set_vehicle(other["veiculo"], "XYZ9A87")
    second = issuer.issue(ALV, other, ON)
    assert second.record.number == 2


def test_incomplete_is_refused_and_records_nothing(issuer: Issuer, engine: Engine) -> None:
    data = example(engine)
    data["veiculo"]["tacografo"] = False
    with pytest.raises(IncompleteError) as caught:
        issuer.issue(ALV, data, ON)
    assert not caught.value.report.complete
    assert issuer.registry.next_number("ALV-FRET", year()) == 1


def test_a_requerimento_is_not_issued(issuer: Issuer, engine: Engine) -> None:
    with pytest.raises(InputError, match="requerimento"):
        issuer.issue("requerimento-alvara-fretamento", {}, ON)


def test_failure_while_signing_leaves_no_number(
    issuer: Issuer, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("token removido durante a assinatura")

    monkeypatch.setattr(DocumentSigner, "sign", broken)
    with pytest.raises(LavraError):
        issuer.issue(ALV, example(engine), ON)
    monkeypatch.undo()
    assert issuer.registry.next_number("ALV-FRET", year()) == 1
    assert issuer.issue(ALV, example(engine), ON).record.number == 1


def test_idempotency_key_returns_the_same_document(issuer: Issuer, engine: Engine) -> None:
    first = issuer.issue(ALV, example(engine), ON, idempotency_key="proc-12345")
    again = issuer.issue(ALV, example(engine), ON, idempotency_key="proc-12345")
    assert again.record.id == first.record.id and again.pdf == first.pdf
    assert issuer.registry.next_number("ALV-FRET", year()) == 2


def _flip(pdf: bytes, at: int) -> bytes:
    return pdf[:at] + bytes([pdf[at] ^ 0x01]) + pdf[at + 1 :]


def test_tampered_copies_are_flagged(issuer: Issuer, engine: Engine) -> None:
    pdf = issuer.issue(ALV, example(engine), ON).pdf
    # a fixed place: a byte of the first content stream, inside the signed range (every
    # region of the file is damaged in tests/test_verify_damaged.py)
    flipped = issuer.verify(_flip(pdf, pdf.index(b"stream") + 20))
    assert not flipped.valid and not flipped.registered and not flipped.intact
    assert any("resumo (hash)" in p for p in flipped.problems)
    appended = issuer.verify(pdf + b"\n% acrescimo\n")
    assert not appended.valid and not appended.unmodified
    assert any("arquivo inteiro" in p or "após a assinatura" in p for p in appended.problems)
    garbage = issuer.verify(b"%PDF-1.7 isto nao e um documento")
    assert not garbage.valid and garbage.problems
    not_pdf = issuer.verify(b"isto nem parece um PDF")
    assert not not_pdf.valid and "não é um PDF" in not_pdf.problems[0]


def test_signed_by_another_pki_is_not_trusted(
    issuer: Issuer, engine: Engine, tmp_path: Path
) -> None:
    other_config = replace(issuer.config, data_dir=tmp_path / "outra")
    ensure_dev_pki(other_config, engine.content)
    other = Issuer(engine, open_registry(database_url(other_config.data_dir)), other_config)
    try:
        forged = other.issue(ALV, example(engine), ON).pdf
    finally:
        other.close()
    result = issuer.verify(forged)
    assert not result.trusted and not result.registered and not result.valid


def test_cancelled_document_is_reported_cancelled(issuer: Issuer, engine: Engine) -> None:
    result = issuer.issue(ALV, example(engine), ON)
    issuer.cancel(result.record.formatted, "Emitido com erro material", "servidor.teste")
    check = issuer.verify(result.pdf)
    assert check.cancelled and not check.valid
    assert any("cancelado" in p for p in check.problems)
    looked = issuer.lookup_code(result.record.verification_code.lower())
    assert looked is not None and looked.cancelled


def test_cli_keys_issue_verify_cancel(
    pack_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LAVRA_DATABASE_URL", raising=False)
    runner = CliRunner()
    example_path = pack_dir / "forms" / ALV / "exemplo.json"
    out = tmp_path / "alvara.pdf"
    result = runner.invoke(
        main, ["issue", ALV, str(example_path), "-o", str(out), "--on", "2026-11-29"]
    )
    assert result.exit_code == 2 and "keys init" in result.output
    assert runner.invoke(main, ["keys", "init"]).exit_code == 0
    result = runner.invoke(
        main, ["issue", ALV, str(example_path), "-o", str(out), "--json", "--on", "2026-11-29",
               "--chave", "proc-77"]
    )
    assert result.exit_code == 0, result.output
    issued = json.loads(result.output)
    assert issued["number"].startswith("0001/") and len(issued["sha256"]) == 64
    result = runner.invoke(main, ["verify", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["valid"] is True
    tampered = tmp_path / "adulterado.pdf"
    tampered.write_bytes(out.read_bytes() + b"%%EOF\n")
    result = runner.invoke(main, ["verify", str(tampered)])
    assert result.exit_code == 1 and "NÃO confere" in result.output
    result = runner.invoke(main, ["verify", "--code", issued["verification_code"], "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["number"] == issued["number"]
    # --serie in any case, as typed (issue 22, item 5)
    result = runner.invoke(main, ["verify", "--numero", issued["number"], "--serie", "alv-fret",
                                  "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["number"] == issued["number"]
    copy = tmp_path / "copia.pdf"
    result = runner.invoke(main, ["export", issued["number"], "--serie", " alv-fret ", "-o",
                                  str(copy)])
    assert result.exit_code == 0 and copy.read_bytes() == out.read_bytes(), result.output
    monkeypatch.delenv("USER", raising=False)
    result = runner.invoke(main, ["cancel", issued["number"], "--reason", "Erro de digitação"])
    assert result.exit_code == 2 and "--responsavel" in result.output
    result = runner.invoke(
        main, ["cancel", issued["number"], "--reason", "Erro de digitação", "--by", "ana.souza",
               "--serie", "Alv-Fret"]
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["verify", str(out), "--json"])
    assert result.exit_code == 1 and json.loads(result.output)["cancelled"] is True
    # The key's act was cancelled: a retry under that key is refused, nothing written.
    again = tmp_path / "de-novo.pdf"
    result = runner.invoke(
        main, ["issue", ALV, str(example_path), "-o", str(again), "--on", "2026-11-29",
               "--chave", "proc-77"]
    )
    assert result.exit_code == 2 and not again.exists(), result.output
    assert f"ALV-FRET nº {issued['number']}" in result.output
    assert "foi cancelado em " in result.output and "Emitido" not in result.output
    assert "Traceback" not in result.output


def test_cli_issue_incomplete_exits_one(
    pack_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["keys", "init"]).exit_code == 0
    data = json.loads((pack_dir / "forms" / ALV / "exemplo.json").read_text(encoding="utf-8"))
    del data["inspecao_veicular"]
    path = tmp_path / "dados.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "x.pdf"
    result = runner.invoke(main, ["issue", ALV, str(path), "-o", str(out)])
    assert result.exit_code == 1
    assert "não pode ser emitido" in result.output and not out.exists()


def test_cli_issue_to_an_unwritable_place_issues_nothing_and_export_gives_the_original(
    pack_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["keys", "init"]).exit_code == 0
    example_path = str(pack_dir / "forms" / ALV / "exemplo.json")
    result = runner.invoke(
        main, ["issue", ALV, example_path, "-o", str(tmp_path / "nao" / "x.pdf")]
    )
    assert result.exit_code == 2 and "não existe" in result.output
    result = runner.invoke(
        main, ["issue", ALV, example_path, "-o", "a.pdf", "--json", "--on", "2026-11-29"]
    )
    assert result.exit_code == 0, result.output
    number = json.loads(result.output)["number"]
    assert number.startswith("0001/"), "the refused attempt consumed no number"
    assert not list(tmp_path.glob("*.parcial"))
    result = runner.invoke(main, ["export", number, "-o", "copia.pdf"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "copia.pdf").read_bytes() == (tmp_path / "a.pdf").read_bytes()
    result = runner.invoke(main, ["export", "0099/2026", "-o", "x.pdf"])
    assert result.exit_code == 2 and "não encontrado" in result.output


def test_development_root_is_not_trusted_once_production_signers_are_configured(
    issuer: Issuer, engine: Engine
) -> None:
    from lavra.config import SignerConfig

    pdf = issuer.issue(ALV, example(engine), ON).pdf
    assert issuer.verify(pdf).trusted
    production = replace(
        issuer.config,
        signers={
            "secretario-transportes": SignerConfig(
                "Fulano", issuer.config.pki_dir / "secretario-transportes.p12", "LAVRA_SENHA_X"
            )
        },
    )
    strict = Issuer(engine, issuer.registry, production)
    with pytest.raises(LavraError, match="raiz de confiança"):
        strict.verify(pdf)
