"""The first mention of Lei nº 9.784/1999 in a printed act is its full title (issue 23,
text): a sentence built by the pack's Python or read from ``legal_text/`` cites the law
short, whatever its place in the act, and the renderer spells the first mention in full
(``lavra.render.mentions``; the law declares ``citar_por_extenso``). A notice drafted:
tests/test_act_citations.py; the demo's PDFs, all of them: tests/test_cli.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lavra.errors import ContentPackError
from lavra.law.model import load_law_file, load_laws
from lavra.render.mentions import full_first_mention

REPO = Path(__file__).resolve().parents[1]
LONG = "Lei nº 9.784, de 29 de janeiro de 1999"
SHORT = "Lei nº 9.784/1999"


def test_the_first_short_mention_becomes_the_full_title() -> None:
    laws = load_laws(REPO)
    assert laws["lei-9784-1999"].full_first
    assert not laws["transporte-escolar"].full_first
    html = (f"<html><head><title>Recurso pela {SHORT}</title></head><body>"
            f"<p>prazo de 10 dias ({SHORT}, art. 44), art. 3º da Lei nº 4.515/2007;</p>"
            f"<p>contagem do art. 66 da Lei nº&nbsp;9.784/1999.</p></body></html>")
    done = full_first_mention(html, laws)
    assert done == html.replace(f"({SHORT}, art. 44)", f"({LONG}, art. 44)"), done
    # A first mention already in full is left as it is; a law without the flag too.
    assert full_first_mention(done, laws) == done
    assert full_first_mention(f"<body>{LONG}; {SHORT}</body>", laws) == (
        f"<body>{LONG}; {SHORT}</body>")


def test_the_flag_is_a_boolean(tmp_path: Path) -> None:
    raw = json.loads((REPO / "legal_text" / "lei-9784-1999.json").read_text("utf-8"))
    raw["citar_por_extenso"] = "sim"
    path = tmp_path / "lei-9784-1999.json"
    path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ContentPackError, match="citar_por_extenso"):
        load_law_file(path)


def test_a_later_full_mention_is_short_and_the_basis_list_is_left() -> None:
    """A ``citacao`` names the law by its full title; after the first mention, it is
    short. The list of legal basis keeps its full references."""
    laws = load_laws(REPO)
    html = (f"<body><p>Ao Secretário ({SHORT}, arts. 56 e 59)</p><p>interpor recurso "
            f"(art. 56 da {LONG})</p><ul class=\"fundamento\"><li>art. 56 da {LONG}</li>"
            "</ul></body>")
    assert full_first_mention(html, laws) == (
        f"<body><p>Ao Secretário ({LONG}, arts. 56 e 59)</p><p>interpor recurso "
        f"(art. 56 da {SHORT})</p><ul class=\"fundamento\"><li>art. 56 da {LONG}</li>"
        "</ul></body>")
