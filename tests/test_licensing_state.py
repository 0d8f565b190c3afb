"""The licensing state: each act's effects, declared by the pack, change the registry's
view of licences in the act's own transaction; the view is rebuilt from the acts and
compared; cancelling undoes an act's effects or is refused while a later act rests on
them. Over SQLite and PostgreSQL, with real acts' data (the pack's examples)."""

from __future__ import annotations

import copy
import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from issuers import state_registry
from registrycases import pdf_with_title
from sqlalchemy import text, update
from test_cadastro_import import load

from lavra.errors import InputError
from lavra.registry.records import Built, IssuedRecord, search_keys
from lavra.registry.store import Registry, open_registry
from lavra.registry.tables import DocumentRow, EventRow
from lavra.signing.verification import new_code
from lavra_americana import pacote

FORMS = Path(__file__).resolve().parent.parent / "forms"


def example(form: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FORMS / form / "exemplo.json").read_text("utf-8"))
    return data


def act(registry: Registry, series: str, form: str, data: dict[str, Any], *,
        on: date, computed: dict[str, Any] | None = None) -> IssuedRecord:
    def build(number: int, formatted: str) -> Built:
        holder, plate = search_keys(data)
        return Built(
            pdf=pdf_with_title(f"{series} {formatted}"), docx=None, data=data,
            computed={"numero": formatted, **(computed or {})}, reference_date=on,
            verification_code=new_code(),  # a real code: `lavra verify --code` reads it
            signer_subject="CN=Servidor de Teste", signer_serial="0A",
            pack_version="teste", cpf_cnpj=holder, placa=plate,
        )
    return registry.issue(series, on.year, form, build)


@pytest.fixture
def registry(registry_url: str) -> Any:
    yield from state_registry(registry_url)


def alvara_fretamento(registry: Registry, *, on: date = date(2026, 3, 2),
                      until: date = date(2031, 3, 1), **processo: Any) -> IssuedRecord:
    data = example("alvara-fretamento")
    data["processo"].update(processo)
    return act(registry, "ALV-FRET", "alvara-fretamento", data, on=on,
               computed={"inicio_vigencia": on.isoformat(), "valido_ate": until.isoformat()})


def cassacao(registry: Registry, alvara: IssuedRecord, *, on: date) -> IssuedRecord:
    data = example("decisao-cassacao-fretamento")
    data["alvaras"] = [{"numero": alvara.printed, "placa": "ABC1D23"}]
    return act(registry, "CAS-FRET", "decisao-cassacao-fretamento", data, on=on,
               computed={"impedimento": {"ultimo_dia": "2027-04-20"}})


def test_an_alvara_is_a_licence_in_force_for_its_vehicle(registry: Registry) -> None:
    alvara = alvara_fretamento(registry)
    found = registry.licences_in_force("alvara-fretamento", date(2026, 6, 1), placa="ABC-1D23")
    assert [r.printed for r in found] == [alvara.printed]
    assert registry.licences_in_force("alvara-fretamento", date(2026, 6, 1), placa="XYZ1A23") == ()
    assert registry.licences_in_force("alvara-fretamento", date(2026, 3, 1)) == ()
    assert registry.licences_in_force("alvara-fretamento", date(2031, 3, 2)) == ()
    view = registry.licence_of(alvara.id)
    assert view is not None
    assert view.describe(date(2026, 6, 1)) == "em vigor"
    assert view.describe(date(2031, 3, 2)) == "vencido em 01/03/2031"
    assert view.holder == "65563842000105" and view.placa == "ABC1D23"


def test_a_cassacao_ends_the_alvara_and_bars_the_company(registry: Registry) -> None:
    alvara = alvara_fretamento(registry)
    decision = cassacao(registry, alvara, on=date(2026, 4, 20))
    assert registry.licences_in_force("alvara-fretamento", date(2026, 5, 1)) == ()
    view = registry.licence_of(alvara.id)
    assert view is not None
    assert view.describe(date(2026, 5, 1)) == (
        f"cassado em 20/04/2026 pelo {decision.printed}")
    timeline = list(registry.state_changes(holder="65.563.842/0001-05"))
    texts = [detail for _, _, detail in timeline]
    assert any("cassado" in t for t in texts)
    assert any("Impedimento até 20/04/2027" in t for t in texts)
    assert registry.rebuild_state(apply=False).same


def test_cancelling_undoes_the_effects_or_is_refused_while_a_later_act_rests_on_them(
    registry: Registry,
) -> None:
    alvara = alvara_fretamento(registry)
    decision = cassacao(registry, alvara, on=date(2026, 4, 20))
    with pytest.raises(InputError) as refused:
        registry.cancel(alvara.series, alvara.year, alvara.number, reason="erro", by="Chefia")
    assert "CAS-FRET nº" in refused.value.message
    assert registry.get(alvara.series, alvara.year, alvara.number).status.value == "issued"  # type: ignore[union-attr]
    registry.cancel(decision.series, decision.year, decision.number, reason="erro material",
                    by="Chefia")
    view = registry.licence_of(alvara.id)
    assert view is not None and view.status == "active"
    assert [r.id for r in registry.licences_in_force("alvara-fretamento", date(2026, 5, 1))] \
        == [alvara.id]
    assert not any("Impedimento" in d for _, _, d in
                   registry.state_changes(holder="65563842000105"))
    assert registry.rebuild_state(apply=False).same
    registry.cancel(alvara.series, alvara.year, alvara.number, reason="erro", by="Chefia")
    assert registry.licence_of(alvara.id) is None
    assert registry.rebuild_state(apply=False).same


def renewed_and_renewal(registry: Registry, series: str, origin: str,
                        ) -> tuple[str, IssuedRecord, date, date]:
    """The old alvará (issued by lavra, or the sample's import) and the one that renews
    it, a few weeks before its last day, valid from the next day; a day after the
    renewal, and the old alvará's last day."""
    if series == "ALV-FRET":
        if origin == "importado":
            load(registry)  # ALV-FRET nº 0031/2024, FRE1A11, until 09/02/2029
            old, last, on = "ALV-FRET nº 0031/2024", date(2029, 2, 9), date(2029, 1, 20)
        else:
            old, last, on = alvara_fretamento(registry, on=date(2021, 3, 2),
                                              until=date(2026, 3, 1)).printed, \
                date(2026, 3, 1), date(2026, 2, 20)
        data = example("alvara-fretamento")
        data["veiculo"]["placa"] = "FRE1A11" if origin == "importado" else "ABC1D23"
        data["processo"].update(renovacao=True, alvara_anterior=old,
                                vencimento_alvara_anterior=last.isoformat())
        until = on.replace(year=on.year + 5)
    else:
        data = example("alvara-transporte-escolar")
        if origin == "importado":
            load(registry)  # ALV-ESC nº 0018/2023 of José, ESC4D44, until 31/12/2027
            old, last, on = "ALV-ESC nº 0018/2023", date(2027, 12, 31), date(2027, 12, 6)
            data["veiculo"]["placa"] = "ESC4D44"
        else:
            old = act(registry, "ALV-ESC", "alvara-transporte-escolar", data,
                      on=date(2026, 3, 10), computed={"inicio_vigencia": "2026-03-10",
                                                      "valido_ate": "2026-12-31"}).printed
            last, on = date(2026, 12, 31), date(2026, 12, 7)
        data = copy.deepcopy(data)
        data.update(modalidade="renovacao", alvara_anterior={"numero": old})
        until = date(on.year + 1, 12, 31)
    form = "alvara-fretamento" if series == "ALV-FRET" else "alvara-transporte-escolar"
    new = act(registry, series, form, data, on=on, computed={
        "inicio_vigencia": (last + timedelta(days=1)).isoformat(),
        "valido_ate": until.isoformat()})
    return old, new, on + timedelta(days=5), last


@pytest.mark.parametrize("origin", ["novo", "importado"])
@pytest.mark.parametrize("series", ["ALV-FRET", "ALV-ESC"])
def test_a_renewal_marks_the_old_alvara_renewed_which_stays_valid_to_its_last_day(
    registry: Registry, series: str, origin: str,
) -> None:
    """Fretamento art. 8º and escolar art. 13: the renewal makes the old alvará
    "renovado pelo …", in force to its own last day, and out of the renewal run's
    question; an imported alvará is renewed alike."""
    old, new, on, last = renewed_and_renewal(registry, series, origin)
    record = registry.by_number(old.split()[-1], series=series)
    assert record is not None
    view = registry.licence_of(record.id)
    assert view is not None
    assert view.describe(on) == f"renovado pelo {new.printed}"
    form = new.form
    for day, holding in ((on, old), (last, old), (last + timedelta(days=1), new.printed)):
        in_force = registry.licences_in_force(form, day, placa=view.placa)
        assert [r.printed for r in in_force] == [holding], day
    # the renewal run's question: in force, not yet renewed, expiring by a date
    assert [r.printed for r in registry.licences(
        form, on=on, placa=view.placa, expiring=(on, date(on.year + 1, 1, 31)))] == []
    assert f"{new.printed}: {old} renovado pelo {new.printed}." in [
        f"{printed}: {detail}" for _, printed, detail in registry.state_changes(placa=view.placa)]
    assert registry.rebuild_state(apply=False).same


def test_accessories_end_with_their_alvara(registry: Registry) -> None:
    data = example("alvara-transporte-escolar")
    alvara = act(registry, "ALV-ESC", "alvara-transporte-escolar", data, on=date(2026, 3, 10),
                 computed={"inicio_vigencia": "2026-03-10", "valido_ate": "2026-12-31"})
    selo_data = example("selo-identificacao")
    selo_data["alvara"]["numero"] = alvara.printed
    selo = act(registry, "SELO-ESC", "selo-identificacao", selo_data, on=date(2026, 3, 10),
               computed={"inicio_vigencia": "2026-03-10", "valido_ate": "2026-12-31"})
    assert [r.id for r in registry.licences_in_force(
        "selo-identificacao", date(2026, 4, 1), placa="EXE1A23")] == [selo.id]
    revocation = example("decisao-revogacao-alvara")
    revocation["alvara"]["numero"] = alvara.printed
    decision = act(registry, "REV-ESC", "decisao-revogacao-alvara", revocation,
                   on=date(2026, 7, 1))
    assert registry.licences_in_force("selo-identificacao", date(2026, 7, 2)) == ()
    view = registry.licence_of(selo.id)
    assert view is not None and view.describe(date(2026, 7, 2)) == (
        f"encerrado em 01/07/2026 pelo {decision.printed}")
    with pytest.raises(InputError, match="REV-ESC"):
        registry.cancel(alvara.series, alvara.year, alvara.number, reason="x", by="Chefia")
    registry.cancel(decision.series, decision.year, decision.number, reason="x", by="Chefia")
    assert [r.id for r in registry.licences_in_force("selo-identificacao", date(2026, 7, 2))] \
        == [selo.id]
    with pytest.raises(InputError, match="SELO-ESC"):  # the selo rests on it
        registry.cancel(alvara.series, alvara.year, alvara.number, reason="x", by="Chefia")


def test_a_party_keeps_every_name_it_was_registered_under(registry: Registry) -> None:
    alvara_fretamento(registry)
    data = example("alvara-fretamento")
    data["empresa"]["razao_social"] = "Viação Exemplo Renomeada Ltda."
    data["veiculo"].update(placa="DEF4G56", renavam="92134546140")
    act(registry, "ALV-FRET", "alvara-fretamento", data, on=date(2026, 5, 2),
        computed={"valido_ate": "2031-05-01"})
    with registry.engine.connect() as connection:
        names = connection.execute(text(
            "SELECT n.name FROM party_names n JOIN parties p ON p.id = n.party_id "
            "WHERE p.doc = '65563842000105' ORDER BY n.id")).scalars().all()
        current = connection.execute(text(
            "SELECT name FROM parties WHERE doc = '65563842000105'")).scalar_one()
    assert names == ["Viação Exemplo de Fretamento Ltda.", "Viação Exemplo Renomeada Ltda."]
    assert current == "Viação Exemplo Renomeada Ltda."


def test_the_view_is_rebuilt_from_the_acts_and_differences_are_reported(
    registry: Registry,
) -> None:
    alvara = alvara_fretamento(registry)
    cassacao(registry, alvara, on=date(2026, 4, 20))
    with registry.engine.begin() as connection:
        connection.execute(text("UPDATE licences SET status = 'active'"))
        connection.execute(text("DELETE FROM bars"))
    diff = registry.rebuild_state(apply=False)
    assert not diff.same and diff.acts == 2
    assert any("situação em vigor" in line for line in diff.only_stored)
    assert any("situação cassado" in line for line in diff.only_rebuilt)
    assert any(line.startswith("impedimento") for line in diff.only_rebuilt)
    assert not registry.rebuild_state(apply=False).same  # a dry run writes nothing
    registry.rebuild_state(apply=True)
    assert registry.rebuild_state(apply=False).same
    assert registry.licences_in_force("alvara-fretamento", date(2026, 5, 1)) == ()


def test_a_registry_from_before_the_state_gets_it_built_from_its_documents(
    registry_url: str,
) -> None:
    older = open_registry(registry_url)  # no pack effects: as before revision 0006
    try:
        data = example("alvara-fretamento")
        alvara = act(older, "ALV-FRET", "alvara-fretamento", copy.deepcopy(data),
                     on=date(2026, 3, 2), computed={"valido_ate": "2031-03-01"})
        assert older.licence_of(alvara.id) is None
    finally:
        older.close()
    reopened = open_registry(registry_url)
    try:
        reopened.use_effects(pacote().effects)
        reopened.ensure_state()
        view = reopened.licence_of(alvara.id)
        assert view is not None and view.status == "active"
        assert reopened.rebuild_state(apply=False).same
    finally:
        reopened.close()


def cassated_registry(tmp_path: Path, signed: datetime | None = None,
                      ) -> tuple[str, IssuedRecord, IssuedRecord]:
    """A SQLite registry with an ALV-FRET (02/03/2026) cassated on 20/04/2026; its url,
    the alvará and the cassação (issued at ``signed`` when given)."""
    url = f"sqlite:///{tmp_path / 'registro.sqlite3'}"
    opened = open_registry(url)
    opened.use_effects(pacote().effects)
    opened.ensure_state()
    try:
        alvara = alvara_fretamento(opened, on=date(2026, 3, 2), until=date(2031, 3, 1))
        decision = cassacao(opened, alvara, on=date(2026, 4, 20))
        if signed is not None:
            with opened.engine.begin() as connection:
                connection.execute(update(DocumentRow).where(DocumentRow.id == decision.id)
                                   .values(issued_at=signed.astimezone(UTC)))
                connection.execute(update(EventRow).where(EventRow.document_id == decision.id)
                                   .values(at=signed.astimezone(UTC)))
    finally:
        opened.close()
    return url, alvara, decision


def test_cadastro_commands_show_the_status_and_rebuild(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from lavra.cli.main import main

    url, alvara, decision = cassated_registry(tmp_path)
    runner = CliRunner()
    shown = runner.invoke(main, ["cadastro", "mostrar", "ABC1D23", "--registro", url])
    assert shown.exit_code == 0, shown.output
    assert f"{alvara.printed} (Viação Exemplo de Fretamento Ltda., válido até 01/03/2031): " \
           f"cassado em 20/04/2026 pelo {decision.printed}." in shown.output
    party = runner.invoke(main, ["cadastro", "mostrar", "65.563.842/0001-05", "--registro", url])
    assert "Impedimento até 20/04/2027" in party.output and "Histórico:" in party.output
    checked = runner.invoke(main, ["cadastro", "reconstruir", "--apenas-verificar",
                                   "--registro", url])
    assert checked.exit_code == 0, checked.output
    assert "confere" in checked.output and "Atos percorridos: 2." in checked.output
    unknown = runner.invoke(main, ["cadastro", "mostrar", "0099/2026", "--registro", url])
    assert unknown.exit_code != 0 and "Nada consta" in unknown.output


def test_an_unknown_holder_has_no_timeline(registry: Registry) -> None:
    alvara_fretamento(registry)
    assert list(registry.state_changes(holder="111.444.777-35")) == []
    assert registry.timeline(holder="111.444.777-35") == ()
