"""The web application of lavra: applicants' requerimentos, staff pages, JSON API.

A thin shell over the engine; see :func:`lavra.web.app.create_app`.

May import: ``lavra.errors``, ``lavra.textutil``, ``lavra.inputs``, ``lavra.pack``,
``lavra.config``, ``lavra.law``, ``lavra.checking``, ``lavra.render``,
``lavra.signing``, ``lavra.registry``, ``lavra.documents``, ``lavra.verifying``, ``lavra.issuing``,
``lavra.staff``, ``lavra.recording``, ``lavra.batch``, ``lavra.signers``, ``lavra.filing``,
``lavra.staffcheck`` (the staff check, shared with the command line),
``lavra.filedacts``.
"""

from __future__ import annotations

from lavra.web.app import create_app
from lavra.web.context import WebContext, WebSettings

__all__ = ["WebContext", "WebSettings", "create_app"]
