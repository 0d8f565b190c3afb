"""Holders of school-transport alvarás in a fresh registry, and their renewal requests,
for the batch-run tests and the benchmark: the pack's examples moved one year back
(alvarás of 2025, renewed for 2026 by a run dated 10/12/2025), each holder with a CPF,
a plate and a prontuário of its own."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from lavra.issuing import Issuer

REPO = Path(__file__).resolve().parent.parent
YEAR, RUN_DAY = 2026, "2025-12-10"


def _earlier(value: Any) -> Any:
    """The example one year back: every ISO date of 2026/2027 moved to 2025/2026."""
    text = json.dumps(value, ensure_ascii=False)
    text = re.sub(r'"(2026|2027)-(\d\d)-(\d\d)"',
                  lambda m: f'"{int(m.group(1)) - 1}-{m.group(2)}-{m.group(3)}"', text)
    return json.loads(text)


def _example(form: str) -> dict[str, Any]:
    return dict(json.loads((REPO / "forms" / form / "exemplo.json").read_text("utf-8")))


def cpf(n: int) -> str:
    """A valid CPF, different for each n."""
    base = [int(d) for d in f"{100000000 + n * 7919:09d}"[-9:]]
    for weight in (10, 11):
        total = sum(d * w for d, w in zip(base, range(weight, 1, -1), strict=False))
        base.append(0 if total % 11 < 2 else 11 - total % 11)
    digits = "".join(map(str, base))
    return f"{digits[:3]}.{digits[3:6]}.{digits[6:9]}-{digits[9:]}"


def plate(n: int) -> str:
    letters = "ABCDEFGHIJ"
    return f"TST{n % 10}{letters[(n // 10) % 10]}{(n // 100) % 10}{n % 10}"


def alvara(n: int) -> dict[str, Any]:
    data = _earlier(_example("alvara-transporte-escolar"))
    data["titular"]["cpf"] = cpf(n)
    data["titular"]["nome"] = f"Titular Exemplo {n:04d}"
    data["prontuario"] = f"TE-{n:04d}"
    data["selo_identificacao"] = f"SELO-2025-{n:04d}"
    data["veiculo"]["placa"] = plate(n)
    return data


def seed(issuer: Issuer, count: int) -> list[str]:
    """Issue ``count`` first alvarás of 2025; their printed numbers, in order."""
    return [issuer.issue("alvara-transporte-escolar", alvara(n), docx=False).record.printed
            for n in range(count)]


def request(n: int, printed: str, *, missing: tuple[str, ...] = ()) -> dict[str, Any]:
    """The renewal request of holder ``n``; ``missing``: documents left out."""
    data = _earlier(_example("requerimento-renovacao-escolar"))
    data["requerente"].update(cpf=cpf(n), nome=f"Titular Exemplo {n:04d}",
                              prontuario=f"TE-{n:04d}")
    data["alvara_anterior"] = {"numero": printed, "valido_ate": "2025-12-31"}
    data["documentos"]["alvara_anterior"]["numero"] = printed
    data["veiculo"]["placa"] = plate(n)
    for name in missing:
        data["documentos"].pop(name)
    return data


def envelope(n: int, printed: str, **kwargs: Any) -> Mapping[str, Any]:
    return {"requerimento": request(n, printed, **kwargs),
            "processo": f"PA {n + 1}/2025", "selo_identificacao": f"SELO-2026-{n:04d}"}


def write_jsonl(path: Path, rows: Iterator[Mapping[str, Any]] | list[Mapping[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path
