"""The notice that opens the defence before an adverse decision, in both laws.

Forms ``notificacao-defesa-cassacao`` (fretamento, series NOT-DEF-FRET: before the
cassação of art. 14, d, and art. 22 of Lei nº 4.419/2006) and
``notificacao-defesa-revogacao`` (transporte escolar, series NOT-DEF-ESC: before the
revogação of art. 23, III, and art. 9º, § 2º, of Lei nº 4.515/2007), signed by the
Secretário who will decide. Why an act of its own, and not a kind of
``notificacao-fretamento`` or ``notificacao-penalidade``: those notify a determination
to comply (fretamento arts. 10, 13, 15 and 17, with a deadline and the consequence of
not complying) or a penalty already applied (escolar art. 26, opening the appeal); this
one opens a proceeding's defence — it accuses, and the period it opens runs to the
party, not to the administration. Its content is the one Lei nº 9.784/1999 asks of an
intimação (art. 26, § 1º, applied where the municipal laws are silent): whom and which
body (I), its purpose (II), where and how the defence is presented, in person or by a
representative (III, IV), that the proceeding goes on without it (V; art. 27: the
silence is no admission of the facts), and the facts and legal grounds (VI) — here the
facts, each hypothesis accused with its text, and the adverse act that may follow.

The defence period (the deadline-table rows ``fretamento#art22`` and
``transporte-escolar#art23_inc3``, 10 days by analogy with art. 44) counts from the
ciência of this notice, a fact that comes after its signature (issue 10, class 2): the
notice prints the rule and the counting, never a last day; the ciência is recorded
afterwards on its registry entry (``lavra fato ciencia`` or the facts page, with who
recorded it and when), the facts page then shows the last day (the form's ``ciencia``
metadata), and the decision reads both from the registry
(:func:`lavra_americana.comum.due_process.defence`). The notice's date may not be after
its issue. Implements no provision by itself: the items and the legal basis cite the
rule of the proceeding (each decision's module implements it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    bare_reference,
    clean_text,
    in_legal_order,
    period_words,
    unique_items,
)
from lavra.checking.report import Item
from lavra.inputs import pointers
from lavra.law.model import resolve
from lavra_americana.comum.citing import cite_many, short
from lavra_americana.comum.computing import after_issue, data_of, date_at, period_of
from lavra_americana.comum.due_process import ACCUSED, Proceeding, period_source
from lavra_americana.comum.guards import standing_items
from lavra_americana.comum.sources import rule_sources
from lavra_americana.fretamento.autos_registro import cited_in_text
from lavra_americana.fretamento.cassacao import PROCEEDING as CASSATION
from lavra_americana.transporte_escolar.revogacao import GROUNDS, MOTIVE, REVOCABLE
from lavra_americana.transporte_escolar.revogacao import PROCEEDING as REVOCATION
from lavra_americana.transporte_escolar.revogacao_autos import auto_rows, third_fine

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "notificacao_defesa"]

IMPLEMENTED: tuple[str, ...] = ()
"""The rules are fretamento art. 22 and escolar art. 23, III, implemented (and cited) by
:mod:`lavra_americana.fretamento.cassacao` and :mod:`lavra_americana.transporte_escolar.
revogacao`; this module writes the notice that opens their defence."""

NOTICE_DATE = "/data"
NOTICE_AUTOS = "/acusacao/autos"
FACTS = "/acusacao/fatos"
CASSATION_LAW = "fretamento"
THIRD_FINE = "terceira_multa"

PROCEEDINGS: Mapping[str, Proceeding] = {
    CASSATION.notice_form: CASSATION,
    REVOCATION.notice_form: REVOCATION,
}
"""Each notice form → the proceeding it opens."""

LICENCE_FORMS: Mapping[str, str] = {
    CASSATION.notice_form: "alvara-fretamento",
    REVOCATION.notice_form: "alvara-transporte-escolar",
}
"""Each notice form → the form of the alvarás it accuses (``licence_field``)."""

NOT_A_PENALTY: Mapping[str, tuple[str, str]] = {
    MOTIVE: (REVOCABLE, "Transporte escolar (Lei nº 4.515/2007, art. 3º)"),
}
"""A ground that is no penalty → (the deadline-table row of its defence, the notice's
subtitle). A notice that accuses only such a ground (the revogação by motivo
fundamentado, escolar art. 3º: the reading beside ``GROUNDS`` in
:mod:`lavra_americana.transporte_escolar.revogacao`) neither imputes facts nor cites the
sanction: its headings say "fatos" and "fundamento legal", its basis and the period
recorded with its ciência are the art. 3º row's (the same 10 days), and its subtitle
names art. 3º alone."""


def _grounds(data: Mapping[str, Any], proceeding: Proceeding, laws: Any) -> list[dict[str, Any]]:
    accused = pointers.get(data, ACCUSED)
    accused = accused if isinstance(accused, list) else []
    return [
        {
            "chave": key,
            "rotulo": label,
            "dispositivo": citation,
            "referencia": bare_reference(laws, citation),
            "texto_legal": resolve(laws, citation).text,
        }
        for key, citation, label in proceeding.grounds
        if key in accused
    ]


def _autos(
    request: ComputeInput, data: Mapping[str, Any], on: Any, proceeding: Proceeding,
    keys: set[str],
) -> tuple[list[dict[str, Any]], str | None, list[Item]]:
    """The autos a revogação notice accuses (``/acusacao/autos``), read from the registry
    as the decision reads them (:func:`lavra_americana.transporte_escolar.revogacao_autos.
    auto_rows`: each exists, is not cancelled, is the driver's, not after the notice), and,
    when it accuses the third fine, the fines it counts, by number and date, with the
    reading kept (THIRD_FINE_READING, beside :func:`~lavra_americana.transporte_escolar.
    revogacao_autos.third_fine`): the notice says which fines it counts, so the party
    defends against the count the decision will apply."""
    listed = pointers.get(data, NOTICE_AUTOS)
    if proceeding is not REVOCATION or not isinstance(listed, list) or on is None:
        return [], None, []
    penalty = [k for k in keys if k != MOTIVE]
    if not penalty:
        return [], None, []
    ground = THIRD_FINE if THIRD_FINE in penalty else penalty[0]
    rows, infractions, items = auto_rows(request, data, on, GROUNDS[ground][0], NOTICE_AUTOS)
    count = None
    if ground == THIRD_FINE:
        count, counted = third_fine(request, infractions, not any(i.pending for i in items),
                                    NOTICE_AUTOS)
        items.extend(counted)
    return rows, count, items


def _facts_items(request: ComputeInput, data: Mapping[str, Any], on: Any,
                 proceeding: Proceeding) -> list[Item]:
    """The autos of lavra's AIF-FRET series a cassação notice names in its facts
    (``/acusacao/fatos``, free text), each as the registry holds it (issue 22, § 3:
    :func:`lavra_americana.fretamento.autos_registro.cited_in_text`): absent, cancelled,
    of another company or after the notice, it is *invalid* (fretamento art. 22, II). The
    revogação notice lists its autos apart (``/acusacao/autos``, :func:`_autos`)."""
    if proceeding is not CASSATION or on is None:
        return []
    return cited_in_text(
        request.history, pointers.get(data, FACTS), company=pointers.get(data, "/empresa/cnpj"),
        on=on, field=FACTS, basis=(f"{CASSATION_LAW}#art22_inc2",), act="a notificação")


def _licence_items(request: ComputeInput, data: Mapping[str, Any], proceeding: Proceeding,
                   laws: Any) -> list[Item]:
    """Each alvará the notice accuses, as the state holds it (issue 22, § 3): one of
    lavra's series absent from the registry (neither issued nor imported), no longer in
    force, or held by another than the party notified (a transfer moved it), is
    *invalid*; a number outside the series (on paper) is not checked here."""
    listed = pointers.get(data, proceeding.licence_field)
    numbers = ([(f"{proceeding.licence_field}/{i}/numero", e.get("numero"))
                for i, e in enumerate(listed) if isinstance(e, Mapping)]
               if isinstance(listed, list) else [(proceeding.licence_field, listed)])
    party = pointers.get(data, proceeding.party_field) if proceeding.party_field else None
    items: list[Item] = []
    for field, number in numbers:
        items.extend(standing_items(
            request.history, number, request.on, kind=LICENCE_FORMS[proceeding.notice_form],
            what="alvará", field=field, basis=proceeding.adverse_basis or proceeding.basis,
            laws=laws, holder=party, holder_field=proceeding.party_field or None)[1])
    return items


def notificacao_defesa(request: ComputeInput) -> Computed:
    """The notice for defence of the proceeding its form opens (module docstring).

    ``values``: ``acusacao`` (each hypothesis accused: ``chave``, ``rotulo``,
    ``dispositivo``, ``referencia``, ``texto_legal``), ``ato`` (the adverse act that may
    follow, with its basis), ``prazo`` (``regra``, ``contagem``), ``fundamento``,
    ``penalidade`` (False when the notice accuses only a ground that is no penalty:
    :data:`NOT_A_PENALTY`), ``subtitulo_documento`` (then only), ``autos`` (the autos
    accused, from the registry: ``numero`` as printed, ``data_infracao``,
    ``dispositivos``) and ``terceira_multa`` (the fines counted: :func:`_autos`).
    """
    proceeding = PROCEEDINGS[request.form_id]
    data = data_of(request)
    context, _ = rule_sources(request, request.example_values)
    laws = context.laws
    grounds = _grounds(data, proceeding, laws)
    keys = {g["chave"] for g in grounds}
    motive = NOT_A_PENALTY.get(next(iter(keys))) if len(keys) == 1 else None
    key = motive[0] if motive is not None else proceeding.deadline
    items: list[Item] = []
    on = date_at(data, NOTICE_DATE)
    if on is not None:
        items.extend(after_issue(on, request.issued_on, NOTICE_DATE, "data da notificação",
                                 key))
    cited = [g["dispositivo"] for g in grounds] + [
        c for key, extra in proceeding.ground_basis if key in keys for c in extra]
    adverse = (
        f"Apurados os fatos, o processo pode resultar na {proceeding.adverse} "
        f"({cite_many(laws, *in_legal_order([*proceeding.adverse_basis, *cited], laws))})."
    )
    found = period_of(context, key, on or request.on)
    period = period_words(*found)[0] if found is not None else "do prazo legal"
    source = period_source(context, key, on or request.on)
    rule = (
        f"{proceeding.party_subject} poderá apresentar defesa escrita, com os documentos e "
        f"as provas que tiver, no prazo de {period}"
        + (f" ({source})" if source else "")
        + ", contados da ciência desta notificação."
    )
    counting = (
        "A ciência desta notificação é a data do recibo assinado pelo notificado, a do "
        "aviso de recebimento ou a da publicação do edital, e fica registrada no registro "
        "deste documento. Na contagem exclui-se o dia da ciência e inclui-se o do "
        "vencimento; se este cair em dia sem expediente na Prefeitura, o prazo prorroga-se "
        "para o primeiro dia útil seguinte (Lei nº 9.784/1999, art. 66)."
    )
    autos, count, auto_items = _autos(request, data, on, proceeding, keys)
    items.extend(auto_items)
    items.extend(_facts_items(request, data, on, proceeding))
    items.extend(_licence_items(request, data, proceeding, laws))
    process = clean_text(pointers.get(data, "/processo/numero"))
    values: dict[str, Any] = {
        "acusacao": grounds,
        "ato": adverse,
        "prazo": {"regra": rule, "contagem": counting},
        "processo": process,
        "referencia_prazo": short(laws, key),
        "fundamento": in_legal_order([*proceeding.adverse_basis, *cited, key], laws),
        "penalidade": motive is None,
        "autos": autos,
        "terceira_multa": count,
    }
    if motive is not None:
        values["subtitulo_documento"] = motive[1]
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {"notificacao_defesa": notificacao_defesa}
"""The computation the notice forms name under ``"calculos"``."""
