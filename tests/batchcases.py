"""Holders of school-transport alvarás in a fresh registry, and their renewal requests,
for the batch-run tests and the benchmark: the pack's examples moved one year back
(alvarás of 2025, renewed for 2026 by a run dated 10/12/2025), each holder with a CPF,
a plate and a prontuário of its own; the fretamento alvarás of the fretamento run; and
the helpers both run tests share (data folder copies, issuers, a run killed midway)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator, Mapping
from copy import deepcopy
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from unittest.mock import patch

from identities import cnpj_for, set_person, set_vehicle
from issuers import VERIFICATION_URL, shared_keys
from sqlalchemy import create_engine, text

from lavra.config import Config
from lavra.documents import Engine
from lavra.issuing import Issuer, ensure_dev_pki, registry_url
from lavra.registry.filings import Attachment, FilingInput, Filings
from lavra.registry.records import Built
from lavra.registry.runs import open_run, run_counts
from lavra.registry.store import open_registry

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
    set_person(data["titular"], cpf(n))
    data["titular"]["nome"] = f"Titular Exemplo {n:04d}"
    data["prontuario"] = f"TE-{n:04d}"
    set_vehicle(data["veiculo"], plate(n))
    return data


def kept_staff_values(engine: Engine) -> Iterator[None]:
    """For an autouse fixture: an Issuer binds the shared engine to its registry's staff
    values; a test's own registry (a PostgreSQL database dropped after it) must not
    outlive the test."""
    bound = engine.staff_values
    yield
    engine.staff_values = bound


def seeded_folder(engine: Engine, folder: Path, count: int) -> tuple[Path, list[str]]:
    """A data folder (SQLite registry, development PKI) under ``folder`` with ``count``
    alvarás of 2025; the folder and their printed numbers."""
    from issuers import dev_issuer

    data = folder / "dados"
    issuer = dev_issuer(engine, data)
    numbers = seed(issuer, count)
    issuer.close()
    return data, numbers


def seed(issuer: Issuer, count: int) -> list[str]:
    """Issue ``count`` first alvarás of 2025; their printed numbers, in order.

    They stand for alvarás issued before the run, their selos long since issued: issued
    without the SELO-ESC reservation of an alvará issued one at a time (the pack's
    companion declaration set aside while they are issued), so that the run's SELO-ESC
    numbers start at 1, as the tests read them."""
    with patch.dict(issuer.engine.content.pack.companions, clear=True):
        return [issuer.issue("alvara-transporte-escolar", alvara(n), docx=False).record.printed
                for n in range(count)]


def request(n: int, printed: str, *, missing: tuple[str, ...] = ()) -> dict[str, Any]:
    """The renewal request of holder ``n``; ``missing``: documents left out."""
    data = _earlier(_example("requerimento-renovacao-escolar"))
    data["requerente"].update(nome=f"Titular Exemplo {n:04d}", prontuario=f"TE-{n:04d}")
    set_person(data["requerente"], cpf(n))
    data["alvara_anterior"] = {"numero": printed, "valido_ate": "2025-12-31"}
    data["documentos"]["alvara_anterior"]["numero"] = printed
    set_vehicle(data["veiculo"], plate(n))
    for name in missing:
        data["documentos"].pop(name)
    return data


def envelope(n: int, printed: str, **kwargs: Any) -> Mapping[str, Any]:
    return {"requerimento": request(n, printed, **kwargs),
            "processo": f"PA {n + 1}/2025", "selo_identificacao": f"SELO-ESC {n:04d}/2026"}


def write_jsonl(path: Path, rows: Iterator[Mapping[str, Any]] | list[Mapping[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


# ------------------------------------------------------------------ variants the form accepts
def without(data: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``data`` without the field at ``pointer``."""
    found = deepcopy(data)
    *parents, last = pointer.strip("/").split("/")
    node = found
    for part in parents:
        node = node[part]
    node.pop(last, None)
    if last == "tributos_municipais_existentes":  # the receipt goes with the answer
        found["documentos"].pop("tributos_municipais", None)
    return found


def optional_pointers(schema: dict[str, Any], data: Any, at: str = "") -> list[str]:
    """Every pointer of ``data`` its schema does not require (objects of the form's
    own schema only: a shared definition's fields are listed by its leaves)."""
    found: list[str] = []
    if not isinstance(data, dict):
        return found
    defs = json.loads((REPO / "schemas" / "comum.json").read_text("utf-8"))["$defs"]
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    required = set(schema.get("required", ()))
    for key, value in data.items():
        sub = schema.get("properties", {}).get(key, {})
        if key not in required:
            found.append(f"{at}/{key}")
        found.extend(optional_pointers(sub, value, f"{at}/{key}"))
    return found


# ------------------------------------------------------------------ fretamento
FRET_UNTIL, FRET_RUN_DAY = "2026-01-31", "2025-11-25"
"""The fretamento run: alvarás issued on 10/01/2021 (vencimento 09/01/2026, the eve of
the 5th anniversary), renewed by a run dated 25/11/2025 over the alvarás expiring by 31/01/2026."""
FRET_ISSUED = "2021-01-10"


def fret_plate(n: int) -> str:
    """A Mercosul plate of its own for each n below 10,000 (``FRT0A00`` for n = 0)."""
    return (f"FR{'TUVWXYZBCD'[(n // 100) % 10]}{n % 10}{'ABCDEFGHIJ'[(n // 1000) % 10]}"
            f"{(n // 10) % 10}{n % 10}")


def fret_company(company: int) -> dict[str, str]:
    """The ``company``-th fretamento company (0: the examples' own), as an alvará's
    ``empresa`` and a requerimento's ``requerente`` name it: its own CNPJ and name."""
    if company == 0:
        return {}
    return {"cnpj": cnpj_for(f"empresa {company}"),
            "razao_social": f"Transportes Exemplo {company:04d} Ltda.",
            "nome_fantasia": f"Exemplo {company:04d} Turismo"}


def fret_alvara(n: int, *, past_age: bool = False, company: int = 0) -> dict[str, Any]:
    """The n-th fretamento alvará of 10/01/2021; ``past_age``: a microônibus of 2015,
    whose alvará ends with its age limit on 31/12/2025 (art. 10, I); ``company``: of
    the company :func:`fret_company` names (0: the example's)."""
    data = _example("alvara-fretamento")
    data["empresa"].update(fret_company(company))
    if company:
        data["empresa"]["registro_setransv"]["numero"] = f"FRET-{1000 + company}"
    set_vehicle(data["veiculo"], fret_plate(n))
    data["veiculo"]["numero_ordem"] = f"{n + 1:02d}"
    if past_age:
        data["veiculo"].update(tipo="microonibus", ano_fabricacao=2015, marca_modelo=(
            "Volare W9"), lotacao_sentados=28, portas=1, poltronas_rodoviarias=False)
    data["inspecao_veicular"]["data_emissao"] = "2020-12-01"
    data["processo"] = {
        "numero": f"PA {n + 1}/2020", "data_requerimento": "2020-12-20", "renovacao": False,
        "conferencia_requerimento": {"responsavel": "Maria Exemplo da Silva, Agente "
                                     "Administrativo", "data": "2020-12-22", "completo": True},
    }
    # the registration at SETRANSV from before lavra, checked with the requerimento
    data["empresa"]["registro_setransv"]["conferencia"]["data"] = "2020-12-22"
    return data


def fret_seed(issuer: Issuer, count: int, past_age: tuple[int, ...] = (),
              per_company: int | None = None) -> list[str]:
    """Issue ``count`` fretamento alvarás of 10/01/2021; their printed numbers.
    ``per_company``: vehicles per company (vehicle n of company ``n // per_company +
    1``); None: every vehicle of the example's company."""
    on = date.fromisoformat(FRET_ISSUED)
    return [issuer.issue("alvara-fretamento", fret_alvara(
        n, past_age=n in past_age, company=fret_company_of(n, per_company)), on,
        docx=False).record.printed for n in range(count)]


def fret_company_of(n: int, per_company: int | None) -> int:
    """The company of vehicle ``n`` when each company has ``per_company`` vehicles."""
    return 0 if per_company is None else n // per_company + 1


def fret_request(n: int, printed: str, *, expiry: str = "2026-01-09",
                 missing: tuple[str, ...] = (), past_age: bool = False,
                 company: int = 0) -> dict[str, Any]:
    """The renewal requerimento of vehicle ``n`` (dated 20/11/2025), by ``company``."""
    data = _earlier(_example("requerimento-renovacao-alvara-fretamento"))
    data["requerente"].update(fret_company(company))
    data["alvara_anterior"] = {"numero": printed, "valido_ate": expiry}
    vehicle = fret_alvara(n, past_age=past_age)["veiculo"]
    data["veiculo"] = {k: vehicle[k] for k in data["veiculo"]}
    for name in missing:
        data["documentos"].pop(name)
    return data


def fret_envelope(n: int, printed: str, *, conferencia: bool = True,
                  **kwargs: Any) -> Mapping[str, Any]:
    found: dict[str, Any] = {"requerimento": fret_request(n, printed, **kwargs),
                             "processo": f"PA {n + 101}/2025"}
    if conferencia:
        found["conferencia"] = {"responsavel": "Maria Exemplo da Silva, Agente "
                                "Administrativo", "data": "2025-11-24"}
    return found


# ------------------------------------------------------------------ requests filed online
def _receipt(number: int, printed: str, moment: datetime) -> Built:
    return Built(pdf=b"%PDF-1.4 " + printed.encode(), data={"protocolo": printed},
                 computed={}, reference_date=moment.date(),
                 verification_code=f"PROT-{number:04d}", signer_subject="Selo",
                 signer_serial="1", pack_version="t", issued_at=moment)


def file_request(issuer: Issuer, form: str, data: Mapping[str, Any], doc: str, name: str,
                 moment: datetime, *, licence: str | None = None,
                 attachments: tuple[Attachment, ...] = ()) -> str:
    """File ``data`` as ``form`` through the registry API at ``moment``; its protocol."""
    entry = FilingInput(series="PROT", form=form, data=dict(data), cpf_cnpj=doc, name=name,
                        attachments=attachments, licence=licence)
    return Filings(issuer.registry).file(entry, _receipt, receipt_form="comprovante-protocolo",
                                         now=moment.astimezone(UTC)).protocol


# ------------------------------------------------------------------ shared by the run tests
def copy_data(source: Path, tmp_path: Path) -> Path:
    """A copy of a seeded data folder (registry and PKI) for one test."""
    data = tmp_path / "dados"
    shutil.copytree(source, data)
    return data


def issuer_over(engine: Engine, data: Path, url: str | None = None) -> Issuer:
    """An Issuer over the data folder's registry (or ``url``), development PKI."""
    config = Config(pack_dir=REPO, data_dir=data, verification_url=VERIFICATION_URL,
                    database_url=url)
    ensure_dev_pki(config, engine.content, new_key=shared_keys())
    return Issuer(engine, open_registry(registry_url(config)), config)


def numbers_in(url: str, series: str) -> list[int]:
    """The numbers recorded in ``series``, in order."""
    raw = create_engine(url)
    with raw.connect() as connection:
        found = connection.execute(
            text("SELECT number FROM documents WHERE series = :s ORDER BY number"),
            {"s": series},
        ).scalars().all()
    raw.dispose()
    return list(found)


def cli_env(data: Path) -> dict[str, str]:
    """The environment of a ``lavra`` subprocess over this checkout and data folder."""
    env = dict(os.environ)
    env.update(LAVRA_DATA=str(data), LAVRA_PACK=str(REPO),
               PYTHONPATH=os.pathsep.join([str(REPO / "engine"), str(REPO)]))
    return env


def kill_midway_and_rerun(command: list[str], env: dict[str, str], url: str, key: str,
                          after: int = 3) -> tuple[int, subprocess.CompletedProcess[str]]:
    """Start ``command``, kill -9 it (and its workers) once ``after`` items are done,
    check the run is left unfinished, run it again; (run id, the rerun)."""
    process = subprocess.Popen(command, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    registry = open_registry(url)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            run = open_run(registry, key)
            if run is not None and run_counts(registry, run.id)[0] >= after:
                break
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            time.sleep(0.2)
        os.killpg(process.pid, signal.SIGKILL)  # the command and its workers, as kill -9
        process.wait(60)
        run = open_run(registry, key)
        assert run is not None
        done, total = run_counts(registry, run.id)
        assert after <= done < total
    finally:
        registry.close()
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=400)
    assert again.returncode == 0, again.stderr
    assert "retomada" in again.stdout
    return run.id, again
