"""The Prefeito's decision on a recurso the Secretário forwarded cites the decision that
forwarded it (Lei nº 9.784/1999, art. 56, § 1º: "se não a reconsiderar no prazo de
cinco dias, o encaminhará à autoridade superior").

Form ``decisao-recurso-prefeito``, ``/encaminhamento`` (number with series, date):
required by the schema when ``/recurso/hipotese`` is ``lei-9784-1999#art56``; absent in
the municipal appeals to the Prefeito (fretamento art. 24, escolar arts. 11 and 25),
which reach him directly, with no forwarding act. «Preparar ato» carries it from the
registry (:func:`lavra_americana.comum.recurso_online.decisao_prefeito_revogacao_motivo`).

Reading chosen where no law speaks (a rule of the registry, as
:mod:`lavra_americana.comum.protocolo_registrado`'s): a number typed in lavra's series
of the Secretário's decisions (DEC-SETRANSV) must be in the registry, not cancelled,
be a decision that kept the act and forwarded the recurso (result "não provido" or
"parcialmente provido" in the reconsideração of art. 56, § 1º), on the same recurso
(its protocol) and against the same act, and bear the date typed. A number of another
of lavra's series is refused (the forwarding act is the Secretário's decision). A
number without series (a decision from before lavra, on paper) is printed as typed:
lavra holds no register of it. Without a registry nothing is looked up.
"""

from __future__ import annotations

from lavra.checking.computations import Computed, ComputeInput, clean_text
from lavra.checking.report import Item
from lavra.inputs import pointers
from lavra.textutil import act_series, format_act_number, format_date
from lavra_americana.comum.computing import data_of, date_at, invalid
from lavra_americana.comum.recurso_9784 import RECONSIDERED
from lavra_americana.comum.recurso_online import forwarded_to_prefeito

__all__ = ["COMPUTATIONS", "IMPLEMENTED", "POINTER", "SERIES", "forwarding_items"]

IMPLEMENTED = ("lei-9784-1999#art56_par1",)

SERIES = "DEC-SETRANSV"
"""The series of the Secretário's decisions (form ``decisao-recurso-secretario``)."""

FORM = "decisao-recurso-secretario"
POINTER = "/encaminhamento/numero"
DATE = "/encaminhamento/data"
REQUIREMENT = "encaminhamento.registro"


def _same(a: object, b: object) -> bool:
    left, right = clean_text(a), clean_text(b)
    return (left is not None and right is not None
            and format_act_number(left) == format_act_number(right))


def forwarding_items(request: ComputeInput) -> list[Item]:
    """*Invalid* when the forwarding decision typed is not, in the registry, the
    Secretário's decision that forwarded this recurso (module doc)."""
    data = data_of(request)
    typed = clean_text(pointers.get(data, POINTER))
    if typed is None:
        return []
    series = act_series(typed)
    if series is None:
        return []  # a decision from before lavra: printed as typed (module doc)
    if series != SERIES:
        return [invalid(REQUIREMENT, POINTER, (
            f"«{typed}» não é decisão do Secretário: o recurso chega ao Prefeito pela "
            f"decisão do Secretário que não o reconsiderou ({SERIES} nº 0001/2026)."),
            RECONSIDERED)]
    if request.history is None:
        return []
    record = request.history.document(FORM, typed)
    if record is None:
        return [invalid(REQUIREMENT, POINTER, (
            f"A decisão «{typed}» não consta do registro. Informe o número da decisão do "
            "Secretário que encaminhou o recurso, como impresso."), RECONSIDERED)]
    if record.cancelled:
        return [invalid(REQUIREMENT, POINTER, (
            f"A decisão {record.printed} foi cancelada: não encaminha o recurso."),
            RECONSIDERED)]
    if not forwarded_to_prefeito(FORM, record.data):
        return [invalid(REQUIREMENT, POINTER, (
            f"A decisão {record.printed} não encaminhou o recurso ao Prefeito: só o "
            "encaminha a decisão que não reconsidera o ato recorrido, no todo ou em "
            "parte."), RECONSIDERED)]
    if not (_same(pointers.get(record.data, "/recurso/numero_protocolo"),
                  pointers.get(data, "/recurso/numero_protocolo"))
            and _same(pointers.get(record.data, "/ato_recorrido/numero"),
                      pointers.get(data, "/ato_recorrido/numero"))):
        return [invalid(REQUIREMENT, POINTER, (
            f"A decisão {record.printed} encaminhou outro recurso (protocolo "
            f"{pointers.get(record.data, '/recurso/numero_protocolo')}, contra "
            f"{pointers.get(record.data, '/ato_recorrido/numero')}), não o que esta "
            "decisão julga."), RECONSIDERED)]
    typed_on = date_at(data, DATE)
    if typed_on is not None and typed_on != record.reference_date:
        return [invalid("encaminhamento.data", DATE, (
            f"A decisão {record.printed} é de {format_date(record.reference_date)}, "
            f"conforme o registro, não de {format_date(typed_on)}."), RECONSIDERED)]
    return []


def encaminhamento(request: ComputeInput) -> Computed:
    """The computation ``decisao-recurso-prefeito`` names (module doc)."""
    return Computed({}, tuple(forwarding_items(request)))


COMPUTATIONS = {"decisao_encaminhamento": encaminhamento}
