"""The termo of the substitute vehicle's driver, of Lei nº 4.515/2007 (transporte
escolar): art. 5º, III.

Art. 5º lets SETRANSV issue a Licença Temporária for a substitute vehicle
(:mod:`lavra_americana.transporte_escolar.licenca_temporaria`), "desde que" (III) "se o
condutor do veículo substituído não for o condutor licenciado, deverá este se apresentar
à SETRANSV, munido da CNH, categoria 'D', e de comprovante do curso de condutor escolar,
para assinatura do termo". The law names the termo but not its content. *Reading
chosen:* the termo is that driver's own commitment, signed before SETRANSV, to drive
the substitute vehicle under that licence, in its place and term, carrying it and the
documents of art. 18, observing the duties of art. 21; SETRANSV records in it that he
appeared with the two documents the law names. It is an act of its own (series
``TCS-ESC``), so that the agents on the street can tell this driver from one driving a
licensed vehicle without title (art. 9º, § 2º, II), and so that the registry knows who
drove under which licence.

``termo_condutor_substituto`` — its computation
    The licence (``/licenca_temporaria``): a Licença Temporária for a substitute
        vehicle (art. 5º; one for the driver's health, art. 4º, caput, licenses the
        substitute driver himself and needs no termo), looked up in the registry
        (:func:`lavra_americana.comum.validity.parent_act_items`): there, not cancelled,
        in force on the date of the termo, of the licensed vehicle
        (``/veiculo/placa``), with the validity the data state; its substitute vehicle
        and its holder are the data's. Without the registry's record the condition is
        *missing*: lavra does not certify a termo under a licence it cannot see.
    The driver is not the licensed driver (a different CPF): the licensed driver needs
        no termo (III, "se ... não for o condutor licenciado"). The CPF's check digits
        are the schema's (format ``cpf``).
    CNH of category "D" (or E, AD, AE, which include it: the schema's
        ``cnh_categoria_d``), valid on the date of the termo (the form's check
        ``vigente``); the course certificate presented, issued no later than the date
        (the engine's check of every attached document), and not past its own validity
        when it has one.
    Term. The law gives the termo no term of its own: it exists only for the licence
        ("para assinatura do termo" is a condition of the licence's use). It therefore
        runs from its date to the licence's last day, as the registry records it
        (a prorrogação is a new licence, and needs a new termo), and no further than the
        CNH's validity (a driver whose CNH expired is not "munido da CNH"): the earlier
        of the two, printed with which one set it. Cancelling the licence ends it too.
    Signatures. The driver signs the termo (the line printed in the act; the servant
        hands over the via). The act is signed for SETRANSV by the servant who receives
        the driver: *reading*, the law does not name him; the fiscais of SETRANSV are
        those who inspect the substitute vehicle (art. 5º, II) and confer the items the
        law requires (art. 13, § 4º), so the act is signed by the agent of inspection
        (role ``agente-fiscalizacao``), whose name and registration are printed.
    Dates. The termo records a presentation already made: a date of the termo after
        the day of issue is *invalid*.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    PriorRecord,
    clean_text,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.inputs.formats import mask_cpf_cnpj
from lavra.inputs.reading import maybe_date
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, issue_items, licence_pending
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import (
    Limit,
    earliest,
    parent_act_items,
    same_plate,
    validity_explanation,
)

__all__ = [
    "COMPUTATIONS",
    "FORM",
    "IMPLEMENTED",
    "termo_condutor_substituto",
]

SCHOOL = "transporte-escolar"
FORM = "termo-condutor-substituto"
LICENCE_FORM = "licenca-temporaria-escolar"
TERMO = f"{SCHOOL}#art5_inc3"
VEHICLE_LICENCE = f"{SCHOOL}#art5"
LICENCE = "/licenca_temporaria"

IMPLEMENTED: tuple[str, ...] = (TERMO,)
"""Citations this computation applies (coverage): the termo of the driver of the
substitute vehicle who is not the licensed driver (art. 5º, III)."""


def _digits(text: Any) -> str:
    return "".join(c for c in text if c.isdigit()) if isinstance(text, str) else ""


def _licence_items(
    request: ComputeInput, data: Mapping[str, Any]
) -> tuple[PriorRecord | None, list[Item]]:
    """The Licença Temporária the termo rests on, in the registry (module docstring)."""
    laws = statutory_context(request).laws
    found, items = parent_act_items(
        request.history, LICENCE_FORM, pointers.get(data, LICENCE + "/numero"),
        maybe_date(pointers.get(data, LICENCE + "/valido_ate")), request.on,
        "Licença Temporária", (TERMO,), number_field=LICENCE + "/numero",
        until_field=LICENCE + "/valido_ate", plate=pointers.get(data, "/veiculo/placa"),
        consequence="o termo não pode ser lavrado", feminine=True, laws=laws,
    )
    if found is None:
        return None, items
    label = f"A Licença Temporária {found.printed}"
    if pointers.get(found.data, "/modalidade") != "veiculo_substituto":
        items.append(item_at(
            LICENCE + "/numero", Status.INVALID,
            f"{label} não é licença para veículo substituto ({short(laws, VEHICLE_LICENCE)}): "
            f"o termo do {short(laws, TERMO)} é do condutor do veículo substituto; o condutor "
            "substituto por motivo de saúde é o titular da própria licença.",
            TERMO))
    held = pointers.get(found.data, "/veiculo_substituto/placa")
    if same_plate(held, pointers.get(data, "/veiculo_substituto/placa")) is False:
        items.append(item_at(
            "/veiculo_substituto/placa", Status.INVALID,
            f"{label} é para o veículo substituto de placa {held}, não para este.", TERMO))
    holder = _digits(pointers.get(found.data, "/titular/cpf"))
    typed = _digits(pointers.get(data, "/titular/cpf"))
    if holder and typed and holder != typed:
        items.append(item_at(
            "/titular/cpf", Status.INVALID,
            f"{label} é de outro condutor licenciado (CPF {mask_cpf_cnpj(holder)}).", TERMO))
    return found, items


def _driver_items(data: Mapping[str, Any], laws: Any) -> list[Item]:
    """III, "se o condutor ... não for o condutor licenciado": only another driver signs."""
    driver = _digits(pointers.get(data, "/condutor/cpf"))
    holder = _digits(pointers.get(data, "/titular/cpf"))
    if not driver or not holder:
        return []
    if driver == holder:
        return [item_at(
            "/condutor/cpf", Status.INVALID,
            f"O condutor informado é o próprio condutor licenciado: só o condutor do veículo "
            f"substituto que não seja o licenciado assina o termo ({short(laws, TERMO)}).",
            TERMO)]
    return [item_at(
        "/condutor/cpf", Status.MET,
        f"Condutor do veículo substituto distinto do condutor licenciado ({short(laws, TERMO)}).",
        TERMO)]


def termo_condutor_substituto(request: ComputeInput) -> Computed:
    """The licence it rests on, the driver, and the term (module docstring).

    ``values``: ``licenca_numero`` (with its series, from the registry), ``inicio_vigencia``,
    ``valido_ate``, ``vigencia_explicacao``, ``limitado_por`` (``licenca`` or ``cnh``),
    ``pendente``.
    """
    data = data_of(request)
    on = request.on
    laws = statutory_context(request).laws
    found, items = _licence_items(request, data)
    items.extend(_driver_items(data, laws))
    items.extend(issue_items(on, request.issued_on, "/data_termo", "o termo", TERMO))
    typed = clean_text(pointers.get(data, LICENCE + "/numero"))
    number = found.printed if found is not None else typed
    licence_end = (
        found.valid_until if found is not None and found.valid_until is not None
        else maybe_date(pointers.get(data, LICENCE + "/valido_ate"))
    )
    if licence_end is None:
        pending = licence_pending("Informe a validade da Licença Temporária.")
        return Computed({"licenca_numero": number, **pending}, unique_items(items))
    limits = [Limit(
        licence_end,
        f"o vencimento da Licença Temporária {number}, à qual o termo se vincula "
        f"({short(laws, TERMO)})", (TERMO,))]
    cnh_end = maybe_date(pointers.get(data, "/condutor/cnh/validade"))
    if cnh_end is not None:
        limits.append(Limit(cnh_end, "a validade da CNH do condutor", (TERMO,)))
    chosen = earliest(limits)
    values = {
        "licenca_numero": number,
        "inicio_vigencia": on,
        "valido_ate": chosen.end,
        "limitado_por": "licenca" if chosen is limits[0] else "cnh",
        "vigencia_explicacao": (
            f"O condutor pode conduzir o veículo substituto, conforme este termo, de "
            f"{format_date(on)} a {format_date(chosen.end)}. {validity_explanation(limits)}"
        ),
        "pendente": None,
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "termo_condutor_substituto": termo_condutor_substituto,
}
"""The computation of this module a form may name under ``"calculos"``."""
