"""The declaration of vacancy of a school-transport licence not renewed, Lei nº
4.515/2007, art. 13: "O alvará deverá ser renovado anualmente até o último dia útil do
ano, sendo que a não renovação por parte do interessado implicará a cassação automática
da licença e declaração de vacância."

``declaracao_vacancia`` — its computation
    The alvará is checked in the registry (:func:`lavra_americana.comum.validity.act_at`,
    not in force: it is the expired one): it exists and is the vehicle's. One already
    cancelled (revoked, cassado) is *invalid*: its place fell vacant by that act, not by
    art. 13.
    Only after the last business day of the alvará's year (``legal_text/prazos.json``,
    ``transporte-escolar#art13``): a declaration on or before it is *invalid* — the
    holder may still renew. A renewed alvará in the registry, of the same vehicle and
    in force on the date, is *invalid* (it was renewed).
    A renewal requested in time and not yet decided (``/renovacao_requerida`` without
    ``indeferida_em``) is *invalid*: the law punishes the holder's non-renewal ("por
    parte do interessado"), not the administration's delay in deciding — the reading
    that protects the holder.
    The place declared vacant joins those of the next Edital de Chamamento (art. 13,
    § 1º; art. 6º): the document says so, and that a new licence needs a new selection
    (art. 3º, § 4º).
    The date after the day the declaration is actually issued is *invalid*.
    ``/processo/numero`` (optional) joins the declaration to a processo, whose tracking
    page then shows it to the holder, who takes ciência and appeals there. Typed in
    lavra's protocol series (PROT), it must be, in the registry, the holder's own
    renewal request (``requerimento-renovacao-escolar`` filed with the titular's CPF):
    any other would put the declaration on the tracking page of another processo, or
    of another person (:func:`processo_items`). Reading chosen where the law is silent:
    the vacância follows the non-renewal (art. 13); the one processo it belongs to is
    that renewal's, when the holder requested it online and it was refused; when the
    holder filed nothing, or on paper, there is no protocol of lavra to join and the
    field is left blank or holds the paper processo's number (the holder is then
    notified by the Secretaria and appeals with the fillable form, README).
The appeal (issue 23, class 2: the declaration printed none). The declaration is the
    Secretário's act that declares the licence cassada; the holder may contest it (it
    errs if the alvará was renewed, or the renewal requested in time is undecided). Lei
    nº 4.515/2007 gives an appeal against the penalties of art. 23 (arts. 25 and 26) and
    against the ato de escolha (art. 11); the cassação of art. 13 is neither: it follows
    from the law, no sanction applied by the fiscalização. The law being silent, Lei nº
    9.784/1999 applies (as for the refusal of a renewal, ``comum/indeferimento.py``):
    10 days from the ciência (art. 59), addressed to the Secretário, who may reconsider
    within 5 days and otherwise forwards it to the Prefeito (art. 56, § 1º). The rule is
    printed, never a last day: the ciência line is left blank and the registry counts
    the last day from the ciência recorded on the entry (form ``ciencia.prazos``).
"""

from __future__ import annotations

from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    filings,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import deadline_for
from lavra.textutil import act_series, format_act_number, format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, issue_items
from lavra_americana.comum.orgao import secretario
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import act_at

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "declaracao_vacancia"]

SCHOOL = "transporte-escolar"
ANNUAL = f"{SCHOOL}#art13"
NEXT_CALL = f"{SCHOOL}#art13_par1"
NEW_SELECTION = f"{SCHOOL}#art3_par4"
ALVARA_FORM = "alvara-transporte-escolar"
DATE = "/data_declaracao"
PROCESSO = "/processo/numero"
RENEWAL_FORM = "requerimento-renovacao-escolar"
PROTOCOL_SERIES = "PROT"
"""lavra's protocol series (:data:`lavra.filing.PROTOCOL_SERIES`)."""

APPEAL, RECONSIDER, APPEAL_DEADLINE = (
    "lei-9784-1999#art56", "lei-9784-1999#art56_par1", "lei-9784-1999#art59")

IMPLEMENTED: tuple[str, ...] = (ANNUAL, NEXT_CALL, NEW_SELECTION)
"""Citations this computation applies (coverage): the automatic cassação and vacancy
(art. 13), the place offered in the next chamamento (§ 1º) and the new selection a new
licence needs (art. 3º, § 4º)."""


def _appeal_rule(law: str, secretary: str, federal: str) -> str:
    """The appeal against the declaration (module docstring). The first mention of the
    federal law in the printed declaration: ``federal`` is its full title ("Lei nº 9.784,
    de 29 de janeiro de 1999"), as the templates cite a law at first mention."""
    return (
        "Desta declaração cabe recurso, por razões de legalidade e de mérito, no prazo de "
        f"10 (dez) dias contados da ciência, dirigido ao {secretary}, que, se não a "
        "reconsiderar no prazo de 5 (cinco) dias, o "
        f"encaminhará ao Prefeito Municipal (arts. 56, § 1º, e 59 da {federal}, aplicada "
        f"à falta de recurso próprio na {law}, cujos arts. 11 e 25 regem o "
        "recurso contra o ato de escolha e contra as penalidades)."
    )


def declaracao_vacancia(request: ComputeInput) -> Computed:
    """The expired alvará, the end of the renewal term, no renewal: the place is vacant.

    ``values``: ``ultimo_dia_renovacao``, ``explicacao``, ``recurso`` (``regra``).
    """
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    laws = context.laws
    appeal = {"regra": _appeal_rule(laws[SCHOOL].short_title, secretario(request),
                                    laws[APPEAL.partition("#")[0]].title)}
    items: list[Item] = list(issue_items(on, request.issued_on, DATE, "a declaração", ANNUAL))
    found, checked = act_at(
        request.history, ALVARA_FORM, data, "/alvara", on,
        "Alvará para exploração de serviços de Transporte Escolar", (ANNUAL,), in_force=False,
        holder_at="/titular/cpf", laws=laws,
    )
    items.extend(checked)
    items.extend(processo_items(request))
    values: dict[str, Any] = {"ultimo_dia_renovacao": None, "explicacao": None,
                              "recurso": appeal}
    until = (found.valid_until if found is not None else None) or maybe_date(
        pointers.get(data, "/alvara/valido_ate"))
    if until is None:
        return Computed(values, unique_items(items))
    try:
        last = deadline_for(ANNUAL, until, context=context).last_day
    except LavraError as error:
        items.append(item_at(DATE, Status.MISSING, error.message, ANNUAL))
        return Computed(values, unique_items(items))
    ref = short(laws, ANNUAL)
    if on <= last:
        items.append(item_at(
            DATE, Status.INVALID,
            f"O alvará pode ser renovado até o último dia útil do ano, {format_date(last)} "
            f"({ref}): a vacância só se declara depois dele.",
            ANNUAL,
        ))
    plate = pointers.get(data, "/veiculo/placa")
    if request.history is not None and isinstance(plate, str):
        for record in request.history.in_force(plate, ALVARA_FORM, on):
            items.append(item_at(
                "/alvara/numero", Status.INVALID,
                f"O veículo {plate} tem o alvará {format_act_number(record.printed)} em vigor até "
                f"{format_date(record.valid_until) if record.valid_until else '-'}: a licença "
                f"foi renovada e não há vacância ({ref}).",
                ANNUAL,
            ))
    asked = maybe_date(pointers.get(data, "/renovacao_requerida/data"))
    refused = maybe_date(pointers.get(data, "/renovacao_requerida/indeferida_em"))
    if asked is not None and refused is None:
        items.append(item_at(
            "/renovacao_requerida/indeferida_em", Status.INVALID,
            f"A renovação foi requerida em {format_date(asked)} e "
            f"não consta decisão: a não renovação que a lei sanciona é a do interessado "
            f"({ref}); decida o requerimento antes de declarar a vacância.",
            ANNUAL,
        ))
    values.update(
        ultimo_dia_renovacao=last,
        explicacao=(
            f"O alvará venceu em {format_date(until)} e não foi renovado até o último dia útil "
            f"do ano, {format_date(last)}: a licença está cassada automaticamente e a vaga é "
            f"declarada vacante ({ref})."
        ),
    )
    return Computed(values, unique_items(items))


def processo_items(request: ComputeInput) -> list[Item]:
    """*Invalid* when the processo typed in lavra's protocol series is not, in the
    registry, the holder's renewal request (module doc)."""
    data = data_of(request)
    typed = clean_text(pointers.get(data, PROCESSO))
    history = filings(request.history)
    if typed is None or act_series(typed) != PROTOCOL_SERIES or history is None:
        return []  # blank, or a paper processo: printed as typed
    found = history.filing(typed)
    if found is None:
        return [item_at(PROCESSO, Status.INVALID, (
            f"O processo «{typed}» não consta do registro de protocolos do sistema. "
            "Informe o protocolo do requerimento de renovação do titular, como consta do "
            "comprovante, ou deixe o campo em branco."), APPEAL_DEADLINE)]
    holder = "".join(c for c in str(pointers.get(data, "/titular/cpf") or "") if c.isdigit())
    filer = "".join(c for c in found.cpf_cnpj if c.isdigit())
    if found.form != RENEWAL_FORM or filer != holder:
        return [item_at(PROCESSO, Status.INVALID, (
            f"O protocolo {found.protocol} não é o requerimento de renovação do titular: "
            "a declaração passaria a constar do acompanhamento de outro processo. Informe "
            "o protocolo da renovação requerida pelo titular, ou deixe o campo em branco."),
            APPEAL_DEADLINE)]
    return []


COMPUTATIONS: dict[str, Computation] = {"declaracao_vacancia": declaracao_vacancia}
"""The computation of this module a form may name under ``"calculos"``."""
