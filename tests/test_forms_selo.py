"""The selo de identificação of the school transport (Lei nº 4.515/2007, art. 3º, § 2º;
art. 13, §§ 3º and 4º; art. 18): numbered in its own series, bound to an alvará the
registry holds (in force, not cancelled, same vehicle), never outliving it, one per
alvará unless a 2ª via; the two windscreen copies and the 20 cm SAC sticker printed at
their real size."""

from __future__ import annotations

import io
import shutil
import subprocess
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from formcases import DELETE, at, example, pdf_text, pending_at, setter
from historycases import FakeHistory, alvara_on_file, registered
from issuers import dev_issuer
from PIL import Image
from pypdf import PdfReader

from lavra.checking.computations import PriorRecord, find_computation
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.transporte_escolar import selo
from lavra_americana.transporte_escolar.selo import selo_data_from_alvara

SELO = "selo-identificacao"
ALV = "alvara-transporte-escolar"
E = "transporte-escolar#"
ISSUED = date(2026, 12, 15)
PLATE = "EXE1A23"


def alvara(until: date = date(2026, 12, 31), start: date = date(2026, 3, 10),
           plate: str = PLATE, **extra: Any) -> PriorRecord:
    return registered(ALV, "0007/2026", start, until, plate, **extra)


def earlier_selo(number: str = "0003/2026", alvara_number: str = "ALV-ESC 0007/2026",
                 **extra: Any) -> PriorRecord:
    return PriorRecord(
        number, date(2026, 3, 10),
        {"veiculo": {"placa": PLATE}, "alvara": {"numero": alvara_number}},
        form=SELO, valid_until=date(2026, 12, 31), **extra,
    )


def report(engine: Engine, data: dict[str, Any], history: Any) -> Report:
    return engine.prepare(SELO, data, issued_on=ISSUED, history=history).report


def test_example_is_complete_with_its_alvara_and_ends_with_it(engine: Engine) -> None:
    data = example(engine, SELO)
    prepared = engine.prepare(SELO, data, issued_on=ISSUED, history=alvara_on_file(data))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == date(2026, 12, 31)
    assert "não subsiste" in prepared.computed["vigencia_explicacao"]
    form = engine.content.form(SELO)
    assert form.series == "SELO-ESC" and form.signer_role == "secretario-transportes"
    assert find_computation(pacote(), "selo_identificacao") is selo.selo_identificacao
    assert {E + "art3_par2", E + "art13_par3", E + "art18"} <= set(selo.IMPLEMENTED)


def test_the_alvara_must_be_in_the_registry(engine: Engine) -> None:
    data = example(engine, SELO)
    for history in (None, FakeHistory()):
        found = at(report(engine, data, history), "/alvara/numero")
        assert found.status is Status.MISSING and "não consta do registro" in found.message


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (alvara(cancelled=True, cancel_reason="licença cassada"), "cancelado"),
        (alvara(until=ISSUED - timedelta(days=1)), "não está em vigor"),
        (alvara(plate="XYZ9A87"), "XYZ9A87"),
        (alvara(start=ISSUED + timedelta(days=1)), "não está em vigor"),
    ],
    ids=["cancelled", "expired the day before", "another vehicle", "not yet in force"],
)
def test_a_cancelled_expired_or_other_vehicles_alvara_is_refused(
    engine: Engine, record: PriorRecord, words: str
) -> None:
    data = example(engine, SELO)
    data["data_expedicao"] = ISSUED.isoformat()
    data["alvara"]["valido_ate"] = record.valid_until.isoformat() if record.valid_until else ""
    found = at(report(engine, data, FakeHistory(record)), "/alvara/numero")
    assert found.status is Status.INVALID and words in found.message


def test_on_the_alvaras_last_day_the_selo_is_issued_and_ends_that_day(engine: Engine) -> None:
    data = example(engine, SELO)
    data["data_expedicao"] = ISSUED.isoformat()
    data["alvara"]["valido_ate"] = ISSUED.isoformat()
    prepared = engine.prepare(SELO, data, issued_on=ISSUED,
                              history=FakeHistory(alvara(until=ISSUED)))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == ISSUED


def test_the_registry_validity_wins_over_the_data(engine: Engine) -> None:
    data = example(engine, SELO)
    data["alvara"]["valido_ate"] = "2027-03-09"  # longer than the alvará really is
    prepared = engine.prepare(SELO, data, issued_on=ISSUED, history=FakeHistory(alvara()))
    found = at(prepared.report, "/alvara/valido_ate")
    assert found.status is Status.INVALID and "31/12/2026" in found.message
    assert prepared.computed["valido_ate"] == date(2026, 12, 31)  # never beyond the alvará


def test_a_post_dated_selo_is_refused(engine: Engine) -> None:
    data = example(engine, SELO)
    data["data_expedicao"] = (ISSUED + timedelta(days=1)).isoformat()
    found = at(report(engine, data, alvara_on_file(data)), "/data_expedicao")
    assert found.status is Status.INVALID and "pós-datada" in found.message
    data["data_expedicao"] = ISSUED.isoformat()
    assert report(engine, data, alvara_on_file(data)).complete


def test_one_selo_per_alvara_unless_a_second_copy_replaces_it(engine: Engine) -> None:
    data = example(engine, SELO)
    history = FakeHistory(alvara(), earlier_selo())
    found = at(report(engine, data, history), "/alvara/numero")
    assert found.status is Status.INVALID and "0003/2026" in found.message
    data["substitui_selo"] = {"numero": "SELO-ESC nº 0003/2026", "motivo": "para-brisa trocado"}
    assert report(engine, data, history).complete
    text = pdf_text(engine.draft(SELO, data, history=history).pdf)
    assert "2ª via e substitui o selo SELO-ESC nº 0003/2026" in text
    # a selo of another alvará of the same vehicle (the one before) does not count
    other = FakeHistory(alvara(), earlier_selo(alvara_number="ALV-ESC 0002/2025"))
    data.pop("substitui_selo")
    assert report(engine, data, other).complete


def test_the_replaced_selo_must_be_this_alvaras(engine: Engine) -> None:
    data = example(engine, SELO)
    data["substitui_selo"] = {"numero": "0009/2026", "motivo": "extravio"}
    found = at(report(engine, data, FakeHistory(alvara())), "/substitui_selo/numero")
    assert found.status is Status.MISSING and "não consta do registro" in found.message
    other = FakeHistory(alvara(), earlier_selo("0009/2026", "ALV-ESC 0002/2025"))
    found = at(report(engine, data, other), "/substitui_selo/numero")
    assert found.status is Status.INVALID and "0002/2025" in found.message


@pytest.mark.parametrize(
    "pointer",
    ["/alvara", "/alvara/numero", "/alvara/valido_ate", "/titular/prontuario",
     "/titular/nome", "/veiculo/placa", "/veiculo", "/data_expedicao"],
)
def test_each_missing_field_blocks_the_issue(engine: Engine, pointer: str) -> None:
    data = example(engine, SELO)
    setter(pointer, DELETE)(data)
    got = report(engine, data, alvara_on_file(example(engine, SELO)))
    assert not got.complete and pending_at(got, pointer)


def test_the_selo_is_built_from_the_alvaras_data_alone(engine: Engine) -> None:
    alvara_data = example(engine, ALV)
    data = selo_data_from_alvara(alvara_data, "ALV-ESC 0007/2026", date(2026, 12, 31),
                                 date(2026, 3, 10))
    assert data["titular"]["prontuario"] == alvara_data["prontuario"]
    assert data["veiculo"]["placa"] == alvara_data["veiculo"]["placa"]
    prepared = engine.prepare(SELO, data, issued_on=ISSUED, history=FakeHistory(alvara()))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]


def _page_png(pdf: bytes, page: int, dpi: int, folder: Path) -> Image.Image:
    source = folder / "selo.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-png", "-singlefile", "-f", str(page), "-l", str(page),
         str(source), str(folder / "pagina")],
        check=True, capture_output=True,
    )
    with Image.open(folder / "pagina.png") as image:
        return image.convert("L").copy()


def _dark_extent_mm(image: Image.Image, dpi: int) -> tuple[float, float]:
    """Width and height, in mm, of the box drawn around the dark pixels' extent."""
    box = image.point(lambda v: 255 if v < 128 else 0).getbbox()
    assert box is not None
    left, top, right, bottom = box
    return (right - left) * 25.4 / dpi, (bottom - top) * 25.4 / dpi


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils ausente")
def test_issued_after_its_alvara_with_the_sticker_at_20_cm(
    engine: Engine, tmp_path: Path
) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        alvara_data = example(engine, ALV)
        alvara_data["veiculo"]["placa"] = "SEL0A01"
        issued = issuer.issue(ALV, alvara_data)
        data = selo_data_from_alvara(alvara_data, issued.record.printed, date(2026, 12, 31),
                                     date.fromisoformat(alvara_data["data_expedicao"]))
        result = issuer.issue(SELO, data)
        assert result.record.printed.startswith("SELO-ESC nº 0001/")
        text = pdf_text(result.pdf)
        assert f"{result.record.printed} Alvará {issued.record.printed}" in text
        assert "PARA-BRISA DIANTEIRO" in text and "PARA-BRISA TRASEIRO" in text
        assert "Reclamações e Sugestões SAC 3475-9024" in text
        pages = PdfReader(io.BytesIO(result.pdf)).pages
        sticker = [i for i, p in enumerate(pages) if "SAC 3475-9024" in (p.extract_text() or "")]
        assert len(sticker) == 1
        dpi = 100
        image = _page_png(result.pdf, sticker[0] + 1, dpi, tmp_path)
        # the sticker page: below the header, the square (and its small caption below it)
        top = image.crop((0, int(41 * dpi / 25.4), image.width, int(243.5 * dpi / 25.4)))
        width, height = _dark_extent_mm(top, dpi)
        assert width == pytest.approx(200, abs=1.5) and height == pytest.approx(200, abs=1.5)
        assert "SAC" not in (pages[0].extract_text() or "")
        # a second selo for the same alvará is refused by the registry
        again = issuer.prepare(SELO, data)
        assert at(again.report, "/alvara/numero").status is Status.INVALID
        assert issuer.verify(result.pdf).valid
    finally:
        issuer.close()
