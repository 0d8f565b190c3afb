"""The ciência of the appealed act, from the registry: transporte escolar art. 26 and
fretamento art. 24.

The appeals that run from the party's knowledge — escolar art. 26 (10 days from the day
the offender learned of the penalty, to the Prefeito, art. 25) and fretamento art. 24
(the same 15 days of art. 23, from the ciência of the Secretário's decision, to the
Prefeito) — are counted from the ciência the registry holds when the appealed act is
there (found by its kind, or by its series: a cassação or a revogação appealed as a
decision, :func:`lavra_americana.comum.recurso_estado.appealed_form`): the ciência the
act records itself (``/ciencia/data``, signed on the spot), else the ciência recorded
afterwards on its entry (``lavra fato ciencia``; see :mod:`lavra.registry.facts`). A
ciência typed in the decision's data (``/ato_recorrido/data_ciencia``) that differs from
the registry's is *invalid*: the decision may not count the deadline from another day
than the one on record. With the act in the registry but no ciência on record, the typed
date is used (a ciência proved on paper and not yet recorded); with neither, a *missing*
item says to record it. An act that is not in the registry (issued before it, or on
paper) is judged on the typed date, as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from lavra.checking.computations import ComputeInput, clean_text
from lavra.checking.report import Item
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.textutil import format_date
from lavra_americana.comum.computing import data_of, invalid, missing
from lavra_americana.comum.recurso_estado import appealed_form

__all__ = ["IMPLEMENTED", "AppealedCiencia", "appealed_ciencia", "from_refusal"]

ACT_NUMBER = "/ato_recorrido/numero"
ACT_KIND = "/ato_recorrido/especie"
ACT_CIENCIA = "/ato_recorrido/data_ciencia"
OWN_CIENCIA = "/ciencia/data"

ESCOLAR_AUTO = "auto-infracao-escolar"
# hypothesis → kind of appealed act → the form of that act in the registry
APPEALED_FORMS: dict[str, dict[str, str]] = {
    "transporte-escolar#art25": {"auto_infracao": ESCOLAR_AUTO, "advertencia": ESCOLAR_AUTO},
    "transporte-escolar#art27": {"auto_infracao": ESCOLAR_AUTO, "advertencia": ESCOLAR_AUTO},
    "fretamento#art24": {"decisao": "decisao-recurso-secretario"},
    "transporte-escolar#art11": {"decisao": "decisao-indeferimento"},
    "lei-9784-1999#art56_par1": {"decisao": "decisao-revogacao-alvara"},
    "lei-9784-1999#art56": {"decisao": "decisao-revogacao-alvara"},
}
DEADLINES = {
    "transporte-escolar#art25": "transporte-escolar#art26",
    "transporte-escolar#art27": "transporte-escolar#art26",
    "fretamento#art24": "fretamento#art24",
    "transporte-escolar#art11": "transporte-escolar#art11",
    "lei-9784-1999#art56_par1": "lei-9784-1999#art59",
    "lei-9784-1999#art56": "lei-9784-1999#art59",
}

IMPLEMENTED: tuple[str, ...] = ()
"""The rules are escolar art. 26 and fretamento art. 24, implemented (and cited) by
:mod:`lavra_americana.comum.decisao_recurso`; this module finds the day they run from."""


SELECTION_PUBLISHED = "da publicação do resultado da escolha em"
SELECTION_REFUSAL = "da ciência da decisão que indeferiu a inscrição, em"


def from_refusal(text: str) -> str:
    """The words of art. 11's deadline row ("contado da publicação do resultado da
    escolha em …") said of the refused inscription, whose 5 days count from the ciência
    of the refusal (the reading in :mod:`lavra_americana.comum.indeferimento`)."""
    return text.replace(SELECTION_PUBLISHED, SELECTION_REFUSAL)


@dataclass(frozen=True)
class AppealedCiencia:
    """The ciência the appeal's deadline runs from, where it came from, and the items.

    ``on`` None when unknown; ``source`` the registry's wording ("ciência registrada no
    AIE-ESC nº 0004/2026: ...") or None when it is the typed date.
    """

    on: date | None
    source: str | None
    items: tuple[Item, ...] = ()


def appealed_ciencia(request: ComputeInput, hypothesis: str) -> AppealedCiencia:
    """The ciência of the appealed act for ``hypothesis`` (the module's doc)."""
    data = data_of(request)
    typed = maybe_date(pointers.get(data, ACT_CIENCIA))
    forms = APPEALED_FORMS.get(hypothesis)
    number = clean_text(pointers.get(data, ACT_NUMBER))
    kind = clean_text(pointers.get(data, ACT_KIND))
    form = None if forms is None or kind is None else forms.get(kind)
    if forms is not None and number is not None:  # the act's own series names its form
        form = appealed_form(hypothesis, number) or form
    if request.history is None or form is None or number is None:
        return AppealedCiencia(typed, None)
    record = request.history.document(form, number)
    if record is None:
        return AppealedCiencia(typed, None)
    printed = f"{record.series} nº {record.number}" if record.series else f"nº {record.number}"
    basis = DEADLINES[hypothesis]
    own = maybe_date(pointers.get(record.data, OWN_CIENCIA))
    fact = record.fact("ciencia")
    if own is not None:
        on, source = own, f"ciência dada no próprio ato {printed}, em {format_date(own)}"
    elif fact is not None:
        on = fact.on
        source = f"ciência registrada no registro do ato {printed}, em {format_date(fact.on)}"
        if fact.recorded_by:
            source += f" (registrada por {fact.recorded_by})"
    elif typed is not None:
        return AppealedCiencia(typed, None)
    else:
        return AppealedCiencia(None, None, (
            missing(
                "ato_recorrido.data_ciencia",
                ACT_CIENCIA,
                f"A ciência do ato recorrido {printed} não consta do registro: registre-a no "
                "registro do documento (data e meio: pessoal, aviso de recebimento ou edital), "
                "pois dela se conta o prazo do recurso.",
                basis,
            ),
        ))
    if typed is not None and typed != on:
        return AppealedCiencia(on, source, (
            invalid(
                "ato_recorrido.data_ciencia",
                ACT_CIENCIA,
                f"A data da ciência informada ({format_date(typed)}) difere da que consta do "
                f"registro: {source}. O prazo do recurso conta-se da ciência registrada; "
                "corrija a data (ou, se o registro estiver errado, revogue ali a ciência com "
                "o motivo e registre a correta).",
                basis,
            ),
        ))
    return AppealedCiencia(on, source)
