"""A content pack of a FICTITIOUS municipality, Vila Fictícia (UF XX), for the tests.

It proves the engine knows nothing of any real municipality: ``legal_text/`` holds a
short fictitious táxi law (Lei nº 1.234/2025) with its parameters, deadline and
calendar; ``schemas/`` and ``forms/`` a requerimento, a licence and an auto de
infração; :mod:`regras` the rules a schema cannot say (the licence's validity, the
doubled fine on a repeat offence, the appeal deadline).
"""

from __future__ import annotations

from pathlib import Path

from lavra.pack import ContentPack

__all__ = ["ROOT", "pacote"]

ROOT = Path(__file__).resolve().parent


def pacote() -> ContentPack:
    """The Vila Fictícia pack, as the engine sees it."""
    from vila_ficticia import regras

    return ContentPack(
        name="vila-ficticia",
        root=ROOT,
        computations=regras.COMPUTATIONS,
        rule_modules=(regras,),
        stamp_font="forms/_base/fontes/DejaVuSans.ttf",
    )
