"""``lavra demo``: every form of the content pack, from its embedded example."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lavra.documents import Engine
from lavra.errors import LavraError
from lavra.inputs import read_data


@dataclass(frozen=True)
class DemoRow:
    form: str
    status: str
    files: tuple[Path, ...]


def _write(path: Path, content: bytes) -> Path:
    path.write_bytes(content)
    return path


def run_demo(engine: Engine, folder: Path) -> list[DemoRow]:
    """Check, draft (PDF and DOCX) and, for requerimentos, prefill every form."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise LavraError(f"Não foi possível criar a pasta {folder}: {error.strerror}.") from None
    rows = []
    for form in engine.content.forms.values():
        if form.example is None:
            continue
        data = read_data(form.example)
        rendered = engine.draft(form.id, data, docx=True)
        files = [
            _write(folder / f"{form.id}-minuta.pdf", rendered.pdf),
            _write(folder / f"{form.id}-minuta.docx", rendered.docx or b""),
        ]
        if form.fillable:
            files.append(
                _write(folder / f"{form.id}-preenchivel.pdf", engine.prefill(form.id, data))
            )
        status = "completo" if rendered.report.complete else "incompleto"
        rows.append(DemoRow(form.id, status, tuple(files)))
    return rows
