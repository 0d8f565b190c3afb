"""Issue 10, class 10 (the rest): a conditional document whose case is not chosen yet
says that it depends on an answer not yet given; once the answers exclude it, it does
not apply. Read in the report (the public form and the staff review) and its web view."""

from __future__ import annotations

from typing import Any

from lavra.checking.report import AWAITING_LABEL, Report, Status
from lavra.documents import Engine
from lavra.web.formmodel import report_view

REQ = "requerimento-alvara-fretamento"
FIELD = "/documentos/inscricao_cadastro_atividades"


def item_at(report: Report, field: str) -> Any:
    [found] = [i for i in report.items if i.field == field]
    return found


def test_the_empty_form_says_it_depends_on_both_answers(engine: Engine) -> None:
    item = item_at(engine.check(REQ, {}), FIELD)
    assert item.status is Status.NOT_APPLICABLE
    assert item.awaiting == "«Categoria do serviço» e «Sede no Município de Americana»"
    assert item.message.startswith("Depende da resposta a «Categoria do serviço» e «Sede")
    # the value by its label, as the form shows it
    assert ("(exigido quando Categoria do serviço = «Fretamento (contínuo e/ou eventual)»"
            in item.message)
    assert item.to_json()["awaiting"] == item.awaiting


def test_one_answer_given_it_still_depends_on_the_other(engine: Engine) -> None:
    item = item_at(engine.check(REQ, {"categoria": "fretamento"}), FIELD)
    assert item.awaiting == "«Sede no Município de Americana»"


def test_answers_that_exclude_it_make_it_not_applicable(engine: Engine) -> None:
    data = {"categoria": "fretamento", "requerente": {"sede_em_americana": False}}
    item = item_at(engine.check(REQ, data), FIELD)
    assert item.status is Status.NOT_APPLICABLE and item.awaiting is None
    assert item.message.startswith("Não se aplica:")
    assert "awaiting" not in item.to_json()


def test_answers_that_call_for_it_make_it_pending(engine: Engine) -> None:
    data = {"categoria": "fretamento", "requerente": {"sede_em_americana": True}}
    assert item_at(engine.check(REQ, data), FIELD).status is Status.MISSING


def test_the_web_report_labels_it(engine: Engine) -> None:
    def shown(data: dict[str, Any]) -> str:
        view = report_view(engine.check(REQ, data), lambda c: c)  # type: ignore[arg-type,return-value]
        [found] = [i for i in view["not_applicable"] if i["field"] == FIELD]
        label: str = found["status_label"]
        return label

    assert shown({}) == AWAITING_LABEL == "depende de resposta"
    assert shown({"categoria": "fretamento", "requerente": {"sede_em_americana": False}}) == (
        "não se aplica"
    )
