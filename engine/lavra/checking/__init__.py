"""Checking a form's data against the law: the loaded content pack
(:mod:`~lavra.checking.content`), the checks a schema cannot express, the computations
a pack provides (:mod:`~lavra.checking.computations`, the interface between the engine
and a pack's rules), the timeliness of an act, and the completeness report.

May import: ``lavra.errors``, ``lavra.textutil``, ``lavra.inputs``, ``lavra.pack``,
``lavra.law``.

Exception: ``lavra.checking.content`` may also import ``lavra.render.templatecheck``:
a pack whose templates have errors is refused when it is loaded, and only ``render``
knows the Jinja environment the templates run in. ``render`` imports nothing of
``checking``, so the two do not form a cycle.
"""
