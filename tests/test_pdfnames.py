"""pyHanko's names written and read whole (lavra.signing.pdfnames): the same bytes as
pyHanko's own byte-by-byte code writes, the same names as it reads, for every byte."""

from __future__ import annotations

import io

import pytest
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.misc import PdfReadError

from lavra.signing import pdfnames

NAMES = [
    *(f"/A{chr(code)}z" for code in range(0x100)),  # every byte, at the start of a name too
    *(f"/{chr(code)}" for code in range(0x21, 0x100)),
    "/Type", "/FlateDecode", "/ETSI.CAdES.detached", "/A#B", "/Ação", "/名前", "/",
]


def _written(name: str, write: object) -> bytes:
    buffer = io.BytesIO()
    write(generic.NameObject(name), buffer)  # type: ignore[operator]
    return buffer.getvalue()


def test_a_name_is_written_and_read_as_pyhanko_does() -> None:
    pdfnames.install()
    assert generic.NameObject.write_to_stream is pdfnames._write_name
    for name in NAMES:
        written = _written(name, pdfnames._PYHANKO_WRITE)
        assert _written(name, generic.NameObject.write_to_stream) == written, name
        theirs = _read(written, pdfnames._PYHANKO_DECODE)
        assert _read(written, pdfnames._decode_name) == theirs, name
        if written[1:].translate(None, pdfnames.VERBATIM) == b"":  # read whole
            read = _read(written, generic.NameObject.read_from_stream)
            assert read == (name, generic.NameObject), name


def _read(written: bytes, decode: object) -> tuple[object, type]:
    """The name read back, or pyHanko's refusal (it writes bytes below 0x10 as ``#x``,
    one hex digit, which it then refuses to read)."""
    try:
        if decode is generic.NameObject.read_from_stream:
            read = decode(io.BytesIO(written + b" "))  # type: ignore[operator]
        else:
            read = decode(written[1:])  # type: ignore[operator]
    except PdfReadError as error:
        return str(error), PdfReadError
    return str(read), type(read)


@pytest.mark.parametrize("body", [b"A\x80", b"A B"[:1] + b"\x7f", b"Bad#4", b"Bad#zz"])
def test_a_name_pyhanko_refuses_is_refused_alike(body: bytes) -> None:
    with pytest.raises(PdfReadError) as theirs:
        pdfnames._PYHANKO_DECODE(body)
    with pytest.raises(PdfReadError) as ours:
        pdfnames._decode_name(body)
    assert str(ours.value) == str(theirs.value)


def test_a_name_not_starting_with_a_slash_is_refused_as_pyhanko_does() -> None:
    with pytest.raises(Exception) as theirs:
        _written("Type", pdfnames._PYHANKO_WRITE)
    with pytest.raises(Exception) as ours:
        _written("Type", pdfnames._write_name)
    assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))
