"""JSON Schema 2020-12 machinery over the content pack's ``schemas/``.

:mod:`~lavra.inputs.schemas.registry` loads and lints the schemas and compiles
validators; :mod:`~lavra.inputs.schemas.fields` walks a schema for what it says of each
field (labels, legal basis, documents, conditions);
:mod:`~lavra.inputs.schemas.validation` validates data and words each issue in pt-BR.
Import from those modules; this package re-exports nothing.
"""
