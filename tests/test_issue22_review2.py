"""Defects of issue 22 found by the second read-only review (h/review22), each shown by a
test marked ``xfail(strict=True)``: when a fix lands, the test passes, the strict mark
makes it fail, and whoever fixes it removes the mark. Over the imported sample
(``exemplos/cadastro-importacao.csv``), on SQLite; every date is fixed."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text
from test_cadastro_import import CASSATED, SAMPLE, load, sample_with

from lavra.errors import ImportRefusedError
from lavra.registry.store import Registry

CEDENTE = "043.048.184-57"  # ALV-ESC nº 0019/2023, transferred by TRF-ESC nº 0003/2025


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_an_imported_transfer_with_the_same_vehicle_keeps_its_facts(
    registry: Registry,
) -> None:
    load(registry)  # ALV-ESC nº 0019/2023: microonibus, Americana; then TRF-ESC 0003/2025
    view = registry.licence_by_number("ALV-ESC nº 0019/2023")
    assert view is not None
    facts = dict(view.facts)
    assert facts.get("/veiculo/tipo") == "microonibus", facts
    assert facts.get("/veiculo/municipio_licenciamento") == "Americana", facts


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_an_imported_transfer_with_another_vehicle_gives_its_facts(
    registry: Registry,
) -> None:
    """With another placa, the row's vehicle facts replace the alvará's (none given: none
    kept, the old vehicle's municipality is not the new one's)."""
    lines = SAMPLE.read_text("utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("transferencia-escolar,"))
    row = lines[at].rstrip("\n").split(",")
    row += [""] * (29 - len(row))  # to the header's columns
    row[6], row[27] = "ESC9F99", "outro"  # placa; tipo_veiculo (municipio left blank)
    lines[at] = ",".join(row) + "\n"
    load(registry, "".join(lines).encode("utf-8"))
    view = registry.licence_by_number("ALV-ESC nº 0019/2023")
    assert view is not None and view.placa == "ESC9F99", view
    facts = dict(view.facts)
    assert facts.get("/veiculo/tipo") == "outro", facts
    assert "/veiculo/municipio_licenciamento" not in facts, facts


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_reconstruir_reports_a_difference_in_words(registry: Registry, registry_url: str) -> None:
    load(registry)
    raw = create_engine(registry_url)
    with raw.begin() as connection:
        connection.execute(text("UPDATE licences SET valid_until = '2030-01-01' "
                                "WHERE printed = 'ALV-ESC nº 0018/2023'"))
    raw.dispose()
    diff = registry.rebuild_state(apply=False)
    lines = [*diff.only_stored, *diff.only_rebuilt]
    assert lines, "the tampered validity must be reported"
    for line in lines:
        assert "None" not in line and "('" not in line, line
        assert "/veiculo/" not in line and " active" not in line, line
        assert "2030-01-01" not in line and "01/01/2030" in " ".join(diff.only_stored), line


@pytest.fixture(scope="module")
def imported_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A SQLite registry holding the sample, imported by the command on 15/01/2026."""
    from lavra.cli.main import main

    url = f"sqlite:///{tmp_path_factory.mktemp('review2') / 'registro.sqlite3'}"
    done = CliRunner().invoke(main, ["cadastro", "importar", str(SAMPLE), "--data",
                                     "2026-01-15", "--registro", url])
    assert done.exit_code == 0, done.output
    return url


def test_mostrar_names_a_bar_in_words(imported_url: str) -> None:
    from lavra.cli.main import main

    shown = CliRunner().invoke(main, ["cadastro", "mostrar", CEDENTE, "--data", "2026-03-01",
                                      "--registro", imported_url])
    assert shown.exit_code == 0, shown.output
    assert "Impedimento" in shown.output and "02/06/2028" in shown.output, shown.output
    assert "licenca-escolar" not in shown.output, shown.output


def test_a_cancelled_cassacao_stays_in_the_history(imported_url: str) -> None:
    from lavra.cli.main import main

    runner = CliRunner()
    cancelled = runner.invoke(main, ["cancel", "0002/2025", "--serie", "CAS-FRET", "--motivo",
                                     "Decisão anulada pela Procuradoria.", "--responsavel",
                                     "Fulana de Tal"],
                              env={"LAVRA_DATABASE_URL": imported_url})
    assert cancelled.exit_code == 0, cancelled.output
    shown = runner.invoke(main, ["cadastro", "mostrar", CASSATED, "--registro", imported_url])
    assert shown.exit_code == 0, shown.output
    assert "ALV-FRET nº 0032/2024 (Transportes Antigos Exemplo Ltda., válido até 11/03/2029): " \
        "em vigor." in shown.output  # the alvará restored: the effect was undone
    line = next(line for line in shown.output.splitlines() if "CAS-FRET nº 0002/2025" in line)
    assert line.startswith("  15/09/2025  ") and "Ato cancelado em " in line, line
    assert "(motivo: Decisão anulada pela Procuradoria); desfeito o que alterou no cadastro " \
        "(ALV-FRET nº 0032/2024)." in line, line
    # The alvará's own history (the document page's, the staff web's) says it too.
    own = runner.invoke(main, ["cadastro", "mostrar", "0032/2024", "--serie", "ALV-FRET",
                               "--registro", imported_url])
    assert own.exit_code == 0 and line in own.output.splitlines(), own.output


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_an_import_row_does_not_rename_a_known_cpf(registry: Registry) -> None:
    row = ("auto-escolar,AIE-ESC nº 0012/2025,2025-09-01,,529.982.247-25,José Outro Nome,"
           "ESC4D44" + "," * 14 + "transporte-escolar#art21_inc5,ALV-ESC nº 0018/2023,não,,")
    with pytest.raises(ImportRefusedError) as refused:  # the row refused, naming it
        load(registry, sample_with(row))
    problems = refused.value.problems
    assert len(problems) == 1 and "campo «nome»" in problems[0], problems
    assert "«José Exemplo dos Santos»" in problems[0], problems
    assert "lavra cadastro nome" in problems[0], problems
    assert registry.licence_by_number("ALV-ESC nº 0018/2023") is None  # nothing written
    load(registry)
    view = registry.licence_by_number("ALV-ESC nº 0018/2023")
    assert view is not None and view.holder_name == "José Exemplo dos Santos", view


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_an_older_row_may_name_a_cpf_by_its_former_name(registry: Registry) -> None:
    """After a recorded change of name (certidão, 10/01/2026), a row of an act dated
    before it names the person as the person was then named; one dated after it may not,
    and neither renames the person."""
    from lavra.registry.name_records import NameRecords

    load(registry)
    NameRecords(registry).record("529.982.247-25", "José Novo dos Santos", "Certidão de "
                                 "casamento, matrícula 1234", by="Clara", on=date(2026, 1, 10),
                                 today=date(2026, 1, 10))
    tail = ",ESC4D44" + "," * 14 + "transporte-escolar#art21_inc5,ALV-ESC nº 0018/2023,não,,"
    old = "auto-escolar,AIE-ESC nº 0012/2025,2025-09-01,,529.982.247-25,José Exemplo dos Santos"
    load(registry, sample_with(old + tail))
    late = "auto-escolar,AIE-ESC nº 0001/2026,2026-01-12,,529.982.247-25,José Exemplo dos Santos"
    with pytest.raises(ImportRefusedError) as refused:
        load(registry, sample_with(old + tail, late + tail))
    assert [p.split(",")[0] for p in refused.value.problems] == [
        f"Linha {len(SAMPLE.read_text('utf-8').splitlines()) + 2} do arquivo "
        "cadastro-importacao.csv"], refused.value.problems
    assert "campo «nome»" in refused.value.problems[0], refused.value.problems
    assert registry.party_name("529.982.247-25") == "José Novo dos Santos"


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_rows_naming_one_cpf_otherwise_are_refused_naming_both(registry: Registry) -> None:
    """The same name with other case, accents or spacing is the same name; another name
    for the CPF on a later row is refused, naming the earlier line."""
    tail = "ESC4D44" + "," * 14 + "transporte-escolar#art21_inc5,,não,,"
    rows = [f"auto-escolar,AIE-ESC nº {n:04d}/2025,2025-09-{n - 10:02d},,111.444.777-35,"
            f"{name},{tail}" for n, name in ((12, "Ana Nova"), (13, "ÁNA  nova"),
                                             (14, "Ana Outra"))]
    with pytest.raises(ImportRefusedError) as refused:
        load(registry, sample_with(*rows))
    problems = refused.value.problems
    assert len(problems) == 1, problems
    first = len(SAMPLE.read_text("utf-8").splitlines()) + 1
    assert problems[0].startswith(f"Linha {first + 2} "), problems
    assert f"a linha {first} deste arquivo" in problems[0] and "«Ana Outra»" in problems[0]


def test_cancel_takes_the_registry_and_suggests_only_pt_br_options(imported_url: str) -> None:
    """`lavra cancel --registro URL`, like the other commands that write the registry; an
    unknown option is answered with the pt-BR names only, never the hidden English
    aliases kept for old scripts (``--reason``)."""
    from lavra.cli.main import main
    from lavra.registry.store import open_registry

    runner = CliRunner()
    typo = runner.invoke(main, ["cancel", "0040/2025", "--reaso", "x", "--registro",
                                imported_url])
    assert typo.exit_code == 2 and "Opção inexistente: '--reaso'" in typo.output, typo.output
    assert "--reason" not in typo.output, typo.output
    cancelled = runner.invoke(main, ["cancel", "0040/2025", "--serie", "AIF-FRET", "--motivo",
                                     "Auto lavrado em duplicidade.", "--responsavel",
                                     "Fulana de Tal", "--registro", imported_url])
    assert cancelled.exit_code == 0, cancelled.output
    assert ("AIF-FRET nº 0040/2025 cancelado: Auto lavrado em duplicidade.\n"
            in cancelled.output), cancelled.output  # the reason's own period, not two
    with open_registry(imported_url) as registry:
        record = registry.by_number("0040/2025", series="AIF-FRET")
    assert record is not None and record.cancel_reason == "Auto lavrado em duplicidade."


def test_one_imported_act_is_said_in_the_singular(imported_url: str, tmp_path: Path) -> None:
    from lavra.cli.main import main

    row = ("auto-escolar,AIE-ESC nº 0020/2025,2025-09-01,,111.444.777-35,Ana Nova,ESC4D44"
           + "," * 14 + "transporte-escolar#art21_inc5,,não,,")
    path = tmp_path / "um.csv"
    header = SAMPLE.read_text("utf-8").splitlines()[0]
    path.write_text(f"{header}\n{row}\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["cadastro", "importar", str(path), "--data",
                                     "2026-01-15", "--registro", imported_url])
    assert done.exit_code == 0, done.output
    assert "Importado 1 ato anterior ao lavra de um.csv:" in done.output, done.output
    again = CliRunner().invoke(main, ["cadastro", "importar", str(path), "--data",
                                      "2026-01-15", "--registro", imported_url])
    assert again.exit_code == 0, again.output
    assert "Nada a importar: o ato do arquivo já consta do registro" in again.output
