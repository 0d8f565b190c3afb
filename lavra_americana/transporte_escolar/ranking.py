"""The ranking of the school-transport selection, Lei nº 4.515/2007: art. 8º and its
§ 1º (ties), with the Anexo's scoring table.

Only candidates who meet the requirements are ranked (art. 8º, caput: "os
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

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

from lavra.checking.report import Item, Status
from lavra.errors import InputError
from lavra.law.model import Law, resolve
from lavra.textutil import format_date
from lavra_americana.transporte_escolar.eligibility import Eligibility
from lavra_americana.transporte_escolar.population import JsonDoc, read_json

__all__ = [
    "IMPLEMENTED",
    "SCORING_EXAMPLE_FILE",
    "SCORING_FILE",
    "Applicant",
    "Criterion",
    "Excluded",
    "RankedCandidate",
    "Ranking",
    "ScoreLine",
    "ScoringTable",
    "load_scoring_table",
    "points_text",
    "rank_candidates",
    "scoring_table_from_document",
    "scoring_table_path",
]

SCORING_FILE = Path("legal_text") / "anexo-pontuacao.json"
SCORING_EXAMPLE_FILE = Path("legal_text") / "anexo-pontuacao-exemplo.json"
SCHOOL = "transporte-escolar"
CriterionKind = Literal["por_unidade", "sim_nao"]
Answer = int | bool | Decimal

IMPLEMENTED: tuple[str, ...] = (
    "transporte-escolar#art8",
    "transporte-escolar#art8_par1",
)
"""Citations whose rule this module implements (for coverage reporting)."""


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
    doc = JsonDoc(name)
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
    raw = read_json(path, "a tabela de pontuação")
    return scoring_table_from_document(raw, path.relative_to(pack_dir).as_posix())


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


def points_text(value: Decimal) -> str:
    """``"2"``, ``"1,5"``: points as the edital and the ranking print them."""
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
    protocol (module docstring); ``places`` (open places, see
    :func:`lavra_americana.transporte_escolar.population.licence_cap`)
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
            parts = [f"Empate em {points_text(points)} pontos com {word} {listed}."]
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
