"""The vistoria of the substitute vehicle, Lei nº 4.515/2007 (transporte escolar), art. 5º, II.

Art. 5º lets SETRANSV issue a Licença Temporária for a substitute vehicle "desde que"
(II) the licensed driver "apresente o veículo substituto, que deverá ser semelhante ao
substituído, e tenha no máximo 10 (dez) anos de fabricação, no prazo de 24 (vinte e
quatro) horas, para vistoria da SETRANSV". The law names the vistoria, not its report.
*Reading chosen:* the vistoria is an act of its own, the termo of SETRANSV's inspection
(series ``TVS-ESC``, signed by the agent of inspection, role ``agente-fiscalizacao``, as
the termo of the substitute vehicle's driver), and not the semiannual vistoria of the
licensed vehicle (art. 13, § 6º: ``termo-revalidacao-semestral``), which is of another
vehicle and has other requirements. The Licença Temporária for a substitute vehicle
requires an approved termo of the same vehicle from the registry
(:mod:`lavra_americana.transporte_escolar.licenca_temporaria`).

``termo_vistoria_veiculo_substituto`` — the three conditions of II, each recorded
with what was found, and the result:

- similar to the replaced vehicle: as the agent found it (``/semelhanca``); not similar,
  he says why (the schema requires the finding);
- at most 10 years of manufacture on the day of the vistoria
  (:func:`lavra_americana.comum.vehicle_age.vehicle_age`, parameter of the substitute
  vehicle);
- presented within 24 hours of the occurrence (the deadline table's
  ``transporte-escolar#art5_inc2``, in hours, moved to the next working day's hour when
  it ends without office hours).

All three met → *aprovado*; one not met → *reprovado*, and the termo says which and why.
A failed condition is the vistoria's finding, not a defect of the act: the termo is
issued either way (the driver has the record of the refusal), and only an approved one
supports the licence.

The alvará the substitute vehicle would serve under is checked in the registry (in force
on the day, of the replaced vehicle: :func:`lavra_americana.comum.validity.
parent_act_items`). Effect on the licensing state: the termo names the holder and the
substitute vehicle (placa and RENAVAM kept together); it grants nothing — the licence
does (:mod:`lavra_americana.transporte_escolar.estado`). Its facts (the occurrence and
the vistoria, day and hour) may not be after its issue (``datas_de_fatos``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, time
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    History,
    clean_text,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.checking.timeliness import check_timeliness
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.formats import mask_cpf_cnpj
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import StatutoryContext
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import parent_act_items, same_plate
from lavra_americana.comum.vehicle_age import vehicle_age

__all__ = [
    "COMPUTATIONS",
    "FORM",
    "IMPLEMENTED",
    "approved",
    "licence_items",
    "termo_vistoria_veiculo_substituto",
]

SCHOOL = "transporte-escolar"
FORM = "termo-vistoria-veiculo-substituto"
ALVARA_FORM = "alvara-transporte-escolar"
PRESENTED = f"{SCHOOL}#art5_inc2"
VEHICLE_LICENCE = f"{SCHOOL}#art5"
DAY = "/vistoria/data"
NUMBER = "/veiculo_substituto/vistoria/numero"
"""Where the Licença Temporária names the termo of the vistoria."""

IMPLEMENTED: tuple[str, ...] = (PRESENTED,)
"""Citations this computation applies (coverage): the vistoria of the substitute vehicle
(art. 5º, II)."""


def moment(data: Mapping[str, Any], pointer: str) -> datetime | None:
    """The moment at ``pointer`` (an object with ``data`` and ``hora`` HH:MM)."""
    day = maybe_date(pointers.get(data, pointer + "/data"))
    hour = clean_text(pointers.get(data, pointer + "/hora"))
    if day is None or hour is None:
        return None
    try:
        return datetime.combine(day, time.fromisoformat(hour))
    except ValueError:
        return None


def _pending(reason: str) -> dict[str, Any]:
    return {"pendente": reason, "aprovado": None, "condicoes": [], "resultado": None}


def _conditions(
    data: Mapping[str, Any], context: StatutoryContext
) -> tuple[list[dict[str, Any]], list[Item]]:
    """Each condition of II: ``nome``, ``atendida``, ``texto`` (what was found)."""
    laws = context.laws
    rows: list[dict[str, Any]] = []
    items: list[Item] = []
    similar = pointers.get(data, "/semelhanca/constatada") is True
    found = clean_text(pointers.get(data, "/semelhanca/constatacao"))
    rows.append({"nome": "semelhante ao veículo substituído", "atendida": similar,
                 "texto": found or ("Semelhante ao veículo substituído." if similar
                                    else "Não é semelhante ao veículo substituído.")})
    year = pointers.get(data, "/veiculo_substituto/ano_fabricacao")
    day = maybe_date(pointers.get(data, DAY))
    if isinstance(year, int) and not isinstance(year, bool) and day is not None:
        try:
            age = vehicle_age(year, day, law="transporte-escolar-substituto",
                              params=context.parameters, laws=laws,
                              field="/veiculo_substituto/ano_fabricacao", basis=(PRESENTED,))
        except LavraError as error:
            items.append(item_at("/veiculo_substituto/ano_fabricacao", Status.INVALID,
                                 error.message, PRESENTED))
        else:
            rows.append({"nome": "no máximo 10 (dez) anos de fabricação",
                         "atendida": age.within is True, "texto": age.explanation})
    occurred = moment(data, "/ocorrencia")
    inspected = moment(data, "/vistoria")
    if occurred is not None and inspected is not None:
        try:
            judged = check_timeliness(PRESENTED, occurred, inspected, context=context,
                                      field="/vistoria/hora")
        except LavraError as error:
            items.append(item_at("/vistoria/data", Status.INVALID, error.message, PRESENTED))
        else:
            rows.append({"nome": "apresentado no prazo de 24 (vinte e quatro) horas da "
                                 "ocorrência", "atendida": judged.timely,
                         "texto": judged.explanation})
        if inspected < occurred and pointers.get(data, "/ocorrencia/programada") is not True:
            items.append(item_at(
                "/vistoria/data", Status.INVALID,
                f"A vistoria ({format_date(inspected.date())}) é anterior à ocorrência não "
                f"programada que a justifica ({format_date(occurred.date())}) "
                f"({short(laws, PRESENTED)}).", PRESENTED))
    return rows, items


def termo_vistoria_veiculo_substituto(request: ComputeInput) -> Computed:
    """The conditions of art. 5º, II and the result (module docstring).

    ``values``: ``condicoes`` (``nome``, ``atendida``, ``texto``), ``aprovado``,
    ``resultado`` (pt-BR sentence), ``alvara_numero`` (as the registry prints it),
    ``pendente``.
    """
    data = data_of(request)
    day = maybe_date(pointers.get(data, DAY))
    if day is None:
        return Computed(_pending("Informe a data da vistoria."))
    context = statutory_context(request)
    laws = context.laws
    rows, items = _conditions(data, context)
    found, checked = parent_act_items(
        request.history, ALVARA_FORM, pointers.get(data, "/alvara/numero"), None, day,
        "Alvará para Transporte Escolar", (VEHICLE_LICENCE,), number_field="/alvara/numero",
        until_field="/alvara/numero", plate=pointers.get(data, "/veiculo/placa"),
        consequence="a vistoria não pode servir à Licença Temporária",
        holder=pointers.get(data, "/titular/cpf"), holder_field="/titular/cpf", laws=laws,
    )
    items.extend(checked)
    typed = clean_text(pointers.get(data, "/alvara/numero"))
    complete = len(rows) == 3
    failed = [row["nome"] for row in rows if not row["atendida"]]
    art = short(laws, PRESENTED)
    if not complete:
        result = None
        approved = None
    elif failed:
        approved = False
        result = (f"Veículo substituto REPROVADO na vistoria: não atende à condição de ser "
                  f"{'; '.join(failed)} ({art}). Não serve à Licença Temporária para veículo "
                  "substituto.")
    else:
        approved = True
        result = (f"Veículo substituto APROVADO na vistoria: semelhante ao substituído, com no "
                  f"máximo 10 (dez) anos de fabricação e apresentado no prazo de 24 (vinte e "
                  f"quatro) horas da ocorrência ({art}).")
    values = {
        "condicoes": rows,
        "aprovado": approved,
        "resultado": result,
        "alvara_numero": found.printed if found is not None else typed,
        "pendente": None if complete else "Informe cada condição do art. 5º, II.",
    }
    return Computed(values, unique_items(items))


def approved(data: Mapping[str, Any], context: StatutoryContext) -> bool:
    """Whether the termo with ``data`` found every condition of II met."""
    rows, items = _conditions(data, context)
    return len(rows) == 3 and not items and all(row["atendida"] for row in rows)


def _digits(text: Any) -> str:
    return "".join(c for c in text if c.isdigit()) if isinstance(text, str) else ""


def licence_items(
    history: History | None, data: Mapping[str, Any], on: date, context: StatutoryContext
) -> list[Item]:
    """The Licença Temporária for a substitute vehicle rests on the termo of its vistoria
    (art. 5º, II), named at ``/veiculo_substituto/vistoria/numero``: in the registry, not
    cancelled, approved, of the same substitute vehicle, licensed vehicle and holder,
    with the day and hour the licence states, and not after the licence's date.
    *Reading:* a vistoria the registry does not hold (a paper termo, or none) is
    *missing*: lavra does not certify a condition of the licence it cannot see; the
    vistoria of a substitute vehicle is days old at most, so it is always lavra's once
    lavra is adopted."""
    laws = context.laws
    art = short(laws, PRESENTED)
    typed = clean_text(pointers.get(data, NUMBER))
    if typed is None:
        return [item_at(
            NUMBER, Status.MISSING,
            "Informe o número do Termo de Vistoria do Veículo Substituto, aprovado pela "
            f"SETRANSV: a licença exige a vistoria do veículo substituto ({art}).", PRESENTED)]
    found = None if history is None else history.document(FORM, typed)
    if found is None:
        return [item_at(
            NUMBER, Status.MISSING,
            f"O Termo de Vistoria do Veículo Substituto {format_act_number(typed)} não consta "
            "do registro de documentos emitidos: sem conferir no registro a vistoria aprovada "
            f"do veículo substituto, a licença não pode ser expedida ({art}).", PRESENTED)]
    label = f"O Termo de Vistoria do Veículo Substituto {found.printed}"
    held = found.data
    items: list[Item] = []
    if found.cancelled:
        reason = f" ({found.cancel_reason})" if found.cancel_reason else ""
        items.append(item_at(NUMBER, Status.INVALID, f"{label} foi cancelado{reason}.",
                             PRESENTED))
    elif not approved(held, context):
        items.append(item_at(
            NUMBER, Status.INVALID,
            f"{label} reprovou o veículo substituto: só a vistoria aprovada permite a "
            f"licença ({art}).", PRESENTED))
    for pointer, what in (("/veiculo_substituto/placa", "do veículo substituto de placa"),
                          ("/veiculo/placa", "do veículo licenciado de placa")):
        if same_plate(pointers.get(held, pointer), pointers.get(data, pointer)) is False:
            items.append(item_at(
                pointer, Status.INVALID,
                f"{label} é {what} {pointers.get(held, pointer)}, não deste.", PRESENTED))
    holder, wanted = _digits(pointers.get(held, "/titular/cpf")), _digits(
        pointers.get(data, "/titular/cpf"))
    if holder and wanted and holder != wanted:
        items.append(item_at(
            "/titular/cpf", Status.INVALID,
            f"{label} é de outro condutor licenciado (CPF {mask_cpf_cnpj(holder)}).",
            PRESENTED))
    inspected, stated = moment(held, "/vistoria"), moment(data, "/veiculo_substituto/vistoria")
    if inspected is not None and stated is not None and inspected != stated:
        items.append(item_at(
            "/veiculo_substituto/vistoria/data", Status.INVALID,
            f"{label} registra a vistoria em {format_date(inspected.date())}, às "
            f"{inspected:%H:%M}, não em {format_date(stated.date())}, às {stated:%H:%M}.",
            PRESENTED))
    if found.reference_date > on:
        items.append(item_at(
            NUMBER, Status.INVALID,
            f"{label} é de {format_date(found.reference_date)}, posterior à licença "
            f"({format_date(on)}): a vistoria a precede ({art}).", PRESENTED))
    if not items:
        items.append(item_at(NUMBER, Status.MET,
                             f"Veículo substituto aprovado na vistoria: {found.printed} ({art}).",
                             PRESENTED))
    return items


COMPUTATIONS: dict[str, Computation] = {
    "termo_vistoria_veiculo_substituto": termo_vistoria_veiculo_substituto,
}
"""The computation of this module a form may name under ``"calculos"``."""
