"""Every requerimento of the pack as a person gets it: fields on the page, Sim/Não kept,
check marks visible (poppler) and drawn as Acrobat needs, place/date/signature lines."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from formcases import example
from PIL import Image
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DictionaryObject

from lavra.checking.content import Content
from lavra.documents import Engine

REPO = Path(__file__).resolve().parent.parent
#: Every form of the pack that the public fills (``preenchivel``): a new one is checked
#: here the day it lands.
REQUERIMENTOS = tuple(
    sorted(form for form, spec in Content(REPO).forms.items() if spec.fillable)
)
FRET = "requerimento-alvara-fretamento"
REN = "requerimento-renovacao-escolar"
#: Pages of each requerimento prefilled with its example before this change.
PAGES_BEFORE = {
    FRET: 13, "requerimento-inscricao-escolar": 9, REN: 8,
    "requerimento-troca-veiculo-escolar": 5,
}
#: Forms without a document checklist: their buttons are the Sim/Não pairs alone.
NO_CHECKLIST = ("recurso-transporte-escolar",)
#: Forms that ask Sim/Não questions (the recursos of fretamento and of the classification,
#: and the communication of a substitute driver, ask none).
ASKS = (*PAGES_BEFORE, *NO_CHECKLIST, "requerimento-transferencia-licenca")
RADIO = 1 << 15


@pytest.fixture(scope="module")
def pdfs(engine: Engine) -> dict[tuple[str, str], bytes]:
    """Each requerimento prefilled with its example, and empty."""
    return {
        (form, case): engine.prefill(form, example(engine, form) if case == "exemplo" else {})
        for form in REQUERIMENTOS
        for case in ("exemplo", "vazio")
    }


def _widgets(reader: PdfReader) -> Iterator[tuple[int, DictionaryObject]]:
    for number, page in enumerate(reader.pages):
        for annotation in page.get("/Annots", []):
            widget = annotation.get_object()
            if widget.get("/Subtype") == "/Widget":
                yield number, widget


def _name(widget: DictionaryObject) -> str:
    if "/T" in widget:
        return str(widget["/T"])
    return str(widget["/Parent"].get_object()["/T"])


@pytest.mark.parametrize("case", ["exemplo", "vazio"])
@pytest.mark.parametrize("form", REQUERIMENTOS)
def test_every_field_lies_inside_its_page(
    pdfs: dict[tuple[str, str], bytes], form: str, case: str
) -> None:
    reader = PdfReader(io.BytesIO(pdfs[form, case]))
    outside: list[str] = []
    count = 0
    for number, widget in _widgets(reader):
        count += 1
        page = reader.pages[number]
        x1, y1, x2, y2 = (float(v) for v in widget["/Rect"])
        left, right = sorted((x1, x2))
        bottom, top = sorted((y1, y2))
        for box in (page.mediabox, page.cropbox):
            if not (
                float(box.left) <= left
                and right <= float(box.right)
                and float(box.bottom) <= bottom
                and top <= float(box.top)
            ):
                outside.append(f"p. {number + 1}: {_name(widget)} {[left, bottom, right, top]}")
    assert count > (20 if form in PAGES_BEFORE else 5)
    assert not outside, outside


@pytest.mark.parametrize("form", REQUERIMENTOS)
def test_sim_nao_questions_are_radio_groups(engine: Engine, form: str) -> None:
    """Every boolean that is not a document's tick box is a Sim/Não pair of buttons."""
    pdf = engine.prefill(form, {})
    fields = PdfReader(io.BytesIO(pdf)).get_fields() or {}
    questions = {
        name: field
        for name, field in fields.items()
        if field.get("/FT") == "/Btn" and not name.endswith("/apresentado") and "." not in name
    }
    if form in ASKS:
        assert questions, "this requerimento asks at least one Sim/Não question"
    for name, field in questions.items():
        assert int(field.get("/Ff", 0)) & RADIO, name
        assert sorted(field["/_States_"]) == ["/nao", "/sim"], name
        assert str(field.get("/V", "/Off")) == "/Off", name  # unanswered, not "Não"


def test_nao_survives_download_filling_and_upload(engine: Engine) -> None:
    """Não prefilled stays Não; Não typed by the applicant comes back as false; an
    untouched question stays unanswered (not false)."""
    data = example(engine, FRET)
    data["requerente"]["fins_lucrativos"] = False
    data["requerente"].pop("sede_em_americana", None)
    pdf = engine.prefill(FRET, data)
    fields = PdfReader(io.BytesIO(pdf)).get_fields() or {}
    assert str(fields["requerente/fins_lucrativos"]["/V"]) == "/nao"
    back = engine.read(pdf)
    assert back.data["requerente"]["fins_lucrativos"] is False
    assert "sede_em_americana" not in back.data["requerente"]

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.update_page_form_field_values(
        None,
        {"requerente/sede_em_americana": "/nao", "requerente/fins_lucrativos": "/sim"},
        auto_regenerate=False,
    )
    out = io.BytesIO()
    writer.write(out)
    back = engine.read(out.getvalue())
    assert back.data["requerente"]["sede_em_americana"] is False
    assert back.data["requerente"]["fins_lucrativos"] is True


def test_data_with_nao_answers_round_trips(engine: Engine) -> None:
    data = example(engine, FRET)
    data["requerente"]["fins_lucrativos"] = False
    data["requerente"]["sede_em_americana"] = False
    assert engine.read(engine.prefill(FRET, data)).data == data


@pytest.mark.parametrize("form", REQUERIMENTOS)
def test_buttons_carry_what_acrobat_needs(pdfs: dict[tuple[str, str], bytes], form: str) -> None:
    """/AP /N with the on-state and /Off, /AS among them, /DA naming a /DR font, /MK /CA."""
    reader = PdfReader(io.BytesIO(pdfs[form, "exemplo"]))
    acroform = reader.trailer["/Root"]["/AcroForm"]
    fonts = acroform["/DR"]["/Font"]
    assert fonts["/ZaDb"]["/BaseFont"] == "/ZapfDingbats"
    buttons = 0
    for _, widget in _widgets(reader):
        parent = widget.get("/Parent")
        kind = widget.get("/FT") or (parent.get_object().get("/FT") if parent else None)
        da = str(widget.get("/DA", ""))
        if kind != "/Btn":
            font = re.search(r"(/\S+)\s+[\d.]+\s+Tf", da)
            assert font is not None and " gs" not in da, _name(widget)
            assert font.group(1) in fonts, _name(widget)
            continue
        buttons += 1
        states = set(widget["/AP"]["/N"].keys())
        assert "/Off" in states and len(states) == 2, _name(widget)
        assert str(widget["/AS"]) in states, _name(widget)
        assert da.startswith("/ZaDb ") and " Tf" in da, _name(widget)
        assert str(widget["/MK"]["/CA"]) in ("4", "l")
        if parent is not None:  # a radio button is a widget of its group, not a field
            assert "/T" not in widget
    if form in ASKS:
        assert buttons >= 2 if form in NO_CHECKLIST else buttons > 4


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils ausente")
def test_check_marks_show_in_poppler(engine: Engine, tmp_path: Path) -> None:
    """Rendered by poppler, a ticked box and a chosen button have ink; the others not."""
    data = example(engine, FRET)
    data["requerente"]["fins_lucrativos"] = False
    pdf = engine.prefill(FRET, data)
    reader = PdfReader(io.BytesIO(pdf))
    ticked: list[float] = []
    blank: list[float] = []
    for number, widget in _widgets(reader):
        if widget.get("/FT") != "/Btn" and "/Parent" not in widget:
            continue
        page = reader.pages[number]
        image = _render(pdf, number, tmp_path)
        scale = image.width / float(page.mediabox.width)
        x1, y1, x2, y2 = (float(v) for v in widget["/Rect"])
        height = float(page.mediabox.height)
        # the inner part of the box: its border is drawn on the page in both states
        inset = 0.25 * abs(x2 - x1)
        crop = (
            int((min(x1, x2) + inset) * scale),
            int((height - max(y1, y2) + inset) * scale),
            int((max(x1, x2) - inset) * scale),
            int((height - min(y1, y2) - inset) * scale),
        )
        ink = _ink(image.crop(crop))
        (blank if str(widget["/AS"]) == "/Off" else ticked).append(ink)
    assert ticked and blank
    assert min(ticked) > 0.2, ticked
    assert max(blank) < 0.05, blank


_RENDERED: dict[tuple[int, int], Image.Image] = {}


def _render(pdf: bytes, number: int, folder: Path) -> Image.Image:
    key = (id(pdf), number)
    if key not in _RENDERED:
        source = folder / "form.pdf"
        source.write_bytes(pdf)
        prefix = folder / f"p{number}"
        subprocess.run(
            ["pdftoppm", "-r", "100", "-png", "-singlefile", "-f", str(number + 1),
             "-l", str(number + 1), str(source), str(prefix)],
            check=True,
            capture_output=True,
        )
        _RENDERED[key] = Image.open(f"{prefix}.png").convert("L")
    return _RENDERED[key]


def _ink(image: Image.Image) -> float:
    histogram = image.histogram()
    return sum(histogram[:128]) / max(sum(histogram), 1)


@pytest.mark.parametrize("form", REQUERIMENTOS)
def test_form_ends_with_place_date_and_signature(
    pdfs: dict[tuple[str, str], bytes], form: str
) -> None:
    for case in ("exemplo", "vazio"):
        reader = PdfReader(io.BytesIO(pdfs[form, case]))
        last = " ".join(reader.pages[-1].extract_text().split())
        assert "Local:" in last and "Data:" in last, form
        assert "Assinatura da parte requerente" in last and "Nome legível" in last, form


@pytest.mark.parametrize("form", tuple(PAGES_BEFORE))
def test_requerimentos_are_shorter(pdfs: dict[tuple[str, str], bytes], form: str) -> None:
    """Help cut to what a person needs: fewer pages than before for every form, and the
    fretamento requerimento (13 pages) no longer mostly help text."""
    pages = len(PdfReader(io.BytesIO(pdfs[form, "exemplo"])).pages)
    assert pages < PAGES_BEFORE[form]
    if form == FRET:
        # 9 since the remark (observação, up to 1,000 characters) has a row of its own
        # across the table, tall enough for its prefilled value (h/hist23: a long value
        # in a narrow cell was cut); 8 before it
        assert pages <= 9
