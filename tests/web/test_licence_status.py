"""The licence's status on the public verification page and in ``/api/verify``: an
alvará in force, one cassated by a decision recorded with the pack's effects, and an act
granting no licence (nothing said). The application's «today» is a fixed date."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from identities import set_vehicle
from sqlalchemy import update
from test_cited_acts import RAW_STATED, raw_divergence
from test_licensing_replay import before_the_guard, particular
from test_licensing_state import act, cassacao, example
from webhelpers import REPO, csrf_of, login, make_context

from lavra.registry.records import LOCAL_TZ, IssuedRecord
from lavra.registry.tables import DocumentRow, EventRow
from lavra.web import WebContext, create_app
from lavra_americana import pacote

ALV = "alvara-fretamento"
ON = date(2026, 11, 29)
TODAY = date(2026, 12, 15)


@dataclass(frozen=True)
class Acts:
    in_force: IssuedRecord
    cassated: IssuedRecord
    cassated_pdf: bytes
    decision: IssuedRecord


def _alvara(context: WebContext, placa: str) -> Any:
    data = json.loads((REPO / "forms" / ALV / "exemplo.json").read_text("utf-8"))
    set_vehicle(data["veiculo"], placa)
    return context.require_issuer().issue(ALV, data, ON)


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> WebContext:
    made = make_context(Path(tmp_path_factory.mktemp("licencas")) / "dados")
    made.today = lambda: TODAY  # type: ignore[method-assign]
    return made


@pytest.fixture(scope="module")
def acts(context: WebContext) -> Acts:
    in_force = _alvara(context, "ABC1D23")
    cassated = _alvara(context, "DEF2G34")
    decision = cassacao(context.registry, cassated.record, on=date(2026, 12, 10))
    return Acts(in_force.record, cassated.record, cassated.pdf, decision)


@pytest.fixture
def client(context: WebContext) -> Iterator[TestClient]:
    with TestClient(create_app(context)) as test_client:
        yield test_client


def test_the_public_page_states_the_licence_beside_the_signature(
    client: TestClient, acts: Acts
) -> None:
    in_force = client.get(f"/verificar/{acts.in_force.verification_code}")
    assert in_force.status_code == 200
    assert "Documento autêntico" in in_force.text
    assert "Situação da licença</dt><dd class=\"situacao-licenca\">em vigor</dd>" in in_force.text
    cassated = client.get("/verificar", params={"codigo": acts.cassated.verification_code})
    assert f"cassado em 10/12/2026 pelo {acts.decision.printed}" in cassated.text
    assert "65.563.842" not in cassated.text  # nobody's personal data on the public page
    decision = client.get(f"/verificar/{acts.decision.verification_code}")
    assert decision.status_code == 200 and "Situação da licença" not in decision.text


def test_the_uploaded_pdf_and_the_api_state_the_licence(client: TestClient, acts: Acts) -> None:
    token = csrf_of(client, "/verificar")
    uploaded = client.post("/verificar", data={"csrf": token},
                           files={"arquivo": ("a.pdf", acts.cassated_pdf, "application/pdf")})
    assert uploaded.status_code == 200, uploaded.text[:500]
    assert "Documento autêntico" in uploaded.text
    assert f"cassado em 10/12/2026 pelo {acts.decision.printed}" in uploaded.text
    checked = client.post("/api/verify",
                          files={"file": ("a.pdf", acts.cassated_pdf, "application/pdf")}).json()
    assert checked["valid"] is True and checked["printed"] == acts.cassated.printed
    assert checked["licence"]["status"] == "cassated"
    assert checked["licence"]["on"] == TODAY.isoformat()
    public = client.get(f"/api/verify/{acts.in_force.verification_code}").json()
    assert public["situacao_licenca"] == "em vigor"
    assert client.get(f"/api/verify/{acts.decision.verification_code}").json()[
        "situacao_licenca"] is None


def test_staff_pages_of_the_licence_the_vehicle_and_the_party(
    client: TestClient, acts: Acts
) -> None:
    assert client.get("/equipe/veiculos/DEF2G34", follow_redirects=False).status_code in (
        302, 303, 307)  # sign-in required, like every /equipe page
    login(client, "clara")
    decision_link = f'href="/equipe/documentos/{acts.decision.id}"'
    document = client.get(f"/equipe/documentos/{acts.cassated.id}").text
    assert "Situação e histórico da licença" in document
    assert f"cassado em 10/12/2026 pelo {acts.decision.printed}" in document
    assert decision_link in document
    # the record and the licence in the public page's words (issue 22)
    assert "Registro: <strong>documento autêntico, não cancelado</strong>" in document
    assert "válido</strong>" not in document
    assert ('<dt>Situação da licença</dt><dd class="situacao-licenca">cassado em 10/12/2026 '
            f"pelo {acts.decision.printed}") in document
    assert "Situação e histórico da licença" not in client.get(
        f"/equipe/documentos/{acts.decision.id}").text

    vehicle = client.get("/equipe/veiculos/def-2g34")
    assert vehicle.status_code == 200 and "<h1>Veículo DEF2G34</h1>" in vehicle.text
    assert "cassado em 10/12/2026" in vehicle.text and decision_link in vehicle.text
    assert f'href="/equipe/documentos/{acts.in_force.id}"' not in vehicle.text
    before = client.get("/equipe/veiculos/DEF2634")  # its plate before Mercosul: one vehicle
    assert before.status_code == 200 and decision_link in before.text

    party = client.get("/equipe/pessoas/65.563.842%2F0001-05")
    assert party.status_code == 200 and "CNPJ 65.563.842/0001-05" in party.text
    assert "Impedimento" in party.text and "até 10/12/2027" not in party.text
    assert f'href="/equipe/documentos/{acts.in_force.id}"' in party.text
    assert "em vigor" in party.text and decision_link in party.text
    assert 'href="/equipe/veiculos/ABC1D23"' in party.text

    found = client.get("/equipe/registro", params={"q": "DEF2G34"}).text
    assert 'href="/equipe/veiculos/DEF2G34"' in found
    assert 'href="/equipe/pessoas/65563842000105"' in found


def test_the_document_and_vehicle_pages_show_an_auto_annulled_on_appeal(
    client: TestClient, context: WebContext, acts: Acts
) -> None:
    auto = act(context.registry, "AIF-FRET", "auto-infracao-fretamento",
               example("auto-infracao-fretamento"), on=date(2026, 12, 1))
    data = example("decisao-recurso-secretario")
    data["ato_recorrido"]["numero"] = auto.printed
    decision = act(context.registry, "DEC-SETRANSV", "decisao-recurso-secretario", data,
                   on=date(2026, 12, 11), computed={"resultado": "provido", "conhecido": True})
    login(client, "clara")
    page = client.get(f"/equipe/documentos/{auto.id}").text
    assert ('<dt>Situação do ato</dt><dd class="situacao-ato">anulado em recurso pelo '
            f"{decision.printed}, de 11/12/2026</dd>") in page
    assert "Registro: <strong>documento autêntico, não cancelado</strong>" in page
    vehicle = client.get("/equipe/veiculos/ABC1D23").text
    assert f"{auto.printed} anulado em recurso pelo {decision.printed}, em 11/12/2026." in vehicle
    assert "anulado em recurso" not in client.get(
        f"/equipe/documentos/{decision.id}").text
    # The public page and its API state it beside the signature's validity (item 5).
    public = client.get(f"/verificar/{auto.verification_code}").text
    assert "Documento autêntico" in public
    # the signature's line speaks of the document's authenticity, not of the act's validity
    authentic = ('<dt>Registro</dt><dd class="situacao-doc">documento autêntico, não '
                 "cancelado</dd>")
    assert authentic in public and "válido</dd>" not in public
    assert public.index(authentic) < public.index("Situação do ato")
    assert ('<dt>Situação do ato</dt><dd class="situacao-ato">anulado em recurso pelo '
            f"{decision.printed}, de 11/12/2026</dd>") in public
    assert client.get(f"/api/verify/{auto.verification_code}").json()["situacao_ato"] == (
        f"anulado em recurso pelo {decision.printed}, de 11/12/2026")
    own = client.get(f"/verificar/{decision.verification_code}").text
    assert "Documento autêntico" in own and "Situação do ato" not in own
    assert client.get(f"/api/verify/{decision.verification_code}").json()[
        "situacao_ato"] is None


@pytest.mark.parametrize(("url", "status", "message"), [
    ("/equipe/veiculos/XYZ", 400, "Placa inválida"),
    ("/equipe/veiculos/ZZZ9Z99", 404, "Nada consta do cadastro de licenças"),
    ("/equipe/pessoas/123", 400, "CPF ou CNPJ inválido"),
    ("/equipe/pessoas/111.444.777-35", 404, "Nada consta do cadastro de licenças"),
    ("/equipe/documentos/999999", 404, "Documento não consta do registro"),
])
def test_bad_keys_get_a_clear_page(client: TestClient, acts: Acts, url: str, status: int,
                                   message: str) -> None:
    login(client, "clara")
    response = client.get(url)
    assert response.status_code == status and message in response.text
    assert "Traceback" not in response.text


def test_the_public_page_states_the_divergencia_of_an_act_and_of_no_other(
    context: WebContext, client: TestClient, acts: Acts
) -> None:
    """An ALV-PART recorded under the cassação's bar by a version of the pack before that
    guard: the rebuild records it as a divergência, and its public page says so, citing
    the article and naming nobody; a regular act's page says nothing of the kind."""
    registry = context.registry
    registry.use_effects(before_the_guard())
    try:
        divergent = particular(registry)
    finally:
        registry.use_effects(pacote().effects)
    assert len(registry.rebuild_state(apply=True).divergences) == 1
    page = client.get(f"/verificar/{divergent.verification_code}")
    assert page.status_code == 200 and "Documento autêntico" in page.text
    stated = (f"Este ato foi registrado em desacordo com o impedimento imposto pelo "
              f"{acts.decision.printed}, em vigor até 20/04/2027 (art. 22, parágrafo único, "
              "da Lei nº 4.419/2006); consta como divergência no cadastro.")
    assert f'<dt>Divergência</dt><dd class="divergencia">{stated}</dd>' in page.text
    assert "65.563.842" not in page.text and "Divergência:" not in page.text
    assert client.get(f"/api/verify/{divergent.verification_code}").json()[
        "divergencias"] == [stated]
    for regular in (acts.in_force, acts.cassated, acts.decision):
        text = client.get(f"/verificar/{regular.verification_code}").text
        assert "Documento autêntico" in text and "divergência" not in text.lower()
        assert client.get(f"/api/verify/{regular.verification_code}").json()[
            "divergencias"] == []


def test_a_divergencia_stored_with_the_raw_citation_id_shows_the_article(
    context: WebContext, client: TestClient, acts: Acts
) -> None:
    """A divergência recorded before the pack printed the provision an act cites kept
    its raw id («fretamento#art22»): the public page and the API print the article from
    the law model, never the id (the stored row is left as it is: no migration)."""
    with raw_divergence(context.registry, acts.decision.id):
        page = client.get(f"/verificar/{acts.decision.verification_code}").text
        assert f'<dt>Divergência</dt><dd class="divergencia">{RAW_STATED}</dd>' in page
        assert "#art" not in page
        assert client.get(f"/api/verify/{acts.decision.verification_code}").json()[
            "divergencias"] == [RAW_STATED]


def test_the_licence_history_shows_the_ciencia_awaited_then_its_last_day(
    context: WebContext, client: TestClient, acts: Acts
) -> None:
    """Issue 23, class 1: the cassação, signed on Thursday 10/12/2026 at 16:00, awaits its
    ciência in the licence's history (document and vehicle pages); once it is recorded,
    the history shows its day, its means and the last day counted from it, as the
    document's facts and the public verification page do."""
    registry = context.registry
    signed = datetime(2026, 12, 10, 16, tzinfo=LOCAL_TZ).astimezone(UTC)
    with registry.engine.begin() as connection:
        connection.execute(update(DocumentRow).where(DocumentRow.id == acts.decision.id)
                           .values(issued_at=signed))
        connection.execute(update(EventRow).where(EventRow.document_id == acts.decision.id)
                           .values(at=signed))
    login(client, "clara")
    pages = (f"/equipe/documentos/{acts.cassated.id}", "/equipe/veiculos/DEF2G34")
    awaiting = ('<span class="prazo-ciencia">Aguardando ciência: 15 dias contados da ciência, '
                "para recurso (art. 24 da Lei nº 4.419/2006).</span>")
    for url in pages:
        text = client.get(url).text
        assert awaiting in text and "encerra-se" not in text
    registry.record_fact(acts.decision.id, "ciencia", on="2026-12-11", by="Clara (clara)",
                         means="ar", now=datetime(2026, 12, 14, 10, tzinfo=LOCAL_TZ))
    # 15 days from Friday 11/12/2026 end on Saturday 26/12: moved to Monday 28/12.
    known = ('<span class="prazo-ciencia">Ciência em 11/12/2026, por aviso de recebimento '
             "(AR) — prazo de recurso de 15 dias encerra-se em 28/12/2026 (art. 24 da Lei "
             "nº 4.419/2006).</span>")
    for url in pages:
        text = client.get(url).text
        assert known in text and "Aguardando ciência" not in text
    summary = "Ciência em 11/12/2026; prazo de recurso encerra-se em 28/12/2026"
    assert summary in client.get(f"/equipe/documentos/{acts.decision.id}").text
    assert summary in client.get(f"/verificar/{acts.decision.verification_code}").text


def test_the_vehicle_and_party_pages_list_an_auto_and_its_payment(
    client: TestClient, context: WebContext, acts: Acts
) -> None:
    """Issue 22, item 5: an act that changed no state (an auto) is in the vehicle's and
    the company's history, linked to its page, with the payment recorded on it."""
    data = example("auto-infracao-fretamento")  # on ABC1D23, its alvará in force
    auto = act(context.registry, "AIF-FRET", "auto-infracao-fretamento", data,
               on=date(2026, 12, 2))
    with context.registry.engine.begin() as connection:  # signed on its day
        connection.execute(update(DocumentRow).where(DocumentRow.id == auto.id).values(
            issued_at=datetime(2026, 12, 2, 15, tzinfo=LOCAL_TZ)))
    context.registry.record_fact(auto.id, "pagamento", on="2026-12-09", by="Clara (clara)",
                                 amount="500.00", now=datetime(2026, 12, 10, 9, tzinfo=LOCAL_TZ))
    login(client, "clara")
    line = (f'<a href="/equipe/documentos/{auto.id}">{auto.printed}</a>')
    effect = ("<td>Auto de Infração e Imposição de Multa, sem alteração do cadastro. "
              "Situação: pagamento em 09/12/2026, no valor de R$ 500,00.</td>")
    for url in ("/equipe/veiculos/ABC1D23", "/equipe/pessoas/65563842000105"):
        text = client.get(url).text
        assert line in text and effect in text, url
        assert text.count(line) == 1
        assert text.index(f'href="/equipe/documentos/{acts.in_force.id}"') < text.index(line)
    assert line not in client.get("/equipe/veiculos/DEF2G34").text


def test_staff_and_public_pages_over_imported_licences(tmp_path: Path) -> None:
    """The same pages over the sample import (``lavra cadastro importar``): the imported
    cassação shows on the cassated alvará's, the vehicle's and the company's pages; an
    alvará lavra signs renewing an imported one is «em vigor» on the public page, and the
    imported one «renovado pelo …» on the staff's."""
    from test_cadastro_import import load

    context = make_context(tmp_path / "dados")
    context.today = lambda: TODAY  # type: ignore[method-assign]
    load(context.registry)
    cassated = context.registry.by_number("0032/2024", series="ALV-FRET")
    decision = context.registry.by_number("0002/2025", series="CAS-FRET")
    old = context.registry.by_number("0031/2024", series="ALV-FRET")
    assert cassated is not None and decision is not None and old is not None
    data = example(ALV)
    data["veiculo"]["placa"] = "FRE1A11"
    data["processo"].update(renovacao=True, alvara_anterior=old.printed,
                            vencimento_alvara_anterior="2029-02-09")
    renewal = act(context.registry, "ALV-FRET", ALV, data, on=date(2026, 12, 1),
                  computed={"inicio_vigencia": "2026-12-01", "valido_ate": "2031-11-30"})
    with TestClient(create_app(context)) as client:
        public = client.get(f"/verificar/{renewal.verification_code}").text
        assert "Documento autêntico" in public
        assert 'Situação da licença</dt><dd class="situacao-licenca">em vigor</dd>' in public
        assert client.get(f"/api/verify/{renewal.verification_code}").json()[
            "situacao_licenca"] == "em vigor"
        login(client, "clara")
        decision_link = f'href="/equipe/documentos/{decision.id}"'
        document = client.get(f"/equipe/documentos/{cassated.id}").text
        assert "Situação e histórico da licença" in document
        assert f"cassado em 15/09/2025 pelo {decision.printed}" in document
        assert decision_link in document
        vehicle = client.get("/equipe/veiculos/FRE2B22")
        assert vehicle.status_code == 200 and "<h1>Veículo FRE2B22</h1>" in vehicle.text
        assert "cassado em 15/09/2025" in vehicle.text and decision_link in vehicle.text
        party = client.get("/equipe/pessoas/49.234.427%2F0416-80")
        assert party.status_code == 200 and "Impedimento" in party.text
        assert decision_link in party.text
        renewed = client.get(f"/equipe/documentos/{old.id}").text
        assert f"renovado pelo {renewal.printed}" in renewed
        assert f'href="/equipe/documentos/{renewal.id}"' in renewed
        assert "Traceback" not in document + vehicle.text + party.text + renewed
