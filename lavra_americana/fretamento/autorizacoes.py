"""The two authorisations of SETRANSV a fretamento company asks for (Lei nº 4.419/2006),
and their requerimentos:

- ``autorizacao-previa-alteracao-veiculo`` (series ``AAV-FRET``) and its fillable
  ``requerimento-autorizacao-alteracao-veiculo``: "Nenhum veículo poderá ter modificada
  sua característica sem prévia autorização da autoridade de trânsito" (art. 10, § 3º).
  The authority is the Secretário of SETRANSV, to whom the law gives the licensing and
  discipline of the service (art. 2º), who signs it.
- ``autorizacao-veiculo-terceiro`` (series ``AVT-FRET``) and its fillable
  ``requerimento-autorizacao-veiculo-terceiro``: a company may use another company's
  vehicle only with the authorisation of SETRANSV, save in "caso de socorro,
  devidamente comprovado" (art. 15, VI, which fines the use without it).

Each act rests on alvarás (:func:`_licence`). When the registry holds the alvará it must
be there, in force on the date of the act, not cancelled, the vehicle's (by plate) and
the company's (by CNPJ); its vencimento is the registry's. An alvará issued before the
registry existed (on paper) is accepted for the *act* only when a servant attests that he
checked the original (``conferencia``: who and when), as the alvará attests the
requerimento (:mod:`lavra_americana.fretamento.alvara`): lavra does not certify an act
nobody saw, and a holder is not refused for the registry's youth. A *requerimento*
(filed by the company) only reports what the registry contradicts and a vencimento
already past: the clerk checks a paper alvará at the counter.

Alteration (art. 10, § 3º). The vehicle (``/veiculo``) is described as it will be after
the alteration, and must still have every characteristic of art. 10: the age limit of
its type (I, the form's check ``idade_veiculo``: an alteration that changes the type
changes the limit), upholstered seats with belts (II), licensing in Americana (III), at
least 8 seated passengers besides the driver (IV), head rests (V), tachograph (VI), no
taxímetro (§ 2º), and for an ônibus one door and coach seats (§ 6º) — the schema says
each, with its basis. Art. 10, VII is in force without text in the official source: the
engine's notice says the act does not apply it (issue 10, class 5), and the act is not
held for it. *Reading chosen:* an alteration that would break art. 10 makes the
authorisation *invalid*, with the reason at the field, rather than an act that
authorises nothing: the act is the grant, the refusal is its own reasoned decision (Lei
nº 9.784/1999, art. 50, I: the decisão de indeferimento, built from the same report,
which lists each unmet requirement with its basis). The law sets no term to carry out
the alteration; *reading:* the authorisation lasts while the alvará it modifies is in
force (and the vehicle within its age limit): no shorter term without a legal basis.
Once altered, the vehicle needs its alvará updated before it circulates (art. 10, § 5º):
the act says so.

Another company's vehicle (art. 15, VI). Two different companies (the same CNPJ needs no
authorisation); the vehicle's alvará in the name of the other company (it must be
licensed) and an alvará of the authorised company (it must be licensed too: the law
fines "a empresa ou entidade" of the service); the period (``/periodo``) from the date of
the act on (an authorisation does not make past use lawful); the reason; the vehicle
used within art. 10, I (its year and type, the registry's when it holds its alvará:
:mod:`lavra_americana.fretamento.veiculo_terceiro`). The authorisation ends at the
earliest of the period asked, the vehicle's alvará, the company's alvará and the
vehicle's age limit (:func:`lavra_americana.comum.validity.earliest`, printed by
``validity_explanation`` as the alvarás print theirs): it cannot outlive either.
*Reading chosen where the law is silent:* no maximum period other than those alvarás —
a shorter cap would restrict the company without a legal basis (Lei nº 9.784/1999, art.
2º); a period longer than an alvará is granted up to it, and the act says why, rather
than refused. Proven emergency (socorro) needs no authorisation: the act and the
requerimento say so. The vehicle's inspection (art. 10, § 4º; art. 7º, XI) is presented
and at most 12 months old on the date (the form's check); as for the alvará, it is a
condition of use renewed every 12 months, not a term of the authorisation: the act says
so and is not cut to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    in_legal_order,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.inputs.formats import has_cnpj_shape, mask_cnpj
from lavra.law.statutory import StatutoryContext
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum.citing import numbered, short
from lavra_americana.comum.computing import after_issue, data_of, date_at
from lavra_americana.comum.guards import state_holder
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import (
    Limit,
    earliest,
    parent_act_items,
    validity_explanation,
    vehicle_limit,
)
from lavra_americana.fretamento.alvara import FORM as ALVARA
from lavra_americana.fretamento.veiculo_terceiro import AGE, third_party_vehicle_age

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "autorizacao_alteracao_veiculo",
    "autorizacao_veiculo_terceiro",
    "requerimento_autorizacao_alteracao_veiculo",
    "requerimento_autorizacao_veiculo_terceiro",
]

LAW = "fretamento"
COMPETENCE = f"{LAW}#art2"
ALTERATION = f"{LAW}#art10_par3"
UPDATED = f"{LAW}#art10_par5"
THIRD_PARTY = f"{LAW}#art15_inc6"
LICENCE_TERM = f"{LAW}#art8"
SHOWN = f"{LAW}#art11_inc2_ali2"
INSPECTION = f"{LAW}#art10_par4"
INSPECTION_RENEWED = f"{LAW}#art7_inc11"
THIRD_PARTY_SHOWN = f"{LAW}#art15_inc4"
CHARACTERISTICS = (
    *(f"{LAW}#art10_inc{n}" for n in range(1, 7)),
    f"{LAW}#art10_par2",
    f"{LAW}#art10_par6",
)

IMPLEMENTED: tuple[str, ...] = (ALTERATION, THIRD_PARTY)
"""Citations these computations apply (coverage): the prior authorisation to alter a
vehicle (art. 10, § 3º) and the authorisation to use another company's vehicle (art.
15, VI), each bounded by the alvarás it rests on."""


@dataclass(frozen=True)
class _Licence:
    """An alvará an authorisation rests on: its vencimento (None when unknown), how it
    is printed, and the report items about it."""

    end: date | None
    printed: str | None
    items: tuple[Item, ...]
    record: Mapping[str, Any] | None = None


def _masked(cnpj: str) -> str:
    return mask_cnpj(cnpj) if has_cnpj_shape(cnpj) else cnpj


def _digits(value: Any) -> str | None:
    text = clean_text(value)
    return "".join(c for c in text if c.isdigit()) if text else None


def _attested(data: Mapping[str, Any], pointer: str, on: date, what: str,
              basis: tuple[str, ...]) -> list[Item]:
    """The servant's check of a paper alvará the registry lacks (act only)."""
    field = pointer + "/conferencia"
    entry = pointers.get(data, field)
    number = clean_text(pointers.get(data, pointer + "/numero")) or "-"
    if not isinstance(entry, Mapping) or clean_text(entry.get("responsavel")) is None:
        return [
            item_at(
                field,
                Status.MISSING,
                f"O {numbered(what, number)} não consta do registro de documentos emitidos: "
                "um servidor deve conferi-lo no original (em vigor, não cancelado, do "
                "veículo e da empresa indicados) e registrar a conferência (quem e quando). "
                "Sem isso a autorização não pode ser expedida.",
                *basis,
            )
        ]
    checked = date_at(entry, "/data")
    if checked is None or checked > on:
        return [
            item_at(
                field + "/data",
                Status.INVALID,
                f"A conferência do alvará no original deve ser feita até a data do ato "
                f"({format_date(on)}).",
                *basis,
            )
        ]
    who = clean_text(entry.get("responsavel"))
    return [
        item_at(
            field,
            Status.MET,
            f"{numbered(what, number)} conferido no original por {who} em "
            f"{format_date(checked)}.",
            *basis,
        )
    ]


def _licence(
    request: ComputeInput,
    pointer: str,
    what: str,
    basis: tuple[str, ...],
    *,
    on: date,
    cnpj_pointer: str,
    plate: Any = None,
    act: bool,
) -> _Licence:
    """The alvará at ``pointer`` (``numero``, ``valido_ate``): the registry's when it
    holds it (in force on ``on``, not cancelled, the vehicle's and the company's), else
    the stated one, attested by a servant for an act (module docstring)."""
    data = data_of(request)
    number = clean_text(pointers.get(data, pointer + "/numero"))
    stated = date_at(data, pointer + "/valido_ate")
    if number is None:
        return _Licence(stated, None, ())  # the schema reports it missing
    found, items = parent_act_items(
        request.history, ALVARA, number, stated, on, what, basis,
        number_field=pointer + "/numero", until_field=pointer + "/valido_ate",
        plate=plate, consequence="a autorização não pode ser expedida",
        laws=statutory_context(request).laws,
    )
    if found is not None:
        # The holder the state holds (a transfer moves it), else the act's own copy.
        holder = (state_holder(request.history, found.printed, ALVARA)
                  or _digits(pointers.get(found.data, "/empresa/cnpj")))
        wanted = _digits(pointers.get(data, cnpj_pointer))
        if holder and wanted and holder != wanted:
            items = [i for i in items if i.status is not Status.MET] + [
                item_at(
                    pointer + "/numero",
                    Status.INVALID,
                    f"O {what} {found.printed} é, segundo o registro, de outra empresa "
                    f"(CNPJ {_masked(holder)}), não da indicada.",
                    *basis,
                )
            ]
        return _Licence(found.valid_until or stated, found.printed, tuple(items), found.data)
    items = _attested(data, pointer, on, what, basis) if act else []
    if stated is not None and stated < on:
        items.append(
            item_at(
                pointer + "/valido_ate",
                Status.INVALID,
                f"O {numbered(what, number)} venceu em {format_date(stated)}: não está em "
                f"vigor em {format_date(on)}.",
                *basis,
            )
        )
    return _Licence(stated, format_act_number(number), tuple(items))


def _dates(request: ComputeInput, on: date, basis: str, *, act: bool) -> list[Item]:
    """The act not after its issue, and the requerimento it answers not after it."""
    if not act:
        return []
    data = data_of(request)
    items = after_issue(on, request.issued_on, "/data", "data da autorização", basis)
    filed = date_at(data, "/processo/data_requerimento")
    if filed is not None and filed > on:
        items.append(
            item_at(
                "/processo/data_requerimento",
                Status.INVALID,
                f"O requerimento ({format_date(filed)}) não pode ser posterior à autorização "
                f"({format_date(on)}).",
                basis,
            )
        )
    return items


def _alteration(request: ComputeInput, company: str, *, act: bool) -> Computed:
    """Art. 10, § 3º: the vehicle's alvará, and the term the authorisation lasts."""
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    items = _dates(request, on, ALTERATION, act=act)
    licence = _licence(
        request, "/alvara", "Alvará de Licença de Circulação do veículo", (ALTERATION,),
        on=on, cnpj_pointer=company + "/cnpj", plate=pointers.get(data, "/veiculo/placa"),
        act=act,
    )
    items.extend(licence.items)
    values: dict[str, Any] = {
        "fundamento": in_legal_order(
            (COMPETENCE, *CHARACTERISTICS, ALTERATION, UPDATED), context.laws
        ),
        "alvara": licence.printed,
        "valido_ate": None,
        "vigencia_explicacao": None,
    }
    limits = _alvara_limit(licence, "do Alvará de Licença de Circulação do veículo", context)
    vehicle = vehicle_limit(
        data, "/veiculo", on, context, "fretamento",
        kind=clean_text(pointers.get(data, "/veiculo/tipo")), what="do veículo alterado",
    )
    if vehicle is not None:
        limits.append(vehicle)
    if limits:
        values["valido_ate"] = earliest(limits).end
        values["vigencia_explicacao"] = validity_explanation(limits)
    return Computed(values, unique_items(items))


def _alvara_limit(licence: _Licence, what: str, context: StatutoryContext) -> list[Limit]:
    if licence.end is None:
        return []
    number = f" {licence.printed}" if licence.printed else ""
    return [
        Limit(
            licence.end,
            f"o vencimento {what}{number} ({short(context.laws, LICENCE_TERM)})",
            (LICENCE_TERM,),
        )
    ]


def _period_items(
    data: Mapping[str, Any], on: date, context: StatutoryContext, *, act: bool
) -> list[Item]:
    start = date_at(data, "/periodo/inicio")
    end = date_at(data, "/periodo/fim")
    items: list[Item] = []
    if start is not None and start < on:
        what = "da autorização" if act else "do requerimento"
        items.append(
            item_at(
                "/periodo/inicio",
                Status.INVALID,
                f"O período começa em {format_date(start)}, antes da data {what} "
                f"({format_date(on)}): a autorização não alcança uso passado (o uso sem ela "
                f"é a infração do {short(context.laws, THIRD_PARTY)}, salvo socorro devidamente "
                "comprovado).",
                THIRD_PARTY,
            )
        )
    if start is not None and end is not None and end < start:
        items.append(
            item_at(
                "/periodo/fim",
                Status.INVALID,
                f"O fim do período ({format_date(end)}) é anterior ao seu início "
                f"({format_date(start)}).",
                THIRD_PARTY,
            )
        )
    return items


def _third_party(request: ComputeInput, company: str, *, act: bool) -> Computed:
    """Art. 15, VI: two companies, both licensed; the period within both alvarás."""
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    items = _dates(request, on, THIRD_PARTY, act=act)
    own, other = _digits(pointers.get(data, company + "/cnpj")), _digits(
        pointers.get(data, "/cedente/cnpj")
    )
    if own and other and own == other:
        items.append(
            item_at(
                "/cedente/cnpj",
                Status.INVALID,
                "A empresa cedente tem o mesmo CNPJ da empresa autorizada: o veículo não é "
                "de outra empresa, e a autorização do art. 15, VI, não se aplica.",
                THIRD_PARTY,
            )
        )
    vehicle = _licence(
        request, "/alvara_veiculo", "Alvará de Licença de Circulação do veículo",
        (THIRD_PARTY,), on=on, cnpj_pointer="/cedente/cnpj",
        plate=pointers.get(data, "/veiculo/placa"), act=act,
    )
    own_licence = _licence(
        request, company + "/alvara", "Alvará de Licença de Circulação da empresa autorizada",
        (THIRD_PARTY,), on=on, cnpj_pointer=company + "/cnpj", act=act,
    )
    items.extend((*vehicle.items, *own_licence.items))
    items.extend(_period_items(data, on, context, act=act))
    age = third_party_vehicle_age(data, vehicle.record, on, context, act=act)
    items.extend(age.items)
    values: dict[str, Any] = {
        "fundamento": in_legal_order(
            (COMPETENCE, INSPECTION_RENEWED, LICENCE_TERM, AGE, INSPECTION, SHOWN,
             THIRD_PARTY_SHOWN, THIRD_PARTY),
            context.laws,
        ),
        "alvara_veiculo": vehicle.printed,
        "alvara_empresa": own_licence.printed,
        "inicio_vigencia": date_at(data, "/periodo/inicio"),
        "valido_ate": None,
        "vigencia_explicacao": None,
        "reduzido": False,
        "veiculo_ano": age.year,
        "veiculo_tipo": age.kind,
    }
    end = date_at(data, "/periodo/fim")
    if end is None:
        return Computed(values, unique_items(items))
    limits = [
        Limit(end, "o fim do período requerido", (THIRD_PARTY,)),
        *_alvara_limit(vehicle, "do Alvará de Licença de Circulação do veículo", context),
        *_alvara_limit(own_licence, "do Alvará de Licença de Circulação da empresa autorizada",
                       context),
        *([age.limit] if age.limit is not None else []),
    ]
    chosen = earliest(limits)
    start = values["inicio_vigencia"]
    if start is not None and chosen.end < start:
        items.append(
            item_at(
                "/periodo/inicio",
                Status.INVALID,
                f"Não há período a autorizar: {chosen.reason} é em {format_date(chosen.end)}, "
                f"antes do início pedido ({format_date(start)}).",
                THIRD_PARTY,
            )
        )
    values.update(
        valido_ate=chosen.end,
        vigencia_explicacao=validity_explanation(limits),
        reduzido=chosen is not limits[0],
    )
    return Computed(values, unique_items(items))


def autorizacao_alteracao_veiculo(request: ComputeInput) -> Computed:
    """The act of art. 10, § 3º. ``values``: ``fundamento``, ``alvara`` (as printed),
    ``valido_ate`` and ``vigencia_explicacao`` (the term to carry out the alteration)."""
    return _alteration(request, "/empresa", act=True)


def requerimento_autorizacao_alteracao_veiculo(request: ComputeInput) -> Computed:
    """The requerimento of art. 10, § 3º (the same values, judged on its date)."""
    return _alteration(request, "/requerente", act=False)


def autorizacao_veiculo_terceiro(request: ComputeInput) -> Computed:
    """The act of art. 15, VI. ``values``: ``fundamento``, ``alvara_veiculo``,
    ``alvara_empresa``, ``inicio_vigencia``, ``valido_ate``, ``vigencia_explicacao``,
    ``reduzido`` (whether an alvará cut the period asked)."""
    return _third_party(request, "/empresa", act=True)


def requerimento_autorizacao_veiculo_terceiro(request: ComputeInput) -> Computed:
    """The requerimento of art. 15, VI (the same values, judged on its date)."""
    return _third_party(request, "/requerente", act=False)


COMPUTATIONS: dict[str, Computation] = {
    "autorizacao_alteracao_veiculo": autorizacao_alteracao_veiculo,
    "requerimento_autorizacao_alteracao_veiculo": requerimento_autorizacao_alteracao_veiculo,
    "autorizacao_veiculo_terceiro": autorizacao_veiculo_terceiro,
    "requerimento_autorizacao_veiculo_terceiro": requerimento_autorizacao_veiculo_terceiro,
}
"""The computations of this module a form may name under ``"calculos"``."""
