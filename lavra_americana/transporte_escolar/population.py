"""The licence cap of Lei nº 4.515/2007 (transporte escolar), art. 6º: one licence
per 2.500 inhabitants of the latest IBGE figure.

Art. 6º allows "1 (um) para cada grupo de 2.500 habitantes", taking the
population estimated in "o último boletim do IBGE". The population is content-pack
data (``legal_text/populacao.json``: each figure with its year, its publication
date and its source). The *latest* figure on a reference date is the one published
most recently on or before that date: a figure cannot govern an act done before
it was published. In a census year the IBGE publishes the census count instead
of an estimate; that count is then its latest figure and is used.

The cap is ``floor(population / habitants per licence)``: one licence per
*complete* group; an incomplete group is not "um grupo de 2.500 habitantes", and
the proportion is a ceiling on a limited number of licences ("em quantidade
limitada"), so rounding up would exceed it. Open places are the cap minus the
active licences, never negative: when the active licences exceed the cap (after
a fall in the population), there are no open places and the result says by how
much the cap is exceeded; existing licences are not affected, since the cap
limits new grants (the selection of art. 6º), not licences already granted.

A figure marked ``a_confirmar`` is used, but the result carries a pending item,
so a draft shows it and an edital cannot be issued on it; a figure with no value
(null) is a :class:`ParameterError`. The engine never invents a population.

The JSON documents of the pack's data (population, scoring table) are read here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

from lavra.checking.report import Item, Status
from lavra.errors import ContentPackError, InputError, ParameterError
from lavra.law.model import Law, resolve
from lavra.law.params import Parameters
from lavra.textutil import format_date

__all__ = [
    "IMPLEMENTED",
    "POPULATION_FILE",
    "JsonDoc",
    "LicenceCap",
    "Population",
    "PopulationFigure",
    "latest_figure",
    "licence_cap",
    "load_population",
    "population_from_document",
    "read_json",
]

POPULATION_FILE = Path("legal_text") / "populacao.json"
SCHOOL = "transporte-escolar"
FigureKind = Literal["estimativa", "censo"]
FigureStatus = Literal["confirmado", "a_confirmar"]

IMPLEMENTED: tuple[str, ...] = (
    "transporte-escolar#art6",
)
"""Citations whose rule this module implements (for coverage reporting)."""


class JsonDoc:
    """Strict reading of one content-pack JSON file, failing with the JSON pointer."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, message: str, pointer: str) -> ContentPackError:
        return ContentPackError(f"Arquivo {self.name} inválido ({pointer}): {message}",
                                field=pointer)

    def obj(self, raw: Any, required: Sequence[str], optional: Sequence[str],
            pointer: str) -> Mapping[str, Any]:
        if not isinstance(raw, dict):
            raise self.fail("esperava-se um objeto JSON.", pointer)
        unknown = sorted(set(raw) - set(required) - set(optional) - {"$comment"})
        if unknown:
            raise self.fail(f"chave(s) desconhecida(s): {', '.join(unknown)}.", pointer)
        missing = [k for k in required if k not in raw]
        if missing:
            raise self.fail(f"chave(s) obrigatória(s) ausente(s): {', '.join(missing)}.",
                            pointer)
        return raw

    def required_text(self, raw: Any, pointer: str) -> str:
        if not isinstance(raw, str) or not raw.strip():
            raise self.fail("esperava-se um texto não vazio.", pointer)
        return raw

    def text(self, raw: Any, pointer: str, *, nullable: bool = False) -> str | None:
        if raw is None and nullable:
            return None
        return self.required_text(raw, pointer)

    def required_day(self, raw: Any, pointer: str) -> date:
        text = self.required_text(raw, pointer)
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise self.fail(f"data inválida {raw!r} (use AAAA-MM-DD).", pointer) from None

    def day(self, raw: Any, pointer: str, *, nullable: bool = False) -> date | None:
        if raw is None and nullable:
            return None
        return self.required_day(raw, pointer)

    def required_number(self, raw: Any, pointer: str) -> Decimal:
        if isinstance(raw, (bool, float)):
            raise self.fail("use um inteiro ou, para decimais, um texto como \"0.5\".", pointer)
        try:
            value = Decimal(raw) if isinstance(raw, (int, str)) else None
        except InvalidOperation:
            value = None
        if value is None or not value.is_finite() or value < 0:
            raise self.fail(f"número inválido {raw!r}.", pointer)
        return value

    def number(self, raw: Any, pointer: str, *, nullable: bool = False) -> Decimal | None:
        if raw is None and nullable:
            return None
        return self.required_number(raw, pointer)

    def basis(self, raw: Any, pointer: str) -> tuple[str, ...]:
        if not isinstance(raw, list) or not raw or not all(
            isinstance(c, str) and c for c in raw
        ):
            raise self.fail("fundamento deve ser uma lista não vazia de citações.", pointer)
        return tuple(raw)


def read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ContentPackError(f"Não foi possível ler {what} em {path}: {exc.strerror}.") \
            from None
    except ValueError as exc:
        raise ContentPackError(f"{what.capitalize()} em {path} não é JSON válido: {exc}.") \
            from None


@dataclass(frozen=True)
class PopulationFigure:
    """One population figure of the IBGE, with its publication date and source."""

    year: int
    kind: FigureKind
    reference_date: date | None
    published: date
    value: int | None
    status: FigureStatus
    source: str
    note: str | None = None

    @property
    def confirmed(self) -> bool:
        return self.status == "confirmado"

    def describe(self) -> str:
        """pt-BR: "estimativa do IBGE para 2024, divulgada em 29/08/2024"."""
        what = ("estimativa do IBGE" if self.kind == "estimativa"
                else "contagem do Censo Demográfico do IBGE")
        return f"{what} de {self.year}, divulgada em {format_date(self.published)}"


@dataclass(frozen=True)
class Population:
    """The population figures of the municipality, in order of publication."""

    municipality: str
    basis: tuple[str, ...]
    figures: tuple[PopulationFigure, ...]


def population_from_document(raw: Any, name: str = POPULATION_FILE.as_posix()) -> Population:
    """Build :class:`Population` from the parsed JSON; :class:`ContentPackError` if bad."""
    doc = JsonDoc(name)
    top = doc.obj(raw, ("municipio", "fundamento", "dados"), ("uf",), "")
    rows = top["dados"]
    if not isinstance(rows, list):
        raise doc.fail("esperava-se uma lista de dados populacionais.", "/dados")
    figures: list[PopulationFigure] = []
    keys = ("ano", "tipo", "data_referencia", "divulgacao", "valor", "situacao", "fonte")
    for index, row in enumerate(rows):
        where = f"/dados/{index}"
        obj = doc.obj(row, keys, ("observacao",), where)
        year = obj["ano"]
        if isinstance(year, bool) or not isinstance(year, int) or not 1800 <= year <= 9999:
            raise doc.fail(f"ano inválido {year!r}.", f"{where}/ano")
        kind = obj["tipo"]
        if kind not in ("estimativa", "censo"):
            raise doc.fail("tipo deve ser 'estimativa' ou 'censo'.", f"{where}/tipo")
        status = obj["situacao"]
        if status not in ("confirmado", "a_confirmar"):
            raise doc.fail("situacao deve ser 'confirmado' ou 'a_confirmar'.",
                           f"{where}/situacao")
        value = obj["valor"]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value <= 0):
            raise doc.fail(f"valor inválido {value!r} (habitantes, inteiro positivo, ou null).",
                           f"{where}/valor")
        if value is None and status == "confirmado":
            raise doc.fail("um dado sem valor não pode estar 'confirmado'.", f"{where}/valor")
        published = doc.required_day(obj["divulgacao"], f"{where}/divulgacao")
        figure = PopulationFigure(
            year=year,
            kind=kind,
            reference_date=doc.day(obj["data_referencia"], f"{where}/data_referencia",
                                   nullable=True),
            published=published,
            value=value,
            status=status,
            source=doc.required_text(obj["fonte"], f"{where}/fonte"),
            note=doc.text(obj.get("observacao"), f"{where}/observacao", nullable=True),
        )
        if figures and figure.published <= figures[-1].published:
            raise doc.fail("os dados devem estar em ordem crescente de divulgação, sem datas "
                           "repetidas.", where)
        figures.append(figure)
    return Population(
        municipality=doc.required_text(top["municipio"], "/municipio"),
        basis=doc.basis(top["fundamento"], "/fundamento"),
        figures=tuple(figures),
    )


def load_population(pack_dir: Path) -> Population:
    """Load ``legal_text/populacao.json`` of the pack."""
    raw = read_json(pack_dir / POPULATION_FILE, "os dados de população")
    return population_from_document(raw)


def latest_figure(population: Population, on: date) -> PopulationFigure:
    """The figure published most recently on or before ``on``.

    :class:`ParameterError` when none was published by then.
    """
    if isinstance(on, datetime) or not isinstance(on, date):
        raise InputError("Data de referência inválida: informe dia, mês e ano.",
                         field="/data_referencia")
    found = [f for f in population.figures if f.published <= on]
    if not found:
        raise ParameterError(
            f"Não há dado populacional do IBGE divulgado até {format_date(on)} em "
            f"{POPULATION_FILE.as_posix()}: lance a estimativa vigente, com a sua fonte."
        )
    return found[-1]


@dataclass(frozen=True)
class LicenceCap:
    """The cap of school-transport licences on a date (art. 6º) and the open places."""

    on: date
    figure: PopulationFigure
    population: int
    inhabitants_per_licence: int
    cap: int
    active: int
    open_places: int
    excess: int
    items: tuple[Item, ...]
    explanation: str


def _thousands(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def licence_cap(
    population: Population,
    on: date,
    active_licences: int,
    *,
    params: Parameters,
    laws: Mapping[str, Law],
) -> LicenceCap:
    """The number of licences art. 6º allows on ``on`` and the places open for selection."""
    if isinstance(active_licences, bool) or not isinstance(active_licences, int) \
            or active_licences < 0:
        raise InputError("O número de licenças ativas deve ser um inteiro não negativo.",
                         field="/licencas_ativas")
    figure = latest_figure(population, on)
    if figure.value is None:
        raise ParameterError(
            f"A população da {figure.describe()} ainda não foi lançada em "
            f"{POPULATION_FILE.as_posix()} (valor a confirmar): sem ela não se calcula o "
            "número de alvarás do art. 6º."
        )
    per = params.value(f"{SCHOOL}.habitantes_por_alvara", on)
    per_licence = int(per.value)
    ref = resolve(laws, f"{SCHOOL}#art6").short
    cap = figure.value // per_licence
    open_places = max(cap - active_licences, 0)
    excess = max(active_licences - cap, 0)
    basis = tuple(dict.fromkeys((f"{SCHOOL}#art6", *per.basis, *population.basis)))
    text = (
        f"População de {_thousands(figure.value)} habitantes, segundo a {figure.describe()}: à "
        f"proporção de 1 alvará para cada grupo de {_thousands(per_licence)} habitantes "
        f"({ref}), contados apenas os grupos completos, o limite é de {cap} "
        f"{'alvará' if cap == 1 else 'alvarás'}; há {active_licences} "
        f"{'licença ativa' if active_licences == 1 else 'licenças ativas'}"
    )
    if excess:
        text += (
            f", {excess} acima do limite: não há vagas a preencher, e as licenças já "
            "concedidas não são atingidas."
        )
    elif open_places == 0:
        text += ": não há vagas a preencher."
    else:
        text += (f": {open_places} {'vaga' if open_places == 1 else 'vagas'} a preencher "
                 "por processo seletivo.")
    status = Status.MET if figure.confirmed else Status.MISSING
    message = (
        f"População do Município: {_thousands(figure.value)} habitantes, segundo a "
        f"{figure.describe()} ({ref}). Fonte: {figure.source}"
    )
    if not figure.confirmed:
        message = (
            f"População do Município a confirmar: {_thousands(figure.value)} habitantes, "
            f"segundo a {figure.describe()}, ainda não conferida na publicação oficial do "
            f"IBGE ({ref}). Fonte: {figure.source}"
        )
    item = Item("populacao", status, "/populacao", message, basis)
    return LicenceCap(
        on=on,
        figure=figure,
        population=figure.value,
        inhabitants_per_licence=per_licence,
        cap=cap,
        active=active_licences,
        open_places=open_places,
        excess=excess,
        items=(item,),
        explanation=text,
    )
