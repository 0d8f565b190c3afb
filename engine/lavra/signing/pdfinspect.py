"""Active content in a PDF received from outside: what a reader of its fields must know.

    from lavra.signing.pdfinspect import inspect_pdf
    warnings = inspect_pdf(pdf_bytes)      # () for a clean file; pt-BR sentences otherwise

A filled requerimento or a copy of an issued document is read for its field values and
its signature; a PDF viewer, though, may also run the JavaScript it carries, launch a
program, open an embedded file, send the form to an address or show an XFA form whose
content differs from the fields that were read. None of that changes what lavra reads,
but the person handling the file must be told, so they do not open it carelessly.

The whole object graph reachable from the document catalog is walked once (pages and
their annotations, form fields, outlines, name trees, actions chained by ``/Next``),
without decoding any stream, visiting at most ``max_objects`` objects. Nothing here
raises: a damaged or password-protected file yields a warning that it could not be
examined in full.
"""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

#: Objects visited at most, and seconds spent at most; beyond either the file is
#: reported as not fully examined.
MAX_OBJECTS = 100_000
MAX_SECONDS = 15.0


class Active(Enum):
    """A kind of active content, in the order warnings are given."""

    JAVASCRIPT = "javascript"
    LAUNCH = "launch"
    EMBEDDED_FILE = "embedded-file"
    FILE_ATTACHMENT = "file-attachment"
    XFA = "xfa"
    SUBMIT_FORM = "submit-form"
    IMPORT_DATA = "import-data"
    OTHER_FILE = "other-file"
    MEDIA = "media"
    AUTOMATIC = "automatic"
    LINK = "link"
    UNREADABLE = "unreadable"
    INCOMPLETE = "incomplete"


MESSAGES = {
    Active.JAVASCRIPT: (
        "O PDF contém JavaScript (código que o leitor de PDF pode executar ao abrir o "
        "arquivo ou ao interagir com ele)."
    ),
    Active.LAUNCH: (
        "O PDF contém uma ação que abre outro programa ou arquivo do computador."
    ),
    Active.EMBEDDED_FILE: (
        "O PDF traz arquivos embutidos, que não foram lidos nem conferidos; não os abra."
    ),
    Active.FILE_ATTACHMENT: (
        "O PDF traz arquivos anexados a anotações de página, que não foram lidos nem "
        "conferidos; não os abra."
    ),
    Active.XFA: (
        "O PDF contém um formulário XFA, cujo conteúdo pode diferir do que os campos "
        "mostram; foram lidos somente os campos comuns do formulário."
    ),
    Active.SUBMIT_FORM: (
        "O PDF contém uma ação que envia os dados do formulário a um endereço externo."
    ),
    Active.IMPORT_DATA: (
        "O PDF contém uma ação que importa dados de outro arquivo para o formulário."
    ),
    Active.OTHER_FILE: "O PDF contém ações que abrem outros arquivos PDF.",
    Active.MEDIA: "O PDF contém mídia ativa (vídeo, som, 3D ou conteúdo interativo).",
    Active.AUTOMATIC: (
        "O PDF define ações que o leitor de PDF executa sozinho (ao abrir o arquivo ou uma "
        "página, ou ao passar por um campo)."
    ),
    Active.LINK: "O PDF contém links para endereços externos: {detail}.",
    Active.UNREADABLE: (
        "Não foi possível examinar o PDF em busca de conteúdo ativo (JavaScript, anexos, "
        "ações): o arquivo está danificado ou protegido. Trate-o com cautela."
    ),
    Active.INCOMPLETE: (
        "O PDF é grande demais para ser examinado por inteiro em busca de conteúdo ativo; "
        "trate-o com cautela."
    ),
}

_ACTIONS = {
    "/JavaScript": Active.JAVASCRIPT,
    "/Launch": Active.LAUNCH,
    "/SubmitForm": Active.SUBMIT_FORM,
    "/ImportData": Active.IMPORT_DATA,
    "/GoToR": Active.OTHER_FILE,
    "/GoToE": Active.OTHER_FILE,
    "/Rendition": Active.MEDIA,
    "/Movie": Active.MEDIA,
    "/Sound": Active.MEDIA,
    "/RichMediaExecute": Active.MEDIA,
    "/GoTo3DView": Active.MEDIA,
}
_MEDIA_SUBTYPES = {"/Movie", "/Sound", "/Screen", "/3D", "/RichMedia"}
#: Actions that only move within the document or change its display: not reported
#: when triggered automatically.
_HARMLESS_ACTIONS = {"/GoTo", "/Named", "/Hide", "/ResetForm", "/SetOCGState", "/Thread"}
_MAX_LINKS = 5


@dataclass(frozen=True)
class Finding:
    kind: Active
    detail: str = ""


def inspect_pdf(
    pdf: bytes, *, max_objects: int = MAX_OBJECTS, max_seconds: float = MAX_SECONDS
) -> tuple[str, ...]:
    """Warnings (pt-BR) about the active content of ``pdf``; () when there is none.

    ``max_objects`` and ``max_seconds`` bound the work: past either, a warning says the
    file was not examined in full. Never raises. A file without the PDF header is not
    inspected (() is returned): the verification or the reading already refuses it as
    not being a PDF, and a second warning would only repeat that.
    """
    if b"%PDF-" not in pdf[:1024]:
        return ()
    try:
        findings = _findings(pdf, max_objects, time.monotonic() + max_seconds)
    except Exception:  # a parser failure on a hostile file must not stop the reading
        findings = [Finding(Active.UNREADABLE)]
    return _messages(findings)


def _messages(findings: list[Finding]) -> tuple[str, ...]:
    kinds = {f.kind for f in findings}
    if Active.JAVASCRIPT in kinds:
        kinds.discard(Active.AUTOMATIC)  # already said: what runs by itself is the code
    if Active.FILE_ATTACHMENT in kinds and not any(
        f.kind is Active.EMBEDDED_FILE and f.detail == "document" for f in findings
    ):
        kinds.discard(Active.EMBEDDED_FILE)  # the attachment's own file: said once
    out = []
    for kind in Active:
        if kind not in kinds:
            continue
        if kind is Active.LINK:
            hosts = sorted({f.detail for f in findings if f.kind is kind and f.detail})
            shown = ", ".join(hosts[:_MAX_LINKS]) + (" e outros" if len(hosts) > _MAX_LINKS
                                                     else "")
            out.append(MESSAGES[kind].format(detail=shown or "endereço ilegível"))
        else:
            out.append(MESSAGES[kind])
    return tuple(out)


def _findings(pdf: bytes, max_objects: int, deadline: float) -> list[Finding]:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf), strict=False)
    _forget_xref_streams(reader)
    if reader.is_encrypted and not reader.decrypt(""):
        return [Finding(Active.UNREADABLE)]
    walk = _Walk(reader.trailer.get("/Root"), max_objects, deadline)
    found = [finding for node in walk for finding in _judge(node)]
    if walk.cut:
        found.append(Finding(Active.INCOMPLETE))
    return found


def _forget_xref_streams(reader: Any) -> None:
    """Drop the cross-reference streams pypdf cached while reading the xref chain.

    pypdf keeps each xref stream under its object number (py-pdf/pypdf#265); when a later
    update reuses that number for another object (legal, and pypdf's own incremental
    writer does it), the stale xref stream would be returned instead, hiding what the
    number now holds (an /OpenAction's JavaScript, say). Read again, the number resolves
    through the newest xref section, as viewers resolve it.
    """
    from pypdf.generic import StreamObject

    cache = getattr(reader, "resolved_objects", None)
    if not isinstance(cache, dict):
        return
    for key, value in list(cache.items()):
        if isinstance(value, StreamObject) and dict.get(value, "/Type") == "/XRef":
            del cache[key]


class _Walk:
    """Every dictionary reachable from ``start``, once, depth-first, without recursion;
    at most ``budget`` objects (dictionaries, arrays, references) are looked at, and
    none after ``deadline`` (``time.monotonic``)."""

    def __init__(self, start: Any, budget: int, deadline: float) -> None:
        self._stack: list[Any] = [start]
        self._budget = budget
        self._deadline = deadline
        self.cut = False

    def __iter__(self) -> Iterator[dict[Any, Any]]:
        from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

        containers = (ArrayObject, DictionaryObject, IndirectObject)
        seen: set[tuple[int, int]] = set()
        stack = self._stack
        visited = 0
        while stack:
            if visited >= self._budget or (
                visited % 256 == 0 and time.monotonic() > self._deadline
            ):
                self.cut = True
                return
            visited += 1
            item = stack.pop()
            if isinstance(item, IndirectObject):
                key = (item.idnum, item.generation)
                if key in seen:
                    continue
                seen.add(key)
                try:
                    item = item.get_object()
                except Exception:  # a dangling or broken reference: skip it
                    continue
            if isinstance(item, DictionaryObject):
                yield item
                stack.extend(v for v in dict.values(item) if isinstance(v, containers))
            elif isinstance(item, ArrayObject):
                stack.extend(v for v in list.__iter__(item) if isinstance(v, containers))


def _value(node: dict[Any, Any], key: str) -> Any:
    """``node[key]`` resolved, or None when absent or unreadable."""
    raw = dict.get(node, key)
    if raw is None:
        return None
    try:
        return raw.get_object() if hasattr(raw, "get_object") else raw
    except Exception:
        return None


def _judge(node: dict[Any, Any]) -> Iterator[Finding]:
    keys = set(dict.keys(node))
    action = _value(node, "/S")
    if action is not None and str(action) in _ACTIONS:
        yield Finding(_ACTIONS[str(action)])
    if str(action) == "/URI":
        yield Finding(Active.LINK, _host(_value(node, "/URI")))
    if "/JS" in keys or "/JavaScript" in keys:
        yield Finding(Active.JAVASCRIPT)
    if "/EmbeddedFiles" in keys:
        yield Finding(Active.EMBEDDED_FILE, "document")
    elif "/EF" in keys or str(_value(node, "/Type")) == "/EmbeddedFile":
        yield Finding(Active.EMBEDDED_FILE, "file")
    subtype = str(_value(node, "/Subtype"))
    if subtype == "/FileAttachment":
        yield Finding(Active.FILE_ATTACHMENT)
    elif subtype in _MEDIA_SUBTYPES:
        yield Finding(Active.MEDIA)
    if "/XFA" in keys:
        yield Finding(Active.XFA)
    if "/AA" in keys or ("/OpenAction" in keys and _acts(_value(node, "/OpenAction"))):
        yield Finding(Active.AUTOMATIC)


def _acts(target: Any) -> bool:
    """Whether an open action does more than show a page (a destination array does not)."""
    if not isinstance(target, dict):
        return False
    return str(_value(target, "/S")) not in _HARMLESS_ACTIONS


def _host(uri: Any) -> str:
    from urllib.parse import urlsplit

    text = uri.decode("latin-1", "replace") if isinstance(uri, bytes) else str(uri or "")
    text = "".join(c for c in text[:500] if c.isprintable())
    try:
        parts = urlsplit(text)
    except ValueError:
        return text[:60]
    return (parts.hostname or text)[:60] if parts.scheme else text[:60]


__all__ = ["MAX_OBJECTS", "MAX_SECONDS", "MESSAGES", "Active", "inspect_pdf"]
