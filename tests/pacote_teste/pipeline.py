"""The whole pipeline over the pack ``LAVRA_PACK`` names, in a process of its own.

Run by ``tests/test_second_pack.py`` as ``python pipeline.py REPO`` in an empty folder:
check, draft, prefill and read back, issue (twice an auto, for the repeat rule),
verify, coverage and the web pages. It prints one JSON object with what each step
gave, which modules were imported, and which files of the repository's own pack
folders (``REPO/legal_text``, ``schemas``, ``forms``) were opened: none may be.
"""

from __future__ import annotations

import io
import json
import os
import sys
from datetime import date
from pathlib import Path
from typing import Any

REPO = Path(sys.argv[1]).resolve()
WATCHED = tuple(str(REPO / name) + os.sep for name in ("legal_text", "schemas", "forms"))
OPENED: list[str] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and isinstance(args[0], str | bytes | os.PathLike):
        path = os.path.realpath(os.fsdecode(args[0]))
        if path.startswith(WATCHED):
            OPENED.append(path)


sys.addaudithook(_audit)

from fastapi.testclient import TestClient  # noqa: E402 - after the audit hook
from pypdf import PdfReader, PdfWriter  # noqa: E402

from lavra.config import load_config  # noqa: E402
from lavra.issuing import Issuer, ensure_dev_pki  # noqa: E402
from lavra.law.coverage import compute_coverage  # noqa: E402
from lavra.web import WebContext, WebSettings, create_app  # noqa: E402

REQ, LIC, AUTO = "requerimento-licenca-taxi", "licenca-taxi", "auto-infracao-taxi"


def pdf_text(pdf: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())


def main() -> dict[str, Any]:
    config = load_config()
    issuer = Issuer.from_config(config)
    engine = issuer.engine
    ensure_dev_pki(config, engine.content)
    out: dict[str, Any] = {"pack": engine.content.pack.name, "root": str(engine.content.root)}

    def example(form_id: str) -> dict[str, Any]:
        path = engine.content.form(form_id).example
        assert path is not None
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return data

    out["check"] = {form: engine.check(form, example(form)).to_json() for form in (REQ, LIC, AUTO)}
    out["check_empty"] = engine.check(LIC, {}).to_json()

    draft = engine.draft(LIC, example(LIC), docx=True)
    out["draft"] = {"text": pdf_text(draft.pdf), "docx": (draft.docx or b"")[:2].decode()}

    partial = example(REQ)
    del partial["veiculo"]["marca_modelo"]
    blank = engine.prefill(REQ, partial)
    out["prefill_text"] = pdf_text(blank)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(blank)))
    fields = sorted(PdfReader(io.BytesIO(blank)).get_fields() or {})
    out["prefill_fields"] = fields
    writer.update_page_form_field_values(
        None, {"veiculo/marca_modelo": "Sedã Digitado 2.0"}, auto_regenerate=False
    )
    typed = io.BytesIO()
    writer.write(typed)
    read = engine.read(typed.getvalue())
    out["read"] = {"form": read.form, "data": read.data, "report": read.report.to_json()}

    on = date(2026, 3, 2)
    licence = issuer.issue(LIC, example(LIC), on)
    first = issuer.issue(AUTO, example(AUTO), on)
    later = example(AUTO)
    later["ocorrencia"]["data"] = "2026-09-01"
    second = issuer.issue(AUTO, later)
    out["issued"] = [
        {"series": r.record.series, "number": r.record.formatted, "form": r.record.form,
         "computed": dict(r.record.computed), "text": pdf_text(r.pdf),
         "code": r.record.verification_code}
        for r in (licence, first, second)
    ]
    out["verify"] = issuer.verify(licence.pdf).to_json()

    coverage = compute_coverage(engine.content.root)
    out["coverage"] = {"totais": coverage.counts(), "ok": coverage.ok,
                       "laws": list(coverage.laws)}

    context = WebContext(config, WebSettings(secret_key="chave-de-teste-" + "0" * 32),
                         issuer=issuer)
    with TestClient(create_app(context)) as client:
        pages = {
            "home": client.get("/"),
            "form": client.get(f"/requerimentos/{REQ}"),
            "verify": client.get(f"/verificar/{licence.record.verification_code}"),
        }
    out["web"] = {name: {"status": r.status_code, "text": r.text} for name, r in pages.items()}
    issuer.close()
    return out


if __name__ == "__main__":
    result = main()
    result["modules"] = sorted(name for name in sys.modules if name.split(".")[0] in
                               ("lavra_americana", "vila_ficticia"))
    result["opened_repo_pack_files"] = OPENED
    print(json.dumps(result, ensure_ascii=False, default=str))
