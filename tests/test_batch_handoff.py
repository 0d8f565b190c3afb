"""The worker signs from the plan's check when nothing it rests on changed
(:mod:`lavra.batch.handed_off`), and checks in full, refusing or adapting as before, when
something did: the alvará cancelled, a cassação and its bar, another grant to the same
company, a Secretaria's value, a correction of the item.

The run is planned and worked in this process (as ``lavra batch`` forks its workers after
the plan, which inherit the plan's outcomes). Holders (``batchcases``): two fretamento
alvarás of one company, issued on 10/01/2021; the run, dated 25/11/2025, renews the first
(its request complete) and notifies the second (no request).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from batchcases import (
    FRET_RUN_DAY,
    FRET_UNTIL,
    REPO,
    copy_data,
    fret_envelope,
    fret_seed,
    issuer_over,
    write_jsonl,
)
from issuers import dev_issuer, poppler
from test_licensing_state import cassacao

from lavra.batch import handed_off
from lavra.batch.model import RunRequest
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.batch.work import _incomplete, failure_text, work_items
from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.issuing import IncompleteError, Issuer
from lavra.registry.corrections import Change, correct
from lavra.registry.records import IssuedRecord
from lavra.registry.runs import ItemRecord, run_items

KIND = "renovacao-fretamento"
ALVARA = "alvara-fretamento"
NOTICE = "notificacao-pendencias-renovacao-fretamento"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


@pytest.fixture(scope="module")
def seeded(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    data = tmp_path_factory.mktemp("semente-passagem") / "dados"
    issuer = dev_issuer(engine, data)
    numbers = fret_seed(issuer, 2)
    issuer.close()
    return data, numbers


@pytest.fixture
def issuer(engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path) -> Iterator[Issuer]:
    found = issuer_over(engine, copy_data(seeded[0], tmp_path))
    yield found
    found.close()
    handed_off.forget()


def _planned(issuer: Issuer, numbers: list[str], folder: Path) -> int:
    """The run planned (holder 0 renewed, holder 1 notified); its id."""
    pedidos = write_jsonl(folder / "pedidos.jsonl", [fret_envelope(0, numbers[0])])
    request = RunRequest(KIND, {"vencendo_ate": FRET_UNTIL}, date.fromisoformat(FRET_RUN_DAY),
                         None, pedidos)
    kind = find_kind(issuer, KIND)
    return write_plan(issuer, kind, decide(issuer, kind, request), None).id


def _worked(issuer: Issuer, run_id: int, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Work the run here; the forms the worker checked in full, in order."""
    checked: list[str] = []
    full: Callable[..., Any] = Issuer.prepare

    def counted(self: Issuer, form_id: str, *args: Any, **kwargs: Any) -> Any:
        checked.append(form_id)
        return full(self, form_id, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(Issuer, "prepare", counted)
        work_items(issuer, run_id, worker="teste", on=date.fromisoformat(FRET_RUN_DAY))
    return checked


def _alvara_item(issuer: Issuer, run_id: int) -> ItemRecord:
    return next(i for i in run_items(issuer.registry, run_id) if i.form == ALVARA)


def _renewed(issuer: Issuer, run_id: int) -> IssuedRecord:
    item = _alvara_item(issuer, run_id)
    assert item.status == "done", item.reason
    assert item.printed is not None
    record = issuer.registry.by_number(item.printed.split(" nº ")[-1], series="ALV-FRET")
    assert record is not None
    return record


def _text(pdf: bytes, code: str) -> str:
    """The signed PDF's text (pdftotext), its verification code and the moment of its
    signature (which differ from one signature to the next) set aside."""
    text = poppler(pdf)
    for shown in {code, code.upper(), "-".join(re.findall(".{1,4}", code))}:
        text = text.replace(shown, "CODIGO")
    return re.sub(r"\d{2}/\d{2}/\d{4},? (às )?\d{2}[:h]\d{2}(:\d{2})?", "MOMENTO", text)


def _full_refusal(issuer: Issuer, item: ItemRecord) -> str:
    """The failure a full check of the item gives now (what the worker said before)."""
    report = issuer.prepare(item.form or "", item.data or {},
                            date.fromisoformat(FRET_RUN_DAY)).report
    assert not report.complete
    return failure_text(issuer, _incomplete(issuer, item, IncompleteError(report)))


def test_the_act_signed_from_the_plan_reads_as_one_checked_again(
        seeded: tuple[Path, list[str]], issuer: Issuer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    run = _planned(issuer, seeded[1], tmp_path)
    item = _alvara_item(issuer, run)
    assert item.printed is not None
    # the same act checked in full and signed (not recorded), as before the hand-off
    full = issuer.build_document(ALVARA, item.data or {}, date.fromisoformat(FRET_RUN_DAY),
                                 item.printed, docx=False, reserved=True)
    checked = _worked(issuer, run, monkeypatch)
    # the alvará from the plan; the notice of the same company checked again: the
    # renewal just granted to it is a change of what its check rests on
    assert checked == [NOTICE]
    assert all(i.status == "done" for i in run_items(issuer.registry, run))
    handed = _renewed(issuer, run)
    assert (handed.data, handed.computed, handed.reference_date) == (
        full.data, full.computed, full.reference_date)
    text = _text(issuer.registry.pdf(handed.id), handed.verification_code)
    assert item.printed.split(" nº ")[-1] in text and "CODIGO" in text
    assert text == _text(full.pdf, full.verification_code)


def _cancelled(issuer: Issuer, numbers: list[str]) -> None:
    issuer.cancel(numbers[0].split(" nº ")[-1], "Erro material", "Chefia", series="ALV-FRET")


def _cassated(issuer: Issuer, numbers: list[str]) -> None:
    """The company's other alvará cassated: the company barred (art. 22)."""
    other = issuer.registry.by_number(numbers[1].split(" nº ")[-1], series="ALV-FRET")
    assert other is not None
    cassacao(issuer.registry, other, on=date(2025, 11, 24))
    assert issuer.registry.bars_of(other.cpf_cnpj or "", date(2025, 11, 25))


@pytest.mark.parametrize("change", [_cancelled, _cassated], ids=["cancelado", "cassacao"])
def test_a_change_of_the_state_is_checked_again_and_refused_as_before(
        seeded: tuple[Path, list[str]], issuer: Issuer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, change: Callable[[Issuer, list[str]], None]) -> None:
    numbers = seeded[1]
    run = _planned(issuer, numbers, tmp_path)
    change(issuer, numbers)
    assert ALVARA in _worked(issuer, run, monkeypatch)
    item = _alvara_item(issuer, run)
    assert item.status == "pending"
    assert item.reason == _full_refusal(issuer, item)


def test_a_value_of_the_secretaria_registered_since_the_plan_is_checked_again(
        seeded: tuple[Path, list[str]], issuer: Issuer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    run = _planned(issuer, seeded[1], tmp_path)
    issuer.registry.add_staff_day("08/12/2025", "feriado", "Dia da Padroeira",
                                  act="Decreto nº 12.345, de 10 de outubro de 2025", by="Ana")
    assert _worked(issuer, run, monkeypatch) == [ALVARA, NOTICE]
    _renewed(issuer, run)


def test_a_corrected_item_is_checked_again_and_signed_as_corrected(
        seeded: tuple[Path, list[str]], issuer: Issuer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    run = _planned(issuer, seeded[1], tmp_path)
    item = _alvara_item(issuer, run)
    correct(issuer.registry, item.id, [Change("/processo/numero", "PA 999/2025")], by="Ana")
    assert _worked(issuer, run, monkeypatch)[0] == ALVARA
    assert _renewed(issuer, run).data["processo"]["numero"] == "PA 999/2025"


def test_on_postgresql_the_plan_is_handed_over_and_a_cancellation_seen(
        engine: Engine, postgres_url: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    issuer = issuer_over(engine, tmp_path / "dados", url=postgres_url)
    try:
        numbers = fret_seed(issuer, 2)
        run = _planned(issuer, numbers, tmp_path)
        item = _alvara_item(issuer, run)
        day = date.fromisoformat(FRET_RUN_DAY)
        # the item as the registry keeps it finds the plan's check, nothing changed
        assert handed_off.prepared_by_plan(issuer, ALVARA, item.data or {}, day) is not None
        issuer.cancel(numbers[0].split(" nº ")[-1], "Erro material", "Chefia",
                      series="ALV-FRET")
        assert handed_off.prepared_by_plan(issuer, ALVARA, item.data or {}, day) is None
        assert ALVARA in _worked(issuer, run, monkeypatch)
        item = _alvara_item(issuer, run)
        assert item.status == "pending" and item.reason == _full_refusal(issuer, item)
    finally:
        issuer.close()
        handed_off.forget()
