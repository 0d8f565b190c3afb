"""Damaged copies of a signed PDF, across every region of the file, deterministically.

:func:`damaged_copies` takes one PDF and returns ``(label, bytes)`` pairs: bit flips,
zeroed ranges and deletions in each region (header, binary comment, every indirect
object — page content streams, fonts, the signature dictionary, object and xref
streams —, the signature's /Contents and /ByteRange, xref tables, trailers, each
``startxref`` and ``%%EOF``, the bytes beyond the last ``%%EOF``), truncations at
several points, and appended updates. Every copy differs from the original.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter

_OBJECT = re.compile(rb"(?<![0-9])(\d+) (\d+) obj\b")
_STARTXREF = re.compile(rb"startxref\s+(\d+)\s*")
_FONT_FILE = re.compile(rb"/FontFile[23]?\s*(\d+)\s+\d+\s+R")
_KINDS = tuple(
    (re.compile(marker), name)
    for marker, name in (
        (rb"/Type\s*/XRef(?![A-Za-z])", "fluxo xref"),
        (rb"/Type\s*/ObjStm(?![A-Za-z])", "fluxo de objetos"),
        (rb"/FontFile", "descritor de fonte"),
        (rb"/ByteRange", "dicionário da assinatura"),
        (rb"/Type\s*/Page(?![A-Za-z])", "página"),
        (rb"/Type\s*/Font(?![A-Za-z])", "fonte"),
    )
)


def regions(pdf: bytes) -> list[tuple[str, int, int]]:
    """``(name, start, end)`` of each region of ``pdf`` (byte offsets, end exclusive)."""
    found: list[tuple[str, int, int]] = []
    first_line = pdf.index(b"\n") + 1
    found.append(("cabeçalho", 0, first_line))
    if pdf[first_line : first_line + 1] == b"%":
        found.append(("comentário binário", first_line, pdf.index(b"\n", first_line) + 1))
    # a font program is the stream a descriptor's /FontFile, /FontFile2 or /FontFile3 names
    # (WeasyPrint's also carry /Length1; Typst's do not)
    programs = {int(n) for n in _FONT_FILE.findall(pdf)}
    for match in _OBJECT.finditer(pdf):
        end = pdf.find(b"endobj", match.end())
        if end < 0:
            continue
        end += len(b"endobj")
        body = pdf[match.start() : end]
        kind = (b"stream" in body and "fluxo") or "objeto"
        if int(match.group(1)) in programs or b"/Length1" in body:
            kind = "programa de fonte"
        else:
            # dictionaries written with or without a space between name tokens
            # (pydyf and pyHanko: «/Type /Font»; Typst: «/Type/Font»)
            for marker, name in _KINDS:
                if marker.search(body):
                    kind = name
                    break
        label = f"{kind} {match.group(1).decode()} {match.group(2).decode()} obj @{match.start()}"
        found.append((label, match.start(), end))
    byte_range = re.search(rb"/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]", pdf)
    if byte_range:
        found.append(("/ByteRange", byte_range.start(), byte_range.end()))
        gap_start = int(byte_range.group(1)) + int(byte_range.group(2))
        found.append(("/Contents (contêiner CMS)", gap_start, int(byte_range.group(3))))
        contents = pdf[gap_start : int(byte_range.group(3))]
        padding = contents.rstrip(b">").rstrip(b"0")
        if len(padding) + 8 < len(contents):
            found.append(
                (
                    "/Contents (zeros de preenchimento)",
                    gap_start + len(padding) + 2,
                    int(byte_range.group(3)) - 2,
                )
            )
    for match in re.finditer(rb"(?<![a-z])xref\s", pdf):
        end = pdf.find(b"trailer", match.start())
        stop = pdf.find(b"startxref", match.start())
        if end < 0 or 0 <= stop < end:
            continue
        found.append((f"tabela xref @{match.start()}", match.start(), end))
    for match in re.finditer(rb"trailer\s*<<", pdf):
        end = pdf.find(b"startxref", match.start())
        found.append((f"trailer @{match.start()}", match.start(), end))
    for match in _STARTXREF.finditer(pdf):
        found.append((f"startxref @{match.start()}", match.start(), match.end()))
    for match in re.finditer(rb"%%EOF", pdf):
        found.append((f"%%EOF @{match.start()}", match.start(), match.end()))
    last_eof = pdf.rfind(b"%%EOF") + len(b"%%EOF")
    if last_eof < len(pdf):
        found.append(("depois do último %%EOF", last_eof, len(pdf)))
    return found


def damaged_copies(pdf: bytes) -> list[tuple[str, bytes]]:
    """Every damaged variant of ``pdf`` (see the module docstring), each one different."""
    copies: dict[bytes, str] = {}
    for label, data in _variants(pdf):
        if data != pdf and data not in copies:
            copies[data] = label
    return [(label, data) for data, label in copies.items()]


def _variants(pdf: bytes) -> Iterator[tuple[str, bytes]]:
    for name, start, end in regions(pdf):
        size = end - start
        for where, position, mask in (
            ("início", start, 0x01),
            ("meio", start + size // 2, 0x01),
            ("meio", start + size // 2, 0x80),
            ("fim", end - 1, 0x01),
        ):
            yield f"{name}: bit 0x{mask:02x} invertido no {where}", _flip(pdf, position, mask)
        width = min(16, size)
        middle = start + (size - width) // 2
        yield f"{name}: {width} bytes zerados no meio", _zero(pdf, middle, middle + width)
        yield f"{name}: região inteira zerada", _zero(pdf, start, end)
        yield f"{name}: {width} bytes apagados no meio", pdf[:middle] + pdf[middle + width :]
        yield f"{name}: região apagada", pdf[:start] + pdf[end:]
        yield f"{name}: cortado no meio", pdf[: start + size // 2]
    for fraction in (1, 8, 100, len(pdf) // 4, len(pdf) // 2, len(pdf) - 200, len(pdf) - 1):
        yield f"truncado em {fraction} bytes", pdf[:fraction]
    yield "primeiro 1 KB zerado", _zero(pdf, 0, 1024)
    yield "último 1 KB zerado", _zero(pdf, len(pdf) - 1024, len(pdf))
    yield "acréscimo de texto depois do %%EOF", pdf + b"\n% acrescimo\n"
    yield "acréscimo de outro %%EOF", pdf + b"%%EOF\n"
    yield "arquivo duplicado em seguida", pdf + pdf
    yield "acréscimo de bytes nulos", pdf + bytes(4096)
    yield "atualização incremental com texto novo na página", incremental_update(pdf)
    yield "atualização incremental vazia", _empty_update(pdf)


def _flip(pdf: bytes, position: int, mask: int) -> bytes:
    data = bytearray(pdf)
    data[position] ^= mask
    return bytes(data)


def _zero(pdf: bytes, start: int, end: int) -> bytes:
    return pdf[:start] + bytes(end - start) + pdf[end:]


def incremental_update(pdf: bytes, text: bytes = b"CANCELADO") -> bytes:
    """``pdf`` with a later revision that writes ``text`` on its first page."""
    writer = IncrementalPdfFileWriter(io.BytesIO(pdf))
    font = generic.DictionaryObject(
        {
            generic.NameObject("/Type"): generic.NameObject("/Font"),
            generic.NameObject("/Subtype"): generic.NameObject("/Type1"),
            generic.NameObject("/BaseFont"): generic.NameObject("/Helvetica"),
        }
    )
    resources = generic.DictionaryObject(
        {
            generic.NameObject("/Font"): generic.DictionaryObject(
                {generic.NameObject("/FAlt"): writer.add_object(font)}
            )
        }
    )
    stream = generic.StreamObject(stream_data=b"BT /FAlt 24 Tf 72 700 Td (" + text + b") Tj ET")
    writer.add_stream_to_page(0, writer.add_object(stream), resources=resources)
    output = io.BytesIO()
    writer.write(output)
    return output.getvalue()


def _empty_update(pdf: bytes) -> bytes:
    writer = IncrementalPdfFileWriter(io.BytesIO(pdf))
    writer.update_root()
    output = io.BytesIO()
    writer.write(output)
    return output.getvalue()
