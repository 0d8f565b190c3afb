"""The "selo de identificação" of Lei nº 4.515/2007 (transporte escolar): art. 3º, § 2º;
art. 13, §§ 3º and 4º; art. 18.

Art. 3º, § 2º: "Juntamente com o Alvará será expedido 'selo de identificação'
correspondente à licença, devidamente numerado e aprovado pela Autoridade Municipal de
Trânsito." The selo is therefore an act of its own, numbered in its own series
(``SELO-ESC``), signed by the Secretário (the municipal traffic authority who heads
SETRANSV), and bound to one alvará: it identifies the licence, so it shows the alvará's
number, its titular, the vehicle and the validity.

``selo_identificacao`` — its computation
    The alvará it corresponds to is checked in the registry
    (:func:`lavra_americana.comum.validity.act_at`): it exists, is not cancelled, is in
    force on the date of the selo and is the same vehicle's, with the validity the data
    state. Without the registry's record the condition is *missing*: a selo for an
    alvará lavra cannot see would certify a licence nobody checked.
    Validity: the selo "corresponds to" the licence and has no term of its own, so it
    ends with the alvará (``valido_ate`` = the alvará's vencimento as the registry
    records it); it never outlives it. A renewed alvará (art. 13, § 3º: "o alvará
    anual acompanhado do selo") takes a new selo.
    One selo per alvará: a second selo for an alvará that already has one standing (not
    cancelled, in force) is *invalid* unless it declares which selo it replaces
    (``/substitui_selo``: lost, damaged, a replaced windscreen), the 2ª via.
    The date of the selo after the day it is actually issued is *invalid*.
    Layout (art. 18): two copies, to be fixed "em lugar visível, no centro superior
    dos pára-brisas dianteiro e traseiro", and, on a page of its own, the sticker of
    the rear bodywork "Reclamações e Sugestões SAC 3475-9024", "em material adesivado,
    com 20,00cm (vinte centímetros) de lado", printed at that size (a 200 mm square on
    an A4 sheet). The law gives the selo no size; it is printed 90 × 60 mm, small
    enough not to reduce the driver's field of vision at the top of the windscreen.
    The sticker is a page of the selo's document rather than a form of its own: it
    carries no data nor decision (its wording is the law's), has nothing to number or
    sign, and is handed over on the same occasion as the selo (art. 13, § 4º).
    Delivery (art. 13, §§ 3º and 4º) happens after the act is signed: only the
    licensed driver withdraws selo and alvará, presenting the licensed vehicle for the
    SETRANSV inspectors' check and the receipt of the fee. The document prints these
    conditions; the fee itself is checked on the alvará (which the registry holds).

``selo_do_veiculo`` — the selo an auto names (art. 3º, § 2º; art. 18)
    The selo of the vehicle is a fact of the registry: the SELO-ESC in force for the
    plate on the day of the infraction (not cancelled, not ended with its alvará nor
    with a change of vehicle). A number typed in the auto that differs is *invalid*;
    so is a number of the SELO-ESC series the registry does not hold in force for that
    vehicle. Reading chosen where the law is silent: with no selo of lavra in force, a
    typed number outside that series is a paper selo from before lavra and is printed
    as the agent read it on the windscreen.

``selo_do_alvara`` — the selo a new alvará prints (art. 3º, § 2º)
    The selo is issued "juntamente com o Alvará" and corresponds to it: a number of the
    SELO-ESC series the registry already holds belongs to an alvará issued before (the
    one it cites), and is *invalid* in a new alvará, whose selo is a new one. Staff do
    not type it: issuing the alvará one at a time reserves the next SELO-ESC number in
    the same transaction and prints it (``COMPANIONS``); the renewal run numbers both.
    A typed number no selo carries is accepted only as that reservation (the next of
    the series in the year the alvará is issued, or one a run holds); one of another
    year (issue 22), reserved for another alvará, voided, or anything else is *invalid*.
    The selo itself is checked when issued (``selo_identificacao``).
    A number outside the SELO-ESC series is *invalid* too (issue 22, item 3): every
    ALV-ESC lavra issues, expedição or renovação (art. 13, § 3º: "o alvará anual
    acompanhado do selo"), is a new alvará and takes a new selo, numbered in lavra's
    series; a paper selo from before lavra belongs to the paper alvará it came with,
    never to a new one. Reading chosen: the form has no case in which it records a
    pre-lavra selo (a pre-lavra alvará and its selo enter through ``lavra cadastro
    importar``, not through this form). The renewal run, which numbers the selo itself,
    sets this item aside for the stand-in it checks the alvará with before it reserves
    both numbers (``renovacao_lote``).

:func:`selo_data_from_alvara` builds a selo's data from an issued alvará's data alone
(the annual renewal batch issues one with each renewed alvará).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.errors import InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.registry.companions import Companion, NumberState, NumberStates
from lavra.registry.identifiers import overlong_number
from lavra.registry.state import parse_printed
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, issue_items, licence_pending
from lavra_americana.comum.guards import bare_number
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import act_at
from lavra_americana.transporte_escolar.leituras import ALVARA_FORM, answered, selo_questions

__all__ = [
    "ALVARA_FORM",
    "COMPANIONS",
    "COMPUTATIONS",
    "FORM",
    "IMPLEMENTED",
    "SAC_TEXT",
    "selo_data_from_alvara",
    "selo_do_alvara",
    "selo_do_veiculo",
    "selo_identificacao",
]

SCHOOL = "transporte-escolar"
SELO = f"{SCHOOL}#art3_par2"
DELIVERY = f"{SCHOOL}#art13_par3"
WITHDRAWAL = f"{SCHOOL}#art13_par4"
DISPLAY = f"{SCHOOL}#art18"
FORM = "selo-identificacao"
SAC_TEXT = "Reclamações e Sugestões SAC 3475-9024"
"""The rear-bodywork sticker of art. 18, as the law words it (the law's "3475- 9024"
carries a stray space, not part of the number); ``texto.html`` prints it."""

IMPLEMENTED: tuple[str, ...] = (SELO, DELIVERY, DISPLAY)
"""Citations this computation applies (coverage): the numbered selo bound to its
alvará (art. 3º, § 2º), issued with the annual alvará (art. 13, § 3º), and its
display with the SAC sticker (art. 18)."""


def _bare_number(number: str) -> str:
    return number.split()[-1] if number.split() else number


def _one_selo(
    request: ComputeInput, data: Mapping[str, Any], on: date, alvara_number: str
) -> list[Item]:
    """At most one selo standing per alvará, unless this one replaces it (2ª via)."""
    plate = clean_text(pointers.get(data, "/veiculo/placa"))
    if request.history is None or plate is None:
        return []
    replaced = clean_text(pointers.get(data, "/substitui_selo/numero"))
    laws = statutory_context(request).laws
    for record in request.history.in_force(plate, FORM, on):
        number = clean_text(pointers.get(record.data, "/alvara/numero")) or ""
        if _bare_number(number) != _bare_number(alvara_number):
            continue
        if replaced is not None and _bare_number(replaced) == _bare_number(record.number):
            continue
        return [
            item_at(
                "/alvara/numero",
                Status.INVALID,
                f"O alvará {format_act_number(alvara_number)} já tem o selo de identificação "
                f"{format_act_number(record.printed)} em vigor ({short(laws, SELO)}): outro "
                "selo só se expede em substituição a ele (2ª via); informe o selo substituído e "
                "o motivo.",
                SELO,
            )
        ]
    return []


@answered(selo_questions)  # the alvará and its vehicle read at once (leituras)
def selo_identificacao(request: ComputeInput) -> Computed:
    """The alvará it corresponds to, from the registry, and the selo's validity.

    ``values``: ``inicio_vigencia``, ``valido_ate``, ``vigencia_explicacao``,
    ``alvara_numero``, ``pendente``.
    """
    data = data_of(request)
    on = request.on
    laws = statutory_context(request).laws
    items: list[Item] = list(
        issue_items(on, request.issued_on, "/data_expedicao", "o selo de identificação", SELO)
    )
    found, checked = act_at(
        request.history, ALVARA_FORM, data, "/alvara", on,
        "Alvará para exploração de serviços de Transporte Escolar", (SELO,),
        holder_at="/titular/cpf", laws=laws,
    )
    items.extend(checked)
    number = clean_text(pointers.get(data, "/alvara/numero")) or ""
    items.extend(_one_selo(request, data, on, number))
    replaced = pointers.get(data, "/substitui_selo")
    if isinstance(replaced, Mapping) and found is not None:
        items.extend(_replaced_items(request, replaced, number, laws))
    until = found.valid_until if found is not None else None
    until = until or maybe_date(pointers.get(data, "/alvara/valido_ate"))
    if until is None:
        reason = "Informe a validade do alvará a que o selo corresponde."
        return Computed(licence_pending(reason), unique_items(items))
    values = {
        "inicio_vigencia": on,
        "valido_ate": until,
        "alvara_numero": found.number if found is not None else number,
        "vigencia_explicacao": (
            f"O selo de identificação corresponde ao alvará {format_act_number(number)} e "
            f"vale enquanto ele vigorar, até {format_date(until)} ({short(laws, SELO)}): não "
            "subsiste à extinção, à revogação ou à cassação do alvará, e o alvará renovado recebe "
            "novo selo."
        ),
        "pendente": None,
    }
    return Computed(values, unique_items(items))


def _replaced_items(
    request: ComputeInput,
    replaced: Mapping[str, Any],
    alvara_number: str,
    laws: Mapping[str, Any],
) -> list[Item]:
    """The selo a 2ª via replaces exists in the registry, for the same alvará."""
    wanted = clean_text(replaced.get("numero"))
    if wanted is None or request.history is None:
        return []
    record = request.history.document(FORM, wanted)
    if record is None:
        return [
            item_at(
                "/substitui_selo/numero",
                Status.MISSING,
                f"O selo substituído {format_act_number(wanted)} não consta do registro de "
                "documentos emitidos: confira o número.",
                SELO,
            )
        ]
    theirs = clean_text(pointers.get(record.data, "/alvara/numero")) or ""
    if _bare_number(theirs) != _bare_number(alvara_number):
        return [
            item_at(
                "/substitui_selo/numero",
                Status.INVALID,
                f"O selo {format_act_number(record.printed)} corresponde ao alvará "
                f"{format_act_number(theirs)}, não ao alvará "
                f"{format_act_number(alvara_number)} ({short(laws, SELO)}).",
                SELO,
            )
        ]
    return []


def selo_data_from_alvara(
    alvara: Mapping[str, Any], number: str, valid_until: date, issued: date
) -> dict[str, Any]:
    """A selo's data for the alvará ``number`` (valid to ``valid_until``) whose data are
    ``alvara``, to be issued on ``issued``: all the selo needs comes from the alvará."""
    holder = pointers.get(alvara, "/titular")
    holder = holder if isinstance(holder, Mapping) else {}
    vehicle = pointers.get(alvara, "/veiculo")
    vehicle = vehicle if isinstance(vehicle, Mapping) else {}
    return {
        # "ALV-ESC 0001/2026": the printed number without its "nº", as forms cite it
        "alvara": {"numero": number.replace(" nº ", " "), "valido_ate": valid_until.isoformat()},
        "titular": {
            "nome": holder.get("nome"),
            "cpf": holder.get("cpf"),
            "prontuario": alvara.get("prontuario"),
        },
        "veiculo": {
            key: vehicle.get(key) for key in ("placa", "renavam", "marca_modelo")
        },
        "data_expedicao": issued.isoformat(),
    }


SERIES = "SELO-ESC"
"""The series lavra numbers the selos in (``forms/selo-identificacao/formulario.json``)."""


def selo_do_veiculo(request: ComputeInput) -> Computed:
    """The selo in force of the vehicle the act names, from the registry (module doc).

    ``values``: ``selo_registro``, the selo as another act cites it
    (``"SELO-ESC 0001/2026"``), None when the registry holds none in force."""
    data = data_of(request)
    plate = clean_text(pointers.get(data, "/veiculo/placa"))
    on = maybe_date(pointers.get(data, "/ocorrencia/data")) or request.on
    typed = clean_text(pointers.get(data, "/veiculo/selo"))
    if request.history is None or plate is None:
        return Computed({"selo_registro": None}, ())
    try:
        standing = list(request.history.in_force(plate, FORM, on))
    except LavraError:  # a malformed plate: the form's own check names it
        return Computed({"selo_registro": None}, ())
    laws = statutory_context(request).laws
    cited = standing[0].printed.replace(" nº ", " ") if standing else None
    if typed is None:
        return Computed({"selo_registro": cited}, ())
    if standing and bare_number(typed) not in {bare_number(r.number) for r in standing}:
        return Computed({"selo_registro": cited}, (item_at(
            "/veiculo/selo", Status.INVALID,
            f"O selo de identificação em vigor do veículo {plate}, conforme o registro, é o "
            f"{format_act_number(standing[0].printed)} ({short(laws, SELO)}), não "
            f"«{typed}»: confira o selo afixado ou deixe o campo em branco para usar o "
            "número do registro.",
            SELO,
        ),))
    if not standing and typed.upper().startswith(SERIES):
        return Computed({"selo_registro": None}, (item_at(
            "/veiculo/selo", Status.INVALID,
            f"O selo {typed} não consta do registro como selo de identificação em vigor do "
            f"veículo {plate} na data da infração ({short(laws, SELO)}): o número é da série "
            f"{SERIES} do lavra; confira a placa e o selo afixado.",
            SELO,
        ),))
    return Computed({"selo_registro": cited}, ())


_LEAVE_BLANK = (f"deixe o campo em branco: ao emitir o alvará, o registro reserva o número "
                f"{SERIES} seguinte e o imprime.")
"""The number is not typed (``COMPANIONS``): what a refused typed selo tells staff."""


def selo_do_alvara(request: ComputeInput) -> Computed:
    """A new alvará's typed selo of the SELO-ESC series already issued (module doc)."""
    data = data_of(request)
    typed = clean_text(pointers.get(data, "/selo_identificacao"))
    if typed is None:
        return Computed({}, ())
    parsed = parse_printed(typed)
    if parsed is None or (parsed[0] or "").upper() != SERIES:
        return Computed({}, (_outside_series(request, typed),))
    if request.history is None:
        return Computed({}, ())
    record = request.history.document(FORM, typed)
    if record is None:
        return Computed({}, _unreserved(request, typed, parsed[1], parsed[2]))
    if record.cancelled:
        return Computed({}, ())
    laws = statutory_context(request).laws
    theirs = clean_text(pointers.get(record.data, "/alvara/numero")) or "outro alvará"
    return Computed({}, (item_at(
        "/selo_identificacao", Status.INVALID,
        f"O selo {format_act_number(record.printed)} já foi expedido e corresponde ao "
        f"alvará {format_act_number(theirs)}: o alvará recebe o selo expedido juntamente "
        f"com ele ({short(laws, SELO)}), numerado na série {SERIES}; {_LEAVE_BLANK}",
        SELO,
    ),))


def _unreserved(request: ComputeInput, typed: str, number: int, year: int) -> tuple[Item, ...]:
    """A typed SELO-ESC number no selo carries: it must be the one the registry reserves
    for this alvará (module doc): the next of the series, which issuing the alvará
    reserves, or one a renewal run holds for it."""
    if not isinstance(request.history, NumberStates):
        return ()
    try:
        state = request.history.number_state(SERIES, year, number)
    except InputError:  # «SELO-ESC 0/2026»: no number the series' counter gives
        state = NumberState(None, False, False, False, False)
    if state.held_by_run or (state.reserved_for is not None and not state.reserved_act_recorded):
        return ()  # the run's, or the one this alvará's issue is reserving now
    laws = statutory_context(request).laws
    issue_year = request.issued_on.year
    if year != issue_year:  # the registry reserves the selo in the alvará's own year
        return (item_at(
            "/selo_identificacao", Status.INVALID,
            f"O número «{typed}» não é o reservado para este ato: o selo expedido "
            f"juntamente com o alvará ({short(laws, SELO)}) é numerado no ano do alvará, "
            f"{issue_year}, e o registro o reserva ao emiti-lo e o imprime; deixe o campo "
            "em branco.",
            SELO,
        ),)
    if state.next_free and not state.voided:
        return ()
    if state.voided:
        why = "teve a numeração inutilizada"
    elif state.reserved_for is not None:
        why = f"está reservado para o alvará {format_act_number(state.reserved_for)}"
    else:
        why = "não está reservado para este alvará"
    return (item_at(
        "/selo_identificacao", Status.INVALID,
        f"O selo de identificação «{typed}» {why}: o selo expedido juntamente com o alvará "
        f"({short(laws, SELO)}) recebe o número que o registro reserva ao emitir o "
        "alvará, impresso nele; deixe o campo em branco.",
        SELO,
    ),)


COMPANIONS: dict[str, Companion] = {ALVARA_FORM: Companion(
    series=SERIES, form=FORM, field="/selo_identificacao", cites="/alvara/numero",
    basis=SELO,
)}
"""Art. 3º, § 2º ("juntamente com o Alvará será expedido 'selo de identificação'
correspondente à licença, devidamente numerado"): each ALV-ESC issued one at a time
reserves, in the same transaction as its own number, the next SELO-ESC number, and
prints it; the selo issued later for that alvará takes it (:mod:`lavra.registry.
companions`). The renewal run numbers both itself. Reading chosen: the law has the two
expedited together but the selo is a separate act, signed after the alvará's fee and
inspection (art. 13, §§ 3º and 4º); the number is therefore bound at once and the act
follows. A reserved number never issued is voided when the alvará is cancelled, or by
staff with the numbering-void act."""


def _outside_series(request: ComputeInput, typed: str) -> Item:
    """A new alvará's selo typed outside the SELO-ESC series (module doc), or with a
    number longer than any of a series gives (more than 9 digits: issue 22, item 4)."""
    laws = statutory_context(request).laws
    why = ("não é válido: tem mais de 9 algarismos, e nenhum selo é numerado assim"
           if overlong_number(typed) else
           f"não é da série {SERIES}, em que o lavra numera os selos")
    return item_at(
        "/selo_identificacao", Status.INVALID,
        f"O número do selo de identificação «{typed}» {why}: o selo é expedido juntamente "
        f"com o alvará e corresponde a ele ({short(laws, SELO)}), e um selo em papel "
        f"anterior ao lavra pertence a outro alvará. {_LEAVE_BLANK[0].upper()}"
        f"{_LEAVE_BLANK[1:]}",
        SELO,
    )


COMPUTATIONS: dict[str, Computation] = {"selo_identificacao": selo_identificacao,
                                        "selo_do_alvara": selo_do_alvara,
                                        "selo_do_veiculo": selo_do_veiculo}
"""The computation of this module a form may name under ``"calculos"``."""
