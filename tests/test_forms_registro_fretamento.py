"""The certificate of the company's registration at SETRANSV (Lei nº 4.419/2006, art.
2º, § 1º): ``certidao-registro-fretamento`` (CRE-FRET), signed by the Secretário, and
what the Alvará de Licença de Circulação reads of it from the licensing state.

The certificate certifies a legal person *with* a profit purpose, its CNPJ (check
digits), its inscription in the municipal Cadastro de Atividades, its seat and its
legal representative (a seat elsewhere also needs the registration of § 2º); it has no
term (the law gives none) and one is in force per company, a new one replacing the
old. The ALV-FRET, with a registry, is complete only when the company holds a
registration in force there, or a servant attests one from before lavra. The issued
PDFs are read back with poppler and their signatures validated.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from formcases import DELETE, assert_reported, at, example, setter
from identities import set_vehicle
from issuers import VERIFICATION_URL

from lavra.batch.inputs import parse_lines
from lavra.checking.report import Report, Status
from lavra.config import Config
from lavra.documents import Engine
from lavra.inputs.reading import TIMEZONE
from lavra.issuing import Issuer, RegistryHistory, ensure_dev_pki
from lavra.registry.database import database_url
from lavra.registry.effects import LicenceStatus
from lavra.registry.importing import plan_import
from lavra.registry.store import open_registry
from lavra_americana import pacote

CRE = "certidao-registro-fretamento"
ALV = "alvara-fretamento"
P1, P2 = "fretamento#art2_par1", "fretamento#art2_par2"
DAY = date(2026, 12, 1)
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=TIMEZONE)
OTHER_CNPJ = "11.222.333/0001-81"


def poppler(pdf: bytes) -> str:
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                         check=True, timeout=60)
    return " ".join(out.stdout.decode("utf-8").split())


@pytest.fixture(scope="module")
def issuer(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Issuer]:
    """A SQLite registry signing at ``NOW`` (the PKI valid from the day before)."""
    data_dir = tmp_path_factory.mktemp("registro") / "dados"
    config = Config(pack_dir=engine.content.root, data_dir=data_dir,
                    verification_url=VERIFICATION_URL)
    ensure_dev_pki(config, engine.content, valid_from=datetime(2026, 11, 1, tzinfo=TIMEZONE))
    made = Issuer(engine, open_registry(database_url(config.data_dir)), config,
                  clock=lambda: NOW)
    try:
        yield made
    finally:
        made.close()


def report(engine: Engine, form: str, data: dict[str, Any],
           issuer: Issuer | None = None) -> Report:
    history = None if issuer is None else issuer.history
    return engine.prepare(form, data, issued_on=DAY, history=history).report


def alvara(engine: Engine, cnpj: str | None = None) -> dict[str, Any]:
    """The ALV-FRET example without the attested paper registration."""
    data = example(engine, ALV)
    setter("/empresa/registro_setransv", DELETE)(data)
    if cnpj is not None:
        data["empresa"]["cnpj"] = cnpj
    return data


def test_a_numbered_certificate_the_secretary_signs(engine: Engine) -> None:
    form = engine.content.form(CRE)
    assert form.series == "CRE-FRET" and not form.fillable
    assert form.signer_role == "secretario-transportes"
    assert P1 in form.basis


def test_the_conditions_of_paragraph_1(engine: Engine) -> None:
    assert report(engine, CRE, example(engine, CRE)).complete
    data = example(engine, CRE)
    data["empresa"]["fins_lucrativos"] = False
    assert_reported(report(engine, CRE, data), "/empresa/fins_lucrativos", Status.INVALID, P1)
    data = example(engine, CRE)
    data["empresa"]["cnpj"] = "65.563.842/0001-06"  # a wrong check digit
    found = report(engine, CRE, data)
    assert not found.complete and at(found, "/empresa/cnpj").pending
    data = example(engine, CRE)
    setter("/empresa/cadastro_atividades", DELETE)(data)
    assert not report(engine, CRE, data).complete


def test_a_seat_elsewhere_shows_the_registration_of_paragraph_2(engine: Engine) -> None:
    data = example(engine, CRE)
    data["empresa"]["sede_em_americana"] = False
    assert_reported(report(engine, CRE, data), "/empresa/cadastro_origem", Status.MISSING, P2)
    data["empresa"]["cadastro_origem"] = {"orgao": "Prefeitura de Campinas – EMDEC",
                                          "numero": "FR-1234"}
    assert report(engine, CRE, data).complete


def test_no_fact_after_the_act(engine: Engine) -> None:
    data = example(engine, CRE)
    data["registro"]["data"] = "2026-12-02"
    assert_reported(report(engine, CRE, data), "/registro/data", Status.INVALID, P1)
    data = example(engine, CRE)
    data["conferencia"]["data"] = "2026-11-19"  # before the request of 20/11
    assert_reported(report(engine, CRE, data), "/conferencia/data", Status.INVALID, P1)
    data = example(engine, CRE)
    data["conferencia"]["data"] = "2026-11-25"  # after the registration of 24/11
    assert_reported(report(engine, CRE, data), "/conferencia/data", Status.INVALID, P1)


def test_the_alvara_asks_the_state_for_the_registration(engine: Engine, issuer: Issuer) -> None:
    # Without a registry nothing is asked: only the registry knows.
    assert report(engine, ALV, alvara(engine)).complete
    # A registry, and no registration: missing, citing art. 2º, § 1º.
    missing = report(engine, ALV, alvara(engine), issuer)
    assert_reported(missing, "/empresa/registro_setransv", Status.MISSING, P1)
    assert "Certidão de Registro (CRE-FRET)" in at(missing, "/empresa/registro_setransv").message
    # A number in lavra's own series that the registry lacks.
    typed = alvara(engine)
    typed["empresa"]["registro_setransv"] = {"numero": "CRE-FRET nº 0009/2026"}
    found = report(engine, ALV, typed, issuer)
    assert_reported(found, "/empresa/registro_setransv/numero", Status.INVALID, P1)
    assert "não consta do registro" in at(found, "/empresa/registro_setransv/numero").message

    # The certificate, issued, read back and verified.
    result = issuer.issue(CRE, example(engine, CRE))
    first = result.record.printed
    assert first == "CRE-FRET nº 0001/2026"
    text = poppler(result.pdf)
    for expected in (
        "certifica que Viação Exemplo de Fretamento Ltda., CNPJ nº 65.563.842/0001-05, "
        "está registrada nesta Secretaria desde 24/11/2026",
        "Sociedade Empresária Limitada, com fins lucrativos",
        "nº CA-98765, de 10/03/2015",
        "Maria Exemplo da Silva, CPF nº 017.539.359-11, Sócia-administradora",
        "Rua Exemplo, 100, Centro, Americana/SP, CEP 13465-000",
        "não fixa prazo de validade para o registro",
        "nos termos do art. 2º, § 1º, da Lei Municipal nº 4.419, de 17 de novembro de 2006",
        "PA 12.001/2026, requerimento de 20/11/2026",
        "por Ana Exemplo Pereira, Agente Administrativo, em 23/11/2026",
        first,
    ):
        assert expected in text, expected
    assert issuer.verify(result.pdf).valid
    view = issuer.history.licence_status(first, CRE)
    assert view is not None and view.status == LicenceStatus.ACTIVE
    assert view.valid_until is None

    # The alvará now reads it from the state, and prints it.
    assert report(engine, ALV, alvara(engine), issuer).complete
    issued = issuer.issue(ALV, alvara(engine))
    assert f"Registro na SETRANSV {first} (art. 2º, § 1º)" in poppler(issued.pdf)
    assert issuer.verify(issued.pdf).valid
    # Another company is still missing; one attested from before lavra is complete, and
    # the act says so.
    other = alvara(engine, OTHER_CNPJ)
    set_vehicle(other["veiculo"], "XYZ9A87")
    assert_reported(report(engine, ALV, other, issuer), "/empresa/registro_setransv",
                    Status.MISSING, P1)
    other["empresa"]["registro_setransv"] = {
        "numero": "FRET-0042",
        "conferencia": {"responsavel": "Ana Exemplo Pereira, Agente Administrativo",
                        "data": "2026-11-27"},
    }
    assert report(engine, ALV, other, issuer).complete
    prepared = engine.prepare(ALV, other, issued_on=DAY, history=issuer.history)
    assert prepared.computed["registro_setransv"] == (
        "nº FRET-0042, anterior ao sistema, conferido por Ana Exemplo Pereira, "
        "Agente Administrativo, em 27/11/2026")
    draft = poppler(engine.draft(ALV, other, on=DAY, history=issuer.history).pdf)
    assert "nº FRET-0042, anterior ao sistema" in draft
    # The attestation must come before the alvará.
    other["empresa"]["registro_setransv"]["conferencia"]["data"] = "2026-12-02"
    assert_reported(report(engine, ALV, other, issuer),
                    "/empresa/registro_setransv/conferencia/data", Status.INVALID, P1)


def test_one_registration_per_company_a_new_one_replaces_it(
    engine: Engine, issuer: Issuer
) -> None:
    first = "CRE-FRET nº 0001/2026"
    if issuer.history.licence_status(first, CRE) is None:
        issuer.issue(CRE, example(engine, CRE))
    again = example(engine, CRE)
    found = report(engine, CRE, again, issuer)
    assert_reported(found, "/empresa/cnpj", Status.INVALID, P1)
    assert first in at(found, "/empresa/cnpj").message
    # Replacing a certificate of another company, or one the registry lacks, is invalid.
    again["substitui"] = {"numero": "CRE-FRET nº 0077/2026", "motivo": "novo endereço"}
    assert_reported(report(engine, CRE, again, issuer), "/substitui/numero",
                    Status.INVALID, P1)
    again["substitui"] = {"numero": first, "motivo": "alteração do endereço da sede"}
    again["empresa"]["endereco"]["numero"] = "250"
    result = issuer.issue(CRE, again)
    second = result.record.printed
    assert ("Esta certidão substitui a certidão CRE-FRET nº 0001/2026 (alteração do "
            "endereço da sede), que deixa de valer") in poppler(result.pdf)
    old = issuer.history.licence_status(first, CRE)
    assert old is not None and old.status == LicenceStatus.RENEWED
    assert issuer.verify(result.pdf).valid
    draft = poppler(engine.draft(ALV, alvara(engine), on=DAY, history=issuer.history).pdf)
    assert f"Registro na SETRANSV {second}" in draft
    # Cancelling the new certificate gives the old one back its place.
    series, _, bare = second.partition(" nº ")
    issuer.cancel(bare, "emitida em duplicidade", "Chefia da SETRANSV", series=series)
    old = issuer.history.licence_status(first, CRE)
    assert old is not None and old.status == LicenceStatus.ACTIVE


def test_an_imported_registration_counts_for_the_alvara(engine: Engine, tmp_path: Path) -> None:
    """A registration from before lavra enters through ``lavra cadastro importar``."""
    raw = ("tipo,numero,data,processo,cpf_cnpj,nome\n"
           f"registro-fretamento,0005/2020,2020-04-01,PA 900/2020,{OTHER_CNPJ},"
           "Fretamento Antigo Exemplo Ltda.\n").encode()
    registry = open_registry(database_url(tmp_path))
    registry.use_effects(pacote().effects)
    registry.ensure_state()
    try:
        lines = parse_lines(raw, "cadastro.csv", "/arquivo")
        registry.import_acts(plan_import(lines, pacote().imports, "cadastro.csv"),
                             pack_version="americana", on=DAY)
        history = RegistryHistory(registry)
        data = alvara(engine, OTHER_CNPJ)
        prepared = engine.prepare(ALV, data, issued_on=DAY, history=history)
        assert prepared.report.complete
        assert prepared.computed["registro_setransv"] == "CRE-FRET nº 0005/2020"
        other = engine.prepare(ALV, alvara(engine), issued_on=DAY, history=history).report
        assert_reported(other, "/empresa/registro_setransv", Status.MISSING, P1)
    finally:
        registry.close()
