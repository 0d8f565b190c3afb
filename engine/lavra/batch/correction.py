"""Staff's corrections of a failed batch item, read through the strict reader.

Two ways in, the same rules (``lavra lote corrigir`` and the run's web page):

- one field and its value as typed (``--campo /ponteiro --valor V``, or the page's
  form): the value is text; it is read as JSON (number, true/false, object, list)
  when asked (``--json``, the page's box), or when the field already holds a value
  that is not text, so that a number stays a number;
- a patch file (``--arquivo``): JSON, either an object of ``"/ponteiro": valor``
  pairs, or a JSON Patch list (RFC 6902) of ``replace``, ``add`` and ``remove``
  operations.

Either is read by :func:`lavra.inputs.reading.load_json` (no repeated keys, no NaN,
nesting bounded) and every value cleaned by :func:`lavra.inputs.reading.check_values`
(sizes bounded, text in NFC, no control characters): a refusal names the field, in
pt-BR, and nothing is written. The changes are applied and recorded with who and when
by :func:`lavra.registry.corrections.correct`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.inputs.reading import MAX_DATA_BYTES, check_values, load_json
from lavra.registry.corrections import Change

__all__ = ["change_from_text", "changes_from_patch"]

_OPS = ("replace", "add", "remove")


def change_from_text(pointer: str, text: str, *, as_json: bool = False,
                     data: Mapping[str, Any] | None = None) -> Change:
    """One field's correction as typed; ``data``: the item's data, whose current value
    at ``pointer`` decides whether the text is read as JSON (module docstring)."""
    if not isinstance(pointer, str) or not pointer.startswith("/"):
        raise InputError("Informe o campo a corrigir como ponteiro JSON, por exemplo "
                         "/veiculo/placa.", field="/campo")
    current = pointers.get(data, pointer) if data is not None else None
    if as_json or (current is not None and not isinstance(current, str)):
        value = load_json(text, source=f"o valor do campo {pointer}")
    else:
        value = text.strip()
    return Change(pointer, _clean(pointer, value))


def _clean(pointer: str, value: Any) -> Any:
    try:
        cleaned = check_values({"valor": value})
    except InputError as error:
        raise InputError(f"Valor do campo {pointer}: {error.message}", field=pointer) from None
    return cleaned["valor"]


def changes_from_patch(raw: bytes, *, source: str = "o arquivo de correção"
                       ) -> tuple[Change, ...]:
    """The changes of a patch file (module docstring)."""
    if len(raw) > MAX_DATA_BYTES:
        raise InputError(f"{source[:1].upper()}{source[1:]} excede o tamanho máximo de "
                         f"{MAX_DATA_BYTES // 1024} KiB.")
    parsed = load_json(raw, source=source)
    if isinstance(parsed, dict):
        return tuple(Change(p, _clean(p, v)) for p, v in parsed.items())
    if not isinstance(parsed, list):
        raise InputError(f"{source[:1].upper()}{source[1:]} deve conter um objeto "
                         '{"/campo": valor} ou uma lista de operações JSON Patch.')
    changes = []
    for n, op in enumerate(parsed, start=1):
        where = f"Operação {n} de {source}"
        if not isinstance(op, dict) or op.get("op") not in _OPS \
                or not isinstance(op.get("path"), str):
            raise InputError(f"{where}: informe «op» (replace, add ou remove) e «path» (o "
                             "campo, como ponteiro JSON).", field=f"/{n - 1}")
        if op["op"] == "remove":
            changes.append(Change(op["path"], remove=True))
        elif "value" not in op:
            raise InputError(f"{where}: falta «value», o novo valor do campo {op['path']}.",
                             field=f"/{n - 1}/value")
        else:
            changes.append(Change(op["path"], _clean(op["path"], op["value"])))
    return tuple(changes)
