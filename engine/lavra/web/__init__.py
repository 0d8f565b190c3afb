"""The web application of lavra: applicants' requerimentos, staff pages, JSON API.

A thin shell over the engine; see :func:`lavra.web.app.create_app`.
"""

from __future__ import annotations

from lavra.web.app import create_app
from lavra.web.context import WebContext, WebSettings

__all__ = ["WebContext", "WebSettings", "create_app"]
