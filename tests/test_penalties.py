"""Repeat offences and escalation: fretamento arts. 18, 20, 21; escolar art. 23."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from lavra.checking.report import Status
from lavra.errors import CitationError, InputError, ParameterError
from lavra.law.model import load_laws
from lavra.law.params import parameters_from_document
from lavra_americana.comum.amounts import AmountSources
from lavra_americana.comum.infractions import PriorInfraction, same_subject
from lavra_americana.fretamento.penalties import (
    fretamento_auto,
    fretamento_penalty,
    fretamento_repeat,
    temporary_impediment,
)
from lavra_americana.transporte_escolar.penalties import SanctionKind, escolar_sanction

P = PriorInfraction
VEHICLE = "ABC-1234"
HOLDER = "123.456.789-09"
F15_1, F15_4, F16_2 = "fretamento#art15_inc1", "fretamento#art15_inc4", "fretamento#art16_inc2"
DUTY = "transporte-escolar#art21_inc3"
E24_1, E24_2, E24_3 = (f"transporte-escolar#art24_inc{i}" for i in (1, 2, 3))
GENERIC = "transporte-escolar#art9_par3"  # a precept with no sanction of its own

# Corrected fines registered for the tests (the pack has none after 2006): test data.
TEST_FINES = {"art15": "150.00", "art16": "300.00", "art17": "750.00"}


@pytest.fixture(scope="module")
def sources(pack_dir: Path) -> AmountSources:
    raw = json.loads((pack_dir / "legal_text" / "parametros.json").read_text("utf-8"))
    for article, value in TEST_FINES.items():
        raw["parametros"][f"fretamento.multa.{article}"]["vigencias"].extend(
            {"desde": f"{year}-01-01", "ate": f"{year}-12-31", "valor": value,
             "fonte": f"Decreto de teste nº {year}"}
            for year in (2024, 2025, 2026)
        )
    return AmountSources(laws=load_laws(pack_dir), parameters=parameters_from_document(raw))


# ---------------------------------------------------------------- fretamento art. 18

ON = date(2026, 3, 10)


@pytest.mark.parametrize(
    ("on", "priors", "repeat", "cited"),
    [
        pytest.param(ON, [P(date(2025, 12, 10), F16_2, VEHICLE, "41/2025")], True, "41/2025",
                     id="fretamento#art18 same infraction 3 months before"),
        pytest.param(ON, [P(date(2025, 9, 10), F16_2, VEHICLE, "7/2025")], True, "7/2025",
                     id="fretamento#art18 exactly 6 months later is within"),
        pytest.param(ON, [P(date(2025, 9, 9), F16_2, VEHICLE)], False, None,
                     id="fretamento#art18 6 months and 1 day later is outside"),
        pytest.param(date(2026, 2, 28), [P(date(2025, 8, 31), F16_2, VEHICLE)], True, None,
                     id="fretamento#art18 31 August + 6 months ends 28 February"),
        pytest.param(date(2026, 3, 1), [P(date(2025, 8, 31), F16_2, VEHICLE)], False, None,
                     id="fretamento#art18 1 March is after a window from 31 August"),
        pytest.param(ON, [P(date(2026, 1, 5), "fretamento#art16_inc1", VEHICLE)], False, None,
                     id="fretamento#art18 other inciso of the same article is not the same"),
        pytest.param(ON, [P(date(2026, 1, 5), F16_2, "XYZ9A87")], False, None,
                     id="fretamento#art18 a different vehicle"),
        pytest.param(ON, [P(date(2026, 1, 5), F16_2, "abc 1234")], True, None,
                     id="fretamento#art18 same placa written differently"),
        pytest.param(ON, [P(ON, F16_2, VEHICLE)], False, None,
                     id="fretamento#art18 same day is not a repeat"),
        pytest.param(ON, [P(date(2026, 4, 1), F16_2, VEHICLE)], False, None,
                     id="fretamento#art18 later infraction ignored"),
        pytest.param(ON, [P(date(2026, 1, 5), "transporte-escolar#art24_inc2", VEHICLE)], False,
                     None, id="fretamento#art18 other law ignored"),
        pytest.param(ON, [P(date(2025, 10, 1), F16_2, VEHICLE, "1/2025"),
                          P(date(2026, 2, 1), F16_2, VEHICLE, "9/2026")], True, "9/2026",
                     id="fretamento#art18 the most recent earlier infraction is cited"),
    ],
)
def test_fretamento_repeat(
    sources: AmountSources, on: date, priors: list[PriorInfraction], repeat: bool,
    cited: str | None,
) -> None:
    finding = fretamento_repeat(F16_2, on, VEHICLE, priors, sources)
    assert finding.repeat is repeat
    assert "art. 18 da Lei nº 4.419/2006" in finding.explanation
    assert finding.basis[0] == "fretamento#art18"
    penalty = fretamento_penalty(F16_2, on, VEHICLE, priors, sources)
    assert penalty.doubled is repeat
    assert penalty.amount.doubled is repeat
    assert penalty.amount.base == Decimal("300.00")
    assert penalty.amount.value == Decimal("600.00" if repeat else "300.00")
    if repeat:
        assert finding.prior is not None
        assert finding.prior.date.strftime("%d/%m/%Y") in penalty.explanation
        assert "R$ 600,00 (seiscentos reais)" in penalty.explanation
        assert "fretamento#art18" in penalty.amount.basis
    if cited:
        assert f"(Auto de Infração nº {cited})" in penalty.explanation


def test_fretamento_repeat_is_doubled_once_not_compounded(sources: AmountSources) -> None:
    priors = [P(date(2026, m, 1), F16_2, VEHICLE) for m in (1, 2, 3)]
    penalty = fretamento_penalty(F16_2, date(2026, 3, 20), VEHICLE, priors, sources)
    assert penalty.amount.value == Decimal("600.00")


def test_fretamento_repeat_outside_window_cites_the_earlier_one(sources: AmountSources) -> None:
    finding = fretamento_repeat(F16_2, ON, VEHICLE, [P(date(2025, 3, 1), F16_2, VEHICLE)],
                                sources)
    assert not finding.repeat
    assert "01/03/2025" in finding.explanation and "01/09/2025" in finding.explanation
    assert "não há reincidência" in finding.explanation


def test_same_subject() -> None:
    assert same_subject("ABC-1234", " abc1234 ")
    assert same_subject("123.456.789-09", "12345678909")
    assert not same_subject("ABC1234", "ABC1235")


def test_prior_record_is_validated() -> None:
    with pytest.raises(InputError):
        PriorInfraction(date(2026, 1, 1), "art16_inc2", VEHICLE)
    with pytest.raises(InputError):
        PriorInfraction(date(2026, 1, 1), F16_2, "  ")
    with pytest.raises(InputError):
        PriorInfraction("2026-01-01", F16_2, VEHICLE)  # type: ignore[arg-type]


def test_repeat_of_a_pending_value_is_still_flagged(pack_dir: Path) -> None:
    from lavra_americana.comum.amounts import load_sources

    bare = load_sources(pack_dir)
    priors = [P(date(2026, 1, 5), F16_2, VEHICLE)]
    penalty = fretamento_penalty(F16_2, ON, VEHICLE, priors, bare, draft=True)
    assert penalty.doubled and penalty.amount.value is None
    assert [i.status for i in penalty.amount.items] == [Status.MISSING]
    with pytest.raises(ParameterError, match="para 2026"):
        fretamento_penalty(F16_2, ON, VEHICLE, priors, bare)


# ---------------------------------------------------------------- fretamento art. 20


def test_auto_with_infractions_of_different_nature(sources: AmountSources) -> None:
    priors = [P(date(2026, 1, 5), F16_2, VEHICLE, "3/2026")]
    auto = fretamento_auto([F15_4, F16_2, "fretamento#art17_inc7"], ON, VEHICLE, priors,
                           sources)
    assert [line.amount.value for line in auto.lines] == [
        Decimal("150.00"), Decimal("600.00"), Decimal("750.00")]
    assert auto.total == Decimal("1500.00")
    assert auto.complete
    assert "art. 20 da Lei nº 4.419/2006" in auto.explanation
    assert "Total: R$ 1.500,00 (mil e quinhentos reais)." in auto.explanation
    assert "fretamento#art20" in auto.basis and "fretamento#art18" in auto.basis
    assert len(auto.items) == 3


def test_auto_incisos_of_one_article_each_carry_a_fine(sources: AmountSources) -> None:
    auto = fretamento_auto([F15_1, F15_4], ON, VEHICLE, [], sources)
    assert auto.total == Decimal("300.00")


def test_auto_with_one_infraction_does_not_cite_art20(sources: AmountSources) -> None:
    auto = fretamento_auto([F15_4], ON, VEHICLE, [], sources)
    assert auto.total == Decimal("150.00")
    assert "fretamento#art20" not in auto.basis


@pytest.mark.parametrize(
    "citations",
    [
        pytest.param([], id="fretamento#art20 no infraction"),
        pytest.param([F16_2, F16_2], id="fretamento#art20 same infraction twice in one auto"),
    ],
)
def test_auto_refuses(sources: AmountSources, citations: list[str]) -> None:
    with pytest.raises(InputError):
        fretamento_auto(citations, ON, VEHICLE, [], sources)


def test_auto_draft_with_a_missing_year(pack_dir: Path) -> None:
    from lavra_americana.comum.amounts import load_sources

    bare = load_sources(pack_dir)
    auto = fretamento_auto([F15_4, F16_2], ON, VEHICLE, [], bare, draft=True)
    assert auto.total is None and not auto.complete
    assert all(item.status is Status.MISSING for item in auto.items)
    assert "Total pendente" in auto.explanation
    with pytest.raises(ParameterError):
        fretamento_auto([F15_4, F16_2], ON, VEHICLE, [], bare)


# ---------------------------------------------------------------- fretamento art. 21


@pytest.mark.parametrize(
    ("citations", "facts", "grounds"),
    [
        pytest.param([F15_1], {}, ["fretamento#art21_ali3"],
                     id="fretamento#art21_ali3 art. 11 requirements (art. 15, I)"),
        pytest.param(["fretamento#art15_inc5"], {}, ["fretamento#art21_ali3"],
                     id="fretamento#art21_ali3 art. 15, V"),
        pytest.param([F16_2], {}, ["fretamento#art21_ali3"],
                     id="fretamento#art21_ali3 art. 16, II"),
        pytest.param(["fretamento#art16_inc6"], {}, ["fretamento#art21_ali3"],
                     id="fretamento#art21_ali3 art. 16, VI"),
        pytest.param(["fretamento#art16_inc1"], {}, [],
                     id="fretamento#art21 art. 16, I not listed"),
        pytest.param([F15_4], {"no_inspection_certificate": True}, ["fretamento#art21_ali1"],
                     id="fretamento#art21_ali1 no inspection certificate"),
        pytest.param(["fretamento#art17_inc1"], {"unpaid_after_appeal": True},
                     ["fretamento#art21_ali2"],
                     id="fretamento#art21_ali2 fine unpaid after appeal"),
        pytest.param([F15_4, F16_2], {"no_inspection_certificate": True},
                     ["fretamento#art21_ali1", "fretamento#art21_ali3"],
                     id="fretamento#art21 alíneas a and c together"),
    ],
)
def test_temporary_impediment(
    sources: AmountSources, citations: list[str], facts: dict[str, bool], grounds: list[str]
) -> None:
    found = temporary_impediment(citations, sources.laws, **facts)
    assert found.applies is bool(grounds)
    assert list(found.grounds) == grounds
    if grounds:
        assert "cumulativamente à multa" in found.explanation
        assert "fretamento#art21_par1" in found.basis
    else:
        assert found.explanation.startswith("Não se aplica")


def test_impediment_wording_joins_alineas(sources: AmountSources) -> None:
    found = temporary_impediment([F16_2], sources.laws, no_inspection_certificate=True)
    assert "(art. 21, a e c, da Lei nº 4.419/2006)" in found.explanation
    auto = fretamento_auto([F16_2], ON, VEHICLE, [], sources, no_inspection_certificate=True)
    assert auto.impediment.applies and found.explanation in auto.explanation


# ---------------------------------------------------------------- transporte escolar art. 23

ESC_ON = date(2026, 3, 1)


def esc(day: date, citation: str = DUTY, holder: str = HOLDER) -> PriorInfraction:
    return P(day, citation, holder)


@pytest.mark.parametrize(
    ("citation", "priors", "kind", "amount"),
    [
        pytest.param(DUTY, [], SanctionKind.ADVERTENCIA, None,
                     id="transporte-escolar#art23_inc1 first breach of a duty: advertência"),
        pytest.param(DUTY, [esc(date(2025, 6, 1))], SanctionKind.MULTA, "384.20",
                     id="transporte-escolar#art23_inc1 repeat of a duty: fine"),
        pytest.param(DUTY, [esc(date(2025, 6, 1)), esc(date(2025, 9, 1))],
                     SanctionKind.MULTA_EM_DOBRO, "768.40",
                     id="transporte-escolar#art23_inc2 repeat after a fine: doubled"),
        pytest.param(DUTY, [esc(date(2025, 3, 1))], SanctionKind.MULTA, "384.20",
                     id="transporte-escolar#art23_par1u exactly 1 year is still a repeat"),
        pytest.param(DUTY, [esc(date(2025, 2, 28))], SanctionKind.ADVERTENCIA, None,
                     id="transporte-escolar#art23_par1u 1 year and 1 day is not a repeat"),
        pytest.param(DUTY, [esc(date(2025, 1, 10)), esc(date(2025, 12, 1))],
                     SanctionKind.ADVERTENCIA, None,
                     id="transporte-escolar#art23_par1u window opened by the first infraction"),
        pytest.param(DUTY, [esc(date(2025, 6, 1), "transporte-escolar#art21_inc5")],
                     SanctionKind.ADVERTENCIA, None,
                     id="transporte-escolar#art23_inc1 other duty is not the same infraction"),
        pytest.param(DUTY, [esc(date(2025, 6, 1), holder="999.999.999-99")],
                     SanctionKind.ADVERTENCIA, None,
                     id="transporte-escolar#art23 other holder ignored"),
        pytest.param(DUTY, [esc(ESC_ON)], SanctionKind.ADVERTENCIA, None,
                     id="transporte-escolar#art23 same day is not a repeat"),
        pytest.param(E24_2, [], SanctionKind.MULTA, "384.20",
                     id="transporte-escolar#art23_inc2 fine for art. 24"),
        pytest.param(E24_2, [esc(date(2025, 12, 1), E24_2)], SanctionKind.MULTA_EM_DOBRO,
                     "768.40", id="transporte-escolar#art23_inc2 repeat doubles the fine"),
        pytest.param(E24_2, [esc(date(2025, 12, 1), E24_1)], SanctionKind.MULTA, "384.20",
                     id="transporte-escolar#art23_inc2 different incisos are not a repeat"),
        pytest.param(E24_3, [esc(date(2025, 6, 1), E24_1), esc(date(2025, 9, 1), E24_2)],
                     SanctionKind.REVOGACAO, "384.20",
                     id="transporte-escolar#art23_inc3 third fine within 1 year: revocation"),
        pytest.param(E24_3, [esc(date(2025, 2, 1), E24_1), esc(date(2025, 9, 1), E24_2)],
                     SanctionKind.MULTA, "384.20",
                     id="transporte-escolar#art23_inc3 a fine older than 1 year not counted"),
        pytest.param(E24_2, [esc(date(2025, 6, 1), E24_1), esc(date(2025, 9, 1), E24_1)],
                     SanctionKind.REVOGACAO, "384.20",
                     id="transporte-escolar#art23_inc3 a doubled fine counts as a fine"),
        pytest.param(E24_1, [esc(date(2025, 9, 1), E24_1)], SanctionKind.MULTA_EM_DOBRO,
                     "768.40",
                     id="transporte-escolar#art23_inc3 a doubled fine is one fine, not two"),
        pytest.param(DUTY, [esc(date(2025, 4, 1)), esc(date(2025, 6, 1)),
                            esc(date(2025, 9, 1))],
                     SanctionKind.REVOGACAO, "768.40",
                     id="transporte-escolar#art23_inc3 fourth breach of a duty: third fine"),
        pytest.param(DUTY, [esc(date(2025, 6, 1), E24_1), esc(date(2025, 9, 1), E24_2)],
                     SanctionKind.ADVERTENCIA, None,
                     id="transporte-escolar#art23_inc3 an advertência is not a fine"),
        pytest.param("transporte-escolar#art9_par2_inc1", [], SanctionKind.REVOGACAO, None,
                     id="transporte-escolar#art9_par2_inc1 revocation"),
        pytest.param("transporte-escolar#art9_par2_inc2", [], SanctionKind.REVOGACAO, None,
                     id="transporte-escolar#art9_par2_inc2 revocation"),
        pytest.param(GENERIC, [], SanctionKind.MULTA, "384.20",
                     id="transporte-escolar#art23_inc2 generic fine for another precept"),
        pytest.param(GENERIC, [esc(date(2025, 12, 1), GENERIC)], SanctionKind.MULTA_EM_DOBRO,
                     "768.40", id="transporte-escolar#art23_inc2 generic fine doubled"),
        pytest.param(DUTY, [esc(date(2025, 6, 1), "fretamento#art16_inc2")],
                     SanctionKind.ADVERTENCIA, None,
                     id="transporte-escolar#art23 infractions of another law ignored"),
    ],
)
def test_escolar_sanction(
    sources: AmountSources, citation: str, priors: list[PriorInfraction],
    kind: SanctionKind, amount: str | None,
) -> None:
    sanction = escolar_sanction(citation, ESC_ON, priors, sources, holder=HOLDER)
    assert sanction.kind is kind
    if amount is None:
        assert sanction.amount is None
    else:
        assert sanction.amount is not None
        assert sanction.amount.value == Decimal(amount)
        assert sanction.amount.in_words is not None
        assert sanction.amount.in_words in sanction.explanation
        assert "transporte-escolar#art23_inc2" in sanction.basis
    assert sanction.doubled is (kind is SanctionKind.MULTA_EM_DOBRO or amount == "768.40")
    assert sanction.basis[0] == citation
    assert "Lei nº 4.515/2007" in sanction.explanation
    if kind is SanctionKind.REVOGACAO:
        assert "revogação do alvará (art. 23, III, da Lei nº 4.515/2007)" in sanction.explanation
        assert "transporte-escolar#art23_inc3" in sanction.basis
    if kind is SanctionKind.ADVERTENCIA:
        assert "advertência por escrito (art. 23, I, da Lei nº 4.515/2007)" in sanction.explanation


def test_escolar_repeat_cites_the_first_infraction(sources: AmountSources) -> None:
    priors = [P(date(2025, 4, 2), E24_2, HOLDER, "88/2025"), P(date(2025, 11, 3), E24_2, HOLDER)]
    sanction = escolar_sanction(E24_2, ESC_ON, priors, sources, holder=HOLDER)
    assert sanction.repeat_of is not None and sanction.repeat_of.document == "88/2025"
    assert (
        "primeira infração, ocorrida em 02/04/2025 (Auto de Infração nº 88/2025)"
        in sanction.explanation
    )
    assert "art. 23, parágrafo único, da Lei nº 4.515/2007" in sanction.explanation
    # the third fine in one year: revocation, naming the earlier fines
    assert sanction.kind is SanctionKind.REVOGACAO
    assert [f.date for f in sanction.earlier_fines] == [date(2025, 4, 2), date(2025, 11, 3)]
    assert "terceira multa" in sanction.explanation


def test_escolar_outside_window_is_explained(sources: AmountSources) -> None:
    sanction = escolar_sanction(DUTY, ESC_ON, [esc(date(2024, 12, 1))], sources, holder=HOLDER)
    assert "dista mais de 1 ano" in sanction.explanation
    assert "transporte-escolar#art23_par1u" in sanction.basis


def test_escolar_leap_day_window(sources: AmountSources) -> None:
    first = [esc(date(2024, 2, 29), E24_1)]
    within = escolar_sanction(E24_1, date(2025, 2, 28), first, sources, holder=HOLDER)
    after = escolar_sanction(E24_1, date(2025, 3, 1), first, sources, holder=HOLDER)
    assert within.kind is SanctionKind.MULTA_EM_DOBRO
    assert after.kind is SanctionKind.MULTA


@pytest.mark.parametrize(
    ("citation", "error"),
    [
        pytest.param("transporte-escolar#art16_inc1", InputError,
                     id="transporte-escolar#art16_inc1 a fee is not an infraction"),
        pytest.param("transporte-escolar#art26", InputError,
                     id="transporte-escolar#art26 procedure is not an infraction"),
        pytest.param("transporte-escolar#art23_inc3", InputError,
                     id="transporte-escolar#art23_inc3 cite the infraction, not the sanction"),
        pytest.param("transporte-escolar#art23_inc2", InputError,
                     id="transporte-escolar#art23_inc2 a sanction clause is not infringed"),
        pytest.param("transporte-escolar#art23", InputError,
                     id="transporte-escolar#art23 sanctions are not infringed"),
        pytest.param("fretamento#art16_inc2", InputError,
                     id="transporte-escolar#art23 fretamento citation refused"),
        pytest.param("transporte-escolar#art28a", InputError,
                     id="transporte-escolar#art28a revoked provision"),
        pytest.param("transporte-escolar#art21_inc10", CitationError,
                     id="transporte-escolar#art21_inc10 does not exist"),
    ],
)
def test_escolar_sanction_refuses(
    sources: AmountSources, citation: str, error: type[Exception]
) -> None:
    with pytest.raises(error):
        escolar_sanction(citation, ESC_ON, [], sources, holder=HOLDER)


def test_escolar_sanction_clause_is_refused_naming_the_precept(sources: AmountSources) -> None:
    with pytest.raises(InputError) as info:
        escolar_sanction("transporte-escolar#art23_inc2", ESC_ON, [], sources, holder=HOLDER)
    assert "art. 23, II, da Lei nº 4.515/2007 fixa sanção" in info.value.message
    assert "preceito da lei efetivamente infringido" in info.value.message
    assert info.value.field == "/citacao"


def test_escolar_generic_fine_is_worded_as_infraction_of_a_precept(
    sources: AmountSources,
) -> None:
    first = escolar_sanction(GENERIC, ESC_ON, [], sources, holder=HOLDER)
    assert first.explanation.startswith(
        "Infração a preceito da Lei nº 4.515/2007 (art. 9º, § 3º), ocorrida em 01/03/2026: "
        "aplica-se a multa do art. 23, II, da Lei nº 4.515/2007."
    )
    assert first.basis[:2] == (GENERIC, "transporte-escolar#art23_inc2")
    repeat = escolar_sanction(GENERIC, ESC_ON, [esc(date(2025, 12, 1), GENERIC)], sources,
                              holder=HOLDER)
    assert "Reincidência na infração ao art. 9º, § 3º, da Lei nº 4.515/2007" in (
        repeat.explanation)
    assert "infração ao art. 23" not in repeat.explanation.lower()


def test_escolar_revocation_names_the_fines_counted(sources: AmountSources) -> None:
    priors = [esc(date(2025, 6, 1), E24_2), esc(date(2025, 9, 1), E24_2)]
    sanction = escolar_sanction(E24_2, ESC_ON, priors, sources, holder=HOLDER)
    assert sanction.kind is SanctionKind.REVOGACAO
    assert ("É a terceira multa imposta ao condutor em período de 1 ano (multas anteriores "
            "pelas infrações de 01/06/2025 e 01/09/2025)") in sanction.explanation


def test_escolar_ordinal_counts_the_fines_and_dates_read_as_a_list(
    pack_dir: Path, sources: AmountSources,
) -> None:
    # With parameters by which the revocation comes at the fourth fine (test data).
    raw = json.loads((pack_dir / "legal_text" / "parametros.json").read_text("utf-8"))
    raw["parametros"]["transporte-escolar.multas_para_revogacao"]["vigencias"] = [
        {"desde": "2007-08-03", "ate": None, "valor": 4, "fonte": "Parâmetro de teste"}]
    four = AmountSources(laws=sources.laws, parameters=parameters_from_document(raw))
    priors = [esc(date(2025, 6, 1), E24_2), esc(date(2025, 9, 1), E24_2),
              esc(date(2025, 10, 1), E24_2)]
    sanction = escolar_sanction(E24_2, ESC_ON, priors, four, holder=HOLDER)
    assert sanction.kind is SanctionKind.REVOGACAO
    assert len(sanction.earlier_fines) == 3
    assert ("É a quarta multa imposta ao condutor em período de 1 ano (multas anteriores "
            "pelas infrações de 01/06/2025, 01/09/2025 e 01/10/2025)") in sanction.explanation
    assert " e 01/09/2025 e " not in sanction.explanation


def test_escolar_no_sanction_after_the_alvara_was_revoked(sources: AmountSources) -> None:
    """`lavra amount transporte-escolar#art24_inc2 --on 2026-03-01 --previous ...`."""
    priors = [esc(date(2025, 6, 1), E24_2), esc(date(2025, 9, 1), E24_2),
              P(date(2025, 10, 1), E24_2, HOLDER, "31/2025")]
    sanction = escolar_sanction(E24_2, ESC_ON, priors, sources, holder=HOLDER)
    assert sanction.kind is SanctionKind.ALVARA_REVOGADO
    assert sanction.amount is None and not sanction.doubled
    assert sanction.revoked_by is not None and sanction.revoked_by.date == date(2025, 10, 1)
    assert sanction.explanation.startswith(
        "Alvará já revogado: a infração ocorrida em 01/10/2025 (Auto de Infração nº 31/2025) "
        "acarretou "
        "a revogação do alvará do condutor (art. 23, III, da Lei nº 4.515/2007)."
    )
    assert "multa" not in sanction.explanation.split("posterior à revogação")[0].lower()
    assert "terceira" not in sanction.explanation and "quarta" not in sanction.explanation
    assert sanction.basis == (E24_2, "transporte-escolar#art23_inc3")
    assert [i.status for i in sanction.items] == [Status.NOT_APPLICABLE]


def test_escolar_chain_stops_at_the_revocation(sources: AmountSources) -> None:
    """Infractions after a revocation are not fined nor counted: the first one is cited."""
    priors = [esc(date(2025, 3, 10), E24_1), esc(date(2025, 4, 10), E24_2),
              esc(date(2025, 5, 10), E24_3),  # third fine: revocation
              esc(date(2025, 7, 10), E24_1), esc(date(2025, 8, 10), E24_2)]
    sanction = escolar_sanction(E24_3, ESC_ON, priors, sources, holder=HOLDER)
    assert sanction.kind is SanctionKind.ALVARA_REVOGADO
    assert sanction.revoked_by is not None and sanction.revoked_by.date == date(2025, 5, 10)
    # revocation under art. 9º, § 2º, ends the chain too
    revoked = [esc(date(2025, 12, 1), "transporte-escolar#art9_par2_inc2")]
    after = escolar_sanction(DUTY, ESC_ON, revoked, sources, holder=HOLDER)
    assert after.kind is SanctionKind.ALVARA_REVOGADO and "01/12/2025" in after.explanation


def test_escolar_before_the_law(sources: AmountSources) -> None:
    with pytest.raises(InputError, match="vigora desde 03/08/2007"):
        escolar_sanction(DUTY, date(2007, 8, 2), [], sources, holder=HOLDER)


def test_escolar_fine_in_a_year_without_ufesp(sources: AmountSources) -> None:
    assert escolar_sanction(DUTY, date(2027, 3, 1), [], sources, holder=HOLDER).kind is (
        SanctionKind.ADVERTENCIA)
    with pytest.raises(ParameterError, match="UFESP para o exercício de 2027"):
        escolar_sanction(E24_1, date(2027, 3, 1), [], sources, holder=HOLDER)
