"""How the rules of both laws name the provisions they apply, in pt-BR.

``short`` gives the reference a decision prints (``"art. 7º, I, da Lei nº 4.515/2007"``);
``cite_many`` joins several provisions of one law in one reference; ``article_of_law``
and ``without_law`` drop the law's name inside a sentence that already names it.
Implements no provision.
"""

from __future__ import annotations

from collections.abc import Mapping

from lavra.law.model import Law, resolve
from lavra.textutil import format_act_number

__all__ = [
    "IMPLEMENTED",
    "article_of_law",
    "cite_many",
    "lower_first",
    "numbered",
    "short",
    "without_law",
]

IMPLEMENTED: tuple[str, ...] = ()
"""Wording helpers only: no provision."""


def short(laws: Mapping[str, Law], citation: str) -> str:
    return resolve(laws, citation).short


def cite_many(laws: Mapping[str, Law], *citations: str) -> str:
    """``"art. 7º, IV, e art. 17, II, da Lei nº 4.515/2007"`` (citations of one law)."""
    if len(citations) == 1:
        return short(laws, citations[0])
    law = laws[citations[0].partition("#")[0]]
    parts = [article_of_law(laws, c) for c in citations]
    head = ", ".join(parts[:-1])
    joiner = ", e " if "," in parts[-2] else " e "
    return f"{head}{joiner}{parts[-1]}, da {law.short_title}"


def article_of_law(laws: Mapping[str, Law], citation: str) -> str:
    """``"art. 7º, I"`` without the law's name (for lists within one sentence)."""
    return without_law(short(laws, citation), laws[citation.partition("#")[0]])


def without_law(short: str, law: Law) -> str:
    """``"art. 9º, § 3º"`` from ``"art. 9º, § 3º, da Lei nº 4.515/2007"``."""
    return short.removesuffix(f", da {law.short_title}").removesuffix(f" da {law.short_title}")


def lower_first(text: str) -> str:
    """Lower the first letter for use mid-sentence, unless the first word is an acronym."""
    first = text.split(" ", 1)[0]
    return text if first.isupper() else text[:1].lower() + text[1:]


def numbered(what: str, number: str) -> str:
    """``"Auto de Infração AIE-ESC nº 0002/2026"``: an act and its number as cited, with
    its series as the registry prints it (:func:`lavra.textutil.format_act_number`)."""
    return f"{what} {format_act_number(number)}"
