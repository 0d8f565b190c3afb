"""The registry's search by name through its index (not a test).

    python bench/bench_name_search.py [NOMES] [--repeticoes R] [--postgres URL]

Fills a fresh registry with NOMES parties (default 100,000), one name each, in one
transaction (not timed): common Brazilian first names and surnames, so that «silva» is
in about one name of six, and one rare name («Zuleica Brandemburgo Quintanilha»). Then
times, R times each (the median printed):

* the name condition alone (:class:`lavra.registry.name_index.NameMatch`: the parties
  whose names hold every word of the query), as the index answers it — FTS5 trigram on
  SQLite, GIN ``pg_trgm`` on PostgreSQL;
* the same words by ``LIKE '%…%'`` over ``party_names.search_name``, the whole table read
  (what the search did before migration 0019), for comparison; on PostgreSQL with
  the index scans turned off for that query (``pg_trgm`` serves ``LIKE`` too);
* the registry's search statement (:func:`lavra.registry.search.statement`), which looks
  up the documents of the parties found (the registry holds no documents here: the
  figure is the name lookup's and the plan's).

For a rare query («quintanilha zuleica») and a common one («silva»). Printed: CPU and
wall milliseconds per query of this process (on PostgreSQL the server's CPU is not in
it: read the wall time), the matches, and the machine's load. ``--postgres URL``: a
fresh database created on that server (dropped at the end), as ``bench_batch.py`` does.
Run from the repository root with ``PYTHONPATH=engine:.:tests`` (the database on the
server is made by ``tests/pgdatabase.py``, shared with bench_batch.py and the tests).
The figures measured are in the README (section on performance).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pgdatabase import new_database
from sqlalchemy import and_, func, insert, select, text

from lavra.registry.name_index import NameMatch, fold_name, name_terms
from lavra.registry.search import Filters, parse_query, statement
from lavra.registry.store import Registry, open_registry
from lavra.registry.tables import PartyNameRow, PartyRow

FIRST = ("José", "Maria", "Ana", "João", "Antônio", "Francisco", "Carlos", "Paulo",
         "Pedro", "Lucas", "Luiz", "Marcos", "Luís", "Gabriel", "Rafael", "Francisca",
         "Daniel", "Marcelo", "Bruno", "Eduardo", "Adriana", "Juliana", "Márcia",
         "Fernanda", "Patrícia", "Aline", "Sandra", "Camila", "Amanda", "Bruna")
LAST = ("Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves",
        "Pereira", "Lima", "Gomes", "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida",
        "Lopes", "Soares", "Fernandes", "Vieira", "Barbosa", "Rocha", "Dias", "Nascimento",
        "Andrade", "Moreira", "Nunes", "Marques", "Machado", "Mendes", "Freitas", "Cardoso",
        "Ramos", "Gonçalves", "Santana", "Teixeira")
RARE = "Zuleica Brandemburgo Quintanilha"
QUERIES = (("rara", "quintanilha zuleica"), ("comum", "silva"))


def _name(n: int) -> str:
    """Deterministic: first name, a middle surname and a last surname (about one name in
    six holds «Silva»)."""
    middle = "Silva" if n % 6 == 0 else LAST[(n // 7) % len(LAST)]
    return f"{FIRST[n % len(FIRST)]} {middle} {LAST[(n * 13 + n // 31) % len(LAST)]}"


def fill(registry: Registry, count: int) -> None:
    """``count`` parties with a name each (the rare one in the middle), one transaction."""
    names = [RARE if n == count // 2 else _name(n) for n in range(count)]
    with registry.engine.begin() as connection:
        connection.execute(insert(PartyRow.__table__), [
            {"id": n + 1, "doc": f"{n:011d}", "name": name} for n, name in enumerate(names)])
        connection.execute(insert(PartyNameRow.__table__), [
            {"party_id": n + 1, "name": name, "search_name": fold_name(name)}
            for n, name in enumerate(names)])


def _timed(call: Callable[[], int], repeat: int) -> tuple[float, float, int]:
    """Median CPU and wall milliseconds of ``call`` and what it returned."""
    cpu: list[float] = []
    wall: list[float] = []
    found = 0
    call()  # warm: the statement compiled, the pages in the cache
    for _ in range(repeat):
        started, process = time.perf_counter(), time.process_time()
        found = call()
        cpu.append(1000 * (time.process_time() - process))
        wall.append(1000 * (time.perf_counter() - started))
    return statistics.median(cpu), statistics.median(wall), found


def _measures(registry: Registry, typed: str) -> dict[str, Callable[[], int]]:
    terms = name_terms(typed)
    indexed = select(func.count()).select_from(PartyNameRow).where(
        NameMatch(PartyNameRow.id, PartyNameRow.search_name, terms))
    scanned = select(func.count()).select_from(PartyNameRow).where(and_(
        *(PartyNameRow.search_name.like(f"%{term}%") for term in terms)))
    searched = statement(parse_query(typed), Filters()).limit(50)

    def count(stmt: object, *, scan: bool = False) -> Callable[[], int]:
        def run() -> int:
            with registry.engine.connect() as connection:
                if scan and connection.dialect.name == "postgresql":
                    # pg_trgm's GIN index serves LIKE too: forbid it, read the table
                    connection.execute(text("SET LOCAL enable_bitmapscan = off"))
                    connection.execute(text("SET LOCAL enable_indexscan = off"))
                return int(connection.execute(stmt).scalar_one())  # type: ignore[call-overload]
        return run

    def search() -> int:
        with registry.read_session() as session:
            return len(session.scalars(searched).all())

    return {"índice": count(indexed), "sem índice (LIKE)": count(scanned, scan=True),
            "busca do registro": search}


@contextmanager
def _database(server: str | None, folder: Path) -> Iterator[str]:
    """A SQLite file in ``folder``, or a new database on the PostgreSQL ``server``
    (dropped after)."""
    if server is None:
        yield f"sqlite:///{folder / 'registro.sqlite3'}"
        return
    with new_database(server, prefix="lavra_bench") as url:
        yield url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("nomes", type=int, nargs="?", default=100_000)
    parser.add_argument("--repeticoes", type=int, default=20, metavar="R")
    parser.add_argument("--postgres", nargs="?", const=os.environ.get(
        "LAVRA_TEST_POSTGRES_URL"), default=None, metavar="URL")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lavra-bench-nomes-") as folder, \
            _database(args.postgres, Path(folder)) as url, open_registry(url) as registry:
        started = time.perf_counter()
        fill(registry, args.nomes)
        if registry.engine.dialect.name == "postgresql":
            with registry.engine.begin() as connection:
                connection.execute(text("ANALYZE party_names"))
        filled = time.perf_counter() - started
        print(f"nomes: {args.nomes}  banco: {registry.engine.dialect.name}  "
              f"repetições: {args.repeticoes} (mediana)  preparação (não medida): "
              f"{filled:.1f} s")
        for label, typed in QUERIES:
            for way, call in _measures(registry, typed).items():
                cpu, wall, found = _timed(call, args.repeticoes)
                print(f"  {label:<6} «{typed}»  {way:<18} CPU {cpu:8.2f} ms  "
                      f"parede {wall:8.2f} ms  encontrados {found}")
    print("carga da máquina (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
