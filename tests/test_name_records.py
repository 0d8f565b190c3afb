"""Staff record a person's change of name proven by the civil registry's certidão
(issue 22): the act naming the CPF under the new name is blocked until then, and issues
once the change is recorded; the new name becomes the registry's and the former stays
in the history; a rebuild of the state (``lavra cadastro reconstruir``) gives the same
state; bad input is refused in pt-BR naming the field, nothing written; the CLI records
and shows it. A requerimento filed online for a CPF not known before puts its name in
the CPF's names. Over fresh registries (SQLite, and PostgreSQL for the record and the
rebuild), every date passed in."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from formcases import example
from issuers import clocked_issuer, state_registry
from test_licensing_state import act
from test_licensing_state import example as form_example

import lavra.cli.cadastro as cadastro_cli
from lavra.checking.report import Status
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import IncompleteError, Issuer
from lavra.registry.filings import FilingInput, Filings
from lavra.registry.name_records import NameRecords
from lavra.registry.records import LOCAL_TZ, Built
from lavra.registry.store import Registry

AIE = "auto-infracao-escolar"
DAY = date(2026, 3, 2)
CPF = "52998224725"
FORMER = "José Exemplo dos Santos"
NEW = "José Exemplo dos Santos Lima"
PROOF = "Certidão de casamento, matrícula 123456 01 55 2026 2 00010 123 0004567-89"


def escolar(engine: Engine, name: str = FORMER) -> dict[str, Any]:
    data = example(engine, AIE)
    data["condutor"]["alvara"] = "nº 7/2019"  # on paper: not one of lavra's ALV-ESC
    data["condutor"]["nome"] = data["ciencia"]["nome"] = name
    return data


@pytest.fixture
def issuer(engine: Engine, tmp_path: Path) -> Iterator[Issuer]:
    """A driver's auto issued: the CPF registered under its former name."""
    now = datetime(2026, 3, 2, 15, tzinfo=LOCAL_TZ)
    issuer = clocked_issuer(engine, tmp_path / "dados", now)
    try:
        issuer.issue(AIE, escolar(engine), example_values=True)
        yield issuer
    finally:
        issuer.close()


def test_the_act_blocked_issues_once_the_change_is_recorded(engine: Engine,
                                                           issuer: Issuer) -> None:
    renamed = escolar(engine, NEW)
    report = engine.prepare(AIE, renamed, issued_on=DAY, history=issuer.history,
                            example_values=True).report
    (item,) = [i for i in report.items if i.requirement.startswith("parte.nome_registrado.")]
    assert item.status is Status.INVALID
    assert ("registre a alteração de nome comprovada por certidão (na página do CPF no "
            "cadastro de licenças, «Registrar alteração de nome», ou pelo comando «lavra "
            "cadastro nome»)") in item.message
    with pytest.raises(IncompleteError):
        issuer.issue(AIE, renamed, example_values=True)

    registry = issuer.registry
    record = NameRecords(registry).record("529.982.247-25", f"  {NEW} ", PROOF,
                                          by="Clara Redatora", on=DAY, today=DAY)
    assert (record.doc, record.previous, record.name) == (CPF, FORMER, NEW)
    assert registry.party_name(CPF) == NEW
    assert registry.party_names(CPF) == (FORMER, NEW)

    issued = issuer.issue(AIE, renamed, example_values=True)
    assert issued.report.complete
    assert registry.party_names(CPF) == (FORMER, NEW)

    diff = registry.rebuild_state(apply=False)
    assert (diff.only_stored, diff.only_rebuilt) == ((), ())
    registry.rebuild_state(apply=True)
    assert registry.party_name(CPF) == NEW and registry.party_names(CPF) == (FORMER, NEW)
    # the name rests on the record: cancelling the act issued under it keeps it
    cancelled = issued.record
    registry.cancel(cancelled.series, cancelled.year, cancelled.number,
                    reason="Emitido em duplicidade.", by="Clara")
    assert registry.party_name(CPF) == NEW and registry.party_names(CPF) == (FORMER, NEW)
    assert NameRecords(registry).of(CPF) == (record,)


REFUSED = [
    ("111.444.777-35", NEW, PROOF, "/cpf", "O CPF 111.444.777-35 não consta do registro"),
    ("123", NEW, PROOF, "/cpf", "CPF ou CNPJ inválido: «123»"),
    ("65.563.842/0001-05", NEW, PROOF, "/cpf", "a alteração da razão social não se registra"),
    (CPF, NEW, "   ", "/comprovante", "Informe o comprovante da alteração"),
    (CPF, "", PROOF, "/nome", "Informe o novo nome"),
    (CPF, "  jose EXEMPLO   dos santos ", PROOF, "/nome",
     "O nome informado é o que o registro já tem para o CPF 529.982.247-25"),
]


def test_bad_input_is_refused_naming_the_field(issuer: Issuer) -> None:
    """One registry for every case (an issuer each would cost seconds apiece)."""
    registry = issuer.registry
    for doc, name, proof, field, said in REFUSED:
        with pytest.raises(InputError) as refused:
            NameRecords(registry).record(doc, name, proof, by="Clara", on=DAY, today=DAY)
        assert (refused.value.field, said in refused.value.message) == (field, True), doc
    with pytest.raises(InputError) as future:
        NameRecords(registry).record(CPF, NEW, PROOF, by="Clara", on=date(2026, 3, 3),
                                     today=DAY)
    assert future.value.field == "/data"
    assert future.value.message == (
        "A data do registro (03/03/2026) é posterior a hoje: a alteração do nome se "
        "registra na data em que é comprovada, nunca em data futura.")
    assert NameRecords(registry).of(CPF) == () and registry.party_name(CPF) == FORMER


def test_the_record_survives_a_rebuild(registry_url: str) -> None:
    """SQLite and PostgreSQL: recorded, the later act under the new name, rebuilt."""
    registry: Registry
    for registry in state_registry(registry_url):
        data = form_example(AIE)
        data["condutor"]["alvara"] = "nº 7/2019"
        act(registry, "AIE-ESC", AIE, data, on=DAY)
        NameRecords(registry).record(CPF, NEW, PROOF, by="Clara", on=date(2026, 4, 1),
                                     today=date(2026, 4, 1))
        data["condutor"]["nome"] = NEW
        act(registry, "AIE-ESC", AIE, data, on=date(2026, 4, 2))
        diff = registry.rebuild_state(apply=True)
        assert (diff.only_stored, diff.only_rebuilt) == ((), ())
        assert registry.party_name(CPF) == NEW
        assert registry.party_names(CPF) == (FORMER, NEW)
        entries = [(e.on, e.printed) for e in _shown(registry)]
        assert (date(2026, 4, 1), "Alteração de nome registrada") in entries


def _shown(registry: Registry) -> Any:
    from lavra.registry.name_timeline import with_name_changes

    return with_name_changes(registry.timeline(holder=CPF), NameRecords(registry).of(CPF))


def test_the_cli_records_and_shows_the_change(
    issuer: Issuer, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = issuer.registry
    monkeypatch.setattr(cadastro_cli, "_registry", lambda url: registry)
    monkeypatch.setattr(registry, "close", lambda: None)
    monkeypatch.setattr(cadastro_cli, "today", lambda: date(2026, 3, 3))
    runner = CliRunner()
    refused = runner.invoke(main, ["cadastro", "nome", CPF, "--nome", NEW, "--comprovante",
                                   " ", "--responsavel", "Clara", "--data", "2026-03-03"])
    assert refused.exit_code != 0 and "Informe o comprovante da alteração" in refused.output
    assert "Traceback" not in refused.output
    ahead = runner.invoke(main, ["cadastro", "nome", CPF, "--nome", NEW, "--comprovante",
                                 PROOF, "--responsavel", "Clara", "--data", "2026-03-04"])
    assert ahead.exit_code != 0 and "--data" in ahead.output
    assert "A data do registro (04/03/2026) é posterior a hoje" in ahead.output
    assert "Traceback" not in ahead.output and registry.party_name(CPF) == FORMER
    done = runner.invoke(main, ["cadastro", "nome", "529.982.247-25", "--nome", NEW,
                                "--comprovante", PROOF, "--responsavel", "Clara Redatora",
                                "--data", "2026-03-03"])
    assert done.exit_code == 0, done.output
    assert (f"Alteração de nome registrada em 03/03/2026 por Clara Redatora: «{FORMER}» "
            f"passa a «{NEW}»") in done.output
    assert registry.party_names(CPF) == (FORMER, NEW)
    monkeypatch.setattr(cadastro_cli, "_content_registry",
                        lambda url: (registry, issuer.engine.content))
    shown = runner.invoke(main, ["cadastro", "mostrar", CPF, "--data", "2026-03-04"])
    assert shown.exit_code == 0, shown.output
    assert f"CPF 529.982.247-25: {FORMER} → {NEW}" in shown.output  # masked, not as typed
    assert (f"03/03/2026  Alteração de nome registrada: nome alterado de «{FORMER}» para "
            f"«{NEW}», comprovado por {PROOF}; registrado por Clara Redatora") in shown.output


def _receipt(number: int, printed: str, moment: datetime) -> Built:
    return Built(pdf=b"%PDF-1.4 " + printed.encode(), data={"protocolo": printed},
                 computed={}, reference_date=moment.date(),
                 verification_code=f"PROT-{number:04d}", signer_subject="Selo",
                 signer_serial="1", pack_version="t", issued_at=moment)


def test_a_filing_for_a_new_cpf_puts_its_name_in_the_history(issuer: Issuer) -> None:
    registry = issuer.registry
    doc = "11144477735"
    entry = FilingInput(series="PROT", form="recurso-transporte-escolar", data={},
                        cpf_cnpj=doc, name="Ana Requerente Exemplo", attachments=())
    moment = datetime(2026, 3, 5, 10, tzinfo=LOCAL_TZ).astimezone(UTC)
    Filings(registry).file(entry, _receipt, receipt_form="comprovante-protocolo", now=moment)
    assert registry.party_names(doc) == ("Ana Requerente Exemplo",)
    again = FilingInput(series="PROT", form="recurso-transporte-escolar", data={},
                        cpf_cnpj=doc, name="Ana Outro Nome", attachments=())
    Filings(registry).file(again, _receipt, receipt_form="comprovante-protocolo", now=moment)
    assert registry.party_names(doc) == ("Ana Requerente Exemplo",)  # a known party: kept
    diff = registry.rebuild_state(apply=True)
    assert (diff.only_stored, diff.only_rebuilt) == ((), ())
    assert registry.party_names(doc) == ("Ana Requerente Exemplo",)
    assert registry.party_name(doc) == "Ana Requerente Exemplo"
