"""Reading what comes in: JSON data files and dates, text normalisation, JSON pointers,
Brazilian document formats, and the JSON Schema machinery (:mod:`lavra.inputs.schemas`:
the pack's schemas as a registry, field annotations, validation with pt-BR messages).

Every stage reads its input through here, so that bad input is refused once, with a
pt-BR message naming the field. The schemas belong here rather than in ``checking``
because ``law`` validates the pack's own files (parameters, deadlines, calendar) with
them.

May import: ``lavra.errors``, ``lavra.textutil``.
"""
