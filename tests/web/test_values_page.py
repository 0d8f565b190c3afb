"""The administrator's page of staff values (issue 10, class 9): days and yearly values.

A context of its own (a fresh registry): a day decreed here must not move the deadlines
of the other web tests. Dates are explicit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session
from webhelpers import REPO, csrf_of, errors_in, login, make_context

from lavra.batch.inputs import parse_lines
from lavra.registry.importing import plan_import
from lavra.registry.staff_values import StaffKind
from lavra.registry.tables import BatchItemRow, BatchRunRow
from lavra.web import WebContext, create_app
from lavra_americana import pacote

PAGE = "/equipe/valores"
DECREE = "Decreto nº 12.345, de 10 de março de 2026"
FINE_ACT = "Decreto nº 12.001, de 5 de janeiro de 2026"
AUTO = "auto-infracao-fretamento"
SAMPLE = Path(REPO) / "exemplos" / "cadastro-importacao.csv"


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> WebContext:
    return make_context(tmp_path_factory.mktemp("valores") / "dados")


@pytest.fixture
def client(context: WebContext) -> Iterator[TestClient]:
    with TestClient(create_app(context)) as test_client:
        yield test_client


def admin(client: TestClient) -> str:
    login(client, "admin")
    return csrf_of(client, PAGE)


@pytest.mark.parametrize("name", ["clara", "sergio"])
def test_only_the_administration_may_see_or_post(client: TestClient, name: str) -> None:
    login(client, name)
    token = csrf_of(client, "/equipe")
    assert "/equipe/valores" not in client.get("/equipe").text
    denied = client.get(PAGE)
    assert denied.status_code == 403
    assert "Somente a administração pode cadastrar dias" in denied.text
    posted = client.post(f"{PAGE}/dias", data={
        "csrf": token, "data": "17/03/2026", "tipo": "feriado", "nome": "X", "ato": DECREE})
    assert posted.status_code == 403


def test_signed_out_is_sent_to_sign_in(client: TestClient) -> None:
    response = client.get(PAGE, follow_redirects=False)
    assert response.status_code in (302, 303) and "/entrar" in response.headers["location"]


def test_without_csrf_nothing_is_written(client: TestClient, context: WebContext) -> None:
    admin(client)
    before = len(context.registry.staff_values())
    response = client.post(f"{PAGE}/dias", data={
        "data": "20/03/2026", "tipo": "feriado", "nome": "X", "ato": DECREE})
    assert response.status_code == 403
    assert len(context.registry.staff_values()) == before


def test_admin_adds_a_day_shown_with_decree_who_and_when_and_revokes_it(
        client: TestClient, context: WebContext) -> None:
    token = admin(client)
    assert 'href="/equipe/valores"' in client.get("/equipe").text
    added = client.post(f"{PAGE}/dias", data={
        "csrf": token, "data": "17/03/2026", "tipo": "ponto_facultativo",
        "nome": "Ponto facultativo", "ato": DECREE}, follow_redirects=False)
    assert added.status_code == 303
    shown = client.get(added.headers["location"]).text
    assert "Dia cadastrado" in shown
    assert "17/03/2026" in shown and DECREE in shown
    assert "Administração de Teste (admin), em" in shown and "em vigor" in shown
    [day] = [v for v in context.registry.staff_values(StaffKind.DAY) if v.in_force]
    assert day.recorded_by == "Administração de Teste (admin)"
    # The engine the web drafts with reads it at once: the auto's appeal deadline moves.
    data = json.loads((REPO / "forms" / AUTO / "exemplo.json").read_text("utf-8"))
    at = datetime(2026, 3, 2, 18, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))
    prepared = context.engine.prepare(AUTO, data, issued_at=at)
    assert prepared.computed["recurso"]["ultimo_dia"] == date(2026, 3, 18)
    revoked = client.post(f"{PAGE}/{day.id}/revogar", data={
        "csrf": token, "motivo": "Decreto tornado sem efeito"}, follow_redirects=False)
    assert revoked.status_code == 303
    after = client.get(PAGE).text
    assert "revogado por Administração de Teste" in after
    assert "Decreto tornado sem efeito" in after
    prepared = context.engine.prepare(AUTO, data, issued_at=at)
    assert prepared.computed["recurso"]["ultimo_dia"] == date(2026, 3, 17)


@pytest.mark.parametrize(
    ("url", "fields", "words"),
    [
        ("dias", {"data": "31/02/2026", "tipo": "feriado", "nome": "X", "ato": DECREE},
         "Data inválida"),
        ("dias", {"data": "23/03/2026", "tipo": "feriado", "nome": "X", "ato": "o decreto"},
         "Informe o decreto"),
        ("dias", {"data": "23/03/2026", "tipo": "folga", "nome": "X", "ato": DECREE},
         "feriado ou ponto facultativo"),
        ("parametros", {"parametro": "fretamento.prazo_recurso", "ano": "2026", "valor": "20",
                        "ato": FINE_ACT}, "não pode ser cadastrado"),
        ("parametros", {"parametro": "fretamento.multa.art16", "ano": "26", "valor": "300",
                        "ato": FINE_ACT}, "Ano inválido"),
        ("parametros", {"parametro": "fretamento.multa.art16", "ano": "2026", "valor": "0",
                        "ato": FINE_ACT}, "maior que zero"),
        ("parametros", {"parametro": "fretamento.multa.art16", "ano": "2026",
                        "valor": "300,001", "ato": FINE_ACT}, "2 casas decimais"),
        ("parametros", {"parametro": "fretamento.multa.art16", "ano": "2026", "valor": "300",
                        "ato": ""}, "Informe o ato"),
    ],
)
def test_bad_input_is_a_pt_br_error_naming_the_field_and_nothing_is_written(
        client: TestClient, context: WebContext, url: str, fields: dict[str, str],
        words: str) -> None:
    token = admin(client)
    before = len(context.registry.staff_values())
    response = client.post(f"{PAGE}/{url}", data={"csrf": token, **fields})
    assert response.status_code == 422
    [error] = errors_in(response.text)
    assert words in error and "(campo /" not in error  # named in words, not by pointer
    assert len(context.registry.staff_values()) == before
    # What was typed is kept for correction.
    typed = fields["data"] if url == "dias" else fields["valor"]
    assert f'value="{typed}"' in response.text


def test_admin_registers_the_years_fines_and_the_auto_uses_them(
        client: TestClient, context: WebContext) -> None:
    token = admin(client)
    for article, value in (("15", "150,00"), ("17", "750,00")):
        added = client.post(f"{PAGE}/parametros", data={
            "csrf": token, "parametro": f"fretamento.multa.art{article}", "ano": "2026",
            "valor": value, "ato": FINE_ACT}, follow_redirects=False)
        assert added.status_code == 303, errors_in(added.text)
    shown = client.get(PAGE).text
    assert "Multa das infrações do art. 15" in shown and "150.00" in shown
    assert FINE_ACT in shown
    data = json.loads((Path(REPO) / "forms" / AUTO / "exemplo.json").read_text("utf-8"))
    at = datetime(2026, 3, 2, 18, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))
    prepared = context.engine.prepare(AUTO, data, issued_at=at)
    assert prepared.computed["total"] == Decimal("900.00")
    assert not [i for i in prepared.report.items if i.pending]
    duplicate = client.post(f"{PAGE}/parametros", data={
        "csrf": token, "parametro": "fretamento.multa.art15", "ano": "2026",
        "valor": "151,00", "ato": FINE_ACT})
    assert duplicate.status_code == 422
    assert "Já está cadastrado" in errors_in(duplicate.text)[0]


def test_the_numbering_page_is_the_administrations_and_shows_a_voided_number(
    client: TestClient, context: WebContext,
) -> None:
    """Issue 22, item 3: ``Registry.numbering_report()`` on the web, admin only (the
    values' registry: its own; a year no other test here numbers)."""
    with context.registry.engine.begin() as connection:  # 0001 and 0002/2019 taken
        connection.execute(text("INSERT INTO counters (series, year, last_number) "
                                "VALUES ('ALV-FRET', 2019, 2)"))
    context.registry.void_number("ALV-FRET", 2019, 1, reason="Folha inutilizada na impressão.",
                                 by="Chefia de Seção")
    login(client, "clara")
    assert "/equipe/numeracao" not in client.get("/equipe").text
    denied = client.get("/equipe/numeracao")
    assert denied.status_code == 403
    assert "Somente a administração pode conferir a numeração" in denied.text
    assert "Folha inutilizada" not in denied.text
    admin(client)
    assert 'href="/equipe/numeracao"' in client.get("/equipe").text
    shown = client.get("/equipe/numeracao")
    assert shown.status_code == 200
    assert ("<tr><td>ALV-FRET</td><td>2019</td><td>0002</td><td>0</td><td>0</td><td>1</td>"
            "<td>—</td><td>0002/2019</td></tr>") in shown.text
    assert re.search(r"<li>ALV-FRET nº 0001/2019: Numeração inutilizada em \d\d/\d\d/\d{4} "
                     r"por Chefia de Seção: Folha inutilizada na impressão\.</li>", shown.text)
    assert "Há números sem explicação" in shown.text


def _void(client: TestClient, token: str, numero: str, motivo: str = "Selo extraviado.",
          confirmo: str = "sim") -> Any:
    return client.post("/equipe/numeracao/inutilizar", data={
        "csrf": token, "numero": numero, "motivo": motivo, "confirmo": confirmo},
        follow_redirects=False)


def test_the_administration_voids_a_number_from_the_numbering_page(
    client: TestClient, context: WebContext,
) -> None:
    """Issue 22: the numbering-void act of ``lavra cadastro inutilizar`` on the page (the
    same registry call), admin only, the signed-in account as who decides; every refusal
    at its field, nothing written. A series and year no other test here numbers; one
    act imported from before lavra (ALV-FRET 0031/2024) is a number a document carries,
    and a pending batch item (rows written as a planned run leaves them) holds 0003."""
    registry = context.registry
    before = registry.voided_numbers()  # another test's may be there
    with registry.engine.begin() as connection:  # SELO-ESC 0001 to 0003/2018 taken
        connection.execute(text("INSERT INTO counters (series, year, last_number) "
                                "VALUES ('SELO-ESC', 2018, 3)"))
    head, first = SAMPLE.read_text("utf-8").splitlines()[:2]
    registry.import_acts(plan_import(parse_lines(f"{head}\n{first}\n".encode(), "um.csv",
                                                 "/arquivo"), pacote().imports, "um.csv"),
                         pack_version="americana", on=date(2026, 1, 15))
    with Session(registry.engine) as session, session.begin():  # 0003 held by a batch item
        run = BatchRunRow(kind="renovacao", key="teste-inutilizar", fingerprint="0" * 64,
                          params={}, reference_date=date(2018, 1, 2), year=2018,
                          status="planned", actor="Fulana",
                          created_at=datetime(2018, 1, 2, 12, 0, tzinfo=UTC))
        session.add(run)
        session.flush()
        session.add(BatchItemRow(run_id=run.id, position=0, seq=0, holder="X", name="x.pdf",
                                 outcome="documento", role="documento", series="SELO-ESC",
                                 year=2018, number=3, status="pending"))
        held = run.id
    login(client, "clara")
    assert _void(client, csrf_of(client, "/equipe"), "SELO-ESC 0002/2018").status_code == 403
    token = admin(client)
    shown = client.get("/equipe/numeracao").text
    assert '<option value="SELO-ESC 0002/2018">' in shown
    assert "Inutilizar o número</button>" in shown
    forged = client.post("/equipe/numeracao/inutilizar", data={
        "numero": "SELO-ESC 0002/2018", "motivo": "Sem CSRF.", "confirmo": "sim"})
    assert forged.status_code == 403
    refusals = {  # what is typed -> the field and the pt-BR message shown there
        ("SELO-ESC 0002/2018", "  ", "sim"): ("motivo", "Informe o motivo da inutilização."),
        ("SELO-ESC 0002/2018", "Selo extraviado.", ""): ("confirmo", "Confirme que o número"),
        ("0002/2018", "Selo extraviado.", "sim"): ("numero", "Informe a série antes do número"),
        ("SELO-ESC 2/18", "Selo extraviado.", "sim"): ("numero", "Número inválido: «SELO-ESC"),
        ("SELO-ESC 0009/2018", "Selo extraviado.", "sim"): (
            "numero", "O número SELO-ESC nº 0009/2018 ainda não foi tomado da série"),
        ("alv-fret nº 0031/2024", "Ato importado.", "sim"): (
            "numero", "O número ALV-FRET nº 0031/2024 corresponde a documento emitido; para "
            "desfazê-lo, cancele o documento."),
        ("SELO-ESC 0003/2018", "Item falhou.", "sim"): (
            "numero", f"O número SELO-ESC nº 0003/2018 está reservado na execução em lote nº "
            f"{held}; abandone o item"),
    }
    for (numero, motivo, confirmo), (field, said) in refusals.items():
        refused = _void(client, token, numero, motivo, confirmo)
        assert refused.status_code == 422, numero
        assert re.search(rf'<p class="erro" id="erro-{field}" role="alert">{re.escape(said)}',
                         refused.text), (numero, errors_in(refused.text))
        assert f'aria-invalid="true" aria-describedby="erro-{field}"' in refused.text
        assert "Traceback" not in refused.text and "/numero" not in refused.text
    assert registry.voided_numbers() == before  # nothing written
    done = _void(client, token, " selo-esc nº 0002/2018 ", "Selo extraviado na gráfica.")
    assert done.status_code == 303
    assert done.headers["location"] == "/equipe/numeracao?aviso=inutilizado"
    voided = registry.voided("SELO-ESC", 2018, 2)
    assert voided is not None and voided.by == "Administração de Teste (admin)"
    assert voided.reason == "Selo extraviado na gráfica."
    listed = client.get(done.headers["location"]).text
    assert "Número inutilizado: consta abaixo" in listed
    assert re.search(r"<li>SELO-ESC nº 0002/2018: Numeração inutilizada em \d\d/\d\d/\d{4} por "
                     r"Administração de Teste \(admin\): Selo extraviado na gráfica\.</li>", listed)
    assert ("<tr><td>SELO-ESC</td><td>2018</td><td>0003</td><td>0</td><td>0</td><td>1</td>"
            "<td>—</td><td>0001/2018</td></tr>") in listed
    assert '<option value="SELO-ESC 0002/2018">' not in listed
    again = _void(client, token, "SELO-ESC 0002/2018")
    assert again.status_code == 422
    assert "O número SELO-ESC nº 0002/2018 já foi inutilizado: Numeração inutilizada em" in (
        again.text)
    assert len(registry.voided_numbers()) == len(before) + 1
