"""Ending a batch run that cannot finish: the numbering-void act (numeração inutilizada)
and abandoning an item or a whole run (``lavra lote abandonar``).

A plan reserves its numbers; an item that will never be issued is abandoned by staff
with a reason, and each number it held is voided by a recorded act (reason, who, when),
so that the series stays gapless and explained, on SQLite and on PostgreSQL. The run
then finishes and the next input of the same year is planned. The runs are planned and
worked in this process (no worker processes): the tests stay fast.

Holders are the pack's examples one year back (``batchcases``): alvarás of 2025 renewed
for 2026 by a run dated 10/12/2025, so that no test depends on today.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from batchcases import (
    REPO,
    RUN_DAY,
    YEAR,
    cli_env,
    copy_data,
    envelope,
    issuer_over,
    kept_staff_values,
    seed,
    seeded_folder,
    write_jsonl,
)
from click.testing import CliRunner
from sqlalchemy import select

from lavra.batch.model import RunRequest
from lavra.batch.output import summary_rows
from lavra.batch.planning import decide, write_plan
from lavra.batch.runner import find_kind
from lavra.batch.work import work_items
from lavra.checking.content import Content
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import Issuer
from lavra.registry import state
from lavra.registry.abandon import abandon
from lavra.registry.effects import Act, Grant
from lavra.registry.runs import RunRecord, get_run, open_run, run_items
from lavra.registry.tables import BatchItemRow, LicenceRow, PartyRow, VehicleRow

KIND = "renovacao-transporte-escolar"
WHO = "Fulana Servidora"
WHY = "Alvará anterior cassado depois do planejamento da execução."


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


@pytest.fixture(scope="module")
def seeded(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A data folder (SQLite registry, development PKI) with two alvarás of 2025."""
    return seeded_folder(engine, tmp_path_factory.mktemp("semente"), 2)


@pytest.fixture(autouse=True)
def _staff_values_of_the_module(engine: Engine) -> Iterator[None]:
    yield from kept_staff_values(engine)


def _plan(issuer: Issuer, folder: Path, rows: list[Any]) -> RunRecord:
    kind = find_kind(issuer, KIND)
    pedidos = write_jsonl(folder / f"pedidos-{len(rows)}.jsonl", rows)
    request = RunRequest(KIND, {"ano": YEAR}, date.fromisoformat(RUN_DAY), None, pedidos)
    return write_plan(issuer, kind, decide(issuer, kind, request), "teste")


def _numbered(issuer: Issuer, run_id: int, position: int) -> list[tuple[str, int, int]]:
    return [(i.series, i.year, i.number) for i in run_items(issuer.registry, run_id)
            if i.position == position and i.series and i.year and i.number]


def test_abandoning_voids_the_reserved_numbers_and_keeps_the_series_gapless(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path, registry_url: str
) -> None:
    """Holder 1 renewed (alvará and selo), holder 2 notified: abandoned one after the
    other; every number stays explained, a voided number is never an issued act, and
    a second abandon is refused in pt-BR."""
    postgresql = registry_url.startswith("postgresql")
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path),
                         registry_url if postgresql else None)
    registry = issuer.registry
    try:
        numbers = seed(issuer, 2) if postgresql else seeded[1]
        run = _plan(issuer, tmp_path, [envelope(0, numbers[0])])
        first = _numbered(issuer, run.id, 0)
        assert [s for s, _, _ in first] == ["ALV-ESC", "SELO-ESC"]
        series, year, number = first[0]
        assert registry.numbering_gaps() == ()  # the reserved numbers are held by the run
        with pytest.raises(InputError, match=f"reservado na execução em lote nº {run.id}"):
            registry.void_number(series, year, number, reason=WHY, by=WHO)

        abandoned = abandon(registry, run.id, position=0, reason=WHY, by=WHO)
        assert {(i.series, i.year, i.number) for i in abandoned if i.number} == set(first)
        assert all(i.abandoned and "foi inutilizado" in (i.reason or "") for i in abandoned)
        voided = registry.voided(series, year, number)
        assert voided is not None and voided.run_id == run.id and voided.by == WHO
        assert voided.text.startswith("Numeração inutilizada em ")
        assert f"por {WHO}: {WHY}" in voided.text
        formatted = f"{number:04d}/{year}"
        assert registry.by_number(formatted, series=series) is None  # never an issued act
        assert registry.voided_by_number(formatted, series) == voided
        assert registry.numbering_gaps() == ()
        assert open_run(registry, run.key) is not None  # holder 2 still pending
        with pytest.raises(InputError, match="já foi abandonado"):
            abandon(registry, run.id, position=0, reason=WHY, by=WHO)
        with pytest.raises(InputError, match="já foi inutilizado"):
            registry.void_number(series, year, number, reason=WHY, by=WHO)

        rest = abandon(registry, run.id, reason="Execução encerrada pela Secretaria.", by=WHO)
        assert {i.position for i in rest} == {1}
        finished = get_run(registry, run.id)
        assert finished is not None and finished.status == "done"
        assert open_run(registry, run.key) is None
        with pytest.raises(InputError, match="não tem nada pendente"):
            abandon(registry, run.id, reason=WHY, by=WHO)
        with pytest.raises(InputError, match="ainda não foi tomado"):
            registry.void_number(series, year, number + 50, reason=WHY, by=WHO)
        issued = registry.by_number(numbers[0].split(" nº ")[-1], series=series)
        assert issued is not None
        with pytest.raises(InputError, match="cancele o documento"):
            registry.void_number(series, issued.year, issued.number, reason=WHY, by=WHO)
        assert [v.number for v in registry.voided_numbers(run.id)
                if v.series == series] == [number]
        assert registry.numbering_gaps() == ()
    finally:
        issuer.close()


def test_a_failed_item_is_abandoned_the_run_finishes_and_the_next_input_is_planned(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """An item the act refuses after the plan: its reason does not say that nothing was
    numbered; abandoned, its numbers are voided, the run finishes, a done item may not
    be abandoned, and a later request of that year is planned."""
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    registry = issuer.registry
    try:
        numbers = seeded[1]
        run = _plan(issuer, tmp_path, [envelope(0, numbers[0]), envelope(1, numbers[1])])
        with registry.write_session() as session:  # the data the act will refuse
            row = session.query(BatchItemRow).filter_by(
                run_id=run.id, position=0, seq=0).one()
            data = dict(row.data)
            data["titular"] = {**data["titular"], "nome": ""}
            row.data = data
        work_items(issuer, run.id, worker="teste", on=run.reference_date)
        failed = [i for i in run_items(registry, run.id) if i.position == 0]
        assert failed[0].status == "pending" and failed[0].reason
        assert "Nada foi numerado" not in failed[0].reason
        assert f"O número {failed[0].printed} segue reservado" in failed[0].reason
        assert "pode ser abandonado" in failed[0].reason
        assert open_run(registry, run.key) is not None

        abandon(registry, run.id, position=0, reason=WHY, by=WHO)
        assert open_run(registry, run.key) is None  # holder 2 done: the run finished
        rows = [r for r in summary_rows(run_items(registry, run.id)) if r.order == 1]
        assert {r.state for r in rows} == {"abandonado"}
        assert all("inutilizado" in r.reason and WHY in r.reason for r in rows)
        with pytest.raises(InputError, match="já foi concluído"):
            abandon(registry, run.id, position=1, reason=WHY, by=WHO)
        assert registry.numbering_gaps() == ()

        later = _plan(issuer, tmp_path, [envelope(0, numbers[0])])  # not blocked
        assert later.id != run.id
        again = _numbered(issuer, later.id, 0)
        voided = {(v.series, v.year, v.number) for v in registry.voided_numbers(run.id)}
        assert again and not voided & set(again)  # new numbers, after the voided ones
    finally:
        issuer.close()


def test_an_item_refused_at_the_licence_index_fails_naming_the_licence_in_force(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The race of two clerks decided by ``uq_licences_holder_in_force`` while a run
    records (escolar art. 14): holder 2's alvará passes to holder 1 after the check read
    the state (simulated in the record's own transaction). The item fails with the
    refusal naming that alvará, the check's words, not the database's conflict."""
    issuer = issuer_over(engine, copy_data(seeded[0], tmp_path))
    registry = issuer.registry
    numbers = seeded[1]

    def racing(writer: state.StateWriter, act: Act, grant: Grant, holder: PartyRow | None,
               vehicle: VehicleRow | None) -> list[Any]:
        other = writer.session.scalars(
            select(LicenceRow).where(LicenceRow.printed == numbers[1])).one()
        if grant.per_holder and holder is not None and other.holder_id != holder.id:
            writer.session.flush()  # holder 1's alvará renewed first: it leaves its place
            # what the other clerk's act committed meanwhile: an alvará in force to holder 1
            other.holder_id, other.valid_until = holder.id, grant.valid_until
            writer.session.flush()
        return []

    try:
        run = _plan(issuer, tmp_path, [envelope(0, numbers[0]), envelope(1, numbers[1])])
        monkeypatch.setattr(state, "grant_refusals", racing)
        work_items(issuer, run.id, worker="teste", on=run.reference_date)
        failed = [i for i in run_items(registry, run.id) if i.position == 0]
        assert failed[0].status == "pending" and failed[0].reason, failed
        assert f"já é titular de licença em vigor: {numbers[1]}" in failed[0].reason, \
            failed[0].reason
        assert "art. 14" in failed[0].reason and "Conflito" not in failed[0].reason
        with registry.read_session() as session:  # rolled back: holder 2's alvará is still hers
            other = session.scalars(
                select(LicenceRow).where(LicenceRow.printed == numbers[1])).one()
            assert session.get(PartyRow, other.holder_id) is not None
            assert other.holder_id != session.scalars(select(LicenceRow.holder_id).where(
                LicenceRow.printed == numbers[0])).one()
    finally:
        issuer.close()


def test_lote_abandonar_and_verify_of_a_voided_number(
    engine: Engine, seeded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    data = copy_data(seeded[0], tmp_path)
    issuer = issuer_over(engine, data)
    try:
        run = _plan(issuer, tmp_path, [envelope(0, seeded[1][0])])
        series, year, number = _numbered(issuer, run.id, 0)[0]
    finally:
        issuer.close()
    env = {k: v for k, v in cli_env(data).items() if k.startswith("LAVRA_")}
    runner = CliRunner()
    args = ["lote", "abandonar", str(run.id), "--item", "1", "--motivo", WHY,
            "--responsavel", WHO]
    done = runner.invoke(main, args, env=env)
    assert done.exit_code == 0, done.output
    assert f"{series} nº {number:04d}/{year}" in done.output
    assert "número(s) inutilizado(s)" in done.output
    assert f"A execução em lote nº {run.id} segue com itens pendentes." in done.output

    verified = runner.invoke(main, ["verify", "--numero", f"{number:04d}/{year}",
                                    "--serie", series], env=env)
    assert verified.exit_code == 1, verified.output
    assert "não corresponde a documento emitido" in verified.output
    assert "Numeração inutilizada em " in verified.output and WHY in verified.output
    shown = runner.invoke(main, ["cadastro", "mostrar", f"{number:04d}/{year}",
                                 "--serie", series], env=env)
    assert shown.exit_code == 0, shown.output
    assert f"por {WHO}: {WHY}" in shown.output

    again = runner.invoke(main, args, env=env)
    assert again.exit_code == 2
    assert "já foi abandonado" in again.output and "Traceback" not in again.output
    whole = runner.invoke(main, ["lote", "abandonar", str(run.id), "--motivo", WHY,
                                 "--responsavel", WHO], env=env)
    assert whole.exit_code == 0, whole.output
    assert f"A execução em lote nº {run.id} está concluída." in whole.output
