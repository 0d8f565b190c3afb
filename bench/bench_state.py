"""Cost of the licensing state's lookups as the registry grows (not a test).

    PYTHONPATH=engine:.:tests python bench/bench_state.py 100 2000 10000

For each size N, seeds a fresh SQLite registry with N school alvarás (each its own
holder, vehicle and driver, through the pack's effects, as issuing records them; the
PDFs are stubs, not timed), then times, per call, in CPU and wall time:

- ``licences_in_force(kind, day, placa=…)``: what every check asks (the state, by index);
- ``active_licences(kind, day)`` filtered by plate in Python: what the checks did before
  (every alvará in force loaded and decoded);
- ``licences(kind, on=…, expiring=…)``: the renewal run's selection (all N, linear by
  nature: it returns them all), per licence returned.

The lookups must stay flat in N; the old scan grows with it.
"""

from __future__ import annotations

import sys
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path
from typing import Any

from lavra.registry.records import Built
from lavra.registry.store import open_registry
from lavra_americana import pacote

KIND = "alvara-transporte-escolar"
DAY = date(2026, 6, 1)


def _plate(i: int) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return f"{letters[i // 260000 % 26]}{letters[i // 10000 % 26]}{letters[i // 1000 % 26]}" \
           f"{i // 100 % 10}{letters[i // 10 % 10]}{i % 10}{i // 260 % 10}"


def _data(i: int) -> dict[str, Any]:
    return {
        "modalidade": "expedicao",
        "titular": {"nome": f"Titular {i}", "cpf": f"{i:011d}", "cnh": {"numero": f"9{i:010d}"}},
        "veiculo": {"placa": _plate(i), "renavam": f"{i:011d}"},
        "processo": {"numero": f"PA {i}/2026"},
    }


def seed(url: str, count: int) -> list[str]:
    registry = open_registry(url)
    registry.use_effects(pacote().effects)
    registry.ensure_state()
    plates = []
    for i in range(count):
        data = _data(i)
        plates.append(data["veiculo"]["placa"])

        def build(number: int, formatted: str, data: dict[str, Any] = data) -> Built:
            return Built(pdf=b"%PDF-1.7 stub", docx=None, data=data,
                         computed={"valido_ate": "2026-12-31"},
                         reference_date=date(2026, 1, 2),
                         verification_code=uuid.uuid4().hex[:20].upper(),
                         signer_subject="CN=Bench", signer_serial="1", pack_version="bench",
                         cpf_cnpj=None, placa=data["veiculo"]["placa"])

        registry.issue("ALV-ESC", 2026, KIND, build)
    registry.close()
    return plates


def timed(calls: int, func: Any) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(calls):
        func(i)
    return ((time.process_time() - cpu) / calls * 1000, (time.perf_counter() - wall) / calls * 1000)


def main(sizes: list[int]) -> None:
    print(f"{'N':>7} {'estado (ms CPU/parede)':>24} {'varredura antiga':>20} "
          f"{'seleção do lote, por licença':>30}")
    for size in sizes:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{Path(folder) / 'registro.sqlite3'}"
            plates = seed(url, size)
            registry = open_registry(url)
            registry.use_effects(pacote().effects)
            def by_state(i: int, registry: Any = registry, plates: list[str] = plates) -> None:
                registry.licences_in_force(KIND, DAY, placa=plates[i * 7919 % len(plates)])

            def by_scan(i: int, registry: Any = registry, plates: list[str] = plates) -> None:
                wanted = plates[i % len(plates)]
                [r for r in registry.active_licences(KIND, DAY) if r.placa == wanted]

            state = timed(200, by_state)
            scan = timed(max(2, min(50, 20000 // size)), by_scan)
            cpu, wall = time.process_time(), time.perf_counter()
            due = registry.licences(KIND, on=date(2026, 12, 31),
                                    expiring=(date(2026, 1, 1), date(2026, 12, 31)))
            per = ((time.process_time() - cpu) / len(due) * 1000,
                   (time.perf_counter() - wall) / len(due) * 1000)
            registry.close()
        print(f"{size:>7} {state[0]:>11.3f} / {state[1]:<10.3f} {scan[0]:>9.2f} / {scan[1]:<8.2f} "
              f"{per[0]:>14.3f} / {per[1]:<10.3f}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100, 1000])
