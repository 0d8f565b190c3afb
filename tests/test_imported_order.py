"""An act imported from before lavra is placed at its own date among lavra's documents
(issue 22; :mod:`lavra.registry.act_dates`), not at the moment the import wrote it: in a
processo's acts, in the registry's search (newest first) and its date filters, in a
holder's documents, and on the pages that show a date. The registry holds an online
protocol and an act of lavra's first and the import after them. Over SQLite and
PostgreSQL (each has its own SQL for the start of a day); every date fixed (the
import's entries pinned to the day of the import)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime

import pytest
from registrycases import builder
from test_cadastro_import import load
from test_imported_moments import CHARTER_COMPANY, _receipt, pinned

from lavra.registry.filings import Filed, FilingInput, Filings
from lavra.registry.processos import Processos
from lavra.registry.records import LOCAL_TZ, IssuedRecord
from lavra.registry.search import Filters
from lavra.registry.store import Registry

pytestmark = pytest.mark.parametrize("registry_url", ["sqlite", "postgresql"], indirect=True)

ALVARA = "ALV-FRET nº 0031/2024"
"""The sample's alvará of 10/02/2024, in the processo PA 1.020/2024."""


def _file(registry: Registry, day: int, processo: str | None = None) -> Filed:
    doc, name = CHARTER_COMPANY
    moment = datetime(2026, 1, day, 10, tzinfo=LOCAL_TZ).astimezone(UTC)
    entry = FilingInput(series="PROT", form="recurso-fretamento", data={}, cpf_cnpj=doc,
                        name=name, attachments=(), processo=processo)
    return Filings(registry).file(entry, _receipt, receipt_form="comprovante-protocolo",
                                  now=moment)


def _signed(registry: Registry, day: int) -> IssuedRecord:
    """A document of lavra's naming the company, signed on ``day``/01/2026."""
    moment = datetime(2026, 1, day, 11, tzinfo=LOCAL_TZ).astimezone(UTC)
    return registry.issue("ATO", 2026, "ato-x", lambda number, printed: replace(
        builder({"cnpj": CHARTER_COMPANY[0]}, reference=moment.date())(number, printed),
        issued_at=moment), data={})


def test_an_imported_act_takes_its_own_date_in_the_processo_and_the_search(
    registry: Registry,
) -> None:
    """Protocols of 10/01 and 12/01/2026 in one processo, linked by staff to the PA
    1.020/2024; the alvará of that PA, of 10/02/2024, imported on 15/01/2026, comes
    before the first protocol in the processo; the search places it at 2024, finds it
    by its date and not by the import's day."""
    first = _file(registry, 10)
    Processos(registry).link(first.protocol, "PA 1.020/2024", by="Clara Souza",
                             now=datetime(2026, 1, 11, 13, tzinfo=UTC))
    second = _file(registry, 12, processo=first.processo)
    ato = _signed(registry, 11)
    assert ALVARA in load(registry).imported
    pinned(registry)
    alvara = registry.get("ALV-FRET", 2024, 31)
    assert alvara is not None and alvara.issued_at > second.receipt.issued_at

    acts = Filings(registry).acts(second)
    assert [a.printed for a in acts] == [ALVARA, first.protocol]
    assert alvara.act_date == date(2024, 2, 10)
    assert alvara.imported_note == (
        "ato anterior ao lavra, de 10/02/2024 (importado em 15/01/2026)")
    assert first.receipt.imported_note is None
    assert first.receipt.act_date == date(2026, 1, 10)

    newest = registry.browse(None, Filters()).records
    assert [r.printed for r in newest[:3]] == [second.protocol, ato.printed, first.protocol]
    dates = [r.act_date for r in newest]
    assert dates == sorted(dates, reverse=True)

    def found(since: date, until: date) -> set[str]:
        page = registry.browse(None, Filters(issued_from=since, issued_until=until),
                               per_page=200)
        return {r.printed for r in page.records}

    assert found(date(2024, 2, 10), date(2024, 2, 10)) == {ALVARA}
    assert found(date(2026, 1, 15), date(2026, 1, 15)) == set()  # the import's day
    assert found(date(2026, 1, 10), date(2026, 1, 12)) == {first.protocol, second.protocol,
                                                           ato.printed}

    # a holder's documents, by CNPJ: lavra's ato of 11/01/2026, then the AIF-FRET of
    # 01/10/2025 and the alvará, both imported after the ato
    newest_first = [ato.printed, "AIF-FRET nº 0040/2025", ALVARA]
    assert [r.printed for r in registry.search(CHARTER_COMPANY[0])] == newest_first
    assert [r.printed for r in registry.by_holder(CHARTER_COMPANY[0])] == newest_first
