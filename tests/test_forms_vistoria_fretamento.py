"""The extraordinary vistoria of fretamento art. 13 (TVE-FRET), over a real SQLite
registry: the vehicle withdrawn from service suspends its alvará in the licensing state
(verify and the registry say so, and a second alvará cannot take its place); the termo
of the new vistoria that finds it regularised releases it; cancelling undoes it. The
issued PDFs are read back with poppler."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

import pytest
from formcases import assert_reported, at, example
from issuers import clocked_issuer, flowing, poppler

from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra.inputs.reading import TIMEZONE
from lavra.issuing import Issuer
from lavra.registry.effects import LicenceStatus

TVE = "termo-vistoria-extraordinaria-fretamento"
ALV = "alvara-fretamento"
ART13 = "fretamento#art13"
DAY = date(2026, 12, 1)
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=TIMEZONE)


@pytest.fixture(scope="module")
def issuer(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Issuer]:
    made = clocked_issuer(engine, tmp_path_factory.mktemp("vistoria") / "dados", NOW)
    try:
        yield made
    finally:
        made.close()


def report(engine: Engine, data: dict[str, Any], issuer: Issuer | None = None) -> Report:
    history = None if issuer is None else issuer.history
    return engine.prepare(TVE, data, issued_on=DAY, history=history).report


def vistoria(engine: Engine, alvara: str, **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(example(engine, TVE))
    data["ocorrencia"]["data"] = DAY.isoformat()
    data["ciencia"]["data"] = DAY.isoformat()
    data["alvara"]["numero"] = alvara
    data.update(changes)
    return data


def regularizacao(engine: Engine, alvara: str, termo: str) -> dict[str, Any]:
    data = vistoria(engine, alvara, finalidade="regularizacao",
                    termo_anterior={"numero": termo})
    data["exigencias"]["seguranca"] = {
        "atendida": True, "constatacao": "Pneus dianteiros e extintor substituídos."}
    return data


def test_the_form_the_agent_signs(engine: Engine) -> None:
    form = engine.content.form(TVE)
    assert form.series == "TVE-FRET" and not form.fillable
    assert form.signer_role == "agente-fiscalizacao"
    assert ART13 in form.basis


def test_a_failed_requirement_needs_what_was_found(engine: Engine) -> None:
    data = vistoria(engine, "ALV-FRET nº 0012/2025")
    del data["exigencias"]["seguranca"]["constatacao"]
    assert_reported(report(engine, data), "/exigencias/seguranca/constatacao",
                    Status.MISSING, ART13)
    # Without the registry, the withdrawal cannot be recorded on the alvará.
    assert_reported(report(engine, vistoria(engine, "ALV-FRET nº 0012/2025")),
                    "/alvara/numero", Status.MISSING, ART13)
    late = vistoria(engine, "ALV-FRET nº 0012/2025")
    late["ocorrencia"]["hora"] = "11:00"  # after the moment of issue (10:00)
    prepared = engine.prepare(TVE, late, issued_on=DAY, issued_at=NOW)
    assert at(prepared.report, "/ocorrencia/hora").status is Status.INVALID


def test_withdrawal_suspends_the_alvara_until_the_new_vistoria_releases_it(
    engine: Engine, issuer: Issuer
) -> None:
    alvara = issuer.issue(ALV, example(engine, ALV))
    alv = alvara.record.printed
    # A number of lavra's series the registry lacks cannot be withdrawn.
    found = report(engine, vistoria(engine, "ALV-FRET nº 0099/2026"), issuer)
    assert_reported(found, "/alvara/numero", Status.INVALID, ART13)

    data = vistoria(engine, alv)
    assert report(engine, data, issuer).complete
    termo = issuer.issue(TVE, data)
    first = termo.record.printed
    assert first == "TVE-FRET nº 0001/2026"
    text = flowing(termo.pdf)  # the sentences below may cross a page break
    for expected in (
        "realizou vistoria extraordinária no veículo",
        "Segurança Não atendida: Pneus dianteiros com desgaste além do limite",
        "Higiene Atendida",
        "determina-se a imediata retirada do veículo do serviço até a regularização da "
        "situação (art. 13 da Lei nº 4.419/2006)",
        f"sob o Alvará de Licença de Circulação {alv}, que fica suspenso",
        "sem prévia manifestação da empresa ou entidade (art. 13 da Lei nº 4.419/2006; "
        "art. 45 da Lei nº 9.784, de 29 de janeiro de 1999)",  # first mention: in full
        "aplicado por analogia, à falta de recurso próprio no art. 13",
        "no prazo de 15 dias contados da data da vistoria: o prazo encerra-se em 16/12/2026",
        "cabe recurso ao Prefeito Municipal, no mesmo prazo",
        "tomei ciência em 01/12/2026",
        "Agente de Fiscalização de Trânsito",
    ):
        assert expected in text, expected
    assert issuer.verify(termo.pdf).valid

    # The state: the alvará suspended, still holding the vehicle's place.
    view = issuer.history.licence_status(alv, ALV)
    assert view is not None and view.status == LicenceStatus.SUSPENDED
    said = ("suspenso em 01/12/2026 pelo TVE-FRET nº 0001/2026: não pode ser utilizado "
            "até ser liberado")
    assert view.describe(DAY) == said
    verified = issuer.verify(alvara.pdf, on=DAY)
    assert verified.licence is not None and verified.licence.text == said
    assert [v.printed for v in issuer.history.vehicle_licences("ABC1D23", DAY)] == [alv]
    other = engine.prepare(ALV, example(engine, ALV), issued_on=DAY, history=issuer.history)
    assert_reported(other.report, "/veiculo/placa", Status.INVALID, "fretamento#art8")
    assert alv in at(other.report, "/veiculo/placa").message
    # A second withdrawal of a withdrawn vehicle is refused.
    again = report(engine, vistoria(engine, alv), issuer)
    assert_reported(again, "/alvara/numero", Status.INVALID, ART13)
    assert "suspenso" in at(again, "/alvara/numero").message

    # The new vistoria must name the termo that withdrew the vehicle.
    wrong = regularizacao(engine, alv, "TVE-FRET nº 0042/2026")
    assert_reported(report(engine, wrong, issuer), "/termo_anterior/numero",
                    Status.MISSING, ART13)
    still = regularizacao(engine, alv, first)
    still["exigencias"]["higiene"] = {"atendida": False, "constatacao": "Salão sujo."}
    prepared = engine.prepare(TVE, still, issued_on=DAY, history=issuer.history)
    assert prepared.report.complete and prepared.computed["liberacao"] is False
    assert "permanece retirado do serviço" in prepared.computed["resultado"]

    released = issuer.issue(TVE, regularizacao(engine, alv, first))
    text = poppler(released.pdf)
    assert ("para verificar a regularização da situação constatada no "
            "TVE-FRET nº 0001/2026") in text
    assert "o veículo é liberado e volta ao serviço" in text
    view = issuer.history.licence_status(alv, ALV)
    assert view is not None and view.status == LicenceStatus.ACTIVE
    timeline = [entry.detail for entry in issuer.registry.timeline(placa="ABC1D23")]
    assert f"{alv} suspenso pelo TVE-FRET nº 0001/2026." in timeline
    assert f"{alv} liberado pelo {released.record.printed}." in timeline
    # A termo that released nothing cannot be the ground of another release.
    assert_reported(report(engine, regularizacao(engine, alv, released.record.printed),
                           issuer), "/termo_anterior/numero", Status.INVALID, ART13)

    # Cancelling the release puts the withdrawal back; cancelling the withdrawal
    # returns the alvará to force.
    series, _, bare = released.record.printed.partition(" nº ")
    issuer.cancel(bare, "lavrado por engano", "teste", series=series)
    view = issuer.history.licence_status(alv, ALV)
    assert view is not None and view.status == LicenceStatus.SUSPENDED
    issuer.cancel("0001/2026", "lavrado por engano", "teste", series="TVE-FRET")
    view = issuer.history.licence_status(alv, ALV)
    assert view is not None and view.status == LicenceStatus.ACTIVE
