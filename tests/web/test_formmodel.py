"""The schema-driven form: data → fields → submitted pairs → the same data."""

from __future__ import annotations

from typing import Any

import pytest
from webhelpers import ALV, REQ, example

from lavra.documents import Engine
from lavra.errors import InputError
from lavra.web import WebContext
from lavra.web.formmodel import Group, Leaf, Rows, build_form, checklist
from lavra.web.formparse import parse_form, to_pairs


@pytest.mark.parametrize("form_id", [REQ, ALV])
def test_examples_survive_the_round_trip_through_the_form(
    web_context: WebContext, form_id: str
) -> None:
    schema = web_context.schema(form_id)
    data = example(form_id)
    assert parse_form(schema, to_pairs(schema, data)) == data


def test_typed_values_are_converted_as_the_schema_says(web_context: WebContext) -> None:
    schema = web_context.schema(REQ)
    data = parse_form(
        schema,
        [
            ("categoria", "fretamento"),
            ("servicos", "continuo"),
            ("servicos", "eventual"),
            ("requerente/razao_social", "  Viação Teste Ltda  "),
            ("requerente/sede_em_americana", "nao"),
            ("requerente/nome_fantasia", ""),
            ("veiculos/0/placa", "abc1d23"),
            ("veiculos/0/ano_fabricacao", "2019"),
            ("veiculos/0/lotacao_sentados", "quarenta"),
            ("veiculos/3/placa", ""),  # an empty row is left out
            ("veiculos/7/marca_modelo", "Volare W9"),  # rows are renumbered
            ("data_requerimento", "25/11/2026"),
            ("documentos/cartao_cnpj/apresentado", "sim"),
            ("documentos/cartao_cnpj/data_emissao", "31/02/2026"),
            ("csrf", "ignorado"),
            ("_acao", "verificar"),
            ("campo_desconhecido", "ignorado"),
        ],
    )
    assert data == {
        "categoria": "fretamento",
        "servicos": ["continuo", "eventual"],
        # the objects the form always requires are present, if only empty (their
        # requirements are reported from the first screen)
        "requerente": {
            "razao_social": "Viação Teste Ltda",
            "sede_em_americana": False,
            "endereco": {},
            "representante": {},
        },
        "veiculos": [
            {"placa": "ABC1D23", "ano_fabricacao": 2019, "lotacao_sentados": "quarenta"},
            {"marca_modelo": "Volare W9"},
        ],
        "data_requerimento": "2026-11-25",
        # an impossible date is kept as typed, for the report to point at it
        "documentos": {"cartao_cnpj": {"apresentado": True, "data_emissao": "31/02/2026"}},
    }


def test_too_many_fields_are_refused(web_context: WebContext) -> None:
    schema = web_context.schema(REQ)
    with pytest.raises(InputError, match="campos em excesso"):
        parse_form(schema, [(f"x{i}", "1") for i in range(6000)])


def _leaves(node: Any) -> list[Leaf]:
    if isinstance(node, Leaf):
        return [node]
    if isinstance(node, Group):
        return [leaf for child in node.children for leaf in _leaves(child)]
    assert isinstance(node, Rows)
    return [leaf for row in node.rows for leaf in _leaves(row)]


def test_fields_carry_labels_masks_requirements_basis_and_errors(
    web_context: WebContext,
) -> None:
    engine: Engine = web_context.engine
    form = engine.content.form(REQ)
    data: dict[str, Any] = {
        "categoria": "fretamento",
        "requerente": {"cnpj": "11.111.111/1111-11"},
        "documentos": {},
    }
    report = engine.check(REQ, data)
    root = build_form(
        web_context.schema(REQ),
        data,
        fields=engine.content.fields(form),
        cite=web_context.cite,
        report=report,
        show_errors=True,
    )
    leaves = {leaf.name: leaf for leaf in _leaves(root)}
    cnpj = leaves["requerente/cnpj"]
    assert (cnpj.label, cnpj.mask, cnpj.requirement) == ("CNPJ", "cnpj", "obrigatório")
    assert cnpj.value == "11.111.111/1111-11"
    assert cnpj.errors and "CNPJ" in cnpj.errors[0]
    assert [c.short for c in cnpj.basis] == [web_context.cite("fretamento#art7_inc2").short]
    assert leaves["requerente/representante/cpf"].mask == "cpf"
    assert leaves["veiculos/0/placa"].mask == "placa"
    assert leaves["requerente/endereco/cep"].mask == "cep"
    assert leaves["data_requerimento"].mask == "data"
    categoria = leaves["categoria"]
    assert categoria.widget == "select"
    assert [(o.label, o.selected) for o in categoria.options] == [
        ("Fretamento (contínuo e/ou eventual)", True),
        ("Serviço particular com veículo próprio", False),
    ]
    assert leaves["servicos"].widget == "multi"
    assert leaves["servicos"].requirement == (
        "exigido quando: Categoria do serviço = «Fretamento (contínuo e/ou eventual)»")
    assert leaves["documentos/ato_constitutivo/apresentado"].widget == "checkbox"
    documents = checklist(root, report)
    titles = [d.title for d in documents]
    assert "Certidão de regularidade junto ao INSS" in titles
    inss = documents[titles.index("Certidão de regularidade junto ao INSS")]
    assert inss.status == "missing" and inss.status_label == "pendente"


def _first_screen(web_context: WebContext, form_id: str) -> dict[str, str]:
    """The checklist of a form posted with nothing filled: pointer → status."""
    engine: Engine = web_context.engine
    schema = web_context.schema(form_id)
    data = parse_form(schema, [("_acao", "verificar")])
    report = engine.check(form_id, data)
    root = build_form(
        schema,
        data,
        fields=engine.content.fields(engine.content.form(form_id)),
        cite=web_context.cite,
        report=report,
    )
    return {d.pointer: d.status or "" for d in checklist(root, report)}


@pytest.mark.parametrize(
    "form_id",
    [
        "requerimento-inscricao-escolar",
        "requerimento-renovacao-escolar",
        "requerimento-troca-veiculo-escolar",
    ],
)
def test_required_documents_are_pending_from_the_first_screen(
    web_context: WebContext, form_id: str
) -> None:
    """Nothing ticked yet: every document always required is pending, none "não se aplica"."""
    schema = web_context.schema(form_id)
    always = schema["properties"]["documentos"]["required"]
    assert always
    statuses = _first_screen(web_context, form_id)
    for name in always:
        assert statuses["/documentos/" + name] == "missing", name


def test_fretamento_documents_are_pending_once_the_case_is_known(
    web_context: WebContext,
) -> None:
    """A document required in a case (the category) is pending as soon as the case is
    chosen, before any document is ticked; the others of that case say so too."""
    engine: Engine = web_context.engine
    schema = web_context.schema(REQ)
    data = parse_form(schema, [("categoria", "fretamento")])
    assert data["documentos"] == {}
    report = engine.check(REQ, data)
    pending = {item.field for item in report.items if item.pending}
    for name in ("cartao_cnpj", "certidao_inss", "certidao_fgts", "inspecao_veicular"):
        assert "/documentos/" + name in pending, name
    # the same in the PDF read back: nothing ticked, the checklist is still pending
    pdf = engine.prefill(REQ, {"categoria": "fretamento"})
    read = engine.read(pdf)
    assert "/documentos/certidao_inss" in {i.field for i in read.report.items if i.pending}


def test_first_screen_checklist_of_the_page(web_context: WebContext) -> None:
    """The page as first opened (no data posted) lists the required documents as pending."""
    engine: Engine = web_context.engine
    form_id = "requerimento-inscricao-escolar"
    report = engine.check(form_id, {})
    root = build_form(
        web_context.schema(form_id),
        {},
        fields=engine.content.fields(engine.content.form(form_id)),
        cite=web_context.cite,
        report=report,
    )
    statuses = {d.pointer: d.status for d in checklist(root, report)}
    assert statuses["/documentos/documento_identidade"] == "missing"
