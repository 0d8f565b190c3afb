"""Parser of Brazilian law plain text into the law JSON of the content pack.

The input is the plain text of a law as published (one provision per line, blank lines
ignored), the format of ``legal_text/fontes/*.txt``:

- ``CAPÍTULO IV`` headings, the next line being the chapter name;
- articles ``Art. 7º ...`` / ``Art. 10. ...`` / ``Art. 28-A. ...``;
- paragraphs ``§ 3º ...`` and ``Parágrafo único. ...``;
- incisos ``IV - ...`` (under the caput or under a paragraph);
- alíneas ``c) ...`` (under the last inciso, or directly under a caput/paragraph);
- editorial notes in parentheses, either on their own line or at the end of a line
  (``...; (Alterado pela Lei nº 6.335, de 29/08/2019)``);
- the closing line (``Prefeitura Municipal de ..., aos ...``).

A note on its own line that announces an included provision (``Fica incluído inciso
VII ...``, ``Acrescido o § 4º ...``, ``Incluído art. 28-A ...``) creates that fragment
with ``"texto": null``: the source announces it but does not carry its text. Such a
fragment gets ``sem_implementacao`` saying so; a note mentioning a revocation marks it
``revogado``.

The importer is meant to be run once per law; afterwards the JSON file is maintained by
hand (metadata, ``sem_implementacao`` annotations). ``python -m lavra.law.importer`` prints
the fragments of a source file as JSON.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lavra.errors import InputError
from lavra.inputs.reading import describe_os_error

# Editorial notes start with one of these words (case-insensitive).
_NOTE_WORDS = (
    r"(?:Alterad[oa]s?|Inclu[íi]d[oa]s?|Acrescid[oa]s?|Revogad[oa]s?|Reda[çc][ãa]o|Fica|"
    r"Vide|Vetad[oa]|Renumerad[oa]|Regulamentad[oa])"
)
# A parenthesised group allowing one level of nested parentheses.
_GROUP = r"\((" + _NOTE_WORDS + r"[^()]*(?:\([^()]*\)[^()]*)*)\)"
_OWN_LINE_NOTE = re.compile(r"^" + _GROUP + r"(\.?)$", re.IGNORECASE)
_INLINE_NOTE = re.compile(r"^(.*\S)\s+" + _GROUP + r"$", re.IGNORECASE)

_CHAPTER = re.compile(r"^CAP[ÍI]TULO\s+([IVXLCDM]+)$")
_ARTICLE = re.compile(r"^(Art\.\s(\d+)(?:-([A-Z]))?(?:º|\.))\s+(\S.*)$")
_PARAGRAPH = re.compile(r"^(§\s(\d+)º?)\s+(\S.*)$")
_SOLE_PARAGRAPH = re.compile(r"^(Parágrafo único\.)\s+(\S.*)$")
_INCISO = re.compile(r"^([IVXLCDM]+) - (\S.*)$")
_ALINEA = re.compile(r"^([a-z])\) (\S.*)$")
_CLOSING = re.compile(r"^(?:Prefeitura|Paço|Palácio|Câmara)\b.*,\s+(?:aos|em)\s+\d")

_INCLUDED_INCISO = re.compile(r"inciso\s+([IVXLCDM]+)\b")
_INCLUDED_PARAGRAPH = re.compile(r"§\s*(\d+)º?")
_INCLUDED_ARTICLE = re.compile(r"art\.\s*(\d+)(?:-([A-Z]))?", re.IGNORECASE)
_INCLUSION = re.compile(r"^(?:Fica\s+)?(?:inclu[íi]d|acrescid)", re.IGNORECASE)
_REVOCATION = re.compile(r"revogad", re.IGNORECASE)

MISSING_TEXT_REASON = (
    "O texto deste dispositivo não consta da fonte oficial utilizada; a fonte apenas "
    "registra a sua inclusão por lei posterior. Em vigor, deve ter o texto registrado "
    "antes de ser aplicado."
)
REVOKED_REASON = "Dispositivo revogado; o texto não consta da fonte oficial utilizada."

_ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def roman_to_int(numeral: str) -> int:
    """``"XIV"`` → 14; raises :class:`InputError` for anything not a canonical numeral."""
    rest, value = numeral, 0
    for number, symbol in _ROMAN:
        while rest.startswith(symbol):
            value += number
            rest = rest[len(symbol) :]
    if rest or not numeral or int_to_roman(value) != numeral:
        raise InputError(f"Numeral romano inválido: {numeral!r}.")
    return value


def int_to_roman(value: int) -> str:
    """14 → ``"XIV"`` (1 to 3999)."""
    if not 0 < value < 4000:
        raise InputError(f"Número fora do intervalo dos numerais romanos: {value}.")
    out = []
    for number, symbol in _ROMAN:
        count, value = divmod(value, number)
        out.append(symbol * count)
    return "".join(out)


def article_key(number: str, letter: str | None) -> str:
    """``("28", "A")`` → ``"art28a"``."""
    return f"art{int(number)}{(letter or '').lower()}"


@dataclass
class _State:
    fragments: list[dict[str, Any]]
    chapter: str | None = None
    article: str | None = None
    block: str | None = None  # caput or paragraph that takes incisos
    inciso: str | None = None  # last inciso of the current block (takes alíneas)
    last: dict[str, Any] | None = None


@dataclass(frozen=True)
class ParsedLaw:
    """What the importer extracts from a law's text."""

    fragments: tuple[dict[str, Any], ...]
    closing: str | None


def _fragment(
    state: _State, fid: str, kind: str, label: str, text: str | None, parent: str | None
) -> dict[str, Any]:
    if any(f["id"] == fid for f in state.fragments):
        raise InputError(f"Dispositivo repetido no texto da lei: {fid}.")
    frag: dict[str, Any] = {
        "id": fid,
        "tipo": kind,
        "rotulo": label,
        "texto": text,
        "pai": parent,
        "capitulo": state.chapter if kind != "capitulo" else None,
        "notas": [],
        "sem_implementacao": None,
        "revogado": False,
    }
    state.fragments.append(frag)
    state.last = frag
    return frag


def _split_inline_note(body: str) -> tuple[str, list[dict[str, Any]]]:
    match = _INLINE_NOTE.match(body)
    if not match:
        return body, []
    return match.group(1), [{"texto": match.group(2), "posicao": "inline"}]


def _own_line_note(state: _State, line: str, number: int) -> None:
    match = _OWN_LINE_NOTE.match(line)
    assert match is not None
    note: dict[str, Any] = {"texto": match.group(1), "posicao": "apos"}
    if match.group(2):
        note["literal"] = line
    target = _included_fragment(state, match.group(1), number)
    if target is None:
        if state.last is None:
            raise InputError(f"Linha {number}: nota editorial antes de qualquer dispositivo.")
        target = state.last
    target["notas"].append(note)


def _included_fragment(state: _State, note: str, number: int) -> dict[str, Any] | None:
    """The fragment a note such as "Fica incluído inciso VII ..." announces, created."""
    if not _INCLUSION.match(note):
        return None
    head = re.split(r"\b(?:pel[oa]s?)\b", note, maxsplit=1)[0]
    frag: dict[str, Any] | None = None
    if (m := _INCLUDED_ARTICLE.search(head)) is not None:
        fid = article_key(m.group(1), m.group(2))
        label = f"Art. {int(m.group(1))}" + (f"-{m.group(2)}" if m.group(2) else "")
        label += "º" if int(m.group(1)) < 10 and not m.group(2) else "."
        frag = _fragment(state, fid, "artigo", label, None, None)
        state.article, state.block, state.inciso = fid, fid, None
    elif (m := _INCLUDED_INCISO.search(head)) is not None:
        parent = state.block
        if parent is None:
            raise InputError(f"Linha {number}: inciso incluído fora de um artigo.")
        fid = f"{parent}_inc{roman_to_int(m.group(1))}"
        frag = _fragment(state, fid, "inciso", m.group(1), None, parent)
        state.inciso = fid
    elif (m := _INCLUDED_PARAGRAPH.search(head)) is not None:
        if state.article is None:
            raise InputError(f"Linha {number}: parágrafo incluído fora de um artigo.")
        fid = f"{state.article}_par{int(m.group(1))}"
        frag = _fragment(state, fid, "paragrafo", f"§ {int(m.group(1))}º", None, state.article)
        state.block, state.inciso = fid, None
    if frag is None:
        return None
    revoked = bool(_REVOCATION.search(note))
    frag["revogado"] = revoked
    frag["sem_implementacao"] = REVOKED_REASON if revoked else MISSING_TEXT_REASON
    # Whatever follows the announced provision is not part of it.
    state.last = frag
    return frag


def parse_law_text(text: str) -> ParsedLaw:
    """Parse a law's plain text into fragments in document order (JSON-ready dicts)."""
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)]
    lines = [(n, line) for n, line in lines if line]
    state = _State(fragments=[])
    closing: str | None = None
    index = 0
    while index < len(lines):
        number, line = lines[index]
        index += 1
        if closing is not None:
            raise InputError(f"Linha {number}: texto após o fecho da lei.")
        if (m := _CHAPTER.match(line)) is not None:
            if index >= len(lines):
                raise InputError(f"Linha {number}: capítulo sem nome na linha seguinte.")
            name = lines[index][1]
            index += 1
            fid = f"cap{roman_to_int(m.group(1))}"
            state.chapter = None
            _fragment(state, fid, "capitulo", line, name, None)
            state.chapter = fid
            state.article = state.block = state.inciso = None
        elif _OWN_LINE_NOTE.match(line):
            _own_line_note(state, line, number)
        elif (m := _ARTICLE.match(line)) is not None:
            fid = article_key(m.group(2), m.group(3))
            body, notes = _split_inline_note(m.group(4))
            _fragment(state, fid, "artigo", m.group(1), body, None)["notas"] = notes
            state.article, state.block, state.inciso = fid, fid, None
        elif (m := _PARAGRAPH.match(line)) is not None or _SOLE_PARAGRAPH.match(line):
            if state.article is None:
                raise InputError(f"Linha {number}: parágrafo fora de um artigo.")
            if m is not None:
                fid, label, raw = f"{state.article}_par{int(m.group(2))}", m.group(1), m.group(3)
            else:
                sole = _SOLE_PARAGRAPH.match(line)
                assert sole is not None
                fid, label, raw = f"{state.article}_par1u", sole.group(1), sole.group(2)
            body, notes = _split_inline_note(raw)
            _fragment(state, fid, "paragrafo", label, body, state.article)["notas"] = notes
            state.block, state.inciso = fid, None
        elif (m := _INCISO.match(line)) is not None:
            if state.block is None:
                raise InputError(f"Linha {number}: inciso fora de um artigo.")
            fid = f"{state.block}_inc{roman_to_int(m.group(1))}"
            body, notes = _split_inline_note(m.group(2))
            _fragment(state, fid, "inciso", m.group(1), body, state.block)["notas"] = notes
            state.inciso = fid
        elif (m := _ALINEA.match(line)) is not None:
            parent = state.inciso or state.block
            if parent is None:
                raise InputError(f"Linha {number}: alínea fora de um artigo.")
            fid = f"{parent}_ali{ord(m.group(1)) - ord('a') + 1}"
            body, notes = _split_inline_note(m.group(2))
            _fragment(state, fid, "alinea", m.group(1), body, parent)["notas"] = notes
        elif _CLOSING.match(line):
            closing = line
        else:
            raise InputError(f"Linha {number}: linha não reconhecida no texto da lei: {line!r}.")
    return ParsedLaw(fragments=tuple(state.fragments), closing=closing)


def law_document(text: str, metadata: dict[str, Any]) -> dict[str, Any]:
    """The law JSON: ``metadata`` (id, tipo, numero, ...) plus fecho and fragmentos."""
    parsed = parse_law_text(text)
    return {**metadata, "fecho": parsed.closing, "fragmentos": list(parsed.fragments)}


def main(argv: list[str] | None = None) -> int:
    """``python -m lavra.law.importer FONTE.txt``: print the parsed law as JSON."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("Uso: python -m lavra.law.importer FONTE.txt", file=sys.stderr)
        return 2
    try:
        source = Path(args[0]).read_text(encoding="utf-8")
        parsed = parse_law_text(source)
    except OSError as exc:
        print(
            f"Não foi possível ler o arquivo {args[0]}: {describe_os_error(exc)}.", file=sys.stderr
        )
        return 2
    except InputError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    document = {"fecho": parsed.closing, "fragmentos": list(parsed.fragments)}
    print(json.dumps(document, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
