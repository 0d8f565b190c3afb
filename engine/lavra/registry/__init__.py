"""The registry of issued documents: gapless numbering per series and year, the record
of each document (its signed PDF included) and its case history, on SQLite or
PostgreSQL, with the Alembic migrations of its schema.

:mod:`~lavra.registry.store` (the :class:`~lavra.registry.store.Registry` and
``open_registry``) is the entry point; :mod:`~lavra.registry.tables`,
:mod:`~lavra.registry.records`, :mod:`~lavra.registry.queries` and
:mod:`~lavra.registry.database` are its parts; :mod:`~lavra.registry.runs` keeps the
batch runs (a plan that reserves numbers in input order, items claimed and recorded).
The registry stores what it is given: it does not render, sign or check.

May import: ``lavra.errors``, ``lavra.textutil``, ``lavra.inputs``.
"""
