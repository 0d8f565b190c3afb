"""How a signed act cites a protocol and speaks to the person it notifies (issue 23,
class 8, read again on this morning's documents).

A protocol of lavra's own series is cited as every act of a series is: "PROT nº
0003/2026", never "sob o nº PROT 0003/2026" nor "nº PROT"; a protocol of the
Prefeitura's other systems, without series, keeps its digits ("nº 4.321/2026"). The
revogação notice speaks to Vossa Senhoria without a pronoun of a gender the data do not
declare ("e a intima" to a man). Drafts of each form's example, read back with poppler.
"""

from __future__ import annotations

import subprocess
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from formcases import example

from lavra.checking.content import Content
from lavra.documents import Engine
from lavra.inputs import pointers

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
