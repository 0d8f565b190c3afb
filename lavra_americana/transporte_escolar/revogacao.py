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
The grounds (``/hipotese``): the revocation by motivo fundamentado (art. 3º,
    ``motivo_fundamentado``: the motive written out, no auto, the appeal of Lei nº
    9.784/1999 — MOTIVE_READING beside ``GROUNDS``), and the three penalty grounds,
    each with the autos that prove it, checked in the registry
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
The appeal of the penalty grounds (arts. 25 and 26): to the Prefeito, in a single
    instance, within 10 days from the ciência of the punishment (for the motivo
    fundamentado, Lei nº 9.784/1999, arts. 56 and 59: MOTIVE_READING); the rule (the
    period from the ciência), never a last day: the ciência comes after the signature,
    and a ciência date typed in the data is *invalid* (the registry counts the last day
    from the ciência recorded later); the Secretaria may reconsider while no appeal is
    decided (art. 27).
No future facts: a decision, a notice or a defence dated after the moment of issue is
    *invalid* (:func:`lavra_americana.comum.computing.fact_after_issue`).

The autos and the count of the third fine are in
:mod:`lavra_americana.transporte_escolar.revogacao_autos`. Every earlier act is printed
with its series, as the registry prints it ("Auto de Infração AIE-ESC nº 0003/2026").
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

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
from lavra.inputs import pointers
from lavra.law.model import resolve
from lavra.textutil import format_date
from lavra_americana.comum import due_process
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import (
    appeal_from_ciencia,
    data_of,
    date_at,
    fact_after_issue,
)
from lavra_americana.comum.guards import state_holder
from lavra_americana.comum.orgao import secretaria, secretario
from lavra_americana.comum.sources import rule_sources
from lavra_americana.comum.validity import bare_number, parent_act_items
from lavra_americana.transporte_escolar.revogacao_autos import (
    auto_rows,
    laws_of,
    same,
    third_fine,
)

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
FEDERAL = "lei-9784-1999"
MOTIVATION = f"{FEDERAL}#art50"
MOTIVATION_CLEAR = f"{FEDERAL}#art50_par1"
FEDERAL_APPEAL = f"{FEDERAL}#art56"
FEDERAL_RECONSIDER = f"{FEDERAL}#art56_par1"
FEDERAL_APPEAL_DEADLINE = f"{FEDERAL}#art59"
MOTIVE = "motivo_fundamentado"

CONDITION = "/condutor/condicao"
HOLDER_CPF = "/condutor/cpf"
ALVARA_NUMBER = "/alvara/numero"
PLATE = "/veiculo/placa"
GROUND = "/hipotese/tipo"
AUTOS = "/hipotese/autos"
MOTIVE_FACTS = "/hipotese/motivo/fatos"
MOTIVE_LAW = "/hipotese/motivo/fundamentos_juridicos"
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
    MOTIVE: (REVOCABLE, None, "Revogação por motivo fundamentado"),
}
"""Each ground: its provision, the condition of the driver it reaches (None: either),
the subtitle of the decision.

MOTIVE_READING (art. 3º: the alvará "podendo ser revogado ou modificado a qualquer tempo,
por motivo fundamentado"). Art. 3º is a ground of its own, beside the three penalty
grounds of art. 23, III (which names only "as hipóteses do art. 9º, § 2º" and "após a
terceira multa"): a revocation for a reason of the administration's that is no
infraction. Reading kept:

- It is not a penalty. Chapter "Das penalidades e recursos" (arts. 23 to 27) lists the
  sanctions and gives their appeal (arts. 25 and 26: "das penalidades", to the Prefeito,
  in a single instance, within 10 days "da ciência da punição"); art. 3º sits among the
  rules of the alvará itself. So no auto de infração founds it (``/hipotese/autos`` is
  refused by the schema), and the appeal is not that of arts. 25 and 26: the municipal
  law gives none for art. 3º, and Lei nº 9.784/1999, applied where the municipal law is
  silent (as the pack applies it to the vacância and the indeferimentos), gives it —
  10 days from the ciência (art. 59), addressed to the Secretário who decided, who, if
  he does not reconsider within 5 days, forwards it to the Prefeito (art. 56, caput and
  § 1º).
- It takes away a right the administration granted, so it is decided in a proceeding
  like the penalty grounds: the same notice (``notificacao-defesa-revogacao``, the
  ground accused), ciência, defence or lapse of its 10-day period (Constituição Federal,
  art. 5º, LV; Lei nº 9.784/1999, arts. 26 to 28; the same row of the deadline table
  as the penalty grounds, art. 44 of Lei nº 9.784/1999 by analogy), and it has the same
  effect: the alvará is revoked.
- "Motivo fundamentado" is the whole of its condition, so the motive is required and
  written out (``/hipotese/motivo``): the facts and the legal grounds, each substantial
  (Lei nº 9.784/1999, art. 50, I — an act that "neguem, limitem ou afetem direitos" — and
  § 1º: "explícita, clara e congruente"), printed in the decision. lavra checks that it
  is there and is not a word or two; whether it is congruent is the Secretário's to
  judge and the appeal's to review.

"Modificado" (art. 3º) is not a separate act. What an alvará holds that can change has
its own act with its own rule and its declared effect on the licence state: the vehicle
(art. 17, § 1º, the termo of change of vehicle), the holder (art. 15, the termo of
transfer), the auxiliary driver (art. 9º, his alvará), a substitute driver or vehicle
(arts. 4º and 5º, the licenças temporárias), the publicity (art. 18) and the validity
(art. 13, the renewal). A generic "modificação" with free content would change a
licence with no rule lavra could check and no effect it could declare; a change the
law does not name is made by revoking under art. 3º, with its motive, and issuing the
act the law does name."""

NOTICE_FORM = "notificacao-defesa-revogacao"
PROCEEDING = due_process.Proceeding(
    REVOCATION, "o condutor", "notificado", "a revogação", (REVOCATION, REVOCABLE),
    notice_form=NOTICE_FORM, party_field=HOLDER_CPF, licence_field=ALVARA_NUMBER,
    grounds=tuple((k, c, label) for k, (c, _, label) in GROUNDS.items()),
    adverse="revogação do alvará",
    adverse_basis=(REVOCABLE,),
    # The penalty grounds are revoked under art. 23, III, too; the motivo fundamentado
    # under art. 3º alone (MOTIVE_READING).
    ground_basis=tuple((k, (REVOCATION,)) for k in GROUNDS if k != MOTIVE),
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
"""Citations of this law the decision applies (coverage): the revocation (art. 3º; art. 9º,
§ 2º; art. 23, III), the appeal (arts. 25, 26) and the reconsideration (art. 27). The
motive of a revocation by motivo fundamentado (Lei nº 9.784/1999, art. 50, I, and § 1º)
and its appeal (arts. 56, 59) are the federal law's, claimed by
:mod:`lavra_americana.comum.indeferimento`; this module cites them in its items."""


def _alvara_items(
    request: ComputeInput, data: Mapping[str, Any], on: date, condition: str,
    basis: tuple[str, ...],
) -> tuple[PriorRecord | None, list[Item]]:
    """The alvará revoked: in the registry, the driver's, in force, not yet revoked."""
    form, what, cpf_pointer = ALVARA_FORMS[condition]
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
        holder=pointers.get(data, HOLDER_CPF), holder_field=HOLDER_CPF,
        laws=laws_of(request),
    )
    if found is None:
        return None, items
    # The holder the state holds was compared above (a transfer moves it); the act's own
    # copy only for a licence the state does not hold.
    if (state_holder(request.history, found.printed, form) is None
            and same(pointers.get(found.data, cpf_pointer),
                     pointers.get(data, HOLDER_CPF)) is False):
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
    request: ComputeInput, on: date, motive: bool
) -> tuple[dict[str, Any], list[Item]]:
    """The appeal of a penalty (arts. 25 to 27), or, for the revocation by motivo
    fundamentado, that of Lei nº 9.784/1999 (MOTIVE_READING)."""
    context, _ = rule_sources(request, request.example_values)
    laws = context.laws
    if motive:
        law = laws[ESC].short_title
        # The penalty appeal (arts. 25 and 26: "das penalidades", to the Prefeito, in a
        # single instance) is not printed here: MOTIVE_READING.
        rule = (
            "Desta decisão cabe recurso, por razões de legalidade e de mérito "
            f"({short(laws, FEDERAL_APPEAL)}), no prazo de 10 (dez) dias contados da data "
            "em que o condutor tomar ciência desta decisão "
            f"({short(laws, FEDERAL_APPEAL_DEADLINE)}), "
            f"dirigido ao {secretario(request)}, que, se não "
            "a reconsiderar no prazo de 5 (cinco) dias, o encaminhará ao Prefeito Municipal "
            f"({short(laws, FEDERAL_RECONSIDER)}). A revogação por motivo fundamentado do "
            f"{short(laws, REVOCABLE)} não é penalidade: à falta de recurso próprio na "
            f"{law}, rege-o a Lei nº 9.784/1999."
        )
        return appeal_from_ciencia(
            request, on, context, FEDERAL_APPEAL_DEADLINE, rule, CIENCIA_DATE
        )
    rule = (
        "Desta decisão cabe recurso, em única instância, ao Prefeito Municipal "
        f"({short(laws, APPEAL)}), no prazo de 10 (dez) dias contados da data em que o "
        f"condutor tomar ciência da punição ({short(laws, APPEAL_DEADLINE)}). A "
        f"{secretaria(request)} poderá, por motivo devidamente justificado, "
        "reconsiderar a decisão, desde que não haja decisão do recurso "
        f"({short(laws, RECONSIDER)})."
    )
    return appeal_from_ciencia(request, on, context, APPEAL_DEADLINE, rule, CIENCIA_DATE)


MOTIVE_MINIMUM_WORDS = {MOTIVE_FACTS: 15, MOTIVE_LAW: 8}
"""How many words, at least, the facts and the legal grounds of the motive take
(MOTIVE_READING: "explícita, clara" — a motive of a word or two is no motive; the
schema asks the characters, this the words, so that a string of dots does not pass)."""


def _motive(data: Mapping[str, Any]) -> tuple[dict[str, str] | None, list[Item]]:
    """The motive of a revocation under art. 3º, written out (MOTIVE_READING)."""
    labels = {MOTIVE_FACTS: "os fatos", MOTIVE_LAW: "os fundamentos jurídicos"}
    items: list[Item] = []
    found: dict[str, str] = {}
    for pointer, minimum in MOTIVE_MINIMUM_WORDS.items():
        text = clean_text(pointers.get(data, pointer))
        words = len(text.split()) if text else 0
        if text is None:
            items.append(item_at(
                pointer, Status.MISSING,
                f"A revogação por motivo fundamentado exige a indicação de {labels[pointer]} "
                "do motivo, escrita na decisão.",
                REVOCABLE, MOTIVATION, MOTIVATION_CLEAR,
            ))
        elif words < minimum:
            items.append(item_at(
                pointer, Status.INVALID,
                f"A indicação de {labels[pointer]} do motivo tem {words} palavra(s): a "
                "motivação deve ser explícita, clara e congruente (pelo menos "
                f"{minimum} palavras).",
                REVOCABLE, MOTIVATION, MOTIVATION_CLEAR,
            ))
        else:
            found[pointer.rsplit("/", 1)[1]] = text
    if len(found) < len(MOTIVE_MINIMUM_WORDS):
        return None, items
    items.append(item_at(
        "/hipotese/motivo", Status.MET,
        "Motivo da revogação indicado na decisão, com os fatos e os fundamentos jurídicos.",
        REVOCABLE, MOTIVATION, MOTIVATION_CLEAR,
    ))
    return found, items


def _pending(reason: str) -> dict[str, Any]:
    return {
        "hipotese": None,
        "motivo": None,
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
    ``texto_legal``), ``motivo`` (``fatos``, ``fundamentos_juridicos``: only for the
    motivo fundamentado of art. 3º), ``autos`` (``numero`` as printed, ``data_infracao``,
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
    motive: dict[str, str] | None = None
    citation = REVOCATION
    by_motive = ground == MOTIVE
    if ground in GROUNDS:
        citation, reaches, label = GROUNDS[ground]
        hypothesis = {
            "chave": ground,
            "dispositivo": citation,
            "referencia": bare_reference(laws, citation),
            "texto_legal": resolve(laws, citation).text,
        }
        subtitle = f"{label} ({short(laws, citation)})"
    if by_motive:
        motive, motive_items = _motive(data)
        items.extend(motive_items)
    elif ground in GROUNDS:
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
        autos, infractions, auto_items = auto_rows(request, data, on, citation)
        items.extend(auto_items)
        if ground == "terceira_multa":
            complete = not any(i.pending for i in auto_items)
            third, third_items = third_fine(request, infractions, complete)
            items.extend(third_items)
        latest = max((p.date for p in infractions), default=None)

    basis = (REVOCABLE,) if by_motive else (REVOCABLE, REVOCATION)
    found, alvara_items = _alvara_items(request, data, on, condition, basis)
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
    appeal, appeal_items = _appeal(request, on, by_motive)
    items.extend(appeal_items)

    fundamento = [REVOCABLE, *in_legal_order(
        [MOTIVATION, f"{FEDERAL}#art50_inc1", MOTIVATION_CLEAR, FEDERAL_APPEAL,
         FEDERAL_RECONSIDER, FEDERAL_APPEAL_DEADLINE], laws,
    )] if by_motive else in_legal_order(
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
        "motivo": motive,
        "autos": autos,
        "terceira_multa": third,
        "alvara": alvara,
        "defesa": defence,
        "recurso": appeal,
        "explicacao": (
            f"Revogação do {what} por motivo fundamentado ({short(laws, REVOCABLE)})."
            if by_motive else
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
