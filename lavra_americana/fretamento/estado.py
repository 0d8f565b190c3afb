"""Lei nº 4.419/2006 (fretamento): what each act does to the licensing state.

Each function below is the effect of one form's acts, beside the article that gives
the act its effect; the engine applies them in the same transaction as the act's
record (:mod:`lavra.registry.state`).

- Art. 2º, § 1º: the certificate of registration at SETRANSV (CRE-FRET) registers the
  company; one registration in force per company (group ``registro-setransv``), a new
  certificate replacing the old one (``/substitui``) ends it. It has no term (the law
  gives none: :mod:`lavra_americana.fretamento.registro`); the alvará reads it.
- Art. 8º: the Alvará de Licença de Circulação is granted to the company "para cada
  veículo"; a renewal (``/processo/renovacao``) ends the alvará it renews. One operating
  alvará in force per vehicle, across this law's alvarás and the school alvará
  (group ``operacao-veiculo``, :data:`OPERATION_BASIS`).
- Art. 3º, III, and art. 12: the alvará for a company's own private service
  (ALV-PART) operates the vehicle as well (same group), and is the same "Alvará de
  Licença de Circulação" the bar of art. 22, parágrafo único, forbids (the reading is in
  :mod:`lavra_americana.fretamento.servico_particular`).
- Art. 10, § 3º: the authorisation to use a third party's vehicle rests on the
  company's alvará, and ends with it.
- Art. 21, §§ 2º to 4º: the alvará recalled (recibo de recolhimento) and given back
  (termo de devolução).
- Art. 13: the extraordinary vistoria (TVE-FRET) that finds a requirement unmet
  withdraws the vehicle from service: the alvará it serves under is suspended (still
  the company's, still holding the vehicle's place, not to be used); the termo of the
  new vistoria that finds it regularised releases it (in force again).
- Art. 22: the cassação ends every alvará it names; its parágrafo único bars the
  company from a new alvará for 12 months (the last day as the decision computed it).
- Autos (arts. 14 to 17) name the company and the vehicle.
- The cassação (art. 22) rests on the autos and the notice of defence it cites; the
  guia de multa (art. 26) and the impediment (art. 21) on their auto: the registry
  refuses cancelling a cited act while the act citing it stands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lavra.registry.effects import (
    Act,
    Bar,
    Effect,
    EffectsOf,
    Grant,
    Identify,
    LicenceStatus,
    Restore,
    SetStatus,
)
from lavra_americana.comum.estado import (
    basis,
    cited,
    date_at,
    driver_at,
    in_series,
    named,
    party_at,
    processo,
    start_of,
    text_at,
    vehicle_at,
)

__all__ = ["EFFECTS", "IMPLEMENTED", "OPERATION", "OPERATION_BASIS", "REGISTERED", "SCOPE"]

OPERATION = "operacao-veiculo"
"""One operating alvará in force per vehicle, across both laws."""
OPERATION_BASIS = "fretamento#art8"
"""The provision a grant of this law refused by :data:`OPERATION` cites: art. 8º issues
the Alvará de Licença de Circulação "para cada veículo", one alvará to one vehicle, and
art. 12 has the private service (ALV-PART) request that same alvará. The law is silent on
a second alvará for a vehicle that holds one; the reading: the alvará "para cada veículo"
is the vehicle's one licence to operate, so a second, of either kind or of the school law,
waits until the first ends (a vehicle serves one operation at a time, art. 3º). Not
art. 2º (SETRANSV's competence) nor art. 22, parágrafo único (the bar, cited by the bar's
own refusal)."""
SCOPE = "alvara-fretamento"
"""What the bar of art. 22, parágrafo único, forbids: a new alvará of this law."""

REGISTERED = "registro-setransv"
"""One registration at SETRANSV in force per company (art. 2º, § 1º)."""

IMPLEMENTED: tuple[str, ...] = ("fretamento#art22_par1u",)

AUTO = "auto-infracao-fretamento"
RECEIPT = "recibo-recolhimento-alvara"
"""The forms whose series a cited auto or receipt typed without one is read in."""



def registro(act: Act) -> Sequence[Effect]:
    """fretamento#art2_par1: the company registered at SETRANSV, with no term; a new
    certificate ends the one it replaces."""
    return [*processo(act), Grant(
        kind=act.form, holder=party_at(act.data, "/empresa"), valid_from=act.reference_date,
        valid_until=None, renews=text_at(act.data, "/substitui/numero"),
        per_holder=REGISTERED, basis=basis("fretamento#art2_par1"),
        per_holder_basis=basis("fretamento#art2_par1"),
        citation="fretamento#art2_par1",
    )]


def alvara(act: Act) -> Sequence[Effect]:
    """fretamento#art8: the alvará, to the company, for the vehicle; renewal ends the old."""
    renews = (text_at(act.data, "/processo/alvara_anterior")
              if act.data.get("processo", {}).get("renovacao") is True else None)
    return [*processo(act), Grant(
        kind=act.form, holder=party_at(act.data, "/empresa"),
        vehicle=vehicle_at(act.data, "/veiculo"), valid_from=start_of(act),
        valid_until=act.valid_until, renews=renews, exclusive=OPERATION, barred_by=SCOPE,
        basis=basis("fretamento#art8"), exclusive_basis=basis(OPERATION_BASIS),
        citation="fretamento#art8",
    )]


def alvara_particular(act: Act) -> Sequence[Effect]:
    """fretamento#art12: the private-service alvará operates the vehicle too, and the
    cassação's bar covers it (fretamento#art22_par1u)."""
    drivers = tuple(
        d for i in range(len(act.data.get("motoristas") or ()))
        if (d := driver_at(act.data, f"/motoristas/{i}")) is not None
    )
    return [*processo(act), Identify(drivers=drivers, citation="fretamento#art12"), Grant(
        kind=act.form, holder=party_at(act.data, "/empresa"),
        vehicle=vehicle_at(act.data, "/veiculo"), valid_from=start_of(act),
        valid_until=act.valid_until, exclusive=OPERATION, barred_by=SCOPE,
        basis=basis("fretamento#art3_inc3", "fretamento#art12"),
        exclusive_basis=basis(OPERATION_BASIS),
        citation="fretamento#art12",
    )]


def veiculo_terceiro(act: Act) -> Sequence[Effect]:
    """fretamento#art15_inc6: the use of another company's vehicle, with SETRANSV's
    authorisation (fretamento#art2), rests on the company's alvará."""
    return [*processo(act), Identify(parties=tuple(
        p for p in (party_at(act.data, "/cedente"),) if p is not None),
        citation="fretamento#art15_inc6"), Grant(
        kind=act.form, holder=party_at(act.data, "/empresa"),
        vehicle=vehicle_at(act.data, "/veiculo"), valid_from=start_of(act),
        valid_until=act.valid_until, rests_on=text_at(act.data, "/empresa/alvara/numero"),
        citation="fretamento#art15_inc6",
        basis=basis("fretamento#art2", "fretamento#art15_inc6"),
    )]


def cassacao(act: Act) -> Sequence[Effect]:
    """fretamento#art22: every alvará named is cassated; the company is barred until the
    last day the decision computed (art. 22, parágrafo único)."""
    effects: list[Effect] = [*processo(act), *cited(act, "fretamento#art22", forms={
        "autos": AUTO, "notificacao": "notificacao-defesa-cassacao"})]
    for i in range(len(act.data.get("alvaras") or ())):
        number = text_at(act.data, f"/alvaras/{i}/numero")
        if number is not None:
            effects.append(SetStatus(number, LicenceStatus.CASSATED, "fretamento#art22",
                                     basis("fretamento#art22")))
    company = party_at(act.data, "/empresa")
    last_day = date_at(act.computed, "/impedimento/ultimo_dia")
    if company is not None and last_day is not None:
        effects.append(Bar(company, SCOPE, last_day, basis("fretamento#art22_par1u")))
    return effects


def recolhimento(act: Act) -> Sequence[Effect]:
    """fretamento#art21_par2: the alvará recalled. The receipt rests on the act of the
    same constatação it names (``/ato/numero``: the termo de impedimento or the auto),
    when the registry holds it; typed without its series it may be either, and is not
    linked (the receipt's own check reads it)."""
    number = text_at(act.data, "/alvara/numero")
    return [*([] if number is None else [
        SetStatus(number, LicenceStatus.RECALLED, "fretamento#art21_par2",
                  basis("fretamento#art21_par2"))]),
        *cited(act, "fretamento#art21_par2", text_at(act.data, "/ato/numero"))]


def devolucao(act: Act) -> Sequence[Effect]:
    """fretamento#art21_par4: the recalled alvará given back, on the receipt it names
    (``/recibo/numero``, series REC-ALV-FRET): it rests on that receipt."""
    number = text_at(act.data, "/alvara/numero")
    return [*([] if number is None else [Restore(number, "fretamento#art21_par4")]),
            *cited(act, "fretamento#art21_par4",
                   in_series(text_at(act.data, "/recibo/numero"), RECEIPT))]


def vistoria(act: Act) -> Sequence[Effect]:
    """fretamento#art13: withdrawn "até a regularização da situação" (the alvará
    suspended), then released by the termo of the new vistoria."""
    alvara = act.computed.get("alvara")
    number = (alvara.get("numero") if isinstance(alvara, Mapping) else None) or text_at(
        act.data, "/alvara/numero")
    effects: list[Effect] = [named(act, "/empresa", citation="fretamento#art13")]
    if isinstance(number, str) and act.computed.get("retirada") is True:
        effects.append(SetStatus(number, LicenceStatus.SUSPENDED, "fretamento#art13",
                                 basis("fretamento#art13")))
    elif isinstance(number, str) and act.computed.get("liberacao") is True:
        effects.append(Restore(number, "fretamento#art13"))
    return effects


def auto(act: Act) -> Sequence[Effect]:
    """fretamento#art14: the auto names the company and the vehicle."""
    return [named(act, "/empresa", citation="fretamento#art14")]


def guia_multa(act: Act) -> Sequence[Effect]:
    """fretamento#art26: the guia collects the fine of the auto it names (it rests on
    it: the auto may not be cancelled while the guia stands)."""
    return [*processo(act), *cited(act, "fretamento#art26", forms={"auto": AUTO})]


def impedimento(act: Act) -> Sequence[Effect]:
    """fretamento#art21: the impediment is imposed with the fine of the auto it names
    (cumulative): it rests on that auto, and on the receipt of the alvará it took
    (``/retirada/recibo_alvara``, fretamento#art21_par2; series REC-ALV-FRET)."""
    return [*processo(act), *cited(
        act, "fretamento#art21",
        in_series(text_at(act.data, "/retirada/recibo_alvara"), RECEIPT),
        forms={"auto": AUTO})]


def alteracao(act: Act) -> Sequence[Effect]:
    """fretamento#art10_par3: the prior authorisation of an alteration joins the processo
    of the request it decides (the protocol's, when filed online); it grants no licence
    of its own (it modifies the vehicle of an alvará)."""
    return processo(act)


def notificacao_renovacao(act: Act) -> Sequence[Effect]:
    """fretamento#art8: the notice on the renewal request joins the processo of the
    request it answers (the protocol's, when filed online)."""
    return processo(act)


EFFECTS: Mapping[str, EffectsOf] = {
    "certidao-registro-fretamento": registro,
    "notificacao-pendencias-renovacao-fretamento": notificacao_renovacao,
    "alvara-fretamento": alvara,
    "alvara-servico-particular-fretamento": alvara_particular,
    "autorizacao-veiculo-terceiro": veiculo_terceiro,
    "autorizacao-previa-alteracao-veiculo": alteracao,
    "decisao-cassacao-fretamento": cassacao,
    "recibo-recolhimento-alvara": recolhimento,
    "termo-devolucao-alvara": devolucao,
    "auto-infracao-fretamento": auto,
    "guia-recolhimento-multa-fretamento": guia_multa,
    "termo-impedimento-fretamento": impedimento,
    "termo-vistoria-extraordinaria-fretamento": vistoria,
}
