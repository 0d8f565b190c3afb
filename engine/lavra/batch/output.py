"""The files of a batch run, in one folder: one PDF per output, the summary CSV and PDF,
and on request one merged PDF in input order and one editable DOCX beside each signed
document's PDF (same name, ``.docx``; the summary's column ``arquivo_docx``).

Every file is written atomically (a temporary file in the same folder, flushed and
fsynced, then renamed over the name, and the folder fsynced: once after the items'
files, once after each summary): after a crash a file is either whole or absent, never
half-written. The files come from the registry (the
signed PDF as recorded, the companion file kept with its item), so a rerun writes what
an interrupted run had recorded but not yet written, and leaves alone a file already
identical.

The summaries are bounded: ``resumo.csv`` is streamed row by row to its temporary file,
and ``resumo.pdf`` lists at most :data:`PDF_ROWS_PER_OUTCOME` rows of each outcome, with
a line saying how many more of that outcome only the CSV lists. ``resumo.pdf`` is laid
out by Typst whatever renderer the documents use (it is no act: nothing signs it or
compares it with one), and by WeasyPrint only when Typst cannot
(:meth:`lavra.render.task.DocumentRenderer.report_pdf`).
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path, PurePath
from typing import IO

from pypdf import PdfWriter

from lavra.batch.stored import stored_files
from lavra.documents import Engine
from lavra.errors import LavraError
from lavra.inputs.formats import mask_holder_key
from lavra.registry.runs import REFUSED, ItemRecord
from lavra.registry.store import Registry
from lavra.render.pdf import PageFrame

__all__ = [
    "CSV_NAME",
    "MERGED_NAME",
    "OUTPUT_NAMES",
    "PDF_NAME",
    "PDF_ROWS_PER_OUTCOME",
    "SummaryRow",
    "atomic_write",
    "docx_name",
    "file_name",
    "run_folder",
    "summary_rows",
    "write_outputs",
    "write_summary_csv",
]

CSV_NAME, PDF_NAME, MERGED_NAME = "resumo.csv", "resumo.pdf", "lote-para-impressao.pdf"
OUTPUT_NAMES = (CSV_NAME, PDF_NAME, MERGED_NAME)
"""The run's own files, beside the outputs of its items."""
CSV_COLUMNS = ("ordem", "titular", "nome", "resultado", "papel", "formulario", "numero",
               "arquivo", "situacao", "motivo", "arquivo_docx")


def atomic_write(path: Path, content: bytes) -> None:
    """Write ``content`` at ``path``: whole or not at all (module docstring)."""
    atomic_stream(path, lambda handle: handle.write(content))


def atomic_stream(path: Path, write: Callable[[IO[bytes]], object], *,
                  only_if_changed: bool = False, sync_folder: bool = True) -> bool:
    """Let ``write`` fill a temporary file beside ``path``, then rename it over the name
    (module docstring): the content is never held whole in memory. With
    ``only_if_changed``, a file already identical is left alone. True when written.
    Without ``sync_folder`` the caller fsyncs the folder (:func:`sync_folder_of`) once
    after a series of files: each is whole or absent all the same."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        if only_if_changed and path.is_file() and _digest(path) == _digest(temporary):
            temporary.unlink()
            return False
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise LavraError(
            f"Não foi possível gravar o arquivo {path.name}: {error.strerror}. Libere "
            "espaço e repita o comando: a execução continua de onde parou."
        ) from None
    if sync_folder:
        sync_folder_of(path)
    return True


def sync_folder_of(path: Path) -> None:
    """Make the renames into ``path``'s folder durable (fsync of the folder)."""
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def _digest(path: Path) -> bytes:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.digest()


def run_folder(folder: Path, run_id: int) -> Path:
    """The run's own folder inside the folder staff chose (``PASTA/execucao-0007``): a
    later run into the same folder (new holders, new requests) never overwrites an
    earlier run's PDFs or summaries, whose names start from the input order."""
    return folder / f"execucao-{run_id:04d}"


def file_name(item: ItemRecord) -> str:
    """The output's file name: its place in the input, then the pack's name for it."""
    return f"{item.position + 1:05d}-{item.seq + 1}-{item.file}"


def docx_name(item: ItemRecord) -> str:
    """The editable DOCX beside a document's PDF: the same name, ``.docx``."""
    return str(PurePath(file_name(item)).with_suffix(".docx"))


@dataclass(frozen=True)
class SummaryRow:
    """One line of the summary: an output, or a refused record."""

    order: int
    holder: str
    name: str
    outcome: str
    role: str
    form: str
    number: str
    file: str
    state: str
    reason: str
    docx_file: str = ""

    def as_csv(self) -> tuple[str, ...]:
        return (str(self.order), self.holder, self.name, self.outcome, self.role, self.form,
                self.number, self.file, self.state, self.reason, self.docx_file)


def summary_rows(items: Sequence[ItemRecord],
                 numbers: Sequence[str | None] | None = None,
                 docx: Collection[tuple[int, int]] = ()) -> tuple[SummaryRow, ...]:
    """The summary's lines; ``numbers``: the numbers a dry run foresees, per item;
    ``docx``: the items (position, seq) with a DOCX beside their PDF."""
    rows = []
    for index, item in enumerate(items):
        number = item.printed or (numbers[index] if numbers is not None else None) or ""
        if item.role == REFUSED:
            state = "recusado"
        elif numbers is not None:
            state = "previsto (simulação)"
        else:
            state = ("concluído" if item.done else
                     "abandonado" if item.abandoned else "pendente")
        rows.append(SummaryRow(
            item.position + 1, item.holder, item.name, item.outcome, item.role,
            item.form or "", number, "" if item.role == REFUSED else file_name(item), state,
            item.reason or "",
            docx_name(item) if (item.position, item.seq) in docx else "",
        ))
    return tuple(rows)


FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (OWASP, "CSV injection")."""


def cell(text: str) -> str:
    """A CSV cell safe to open in a spreadsheet: text starting with a formula prefix
    (``= + - @``, tab, carriage return) gets a leading apostrophe, which the
    spreadsheet shows as text and does not evaluate. A holder's name or a reason comes
    from outside (the input files) and must never run as a formula on staff's machine.
    A carriage return inside a cell becomes a line feed: the file's lines end in line
    feeds, and a bare CR, left unquoted by the writer, would split the row."""
    safe = f"'{text}" if text.startswith(FORMULA_PREFIXES) else text
    return safe.replace("\r\n", "\n").replace("\r", "\n")


def summary_csv(rows: Iterable[SummaryRow]) -> bytes:
    """The summary CSV in memory (small summaries; the run streams it to its file)."""
    buffer = io.BytesIO()
    _csv_to(buffer, rows)
    return buffer.getvalue()


def _csv_to(handle: IO[bytes], rows: Iterable[SummaryRow]) -> None:
    text = io.TextIOWrapper(handle, encoding="utf-8", newline="", write_through=True)
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow(tuple(cell(value) for value in row.as_csv()))
    text.flush()
    text.detach()


def write_summary_csv(path: Path, rows: Iterable[SummaryRow]) -> bool:
    """``resumo.csv`` at ``path``, every row, streamed to the file (module docstring);
    left alone when already identical. True when written."""
    return atomic_stream(path, lambda handle: _csv_to(handle, rows), only_if_changed=True)


def counts(rows: Sequence[SummaryRow]) -> dict[str, int]:
    """Holders by outcome, documents and pending outputs."""
    holders: dict[int, str] = {}
    for row in rows:
        holders.setdefault(row.order, row.outcome)
    found: dict[str, int] = {}
    for outcome in holders.values():
        found[outcome] = found.get(outcome, 0) + 1
    found["titulares"] = len(holders)
    found["documentos"] = sum(1 for r in rows if r.role == "documento")
    found["anexos"] = sum(1 for r in rows if r.role == "anexo")
    if any(r.docx_file for r in rows):
        found["docx"] = sum(1 for r in rows if r.docx_file)
    found["pendentes"] = sum(1 for r in rows if r.state == "pendente")
    abandoned = sum(1 for r in rows if r.state == "abandonado")
    if abandoned:
        found["abandonados"] = abandoned
    return found


PDF_ROWS_PER_OUTCOME = 200
"""The rows of each outcome (renovado, notificado, recusado…) that ``resumo.pdf`` lists.
The PDF is for reading and filing; ``resumo.csv`` has every row. 200 rows are about
eight pages: enough to read a normal run whole (the school renewal has tens to a few
hundred holders), while a run of thousands of refused lines, which nobody reads on
paper, stays a few pages and well under a second of rendering. WeasyPrint's cost grew
faster than the rows (20,000 refused rows took 2.4 GB and minutes, see
``bench/bench_summary.py``); Typst's is far lower, but the bound still keeps the PDF
within the workers' limits and the web server's memory flat."""


#: A slash or underscore before a letter, in a reason ("campo /processo_administrativo/…").
_JOINS = re.compile(r"([/_])(?=[^\W\d_])")


def _breakable(reason: str) -> str:
    """A reason whose field paths may break after a slash or underscore (a zero-width
    space there, invisible): one long path must not take the table's width, leaving the
    number's column too narrow to read."""
    return _JOINS.sub("\\1\u200b", reason)


def summary_pdf(engine: Engine, title: str, subtitle: str, rows: Iterable[SummaryRow],
                *, limit: int = PDF_ROWS_PER_OUTCOME) -> bytes:
    """The summary as a PDF/A: the counts, then who got what, with the numbers; at most
    ``limit`` rows of each outcome, then how many more are in ``resumo.csv``."""
    listed = list(rows) if not isinstance(rows, Sequence) else rows
    tally = counts(listed)
    lines = "".join(f"<tr><th>{escape(k)}</th><td>{v}</td></tr>" for k, v in tally.items())
    body = [f'<p class="subtitulo">{escape(subtitle)}</p>', "<h2>Totais</h2>",
            f'<table class="dados">{lines}</table>', "<h2>Titulares</h2>",
            '<table class="dados"><tr><th>Nº</th><th>Titular</th><th>Resultado</th>'
            "<th>Documento</th><th>Número</th></tr>"]
    titles = {fid: spec.title for fid, spec in engine.content.forms.items()}
    shown: dict[str, int] = {}
    left: dict[str, int] = {}
    for row in listed:
        if shown.get(row.outcome, 0) >= limit:
            left[row.outcome] = left.get(row.outcome, 0) + 1
            continue
        shown[row.outcome] = shown.get(row.outcome, 0) + 1
        what = (_breakable(row.reason) if row.role == REFUSED
                else titles.get(row.form, row.form))
        holder = escape(mask_holder_key(row.holder))  # a CPF/CNPJ printed formatted
        body.append(
            f"<tr><td>{row.order}</td><td>{escape(row.name)}<br/>{holder}</td>"
            f"<td>{escape(row.outcome)} ({escape(row.state)})</td><td>{escape(what)}</td>"
            f"<td>{escape(row.number)}</td></tr>"
        )
    body.append("</table>")
    for outcome, more in left.items():
        body.append(
            f"<p>… e mais {more} linha(s) com resultado «{escape(outcome)}», não listadas "
            f"aqui: este resumo lista até {limit} por resultado; o arquivo {CSV_NAME} traz "
            "todas.</p>")
    org = engine.content.organization
    frame = PageFrame(municipio=org.municipio, orgao=org.orgao, titulo=title)
    return engine.pages.report_pdf("".join(body), frame)


def _write_if_changed(path: Path, content: bytes) -> bool:
    return atomic_stream(path, lambda handle: handle.write(content), only_if_changed=True,
                         sync_folder=False)


READ_CHUNK = 200
"""The items whose files are read from the registry in one read (one transaction)."""


def write_outputs(
    registry: Registry,
    engine: Engine,
    items: Sequence[ItemRecord],
    folder: Path,
    *,
    title: str,
    subtitle: str,
    merged: bool,
    docx: bool = False,
) -> tuple[SummaryRow, ...]:
    """Every done item's file, the summaries and, with ``merged``, the merged PDF; with
    ``docx``, the DOCX each document was issued with, beside its PDF (a document issued
    by an earlier pass of the run without DOCX has none: the summary leaves it blank)."""
    folder.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    with_docx: set[tuple[int, int]] = set()
    done = [item for item in items if item.role != REFUSED and item.done]
    for start in range(0, len(done), READ_CHUNK):
        # a chunk's files read in one transaction, not one each; the snapshot held
        # only while the chunk is written
        with registry.read_scope():
            for stored in stored_files(registry, done[start:start + READ_CHUNK], docx=docx):
                item = stored.item
                path = folder / file_name(item)
                _write_if_changed(path, stored.content)
                files.append(path)
                if stored.docx is not None:
                    _write_if_changed(folder / docx_name(item), stored.docx)
                    with_docx.add((item.position, item.seq))
    if done:
        sync_folder_of(folder / CSV_NAME)
    rows = summary_rows(items, docx=with_docx)
    write_summary_csv(folder / CSV_NAME, rows)
    atomic_write(folder / PDF_NAME, summary_pdf(engine, title, subtitle, rows))
    if merged and files:
        writer = PdfWriter()
        for path in files:
            writer.append(str(path))
        buffer = io.BytesIO()
        writer.write(buffer)
        atomic_write(folder / MERGED_NAME, buffer.getvalue())
    return rows
