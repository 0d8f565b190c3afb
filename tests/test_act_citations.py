"""How a signed act cites a protocol and speaks to the person it notifies (issue 23,
class 8, read again on this morning's documents).

A protocol of lavra's own series is cited as every act of a series is: "PROT nº
0003/2026", never "sob o nº PROT 0003/2026" nor "nº PROT"; a protocol of the
Prefeitura's other systems, without series, keeps its digits ("nº 4.321/2026"). The
revogação notice speaks to Vossa Senhoria without a pronoun of a gender the data do not
declare ("e a intima" to a man). Drafts of each form's example, read back with poppler.
"""

from __future__ import annotations

import json
import re
import subprocess
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from formcases import example
from issuers import clocked_issuer

from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.filing import FilingDesk
from lavra.inputs import pointers
from lavra.inputs.reading import TIMEZONE

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


def _text(pdf: bytes) -> str:
    done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf,
                          capture_output=True, check=True, timeout=60)
    return " ".join(done.stdout.decode().split())


def _draft(engine: Engine, form: str, changes: dict[str, Any], on: date) -> str:
    data = example(engine, form)
    for pointer, value in changes.items():
        *parents, last = pointers.split(pointer)
        node = data
        for token in parents:
            node = node[token]
        node[last] = value
    return _text(engine.draft(form, data, on).pdf)


@pytest.mark.parametrize(("form", "pointer", "on"), [
    ("termo-substituicao-veiculo-escolar", "/protocolo_requerimento", date(2026, 5, 20)),
    ("decisao-indeferimento", "/requerimento/protocolo", date(2026, 3, 20)),
    ("decisao-recurso-secretario", "/recurso/numero_protocolo", date(2026, 6, 1)),
    ("recurso-classificacao", "/recorrente/protocolo_inscricao", date(2026, 2, 23)),
])
def test_a_protocol_of_the_prot_series_is_cited_as_a_series(
    engine: Engine, form: str, pointer: str, on: date
) -> None:
    text = _draft(engine, form, {pointer: "PROT 0003/2026"}, on)
    assert "PROT nº 0003/2026" in text, text
    for wrong in ("nº PROT", "PROT 0003/2026", "sob o protocolo nº"):
        assert wrong not in text, wrong


def test_a_protocol_without_series_keeps_its_digits(engine: Engine) -> None:
    text = _draft(engine, "decisao-indeferimento", {}, date(2026, 3, 20))
    assert "(protocolo nº 4.321/2026)" in text
    assert "nº nº" not in text and "sob o nº" not in text


def test_the_revogacao_notice_speaks_to_vossa_senhoria_without_a_gender(
    engine: Engine
) -> None:
    data = example(engine, "notificacao-defesa-revogacao")
    text = _text(engine.draft("notificacao-defesa-revogacao", data, date(2026, 6, 1)).pdf)
    assert "intima Vossa Senhoria a apresentar defesa" in text
    assert "e a intima" not in text and "e o intima" not in text


# Issue 23 (issue 22, § 3): a protocol of lavra's own series is the registry's.
PUB = "autorizacao-publicidade-escolar"
FILED_ON = datetime(2026, 5, 4, 10, 0, tzinfo=TIMEZONE)


def test_a_protocol_of_the_series_comes_from_the_registry(
    engine: Engine, tmp_path: Path
) -> None:
    issuer = clocked_issuer(engine, tmp_path / "dados", FILED_ON)
    try:
        filed, _ = FilingDesk(issuer).file(
            "requerimento-licenca-publicidade", example(engine, "requerimento-licenca-publicidade"),
            cpf_cnpj="529.982.247-25", name="José Exemplo dos Santos", attachments=(),
            item_titles={}, now=FILED_ON)
        on = date(2026, 5, 20)

        def refused(form: str, pointer: str, typed: str) -> str | None:
            data = example(engine, form)
            *parents, last = pointers.split(pointer)
            node = data
            for token in parents:
                node = node[token]
            node[last] = typed
            report = engine.prepare(form, data, on, history=issuer.history).report
            wanted = pointers.dotted(pointer) + ".registro"
            found = [i for i in report.items if i.requirement == wanted and i.pending]
            return found[0].message if found else None

        # The registry's protocol, typed in any of its forms, prints with its series.
        assert refused(PUB, "/requerimento/protocolo", filed.protocol.replace(" nº", "")) is None
        data = example(engine, PUB)
        data["requerimento"]["protocolo"] = filed.protocol
        text = _text(engine.draft(PUB, data, on, history=issuer.history).pdf)
        assert f"(protocolo {filed.protocol})" in text and "nº PROT" not in text
        # One the registry does not hold, or of the series but not its form: refused.
        missing = refused(PUB, "/requerimento/protocolo", "PROT 0099/2026")
        assert missing is not None and "não consta do registro de protocolos" in missing
        shape = refused(PUB, "/requerimento/protocolo", "PROT 2026/005678")
        assert shape is not None and "PROT nº 0001/2026" in shape
        # The protocol of another requerimento: not the one the act decides.
        other = refused("termo-substituicao-veiculo-escolar", "/protocolo_requerimento",
                        filed.protocol)
        assert other is not None and "Requerimento de Licença de Publicidade" in other
        assert "requerimento-licenca-publicidade" not in other
    finally:
        issuer.close()


def test_a_paper_protocol_prints_as_typed_without_series(engine: Engine) -> None:
    text = _draft(engine, PUB, {"/requerimento/protocolo": "12.345/2026"}, date(2026, 5, 20))
    assert "(protocolo nº 12.345/2026)" in text and "PROT" not in text


def test_the_vehicle_type_has_one_display_label(engine: Engine) -> None:
    """The enum's label ("Micro-ônibus") outside citations; the law's "microônibus" only
    where the law is cited (the schemas' labels said "Microônibus" in some forms)."""
    text = _draft(engine, "termo-substituicao-veiculo-escolar", {}, date(2026, 5, 20))
    assert "micro-ônibus, fabricado em" in text and "microônibus" not in text.lower()
    for schema in sorted((REPO / "schemas").glob("*.json")):
        assert '"microonibus": "Microônibus"' not in schema.read_text(encoding="utf-8"), (
            schema.name)


@pytest.mark.parametrize("renderer", ["weasyprint", "typst"])
def test_a_row_label_does_not_wrap(engine: Engine, renderer: str) -> None:
    """"Ciência do ato" beside a long value stayed on two lines in the appeal decision's
    table (pagina.css and, for Typst, typstwidths: a row's label is at least 36 mm)."""
    before = engine.final_renderer
    engine.final_renderer = renderer
    try:
        pdf = engine.draft("decisao-recurso-secretario",
                           example(engine, "decisao-recurso-secretario"), date(2026, 6, 1)).pdf
    finally:
        engine.final_renderer = before
    lines = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                           check=True, timeout=60).stdout.decode().splitlines()
    assert any("Ciência do ato" in line for line in lines), lines


# Issue 23, class 8 (a procurador's read of this session's acts): a law is named once
# where several of its provisions are cited together.
TWICE = re.compile(r"\(([^()]*?)(Lei nº [0-9.]+/\d{4})[;,] [^()]*?\2[^()]*\)")


def test_the_documents_listed_name_their_law_once(engine: Engine) -> None:
    """The licença especial printed "(art. 20, § 2º, da Lei nº 4.515/2007; art. 1º,
    § 3º, da Lei nº 4.515/2007)" beside a document (documentos_exigidos, cited_by_law)."""
    text = _draft(engine, "licenca-especial-escolar", {}, date(2026, 11, 30))
    assert "(art. 20, § 2º, e art. 1º, § 3º, da Lei nº 4.515/2007)" in text, text
    assert TWICE.search(text) is None, TWICE.search(text)


def _appeal_9784(engine: Engine, decided: str) -> dict[str, Any]:
    data = example(engine, "decisao-recurso-secretario")
    data["recurso"] = {"hipotese": "lei-9784-1999#art56_par1",
                       "numero_protocolo": "PROT 0009/2026", "data_protocolo": "2026-11-30",
                       "razoes": "A recorrente alega que transporta alunos de outras escolas."}
    data["recorrente"] = {"nome": "Maria Exemplo da Silva", "cpf": "529.982.247-25"}
    data["ato_recorrido"] = {"especie": "decisao", "numero": "REV-ESC nº 0003/2026",
                             "data": "2026-11-23", "data_ciencia": "2026-11-24",
                             "formulario": "decisao-recurso-secretario"}
    data["decisao"] = {"data": decided, "resultado": "nao_provido",
                       "fundamentacao": "As declarações juntadas não alcançam o motivo."}
    return data


def test_the_secretary_forwarding_names_the_federal_law_once(engine: Engine) -> None:
    """The late reconsideration (art. 56, § 1º) and the forwarding to the Prefeito said
    "da Lei nº 9.784/1999" twice in one parenthesis."""
    data = _appeal_9784(engine, "2026-12-10")
    text = _text(engine.draft("decisao-recurso-secretario", data, date(2026, 12, 10)).pdf)
    assert "(art. 56, § 1º, e art. 59, § 1º, da Lei nº 9.784/1999)" in text, text
    assert "contado na forma do art. 66 da mesma lei)" in text, text
    assert TWICE.search(text) is None, TWICE.search(text)


def test_the_federal_appeal_cites_the_law_in_full_once(engine: Engine) -> None:
    """The recurso-lei-9784 printed "Lei nº 9.784, de 29 de janeiro de 1999" twice in its
    first paragraph, and "O recorrente tomou ciência" whoever filed it."""
    data = example(engine, "recurso-lei-9784")
    data["recorrente"]["nome"] = "Maria Exemplo dos Santos"
    text = _text(engine.draft("recurso-lei-9784", data, date(2026, 11, 30)).pdf)
    body = text.split("Fundamento legal")[0]
    assert body.count("Lei nº 9.784, de 29 de janeiro de 1999") == 1, body
    assert "ao Prefeito Municipal (art. 56, § 1º, da Lei nº 9.784/1999)" in body
    assert "A ciência da decisão foi dada em 24/11/2026" in body
    assert "O recorrente" not in body


@pytest.mark.parametrize(("form", "on"), [
    ("notificacao-defesa-revogacao", date(2026, 6, 1)),
    ("notificacao-defesa-cassacao", date(2026, 6, 1)),
    ("decisao-revogacao-alvara", date(2026, 6, 20)),
    ("decisao-cassacao-fretamento", date(2026, 6, 20)),
    ("decisao-indeferimento", date(2026, 3, 20)),
])
def test_the_processo_is_not_named_twice(engine: Engine, form: str, on: date) -> None:
    """"processo administrativo nº PA 3.210/2026" read "processo administrativo nº
    processo administrativo 3.210/2026" (the REV-ESC and the NOT-DEF-ESC of the demo)."""
    text = _draft(engine, form, {"/processo/numero": "PA 3.210/2026"}, on)
    assert "rocesso administrativo nº 3.210/2026" in text, text
    assert "nº PA" not in text


def test_the_fines_counted_name_the_law_once(engine: Engine) -> None:
    """The count of the third fine named "Lei nº 4.515/2007" three times in one sentence
    ("do art. 23 da Lei nº 4.515/2007, contam-se para o art. 23, III, da Lei nº
    4.515/2007 … que o art. 23, parágrafo único, da Lei nº 4.515/2007 fixa"): the REV-ESC
    and the NOT-DEF-ESC of the demo."""
    from test_revogacao import FINES, REV, alvara, registry
    from test_revogacao import example as revogacao

    text = _text(engine.draft(REV, revogacao(engine), date(2026, 6, 22),
                              history=registry(alvara(), *FINES)).pdf)
    assert ("pelas regras do art. 23 da Lei nº 4.515/2007, contam-se para o seu inciso III "
            "(\"após a terceira multa\")") in text, text
    assert "que o parágrafo único do mesmo artigo fixa" in text
    sentence = text[text.index("Julgadas em ordem"):text.index("São 3 as multas")]
    assert sentence.count("Lei nº 4.515/2007") == 1, sentence


# Issue 23, class 8 (a procurador's read of the appeal acts): the party's gender is not
# guessed ("o recorrente" to "Maria …": the data do not declare it; the acts say "a
# parte recorrente", as the transfer termo says "a parte cessionária").
def test_the_appeal_decision_speaks_of_the_party_without_a_gender(engine: Engine) -> None:
    data = _appeal_9784(engine, "2026-12-10")
    text = _text(engine.draft("decisao-recurso-secretario", data, date(2026, 12, 10)).pdf)
    for words in ("a parte recorrente não precisa interpor novo recurso",
                  "nem prejudica a parte recorrente",
                  "Publique-se e dê-se ciência à parte recorrente."):
        assert words in text, text
    assert re.search(r"\b(?:o|ao|à) recorrente\b", text, re.IGNORECASE) is None, text


def test_the_schoolbus_appeal_states_the_ciencia_without_a_gender(engine: Engine) -> None:
    data = example(engine, "recurso-transporte-escolar")
    data["recorrente"]["nome"] = "Maria Exemplo dos Santos"
    text = _text(engine.draft("recurso-transporte-escolar", data, date(2026, 6, 30)).pdf)
    assert "A ciência da punição deu-se em" in text, text
    assert "recorrente tomou ciência" not in text.lower()


# The authority's name: one, from forms/orgao.json (papeis.secretario-transportes.cargo).
def _cargo() -> str:
    organ = json.loads((REPO / "forms" / "orgao.json").read_text(encoding="utf-8"))
    return str(organ["papeis"]["secretario-transportes"]["cargo"])


def test_the_appeal_acts_name_the_secretary_as_the_organ_data_do(engine: Engine) -> None:
    cargo = _cargo()
    appeal = _draft(engine, "recurso-lei-9784", {}, date(2026, 11, 30))
    assert f"Ilustríssimo Senhor {cargo}," in appeal, appeal
    assert f"Ao {cargo}, autoridade que decidiu" in appeal, appeal
    decision = _text(engine.draft("decisao-recurso-secretario", _appeal_9784(
        engine, "2026-12-01"), date(2026, 12, 1)).pdf)
    assert f"Decisão do {cargo}" in decision, decision
    for text in (appeal, decision):
        assert "Secretário de Transportes" not in text


def test_no_template_spells_the_secretary_out() -> None:
    """The templates print ``orgao.papeis["secretario-transportes"]``; a title or
    subtitle (formulario.json, plain text) names it exactly as orgao.json does."""
    cargo, named = _cargo(), re.compile(r"Secretário (?:Municipal )?de Transportes[\w ]*")
    for path in sorted((REPO / "forms").glob("*/*")):
        if path.suffix not in (".html", ".json") or path.name == "exemplo.json":
            continue
        for found in named.findall(path.read_text(encoding="utf-8")):
            assert path.suffix == ".json" and found == cargo, (path, found)


# The demo's DEC-GP cites the decision it keeps by the decision's own label (the ``ato``
# filter's format_cited_act), not "a Decisão REV-ESC nº 0001/2026".
def test_the_demo_decision_cites_the_revogacao_by_its_label(engine: Engine) -> None:
    from lavra.cli.demo_chains import fill
    from lavra.demochains import StepFacts
    from lavra.textutil import act_titles, format_cited_act
    from lavra_americana.comum.demonstracao import REVOGACAO_ESCOLAR

    def issued(printed: str) -> StepFacts:
        series = printed.split(" nº ")[0]
        return StepFacts(serie=series, numero=printed.replace(" nº", ""), impresso=printed,
                         data="2026-06-22", valido_ate="", ciencia="", calculado={},
                         citado=format_cited_act(printed, act_titles(REPO)))

    step = next(s for s in REVOGACAO_ESCOLAR.steps if s.form == "decisao-recurso-prefeito")
    template = next(f.template for f in step.fills if f.pointer == "/decisao/determinacoes")
    said = fill(template, {"revogacao": issued("REV-ESC nº 0001/2026"),
                           "alvara": issued("ALV-ESC nº 0002/2026")})
    text = _draft(engine, "decisao-recurso-prefeito", {"/decisao/determinacoes": said},
                  date(2026, 6, 1))
    assert ("Mantém-se a Decisão de Revogação do Alvará para Transporte Escolar REV-ESC nº "
            "0001/2026") in text, text


def test_a_bare_article_goes_when_a_paragraph_of_it_is_cited(engine: Engine) -> None:
    """The Lei 9.784 decision's "Fundamento legal" printed "art. 56" and "art. 56, § 1º":
    the paragraph names its article (as an inciso does, ``cited_once``)."""
    data = _appeal_9784(engine, "2026-12-01")
    text = _text(engine.draft("decisao-recurso-secretario", data, date(2026, 12, 1)).pdf)
    basis = text.split("Fundamento legal", 1)[1]
    assert "Art. 56, § 1º" in basis or "art. 56, § 1º" in basis, basis
    assert re.search(r"\b[Aa]rt\. 56(?!, §)", basis) is None, basis


def test_the_filing_receipt_states_the_fields_without_their_help(
    engine: Engine, tmp_path: Path
) -> None:
    """The comprovante de protocolo printed "Número da decisão de revogação, com a série
    (ex.: REV-ESC nº 0001/2026)": the help example guides who fills the form; the receipt
    states what was filed."""
    form = "recurso-lei-9784"
    issuer = clocked_issuer(engine, tmp_path / "dados", datetime(2026, 11, 30, 10, 0,
                                                                 tzinfo=TIMEZONE))
    try:
        _, receipt = FilingDesk(issuer).file(
            form, example(engine, form), cpf_cnpj="529.982.247-25",
            name="José Exemplo dos Santos", attachments=(), item_titles={},
            now=datetime(2026, 11, 30, 10, 0, tzinfo=TIMEZONE))
    finally:
        issuer.close()
    assert receipt is not None
    text = _text(receipt)
    assert "da decisão recorrida, com a série" in text and "Pedido" in text, text
    assert "ex.:" not in text, text


# The Secretário's title in a sentence built in Python comes from forms/orgao.json
# (``comum/orgao.py``): a city that renames the post changes that one file.
@pytest.mark.parametrize(("form", "on"), [
    ("declaracao-vacancia", date(2026, 6, 1)),
    ("termo-impedimento-fretamento", date(2026, 6, 1)),
    ("termo-vistoria-extraordinaria-fretamento", date(2026, 6, 1)),
    ("recurso-fretamento", date(2026, 6, 1)),
])
def test_a_renamed_secretary_reaches_the_sentences_built_in_python(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, form: str, on: date
) -> None:
    from lavra_americana.comum import orgao

    renamed = "Secretária Municipal de Mobilidade Urbana"
    monkeypatch.setattr(orgao, "_roles", lambda root: {orgao.SECRETARY: renamed})
    computed = json.dumps(engine.prepare(form, example(engine, form), on).computed,
                          ensure_ascii=False, default=str)
    assert renamed in computed, computed


def test_no_python_string_spells_the_secretary_out() -> None:
    """Docstrings and comments may name the post; a string a document prints may not."""
    import ast

    for path in sorted((REPO / "lavra_americana").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bodies = [body for parent in ast.walk(tree)
                  if isinstance(body := getattr(parent, "body", None), list)]
        docs = {id(node.value) for body in bodies for node in body
                if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docs):
                assert "Secretário Municipal" not in node.value, (path, node.lineno)
                assert "Secretaria de Transportes" not in node.value, (path, node.lineno)


def test_the_vacancy_names_the_federal_law_in_full_at_its_first_mention(
    engine: Engine
) -> None:
    """The declaração de vacância's appeal, built in Python, is the act's first mention
    of Lei nº 9.784/1999: it prints the law's full title, as the templates do."""
    text = _draft(engine, "declaracao-vacancia", {}, date(2026, 6, 1))
    body = text.split("Fundamento legal")[0]
    assert ("(arts. 56, § 1º, e 59 da Lei nº 9.784, de 29 de janeiro de 1999, aplicada à "
            "falta de recurso próprio") in body, body
    assert "9.784/1999" not in body, body


def test_the_processo_number_is_computed_once_without_its_sigla(engine: Engine) -> None:
    """The templates printed ``numero_processo(...)``, a macro cleaning the typed "PA "
    in each act; the pack computes the number printed (``comum/processo.py``)."""
    for form, on in (("decisao-indeferimento", date(2026, 3, 20)),
                     ("notificacao-defesa-revogacao", date(2026, 6, 1))):
        data = example(engine, form)
        data["processo"]["numero"] = "PA 3.210/2026"
        computed = engine.prepare(form, data, on).computed
        assert computed["numero_processo"] == "3.210/2026", computed
        data["processo"]["numero"] = "3.211/2026"
        assert engine.prepare(form, data, on).computed["numero_processo"] == "3.211/2026"
    for template in sorted((REPO / "forms").glob("*/*.html")):
        assert 'startswith("PA ")' not in template.read_text(encoding="utf-8"), template


FULL_9784, SHORT_9784 = "Lei nº 9.784, de 29 de janeiro de 1999", "Lei nº 9.784/1999"


def test_the_defence_notice_prints_the_law_in_full_once(engine: Engine) -> None:
    """The defence period's source (legal_text/parametros.json, "Lei nº 9.784/1999, art.
    44") is the notice's first mention of the law; the template's later mention of art.
    3º is short."""
    form = "notificacao-defesa-revogacao"
    text = _text(engine.draft(form, example(engine, form), date(2026, 6, 1)).pdf)
    body = text.split("Fundamento legal")[0]
    first = re.search(r"Lei nº 9\.784(?:/1999|, de 29 de janeiro de 1999)", body)
    assert first is not None and first[0] == FULL_9784, body
    assert f"prazo de 10 dias ({FULL_9784}, art. 44" in body, body
    assert body.count(FULL_9784) == 1, body
    assert f"(art. 3º, II e III, da {SHORT_9784})" in body, body


@pytest.mark.parametrize(("form", "on"), [
    ("notificacao-penalidade", date(2026, 6, 1)),
    ("recurso-transporte-escolar", date(2026, 6, 1)),
    ("auto-infracao-escolar", date(2026, 6, 1)),
])
def test_a_renamed_secretaria_reaches_the_reconsideration(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, form: str, on: date
) -> None:
    """The Secretaria's reconsideration of a penalty (escolar art. 27) names the organ as
    forms/orgao.json does (``comum/orgao.py``, ``secretaria``)."""
    from lavra_americana.comum import orgao

    monkeypatch.setattr(orgao, "_organ", lambda root: "Secretaria de Mobilidade Urbana")
    computed = json.dumps(engine.prepare(form, example(engine, form), on).computed,
                          ensure_ascii=False, default=str)
    assert "A Secretaria de Mobilidade Urbana poderá, por motivo devidamente" in computed


def test_a_protocols_processo_is_printed_without_the_protocol_series(engine: Engine) -> None:
    """The APE-ESC printed "(protocolo PROT nº 0011/2026), processo PROT nº 0011/2026": a
    processo opened by a protocol is "processo nº 0011/2026"; a typed PA stays as typed,
    and "processo administrativo nº" takes the number alone (``comum/processo.py``)."""
    from lavra_americana.comum.processo import number_of, printed_after_processo

    assert printed_after_processo("PROT nº 0011/2026") == "nº 0011/2026"
    assert printed_after_processo("PA 1.357/2026") == "PA 1.357/2026"
    assert number_of("PROT nº 0011/2026") == number_of("PROT 0011/2026") == "0011/2026"
    form = "autorizacao-publicidade-escolar"
    data = example(engine, form)
    data["processo"]["numero"] = "PROT nº 0011/2026"
    body = " ".join(_text(engine.draft(form, data, date(2026, 6, 1)).pdf).split())
    assert "processo nº 0011/2026" in body and "processo PROT" not in body, body
    raw = re.compile(r"processo \{\{ (?:p|dados\.processo)\.numero \}\}")
    for template in sorted((REPO / "forms").glob("*/*.html")):
        assert not raw.search(template.read_text(encoding="utf-8")), template


def test_a_renewal_without_processo_number_names_the_request(engine: Engine) -> None:
    """Without a processo number the renewed alvará says "conforme o processo de renovação
    requerida em …" (it said "conforme o processo Requerimento de renovação de …")."""
    from lavra_americana.fretamento import renovacao_lote as fretamento_run
    from lavra_americana.transporte_escolar import renovacao_lote as escolar_run

    envelope = {"requerimento": {"data_requerimento": "2026-11-10", "documentos": {}}}
    previous = example(engine, "alvara-transporte-escolar")
    data = escolar_run.renewed_alvara(previous, "ALV-ESC nº 0007/2026", date(2026, 12, 31),
                                      envelope, date(2026, 12, 1))
    assert data["processo"]["numero"] == "de renovação requerida em 10/11/2026"
    body = " ".join(_text(engine.draft("alvara-transporte-escolar", data,
                                       date(2026, 12, 1)).pdf).split())
    assert "conforme o processo de renovação requerida em 10/11/2026" in body, body
    held = fretamento_run.Licence("ALV-FRET nº 0003/2026", "11.222.333/0001-81",
                                  date(2026, 12, 31), example(engine, "alvara-fretamento"))
    renewed = fretamento_run.renewed_alvara(held, envelope)
    assert renewed["processo"]["numero"] == "de renovação requerida em 10/11/2026"
