"""The recurso filed from the tracking page, as the pack builds it, and the Prefeito's
decision «Preparar ato» makes of it (fretamento art. 24). The web flow is
tests/web/test_tracking.py."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from issuers import poppler

from lavra.checking.content import Content
from lavra.checking.report import Status
from lavra.documents import Engine
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


PENALTY_REASONS = "A terceira multa foi lavrada contra outro condutor, como mostra o auto."


def _penalty_query(computed: dict[str, object]) -> AppealQuery:
    act = {"condutor": {"nome": "José Exemplo dos Santos", "cpf": "529.982.247-25"},
           "alvara": {"numero": "ALV-ESC nº 0007/2026"}, "veiculo": {"placa": "EXE1A23"},
           "hipotese": {"tipo": "terceira_multa", "autos": [
               {"numero": "AIE-ESC nº 0002/2026"}, {"numero": "AIE-ESC nº 0009/2026"}]},
           "decisao": {"data": "2026-06-22"}}
    return AppealQuery(
        act_form="decisao-revogacao-alvara", act_data=act, act_printed="REV-ESC nº 0004/2026",
        act_issued_on=date(2026, 6, 23), ciencia_on=date(2026, 6, 24),
        citation="transporte-escolar#art26", last_day=date(2026, 7, 6),
        cpf_cnpj="52998224725", name="José Exemplo dos Santos", reasons=PENALTY_REASONS,
        on=date(2026, 6, 30), act_computed=computed)


def test_recurso_against_the_penalty_revogacao(pack_dir: Path) -> None:
    """Arts. 25 and 26: the revogação applied as a penalty is appealed with the escolar
    penalty appeal's form, naming the decision; the recurso reads as the decision's, its
    period from the ciência is the law's 10 days, and «Preparar ato» makes the DEC-GP of
    art. 25 against that decision."""
    query = _penalty_query({"autos": [
        {"numero": "AIE-ESC nº 0009/2026", "data_infracao": "2026-05-04"},
        {"numero": "AIE-ESC nº 0002/2026", "data_infracao": "2026-01-12"}]})
    form, data = pacote().appeals["transporte-escolar#art26"](query)
    assert form == "recurso-transporte-escolar"
    assert data["auto"]["especie"] == "decisao_revogacao"
    assert (data["auto"]["data_decisao"], data["auto"]["data_infracao"]) == (
        "2026-06-22", "2026-05-04")  # the last infraction counted
    # Without the autos' days the decision's own day stands for the infraction's.
    assert pacote().appeals["transporte-escolar#art26"](_penalty_query({}))[1][
        "auto"]["data_infracao"] == "2026-06-23"

    engine = Engine(Content(pack_dir))
    # The address is the one thing the tracking page does not know: the receipt lists it
    # as pending (Lei nº 9.784/1999, art. 6º); with it the recurso is complete.
    complete = {**data, "recorrente": {**data["recorrente"], "endereco": {
        "logradouro": "Rua das Acácias", "numero": "100", "bairro": "Centro",
        "municipio": "Americana", "uf": "SP", "cep": "13465-000"}}}
    rendered = engine.draft(form, complete, date(2026, 6, 30))
    assert not [i for i in rendered.report.items if i.pending]
    assert not [i for i in rendered.report.items if i.status is Status.INVALID]
    text = poppler(rendered.pdf)
    assert "penalidade de revogação do alvará aplicada pela decisão REV-ESC nº 0004/2026, " \
        "de 22/06/2026, pelas infrações nela contadas, a última em 04/05/2026" in text
    assert "A ciência da punição deu-se em 24/06/2026, pela própria decisão" in text
    assert "06/07/2026" in text  # 10 days from 24/06 (art. 26)
    assert "auto de infração REV-ESC" not in text

    (choice,) = pacote().filed_acts[form]
    assert choice.form == "decisao-recurso-prefeito"
    request = FiledRequest(protocol="PROT nº 0007/2026", processo="PROT 0005/2026",
                           form=form, data=data, cpf_cnpj=query.cpf_cnpj, name=query.name,
                           filed_on=date(2026, 6, 30), licence=None)
    decision = choice.build(ActSource(request, None, None, date(2026, 7, 2)))
    assert decision["recurso"]["hipotese"] == "transporte-escolar#art25"
    assert decision["ato_recorrido"] == {"especie": "decisao", "numero": "REV-ESC nº 0004/2026",
                                         "data": "2026-06-22", "data_ciencia": "2026-06-24"}
    assert decision["recorrente"] == {"nome": query.name, "cpf": "529.982.247-25"}


def test_recurso_against_the_refused_inscription(pack_dir: Path) -> None:
    """Art. 11: the refusal of the inscription is appealed with the selection appeal's
    form naming the refusal; its 5 days count from the ciência, not a publication."""
    query = AppealQuery(
        act_form="decisao-indeferimento",
        act_data={"processo": {"numero": "PROT 0003/2026"}, "decisao": {"data": "2026-03-20"}},
        act_printed="IND nº 0002/2026", act_issued_on=date(2026, 3, 20),
        ciencia_on=date(2026, 3, 23), citation="transporte-escolar#art11",
        last_day=date(2026, 3, 28), cpf_cnpj="52998224725", name="José Exemplo dos Santos",
        reasons=PENALTY_REASONS, on=date(2026, 3, 30))
    form, data = pacote().appeals["transporte-escolar#art11"](query)
    assert form == "recurso-classificacao" and "edital_resultado" not in data
    assert data["recorrente"]["protocolo_inscricao"] == "PROT 0003/2026"
    engine = Engine(Content(pack_dir))
    rendered = engine.draft(form, data, date(2026, 3, 30))
    assert not [i for i in rendered.report.items if i.pending], rendered.report.items
    text = poppler(rendered.pdf)
    assert "contra o ato de escolha que indeferiu a sua inscrição, a decisão IND nº " \
        "0002/2026, de 20/03/2026, de que" in text
    assert "contado da ciência da decisão que indeferiu a inscrição, em 23/03/2026" in text
    assert "publicação" not in text
    # 5 days from Monday 23/03/2026 end on Saturday 28/03: moved to Monday 30/03.
    assert "30/03/2026" in text and "Edital de Resultado" not in text
    late = engine.prepare(form, {**data, "interposicao": {"data": "2026-03-31"}},
                          date(2026, 3, 31)).report
    (judged,) = [i for i in late.items if i.field == "/interposicao/data"]
    assert judged.status is Status.INVALID and "ciência da decisão que indeferiu" in \
        judged.message and "publicação" not in judged.message

    (choice,) = pacote().filed_acts[form]
    request = FiledRequest(protocol="PROT nº 0009/2026", processo="PROT 0003/2026",
                           form=form, data=data, cpf_cnpj=query.cpf_cnpj, name=query.name,
                           filed_on=date(2026, 3, 30), licence=None)
    decision = choice.build(ActSource(request, None, None, date(2026, 4, 2)))
    assert decision["recurso"]["hipotese"] == "transporte-escolar#art11"
    assert decision["ato_recorrido"] == {"especie": "decisao", "numero": "IND nº 0002/2026",
                                         "data": "2026-03-20", "data_ciencia": "2026-03-23"}


def test_the_lei_9784_recurso_names_the_act_it_lies_against() -> None:
    """recurso-lei-9784 lies against the escolar refusal outside the selection only (the
    inscription's refusal has art. 11's appeal, the fretamento's art. 24's), and the
    decisions on it name the act appealed in its own words, by its series."""
    from lavra_americana.comum import recurso_9784 as federal
    from lavra_americana.comum.recurso_lei_9784 import refusal_appeal

    def refused(form: str) -> str | None:
        return refusal_appeal({"requerimento": {"formulario": form}})

    assert refused("requerimento-renovacao-escolar") == "lei-9784-1999#art59"
    assert refused("requerimento-transferencia-licenca") == "lei-9784-1999#art59"
    assert refused("requerimento-inscricao-escolar") == "transporte-escolar#art11"
    assert refused("requerimento-alvara-fretamento") == "fretamento#art24"
    assert refusal_appeal({}) is None
    assert federal.appealed_act("IND nº 0004/2026").form == "decisao-indeferimento"
    assert federal.appealed_act("DV-ESC nº 0001/2026").article == "transporte-escolar#art13"
    assert federal.appealed_act("REV-ESC nº 0003/2026") is federal.REVOCATION
    assert federal.subtitle(federal.SUPERIOR, "DV-ESC nº 0001/2026") == (
        "Recurso contra a declaração de vacância do transporte escolar, não "
        "reconsiderada, à autoridade superior")
    assert federal.subtitle(federal.SUPERIOR, "IND nº 0004/2026").endswith(
        "escolar, não reconsiderado, à autoridade superior")
    assert "revogação" not in federal.next_remedy(
        federal.RECONSIDERED, "provido", {}, "IND nº 0004/2026")
