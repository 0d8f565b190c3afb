"""Defects of issue 22 found by the second read-only review (h/review22), each shown by a
test marked ``xfail(strict=True)``: when a fix lands, the test passes, the strict mark
makes it fail, and whoever fixes it removes the mark. Over the imported sample
(``exemplos/cadastro-importacao.csv``), on SQLite; every date is fixed."""

from __future__ import annotations

import pytest
from test_cadastro_import import load

from lavra.registry.store import Registry


@pytest.mark.xfail(strict=True, reason=(
    "An imported TRF-ESC row without placa (same vehicle) ends the alvará's vehicle "
    "facts (tipo, município de licenciamento) that its ALV-ESC row gave: Transfer "
    "replaces '/veiculo' unconditionally (transporte_escolar/estado.py, transferencia), "
    "and _transferencia of comum/importacao.py reads no vehicle fact columns"))
@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_an_imported_transfer_with_the_same_vehicle_keeps_its_facts(
    registry: Registry,
) -> None:
    load(registry)  # ALV-ESC nº 0019/2023: microonibus, Americana; then TRF-ESC 0003/2025
    view = registry.licence_by_number("ALV-ESC nº 0019/2023")
    assert view is not None
    facts = dict(view.facts)
    assert facts.get("/veiculo/tipo") == "microonibus", facts
    assert facts.get("/veiculo/municipio_licenciamento") == "Americana", facts
