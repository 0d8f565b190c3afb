"""Lei nº 4.515/2007 (transporte escolar): what each act does to the licensing state.

Each function below is the effect of one form's acts, beside the article that gives
the act its effect; the engine applies them in the same transaction as the act's
record (:mod:`lavra.registry.state`).

- Art. 3º: the alvará, to the driver (the titular), for the vehicle; a renewal
  (art. 13, ``modalidade`` ``renovacao``) ends the alvará it renews. Art. 14: one school
  licence per transportador (group ``licenca-escolar``, art. 14 cited); the vehicle
  holds one operating alvará across both laws (``operacao-veiculo``, see
  ``fretamento.estado``; :data:`VEHICLE_BASIS` cited).
- Art. 3º, § 2º: the selo belongs to one alvará; art. 9º: the auxiliary driver's
  alvará rests on the titular's; the publicity authorisation (art. 17, § 2º) and the
  temporary licence for a substitute vehicle (art. 5º) too: each ends with the alvará.
- Art. 4º, caput: the special licence of a vehicle licensed in another municipality.
- Art. 23, III, and art. 3º (motivo fundamentado): the revogação ends the alvará;
  art. 13: the vacância too. The revogação rests on the autos and the notice of
  defence it cites, the notice of penalty (art. 26) on its auto: the registry refuses
  cancelling a cited act while the act citing it stands.
- Art. 13, § 6º: the semiannual revalidation is recorded on the alvará (its day).
- Art. 15: the transfer moves the licence to the cessionário, with the vehicle; its
  § 2º bars the cedente from another licence for 3 years from the transfer (the
  anniversary still barred, as ``comum.periods.free_from`` counts).
- Art. 17, § 1º, with art. 3º ("modificado"): the termo of a change of vehicle puts the
  new vehicle in the alvará's place from its date (the old one is free); the selo and
  the other accessories of the old vehicle end with it (``troca_veiculo``).
- What the state keeps of each alvará for the acts that read it later (the renewal run,
  which reads holder and vehicle from the state, not from the act): the vehicle's type,
  year and licensing municipality (:data:`VEHICLE_FACTS`) and the holder's inscription
  in the Cadastro de Atividades (:data:`HOLDER_FACTS`), from the act that states them:
  the alvará, the termo of a change of vehicle, the termo of transfer.
- Autos (art. 21) name the driver and the vehicle; the termo of the substitute vehicle's
  vistoria (art. 5º, II) names the holder and the substitute vehicle, and grants nothing
  (the Licença Temporária does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lavra.filing import PROTOCOL_SERIES
from lavra.registry.effects import (
    Act,
    Bar,
    ChangeVehicle,
    Effect,
    EffectsOf,
    Grant,
    Identify,
    InProcesso,
    LicenceStatus,
    Revalidate,
    SetStatus,
    Transfer,
)
from lavra.registry.filings import parse_protocol
from lavra_americana.comum.estado import (
    basis,
    cited,
    date_at,
    driver_at,
    facts_at,
    in_series,
    named,
    party_at,
    processo,
    start_of,
    text_at,
    vehicle_at,
)
from lavra_americana.comum.periods import anniversary
from lavra_americana.fretamento.estado import OPERATION

__all__ = ["EFFECTS", "HOLDER_FACTS", "IMPLEMENTED", "PER_PERSON", "VEHICLE_BASIS",
           "VEHICLE_FACTS"]

PER_PERSON = "licenca-escolar"
"""Art. 14: one school licence per transportador."""
VEHICLE_BASIS = "transporte-escolar#art1_par1"
"""The provision a school alvará refused by ``operacao-veiculo`` cites: art. 1º, § 1º,
has the school transport made in vehicles "utilizados exclusivamente para o transporte de
estudantes". The law is silent on a vehicle that holds another operating alvará; the
reading: a vehicle under a fretamento alvará is not used exclusively for students, and
one under another school alvará is that alvará's "veículo licenciado nele constante"
(art. 13, § 4º), which its titular drives himself or with his one auxiliary (art. 9º,
§ 3º): a second waits until the first ends. Not art. 14 (one licence per person, cited
by its own refusal) nor art. 15, § 2º (the bar, cited by the bar's)."""

IMPLEMENTED: tuple[str, ...] = ("transporte-escolar#art14", "transporte-escolar#art15_par2")

VEHICLE_FACTS = ("/veiculo/tipo", "/veiculo/ano_fabricacao", "/veiculo/municipio_licenciamento")
"""What the alvará states of its vehicle and the renewed alvará must state again, the
renewal request not asking it: the type of art. 1º, § 1º (micro-ônibus or another vehicle
"utilizado exclusivamente" for students), the year of manufacture of art. 17, I (the age
limit, checked on the renewed alvará's first day) and the licensing municipality of
art. 17, II. After a change of vehicle (art. 17, § 1º) they are the substitute's, as its
termo states them; after a transfer (art. 15), the vehicle's as the termo states it."""
HOLDER_FACTS = ("/titular/cadastro_atividades",)
"""The titular's inscription in the Cadastro de Atividades (art. 2º; art. 8º, § 2º: the
alvará is furnished after it; art. 12, II). After a transfer it is the cessionário's:
art. 15, § 1º makes the transfer valid only once registered in that Cadastro, within 60
days, and the termo carries the inscription when the registration was made
(``/cadastro/inscricao``). A termo signed before it carries none: the cedente's is not
the cessionário's, so the state keeps none, and the renewal request supplies it
(``requerimento-renovacao-escolar``, ``/requerente/cadastro_atividades``)."""

AUTO = "auto-infracao-escolar"
"""The form whose series a cited auto typed without one is read in."""



def alvara(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art3: the alvará to the titular; art. 13: renewal ends the old."""
    renews = (text_at(act.data, "/alvara_anterior/numero")
              if act.data.get("modalidade") == "renovacao" else None)
    auxiliar = driver_at(act.data, "/auxiliar")
    return [*processo(act), Identify(drivers=() if auxiliar is None else (auxiliar,),
                                         citation="transporte-escolar#art9"), Grant(
        kind=act.form, holder=party_at(act.data, "/titular"),
        driver=driver_at(act.data, "/titular"), vehicle=vehicle_at(act.data, "/veiculo"),
        valid_from=start_of(act), valid_until=act.valid_until, renews=renews,
        exclusive=OPERATION, per_holder=PER_PERSON, barred_by=PER_PERSON,
        basis=basis("transporte-escolar#art3", "transporte-escolar#art13"),
        exclusive_basis=basis(VEHICLE_BASIS),
        per_holder_basis=basis("transporte-escolar#art14"),
        citation="transporte-escolar#art3", facts=facts_at(act.data, VEHICLE_FACTS + HOLDER_FACTS),
    )]


def _accessory(pointer: str, citation: str, *, holder: str = "/titular",
               vehicle: str = "/veiculo", driver: str | None = None) -> EffectsOf:
    def effects(act: Act) -> Sequence[Effect]:
        return [*processo(act), Grant(
            kind=act.form, holder=party_at(act.data, holder),
            driver=None if driver is None else driver_at(act.data, driver),
            vehicle=vehicle_at(act.data, vehicle), valid_from=start_of(act),
            valid_until=act.valid_until, rests_on=text_at(act.data, pointer),
            citation=citation, basis=basis(citation),
        )]
    effects.__doc__ = f"{citation}: rests on the alvará at {pointer}, and ends with it."
    return effects


_TEMPORARY = _accessory("/alvara/numero", "transporte-escolar#art5",
                        vehicle="/veiculo_substituto", driver="/condutor_veiculo_substituto")


def licenca_temporaria(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art5: rests on the alvará at /alvara/numero, and ends with it;
    and on the termo of the substitute vehicle's vistoria it names (art. 5º, II; series
    TVS-ESC, ``/veiculo_substituto/vistoria/numero``)."""
    return [*_TEMPORARY(act), *cited(act, "transporte-escolar#art5", in_series(
        text_at(act.data, "/veiculo_substituto/vistoria/numero"),
        "termo-vistoria-veiculo-substituto"))]


def condutor_substituto(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art5_inc3: the termo of the substitute vehicle's driver is bound
    to the Licença Temporária it names (``/licenca_temporaria/numero``, series LTE-ESC):
    it rests on it. It grants nothing of its own in the state (the driver drives under
    that licence)."""
    return cited(act, "transporte-escolar#art5_inc3", in_series(
        text_at(act.data, "/licenca_temporaria/numero"), "licenca-temporaria-escolar"))


def licenca_especial(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art20: the special licence, to the requerente, for the vehicle."""
    return [*processo(act), Grant(
        kind=act.form, holder=party_at(act.data, "/requerente"),
        driver=driver_at(act.data, "/requerente"), vehicle=vehicle_at(act.data, "/veiculo"),
        valid_from=start_of(act), valid_until=act.valid_until,
        citation="transporte-escolar#art20",
    )]


def _ending(status: LicenceStatus, citation: str) -> EffectsOf:
    def effects(act: Act) -> Sequence[Effect]:
        number = text_at(act.data, "/alvara/numero")
        ending = [] if number is None else [SetStatus(number, status, citation,
                                                      basis(citation))]
        return [*processo(act), *ending]
    effects.__doc__ = f"{citation}: the alvará becomes {status.value}."
    return effects


_REVOKED_BY_PENALTY = _ending(LicenceStatus.REVOKED, "transporte-escolar#art23_inc3")
_REVOKED_BY_MOTIVE = _ending(LicenceStatus.REVOKED, "transporte-escolar#art3")


def revogacao(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art23_inc3 (a penalty) or transporte-escolar#art3 (motivo
    fundamentado): the alvará becomes revogado."""
    by_motive = text_at(act.data, "/hipotese/tipo") == "motivo_fundamentado"
    # It rests on the autos and the notice of defence it cites (their cancellation is
    # refused while it stands: lavra.registry.citations).
    return [*(_REVOKED_BY_MOTIVE if by_motive else _REVOKED_BY_PENALTY)(act),
            *cited(act, "transporte-escolar#art3" if by_motive
                   else "transporte-escolar#art23_inc3",
                   forms={"autos": AUTO, "notificacao": "notificacao-defesa-revogacao"})]


def transferencia(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art15: the licence to the cessionário; § 2º bars the cedente.

    Reading (transporte-escolar#art15 is silent on the vehicle; #art3_par2, #art17_par1,
    #art17_par3, #art18): a transfer with another vehicle is also a change of vehicle.
    The selo "correspondente à licença" identifies the vehicle it was issued for (art.
    18: affixed to its windscreens), and the publicity authorisation (art. 17, § 3º) is
    for the "veículo licenciado": both end with the old vehicle, in the termo's transaction, as
    with the Termo de Substituição de Veículo; the cessionário takes a new selo for his
    vehicle. Cancelling the termo gives them back in force, in the cedente's name. With
    the same vehicle (the termo's plate is the licence's, or the termo names none: an
    imported row without placa), they follow the licence to the cessionário, and so do
    the vehicle's facts (tipo, município de licenciamento): only the holder's end."""
    effects: list[Effect] = [*processo(act)]
    number = text_at(act.data, "/licenca/numero")
    new_holder = party_at(act.data, "/cessionario")
    if number is not None and new_holder is not None:
        effects.append(Transfer(number, new_holder, "transporte-escolar#art15",
                                driver=driver_at(act.data, "/cessionario"),
                                vehicle=vehicle_at(act.data, "/veiculo"),
                                basis=basis("transporte-escolar#art14",
                                            "transporte-escolar#art15"),
                                # art. 15, § 1º: the cessionário's inscription, when made
                                facts=facts_at(act.data, VEHICLE_FACTS + HOLDER_FACTS, at={
                                    HOLDER_FACTS[0]: "/cadastro/inscricao"}),
                                replaces=("/titular",),
                                replaces_with_vehicle=("/veiculo",)))
    cedente = party_at(act.data, "/cedente")
    if cedente is not None:
        # The bar's last day is the one the termo printed (its parameter
        # carencia_nova_licenca_apos_transferencia), so that the state and the signed
        # act agree; an imported termo, without the termo's computation, gets the
        # 3 years of the law's text.
        last_day = date_at(act.computed, "/impedimento_cedente/ultimo_dia")
        effects.append(Bar(cedente, PER_PERSON,
                           last_day or anniversary(act.reference_date, years=3),
                           basis("transporte-escolar#art15_par2")))
    return effects


def revalidacao(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art13_par6: the alvará revalidated (in May or November). Its
    validity stays its own: the revalidation keeps it in force until the next window
    (the termo's own validity), it does not extend it."""
    number = text_at(act.data, "/alvara/numero")
    return [*processo(act), *([] if number is None else [
        Revalidate(number, "transporte-escolar#art13_par6")])]


def troca_veiculo(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art17_par1: the alvará's vehicle becomes the new one; the
    replaced vehicle is named (its history shows it released); the selo of the replaced
    vehicle ends (a new selo is issued for the new one, art. 3º, § 2º)."""
    number = text_at(act.data, "/alvara/numero")
    new = vehicle_at(act.data, "/veiculo_novo")
    old = vehicle_at(act.data, "/veiculo_substituido")
    # The termo decides the requerimento whose protocol it cites: it joins the processo
    # that protocol opened (a protocol of lavra's series, in any written form, is read as
    # the receipt prints it; another number is a processo of its own).
    protocolo = text_at(act.data, "/protocolo_requerimento")
    if protocolo is not None:
        protocolo = parse_protocol(protocolo, PROTOCOL_SERIES) or protocolo
    effects: list[Effect] = [*processo(act)]
    if protocolo is not None:
        effects.append(InProcesso(protocolo))
    effects.append(Identify(vehicles=() if old is None else (old,),
                            citation="transporte-escolar#art17_par1"))
    if number is not None and new is not None:
        effects.append(ChangeVehicle(
            number, new, "transporte-escolar#art17_par1",
            basis=basis("transporte-escolar#art3", "transporte-escolar#art17_par1"),
            facts=facts_at(act.data, VEHICLE_FACTS, at={"/veiculo": "/veiculo_novo"}),
            replaces=("/veiculo",)))
    return effects


def guia_taxa(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art16: the guia belongs to the processo whose act the fee is for
    (the applicant following that protocol sees it)."""
    return [*processo(act)]


def auto(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art21: the auto names the driver and the vehicle."""
    return [named(act, "/condutor", citation="transporte-escolar#art21")]


def notificacao_penalidade(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art26: the notice of the penalty rests on the auto it names."""
    return [*processo(act), *cited(act, "transporte-escolar#art26", forms={"auto": AUTO})]


def vistoria_substituto(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art5_inc2: the vistoria names the holder and the substitute
    vehicle (placa and RENAVAM together); the licence is the act that lets it serve."""
    return [named(act, "/titular", "/veiculo_substituto",
                  citation="transporte-escolar#art5_inc2"), *processo(act)]


def notificacao_renovacao(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art13_par5: the notice of what the renewal request lacks joins
    the processo of the request it answers (the protocol's, when filed online)."""
    return processo(act)


_VACATES = _ending(LicenceStatus.VACATED, "transporte-escolar#art13")


def vacancia(act: Act) -> Sequence[Effect]:
    """transporte-escolar#art13: the declaration vacates the licence; naming a processo
    (the refused renewal's protocol), it joins it, so that the holder takes its ciência
    and appeals it (Lei nº 9.784/1999, art. 59) from that protocol's tracking page."""
    return [*_VACATES(act), *processo(act)]


EFFECTS: Mapping[str, EffectsOf] = {
    "alvara-transporte-escolar": alvara,
    "notificacao-pendencias-renovacao": notificacao_renovacao,
    "alvara-condutor-auxiliar": _accessory(
        "/alvara_titular/numero", "transporte-escolar#art9", holder="/auxiliar",
        driver="/auxiliar"),
    "selo-identificacao": _accessory("/alvara/numero", "transporte-escolar#art3_par2"),
    "autorizacao-publicidade-escolar": _accessory(
        "/alvara/numero", "transporte-escolar#art17_par2"),
    "licenca-temporaria-escolar": licenca_temporaria,
    "termo-condutor-substituto": condutor_substituto,
    "licenca-especial-escolar": licenca_especial,
    "decisao-revogacao-alvara": revogacao,
    "declaracao-vacancia": vacancia,
    "termo-transferencia-licenca": transferencia,
    "termo-revalidacao-semestral": revalidacao,
    "termo-substituicao-veiculo-escolar": troca_veiculo,
    "auto-infracao-escolar": auto,
    "notificacao-penalidade": notificacao_penalidade,
    "termo-vistoria-veiculo-substituto": vistoria_substituto,
    "guia-recolhimento-taxa-escolar": guia_taxa,
}
