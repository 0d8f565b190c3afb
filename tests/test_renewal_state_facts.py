"""What a renewal needs of a licence that a later act changed is in the licensing state
(issues 22 and 24): the vehicle's type, year and licensing municipality after a change
of vehicle (the substitute's, as its termo states them), the cessionário's inscription
in the Cadastro de Atividades after a transfer (the termo's, art. 15, § 1º; or, when the
termo carries none, the renewal request's, which the public form then asks). Each is
renewed end to end by the run over a fresh registry, and the PDF read back prints
them; ``lavra cadastro reconstruir`` rebuilds the facts equal, cancelling the change
gives the old ones back, and migration 0026 fills them for a registry that had none.
Every date is fixed."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from batchcases import RUN_DAY, YEAR, alvara, cpf, plate, request, write_jsonl
from formcases import example, pdf_text
from identities import set_person, set_vehicle
from issuers import dev_issuer, state_registry
from sqlalchemy import create_engine, inspect
from test_licensing_state import act

from lavra.batch.model import RunRequest
from lavra.batch.runner import find_kind, run_batch
from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.issuing import RegistryHistory, registry_url
from lavra.registry.database import alembic_config, database_url
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry, open_registry
from lavra_americana.comum.guards import series_of
from lavra_americana.transporte_escolar.renovacao_requisitos import INSCRIPTION

ALV, TERMO = "alvara-transporte-escolar", "termo-transferencia-licenca"
TROCA = "termo-substituicao-veiculo-escolar"
REQUEST = "requerimento-renovacao-escolar"
CHANGED_ON = date(2025, 6, 2)
NEW_PLATE = "NOV4D56"


def granted(registry: Registry, data: dict[str, Any]) -> IssuedRecord:
    """A school alvará recorded on 10/03/2025, in force until 31/12/2025."""
    return act(registry, "ALV-ESC", ALV, data, on=date(2025, 3, 10),
               computed={"inicio_vigencia": "2025-03-10", "valido_ate": "2025-12-31"})


def changed(engine: Engine, registry: Registry, printed: str, n: int) -> IssuedRecord:
    """The alvará of holder ``n`` (``printed``) changed to the substitute NOV4D56: another
    year and municipality's spelling than the alvará's (its type, micro-ônibus, is the
    only one art. 1º, § 1º admits)."""
    termo = example(engine, TROCA)
    termo["alvara"]["numero"] = printed
    set_vehicle(termo["veiculo_substituido"], plate(n))
    set_vehicle(termo["veiculo_novo"], NEW_PLATE).update(
        tipo="microonibus", ano_fabricacao=2024, municipio_licenciamento="AMERICANA")
    return act(registry, series_of(TROCA) or "", TROCA, termo, on=CHANGED_ON)


def transferred(engine: Engine, registry: Registry, printed: str, n: int,
                inscricao: str | None) -> IssuedRecord:
    """The alvará of holder ``n`` transferred, with its vehicle, to the cessionária
    ``n + 10``; the termo carries her inscription when ``inscricao`` is given, and
    names the vehicle without its licensing municipality (the alvará's must stay)."""
    termo = example(engine, TERMO)
    termo["licenca"]["numero"] = printed
    termo["cedente"].update(nome=f"Titular Exemplo {n:04d}", cpf=cpf(n))
    set_person(termo["cessionario"], cpf(n + 10))
    termo["cessionario"]["nome"] = f"Cessionária Exemplo {n:04d}"
    termo["veiculo"] = alvara(n)["veiculo"]
    termo["veiculo"].pop("municipio_licenciamento")
    if inscricao is None:
        termo.pop("cadastro", None)
    else:
        termo["cadastro"] = {"inscricao": inscricao, "data_registro": "2025-06-10"}
    return act(registry, "TRF-ESC", TERMO, termo, on=CHANGED_ON)


def cessionaria_request(n: int, printed: str) -> dict[str, Any]:
    asked = request(n, printed)
    set_person(asked["requerente"], cpf(n + 10))
    asked["requerente"].update(nome=f"Cessionária Exemplo {n:04d}", prontuario=f"TC-{n:04d}")
    return asked


def test_a_re_vehicled_and_two_transferred_alvaras_are_renewed(
    engine: Engine, tmp_path: Path
) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    bound = engine.staff_values
    try:
        registry = issuer.registry
        printed = [granted(registry, alvara(n)).printed for n in range(3)]  # of 2025
        changed(engine, registry, printed[0], 0)
        transferred(engine, registry, printed[1], 1, "CA-TRF-0001")
        transferred(engine, registry, printed[2], 2, None)
        view = registry.licence_by_number(printed[0])
        assert view is not None and dict(view.facts) == {
            "/titular/cadastro_atividades": "CA-54321", "/veiculo/ano_fabricacao": 2024,
            "/veiculo/municipio_licenciamento": "AMERICANA", "/veiculo/tipo": "microonibus"}
        view = registry.licence_by_number(printed[2])
        assert view is not None and "/titular/cadastro_atividades" not in dict(view.facts)
        # Transferred with the same vehicle: the alvará's vehicle facts stay, even those
        # the termo does not restate.
        assert dict(view.facts)["/veiculo/municipio_licenciamento"] == "Americana", view.facts
        revehicled = request(0, printed[0])
        set_vehicle(revehicled["veiculo"], NEW_PLATE)["ano_fabricacao"] = 2024
        without = cessionaria_request(2, printed[2])
        history = RegistryHistory(registry)
        lacking = engine.check(REQUEST, without, history=history)  # the public form's check
        assert [(i.field, i.status) for i in lacking.pending] == [(INSCRIPTION, Status.MISSING)]
        without["requerente"]["cadastro_atividades"] = "CA-REQ-0002"
        assert engine.check(REQUEST, without, history=history).complete
        assert engine.check(REQUEST, cessionaria_request(1, printed[1]), history=history).complete
        pedidos = write_jsonl(tmp_path / "pedidos.jsonl",
                              [revehicled, cessionaria_request(1, printed[1]), without])
        run = RunRequest("renovacao-transporte-escolar", {"ano": YEAR},
                         date.fromisoformat(RUN_DAY), None, pedidos)
        summary = run_batch(issuer, find_kind(issuer, run.kind), run, tmp_path / "saida",
                            database_url=registry_url(issuer.config), workers=1)
        alvaras = [r for r in summary.rows if r.form == ALV]
        assert [(r.holder, r.outcome) for r in alvaras] == [
            (cpf(0).replace(".", "").replace("-", ""), "renovado"),
            (cpf(11).replace(".", "").replace("-", ""), "renovado"),
            (cpf(12).replace(".", "").replace("-", ""), "renovado")], [
            (r.holder, r.outcome, r.reason) for r in summary.rows]
        texts = [pdf_text((tmp_path / "saida" / r.file).read_bytes()) for r in alvaras]
        for text, shown in zip(texts, (
                (f"Placa {NEW_PLATE}", "Ano de fabricação 2024",
                 "Licenciamento Município de AMERICANA"),
                ("Cessionária Exemplo 0001", "Cadastro de Atividades CA-TRF-0001"),
                ("Cessionária Exemplo 0002", "Cadastro de Atividades CA-REQ-0002")),
                strict=True):
            for printed_text in shown:
                assert printed_text in text, (printed_text, text)
        assert "CA-54321" not in texts[1] + texts[2]  # never the cedente's
        renewed = registry.licence_by_number(alvaras[0].number)
        assert renewed is not None and ("/veiculo/ano_fabricacao", 2024) in renewed.facts
        diff = registry.rebuild_state(apply=False)
        assert diff.same, (diff.only_stored, diff.only_rebuilt)
    finally:
        issuer.close()
        engine.staff_values = bound


@pytest.mark.parametrize("registry_url", ["sqlite", "postgresql"], indirect=True)
def test_the_facts_are_rebuilt_equal_and_the_change_undone(
    engine: Engine, registry: Registry
) -> None:
    alvara_esc = granted(registry, example(engine, ALV)).printed
    change = changed(engine, registry, alvara_esc, 0)
    before = registry.licence_by_number(alvara_esc)
    assert before is not None and dict(before.facts)["/veiculo/ano_fabricacao"] == 2024
    diff = registry.rebuild_state(apply=True)
    assert diff.same, (diff.only_stored, diff.only_rebuilt)
    assert registry.licence_by_number(alvara_esc) == before
    registry.cancel(change.series, change.year, change.number, reason="erro material",
                    by="Servidor de Teste")
    after = registry.licence_by_number(alvara_esc)
    assert after is not None and dict(after.facts) == {
        "/titular/cadastro_atividades": "CA-54321", "/veiculo/ano_fabricacao": 2021,
        "/veiculo/municipio_licenciamento": "Americana", "/veiculo/tipo": "microonibus"}


def test_migration_0026_fills_the_facts_from_the_documents(
    engine: Engine, tmp_path: Path
) -> None:
    url = database_url(tmp_path)
    opened = next(state_registry(url))
    alvara_esc = granted(opened, example(engine, ALV)).printed
    changed(engine, opened, alvara_esc, 0)
    opened.close()
    raw = create_engine(url)
    with raw.begin() as connection:  # a registry from before 0026
        command.downgrade(alembic_config(connection), "0025")
        columns = {c["name"] for c in inspect(connection).get_columns("licences")}
        assert "facts" not in columns
    raw.dispose()
    open_registry(url).close()  # upgraded, without the pack: no facts yet
    states = state_registry(url)  # opened with its pack: the view built again
    reopened = next(states)
    view = reopened.licence_by_number(alvara_esc)
    assert view is not None and dict(view.facts)["/veiculo/ano_fabricacao"] == 2024
    assert dict(view.facts)["/veiculo/municipio_licenciamento"] == "AMERICANA"
    next(states, None)  # closed
