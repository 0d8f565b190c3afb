"""The recurso filed from the tracking page, as the pack builds it, and the Prefeito's
decision «Preparar ato» makes of it (fretamento art. 24). The web flow is
tests/web/test_tracking.py."""

from __future__ import annotations

from datetime import date

from lavra.filedacts import ActSource, FiledRequest
from lavra.filing import AppealQuery
from lavra_americana import pacote
from lavra_americana.comum.recurso_online import decisao_recurso_fretamento

REASONS = "O cartão CNPJ foi apresentado no protocolo; segue cópia autenticada."


def test_recurso_fretamento_to_the_decision_of_the_prefeito() -> None:
    query = AppealQuery(
        act_form="decisao-indeferimento", act_data={}, act_printed="IND nº 0003/2026",
        act_issued_on=date(2026, 12, 1), ciencia_on=date(2026, 12, 2),
        citation="fretamento#art24", last_day=date(2026, 12, 17),
        cpf_cnpj="65563842000105", name="Viação Exemplo de Fretamento Ltda.",
        reasons=REASONS, on=date(2026, 12, 3))
    form, data = pacote().appeals["fretamento#art24"](query)
    assert form == "recurso-fretamento" and data["instancia"] == "prefeito"
    assert data["ato_recorrido"] == {"numero": "IND nº 0003/2026", "data": "2026-12-01",
                                     "data_ciencia": "2026-12-02"}
    assert data["recorrente"]["cnpj"] == "65.563.842/0001-05"

    (choice,) = pacote().filed_acts[form]
    assert choice.form == "decisao-recurso-prefeito" and choice.build is \
        decisao_recurso_fretamento
    request = FiledRequest(protocol="PROT nº 0002/2026", processo="PROT 0001/2026",
                           form=form, data=data, cpf_cnpj=query.cpf_cnpj, name=query.name,
                           filed_on=date(2026, 12, 3), licence=None)
    decision = choice.build(ActSource(request, None, None, date(2026, 12, 4)))
    assert decision["recurso"]["hipotese"] == "fretamento#art24"
    assert decision["recurso"]["numero_protocolo"] == "PROT nº 0002/2026"
    assert decision["recorrente"] == {"nome": query.name, "cnpj": "65.563.842/0001-05"}
    assert decision["ato_recorrido"]["especie"] == "decisao"
    # What is left to staff: the result and its reasons (Lei nº 9.784/1999, art. 50).
    assert decision["decisao"] == {"data": "2026-12-04"}
