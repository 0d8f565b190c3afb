"""PDF names written and read by pyHanko a whole name at a time instead of byte by byte.

pyHanko writes a name (``/Type``, ``/Annots``, …) one byte at a time, checking each
byte for an escape, and reads one the same way: in a signature, where pyHanko writes
the incremental update (the last page, the form, the catalog, the stamp and its
font: some 110 names) and reads the objects it updates, that is about a tenth of the
signing time. Almost every name is made of bytes written as they are (ISO 32000-1,
§ 7.3.5: the regular characters from ``!`` to ``~`` but ``#``); :func:`install`
makes pyHanko write and read such a name whole, and leaves any other name (an escape,
a byte outside that range) to pyHanko's own code, so the bytes written and the names
read are the same as pyHanko's (tests/test_signing.py compares them byte by byte).
"""

from __future__ import annotations

from typing import IO, Any

from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.misc import is_regular_character

__all__ = ["install"]

#: The bytes a name holds as they are (every other one is written ``#xx``).
VERBATIM: bytes = bytes(
    byte for byte in range(0x21, 0x7F) if byte != 0x23 and is_regular_character(byte)
)

_PYHANKO_WRITE = generic.NameObject.write_to_stream
_PYHANKO_DECODE = generic._decode_name


def _write_name(
    self: generic.NameObject, stream: IO[bytes], handler: Any = None, container_ref: Any = None
) -> None:
    data = self.encode("utf8")
    if data[:1] == b"/" and not data[1:].translate(None, VERBATIM):
        stream.write(data)
    else:
        _PYHANKO_WRITE(self, stream, handler, container_ref)


def _decode_name(name_bytes: bytes) -> generic.NameObject:
    if name_bytes.translate(None, VERBATIM):
        return _PYHANKO_DECODE(name_bytes)
    return generic.NameObject("/" + name_bytes.decode("ascii"))


def install() -> None:
    """Make pyHanko write and read plain names whole (idempotent)."""
    generic.NameObject.write_to_stream = _write_name  # type: ignore[method-assign]
    generic._decode_name = _decode_name
