"""What a forked batch worker would build at its first check, built once in the caller
before the fork (:func:`lavra.batch.runner.planned`, before forking the plan's child;
:func:`lavra.batch.work.warm_for_fork`, before forking the workers), so that each inherits
it.

A worker checks each act before it signs it (:meth:`lavra.issuing.Issuer.prepare`); its
first check fills the caches of the process: the fields of every schema, the characters
the pack's fonts draw, the statutory context and the calendar of holidays the pack's
computations read, the parsed citations and the words of the checks. Where the plan was
made in this process they were filled by it; where it is made in a forked child
(:mod:`lavra.batch.forked`) they are not, and each worker would build them again (≈ 1 s
of CPU per worker). :func:`warm_checks` fills them with no data of the run: it checks
each form's example (``exemplo`` of the pack) on the date the example is current, with
no history and no staff values, and forgets the result. Nothing of the registry is read
and nothing of the plan is held: what stays is what any check of the form would cache.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable

from lavra.checking.content import FormSpec
from lavra.documents import Engine, Prepared
from lavra.inputs.reading import read_data
from lavra.law.overlay import EMPTY_OVERLAY

__all__ = ["check_example", "warm_checks"]


def check_example(engine: Engine, spec: FormSpec) -> Prepared | None:
    """The check of ``spec``'s example on the date it is current (none without one):
    no history, no staff values, nothing read from a registry."""
    if spec.example is None:
        return None
    return engine.prepare(spec.id, read_data(spec.example), spec.example_as_of,
                          issued_on=spec.example_as_of, staff_values=EMPTY_OVERLAY)


def warm_checks(engine: Engine, forms: Iterable[str]) -> None:
    """Fill this process's caches as the check of ``forms`` would (module docstring).
    A form without an example, or whose example does not check, warms what it reached:
    the workers build the rest, as without the warming."""
    content = engine.content
    specs = [content.forms[f] for f in forms if f in content.forms]
    engine.coverage  # noqa: B018 - the fonts' characters, read once per process
    for spec in specs:
        content.fields(spec)  # every schema's fields, built at the first call
        with contextlib.suppress(Exception):  # a warming: its failure is not the run's
            check_example(engine, spec)
