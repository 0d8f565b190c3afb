"""The laws of the content pack as structured data, and citations into them.

A law is one JSON file in ``legal_text/`` whose top-level object has ``fragmentos``
(other JSON files there, such as parameters or holidays, are not laws). Each fragment
(capítulo, artigo, parágrafo, inciso, alínea) has a stable LexML-style id:

    cap2            capítulo II
    art7            caput of art. 7º          art28a         art. 28-A
    art4_par3       § 3º of art. 4º           art5_par1u     its parágrafo único
    art7_inc4       inciso IV of art. 7º      art13_par5_inc3
    art14_ali1      alínea a under the caput  art11_inc1_ali3  inciso I, alínea c

A citation is ``"<law id>#<fragment id>"`` (``"transito#art7_inc4"``), or the law id
alone for the whole law. :func:`resolve` turns it into a :class:`Citation` carrying the
full reference ("art. 7º, inciso IV, da Lei Municipal nº 4.419, de 17 de novembro de
2006"), the short one ("art. 7º, IV, da Lei nº 4.419/2006") and the verbatim text.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from lavra.errors import CitationError, ContentPackError, InputError, LavraError
from lavra.inputs.reading import describe_os_error
from lavra.law.importer import int_to_roman
from lavra.law.references import FRAGMENT_ID, alinea_letter, reference, short_reference
from lavra.law.references import example_citation as _example_citation
from lavra.law.references import shown_citation as _shown

__all__ = [
    "FRAGMENT_ID",
    "Citation",
    "Fragment",
    "Law",
    "Note",
    "linearize",
    "load_law_file",
    "load_laws",
    "reference",
    "resolve",
    "short_reference",
    "without_text",
]

LAW_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
KINDS = ("capitulo", "artigo", "paragrafo", "inciso", "alinea")
POSITIONS = ("inline", "apos")
MISSING_TEXT = "[texto não consta da fonte]"

_LAW_KEYS = (
    "id", "tipo", "numero", "numero_observacao", "data", "titulo", "ementa", "urn", "fonte",
    "vigencia_desde", "fecho", "fragmentos",
)
#: ``citar_por_extenso``: the law is cited by its full title at its first mention in a
#: document, and short after it (:mod:`lavra.render.mentions`).
_LAW_OPTIONAL = ("citar_por_extenso",)
_FRAGMENT_KEYS = (
    "id",
    "tipo",
    "rotulo",
    "texto",
    "pai",
    "capitulo",
    "notas",
    "sem_implementacao",
)
_FRAGMENT_OPTIONAL = ("revogado",)
_NOTE_KEYS = ("texto", "posicao")
_NOTE_OPTIONAL = ("literal",)
_SEPARATOR = {"artigo": " ", "paragrafo": " ", "inciso": " - ", "alinea": ") "}


@dataclass(frozen=True)
class Note:
    """An editorial note (amendment, inclusion, revocation) attached to a fragment.

    ``position`` is ``"inline"`` when the note closed the fragment's own line in the
    source, ``"apos"`` when it stood on its own line after it. ``literal`` is the
    source line verbatim when it is not simply ``"(" + text + ")"``.
    """

    text: str
    position: str
    literal: str | None = None

    @property
    def source_form(self) -> str:
        """The note as it reads in the source text."""
        return self.literal if self.literal is not None else f"({self.text})"


@dataclass(frozen=True)
class Fragment:
    """One provision of a law (or a chapter heading)."""

    id: str
    kind: str
    label: str
    text: str | None
    parent: str | None
    chapter: str | None
    notes: tuple[Note, ...] = ()
    no_implementation: str | None = None
    revoked: bool = False

    def line(self) -> str:
        """The fragment's own line as in the source, inline notes included."""
        if self.kind == "capitulo":
            return self.label
        body = self.text if self.text is not None else MISSING_TEXT
        inline = "".join(f" {n.source_form}" for n in self.notes if n.position == "inline")
        return f"{self.label}{_SEPARATOR[self.kind]}{body}{inline}"


@dataclass(frozen=True)
class Law:
    """A law of the content pack; ``fragments`` in document order."""

    id: str
    kind: str
    number: str
    number_note: str | None
    date: dt.date
    title: str
    ementa: str | None
    urn: str
    source: str | None
    in_force_since: dt.date
    closing: str | None
    fragments: Mapping[str, Fragment] = field(hash=False)
    full_first: bool = False  # ``citar_por_extenso`` (:data:`_LAW_OPTIONAL`)

    @property
    def short_title(self) -> str:
        """``"Lei nº 4.419/2006"``."""
        words = [w for w in self.kind.split() if w not in ("Municipal", "Estadual", "Federal")]
        return f"{' '.join(words)} nº {self.number}/{self.date.year}"

    def children(self, fragment_id: str) -> tuple[Fragment, ...]:
        """Direct children of a fragment (articles of a chapter included)."""
        return tuple(
            f
            for f in self.fragments.values()
            if f.parent == fragment_id or (f.kind == "artigo" and f.chapter == fragment_id)
        )

    def descendants(self, fragment_id: str) -> tuple[Fragment, ...]:
        """Every fragment under ``fragment_id``, in document order."""
        inside = {fragment_id}
        found: list[Fragment] = []
        for frag in self.fragments.values():
            if frag.parent in inside or (frag.parent is None and frag.chapter in inside):
                inside.add(frag.id)
                found.append(frag)
        return tuple(found)


@dataclass(frozen=True)
class Citation:
    """A resolved citation: the law, the fragment (None for the whole law) and texts."""

    law: Law
    fragment: Fragment | None
    reference: str
    short: str
    text: str | None

    @property
    def citation(self) -> str:
        """The canonical citation string (``"transito#art7_inc4"``)."""
        return self.law.id if self.fragment is None else f"{self.law.id}#{self.fragment.id}"

    def full_text(self) -> str:
        """The fragment with everything under it (an artigo with its parágrafos, incisos
        and alíneas), one provision a line, without editorial notes."""
        if self.fragment is None:
            frags: tuple[Fragment, ...] = tuple(self.law.fragments.values())
        else:
            frags = (self.fragment, *self.law.descendants(self.fragment.id))
        lines: list[str] = []
        for frag in frags:
            lines.append(frag.line() if frag.kind == "capitulo" else _bare_line(frag))
            if frag.kind == "capitulo" and frag.text is not None:
                lines.append(frag.text)
        return "\n".join(lines)


def without_text(laws: Mapping[str, Law], citations: Iterable[str]) -> tuple[Citation, ...]:
    """The provisions in force whose text the pack lacks, among ``citations`` and every
    provision under them (citing an artigo reaches its incisos), in the order given.

    Such a provision (one the source only records as included by a later law) may
    concern the act that cites it: it cannot be applied before its text is registered.
    Revoked provisions and citations that do not resolve are left out.
    """
    found: dict[str, Citation] = {}
    for citation in citations:
        try:
            cited = resolve(laws, citation)
        except LavraError:
            continue
        law = cited.law
        frags = law.fragments.values() if cited.fragment is None else (
            cited.fragment, *law.descendants(cited.fragment.id))
        for frag in frags:
            if frag.kind != "capitulo" and frag.text is None and not frag.revoked:
                key = f"{law.id}#{frag.id}"
                found.setdefault(key, resolve(laws, key))
    return tuple(found.values())


def _bare_line(frag: Fragment) -> str:
    body = frag.text if frag.text is not None else MISSING_TEXT
    return f"{frag.label}{_SEPARATOR[frag.kind]}{body}"


# ---------------------------------------------------------------- references


def resolve(laws: Mapping[str, Law], citation: str) -> Citation:
    """Resolve ``"law#fragment"`` (or ``"law"``) against ``laws``.

    Raises :class:`CitationError` (pt-BR) when the citation is malformed, or the law
    or the fragment does not exist.
    """
    kept = _RESOLVED.get(citation) if type(citation) is str else None
    if kept is not None and laws.get(citation.partition("#")[0]) is kept.law:
        return kept  # the same (frozen) law: the same citation, as resolved before
    if not isinstance(citation, str) or not citation.strip():
        raise CitationError(
            f"Citação vazia ou inválida: {_shown(citation) if isinstance(citation, str) else ''}."
        )
    law_id, sep, fragment_id = citation.partition("#")
    if not LAW_ID.match(law_id) or (sep and not FRAGMENT_ID.match(fragment_id)):
        raise CitationError(
            f"Citação malformada: {_shown(citation)}. Use o formato 'lei#dispositivo'"
            + _example_citation(laws)
            + "."
        )
    law = laws.get(law_id)
    if law is None:
        known = ", ".join(sorted(laws)) or "nenhuma"
        raise CitationError(
            f"A citação {_shown(citation)} refere-se à lei {_shown(law_id)}, que não consta "
            f"do pacote de conteúdo (leis disponíveis: {known})."
        )
    if not sep:
        return Citation(
            law=law, fragment=None, reference=law.title, short=law.short_title, text=law.ementa
        )
    frag = law.fragments.get(fragment_id)
    if frag is None:
        raise CitationError(
            f"A citação {_shown(citation)} refere-se ao dispositivo {_shown(fragment_id)}, "
            f"que não existe na {law.title}."
        )
    found = _RESOLVED[citation] = Citation(law, frag, reference(law, fragment_id),
                                           short_reference(law, fragment_id), frag.text)
    return found


_RESOLVED: dict[str, Citation] = {}
"""Each citation resolved, by its string: a law is frozen (its fragments too), so while
``laws`` holds the same law object under the citation's law id, resolving the citation
again gives the same answer (a check resolves the same dozen citations per document).
Citations that do not resolve are not kept; a pack's citations are a few hundred."""


def linearize(law: Law) -> list[str]:
    """The law as text lines, as in its source: headings, provisions, notes, closing."""
    lines: list[str] = []
    for frag in law.fragments.values():
        if frag.kind == "capitulo":
            lines.append(frag.label)
            if frag.text is not None:
                lines.append(frag.text)
        elif frag.text is not None:
            lines.append(frag.line())
        lines.extend(n.source_form for n in frag.notes if n.position == "apos")
    if law.closing is not None:
        lines.append(law.closing)
    return lines


# ---------------------------------------------------------------- loading


class _Checker:
    """Validation helpers that raise ContentPackError naming the file and pointer."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, message: str, pointer: str) -> ContentPackError:
        return ContentPackError(
            f"Lei inválida em {self.path.parent.name}/{self.path.name} ({pointer or '/'}): "
            f"{message}",
            field=pointer,
        )

    def keys(
        self, obj: Any, required: tuple[str, ...], optional: tuple[str, ...], pointer: str
    ) -> dict[str, Any]:
        if not isinstance(obj, dict):
            raise self.fail("esperava-se um objeto JSON.", pointer)
        unknown = sorted(set(obj) - set(required) - set(optional))
        if unknown:
            raise self.fail(f"chave(s) desconhecida(s): {', '.join(unknown)}.", pointer)
        missing = [k for k in required if k not in obj]
        if missing:
            raise self.fail(f"chave(s) obrigatória(s) ausente(s): {', '.join(missing)}.", pointer)
        return obj

    def text(self, value: Any, pointer: str, *, nullable: bool = False) -> str | None:
        if value is None and nullable:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail("esperava-se um texto não vazio.", pointer)
        return value

    def required_text(self, value: Any, pointer: str) -> str:
        result = self.text(value, pointer)
        assert result is not None
        return result

    def day(self, value: Any, pointer: str) -> dt.date:
        try:
            return dt.date.fromisoformat(self.required_text(value, pointer))
        except ValueError:
            raise self.fail(f"data inválida {value!r} (use AAAA-MM-DD).", pointer) from None

    def flag(self, value: Any, pointer: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail("esperava-se true ou false.", pointer)
        return value


def _expected_parent(match: re.Match[str]) -> str | None:
    """The structural parent implied by an id (``art7_inc4`` → ``art7``)."""
    fid = match.group(0)
    return None if "_" not in fid else fid.rsplit("_", 1)[0]


def _expected_kind(match: re.Match[str]) -> str:
    if match["cap"]:
        return "capitulo"
    if match["ali"]:
        return "alinea"
    if match["inc"]:
        return "inciso"
    if match["par"]:
        return "paragrafo"
    return "artigo"


def _label_fits(match: re.Match[str], label: str) -> bool:
    kind = _expected_kind(match)
    if kind == "capitulo":
        return label == f"CAPÍTULO {int_to_roman(int(match['cap']))}"
    if kind == "artigo":
        suffix = f"-{match['letter'].upper()}" if match["letter"] else ""
        pattern = rf"Art\. {int(match['art'])}{re.escape(suffix)}(º|\.)"
        return re.fullmatch(pattern, label) is not None
    if kind == "paragrafo":
        if match["par"] == "1u":
            return label in ("Parágrafo único.", "Parágrafo único")
        return re.fullmatch(rf"§ {int(match['par'])}º?\.?", label) is not None
    if kind == "inciso":
        return label == int_to_roman(int(match["inc"]))
    return bool(label == alinea_letter(int(match["ali"])))


def _note(check: _Checker, raw: Any, pointer: str) -> Note:
    obj = check.keys(raw, _NOTE_KEYS, _NOTE_OPTIONAL, pointer)
    position = obj["posicao"]
    if position not in POSITIONS:
        raise check.fail(f"posição de nota inválida {position!r} (use inline ou apos).", pointer)
    return Note(
        text=check.required_text(obj["texto"], f"{pointer}/texto"),
        position=position,
        literal=check.text(obj.get("literal"), f"{pointer}/literal", nullable=True),
    )


def _fragment(check: _Checker, raw: Any, pointer: str, seen: dict[str, Fragment]) -> Fragment:
    obj = check.keys(raw, _FRAGMENT_KEYS, _FRAGMENT_OPTIONAL, pointer)
    fid = check.required_text(obj["id"], f"{pointer}/id")
    match = FRAGMENT_ID.match(fid)
    if match is None:
        raise check.fail(
            f"identificador {fid!r} fora do padrão LexML (ex.: art7_inc4).", f"{pointer}/id"
        )
    if fid in seen:
        raise check.fail(f"identificador repetido {fid!r}.", f"{pointer}/id")
    kind = obj["tipo"]
    if kind != _expected_kind(match):
        raise check.fail(
            f"o tipo de {fid!r} deveria ser {_expected_kind(match)!r}, não {kind!r}.",
            f"{pointer}/tipo",
        )
    label = check.required_text(obj["rotulo"], f"{pointer}/rotulo")
    if not _label_fits(match, label):
        raise check.fail(
            f"o rótulo {label!r} não corresponde ao identificador {fid!r}.", f"{pointer}/rotulo"
        )
    parent = check.text(obj["pai"], f"{pointer}/pai", nullable=True)
    if parent != _expected_parent(match):
        raise check.fail(
            f"o pai de {fid!r} deveria ser {_expected_parent(match)!r}, não {parent!r}.",
            f"{pointer}/pai",
        )
    if parent is not None and parent not in seen:
        raise check.fail(
            f"o pai {parent!r} de {fid!r} não existe ou aparece depois dele.", f"{pointer}/pai"
        )
    chapter = check.text(obj["capitulo"], f"{pointer}/capitulo", nullable=True)
    if chapter is not None and (chapter not in seen or seen[chapter].kind != "capitulo"):
        raise check.fail(
            f"o capítulo {chapter!r} de {fid!r} não existe ou aparece depois dele.",
            f"{pointer}/capitulo",
        )
    notes_raw = obj["notas"]
    if not isinstance(notes_raw, list):
        raise check.fail("esperava-se uma lista de notas.", f"{pointer}/notas")
    notes = tuple(_note(check, n, f"{pointer}/notas/{i}") for i, n in enumerate(notes_raw))
    reason = check.text(obj["sem_implementacao"], f"{pointer}/sem_implementacao", nullable=True)
    revoked = obj.get("revogado", False)
    if not isinstance(revoked, bool):
        raise check.fail("esperava-se verdadeiro ou falso.", f"{pointer}/revogado")
    text = check.text(obj["texto"], f"{pointer}/texto", nullable=True)
    if (text is None or revoked) and reason is None and kind != "capitulo":
        raise check.fail(
            f"o dispositivo {fid!r} sem texto ou revogado deve declarar sem_implementacao.",
            f"{pointer}/sem_implementacao",
        )
    return Fragment(
        id=fid,
        kind=kind,
        label=label,
        text=text,
        parent=parent,
        chapter=chapter,
        notes=notes,
        no_implementation=reason,
        revoked=revoked,
    )


def load_law_file(path: Path) -> Law:
    """Load and validate one law file; raises :class:`ContentPackError`."""
    check = _Checker(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ContentPackError(
            f"Não foi possível ler a lei {path}: {describe_os_error(exc)}."
        ) from None
    except ValueError as exc:
        raise ContentPackError(f"A lei {path} não é um JSON válido: {exc}.") from None
    obj = check.keys(raw, _LAW_KEYS, _LAW_OPTIONAL, "")
    law_id = check.required_text(obj["id"], "/id")
    if law_id != path.stem or not LAW_ID.match(law_id):
        raise check.fail(
            f"o id {law_id!r} deve ser igual ao nome do arquivo ({path.stem!r}), "
            "em minúsculas e hífens.",
            "/id",
        )
    number = check.required_text(obj["numero"], "/numero")
    title = check.required_text(obj["titulo"], "/titulo")
    if number not in title:
        raise check.fail(f"o título {title!r} não contém o número {number!r}.", "/titulo")
    frags_raw = obj["fragmentos"]
    source = check.text(obj["fonte"], "/fonte", nullable=True)
    # A law the pack only cites (another law a provision sends to) has no source text
    # (``fonte`` null) and may list no fragment, or only the provisions cited, without
    # text. Every other law has its source and its text.
    if not isinstance(frags_raw, list) or (not frags_raw and source is not None):
        raise check.fail("esperava-se uma lista não vazia de fragmentos.", "/fragmentos")
    seen: dict[str, Fragment] = {}
    for index, item in enumerate(frags_raw):
        frag = _fragment(check, item, f"/fragmentos/{index}", seen)
        seen[frag.id] = frag
    return Law(
        id=law_id,
        kind=check.required_text(obj["tipo"], "/tipo"),
        number=number,
        number_note=check.text(obj["numero_observacao"], "/numero_observacao", nullable=True),
        date=check.day(obj["data"], "/data"),
        title=title,
        ementa=check.text(obj["ementa"], "/ementa", nullable=True),
        urn=check.required_text(obj["urn"], "/urn"),
        source=source,
        in_force_since=check.day(obj["vigencia_desde"], "/vigencia_desde"),
        closing=check.text(obj["fecho"], "/fecho", nullable=True),
        fragments=MappingProxyType(seen),
        full_first=check.flag(obj.get("citar_por_extenso", False), "/citar_por_extenso"),
    )


def is_law_document(raw: Any) -> bool:
    """A JSON document of ``legal_text/`` is a law when it has ``fragmentos``."""
    return isinstance(raw, dict) and "fragmentos" in raw


def law_files(pack_dir: Path) -> list[Path]:
    """The law files of a pack: ``legal_text/*.json`` holding ``fragmentos``."""
    folder = pack_dir / "legal_text"
    if not folder.is_dir():
        raise ContentPackError(f"Pasta legal_text/ não encontrada no pacote {pack_dir}.")
    found = []
    for path in sorted(folder.glob("*.json")):
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ContentPackError(f"Não foi possível ler {path} como JSON: {exc}.") from None
        if is_law_document(raw):
            found.append(path)
    return found


def load_laws(pack_dir: Path) -> dict[str, Law]:
    """All laws of the pack, by id; raises :class:`ContentPackError` if any is invalid."""
    try:
        return {law.id: law for law in map(load_law_file, law_files(pack_dir))}
    except (InputError, CitationError) as exc:  # a number out of range in a fragment id
        raise ContentPackError(f"Lei inválida no pacote {pack_dir}: {exc.message}") from None
