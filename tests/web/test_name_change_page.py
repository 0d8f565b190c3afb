"""The form «Registrar alteração de nome» on a person's staff page (issue 22): CSRF like
every staff form, a bad input shown at its field (422, nothing recorded), the change
recorded with who, when and the evidence in the timeline, the new name the registry's.
A CNPJ or a CPF the registry does not know is refused. The application's «today» is a fixed date."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_licensing_state import act, example
from webhelpers import csrf_of, login, make_context

from lavra.registry.name_records import NameRecords
from lavra.web import WebContext, create_app

AIE = "auto-infracao-escolar"
CPF = "52998224725"
TODAY = date(2026, 3, 10)
PAGE = f"/equipe/pessoas/{CPF}"
POST = f"{PAGE}/alteracao-de-nome"
PROOF = "Certidão de casamento, matrícula 123456 01 55 2026 2 00010 123 0004567-89"


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> WebContext:
    made = make_context(Path(tmp_path_factory.mktemp("nome")) / "dados")
    made.today = lambda: TODAY  # type: ignore[method-assign]
    data = example(AIE)
    data["condutor"]["alvara"] = "nº 7/2019"
    act(made.registry, "AIE-ESC", AIE, data, on=date(2026, 3, 2))
    return made


@pytest.fixture
def client(context: WebContext) -> Iterator[TestClient]:
    with TestClient(create_app(context)) as test_client:
        yield test_client


def test_staff_record_a_change_of_name_on_the_persons_page(client: TestClient,
                                                          context: WebContext) -> None:
    login(client, "clara")
    token = csrf_of(client, PAGE)
    shown = client.get(PAGE).text
    assert "Registrar alteração de nome" in shown and f'action="{POST}"' in shown

    forged = client.post(POST, data={"csrf": "x", "nome": "Outro", "comprovante": PROOF},
                         follow_redirects=False)
    assert forged.status_code in (400, 403)

    empty = client.post(POST, data={"csrf": token, "nome": "José Exemplo Lima",
                                    "comprovante": " "})
    assert empty.status_code == 422
    assert 'id="erro-comprovante">Informe o comprovante da alteração' in empty.text
    assert 'name="comprovante" maxlength="1000" rows="2" aria-invalid="true"' in empty.text
    assert 'value="José Exemplo Lima"' in empty.text  # what was typed stays
    same = client.post(POST, data={"csrf": token, "nome": "JOSE exemplo dos Santos",
                                   "comprovante": PROOF})
    assert same.status_code == 422
    assert 'id="erro-nome">O nome informado é o que o registro já tem' in same.text
    assert NameRecords(context.registry).of(CPF) == ()

    done = client.post(POST, data={"csrf": token, "nome": "José Exemplo Lima",
                                   "comprovante": PROOF}, follow_redirects=False)
    assert done.status_code == 303
    assert done.headers["location"] == f"{PAGE}?aviso=nome-registrado#alteracao-de-nome"
    page = client.get(done.headers["location"]).text
    assert 'id="nome-registrado"' in page
    assert "<li>José Exemplo dos Santos</li><li>José Exemplo Lima</li>" in page
    assert "<td>10/03/2026</td><td>Alteração de nome registrada</td>" in page
    assert ("nome alterado de «José Exemplo dos Santos» para «José Exemplo Lima», "
            f"comprovado por {PROOF}; registrado por Clara Redatora") in page
    assert context.registry.party_name(CPF) == "José Exemplo Lima"


def test_a_company_or_an_unknown_cpf_is_refused(client: TestClient) -> None:
    login(client, "clara")
    unknown = client.post("/equipe/pessoas/11144477735/alteracao-de-nome",
                          data={"csrf": csrf_of(client, PAGE), "nome": "X", "comprovante": "Y"})
    assert unknown.status_code == 404 and "Nada consta do cadastro" in unknown.text
    wrong = client.post("/equipe/pessoas/65563842000105/alteracao-de-nome",
                        data={"csrf": csrf_of(client, PAGE), "nome": "X", "comprovante": "Y"})
    assert wrong.status_code == 400 and "Informe os 11 dígitos do CPF" in wrong.text
