"""The content pack of Americana (SP): the transport laws of SETRANSV, made usable.

- ``legal_text/``, ``schemas/`` and ``forms/``: the laws (Lei nº 4.419/2006,
  fretamento; Lei nº 4.515/2007, transporte escolar) with their parameters, deadlines
  and calendar; the JSON Schemas of every form; every document's metadata and wording.
  In the repository they are the folders at its top; this package reaches them
  through links, so that a wheel ships them inside it.
- The rules a schema cannot say, in Python, each module declaring in ``IMPLEMENTED``
  the provisions it implements:

  ========================================  ==========================================
  :mod:`lavra_americana.amounts`            fines and fees in force on a date
  :mod:`lavra_americana.penalties`          repeat offences, escalation, impediment
  :mod:`lavra_americana.eligibility`        who may hold a licence, vehicle age
  :mod:`lavra_americana.ranking`            the ranking of the school-transport edital
  :mod:`lavra_americana.checks`             checks named by forms (``idade_veiculo``)
  :mod:`lavra_americana.amount`             the answer of ``lavra amount``
  :mod:`lavra_americana.computations`       the values each form computes
  ========================================  ==========================================

The engine finds the pack by the entry point ``americana`` of the group
``lavra.pacotes``, which names :func:`pacote`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lavra.pack import ContentPack

__all__ = ["ROOT", "pacote"]

ROOT = (Path(__file__).resolve().parent / "legal_text").resolve().parent
"""The folder holding legal_text/, schemas/ and forms/: this package's own folder in an
installed wheel; the repository's top, where the links lead, in a checkout."""


@lru_cache(maxsize=1)
def pacote() -> ContentPack:
    """The Americana pack, as the engine sees it."""
    from lavra_americana import amount, amounts, checks, eligibility, penalties, ranking
    from lavra_americana.computations import (
        atos,
        auto_fretamento,
        common,
        escolar,
        fretamento,
        licencas,
    )

    modules = (auto_fretamento, escolar, atos, fretamento, licencas)
    computations = {name: f for module in modules for name, f in module.COMPUTATIONS.items()}
    return ContentPack(
        name="americana",
        root=ROOT,
        computations=computations,
        checks=checks.CHECKS,
        rule_modules=(eligibility, ranking, penalties, amounts, *modules),
        amount=amount.answer,
        caches=(common.clear_caches,),
    )
