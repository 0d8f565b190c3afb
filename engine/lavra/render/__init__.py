"""Rendering: the Jinja environment of a form's wording and the check of a pack's
templates, the restricted HTML of the wording, PDF/A and DOCX output, the characters
the fonts draw, the fillable requerimento (:mod:`lavra.render.fillable`: AcroForm
HTML out, JSON data back in) and the isolated worker processes that render.

``render`` is given data already checked; it knows no completeness report.

May import: ``lavra.errors``, ``lavra.textutil``, ``lavra.inputs``, ``lavra.law``.
"""
