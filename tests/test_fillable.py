"""The applicants' fillable requerimento: HTML → WeasyPrint AcroForm → pypdf → data."""

from __future__ import annotations

import io
import json
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import weasyprint
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader, PdfWriter
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from lavra.errors import CitationError, ContentPackError, InputError
from lavra.render.fillable.building import FILLABLE_CSS, fillable_body
from lavra.render.fillable.finishing import finish_form
from lavra.render.fillable.reading import read_fields
from lavra.render.fillable.schema import document_checklist, field_name, inline_refs

DATA = Path(__file__).resolve().parent / "data" / "fillable"

LEI = "da Lei Municipal nº 4.419, de 17 de novembro de 2006"
CITATIONS = {
    "fretamento#art7": f"art. 7º {LEI}",
    "fretamento#art3": f"art. 3º {LEI}",
    "fretamento#art7_inc1": f"art. 7º, inciso I, {LEI}",
    "fretamento#art7_inc2": f"art. 7º, inciso II, {LEI}",
    "fretamento#art7_inc8": f"art. 7º, inciso VIII, {LEI}",
    "fretamento#art7_inc12": f"art. 7º, inciso XII, {LEI}",
    "fretamento#art2_par2": f"art. 2º, § 2º, {LEI}",
}

HOSTILE = ("<img src=x>", '"><script>alert(1)</script>', "{{7*7}}")


def cite(citation: str) -> str:
    return CITATIONS[citation]


def _load(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return loaded


@pytest.fixture(scope="module")
def registry() -> Registry[Any]:
    comum = _load("comum.schema.json")
    empty: Registry[Any] = Registry()
    loaded: Registry[Any] = empty.with_resource(comum["$id"], DRAFT202012.create_resource(comum))
    return loaded


@pytest.fixture(scope="module")
def schema(registry: Registry[Any]) -> dict[str, Any]:
    return inline_refs(_load("requerimento.schema.json"), registry)


def render(body: str) -> bytes:
    html = f"<html><head><style>{FILLABLE_CSS}</style></head><body>{body}</body></html>"
    pdf: bytes = weasyprint.HTML(string=html, base_url=None).write_pdf(pdf_forms=True)
    return finish_form(pdf)


def fields_of(pdf: bytes) -> dict[str, Any]:
    found = PdfReader(io.BytesIO(pdf)).get_fields()
    assert found is not None
    return dict(found)


def fill(pdf: bytes, values: Mapping[str, str]) -> bytes:
    """Type into the form as a PDF viewer would, with pypdf's writer."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.update_page_form_field_values(None, dict(values), auto_regenerate=False)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def on_state(pdf: bytes, name: str) -> str:
    """The 'checked' appearance state of a checkbox, as the PDF declares it."""
    states = [s for s in fields_of(pdf)[name]["/_States_"] if s != "/Off"]
    assert len(states) == 1
    return str(states[0])


PREFILL: dict[str, Any] = {
    "empresa": {
        "razao_social": "Viação Princesa Tecelã Ltda.",
        "cnpj": "11222333000181",
        "data_constituicao": "2010-03-05",
        "sede": {"municipio": "Santa Bárbara d'Oeste"},
    },
    "modalidade": "eventual",
    "numero_motoristas": 4,
    "capital_social": 150000.5,
    "veiculos": [{"placa": "ABC1D23", "ano_fabricacao": 2019, "vistoria": "2024-01-10"}],
    "documentos": {
        "cnpj": {"apresentado": True, "numero": "CNPJ-778", "validade": "2030-01-31"},
    },
}


def test_round_trip_prefill_fill_and_read_back(schema: dict[str, Any]) -> None:
    pdf = render(fillable_body(schema, PREFILL, cite=cite))
    fields = fields_of(pdf)

    prefilled = {
        "empresa/razao_social": "Viação Princesa Tecelã Ltda.",
        "empresa/cnpj": "11222333000181",
        "empresa/data_constituicao": "05/03/2010",
        "empresa/sede/municipio": "Santa Bárbara d'Oeste",
        "empresa/sede/cep": "",
        "modalidade": "eventual",
        "numero_motoristas": "4",
        "capital_social": "150000,5",
        "garagem_propria": "/Off",
        "veiculos/0/placa": "ABC1D23",
        "veiculos/0/ano_fabricacao": "2019",
        "veiculos/0/vistoria": "10/01/2024",
        "veiculos/1/placa": "",
        "veiculos/2/placa": "",
        "documentos/contrato_social/apresentado": "/Off",
        "documentos/contrato_social/numero": "",
        "documentos/cnpj/apresentado": on_state(pdf, "documentos/cnpj/apresentado"),
        "documentos/cnpj/numero": "CNPJ-778",
        "documentos/cnpj/validade": "31/01/2030",
        "documentos/cnpj/data_emissao": "",
        "documentos/cadastro_origem/apresentado": "/Off",
        "documentos/cadastro_origem/orgao_emissor": "",
    }
    for name, value in prefilled.items():
        assert name in fields, name
        assert str(fields[name].get("/V", "")) == value, name
    # minItems 2, one row of data: max(1, 2, 1) + 1 = 3 rows, no fourth.
    assert "veiculos/3/placa" not in fields
    # The enum is a choice field offering the labelled options.
    assert fields["modalidade"]["/FT"] == "/Ch"
    assert ["continuo", "Fretamento contínuo"] in fields["modalidade"]["/_States_"]

    filled = fill(
        pdf,
        {
            "empresa/sede/cep": "13465-000",
            "modalidade": "continuo",
            "capital_social": "2.500,75",
            "garagem_propria": "/sim",
            "veiculos/1/placa": "def-5678",
            "veiculos/1/ano_fabricacao": "2021",
            "veiculos/1/vistoria": "29/02/2024",
            "documentos/contrato_social/apresentado": on_state(
                pdf, "documentos/contrato_social/apresentado"
            ),
            "documentos/contrato_social/data_emissao": "1/2/2023",
            "documentos/cadastro_origem/numero": "  CAD-99  ",
        },
    )

    assert read_fields(filled, schema) == {
        "empresa": {
            "razao_social": "Viação Princesa Tecelã Ltda.",
            "cnpj": "11222333000181",
            "data_constituicao": "2010-03-05",
            "sede": {"municipio": "Santa Bárbara d'Oeste", "cep": "13465000"},
        },
        "modalidade": "continuo",
        "numero_motoristas": 4,
        "capital_social": 2500.75,
        "garagem_propria": True,
        "veiculos": [
            {"placa": "ABC1D23", "ano_fabricacao": 2019, "vistoria": "2024-01-10"},
            {"placa": "DEF5678", "ano_fabricacao": 2021, "vistoria": "2024-02-29"},
        ],
        "documentos": {
            "contrato_social": {"apresentado": True, "data_emissao": "2023-02-01"},
            "cnpj": {"apresentado": True, "numero": "CNPJ-778", "validade": "2030-01-31"},
            "cadastro_origem": {"numero": "CAD-99"},
        },
    }


def test_rows_in_the_middle_left_empty_are_dropped(schema: dict[str, Any]) -> None:
    pdf = render(fillable_body(schema, {}, cite=cite))
    filled = fill(pdf, {"veiculos/2/placa": "XYZ9A87", "veiculos/2/ano_fabricacao": "2018"})
    assert read_fields(filled, schema) == {
        "veiculos": [{"placa": "XYZ9A87", "ano_fabricacao": 2018}]
    }


def test_checklist_cites_the_law_and_words_the_condition(schema: dict[str, Any]) -> None:
    entries = document_checklist(schema)
    assert [e.pointer for e in entries] == [
        "/documentos/contrato_social",
        "/documentos/cnpj",
        "/documentos/cadastro_origem",
    ]
    assert [(e.required, bool(e.conditions)) for e in entries] == [
        (True, False),
        (True, False),
        (False, True),
    ]
    condition = entries[2].conditions[0]
    assert condition == (
        "exigido se o campo “Empresa requerente — Sede — Município” for diferente de “Americana”"
    )

    pdf = render(fillable_body(schema, {}, cite=cite))
    text = " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages
    )
    assert "Documentos a anexar" in text
    # Each document cites its basis on its own line, compactly, after its title.
    assert f"— art. 7º, inciso II, {LEI}." in text
    # Citations of the same act name it once.
    assert f"art. 7º, inciso XII; art. 2º, § 2º, {LEI}" in text
    # The documents of one case are listed under that case, worded once.
    assert "Exigidos se o campo “Empresa requerente — Sede — Município” for diferente" in text
    # The group made only of documents gets no empty section of its own.
    body = fillable_body(schema, {}, cite=cite)
    assert "<h2>Empresa requerente</h2>" in body
    assert "<h2>Documentos</h2>" not in body


def test_condition_given_in_words_by_the_content_pack() -> None:
    schema = {
        "title": "Requerimento",
        "type": "object",
        "properties": {
            "sede_em_americana": {"title": "Sede em Americana", "type": "boolean"},
            "cadastro_origem": {
                "x-documento": True,
                "title": "Cadastro no município de origem",
                "type": "object",
                "properties": {"apresentado": {"type": "boolean", "const": True}},
            },
        },
        "allOf": [
            {
                "x-condicao": "exigido se a sede for em outro município",
                "if": {"properties": {"sede_em_americana": {"const": False}}},
                "then": {"required": ["cadastro_origem"]},
            }
        ],
    }
    body = fillable_body(schema, {}, cite=cite)
    assert "Exigidos se a sede for em outro município:" in body
    del schema["allOf"][0]["x-condicao"]  # type: ignore[index]
    # The question is a Sim/Não pair of buttons: the condition names the answer.
    assert "Exigidos se o campo “Sede em Americana” for “Não”:" in fillable_body(
        schema, {}, cite=cite
    )


def test_hostile_values_come_back_literally(schema: dict[str, Any]) -> None:
    data = {
        "empresa": {"razao_social": HOSTILE[0], "sede": {"municipio": HOSTILE[1]}},
        "documentos": {"cnpj": {"numero": HOSTILE[2], "observacao": " ".join(HOSTILE)}},
    }
    body = fillable_body(schema, data, cite=cite)
    assert type(body) is str  # not Markup: concatenating a str must not escape it
    assert "<img" not in body and "<script" not in body

    pdf = render(body)
    fields = fields_of(pdf)
    assert fields["empresa/razao_social"]["/V"] == HOSTILE[0]
    assert fields["empresa/sede/municipio"]["/V"] == HOSTILE[1]
    assert fields["documentos/cnpj/numero"]["/V"] == HOSTILE[2]
    assert read_fields(pdf, schema) == data


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.text(
        st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")),
        min_size=1,
        max_size=40,
    ).filter(lambda s: s.strip() == s and s != "")
)
def test_any_text_survives_the_round_trip(schema: dict[str, Any], text: str) -> None:
    """Any visible text comes back as typed, in NFC (format characters are refused:
    tests/test_hostile_input.py)."""
    pdf = render(fillable_body(schema, {"empresa": {"razao_social": text}}, cite=cite))
    composed = unicodedata.normalize("NFC", text)
    assert read_fields(pdf, schema) == {"empresa": {"razao_social": composed}}


def test_names_survive_weasyprint_and_pypdf() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a/b": {"title": "Barra", "type": "string"},
            "c~d": {"title": "Til", "type": "string"},
            "órgão": {"title": "Acento", "type": "string"},
        },
    }
    assert field_name(["a/b"]) == "a~1b"
    data = {"a/b": "1", "c~d": "2", "órgão": "3"}
    pdf = render(fillable_body(schema, data, cite=cite))
    assert {"a~1b", "c~0d", "órgão"} <= set(fields_of(pdf))
    assert read_fields(pdf, schema) == data


def test_unknown_fields_are_ignored(schema: dict[str, Any]) -> None:
    body = fillable_body(schema, {"numero_motoristas": 2}, cite=cite)
    extra = (
        '<input type="text" name="campo/desconhecido" value="x">'
        '<input type="text" name="veiculos/abc/placa" value="y">'
        '<input type="text" name="empresa" value="z">'
    )
    assert read_fields(render(body + extra), schema) == {"numero_motoristas": 2}


@pytest.mark.parametrize(
    ("name", "typed", "expected"),
    [
        ("capital_social", "1234.5", 1234.5),
        ("capital_social", "1.234.567,89", 1234567.89),
        ("capital_social", "12", 12),
        ("numero_motoristas", "1.200", 1200),
        ("empresa/data_constituicao", "2010-03-05", "2010-03-05"),
        ("empresa/data_constituicao", "05.03.2010", "2010-03-05"),
        ("modalidade", "Fretamento contínuo", "continuo"),
    ],
)
def test_conversions(schema: dict[str, Any], name: str, typed: str, expected: Any) -> None:
    pdf = fill(render(fillable_body(schema, {}, cite=cite)), {name: typed})
    data = read_fields(pdf, schema)
    node: Any = data
    for key in name.split("/"):
        node = node[key]
    assert node == expected


@pytest.mark.parametrize(
    ("name", "typed", "pointer"),
    [
        ("empresa/data_constituicao", "31/02/2024", "/empresa/data_constituicao"),
        ("veiculos/1/vistoria", "amanhã", "/veiculos/1/vistoria"),
        ("numero_motoristas", "2,5", "/numero_motoristas"),
        ("capital_social", "muito", "/capital_social"),
    ],
)
def test_values_that_cannot_be_converted(
    schema: dict[str, Any], name: str, typed: str, pointer: str
) -> None:
    pdf = fill(render(fillable_body(schema, {}, cite=cite)), {name: typed})
    with pytest.raises(InputError) as caught:
        read_fields(pdf, schema)
    assert caught.value.field == pointer
    assert typed in caught.value.message


def test_pdf_without_form_is_refused(schema: dict[str, Any]) -> None:
    pdf = weasyprint.HTML(string="<p>Ofício sem campos</p>", base_url=None).write_pdf()
    with pytest.raises(InputError, match="não contém campos de formulário"):
        read_fields(pdf, schema)


@pytest.mark.parametrize(
    "garbage",
    [b"", b"not a pdf at all", b"%PDF-1.7\n1 0 obj <<\n", bytes(range(256)) * 8],
)
def test_garbage_is_refused(schema: dict[str, Any], garbage: bytes) -> None:
    with pytest.raises(InputError, match="não é um PDF válido"):
        read_fields(garbage, schema)


def test_truncated_form_is_refused(schema: dict[str, Any]) -> None:
    pdf = render(fillable_body(schema, {}, cite=cite))
    with pytest.raises(InputError):
        read_fields(pdf[: len(pdf) // 3], schema)


def test_encrypted_pdf_is_refused(schema: dict[str, Any]) -> None:
    writer = PdfWriter(
        clone_from=PdfReader(io.BytesIO(render(fillable_body(schema, {}, cite=cite))))
    )
    writer.encrypt("segredo", algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    with pytest.raises(InputError, match="criptografado"):
        read_fields(out.getvalue(), schema)


def test_inline_refs_leaves_no_ref(schema: dict[str, Any]) -> None:
    assert "$ref" not in json.dumps(schema)
    cnpj_doc = schema["properties"]["documentos"]["properties"]["cnpj"]
    # Local keywords win over the shared definition's; the definition fills the rest.
    assert cnpj_doc["title"] == "Cópia do CNPJ"
    assert cnpj_doc["properties"]["data_emissao"] == {
        "type": "string",
        "format": "date",
        "title": "Data de emissão",
    }


def test_inline_refs_refuses_missing_and_circular_refs(registry: Registry[Any]) -> None:
    missing = {"type": "object", "properties": {"x": {"$ref": "comum.schema.json#/$defs/nada"}}}
    with pytest.raises(ContentPackError, match="não foi encontrada"):
        inline_refs(missing, registry, base_uri="https://lavra.test/esquemas/f.json")
    circular = {
        "$id": "https://lavra.test/esquemas/arvore.json",
        "$defs": {"no": {"type": "object", "properties": {"filho": {"$ref": "#/$defs/no"}}}},
        "$ref": "#/$defs/no",
    }
    with pytest.raises(ContentPackError, match="circular"):
        inline_refs(circular, registry)


def test_bad_inputs_raise_lavra_errors(schema: dict[str, Any]) -> None:
    with pytest.raises(InputError):
        fillable_body(schema, ["não", "é", "objeto"], cite=cite)  # type: ignore[arg-type]
    with pytest.raises(CitationError, match="fretamento#art7"):
        no_citations: dict[str, str] = {}
        fillable_body(schema, {}, cite=lambda c: no_citations[c])
    with pytest.raises(ContentPackError):
        fillable_body({"type": "object", "properties": ["x"]}, {}, cite=cite)
    with pytest.raises(InputError):
        read_fields("texto", schema)  # type: ignore[arg-type]


def test_properties_beside_a_ref_add_to_the_target() -> None:
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    from lavra.render.fillable.schema import inline_refs

    shared = {
        "$id": "https://lavra.invalid/schemas/base.json",
        "$defs": {
            "cnh": {
                "type": "object",
                "required": ["numero"],
                "properties": {"numero": {"type": "string"}},
            }
        },
    }
    registry = Registry().with_resource(shared["$id"], DRAFT202012.create_resource(shared))
    schema = {
        "$ref": "https://lavra.invalid/schemas/base.json#/$defs/cnh",
        "required": ["categoria"],
        "properties": {"categoria": {"enum": ["D", "E"]}},
    }
    inlined = inline_refs(schema, registry)
    assert set(inlined["properties"]) == {"numero", "categoria"}
    assert inlined["required"] == ["numero", "categoria"]
