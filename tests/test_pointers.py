"""JSON pointer helpers used by the report and the checks."""

from __future__ import annotations

from lavra.inputs import pointers

DATA = {"veiculos": [{"placa": "ABC1D23"}, {"placa": "DEF4G56"}], "a/b": {"~x": 1}}


def test_expand_star_over_present_items() -> None:
    assert list(pointers.expand("/veiculos/*/placa", DATA)) == [
        "/veiculos/0/placa",
        "/veiculos/1/placa",
    ]


def test_expand_absent_array_yields_nothing_and_plain_pattern_yields_itself() -> None:
    assert list(pointers.expand("/motoristas/*/cnh", DATA)) == []
    assert list(pointers.expand("/documentos/cnpj", DATA)) == ["/documentos/cnpj"]


def test_escaping_round_trip() -> None:
    pointer = pointers.join(["a/b", "~x"])
    assert pointer == "/a~1b/~0x"
    assert pointers.split(pointer) == ["a/b", "~x"]
    assert pointers.get(DATA, pointer) == 1


def test_get_missing_and_within() -> None:
    assert pointers.get(DATA, "/veiculos/5/placa", "ausente") == "ausente"
    assert pointers.get(DATA, "/veiculos/x") is None
    assert pointers.is_within("/veiculos/0/placa", "/veiculos")
    assert not pointers.is_within("/veiculosx", "/veiculos")
    assert pointers.dotted("/veiculos/0/placa") == "veiculos.0.placa"
