"""The case histories of ``lavra demo`` (lavra.demochains, lavra.cli.demo_chains): the
choice of their days on an explicit date, and the templates that fill what an act cites.
The demo itself, with its registry read back, is tested in test_cli.py."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from lavra.checking.content import Content
from lavra.cli.demo_chains import (
    NEXT,
    DemoClock,
    NextNumber,
    _ChainRun,
    _groups,
    chain_start,
    earliest,
    fill,
)
from lavra.config import load_config
from lavra.demochains import DemoChain, DemoStep, StepFacts
from lavra.errors import ContentPackError
from lavra.inputs.reading import TIMEZONE
from lavra.registry.store import open_registry
from lavra_americana.comum.demonstracao import (
    DEMO_CHAINS,
    ESCOLAR,
    FRETAMENTO,
    RENOVACAO_FRETAMENTO,
)


def _facts(number: str) -> StepFacts:
    return StepFacts(serie="ALV-FRET", numero=f"ALV-FRET {number}",
                     impresso=f"ALV-FRET nº {number}", data="2026-09-02",
                     valido_ate="2031-09-01", ciencia="", calculado={"valor": "140.00"})


@pytest.mark.parametrize("today", [date(2026, 12, 6), date(2027, 1, 3), date(2026, 6, 10),
                                   date(2026, 5, 1), date(2028, 3, 1)])
def test_every_chain_ends_by_yesterday_with_each_step_in_its_months(today: date) -> None:
    for chain in DEMO_CHAINS:
        start = chain_start(chain, today)
        assert start + timedelta(days=chain.length) < today
        for step in chain.steps:
            if step.months:
                assert (start + timedelta(days=step.day)).month in step.months
        days = [step.day for step in chain.steps]
        assert days == sorted(days)
    # The school chain's revalidação (escolar art. 13, § 6º) falls in May or November.
    revalidation = next(s for s in ESCOLAR.steps if s.form == "termo-revalidacao-semestral")
    assert revalidation.months == (5, 11)
    # The certificates are valid from before the first act any chain signs (an imported
    # act is not signed).
    assert earliest(DEMO_CHAINS, today).date() < min(
        chain_start(chain, today) + timedelta(days=step.day)
        for chain in DEMO_CHAINS for step in chain.steps if step.imported is None)
    # The renewal notice cites an alvará of five years before, imported with the
    # validity of fretamento art. 8º; the notice comes more than 30 days before its end.
    alvara, pedido, notice = RENOVACAO_FRETAMENTO.steps
    assert alvara.imported is not None and notice.imported is None
    assert pedido.filing is not None and pedido.day < notice.day
    start = chain_start(RENOVACAO_FRETAMENTO, today)
    row = alvara.imported.row(start, 1)
    assert row["numero"] == f"ALV-FRET nº 0001/{start.year}"
    assert row["valido_ate"] == (start.replace(year=start.year + 5)
                                 - timedelta(days=1)).isoformat()
    assert 30 < (date.fromisoformat(row["valido_ate"])
                 - (start + timedelta(days=notice.day))).days < 40
    # The renewal is asked with the 30 days' notice of art. 8º.
    assert (date.fromisoformat(row["valido_ate"]) - (start + timedelta(days=pedido.day))).days > 30
    # The lent vehicle's alvará (fretamento art. 15, VI) is imported from a year in which
    # the demo issues no ALV-FRET (no number of the series is typed twice), and is in
    # force on the day of the authorisation that cites it.
    steps = {step.name: step for step in FRETAMENTO.steps}
    start = chain_start(FRETAMENTO, today)
    lent = steps["alvara_cedido"]
    assert lent.imported is not None
    row = lent.imported.row(start + timedelta(days=lent.day), 1)
    issued = start + timedelta(days=steps["alvara"].day)
    assert row["numero"].endswith(f"/{date.fromisoformat(row['data']).year}")
    assert date.fromisoformat(row["data"]).year < issued.year
    assert date.fromisoformat(row["valido_ate"]) > start + timedelta(
        days=steps["terceiro"].day + 120)


def test_a_chain_that_cannot_fit_its_months_is_refused() -> None:
    chain = DemoChain("x", "x", (DemoStep("a", "f", 0, months=(2,)),
                                 DemoStep("b", "g", 40, months=(2,))))
    with pytest.raises(ContentPackError, match="não cabe"):
        chain_start(chain, date(2026, 12, 6))


def test_templates_take_the_numbers_the_registry_gave() -> None:
    facts = {"alvara": _facts("0001/2026")}
    template = {"numero": "{alvara.numero}", "lista": ["{alvara.impresso}", 3],
                "valor": "{alvara.calculado[valor]}"}
    assert fill(template, facts) == {"numero": "ALV-FRET 0001/2026",
                                     "lista": ["ALV-FRET nº 0001/2026", 3], "valor": "140.00"}
    with pytest.raises(ContentPackError, match="ainda não foi emitido"):
        fill("{auto.numero}", facts)


def test_the_next_number_of_a_series_is_the_registrys(tmp_path: Path) -> None:
    """``{proximo:SERIE}`` reads the registry's counter of the step's year (a fresh
    registry holds none: the first number), and names its series."""
    registry = open_registry(f"sqlite:///{tmp_path / 'registro.db'}")
    try:
        facts = {"alvara": _facts("0001/2026"), NEXT: NextNumber(registry, 2027)}
        assert fill({"selo": "{proximo:SELO-ESC}", "alvara": "{alvara.numero}"}, facts) == {
            "selo": "SELO-ESC 0001/2027", "alvara": "ALV-FRET 0001/2026"}
        with pytest.raises(ContentPackError, match="sem a série"):
            fill("{proximo}", facts)
    finally:
        registry.close()


def test_a_step_issued_together_follows_the_one_before_it_that_day() -> None:
    run = _ChainRun(DemoChain("x", "x", (
        DemoStep("a", "f", 0), DemoStep("b", "g", 0, hour="17:01", together=True),
        DemoStep("c", "h", 3))), date(2026, 3, 2))
    assert [[step.name for step in group] for group in _groups(run)] == [["a", "b"], ["c"]]
    for wrong in (DemoStep("b", "g", 0, together=True),  # the same moment
                  DemoStep("b", "g", 1, hour="09:00", together=True)):  # the next day
        run = _ChainRun(DemoChain("x", "x", (DemoStep("a", "f", 0), wrong)), date(2026, 3, 2))
        with pytest.raises(ContentPackError, match="junto com o passo anterior"):
            _groups(run)
    with pytest.raises(ContentPackError, match="junto com o passo anterior"):
        _groups(_ChainRun(DemoChain("x", "x", (DemoStep("b", "g", 0, together=True),)),
                          date(2026, 3, 2)))


def test_an_act_printing_a_next_number_is_followed_by_the_act_taking_it() -> None:
    """Each alvará escolar of the demo prints the selo issued together with it (escolar
    art. 3º, § 2º): the step right after it, of the series it names, ``together``."""
    content = Content(load_config().pack_dir)
    printing = 0
    for chain in DEMO_CHAINS:
        for step, after in zip(chain.steps, (*chain.steps[1:], None), strict=True):
            named = [str(item.template).split(f"{{{NEXT}:")[1].split("}")[0]
                     for item in step.fills if f"{{{NEXT}:" in str(item.template)]
            if step.form == "alvara-transporte-escolar" and step.imported is None:
                assert named == ["SELO-ESC"], (chain.name, step.name)
            for series in named:
                printing += 1
                assert after is not None and after.together, (chain.name, step.name)
                assert content.form(after.form).series == series
    assert printing == 2


def test_the_clock_is_settable() -> None:
    moment = datetime(2026, 5, 12, 17, 0, tzinfo=TIMEZONE)
    clock = DemoClock(moment)
    assert clock() == moment
    clock.moment = moment + timedelta(days=3)
    assert clock().day == 15


def _alvaras_esc(today: date) -> list[tuple[date, str, int]]:
    """The demo's ALV-ESC acts as lavra.cli.demo_chains.run_chains numbers them, walked
    with the registry's rule: first the imported ones, in the order of their dates (each
    takes the number its row prints for the counter's next one and raises the counter to
    it), then the signed ones on the one timeline (each the counter's next number). Each:
    (date of the act, chain:step, number); imported steps' names end in "*"."""
    steps = [
        (datetime.combine(chain_start(chain, today) + timedelta(days=step.day),
                          datetime.strptime(step.hour, "%H:%M").time()), index,
         f"{chain.name}:{step.name}", step)
        for index, chain in enumerate(DEMO_CHAINS) for step in chain.steps
        if step.form == "alvara-transporte-escolar"]
    imported = sorted(
        (date.fromisoformat(step.imported.row(moment.date(), 1)["data"]), index, name,
         step.imported, moment.date())
        for moment, index, name, step in steps if step.imported is not None)
    assert len(imported) == 3
    counter: dict[int, int] = {}
    walked = []
    for issued, _, name, chain_import, day in imported:
        following = counter.get(day.year, 0) + 1
        row = chain_import.row(day, following)
        assert row["numero"] == f"ALV-ESC nº {following:04d}/{day.year}", row
        assert date.fromisoformat(row["data"]) == issued <= day
        counter[day.year] = following
        walked.append((issued, name + "*", following))
    for moment, _, name, step in sorted(steps, key=lambda entry: entry[:2]):
        if step.imported is None:
            day = moment.date()
            counter[day.year] = counter.get(day.year, 0) + 1
            walked.append((day, name, counter[day.year]))
    return walked


@pytest.mark.parametrize("today", [date(2026, 12, 6), date(2027, 1, 2), date(2027, 2, 6),
                                   date(2027, 3, 1), date(2028, 2, 29), date(2026, 5, 1)])
def test_imported_escolar_alvaras_come_before_the_demos_own(today: date) -> None:
    """The escolar alvarás from before lavra are imported first, as the first numbers of
    their year, and each is dated before the first alvará the demo signs in that year:
    in each year the series runs 0001, 0002, … in date order, imported ones first, and
    the alvarás the demo signs continue from them (low numbers, not
    ``ALV-ESC nº 1466/2026``)."""
    years: dict[int, list[tuple[int, date, bool]]] = {}
    for day, name, number in _alvaras_esc(today):
        years.setdefault(day.year, []).append((number, day, name.endswith("*")))
    for acts in years.values():
        acts.sort()
        assert [number for number, _, _ in acts] == list(range(1, len(acts) + 1))
        assert [day for _, day, _ in acts] == sorted(day for _, day, _ in acts)
        imported = [day for _, day, from_before in acts if from_before]
        own = [day for _, day, from_before in acts if not from_before]
        assert [from_before for *_, from_before in acts] == sorted(
            (from_before for *_, from_before in acts), reverse=True)
        if imported and own:
            assert max(imported) < min(own)


def test_the_demo_numbers_its_own_alvaras_after_the_imported() -> None:
    """On 6 December 2026 the alvarás from before lavra in force in 2026, issued on 2
    January, are the 1st and the 2nd of the year, and the demo's own school alvarás the
    3rd and the 4th (the one not renewed, of 2025, the 1st of its year)."""
    assert _alvaras_esc(date(2026, 12, 6)) == [
        (date(2025, 1, 2), "vacancia-escolar:alvara*", 1),
        (date(2026, 1, 2), "ocorrencias-escolar:alvara*", 1),
        (date(2026, 1, 2), "renovacao-escolar:alvara*", 2),
        (date(2026, 5, 31), "revogacao-escolar:alvara", 3),
        (date(2026, 10, 1), "escolar:alvara", 4),
    ]
