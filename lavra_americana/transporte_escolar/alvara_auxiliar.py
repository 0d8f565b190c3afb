"""The alvará of the auxiliary driver, of Lei nº 4.515/2007 (transporte escolar): art. 9º.

Art. 9º: the school driver exercises his functions personally "ou, por no máximo 1 (um)
condutor auxiliar devidamente inscrito no Cadastro de Atividades do Município, para o
qual também será expedido alvará constando esta condição". The auxiliary's alvará is an
act of its own, not a line of the titular's: it names the auxiliary *as auxiliary*, the
titular and the vehicle he must drive (§ 3º), and says which conduct revokes it (§ 2º).

``alvara_condutor_auxiliar`` — its computation
    Requirements (§ 1º): art. 7º except IV and VII, on the date of issue, by the same
        rules as the inscription as auxiliary
        (:func:`lavra_americana.transporte_escolar.requerimentos.requerimento_inscricao_escolar`
        with ``funcao`` ``auxiliar``). § 1º waives IV and VII and nothing else: art. 7º,
        IX (the Edital's further demands on the proof of I to VIII) is asked of the
        auxiliary too (issue 23, class 4: it used to be waived, "por não haver processo
        seletivo", which no provision says). Reading kept: the auxiliary proves the
        incisos as the Edital de Chamamento in force requires (art. 10, parágrafo
        único: the edital states "a documentação a ser apresentada"), named by its
        number (``/edital``). The entry in the Cadastro de Atividades (caput) is required
        by the schema.
    Validity. The law gives the auxiliary's alvará no term of its own; it exists only
        because the titular's alvará does ("também será expedido"), and the auxiliary
        may only drive the titular's vehicle (§ 3º). It therefore runs from the date of
        issue to the titular's alvará's vencimento, and never beyond the limits of every
        alvará of this law (art. 3º: at most 12 months; art. 13: the annual alvará,
        to 31 December, :func:`lavra_americana.transporte_escolar.alvara.validity`). The
        document says which limit set the date. A titular's alvará already expired on
        the date of issue is *invalid*: there is nothing to attach the auxiliary to.
    At most one auxiliary (caput). The registry is asked for the alvarás of auxiliary
        that stand (not cancelled) for the same vehicle — the titular's, § 3º — issued in
        the year before the date of issue; one still in force on that date (the titular's
        alvará it rests on not yet expired) is *invalid*: another auxiliary, or the same
        one twice. Without a registry (a draft) the history is empty.
    Fee: art. 16 institutes fees for the "Alvará para exploração de serviços de
        Transporte Escolar" (expedição, renovação, transferência); none for the
        auxiliary's alvará. No fee is charged nor printed: a tax needs a law that
        institutes it, and the doubt is not resolved against the citizen.
    A date of issue after the day the alvará is actually issued is *invalid*.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date, timedelta
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    item_at,
    licensing,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.reading import maybe_date
from lavra.registry.effects import LicenceStatus
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of, issue_items, licence_pending
from lavra_americana.comum.guards import standing_items
from lavra_americana.comum.sources import statutory_context
from lavra_americana.transporte_escolar.alvara import VALIDITY_PARAMETER, validity
from lavra_americana.transporte_escolar.requerimentos import requerimento_inscricao_escolar

__all__ = [
    "COMPUTATIONS",
    "FORM",
    "IMPLEMENTED",
    "alvara_condutor_auxiliar",
]

SCHOOL = "transporte-escolar"
AUXILIARY = f"{SCHOOL}#art9"
REQUIREMENTS = f"{SCHOOL}#art9_par1"
SAME_VEHICLE = f"{SCHOOL}#art9_par3"
VALIDITY = f"{SCHOOL}#art3"
ANNUAL = f"{SCHOOL}#art13"
FORM = "alvara-condutor-auxiliar"

# The incisos of art. 7º the auxiliary is exempt from, reported at fields of their own
# (this form's /veiculo is the titular's vehicle, § 3º).
_EXEMPT_FIELDS = {"/veiculo": "/auxiliar/veiculo_proprio"}

IMPLEMENTED: tuple[str, ...] = (AUXILIARY, REQUIREMENTS, SAME_VEHICLE)
"""Citations this computation applies (coverage): the auxiliary's own alvará (art.
9º), his requirements (§ 1º) and the titular's vehicle (§ 3º)."""


def _requirement_items(
    request: ComputeInput, data: Mapping[str, Any]
) -> tuple[list[Item], str]:
    """Art. 7º except IV and VII (art. 9º, § 1º), at this form's fields."""
    inscription = {
        "funcao": "auxiliar",
        "candidato": data.get("auxiliar", {}),
        "edital": data.get("edital", {}),
        "documentos": data.get("documentos", {}),
        "infracoes": data.get("infracoes", []),
    }
    found = requerimento_inscricao_escolar(replace(request, data=inscription))
    items = []
    for item in found.items:
        field = item.field
        if field.startswith("/candidato"):
            field = "/auxiliar" + field.removeprefix("/candidato")
        field = _EXEMPT_FIELDS.get(field, field)
        items.append(Item(pointers.dotted(field), item.status, field, item.message, item.basis))
    name = clean_text(pointers.get(data, "/auxiliar/nome")) or "O condutor auxiliar"
    law = statutory_context(request).laws[SCHOOL].short_title
    when = format_date(request.on)
    if any(item.pending for item in items):
        return items, (
            f"{name} não atende, em {when}, a todos os requisitos do art. 7º exigidos do "
            f"condutor auxiliar (art. 9º, § 1º, da {law}): veja as pendências."
        )
    return items, (
        f"{name} atende, em {when}, aos requisitos do art. 7º exigidos do condutor "
        f"auxiliar (art. 9º, § 1º, da {law}), dispensados apenas os incisos IV e VII."
    )


def _one_auxiliary(request: ComputeInput, data: Mapping[str, Any], on: date) -> list[Item]:
    """Caput, "no máximo 1 (um) condutor auxiliar": no other auxiliary alvará in force."""
    plate = clean_text(pointers.get(data, "/veiculo/placa"))
    if request.history is None or plate is None:
        return []
    context = statutory_context(request)
    since = on - timedelta(days=366)
    state = licensing(request.history)
    for prior in request.history.prior_autos(plate, FORM, since, on + timedelta(days=1)):
        # Its own last day as registered (never past the titular's, art. 9º), else the
        # titular's typed validity; one the state holds ended (revogado, encerrado com o
        # alvará do titular) no longer occupies the vehicle's one auxiliary.
        until = prior.valid_until or maybe_date(
            pointers.get(prior.data, "/alvara_titular/valido_ate"))
        if until is None or until < on:
            continue
        view = None if state is None else state.licence_status(prior.printed, FORM)
        if view is not None and view.status != LicenceStatus.ACTIVE:
            continue
        name = clean_text(pointers.get(prior.data, "/auxiliar/nome")) or "condutor auxiliar"
        return [
            item_at(
                "/veiculo/placa",
                Status.INVALID,
                f"Já está em vigor o alvará de condutor auxiliar {prior.printed}, de {name}, "
                f"para o veículo {plate}: o condutor titular pode valer-se de no máximo 1 "
                f"(um) condutor auxiliar ({short(context.laws, AUXILIARY)}). Revogue-o ou "
                "cancele-o antes de expedir outro.",
                AUXILIARY,
            )
        ]
    return [
        item_at(
            "/veiculo/placa",
            Status.MET,
            f"Nenhum outro alvará de condutor auxiliar em vigor no registro para o veículo "
            f"{plate} ({short(context.laws, AUXILIARY)}).",
            AUXILIARY,
        )
    ]


def _titular_items(request: ComputeInput, data: Mapping[str, Any], on: date,
                   laws: Any) -> list[Item]:
    """The titular's alvará the auxiliary's rests on (art. 9º), as the state holds it
    (issue 22, § 3): one of lavra's ALV-ESC series absent from the registry (neither
    issued nor imported) or no longer in force is *invalid*, and so is a typed validity
    other than the registry's. A paper alvará outside the series is not checked here."""
    view, items = standing_items(
        request.history, pointers.get(data, "/alvara_titular/numero"), on,
        kind="alvara-transporte-escolar", what="alvará do condutor titular",
        field="/alvara_titular/numero", basis=(AUXILIARY,), laws=laws,
        holder=pointers.get(data, "/titular/cpf"), holder_field="/titular/cpf")
    typed = maybe_date(pointers.get(data, "/alvara_titular/valido_ate"))
    if view is not None and view.valid_until and typed and typed != view.valid_until:
        items.append(item_at(
            "/alvara_titular/valido_ate", Status.INVALID,
            f"O {view.printed} vale até {format_date(view.valid_until)} no registro, não até "
            f"{format_date(typed)}: corrija a validade informada ({short(laws, AUXILIARY)}).",
            AUXILIARY))
    return items


def alvara_condutor_auxiliar(request: ComputeInput) -> Computed:
    """Requirements (art. 9º, § 1º), one auxiliary (caput) and validity (module docstring).

    ``values``: ``inicio_vigencia``, ``valido_ate``, ``vigencia_explicacao``,
    ``limitado_por`` (``alvara_titular`` or ``exercicio``),
    ``elegibilidade``, ``pendente``.
    """
    data = data_of(request)
    on = request.on
    context = statutory_context(request)
    laws = context.laws
    items, explanation = _requirement_items(request, data)
    items.extend(issue_items(on, request.issued_on, "/data_expedicao", "o alvará", AUXILIARY))
    items.extend(_one_auxiliary(request, data, on))
    items.extend(_titular_items(request, data, on, laws))
    titular_end = maybe_date(pointers.get(data, "/alvara_titular/valido_ate"))
    if titular_end is None:
        reason = "Informe a validade do alvará do condutor titular."
        return Computed(licence_pending(reason, elegibilidade=explanation), unique_items(items))
    try:
        months = int(context.parameters.value(VALIDITY_PARAMETER, on).value)
    except LavraError as error:
        message = f"Não foi possível calcular a validade do alvará: {error.message}"
        items.append(item_at("/data_expedicao", Status.MISSING, message, VALIDITY))
        return Computed(licence_pending(message, elegibilidade=explanation), unique_items(items))
    cap = validity(on, months)
    if titular_end < on:
        items.append(
            item_at(
                "/alvara_titular/valido_ate",
                Status.INVALID,
                f"O alvará do condutor titular venceu em {format_date(titular_end)}, antes da "
                f"expedição ({format_date(on)}): o alvará do condutor auxiliar vincula-se a "
                f"ele e não pode ser expedido ({short(laws, AUXILIARY)}).",
                AUXILIARY,
            )
        )
    end = min(titular_end, cap)
    law = laws[SCHOOL].short_title
    if titular_end <= cap:
        limited, why = "alvara_titular", (
            f"pelo vencimento do alvará do condutor titular, ao qual este se vincula e que não "
            f"pode ultrapassar (art. 9º da {law})"
        )
    else:
        limited, why = "exercicio", (
            f"pelo fim do exercício de {cap.year}: o alvará tem validade máxima de {months} "
            f"meses (art. 3º da {law}) e é anual, renovado até o último dia útil do ano "
            f"(art. 13 da mesma lei)"
        )
    values = {
        "inicio_vigencia": on,
        "valido_ate": end,
        "limitado_por": limited,
        "vigencia_explicacao": (
            f"Alvará de condutor auxiliar válido de {format_date(on)} a {format_date(end)}, "
            f"data fixada {why}."
        ),
        "elegibilidade": explanation,
        "pendente": None,
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {
    "alvara_condutor_auxiliar": alvara_condutor_auxiliar,
}
"""The computation of this module a form may name under ``"calculos"``."""
