"""The act that decides a change of vehicle, Lei nº 4.515/2007, art. 17, § 1º, with art.
3º ("podendo ser revogado ou modificado a qualquer tempo"): the "Termo de Substituição
de Veículo" (series ``TSV-ESC``, signed by the Secretário, like the alvará).

Art. 17, § 1º: "Quando por ocasião da troca de veículo, o transportador deverá
protocolizar requerimento informando a substituição, anexando cópia do recibo de compra
e venda devidamente preenchido, datado e com reconhecimento de firma do veículo
substituído e cópia do documento de porte obrigatório do veículo substituto." The law
names the requerimento (``requerimento-troca-veiculo-escolar``) but not the act that
answers it; the alvará names its vehicle (art. 13, § 4º: "veículo licenciado nele
constante"), so the change modifies the alvará (art. 3º) and is recorded by an act of
the authority that issues it. Reading: a termo, apostilled to the alvará, which keeps
its number, titular and validity and from the termo's date names the new vehicle.

``termo_substituicao_veiculo_escolar`` — its computation (the guards)
    - the alvará, read from the registry's licensing state (not typed): in lavra's
      series and held by the state, in force on the termo's date (not cassado,
      revogado, vago, transferido nor past its vencimento; a renewed alvará is
      replaced by the alvará that renewed it, where the change belongs), of the
      requerente (its titular) and of the vehicle replaced (the one the state holds,
      which an earlier change may have replaced);
    - the new vehicle meets art. 17, I (fabricated at most 10 years before, on the
      termo's date, the day from which it serves: ``comum.vehicle_age``); II to V are
      the schema's (licensed in Americana, the CIRETRAN report, the insurance with both
      coverages — in force on the date, ``verificacoes`` —, the tyres);
    - the new vehicle holds no operating licence in force (one per vehicle across both
      laws, the alvará's own guard: art. 3º with ``fretamento.estado.OPERATION``) and
      is not the one replaced;
    - the requerimento precedes the termo; its attachments of § 1º (the bill of sale
      with the firma reconhecida, the new vehicle's documento de porte obrigatório) are
      the schema's, as in the requerimento.
    The selo (art. 3º, § 2º): it "corresponds to the licence", but lavra's selo names the
    vehicle and is fixed on its windscreens (art. 18), and art. 13, § 4º delivers it on
    the presentation of the licensed vehicle. Reading: the selo of the replaced vehicle
    ends with the termo (the state ends it) and is returned; a new selo, numbered, is
    issued for the new vehicle on its presentation to the SETRANSV inspectors. Art. 16
    sets no fee for a change of vehicle: none is charged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    item_at,
    licensing,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.inputs.formats import mask_cpf_cnpj
from lavra.inputs.reading import maybe_date
from lavra.law.model import Law
from lavra.registry.effects import LicenceStatus
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, issue_items, vehicle_age_items
from lavra_americana.comum.guards import held_items
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import parent_act_items
from lavra_americana.fretamento.estado import OPERATION

__all__ = ["COMPUTATIONS", "FORM", "IMPLEMENTED", "termo_substituicao_veiculo_escolar"]

SCHOOL = "transporte-escolar"
FORM = "termo-substituicao-veiculo-escolar"
ALVARA_FORM = "alvara-transporte-escolar"
EXCHANGE = f"{SCHOOL}#art17_par1"
MODIFIED = f"{SCHOOL}#art3"
VEHICLE_AGE = f"{SCHOOL}#art17_inc1"
SELO = f"{SCHOOL}#art3_par2"
ALVARA = "Alvará para exploração de serviços de Transporte Escolar"

IMPLEMENTED: tuple[str, ...] = (EXCHANGE,)
"""Citations this computation applies (coverage): the change of vehicle of art. 17, § 1º."""


def _digits(value: Any) -> str:
    return "".join(ch for ch in value if ch.isdigit()) if isinstance(value, str) else ""


def _plate(value: Any) -> str | None:
    text = clean_text(value)
    return None if text is None else text.replace("-", "").upper()


def termo_substituicao_veiculo_escolar(request: ComputeInput) -> Computed:
    """The guards of the change of vehicle (art. 17, § 1º; art. 3º) and what the termo
    says of the selo.

    ``values``: ``alvara_valido_ate``, ``selo_explicacao``, ``idade_veiculo_novo``.
    """
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    laws = context.laws
    ref = short(laws, EXCHANGE)
    items: list[Item] = list(
        issue_items(on, request.issued_on, "/data_expedicao", "o termo", EXCHANGE))
    filed = maybe_date(pointers.get(data, "/data_requerimento"))
    if filed is not None and filed > on:
        items.append(item_at(
            "/data_requerimento", Status.INVALID,
            f"O requerimento ({format_date(filed)}) é posterior ao termo ({format_date(on)}): a "
            f"substituição é decidida sobre o requerimento protocolizado ({ref}).", EXCHANGE))
    found, checked = parent_act_items(
        request.history, ALVARA_FORM, pointers.get(data, "/alvara/numero"), None, on, ALVARA,
        (EXCHANGE, MODIFIED), number_field="/alvara/numero", until_field="/alvara/numero",
        plate=pointers.get(data, "/veiculo_substituido/placa"),
        consequence="a substituição do veículo não pode ser registrada",
        holder=pointers.get(data, "/requerente/cpf"), holder_field="/requerente/cpf", laws=laws)
    items.extend(checked)
    items.extend(_state_items(request, data, laws))
    age = vehicle_age_items(data, "/veiculo_novo", on, context, "transporte-escolar",
                            VEHICLE_AGE, EXCHANGE)
    items.extend(age)
    new = _plate(pointers.get(data, "/veiculo_novo/placa"))
    old = _plate(pointers.get(data, "/veiculo_substituido/placa"))
    if new is not None and new == old:
        items.append(item_at(
            "/veiculo_novo/placa", Status.INVALID,
            f"O veículo novo tem a mesma placa do substituído: informe o veículo que o "
            f"substitui ({ref}).", EXCHANGE))
    if new is not None:
        items += held_items(request.history, on, placa=new, group=OPERATION,
                            who=f"O veículo de placa {new}", field="/veiculo_novo/placa",
                            basis=(MODIFIED, EXCHANGE), laws=laws)
    until = found.valid_until if found is not None else None
    values: dict[str, Any] = {
        "alvara_valido_ate": until,
        "idade_veiculo_novo": age[0].message if age else None,
        "selo_explicacao": (
            f"O selo de identificação corresponde à licença ({short(laws, SELO)}) e identifica "
            "o veículo em que é afixado: o selo expedido para o veículo substituído perde a "
            "validade nesta data e deve ser retirado dos para-brisas e devolvido à SETRANSV; "
            "novo selo, numerado, é expedido para o veículo substituto e retirado pelo "
            "condutor licenciado com a apresentação desse veículo aos fiscais da SETRANSV "
            f"({short(laws, f'{SCHOOL}#art13_par4')}). A troca de veículo não está sujeita a "
            f"taxa ({short(laws, f'{SCHOOL}#art16')})."
        ),
    }
    return Computed(values, unique_items(items))


def _state_items(request: ComputeInput, data: Mapping[str, Any],
                 laws: Mapping[str, Law]) -> list[Item]:
    """From the state: the alvará is not a renewed one, and the requerente holds it."""
    state = licensing(request.history)
    number = clean_text(pointers.get(data, "/alvara/numero"))
    if state is None or number is None or not state.tracks(ALVARA_FORM):
        return []
    view = state.licence_status(number, ALVARA_FORM)
    if view is None:
        return []
    ref = short(laws, EXCHANGE)
    items: list[Item] = []
    if view.status == LicenceStatus.RENEWED:
        by = f" pelo {view.renewed_by}" if view.renewed_by else ""
        items.append(item_at(
            "/alvara/numero", Status.INVALID,
            f"O {view.printed} foi renovado{by}: a substituição do veículo se registra no "
            f"alvará em vigor ({ref}).", EXCHANGE))
    cpf = _digits(pointers.get(data, "/requerente/cpf"))
    if cpf and view.holder is not None and _digits(view.holder) != cpf:
        items.append(item_at(
            "/requerente/cpf", Status.INVALID,
            f"O {view.printed} tem por titular "
            f"{view.holder_name or mask_cpf_cnpj(view.holder)}, não o "
            f"requerente: só o transportador licenciado requer a troca do veículo ({ref}).",
            EXCHANGE))
    return items


COMPUTATIONS: dict[str, Computation] = {
    "termo_substituicao_veiculo_escolar": termo_substituicao_veiculo_escolar,
}
"""The computation of this module a form may name under ``"calculos"``."""
