"""The fretamento auto de infração: its schema, the values the law computes, its drafts.

Amounts: the shipped pack has no corrected fine after 2006, so a 2026 auto is pending
(the honest result); the tests that need amounts use either the pack's EXAMPLE table
(``example_values=True``, as ``lavra demo`` does) or a copy of the pack in which
corrected values were registered as test data.

Dates: an auto may not be issued after the last day to appeal (art. 23), judged on the
day of issue. The computation takes that day as an input (``issued_on``), so its tests
fix it; the engine issues today, so the tests that go through the engine and must find
the example complete move the example's dates to today, as ``lavra demo`` does.
"""

from __future__ import annotations

import copy
import io
import json
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from lavra.checking.computations import EXAMPLE_NOTICE, Computed, ComputeInput, PriorRecord
from lavra.checking.content import Content
from lavra.checking.report import Report, Status
from lavra.cli.demo import bring_to, demo_day, shift_dates
from lavra.config import Config
from lavra.documents import Engine
from lavra.inputs.reading import TIMEZONE, today
from lavra.issuing import IncompleteError, Issuer, ensure_dev_pki
from lavra.law.model import load_laws, resolve
from lavra.registry.database import database_url
from lavra.registry.store import open_registry
from lavra_americana.comum.amounts import load_example_values
from lavra_americana.comum.infractions import same_subject
from lavra_americana.fretamento.auto_infracao import COMPUTATIONS, auto_infracao_fretamento
from lavra_americana.fretamento.fines import fretamento_fine_article

AUTO = "auto-infracao-fretamento"
ON = date(2026, 3, 2)
PLATE = "ABC1D23"
F15_1, F15_4 = "fretamento#art15_inc1", "fretamento#art15_inc4"
F16_1, F16_2 = "fretamento#art16_inc1", "fretamento#art16_inc2"
F17_3 = "fretamento#art17_inc3"

# Corrected fines registered in a COPY of the pack for these tests (test data).
TEST_FINES = {"art15": "150.00", "art16": "300.00", "art17": "750.00"}
# The example table's fictitious 2026 values (legal_text/exemplo-valores-corrigidos.json).
EXAMPLE_2026 = {"art15": Decimal("371.46"), "art16": Decimal("742.92"), "art17": Decimal("1857.31")}


# ---------------------------------------------------------------- fixtures and helpers


@pytest.fixture(scope="module")
def content(pack_dir: Path) -> Content:
    content = Content(pack_dir)
    assert content.forms[AUTO].computations == ("auto_infracao_fretamento",)
    return content


@pytest.fixture(scope="module")
def engine(content: Content) -> Engine:
    return Engine(content)


@pytest.fixture(scope="module")
def registered_pack(tmp_path_factory: pytest.TempPathFactory, pack_dir: Path) -> Path:
    """A copy of the pack's legal texts with corrected fines registered for 2025–2026."""
    root = tmp_path_factory.mktemp("pacote")
    shutil.copytree(pack_dir / "legal_text", root / "legal_text")
    path = root / "legal_text" / "parametros.json"
    raw = json.loads(path.read_text("utf-8"))
    for article, value in TEST_FINES.items():
        raw["parametros"][f"fretamento.multa.{article}"]["vigencias"].extend(
            {
                "desde": f"{year}-01-01",
                "ate": f"{year}-12-31",
                "valor": value,
                "fonte": f"Decreto de teste nº {year}",
            }
            for year in (2025, 2026)
        )
    path.write_text(json.dumps(raw, ensure_ascii=False), "utf-8")
    return root


def example(content: Content) -> dict[str, Any]:
    """The form's example as written (infraction on 02/03/2026)."""
    path = content.form(AUTO).example
    assert path is not None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def current_example(content: Content) -> dict[str, Any]:
    """The example with its dates moved so that the infraction happened today (yesterday
    when its hour is still to come: the auto records no fact after its issue)."""
    written = example(content)
    day = demo_day(written, datetime.now(TIMEZONE))
    data, _ = bring_to(written, "/ocorrencia/data", day)
    assert data["ocorrencia"]["data"] == day.isoformat()
    return data


def auto(
    citations: Sequence[str], on: date = ON, plate: str = PLATE, **extra: Any
) -> dict[str, Any]:
    """Schema-valid auto data for the given infractions."""
    data: dict[str, Any] = {
        "ocorrencia": {
            "data": on.isoformat(),
            "hora": "09:15",
            "local": {
                "logradouro": "Rua Fernando de Camargo",
                "numero_referencia": "500",
                "bairro": "Centro",
                "municipio": "Americana",
            },
        },
        "infracoes": [
            {"dispositivo": c, "descricao": f"Fato constatado pelo agente ({c})."}
            | ({"exigencia_art11": "fretamento#art11_inc1_ali4"} if c == F15_1 else {})
            for c in citations
        ],
        "veiculo": {"placa": plate, "marca_modelo": "Volare W9", "tipo": "microonibus"},
        "empresa": {
            "razao_social": "Transportes Teste Ltda.",
            "cnpj": "65.563.842/0001-05",
            "endereco": {
                "logradouro": "Rua Teste",
                "numero": "10",
                "municipio": "Americana",
                "uf": "SP",
            },
        },
        "agente": {"nome": "Agente de Teste", "matricula": "999"},
        "ciencia": {"nome": "Motorista de Teste", "data": on.isoformat()},
    }
    data.update(extra)
    return data


@dataclass
class FakeHistory:
    """Earlier autos kept in memory; answers like the registry adapter must."""

    records: list[PriorRecord]
    queries: list[tuple[str, str, date, date]] = field(default_factory=list)

    def prior_autos(
        self, placa: str, form: str, since: date, before: date
    ) -> Sequence[PriorRecord]:
        self.queries.append((placa, form, since, before))
        return [
            r
            for r in self.records
            if since <= r.reference_date < before
            and same_subject(str(r.data["veiculo"]["placa"]), placa)
        ]


def prior(number: str, on: date, citations: Sequence[str], plate: str = PLATE) -> PriorRecord:
    return PriorRecord(
        number, on, auto(citations, on, plate), form="auto-infracao-fretamento", series="AIF-FRET"
    )


def compute(
    pack: Path,
    data: dict[str, Any],
    *,
    history: FakeHistory | None = None,
    example_values: bool = False,
    issued_on: date | None = None,
) -> Computed:
    """The computation, issued on ``issued_on`` (default: the day of the infraction)."""
    if issued_on is None:
        written = data.get("ocorrencia", {}).get("data")
        issued_on = date.fromisoformat(written) if written else ON
    request = ComputeInput(
        form_id=AUTO,
        data=data,
        on=ON,
        pack_dir=pack,
        history=history,
        draft=True,
        example_values=example_values,
        issued_on=issued_on,
    )
    return COMPUTATIONS["auto_infracao_fretamento"](request)


def pending(result: Computed) -> list[Any]:
    return [i for i in result.items if i.pending]


def items_at(report: Report, pointer: str) -> list[Any]:
    return [i for i in report.items if i.field == pointer]


def pdf_text(pdf: bytes) -> str:
    text = "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)
    return " ".join(text.split())


# ---------------------------------------------------------------- the schema


def test_example_is_complete_as_to_the_schema(engine: Engine, content: Content) -> None:
    data = current_example(content)
    report = engine.check(AUTO, data, example_values=True)
    assert report.on.isoformat() == data["ocorrencia"]["data"], (
        "the reference date is the date of the infraction"
    )
    assert report.complete, [i.to_json() for i in report.pending]


def test_example_as_written_can_no_longer_be_issued(engine: Engine, content: Content) -> None:
    """Its infraction (02/03/2026) is past the appeal period (until 17/03/2026)."""
    report = engine.check(AUTO, example(content), example_values=True)
    [found] = report.pending
    assert found.requirement == "recurso.prazo" and found.status is Status.INVALID
    assert found.field == "/ocorrencia/data" and found.basis == ("fretamento#art23",)
    assert "terminou em 17/03/2026" in found.message
    assert f"({today():%d/%m/%Y})" in found.message


def test_missing_ciencia_and_refusal_is_missing(engine: Engine, content: Content) -> None:
    data = current_example(content)
    del data["ciencia"]
    report = engine.check(AUTO, data, example_values=True)
    [found] = items_at(report, "/ciencia")
    assert found.status is Status.MISSING
    assert found.basis == ("fretamento#art23",)
    assert not report.complete


def test_refusal_needs_the_agents_statement_and_replaces_ciencia(
    engine: Engine, content: Content
) -> None:
    data = current_example(content)
    del data["ciencia"]
    data["recusa_assinatura"] = True
    report = engine.check(AUTO, data, example_values=True)
    [found] = items_at(report, "/declaracao_recusa")
    assert found.status is Status.MISSING
    assert "declaração do agente" in found.message
    data["declaracao_recusa"] = "O motorista, preposto da empresa, recusou-se a assinar."
    report = engine.check(AUTO, data, example_values=True)
    assert report.complete, [i.to_json() for i in report.pending]


def test_refusal_and_ciencia_together_is_invalid(engine: Engine, content: Content) -> None:
    data = current_example(content)
    data["recusa_assinatura"] = True
    data["declaracao_recusa"] = "O motorista recusou-se a assinar."
    report = engine.check(AUTO, data, example_values=True)
    assert not report.complete
    assert any(
        "recusa de assinatura" in i.message and i.status is Status.INVALID for i in report.pending
    )


@pytest.mark.parametrize(
    "citation",
    [
        "fretamento#art18",
        "fretamento#art22_inc1",
        "fretamento#art14_ali1",
        "fretamento#art15",
        "transporte-escolar#art23_inc2",
        "fretamento#art15_inc9",
    ],
)
def test_infraction_outside_arts_15_to_17_incisos_is_invalid(
    engine: Engine, content: Content, citation: str
) -> None:
    data = current_example(content)
    data["infracoes"][0]["dispositivo"] = citation
    report = engine.check(AUTO, data, example_values=True)
    [found] = items_at(report, "/infracoes/0/dispositivo")
    assert found.status is Status.INVALID
    assert "Valores aceitos" in found.message and "Art. 15, I –" in found.message


def test_bad_hour_is_invalid(engine: Engine, content: Content) -> None:
    data = current_example(content)
    data["ocorrencia"]["hora"] = "24:10"
    report = engine.check(AUTO, data, example_values=True)
    assert any(i.field == "/ocorrencia/hora" and "HH:MM" in i.message for i in report.pending)


def test_infraction_enum_is_every_inciso_of_arts_15_to_17_with_labels_from_the_law(
    pack_dir: Path, content: Content
) -> None:
    schema = json.loads((pack_dir / "schemas" / f"{AUTO}.json").read_text("utf-8"))
    spec = schema["properties"]["infracoes"]["items"]["properties"]["dispositivo"]
    law = load_laws(pack_dir)["fretamento"]
    incisos = [
        f"fretamento#{fid}"
        for fid in law.fragments
        if fid.startswith(("art15_inc", "art16_inc", "art17_inc"))
    ]
    assert sorted(spec["enum"]) == sorted(incisos)
    laws = load_laws(pack_dir)
    for citation in spec["enum"]:
        assert fretamento_fine_article(citation, laws) in (15, 16, 17)
        short = resolve(laws, citation).short.removesuffix(", da Lei nº 4.419/2006")
        label = spec["x-rotulos"][citation]
        assert label.startswith(short[0].upper() + short[1:] + " – "), (citation, label)


# ---------------------------------------------------------------- the computation


@pytest.mark.parametrize(
    ("citation", "expected"),
    [
        pytest.param(F15_4, EXAMPLE_2026["art15"], id="art15 example value"),
        pytest.param(F16_1, EXAMPLE_2026["art16"], id="art16 example value"),
        pytest.param(F17_3, EXAMPLE_2026["art17"], id="art17 example value"),
    ],
)
def test_single_infraction_with_example_values(
    pack_dir: Path, citation: str, expected: Decimal
) -> None:
    result = compute(pack_dir, auto([citation]), example_values=True)
    [line] = result.values["infracoes"]
    assert line["valor"] == expected and result.values["total"] == expected
    assert line["em_dobro"] is False and line["auto_anterior"] is None
    assert result.values["valores_exemplo"] is True
    assert result.values["aviso_exemplo"] == EXAMPLE_NOTICE
    assert "EXEMPLO, NÃO OFICIAL" in line["explicacao"]
    assert not pending(result)


def test_registered_values_are_not_marked_as_example(registered_pack: Path) -> None:
    result = compute(registered_pack, auto([F16_1]), example_values=True)
    [line] = result.values["infracoes"]
    assert line["valor"] == Decimal("300.00")
    assert line["fonte"] == "Decreto de teste nº 2026"
    assert result.values["valores_exemplo"] is False
    assert result.values["aviso_exemplo"] is None
    assert result.values["total_extenso"] == "R$ 300,00 (trezentos reais)"


def test_missing_corrected_value_is_a_missing_item_naming_it(pack_dir: Path) -> None:
    result = compute(pack_dir, auto([F16_1]))
    [item] = pending(result)
    assert item.status is Status.MISSING
    assert item.requirement == "fretamento.multa.art16"
    assert item.field == "/infracoes/0/dispositivo"
    assert "art. 16" in item.message and "2026" in item.message
    # It tells the field agent whom to ask, never which file to edit (issue 10, class 9;
    # this used to assert that the message named parametros.json).
    assert "Procure o administrador do lavra na Secretaria de Transportes" in item.message
    assert ".json" not in item.message and "legal_text" not in item.message
    [line] = result.values["infracoes"]
    assert line["valor"] is None and line["pendente"] == item.message
    assert result.values["total"] is None and result.values["valores_pendentes"] is True
    assert result.values["valores_exemplo"] is False


def test_original_value_of_the_law_in_its_first_weeks(pack_dir: Path) -> None:
    result = compute(pack_dir, auto([F17_3], on=date(2006, 12, 4)))
    assert result.values["total"] == Decimal("700.00")
    assert not pending(result)


ART18_CASES = [
    pytest.param(
        [prior("0007/2025", date(2025, 12, 2), [F16_1])],
        True,
        "0007/2025",
        id="same inciso, same vehicle, 3 months earlier: doubled",
    ),
    pytest.param(
        [prior("0007/2025", date(2025, 12, 2), [F16_2])],
        False,
        None,
        id="other inciso of the same article: not doubled",
    ),
    pytest.param(
        [prior("0007/2025", date(2025, 8, 2), [F16_1])],
        False,
        None,
        id="7 months earlier: not doubled",
    ),
    pytest.param(
        [prior("0002/2025", date(2025, 9, 2), [F16_1])],
        True,
        "0002/2025",
        id="exactly 6 months earlier: still doubled",
    ),
    pytest.param(
        [prior("0007/2025", date(2025, 12, 2), [F16_1], plate="XYZ9A87")],
        False,
        None,
        id="other vehicle: not doubled",
    ),
    pytest.param(
        [prior("0003/2026", ON, [F16_1])], False, None, id="auto of the same day: not doubled"
    ),
    pytest.param(
        [
            prior("0001/2025", date(2025, 11, 5), [F16_1]),
            prior("0009/2025", date(2026, 1, 20), [F15_1, F16_1]),
        ],
        True,
        "0009/2025",
        id="two earlier autos: doubled once, the most recent cited",
    ),
]


@pytest.mark.parametrize(("records", "doubled", "cited"), ART18_CASES)
def test_art18_repeat_doubles_the_fine(
    registered_pack: Path, records: list[PriorRecord], doubled: bool, cited: str | None
) -> None:
    history = FakeHistory(records)
    result = compute(registered_pack, auto([F16_1]), history=history)
    [line] = result.values["infracoes"]
    assert line["em_dobro"] is doubled
    assert line["valor"] == (Decimal("600.00") if doubled else Decimal("300.00"))
    assert line["valor_base"] == Decimal("300.00")
    assert line["auto_anterior"] == (f"AIF-FRET nº {cited}" if cited else None)
    assert result.values["reincidencia"] is doubled
    assert result.values["historico_consultado"] is True
    if cited:
        assert f"Auto de Infração AIF-FRET nº {cited}" in line["explicacao"]
        assert "fretamento#art18" in line["fundamento"]
    [(plate, form, since, before)] = history.queries
    assert (plate, form, before) == (PLATE, AUTO, ON)
    assert since <= date(2025, 9, 2)
    assert not pending(result)


def test_art18_doubling_is_stated_even_while_the_value_is_pending(pack_dir: Path) -> None:
    history = FakeHistory([prior("0007/2025", date(2025, 12, 2), [F16_1])])
    result = compute(pack_dir, auto([F16_1]), history=history)
    [line] = result.values["infracoes"]
    assert line["em_dobro"] is True and line["auto_anterior"] == "AIF-FRET nº 0007/2025"
    assert line["valor"] is None
    assert [i.requirement for i in pending(result)] == ["fretamento.multa.art16"]


def test_without_history_no_earlier_auto_is_assumed(registered_pack: Path) -> None:
    result = compute(registered_pack, auto([F16_1]), history=None)
    [line] = result.values["infracoes"]
    assert line["em_dobro"] is False
    assert result.values["historico_consultado"] is False


def test_art20_each_infraction_has_its_own_fine_and_the_total(registered_pack: Path) -> None:
    history = FakeHistory([prior("0004/2026", date(2026, 1, 10), [F17_3])])
    result = compute(registered_pack, auto([F15_4, F17_3]), history=history)
    lines = result.values["infracoes"]
    assert [(line["dispositivo"], line["valor"], line["em_dobro"]) for line in lines] == [
        (F15_4, Decimal("150.00"), False),
        (F17_3, Decimal("1500.00"), True),
    ]
    assert result.values["total"] == Decimal("1650.00")
    assert result.values["total_texto"] == "R$ 1.650,00"
    assert result.values["total_extenso"] == ("R$ 1.650,00 (mil, seiscentos e cinquenta reais)")
    assert "fretamento#art20" in result.values["fundamento_calculo"]
    assert "art. 20 da Lei nº 4.419/2006" in result.values["explicacao"]
    assert [i.requirement for i in result.items if i.status is Status.MET][:2] == [
        "infracoes.0.valor",
        "infracoes.1.valor",
    ]


def test_same_infraction_twice_in_one_auto_is_invalid(registered_pack: Path) -> None:
    result = compute(registered_pack, auto([F16_1, F16_1]))
    assert len(result.values["infracoes"]) == 1
    [item] = pending(result)
    assert item.status is Status.INVALID and item.field == "/infracoes/1/dispositivo"
    assert item.basis == ("fretamento#art20",)


@pytest.mark.parametrize(
    ("citations", "facts", "applies", "grounds"),
    [
        pytest.param(
            [F16_2],
            {},
            True,
            ["art. 21, c, da Lei nº 4.419/2006"],
            id="art16 II expired alvará: alínea c",
        ),
        pytest.param(
            [F15_1, F17_3],
            {},
            True,
            ["art. 21, c, da Lei nº 4.419/2006"],
            id="art15 I among others: alínea c",
        ),
        pytest.param([F17_3], {}, False, [], id="art17 III: no impediment"),
        pytest.param(
            [F17_3],
            {"comprovante_inspecao_nao_apresentado": True},
            True,
            ["art. 21, a, da Lei nº 4.419/2006"],
            id="no inspection certificate: alínea a",
        ),
        pytest.param(
            [F16_2],
            {"multa_nao_recolhida_apos_recurso": True},
            True,
            ["art. 21, b, da Lei nº 4.419/2006", "art. 21, c, da Lei nº 4.419/2006"],
            id="unpaid fine after appeal and art16 II: alíneas b and c",
        ),
    ],
)
def test_art21_temporary_impediment(
    registered_pack: Path,
    citations: list[str],
    facts: dict[str, bool],
    applies: bool,
    grounds: list[str],
) -> None:
    data = auto(citations, impedimento=facts) if facts else auto(citations)
    impediment = compute(registered_pack, data).values["impedimento"]
    assert impediment["aplica"] is applies
    assert impediment["hipoteses"] == grounds
    if applies:
        assert impediment["explicacao"].startswith(
            "Aplica-se, cumulativamente à multa, o impedimento temporário"
        )
    else:
        assert impediment["explicacao"].startswith("Não se aplica")


@pytest.mark.parametrize(
    ("on", "last_day", "moved"),
    [
        pytest.param(date(2026, 3, 2), date(2026, 3, 17), False, id="ends on a Tuesday"),
        pytest.param(
            date(2026, 3, 20), date(2026, 4, 6), True, id="ends on a Saturday: moved to Monday"
        ),
        pytest.param(
            date(2026, 4, 6),
            date(2026, 4, 22),
            True,
            id="ends on Tiradentes: moved to the next day",
        ),
        pytest.param(
            date(2025, 5, 29),
            date(2025, 6, 16),
            True,
            id="ends on Santo Antônio (municipal), then a weekend: Monday",
        ),
    ],
)
def test_art23_last_day_to_appeal_on_the_municipal_calendar(
    registered_pack: Path, on: date, last_day: date, moved: bool
) -> None:
    appeal = compute(registered_pack, auto([F17_3], on=on)).values["recurso"]
    assert appeal["ultimo_dia"] == last_day
    assert appeal["prorrogado"] is moved
    assert appeal["aviso"] == (
        "Da presente autuação cabe recurso ao Secretário Municipal de Transportes e "
        "Sistema Viário, no prazo de 15 dias contados da data da infração, até "
        f"{last_day:%d/%m/%Y} (art. 23 da Lei nº 4.419/2006)."
    )


def test_ciencia_before_the_infraction_is_invalid(registered_pack: Path) -> None:
    data = auto([F17_3])
    data["ciencia"]["data"] = "2026-03-01"
    [item] = pending(compute(registered_pack, data))
    assert item.status is Status.INVALID and item.field == "/ciencia/data"
    assert "01/03/2026" in item.message and "02/03/2026" in item.message


# ---------------------------------------------------------------- the date of issue


def test_issue_date_defaults_to_today_in_sao_paulo(pack_dir: Path) -> None:
    request = ComputeInput(
        form_id=AUTO, data={}, on=ON, pack_dir=pack_dir, history=None, draft=True
    )
    assert request.issued_on == today()


def test_infraction_after_the_issue_date_is_invalid(registered_pack: Path) -> None:
    data = auto([F17_3], on=date(2027, 5, 1))
    data["ciencia"]["data"] = "2027-05-01"
    result = compute(registered_pack, data, issued_on=date(2026, 11, 29), example_values=True)
    # The ciência written in the auto is after the issue as well (issue 10, class 2).
    item, ciencia = sorted(pending(result), key=lambda i: i.requirement != "ocorrencia.data")
    assert (ciencia.requirement, ciencia.status) == ("ciencia.data", Status.INVALID)
    assert item.status is Status.INVALID
    assert (item.requirement, item.field) == ("ocorrencia.data", "/ocorrencia/data")
    assert "01/05/2027" in item.message and "29/11/2026" in item.message
    assert "posterior à data de emissão" in item.message
    same_day = compute(registered_pack, auto([F17_3], on=date(2026, 11, 29)),
                       issued_on=date(2026, 11, 29))
    assert not pending(same_day)


@pytest.mark.parametrize(
    ("on", "issued_on", "lapsed"),
    [
        pytest.param(date(2026, 3, 2), date(2026, 3, 17), False, id="issued on the last day"),
        pytest.param(date(2026, 3, 2), date(2026, 3, 18), True, id="issued the day after"),
        pytest.param(date(2026, 3, 2), date(2026, 11, 29), True, id="issued months later"),
        pytest.param(
            date(2026, 3, 20), date(2026, 4, 6), False, id="last day moved off a weekend"
        ),
        pytest.param(date(2026, 3, 20), date(2026, 4, 7), True, id="after the moved last day"),
    ],
)
def test_issue_after_the_appeal_period_is_invalid(
    registered_pack: Path, on: date, issued_on: date, lapsed: bool
) -> None:
    result = compute(registered_pack, auto([F17_3], on=on), issued_on=issued_on)
    last_day = result.values["recurso"]["ultimo_dia"]
    if not lapsed:
        assert not pending(result)
        return
    [item] = pending(result)
    assert item.status is Status.INVALID and item.requirement == "recurso.prazo"
    assert item.field == "/ocorrencia/data" and item.basis == ("fretamento#art23",)
    assert f"terminou em {last_day:%d/%m/%Y}" in item.message
    assert f"({issued_on:%d/%m/%Y})" in item.message
    assert "art. 23 da Lei nº 4.419/2006" in item.message
    assert "Constituição Federal" in item.message and "art. 5º, LV" in item.message
    # The values are still computed, for the draft to show them.
    assert result.values["total"] == Decimal("750.00")


# ---------------------------------------------------------------- the legal basis printed


def test_legal_basis_lists_the_provisions_applied(pack_dir: Path, content: Content) -> None:
    result = compute(pack_dir, example(content), example_values=True)
    basis = result.values["fundamento"]
    for citation in (
        "fretamento#art15_inc1",  # the precepts infringed (the example's)
        "fretamento#art17_inc8",
        "fretamento#art15",  # the articles that fine them
        "fretamento#art17",
        "fretamento#art20",  # two infractions of different nature
        "fretamento#art21_ali3",  # the impediment, art. 15, I
        "fretamento#art2",  # the fixed procedural ones
        "fretamento#art14",
        "fretamento#art23",
        "fretamento#art28",
    ):
        assert citation in basis, citation
    assert "fretamento#art18" not in basis, "no repeat: art. 18 is not applied"
    assert len(basis) == len(set(basis))
    laws = load_laws(pack_dir)
    order = list(laws["fretamento"].fragments)
    assert basis == sorted(basis, key=lambda c: order.index(c.partition("#")[2]))


def test_legal_basis_cites_arts_18_20_21_only_when_they_apply(registered_pack: Path) -> None:
    alone = compute(registered_pack, auto([F17_3])).values["fundamento"]
    assert "fretamento#art17_inc3" in alone
    assert not [c for c in alone if c.startswith(("fretamento#art18", "fretamento#art20",
                                                  "fretamento#art21"))]
    history = FakeHistory([prior("0007/2025", date(2025, 12, 2), [F17_3])])
    repeat = compute(registered_pack, auto([F17_3]), history=history).values["fundamento"]
    assert "fretamento#art18" in repeat


def _legal_basis_section(text: str) -> str:
    """The draft's "Fundamento legal" section, up to the place and date line."""
    start = text.index("Fundamento legal")
    # The place-and-date line prints the auto's reference date (the day of the infraction:
    # yesterday when the example's hour is still to come), not necessarily today.
    place_and_date = re.search(r"Americana, \d{1,2}º? de [a-zç]+ de \d{4}", text[start:])
    assert place_and_date is not None, text[start:]
    return text[start : start + place_and_date.start()]


def test_draft_prints_the_computed_legal_basis(engine: Engine, content: Content) -> None:
    text = pdf_text(engine.draft(AUTO, current_example(content), example_values=True).pdf)
    section = _legal_basis_section(text)
    assert "art. 15, inciso I, da Lei Municipal nº 4.419" in section
    assert "art. 17, inciso VIII, da Lei Municipal nº 4.419" in section
    assert "art. 21, alínea c, da Lei Municipal nº 4.419" in section
    assert "art. 18 " not in section


def test_draft_without_computation_prints_the_fixed_list(engine: Engine, content: Content) -> None:
    data = current_example(content)
    data["ocorrencia"]["hora"] = "25:00"  # schema error: the computation does not run
    text = pdf_text(engine.draft(AUTO, data).pdf)
    section = _legal_basis_section(text)
    assert "art. 2º da Lei Municipal nº 4.419" in section
    assert "art. 23 da Lei Municipal nº 4.419" in section
    assert "art. 18 " not in section and "art. 15" not in section


@pytest.mark.parametrize(
    ("mutate", "explanation"),
    [
        pytest.param(
            lambda d: d["ocorrencia"].pop("data"), "data da infração", id="no date of infraction"
        ),
        pytest.param(lambda d: d.update(infracoes=[]), "ao menos uma infração", id="no infraction"),
        pytest.param(
            lambda d: d["ocorrencia"].update(data="2006-01-10"),
            "vigora desde",
            id="before the law was in force",
        ),
    ],
)
def test_incomplete_data_leaves_values_pending_without_raising(
    registered_pack: Path, mutate: Any, explanation: str
) -> None:
    data = auto([F17_3])
    mutate(data)
    result = compute(registered_pack, data)
    assert result.values["total"] is None and result.values["valores_pendentes"] is True
    assert explanation in result.values["explicacao"]


def test_computation_is_registered_under_its_metadata_name() -> None:
    assert COMPUTATIONS["auto_infracao_fretamento"] is auto_infracao_fretamento


# ---------------------------------------------------------------- drafts through the engine


def test_example_is_complete_only_with_example_values(engine: Engine, content: Content) -> None:
    data = current_example(content)
    real = engine.check(AUTO, data)
    assert not real.complete
    assert {i.requirement for i in real.pending} == {
        "fretamento.multa.art15",
        "fretamento.multa.art17",
    }
    assert engine.check(AUTO, data, example_values=True).complete


def test_draft_with_real_pack_shows_pending_values(engine: Engine, content: Content) -> None:
    rendered = engine.draft(AUTO, example(content))
    text = pdf_text(rendered.pdf)
    assert "valor pendente" in text
    assert "Não há valor corrigido da multa do art. 15 da Lei nº 4.419/2006 para 2026" in text
    assert EXAMPLE_NOTICE not in text
    assert "até 17/03/2026 (art. 23 da Lei nº 4.419/2006)" in text


def test_draft_with_example_values_says_so(engine: Engine, content: Content) -> None:
    rendered = engine.draft(AUTO, example(content), example_values=True, docx=True)
    # Drafted today, the example of 02/03/2026 is past its appeal period: that is all.
    assert [i.requirement for i in rendered.report.pending] == ["recurso.prazo"]
    text = pdf_text(rendered.pdf)
    assert "O prazo de recurso terminou em 17/03/2026" in text
    assert "Constituição Federal assegura (art. 5º, LV)" in text
    assert EXAMPLE_NOTICE in text
    assert "R$ 371,46" in text and "R$ 1.857,31" in text
    assert "R$ 2.228,77 (dois mil, duzentos e vinte e oito reais e setenta e sete centavos)" in text
    assert "impedimento temporário da circulação do veículo (art. 21, c," in text
    assert (
        "Da presente autuação cabe recurso ao Secretário Municipal de Transportes e "
        "Sistema Viário, no prazo de 15 dias contados da data da infração, até "
        "17/03/2026 (art. 23 da Lei nº 4.419/2006)."
    ) in text
    assert "João Exemplo da Silva, motorista" in text
    assert "Agente de Fiscalização de Trânsito" in text
    assert rendered.docx is not None and len(rendered.docx) > 1000


def test_draft_of_a_repeat_cites_the_earlier_auto(engine: Engine, content: Content) -> None:
    data = example(content)
    history = FakeHistory([prior("0007/2025", date(2025, 12, 2), [F15_1])])
    text = pdf_text(engine.draft(AUTO, data, history=history, example_values=True).pdf)
    assert (
        "em dobro (art. 18) – reincidência do Auto de Infração AIF-FRET nº 0007/2025, de "
        "02/12/2025" in text
    )
    assert "R$ 742,92" in text  # 2 × R$ 371,46


def test_draft_of_a_refusal_prints_the_agents_statement(engine: Engine, content: Content) -> None:
    data = copy.deepcopy(example(content))
    del data["ciencia"]
    data["recusa_assinatura"] = True
    data["declaracao_recusa"] = "O motorista Fulano de Tal recusou-se a assinar o auto."
    text = pdf_text(engine.draft(AUTO, data, example_values=True).pdf)
    assert "recusou-se a assinar o presente auto" in text
    assert "O motorista Fulano de Tal recusou-se a assinar o auto." in text
    assert "tomei ciência" not in text


# ---------------------------------------------------------------- the demo's dates


def test_demo_brings_every_date_of_the_example_to_today(content: Content) -> None:
    written = example(content)
    moved, days = bring_to(written, "/ocorrencia/data", date(2026, 11, 29))
    assert days == (date(2026, 11, 29) - date(2026, 3, 2)).days
    assert moved["ocorrencia"]["data"] == "2026-11-29"
    assert moved["ciencia"]["data"] == "2026-11-29"  # same interval as in the example
    assert moved["ocorrencia"]["hora"] == written["ocorrencia"]["hora"]
    assert moved["veiculo"] == written["veiculo"]  # "ALV-FRET 0012/2026" is no date
    assert written["ocorrencia"]["data"] == "2026-03-02", "the example is not changed"
    assert shift_dates({"a": ["2024-02-28", "2024-13-01", "x2024-02-28", 7]}, 1) == {
        "a": ["2024-02-29", "2024-13-01", "x2024-02-28", 7]
    }
    # a protocol's moment moves with the dates, its hour kept
    assert shift_dates(["2026-02-28T09:10", "2026-02-30T09:10", "2026-02-28T9:10"], 1) == [
        "2026-03-01T09:10", "2026-02-30T09:10", "2026-02-28T9:10"]


# ---------------------------------------------------------------- issuing with the registry


def test_issued_auto_is_the_history_of_the_next_one(
    engine: Engine, content: Content, tmp_path: Path
) -> None:
    config = Config(
        pack_dir=content.root,
        data_dir=tmp_path / "dados",
        verification_url="https://verifica.example.invalid/verificar",
    )
    ensure_dev_pki(config, content)
    issuer = Issuer(engine, open_registry(database_url(config.data_dir)), config)
    issued_on = today()
    earlier = issued_on - timedelta(days=10)  # its appeal period still runs today
    try:
        with pytest.raises(IncompleteError) as refused:
            issuer.issue(AUTO, auto([F16_1], on=date(2026, 1, 12)), example_values=True)
        assert [i.requirement for i in refused.value.report.pending] == ["recurso.prazo"]
        first = issuer.issue(
            AUTO, auto([F16_1, F17_3], on=earlier), example_values=True, docx=False
        )
        today_auto = auto([F16_1], on=issued_on, plate=PLATE)
        today_auto["ocorrencia"]["hora"] = "00:00"  # never after the moment of issue
        second = issuer.issue(AUTO, today_auto, example_values=True, docx=False)
    finally:
        issuer.close()
    assert first.record.formatted.startswith("0001/"), "the refused auto took no number"
    [line] = second.record.computed["infracoes"]
    assert line["em_dobro"] is True
    assert line["auto_anterior"] == first.record.printed
    base = load_example_values(content.root).value("fretamento.multa.art16", issued_on).value
    assert Decimal(line["valor"]) == 2 * Decimal(str(base))
    text = pdf_text(second.pdf)
    joined = text.replace("- ", "-")  # the narrow table cell may break the series at its hyphen
    assert (
        f"reincidência do Auto de Infração {first.record.printed}, de {earlier:%d/%m/%Y}" in joined
    )
    assert EXAMPLE_NOTICE in text


# ---------------------------------------------------------------- art. 15, I: the art. 11 precept


def test_art15_inc1_names_the_requirement_of_art11(
    engine: Engine, content: Content, pack_dir: Path
) -> None:
    """Art. 15, I punishes "descumprimento de qualquer das exigências estabelecidas pelo
    art. 11": the auto says which one, so that the company can defend itself."""
    data = current_example(content)
    del data["infracoes"][0]["exigencia_art11"]
    report = engine.prepare(AUTO, data, example_values=True).report
    missing = [i for i in report.pending if i.field.startswith("/infracoes/0")]
    assert missing and not report.complete, [i.field for i in report.pending]
    assert any("fretamento#art11_inc1_ali4" in i.basis or "fretamento#art11" in i.basis
               for i in missing), missing

    data = current_example(content)
    data["infracoes"][0]["exigencia_art11"] = "fretamento#art11_inc2_ali2"
    prepared = engine.prepare(AUTO, data, example_values=True)
    line = prepared.computed["infracoes"][0]
    assert line["exigencia"].startswith("art. 11, II, b: ")
    assert "Alvará de Licença de Circulação" in line["exigencia"]
    assert "fretamento#art11_inc2_ali2" in prepared.computed["fundamento"]
    text = pdf_text(engine.draft(AUTO, data, example_values=True).pdf)
    assert "Exigência descumprida: art. 11, II, b: o Alvará de Licença" in text
    # another infraction prints no art. 11 precept even if one was left in the data
    other = auto([F15_4])
    other["infracoes"][0]["exigencia_art11"] = "fretamento#art11_inc1_ali1"
    lines = compute(pack_dir, other, example_values=True).values["infracoes"]
    assert lines[0]["exigencia"] is None
