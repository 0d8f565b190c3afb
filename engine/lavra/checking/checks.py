"""Checks a schema cannot express: small pure functions of data and a reference date.

A form's metadata lists the checks it needs (``verificacoes``), each naming a rule,
the field it applies to (a pointer pattern) and the legal basis. Every check returns
report items of the same kind as the schema-derived ones, so the draft, the CLI and
the web pages show them alike.

Rules of the engine, available to every content pack (a pack adds its own through
:attr:`lavra.pack.ContentPack.checks`, functions of the same :data:`Rule` shape):

``emitido_ha_no_maximo``
    The document at ``campo`` was issued no more than ``<parametro>`` months before
    the reference date (e.g. the annual vehicle inspection).
``vigente``
    The object at ``campo`` has a ``validade`` not earlier than the reference date.

Every attachment (a field whose schema is the shared ``documento``) is also checked
on its own: it may not be past its ``validade`` nor issued after the reference date.

A provision in force whose text the pack lacks (the source only records its inclusion
by a later law) that a document relies on (:func:`concerned_without_text`)
gives that document a notice: the document does not apply it, and its text must be
registered before it can be applied (:func:`missing_text_findings`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any

from dateutil.relativedelta import relativedelta

from lavra.checking.report import Item, Status
from lavra.errors import ContentPackError, LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.inputs.schemas.fields import FieldInfo
from lavra.law.model import FRAGMENT_ID, Citation, Law, without_text
from lavra.law.params import Parameters
from lavra.textutil import format_date


@dataclass(frozen=True)
class CheckSpec:
    rule: str
    field: str
    basis: tuple[str, ...]
    parameter: str | None = None

    @classmethod
    def from_json(
        cls, raw: Mapping[str, Any], where: str, known: Collection[str] | None = None
    ) -> CheckSpec:
        """The check ``raw`` of a form's metadata; ``known``: the rule names it may use
        (the engine's :data:`RULES` when not given)."""
        keys = {"regra", "campo", "fundamento", "parametro"}
        unknown = set(raw) - keys
        if unknown or "regra" not in raw or "campo" not in raw:
            raise ContentPackError(
                f"{where}: verificação malformada (chaves desconhecidas: "
                f"{', '.join(sorted(unknown)) or 'nenhuma'}; exigidas: regra, campo)."
            )
        if raw["regra"] not in (RULES if known is None else known):
            raise ContentPackError(f"{where}: regra desconhecida «{raw['regra']}».")
        return cls(
            rule=str(raw["regra"]),
            field=str(raw["campo"]),
            basis=tuple(raw.get("fundamento", ())),
            parameter=raw.get("parametro"),
        )


def _issued_within(
    spec: CheckSpec, pointer: str, value: Any, on: date, params: Parameters
) -> Iterator[Item]:
    if not isinstance(value, Mapping) or spec.parameter is None:
        return
    issued = maybe_date(value.get("data_emissao"))
    if issued is None:
        return
    ident = pointers.dotted(pointer)
    try:
        months = int(params.value(spec.parameter, on).value)
    except LavraError as error:
        yield Item(ident, Status.INVALID, pointer, error.message, spec.basis)
        return
    valid_until = issued + relativedelta(months=months)
    if valid_until < on:
        yield Item(
            ident,
            Status.INVALID,
            pointer,
            f"Documento emitido em {format_date(issued)}, há mais de {months} meses "
            f"da data de referência ({format_date(on)}): deve ser renovado.",
            spec.basis,
        )


def _in_force(
    spec: CheckSpec, pointer: str, value: Any, on: date, params: Parameters
) -> Iterator[Item]:
    if not isinstance(value, Mapping):
        return
    expiry = maybe_date(value.get("validade"))
    if expiry is not None and expiry < on:
        yield Item(
            pointers.dotted(pointer),
            Status.INVALID,
            pointer + "/validade",
            f"Validade vencida em {format_date(expiry)} (data de referência {format_date(on)}).",
            spec.basis,
        )


Rule = Callable[[CheckSpec, str, Any, date, Parameters], Iterator[Item]]

RULES: dict[str, Rule] = {
    "emitido_ha_no_maximo": _issued_within,
    "vigente": _in_force,
}


def document_findings(
    fields: Iterable[FieldInfo], data: Mapping[str, Any], on: date
) -> Iterator[Item]:
    """Every attachment: not past its own validity, not issued after the reference date."""
    for info in fields:
        if not info.document:
            continue
        for pointer in pointers.expand(info.pattern, data):
            value = pointers.get(data, pointer)
            if not isinstance(value, Mapping):
                continue
            ident, label = pointers.dotted(pointer), info.title or pointers.dotted(pointer)
            expiry = maybe_date(value.get("validade"))
            issued = maybe_date(value.get("data_emissao"))
            if expiry is not None and expiry < on:
                yield Item(
                    ident,
                    Status.INVALID,
                    pointer + "/validade",
                    f"{label}: documento vencido em {format_date(expiry)} "
                    f"(data de referência {format_date(on)}); apresente documento válido.",
                    tuple(info.basis),
                )
            elif issued is not None and issued > on:
                yield Item(
                    ident,
                    Status.INVALID,
                    pointer + "/data_emissao",
                    f"{label}: data de emissão {format_date(issued)} posterior à data de "
                    f"referência ({format_date(on)}).",
                    tuple(info.basis),
                )


def missing_text_findings(
    basis: Iterable[str], laws: Mapping[str, Law], *, blocking: bool = False
) -> Iterator[Item]:
    """An item for each provision in force without text that ``basis`` reaches.

    A notice by default (*not applicable*: the document does not apply the provision,
    and says that its text must be registered before it can be applied); *missing*
    with ``blocking``, for a caller that must apply it. The requirement is
    ``texto.<citation>`` (:data:`TEXT_REQUIREMENT`).
    """
    for found in without_text(laws, basis):
        fragment = found.fragment
        notes = "; ".join(n.text for n in fragment.notes) if fragment is not None else ""
        source = f" (a fonte registra apenas: «{notes}»)" if notes else ""
        consequence = (
            "o dispositivo deve ter o seu texto registrado antes de ser aplicado a este "
            "documento."
            if blocking
            else "o dispositivo não pode ser aplicado até que o seu texto seja registrado, e "
            "este documento não o aplica. Registre o texto para que ele passe a ser "
            "conferido."
        )
        yield Item(
            f"{TEXT_REQUIREMENT}{found.citation}",
            Status.MISSING if blocking else Status.NOT_APPLICABLE,
            "",
            f"O texto do {found.short}, em vigor, não está registrado no sistema{source}: "
            + consequence,
            (found.citation,),
        )


def concerned_without_text(
    laws: Mapping[str, Law], citations: Iterable[str]
) -> tuple[Citation, ...]:
    """The provisions in force without text that a document citing ``citations`` relies on.

    Reading (where the source says only that a provision was included): a provision
    without text may change what any part of its own article requires, so citing an
    artigo, or any paragraph, inciso or alínea of it, reaches every provision without
    text of that article (citing art. 10, I, reaches art. 10, VII); and an article
    inserted after another ("art. 28-A" after art. 28) completes the one it follows, so
    citing art. 28 reaches art. 28-A. The document does not apply such a provision: it
    shows that its text must be registered before it can be applied.
    """
    articles: dict[str, None] = {}  # in order of first mention
    indexes: dict[str, Mapping[str, tuple[tuple[str, str], ...]]] = {}
    for citation in citations:
        law_id, _, fragment = citation.partition("#")
        found = _article_of(fragment) if law_id in laws and fragment else None
        if found is None:
            continue
        number, letter = found
        index = indexes.get(law_id)  # a Law hashes slowly: once per law, not per citation
        if index is None:
            index = indexes[law_id] = _articles(laws[law_id])
        for other, ident in index.get(number, ()):
            if other >= letter:
                articles.setdefault(f"{law_id}#{ident}")
    untexted: dict[str, Citation] = {}
    known: dict[str, dict[str, tuple[Citation, ...]]] = {}
    for article in articles:
        law_id = article.partition("#")[0]
        kept = known.get(law_id)
        if kept is None:
            kept = known[law_id] = _without_text(laws[law_id])
        if article not in kept:
            law = laws[law_id]
            kept[article] = without_text({law.id: law}, (article,))
        for each in kept[article]:
            untexted.setdefault(each.citation, each)
    return tuple(untexted.values())


@lru_cache(maxsize=4096)
def _article_of(fragment: str) -> tuple[str, str] | None:
    """The article number and letter of a fragment id («28», «a» for art. 28-A, its
    incisos and paragraphs); None for a chapter or no fragment id."""
    found = FRAGMENT_ID.match(fragment)
    if found is None or found["art"] is None:
        return None
    return found["art"], found["letter"] or ""


@lru_cache(maxsize=256)
def _without_text(law: Law) -> dict[str, tuple[Citation, ...]]:
    """:func:`without_text` of each citation of ``law`` asked so far, filled as asked and
    kept per process (the laws do not change; walking the fragments under a citation
    cost ≈ 1 ms per document checked)."""
    return {}


@lru_cache(maxsize=256)
def _articles(law: Law) -> Mapping[str, tuple[tuple[str, str], ...]]:
    """The law's artigo fragments by article number («28» for art. 28 and art. 28-A),
    each as (its letter, or "", its id), in document order: read once per law (a check
    cites dozens of provisions, and scanning every fragment for each cost ≈ 1 ms per
    document checked)."""
    index: dict[str, list[tuple[str, str]]] = {}
    for frag in law.fragments.values():
        match = FRAGMENT_ID.match(frag.id) if frag.kind == "artigo" else None
        if match is not None and match["art"] is not None:
            index.setdefault(match["art"], []).append((match["letter"] or "", frag.id))
    return {number: tuple(found) for number, found in index.items()}


TEXT_REQUIREMENT = "texto."
"""The requirement prefix of the items of :func:`missing_text_findings`."""


def text_notices(
    laws: Mapping[str, Law],
    basis: Iterable[str],
    fields: Iterable[FieldInfo],
    findings: Iterable[Item],
    computed: Mapping[str, Any],
) -> list[Item]:
    """The notices of the provisions without text a document relies on: those its form
    cites (``basis``), its requirements cite, its findings cite and its computed
    ``fundamento`` lists (:func:`concerned_without_text`)."""
    listed = computed.get("fundamento")
    cited = [
        *basis,
        *(c for info in fields for c in info.basis),
        *(c for item in findings for c in item.basis),
        *(c for c in listed if isinstance(c, str)),
    ] if isinstance(listed, list) else [
        *basis,
        *(c for info in fields for c in info.basis),
        *(c for item in findings for c in item.basis),
    ]
    concerned = concerned_without_text(laws, dict.fromkeys(cited))
    return list(missing_text_findings([c.citation for c in concerned], laws))


def run_checks(
    specs: Iterable[CheckSpec],
    data: Mapping[str, Any],
    on: date,
    params: Parameters,
    rules: Mapping[str, Rule] | None = None,
) -> list[Item]:
    """All findings of the form's checks on the reference date (``rules``: the engine's
    and the pack's, see :attr:`lavra.checking.content.Content.check_rules`)."""
    found: list[Item] = []
    for spec in specs:
        rule = (RULES if rules is None else rules)[spec.rule]
        for pointer in pointers.expand(spec.field, data):
            found.extend(rule(spec, pointer, pointers.get(data, pointer), on, params))
    return found
