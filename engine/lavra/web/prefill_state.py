"""A staff form started from a vehicle's plate (``GET /equipe/novo/{form}?placa=``).

The pack says which forms start so (``ContentPack.prefills``), which licences they
look at and how the state fills their fields (:mod:`lavra.registry.prefill`); this
module only looks the plate up — through the vehicles' plate index, old and Mercosul
forms alike — and states what it found, in pt-BR, at the plate field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from lavra.errors import InputError
from lavra.registry.prefill import PlateFinding, StaffMember
from lavra.registry.records import normalize_plate
from lavra.web.context import WebContext
from lavra.web.users import User

__all__ = ["PlateStart", "start_from_plate"]

MAX_PLATE = 20


@dataclass(frozen=True)
class PlateStart:
    """The plate box of a form that starts from a plate: what was typed, the data it
    filled (empty when nothing was found), and the message at the field: ``error``
    (nothing filled) or ``notice`` (what was filled, and from which act)."""

    typed: str
    data: Mapping[str, Any] = field(default_factory=dict)
    error: str | None = None
    notice: str | None = None


def start_from_plate(ctx: WebContext, form_id: str, typed: str | None, user: User,
                     on: date) -> PlateStart | None:
    """The plate box of ``form_id`` (None: the form does not start from a plate), with
    the state's data for ``typed`` on the day ``on``."""
    spec = ctx.engine.content.pack.prefills.get(form_id)
    if spec is None:
        return None
    text = (typed or "").strip()[:MAX_PLATE]
    if not text:
        return PlateStart(typed=text)
    try:
        placa = normalize_plate(text)
    except InputError as error:
        return PlateStart(typed=text, error=error.message)
    views = [view for view in ctx.registry.licence_views(placa=placa)
             if view.kind in spec.kinds]
    held = [view for view in views if view.holds(on)]
    in_force = held[-1] if held else None
    latest = in_force or (views[-1] if views else None)
    if latest is None:
        return PlateStart(
            typed=text,
            error=f"A placa {placa} não consta de nenhuma licença do registro para este "
                  "auto. Confira a placa ou preencha o auto manualmente.")
    record = ctx.registry.get_by_id(latest.document_id) if latest.document_id else None
    act_data = record.data if record is not None and isinstance(record.data, Mapping) else {}
    status = latest.describe(on)
    finding = PlateFinding(placa=placa, in_force=in_force, latest=latest,
                           act_data=act_data, status=status)
    data = spec.fill(finding, StaffMember(user.full_name, user.registration))
    missing = "" if user.registration else (
        " A sua conta não tem matrícula registrada: informe-a no campo do agente.")
    if in_force is not None:
        notice = (f"Placa {placa}: {in_force.printed}, {status}. Titular, licença e "
                  f"veículo preenchidos conforme o alvará; agente, pela sua conta.{missing}")
    else:
        notice = (f"Placa {placa}: o veículo não tem licença em vigor ({latest.printed}, "
                  f"{status}). Preenchidos apenas os dados do veículo e do agente; "
                  f"titular e licença ficam em branco.{missing}")
    return PlateStart(typed=text, data=data, notice=notice)
