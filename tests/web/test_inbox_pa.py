"""«Vincular processo administrativo (PA)» on the inbox's filing page: refused at the
field in pt-BR (blank, or a PA another processo holds, naming both), linked with who and
when, shown to the applicant on the tracking page, and carried into «Preparar ato» as
the processo the act names (lavra.registry.processos, lavra.filedacts)."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi.testclient import TestClient
from test_inbox import BASE, CNPJ, _filed, _post, _text
from test_tracking import _track
from webhelpers import errors_in, login

from lavra.registry.inbox import Inbox
from lavra.web import WebContext


def test_link_the_pa_on_the_filing_page(client: TestClient, web_context: WebContext) -> None:
    filed, _ = _filed(web_context, "PAV1A26", datetime(2026, 12, 1, 13, 5, tzinfo=UTC))
    other, _ = _filed(web_context, "PAV2B26", datetime(2026, 12, 1, 14, 5, tzinfo=UTC))
    url = f"{BASE}/{filed.id}"
    anonymous = client.post(f"{url}/pa", data={"pa": "PA 4.321/2026"},
                            follow_redirects=False)
    assert anonymous.status_code in (302, 303, 401, 403)
    login(client, "clara")
    assert "Vincular processo administrativo (PA)" in client.get(url).text

    blank = _post(client, f"{url}/pa", url, pa="  ")
    assert blank.status_code == 422
    assert 'name="pa" maxlength="80" value="  " aria-invalid="true" aria-describedby="erro-pa"' \
        in blank.text
    assert _text(blank.text, "erro-pa").startswith("Informe o número do processo")
    linked = _post(client, f"{url}/pa", url, pa="pa 4.321/2026")
    assert linked.status_code == 303
    page = client.get(url).text
    assert _text(page, "pa-protocolo").startswith(
        "PA 4.321/2026 (vinculado por Clara Redatora (clara) em ")

    taken = _post(client, f"{BASE}/{other.id}/pa", url, pa="PA 4.321/2026")
    assert taken.status_code == 422
    assert errors_in(taken.text) == [
        f"O PA 4.321/2026 já está vinculado ao processo {filed.processo}; não pode ser "
        f"vinculado também ao processo do protocolo {other.protocol}."]

    # the applicant sees the PA; the act prepared names it
    tracked = _track(client, filed.protocol, CNPJ).text
    assert _text(tracked, "processo-administrativo") == "PA 4.321/2026"
    for attachment in filed.attachments:
        assert _post(client, f"{url}/anexos/{attachment.id}/analise", url,
                     decisao="aceitar").status_code == 303
    assert _post(client, f"{url}/ato", url, ato="0").status_code == 303
    case = Inbox(web_context.registry).case(filed.id)
    assert case is not None and case.draft_id is not None
    draft = web_context.registry.draft(case.draft_id)
    assert draft is not None and draft.data["processo"]["numero"] == "PA 4.321/2026"
