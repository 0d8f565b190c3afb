"""The revocation of an alvará of Lei nº 4.515/2007 (transporte escolar): art. 3º, art.
9º, § 2º, art. 23, III, and arts. 25 to 27.

``decisao_revogacao_alvara`` (form ``decisao-revogacao-alvara``, series REV-ESC) — the
decision that revokes the titular's Alvará para Transporte Escolar or the auxiliary
driver's alvará (art. 9º: "também será expedido alvará"):

Who decides. The alvará is expedido by the SETRANSV (arts. 2º and 3º: "podendo ser
    revogado ... por motivo fundamentado"), the penalties are applied by the Secretaria
    (art. 25) and the appeal from them lies to the Prefeito, in a single instance (art.
    25). The decision is therefore the Secretário's (``assinatura.papel``
    ``secretario-transportes``), never the field agent's: the agent's auto records the
    case and says the proceeding lies (:mod:`lavra_americana.transporte_escolar.
    auto_infracao`); the Prefeito decides the appeal (``decisao-recurso-prefeito``).
The grounds (``/hipotese``), each with the autos that prove it, checked in the registry
    (each auto exists, is not cancelled, is of the same driver — CPF — and not dated
    after the decision; without the registry's record the ground is *missing*, never
    met):

    - ``terceira_multa`` (art. 23, III, "após a terceira multa"): the infractions of the
      autos are judged again, in order, by
      :func:`lavra_americana.transporte_escolar.penalties.escolar_sanction` (the same
      rules the autos applied: a doubled fine is one fine; the fines counted are those
      within 1 year before the last, by analogy with the parágrafo único); the last one
      must reach the revocation, else the ground is *invalid*;
    - ``auxiliar_veiculo_irregular`` (art. 9º, § 2º, I): the auxiliary driver caught
      carrying students in a vehicle that does not meet art. 17 — the alvará revoked is
      the auxiliary's, and the auto must record that infraction;
    - ``veiculo_outro_condutor`` (art. 9º, § 2º, II): the titular whose vehicle was
      caught driven by someone other than the titular or the auxiliary — the alvará
      revoked is the titular's, and the auto must record that infraction.
The alvará revoked, checked in the registry (:func:`lavra_americana.comum.validity.
    parent_act_items`): it exists, is the driver's (CPF) and the vehicle's, is not
    cancelled and is in force on the date of the decision; an earlier revocation of the
    same alvará that stands is *invalid* (it is revoked once).
Due process (:func:`lavra_americana.comum.due_process.defence`, deadline
    ``transporte-escolar#art23_inc3``: 10 days from the ciência of the notice, Lei nº
    9.784/1999, art. 44, by analogy): the notice (``notificacao-defesa-revogacao``) is
    read from the registry by its number — the same driver (CPF), process and alvará,
    the ground applied accused in it, its ciência recorded on its entry — and must come
    after the last infraction it accuses (it cannot accuse what had not happened).
The appeal (arts. 25 and 26): to the Prefeito, in a single instance, within 10 days from
    the ciência of the punishment; the rule (the period from the ciência), never a last
    day: the ciência comes after the signature, and a ciência date typed in the data is
    *invalid* (the registry counts the last day from the ciência recorded later); the
    Secretaria may reconsider while no appeal is decided (art. 27).
No future facts: a decision, a notice or a defence dated after the moment of issue is
    *invalid* (:func:`lavra_americana.comum.computing.fact_after_issue`).

Every earlier act is printed with its series, as the registry prints it ("Auto de
Infração AIE-ESC nº 0003/2026").
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from babel.lists import format_list

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    PriorRecord,
    bare_reference,
    clean_text,
    in_legal_order,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.formats import unmask
from lavra.inputs.reading import maybe_date
from lavra.law.model import resolve
from lavra.textutil import format_date
from lavra_americana.comum import due_process
from lavra_americana.comum.citing import numbered, short
from lavra_americana.comum.computing import (
    appeal_from_ciencia,
    data_of,
    date_at,
    fact_after_issue,
)
from lavra_americana.comum.infractions import PriorInfraction
from lavra_americana.comum.sources import rule_sources
from lavra_americana.comum.validity import bare_number, parent_act_items
from lavra_americana.transporte_escolar.penalties import SanctionKind, escolar_sanction

__all__ = ["COMPUTATIONS", "FORM", "IMPLEMENTED", "decisao_revogacao_alvara"]

ESC = "transporte-escolar"
FORM = "decisao-revogacao-alvara"
AUTO_FORM = "auto-infracao-escolar"
REVOCABLE = f"{ESC}#art3"
REVOCATION = f"{ESC}#art23_inc3"
REPEAT = f"{ESC}#art23_par1u"
APPEAL = f"{ESC}#art25"
APPEAL_DEADLINE = f"{ESC}#art26"
RECONSIDER = f"{ESC}#art27"

CONDITION = "/condutor/condicao"
HOLDER_CPF = "/condutor/cpf"
ALVARA_NUMBER = "/alvara/numero"
PLATE = "/veiculo/placa"
GROUND = "/hipotese/tipo"
AUTOS = "/hipotese/autos"
CIENCIA_DATE = "/ciencia/data"
DECISION_DATE = due_process.DECISION_DATE

ALVARA_FORMS: Mapping[str, tuple[str, str, str]] = {
    "titular": ("alvara-transporte-escolar", "Alvará para Transporte Escolar", "/titular/cpf"),
    "auxiliar": ("alvara-condutor-auxiliar", "Alvará de Condutor Auxiliar", "/auxiliar/cpf"),
}
"""By the driver's condition: the form of the alvará revoked, its name, where its CPF is."""

GROUNDS: Mapping[str, tuple[str, str | None, str]] = {
    "terceira_multa": (REVOCATION, None, "Revogação após a terceira multa"),
    "auxiliar_veiculo_irregular": (
        f"{ESC}#art9_par2_inc1",
        "auxiliar",
        "Condutor auxiliar flagrado em veículo que não atende ao art. 17",
    ),
    "veiculo_outro_condutor": (
        f"{ESC}#art9_par2_inc2",
        "titular",
        "Veículo escolar dirigido por condutor que não o titular ou o auxiliar",
    ),
}
"""Each ground: its provision, the condition of the driver it reaches (None: either),
the subtitle of the decision."""

NOTICE_FORM = "notificacao-defesa-revogacao"
PROCEEDING = due_process.Proceeding(
    REVOCATION, "o condutor", "notificado", "a revogação", (REVOCATION, REVOCABLE),
    notice_form=NOTICE_FORM, party_field=HOLDER_CPF, licence_field=ALVARA_NUMBER,
    grounds=tuple((k, c, label) for k, (c, _, label) in GROUNDS.items()),
    adverse="revogação do alvará",
    adverse_basis=(REVOCABLE, REVOCATION),
)

IMPLEMENTED: tuple[str, ...] = (
    REVOCABLE,
    f"{ESC}#art9_par2",
    f"{ESC}#art9_par2_inc1",
    f"{ESC}#art9_par2_inc2",
    REVOCATION,
    APPEAL,
    APPEAL_DEADLINE,
    RECONSIDER,
)
"""Citations this decision applies (coverage): the revocation (art. 3º; art. 9º, § 2º;
art. 23, III), the appeal (arts. 25, 26) and the reconsideration (art. 27)."""


def _same(a: Any, b: Any) -> bool | None:
    first, second = clean_text(a), clean_text(b)
    if first is None or second is None:
        return None
    return unmask(first) == unmask(second)


def _auto_rows(
    request: ComputeInput, data: Mapping[str, Any], on: date, citation: str
) -> tuple[list[dict[str, Any]], list[PriorInfraction], list[Item]]:
    """The autos of the ground, each checked in the registry (module docstring)."""
    listed = pointers.get(data, AUTOS)
    rows: list[dict[str, Any]] = []
    infractions: list[PriorInfraction] = []
    items: list[Item] = []
    if not isinstance(listed, list):
        return rows, infractions, items
    cpf = pointers.get(data, HOLDER_CPF)
    for index, entry in enumerate(listed):
        number = clean_text(entry.get("numero")) if isinstance(entry, Mapping) else None
        if number is None:
            continue
        field = f"{AUTOS}/{index}/numero"
        found: PriorRecord | None = (
            None if request.history is None else request.history.document(AUTO_FORM, number)
        )
        row: dict[str, Any] = {"numero": number, "data_infracao": None, "dispositivos": []}
        rows.append(row)
        if found is None:
            items.append(
                item_at(
                    field,
                    Status.MISSING,
                    f"O {numbered('Auto de Infração', number)} não consta do registro de "
                    "documentos emitidos: sem conferir no registro que ele existe, não foi "
                    "cancelado e é deste condutor, a revogação não pode nele se fundar.",
                    citation,
                )
            )
            continue
        label = f"O Auto de Infração {found.printed}"
        row["numero"] = found.printed
        infraction = maybe_date(pointers.get(found.data, "/ocorrencia/data"))
        row["data_infracao"] = infraction
        cited: list[str] = [
            str(i["dispositivo"])
            for i in pointers.get(found.data, "/infracoes") or []
            if isinstance(i, Mapping) and isinstance(i.get("dispositivo"), str)
        ]
        row["dispositivos"] = [short(_laws(request), c) for c in cited if "#" in c]
        problems: list[str] = []
        if found.cancelled:
            reason = f" ({found.cancel_reason})" if found.cancel_reason else ""
            problems.append(f"{label} foi cancelado{reason}: não subsiste.")
        if _same(pointers.get(found.data, HOLDER_CPF), cpf) is False:
            problems.append(f"{label} foi lavrado contra outro condutor (outro CPF).")
        if infraction is not None and infraction > on:
            problems.append(
                f"{label} registra infração de {format_date(infraction)}, posterior à data "
                f"da decisão ({format_date(on)})."
            )
        if citation != REVOCATION and citation not in cited:
            problems.append(
                f"{label} não registra a infração do {short(_laws(request), citation)}, "
                "fundamento da revogação."
            )
        for problem in problems:
            items.append(item_at(field, Status.INVALID, problem, citation))
        if not problems:
            items.append(
                item_at(
                    field,
                    Status.MET,
                    f"{label} consta do registro, não cancelado, deste condutor.",
                    citation,
                )
            )
            if infraction is not None and clean_text(cpf):
                infractions.extend(
                    PriorInfraction(infraction, c, str(cpf), found.printed)
                    for c in cited
                    if c.startswith(f"{ESC}#")
                )
    return rows, infractions, items


def _laws(request: ComputeInput) -> Any:
    return rule_sources(request, request.example_values)[0].laws


def _year_before(day: date) -> date:
    """The first day of the year before ``day`` (the same day and month, a year
    earlier; 29/02 → 28/02), included in the count (a fine exactly 1 year earlier
    counts)."""
    try:
        return day.replace(year=day.year - 1)
    except ValueError:
        return day.replace(year=day.year - 1, day=28)


def _fine_words(p: PriorInfraction) -> str:
    """"Auto de Infração AIE-ESC nº 0002/2026 (infração de 20/01/2026)"."""
    auto = f"Auto de Infração {p.document}" if p.document else "auto sem número"
    return f"{auto} (infração de {format_date(p.date)})"


def _listed(fines: list[PriorInfraction]) -> str:
    return format_list([_fine_words(p) for p in fines], locale="pt_BR")


def _third_fine(
    request: ComputeInput, infractions: list[PriorInfraction], complete: bool
) -> tuple[str | None, list[Item]]:
    """Art. 23, III: the last infraction of the autos reaches the revocation.

    THIRD_FINE_READING. Art. 23, III, says only "após a terceira multa"; the parágrafo
    único says that, "para fins desta lei", there is no reincidência when more than 1
    year passed between the first infraction and the later one. Reading kept: the
    fines counted for III are those imposed for infractions within 1 year before the
    last one (the day one year before included), the parágrafo único applied by
    analogy. Reasons: III is the last step of the same scale of aggravation as I and II
    (advertência, multa, multa em dobro, revogação), all of which the parágrafo único
    bounds "para fins desta lei"; a sanctioning rule is read restrictively, and the
    harshest sanction answers to recent conduct (proportionality, Lei nº 9.784/1999,
    art. 2º, parágrafo único, VI); the literal reading would let three fines years apart
    end a licence, which the law's own measure of recidivism rejects. The act states
    the reading and lists, by number and date, the fines it counts and the autos it
    does not count, with the reason."""
    if not infractions or not complete:
        return None, []
    context, sources = rule_sources(request, request.example_values)
    ordered = sorted(infractions, key=lambda p: (p.date, p.citation))
    last, earlier = ordered[-1], ordered[:-1]
    try:
        sanction = escolar_sanction(
            last.citation, last.date, earlier, sources, holder=last.subject
        )
    except LavraError as error:
        return None, [
            item_at(
                AUTOS,
                Status.MISSING,
                f"Não foi possível conferir a terceira multa: {error.message}",
                REVOCATION,
            )
        ]
    if sanction.kind is SanctionKind.REVOGACAO:
        fines = [*sanction.earlier_fines, last]
        opens = _year_before(last.date)
        text = (
            f"Julgadas em ordem as infrações dos autos, pelas regras do "
            f"{short(context.laws, f'{ESC}#art23')}, contam-se para o "
            f"{short(context.laws, REVOCATION)} (\"após a terceira multa\") as multas "
            f"impostas ao condutor por infrações cometidas de {format_date(opens)} a "
            f"{format_date(last.date)}, no período de 1 (um) ano anterior à última "
            f"infração, medida da reincidência que o "
            f"{short(context.laws, REPEAT)} fixa \"para fins desta lei\", aplicada por "
            f"analogia. São {len(fines)} as multas contadas: {_listed(fines)}. A última é "
            "a terceira multa, após a qual cabe a revogação do alvará."
        )
        others = [p for p in earlier if p not in sanction.earlier_fines]
        if others:
            text += " Não se contam: " + format_list(
                [f"{_fine_words(p)}, "
                 + ("anterior a esse período" if p.date < opens else "sem multa imposta")
                 for p in others],
                locale="pt_BR",
            ) + "."
        return text, [item_at(AUTOS, Status.MET, text, *sanction.basis)]
    return None, [
        item_at(
            AUTOS,
            Status.INVALID,
            "As infrações dos autos informados não levam à revogação do "
            f"{short(context.laws, REVOCATION)} (\"após a terceira multa\"): julgadas em "
            f"ordem, a última ({format_date(last.date)}) resulta em: {sanction.explanation}",
            REVOCATION,
            REPEAT,
        )
    ]


def _alvara_items(
    request: ComputeInput, data: Mapping[str, Any], on: date, condition: str
) -> tuple[PriorRecord | None, list[Item]]:
    """The alvará revoked: in the registry, the driver's, in force, not yet revoked."""
    form, what, cpf_pointer = ALVARA_FORMS[condition]
    basis = (REVOCABLE, REVOCATION)
    found, items = parent_act_items(
        request.history,
        form,
        pointers.get(data, ALVARA_NUMBER),
        None,
        on,
        what,
        basis,
        number_field=ALVARA_NUMBER,
        until_field=ALVARA_NUMBER,
        plate=pointers.get(data, PLATE),
        consequence="a revogação não pode ser decidida",
        laws=_laws(request),
    )
    if found is None:
        return None, items
    if _same(pointers.get(found.data, cpf_pointer), pointers.get(data, HOLDER_CPF)) is False:
        items.append(
            item_at(
                ALVARA_NUMBER,
                Status.INVALID,
                f"O {what} {found.printed} foi expedido a outro condutor (outro CPF).",
                *basis,
            )
        )
    plate = clean_text(pointers.get(data, PLATE))
    if request.history is not None and plate is not None:
        earlier = request.history.prior_autos(plate, FORM, on - timedelta(days=400), on)
        for prior in earlier:
            revoked = clean_text(pointers.get(prior.data, ALVARA_NUMBER))
            if revoked is not None and bare_number(revoked) == bare_number(found.number):
                items.append(
                    item_at(
                        ALVARA_NUMBER,
                        Status.INVALID,
                        f"O {what} {found.printed} já foi revogado pela Decisão "
                        f"{prior.printed}, de {format_date(prior.reference_date)}.",
                        *basis,
                    )
                )
    return found, items


def _appeal(
    request: ComputeInput, data: Mapping[str, Any], on: date
) -> tuple[dict[str, Any], list[Item]]:
    context, _ = rule_sources(request, request.example_values)
    laws = context.laws
    rule = (
        "Desta decisão cabe recurso, em única instância, ao Prefeito Municipal "
        f"({short(laws, APPEAL)}), no prazo de 10 (dez) dias contados da data em que o "
        f"condutor tomar ciência da punição ({short(laws, APPEAL_DEADLINE)}). A Secretaria "
        "de Transportes e Sistema Viário poderá, por motivo devidamente justificado, "
        "reconsiderar a decisão, desde que não haja decisão do recurso "
        f"({short(laws, RECONSIDER)})."
    )
    return appeal_from_ciencia(request, on, context, APPEAL_DEADLINE, rule, CIENCIA_DATE)


def _pending(reason: str) -> dict[str, Any]:
    return {
        "hipotese": None,
        "autos": [],
        "terceira_multa": None,
        "alvara": None,
        "defesa": None,
        "recurso": None,
        "explicacao": reason,
        "fundamento": [],
        "titulo_documento": None,
        "subtitulo_documento": None,
    }


def decisao_revogacao_alvara(request: ComputeInput) -> Computed:
    """The revocation of an escolar alvará (module docstring).

    ``values``: ``hipotese`` (``chave``, ``dispositivo``, ``referencia``,
    ``texto_legal``), ``autos`` (``numero`` as printed, ``data_infracao``,
    ``dispositivos``), ``terceira_multa`` (the count, art. 23, III), ``alvara``
    (``numero`` as printed, ``nome``, ``valido_ate``), ``defesa``, ``recurso``
    (``regra``, ``ultimo_dia``, ``explicacao``), ``explicacao``, ``fundamento``,
    ``titulo_documento``, ``subtitulo_documento``.
    """
    data = data_of(request)
    on = date_at(data, DECISION_DATE)
    if on is None:
        return Computed(_pending("Informe a data da decisão."))
    context, _ = rule_sources(request, request.example_values)
    laws = context.laws
    items: list[Item] = []
    items.extend(
        fact_after_issue(request, on, DECISION_DATE, "data da decisão", REVOCATION)
    )
    for pointer, what in (
        (due_process.NOTICE_CIENCIA, "data da ciência da notificação para defesa"),
        ("/defesa/data_apresentacao", "data da apresentação da defesa"),
    ):
        when = date_at(data, pointer)
        if when is not None and when <= on:
            items.extend(fact_after_issue(request, when, pointer, what, REVOCATION))

    condition = pointers.get(data, CONDITION)
    condition = condition if condition in ALVARA_FORMS else "titular"
    ground = pointers.get(data, GROUND)
    hypothesis: dict[str, Any] | None = None
    subtitle: str | None = None
    autos: list[dict[str, Any]] = []
    third: str | None = None
    latest: date | None = None
    citation = REVOCATION
    if ground in GROUNDS:
        citation, reaches, label = GROUNDS[ground]
        hypothesis = {
            "chave": ground,
            "dispositivo": citation,
            "referencia": bare_reference(laws, citation),
            "texto_legal": resolve(laws, citation).text,
        }
        subtitle = f"{label} ({short(laws, citation)})"
        if reaches is not None and reaches != condition:
            items.append(
                item_at(
                    CONDITION,
                    Status.INVALID,
                    f"A hipótese do {short(laws, citation)} revoga o alvará do condutor "
                    f"{reaches}, não o do condutor {condition}.",
                    citation,
                )
            )
        autos, infractions, auto_items = _auto_rows(request, data, on, citation)
        items.extend(auto_items)
        if ground == "terceira_multa":
            complete = not any(i.pending for i in auto_items)
            third, third_items = _third_fine(request, infractions, complete)
            items.extend(third_items)
        latest = max((p.date for p in infractions), default=None)

    found, alvara_items = _alvara_items(request, data, on, condition)
    items.extend(alvara_items)
    what = ALVARA_FORMS[condition][1]
    number = clean_text(pointers.get(data, ALVARA_NUMBER))
    alvara = {
        "numero": found.printed if found is not None else number,
        "nome": what,
        "valido_ate": found.valid_until if found is not None else None,
    }
    defence, defence_items = due_process.defence(
        request, on, context, PROCEEDING, [ground] if isinstance(ground, str) else []
    )
    items.extend(defence_items)
    notice = defence["emitida_em"] if defence is not None else None
    if defence is not None and latest is not None and notice is not None and notice < latest:
        items.append(
            item_at(
                due_process.NOTICE_NUMBER,
                Status.INVALID,
                f"A notificação para defesa {defence['numero']} ({format_date(notice)})"
                f" é anterior à infração de {format_date(latest)} que "
                "fundamenta a revogação: a notificação só pode acusar fatos já ocorridos.",
                citation,
            )
        )
    appeal, appeal_items = _appeal(request, data, on)
    items.extend(appeal_items)

    fundamento = in_legal_order(
        [
            REVOCABLE,
            *([f"{ESC}#art9_par2", citation] if citation != REVOCATION else []),
            REVOCATION,
            *([f"{ESC}#art23_inc2", REPEAT] if ground == "terceira_multa" else []),
            APPEAL,
            APPEAL_DEADLINE,
            RECONSIDER,
        ],
        laws,
    )
    values = {
        "hipotese": hypothesis,
        "autos": autos,
        "terceira_multa": third,
        "alvara": alvara,
        "defesa": defence,
        "recurso": appeal,
        "explicacao": (
            f"Revogação do {what} ({short(laws, REVOCATION)}"
            + (f"; {short(laws, citation)}" if citation != REVOCATION else "")
            + ")."
        ),
        "fundamento": fundamento,
        "titulo_documento": f"Decisão de Revogação do {what}",
        "subtitulo_documento": subtitle,
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {"decisao_revogacao_alvara": decisao_revogacao_alvara}
"""The computation of this module a form may name under ``"calculos"``."""
