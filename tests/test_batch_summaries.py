"""The run's summaries are bounded: ``resumo.csv`` streams every row; ``resumo.pdf``
lists at most N rows per outcome and says how many more only the CSV has."""

from __future__ import annotations

import csv
import io
import subprocess
from pathlib import Path

import pytest

from lavra.batch.output import SummaryRow, summary_pdf, write_summary_csv
from lavra.checking.content import Content
from lavra.documents import Engine

REPO = Path(__file__).resolve().parents[1]


def _rows() -> list[SummaryRow]:
    refused = [SummaryRow(n, f"{n:011d}", f"Recusado {n}", "recusado", "recusado", "", "",
                          "", "recusado", f"Linha {n}: CPF inválido.") for n in range(1, 6)]
    renewed = [SummaryRow(n, f"{n:011d}", f"Renovado {n}", "renovado", "documento",
                          "alvara-transporte-escolar", f"ALV-ESC {n:04d}/2027",
                          f"{n:05d}-1-alvara.pdf", "concluído", "") for n in range(6, 9)]
    return refused + renewed


def test_the_summary_pdf_lists_n_rows_per_outcome_and_says_how_many_more() -> None:
    engine = Engine(Content(REPO), pool=None)
    pdf = summary_pdf(engine, "Renovação", "Execução em lote nº 1", _rows(), limit=2)
    text = " ".join(subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf,
                                   capture_output=True, check=True).stdout.decode().split())
    assert "Recusado 1" in text and "Recusado 2" in text and "Recusado 3" not in text
    assert "Renovado 6" in text and "Renovado 7" in text and "Renovado 8" not in text
    assert "e mais 3 linha(s) com resultado «recusado»" in text
    assert "e mais 1 linha(s) com resultado «renovado»" in text
    assert "resumo.csv traz todas" in text
    # the totals still count every row
    assert "titulares 8" in text


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
