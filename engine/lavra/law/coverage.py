"""Which provisions of the laws the content pack implements (Catala-style coverage).

A *citation use* is a string in a list under a key named ``x-fundamento`` or
``fundamento``, anywhere (at any depth) in the JSON files under ``schemas/`` and
``forms/`` and in every JSON file of ``legal_text/`` that is not a law (parameters,
deadlines, calendars, tables); it is recorded with its file and JSON pointer. Every
such citation must resolve (see :func:`lavra.law.model.resolve`); those that do not are listed
as *dangling*, and so is a ``fundamento`` whose value is not a list of strings.

Each fragment of each law gets one status, decided on its own:

``implementado``
    the fragment itself is cited by some use (citing a child does not count for the
    parent, citing a parent does not count for its children);
``marcado``
    not cited, and the law file gives the reason in ``sem_implementacao``;
``coberto_pelos_filhos``
    not cited and not marked, but it has children and every one of them is
    ``implementado``, ``marcado`` or itself ``coberto_pelos_filhos``: the introductory
    text of an artigo or parágrafo ("... instruído com:") is taken as implemented by
    its incisos. Reported apart, so the rule stays visible;
``pendente``
    none of the above: a requirement still waiting for a form, schema or rule;
``texto_ausente``
    a provision in force whose text the law file lacks (the source only records its
    inclusion by a later law). It is neither implemented nor "nothing to implement",
    whatever cites or marks it: it cannot be applied before its text is registered, and
    every document citing it (or a provision above it) shows that as a pending item
    (:func:`lavra.checking.checks.missing_text_findings`). Reported apart; it does not
    count as done for its parent's ``coberto_pelos_filhos``. Revoked provisions without
    text stay ``marcado``.

Chapter headings (``capN``) are not provisions and are left out. A citation of a whole
law (no ``#``) resolves but implements no fragment.

Not every use implements: a value recorded in ``legal_text/parametros.json`` is data a
rule may apply, not the rule; and a shared schema definition (``comum.json#/$defs/x``)
implements only when a form's schema reaches it through ``$ref``. Such uses are still
listed and still checked for dangling, but do not make a fragment ``implementado``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lavra.errors import CitationError, ContentPackError, LavraError
from lavra.law.model import Law, is_law_document, load_laws, resolve, short_reference
from lavra.pack import PACK_FOLDERS, pack_at

__all__ = [
    "CITATION_KEYS",
    "STATUSES",
    "TEXT_MISSING",
    "CitationUse",
    "CoverageReport",
    "DanglingCitation",
    "FragmentCoverage",
    "compute_coverage",
    "find_citations",
]

CITATION_KEYS = ("x-fundamento", "fundamento")
IMPLEMENTED = "implementado"
MARKED = "marcado"
COVERED_BY_CHILDREN = "coberto_pelos_filhos"
PENDING = "pendente"
TEXT_MISSING = "texto_ausente"
STATUSES = (IMPLEMENTED, MARKED, COVERED_BY_CHILDREN, PENDING, TEXT_MISSING)
_DONE = (IMPLEMENTED, MARKED, COVERED_BY_CHILDREN)


@dataclass(frozen=True)
class CitationUse:
    """One citation found in the pack: the citation string, file and JSON pointer."""

    citation: str
    file: str
    pointer: str

    @property
    def location(self) -> str:
        return f"{self.file}#{self.pointer}"


@dataclass(frozen=True)
class DanglingCitation:
    """A citation in the pack that does not resolve, with the pt-BR reason."""

    use: CitationUse
    message: str


@dataclass(frozen=True)
class FragmentCoverage:
    """The coverage status of one fragment."""

    law: str
    fragment: str
    reference: str
    status: str
    reason: str | None
    uses: tuple[CitationUse, ...]


@dataclass(frozen=True)
class CoverageReport:
    """Coverage of the laws asked for, plus every dangling citation of the pack."""

    laws: tuple[str, ...]
    fragments: tuple[FragmentCoverage, ...]
    dangling: tuple[DanglingCitation, ...]

    @property
    def ok(self) -> bool:
        """True when every citation of the pack resolves."""
        return not self.dangling

    def with_status(self, status: str) -> tuple[FragmentCoverage, ...]:
        return tuple(f for f in self.fragments if f.status == status)

    def counts(self) -> dict[str, int]:
        return {status: len(self.with_status(status)) for status in STATUSES}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (pt-BR keys, as the content pack speaks)."""
        return {
            "leis": list(self.laws),
            "totais": self.counts(),
            "dispositivos": [
                {
                    "lei": f.law,
                    "dispositivo": f.fragment,
                    "referencia": f.reference,
                    "situacao": f.status,
                    "motivo": f.reason,
                    "citado_em": [u.location for u in f.uses],
                }
                for f in self.fragments
            ],
            "citacoes_invalidas": [
                {"citacao": d.use.citation, "local": d.use.location, "erro": d.message}
                for d in self.dangling
            ],
        }


def _pointer(tokens: list[str]) -> str:
    return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens)


def _walk(node: Any, tokens: list[str]) -> Iterator[tuple[list[str], Any]]:
    """Every (pointer tokens, value) under a key in CITATION_KEYS, at any depth."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            path = [*tokens, str(key)]
            if key in CITATION_KEYS:
                yield path, value
            yield from _walk(value, path)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _walk(item, [*tokens, str(index)])


def _read(path: Path, pack_dir: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        rel = path.relative_to(pack_dir).as_posix()
        raise ContentPackError(f"Não foi possível ler {rel} como JSON: {exc}.") from None


def _scanned_documents(pack_dir: Path) -> list[tuple[Path, Any]]:
    """The JSON documents scanned for citations, with their paths: schemas/, forms/, and
    the non-law files of legal_text/ (a law's own ids are not uses of it)."""
    found: list[tuple[Path, Any]] = []
    for folder in ("schemas", "forms", "legal_text"):
        if not (pack_dir / folder).is_dir():
            continue
        for path in sorted((pack_dir / folder).rglob("*.json")):
            if path.parent.name == "_pacote":  # meta-schemas of the pack's own files
                continue
            document = _read(path, pack_dir)
            if folder == "legal_text" and is_law_document(document):
                continue
            found.append((path, document))
    return found


# Rules written as code (not as schema or data) declare the fragments they implement in
# a module-level ``IMPLEMENTED`` tuple of citation ids. A pack lists its rule modules in
# :attr:`lavra.pack.ContentPack.rule_modules`; coverage lists their citations like those
# of the pack's data, pointing at the module's file.


def code_citations(pack_dir: Path) -> list[CitationUse]:
    """The citations that the pack's rule modules declare as implemented.

    A folder that is not a whole pack (a test's partial copy) has no code: none.
    """
    if not all((pack_dir / name).is_dir() for name in PACK_FOLDERS):
        return []
    uses: list[CitationUse] = []
    for module in pack_at(pack_dir).rule_modules:
        declared = getattr(module, "IMPLEMENTED", None)
        if not isinstance(declared, tuple) or not all(isinstance(c, str) for c in declared):
            raise ContentPackError(
                f"O módulo de regras «{module.__name__}» do pacote não declara IMPLEMENTED "
                "(a tupla das citações que implementa)."
            )
        where = module.__name__.replace(".", "/") + ".py"
        uses.extend(CitationUse(citation, where, "#IMPLEMENTED") for citation in declared)
    return uses


def find_citations(pack_dir: Path) -> tuple[tuple[CitationUse, ...], tuple[DanglingCitation, ...]]:
    """All citation uses of the pack and of the rule modules, and the malformed
    ``fundamento`` values found."""
    uses: list[CitationUse] = code_citations(pack_dir)
    malformed: list[DanglingCitation] = []
    for path, document in _scanned_documents(pack_dir):
        rel = path.relative_to(pack_dir).as_posix()
        for tokens, value in _walk(document, []):
            if not isinstance(value, list):
                malformed.append(
                    DanglingCitation(
                        CitationUse(repr(value), rel, _pointer(tokens)),
                        'O fundamento deve ser uma lista de citações no formato lei#dispositivo.',
                    )
                )
                continue
            for index, item in enumerate(value):
                use = CitationUse(
                    item if isinstance(item, str) else repr(item),
                    rel,
                    _pointer([*tokens, str(index)]),
                )
                if isinstance(item, str):
                    uses.append(use)
                else:
                    malformed.append(DanglingCitation(use, "A citação deve ser um texto."))
    return tuple(uses), tuple(malformed)


def _statuses(law: Law, cited: Mapping[str, list[CitationUse]]) -> dict[str, str]:
    status: dict[str, str] = {}
    # Children come after their parent in document order: walk backwards.
    for frag in reversed(list(law.fragments.values())):
        if frag.kind == "capitulo":
            continue
        if frag.text is None and not frag.revoked:
            status[frag.id] = TEXT_MISSING
        elif cited.get(frag.id):
            status[frag.id] = IMPLEMENTED
        elif frag.no_implementation is not None:
            status[frag.id] = MARKED
        else:
            children = [c for c in law.children(frag.id) if c.kind != "capitulo"]
            done = bool(children) and all(status[c.id] in _DONE for c in children)
            status[frag.id] = COVERED_BY_CHILDREN if done else PENDING
    return status


PARAMETERS_FILE = "legal_text/parametros.json"
_REF = re.compile(r"^(?P<file>[^#]*)#/\$defs/(?P<name>[^/]+)")


def _reachable_defs(pack_dir: Path) -> set[tuple[str, str]]:
    """The (schema file, $defs name) pairs that some form's schema reaches by $ref."""
    forms = sorted((pack_dir / "forms").glob("*/formulario.json"))
    todo: list[tuple[str, Any]] = []
    for meta in forms:
        name = _read(meta, pack_dir).get("schema")
        path = pack_dir / "schemas" / str(name)
        if name and path.is_file():
            todo.append((str(name), _read(path, pack_dir)))
    seen: set[tuple[str, str]] = set()
    documents: dict[str, Any] = {}
    while todo:
        current, node = todo.pop()
        for ref in _refs(node):
            match = _REF.match(ref)
            if match is None:
                continue
            target = match["file"] or current
            key = (target, match["name"])
            if key in seen:
                continue
            seen.add(key)
            if target not in documents:
                documents[target] = _read(pack_dir / "schemas" / target, pack_dir)
            definition = documents[target].get("$defs", {}).get(match["name"])
            if definition is not None:
                todo.append((target, definition))
    return seen


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def _implementing_uses(pack_dir: Path, uses: tuple[CitationUse, ...]) -> set[CitationUse]:
    """The uses that implement (see the module docstring)."""
    form_schemas = {
        str(_read(meta, pack_dir).get("schema"))
        for meta in (pack_dir / "forms").glob("*/formulario.json")
    }
    reachable = _reachable_defs(pack_dir)
    kept = set()
    for use in uses:
        if use.file == PARAMETERS_FILE:
            continue
        if use.file.startswith("schemas/"):
            name = use.file.removeprefix("schemas/")
            if name not in form_schemas:
                parts = use.pointer.split("/")
                if len(parts) < 3 or parts[1] != "$defs" or (name, parts[2]) not in reachable:
                    continue
        kept.add(use)
    return kept


def compute_coverage(pack_dir: Path, law_id: str | None = None) -> CoverageReport:
    """Coverage of one law (or all) of the pack; dangling citations are always listed."""
    laws = load_laws(pack_dir)
    if law_id is not None and law_id not in laws:
        known = ", ".join(sorted(laws)) or "nenhuma"
        raise CitationError(
            f"A lei {law_id!r} não consta do pacote de conteúdo (leis disponíveis: {known})."
        )
    uses, dangling = find_citations(pack_dir)
    dangling_list = list(dangling)
    cited: dict[tuple[str, str], list[CitationUse]] = {}
    for use in uses:
        try:
            found = resolve(laws, use.citation)
        except LavraError as exc:
            dangling_list.append(DanglingCitation(use, exc.message))
            continue
        if found.fragment is not None:
            cited.setdefault((found.law.id, found.fragment.id), []).append(use)
    implementing = _implementing_uses(pack_dir, uses)
    cited = {
        key: [u for u in found_uses if u in implementing] for key, found_uses in cited.items()
    }
    selected = [laws[law_id]] if law_id is not None else list(laws.values())
    entries: list[FragmentCoverage] = []
    for law in selected:
        law_cited = {fid: u for (lid, fid), u in cited.items() if lid == law.id}
        status = _statuses(law, law_cited)
        for frag in law.fragments.values():
            if frag.kind == "capitulo":
                continue
            entries.append(
                FragmentCoverage(
                    law=law.id,
                    fragment=frag.id,
                    reference=short_reference(law, frag.id),
                    status=status[frag.id],
                    reason=frag.no_implementation,
                    uses=tuple(law_cited.get(frag.id, ())),
                )
            )
    return CoverageReport(
        laws=tuple(law.id for law in selected),
        fragments=tuple(entries),
        dangling=tuple(dangling_list),
    )
