"""The licensing state's guards in the completeness report: what the registry would
refuse when it records an act (a barred holder, a vehicle or person holding a licence
in force, an act resting on a licence it lacks or that ended) is an item of the draft,
citing its article, before anything is numbered. Through ``Engine.prepare`` with the
registry as history, over acts recorded with the pack's effects."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from issuers import state_registry
from test_licensing_state import act, alvara_fretamento, cassacao, example

from lavra.checking.report import Item, Status
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import RegistryHistory
from lavra.registry.database import database_url
from lavra.registry.effects import Act, Bar, Effect, Grant
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry
from lavra_americana import pacote
from lavra_americana.transporte_escolar.estado import transferencia


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[Registry]:
    yield from state_registry(database_url(tmp_path / "dados"))


def items_at(engine: Engine, registry: Registry, form: str, data: dict[str, Any], on: date,
             field: str, issued_on: date | None = None) -> list[Item]:
    prepared = engine.prepare(form, data, on, history=RegistryHistory(registry),
                              issued_on=issued_on)
    return [i for i in prepared.report.items if i.field == field and i.status != Status.MET]


def refused(engine: Engine, registry: Registry, form: str, data: dict[str, Any], on: date,
            field: str, *, names: str, article: str) -> Item:
    """The one item at ``field``: *invalid*, naming the act ``names`` and ``article``."""
    [item] = items_at(engine, registry, form, data, on, field)
    assert item.status == Status.INVALID
    assert names in item.message
    assert article in item.message
    return item


def on_vehicle(form: str, placa: str, renavam: str | None = None) -> dict[str, Any]:
    """The example of ``form`` with its vehicle's plate (and RENAVAM) replaced."""
    data = example(form)
    data["veiculo"] = {**data["veiculo"], "placa": placa,
                       **({} if renavam is None else {"renavam": renavam})}
    return data


def test_a_company_barred_by_a_cassacao_gets_no_new_alvara(
    engine: Engine, registry: Registry
) -> None:
    old = alvara_fretamento(registry, on=date(2026, 3, 2))
    cas = cassacao(registry, old, on=date(2026, 4, 20))
    data = example("alvara-fretamento")
    item = refused(engine, registry, "alvara-fretamento", data, date(2026, 12, 1),
                   "/empresa/cnpj", names=cas.printed, article="art. 22, parágrafo único")
    assert "até 20/04/2027 (art. 22, parágrafo único, da Lei nº 4.419/2006), pela cassação " \
        f"{cas.printed}" in item.message
    assert "fretamento#art22_par1u" in item.basis
    # The day after the bar, nothing stands in the way.
    assert items_at(engine, registry, "alvara-fretamento", data, date(2027, 4, 21),
                    "/empresa/cnpj") == []


def test_a_company_barred_by_a_cassacao_gets_no_particular_alvara(
    engine: Engine, registry: Registry
) -> None:
    """fretamento art. 22, parágrafo único: the ALV-PART is the same Alvará de Licença
    de Circulação (art. 12) the bar forbids (the reading: fretamento.servico_particular)."""
    old = alvara_fretamento(registry, on=date(2026, 3, 2))
    cas = cassacao(registry, old, on=date(2026, 4, 20))
    form = "alvara-servico-particular-fretamento"
    data = example(form)
    data["empresa"]["razao_social"] = "Viação Exemplo de Fretamento Ltda."
    item = refused(engine, registry, form, data, date(2026, 12, 1), "/empresa/cnpj",
                   names=cas.printed, article="art. 22, parágrafo único")
    assert item.message.startswith("A empresa ou entidade está impedida de obter novo "
                                   "Alvará de Licença de Circulação até 20/04/2027")
    assert "fretamento#art22_par1u" in item.basis
    assert items_at(engine, registry, form, data, date(2027, 4, 21), "/empresa/cnpj") == []
    # The registry refuses the record as well, naming the cassação; nothing is written.
    with pytest.raises(InputError) as barred:
        act(registry, "ALV-PART", form, data, on=date(2026, 12, 1),
            computed={"inicio_vigencia": "2026-12-01", "valido_ate": "2031-11-30"})
    assert cas.printed in barred.value.message
    assert "20/04/2027" in barred.value.message
    assert registry.by_number("0001/2026", series="ALV-PART") is None


def alvara_escolar(registry: Registry, *, on: date = date(2026, 3, 2)) -> Any:
    return act(registry, "ALV-ESC", "alvara-transporte-escolar",
               example("alvara-transporte-escolar"), on=on,
               computed={"inicio_vigencia": on.isoformat(), "valido_ate": "2026-12-31"})


def resting_on(form: str, number: str) -> dict[str, Any]:
    """The example of ``form`` resting on the alvará nº ``number``."""
    data = example(form)
    data["alvara"] = {**data.get("alvara", {}), "numero": number, "valido_ate": "2026-12-31"}
    return data


def test_an_act_resting_on_a_number_of_lavra_the_registry_lacks_is_refused(
    engine: Engine, registry: Registry
) -> None:
    alvara_escolar(registry)
    data = resting_on("selo-identificacao", "ALV-ESC nº 0099/2026")
    refused(engine, registry, "selo-identificacao", data, date(2026, 3, 10), "/alvara/numero",
            names="ALV-ESC nº 0099/2026 não consta do registro", article="art. 3º, § 2º")


@pytest.mark.parametrize(("form", "article"), [
    ("selo-identificacao", "art. 3º, § 2º"),
    ("autorizacao-publicidade-escolar", "art. 17, § 2º"),
    ("termo-revalidacao-semestral", "art. 13, § 6º"),
])
def test_an_act_resting_on_a_revoked_alvara_is_refused_citing_its_article(
    engine: Engine, registry: Registry, form: str, article: str
) -> None:
    alvara = alvara_escolar(registry)
    revoke = example("decisao-revogacao-alvara")
    revoke["alvara"] = {**revoke.get("alvara", {}), "numero": alvara.printed}
    rev = act(registry, "REV-ESC", "decisao-revogacao-alvara", revoke, on=date(2026, 5, 4))
    refused(engine, registry, form, resting_on(form, alvara.printed), date(2026, 6, 1),
            "/alvara/numero", article=f"({article}, da Lei nº 4.515/2007)",
            names=f"{alvara.printed} não está em vigor: revogado em 04/05/2026 pelo {rev.printed}")


def test_a_person_holding_a_school_licence_gets_no_second_one(
    engine: Engine, registry: Registry
) -> None:
    held = alvara_escolar(registry)
    data = on_vehicle("alvara-transporte-escolar", "OUT2B34", "00000000191")
    refused(engine, registry, "alvara-transporte-escolar", data, date(2026, 6, 1),
            "/titular/cpf", names=held.printed, article="art. 14")


def test_a_vehicle_holding_an_operating_alvara_gets_no_other(
    engine: Engine, registry: Registry
) -> None:
    held = alvara_fretamento(registry)
    data = on_vehicle("alvara-transporte-escolar", "ABC1D23")
    refused(engine, registry, "alvara-transporte-escolar", data, date(2026, 6, 1),
            "/veiculo/placa", names=held.printed, article="art. 1º, § 1º")


def test_a_vehicle_holding_an_operating_alvara_gets_no_particular_alvara(
    engine: Engine, registry: Registry
) -> None:
    held = alvara_fretamento(registry)
    data = on_vehicle("alvara-servico-particular-fretamento", "ABC-1D23")
    item = refused(engine, registry, "alvara-servico-particular-fretamento", data,
                   date(2026, 6, 1), "/veiculo/placa", names=held.printed, article="art. 8º")
    assert item.basis == ("fretamento#art8",)
    # another vehicle: nothing stands in the way
    other = on_vehicle("alvara-servico-particular-fretamento", "OUT2B34")
    assert items_at(engine, registry, "alvara-servico-particular-fretamento", other,
                    date(2026, 6, 1), "/veiculo/placa") == []


def test_a_school_alvara_is_refused_while_the_transfer_bar_runs(
    engine: Engine, registry: Registry
) -> None:
    """Escolar art. 15, § 2º, read from the bar the termo set in the state (the example's
    titular is the termo's cedente), through the 3rd anniversary inclusive."""
    termo = act(registry, "TRF-ESC", "termo-transferencia-licenca",
                example("termo-transferencia-licenca"), on=date(2026, 11, 27))
    data = example("alvara-transporte-escolar")
    data["data_expedicao"] = "2029-11-27"
    item = refused(engine, registry, "alvara-transporte-escolar", data, date(2029, 11, 27),
                   "/titular/cpf", names=f"pelo termo de transferência {termo.printed}",
                   article="(art. 15, § 2º, da Lei nº 4.515/2007)")
    assert "até 27/11/2029" in item.message
    assert item.requirement == "titular.cpf.transferencia"
    data["data_expedicao"] = "2029-11-28"
    assert items_at(engine, registry, "alvara-transporte-escolar", data, date(2029, 11, 28),
                    "/titular/cpf") == []


def test_the_transfer_bar_lasts_what_the_termo_printed() -> None:
    """escolar art. 15, § 2º: the state bars the cedente until the last day the signed
    termo printed (its parameter), not a length of its own; an imported termo without
    the termo's computation gets the 3 years of the law."""
    data = {"cedente": {"nome": "Ana Cedente", "cpf": "52998224725"},
            "cessionario": {"nome": "Beto Cessionário", "cpf": "11144477735"},
            "licenca": {"numero": "ALV-ESC nº 0003/2026"}}

    def bar_until(computed: dict[str, Any]) -> date:
        termo = Act(1, "termo-transferencia-licenca", "TRF-ESC", "TRF-ESC nº 0001/2026",
                    data, computed, date(2026, 3, 10), None)
        [bar] = [e for e in transferencia(termo) if isinstance(e, Bar)]
        return bar.until

    printed = {"impedimento_cedente": {"anos": 2, "ultimo_dia": "2028-03-10"}}
    assert bar_until(printed) == date(2028, 3, 10)
    assert bar_until({}) == date(2029, 3, 10)


def test_a_renavam_of_another_plate_and_a_cnh_of_another_person_are_items(
    engine: Engine, registry: Registry
) -> None:
    """One RENAVAM per vehicle, one person per CNH: the conflict the record would refuse
    is an item of the draft, with the same words, citing the provision of the act that
    names the vehicle or the driver (escolar art. 3º for the alvará)."""
    alvara_fretamento(registry)  # ABC1D23, RENAVAM 80549125947
    data = example("alvara-transporte-escolar")  # EXE1A23
    data["veiculo"]["renavam"] = "80549125947"
    [item] = items_at(engine, registry, "alvara-transporte-escolar", data, date(2026, 3, 10),
                      "/veiculo/renavam")
    assert item.status == Status.INVALID
    assert item.message.startswith(
        "O RENAVAM 80549125947 consta do cadastro no veículo de placa ABC1D23")
    assert "transporte-escolar#art3" in item.basis
    act(registry, "ALV-ESC", "alvara-transporte-escolar", example("alvara-transporte-escolar"),
        on=date(2026, 3, 10), computed={"valido_ate": "2026-12-31"})
    other = example("alvara-transporte-escolar")  # José's CNH, on someone else
    other["veiculo"].update(placa="EXE9Z99", renavam="02261642487")
    other["titular"].update(cpf="111.444.777-35", nome="Outra Pessoa")
    [item] = items_at(engine, registry, "alvara-transporte-escolar", other, date(2026, 3, 10),
                      "/titular/cnh/numero")
    assert item.status == Status.INVALID
    assert "consta do cadastro em nome de José Exemplo dos Santos" in item.message
    assert "transporte-escolar#art3" in item.basis
    # the plate's own RENAVAM and the holder's own CNH raise nothing
    mine = example("alvara-transporte-escolar")
    for field in ("/veiculo/renavam", "/titular/cnh/numero"):
        assert not [i for i in items_at(engine, registry, "alvara-transporte-escolar", mine,
                                        date(2026, 3, 10), field)
                    if i.requirement.startswith("identidade.")]


def escolar_with_selo(registry: Registry) -> tuple[IssuedRecord, IssuedRecord]:
    """An ALV-ESC in force to 31/12/2026 and its SELO-ESC, both of 10/03/2026."""
    alvara = act(registry, "ALV-ESC", "alvara-transporte-escolar",
                 example("alvara-transporte-escolar"), on=date(2026, 3, 10),
                 computed={"valido_ate": "2026-12-31"})
    data = example("selo-identificacao")
    data["alvara"]["numero"] = alvara.printed
    return alvara, act(registry, "SELO-ESC", "selo-identificacao", data,
                       on=date(2026, 3, 10), computed={"valido_ate": "2026-12-31"})


def test_the_auto_names_the_selo_the_registry_holds_in_force(
    engine: Engine, registry: Registry
) -> None:
    """Escolar art. 3º, § 2º: the selo of the vehicle is the registry's SELO-ESC in force
    (not cancelled, not ended); a typed number that differs is refused."""
    selo = escolar_with_selo(registry)[1]
    auto = example("auto-infracao-escolar")  # EXE1A23, typed «SELO-2026-0042»
    auto["ocorrencia"]["data"] = "2026-05-04"
    [item] = items_at(engine, registry, "auto-infracao-escolar", auto, date(2026, 5, 4),
                      "/veiculo/selo")
    assert item.status == Status.INVALID
    assert f"conforme o registro, é o {selo.printed}" in item.message
    assert "«SELO-2026-0042»" in item.message and "transporte-escolar#art3_par2" in item.basis
    auto["veiculo"]["selo"] = "SELO-ESC 0001/2026"
    assert items_at(engine, registry, "auto-infracao-escolar", auto, date(2026, 5, 4),
                    "/veiculo/selo") == []
    del auto["veiculo"]["selo"]
    prepared = engine.prepare("auto-infracao-escolar", auto, date(2026, 5, 4),
                              history=RegistryHistory(registry))
    assert prepared.computed["selo_registro"] == "SELO-ESC 0001/2026"
    registry.cancel(selo.series, selo.year, selo.number, reason="erro", by="Chefia")
    auto["veiculo"]["selo"] = "SELO-ESC 0001/2026"  # cancelled: no longer the vehicle's
    [item] = items_at(engine, registry, "auto-infracao-escolar", auto, date(2026, 5, 4),
                      "/veiculo/selo")
    assert "não consta do registro como selo de identificação em vigor" in item.message


def test_a_new_alvara_does_not_print_a_selo_already_issued(
    engine: Engine, registry: Registry
) -> None:
    """Escolar art. 3º, § 2º: the selo goes with its own alvará; a SELO-ESC the registry
    issued for another is refused in a new alvará (a renewal gets a new selo)."""
    first, selo = escolar_with_selo(registry)
    renewal = example("alvara-transporte-escolar")
    renewal["selo_identificacao"] = "SELO-ESC 0001/2026"
    [item] = items_at(engine, registry, "alvara-transporte-escolar", renewal,
                      date(2026, 3, 10), "/selo_identificacao")
    assert item.status == Status.INVALID
    assert f"O selo {selo.printed} já foi expedido e corresponde ao alvará" in item.message
    assert item.message.endswith("numerado na série SELO-ESC; deixe o campo em branco: ao "
                                 "emitir o alvará, o registro reserva o número SELO-ESC "
                                 "seguinte e o imprime.")
    assert "transporte-escolar#art3_par2" in item.basis
    renewal["selo_identificacao"] = "SELO-ESC 0002/2026"  # reserved, not issued yet
    assert items_at(engine, registry, "alvara-transporte-escolar", renewal,
                    date(2026, 3, 10), "/selo_identificacao", date(2026, 3, 10)) == []
    # Issue 22, item 3: a paper selo (outside lavra's series) is no new alvará's selo,
    # in an expedição nor in a renovação (art. 13, § 3º).
    for modalidade in ("expedicao", "renovacao"):
        renewal["modalidade"] = modalidade
        if modalidade == "renovacao":
            renewal["alvara_anterior"] = {"numero": first.printed, "valido_ate": "2026-12-31"}
        renewal["selo_identificacao"] = "SELO-2026-0042"
        [item] = items_at(engine, registry, "alvara-transporte-escolar", renewal,
                          date(2026, 3, 10), "/selo_identificacao")
        assert item.status == Status.INVALID and "transporte-escolar#art3_par2" in item.basis
        assert ("O número do selo de identificação «SELO-2026-0042» não é da série SELO-ESC"
                in item.message)
        assert "art. 3º, § 2º" in item.message and "«SELO-ESC 0001/2026»" not in item.message
        assert item.message.endswith("Deixe o campo em branco: ao emitir o alvará, o "
                                     "registro reserva o número SELO-ESC seguinte e o imprime.")
    # Issue 22, item 4: a number of the series too long for any selo is said to be so.
    renewal["selo_identificacao"] = "SELO-ESC 99999999999/2026"
    [item] = items_at(engine, registry, "alvara-transporte-escolar", renewal,
                      date(2026, 3, 10), "/selo_identificacao")
    assert item.status == Status.INVALID and "transporte-escolar#art3_par2" in item.basis
    assert "«SELO-ESC 99999999999/2026» não é válido: tem mais de 9 algarismos" in item.message
    assert "não é da série" not in item.message
    renewal["selo_identificacao"] = "SELO-ESC nº 0002/2026"  # lavra's, not issued yet
    assert items_at(engine, registry, "alvara-transporte-escolar", renewal,
                    date(2026, 3, 10), "/selo_identificacao", date(2026, 3, 10)) == []


# ---------------------------------------------------------------- at record time
# The registry checks again, in the record's own transaction, what the form checked
# when the draft was prepared (lavra.registry.standing): the acts below are recorded
# without the form's check, as a run recording what it checked at plan time.

def selo_on(registry: Registry, number: str, on: date) -> Any:
    data = resting_on("selo-identificacao", number)
    return act(registry, "SELO-ESC", "selo-identificacao", data, on=on,
               computed={"inicio_vigencia": on.isoformat(), "valido_ate": "2026-12-31"})


def revoked(registry: Registry, alvara: Any, on: date) -> Any:
    data = example("decisao-revogacao-alvara")
    data["alvara"] = {**data.get("alvara", {}), "numero": alvara.printed}
    return act(registry, "REV-ESC", "decisao-revogacao-alvara", data, on=on)


def test_the_record_refuses_an_accessory_on_an_alvara_missing_ended_or_past_its_term(
    registry: Registry,
) -> None:
    alvara = alvara_escolar(registry)  # in force 02/03/2026 to 31/12/2026
    cited = "(art. 3º, § 2º, da Lei nº 4.515/2007)"
    with pytest.raises(InputError) as missing:
        selo_on(registry, "ALV-ESC nº 0099/2026", date(2026, 3, 10))
    assert missing.value.message == (
        "O ALV-ESC nº 0099/2026, a que o SELO-ESC nº 0001/2026 se vincula, não consta do "
        "cadastro: o número é da série ALV-ESC do lavra e nenhum ato expedido ou importado "
        f"o tem; o SELO-ESC nº 0001/2026 não pode ser expedido {cited}.")
    with pytest.raises(InputError) as past:
        selo_on(registry, alvara.printed, date(2027, 1, 5))
    assert (f"O {alvara.printed}, a que o SELO-ESC nº 0001/2027 se vincula, venceu em "
            "31/12/2026, antes do início do SELO-ESC nº 0001/2027 (05/01/2027)") \
        in past.value.message and cited in past.value.message
    revoked(registry, alvara, date(2026, 5, 4))
    with pytest.raises(InputError) as ended:
        selo_on(registry, alvara.printed, date(2026, 6, 1))
    assert (f"O {alvara.printed}, a que o SELO-ESC nº 0001/2026 se vincula, não está em "
            f"vigor (revogado desde 04/05/2026); o SELO-ESC nº 0001/2026 não pode ser "
            f"expedido {cited}.") == ended.value.message
    assert registry.next_number("SELO-ESC", 2026) == 1  # nothing numbered nor recorded
    assert registry.next_number("SELO-ESC", 2027) == 1
    # A paper alvará outside lavra's series is the form's to check (attested).
    assert selo_on(registry, "0123/2015", date(2026, 6, 1)).printed == "SELO-ESC nº 0001/2026"


def test_the_record_says_the_alvara_an_accessory_rests_on_was_cancelled(
    engine: Engine, registry: Registry,
) -> None:
    """A base issued and then cancelled is not "missing": the refusal says it was
    cancelled, when (local date) and by whom."""
    alvara = alvara_escolar(registry)
    registry.cancel(alvara.series, alvara.year, alvara.number, reason="erro de digitação",
                    by="Chefia de Permissões")
    record = registry.get(alvara.series, alvara.year, alvara.number)
    assert record is not None and record.cancelled_at_local is not None
    with pytest.raises(InputError) as cancelled:
        selo_on(registry, alvara.printed, date(2026, 3, 10))
    assert cancelled.value.message == (
        f"O {alvara.printed}, a que o SELO-ESC nº 0001/2026 se vincula, foi cancelado em "
        f"{record.cancelled_at_local:%d/%m/%Y}, por Chefia de Permissões, e não concede "
        "licença alguma; o SELO-ESC nº 0001/2026 não pode ser expedido (art. 3º, § 2º, da "
        "Lei nº 4.515/2007).")
    assert "nenhum ato expedido" not in cancelled.value.message
    assert registry.next_number("SELO-ESC", 2026) == 1
    # as the draft's check says it (with the reason)
    [item] = items_at(engine, registry, "selo-identificacao",
                      resting_on("selo-identificacao", alvara.printed), date(2026, 3, 10),
                      "/alvara/numero")
    assert item.status == Status.INVALID
    assert f"{alvara.printed} foi cancelado (erro de digitação)" in item.message


def test_the_record_refuses_renewing_a_cassated_or_renewed_alvara(registry: Registry) -> None:
    old = alvara_fretamento(registry, on=date(2021, 3, 2), until=date(2026, 3, 1))
    new = alvara_fretamento(registry, on=date(2026, 2, 20), until=date(2031, 2, 19),
                            renovacao=True, alvara_anterior=old.printed,
                            vencimento_alvara_anterior="2026-03-01")
    with pytest.raises(InputError) as renewed:
        alvara_fretamento(registry, on=date(2026, 2, 21), until=date(2031, 2, 20),
                          renovacao=True, alvara_anterior=old.printed,
                          vencimento_alvara_anterior="2026-03-01")
    assert renewed.value.message.startswith(
        f"O {old.printed} está renovado desde 20/02/2026: só se renova licença em vigor ou "
        "vencida, e o ALV-FRET nº 0002/2026 não pode renová-lo (")
    assert "Lei nº 4.419/2006" in renewed.value.message
    cassacao(registry, new, on=date(2026, 4, 20))  # bar until 20/04/2027
    with pytest.raises(InputError) as cassated:
        alvara_fretamento(registry, on=date(2027, 5, 3), until=date(2032, 5, 2),
                          renovacao=True, alvara_anterior=new.printed,
                          vencimento_alvara_anterior="2031-02-19")
    assert cassated.value.message.startswith(
        f"O {new.printed} está cassado desde 20/04/2026: só se renova licença em vigor ou "
        "vencida, e o ALV-FRET nº 0001/2027 não pode renová-lo (")
    assert registry.next_number("ALV-FRET", 2027) == 1  # nothing numbered nor recorded
    view = registry.licence_of(new.id)
    assert view is not None and view.status == "cassated"


def test_the_record_refuses_ending_an_alvara_already_ended(registry: Registry) -> None:
    alvara = alvara_escolar(registry)
    revoked(registry, alvara, date(2026, 5, 4))
    with pytest.raises(InputError) as again:
        revoked(registry, alvara, date(2026, 6, 1))
    assert again.value.message.startswith(
        f"O {alvara.printed} está revogado desde 04/05/2026: o REV-ESC nº 0002/2026 não "
        "pode declará-lo revogado (art. ")
    assert "da Lei nº 4.515/2007)." in again.value.message
    assert registry.next_number("REV-ESC", 2026) == 2  # nothing numbered nor recorded
    assert registry.rebuild_state(apply=False).same


def test_a_replayed_accessory_on_an_ended_alvara_is_a_divergence(registry: Registry) -> None:
    """An act recorded before the record-time guard (a version of the pack whose selo
    rested on nothing) is kept by the rebuild and reported, naming the rule."""
    effects = dict(pacote().effects)
    current = effects["selo-identificacao"]

    def unguarded(act: Act) -> Sequence[Effect]:
        return [dataclasses.replace(e, rests_on=None) if isinstance(e, Grant) else e
                for e in current(act)]

    registry.use_effects({**effects, "selo-identificacao": unguarded})
    alvara = alvara_escolar(registry)
    revoked(registry, alvara, date(2026, 5, 4))
    selo = selo_on(registry, alvara.printed, date(2026, 6, 1))
    registry.use_effects(pacote().effects)
    [line] = registry.rebuild_state(apply=True).divergences
    assert line.startswith(f"Divergência: o {selo.printed} (emitido em 01/06/2026) "
                           "contraria regra hoje em vigor")
    assert (f"O {alvara.printed}, a que o {selo.printed} se vincula, não está em vigor "
            "(revogado desde 04/05/2026)") in line
    assert line.endswith("O ato permanece registrado como emitido.")
    assert registry.public_divergences(selo.id) == (
        "Este ato foi registrado em desacordo com a regra de que o ato acessório se vincula "
        "a licença em vigor (art. 3º, § 2º, da Lei nº 4.515/2007); consta como divergência "
        "no cadastro.",)
