"""School-transport selection: the licence cap (art. 6º) and the ranking (art. 8º).

Licence cap. Art. 6º allows "1 (um) para cada grupo de 2.500 habitantes", taking the
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

Ranking. Only candidates who meet the requirements are ranked (art. 8º, caput: "os
    candidatos que atenderem os requisitos exigidos"); the others are listed apart
    with the reason. Points follow the Anexo of the law. The Anexo is not in our
    source text, so the scoring table is content-pack data: ``anexo-pontuacao.json``
    when the pack has it, otherwise ``anexo-pontuacao-exemplo.json``, which says it
    is an example (``exemplo: true`` and an ``aviso`` the engine prints). A ranking
    made with an example table carries a pending item: it cannot be issued.

    Ties (same points): the older candidate first (art. 8º, § 1º: "precederá o
    candidato mais idoso"), older meaning the earlier date of birth. If the dates
    of birth are also equal, the law is silent; art. 10, parágrafo único, leaves
    the criteria of choice to the edital, and the engine's default, which the edital
    should state, is the order of registration: the earlier protocol (date and time
    of filing) first, then the lower protocol number. Both are objective, recorded
    at filing and verifiable by any candidate; no draw is needed and the result is
    deterministic.

    A criterion the candidate did not prove scores zero; a value that does not fit
    the criterion (negative, or not a yes/no answer for a yes/no criterion) is an
    :class:`InputError`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

from lavra.checking.report import Item, Status
from lavra.errors import ContentPackError, InputError, ParameterError
from lavra.law.model import Law, resolve
from lavra.law.params import Parameters
from lavra.textutil import format_date
from lavra_americana.eligibility import Eligibility

__all__ = [
    "IMPLEMENTED",
    "POPULATION_FILE",
    "SCORING_EXAMPLE_FILE",
    "SCORING_FILE",
    "Applicant",
    "Criterion",
    "Excluded",
    "LicenceCap",
    "Population",
    "PopulationFigure",
    "RankedCandidate",
    "Ranking",
    "ScoreLine",
    "ScoringTable",
    "latest_figure",
    "licence_cap",
    "load_population",
    "load_scoring_table",
    "population_from_document",
    "rank_candidates",
    "scoring_table_from_document",
    "scoring_table_path",
]

POPULATION_FILE = Path("legal_text") / "populacao.json"
SCORING_FILE = Path("legal_text") / "anexo-pontuacao.json"
SCORING_EXAMPLE_FILE = Path("legal_text") / "anexo-pontuacao-exemplo.json"

SCHOOL = "transporte-escolar"
IMPLEMENTED: tuple[str, ...] = (
    "transporte-escolar#art6",
    "transporte-escolar#art8",
    "transporte-escolar#art8_par1",
)
"""Citations whose rule this module implements (for coverage reporting)."""

FigureKind = Literal["estimativa", "censo"]
FigureStatus = Literal["confirmado", "a_confirmar"]
CriterionKind = Literal["por_unidade", "sim_nao"]
Answer = int | bool | Decimal


# ---------------------------------------------------------------- JSON reading


class _Doc:
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


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ContentPackError(f"Não foi possível ler {what} em {path}: {exc.strerror}.") \
            from None
    except ValueError as exc:
        raise ContentPackError(f"{what.capitalize()} em {path} não é JSON válido: {exc}.") \
            from None


# ---------------------------------------------------------------- population


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
    doc = _Doc(name)
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
    raw = _read_json(pack_dir / POPULATION_FILE, "os dados de população")
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


# ---------------------------------------------------------------- scoring table


@dataclass(frozen=True)
class Criterion:
    """One scoring criterion of the Anexo."""

    id: str
    description: str
    kind: CriterionKind
    points: Decimal
    maximum: Decimal | None
    unit: str | None


@dataclass(frozen=True)
class ScoringTable:
    """The scoring table of art. 8º (the law's Anexo, or an example standing for it)."""

    title: str
    example: bool
    notice: str | None
    source: str
    basis: tuple[str, ...]
    criteria: tuple[Criterion, ...]


_CRITERION_ID = re.compile(r"^[a-z0-9_]+$")


def scoring_table_from_document(raw: Any, name: str) -> ScoringTable:
    """Build :class:`ScoringTable` from the parsed JSON; :class:`ContentPackError` if bad."""
    doc = _Doc(name)
    top = doc.obj(raw, ("titulo", "exemplo", "aviso", "fonte", "fundamento", "criterios"),
                  (), "")
    example = top["exemplo"]
    if not isinstance(example, bool):
        raise doc.fail("exemplo deve ser true ou false.", "/exemplo")
    notice = doc.text(top["aviso"], "/aviso", nullable=True)
    if example and notice is None:
        raise doc.fail("uma tabela de exemplo deve trazer o aviso que o motor imprime.",
                       "/aviso")
    rows = top["criterios"]
    if not isinstance(rows, list) or not rows:
        raise doc.fail("esperava-se uma lista não vazia de critérios.", "/criterios")
    criteria: list[Criterion] = []
    for index, row in enumerate(rows):
        where = f"/criterios/{index}"
        obj = doc.obj(row, ("id", "descricao", "tipo", "unidade", "pontos", "maximo"), (), where)
        ident = doc.required_text(obj["id"], f"{where}/id")
        if not _CRITERION_ID.match(ident) or any(c.id == ident for c in criteria):
            raise doc.fail(f"id de critério inválido ou repetido: {ident!r}.", f"{where}/id")
        kind = obj["tipo"]
        if kind not in ("por_unidade", "sim_nao"):
            raise doc.fail("tipo deve ser 'por_unidade' ou 'sim_nao'.", f"{where}/tipo")
        points = doc.required_number(obj["pontos"], f"{where}/pontos")
        criteria.append(Criterion(
            id=ident,
            description=doc.required_text(obj["descricao"], f"{where}/descricao"),
            kind=kind,
            points=points,
            maximum=doc.number(obj["maximo"], f"{where}/maximo", nullable=True),
            unit=doc.text(obj["unidade"], f"{where}/unidade", nullable=True),
        ))
    return ScoringTable(
        title=doc.required_text(top["titulo"], "/titulo"),
        example=example,
        notice=notice,
        source=doc.required_text(top["fonte"], "/fonte"),
        basis=doc.basis(top["fundamento"], "/fundamento"),
        criteria=tuple(criteria),
    )


def scoring_table_path(pack_dir: Path) -> Path:
    """The pack's official Anexo table if present, else the example one."""
    official = pack_dir / SCORING_FILE
    return official if official.is_file() else pack_dir / SCORING_EXAMPLE_FILE


def load_scoring_table(pack_dir: Path) -> ScoringTable:
    """Load the scoring table of the pack (see :func:`scoring_table_path`)."""
    path = scoring_table_path(pack_dir)
    raw = _read_json(path, "a tabela de pontuação")
    return scoring_table_from_document(raw, path.relative_to(pack_dir).as_posix())


# ---------------------------------------------------------------- ranking


@dataclass(frozen=True)
class Applicant:
    """A registered candidate: protocol, birth date, filing time, answers, eligibility.

    ``answers`` maps criterion ids of the scoring table to what the candidate proved:
    a non-negative number for ``por_unidade``, true/false for ``sim_nao``.
    """

    protocol: str
    name: str
    birth_date: date
    filed_at: datetime
    eligibility: Eligibility
    answers: Mapping[str, Answer] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class ScoreLine:
    """The points one criterion gave."""

    criterion: str
    description: str
    proved: Answer | None
    points: Decimal


@dataclass(frozen=True)
class RankedCandidate:
    """A ranked candidate; ``tie_break`` explains the order within a tie, if any."""

    position: int
    protocol: str
    name: str
    points: Decimal
    lines: tuple[ScoreLine, ...]
    tie_break: str | None
    within_places: bool | None


@dataclass(frozen=True)
class Excluded:
    """A candidate not ranked because the requirements are not met."""

    protocol: str
    name: str
    reason: str


@dataclass(frozen=True)
class Ranking:
    """The classification of art. 8º."""

    ranked: tuple[RankedCandidate, ...]
    excluded: tuple[Excluded, ...]
    notice: str | None
    items: tuple[Item, ...]
    explanation: str


def _score(applicant: Applicant, table: ScoringTable) -> tuple[Decimal, tuple[ScoreLine, ...]]:
    known = {c.id for c in table.criteria}
    unknown = sorted(set(applicant.answers) - known)
    if unknown:
        raise InputError(
            f"Candidato de protocolo {applicant.protocol}: critério(s) de pontuação "
            f"desconhecido(s): {', '.join(unknown)}. Critérios da tabela: "
            f"{', '.join(sorted(known))}.",
            field=f"/candidatos/{applicant.protocol}/pontuacao/{unknown[0]}",
        )
    lines: list[ScoreLine] = []
    for criterion in table.criteria:
        where = f"/candidatos/{applicant.protocol}/pontuacao/{criterion.id}"
        answer = applicant.answers.get(criterion.id)
        if answer is None:
            points = Decimal(0)
        elif criterion.kind == "sim_nao":
            if not isinstance(answer, bool):
                raise InputError(f"O critério «{criterion.description}» é de sim ou não.",
                                 field=where)
            points = criterion.points if answer else Decimal(0)
        else:
            if isinstance(answer, bool) or not isinstance(answer, (int, Decimal)) \
                    or answer < 0:
                raise InputError(
                    f"O critério «{criterion.description}» pede um número não negativo.",
                    field=where,
                )
            points = criterion.points * Decimal(answer)
            if criterion.maximum is not None:
                points = min(points, criterion.maximum)
        lines.append(ScoreLine(criterion.id, criterion.description, answer, points))
    return sum((line.points for line in lines), Decimal(0)), tuple(lines)


def _natural(protocol: str) -> tuple[tuple[int, int | str], ...]:
    """Natural order of protocol numbers: "2026/9" before "2026/10"."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part)
        for part in re.findall(r"\d+|\D+", protocol)
    )


def _points(value: Decimal) -> str:
    text = format(value.normalize(), "f") if value != value.to_integral() else str(int(value))
    return text.replace(".", ",")


def _moment(value: datetime) -> str:
    return f"{format_date(value.date())} às {value.strftime('%H:%M:%S')}"


def _why_before(a: Applicant, b: Applicant, age_ref: str) -> str:
    """Why ``a`` precedes ``b`` (same points)."""
    if a.birth_date != b.birth_date:
        return (f"candidato mais idoso, nascido em {format_date(a.birth_date)}, contra "
                f"{format_date(b.birth_date)} ({age_ref})")
    if a.filed_at != b.filed_at:
        return (f"mesma data de nascimento; inscrição protocolada antes, em "
                f"{_moment(a.filed_at)}, contra {_moment(b.filed_at)} (critério "
                "subsidiário de desempate: ordem de protocolo)")
    return ("mesma data de nascimento e mesmo momento de protocolo; menor número de "
            "protocolo (último critério de desempate)")


def rank_candidates(
    applicants: Sequence[Applicant],
    table: ScoringTable,
    *,
    laws: Mapping[str, Law],
    places: int | None = None,
) -> Ranking:
    """Rank the eligible ``applicants`` by points (art. 8º), ties per § 1º and then by
    protocol (module docstring); ``places`` (open places, see :func:`licence_cap`)
    marks who is classified within them."""
    if places is not None and (isinstance(places, bool) or not isinstance(places, int)
                               or places < 0):
        raise InputError("O número de vagas deve ser um inteiro não negativo.", field="/vagas")
    seen: set[str] = set()
    for applicant in applicants:
        if applicant.protocol in seen:
            raise InputError(f"Protocolo repetido: {applicant.protocol}.",
                             field=f"/candidatos/{applicant.protocol}")
        seen.add(applicant.protocol)
    if len({a.filed_at.tzinfo is None for a in applicants}) > 1:
        raise InputError("As datas e horas de protocolo devem ser todas com fuso horário ou "
                         "todas sem ele.", field="/candidatos")
    art8 = resolve(laws, f"{SCHOOL}#art8").short
    age_ref = resolve(laws, f"{SCHOOL}#art8_par1").short
    eligible = [a for a in applicants if a.eligibility.eligible]
    excluded = tuple(
        Excluded(a.protocol, a.name, a.eligibility.explanation)
        for a in applicants if not a.eligibility.eligible
    )
    scored = {a.protocol: _score(a, table) for a in eligible}
    order = sorted(
        eligible,
        key=lambda a: (-scored[a.protocol][0], a.birth_date, a.filed_at, _natural(a.protocol)),
    )
    ranked: list[RankedCandidate] = []
    for index, applicant in enumerate(order):
        points, lines = scored[applicant.protocol]
        tied = [a for a in order if scored[a.protocol][0] == points]
        tie_break: str | None = None
        if len(tied) > 1:
            others = [a.protocol for a in tied if a is not applicant]
            listed = (others[0] if len(others) == 1
                      else f"{', '.join(others[:-1])} e {others[-1]}")
            word = "o protocolo" if len(others) == 1 else "os protocolos"
            parts = [f"Empate em {_points(points)} pontos com {word} {listed}."]
            at = tied.index(applicant)
            if at > 0:
                before = tied[at - 1]
                parts.append(f"Após o protocolo {before.protocol}: "
                             f"{_why_before(before, applicant, age_ref)}.")
            if at < len(tied) - 1:
                after = tied[at + 1]
                parts.append(f"À frente do protocolo {after.protocol}: "
                             f"{_why_before(applicant, after, age_ref)}.")
            tie_break = " ".join(parts)
        ranked.append(RankedCandidate(
            position=index + 1,
            protocol=applicant.protocol,
            name=applicant.name,
            points=points,
            lines=lines,
            tie_break=tie_break,
            within_places=None if places is None else index < places,
        ))
    items: list[Item] = []
    basis = tuple(dict.fromkeys((f"{SCHOOL}#art8", *table.basis)))
    if table.example:
        items.append(Item("tabela_pontuacao", Status.MISSING, "/tabela_pontuacao",
                          f"Tabela de pontuação do Anexo ({art8}): {table.notice}", basis))
    else:
        items.append(Item("tabela_pontuacao", Status.MET, "/tabela_pontuacao",
                          f"Pontuação segundo {table.title} ({table.source}).", basis))
    text = (
        f"Classificação dos candidatos que atenderam aos requisitos, pela ordem de "
        f"pontuação ({art8}), segundo «{table.title}». Em caso de empate, precede o candidato mais "
        f"idoso ({age_ref}); persistindo o empate, precede a inscrição protocolada "
        f"primeiro e, por fim, a de menor número de protocolo. {len(ranked)} "
        f"{'candidato classificado' if len(ranked) == 1 else 'candidatos classificados'}"
        f"; {len(excluded)} não "
        f"{'classificado' if len(excluded) == 1 else 'classificados'} por não atender aos "
        "requisitos."
    )
    if places is not None:
        text += f" Vagas a preencher: {places}."
    if table.notice:
        text += f" {table.notice}"
    return Ranking(
        ranked=tuple(ranked),
        excluded=excluded,
        notice=table.notice,
        items=tuple(items),
        explanation=text,
    )
