"""``lavra cadastro importar`` refuses what would make false facts (issue 22, § 4): an act
or a payment dated after the import, a number lavra's own counter already passed; its
refusals name the file's columns, never the registry's fields, and one attempt lists
every independent refusal of the file. A fact recorded later on an imported act (a
payment between the auto and the import) is compared with the act's own date, not with
the day the import wrote it. Over SQLite (no SQL of its own to test on PostgreSQL beyond
tests/test_cadastro_import.py). Every date is fixed: nothing depends on today."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from test_cadastro_import import ON, bare_act, documents, load, sample_with

from lavra.batch.inputs import parse_lines
from lavra.errors import ImportRefusedError, InputError
from lavra.registry.importing import read_import
from lavra.registry.store import Registry
from lavra_americana import pacote

pytestmark = pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)

AFTER_IMPORT = datetime(2026, 1, 15, 15, 0, tzinfo=UTC)  # the day of the import, 12:00 local
EMPTY_TO_INFRACAO = "," * 14  # from placa to infracao in the sample's columns


def auto_escolar(number: str, on: str, paid: str = "não,,") -> str:
    return (f"auto-escolar,{number},{on},,529.982.247-25,José Exemplo dos Santos,ESC4D44"
            f"{EMPTY_TO_INFRACAO}transporte-escolar#art21_inc5,,{paid}")


def escolar(number: str, on: str, cpf: str, name: str, placa: str, until: str,
            cnh: str) -> str:
    return f"alvara-escolar,{number},{on},,{cpf},{name},{placa},,,{until},{cnh}" + "," * 14


def test_a_payment_between_the_auto_and_the_import_is_recorded(registry: Registry) -> None:
    """The AIF-FRET nº 0040/2025 of 01/10/2025, imported on 15/01/2026, paid on
    30/11/2025: the payment is recorded (a cassação for an unpaid fine would be false);
    a payment before the auto is still refused, naming the act's own date."""
    load(registry)
    auto = registry.get("AIF-FRET", 2025, 40)
    assert auto is not None and auto.origin is not None
    paid = registry.record_fact(auto.id, "pagamento", on=date(2025, 11, 30),
                                by="Maria (maria)", amount="130,00", now=AFTER_IMPORT)
    assert (paid.on, paid.amount) == (date(2025, 11, 30), "130.00")
    known = registry.record_fact(auto.id, "ciencia", on="2025-10-02T09:30", means="pessoal",
                                 by="Maria (maria)", now=AFTER_IMPORT)
    assert known.on == date(2025, 10, 2)
    with pytest.raises(InputError) as before:
        registry.record_fact(auto.id, "pagamento", on=date(2025, 9, 30), by="Maria (maria)",
                             amount="130,00", now=AFTER_IMPORT)
    assert before.value.field == "/data"
    assert before.value.message.startswith(
        "A data do fato (30/09/2025) é anterior à data do documento AIF-FRET nº 0040/2025 "
        "(01/10/2025)")
    assert [f.kind for f in registry.facts(auto.id)] == ["pagamento", "ciencia"]


def test_every_refusal_of_the_file_is_listed_by_its_column(
    registry: Registry, registry_url: str
) -> None:
    """A bad validity (refused when the row is read) does not hide the refusals the
    registry finds; each names the file's column (renavam, cnh, cpf_cnpj), not the
    registry's field (veiculo/renavam, cnh/numero, titular)."""
    rows = (
        escolar("0020/2023", "2023-04-01", "111.444.777-35", "Outra Pessoa Exemplo",
                "ESC6F66", "2022-12-31", "62870568804"),
        "alvara-fretamento,0050/2024,2024-05-02,,65.563.842/0001-05,Nova Exemplo Ltda.,"
        "FRE9Z99,80549125947,,2029-05-01" + "," * 15,
        escolar("0021/2023", "2023-04-02", "111.444.777-35", "Outra Pessoa Exemplo",
                "ESC7G77", "2027-12-31", "85263635330"),
        auto_escolar("AIE-ESC nº 0012/2025", "2026-02-01"),
        auto_escolar("AIE-ESC nº 0013/2025", "2025-09-01", "sim,2026-02-01,\"140,00\""),
        escolar("ALV-ESC nº 0001/2025", "2025-07-01", "043.048.184-57",
                "Pedro Exemplo Cedente", "ESC8H88", "2027-12-31", "97297271182"),
    )
    raw = sample_with(*rows)
    planned, refused = read_import(parse_lines(raw, "cadastro.csv", "/arquivo"),
                                   pacote().imports, "cadastro.csv")
    with pytest.raises(ImportRefusedError) as caught:
        registry.import_acts(planned, pack_version="americana", on=ON, refused=refused)
    problems = caught.value.problems
    where = [p.split(":")[0] for p in problems]
    assert where == [f"Linha {line} do arquivo cadastro.csv, campo «{column}»" for line, column
                     in ((11, "valido_ate"), (12, "renavam"), (13, "cnh"), (14, "data"),
                         (15, "data_pagamento"), (16, "cpf_cnpj"))], problems
    assert "consta do cadastro no veículo de placa FRE1A11" in problems[1]
    assert "A CNH nº 85263635330 consta do cadastro em nome de José" in problems[2]
    assert problems[3].endswith("a data do ato (01/02/2026) é posterior à da importação "
                                "(15/01/2026): só se importam atos já praticados.")
    assert "a data do pagamento (01/02/2026) é posterior à da importação" in problems[4]
    assert "está impedido" in problems[5] and "TRF-ESC nº 0003/2025" in problems[5]
    assert not any("/" in p.split("»")[0].split("«")[-1] for p in problems)
    assert documents(registry_url) == 0  # the good rows of the file neither


def test_the_import_fills_only_the_numbering_before_lavra(
    registry: Registry, registry_url: str
) -> None:
    """lavra gave AIE-ESC nº 0001/2026 and 0002/2026: an imported 0003/2026 or above would
    be a number of lavra's counter (a false «anterior ao lavra» in the numbering report),
    refused naming the column, the counter untouched; the same row for 2025, where lavra
    gave nothing, is imported."""
    for _ in range(2):
        registry.issue("AIE-ESC", 2026, "auto-infracao-escolar", bare_act(date(2026, 1, 5)))
    load(registry)
    before = documents(registry_url)
    with pytest.raises(ImportRefusedError) as refused:
        load(registry, sample_with(auto_escolar("AIE-ESC nº 0050/2026", "2026-01-10")))
    [problem] = refused.value.problems
    assert problem == (
        "Linha 11 do arquivo cadastro-importacao.csv, campo «numero»: o lavra já numera a "
        "série AIE-ESC em 2026 (desde o nº 0001/2026): o AIE-ESC nº 0050/2026, acima desse, "
        "seria um ato do lavra; a importação só preenche a numeração anterior a ele.")
    assert registry.next_number("AIE-ESC", 2026) == 3 and documents(registry_url) == before
    report = load(registry, sample_with(auto_escolar("AIE-ESC nº 0050/2025", "2025-12-10")))
    assert report.imported == ("AIE-ESC nº 0050/2025",)
