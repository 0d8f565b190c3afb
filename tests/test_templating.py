"""The sandboxed, autoescaping Jinja environment and its pt-BR filters."""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from lavra.errors import RenderError
from lavra.render.templating import DRAFT_BLANK, make_environment, render_string, render_template

HOSTILE = [
    '<img src="file:///etc/passwd">',
    '<link rel="attachment" href="file:///etc/passwd">',
    "{{7*7}}",
    "</w:t></w:r>",
]


def render(source: str, draft: bool = False, **context: Any) -> str:
    return render_string(make_environment([], draft=draft), source, context)


FILTER_CASES = [
    ("data", date(2026, 11, 29), "29/11/2026"),
    ("data", "2026-02-03", "03/02/2026"),
    # 01:30 UTC on the 30th is still the 29th in São Paulo
    ("data", datetime(2026, 11, 30, 1, 30, tzinfo=UTC), "29/11/2026"),
    ("data_extenso", date(2026, 11, 29), "29 de novembro de 2026"),
    ("data_extenso", "2026-01-01", "1º de janeiro de 2026"),
    ("data_extenso", "2026-03-15", "15 de março de 2026"),
    ("data_hora", datetime(2026, 11, 29, 17, 30, tzinfo=UTC), "29/11/2026 14:30"),
    ("data_hora", "2026-11-29T09:05:00", "29/11/2026 09:05"),
    ("moeda", Decimal("1234.56"), "R$ 1.234,56"),
    ("moeda", 0, "R$ 0,00"),
    ("moeda", "1.234,5", "R$ 1.234,50"),
    ("moeda", 1000000, "R$ 1.000.000,00"),
    ("moeda_extenso", "0.01", "R$ 0,01 (um centavo)"),
    ("moeda_extenso", "0.10", "R$ 0,10 (dez centavos)"),
    ("moeda_extenso", "1.00", "R$ 1,00 (um real)"),
    ("moeda_extenso", 100, "R$ 100,00 (cem reais)"),
    ("moeda_extenso", "1.01", "R$ 1,01 (um real e um centavo)"),
    (
        "moeda_extenso",
        "1234.56",
        "R$ 1.234,56 (mil, duzentos e trinta e quatro reais e cinquenta e seis centavos)",
    ),
    ("moeda_extenso", "1000000.00", "R$ 1.000.000,00 (um milhão de reais)"),
    ("moeda_extenso", "2000000.50", "R$ 2.000.000,50 (dois milhões de reais e cinquenta centavos)"),
    ("moeda_extenso", 0, "R$ 0,00 (zero real)"),
    ("numero_extenso", 21, "vinte e um"),
    ("numero_extenso", 1234, "mil, duzentos e trinta e quatro"),
    ("numero_extenso", "100", "cem"),
    ("cpf", "12345678909", "123.456.789-09"),
    ("cpf", "123.456.789-09", "123.456.789-09"),
    ("cnpj", "12345678000195", "12.345.678/0001-95"),
    ("cnpj", "12abc34501de35", "12.ABC.345/01DE-35"),
    ("placa", "abc1234", "ABC-1234"),
    ("placa", "ABC-1234", "ABC-1234"),
    ("placa", "abc1d23", "ABC1D23"),
    ("cep", "13465000", "13465-000"),
    ("cep", "13.465-000", "13465-000"),
]


@pytest.mark.parametrize(("name", "value", "expected"), FILTER_CASES)
def test_filter(name: str, value: object, expected: str) -> None:
    assert render(f"{{{{ v | {name} }}}}", v=value) == expected
    # the same helpers are globals too
    assert render(f"{{{{ {name}(v) }}}}", v=value) == expected


INVALID = [
    ("data", "2026-02-30"),
    ("data", "ontem"),
    ("moeda", "abc"),
    ("cpf", "1234"),
    ("cnpj", "12.345.678/0001"),
    ("placa", "AB-12345"),
    ("cep", "1346500"),
]


@pytest.mark.parametrize(("name", "value"), INVALID)
def test_invalid_value_is_a_render_error_in_final_and_shown_as_typed_in_draft(
    name: str, value: str
) -> None:
    with pytest.raises(RenderError) as caught:
        render(f"{{{{ v | {name} }}}}", v=value)
    assert name in caught.value.message
    assert render(f"{{{{ v | {name} }}}}", draft=True, v=value) == value


def test_missing_value_is_a_visible_blank_in_a_draft() -> None:
    out = render(
        "{{ nome }}|{{ requerente.endereco.cep }}|{{ falta | cpf }}|{{ n + 1 }}|"
        "{% if opcional %}sim{% else %}não{% endif %}|{% for x in lista %}x{% endfor %}",
        draft=True,
    )
    assert out == f"{DRAFT_BLANK}|{DRAFT_BLANK}|{DRAFT_BLANK}|{DRAFT_BLANK}|não|"


def test_missing_value_in_a_final_document_names_the_variable() -> None:
    with pytest.raises(RenderError) as caught:
        render("Requerente: {{ nome_requerente }}")
    assert "«nome_requerente»" in caught.value.message
    assert caught.value.field == "/nome_requerente"
    with pytest.raises(RenderError) as nested:
        render("{{ requerente.cpf }}", requerente={"nome": "Ana"})
    assert "cpf" in nested.value.message and "«" in nested.value.message
    # testing for presence is still allowed
    assert render("{% if x is defined %}a{% endif %}{% if x %}b{% endif %}c") == "c"


@pytest.mark.parametrize("value", HOSTILE)
def test_data_is_escaped_and_never_evaluated(value: str) -> None:
    out = render("<p>{{ v }}</p>", v=value)
    assert "<img" not in out and "<link" not in out and "</w:t>" not in out
    assert "49" not in out
    import html

    assert html.unescape(out) == f"<p>{value}</p>"


def test_file_templates_autoescape_whatever_their_extension(tmp_path: Path) -> None:
    for name in ("corpo.html", "corpo.j2", "corpo.txt"):
        (tmp_path / name).write_text("<p>{{ v }}</p>", encoding="utf-8")
        env = make_environment([tmp_path])
        assert render_template(env, name, {"v": "<b>x</b>"}) == "<p>&lt;b&gt;x&lt;/b&gt;</p>"


def test_sandbox_blocks_attribute_escapes() -> None:
    with pytest.raises(RenderError):
        render("{{ ''.__class__.__mro__[1].__subclasses__() }}")
    with pytest.raises(RenderError):
        render("{{ v.__class__.__init__.__globals__ }}", v="x")


def test_template_errors_become_render_errors(tmp_path: Path) -> None:
    env = make_environment([tmp_path])
    with pytest.raises(RenderError, match="não encontrado"):
        render_template(env, "nao_existe.html", {})
    with pytest.raises(RenderError, match="sintaxe"):
        render_string(env, "{% if %}", {})


@pytest.mark.parametrize(
    ("source", "said"),
    [('{{ "{nome}".format(x=1) }}',
      "o campo «nome», que o texto do documento usa, não existe nos dados."),
     ("{{ 1 // v }}", "uma operação do texto do documento falhou com os dados informados.")],
)
def test_an_unforeseen_failure_is_a_sentence_and_its_class_only_logged(
    source: str, said: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 25: no «(KeyError: 'nome')» reaches a person; the log keeps it."""
    with caplog.at_level(logging.INFO, logger="lavra.render"), \
            pytest.raises(RenderError) as caught:
        render(source, v=0)
    at = "O modelo (texto informado), linha 1, não pôde ser preenchido:"
    assert caught.value.message == f"{at} {said}"
    assert "Error" not in caught.value.message
    assert ("KeyError: 'nome'" if "nome" in source else "ZeroDivisionError") in caplog.text


def test_a_failure_names_the_field_by_its_label_where_the_form_gives_one() -> None:
    """Issue 25: the key a failure carries («nome», field /nome) becomes the form's label;
    a key the form has no label for stays (the template's own name, for its maintainer)."""
    from lavra.render.templatefailure import labelled

    with pytest.raises(RenderError) as caught:
        render('{{ "{nome}".format(x=1) }}')
    assert caught.value.field == "/nome"
    named = labelled(caught.value, {"/nome": "Titular › Nome"}.__getitem__)
    assert named.message.endswith("o campo «Titular › Nome», que o texto do documento usa, "
                                  "não existe nos dados.")
    assert labelled(caught.value, lambda _p: "«nome»") is caught.value
    # no label (a key the form's data lack): the form by its title, the key only logged
    said = labelled(caught.value, lambda _p: "«nome»", "Alvará de Licença de Circulação")
    assert said.message == ("O modelo do documento «Alvará de Licença de Circulação» não "
                            "pôde ser preenchido: ele precisa de um dado que os dados "
                            "informados não trazem. Comunique o fato à equipe que mantém "
                            "os modelos.")
    assert "nome" not in said.message and said.field is None


def test_citations_call_the_given_resolvers() -> None:
    env = make_environment(
        [],
        cite=lambda ref: f"art. 7º, IV, da Lei nº 4.419/2006 [{ref}]",
        cite_text=lambda ref: f"texto <de> {ref}",
    )
    source = "{{ citacao('fretamento#art7_inc4') }} / {{ 'x' | citacao_texto }}"
    out = render_string(env, source, {})
    assert out == (
        "art. 7º, IV, da Lei nº 4.419/2006 [fretamento#art7_inc4] / texto &lt;de&gt; x"
    )
    with pytest.raises(RenderError, match="citações"):
        render("{{ citacao('a#b') }}")


def test_jinjas_own_undefined_error_is_said_in_portuguese_naming_the_field() -> None:
    """Jinja's «'x' is undefined» (raised by jinja itself, not by the final document's
    Undefined) reaches nobody in English: the field is named as a missing key is."""
    import jinja2

    from lavra.render.templatefailure import failed_undefined

    for message, field in (("'placa' is undefined", "/placa"),
                           ("'dict object' has no attribute 'placa'", "/placa")):
        error = failed_undefined("O modelo texto.html, linha 3,", jinja2.UndefinedError(message))
        assert "«placa»" in error.message and error.field == field, error.message
        assert "undefined" not in error.message and "attribute" not in error.message
