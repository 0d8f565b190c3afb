"""The processo administrativo's number as the acts print it, computed once.

The servidor types the number as the Prefeitura's protocol shows it, with the sigla
("PA 3.210/2026"); the acts print it after "processo administrativo nº", where the sigla
would name the processo twice ("processo administrativo nº PA 3.210/2026"). The value
``numero_processo`` is the number without the sigla ("3.210/2026"); the templates print
it and clean nothing. A number typed without the sigla is kept as typed.

A processo opened by a protocol filed online is numbered after it, and the acts carry
its number with the protocol's series ("PROT nº 0011/2026"): after "processo" the series
would name a protocol, not a processo ("processo PROT nº 0011/2026"). ``processo_impresso``
is what the acts print after the word "processo": "nº 0011/2026" for a protocol's
processo, the typed number otherwise ("PA 1.357/2026", or the words of a renewal
requested without a processo number); ``numero_processo`` drops the protocol's series
as it drops the sigla ("0011/2026").

Reading where no law speaks: the sigla is the Prefeitura's protocol practice, not a
provision — the computation cites no article.
"""

from __future__ import annotations

import re

from lavra.checking.computations import Computed, ComputeInput, clean_text
from lavra.filing import PROTOCOL_SERIES
from lavra.inputs import pointers
from lavra_americana.comum.computing import data_of

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "NUMBER", "SIGLA", "number_of", "printed_after_processo"]

IMPLEMENTED: tuple[str, ...] = ()
"""A printing rule (module doc): no provision."""

NUMBER = "/processo/numero"
"""Where the acts' data hold the processo's number."""

SIGLA = "PA "
"""The sigla the Prefeitura's protocol puts before a processo's number."""


_PROTOCOL = re.compile(rf"^{PROTOCOL_SERIES}\s*(?:n\s*[º°o.]+\s*)?(?=\d)", re.IGNORECASE)
"""A protocol's series before its number ("PROT nº 0011/2026", "PROT 0011/2026")."""


def _protocol_number(text: str) -> str | None:
    """The number of a protocol's processo ("PROT nº 0011/2026" → "0011/2026")."""
    found = _PROTOCOL.match(text)
    return text[found.end():].strip() if found else None


def number_of(typed: object) -> str | None:
    """The number without the sigla ("PA 3.210/2026" → "3.210/2026") or the protocol's
    series ("PROT nº 0011/2026" → "0011/2026"); None when blank."""
    text = clean_text(typed)
    if text is None:
        return None
    protocol = _protocol_number(text)
    if protocol:
        return protocol
    return text[len(SIGLA):].strip() or text if text.startswith(SIGLA) else text


def printed_after_processo(typed: object) -> str | None:
    """What follows "processo" in an act (module doc): "nº 0011/2026" for a protocol's
    processo, else the number as typed; None when blank."""
    text = clean_text(typed)
    if text is None:
        return None
    protocol = _protocol_number(text)
    return f"nº {protocol}" if protocol else text


def numero_processo(request: ComputeInput) -> Computed:
    """``numero_processo`` and ``processo_impresso``: the processo's number as printed
    (module doc); absent when the data hold none (the schema reports the missing field)."""
    typed = pointers.get(data_of(request), NUMBER)
    found = number_of(typed)
    if found is None:
        return Computed({})
    return Computed({"numero_processo": found, "processo_impresso": printed_after_processo(typed)})


COMPUTATIONS = {"numero_processo": numero_processo}
