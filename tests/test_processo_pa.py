"""The municipality's PA number linked to a protocol's processo
(:mod:`lavra.registry.processos`), on SQLite and PostgreSQL: an act typed with the PA
joins the processo (before or after the link), one PA belongs to one processo (the
database's constraint decides between two clerks), the PA is corrected only while no act
entered, and a rebuild of the state keeps the link, the protocols and their parties."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime, time
from pathlib import Path

import pytest
from click.testing import CliRunner
from registrycases import builder

from lavra.cli.main import main
from lavra.errors import InputError
from lavra.registry.database import database_url
from lavra.registry.effects import Act, Effect, Grant, InProcesso, PartyRef
from lavra.registry.filings import Attachment, Filed, FilingInput, Filings
from lavra.registry.processos import Processos
from lavra.registry.records import Built
from lavra.registry.store import Registry, open_registry

FORM = "ato-x"
MOMENT = datetime(2026, 12, 2, 15, tzinfo=UTC)


def _file(registry: Registry, form: str, moment: datetime, licence: str | None = None
          ) -> Filed:
    def built(number: int, printed: str, at: datetime) -> Built:
        return Built(pdf=b"%PDF-1.4 " + printed.encode(), data={}, computed={},
                     reference_date=at.date(), verification_code=f"PA-{number}-{at:%H%M%S%f}",
                     signer_subject="Selo", signer_serial="1", pack_version="t",
                     issued_at=at)

    entry = FilingInput(series="PROT", form=form, data={"a": 1}, cpf_cnpj="01753935911",
                        name="Fulana de Tal",
                        attachments=(Attachment("/documentos/crlv", "crlv.pdf", b"%PDF-1.4\n"),),
                        licence=licence)
    return Filings(registry).file(entry, built, receipt_form="comprovante", now=moment)


def _signed_before(build: Callable[[int, str], Built]) -> Callable[[int, str], Built]:
    """``build``, signed on its reference day, before the protocols (``MOMENT``): the
    alvará precedes them in the test's story, whatever day the test runs."""
    def signed(number: int, printed: str) -> Built:
        built = build(number, printed)
        return replace(built, issued_at=datetime.combine(built.reference_date, time(12),
                                                         tzinfo=UTC))
    return signed


def _in_processo(act: Act) -> Sequence[Effect]:
    numero = act.data.get("processo")
    return [InProcesso(numero)] if isinstance(numero, str) else []


def _grant(act: Act) -> Sequence[Effect]:
    return [Grant("alvara-x", PartyRef("01753935911", "Fulana de Tal"), date(2026, 1, 1),
                  None, "x#art1")]


def _registry(url: str) -> Registry:
    registry = open_registry(url)
    registry.use_effects({FORM: _in_processo, "alvara-x": _grant})
    return registry


def _act(registry: Registry, processo: str) -> str:
    data = {"processo": processo}
    return registry.issue("ATO", 2026, FORM, builder(data), data=data).number


def _acts(registry: Registry, filed: Filed) -> list[str]:
    refreshed = Filings(registry).by_protocol(filed.protocol)
    assert refreshed is not None
    return [record.number for record in Filings(registry).acts(refreshed)]


def test_link_join_refuse_and_rebuild(registry_url: str) -> None:
    registry = _registry(registry_url)
    processos = Processos(registry)
    alvara = registry.issue("ALV", 2026, "alvara-x", _signed_before(builder({})), data={})
    first = _file(registry, "requerimento-x", MOMENT, licence=alvara.printed)
    second = _file(registry, "requerimento-x", MOMENT)
    early = _act(registry, "PA 3.210/2026")  # typed before the link: a processo of its own
    assert _acts(registry, first) == []

    link = processos.link(first.protocol, " pa  3.210/2026 ", by="Clara Souza",
                          now=MOMENT)
    assert (link.pa, link.linked_by, link.linked_at, link.moved) == (
        "PA 3.210/2026", "Clara Souza", MOMENT, 1)
    assert _acts(registry, first) == [early]  # moved into the protocol's processo
    late = _act(registry, "pa 3.210/2026")    # typed after: joins as the PROT number does
    by_prot = _act(registry, first.processo)
    assert _acts(registry, first) == [early, late, by_prot]
    refreshed = Filings(registry).by_protocol(first.protocol)
    assert refreshed is not None and refreshed.pa == "PA 3.210/2026"

    again = processos.link(first.protocol, "PA 3.210/2026", by="Outro")  # same: nothing new
    assert (again.linked_by, again.linked_at) == ("Clara Souza", MOMENT)
    with pytest.raises(InputError, match=r"PA 3\.210/2026 já está vinculado ao processo "
                       r"PROT Nº 0001/2026.*protocolo PROT nº 0002/2026") as taken:
        processos.link(second.protocol, "PA 3.210/2026", by="Clara")
    assert taken.value.field == "/pa"
    with pytest.raises(InputError, match="já recebeu atos") as changed:
        processos.link(first.protocol, "PA 9.999/2026", by="Clara")
    assert changed.value.field == "/pa"
    with pytest.raises(InputError, match="protocolo PROT nº 0001/2026") as own:
        processos.link(second.protocol, first.processo, by="Clara")
    assert own.value.field == "/pa"
    with pytest.raises(InputError, match="PROT nº 0009/2026 não consta"):
        processos.link("PROT nº 0009/2026", "PA 1/2026", by="Clara")
    with pytest.raises(InputError) as blank:
        processos.link(second.protocol, "  ", by="Clara")
    assert blank.value.field == "/pa"
    # no act entered the second processo yet: its PA may be corrected
    processos.link(second.protocol, "PA 7/2026", by="Clara")
    assert processos.link(second.protocol, "PA 8/2026", by="Ana").pa == "PA 8/2026"
    assert processos.link_of(second.protocol).linked_by == "Ana"  # type: ignore[union-attr]

    # the rebuild keeps the protocols, their links, their licences and the acts that
    # joined them
    diff = registry.rebuild_state(apply=True)
    assert diff.same, diff
    assert Filings(registry).by_protocol(first.protocol).licence == (  # type: ignore[union-attr]
        alvara.printed)
    assert _acts(registry, first) == [early, late, by_prot]
    assert Filings(registry).by_protocol(second.protocol).pa == "PA 8/2026"  # type: ignore[union-attr]
    processos.link(first.protocol, "PA 3.210/2026", by="Clara")  # still its own
    assert registry.rebuild_state(apply=False).same


def test_two_clerks_linking_one_pa_at_once(postgres_url: str) -> None:
    """Two clerks link the same PA to two processos at the same moment: the unique
    constraint on the PA decides; the one refused is told which processo holds it."""
    registry = _registry(postgres_url)
    filed = [_file(registry, "requerimento-x", MOMENT) for _ in range(2)]
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def clerk(which: Filed) -> None:
        own = _registry(postgres_url)
        barrier.wait()
        try:
            outcomes.append(Processos(own).link(which.protocol, "PA 55/2026", by="x"))
        except InputError as refused:
            outcomes.append(refused)

    threads = [threading.Thread(target=clerk, args=(f,)) for f in filed]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    refused = [o for o in outcomes if isinstance(o, InputError)]
    assert len(refused) == 1 and len(outcomes) == 2
    assert "PA 55/2026 já está vinculado ao processo PROT Nº" in str(refused[0])


def test_the_command_links_and_names_the_option(tmp_path: Path) -> None:
    url = database_url(tmp_path / "dados")
    registry = _registry(url)
    filed = _file(registry, "requerimento-x", MOMENT)
    other = _file(registry, "requerimento-x", MOMENT)
    runner = CliRunner()
    result = runner.invoke(main, ["processo", "vincular", "prot 1/2026", "--pa",
                                  "PA 3.210/2026", "--responsavel", "Clara Souza",
                                  "--registro", url])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(
        "Processo PROT Nº 0001/2026 (protocolo PROT nº 0001/2026) vinculado ao "
        "PA 3.210/2026 por Clara Souza em ")
    refused = runner.invoke(main, ["processo", "vincular", other.protocol, "--pa",
                                   "pa 3.210/2026", "--responsavel", "Ana", "--registro",
                                   url])
    assert refused.exit_code != 0
    assert refused.stderr.strip() == (
        "Erro: O PA 3.210/2026 já está vinculado ao processo PROT Nº 0001/2026; não pode "
        "ser vinculado também ao processo do protocolo PROT nº 0002/2026. (opção --pa)")
    blank = runner.invoke(main, ["processo", "vincular", other.protocol, "--pa", "x",
                                 "--responsavel", " ", "--registro", url])
    assert blank.exit_code != 0 and "(opção --responsavel)" in blank.stderr
    assert Processos(registry).link_of(filed.protocol).linked_by == "Clara Souza"  # type: ignore[union-attr]
