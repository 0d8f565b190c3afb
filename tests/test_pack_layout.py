"""The Americana pack's rule code sits beside the law it implements (issue 9).

Every module of ``lavra_americana`` is listed by the pack as a rule module, declares the
citations it implements in ``IMPLEMENTED``, names in its docstring the law or the articles
it implements, and stays under the house limit of 600 lines.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import lavra_americana
from lavra_americana import pacote

LIMIT = 600


def _modules() -> list[str]:
    found = []
    for info in pkgutil.walk_packages(lavra_americana.__path__, "lavra_americana."):
        if not info.ispkg:
            found.append(info.name)
    return sorted(found)


def test_every_module_is_a_rule_module_with_implemented() -> None:
    listed = {module.__name__ for module in pacote().rule_modules}
    assert set(_modules()) == listed
    for module in pacote().rule_modules:
        declared = module.IMPLEMENTED
        assert isinstance(declared, tuple), module.__name__
        assert all(isinstance(c, str) and "#" in c for c in declared), module.__name__


def test_each_law_folder_holds_only_its_law() -> None:
    for module in pacote().rule_modules:
        name = module.__name__
        law = ("fretamento#" if ".fretamento." in name
               else "transporte-escolar#" if ".transporte_escolar." in name else None)
        if law is not None:
            assert all(c.startswith(law) for c in module.IMPLEMENTED), name


def test_modules_are_short_and_say_what_they_implement() -> None:
    for name in _modules():
        module = importlib.import_module(name)
        doc = module.__doc__ or ""
        assert doc.strip(), name
        assert module.__file__ is not None
        lines = Path(module.__file__).read_text(encoding="utf-8").count("\n")
        assert lines <= LIMIT, (name, lines)
        if module.IMPLEMENTED:
            assert "art" in doc, name


def test_computations_come_from_every_form_module() -> None:
    computations = pacote().computations
    for module in pacote().rule_modules:
        for name, function in getattr(module, "COMPUTATIONS", {}).items():
            assert computations[name] is function
