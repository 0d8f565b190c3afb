"""When a fretamento renewal may be decided, and on what documents (Lei nº 4.419/2006,
art. 8º).

Art. 8º: the alvará is "renovável por igual período, desde que a empresa ou entidade se
manifeste nesse sentido com 30 (trinta) dias de antecedência da data do vencimento e
apresente a documentação atualizada exigida pela SETRANSV na ocasião". The law sets the
minimum notice (:mod:`lavra_americana.fretamento.alvara`, deadline ``fretamento#art8``)
but no earliest day; a renewal decided four years before the vencimento would rest on
certificates long expired when the new period begins. Reading kept, written here beside
the rule:

- RENEWAL_WINDOW. "Na ocasião" is the occasion of the renewal, and the renewal extends
  the alvará from its vencimento ("por igual período"): the documentation is
  "atualizada" only when it is current for the period it opens. So the renewal is
  decided (the renewed alvará issued) no earlier than :data:`DECISION_WINDOW_DAYS` (90)
  days before the vencimento of the alvará renewed: the 30 days of notice the law
  demands plus 60 for the SETRANSV to check the documents, the span in which the
  certidões of art. 7º, III to V (issued for 30 to 180 days) are still those of "the
  occasion". An earlier decision is *invalid*: the company asks again within the
  window (it loses nothing: the renewal starts on the day after the vencimento anyway).
- CURRENT_ON_START. The documents with a validity must be valid on the first day of the
  new period (the day after the vencimento), not only on the day of the decision:
  the inspection of art. 7º, XI ("renovado a cada 12 meses", parameter
  ``fretamento.periodicidade_inspecao``) issued no more than 12 months before that day;
  the certidões of art. 7º, III to V, when the conference records the earliest of
  their validities (``/processo/conferencia_requerimento/validade_certidoes``), valid
  on that day. A document that lapses before the new period begins is *invalid*.

Each finding is a completeness item citing art. 8º with the inciso of art. 7º it
concerns; :func:`renewal_window_items` is called by the alvará's computation.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from lavra.checking.computations import item_at
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import StatutoryContext
from lavra.textutil import format_date
from lavra_americana.comum.periods import anniversary

__all__ = ["DECISION_WINDOW_DAYS", "IMPLEMENTED", "renewal_window_items"]

TERM = "fretamento#art8"
INSPECTION = "fretamento#art7_inc11"
CERTIFICATES = ("fretamento#art7_inc3", "fretamento#art7_inc4", "fretamento#art7_inc5")
INSPECTION_PARAMETER = "fretamento.periodicidade_inspecao"

IMPLEMENTED: tuple[str, ...] = (TERM,)
"""Citations this module applies (coverage): the "documentação atualizada" of art. 8º."""

#: RENEWAL_WINDOW (module docstring): the earliest day a renewal may be decided is this
#: many days before the vencimento of the alvará renewed.
DECISION_WINDOW_DAYS = 90


def renewal_window_items(
    data: Mapping[str, Any], on: date, expiry: date, context: StatutoryContext
) -> list[Item]:
    """RENEWAL_WINDOW and CURRENT_ON_START for a renewal decided on ``on`` of an alvará
    expiring on ``expiry`` (the new period starts the day after)."""
    items: list[Item] = []
    opens = expiry - timedelta(days=DECISION_WINDOW_DAYS)
    start = expiry + timedelta(days=1)
    if on < opens:
        items.append(item_at(
            "/processo/vencimento_alvara_anterior", Status.INVALID,
            f"A renovação não pode ser decidida em {format_date(on)}, mais de "
            f"{DECISION_WINDOW_DAYS} dias antes do vencimento do alvará renovado "
            f"({format_date(expiry)}): a documentação exigida deve estar atualizada na "
            "ocasião da renovação (art. 8º). A renovação pode ser decidida a partir de "
            f"{format_date(opens)}.",
            TERM,
        ))
    issued = maybe_date(pointers.get(data, "/inspecao_veicular/data_emissao"))
    if issued is not None:
        try:
            months = int(context.parameters.value(INSPECTION_PARAMETER, start).value)
        except LavraError as error:
            items.append(item_at("/inspecao_veicular/data_emissao", Status.MISSING,
                                 error.message, INSPECTION, TERM))
        else:
            lapses = anniversary(issued, months=months)
            if lapses < start:
                items.append(item_at(
                    "/inspecao_veicular/data_emissao", Status.INVALID,
                    f"O comprovante de inspeção veicular, emitido em {format_date(issued)}, "
                    f"vale até {format_date(lapses)} e não estará em vigor no início do "
                    f"novo período ({format_date(start)}): deve ser renovado a cada "
                    f"{months} meses (art. 7º, XI), e a renovação exige documentação "
                    "atualizada (art. 8º). Apresente nova inspeção.",
                    INSPECTION, TERM,
                ))
    field = "/processo/conferencia_requerimento/validade_certidoes"
    certified = maybe_date(pointers.get(data, field))
    if certified is not None and certified < start:
        items.append(item_at(
            field, Status.INVALID,
            f"As certidões do art. 7º, III a V, valem até {format_date(certified)} e não "
            f"estarão em vigor no início do novo período ({format_date(start)}): a "
            "renovação exige documentação atualizada (art. 8º). Apresente certidões "
            "válidas nessa data.",
            *CERTIFICATES, TERM,
        ))
    return items
