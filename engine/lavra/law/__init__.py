"""The law as data: laws and citations (:mod:`~lavra.law.model`), the law importer,
parameters with validity periods, the business calendar, counting deadlines, the
statutory deadline table and its counting, and the coverage of the laws by the pack.

Nothing here checks a form or renders a document: ``law`` answers what the law says
on a date. Whether an act met a deadline, which yields a report item, is
:mod:`lavra.checking.timeliness`.

May import: ``lavra.errors``, ``lavra.textutil``, ``lavra.inputs``, ``lavra.pack``
(finding the pack whose laws are read, and its rule code for coverage).
"""
