"""Schema registry, validation with pt-BR messages and static annotations.

(lavra.inputs.schemas: registry, fields, validation)
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import socket
from pathlib import Path
from typing import Any

import pytest
from referencing.exceptions import Unretrievable
from referencing.jsonschema import DRAFT202012, SchemaRegistry

from lavra.errors import ContentPackError, LavraError
from lavra.inputs.schemas import fields as schema_fields
from lavra.inputs.schemas.fields import FieldInfo
from lavra.inputs.schemas.registry import BASE_URI, build_registry, validator
from lavra.inputs.schemas.validation import SchemaIssue, validate

TEST_SCHEMA = Path(__file__).parent / "data" / "schemas" / "formulario-teste.json"
FORM = "formulario-teste.json"

VALID_DATA: dict[str, Any] = {
    "tipo": "continuo",
    "cpf": "529.982.247-25",
    "razao_social": "Viação Sol",
    "requerente": {
        "nome": "Maria da Silva",
        "cpf": "111.444.777-35",
        "data_nascimento": "1980-05-17",
        "endereco": {
            "logradouro": "Rua das Palmeiras",
            "numero": "100",
            "municipio": "Americana",
            "uf": "SP",
            "cep": "13465-000",
        },
    },
    "cnh": {"numero": "03578610030", "categoria": "AE", "validade": "2028-06-30"},
    "contrato": {"apresentado": True, "data_emissao": "2026-01-15"},
    "taxa": "140.00",
    "data_pedido": "2026-03-02",
    "codigo": "AB",
    "declaracao": True,
    "contato": "(19) 3475-0000",
    "quantidade": 15.5,
    "marcadores": ["x", "x", "y"],
    "responsavel": "Ana",
    "telefone_responsavel": "(19) 99999-0000",
    "par": [{"a": "primeiro"}],
    "veiculos": [
        {"placa": "ABC-1234", "ano": 2015, "lotacao": 20},
        {"placa": "ABC1D23", "ano": 2020},
    ],
}


def write_schema(folder: Path, name: str, schema: dict[str, Any]) -> Path:
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
    schema.setdefault("$id", BASE_URI + name)
    path = folder / name
    path.write_text(json.dumps(schema, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture()
def schemas_dir(tmp_path: Path, pack_dir: Path) -> Path:
    folder = tmp_path / "schemas"
    folder.mkdir()
    shutil.copy(pack_dir / "schemas" / "comum.json", folder)
    shutil.copy(TEST_SCHEMA, folder)
    return folder


@pytest.fixture()
def registry(schemas_dir: Path) -> SchemaRegistry:
    return build_registry(schemas_dir)


def by_pointer(issues: tuple[SchemaIssue, ...]) -> dict[str, SchemaIssue]:
    result: dict[str, SchemaIssue] = {}
    for issue in issues:
        assert issue.pointer not in result, f"duas falhas em {issue.pointer}: {issues}"
        result[issue.pointer] = issue
    return result


def with_changes(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(VALID_DATA))
    data.update(changes)
    return data


# --- the content pack ----------------------------------------------------------------


def test_pack_schemas_build_and_walk(pack_dir: Path) -> None:
    registry = build_registry(pack_dir / "schemas")
    files = sorted(p.name for p in (pack_dir / "schemas").glob("*.json"))
    assert "comum.json" in files
    for name in files:
        assert BASE_URI + name in registry
        if name != "comum.json":
            fields = schema_fields.annotations(registry, name)
            assert all(isinstance(info, FieldInfo) for info in fields)


def test_comum_definitions_are_documented_and_closed(pack_dir: Path) -> None:
    comum = json.loads((pack_dir / "schemas" / "comum.json").read_text(encoding="utf-8"))
    assert comum["$id"] == BASE_URI + "comum.json"
    wanted = {
        "cpf",
        "cnpj",
        "placa",
        "renavam",
        "cnh",
        "categoria_cnh",
        "cnh_categoria_d",
        "cep",
        "uf",
        "endereco",
        "data",
        "data_hora",
        "dinheiro",
        "telefone",
        "email",
        "pessoa_fisica",
        "pessoa_juridica",
        "documento",
    }
    assert wanted <= set(comum["$defs"])
    for name, definition in comum["$defs"].items():
        assert definition.get("title"), name
        assert definition.get("description"), name
        if definition.get("type") == "object":  # closed: typos in field names are caught
            closed = (
                definition.get("additionalProperties") is False
                or definition.get("unevaluatedProperties") is False
            )
            assert closed, name
    assert len(comum["$defs"]["uf"]["enum"]) == 27
    assert comum["$defs"]["cnh_categoria_d"]["x-fundamento"] == [
        "transporte-escolar#art7_inc2",
        "transporte-escolar#art5_inc3",
        "transporte-escolar#art13_par5_inc2",
        "transporte-escolar#art20_par1_inc2",
    ]


@pytest.mark.parametrize(
    ("definition", "good", "bad"),
    [
        ("cpf", ["529.982.247-25", "52998224725"], ["529.982.247-24", "5299822472", 52998224725]),
        ("cnpj", ["11.222.333/0001-81", "12.ABC.345/01DE-35"], ["12.ABC.345/01DE-53"]),
        ("placa", ["ABC-1234", "ABC1D23"], ["ABC-1D2"]),
        ("renavam", ["00639884962"], ["00639884961"]),
        ("cep", ["13465-000", "13465000"], ["13465-0000"]),
        ("uf", ["SP", "DF"], ["XX", "sp"]),
        ("categoria_cnh", ["A", "AB", "AE"], ["F", "BC"]),
        ("data", ["2024-02-29"], ["2026-02-30", "2026-02-03T10:00:00Z"]),
        ("data_hora", ["2026-03-02T14:30:00-03:00"], ["2026-03-02", "2026-03-02T14:30:00"]),
        ("dinheiro", ["140.00", "0.50"], ["140", "140,00", "1.400,00", "-1.00", "01.00"]),
        ("telefone", ["(19) 3475-0000", "19999990000", "+55 19 99999-0000"], ["3475-0000"]),
        ("email", ["setransv@exemplo.gov.br"], ["setransv"]),
        (
            "cnh",
            [{"numero": "03578610030", "categoria": "B", "validade": "2027-01-01"}],
            [
                {"numero": "03578610031", "categoria": "B", "validade": "2027-01-01"},
                {"numero": "03578610030", "categoria": "B"},
                {"numero": "03578610030", "categoria": "B", "validade": "2027-01-01", "x": 1},
            ],
        ),
        (
            "cnh_categoria_d",
            [
                {"numero": "03578610030", "categoria": c, "validade": "2027-01-01"}
                for c in ("D", "E", "AD", "AE")
            ],
            [
                {"numero": "03578610030", "categoria": c, "validade": "2027-01-01"}
                for c in ("A", "B", "AB", "C", "AC")
            ],
        ),
        (
            "endereco",
            [{"logradouro": "Rua A", "numero": "S/N", "municipio": "Americana", "uf": "SP"}],
            [{"logradouro": "Rua A", "numero": "1", "municipio": "Americana"}],
        ),
        (
            "documento",
            [{"apresentado": True, "data_emissao": "2026-01-02", "validade": "2027-01-02"}],
            [{"apresentado": False, "data_emissao": "2026-01-02"}, {"apresentado": True}],
        ),
        (
            "pessoa_juridica",
            [{"razao_social": "Viação Sol Ltda.", "cnpj": "12.ABC.345/01DE-35"}],
            [{"razao_social": "Viação Sol Ltda.", "cnpj": "12.ABC.345/01DE-35", "cpf": "x"}],
        ),
    ],
)
def test_comum_definitions_accept_and_reject(
    schemas_dir: Path, definition: str, good: list[Any], bad: list[Any]
) -> None:
    write_schema(schemas_dir, "t.json", {"$ref": f"comum.json#/$defs/{definition}"})
    registry = build_registry(schemas_dir)
    for value in good:
        assert validate(registry, "t.json", value) == (), value
    for value in bad:
        assert validate(registry, "t.json", value), value


def test_categoria_d_message_explains_the_law(registry: SchemaRegistry) -> None:
    data = with_changes(cnh={"numero": "03578610030", "categoria": "B", "validade": "2027-01-01"})
    issue = by_pointer(validate(registry, FORM, data))["/cnh/categoria"]
    assert issue.keyword == "enum"
    assert issue.message == (
        "CNH do condutor › Categoria da CNH: A lei exige habilitação na categoria “D” "
        "(atendem também as categorias E, AD e AE, que a abrangem)."
    )


# --- registry: no network, broken schemas -------------------------------------------


class SocketForbidden(AssertionError):
    pass


@pytest.fixture()
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    attempts: list[tuple[Any, ...]] = []

    def forbidden(*args: Any, **kwargs: Any) -> None:
        attempts.append(args)
        raise SocketForbidden("socket aberto durante o teste")

    monkeypatch.setattr(socket, "socket", forbidden)
    monkeypatch.setattr(socket, "create_connection", forbidden)
    return attempts


def test_external_ref_is_refused_at_build_without_network(
    schemas_dir: Path, no_network: list[tuple[Any, ...]]
) -> None:
    write_schema(schemas_dir, "externo.json", {"$ref": "https://example.com/x.json"})
    with pytest.raises(LavraError) as caught:
        build_registry(schemas_dir)
    assert isinstance(caught.value, ContentPackError)
    assert "https://example.com/x.json" in caught.value.message
    assert "schemas/externo.json" in caught.value.message
    assert no_network == []


def test_retrieve_hook_refuses_unknown_uris(
    registry: SchemaRegistry, no_network: list[tuple[Any, ...]]
) -> None:
    with pytest.raises(Unretrievable) as caught:
        registry.get_or_retrieve("https://example.com/x.json")
    assert isinstance(caught.value.__cause__, ContentPackError)
    with pytest.raises(ContentPackError, match="Esquema não encontrado"):
        validator(registry, "https://example.com/x.json")
    # A resource slipped in past build_registry's checks still cannot fetch anything.
    sneaky = registry.with_resource(
        BASE_URI + "sorrateiro.json",
        DRAFT202012.create_resource(
            {"$id": BASE_URI + "sorrateiro.json", "$ref": "https://example.com/x.json"}
        ),
    )
    with pytest.raises(ContentPackError, match=r"example\.com"):
        validate(sneaky, "sorrateiro.json", {})
    assert no_network == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '{"$id": "https://lavra.invalid/schemas/quebrado.json", "type": "texto"}',
            "não segue o metaesquema JSON Schema 2020-12",
        ),
        (
            '{"$id": "https://lavra.invalid/schemas/quebrado.json", "requried": ["a"]}',
            "Palavra-chave desconhecida «requried»",
        ),
        (
            '{"$id": "https://lavra.invalid/schemas/quebrado.json", "format": "cfp"}',
            "Formato desconhecido «cfp»",
        ),
        ('{"$id": "https://lavra.invalid/schemas/outro.json"}', "o $id deve ser"),
        ('{"type": "object"}', "está ausente"),
        ('{"$id": "https://lavra.invalid/schemas/quebrado.json", "type": ', "não é JSON válido"),
        (
            '{"$id": "https://lavra.invalid/schemas/quebrado.json", "title": "a", "title": "b"}',
            "chave repetida «title»",
        ),
        ("[1, 2]", "deve ser um objeto JSON"),
        (
            '{"$id": "https://lavra.invalid/schemas/quebrado.json", '
            '"$ref": "comum.json#/$defs/cpff"}',
            "Referência «comum.json#/$defs/cpff»",
        ),
        (
            '{"$id": "https://lavra.invalid/schemas/quebrado.json", "x-fundamento": "lei#art1"}',
            "x-fundamento",
        ),
    ],
)
def test_broken_schema_names_the_file(schemas_dir: Path, text: str, expected: str) -> None:
    (schemas_dir / "quebrado.json").write_text(text, encoding="utf-8")
    with pytest.raises(ContentPackError) as caught:
        build_registry(schemas_dir)
    assert "schemas/quebrado.json" in caught.value.message
    assert expected in caught.value.message


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ContentPackError, match="Pasta de esquemas não encontrada"):
        build_registry(tmp_path / "nada")


# --- validator -------------------------------------------------------------------------


def test_validator_asserts_formats_and_is_cached(schemas_dir: Path) -> None:
    registry = build_registry(schemas_dir)
    checker = validator(registry, FORM)
    assert checker is validator(registry, BASE_URI + FORM)
    assert checker is validator(registry, "formulario-teste")
    assert checker.is_valid(VALID_DATA)
    assert not checker.is_valid(with_changes(cpf="529.982.247-24"))
    assert not checker.is_valid(with_changes(data_pedido="2026-02-30"))
    other = build_registry(schemas_dir)
    assert validator(other, FORM) is not checker
    assert schema_fields.annotations(registry, FORM) is schema_fields.annotations(registry, FORM)
    with pytest.raises(ContentPackError, match="Esquema não encontrado"):
        validator(registry, "inexistente.json")


# --- validate: issues and messages -------------------------------------------------


def test_valid_data_has_no_issue(registry: SchemaRegistry) -> None:
    assert validate(registry, FORM, VALID_DATA) == ()


def test_required_points_at_the_missing_property(registry: SchemaRegistry) -> None:
    data = with_changes()
    del data["razao_social"]
    del data["requerente"]["endereco"]["uf"]
    issues = by_pointer(validate(registry, FORM, data))
    assert set(issues) == {"/razao_social", "/requerente/endereco/uf"}
    root = issues["/razao_social"]
    assert (root.keyword, root.missing) == ("required", "razao_social")
    assert root.message == "Campo obrigatório não informado: Razão social."
    assert root.schema_path == "/required"
    nested = issues["/requerente/endereco/uf"]
    assert nested.missing == "uf"
    assert nested.message == "Campo obrigatório não informado: Requerente › Endereço › UF."


def test_conditional_requirements(registry: SchemaRegistry) -> None:
    data = with_changes(veiculos=[{"placa": "ABC1234"}, {"placa": "ABC1D23", "ano": 2020}])
    del data["contrato"]
    issues = by_pointer(validate(registry, FORM, data))
    assert set(issues) == {"/contrato", "/veiculos/0/ano"}
    assert issues["/contrato"].message == "Campo obrigatório não informado: Cópia do contrato."
    assert issues["/veiculos/0/ano"].message == (
        "Campo obrigatório não informado: Veículos (item 1) › Ano de fabricação."
    )
    eventual = with_changes(tipo="eventual")
    issue = by_pointer(validate(registry, FORM, eventual))["/motivo"]
    assert issue.message == "Campo obrigatório não informado: Motivo da viagem."
    assert issue.schema_path == "/allOf/1/then/required"


def test_unexpected_properties_one_issue_each(registry: SchemaRegistry) -> None:
    data = with_changes(nada=1, outro=2)
    data["requerente"]["apelido"] = "M"
    data["veiculos"][1]["cor"] = "azul"
    issues = by_pointer(validate(registry, FORM, data))
    assert set(issues) == {"/nada", "/outro", "/requerente/apelido", "/veiculos/1/cor"}
    assert issues["/nada"].keyword == "unevaluatedProperties"
    assert issues["/nada"].message == "Campo não previsto no formulário: «nada»."
    assert issues["/requerente/apelido"].keyword == "additionalProperties"
    assert issues["/requerente/apelido"].message == (
        "Campo não previsto no formulário: «apelido» (em Requerente)."
    )
    assert issues["/veiculos/1/cor"].message == (
        "Campo não previsto no formulário: «cor» (em Veículos (item 2))."
    )


KEYWORD_CASES: list[tuple[dict[str, Any], str, str, str]] = [
    (
        {"cpf": "529.982.247-24"},
        "/cpf",
        "format",
        "CPF do requerente: CPF inválido (dígitos verificadores não conferem).",
    ),
    ({"cpf": 52998224725}, "/cpf", "type", "CPF do requerente: Deve ser um texto."),
    (
        {"data_pedido": "2026-02-30"},
        "/data_pedido",
        "format",
        "Data do pedido: Data inexistente: 30/02/2026.",
    ),
    (
        {"codigo": "abc"},
        "/codigo",
        "pattern",
        "Código: Use duas letras maiúsculas; informado «abc».",
    ),
    (
        {"taxa": "140,00"},
        "/taxa",
        "pattern",
        "Valor da taxa: Valor em reais inválido: use ponto e duas casas decimais, sem "
        "separador de milhar (por exemplo, 140.00).",
    ),
    (
        {"tipo": "avulso"},
        "/tipo",
        "enum",
        "Tipo de serviço: Valor não permitido: «avulso». Valores aceitos: Fretamento eventual, "
        "Fretamento contínuo.",
    ),
    (
        {"declaracao": False},
        "/declaracao",
        "const",
        "Declaração de veracidade: Deve ser marcado como «sim».",
    ),
    (
        {"contrato": {"apresentado": False, "data_emissao": "2026-01-15"}},
        "/contrato/apresentado",
        "const",
        "Cópia do contrato: Documento não apresentado.",
    ),
    (
        {"razao_social": "V"},
        "/razao_social",
        "minLength",
        "Razão social: Deve ter no mínimo 2 caracteres.",
    ),
    (
        {"razao_social": "Viação Sol Nascente"},
        "/razao_social",
        "maxLength",
        "Razão social: Deve ter no máximo 10 caracteres (foram informados 19).",
    ),
    (
        {"veiculos": [{"placa": "ABC1234", "ano": 2015}]},
        "/veiculos",
        "minItems",
        "Deve haver no mínimo 2 itens em Veículos.",
    ),
    (
        {"veiculos": [{"placa": f"ABC123{i}", "ano": 2015} for i in range(4)]},
        "/veiculos",
        "maxItems",
        "Deve haver no máximo 3 itens em Veículos.",
    ),
    (
        {"veiculos": [{"placa": "ABC1234", "ano": 2015}, {"placa": "ABC1234", "ano": 2015}]},
        "/veiculos",
        "uniqueItems",
        "Veículos: Há itens repetidos na lista (o item 2 repete o item 1).",
    ),
    (
        {"veiculos": [{"placa": "ABC1234", "ano": 1999}, {"placa": "ABC1D23", "ano": 2020}]},
        "/veiculos/0/ano",
        "minimum",
        "Veículos (item 1) › Ano de fabricação: Deve ser maior ou igual a 2000.",
    ),
    (
        {"veiculos": [{"placa": "ABC1234", "ano": 2031}, {"placa": "ABC1D23", "ano": 2020}]},
        "/veiculos/0/ano",
        "maximum",
        "Veículos (item 1) › Ano de fabricação: Deve ser menor ou igual a 2030.",
    ),
    (
        {
            "veiculos": [
                {"placa": "ABC1234", "ano": 2015, "lotacao": 0},
                {"placa": "ABC1D23", "ano": 2020},
            ]
        },
        "/veiculos/0/lotacao",
        "exclusiveMinimum",
        "Veículos (item 1) › Lotação: Deve ser maior que 0.",
    ),
    (
        {
            "veiculos": [
                {"placa": "ABC1234", "ano": 2015},
                {"placa": "ABC1D23", "ano": 2020, "lotacao": 50},
            ]
        },
        "/veiculos/1/lotacao",
        "exclusiveMaximum",
        "Veículos (item 2) › Lotação: Deve ser menor que 50.",
    ),
    (
        {
            "veiculos": [
                {"placa": "ABC1234", "ano": 2015, "lotacao": 2.5},
                {"placa": "ABC1D23", "ano": 2020},
            ]
        },
        "/veiculos/0/lotacao",
        "multipleOf",
        "Veículos (item 1) › Lotação: Deve ser múltiplo de 1.",
    ),
    (
        {"veiculos": [{"placa": "ABC1234", "ano": 2015}, {"placa": "ABC-1D2", "ano": 2020}]},
        "/veiculos/1/placa",
        "format",
        "Veículos (item 2) › Placa: Placa inválida: use o padrão antigo (ABC-1234) ou o padrão "
        "Mercosul (ABC1D23).",
    ),
    ({"apelido": "proibido"}, "/apelido", "not", "Apelido: Valor não permitido: «proibido»."),
    (
        {"contato": "ninguém"},
        "/contato",
        "pattern",
        "Contato: Telefone inválido: informe o DDD e o número, por exemplo (19) 99999-0000.",
    ),
    (
        {"quantidade": 12},
        "/quantidade",
        "oneOf",
        "Quantidade: Os dados atendem a mais de uma das alternativas previstas, e devem "
        "atender a exatamente uma.",
    ),
    ({"quantidade": "doze"}, "/quantidade", "type", "Quantidade: Deve ser um número inteiro."),
    (
        {"marcadores": ["x", "y"]},
        "/marcadores",
        "minContains",
        "Marcadores: A lista deve conter ao menos 2 itens que atendam ao exigido.",
    ),
    (
        {"etiquetas": ["y"]},
        "/etiquetas",
        "contains",
        "Etiquetas: A lista deve conter ao menos um item que atenda ao exigido.",
    ),
    (
        {"par": [{"a": "x"}, {"a": "y"}]},
        "/par",
        "items",
        "Par: A lista tem itens além dos previstos.",
    ),
    ({"par": [{"a": 1}]}, "/par/0/a", "type", "Par (item 1) › Valor A: Deve ser um texto."),
    (
        {"telefone_responsavel": None},
        "/telefone_responsavel",
        "type",
        "Telefone do responsável: Deve ser um texto.",
    ),
    (
        {
            "requerente": {
                "nome": "Maria",
                "cpf": "111.444.777-35",
                "endereco": {"logradouro": "", "numero": "1", "municipio": "Americana", "uf": "SP"},
            }
        },
        "/requerente/endereco/logradouro",
        "minLength",
        "Requerente › Endereço › Logradouro: Não pode ficar em branco.",
    ),
]


@pytest.mark.parametrize(("changes", "pointer", "keyword", "message"), KEYWORD_CASES)
def test_message_for_each_keyword(
    registry: SchemaRegistry, changes: dict[str, Any], pointer: str, keyword: str, message: str
) -> None:
    issues = validate(registry, FORM, with_changes(**changes))
    assert [(i.pointer, i.keyword, i.message) for i in issues] == [(pointer, keyword, message)]


def test_dependent_required(registry: SchemaRegistry) -> None:
    data = with_changes()
    del data["telefone_responsavel"]
    (issue,) = validate(registry, FORM, data)
    assert (issue.pointer, issue.keyword, issue.missing) == (
        "/telefone_responsavel",
        "dependentRequired",
        "telefone_responsavel",
    )
    assert issue.message == (
        "Campo obrigatório não informado: Telefone do responsável "
        "(exigido quando se informa Nome do responsável)."
    )


ENGLISH = re.compile(
    r"\b(is not|is a required|required property|was expected|does not|valid under|"
    r"too short|too long|unexpected|should be|non-empty|less than|greater than|"
    r"Additional|Unevaluated|expected)\b",
    re.IGNORECASE,
)


def test_everything_wrong_at_once_is_sorted_and_portuguese(registry: SchemaRegistry) -> None:
    data: dict[str, Any] = {
        "tipo": "continuo",
        "cpf": "1",
        "razao_social": 7,
        "zz": 1,
        "nada": None,
        "requerente": {"nome": "Jo", "cpf": "111.111.111-11", "xx": 2, "endereco": {}},
        "cnh": {"numero": "1", "categoria": "Z"},
        "contrato": {"apresentado": "sim", "data_emissao": "30/02/2026", "extra": 1},
        "taxa": 140,
        "data_pedido": "2026-13-01",
        "codigo": "a\x00b",
        "declaracao": "sim",
        "apelido": "proibido",
        "contato": 1,
        "quantidade": True,
        "marcadores": "x",
        "etiquetas": [],
        "responsavel": "Ana",
        "par": [1, 2, 3],
        "veiculos": [{"placa": 1, "ano": "x", "lotacao": -1, "k": 0}] * 4,
    }
    issues = validate(registry, FORM, data)
    assert len(issues) > 30
    for issue in issues:
        assert not ENGLISH.search(issue.message), issue.message
        assert "\x00" not in issue.message
        assert issue.message.endswith(".")
    pointers = [i.pointer for i in issues]
    assert pointers == sorted(
        pointers,
        key=lambda p: [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in p.split("/")[1:]],
    )
    assert "/zz" in pointers and "/nada" in pointers and "/contrato/extra" in pointers


def test_array_pointers_sort_numerically(schemas_dir: Path) -> None:
    write_schema(
        schemas_dir,
        "lista.json",
        {
            "type": "object",
            "properties": {"l": {"title": "Lista", "type": "array", "items": {"type": "string"}}},
        },
    )
    registry = build_registry(schemas_dir)
    issues = validate(registry, "lista.json", {"l": list(range(12))})
    assert [i.pointer for i in issues] == [f"/l/{n}" for n in range(12)]
    assert issues[10].message == "Lista (item 11): Deve ser um texto."


def test_root_type_error(registry: SchemaRegistry) -> None:
    (issue,) = validate(registry, FORM, [1, 2])
    assert (issue.pointer, issue.keyword) == ("", "type")
    assert issue.message == "Formulário: Deve ser um grupo de campos."


def test_recursive_schema(schemas_dir: Path) -> None:
    write_schema(
        schemas_dir,
        "arvore.json",
        {
            "type": "object",
            "properties": {
                "nome": {"title": "Nome", "type": "string"},
                "filhos": {"title": "Filhos", "type": "array", "items": {"$ref": "#"}},
            },
            "additionalProperties": False,
        },
    )
    registry = build_registry(schemas_dir)
    patterns = [f.pattern for f in schema_fields.annotations(registry, "arvore.json")]
    assert patterns == ["/nome", "/filhos"]
    issues = validate(registry, "arvore.json", {"filhos": [{"filhos": [{"nome": 1}]}]})
    assert [(i.pointer, i.message) for i in issues] == [
        (
            "/filhos/0/filhos/0/nome",
            "Filhos (item 1) › «filhos» (item 1) › Nome: Deve ser um texto.",
        )
    ]


# --- annotations ----------------------------------------------------------------------


def test_annotations_walk(registry: SchemaRegistry) -> None:
    fields = schema_fields.annotations(registry, FORM)
    info = {f.pattern: f for f in fields}
    patterns = [f.pattern for f in fields]

    # schema order, depth first; $defs not walked on their own
    assert patterns[:5] == ["/tipo", "/cpf", "/razao_social", "/requerente", "/requerente/nome"]
    assert patterns.index("/veiculos") < patterns.index("/veiculos/*/placa")
    assert patterns[-1] == "/motivo"
    assert not any("fantasma" in p for p in patterns)
    assert len(patterns) == len(set(patterns))

    # $ref: title of the property wins, else the definition's; schema merged
    assert info["/cpf"].title == "CPF do requerente"
    assert info["/cpf"].schema["format"] == "cpf"
    assert info["/cpf"].description is not None and "Pessoas Físicas" in info["/cpf"].description
    assert info["/cpf"].basis == ("teste#art1",)
    assert info["/cpf"].required and info["/cpf"].required_when is None
    assert info["/veiculos/*/placa"].title == "Placa"
    assert info["/veiculos/*/placa"].required
    assert info["/requerente/endereco/uf"].title == "UF"
    assert info["/par/0/a"].title == "Valor A"

    # basis carried by the definition a property refers to
    assert info["/cnh"].basis == (
        "transporte-escolar#art7_inc2",
        "transporte-escolar#art5_inc3",
        "transporte-escolar#art13_par5_inc2",
        "transporte-escolar#art20_par1_inc2",
    )
    assert info["/cnh/categoria"].basis == ()

    # documents
    assert info["/contrato"].document
    assert not info["/cnh"].document
    assert not info["/contrato/apresentado"].document

    # if/then: basis of the `if`, condition worded from it
    assert info["/contrato"].basis == ("teste#art4",)
    assert not info["/contrato"].required
    assert info["/contrato"].required_when == "Tipo de serviço = «Fretamento contínuo»"  # by label
    # requirement nested below the branch
    assert info["/veiculos/*/ano"].basis == ("teste#art4",)
    assert info["/veiculos/*/ano"].required_when == "Tipo de serviço = «Fretamento contínuo»"
    # property first declared in a branch: x-condicao and the branch's basis
    assert info["/motivo"].basis == ("teste#art5",)
    assert info["/motivo"].required_when == "serviço eventual"
    # dependentRequired
    assert info["/telefone_responsavel"].required_when == "Nome do responsável informado"


def test_field_info_is_frozen(registry: SchemaRegistry) -> None:
    info = schema_fields.annotations(registry, FORM)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.title = "outro"  # type: ignore[misc]
    with pytest.raises(TypeError):
        info.schema["title"] = "outro"  # type: ignore[index]
