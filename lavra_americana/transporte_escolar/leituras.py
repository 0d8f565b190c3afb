"""The licences the school run's checks ask the licensing state, read in one statement.

The alvará's check (:func:`lavra_americana.transporte_escolar.alvara.
alvara_transporte_escolar`) asks the state for the alvará it renews (by its number,
:func:`~lavra_americana.comum.guards.standing_items` through :func:`~lavra_americana.
comum.validity.act_at`), for the licences its vehicle holds and for those its titular
holds, of every kind (:func:`~lavra_americana.comum.guards.held_items`: one licence per
vehicle, art. 3º, and per person, art. 14). The selo's check
(:func:`lavra_americana.transporte_escolar.selo.selo_identificacao`) asks for the alvará
it corresponds to. Each was a statement of its own: :func:`answered` gives the
computation a history that reads them at once (:func:`lavra.checking.computations.
licence_answers`, :mod:`lavra.registry.licence_reads`), each asked exactly as the check
asks it (the same cleaned number, kind, plate and CPF), so that each lookup has the
answer it read on its own; any other is read as before. The selo's read also takes its
vehicle's licences: with them the registry keeps the RENAVAM of the plate's vehicle,
and the identity check of the draft's vehicle needs no statement of its own when it is
the draft's (:func:`lavra.registry.identities.effect_identity_conflicts`). Only where
the state follows the kind asked; elsewhere the history is the request's. Implements no
provision: the checks cite theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import wraps

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    History,
    clean_text,
    licence_answers,
    licensing,
)
from lavra.inputs import pointers
from lavra.registry.licence_reads import LicenceQuestions
from lavra_americana.comum.computing import data_of

__all__ = ["ALVARA_FORM", "IMPLEMENTED", "Questions", "alvara_questions", "answered",
           "selo_questions"]

ALVARA_FORM = "alvara-transporte-escolar"

IMPLEMENTED: tuple[str, ...] = ()
"""None of its own (module doc)."""


Questions = Callable[[ComputeInput], tuple[str, LicenceQuestions]]
"""What a check asks (:class:`LicenceQuestions`), and the kind the state must follow."""


def alvara_questions(request: ComputeInput) -> tuple[str, LicenceQuestions]:
    """The alvará's: the one renewed (a renewal), its vehicle's, its titular's (every kind)."""
    data = data_of(request)
    renewal = pointers.get(data, "/modalidade") == "renovacao"
    return request.form_id, LicenceQuestions(
        number=clean_text(pointers.get(data, "/alvara_anterior/numero")) if renewal else None,
        kind=request.form_id, holder=clean_text(pointers.get(data, "/titular/cpf")),
        placa=clean_text(pointers.get(data, "/veiculo/placa")))


def selo_questions(request: ComputeInput) -> tuple[str, LicenceQuestions]:
    """The selo's: the alvará it corresponds to, and its vehicle's licences."""
    data = data_of(request)
    return ALVARA_FORM, LicenceQuestions(
        number=clean_text(pointers.get(data, "/alvara/numero")), kind=ALVARA_FORM,
        placa=clean_text(pointers.get(data, "/veiculo/placa")))


def _history(request: ComputeInput, questions: Questions) -> History | None:
    state = licensing(request.history)
    kind, asked = questions(request)
    if state is None or not state.tracks(kind):
        return request.history
    return licence_answers(request.history, asked)


def answered(questions: Questions) -> Callable[[Computation], Computation]:
    """A computation given the history that reads ``questions`` at once (module doc)."""
    def wrapped(computation: Computation) -> Computation:
        @wraps(computation)
        def checked(request: ComputeInput) -> Computed:
            return computation(replace(request, history=_history(request, questions)))
        return checked
    return wrapped
