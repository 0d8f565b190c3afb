"""The decision on an appeal and the licensing state: fretamento arts. 23 and 24 (Lei nº
4.419/2006); transporte escolar arts. 25 and 27 (Lei nº 4.515/2007). Forms
``decisao-recurso-secretario`` and ``decisao-recurso-prefeito``.

- **The appealed act, from the registry** (:func:`appealed_items`). A decision reverses
  or keeps an act; it must cite the act as the registry holds it, not a typed copy. A
  number in one of lavra's own series must be an issued act of the registry, not
  cancelled, and of a kind the appeal of ``/recurso/hipotese`` lies against
  (:data:`APPEALABLE`); otherwise the decision cannot be issued (*invalid* item citing
  the appeal's article). A number outside lavra's series (an act on paper, from before
  lavra) is judged on the typed data, as before.
  The date typed for the appealed act (``/ato_recorrido/data``) must be the registry's
  (:func:`_date_items`).
- **What the decision does** (:func:`efeitos`). Granted in full ("provido"; in the
  reconsideração of escolar art. 27, "reconsiderada"), it reverses the effect of the
  appealed act: each licence that act ended returns to the status it had before, and
  the bar it imposed (fretamento art. 22, parágrafo único) ends on the day before the
  decision (:class:`lavra.registry.effects.Restore` with ``reverses``). Every decision,
  granted or not, is in the timeline of what the appealed act touched and of the
  appellant (:class:`lavra.registry.effects.Mention`).

Readings chosen where the law is silent:

- *Which acts each appeal lies against.* Art. 23 (to the Secretário, from the
  infraction): the auto, and the recolhimento of the alvará that art. 21, § 2º, joins to
  it. Art. 24 (to the Prefeito, "da decisão do Secretário"): the Secretário's decision
  on an appeal, and the cassação (art. 22), which the Secretário decides. Escolar arts.
  25 and 27 ("das penalidades"): the auto (fine, advertência) and the revogação (art.
  23, III) — a revogação that applied a penalty; the revogação by motivo fundamentado
  (art. 3º) is appealed under Lei nº 9.784/1999, arts. 56 and 59, to the Secretário who
  reconsiders it or forwards it to the Prefeito (:mod:`lavra_americana.comum.
  recurso_9784`, which tells the two apart by the ground the revogação records). Art. 11
  lies against the result of the selection, not an act of lavra.
- *A partly granted appeal keeps the state.* The form models it as a penalty reduced
  or replaced ("reconsiderada em parte"), which the determinações say; the licence
  stays as the appealed act left it, and the timeline records the decision. An appeal
  not known (untimely) or denied changes nothing either.
- *A decision reforming a restoring decision* (fretamento art. 24 only). Art. 24 gives
  the appeal "da decisão do Secretário" without naming who may bring it (art. 23 names
  the company), so the Prefeito may reform a Secretário's decision that granted the
  appeal of art. 23. A DEC-GP that grants the appeal against such a DEC-SETRANSV undoes
  what it undid: the alvará it gave back (after a recolhimento, art. 21, § 2º) returns
  to the status the DEC-SETRANSV found, and a bar it lifted runs again to its first last
  day; the timeline says "volta a … pelo DEC-GP …", and cancelling the DEC-GP undoes it
  (:mod:`lavra.registry.reversal`).
- *A decision granting the appeal against a decision that denied one* (fretamento art.
  24 over art. 23). The Secretário's decision that denied the appeal (or did not know
  it, or granted it only in part) kept the penalty of the act appealed; the Prefeito,
  granting the appeal "da decisão do Secretário", reforms it, and the reformed decision
  grants what the company asked under art. 23: the penalty is undone as a granted
  DEC-SETRANSV would have undone it (the alvará recolhido or cassado comes back, the
  bar ends the day before). The pack declares it: every decision that does not reverse
  its appealed act *upholds* it (:attr:`lavra.registry.effects.Mention.upholds`), and
  the registry follows a DEC-GP over such a decision down to the act it kept; the
  timeline says "restabelecido pelo DEC-GP …, que reformou o DEC-SETRANSV …", and
  cancelling the DEC-GP undoes it. The chain has no counterpart in transporte
  escolar: its appeal of art. 25 is "em única instância", and the reconsideração of art.
  27 is barred once that appeal is decided, while a penalty reconsidered leaves nothing
  for the appeal of art. 25 to lie against (:data:`APPEALABLE` lists no decision there).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import date
from functools import cache
from typing import Any

from lavra.checking.computations import ComputeInput, clean_text
from lavra.checking.report import Item
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.law.model import Law
from lavra.registry.effects import Act, Effect, EffectsOf, Mention, Restore
from lavra.registry.state import parse_printed
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, invalid
from lavra_americana.comum.estado import cited, party_at, processo, text_at
from lavra_americana.comum.guards import FORMS, bare_number

__all__ = ["APPEALABLE", "EFFECTS", "IMPLEMENTED", "appealed_form", "appealed_items",
           "efeitos"]

IMPLEMENTED: tuple[str, ...] = ()
"""The rules are fretamento arts. 23 and 24 and escolar arts. 25 and 27, implemented
(and cited) by :mod:`lavra_americana.comum.decisao_recurso`; this module reads the
appealed act from the registry and declares the decision's effect."""

ACT_NUMBER = "/ato_recorrido/numero"
ACT_DATE = "/ato_recorrido/data"
HYPOTHESIS = "/recurso/hipotese"
APPEALABLE: Mapping[str, tuple[str, ...]] = {
    "fretamento#art23": ("auto-infracao-fretamento", "recibo-recolhimento-alvara"),
    # art. 24: "da decisão do Secretário" — the decision on the art. 23 appeal, the
    # cassação and the refusal of a requerimento (comum/indeferimento.py)
    "fretamento#art24": ("decisao-recurso-secretario", "decisao-cassacao-fretamento",
                         "decisao-indeferimento"),
    # art. 11: "do ato de escolha" — the result of the selection and the refusal of the
    # inscription, the choice that leaves the candidate out (comum/indeferimento.py)
    "transporte-escolar#art11": ("edital-resultado-classificacao", "decisao-indeferimento"),
    "transporte-escolar#art25": ("auto-infracao-escolar", "decisao-revogacao-alvara"),
    "transporte-escolar#art27": ("auto-infracao-escolar", "decisao-revogacao-alvara"),
    # the revogação by motivo fundamentado (escolar art. 3º), the escolar refusal outside
    # the selection and the declaração de vacância (art. 13), under Lei nº 9.784/1999:
    # the Secretário's reconsideração and the Prefeito's decision (comum/recurso_9784.py)
    "lei-9784-1999#art56_par1": ("decisao-revogacao-alvara", "decisao-indeferimento",
                                 "declaracao-vacancia"),
    "lei-9784-1999#art56": ("decisao-revogacao-alvara", "decisao-indeferimento",
                            "declaracao-vacancia"),
}
"""The appeal (``/recurso/hipotese``) → the forms of the acts it lies against (module
doc: the reading)."""
GRANTED = "provido"


@cache
def _forms_by_series() -> dict[str, tuple[str, str]]:
    """Each of lavra's series → (form, its title), from the forms' ``formulario.json``."""
    found: dict[str, tuple[str, str]] = {}
    for spec_file in sorted(FORMS.glob("*/formulario.json")):
        try:
            spec = json.loads(spec_file.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(spec, dict) and isinstance(spec.get("serie"), str):
            found[spec["serie"].upper()] = (spec_file.parent.name, str(spec.get("titulo", "")))
    return found


def appealed_form(hypothesis: str, number: str) -> str | None:
    """The form of the act numbered ``number`` when its series is one of lavra's and the
    appeal of ``hypothesis`` lies against it (a cassação appealed to the Prefeito under
    fretamento art. 24; a revogação under escolar art. 25), else None."""
    parsed = parse_printed(number)
    known = None if parsed is None or parsed[0] is None else (
        _forms_by_series().get(parsed[0].upper()))
    return known[0] if known is not None and known[0] in APPEALABLE.get(hypothesis, ()) \
        else None


def appealed_items(request: ComputeInput, laws: Mapping[str, Law]) -> list[Item]:
    """*Invalid* when the appealed act, numbered in one of lavra's series, is not an
    issued act of the registry, or not one the appeal lies against (module doc)."""
    data = data_of(request)
    hypothesis = clean_text(pointers.get(data, HYPOTHESIS))
    number = clean_text(pointers.get(data, ACT_NUMBER))
    forms = None if hypothesis is None else APPEALABLE.get(hypothesis)
    parsed = None if number is None else parse_printed(number)
    if (request.history is None or hypothesis is None or number is None or forms is None
            or parsed is None or parsed[0] is None):
        return []  # no registry, an appeal not against an act of lavra, or no series
    known = _forms_by_series().get(parsed[0].upper())
    if known is None:
        return []  # a paper act, outside lavra's series: judged on the typed data
    form, title = known
    cited = short(laws, hypothesis)
    record = request.history.document(form, number)
    if record is None:
        return [invalid(
            "ato_recorrido.registro", ACT_NUMBER,
            f"O ato recorrido {number} não consta do registro: o número é da série "
            f"{parsed[0].upper()} do lavra e nenhum ato expedido ou importado o tem. A decisão "
            "do recurso cita o ato como o registro o guarda; confira o número "
            f"({cited}).", hypothesis)]
    printed = f"{record.series} nº {bare_number(record.number)}"
    if record.cancelled:
        return [invalid(
            "ato_recorrido.registro", ACT_NUMBER,
            f"O ato recorrido {printed} foi cancelado no registro"
            f"{': ' + record.cancel_reason if record.cancel_reason else ''}; não há o que "
            f"decidir em recurso contra ele ({cited}).", hypothesis)]
    if form not in forms:
        titles = {found: name for found, name in _forms_by_series().values()}
        allowed = " ou ".join(titles.get(f, f) for f in forms)
        return [invalid(
            "ato_recorrido.registro", ACT_NUMBER,
            f"O ato recorrido {printed} ({title}) não é ato de que caiba este recurso "
            f"({cited}): ele cabe contra {allowed}.", hypothesis)]
    return _date_items(data, hypothesis, record.reference_date, printed, cited)


def _date_items(data: Mapping[str, Any], hypothesis: str, held: date, printed: str,
                cited: str) -> list[Item]:
    """The appealed act's date is the registry's (issue 22, § 3): for an auto, the day of
    the infraction from which art. 23 (fretamento) and art. 26 (escolar) count the appeal;
    for a decision, the day it was decided. A typed date that differs is *invalid*,
    naming both; it is not replaced in silence, since the decision's count of the appeal
    period was made on it. Under escolar art. 11 the date typed is the publication of the
    result, a fact the act itself does not hold: not compared."""
    typed = maybe_date(pointers.get(data, ACT_DATE))
    if typed is None or typed == held or hypothesis == "transporte-escolar#art11":
        return []
    return [invalid(
        "ato_recorrido.data_registro", ACT_DATE,
        f"A data do ato recorrido informada ({format_date(typed)}) difere da registrada no "
        f"{printed} ({format_date(held)}): o prazo do recurso conta-se da data do registro; "
        f"corrija a data informada ({cited}).", hypothesis)]


def efeitos(act: Act) -> Sequence[Effect]:
    """fretamento#art24, transporte-escolar#art25: a granted appeal reverses the effect
    of the appealed act (and, against a decision that granted one, re-applies what that
    decision undid); every decision is in its timeline (module doc)."""
    target = text_at(act.data, ACT_NUMBER)
    parsed = None if target is None else parse_printed(target)
    if target is None or parsed is None or parsed[0] is None:
        return [*processo(act)]
    appealed = f"{parsed[0].upper()} nº {parsed[1]:04d}/{parsed[2]}"
    hypothesis = text_at(act.data, HYPOTHESIS) or ""
    result = act.computed.get("resultado")
    label = str(act.computed.get("resultado_rotulo") or "Recurso decidido")
    granted = result == GRANTED and act.computed.get("conhecido") is not False
    effects: list[Effect] = [*processo(act), Mention(
        appealed, f"Recurso contra o {appealed} decidido pelo {act.printed}: "
        f"{label[:1].lower()}{label[1:]}.", hypothesis,
        party=party_at(act.data, "/recorrente"),
        upholds=not granted),  # kept: a higher instance may still undo it (module doc)
        *cited(act, hypothesis, appealed)]  # it rests on the appealed act
    if granted:
        effects.append(Restore(appealed, hypothesis, reverses=True))
    return effects


EFFECTS: Mapping[str, EffectsOf] = {
    "decisao-recurso-secretario": efeitos,
    "decisao-recurso-prefeito": efeitos,
}
