"""The extraordinary inspection of a vehicle, Lei nº 4.419/2006 (fretamento), art. 13:
"A qualquer tempo, poderá a SETRANSV realizar inspeções e vistorias extraordinárias
nos veículos, determinando sua imediata retirada do serviço até a regularização da
situação, caso não sejam atendidas as exigências quanto à segurança, higiene e
condições de funcionamento."

``termo_vistoria_extraordinaria_fretamento`` (form
``termo-vistoria-extraordinaria-fretamento``, series TVE-FRET, signed by the agent who
inspected) — one termo, two occasions (``/finalidade``):

- ``extraordinaria``: the vistoria itself. Each of the three requirements of art. 13
  (segurança, higiene, condições de funcionamento) is recorded as met or not, with
  what was found (*missing* when a failed one says nothing). One failed → the act
  orders the vehicle's immediate withdrawal from service "até a regularização da
  situação"; the licensing state suspends the alvará under which it serves (ALV-FRET
  or ALV-PART): it stays the company's and keeps the vehicle's place, but may not be
  used (:mod:`lavra_americana.fretamento.estado`). All met → the vehicle stays in
  service and the state is unchanged.
- ``regularizacao``: the new vistoria after the company regularised the vehicle. It
  names the termo that withdrew the vehicle (``/termo_anterior/numero``), which must
  be in the registry, not cancelled, of the same vehicle and alvará, and have ordered
  the withdrawal; the alvará must be suspended *by that termo*. All met → the vehicle
  is released and the alvará in force again; a requirement still failed → it stays
  withdrawn, and the termo says so.

Guards from the state. The alvará is read in the registry (:func:`lavra_americana.
comum.validity.parent_act_items`): lavra's own number the registry lacks, one ended
(cassado, recolhido...) or already suspended, one of another vehicle, or not in force
on the day of the vistoria is *invalid* for a withdrawal; without the registry the
withdrawal is *missing* (the state could not record it). A paper alvará from before
lavra is printed as typed.

Reading — prior notice. None. Art. 13 orders the withdrawal "imediata", and the
requirements it protects are the passengers' safety and health; Lei nº 9.784/1999, art.
45 (applied by the Município in the absence of its own procedure law), lets the
administration, "em caso de risco iminente", take precautionary measures "motivadamente"
and "sem a prévia manifestação do interessado". So the termo is the motivated
precautionary act: it states each requirement not met, it is not a penalty (no fine,
no cassação; those follow arts. 14 to 22 on their own procedure), and it lasts only
until the regularisation the law names.

Reading — the appeal. Art. 13 gives none of its own. The law's appeal against the
acts of the inspection is art. 23 (to the Secretário, 15 days from the infraction) and
then art. 24 (to the Prefeito, same period, from the ciência of the decision). As the
termo de impedimento did for the art. 13 ground it gave over to this termo
(:mod:`lavra_americana.fretamento.impedimento`), art. 23 is applied by analogy rather
than Lei nº 9.784, art. 59 (10 days from the ciência): the same authority, the longer
period, counted from the vistoria the termo records (a date known at signing, so the
last day is printed). The appeal has no
suspensive effect on the withdrawal: the law makes it "imediata".

No future facts: the vistoria's date and hour, and the ciência given on the spot, are
not after the moment of issue (:func:`lavra_americana.comum.computing.
on_the_spot_items`); the earlier termo is not after this one.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    History,
    clean_text,
    in_legal_order,
    item_at,
    licensing,
    period_words,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.law.model import Law
from lavra.law.statutory import StatutoryContext
from lavra.registry.effects import LicenceStatus
from lavra.textutil import format_act_number, format_date
from lavra_americana.comum.citing import article_of_law, short
from lavra_americana.comum.computing import (
    after_issue,
    data_of,
    date_at,
    deadline_values,
    on_the_spot_items,
)
from lavra_americana.comum.guards import series_of
from lavra_americana.comum.orgao import secretario
from lavra_americana.comum.sources import rule_sources
from lavra_americana.comum.validity import parent_act_items, same_plate

__all__ = ["COMPUTATIONS", "FORM", "IMPLEMENTED", "termo_vistoria_extraordinaria_fretamento"]

LAW = "fretamento"
FORM = "termo-vistoria-extraordinaria-fretamento"
INSPECTION = f"{LAW}#art13"
FIRST_APPEAL = f"{LAW}#art23"
SECOND_APPEAL = f"{LAW}#art24"
POWER = f"{LAW}#art28"
PRECAUTION = "lei-9784-1999#art45"

ALVARA_FORMS: Mapping[str, tuple[str, str]] = {
    "alvara-fretamento": ("alvara-fretamento", "Alvará de Licença de Circulação"),
    "alvara-servico-particular-fretamento": (
        "alvara-servico-particular-fretamento",
        "Alvará de Licença de Circulação (serviço particular)",
    ),
}
"""The alvarás under which a vehicle serves: form, name."""

REQUIREMENTS: tuple[tuple[str, str], ...] = (
    ("seguranca", "segurança"),
    ("higiene", "higiene"),
    ("funcionamento", "condições de funcionamento"),
)
"""The three requirements of art. 13, in its order: key in ``/exigencias``, name."""

PURPOSES = ("extraordinaria", "regularizacao")

# (schemas/termo-vistoria-extraordinaria-fretamento.json)
DAY = "/ocorrencia/data"
ALVARA_NUMBER = "/alvara/numero"
PLATE = "/veiculo/placa"
EARLIER = "/termo_anterior/numero"

IMPLEMENTED: tuple[str, ...] = (INSPECTION,)
"""Citations of this law whose rule this module applies (coverage): the extraordinary
vistoria and the withdrawal until regularised (art. 13). It is taken as a precautionary
measure without prior notice (Lei nº 9.784/1999, art. 45), which its items cite; that
article is the federal law's, not this folder's to claim."""


def _pending(reason: str) -> dict[str, Any]:
    return {"pendente": reason, "exigencias": [], "retirada": False, "liberacao": False,
            "fundamento": []}


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} e {names[-1]}"


def _requirements(data: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[Item]]:
    """Each requirement as recorded; *missing* when one is not recorded, or failed
    without saying what was found."""
    rows: list[dict[str, Any]] = []
    items: list[Item] = []
    for key, name in REQUIREMENTS:
        met = pointers.get(data, f"/exigencias/{key}/atendida")
        found = clean_text(pointers.get(data, f"/exigencias/{key}/constatacao"))
        if not isinstance(met, bool):
            items.append(item_at(
                f"/exigencias/{key}/atendida", Status.MISSING,
                f"Informe se foi atendida a exigência quanto à {name} (art. 13).", INSPECTION))
            continue
        if not met and found is None:
            items.append(item_at(
                f"/exigencias/{key}/constatacao", Status.MISSING,
                f"A exigência quanto à {name} não foi atendida: descreva o que se constatou. "
                "A retirada do veículo é medida motivada (art. 13; Lei nº 9.784/1999, art. "
                "45).", INSPECTION))
        rows.append({"nome": name, "atendida": met, "constatacao": found})
    return rows, items


def _alvara_form(number: str | None, data: Mapping[str, Any]) -> str:
    """The alvará's form: by its series when it is lavra's, else as the data say."""
    typed = data.get("alvara") if isinstance(data.get("alvara"), Mapping) else {}
    if number is not None:
        for form in ALVARA_FORMS:
            series = series_of(form)
            if series and number.upper().lstrip().startswith(series.upper()):
                return form
    kind = typed.get("tipo") if isinstance(typed, Mapping) else None
    return kind if isinstance(kind, str) and kind in ALVARA_FORMS else "alvara-fretamento"


def _alvara(
    request: ComputeInput, data: Mapping[str, Any], on: date, laws: Mapping[str, Law],
    *, withdrawal: bool,
) -> tuple[dict[str, Any], list[Item]]:
    """The alvará under which the vehicle serves, as the registry holds it."""
    number = clean_text(pointers.get(data, ALVARA_NUMBER))
    form = _alvara_form(number, data)
    what = ALVARA_FORMS[form][1]
    values: dict[str, Any] = {"numero": number and format_act_number(number), "nome": what,
                              "no_registro": None}
    if number is None:
        return values, []
    if not withdrawal:  # checked against the earlier termo and the state instead
        found = None if request.history is None else request.history.document(form, number)
        if found is not None:
            values.update(numero=found.printed, no_registro=True)
        return values, []
    record, items = parent_act_items(
        request.history, form, number, None, on, what, (INSPECTION,),
        number_field=ALVARA_NUMBER, until_field=ALVARA_NUMBER,
        plate=pointers.get(data, PLATE),
        consequence="a retirada do veículo do serviço não pode ser registrada na situação "
        "do alvará", holder=pointers.get(data, "/empresa/cnpj"), holder_field="/empresa/cnpj",
        laws=laws,
    )
    if record is not None:
        values.update(numero=record.printed, no_registro=True)
    elif request.history is not None:
        values["no_registro"] = False
    return values, items


def _earlier(
    history: History | None, data: Mapping[str, Any], on: date, alvara: Mapping[str, Any],
    laws: Mapping[str, Law],
) -> tuple[str | None, list[Item]]:
    """The termo that withdrew the vehicle, and the alvará suspended by it."""
    typed = clean_text(pointers.get(data, EARLIER))
    if typed is None:
        return None, [item_at(
            EARLIER, Status.MISSING,
            "Informe o termo de vistoria extraordinária que retirou o veículo do serviço: a "
            "liberação só se dá com a regularização da situação que ele constatou (art. 13).",
            INSPECTION)]
    found = None if history is None else history.document(FORM, typed)
    if found is None:
        return typed, [item_at(
            EARLIER, Status.MISSING,
            f"O Termo de Vistoria Extraordinária {typed} não consta do registro: sem conferir "
            "no registro que ele retirou este veículo do serviço, a liberação não pode ser "
            "registrada (art. 13).", INSPECTION)]
    label = f"O Termo de Vistoria Extraordinária {found.printed}"
    items: list[Item] = []
    earlier = found.data
    failed = [k for k, _ in REQUIREMENTS
              if pointers.get(earlier, f"/exigencias/{k}/atendida") is False]
    if found.cancelled:
        items.append(item_at(EARLIER, Status.INVALID, f"{label} foi cancelado.", INSPECTION))
    elif earlier.get("finalidade") != "extraordinaria" or not failed:
        items.append(item_at(
            EARLIER, Status.INVALID,
            f"{label} não determinou a retirada do veículo do serviço: não há o que liberar "
            "(art. 13).", INSPECTION))
    if same_plate(pointers.get(earlier, PLATE), pointers.get(data, PLATE)) is False:
        items.append(item_at(
            EARLIER, Status.INVALID,
            f"{label} é do veículo de placa {pointers.get(earlier, PLATE)}, não deste.",
            INSPECTION))
    if found.reference_date > on:
        items.append(item_at(
            EARLIER, Status.INVALID,
            f"{label} é de {format_date(found.reference_date)}, posterior a esta vistoria "
            f"({format_date(on)}).", INSPECTION))
    items.extend(_suspended_by(history, alvara, found.printed, laws))
    return found.printed, items


def _suspended_by(
    history: History | None, alvara: Mapping[str, Any], termo: str, laws: Mapping[str, Law],
) -> list[Item]:
    """*Invalid* unless the state holds the alvará suspended by ``termo``."""
    state = licensing(history)
    number = alvara.get("numero")
    if state is None or not isinstance(number, str):
        return []
    view = state.licence_status(number)
    if view is None:
        return []  # a paper alvará: the state holds no status for it
    if view.status == LicenceStatus.SUSPENDED and view.status_act == termo:
        return []
    return [item_at(
        ALVARA_NUMBER, Status.INVALID,
        f"O {alvara.get('nome')} {view.printed} não está suspenso pelo {termo}: "
        f"{view.describe(view.status_since or view.valid_from)}. A liberação só alcança o "
        f"alvará que aquele termo suspendeu ({short(laws, INSPECTION)}).", INSPECTION)]


def _appeal(
    on: date, context: StatutoryContext, secretary: str
) -> tuple[dict[str, Any], list[Item]]:
    """Art. 23 by analogy, from the vistoria; art. 24 after it (module doc)."""
    laws = context.laws
    found, items = deadline_values(FIRST_APPEAL, on, context, DAY)
    length = (
        "{} {}".format(*period_words(found["prazo"], found["unidade"]))
        if found is not None and isinstance(found["prazo"], int)
        else "do art. 23,"
    )
    rule = (
        f"Cabe recurso ao {secretary} "
        f"({short(laws, FIRST_APPEAL)}, aplicado por analogia, à falta de recurso próprio "
        f"no {article_of_law(laws, INSPECTION)}), no prazo {'de ' if found else ''}{length} "
        "da data da vistoria"
    )
    second = (
        "Da decisão do Secretário cabe recurso ao Prefeito Municipal, no mesmo prazo, "
        f"contado da ciência da decisão ({short(laws, SECOND_APPEAL)}). O recurso não "
        "suspende a retirada, que a lei quer imediata."
    )
    if found is None:
        return {"regra": f"{rule}; o último dia está pendente de cálculo.",
                "segunda_instancia": second, "ultimo_dia": None}, items
    return {
        "regra": f"{rule}: o prazo encerra-se em {format_date(found['ultimo_dia'])}.",
        "segunda_instancia": second,
        "ultimo_dia": found["ultimo_dia"],
        "prorrogado": found["prorrogado"],
        "contagem": found["contagem"],
    }, items


def termo_vistoria_extraordinaria_fretamento(request: ComputeInput) -> Computed:
    """The vistoria of art. 13: its result, the withdrawal or the release.

    ``values``: ``finalidade``, ``exigencias`` (``nome``, ``atendida``, ``constatacao``),
    ``resultado`` (pt-BR sentence), ``retirada`` / ``liberacao`` (what the state records),
    ``alvara`` (``numero`` as the registry prints it, ``nome``, ``no_registro``),
    ``termo_anterior``, ``medida`` (the precautionary reading), ``recurso``,
    ``fundamento``.
    """
    data = data_of(request)
    on = date_at(data, DAY)
    if on is None:
        return Computed(_pending("Informe a data da vistoria."))
    purpose = data.get("finalidade")
    if purpose not in PURPOSES:
        return Computed(_pending("Informe a finalidade da vistoria (extraordinária ou "
                                 "regularização)."))
    context, _ = rule_sources(request, request.example_values)
    laws = context.laws
    rows, items = _requirements(data)
    complete = len(rows) == len(REQUIREMENTS)
    failed = [row["nome"] for row in rows if not row["atendida"]]
    withdrawal = purpose == "extraordinaria" and bool(failed)
    alvara, found = _alvara(request, data, on, laws, withdrawal=withdrawal)
    items.extend(found)
    earlier = None
    if purpose == "regularizacao":
        earlier, found = _earlier(request.history, data, on, alvara, laws)
        items.extend(found)
    release = purpose == "regularizacao" and complete and not failed
    art13 = short(laws, INSPECTION)
    if not complete:
        result = "Resultado pendente: informe cada exigência do art. 13."
    elif withdrawal:
        result = (
            f"Não foram atendidas as exigências quanto à {_joined(failed)}: determina-se a "
            "imediata retirada do veículo do serviço até a regularização da situação "
            f"({art13}). Enquanto retirado, o veículo não pode ser utilizado no serviço sob o "
            f"{alvara['nome']}{' ' + alvara['numero'] if alvara['numero'] else ''}, que fica "
            "suspenso; a liberação depende de nova vistoria que constate a regularização."
        )
    elif purpose == "extraordinaria":
        result = (f"Atendidas as exigências quanto à segurança, higiene e condições de "
                  f"funcionamento ({art13}): o veículo permanece em serviço.")
    elif release:
        result = (
            f"Regularizada a situação constatada no {earlier}, atendidas as exigências quanto "
            f"à segurança, higiene e condições de funcionamento, o veículo é liberado e volta "
            f"ao serviço; o {alvara['nome']}"
            f"{' ' + alvara['numero'] if alvara['numero'] else ''} volta a vigorar ({art13})."
        )
    else:
        result = (
            f"Ainda não atendidas as exigências quanto à {_joined(failed)}: o veículo "
            f"permanece retirado do serviço, nos termos do {earlier}, até a regularização da "
            f"situação ({art13})."
        )
    items.extend(after_issue(on, request.issued_on, DAY, "data da vistoria", INSPECTION))
    items.extend(on_the_spot_items(request, "data e hora da vistoria", INSPECTION))
    ciencia = date_at(data, "/ciencia/data")
    if ciencia is not None and ciencia < on:
        items.append(item_at("/ciencia/data", Status.INVALID,
                             f"A data da ciência ({format_date(ciencia)}) é anterior à da "
                             f"vistoria ({format_date(on)}).", INSPECTION))
    appeal, found = _appeal(on, context, secretario(request))
    items.extend(found)
    measure = (
        "A retirada é medida acautelatória, determinada de imediato e sem prévia "
        f"manifestação da empresa ou entidade ({art13}; {short(laws, PRECAUTION)}), "
        "motivada pelas exigências não atendidas acima; não é penalidade e dura até a "
        "regularização da situação."
    ) if withdrawal else None
    values = {
        "finalidade": purpose,
        "exigencias": rows,
        "resultado": result,
        "retirada": withdrawal and complete,
        "liberacao": release,
        "alvara": alvara,
        "termo_anterior": earlier,
        "medida": measure,
        "recurso": appeal,
        "fundamento": [
            *in_legal_order([INSPECTION, POWER, FIRST_APPEAL, SECOND_APPEAL], laws),
            *([PRECAUTION] if withdrawal else []),
        ],
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "termo_vistoria_extraordinaria_fretamento": termo_vistoria_extraordinaria_fretamento,
}
"""The computation of this module a form may name under ``"calculos"``."""
