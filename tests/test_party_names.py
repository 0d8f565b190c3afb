"""A party's new name is shown to staff as a change, never taken silently (issue 22, § 6).

An act naming a CPF or CNPJ the registry knows under another name gets an item naming
both names: a company's new razão social only warns (lawful: the alteração of its
contrato social) and, once the act is issued, the registry takes it and keeps the old
one; a person's other name blocks the act (a change of a person's name needs the civil
registry's proof). Accents, case and spacing are no change. Over a fresh SQLite
registry signing on a fixed clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

import pytest
from formcases import example
from issuers import clocked_issuer

from lavra.checking.report import Item, Status
from lavra.documents import Engine
from lavra.issuing import IncompleteError, Issuer
from lavra.registry.records import LOCAL_TZ

AIF = "auto-infracao-fretamento"
AIE = "auto-infracao-escolar"
DAY = date(2026, 3, 2)  # the autos' examples
CNPJ = "65563842000105"
CPF = "52998224725"


def escolar(engine: Engine) -> dict[str, Any]:
    data = example(engine, AIE)
    data["condutor"]["alvara"] = "nº 7/2019"  # on paper: not one of lavra's ALV-ESC
    return data


@pytest.fixture(scope="module")
def issuer(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Issuer]:
    """An auto of each law: the company and the driver of the examples registered."""
    now = datetime(2026, 3, 2, 15, tzinfo=LOCAL_TZ)
    issuer = clocked_issuer(engine, tmp_path_factory.mktemp("nomes") / "dados", now)
    try:
        issuer.issue(AIF, example(engine, AIF), example_values=True)
        issuer.issue(AIE, escolar(engine), example_values=True)
        yield issuer
    finally:
        issuer.close()


def name_items(engine: Engine, issuer: Issuer, form: str, data: dict[str, Any]) -> list[Item]:
    report = engine.prepare(form, data, issued_on=DAY, history=issuer.history,
                            example_values=True).report
    return [i for i in report.items if i.requirement.startswith("parte.nome_registrado.")]


def test_the_same_name_told_otherwise_is_no_change(engine: Engine, issuer: Issuer) -> None:
    data = example(engine, AIF)
    data["empresa"]["razao_social"] = "  VIACAO exemplo de   fretamento LTDA. "
    assert name_items(engine, issuer, AIF, data) == []
    driver = escolar(engine)
    driver["condutor"]["nome"] = "jose exemplo dos santos"
    assert name_items(engine, issuer, AIE, driver) == []


def test_a_persons_other_name_blocks_the_act_naming_both(engine: Engine,
                                                         issuer: Issuer) -> None:
    data = escolar(engine)
    data["condutor"]["nome"] = "Joaquim Exemplo Pereira"
    (item,) = name_items(engine, issuer, AIE, data)
    assert item.status is Status.INVALID and item.field == "/condutor/nome"
    assert "o CPF 529.982.247-25 consta do registro como «José Exemplo dos Santos»" \
        in item.message
    assert "«Joaquim Exemplo Pereira»" in item.message and "certidão" in item.message
    with pytest.raises(IncompleteError):
        issuer.issue(AIE, data, example_values=True)
    assert issuer.registry.party_names(CPF) == ("José Exemplo dos Santos",)


def test_a_companys_new_razao_social_warns_and_is_kept_with_the_old(
    engine: Engine, issuer: Issuer
) -> None:
    data = example(engine, AIF)
    data["empresa"]["razao_social"] = "Exemplo Turismo e Fretamento Ltda."
    (item,) = name_items(engine, issuer, AIF, data)
    assert item.status is Status.MET and item.field == "/empresa/razao_social"
    assert item.message.startswith("Alteração de razão social: o CNPJ 65.563.842/0001-05 "
                                   "consta do registro como «Viação Exemplo de Fretamento "
                                   "Ltda.», e este ato o nomeia «Exemplo Turismo e "
                                   "Fretamento Ltda.»")
    issued = issuer.issue(AIF, data, example_values=True)  # a warning does not block
    assert issued.report.complete
    registry = issuer.registry
    assert registry.party_name(CNPJ) == "Exemplo Turismo e Fretamento Ltda."
    assert registry.party_names(CNPJ) == ("Viação Exemplo de Fretamento Ltda.",
                                          "Exemplo Turismo e Fretamento Ltda.")
    assert name_items(engine, issuer, AIF, data) == []  # now the registered name
    # the old name again is a change again, and the message names the earlier ones
    (back,) = name_items(engine, issuer, AIF, example(engine, AIF))
    assert "«Exemplo Turismo e Fretamento Ltda.»" in back.message
