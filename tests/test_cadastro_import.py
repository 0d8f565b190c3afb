"""``lavra cadastro importar``: the acts from before lavra (the sample file
``exemplos/cadastro-importacao.csv``) enter the registry with where they came from, and
the pack's effects make the licensing state from them: licences in force, the bar of a
cassação, the bar of a transfer, the autos that count for repeat offences. Over SQLite
and PostgreSQL; idempotent; a refused row (naming its line and field) writes nothing;
lavra's counters follow the imported numbers; the renewal run picks an imported
alvará. Every date is fixed: nothing depends on today."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from registrycases import pdf_with_title
from sqlalchemy import create_engine, text

from lavra.batch.inputs import parse_lines, read_lines
from lavra.checking.content import Content
from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.errors import ImportRefusedError, InputError
from lavra.issuing import RegistryHistory
from lavra.registry.importing import ImportReport, plan_import
from lavra.registry.records import Built
from lavra.registry.store import Registry, open_registry
from lavra_americana import pacote
from lavra_americana.fretamento.auto_infracao import _prior_infractions

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "exemplos" / "cadastro-importacao.csv"
ON = date(2026, 1, 15)
CASSATED, CEDENTE = "49.234.427/0416-80", "043.048.184-57"


def load(registry: Registry, raw: bytes | None = None,
         name: str = "cadastro-importacao.csv") -> ImportReport:
    lines = (read_lines(SAMPLE, "/arquivo") if raw is None
             else parse_lines(raw, name, "/arquivo"))
    return registry.import_acts(plan_import(lines, pacote().imports, name),
                                pack_version="americana", on=ON)


def documents(url: str) -> int:
    raw = create_engine(url)
    with raw.connect() as connection:
        count = connection.execute(text("SELECT count(*) FROM documents")).scalar_one()
    raw.dispose()
    return int(count)


def sample_with(*rows: str) -> bytes:
    return (SAMPLE.read_text("utf-8") + "".join(f"{row}\n" for row in rows)).encode("utf-8")


def test_the_sample_makes_the_licensing_state(registry: Registry, registry_url: str) -> None:
    report = load(registry)
    assert len(report.imported) == 9 and report.skipped == ()
    in_force = {kind: [r.printed for r in registry.licences_in_force(kind, ON)]
                for kind in ("alvara-fretamento", "alvara-servico-particular-fretamento",
                             "alvara-transporte-escolar")}
    assert in_force == {
        "alvara-fretamento": ["ALV-FRET nº 0031/2024"],  # 0032 was cassated
        "alvara-servico-particular-fretamento": ["ALV-PART nº 0005/2025"],
        "alvara-transporte-escolar": ["ALV-ESC nº 0018/2023", "ALV-ESC nº 0019/2023"],
    }
    # The cassação of 15/09/2025: the alvará cassated, the company barred until the
    # last day the decision set (fretamento art. 22, parágrafo único).
    cassated = registry.get("ALV-FRET", 2024, 32)
    assert cassated is not None and cassated.origin == "cadastro-importacao.csv, linha 3"
    view = registry.licence_of(cassated.id)
    assert view is not None
    assert view.describe(ON) == "cassado em 15/09/2025 pelo CAS-FRET nº 0002/2025"
    assert registry.bars_of(CASSATED, ON) == (
        ("alvara-fretamento", date(2026, 9, 15), "CAS-FRET nº 0002/2025"),)
    # The transfer of 02/06/2025: the licence is the cessionário's; the cedente barred
    # for 3 years (escolar art. 15, § 2º).
    [transferred] = registry.licences_in_force("alvara-transporte-escolar", ON,
                                               holder="626.147.224-64")
    assert transferred.printed == "ALV-ESC nº 0019/2023"
    assert registry.bars_of(CEDENTE, ON) == (
        ("licenca-escolar", date(2028, 6, 2), "TRF-ESC nº 0003/2025"),)
    # Lavra's own counters follow the imported numbers.
    assert registry.next_number("ALV-FRET", 2024) == 33
    assert registry.next_number("ALV-ESC", 2023) == 20
    assert registry.next_number("AIF-FRET", 2025) == 41
    # The state rebuilt from the acts is the one the import wrote.
    assert registry.rebuild_state(apply=False).same
    # No PDF: said in pt-BR, not a crash.
    with pytest.raises(InputError, match=r"anterior ao lavra.*não tem original eletrônico"):
        registry.pdf(cassated.id)
    assert cassated.verification_code.startswith("IMP-")
    assert documents(registry_url) == 9


def test_importing_again_changes_nothing(registry: Registry, registry_url: str) -> None:
    load(registry)
    again = load(registry)
    assert again.imported == () and len(again.skipped) == 9
    assert documents(registry_url) == 9
    assert registry.next_number("ALV-FRET", 2024) == 33


def test_a_conflicting_reimport_is_refused_and_writes_nothing(
    registry: Registry, registry_url: str
) -> None:
    load(registry)
    changed = SAMPLE.read_text("utf-8").replace("2029-03-11", "2029-04-11").encode("utf-8")
    changed += (b"alvara-fretamento,0050/2024,2024-05-02,,65.563.842/0001-05,Nova,FRE9Z99,"
                + b"," * 2 + b"2029-05-01" + b"," * 15 + b"\n")
    with pytest.raises(ImportRefusedError) as refused:
        load(registry, changed)
    [problem] = refused.value.problems
    assert problem.startswith("Linha 3 do arquivo cadastro-importacao.csv, campo «valido_ate»")
    assert "2029-03-11" in problem and "2029-04-11" in problem
    assert registry.get("ALV-FRET", 2024, 50) is None and documents(registry_url) == 9
    assert registry.next_number("ALV-FRET", 2024) == 33


@pytest.mark.parametrize(("row", "line", "column", "words"), [
    ("alvara-escolar,0020/2023,2023-02-30,,529.982.247-25,José,ESC6F66,,,2027-12-31,"
     "85263635330" + "," * 14, 11, "data", "não existe"),
    ("alvara-escolar,0020/2023,2023-02-03,,529.982.247-26,José,ESC6F66,,,2027-12-31,"
     "85263635330" + "," * 14, 11, "cpf_cnpj", "CPF inválido"),
    ("alvara-escolar,0020/2023,2023-02-03,,529.982.247-25,José,ES66,,,2027-12-31,"
     "85263635330" + "," * 14, 11, "placa", "Placa inválida"),
    ("alvara-escolar,0020/2023,2023-02-03,,529.982.247-25,José,ESC6F66,,,2027-12-31,"
     "85263635330" + "," * 14 + ",TE-1,CA-1,van", 11, "tipo_veiculo", "microonibus ou outro"),
    ("cassacao-fretamento,0009/2025,2025-09-15,,49.234.427/0416-80,Transportes," + "," * 8
     + "ALV-FRET nº 0077/2024,2026-09-15" + "," * 9, 11, "alvaras", "não consta do cadastro"),
    ("auto-fretamento,0041/2025,2025-10-01,,65.563.842/0001-05,Viação,FRE1A11" + "," * 14
     + "fretamento#art16_inc1,,talvez,,", 11, "pago", "sim ou não"),
])
def test_a_bad_row_refuses_the_whole_file(registry: Registry, registry_url: str, row: str,
                                          line: int, column: str, words: str) -> None:
    with pytest.raises(ImportRefusedError) as refused:
        load(registry, sample_with(row))
    assert refused.value.problems[0].startswith(
        f"Linha {line} do arquivo cadastro-importacao.csv, campo «{column}»")
    assert words in " ".join(refused.value.problems)
    assert documents(registry_url) == 0  # not even the good rows


def bare_act(on: date) -> Callable[[int, str], Built]:
    """The build of an act lavra issues itself, of ``on``, with no content: its number."""
    def build(number: int, formatted: str) -> Built:
        return Built(pdf=pdf_with_title(formatted), docx=None, data={}, computed={},
                     reference_date=on, verification_code=uuid.uuid4().hex[:20].upper(),
                     signer_subject="CN=Servidor de Teste", signer_serial="0A",
                     pack_version="teste")
    return build


def test_a_number_lavra_already_issued_is_refused(registry: Registry) -> None:
    for _ in range(11):
        registry.issue("AIE-ESC", 2025, "auto-infracao-escolar", bare_act(date(2025, 8, 1)))
    with pytest.raises(ImportRefusedError) as refused:
        load(registry)
    [problem] = refused.value.problems
    assert problem.startswith("Linha 10 do arquivo cadastro-importacao.csv, campo «numero»")
    assert "AIE-ESC nº 0011/2025 já foi emitido pelo lavra" in problem


def test_a_repeat_offence_counts_an_imported_auto(registry: Registry) -> None:
    load(registry)
    history = RegistryHistory(registry)
    earlier = history.prior_autos("FRE1A11", "auto-infracao-fretamento", date(2025, 6, 1),
                                  date(2026, 3, 1))
    assert [r.series + " nº " + r.number for r in earlier] == ["AIF-FRET nº 0040/2025"]
    [prior] = _prior_infractions(earlier, "FRE1A11")
    assert (prior.date, prior.citation) == (date(2025, 10, 1), "fretamento#art16_inc1")
    # The fine paid before lavra is a recorded payment of the imported auto.
    [paid] = history.prior_autos("ESC4D44", "auto-infracao-escolar", date(2025, 1, 1),
                                 date(2026, 3, 1))
    assert [(f.kind, f.amount) for f in paid.facts] == [("pagamento", "140.00")]


def test_the_command_imports_and_shows_where_each_act_came_from(tmp_path: Path) -> None:
    from lavra.cli.main import main

    url = f"sqlite:///{tmp_path / 'registro.sqlite3'}"
    runner = CliRunner()
    # --data is the day of the import: the auto of 01/10/2025 did not happen by 30/09/2025.
    early = runner.invoke(main, ["cadastro", "importar", str(SAMPLE), "--data", "2025-09-30",
                                 "--registro", url])
    assert early.exit_code == 1 and "Traceback" not in early.output
    assert ("Linha 9 do arquivo cadastro-importacao.csv, campo «data»: a data do ato "
            "(01/10/2025) é posterior à da importação (30/09/2025)") in early.output
    done = runner.invoke(main, ["cadastro", "importar", str(SAMPLE), "--data", "2026-01-15",
                                  "--registro", url])
    assert done.exit_code == 0, done.output
    assert "Importados 9 atos" in done.output and "CAS-FRET nº 0002/2025" in done.output
    again = runner.invoke(main, ["cadastro", "importar", str(SAMPLE), "--data", "2026-01-15",
                                  "--registro", url])
    assert again.exit_code == 0 and "Nada a importar" in again.output
    shown = runner.invoke(main, ["cadastro", "mostrar", "FRE2B22", "--registro", url])
    assert "CAS-FRET nº 0002/2025 (importado: cadastro-importacao.csv, linha 7)" in shown.output
    checked = runner.invoke(main, ["cadastro", "numeracao", "--registro", url])
    assert checked.exit_code == 0, checked.output
    assert "Numeração sem lacunas" in checked.output
    assert any(line.split() == ["ALV-ESC", "2023", "0019", "0", "2", "0", "0001", "a",
                                "0017/2023", "—"] for line in checked.output.splitlines())
    with open_registry(url) as registry:  # lavra's 0033 and 0034 taken; 0033 voided
        with registry.engine.begin() as connection:
            connection.execute(text("UPDATE counters SET last_number = 34 "
                                    "WHERE series = 'ALV-FRET' AND year = 2024"))
        registry.void_number("ALV-FRET", 2024, 33, reason="Ato não emitido.", by="Fulana")
    found = runner.invoke(main, ["cadastro", "numeracao", "--serie", "ALV-FRET", "--ano",
                                 "2024", "--registro", url])
    assert found.exit_code == 1
    assert "ALV-FRET nº 0033/2024: Numeração inutilizada em " in found.output
    assert "por Fulana: Ato não emitido." in found.output
    assert "0034/2024" in found.output.splitlines()[1] and "Há números sem" in found.output
    as_json = runner.invoke(main, ["cadastro", "numeracao", "--serie", "ALV-FRET", "--json",
                                   "--registro", url])
    [fretamento] = json.loads(as_json.output)
    assert (fretamento["ultimo_numero"], fretamento["sem_explicacao"],
            fretamento["anteriores_ao_lavra"][:2], fretamento["emitidos"]) == (
        34, [34], [1, 2], 0)
    assert [v["numero"] for v in fretamento["inutilizados"]] == ["ALV-FRET nº 0033/2024"]
    typed_lower = runner.invoke(main, ["cadastro", "numeracao", "--serie", " alv-fret",
                                       "--json", "--registro", url])
    assert json.loads(typed_lower.output) == [fretamento]
    none = runner.invoke(main, ["cadastro", "numeracao", "--serie", "ALV-FRET", "--ano",
                                "1999", "--registro", url])
    assert none.output == "Nenhuma numeração tomada no registro da série ALV-FRET em 1999.\n"
    bad = tmp_path / "ruim.csv"
    bad.write_text("tipo,numero\nalvara-taxi,0001/2020\n", "utf-8")
    refused = runner.invoke(main, ["cadastro", "importar", str(bad), "--data", "2026-01-15",
                                    "--registro", url])
    assert refused.exit_code == 1
    assert "Linha 2 do arquivo ruim.csv, campo «tipo»: tipo desconhecido" in refused.output


def test_the_renewal_run_picks_an_imported_alvara(tmp_path: Path) -> None:
    from issuers import dev_issuer

    from lavra.batch.model import RunRequest
    from lavra.batch.runner import find_kind, run_batch
    from lavra.issuing import registry_url

    issuer = dev_issuer(Engine(Content(REPO), pool=None), tmp_path / "dados")
    try:
        load(issuer.registry)
        # Dated 15/12/2028, over the alvarás due by 28/02/2029: ALV-FRET nº 0031/2024
        # (until 09/02/2029), imported; no request was filed, so it is notified.
        request = RunRequest("renovacao-fretamento", {"vencendo_ate": "2029-02-28"},
                             date(2028, 12, 15), None, None)
        summary = run_batch(issuer, find_kind(issuer, "renovacao-fretamento"), request,
                            tmp_path / "saida", database_url=registry_url(issuer.config),
                            simulate=True)
    finally:
        issuer.close()
    documents_ = [r for r in summary.rows if r.role == "documento"]
    assert [r.holder for r in documents_] == ["65563842000105 FRE1A11"]
    assert documents_[0].outcome == "notificado"


def test_a_cassacao_reads_its_autos_from_the_registry_imported_or_not(
    registry: Registry, engine: Engine
) -> None:
    """Issue 22: a cassação for unpaid fines (fretamento art. 22, II) cited an auto that
    did not exist, and another one whose payment the registry held. An auto numbered in
    lavra's AIF-FRET series must be in the registry (drawn up or imported); an imported
    payment rules it out."""
    from test_notificacao_defesa import example as form_example


    data = form_example(engine, "decisao-cassacao-fretamento")
    data["hipoteses"]["multas_nao_recolhidas"]["autos"] = [
        {"numero": "AIF-FRET nº 0040/2025", "data_infracao": "2025-10-01", "valor": "140.00"},
        {"numero": "AIF-FRET 0041/2025", "data_infracao": "2025-10-20", "valor": "140.00"},
        {"numero": "nº 77/2025", "data_infracao": "2025-10-20", "valor": "140.00"},
    ]
    data["decisao"]["data"] = "2026-01-15"

    def autos() -> dict[int, str]:
        report = engine.prepare("decisao-cassacao-fretamento", data, issued_on=ON,
                                history=RegistryHistory(registry)).report
        return {int(i.field.split("/")[4]): i.message for i in report.items
                if i.field.startswith("/hipoteses/multas_nao_recolhidas/autos/")
                and i.field.endswith("/numero") and i.status is Status.INVALID}

    fresh = autos()  # nothing issued nor imported: the two of lavra's series are refused
    assert sorted(fresh) == [0, 1]
    assert "AIF-FRET nº 0040/2025 não consta do registro" in fresh[0]
    assert "AIF-FRET nº 0041/2025 não consta do registro" in fresh[1]  # "nº" added
    load(registry, sample_with(
        "auto-fretamento,AIF-FRET nº 0041/2025,2025-10-20,,65.563.842/0001-05,Viação Exemplo "
        "de Fretamento Ltda.,FRE1A11" + "," * 14 + "fretamento#art16_inc1,,sim,2025-11-03,"
        "140.00"))
    imported = autos()  # 0040 imported unpaid stands; 0041 imported with its payment
    assert sorted(imported) == [1]
    assert "Consta do registro o pagamento das multas do Auto de Infração AIF-FRET nº " \
        "0041/2025 em 03/11/2025" in imported[1] and "(art. 22, II)" in imported[1]


def _refused_alvaras(engine: Engine, registry: Registry, form: str,
                     data: dict[str, Any]) -> dict[int, str]:
    """The message of each alvará of ``data["alvaras"]`` the registry refuses, by index."""
    report = engine.prepare(form, data, issued_on=ON, history=RegistryHistory(registry)).report
    return {int(i.field.split("/")[2]): i.message for i in report.items
            if i.field.startswith("/alvaras/") and i.status is Status.INVALID}


def test_a_cassacao_ends_only_alvaras_the_registry_holds_in_force_of_the_company(
    registry: Registry, engine: Engine
) -> None:
    """Issue 22: the alvarás a cassação names (fretamento art. 22) come from the state:
    one of lavra's ALV-FRET series absent from it, already cassated, or another company's
    is refused; over a fresh registry, then over the imported sample."""
    from test_notificacao_defesa import example as form_example


    data = form_example(engine, "decisao-cassacao-fretamento")
    data["alvaras"] = [{"numero": "ALV-FRET nº 0031/2024", "placa": "FRE1A11"},
                       {"numero": "ALV-FRET 0032/2024", "placa": "FRE2B22"}]
    data["decisao"]["data"] = "2026-01-15"

    def alvaras() -> dict[int, str]:
        return _refused_alvaras(engine, registry, "decisao-cassacao-fretamento", data)

    fresh = alvaras()
    assert sorted(fresh) == [0, 1]
    assert "ALV-FRET nº 0031/2024 não consta do registro" in fresh[0]
    assert "(art. 22 da Lei nº 4.419/2006)" in fresh[0]
    load(registry)
    imported = alvaras()  # 0031 is the company's, in force; 0032 was cassated
    assert sorted(imported) == [1]
    assert "não está em vigor: cassado em 15/09/2025 pelo CAS-FRET nº 0002/2025" in imported[1]
    data["empresa"]["cnpj"] = CASSATED
    assert "é de Viação Exemplo de Fretamento Ltda., não da empresa" in alvaras()[0]


def test_the_guards_read_the_imported_state(registry: Registry, engine: Engine) -> None:
    """Issue 22, "each class tested over an imported registry": the bars and the
    uniqueness rules refuse a new act against licences, cassações and transfers that
    entered through the import, naming the imported act and the article."""
    from test_licensing_guards import on_vehicle, refused
    from test_licensing_state import example as form_example


    load(registry)
    barred = form_example("alvara-fretamento")
    barred["empresa"]["cnpj"] = CASSATED  # the cassação's bar (art. 22, parágrafo único)
    refused(engine, registry, "alvara-fretamento", barred, ON, "/empresa/cnpj",
            names="CAS-FRET nº 0002/2025", article="art. 22, parágrafo único")
    school = "alvara-transporte-escolar"

    def alvara(cpf: str, placa: str) -> dict[str, Any]:
        data = on_vehicle(school, placa)
        data["titular"]["cpf"] = cpf
        data["data_expedicao"] = ON.isoformat()
        return data

    # a vehicle that holds an imported ALV-FRET (one operating alvará per vehicle)
    refused(engine, registry, school, alvara("111.444.777-35", "FRE1A11"), ON,
            "/veiculo/placa", names="ALV-FRET nº 0031/2024", article="art. 1º, § 1º")
    # a person who holds an imported school alvará (escolar art. 14)
    refused(engine, registry, school, alvara("529.982.247-25", "OUT2B34"), ON,
            "/titular/cpf", names="ALV-ESC nº 0018/2023", article="art. 14")
    # the cedente of an imported transfer (escolar art. 15, § 2º)
    refused(engine, registry, school, alvara(CEDENTE, "OUT2B34"), ON, "/titular/cpf",
            names="TRF-ESC nº 0003/2025", article="art. 15, § 2º")


def test_a_defence_notice_accuses_only_alvaras_the_registry_holds_in_force(
    registry: Registry, engine: Engine
) -> None:
    """Issue 22: a NOT-DEF-FRET accused alvarás lavra never issued. An alvará of lavra's
    series must be in the state (issued or imported) and in force; over a fresh registry,
    then over the imported sample."""
    from test_notificacao_defesa import example as form_example


    data = form_example(engine, "notificacao-defesa-cassacao")
    data["alvaras"] = [{"numero": "ALV-FRET nº 0031/2024", "placa": "FRE1A11"},
                       {"numero": "ALV-FRET 0032/2024", "placa": "FRE2B22"}]
    data["data"] = ON.isoformat()

    def alvaras() -> dict[int, str]:
        return _refused_alvaras(engine, registry, "notificacao-defesa-cassacao", data)

    fresh = alvaras()
    assert sorted(fresh) == [0, 1]
    assert "ALV-FRET nº 0031/2024 não consta do registro" in fresh[0]
    load(registry)
    imported = alvaras()
    assert sorted(imported) == [1]
    assert "não está em vigor: cassado em 15/09/2025 pelo CAS-FRET nº 0002/2025" in imported[1]


def test_an_auxiliary_alvara_rests_on_a_titular_alvara_the_registry_holds(
    registry: Registry, engine: Engine
) -> None:
    """Issue 22: an auxiliary driver's alvará was issued on a titular alvará the registry
    did not hold. Escolar art. 9º: it rests on the titular's ALV-ESC, read from the state
    (issued or imported) with its validity; over a fresh registry, then the imported one."""
    from test_notificacao_defesa import example as form_example


    form = "alvara-condutor-auxiliar"
    data = form_example(engine, form)
    data["alvara_titular"] = {"numero": "ALV-ESC nº 0018/2023", "valido_ate": "2027-12-31"}
    data["data_expedicao"] = ON.isoformat()

    def titular() -> dict[str, str]:
        report = engine.prepare(form, data, issued_on=ON,
                                history=RegistryHistory(registry)).report
        return {i.field: i.message for i in report.items
                if i.field.startswith("/alvara_titular/") and i.status is Status.INVALID}

    fresh = titular()
    assert list(fresh) == ["/alvara_titular/numero"]
    assert "ALV-ESC nº 0018/2023 não consta do registro" in fresh["/alvara_titular/numero"]
    assert "(art. 9º" in fresh["/alvara_titular/numero"]
    load(registry)
    assert titular() == {}
    data["alvara_titular"]["valido_ate"] = "2028-12-31"  # a typed validity a year late
    assert "vale até 31/12/2027 no registro, não até 31/12/2028" in titular()[
        "/alvara_titular/valido_ate"]


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_the_numbers_before_an_imported_one_are_explained_by_the_import(
    registry: Registry,
) -> None:
    """An imported ALV-FRET nº 0031/2024 moves the counter past 1 to 30, which lavra never
    gave: used on paper before lavra, the report says so and lists no gap. lavra goes on
    from 0033/2024; the numbers it loses after (rows deleted by hand) stay unexplained
    gaps, and the import may then fill only the numbering below lavra's first number."""
    from sqlalchemy import select, update
    from sqlalchemy.orm import Session
    from test_licensing_state import act, example

    from lavra.registry.importing import IMPORT_ACTOR
    from lavra.registry.tables import CounterRow, EventRow

    def alvara_fretamento(registry: Registry, *, on: date, until: date) -> Any:
        data = example("alvara-fretamento")  # not the vehicle of the sample's 0031/2024
        data["veiculo"].update(placa="DEF4G56", renavam="92134546140")
        return act(registry, "ALV-FRET", "alvara-fretamento", data, on=on,
                   computed={"inicio_vigencia": on.isoformat(), "valido_ate": until.isoformat()})

    load(registry)
    first = alvara_fretamento(registry, on=date(2024, 6, 3), until=date(2024, 6, 4))
    assert (first.series, first.year, first.number) == ("ALV-FRET", 2024, 33)
    with registry.engine.begin() as connection:  # 34 and 35 lost (rows deleted by hand)
        connection.execute(update(CounterRow).where(
            CounterRow.series == "ALV-FRET", CounterRow.year == 2024).values(last_number=35))
    later = alvara_fretamento(registry, on=date(2024, 6, 10), until=date(2029, 6, 9))
    assert later.number == 36
    lost = (("ALV-FRET", 2024, 34), ("ALV-FRET", 2024, 35))
    assert registry.numbering_gaps() == lost
    report = {(r.series, r.year): r.text for r in registry.numbering_report()}
    assert report[("ALV-FRET", 2024)] == (
        "ALV-FRET 2024, até o nº 0036/2024: números anteriores ao sistema, importados: "
        "0001 a 0030/2024; números sem explicação: 0034 a 0035/2024.")
    fretamento = registry.numbering_report(series="ALV-FRET", year=2024)
    assert [(r.issued, r.imported, r.voided) for r in fretamento] == [(2, 2, ())]
    assert report[("ALV-ESC", 2023)] == (
        "ALV-ESC 2023, até o nº 0019/2023: números anteriores ao sistema, importados: "
        "0001 a 0017/2023.")
    assert report[("TRF-ESC", 2025)].endswith("importados: 0001 a 0002/2025.")
    # A lost number of lavra's is not a number before it: the import refuses 0034/2024.
    row = ("alvara-fretamento,{},2024-01-20,,65.563.842/0001-05,Viação Exemplo de Fretamento "
           "Ltda.,FRE7K77,,,2024-12-31" + "," * 15)
    with pytest.raises(ImportRefusedError) as refused:
        load(registry, sample_with(row.format("0034/2024"), row.format("0040/2024")))
    assert [p.split(": ", 1)[1][:60] for p in refused.value.problems] == [
        "o número ALV-FRET nº 0034/2024 está dentro da numeração que ",
        "o lavra já numera a série ALV-FRET em 2024 (desde o nº 0033/",
    ]
    # An import recorded before the counter was kept: the reading from the import's rules
    # (no number of lavra's own between) explains the same numbers.
    with Session(registry.engine) as session, session.begin():
        for event in session.scalars(select(EventRow).where(
                EventRow.actor == IMPORT_ACTOR, EventRow.kind == "issued")):
            event.data = {"colunas": event.data["colunas"]}
    assert registry.numbering_gaps() == lost
    # Below lavra's first number, a paper act the first import missed is filled in.
    assert load(registry, sample_with(row.format("0020/2024"))).imported == (
        "ALV-FRET nº 0020/2024",)
    assert registry.next_number("ALV-FRET", 2024) == 37


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_a_sample_import_into_an_empty_registry_leaves_no_gap(registry: Registry) -> None:
    load(registry)
    assert registry.numbering_gaps() == ()
    assert all("sem explicação" not in r.text and "anteriores ao sistema" in r.text
               for r in registry.numbering_report())
