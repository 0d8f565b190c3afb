"""The processo administrativo's number as the acts print it, computed once.

The servidor types the number as the Prefeitura's protocol shows it, with the sigla
("PA 3.210/2026"); the acts print it after "processo administrativo nº", where the sigla
would name the processo twice ("processo administrativo nº PA 3.210/2026"). The value
``numero_processo`` is the number without the sigla ("3.210/2026"); the templates print
it and clean nothing. A number typed without the sigla is kept as typed.

Reading where no law speaks: the sigla is the Prefeitura's protocol practice, not a
provision — the computation cites no article.
"""

from __future__ import annotations

from lavra.checking.computations import Computed, ComputeInput, clean_text
from lavra.inputs import pointers
from lavra_americana.comum.computing import data_of

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "NUMBER", "SIGLA", "number_of"]

IMPLEMENTED: tuple[str, ...] = ()
"""A printing rule (module doc): no provision."""

NUMBER = "/processo/numero"
"""Where the acts' data hold the processo's number."""

SIGLA = "PA "
"""The sigla the Prefeitura's protocol puts before a processo's number."""


def number_of(typed: object) -> str | None:
    """The number without the sigla ("PA 3.210/2026" → "3.210/2026"); None when blank."""
    text = clean_text(typed)
    if text is None:
        return None
    return text[len(SIGLA):].strip() or text if text.startswith(SIGLA) else text


def numero_processo(request: ComputeInput) -> Computed:
    """``numero_processo``: the processo's number as printed (module doc); absent when
    the data hold none (the schema reports the missing field)."""
    found = number_of(pointers.get(data_of(request), NUMBER))
    return Computed({} if found is None else {"numero_processo": found})


COMPUTATIONS = {"numero_processo": numero_processo}
