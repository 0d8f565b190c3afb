"""Earlier infractions, as both laws' repeat rules read them.

Rules take the earlier infractions as input: a sequence of :class:`PriorInfraction`
(date, citation of the provision infringed, subject, optional document number). The
registry will supply them; it must give only infractions that stand (autos not
cancelled nor annulled on appeal). Every rule is a pure function of its inputs and the
date of the infraction under judgement, and returns a frozen result with a pt-BR
explanation citing the fragments it applies.

Choices where the laws are silent (each one tested in ``tests/test_penalties.py``):

Common to both laws
    - Periods ("dentro do prazo de 6 meses", "período superior a 1 ano") count from
      date to date, and when the final month lacks the day, the last day of that month
      (Código Civil, art. 132, § 3º; Lei nº 9.784/1999, art. 66, § 3º): 31/08 + 6 months
      → 28/02 (29/02 in leap years); 29/02 + 1 year → 28/02. The period includes its
      final day ("expiram no dia de igual número do de início"), so an infraction
      exactly 6 months (fretamento) or exactly 1 year (escolar) after the earlier one
      is still within it. They are not moved to a business day: they are not deadlines
      for anybody to act but look-back periods, and infractions happen on any day.
    - An earlier infraction on the *same date* as the one judged is not a repeat: the
      records carry no time, so it cannot be said which came first, and in doubt the
      sanctioning rule is read in the offender's favour.
    - Earlier infractions of another law, of another subject (vehicle or holder), or
      dated after the one judged are ignored.

The rules of each law are in :mod:`lavra_americana.fretamento.penalties` (arts. 18 to 21
of Lei nº 4.419/2006) and :mod:`lavra_americana.transporte_escolar.penalties` (arts. 9º,
§ 2º, 21, 23 and 24 of Lei nº 4.515/2007). Implements no provision by itself.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from lavra.errors import InputError
from lavra.inputs.formats import unmask
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum.periods import anniversary

__all__ = [
    "IMPLEMENTED",
    "PriorInfraction",
    "check_infraction_day",
    "relevant_priors",
    "same_subject",
    "window_end",
]

IMPLEMENTED: tuple[str, ...] = ()
"""The records both laws' repeat rules read: no provision by itself."""


def same_subject(a: str, b: str) -> bool:
    """Same vehicle or holder: compared without spaces, dots, hyphens, slashes, case."""
    return unmask(a) == unmask(b)


@dataclass(frozen=True)
class PriorInfraction:
    """An earlier infraction that stands: its date, the provision, who committed it.

    ``subject`` is the vehicle's placa (fretamento) or the holder's identification
    (transporte escolar: CPF or alvará number, as the registry keeps it). ``document``
    is the number of the auto, cited in explanations when known.
    """

    date: dt.date
    citation: str
    subject: str
    document: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.date, dt.datetime) or not isinstance(self.date, dt.date):
            raise InputError(
                "Data de infração anterior inválida: informe dia, mês e ano.",
                field="/anteriores/data",
            )
        if not isinstance(self.citation, str) or "#" not in self.citation:
            raise InputError(
                f"Citação de infração anterior inválida: {self.citation!r} (use lei#dispositivo).",
                field="/anteriores/citacao",
            )
        if not isinstance(self.subject, str) or not self.subject.strip():
            raise InputError(
                "Informe o veículo ou o titular da infração anterior.", field="/anteriores/sujeito"
            )

    def describe(self) -> str:
        """``"ocorrida em 10/01/2026 (Auto de Infração AIF-X nº 0012/2026)"``: the auto
        with its series when the registry gave it (``"(Auto de Infração nº 12/2026)"``
        when only the bare number is known)."""
        text = f"ocorrida em {format_date(self.date)}"
        if not self.document:
            return text
        return f"{text} (Auto de Infração {format_act_number(self.document)})"


def check_infraction_day(on: object) -> dt.date:
    if isinstance(on, dt.datetime) or not isinstance(on, dt.date):
        raise InputError("Informe a data da infração (dia, mês e ano), sem horário.", field="/data")
    return on


def window_end(start: dt.date, months: int) -> dt.date:
    """Date-to-date end of a period of ``months`` (last day of month when lacking)."""
    return anniversary(start, months=months)


def relevant_priors(
    priors: Iterable[PriorInfraction], law_id: str, subject: str, on: dt.date
) -> list[PriorInfraction]:
    """Earlier (strictly) infractions of ``law_id`` by ``subject``, oldest first."""
    found = [
        p
        for p in priors
        if p.citation.partition("#")[0] == law_id
        and same_subject(p.subject, subject)
        and p.date < on
    ]
    return sorted(found, key=lambda p: (p.date, p.citation, p.document or ""))
