"""The edital of the result of the school-transport selection, Lei nº 4.515/2007: art.
8º (ranking by points), § 1º (the older candidate first), § 2º (30 days to register in
the Cadastro de Atividades), art. 11 (5 days to appeal to the Prefeito) and art. 12, I.

``edital_resultado_classificacao`` — its computation
    Each registered candidate (``/candidatos``) is judged on the requirements of art. 7º
    *on the day the inscription was filed* (art. 7º: the candidates prove them at
    registration, "ocasião em que deverão comprovar") with
    :func:`lavra_americana.transporte_escolar.eligibility.candidate_eligibility`; those
    who meet them are ranked by the points of the Anexo
    (:func:`lavra_americana.transporte_escolar.ranking.rank_candidates`), ties going
    to the older candidate (§ 1º) and then to the earlier protocol; those who do not are
    listed apart, each with the requirement unmet and its article. The places of the
    chamamento (``/vagas``) mark who is qualified to obtain the licence ("classificado
    e habilitado", § 2º) and who stays classified beyond the places.
    The Anexo is not in the pack's source text: with the example table the ranking is
    *missing* (it cannot be published), as in the chamamento.
    Deadlines printed: the appeal to the Prefeito, 5 days from the publication of this
    result (art. 11; :func:`lavra.law.statutory.deadline_for`), after which the choice
    is final; and the 30 days of § 2º, counted from each qualified candidate's ciência
    of the classification (``legal_text/prazos.json``) — the publication is the
    ciência of those who do not sign a receipt earlier, so the edital prints the last
    day counted from it: the reading that gives the candidate the whole period.
    A publication date after the day the edital is actually issued is *invalid*; an
    inscription filed after the edital is *invalid*. So is one filed before the edital
    de chamamento was published, or outside the period of inscription it set
    (INSCRIPTION_WINDOW, :func:`_call_items`, arts. 6º, parágrafo único, and 10): the
    chamamento is read from the registry when lavra issued it (its publication and
    period are the registry's), else the publication date stated (a paper edital).

:func:`result_in_registry` — for the first alvará (art. 12, I)
    When the alvará names the result edital (``/selecao/edital_resultado``), the
    registry must hold it, not cancelled, published on the date the alvará counts the
    appeal period from (the registry's date wins: a difference is *invalid*), with the
    titular among its candidates. Without the registry's record it is *missing*.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
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
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import deadline_for
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, issue_items
from lavra_americana.comum.sources import statutory_context
from lavra_americana.transporte_escolar.candidate import Candidate
from lavra_americana.transporte_escolar.eligibility import candidate_eligibility
from lavra_americana.transporte_escolar.ranking import (
    Answer,
    Applicant,
    load_scoring_table,
    points_text,
    rank_candidates,
)

__all__ = ["COMPUTATIONS", "FORM", "IMPLEMENTED", "edital_resultado_classificacao",
           "result_in_registry"]

SCHOOL = "transporte-escolar"
RANKING = f"{SCHOOL}#art8"
TIE = f"{SCHOOL}#art8_par1"
REGISTER = f"{SCHOOL}#art8_par2"
APPEAL = f"{SCHOOL}#art11"
FINAL = f"{SCHOOL}#art12_inc1"
FORM = "edital-resultado-classificacao"
CALL_FORM = "edital-chamamento-escolar"
SELECTION = f"{SCHOOL}#art6_par1u"
CALL = f"{SCHOOL}#art10"

IMPLEMENTED: tuple[str, ...] = (RANKING, TIE, REGISTER, APPEAL, f"{SCHOOL}#art13_par2")
"""Citations this computation applies (coverage): the ranking (art. 8º, § 1º), the
deadlines of art. 8º, § 2º, and of art. 11 printed in the result; art. 13, § 2º (the
candidates for vacant places judged on art. 7º and ranked by art. 8º) is this same
rule."""


@dataclass(frozen=True)
class _Call:
    """The chamamento the inscriptions answer: its publication and, when the registry
    holds it, its period of inscription."""

    published: date | None
    opens: date | None
    closes: date | None


def _call(history: History | None, data: Mapping[str, Any], items: list[Item]) -> _Call:
    """The edital de chamamento, read from the registry when lavra issued it (its
    publication date and period are the registry's: a different stated date is
    *invalid*); a paper edital, with the publication date stated."""
    stated = maybe_date(pointers.get(data, "/edital_chamamento/data_publicacao"))
    number = clean_text(pointers.get(data, "/edital_chamamento/numero"))
    record = (None if history is None or number is None
              else history.document(CALL_FORM, number))
    if record is None:
        return _Call(stated, None, None)
    label = f"O edital de chamamento {format_act_number(record.printed)}"
    if record.cancelled:
        items.append(item_at("/edital_chamamento/numero", Status.INVALID,
                             f"{label} foi cancelado.", CALL, SELECTION))
    published = record.reference_date
    if stated is not None and stated != published:
        items.append(item_at(
            "/edital_chamamento/data_publicacao", Status.INVALID,
            f"{label} foi publicado, segundo o registro, em {format_date(published)}.",
            CALL, SELECTION,
        ))
    return _Call(published, maybe_date(pointers.get(record.data, "/inscricoes/inicio")),
                 maybe_date(pointers.get(record.data, "/inscricoes/fim")))


def _call_items(call: _Call, name: str, filed: date, field: str) -> list[Item]:
    """INSCRIPTION_WINDOW: an inscription is an answer to the chamamento (art. 6º,
    parágrafo único: the edital grants the period "para a inscrição"; art. 10: the
    interested are "convocados por edital"): one filed before the edital was published,
    or outside the period it set, is not classified."""
    if call.published is not None and filed < call.published:
        return [item_at(
            field, Status.INVALID,
            f"A inscrição de {name} foi protocolada em {format_date(filed)}, antes da "
            f"publicação do edital de chamamento ({format_date(call.published)}): só se "
            "classifica quem se inscreveu em resposta ao edital (arts. 6º, parágrafo "
            "único, e 10).",
            SELECTION, CALL,
        )]
    if (call.opens is not None and filed < call.opens) or (
        call.closes is not None and filed > call.closes
    ):
        period = (f"de {format_date(call.opens)} a {format_date(call.closes)}"
                  if call.opens and call.closes else "fixado no edital")
        return [item_at(
            field, Status.INVALID,
            f"A inscrição de {name} foi protocolada em {format_date(filed)}, fora do "
            f"período de inscrição do edital de chamamento ({period}; art. 6º, parágrafo "
            "único).",
            SELECTION,
        )]
    return []


def _applicants(
    request: ComputeInput, data: Mapping[str, Any], items: list[Item]
) -> list[Applicant]:
    context = statutory_context(request)
    published = maybe_date(pointers.get(data, "/data_publicacao"))
    call = _call(request.history, data, items)
    found: list[Applicant] = []
    entries = pointers.get(data, "/candidatos")
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        field = f"/candidatos/{index}"
        try:
            filed = datetime.fromisoformat(str(entry.get("protocolado_em")))
            candidate = Candidate.from_json(entry.get("candidato") or {})
            eligibility = candidate_eligibility(
                candidate, filed.date(), "titular",
                params=context.parameters, laws=context.laws,
            )
        except (LavraError, ValueError) as error:
            message = getattr(error, "message", None) or "Data e hora de protocolo inválidas."
            items.append(item_at(field, Status.INVALID, message, RANKING))
            continue
        if published is not None and filed.date() > published:
            items.append(item_at(
                f"{field}/protocolado_em", Status.INVALID,
                f"A inscrição de {candidate.name} foi protocolada em "
                f"{format_date(filed.date())}, depois da publicação do resultado.",
                RANKING,
            ))
        items.extend(_call_items(call, candidate.name, filed.date(),
                                 f"{field}/protocolado_em"))
        answers: dict[str, Answer] = {}
        for key, value in (entry.get("pontuacao") or {}).items():
            answers[key] = value if isinstance(value, bool) else Decimal(str(value))
        if candidate.birth_date is None:
            continue  # the schema requires it
        found.append(Applicant(
            str(entry.get("protocolo")), candidate.name, candidate.birth_date, filed,
            eligibility, answers,
        ))
    return found


def edital_resultado_classificacao(request: ComputeInput) -> Computed:
    """Ranking (art. 8º), the unqualified and why, the deadlines of arts. 11 and 8º, § 2º.

    ``values``: ``classificados`` (``posicao``, ``protocolo``, ``nome``, ``pontos``,
    ``desempate``, ``habilitado``), ``nao_classificados`` (``protocolo``, ``nome``,
    ``motivo``), ``explicacao``, ``aviso``, ``recurso`` (``ultimo_dia``,
    ``explicacao``), ``cadastro`` (``ultimo_dia``, ``explicacao``), ``pendente``.
    """
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    laws = context.laws
    items: list[Item] = list(issue_items(
        on, request.issued_on, "/data_publicacao", "o edital de resultado", RANKING
    ))
    applicants = _applicants(request, data, items)
    places = pointers.get(data, "/vagas")
    try:
        table = load_scoring_table(request.pack_dir)
        ranking = rank_candidates(
            applicants, table, laws=laws, places=places if isinstance(places, int) else None
        )
    except LavraError as error:
        items.append(item_at("/candidatos", Status.INVALID, error.message, RANKING))
        return Computed({"pendente": error.message, "classificados": [],
                         "nao_classificados": []}, unique_items(items))
    items.extend(ranking.items)
    values: dict[str, Any] = {
        "classificados": [
            {"posicao": r.position, "protocolo": r.protocol, "nome": r.name,
             "pontos": points_text(r.points), "desempate": r.tie_break,
             "habilitado": r.within_places is not False}
            for r in ranking.ranked
        ],
        "nao_classificados": [
            {"protocolo": e.protocol, "nome": e.name, "motivo": e.reason}
            for e in ranking.excluded
        ],
        "explicacao": ranking.explanation,
        "aviso": ranking.notice,
        "pendente": None,
    }
    for key, citation, what in (
        ("recurso", APPEAL, "recurso escrito ao Prefeito Municipal contra o ato de escolha"),
        ("cadastro", REGISTER, "inscrição no Cadastro de Atividades do Município"),
    ):
        try:
            deadline = deadline_for(citation, on, context=context)
        except LavraError as error:
            items.append(item_at("/data_publicacao", Status.MISSING, error.message, citation))
            values[key] = None
            continue
        values[key] = {
            "ultimo_dia": deadline.last_day,
            "explicacao": (
                f"Prazo para {what} ({short(laws, citation)}): até "
                f"{format_date(deadline.last_day)}, contado da publicação deste edital em "
                f"{format_date(on)}."
            ),
        }
    if values["recurso"] is not None:
        values["recurso"]["explicacao"] += (
            " Findo o prazo sem recurso, a escolha é havida como definitiva; a licença só é "
            f"concedida depois dele ou, havendo recurso, depois de decidido "
            f"({short(laws, FINAL)})."
        )
    return Computed(values, unique_items(items))


def result_in_registry(history: History | None, data: Mapping[str, Any]) -> list[Item]:
    """The result edital an alvará's selection names, checked in the registry."""
    number = clean_text(pointers.get(data, "/selecao/edital_resultado"))
    if number is None:
        return []
    field = "/selecao/edital_resultado"
    record = None if history is None else history.document(FORM, number)
    if record is None:
        return [item_at(
            field, Status.MISSING,
            f"O edital de resultado {format_act_number(number)} não consta do registro de "
            "documentos emitidos: sem conferir a publicação do resultado no registro, não se "
            "sabe se o prazo de recurso decorreu (art. 12, I).",
            FINAL, APPEAL,
        )]
    label = f"O edital de resultado {format_act_number(record.printed)}"
    if record.cancelled:
        return [item_at(field, Status.INVALID, f"{label} foi cancelado.", FINAL)]
    items: list[Item] = []
    stated = maybe_date(pointers.get(data, "/selecao/data_publicacao_resultado"))
    if stated is not None and stated != record.reference_date:
        items.append(item_at(
            "/selecao/data_publicacao_resultado", Status.INVALID,
            f"{label} foi publicado, segundo o registro, em "
            f"{format_date(record.reference_date)}: o prazo de recurso conta-se dessa data.",
            APPEAL, FINAL,
        ))
    holder = (clean_text(pointers.get(data, "/titular/nome")) or "").casefold()
    entries = pointers.get(record.data, "/candidatos")
    names = {
        (clean_text(pointers.get(entry, "/candidato/nome")) or "").casefold()
        for entry in (entries if isinstance(entries, list) else [])
        if isinstance(entry, Mapping)
    }
    if holder and holder not in names:
        items.append(item_at(
            field, Status.INVALID,
            f"{label} não lista o titular entre os candidatos do processo seletivo.",
            FINAL,
        ))
    return items or [item_at(
        field, Status.MET,
        f"{label} consta do registro, publicado em {format_date(record.reference_date)}.",
        FINAL,
    )]


COMPUTATIONS: dict[str, Computation] = {
    "edital_resultado_classificacao": edital_resultado_classificacao,
}
"""The computation of this module a form may name under ``"calculos"``."""
