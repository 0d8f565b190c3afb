"""The first mention of a law in a document: by its full title, then short.

A law whose text declares ``citar_por_extenso`` (:attr:`lavra.law.model.Law.full_first`)
is cited "Lei nº 9.784, de 29 de janeiro de 1999" at its first mention in a document and
"Lei nº 9.784/1999" after it. Templates can follow the rule themselves, but a sentence
built by a pack's computation does not know where in the document it will be printed: it
cites the law short, and a ``citacao`` names it by its full title; the rendered body is
corrected here. The text corrected runs from the HTML ``<body>`` (the ``<head>`` is no
mention) to the act's list of its legal basis (``<ul class="fundamento">``, each item a
full reference of its own, left as it is): its first mention is made full, and each
later one short.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from lavra.law.model import Law

__all__ = ["full_first_mention"]

#: Where the text of an act ends: its list of legal basis (forms/_modelos/documento.html).
BASIS_LIST = '<ul class="fundamento"'

#: A space in the rendered HTML: a plain one, or a non-breaking one in any spelling.
_SPACE = r"(?:\s|&nbsp;|&#160;|&#xa0;)+"


def _pattern(text: str) -> str:
    return _SPACE.join(re.escape(word) for word in text.split())


def _mentions(law: Law) -> re.Pattern[str]:
    return re.compile(f"(?P<full>{_pattern(law.title)})|(?P<short>{_pattern(law.short_title)})")


def full_first_mention(body: str, laws: Mapping[str, Law] | Iterable[Law]) -> str:
    """``body`` (HTML) with each ``full_first`` law full at its first mention, short after."""
    values = laws.values() if isinstance(laws, Mapping) else laws
    start, end = max(body.find("<body"), 0), body.find(BASIS_LIST)
    end = len(body) if end < start else end
    text = body[start:end]
    for law in values:
        if not law.full_first or law.title == law.short_title:
            continue
        seen = 0

        def spelled(found: re.Match[str], law: Law = law) -> str:
            nonlocal seen
            seen += 1
            if seen == 1:
                return law.title
            return found[0] if found["short"] is not None else law.short_title

        text = _mentions(law).sub(spelled, text)
    return body[:start] + text + body[end:]
