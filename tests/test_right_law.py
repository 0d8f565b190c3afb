"""Where a provision sends to another law, lavra cites that law and never applies a
penalty of this one in its place (issue 10, class 4).

Transporte escolar, art. 19: the exploitation of the service without the licence
"sujeitará o infrator às penalidades previstas na Lei nº 3.149, de 14 de abril de
1998". The pack does not register that law's values: the sanction is not computed, the
answer names the law, and no fine of art. 23 stands in its place.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lavra.checking.computations import ComputeInput
from lavra.checking.report import Status
from lavra.cli.amount import amount as amount_command
from lavra.errors import ParameterError
from lavra.law.model import load_laws, resolve
from lavra_americana.comum.amounts import load_sources
from lavra_americana.comum.infractions import PriorInfraction
from lavra_americana.transporte_escolar.auto_infracao import auto_infracao_escolar
from lavra_americana.transporte_escolar.penalties import SanctionKind, escolar_sanction

ON = date(2026, 3, 2)
HOLDER = "529.982.247-25"
ART19 = "transporte-escolar#art19"
ART2 = "transporte-escolar#art2"
OTHER = "Lei Municipal nº 3.149, de 14 de abril de 1998"


@pytest.fixture(scope="module")
def sources(pack_dir: Path) -> Any:
    return load_sources(pack_dir, exemplo=False)


@pytest.mark.parametrize("citation", [ART19, ART2])
def test_unlicensed_exploitation_gets_no_sanction_of_this_law(
    sources: Any, citation: str
) -> None:
    with pytest.raises(ParameterError) as info:
        escolar_sanction(citation, ON, [], sources, holder=HOLDER)
    message = info.value.message
    assert OTHER in message and "art. 19 da Lei nº 4.515/2007" in message
    assert "não estão registrados" in message
    assert "R$" not in message and "art. 23" not in message


@pytest.mark.parametrize(
    ("cited", "expected"),
    [
        pytest.param("transporte-escolar#art21_inc3", SanctionKind.ADVERTENCIA,
                     id="an earlier art. 19 case is no repeat of a duty"),
        pytest.param("transporte-escolar#art24_inc2", SanctionKind.MULTA,
                     id="nor a repeat that doubles the fine"),
    ],
)
def test_an_earlier_art19_case_does_not_aggravate(
    sources: Any, cited: str, expected: SanctionKind
) -> None:
    # art. 19's sanction is another law's: it counts neither as repeat nor as a fine
    priors = [PriorInfraction(date(2025, 12, 1), ART19, HOLDER),
              PriorInfraction(date(2026, 1, 5), ART19, HOLDER)]
    assert escolar_sanction(cited, ON, priors, sources, holder=HOLDER).kind is expected
    # ...and the third fine of art. 23, III, counts only this law's fines
    fines = [PriorInfraction(date(2025, 9, 1), "transporte-escolar#art24_inc1", HOLDER),
             PriorInfraction(date(2025, 12, 1), ART19, HOLDER)]
    sanction = escolar_sanction("transporte-escolar#art24_inc4", ON, fines, sources,
                                holder=HOLDER)
    assert sanction.kind is SanctionKind.MULTA


def test_cli_amount_names_the_other_law_and_shows_no_fine(
    pack_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LAVRA_PACK", str(pack_dir))
    monkeypatch.delenv("LAVRA_CONFIG", raising=False)
    for args in ([ART19, "--on", "2026-03-02"], [ART19, "--on", "2026-03-02", "--json"]):
        result = CliRunner().invoke(amount_command, args)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr.startswith("Erro: A exploração do serviço de transporte escolar")
        assert OTHER in result.stderr
        assert "384,20" not in result.output and "Traceback" not in result.output


def _auto(pack_dir: Path, citation: str) -> dict[str, Any]:
    data = json.loads((pack_dir / "forms" / "auto-infracao-escolar" / "exemplo.json")
                      .read_text("utf-8"))
    data["infracoes"] = [{"dispositivo": citation, "descricao": "Fato constatado."}]
    data["infracoes_anteriores"] = []
    return dict(data)


def test_auto_for_art19_is_pending_naming_the_other_law(pack_dir: Path) -> None:
    result = auto_infracao_escolar(ComputeInput(
        form_id="auto-infracao-escolar", data=_auto(pack_dir, ART19), on=ON,
        pack_dir=pack_dir, history=None, draft=True, issued_on=ON))
    item = next(i for i in result.items if i.requirement == "infracoes.0.sancao")
    assert item.status is Status.MISSING and OTHER in item.message
    assert result.values.get("infracoes", []) == []
    assert result.values.get("total") is None


@pytest.mark.parametrize(
    ("citation", "reference"),
    [
        ("lei-3149-1998", OTHER),
        ("lei-3610-2001", "Lei Municipal nº 3.610, de 26 de dezembro de 2001"),
        ("lei-3564-2001", "Lei Municipal nº 3.564, de 19 de julho de 2001"),
        ("lei-estadual-11258-2002", "Lei Estadual nº 11.258, de 6 de novembro de 2002"),
        ("resolucao-contran-73-1998", "Resolução nº 73 do CONTRAN, de 19 de novembro de 1998"),
        ("ctb", "Lei nº 9.503, de 23 de setembro de 1997 (Código de Trânsito "
                "Brasileiro)"),
    ],
)
def test_the_laws_sent_to_are_citable(pack_dir: Path, citation: str, reference: str) -> None:
    laws = load_laws(pack_dir)
    found = resolve(laws, citation)
    assert found.reference == reference
    law = laws[citation]
    assert law.source is None and not law.fragments  # cited only: no text registered
    assert law.number_note is not None and "não registra" in law.number_note


@pytest.mark.parametrize(
    ("form", "citation"),
    [
        ("licenca-especial-escolar", "lei-estadual-11258-2002"),  # art. 20
        ("autorizacao-publicidade-escolar", "resolucao-contran-73-1998"),  # art. 17, § 2º
    ],
)
def test_forms_cite_the_law_they_send_to(pack_dir: Path, form: str, citation: str) -> None:
    meta = json.loads((pack_dir / "forms" / form / "formulario.json").read_text("utf-8"))
    assert citation in meta["fundamento"]
