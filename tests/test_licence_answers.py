"""The licence lookups of one check read in one statement (:mod:`lavra.registry.
licence_reads`, :meth:`lavra.issuing.RegistryHistory.answering`) give each lookup the
answer it reads on its own: the licence by number (printed, or bare of a kind), the
holder's licences of a kind, the vehicle's licences, each on the day asked; any other
question is read from the registry. Over SQLite and PostgreSQL, with real acts."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from issuers import state_registry
from test_licensing_state import act, alvara_fretamento, example

from lavra.issuing import RegistryHistory
from lavra.registry.licence_reads import OF_VEHICLE, LicenceQuestions
from lavra.registry.store import Registry

CNPJ = "65.563.842/0001-05"
REGISTRATION = "certidao-registro-fretamento"


@pytest.fixture
def registry(registry_url: str) -> Any:
    yield from state_registry(registry_url)


def _lookups(history: RegistryHistory, number: str, on: date) -> list[Any]:
    return [
        history.licence_status(number, "alvara-fretamento"),
        history.holder_licences(CNPJ, on, REGISTRATION),
        history.vehicle_licences("ABC1D23", on),
        history.vehicle_licences("ABC-1234", on),  # the old plate: same vehicle
    ]


def test_one_read_answers_as_each_lookup(registry: Registry) -> None:
    act(registry, "CRE-FRET", REGISTRATION, example(REGISTRATION), on=date(2026, 1, 5),
        computed={"valido_ate": "2031-01-04"})
    first = alvara_fretamento(registry, on=date(2021, 3, 2), until=date(2026, 3, 1))
    bare = f"{first.number:04d}/{first.year}"
    printed = f"ALV-FRET nº {bare}"
    alvara_fretamento(registry, renovacao=True, alvara_anterior=printed,
                      vencimento_alvara_anterior="2026-03-01")
    history = RegistryHistory(registry)
    for number in (printed, bare):  # with its series, and bare of the kind
        questions = LicenceQuestions(number=number, kind="alvara-fretamento", holder=CNPJ,
                                     holder_kind=REGISTRATION, placa="ABC1D23")
        answered = history.answering(questions)
        assert answered is not history and answered._answers is not None
        assert len(answered._answers[1][OF_VEHICLE]) == 2  # read: both, every status
        for on in (date(2026, 2, 1), date(2026, 4, 1)):  # before and after the renewal
            expected = _lookups(history, number, on)
            # the renewed alvará no longer holds the vehicle's place: the renewal does
            assert expected[0] is not None and expected[1] and len(expected[2]) == 1
            assert _lookups(answered, number, on) == expected
        # a question not asked is read as before
        assert answered.holder_licences(CNPJ, date(2026, 4, 1)) == history.holder_licences(
            CNPJ, date(2026, 4, 1))
        assert answered.licence_status(number, None) == history.licence_status(number, None)
    unknown = history.answering(LicenceQuestions(
        number="ALV-FRET nº 0999/2026", kind="alvara-fretamento", holder="11.222.333/0001-81",
        holder_kind=REGISTRATION, placa="XYZ9Z99"))
    assert unknown.licence_status("ALV-FRET nº 0999/2026", "alvara-fretamento") is None
    assert unknown.holder_licences("11.222.333/0001-81", date(2026, 4, 1), REGISTRATION) == ()
    assert unknown.vehicle_licences("XYZ9Z99", date(2026, 4, 1)) == ()
    # nothing a lookup could read (no number, CNPJ or plate): no read, the history itself
    assert history.answering(LicenceQuestions(number="sem número", holder="123",
                                              holder_kind=REGISTRATION, placa="?")) is history
