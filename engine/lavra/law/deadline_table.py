"""The deadline table of the content pack (``legal_text/prazos.json``), read and checked.

Each entry is keyed by the citation of the fragment that sets the deadline and says
what kind of period it is (``tipo``), where its number lives (a parameter of
``parametros.json``), the event it counts from or to, the act it governs, what happens
when the last day is not a business day and the wording of the explanation; the kinds
are described in :mod:`lavra.law.statutory`, which counts them. The file's shape is
checked by ``schemas/_pacote/prazos.json`` (engine-owned, see
:data:`lavra.law.params.SCHEMAS_DIR`); :func:`check_rule_against_pack` then checks each
rule against the pack's laws and parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, get_args

from lavra.errors import LavraError
from lavra.law.deadlines import UNITS
from lavra.law.model import Law, resolve
from lavra.law.params import PackFile, Parameters, Validity, escape, validity_periods

__all__ = [
    "DEADLINES",
    "DEADLINES_FILE",
    "DIRECTIONS",
    "KINDS",
    "NON_BUSINESS",
    "DeadlineRule",
    "Direction",
    "Kind",
    "MonthsPeriod",
    "NonBusiness",
    "Outcomes",
    "check_rule_against_pack",
    "load_deadline_rules",
    "rules_from_document",
]

DEADLINES_FILE = Path("legal_text") / "prazos.json"
DEADLINES = PackFile(DEADLINES_FILE, "_pacote/prazos.json", "da tabela de prazos",
                     "Prazos inválidos")
"""The deadline table and its schema (``schemas/_pacote/prazos.json``)."""

Kind = Literal[
    "prazo", "prazo_minimo", "carencia", "duracao", "fim_do_ano", "janela", "meses_do_ano"
]
Direction = Literal["apos", "antes"]
NonBusiness = Literal["prorroga", "antecipa", "mantem"]

KINDS: tuple[Kind, ...] = get_args(Kind)
DIRECTIONS: tuple[Direction, ...] = get_args(Direction)
NON_BUSINESS: tuple[NonBusiness, ...] = get_args(NonBusiness)

# ---------------------------------------------------------------- data


@dataclass(frozen=True)
class Outcomes:
    """The closing words of a timeliness explanation ("recurso intempestivo")."""

    met: str
    unmet: str
    early: str | None = None


@dataclass(frozen=True)
class MonthsPeriod(Validity):
    """The months of a ``meses_do_ano`` rule in force from ``since`` to ``until``."""

    months: tuple[int, ...]
    source: str


@dataclass(frozen=True)
class DeadlineRule:
    """One entry of ``prazos.json``: the deadline one fragment sets."""

    citation: str
    kind: Kind
    direction: Direction
    parameter: str | None
    event: str
    event_dated: str
    act: str
    act_done: str
    outcomes: Outcomes
    non_business: NonBusiness
    reason: str
    basis: tuple[str, ...]
    qualifier: str | None = None
    months: tuple[MonthsPeriod, ...] = ()


# ---------------------------------------------------------------- loading


def _months_periods(raw: list[Any], pointer: str) -> tuple[MonthsPeriod, ...]:
    spans = validity_periods(raw, pointer, DEADLINES)
    found: list[MonthsPeriod] = []
    for index, ((since, until), item) in enumerate(zip(spans, raw, strict=True)):
        months: list[int] = item["valor"]
        if sorted(months) != months:  # the schema already refuses repeated months
            raise DEADLINES.error("valor deve ser a lista crescente dos meses (1 a 12).",
                                  f"{pointer}/{index}/valor")
        found.append(MonthsPeriod(since, until, tuple(months), item["fonte"]))
    return tuple(found)


def _parse_rule(citation: str, obj: dict[str, Any], pointer: str) -> DeadlineRule:
    """The rule of a schema-checked entry (``schemas/_pacote/prazos.json`` checks which
    directions, moves and parameter each kind admits)."""
    if citation not in obj["fundamento"]:
        raise DEADLINES.error(f"o fundamento deve incluir o próprio dispositivo {citation!r}.",
                              f"{pointer}/fundamento")
    outcomes = obj["resultado"]
    return DeadlineRule(
        citation=citation,
        kind=obj["tipo"],
        direction=obj["sentido"],
        parameter=obj["parametro"],
        event=obj["evento"],
        event_dated=obj["evento_datado"],
        act=obj["ato"],
        act_done=obj["ato_praticado"],
        outcomes=Outcomes(met=outcomes["atende"], unmet=outcomes["nao_atende"],
                          early=outcomes.get("prematuro")),
        non_business=obj["dia_nao_util"],
        reason=obj["motivo"],
        basis=tuple(obj["fundamento"]),
        qualifier=obj.get("qualificativo"),
        months=(_months_periods(obj["vigencias"], f"{pointer}/vigencias")
                if "vigencias" in obj else ()),
    )


def _rules(top: dict[str, Any]) -> Mapping[str, DeadlineRule]:
    return MappingProxyType({
        citation: _parse_rule(citation, item, f"/prazos/{escape(citation)}")
        for citation, item in top["prazos"].items()
    })


def rules_from_document(raw: Any) -> Mapping[str, DeadlineRule]:
    """The deadline table from the parsed JSON of ``prazos.json``."""
    return _rules(DEADLINES.check(raw))


def load_deadline_rules(pack_dir: Path) -> Mapping[str, DeadlineRule]:
    """Load ``legal_text/prazos.json``; :class:`ContentPackError` when missing or broken."""
    return _rules(DEADLINES.load(pack_dir))


def check_rule_against_pack(rule: DeadlineRule, laws: Mapping[str, Law],
                             parameters: Parameters, pointer: str) -> None:
    fail = DEADLINES.error
    for cited in (rule.citation, *rule.basis):
        try:
            found = resolve(laws, cited)
        except LavraError as exc:
            raise fail(f"citação {cited!r} inválida: {exc.message}", pointer) from None
        if cited == rule.citation and found.citation != cited:
            raise fail(f"a chave {cited!r} não é a forma canônica da citação.", pointer)
    if rule.parameter is None:
        return
    if rule.parameter not in parameters:
        raise fail(f"o parâmetro {rule.parameter!r} não existe em parametros.json.",
                    f"{pointer}/parametro")
    param = parameters.parameter(rule.parameter)
    if param.unit not in UNITS:
        raise fail(f"o parâmetro {rule.parameter!r} tem unidade {param.unit!r}, que não é "
                    f"de prazo ({', '.join(UNITS)}).", f"{pointer}/parametro")
    if param.unit == "dias_uteis" and rule.kind == "carencia":
        raise fail("carência em dias úteis não é admitida.", f"{pointer}/parametro")
    if param.unit == "horas" and not (
            rule.kind in ("prazo", "duracao") and rule.direction == "apos"):
        raise fail(f"prazo em horas só é admitido nos tipos 'prazo' (após o evento) e "
                    f"'duracao', não em {rule.kind!r}.", f"{pointer}/parametro")
    for period in param.periods:
        value = period.value
        if int(value) != value or not int(value) >= 1:
            raise fail(f"o parâmetro {rule.parameter!r} deve ter valores inteiros positivos.",
                        f"{pointer}/parametro")
