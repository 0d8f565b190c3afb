"""The run's summaries are bounded: ``resumo.csv`` streams every row; ``resumo.pdf``
lists at most N rows per outcome and says how many more only the CSV has. ``resumo.pdf``
is laid out by Typst whatever renders the documents, by WeasyPrint when Typst fails."""

from __future__ import annotations

import csv
import io
import logging
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from lavra.batch.output import SummaryRow, summary_pdf, write_summary_csv
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.errors import RenderError
from lavra.render.pdf import PageFrame

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


def _text(pdf: bytes) -> str:
    """As poppler reads it, cell after cell (no ``-layout``), the zero-width spaces out."""
    return " ".join(subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                                   check=True).stdout.decode().replace("\u200b", "").split())


def _creator(pdf: bytes) -> str:
    return str(PdfReader(io.BytesIO(pdf)).metadata.creator or "")  # type: ignore[union-attr]


def _rows() -> list[SummaryRow]:
    refused = [SummaryRow(n, f"{n:011d}", f"Recusado {n}", "recusado", "recusado", "", "",
                          "", "recusado", f"Linha {n}: CPF inválido.") for n in range(1, 6)]
    renewed = [SummaryRow(n, f"{n:011d}", f"Renovado {n}", "renovado", "documento",
                          "alvara-transporte-escolar", f"ALV-ESC {n:04d}/2027",
                          f"{n:05d}-1-alvara.pdf", "concluído", "") for n in range(6, 9)]
    return refused + renewed


def test_the_summary_pdf_lists_n_rows_per_outcome_and_says_how_many_more(
        engine: Engine) -> None:
    engine.final_renderer = "weasyprint"  # the documents' renderer does not choose it
    pdf = summary_pdf(engine, "Renovação", "Execução em lote nº 1", _rows(), limit=2)
    assert _creator(pdf).startswith("Typst")
    text = _text(pdf)
    assert text.startswith("Prefeitura Municipal de Americana")
    assert "Renovação Execução em lote nº 1 Totais" in text
    assert "Nº Titular Resultado Documento Número" in text
    assert "Recusado 1" in text and "Recusado 2" in text and "Recusado 3" not in text
    assert "Renovado 6" in text and "Renovado 7" in text and "Renovado 8" not in text
    assert "Linha 1: CPF inválido." in text and "ALV-ESC 0006/2027" in text
    assert "000.000.000-01" in text and "00000000001" not in text  # the CPF formatted
    assert "e mais 3 linha(s) com resultado «recusado»" in text
    assert "e mais 1 linha(s) com resultado «renovado»" in text
    assert "resumo.csv traz todas" in text
    # the totals still count every row
    assert "titulares 8" in text
    assert "Página 1 de 1" in text


def test_a_long_field_path_in_a_reason_leaves_the_number_readable(engine: Engine) -> None:
    rows = [SummaryRow(1, "10000000019", "Titular Exemplo", "notificado", "documento",
                       "notificacao-pendencias-renovacao", "NOT-REN-ESC nº 0001/2026",
                       "00001-1-notificacao.pdf", "concluído", ""),
            SummaryRow(2, "10000000027", "Outro Titular", "recusado", "recusado", "", "", "",
                       "recusado", "Linha 2, campo /processo_administrativo/"
                       "comprovante_recolhimento_taxa: não pode ficar em branco.")]
    text = _text(summary_pdf(engine, "Renovação", "Execução em lote nº 1", rows))
    # the number on its line(s) whole: no column squeezed to a few letters
    assert "NOT-REN-ESC nº 0001/2026" in text and "NOT-" + "-REN" not in text
    assert "campo/processo_administrativo/comprovante_recolhimento_taxa:" in text.replace(
        " ", "")  # broken over lines after its slashes and underscores, nothing lost


def test_the_summary_falls_back_to_weasyprint_with_the_same_content(
        engine: Engine, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    def refuse(*args: Any, **kwargs: Any) -> bytes:
        raise RenderError("Não foi possível gerar o PDF: teste")

    monkeypatch.setattr(engine.pages.typst, "report", refuse)
    with caplog.at_level(logging.WARNING, logger="lavra.render.task"):
        pdf = summary_pdf(engine, "Renovação", "Execução em lote nº 1", _rows(), limit=2)
    assert "Typst não gerou o relatório; usado o WeasyPrint" in caplog.text
    assert not _creator(pdf).startswith("Typst")
    text = _text(pdf)
    assert "Recusado 2" in text and "Recusado 3" not in text and "titulares 8" in text
    assert "e mais 1 linha(s) com resultado «renovado»" in text


@pytest.mark.parametrize("frame", [
    PageFrame("Município", "Órgão", "Resumo", minuta=True),
    PageFrame("Município", "Órgão", "Resumo", numero="ALV-ESC nº 0001/2026"),
    PageFrame("Município", "Órgão", "Resumo", qr_png=b"png"),
])
def test_a_report_is_never_an_act(engine: Engine, frame: PageFrame) -> None:
    with pytest.raises(RenderError, match="Um relatório não tem número"):
        engine.pages.typst.report("<p>Texto.</p>", frame)


def test_the_summary_csv_streams_every_row_and_leaves_an_identical_file(
        tmp_path: Path) -> None:
    path = tmp_path / "resumo.csv"
    rows = _rows()
    assert write_summary_csv(path, iter(rows)) is True
    read = list(csv.reader(io.StringIO(path.read_text("utf-8"), newline="")))
    assert [r[2] for r in read[1:]] == [r.name for r in rows]
    before = path.stat().st_mtime_ns
    assert write_summary_csv(path, iter(rows)) is False
    assert path.stat().st_mtime_ns == before
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize("bad", ["=1+1", "@SUM(A1)"])
def test_the_streamed_csv_still_escapes_formulas(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "resumo.csv"
    write_summary_csv(path, [SummaryRow(1, "1", bad, "recusado", "recusado", "", "", "",
                                        "recusado", bad)])
    row = list(csv.reader(io.StringIO(path.read_text("utf-8"), newline="")))[1]
    assert row[2] == f"'{bad}" and row[9] == f"'{bad}"
