"""The alvará of the serviço particular com veículo próprio, of Lei nº 4.419/2006
(fretamento): arts. 3º, III, 6º, 8º, 10, I, and 12.

The law classifies three services (art. 3º): fretamento contínuo (I, art. 4º),
fretamento eventual (II, art. 5º) and the "serviço particular com veículo próprio" (III,
art. 6º): a company or entity carrying only people related to its own activity, in a
vehicle it owns, "dirigido por empregado da empresa" (art. 6º, parágrafo único). The
first two are a transport business: their alvará needs the documents of art. 7º (the
corporate object of passenger transport, tax and labour certificates, at least two
vehicles, garage...) and a vehicle "de aluguel" (art. 9º). The particular service is
not: art. 12 asks only "os documentos referentes à personalidade jurídica e de
propriedade dos veículos utilizados, documentados na categoria particular". Its alvará
therefore has its own form (``alvara-servico-particular-fretamento``), basis, series
and wording, and the fretamento alvará refuses that case.

``alvara_servico_particular_fretamento`` — its computation
    Drivers (art. 6º, parágrafo único): the schema requires at least one driver, each
        an employee of the company, with his employment record; the form's check
        ``vigente`` checks each CNH on the date of issue.
    Validity. Art. 12 asks for the same "Alvará de Licença de Circulação" of art. 8º,
        valid for 5 years (``fretamento.validade_alvara``), counted as the engine
        counts it for every alvará of this law: to the same day, 5 years later. The
        vehicle's age limit of art. 10, I, binds every vehicle of the law ("Os veículos
        deverão ter"), not only those of fretamento; by
        :mod:`lavra_americana.comum.vehicle_age` a vehicle made in year Y under an
        N-year limit may circulate through 31/12/(Y + N). The alvará ends on the
        earlier of the two, and says which set it. A vehicle already beyond its limit
        on the date of issue is *invalid*.
    The request (``/processo/data_requerimento``) cannot come after the date of issue,
        nor the date of issue after the day the alvará is actually issued (both
        *invalid*: an act records what has happened when it is signed).
    One vehicle, one operating alvará: the alvará of art. 12 licenses the vehicle "utilizado"
        in the service of art. 3º, III. The law does not say whether the same vehicle
        may at once hold this alvará and another of this law (art. 8º) or the school
        alvará (Lei nº 4.515/2007, art. 3º); the reading chosen is that it may not, as
        for the other operating alvarás: a vehicle circulates under one licence, and the
        particular service is defined by carrying only the company's own people. The
        licensing state answers (:func:`lavra_americana.comum.guards.held_items`, group
        ``operacao-veiculo``): a licence in force on the vehicle is *invalid*, naming the
        act that holds it and citing art. 8º (the alvará "para cada veículo",
        ``estado.OPERATION_BASIS``), the provision the registry's refusal cites.
    The bar of a cassação (art. 22, parágrafo único): the company cassated "só poderá
        obter novo Alvará de Licença de Circulação depois de transcorridos 12 (doze)
        meses". The alvará of this service is that same licence (art. 12: the request
        "solicitando o Alvará de Licença de Circulação"; art. 7º: the alvará "autorizando
        a execução dos serviços disciplinados nesta lei", which art. 3º, III, includes),
        and art. 22 reaches "a empresa ou entidade", the words of arts. 6º and 12. The
        reading chosen: the bar covers it. A company or entity barred on the date of
        issue is *invalid*, naming the last day and the cassação
        (:func:`lavra_americana.comum.guards.bar_items`); the registry refuses the
        record too (the grant is ``barred_by`` the scope of the bar).
    Who may hold it: art. 2º, § 1º, speaks of "pessoas jurídicas com fins lucrativos"
        for the services of the law, but arts. 6º and 12, which are specific to this
        service, name "a empresa ou entidade": the specific rule is followed, and an
        entity without profit aim is not refused (the reading that does not restrict
        a right the specific provision grants).
"""

from __future__ import annotations

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
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.textutil import format_date
from lavra_americana.comum.computing import data_of, issue_items, licence_pending
from lavra_americana.comum.guards import bar_items, held_items
from lavra_americana.comum.periods import term_end as last_day_of_term
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.vehicle_age import vehicle_age
from lavra_americana.fretamento.estado import OPERATION, OPERATION_BASIS, SCOPE

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "alvara_servico_particular_fretamento",
]

LAW = "fretamento"
PARTICULAR = f"{LAW}#art3_inc3"
SERVICE = f"{LAW}#art6"
EMPLOYEE = f"{LAW}#art6_par1u"
VALIDITY = f"{LAW}#art8"
AGE_LIMIT = f"{LAW}#art10_inc1"
REQUEST = f"{LAW}#art12"
BAR = f"{LAW}#art22_par1u"
VALIDITY_PARAMETER = "fretamento.validade_alvara"

IMPLEMENTED: tuple[str, ...] = (PARTICULAR, SERVICE, EMPLOYEE, REQUEST)
"""Citations this computation applies (coverage): the particular service (arts. 3º,
III, and 6º), its employee drivers (art. 6º, parágrafo único) and its request (art.
12); its validity applies arts. 8º and 10, I, already counted where they live."""


def _request_items(data: Any, on: date) -> list[Item]:
    asked = maybe_date(pointers.get(data, "/processo/data_requerimento"))
    if asked is None or asked <= on:
        return []
    return [
        item_at(
            "/processo/data_requerimento",
            Status.INVALID,
            f"O requerimento ({format_date(asked)}) é posterior à data de expedição do alvará "
            f"({format_date(on)}): o alvará só se expede sobre requerimento já apresentado.",
            REQUEST,
        )
    ]


def alvara_servico_particular_fretamento(request: ComputeInput) -> Computed:
    """Validity: 5 years (art. 8º) or the vehicle's age limit (art. 10, I), the earlier.

    ``values``: ``inicio_vigencia``, ``valido_ate``, ``validade_anos``,
    ``limitado_por`` (``prazo`` or ``idade_veiculo``), ``vigencia_explicacao``,
    ``pendente``.
    """
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    items: list[Item] = [*_request_items(data, on)]
    items.extend(issue_items(on, request.issued_on, "/data_expedicao", "o alvará", VALIDITY))
    plate = pointers.get(data, "/veiculo/placa")
    items.extend(held_items(  # one operating alvará per vehicle (module docstring)
        request.history, on, placa=plate, group=OPERATION, who=f"O veículo de placa {plate}",
        field="/veiculo/placa", basis=(OPERATION_BASIS,), laws=context.laws,
    ))
    items.extend(bar_items(  # the cassação's bar covers this alvará (module docstring)
        request.history, pointers.get(data, "/empresa/cnpj"), SCOPE, on,
        who="A empresa ou entidade", what="novo Alvará de Licença de Circulação",
        by="pela cassação", field="/empresa/cnpj", basis=(BAR,), laws=context.laws,
    ))
    year = pointers.get(data, "/veiculo/ano_fabricacao")
    kind = clean_text(pointers.get(data, "/veiculo/tipo"))
    if isinstance(year, bool) or not isinstance(year, int) or kind is None:
        reason = "Informe o tipo e o ano de fabricação do veículo."
        return Computed(licence_pending(reason), unique_items(items))
    try:
        years = int(context.parameters.value(VALIDITY_PARAMETER, on).value)
        age = vehicle_age(
            year, on, law="fretamento", kind=kind, params=context.parameters,
            laws=context.laws, plate=clean_text(pointers.get(data, "/veiculo/placa")),
            field="/veiculo/ano_fabricacao",
        )
    except LavraError as error:
        message = f"Não foi possível calcular a validade do alvará: {error.message}"
        items.append(item_at("/veiculo/ano_fabricacao", Status.MISSING, message, VALIDITY))
        return Computed(licence_pending(message), unique_items(items))
    items.extend(age.items)
    # in force from ``on`` inclusive: the eve of the anniversary (art. 8º; the reading
    # is in lavra_americana/comum/periods.py, term_end)
    term_end = last_day_of_term(on, years=years)
    age_end = date(year + age.limit, 12, 31)
    end = min(term_end, age_end)
    title = context.laws[LAW].short_title
    if term_end <= age_end:
        limited = "prazo"
        why = f"pelo prazo de validade de {years} anos (art. 8º da {title})"
    else:
        limited = "idade_veiculo"
        why = (
            f"pela idade máxima do veículo, fabricado em {year}, de {age.limit} anos para o seu "
            f"tipo (art. 10, I, da {title}), que o admite em circulação até "
            f"{format_date(age_end)}, antes do fim do prazo de {years} anos "
            f"({format_date(term_end)}, art. 8º)"
        )
    values: dict[str, Any] = {
        "inicio_vigencia": on,
        "valido_ate": end,
        "validade_anos": years,
        "limitado_por": limited,
        "vigencia_explicacao": (
            f"Alvará válido de {format_date(on)} a {format_date(end)}, data fixada {why}."
        ),
        "pendente": None,
    }
    if age.within is not True:
        values.update(licence_pending(age.explanation))
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "alvara_servico_particular_fretamento": alvara_servico_particular_fretamento,
}
"""The computation of this module a form may name under ``"calculos"``."""
