"""The applicants' fillable requerimento: AcroForm HTML out, JSON data back in.

:mod:`~lavra.render.fillable.schema` reads the form's schema (shared by both ways);
:mod:`~lavra.render.fillable.building` writes the HTML body WeasyPrint turns into a
PDF with form fields; :mod:`~lavra.render.fillable.reading` rebuilds the JSON data from
a filled PDF. Import from those modules; this package re-exports nothing.
"""
