"""The lines of the licensing state as ``lavra cadastro reconstruir`` prints them.

Rebuilding the view compares the stored state with the one replayed from the acts
(:meth:`lavra.registry.licensing.RegistryState.rebuild_state`), line by line; a line
that differs is shown to staff, so it reads as the rest of the registry does: dates
DD/MM/AAAA, CPF/CNPJ and plates masked, a status by its pt-BR text, «sem vínculo» and the
like instead of an empty value, each fact as «campo: valor».
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from lavra.errors import InputError
from lavra.inputs.formats import mask_cnpj, mask_cpf, mask_placa
from lavra.registry.effects import STATUS_TEXT
from lavra.textutil import format_date

__all__ = ["bar_line", "doc_words", "licence_line", "name_line", "when"]


def when(day: date | None, missing: str = "sem data") -> str:
    """``day`` as DD/MM/AAAA, or ``missing``."""
    return missing if day is None else format_date(day)


def doc_words(doc: str | None, missing: str = "ninguém") -> str:
    """A CPF or CNPJ masked as printed elsewhere; ``missing`` when none."""
    if not doc:
        return missing
    try:
        return mask_cpf(doc) if len(doc) == 11 else mask_cnpj(doc)
    except InputError:
        return doc


def _plate(placa: str) -> str:
    try:
        return mask_placa(placa)
    except InputError:
        return placa


def _vehicle(vehicle: tuple[str, str | None] | None) -> str:
    if vehicle is None:
        return "sem veículo"
    placa, renavam = vehicle
    return f"placa {_plate(placa)}" + (f", RENAVAM {renavam}" if renavam else "")


def _driver(driver: tuple[str, str | None] | None) -> str:
    if driver is None:
        return "sem condutor"
    cnh, doc = driver
    return f"CNH {cnh}" + (f" ({doc_words(doc)})" if doc else "")


def _fact(pointer: str, value: Any) -> str:
    """«campo: valor»: the pointer's segments as words (``/veiculo/tipo`` → «veiculo
    tipo»); the pack names the facts by the form's own fields."""
    field = " ".join(part.replace("_", " ") for part in pointer.split("/") if part)
    return f"{field}: {value}"


def licence_line(printed: str, kind: str, *, holder: str | None,
                 vehicle: tuple[str, str | None] | None,
                 driver: tuple[str, str | None] | None, base: str | None,
                 valid_from: date | None, valid_until: date | None, status: str,
                 status_by: str | None, status_since: date | None,
                 facts: Sequence[tuple[str, Any]]) -> str:
    """One licence of the state, in words."""
    situation = STATUS_TEXT.get(status, status)
    by = f" pelo {status_by}" if status_by else ""
    return (f"licença {printed} ({kind}): titular {doc_words(holder)}, {_vehicle(vehicle)}, "
            f"{_driver(driver)}, " + (f"vinculada ao {base}" if base else "sem vínculo")
            + f", de {when(valid_from)} a {when(valid_until, 'sem prazo')}, situação "
            f"{situation}{by} desde {when(status_since)}"
            + (f"; fatos: {'; '.join(_fact(p, v) for p, v in facts)}" if facts else ""))


def bar_line(party: str | None, until: date | None, act: str | None) -> str:
    """A bar (impedimento) of the state, in words."""
    return f"impedimento de {doc_words(party)} até {when(until)}, pelo {act or 'ato desconhecido'}"


def name_line(party: str | None, name: str, since: date | None, act: str | None) -> str:
    """A name a CPF or CNPJ was registered under, in words."""
    given = f"dado pelo {act}" if act else "registrado por certidão"
    return f"nome de {doc_words(party)}: «{name}», desde {when(since)}, {given}"
