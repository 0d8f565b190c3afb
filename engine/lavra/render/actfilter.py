"""The templates' ``ato`` filter: an earlier act cited by its own label + ``nº`` +
series/number (:func:`lavra.textutil.format_cited_act`), the label being the title of
the pack's form that issues the series."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import jinja2

from lavra.errors import RenderError
from lavra.textutil import format_cited_act

__all__ = ["cited_act_filter"]


def cited_act_filter(titles: Mapping[str, str], blank: str | None) -> Callable[..., Any]:
    """Filter ``ato`` (``{{ n | ato }}``; ``{{ n | ato("Auto de infração") }}`` names an
    act of no known series by the label given). ``blank``: what an empty value prints
    in a draft; None in a final document, where an empty value is an error."""

    def apply(value: Any, rotulo: Any = None) -> Any:
        if isinstance(value, jinja2.Undefined):
            return value  # printed as the draft blank, or fails in a final document
        if value is None or value == "":
            if blank is not None:
                return blank
            raise RenderError('O filtro "ato" recebeu um valor vazio.')
        label = rotulo if isinstance(rotulo, str) and rotulo else None
        return format_cited_act(value, titles, label)

    apply.__name__ = "ato"
    return apply
