"""A case history for the computations' tests: the registry's documents a test gives."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from lavra.checking.computations import PriorRecord


class FakeHistory:
    """The History protocol over a fixed list of records (no autos)."""

    def __init__(self, *records: PriorRecord) -> None:
        self.records = records

    def prior_autos(
        self, placa: str, form: str, since: date, before: date
    ) -> Sequence[PriorRecord]:
        return ()

    def document(self, form: str, number: str) -> PriorRecord | None:
        found = [r for r in self.records if r.form == form and number.endswith(r.number)]
        return found[0] if found else None

    def by_holder(self, cpf_cnpj: str, form: str) -> Sequence[PriorRecord]:
        return ()  # the records a test gives are found by number and vehicle only

    def in_force(self, placa: str, form: str, on: date) -> Sequence[PriorRecord]:
        return [
            r
            for r in self.records
            if r.form == form and r.data["veiculo"]["placa"] == placa and r.in_force(on)
        ]


def registered(
    form: str,
    number: str,
    start: date,
    until: date,
    plate: str = "ABC1D23",
    **extra: Any,
) -> PriorRecord:
    """A document of ``form`` for the vehicle ``plate``, valid from ``start`` to ``until``."""
    return PriorRecord(
        number, start, {"veiculo": {"placa": plate}}, form=form, valid_until=until, **extra
    )


def alvara_on_file(data: dict[str, Any], form: str = "alvara-transporte-escolar") -> FakeHistory:
    """The registry holding the alvará the data rest on (``/alvara``), in force from
    1 January of its year to the validity the data state, for the data's vehicle."""
    until = date.fromisoformat(data["alvara"]["valido_ate"])
    number = data["alvara"]["numero"].split()[-1]
    records = [registered(form, number, date(until.year, 1, 1), until, data["veiculo"]["placa"])]
    vistoria = substitute_vistoria(data)
    if vistoria is not None:
        records.append(vistoria)
    return FakeHistory(*records)


VISTORIA_FORM = "termo-vistoria-veiculo-substituto"


def substitute_vistoria(licence: dict[str, Any], **changes: Any) -> PriorRecord | None:
    """The approved termo of the substitute vehicle's vistoria that a Licença Temporária's
    data (``licence``) name at ``/veiculo_substituto/vistoria/numero``, as the registry
    holds it: the example termo's data with the licence's vehicles, holder, occurrence and
    vistoria (``changes``: fields of the record, or ``data`` merged into its data)."""
    import json
    from pathlib import Path

    substitute = licence.get("veiculo_substituto")
    if not isinstance(substitute, dict) or "numero" not in substitute.get("vistoria", {}):
        return None
    example = Path(__file__).parents[1] / "forms" / VISTORIA_FORM / "exemplo.json"
    held = json.loads(example.read_text(encoding="utf-8"))
    held["titular"]["cpf"] = licence["titular"]["cpf"]
    held["veiculo"]["placa"] = licence["veiculo"]["placa"]
    held["veiculo_substituto"].update(
        {k: substitute[k] for k in ("placa", "renavam", "ano_fabricacao") if k in substitute})
    held["vistoria"].update(
        {"data": substitute["vistoria"]["data"], "hora": substitute["vistoria"]["hora"]})
    occurred = licence.get("ocorrencia", {})
    held["ocorrencia"].update({k: occurred[k] for k in ("data", "hora") if k in occurred})
    held.update(changes.pop("data", {}))
    fields: dict[str, Any] = {"form": VISTORIA_FORM, "series": "TVS-ESC", **changes}
    return PriorRecord(substitute["vistoria"]["numero"].split()[-1],
                       date.fromisoformat(held["vistoria"]["data"]), held, **fields)
