"""``lavra demo``: every form of the content pack, from its embedded example.

Runs in its own folder: a development PKI (no legal validity) and a SQLite registry
are created there, each issuable form is issued and verified, each requerimento is
drafted and prefilled. Forms whose amounts depend on yearly values the pack does not
have (the corrected fretamento fines) are issued with the pack's EXAMPLE table, which
the document itself says in print.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from lavra.config import Config
from lavra.documents import Engine
from lavra.errors import LavraError
from lavra.inputs import read_data
from lavra.issuing import Issuer, ensure_dev_pki
from lavra.registry import database_url, open_registry


@dataclass(frozen=True)
class DemoRow:
    form: str
    status: str
    number: str
    files: tuple[Path, ...]


def _write(path: Path, content: bytes) -> Path:
    path.write_bytes(content)
    return path


def run_demo(config: Config, folder: Path) -> list[DemoRow]:
    """Issue and verify every issuable form; draft and prefill every requerimento."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise LavraError(f"Não foi possível criar a pasta {folder}: {error.strerror}.") from None
    config = replace(config, data_dir=folder / "dados", database_url=None)
    engine = Engine.from_config(config)
    ensure_dev_pki(config, engine.content)
    issuer = Issuer(engine, open_registry(database_url(config.data_dir)), config)
    rows = []
    try:
        for form in engine.content.forms.values():
            if form.example is None:
                continue
            data = read_data(form.example)
            if form.series is None:
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
                rows.append(DemoRow(form.id, f"minuta ({status})", "-", tuple(files)))
                continue
            examples = bool(form.computations)
            result = issuer.issue(
                form.id, data, idempotency_key=f"demo:{form.id}", example_values=examples
            )
            stem = f"{form.id}-{result.record.formatted.replace('/', '-')}"
            files = [_write(folder / f"{stem}.pdf", result.pdf)]
            if result.docx is not None:
                files.append(_write(folder / f"{stem}.docx", result.docx))
            check = issuer.verify(result.pdf)
            status = "emitido e verificado" if check.valid else "emitido; verificação falhou"
            if examples:
                status += " (valores de exemplo)"
            rows.append(DemoRow(form.id, status, result.record.formatted, tuple(files)))
    finally:
        issuer.close()
    return rows
