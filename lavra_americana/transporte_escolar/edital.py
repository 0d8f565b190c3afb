"""The edital de chamamento of Lei nº 4.515/2007 (transporte escolar): arts. 6º to 11.

Like every computation of the pack, it never raises for what the data or the pack lack:
a value that cannot be computed is a *missing* item, a fact against the law an
*invalid* one, and the values say pending.

``edital_chamamento_escolar`` — form ``edital-chamamento-escolar`` (arts. 6º to 11):

- places: :func:`lavra_americana.transporte_escolar.population.licence_cap` on the
  publication date, from the latest IBGE figure of ``legal_text/populacao.json`` and the
  active licences typed by staff (``/licencas_ativas``: the registry has no count query
  yet). A figure marked ``a_confirmar`` leaves the population item *missing*: the edital
  cannot be issued. Staff may state the official figure with its publication
  (``/populacao_oficial``: value, year, kind, date of publication and source, e.g. the DOU
  issue); it is used only if it is the latest IBGE figure (not older than the pack's
  latest, published by the date of the edital). The engine never invents a figure. The
  places offered (``/vagas``) may be fewer than the open places (art. 6º: "em quantidade
  limitada, a critério da Secretaria"), never more; with no open place there is no edital
  (*invalid*);
- registration period of at least 20 days (art. 6º, parágrafo único:
  ``check_timeliness("transporte-escolar#art6_par1u", start, end)``), opening not
  before the publication; publication at least 20 days before the date to which the
  candidates are called, which is the end of the registration
  (``check_timeliness("transporte-escolar#art10", end, publication)``);
- the documents (art. 7º, I to IX, and art. 10, parágrafo único) and the criteria of
  choice (art. 8º and its Anexo). The Anexo is not in the pack: the shipped scoring
  table is an EXAMPLE. An edital is the act that binds the Administration and the
  candidates to its criteria (vinculação ao instrumento convocatório); publishing
  fictitious criteria, even with a warning, would be publishing criteria that are not
  the law's, and a selection held under them would be void. So the edital refuses to
  be issued while the table is the example (*missing* item), and the draft prints
  the table with its warning. Ties: art. 8º, § 1º, then the subsidiary rule of
  :mod:`lavra_americana.transporte_escolar.ranking` (order of protocol), which the edital states;
- the appeal against the choice, 5 days (art. 11), counted from the publication of
  the result: the rule is printed (the result is not yet published).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    form_basis,
    in_legal_order,
    period_words,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.checking.timeliness import check_timeliness
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.model import Law
from lavra.law.statutory import StatutoryContext
from lavra.textutil import format_date
from lavra_americana.comum.amounts import TRANSPORTE_ESCOLAR
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, invalid, missing, period_of
from lavra_americana.comum.sources import pack_root, rule_sources
from lavra_americana.transporte_escolar.population import (
    Population,
    PopulationFigure,
    latest_figure,
    licence_cap,
    load_population,
)
from lavra_americana.transporte_escolar.ranking import load_scoring_table, points_text

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "edital_chamamento_escolar",
]

ESC = TRANSPORTE_ESCOLAR
EDT_PUBLISHED = "/publicacao/data"
EDT_OPEN = "/inscricoes/inicio"
EDT_CLOSE = "/inscricoes/fim"
EDT_ACTIVE = "/licencas_ativas"
EDT_PLACES = "/vagas"
EDT_OFFICIAL = "/populacao_oficial"
ART6 = f"{ESC}#art6"
ART6_PERIOD = f"{ESC}#art6_par1u"
ART8 = f"{ESC}#art8"
ART10 = f"{ESC}#art10"
ART11 = f"{ESC}#art11"

IMPLEMENTED: tuple[str, ...] = (
    f"{ESC}#art6_par1u",
    f"{ESC}#art10",
    f"{ESC}#art10_par1u",
    f"{ESC}#art11",
)
"""Citations whose rule this module applies (coverage): the edital's periods,
documents and criteria, and the appeal against the choice."""


def _stated_population(
    data: Mapping[str, Any], pack: Population, on: date, laws: Mapping[str, Law]
) -> tuple[Population | None, list[Item]]:
    """The official figure typed by staff, if any and if it is the latest boletim."""
    raw = pointers.get(data, EDT_OFFICIAL)
    if not isinstance(raw, Mapping):
        return None, []
    value, year = raw.get("valor"), raw.get("ano")
    published = maybe_date(raw.get("divulgacao"))
    source, kind = clean_text(raw.get("fonte")), raw.get("tipo")
    if not (
        isinstance(value, int)
        and isinstance(year, int)
        and published
        and source
        and kind in ("estimativa", "censo")
    ):
        return None, []  # the schema reports it
    ref = short(laws, ART6)
    where = f"{EDT_OFFICIAL}/divulgacao"
    if published > on:
        return None, [
            invalid(
                "populacao",
                where,
                f"O dado populacional informado foi divulgado em {format_date(published)}, "
                f"depois da publicação do edital ({format_date(on)}) ({ref}).",
                ART6,
            )
        ]
    try:
        latest: PopulationFigure | None = latest_figure(pack, on)
    except LavraError:
        latest = None
    if latest is not None and (
        published < latest.published and not (latest.year == year and latest.kind == kind)
    ):
        return None, [
            invalid(
                "populacao",
                where,
                f"O dado informado ({year}, divulgado em {format_date(published)}) é "
                f"anterior ao último boletim do IBGE registrado, a {latest.describe()}: "
                f"o art. 6º manda considerar a população do último boletim ({ref}).",
                ART6,
            )
        ]
    figure = PopulationFigure(
        year=year,
        kind=kind,
        reference_date=None,
        published=min(published, on),
        value=value,
        status="confirmado",
        source=source,
    )
    return Population(pack.municipality, pack.basis, (figure,)), []


def _criteria(pack_dir: Path) -> tuple[dict[str, Any] | None, list[Item]]:
    try:
        table = load_scoring_table(pack_dir)
    except LavraError as error:
        return None, [missing("tabela_pontuacao", "", error.message, ART8)]
    values = {
        "titulo": table.title,
        "exemplo": table.example,
        "aviso": table.notice,
        "fonte": table.source,
        "criterios": [
            {
                "descricao": c.description,
                "tipo": c.kind,
                "pontos": points_text(c.points),
                "maximo": points_text(c.maximum) if c.maximum is not None else None,
                "unidade": c.unit,
            }
            for c in table.criteria
        ],
    }
    if table.example:
        return values, [
            missing(
                "tabela_pontuacao",
                "",
                "Critérios de escolha: a tabela de pontuação do pacote é um EXEMPLO, não o "
                "Anexo da lei. O edital vincula a Administração e os candidatos aos critérios "
                "que publica, e critérios fictícios tornariam nulo o processo seletivo: o "
                "edital não pode ser publicado enquanto o Anexo oficial não for cadastrado "
                "(legal_text/anexo-pontuacao.json).",
                ART8,
                f"{ESC}#art10_par1u",
            )
        ]
    return values, [
        Item(
            "tabela_pontuacao",
            Status.MET,
            "",
            f"Critérios de escolha: {table.title} ({table.source}).",
            (ART8, f"{ESC}#art10_par1u"),
        )
    ]


def _edital_periods(
    published: date | None,
    opening: date | None,
    closing: date | None,
    context: StatutoryContext,
) -> tuple[dict[str, Any], list[Item]]:
    items: list[Item] = []
    values: dict[str, Any] = {"inscricao": None, "antecedencia": None, "encerramento_minimo": None}
    laws = context.laws
    if published is not None and opening is not None and opening < published:
        items.append(
            invalid(
                "inscricoes.inicio",
                EDT_OPEN,
                f"As inscrições não podem abrir ({format_date(opening)}) antes da "
                f"publicação do edital ({format_date(published)}) "
                f"({short(laws, ART6_PERIOD)}).",
                ART6_PERIOD,
            )
        )
    if opening is not None and closing is not None:
        try:
            period = check_timeliness(
                ART6_PERIOD, opening, closing, context=context, field=EDT_CLOSE
            )
        except LavraError as error:
            items.append(missing("inscricoes.fim", EDT_CLOSE, error.message, ART6_PERIOD))
        else:
            items.extend(period.items)
            values["inscricao"] = period.explanation
            values["encerramento_minimo"] = period.deadline.last_day
    if published is not None and opening is not None:
        # Art. 10 counted back from the opening of registration, the day the candidates
        # are called to (the cautious reading: counted from the closing, the antecedence
        # would be swallowed by the registration period of art. 6º, parágrafo único).
        try:
            notice = check_timeliness(
                ART10, opening, published, context=context, field=EDT_PUBLISHED
            )
        except LavraError as error:
            items.append(missing("publicacao.data", EDT_PUBLISHED, error.message, ART10))
        else:
            deadline = notice.deadline
            size = "" if deadline.period is None else deadline.period.describe()
            text = (
                f"Edital publicado em {format_date(published)}; com a antecedência mínima de "
                f"{size} da abertura das inscrições, em {format_date(opening)}, data para a "
                f"qual os interessados são convocados ({short(laws, ART10)}), a publicação "
                f"{'deveria ocorrer' if notice.timely else 'deveria ter ocorrido'} até "
                f"{format_date(deadline.last_day)}: "
                + (
                    "publicação com a antecedência legal."
                    if notice.timely
                    else "publicação sem a antecedência mínima legal."
                )
            )
            items.extend(
                Item(i.requirement, i.status, i.field, text, i.basis) for i in notice.items
            )
            values["antecedencia"] = text
    return values, items


def _population_age_items(year: int, on: date, laws: Mapping[str, Law]) -> list[Item]:
    """A figure older than the latest IBGE estimate due on ``on`` is *missing*.

    The IBGE publishes its estimates in the DOU around the end of August: from
    September the estimate of the current year is due, before it that of the previous
    year. An older figure may not be taken for "o último boletim" (art. 6º).
    """
    due = on.year if on > date(on.year, 8, 31) else on.year - 1
    if year >= due:
        return []
    return [
        missing(
            "populacao_atualizada",
            EDT_OFFICIAL,
            f"O dado populacional usado é de {year}, mas em {format_date(on)} o último "
            f"boletim do IBGE já deve trazer a estimativa de {due} (divulgada no Diário "
            "Oficial da União por volta do fim de agosto): informe a estimativa mais "
            f"recente ({short(laws, ART6)}).",
            ART6,
        )
    ]


def edital_chamamento_escolar(request: ComputeInput) -> Computed:
    """Places (art. 6º), periods (arts. 6º, par. único, and 10), criteria (art. 8º).

    ``values`` keys: ``vagas`` (places offered), ``limite`` (cap of art. 6º),
    ``vagas_abertas``, ``licencas_ativas``, ``populacao`` (``valor``, ``descricao``,
    ``fonte``, ``confirmado``), ``explicacao_vagas``, ``inscricao`` and
    ``antecedencia`` (timeliness explanations), ``encerramento_minimo``,
    ``criterios`` (the scoring table: ``titulo``, ``exemplo``, ``aviso``,
    ``criterios``), ``recurso`` (the rule of art. 11), ``fundamento``.
    """
    data = data_of(request)
    context, _ = rule_sources(request, False)
    laws = context.laws
    root = pack_root(request.pack_dir)
    published = maybe_date(pointers.get(data, EDT_PUBLISHED))
    on = published or request.on
    items: list[Item] = []
    values: dict[str, Any] = {
        "vagas": None,
        "limite": None,
        "vagas_abertas": None,
        "licencas_ativas": None,
        "populacao": None,
        "explicacao_vagas": None,
    }

    active = pointers.get(data, EDT_ACTIVE)
    try:
        pack_population = load_population(root)
        stated, stated_items = _stated_population(data, pack_population, on, laws)
        items.extend(stated_items)
        population = stated or pack_population
        if isinstance(active, int) and not isinstance(active, bool):
            cap = licence_cap(population, on, active, params=context.parameters, laws=laws)
        else:
            cap = None
    except LavraError as error:
        items.append(missing("populacao", "/populacao_oficial", error.message, ART6))
        cap = None
    if cap is not None:
        items.extend(
            Item(i.requirement, i.status, EDT_OFFICIAL, i.message, i.basis) for i in cap.items
        )
        offered = pointers.get(data, EDT_PLACES)
        places = (
            offered
            if isinstance(offered, int) and not isinstance(offered, bool)
            else cap.open_places
        )
        values.update(
            limite=cap.cap,
            vagas_abertas=cap.open_places,
            licencas_ativas=cap.active,
            vagas=places,
            explicacao_vagas=cap.explanation,
            populacao={
                "valor": cap.population,
                "descricao": cap.figure.describe(),
                "fonte": cap.figure.source,
                "confirmado": cap.figure.confirmed,
            },
        )
        items.extend(_population_age_items(cap.figure.year, on, laws))
        if cap.open_places == 0:
            items.append(
                invalid(
                    "vagas",
                    EDT_ACTIVE,
                    f"{cap.explanation} Sem vaga a preencher não há edital de chamamento "
                    f"({short(laws, ART6)}).",
                    ART6,
                )
            )
        elif places > cap.open_places:
            items.append(
                invalid(
                    "vagas",
                    EDT_PLACES,
                    f"O edital oferece {places} vagas, mais que as {cap.open_places} "
                    f"abertas no limite do {short(laws, ART6)}: {cap.explanation}",
                    ART6,
                )
            )
        elif places < 1:
            items.append(
                invalid("vagas", EDT_PLACES, "O edital deve oferecer ao menos uma vaga.", ART6)
            )

    periods, period_items = _edital_periods(
        published,
        maybe_date(pointers.get(data, EDT_OPEN)),
        maybe_date(pointers.get(data, EDT_CLOSE)),
        context,
    )
    values.update(periods)
    items.extend(period_items)

    criteria, criteria_items = _criteria(root)
    values["criterios"] = criteria
    items.extend(criteria_items)

    period = period_of(context, ART11, on)
    length, counted = period_words(*period) if period else ("", "contado")
    values["recurso"] = (
        "Do ato de escolha caberá recurso escrito dirigido ao Prefeito Municipal, no prazo "
        f"de {length} {counted} da publicação do resultado, findo o qual a escolha será "
        f"havida como definitiva ({short(laws, ART11)})."
    )
    fixed = form_basis(root, request.form_id)
    values["fundamento"] = in_legal_order([ART6, ART6_PERIOD, ART8, ART10, ART11, *fixed], laws)
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "edital_chamamento_escolar": edital_chamamento_escolar,
}
"""The computation of this module a form may name under ``"calculos"``."""
