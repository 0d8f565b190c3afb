"""The effects issue 22 left to the demo chains, each with a test of its own, over a
fresh registry and over one built by ``lavra cadastro importar`` (the sample file):
recolhimento and devolução (fretamento art. 21, §§ 2º and 4º), vacância (escolar
art. 13), the accessories ended with the alvará they rest on (selo, auxiliary's alvará,
publicity, third party's vehicle), RENAVAM and CNH identities, and the reversal of an
imported cassação. Every date is passed explicitly."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from issuers import state_registry
from test_cadastro_import import load
from test_licensing_reversal import cancel_later_first, decide
from test_licensing_state import act, alvara_fretamento, example

from lavra.checking.content import Content
from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import RegistryHistory
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry

ON = date(2026, 4, 6)


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    yield from state_registry(registry_url)


SQLITE_ONLY = pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)


def timeline(registry: Registry, **who: str) -> list[str]:
    return [f"{printed}: {detail}" for _, printed, detail in registry.state_changes(**who)]


def status(registry: Registry, printed: str, on: date) -> str:
    record = registry.by_number(printed.split()[-1], series=printed.split()[0])
    assert record is not None, printed
    view = registry.licence_of(record.id)
    assert view is not None, printed
    return view.describe(on)


def fretamento_alvara(registry: Registry, origin: str) -> tuple[str, str]:
    """An ALV-FRET of the company 65.563.842/0001-05: issued, or the sample's import."""
    if origin == "importado":
        load(registry)
        return "ALV-FRET nº 0031/2024", "FRE1A11"
    return alvara_fretamento(registry).printed, "ABC1D23"


def third_party(registry: Registry, alvara: str, on: date) -> IssuedRecord:
    data = example("autorizacao-veiculo-terceiro")
    data["empresa"]["alvara"]["numero"] = alvara
    return act(registry, "AVT-FRET", "autorizacao-veiculo-terceiro", data, on=on,
               computed={"valido_ate": "2027-02-28"})


@pytest.mark.parametrize("origin", ["novo", "importado"])
def test_a_recalled_alvara_and_its_third_party_vehicle_come_back_with_the_devolucao(
    registry: Registry, origin: str,
) -> None:
    """Fretamento art. 21, § 2º: the recibo recalls the alvará, and the authorisation of a
    third party's vehicle that rests on it (art. 10, § 3º) ends with it; § 4º: the termo
    de devolução gives both back. Cancelling the devolução recalls them again; the
    recibo cannot be cancelled while the devolução rests on it."""
    alvara, placa = fretamento_alvara(registry, origin)
    avt = third_party(registry, alvara, date(2026, 4, 1))
    receipt = example("recibo-recolhimento-alvara")
    receipt["alvara"]["numero"] = alvara
    receipt["veiculo"]["placa"] = placa
    recalled = act(registry, "REC-ALV-FRET", "recibo-recolhimento-alvara", receipt, on=ON)
    assert status(registry, alvara, ON) == f"recolhido em 06/04/2026 pelo {recalled.printed}"
    assert status(registry, avt.printed, ON) == f"encerrado em 06/04/2026 pelo {recalled.printed}"
    assert registry.licences_in_force("alvara-fretamento", ON, placa=placa) == ()
    lines = timeline(registry, placa=placa)
    assert f"{recalled.printed}: {alvara} recolhido pelo {recalled.printed}." in lines
    assert registry.rebuild_state(apply=False).same

    back = example("termo-devolucao-alvara")
    back["recibo"]["numero"] = recalled.printed
    back["alvara"]["numero"] = alvara
    back["veiculo"]["placa"] = placa
    returned = act(registry, "DEV-ALV-FRET", "termo-devolucao-alvara", back,
                   on=date(2026, 4, 7))
    assert status(registry, alvara, date(2026, 4, 8)) == "em vigor"
    assert status(registry, avt.printed, date(2026, 4, 8)) == "em vigor"
    assert [r.printed for r in registry.licences_in_force(
        "alvara-fretamento", date(2026, 4, 8), placa=placa)] == [alvara]
    lines = timeline(registry, placa=placa)
    assert f"{returned.printed}: {alvara} devolvido pelo {returned.printed}." in lines
    assert registry.rebuild_state(apply=False).same

    cancel_later_first(registry, recalled, returned)
    assert status(registry, alvara, date(2026, 4, 8)).startswith("recolhido em 06/04/2026")
    assert status(registry, avt.printed, date(2026, 4, 8)).startswith("encerrado")
    assert registry.rebuild_state(apply=False).same


def school_alvara(registry: Registry, origin: str) -> tuple[str, str, str]:
    """An ALV-ESC of José (529.982.247-25): issued (EXE1A23) or imported (ESC4D44);
    its number, its plate and its RENAVAM."""
    if origin == "importado":
        load(registry)
        return "ALV-ESC nº 0018/2023", "ESC4D44", ""
    data = example("alvara-transporte-escolar")
    issued = act(registry, "ALV-ESC", "alvara-transporte-escolar", data, on=date(2026, 3, 10),
                 computed={"inicio_vigencia": "2026-03-10", "valido_ate": "2026-12-31"})
    return issued.printed, data["veiculo"]["placa"], data["veiculo"]["renavam"]


def accessories(registry: Registry, alvara: str, placa: str, renavam: str) -> list[str]:
    """The selo (art. 3º, § 2º), the auxiliary's alvará (art. 9º) and the publicity
    authorisation (art. 18) on ``alvara``."""
    made = []
    for series, form, pointer in (("SELO-ESC", "selo-identificacao", "alvara"),
                                  ("APE-ESC", "autorizacao-publicidade-escolar", "alvara"),
                                  ("ALV-AUX", "alvara-condutor-auxiliar", "alvara_titular")):
        data = example(form)
        data[pointer]["numero"] = alvara
        data["veiculo"].update(placa=placa, renavam=renavam)
        made.append(act(registry, series, form, data, on=date(2026, 3, 16),
                        computed={"valido_ate": "2026-12-31"}).printed)
    return made


@pytest.mark.parametrize("origin", ["novo", "importado"])
def test_a_vacancia_ends_the_school_alvara_and_everything_resting_on_it(
    registry: Registry, origin: str,
) -> None:
    """Escolar art. 13: the declaration of vacância vacates the alvará; the selo, the
    auxiliary's alvará and the publicity authorisation end with it; the vehicle and the
    person are free for another licence; cancelling the declaration restores all."""
    alvara, placa, renavam = school_alvara(registry, origin)
    resting = accessories(registry, alvara, placa, renavam)
    declared = example("declaracao-vacancia")
    declared["alvara"]["numero"] = alvara
    declared["veiculo"].update(placa=placa, renavam=renavam)
    vacated = act(registry, "DV-ESC", "declaracao-vacancia", declared, on=date(2026, 5, 4))
    on = date(2026, 5, 5)
    assert status(registry, alvara, on) == f"vago em 04/05/2026 pelo {vacated.printed}"
    for printed in resting:
        assert status(registry, printed, on) == f"encerrado em 04/05/2026 pelo {vacated.printed}"
    lines = timeline(registry, placa=placa)
    assert f"{vacated.printed}: {alvara} vago pelo {vacated.printed}." in lines
    assert all(f"{vacated.printed}: {p} encerrado com o {alvara}." in lines for p in resting)
    assert registry.licences_in_force("alvara-transporte-escolar", on,
                                      holder="529.982.247-25") == ()
    assert registry.rebuild_state(apply=False).same

    registry.cancel(vacated.series, vacated.year, vacated.number, reason="erro material",
                    by="Chefia")
    assert status(registry, alvara, on) == "em vigor"
    assert all(status(registry, p, on) == "em vigor" for p in resting)
    assert registry.rebuild_state(apply=False).same


@SQLITE_ONLY
def test_a_revogacao_of_an_imported_alvara_ends_its_accessories(registry: Registry) -> None:
    """Escolar art. 23, III: the REV-ESC of an imported alvará ends what rests on it."""
    alvara, placa, _ = school_alvara(registry, "importado")
    resting = accessories(registry, alvara, placa, "")
    revoke = example("decisao-revogacao-alvara")
    revoke["alvara"] = {**revoke.get("alvara", {}), "numero": alvara}
    rev = act(registry, "REV-ESC", "decisao-revogacao-alvara", revoke, on=date(2026, 5, 4))
    on = date(2026, 5, 5)
    assert status(registry, alvara, on) == f"revogado em 04/05/2026 pelo {rev.printed}"
    assert all(status(registry, p, on).startswith("encerrado em 04/05/2026") for p in resting)
    assert registry.rebuild_state(apply=False).same


def test_renavam_and_cnh_identities_hold_against_the_imported_cadastro(
    registry: Registry,
) -> None:
    """One vehicle, one RENAVAM; one CNH, one person: over the sample's import
    (FRE1A11 with RENAVAM 80549125947; José's CNH 85263635330)."""
    load(registry)
    stolen = example("alvara-transporte-escolar")
    stolen["veiculo"]["renavam"] = "80549125947"  # FRE1A11's, on EXE1A23
    stolen["titular"].update(cpf="111.444.777-35", nome="Outra Pessoa")
    stolen["titular"]["cnh"]["numero"] = "29171500766"
    with pytest.raises(InputError) as refused:
        act(registry, "ALV-ESC", "alvara-transporte-escolar", stolen, on=date(2026, 3, 10),
            computed={"valido_ate": "2026-12-31"})
    assert "O RENAVAM 80549125947 consta do cadastro no veículo de placa FRE1A11" \
        in refused.value.message
    assert refused.value.field == "/veiculo/renavam"
    borrowed = example("alvara-transporte-escolar")
    borrowed["veiculo"].update(placa="EXE9Z99", renavam="02261642487")
    borrowed["titular"].update(cpf="111.444.777-35", nome="Outra Pessoa")
    borrowed["titular"]["cnh"]["numero"] = "85263635330"  # José's, imported
    with pytest.raises(InputError) as refused:
        act(registry, "ALV-ESC", "alvara-transporte-escolar", borrowed, on=date(2026, 3, 10),
            computed={"valido_ate": "2026-12-31"})
    assert "A CNH nº 85263635330 consta do cadastro em nome de José Exemplo dos Santos" \
        in refused.value.message
    assert registry.next_number("ALV-ESC", 2026) == 1  # nothing numbered nor recorded
    assert registry.rebuild_state(apply=False).same


@SQLITE_ONLY
def test_a_granted_appeal_against_an_imported_cassacao_restores_the_alvara(
    registry: Registry,
) -> None:
    """Fretamento art. 24 over the import: the Prefeito grants the appeal against the
    CAS-FRET imported from before lavra; its alvará comes back and the bar is lifted."""
    load(registry)
    cas = registry.get("CAS-FRET", 2025, 2)
    assert cas is not None
    cassated, company = "ALV-FRET nº 0032/2024", "49.234.427/0416-80"
    decision = decide(registry, cas, "provido")
    on = date(2026, 5, 5)
    assert status(registry, cassated, on) == "em vigor"
    assert registry.bars_of(company, on) == ()
    assert (f"{decision.printed}: {cassated} restabelecido pelo {decision.printed}, "
            "em 04/05/2026.") in timeline(registry, holder=company)
    assert registry.rebuild_state(apply=False).same
    registry.cancel(decision.series, decision.year, decision.number, reason="erro material",
                    by="Chefia")
    assert status(registry, cassated, on) == "cassado em 15/09/2025 pelo CAS-FRET nº 0002/2025"
    assert registry.bars_of(company, on) == (
        ("alvara-fretamento", date(2026, 9, 15), "CAS-FRET nº 0002/2025"),)


def noticed_a_year_late(engine: Engine, registry: Registry, form: str, alvara: str,
                        placa: str, until: date, *, filed: date, on: date) -> Any:
    """The renewal notice ``form`` on ``alvara`` (due ``until`` in the registry) typed as
    due a year later: the one item says the registry's date; the last day is counted
    from it. Returns the computed values."""
    data: dict[str, Any] = example(form)
    data["alvara"] = {"numero": alvara,
                      "valido_ate": until.replace(year=until.year + 1).isoformat()}
    data["veiculo"]["placa"] = placa
    data.update(data_requerimento=filed.isoformat(), data_notificacao=on.isoformat())
    prepared = engine.prepare(form, data, on, history=RegistryHistory(registry))
    [item] = [i for i in prepared.report.items
              if i.field == "/alvara/valido_ate" and i.status == Status.INVALID]
    assert until.strftime("%d/%m/%Y") in item.message
    assert str(prepared.computed["prazo_final"]) == until.isoformat()
    return prepared.computed


@SQLITE_ONLY
@pytest.mark.parametrize("origin", ["novo", "importado"])
def test_the_renewal_notice_reads_the_validity_the_registry_holds(
    registry: Registry, engine: Engine, origin: str,
) -> None:
    """Issue 22: a renewal notice gave a last day one year late, from a typed validity.
    The notice on an alvará of lavra's series takes the registry's validity (art. 8º)."""
    if origin == "importado":
        load(registry)
        alvara, until, placa = "ALV-FRET nº 0031/2024", date(2029, 2, 9), "FRE1A11"
    else:
        until = date(2031, 3, 1)
        alvara, placa = alvara_fretamento(registry, until=until).printed, "ABC1D23"
    computed = noticed_a_year_late(
        engine, registry, "notificacao-pendencias-renovacao-fretamento", alvara, placa, until,
        filed=until.replace(day=1, month=1), on=until.replace(day=5, month=1))
    assert "dia seguinte ao vencimento" in str(computed["prazo_explicacao"])


def test_the_renewal_run_does_not_renew_a_cassated_alvara(tmp_path: Path) -> None:
    """Issue 22: the renewal run renewed a cassated alvará. Over the imported sample,
    ALV-FRET nº 0032/2024 (due 11/03/2029) was cassated by CAS-FRET nº 0002/2025: the
    run picks only ALV-FRET nº 0031/2024, and a line of ``--entrada`` naming the cassated
    one is refused saying why: cassado, by which act (simulated: nothing is numbered)."""
    from issuers import dev_issuer

    from lavra.batch.model import RunRequest
    from lavra.batch.runner import find_kind, run_batch
    from lavra.issuing import registry_url

    repo = Path(__file__).resolve().parent.parent
    issuer = dev_issuer(Engine(Content(repo), pool=None), tmp_path / "dados")
    entrada = tmp_path / "entrada.csv"
    entrada.write_text("alvara,cnpj,razao_social\n"
                       "ALV-FRET nº 0032/2024,49.234.427/0416-80,Transportes Antigos\n",
                       encoding="utf-8")
    try:
        load(issuer.registry)
        kind = find_kind(issuer, "renovacao-fretamento")
        options = {"vencendo_ate": "2029-03-31"}
        every = run_batch(issuer, kind, RunRequest("renovacao-fretamento", options,
                                                   date(2028, 12, 15), None, None),
                          tmp_path / "todos", database_url=registry_url(issuer.config),
                          simulate=True)
        named = run_batch(issuer, kind, RunRequest("renovacao-fretamento", options,
                                                   date(2028, 12, 15), entrada, None),
                          tmp_path / "entrada", database_url=registry_url(issuer.config),
                          simulate=True)
    finally:
        issuer.close()
    assert [r.holder for r in every.rows if r.role == "documento"] == \
        ["65563842000105 FRE1A11"]
    assert not any("FRE2B22" in r.holder for r in every.rows)
    [refused] = [r for r in named.rows if r.outcome == "recusado"]
    assert refused.reason == ("O alvará ALV-FRET nº 0032/2024 não se renova: está cassado "
                              "em 15/09/2025 pelo CAS-FRET nº 0002/2025 (linha 2 da entrada).")
    assert not any(r.role == "documento" for r in named.rows)


@SQLITE_ONLY
@pytest.mark.parametrize("origin", ["novo", "importado"])
def test_the_school_renewal_notice_reads_the_validity_the_registry_holds(
    registry: Registry, engine: Engine, origin: str,
) -> None:
    """The same defect in the school notice (escolar art. 13): its last day is the last
    business day of the year of the vencimento the registry holds, not of a typed one."""
    alvara, placa, _ = school_alvara(registry, origin)
    until = date(2027, 12, 31) if origin == "importado" else date(2026, 12, 31)
    noticed_a_year_late(engine, registry, "notificacao-pendencias-renovacao", alvara, placa,
                        until, filed=until.replace(day=2), on=until.replace(day=3))


@SQLITE_ONLY
def test_a_devolucao_finding_the_vehicle_taken_names_the_alvara_in_force(
    registry: Registry,
) -> None:
    """Fretamento art. 21, § 4º (issue 22): while the alvará was recalled another company
    obtained one for the vehicle; the devolução would put two in force and
    ``uq_licences_vehicle_in_force`` refuses it: the refusal names the alvará in force
    and its term, never the database's «mesmo instante»; nothing is recorded."""
    alvara, placa = fretamento_alvara(registry, "novo")
    receipt = example("recibo-recolhimento-alvara")
    receipt["alvara"]["numero"] = alvara
    receipt["veiculo"]["placa"] = placa
    recalled = act(registry, "REC-ALV-FRET", "recibo-recolhimento-alvara", receipt, on=ON)
    other = example("alvara-fretamento")
    other["empresa"].update(cnpj="11.222.333/0001-81", razao_social="Outra Viação Ltda.")
    taken = act(registry, "ALV-FRET", "alvara-fretamento", other, on=date(2026, 4, 7),
                computed={"inicio_vigencia": "2026-04-07", "valido_ate": "2031-04-06"})
    back = example("termo-devolucao-alvara")
    back["recibo"]["numero"] = recalled.printed
    back["alvara"]["numero"] = alvara
    back["veiculo"]["placa"] = placa
    with pytest.raises(InputError) as refused:
        act(registry, "DEV-ALV-FRET", "termo-devolucao-alvara", back, on=date(2026, 4, 8))
    assert (f"O veículo {placa} já tem licença em vigor: {taken.printed}, válida até "
            f"06/04/2031. O {alvara} não pode ser devolvido pelo DEV-ALV-FRET nº 0001/2026 "
            "enquanto ela vigorar (art. 8º da Lei nº 4.419/2006)") in refused.value.message
    assert "mesmo instante" not in refused.value.message
    assert registry.next_number("DEV-ALV-FRET", 2026) == 1  # nothing numbered nor recorded
    assert status(registry, alvara, date(2026, 4, 8)).startswith("recolhido em 06/04/2026")
    assert registry.rebuild_state(apply=False).same
