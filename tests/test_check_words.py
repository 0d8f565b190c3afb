"""The words a check writes for every document, kept per process, are the words it wrote
before: a report's requirement items (the same for every document of a form: kept per
property of the schema), the weekday and month names of the deadlines it counts (kept
per weekday and month) and the citations it resolves (kept per citation and law),
compared with the former computation on many inputs."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from babel.dates import format_date as babel_date

from lavra.checking import report
from lavra.checking.report import Item, Report, Status, _awaiting, _document_missing, build_report
from lavra.documents import Engine
from lavra.errors import CitationError
from lavra.inputs import pointers
from lavra.inputs.schemas.fields import FieldInfo
from lavra.inputs.schemas.validation import SchemaIssue, validate
from lavra.law import model
from lavra.law.model import resolve
from lavra.textutil import month_name, weekday_name

_ABSENT = object()


def _former_item(info: FieldInfo, pointer: str, issues: Sequence[SchemaIssue],
                 data: Mapping[str, Any], titles: Mapping[str, str] | None = None) -> Item:
    """``report._requirement_item`` as written before its words were kept."""
    label = info.title or pointers.dotted(pointer)
    ident = pointers.dotted(pointer)
    basis = tuple(info.basis)
    if any(i.keyword == "required" and i.pointer == pointer for i in issues) or (
        info.document and any(_document_missing(i, pointer) for i in issues)
    ):
        prefix = "Documento não apresentado" if info.document else "Não informado"
        return Item(ident, Status.MISSING, pointer, f"{prefix}: {label}.", basis)
    if issues:
        return Item(ident, Status.INVALID, pointer,
                    " ".join(dict.fromkeys(i.message for i in issues)), basis)
    if pointers.get(data, pointer, _ABSENT) is _ABSENT:
        awaiting = _awaiting(info, pointer, data, titles or {})
        if awaiting is None:
            return Item(ident, Status.NOT_APPLICABLE, pointer, f"Não se aplica: {label}.", basis)
        when = info.required_when or ""
        message = (f"Depende da resposta a {awaiting}: {label} (exigido "
                   f"{when if when.startswith('quando') else 'quando ' + when}).")
        return Item(ident, Status.NOT_APPLICABLE, pointer, message, basis, awaiting)
    prefix = "Apresentado" if info.document else "Atendido"
    return Item(ident, Status.MET, pointer, f"{prefix}: {label}.", basis)


def _variants(example: dict[str, Any]) -> list[dict[str, Any]]:
    """The example, the empty form, and the example without each of its top-level
    answers (a party, the documents, ...) and without half of its documents."""
    found: list[dict[str, Any]] = [example, {}]
    found.extend({k: v for k, v in example.items() if k != key} for key in example)
    documents = example.get("documentos")
    if isinstance(documents, dict):
        found.append({**example, "documentos": dict(list(documents.items())[::2])})
    return found


def test_every_form_reports_as_before_on_many_answers(
    engine: Engine, pack_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = []
    for form_id, form in engine.content.forms.items():
        example_file = pack_dir / "forms" / form_id / "exemplo.json"
        if example_file.exists():
            fields = engine.content.fields(form)
            for data in _variants(json.loads(example_file.read_text("utf-8"))):
                issues = validate(engine.content.registry, form.schema_id, data)
                cases.append((form_id, data, fields, issues))

    def reports() -> list[Report]:
        return [build_report(form_id, date(2026, 3, 2), data, fields, issues)
                for form_id, data, fields, issues in cases]

    kept = reports()
    monkeypatch.setattr(report, "_requirement_item", _former_item)
    assert kept == reports()
    statuses = [(item.status, item.awaiting is None) for r in kept for item in r.items]
    assert len(statuses) > 2000 and len(set(statuses)) == 5  # every status, many forms


def test_a_kept_item_does_not_carry_one_document_into_the_next() -> None:
    info = FieldInfo("/documentos/crlv", "CRLV do veículo", None, ("lei#art7",), True, None,
                     {}, True)
    missing = SchemaIssue("/documentos/crlv", "required", "Falta.", "/required")
    given = {"documentos": {"crlv": {"apresentado": True}}}
    for _ in range(2):  # the second pass reads the kept words
        met, = build_report("f", date(2026, 1, 5), given, [info], ()).items
        absent, = build_report("f", date(2026, 1, 5), {}, [info], ()).items
        lacking, = build_report("f", date(2026, 1, 5), {}, [info], (missing,)).items
        assert (met.status, met.message) == (Status.MET, "Apresentado: CRLV do veículo.")
        assert (absent.status, absent.message) == (
            Status.NOT_APPLICABLE, "Não se aplica: CRLV do veículo.")
        assert (lacking.status, lacking.message) == (
            Status.MISSING, "Documento não apresentado: CRLV do veículo.")
        assert met.basis == absent.basis == lacking.basis == ("lei#art7",)


@pytest.mark.parametrize("year", [2024, 2025, 2026, 2027])
def test_weekday_and_month_names_are_babels_for_every_day(year: int) -> None:
    day = date(year, 1, 1)
    while day.year == year:
        assert weekday_name(day) == babel_date(day, "EEEE", locale="pt_BR")
        assert month_name(day) == babel_date(day, "MMMM", locale="pt_BR")
        day += timedelta(days=1)
    assert weekday_name(date(2026, 2, 17)) == "terça-feira"
    assert month_name(date(2026, 3, 1)) == "março"


def test_a_kept_citation_is_the_one_resolved_afresh(engine: Engine) -> None:
    laws = engine.content.laws
    cited = [f"{law.id}#{frag}" for law in laws.values() for frag in law.fragments]
    warm = [resolve(laws, c) for c in cited]
    assert [resolve(laws, c) for c in cited] == warm  # read from what was kept
    fresh = []
    for citation in cited:
        model._RESOLVED.clear()
        fresh.append(resolve(laws, citation))
    assert fresh == warm and len(warm) > 250
    # another law under the same id (another pack, a law edited): resolved again
    law = next(each for each in laws.values() if each.fragments)
    renamed = replace(law, number="9999")
    other = {**laws, law.id: renamed}
    first = next(c for c in cited if c.startswith(law.id + "#"))
    assert resolve(other, first).law is renamed and "9999" in resolve(other, first).short
    assert resolve(laws, first).law is law and "9999" not in resolve(laws, first).short
    with pytest.raises(CitationError, match="não consta"):
        resolve({}, first)
