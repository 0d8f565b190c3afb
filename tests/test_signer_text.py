"""Text a signer would correct (issue 23, class 8): each class checked where it is made.

The number sign printed once, whatever the clerk typed ("n.º", "Nº", "nº nº", two-digit
years); no template writes "nº {{ x }}" without the filter that drops a typed sign; no
person named in a template is given a gender the data do not declare ("inscrito(a)",
"servidor"); "quanto à"; a datum left blank listed as data to complete, not as a
missing document.
"""

from __future__ import annotations

import glob
import io
import re
import subprocess
from datetime import date
from pathlib import Path

import pytest
from formcases import example
from pypdf import PdfReader

from lavra.checking.content import Content
from lavra.checking.report import Item, Report, Status
from lavra.documents import Engine
from lavra.render.fillable.finishing import fitting_size, text_width_em, wrapped_lines
from lavra.render.pdf import PageFrame, Renderer
from lavra.render.templating import numeral
from lavra.render.typstpdf import TypstRenderer
from lavra.signing.verification import qr_png
from lavra.textutil import format_act_number, format_number_sign
from lavra_americana.comum.lote import pending_lines

REPO = Path(__file__).resolve().parents[1]
TEMPLATES = sorted(glob.glob(str(REPO / "forms" / "*" / "texto.html"))
                   + glob.glob(str(REPO / "forms" / "_modelos" / "*.html")))


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


@pytest.mark.parametrize(("typed", "printed"), [
    ("ALV-FRET n.º 7/2026", "ALV-FRET nº 0007/2026"),
    ("ALV-FRET Nº 0007/2026", "ALV-FRET nº 0007/2026"),
    ("ALV-FRET N.º 7/2026", "ALV-FRET nº 0007/2026"),
    ("ALV-FRET N° 7/2026", "ALV-FRET nº 0007/2026"),
    ("ALV-FRET nº nº 0007/2026", "ALV-FRET nº 0007/2026"),
    ("ALV-FRET 7/26", "ALV-FRET nº 0007/2026"),
    ("nº nº CT-2026/015", "nº CT-2026/015"),
    ("n.º CT-2026/015", "nº CT-2026/015"),
    ("CT-2026/015", "nº CT-2026/015"),
    ("Nº 7/2026", "nº 7/2026"),
    ("NOT-REN 1/2026", "NOT-REN nº 0001/2026"),  # a series starting with "No" is a series
])
def test_an_act_number_prints_its_sign_once(typed: str, printed: str) -> None:
    assert format_act_number(typed) == printed


def test_the_numeral_filter_drops_a_typed_sign_and_keeps_words() -> None:
    assert numeral("n.º CT-2026/015") == "CT-2026/015"
    assert numeral("Nº nº 12") == "12"
    assert numeral("Nova Odessa") == "Nova Odessa"  # "No…" starting a word is no sign
    assert numeral("") == "" and numeral(None) is None and numeral(12) == 12
    assert format_number_sign("nº nº 5") == "nº 5"


def _texts() -> list[tuple[str, str]]:
    return [(str(Path(p).relative_to(REPO)), Path(p).read_text(encoding="utf-8"))
            for p in TEMPLATES]


def test_no_template_prints_a_typed_number_after_its_own_sign() -> None:
    """``nº {{ x }}`` doubles the sign the clerk typed: each goes through ``numeral`` (or a
    formatter that never prints one, such as ``cpf`` or ``numero_ato``)."""
    bare = re.compile(r"[Nn][º°]\.? ?\{\{ ?[a-z_][a-z_.0-9]* ?\}\}")
    doubled = re.compile(r"n[º°]\.? ?\{\{[^}]*\|\s*numero_ato")
    found = [(name, m.group(0)) for name, text in _texts()
             for m in [*bare.finditer(text), *doubled.finditer(text)]]
    assert found == []


def test_no_template_guesses_a_gender_or_writes_slashed_endings() -> None:
    """The schemas declare no gender: the person named is not "inscrito", "servidor" or
    "inscrito(a)"; the sentence is rephrased instead."""
    slashed = re.compile(r"[a-zà-ú]\((?:a|o|as|os|sua)\)")
    gendered = re.compile(r"inscrit[oa] no CPF|candidato inscrito|o servidor \{\{|, servidor d")
    found = [(name, m.group(0)) for name, text in _texts()
             for m in [*slashed.finditer(text), *gendered.finditer(text)]]
    assert found == []


def test_quanto_a_contracts_with_the_article(engine: Engine) -> None:
    data = example(engine, "recurso-classificacao")
    data["situacao_recorrida"] = "classificacao"
    text = _poppler(engine.draft("recurso-classificacao", data, date(2026, 2, 23)).pdf)
    # the draft's watermark may fall between two lines: each half checked apart
    assert "quanto à" in text and "posição ou à pontuação" in text
    assert "quanto a a" not in text
    assert "com inscrição no processo seletivo" in text and "inscrito" not in text


def _poppler(pdf: bytes) -> str:
    done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf,
                          capture_output=True, check=True)
    return " ".join(done.stdout.decode().split())


def test_a_blank_datum_is_data_to_complete_not_a_missing_document(engine: Engine) -> None:
    report = Report("requerimento-renovacao-escolar", date(2026, 11, 2), (
        Item("processo.data_requerimento", Status.MISSING, "/data_requerimento",
             "Não informado: Data do requerimento.", ("transporte-escolar#art13_par5",)),
        Item("documentos.laudo", Status.MISSING, "/documentos/laudo",
             "Documento não apresentado: Laudo de vistoria.", ("transporte-escolar#art13",)),
    ))
    lines = pending_lines(report, "transporte-escolar", "transporte-escolar#art13")
    assert [(line["documento"], line.get("natureza")) for line in lines] == [
        ("Data do requerimento", "dado"), ("Laudo de vistoria", None)]
    form = "notificacao-pendencias-renovacao"
    data = example(engine, form)
    data["pendencias"] = lines
    text = _poppler(engine.draft(form, data, date(2026, 11, 2)).pdf)
    documents, _, rest = text.partition("Dados a completar no requerimento")
    assert "Laudo de vistoria" in documents and "Data do requerimento" not in documents
    assert "Data do requerimento" in rest and "Não informado" not in text


# ------------------------------------------------------------------ the closing's page
FRAME = PageFrame(municipio="Prefeitura Municipal de Americana", orgao="Secretaria de "
                  "Transportes e Sistema Viário", titulo="Alvará de Teste",
                  numero="ALV-T nº 0001/2026", qr_png=qr_png("https://x.invalid/v?c=AB"))
CLOSING = ('<h2>Fundamento legal</h2><ul class="fundamento"><li>Art. 8º da Lei</li>'
           '<li>Art. 10 da Lei</li></ul>'
           '<p class="local-data">Americana, 5 de dezembro de 2026.</p>'
           '<p class="autenticacao">Documento assinado eletronicamente por Fulano de Tal, '
           'Secretário. A autenticidade deste documento pode ser conferida em '
           'https://x.invalid, informando o código ABCD-1234.</p>')


def _body(lines: int) -> str:
    return "".join(f'<p class="justificado">Linha {i:03d} do texto.</p>'
                   for i in range(lines)) + CLOSING


def _last_page(pdf: bytes) -> tuple[int, str]:
    done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf,
                          capture_output=True, check=True)
    pages = [page for page in done.stdout.decode().split("\f") if page.strip()]
    return len(pages), " ".join(pages[-1].split())


# With these lines, the text ends where the place, the date, the QR code and the
# signature no longer fit on page 2: before the fix, page 3 held only them.
@pytest.mark.parametrize(("renderer", "lines"), [
    *(("weasyprint", n) for n in (43, 46, 49)),
    *(("typst", n) for n in range(45, 51)),
])
def test_the_qr_code_and_signature_never_stand_alone_on_the_last_page(
    renderer: str, lines: int
) -> None:
    assets = REPO / "forms" / "_base"
    laid = (Renderer(assets) if renderer == "weasyprint" else TypstRenderer(assets)
            ).pdf_for_signing(_body(lines), FRAME)
    count, last = _last_page(laid.pdf)
    assert count == 3 and laid.signature_page == 2  # the closing went over to page 3
    assert "Art. 10 da Lei" in last and "Americana, 5 de dezembro de 2026" in last


# ------------------------------------------------------------------ fillable values
def test_fitting_size_shrinks_then_wraps() -> None:
    assert fitting_size("PGE/SP", 79, 15, 10) == (10, False)
    assert fitting_size("Receita Federal do Brasil", 160, 15, 10) == (10, False)
    size, wrapped = fitting_size("Receita Federal do Brasil", 79, 15, 10)
    assert 5 <= size < 10 and wrapped  # two lines at 6 pt beat one at 5
    assert wrapped_lines("Receita Federal do Brasil", 75 / size) * 1.2 * size <= 14
    size, wrapped = fitting_size("Sindicato patronal e sindicato dos empregados", 79, 30, 10)
    assert wrapped and wrapped_lines("Sindicato patronal e sindicato dos empregados",
                                     75 / size) * 1.2 * size <= 28


LONG_REMARK = (
    "Contrato de locação de garagem e oficina na Rua das Oficinas, 200, Vila Santa Catarina, "
    "firmado em 10/01/2025 por prazo de cinco anos, com cláusula de renovação automática; a "
    "oficina atende também aos veículos reserva da frota, e o contrato foi registrado no "
    "Cartório de Registro de Títulos e Documentos de Americana sob o nº 12.345, com aditivo "
    "de 03/02/2026 que amplia a área coberta para doze veículos.")


def test_a_prefilled_value_is_never_cut_in_its_field(engine: Engine, tmp_path: Path) -> None:
    """"Receita Federa": each prefilled single-line value fits its field's width at the
    size of its /DA; one that cannot is a multiline field whose lines fit its height. A
    document's remark (``observacao``, up to 1000 characters) is a box across the
    document's table, as tall as its value: 395 characters show whole at 10 pt (read back
    with pypdf and pdftotext from the requerimento as prefilled)."""
    data = example(engine, "requerimento-alvara-fretamento")
    data["documentos"]["garagem_oficina"]["observacao"] = LONG_REMARK
    pdf = engine.prefill("requerimento-alvara-fretamento", data)
    checked = {}
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for ref in page.get("/Annots") or []:
            widget = ref.get_object()
            value = widget.get("/V")
            if widget.get("/FT") != "/Tx" or not isinstance(value, str) or not value:
                continue
            size = float(re.search(r"([0-9.]+) Tf", str(widget["/DA"]))[1])  # type: ignore[index]
            x1, y1, x2, y2 = (float(v) for v in widget["/Rect"])
            room, tall = abs(x2 - x1) - 4, abs(y2 - y1) - 2
            if int(widget.get("/Ff", 0)) & (1 << 12):
                assert wrapped_lines(value, room / size) * 1.2 * size <= tall, value
            else:  # poppler's 1 pt border too: "Caixa Econômica Federa" at 60 dpi
                assert text_width_em(value) * size <= room - 2, (value, size)
            checked[value] = size
    assert "Receita Federal do Brasil" in checked and "Caixa Econômica Federal" in checked
    assert checked[LONG_REMARK] == 10  # not shrunk: the box grew
    path = tmp_path / "requerimento.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert LONG_REMARK in " ".join(text.split())
