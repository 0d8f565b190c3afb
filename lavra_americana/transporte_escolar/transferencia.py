"""The transfer of the school-transport licence, Lei nº 4.515/2007: art. 15 (with art. 7º,
art. 14 and art. 16, III).

"A licença poderá ser transferida, desde que observados os seguintes requisitos: I - tenha
decorrido o prazo mínimo de 2 (dois) anos de sua expedição e desde que, nesse período,
tenha havido efetivo exercício da atividade, salvo impedimento decorrente de morte ou
enfermidade que impossibilite o exercício da profissão por mais de 6 (seis) meses; II - o
recebedor da transferência do alvará preencha as exigências previstas no art. 7º". § 1º:
valid only once signed by both parties, the fee paid and the transfer registered in the
Cadastro de Atividades "dentro do prazo máximo de 60 (sessenta) dias". § 2º: the licensee
who transferred "não poderá obter outra licença, antes de decorridos 3 (três) anos da data
da transferência".

``requerimento_transferencia_licenca`` — the requerimento both parties sign
    Art. 15, I and II on the date of the requerimento, the licence in the registry, and the
    fee of art. 16, III printed (informative: its receipt may follow; the termo requires it).

``termo_transferencia_licenca`` — the termo (TRF-ESC), signed by the Secretário
    The same on the date of the termo, plus: the fee paid on or before the termo (§ 1º);
    the 60 days of § 1º counted from the parties' signatures (``legal_text/prazos.json``,
    ``transporte-escolar#art15_par1``, on the municipal calendar); the receiver's own bar
    and licences from the registry (arts. 14 and 15, § 2º: receiving a transfer is obtaining
    a licence); and the transferor's 3-year bar stated, to the day.

Readings (the law is silent; each chosen as written here):

- The exception of inciso I ("salvo impedimento decorrente de morte ou enfermidade…")
  closes the whole inciso: a licensee who died, or whose illness keeps him from the
  profession for more than 6 months, may transfer before the 2 years and without the
  effective exercise the illness or death prevented. It is the reading that protects the
  licensee's family, the case the exception was written for. The proof is the death
  certificate, or a medical report attesting the incapacity for more than 6 months; the
  event must fall after the licence was issued and not after the requerimento.
- The 2 years (inciso I) and the 3 years (§ 2º) are a minimum period and a bar, counted
  from date to date with their last day included (art. 66, caput and § 3º, of Lei nº
  9.784/1999; :mod:`lavra_americana.comum.periods`): the 2 years from the licence's
  issue end on the 2nd anniversary, so the transfer may be made from the day after; the
  transferor's bar lasts through the 3rd anniversary of the transfer, and he may obtain
  a new licence from the day after. The deadline table (rows
  ``transporte-escolar#art15_inc1`` and ``#art15_par2``) counts the same way, and so
  do the eligibility rules (:func:`lavra_americana.transporte_escolar.
  eligibility.licence_items`): all three ask :func:`lavra_americana.comum.periods.
  free_from`.
- The receiver meets art. 7º as a titular, I to IX, by the rules of the inscription
  (:func:`lavra_americana.transporte_escolar.requerimentos.requerimento_inscricao_escolar`).
  Art. 15, II asks "as exigências previstas no art. 7º", with no exception: IX (the
  Edital's further demands on the proof of I to VIII) included (issue 23, class 4: it
  used to be waived because a transfer has no selection, which no provision says).
  Reading kept: the receiver proves the incisos as the Edital de Chamamento in force
  requires (art. 10, parágrafo único: the edital states "a documentação a ser
  apresentada"), named by its number (``/edital``).
- The date of the transfer (§ 2º) is the date of the termo, the act of the
  Administration that admits it.
- The licence transferred is looked up in the registry (``alvara-transporte-escolar``):
  found, its number is printed with its series and it must be the transferor's, not
  cancelled and in force; not found (an alvará issued before the registry), the number
  as typed is printed and nothing is blocked: the Secretaria checks its own file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date
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
from lavra.inputs.formats import unmask
from lavra.inputs.reading import maybe_date
from lavra.law.model import Law
from lavra.law.statutory import StatutoryContext, deadline_for
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, issue_items
from lavra_americana.comum.guards import bar_items, held_items
from lavra_americana.comum.periods import anniversary, bar_lifted, free_from
from lavra_americana.comum.sources import rule_sources
from lavra_americana.comum.validity import parent_act_items
from lavra_americana.transporte_escolar.alvara import fee_values
from lavra_americana.transporte_escolar.estado import PER_PERSON
from lavra_americana.transporte_escolar.requerimentos import requerimento_inscricao_escolar
from lavra_americana.transporte_escolar.transferencia_acessorios import accessories_explanation

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "TERMO",
    "requerimento_transferencia_licenca",
    "termo_transferencia_licenca",
    "transferor_bar_items",
]

SCHOOL = "transporte-escolar"
TRANSFER = f"{SCHOOL}#art15"
MINIMUM = f"{SCHOOL}#art15_inc1"
RECEIVER = f"{SCHOOL}#art15_inc2"
VALIDITY = f"{SCHOOL}#art15_par1"
BAR = f"{SCHOOL}#art15_par2"
FEE = f"{SCHOOL}#art16_inc3"
MINIMUM_PARAMETER = f"{SCHOOL}.carencia_transferencia"
BAR_PARAMETER = f"{SCHOOL}.carencia_nova_licenca_apos_transferencia"
ALVARA = "alvara-transporte-escolar"
TERMO = "termo-transferencia-licenca"

IMPLEMENTED: tuple[str, ...] = (TRANSFER, MINIMUM, RECEIVER, VALIDITY, BAR, FEE)
"""Citations these computations apply (coverage): the transfer (art. 15), its minimum
period and exception (I), the receiver's requirements (II), what makes it valid (§ 1º),
the transferor's bar (§ 2º), and the transfer fee (art. 16, III)."""

# Where the inscription's items go in these forms.
_RECEIVER_FIELDS = (("/candidato", "/cessionario"), ("/documentos", "/documentos_cessionario"))
_EVENTS = {"morte": "morte", "enfermidade": "enfermidade"}


def _same_person(one: Any, other: Any) -> bool | None:
    first, second = clean_text(one), clean_text(other)
    if first is None or second is None:
        return None
    return unmask(first) == unmask(second)


# ------------------------------------------------------------------ art. 15, I


def _exception_items(data: Mapping[str, Any], on: date, issued: date) -> tuple[bool, list[Item]]:
    """The exception of art. 15, I (death, or illness for more than 6 months), proven."""
    event = pointers.get(data, "/impedimento/motivo")
    if event not in _EVENTS:
        return False, []
    when = maybe_date(pointers.get(data, "/impedimento/data"))
    proof = "certidao_obito" if event == "morte" else "laudo_medico"
    field = f"/documentos_cedente/{proof}"
    if pointers.get(data, field + "/apresentado") is not True:
        what = "a certidão de óbito" if event == "morte" else (
            "o laudo médico que ateste a enfermidade e a impossibilidade de exercer a "
            "profissão por mais de 6 (seis) meses"
        )
        return False, [
            item_at(field, Status.MISSING, f"Para a ressalva de {event} (art. 15, I), "
                    f"apresente {what}.", MINIMUM)
        ]
    if event == "enfermidade" and pointers.get(
        data, "/impedimento/incapacidade_superior_seis_meses"
    ) is not True:
        return False, [
            item_at(
                "/impedimento/incapacidade_superior_seis_meses",
                Status.INVALID,
                "A ressalva do art. 15, I, exige enfermidade que impossibilite o exercício da "
                "profissão por mais de 6 (seis) meses: o laudo não o atesta.",
                MINIMUM,
            )
        ]
    if when is not None and not issued <= when <= on:
        return False, [
            item_at(
                "/impedimento/data",
                Status.INVALID,
                f"A {event} em {format_date(when)} não ocorreu no exercício da licença, "
                f"expedida em {format_date(issued)}, até {format_date(on)}: a ressalva do "
                "art. 15, I, não se aplica.",
                MINIMUM,
            )
        ]
    return True, []


def _verdict(field: str, status: Status, message: str) -> Item:
    """The verdict on art. 15, I (a requirement of its own, beside the field's)."""
    return Item("transferencia.prazo_minimo", status, field, message, (MINIMUM,))


def _minimum_items(
    data: Mapping[str, Any], on: date, context: StatutoryContext
) -> tuple[dict[str, Any], list[Item]]:
    """Art. 15, I: 2 years from the licence's issue with effective exercise, or the
    exception of death or illness (module docstring)."""
    issued = maybe_date(pointers.get(data, "/licenca/expedida_em"))
    if issued is None:
        return {}, []  # the schema reports it missing
    ref = short(context.laws, MINIMUM)
    try:
        years = int(context.parameters.value(MINIMUM_PARAMETER, on).value)
    except LavraError as error:
        message = f"Não foi possível verificar o prazo do {ref}: {error.message}"
        return {}, [item_at("/licenca/expedida_em", Status.MISSING, message, MINIMUM)]
    free_on = free_from(issued, years=years)  # the 2nd anniversary itself is inside the 2 years
    elapsed = bar_lifted(issued, on, years=years)
    exercised = pointers.get(data, "/exercicio_efetivo") is True
    excepted, items = _exception_items(data, on, issued)
    values = {"transferivel_desde": free_on, "ressalva": excepted}
    since = f"Licença expedida em {format_date(issued)}"
    if excepted:
        event = _EVENTS[str(pointers.get(data, "/impedimento/motivo"))]
        message = (
            f"{since}: transferência admitida pela ressalva de impedimento decorrente de "
            f"{event}, comprovada ({ref}), sem o prazo de {years} anos e o efetivo exercício."
        )
        items.append(_verdict("/licenca/expedida_em", Status.MET, message))
    elif not elapsed:
        items.append(
            _verdict(
                "/licenca/expedida_em",
                Status.INVALID,
                f"{since}: a licença só pode ser transferida depois de decorrido o prazo "
                f"mínimo de {years} anos da expedição, que se estende até "
                f"{format_date(anniversary(issued, years=years))}, inclusive; a "
                f"transferência é admissível a partir de {format_date(free_on)}, "
                "salvo impedimento decorrente de morte ou enfermidade que impossibilite o "
                f"exercício da profissão por mais de 6 (seis) meses, comprovado ({ref}).",
            )
        )
    elif not exercised:
        items.append(
            _verdict(
                "/exercicio_efetivo",
                Status.INVALID,
                f"{since}: decorridos os {years} anos, a transferência exige o efetivo "
                "exercício da atividade nesse período, que não foi declarado, salvo "
                f"impedimento decorrente de morte ou enfermidade, comprovado ({ref}).",
            )
        )
    else:
        items.append(
            _verdict(
                "/licenca/expedida_em",
                Status.MET,
                f"{since}: decorridos os {years} anos em "
                f"{format_date(anniversary(issued, years=years))}, transferência admissível "
                f"desde {format_date(free_on)}, com efetivo exercício da atividade ({ref}).",
            )
        )
    values["explicacao"] = items[-1].message
    return values, items


# ------------------------------------------------------------------ art. 15, II


def _at_receiver_field(item: Item) -> Item:
    field = item.field
    for old, new in _RECEIVER_FIELDS:
        if field == old or field.startswith(old + "/"):
            field = new + field.removeprefix(old)
    return Item(pointers.dotted(field), item.status, field, item.message,
                (*item.basis, RECEIVER))


def _receiver_items(request: ComputeInput, data: Mapping[str, Any]) -> tuple[str, list[Item]]:
    """Art. 15, II: the receiver meets art. 7º, by the rules of the inscription."""
    inscription = {
        "funcao": "titular",
        "candidato": data.get("cessionario", {}),
        "veiculo": data.get("veiculo", {}),
        "edital": data.get("edital", {}),
        "documentos": data.get("documentos_cessionario", {}),
        "infracoes": data.get("infracoes", []),
    }
    found = requerimento_inscricao_escolar(replace(request, data=inscription))
    items = [_at_receiver_field(item) for item in found.items]
    name = clean_text(pointers.get(data, "/cessionario/nome")) or "O recebedor"
    when = format_date(request.on)
    if any(item.pending for item in items):
        return f"{name} não preenche, em {when}, todas as exigências do art. 7º (art. 15, " \
            "II): veja as pendências.", items
    return (
        f"{name} preenche, em {when}, as exigências do art. 7º, incisos I a IX, exigidas "
        "do recebedor da transferência (art. 15, II)."
    ), items


def _registry_person_items(
    request: ComputeInput, cpf: Any, on: date, context: StatutoryContext, field: str,
    licence: str | None,
) -> list[Item]:
    """Arts. 14 and 15, § 2º, for whoever is to obtain a licence by the transfer, from the
    licensing state: *invalid* for a school licence in force they hold (the one
    transferred excepted) and while the bar of a termo by which they transferred one runs;
    each names the act and the article. Nothing without a registry: it alone knows them."""
    history, dotted = request.history, pointers.dotted(field)
    held = held_items(history, on, cpf_cnpj=cpf, group=PER_PERSON,
                      allowed=() if licence is None else (licence,), who="O cessionário",
                      field=field, basis=(f"{SCHOOL}#art14",), laws=context.laws)
    barred = bar_items(history, cpf, PER_PERSON, on, who="O cessionário",
                       what="licença de transporte escolar, nem por transferência",
                       by="pelo termo de transferência", field=field, basis=(BAR,),
                       laws=context.laws)
    return [*(replace(i, requirement=f"{dotted}.licencas") for i in held),
            *(replace(i, requirement=f"{dotted}.transferencia") for i in barred)]


def transferor_bar_items(
    history: History | None, cpf: Any, on: date, context: StatutoryContext, field: str
) -> list[Item]:
    """Art. 15, § 2º, where a new licence is granted (the alvará de expedição), from the
    licensing state: *invalid* while the bar the termo de transferência set on the cedente
    runs (:data:`lavra_americana.transporte_escolar.estado.PER_PERSON`, 3 years from the
    transfer), naming the termo, its last day and the article. The state holds every
    termo lavra issued or imported; nothing without a registry. A transfer on paper,
    before lavra and not imported, is outside it: the servant's attestation
    (``/selecao/conferencia_transferencia``) covers it, and the alvará says so."""
    return [replace(item, requirement=f"{pointers.dotted(field)}.transferencia")
            for item in bar_items(history, cpf, PER_PERSON, on, who="O transportador",
                                  what="nova licença de transporte escolar",
                                  by="pelo termo de transferência", field=field, basis=(BAR,),
                                  laws=context.laws)]


# ------------------------------------------------------------------ the licence


def _licence_values(
    request: ComputeInput, data: Mapping[str, Any], on: date, laws: Mapping[str, Law]
) -> tuple[str | None, list[Item]]:
    """The licence transferred, from the registry when it holds it (module docstring)."""
    typed = clean_text(pointers.get(data, "/licenca/numero"))
    found, items = parent_act_items(
        request.history, ALVARA, typed, maybe_date(pointers.get(data, "/licenca/valido_ate")),
        on, "alvará transferido", (TRANSFER,), number_field="/licenca/numero",
        until_field="/licenca/valido_ate",
        consequence="a transferência não pode ser admitida", laws=laws,
    )
    if found is None:  # an alvará before the registry: the Secretaria's file, as stated
        until = maybe_date(pointers.get(data, "/licenca/valido_ate"))
        if until is None or until >= on:
            return typed, []
        return typed, [
            item_at("/licenca/valido_ate", Status.INVALID,
                    f"O alvará {typed} venceu em {format_date(until)}, antes de "
                    f"{format_date(on)}: licença não renovada não se transfere (art. 13; "
                    "art. 15).", TRANSFER, f"{SCHOOL}#art13")
        ]
    if _same_person(pointers.get(found.data, "/titular/cpf"),
                    pointers.get(data, "/cedente/cpf")) is False:
        items.append(
            item_at(
                "/licenca/numero",
                Status.INVALID,
                f"O alvará {found.printed} não é do cedente, segundo o registro: só o "
                "licenciado pode transferir a sua licença (art. 15).",
                TRANSFER,
            )
        )
    return found.printed, items


# ------------------------------------------------------------------ the computations


def _common(request: ComputeInput) -> tuple[dict[str, Any], list[Item], StatutoryContext]:
    data = data_of(request)
    on = request.on
    context, sources = rule_sources(request, False)
    printed, items = _licence_values(request, data, on, context.laws)
    minimum, found = _minimum_items(data, on, context)
    items.extend(found)
    receiver, found = _receiver_items(request, data)
    items.extend(found)
    fee, _ = fee_values(FEE, on, sources, "/taxa")
    values: dict[str, Any] = {
        "licenca_numero": printed,
        "prazo_minimo": minimum,
        "cessionario_atende": receiver,
        "taxa": fee,
    }
    return values, items, context


def requerimento_transferencia_licenca(request: ComputeInput) -> Computed:
    """Art. 15, I and II, on the date of the requerimento; the fee printed.

    ``values``: ``licenca_numero`` (with its series when the registry holds it),
    ``prazo_minimo`` (``transferivel_desde``, ``ressalva``, ``explicacao``),
    ``cessionario_atende``, ``taxa`` (as in the alvará).
    """
    values, items, _ = _common(request)
    return Computed(values, unique_items(items))


def _fee_paid_items(data: Mapping[str, Any], on: date, fee: Mapping[str, Any]) -> list[Item]:
    """§ 1º: valid only with the fee paid; paid on or before the termo."""
    paid = maybe_date(pointers.get(data, "/taxa/data_pagamento"))
    if paid is None:
        return []  # the schema reports the payment missing
    field = "/taxa/data_pagamento"
    if paid > on:
        return [
            item_at(field, Status.INVALID,
                    f"A taxa de transferência foi recolhida em {format_date(paid)}, depois do "
                    f"termo ({format_date(on)}): a transferência só é válida recolhida a taxa "
                    "(art. 15, § 1º).", VALIDITY, FEE)
        ]
    amount = f" ({fee['valor_texto']})" if fee.get("valor_texto") else ""
    return [item_at(field, Status.MET, f"Taxa de transferência{amount} recolhida em "
                    f"{format_date(paid)} (art. 15, § 1º; art. 16, III).", VALIDITY, FEE)]


def _registration_items(
    data: Mapping[str, Any], on: date, context: StatutoryContext
) -> tuple[dict[str, Any] | None, list[Item]]:
    """§ 1º: the 60 days, from the parties' signatures, to register the transfer."""
    signed = maybe_date(pointers.get(data, "/assinaturas/data"))
    if signed is None:
        return None, []  # the schema reports it missing
    if signed > on:
        return None, [
            item_at("/assinaturas/data", Status.INVALID,
                    f"As assinaturas dos interessados ({format_date(signed)}) são posteriores "
                    f"ao termo ({format_date(on)}): o termo registra a transferência já "
                    "assinada (art. 15, § 1º).", VALIDITY)
        ]
    try:
        deadline = deadline_for(VALIDITY, signed, context=context)
    except LavraError as error:
        message = f"Não foi possível calcular o prazo do registro: {error.message}"
        return None, [item_at("/assinaturas/data", Status.MISSING, message, VALIDITY)]
    values = {"assinado_em": signed, "ultimo_dia": deadline.last_day,
              "explicacao": deadline.explanation}
    registered = maybe_date(pointers.get(data, "/cadastro/data_registro"))
    if registered is not None:
        judged = check_timeliness(VALIDITY, signed, registered, context=context,
                                  field="/cadastro/data_registro")
        values["registrado_em"] = registered
        return values, list(judged.items)
    field = "/assinaturas/data"
    if on > deadline.last_day:
        return values, [
            item_at(field, Status.INVALID,
                    f"O prazo de 60 dias para o registro da transferência no Cadastro de "
                    f"Atividades, contado das assinaturas em {format_date(signed)}, encerrou-se "
                    f"em {format_date(deadline.last_day)} sem registro: a transferência não se "
                    "aperfeiçoou (art. 15, § 1º). Os interessados devem requerê-la de novo.",
                    VALIDITY)
        ]
    return values, [
        item_at(field, Status.MET,
                f"Registro no Cadastro de Atividades a efetuar até "
                f"{format_date(deadline.last_day)} (art. 15, § 1º).", VALIDITY)
    ]


def _bar_values(on: date, context: StatutoryContext) -> dict[str, Any] | None:
    """§ 2º stated in the termo: the first day the transferor may obtain a licence."""
    try:
        years = int(context.parameters.value(BAR_PARAMETER, on).value)
    except LavraError:
        return None
    last, free_on = anniversary(on, years=years), free_from(on, years=years)
    return {
        "anos": years,
        "ultimo_dia": last,
        "livre_em": free_on,
        "explicacao": (
            f"O cedente não poderá obter outra licença de transporte escolar antes de "
            f"decorridos {years} anos da data desta transferência ({format_date(on)}): o "
            f"impedimento dura até {format_date(last)}, inclusive, e cessa em "
            f"{format_date(free_on)} ({short(context.laws, BAR)})."
        ),
    }


def termo_transferencia_licenca(request: ComputeInput) -> Computed:
    """The termo: art. 15, I, II, §§ 1º and 2º, and the fee (module docstring).

    ``values``: those of the requerimento, plus ``registro`` (``assinado_em``,
    ``ultimo_dia``, ``registrado_em``, ``explicacao``), ``impedimento_cedente``
    (``anos``, ``ultimo_dia``, ``livre_em``, ``explicacao``), ``acessorios_explicacao``
    (the selo and the acts the transfer ends or passes on, from the registry:
    :mod:`lavra_americana.transporte_escolar.transferencia_acessorios`).
    """
    data = data_of(request)
    on = request.on
    values, items, context = _common(request)
    items.extend(_fee_paid_items(data, on, values["taxa"]))
    fee_pending = values["taxa"].get("pendente")
    if fee_pending:
        items.append(item_at("/taxa", Status.MISSING, fee_pending, FEE))
    registration, found = _registration_items(data, on, context)
    items.extend(found)
    items.extend(
        _registry_person_items(request, pointers.get(data, "/cessionario/cpf"), on, context,
                               "/cessionario/cpf", values["licenca_numero"])
    )
    items.extend(issue_items(on, request.issued_on, "/data_termo", "o termo", TRANSFER))
    bar = _bar_values(on, context)
    if bar is None:
        items.append(item_at("/data_termo", Status.MISSING,
                             "Não foi possível calcular o impedimento do cedente (art. 15, "
                             "§ 2º): falta o parâmetro.", BAR))
    values.update({"registro": registration, "impedimento_cedente": bar,
                   "acessorios_explicacao": accessories_explanation(request, data,
                                                                    context.laws)})
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "requerimento_transferencia_licenca": requerimento_transferencia_licenca,
    "termo_transferencia_licenca": termo_transferencia_licenca,
}
"""The computations of this module a form may name under ``"calculos"``."""
