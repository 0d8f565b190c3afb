"""``lavra cadastro importar``, the licences that rest on an alvará (issue 22, § 4): the
selo (SELO-ESC), the auxiliary driver's alvará (ALV-AUX), the publicity authorisation
(APE-ESC), the temporary licence (LTE-ESC), the third-party vehicle authorisation
(AVT-FRET), and the special licence (LEE-ESC, which rests on another municipality's
alvará). The sample ``exemplos/cadastro-importacao-vinculados.jsonl`` rests on the
alvarás of ``exemplos/cadastro-importacao.csv``; each licence is attached to its alvará
(refused, naming the line and the field, when the alvará is not in the file or the
registry, is ended, or is another holder's or vehicle's) and ends with it; the acts
that rest on them are accepted. SQLite and PostgreSQL; every date fixed."""

from __future__ import annotations

import json
import uuid
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from registrycases import pdf_with_title
from test_cadastro_import import documents, load

from lavra.batch.inputs import parse_lines, read_lines
from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.errors import ImportRefusedError
from lavra.issuing import RegistryHistory
from lavra.registry.importing import ImportReport, plan_import
from lavra.registry.records import Built
from lavra.registry.store import Registry
from lavra_americana import pacote

REPO = Path(__file__).resolve().parent.parent
LINKED = REPO / "exemplos" / "cadastro-importacao-vinculados.jsonl"
ON = date(2026, 1, 15)
IMPORTED_ON = date(2026, 1, 31)  # the day of the import: after every row of the file
JOSE = {"cpf_cnpj": "529.982.247-25", "nome": "José Exemplo dos Santos", "placa": "ESC4D44",
        "alvara": "ALV-ESC nº 0018/2023"}
KINDS = {"selo-identificacao": "SELO-ESC nº 0007/2025",
         "alvara-condutor-auxiliar": "ALV-AUX nº 0004/2025",
         "autorizacao-publicidade-escolar": "APE-ESC nº 0002/2025",
         "licenca-temporaria-escolar": "LTE-ESC nº 0003/2026",
         "licenca-especial-escolar": "LEE-ESC nº 0001/2025",
         "autorizacao-veiculo-terceiro": "AVT-FRET nº 0002/2025"}


def load_lines(registry: Registry, *rows: dict[str, str], name: str = "vinculados.jsonl"
               ) -> ImportReport:
    if not rows:
        lines = read_lines(LINKED, "/arquivo")
        name = LINKED.name
    else:
        raw = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        lines = parse_lines(raw.encode("utf-8"), name, "/arquivo")
    return registry.import_acts(plan_import(lines, pacote().imports, name),
                                pack_version="americana", on=IMPORTED_ON)


def in_force(registry: Registry, on: date) -> dict[str, list[str]]:
    return {kind: [r.printed for r in registry.licences_in_force(kind, on)]
            for kind in KINDS}


def status(registry: Registry, printed: str) -> str:
    view = registry.licence_by_number(printed)
    assert view is not None
    return view.describe(date(2026, 1, 25))


def test_each_kind_is_imported_attached_to_its_alvara_and_ends_with_it(
    registry: Registry
) -> None:
    load(registry)
    report = load_lines(registry)
    assert sorted(report.imported) == sorted(KINDS.values())
    assert in_force(registry, ON) == {kind: [printed] for kind, printed in KINDS.items()}
    auxiliary = registry.get("ALV-AUX", 2025, 4)
    assert auxiliary is not None
    assert auxiliary.origin == "cadastro-importacao-vinculados.jsonl, linha 2"
    assert auxiliary.verification_code.startswith("IMP-")
    assert registry.next_number("SELO-ESC", 2025) == 8
    assert registry.rebuild_state(apply=False).same
    again = load_lines(registry)
    assert again.imported == () and len(again.skipped) == 6
    # Fretamento art. 22: the cassação of the company's alvará ends the authorisation to
    # use a third party's vehicle that rests on it (art. 10, § 3º).
    load_lines(registry, {
        "tipo": "cassacao-fretamento", "numero": "CAS-FRET nº 0003/2026", "data": "2026-01-20",
        "cpf_cnpj": "65.563.842/0001-05", "nome": "Viação Exemplo de Fretamento Ltda.",
        "alvaras": "ALV-FRET nº 0031/2024", "impedimento_ate": "2027-01-20"})
    assert status(registry, "AVT-FRET nº 0002/2025") == (
        "encerrado em 20/01/2026 pelo CAS-FRET nº 0003/2026")

    # Escolar art. 3º (motivo fundamentado): the revogação of the titular's alvará ends
    # the selo, the auxiliary's alvará, the publicity and the temporary licence.
    def build(number: int, formatted: str) -> Built:
        return Built(pdf=pdf_with_title(formatted), docx=None,
                     data={"alvara": {"numero": "ALV-ESC nº 0018/2023"},
                           "hipotese": {"tipo": "motivo_fundamentado"}},
                     computed={}, reference_date=date(2026, 1, 21),
                     verification_code=uuid.uuid4().hex[:20].upper(),
                     signer_subject="CN=Servidor de Teste", signer_serial="0A",
                     pack_version="teste")
    revoked = registry.issue("REV-ESC", 2026, "decisao-revogacao-alvara", build)
    for kind in ("selo-identificacao", "alvara-condutor-auxiliar",
                 "autorizacao-publicidade-escolar", "licenca-temporaria-escolar"):
        assert status(registry, KINDS[kind]) == (
            f"encerrado em 21/01/2026 pelo REV-ESC nº {revoked.number:04d}/2026")
    assert in_force(registry, date(2026, 1, 25))["licenca-especial-escolar"] == [
        "LEE-ESC nº 0001/2025"]  # it rests on no alvará of this registry
    assert registry.rebuild_state(apply=False).same


def test_an_alvara_earlier_in_the_same_file_carries_its_selo(registry: Registry) -> None:
    report = load_lines(registry, {
        "tipo": "alvara-escolar", "numero": "ALV-ESC nº 0018/2023", "data": "2023-03-10",
        "cpf_cnpj": "529.982.247-25", "nome": "José Exemplo dos Santos", "placa": "ESC4D44",
        "valido_ate": "2027-12-31", "cnh": "85263635330"},
        {"tipo": "selo-escolar", "numero": "0007/2025", "data": "2025-01-10",
         "valido_ate": "2027-12-31", **JOSE})
    assert report.imported == ("ALV-ESC nº 0018/2023", "SELO-ESC nº 0007/2025")
    # Cancelled, the selo leaves the state but stays in the vehicle's history, act by act.
    registry.cancel("SELO-ESC", 2025, 7, reason="selo extraviado.", by="Chefia")
    assert status(registry, "ALV-ESC nº 0018/2023") == "em vigor"
    said = [detail for _, printed, detail in registry.state_changes(placa="ESC4D44")
            if printed.startswith("SELO-ESC nº 0007/2025")]
    assert len(said) == 1 and said[0].startswith("Ato cancelado em "), said
    assert said[0].endswith("(motivo: selo extraviado); desfeito o que alterou no cadastro "
                            "(SELO-ESC nº 0007/2025)."), said


def _items(engine: Engine, registry: Registry, form: str, data: dict[str, Any],
           prefix: str) -> dict[str, str]:
    """The items under ``prefix`` that stop the act (invalid or missing)."""
    report = engine.prepare(form, data, issued_on=ON, history=RegistryHistory(registry)).report
    return {i.field: i.message for i in report.items
            if i.field.startswith(prefix) and i.status in (Status.INVALID, Status.MISSING)}


def test_the_acts_resting_on_imported_licences_are_accepted(
    registry: Registry, engine: Engine
) -> None:
    """Before the import, the act is refused ("não consta do registro", or the selo in
    force blocks a new one); after it, the act that rests on the imported licence passes."""
    from test_notificacao_defesa import example

    termo = example(engine, "termo-condutor-substituto")
    termo["licenca_temporaria"] = {"numero": "LTE-ESC nº 0003/2026", "valido_ate": "2026-02-04"}
    termo["veiculo"]["placa"] = "ESC4D44"
    termo["data_termo"] = ON.isoformat()
    selo = example(engine, "selo-identificacao")
    selo["alvara"] = {"numero": "ALV-ESC nº 0018/2023", "valido_ate": "2027-12-31"}
    selo["veiculo"]["placa"] = "ESC4D44"
    selo["data_expedicao"] = ON.isoformat()
    auxiliar = example(engine, "alvara-condutor-auxiliar")
    auxiliar["alvara_titular"] = {"numero": "ALV-ESC nº 0018/2023", "valido_ate": "2027-12-31"}
    auxiliar["veiculo"]["placa"] = "ESC4D44"
    auxiliar["data_expedicao"] = ON.isoformat()
    revogacao = example(engine, "decisao-revogacao-alvara")
    revogacao["condutor"] = {"nome": "Carlos Exemplo Auxiliar", "cpf": "314.159.265-90",
                             "condicao": "auxiliar"}
    revogacao["alvara"] = {"numero": "ALV-AUX nº 0004/2025"}
    revogacao["veiculo"]["placa"] = "ESC4D44"
    load(registry)
    assert _items(engine, registry, "alvara-condutor-auxiliar", auxiliar, "/veiculo") == {}
    assert "ALV-AUX nº 0004/2025 não consta do registro" in _items(
        engine, registry, "decisao-revogacao-alvara", revogacao, "/alvara")["/alvara/numero"]
    licence = _items(engine, registry, "termo-condutor-substituto", termo, "/licenca_temporaria")
    assert "LTE-ESC nº 0003/2026 não consta do registro" in licence["/licenca_temporaria/numero"]
    assert _items(engine, registry, "selo-identificacao", selo, "/alvara") == {}
    load_lines(registry)
    # Escolar art. 5º, III: the termo of the substitute vehicle's driver rests on the LTE.
    assert _items(engine, registry, "termo-condutor-substituto", termo, "/licenca") == {}
    # Art. 3º, § 2º: one selo per alvará; the 2ª via replaces the imported one.
    assert "SELO-ESC nº 0007/2025" in _items(
        engine, registry, "selo-identificacao", selo, "/alvara")["/alvara/numero"]
    # Art. 9º, § 2º: the revogação of the auxiliary's own alvará rests on the import.
    assert _items(engine, registry, "decisao-revogacao-alvara", revogacao, "/alvara") == {}
    # Art. 9º, caput: at most one auxiliary; the imported one holds the vehicle's place.
    assert "ALV-AUX nº 0004/2025" in _items(
        engine, registry, "alvara-condutor-auxiliar", auxiliar, "/veiculo")["/veiculo/placa"]
    selo["substitui_selo"] = {"numero": "SELO-ESC nº 0007/2025", "motivo": "extravio"}
    assert _items(engine, registry, "selo-identificacao", selo, "/") == {}


def test_a_row_resting_on_a_missing_ended_or_other_alvara_is_refused(
    registry: Registry, registry_url: str
) -> None:
    load(registry)
    before = documents(registry_url)
    rows = [
        {"tipo": "selo-escolar", "numero": "0008/2025", "data": "2025-01-10",
         "valido_ate": "2027-12-31", **JOSE, "alvara": "ALV-ESC nº 0077/2023"},
        {"tipo": "autorizacao-veiculo-terceiro", "numero": "0003/2025", "data": "2025-11-03",
         "cpf_cnpj": "49.234.427/0416-80", "nome": "Transportes Antigos Exemplo Ltda.",
         "alvara": "ALV-FRET nº 0032/2024", "placa": "TER7G89", "valido_ate": "2026-11-02",
         "cedente_cnpj": "27.182.818/0001-29", "cedente_nome": "Locadora Exemplo Ltda."},
        {"tipo": "alvara-auxiliar", "numero": "0005/2025", "data": "2025-02-03", **JOSE,
         "valido_ate": "2028-06-30", "auxiliar_cpf": "314.159.265-90",
         "auxiliar_nome": "Carlos Exemplo Auxiliar", "auxiliar_cnh": "31415926507"},
        {"tipo": "autorizacao-publicidade", "numero": "0003/2025", "data": "2025-03-01",
         **JOSE, "cpf_cnpj": "04304818457", "valido_ate": "2026-02-28"},
        {"tipo": "selo-escolar", "numero": "0009/2025", "data": "2025-01-10",
         "valido_ate": "2027-12-31", **JOSE, "placa": "FRE1A11"},
    ]
    with pytest.raises(ImportRefusedError) as refused:
        load_lines(registry, *rows)
    problems = {p.split(":", 1)[0]: p for p in refused.value.problems}
    at = "Linha {} do arquivo vinculados.jsonl, campo «{}»"
    assert "ALV-ESC nº 0077/2023, a que este ato se vincula, não consta do cadastro" in (
        problems[at.format(1, "alvara")])
    assert "ALV-FRET nº 0032/2024 não está em vigor (cassado em 15/09/2025)" in (
        problems[at.format(2, "alvara")])
    assert "passa do último dia do ALV-ESC nº 0018/2023 (31/12/2027)" in (
        problems[at.format(3, "valido_ate")])
    assert ("«043.048.184-57» não é o titular do ALV-ESC nº 0018/2023"  # masked as printed
            in problems[at.format(4, "cpf_cnpj")])
    assert "não é a do veículo do ALV-ESC nº 0018/2023" in problems[at.format(5, "placa")]
    assert len(problems) == 5
    assert documents(registry_url) == before  # nothing written


@pytest.mark.parametrize(("row", "column", "words"), [
    ({"tipo": "licenca-temporaria", "modalidade": "outra"}, "modalidade",
     "veiculo_substituto ou condutor_saude"),
    ({"tipo": "licenca-temporaria", "modalidade": "veiculo_substituto"},
     "veiculo_substituto_placa", "obrigatório na modalidade"),
    ({"tipo": "alvara-auxiliar", "auxiliar_cpf": "314.159.265-90", "auxiliar_cnh": "1",
      "auxiliar_nome": "Carlos Exemplo"}, "auxiliar_cnh", "CNH"),
    ({"tipo": "alvara-auxiliar", "auxiliar_cpf": "529.982.247-25", "auxiliar_cnh": "1",
      "auxiliar_nome": "Carlos Exemplo"}, "auxiliar_cpf", "o próprio titular"),
    ({"tipo": "selo-escolar", "nome": "J" * 201}, "nome", "de 3 a 200 caracteres"),
    ({"tipo": "selo-escolar", "alvara": "ALV-FRET nº 0031/2024"}, "alvara",
     "não é da série ALV-ESC"),
    ({"tipo": "selo-escolar", "cor": "azul"}, "cor", "não usa"),
])
def test_a_bad_row_is_reported_with_its_line_and_field(
    row: dict[str, str], column: str, words: str
) -> None:
    good = {"numero": "0001/2025", "data": "2025-01-10", "valido_ate": "2025-12-31", **JOSE}
    raw = "".join(json.dumps(r, ensure_ascii=False) + "\n"
                  for r in ({"tipo": "selo-escolar", **good}, {**good, **row}))
    with pytest.raises(ImportRefusedError) as refused:
        plan_import(parse_lines(raw.encode("utf-8"), "v.jsonl", "/arquivo"),
                    pacote().imports, "v.jsonl")
    [problem] = refused.value.problems
    assert problem.startswith(f"Linha 2 do arquivo v.jsonl, campo «{column}»")
    assert words in problem


def test_the_readme_shows_one_line_of_each_kind_the_import_reads() -> None:
    text = (REPO / "README.md").read_text("utf-8")
    section = text.split("#### Importação do que existia antes do lavra", 1)[1]
    block = section.split("```\n", 2)[1]
    planned = plan_import(parse_lines(block.encode("utf-8"), "README.jsonl", "/arquivo"),
                          pacote().imports, "README.jsonl")
    assert sorted(p.act.form for p in planned) == sorted(KINDS)
