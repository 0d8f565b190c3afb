"""The engine's layout: layering as the package docstrings state it, module size, no pack.

Each stage package of ``engine/lavra`` says in its ``__init__`` docstring what it may
import ("May import: ``lavra.x``, ..."), and any narrow exception ("Exception:
``lavra.a.b`` may also import ``lavra.c.d``: why"); ``lavra/__init__.py`` says it for
the top-level modules (errors, pack, config, documents, issuing...). These tests read
those docstrings and every import of every engine module with :mod:`ast`, so that the
documentation and the code cannot drift apart.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine" / "lavra"
MAX_LINES = 600
FORBIDDEN_WORDS = re.compile(r"americana|setransv|fretamento|escolar", re.IGNORECASE)
TEXT_SUFFIXES = (".py", ".html", ".json", ".js", ".css")
REPO_ROOTS = frozenset({"lavra_americana", "tests", "bench"})  # never imported by the engine


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, "lavra.checking.content"
    target: str  # what it imports, "lavra.render.templatecheck"
    line: int


@dataclass(frozen=True)
class Rules:
    allowed: dict[str, frozenset[str]]  # unit ("lavra.law", "lavra.config") -> may import
    exceptions: frozenset[tuple[str, str]]  # (importing module prefix, target prefix)


def module_name(path: Path, root: Path = ENGINE) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes inside ``if TYPE_CHECKING:`` blocks (for mypy only, exempt)."""
    exempt: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else (
                test.attr if isinstance(test, ast.Attribute) else None)
            if name == "TYPE_CHECKING":
                for child in node.body:
                    exempt.update(id(n) for n in ast.walk(child))
    return exempt


def imports_of(path: Path, root: Path = ENGINE) -> list[Import]:
    """Every import in the file, module-level or inside functions, resolved to a name."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt = _type_checking_nodes(tree)
    found: list[Import] = []
    for node in ast.walk(tree):
        if id(node) in exempt:
            continue
        if isinstance(node, ast.Import):
            found.extend(Import(module, alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target == "lavra" or (node.level and not node.module):
                # ``from lavra import x`` / ``from . import x``: x may be a submodule
                found.extend(Import(module, f"{target}.{alias.name}", node.lineno)
                             for alias in node.names)
            else:
                found.append(Import(module, target, node.lineno))
    return found


def unit_of(module: str) -> str:
    """The layering unit of a module: its stage package or top-level module."""
    return ".".join(module.split(".")[:2])


def _names(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"``(lavra(?:\.\w+)*)``", text))


def read_rules(root: Path = ENGINE) -> Rules:
    """The rules the docstrings state."""
    allowed: dict[str, frozenset[str]] = {}
    exceptions: set[tuple[str, str]] = set()
    top = ast.get_docstring(ast.parse((root / "__init__.py").read_text(encoding="utf-8"))) or ""
    block = top.split("The top-level modules may import::", 1)[1]
    current = None
    for line in block.splitlines():
        entry = re.match(r"    (lavra\.\w+)\s+(.*)$", line)
        if entry:
            current = entry.group(1)
            rest = entry.group(2).split()
            allowed[current] = frozenset(() if rest == ["nothing"] else rest)
        elif current and re.match(r"\s{8,}lavra\.", line):
            allowed[current] |= frozenset(line.split())
        elif line.strip():
            break
    for init in sorted(root.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        unit = module_name(init, root)
        match = re.search(r"May import:(.*?)(?:\n\s*\n|\Z)", doc, re.S)
        assert match, f"{unit}: the docstring does not say what it may import («May import:»)"
        allowed[unit] = _names(match.group(1))
        for source, target in re.findall(
                r"Exception: ``(lavra[\w.]*)`` may also import ``(lavra[\w.]*)``", doc):
            assert unit_of(source) == unit, f"{unit}: exception for another package {source}"
            exceptions.add((source, target))
    return Rules(allowed, frozenset(exceptions))


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layering_violations(root: Path = ENGINE) -> list[str]:
    rules = read_rules(root)
    problems: list[str] = []
    for path in sorted(root.rglob("*.py")):
        for imp in imports_of(path, root):
            if not _within(imp.target, "lavra"):
                continue
            own, target_unit = unit_of(imp.module), unit_of(imp.target)
            if imp.target == "lavra" or target_unit == own or target_unit.startswith("lavra.__"):
                continue
            if own not in rules.allowed:
                problems.append(f"{imp.module}: no rule states what {own} may import")
                continue
            if any(_within(target_unit, allowed) for allowed in rules.allowed[own]):
                continue
            if any(_within(imp.module, src) and _within(imp.target, dst)
                   for src, dst in rules.exceptions):
                continue
            problems.append(f"{path.relative_to(root.parent)}:{imp.line}: {imp.module} "
                            f"imports {imp.target}, which {own} may not import")
    return problems


def pack_modules() -> frozenset[str]:
    """The packs' top-level modules: those installed (entry point group ``lavra.pacotes``)
    and the pack packages of this repository (an ``__init__.py`` defining ``pacote``)."""
    installed = {entry.module.split(".")[0]
                 for entry in metadata.entry_points(group="lavra.pacotes")}
    repo = ENGINE.parent.parent
    here = {init.parent.name
            for pattern in ("*/__init__.py", "tests/*/*/__init__.py", "tests/*/__init__.py")
            for init in repo.glob(pattern)
            if "def pacote(" in init.read_text(encoding="utf-8")}
    return frozenset(installed | here)


def pack_imports(root: Path = ENGINE) -> list[str]:
    forbidden = REPO_ROOTS | pack_modules()
    return [
        f"{path.relative_to(root.parent)}:{imp.line}: {imp.module} imports {imp.target}"
        for path in sorted(root.rglob("*.py"))
        for imp in imports_of(path, root)
        if imp.target.split(".")[0] in forbidden or imp.target.startswith("lavra_")
    ]


def long_modules(root: Path = ENGINE) -> list[str]:
    return [
        f"{path.relative_to(root.parent)}: {count} lines"
        for path in sorted(root.rglob("*.py"))
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]


def municipal_words(root: Path = ENGINE) -> list[str]:
    found: list[str] = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in TEXT_SUFFIXES or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in FORBIDDEN_WORDS.finditer(line):
                found.append(f"{path.relative_to(root.parent)}:{number}: {match.group(0)}")
    return found


# ------------------------------------------------------------------ the engine as it is


def test_every_stage_package_states_its_imports() -> None:
    rules = read_rules()
    stages = {module_name(p) for p in ENGINE.glob("*/__init__.py")}
    tops = {module_name(p) for p in ENGINE.glob("*.py") if p.name != "__init__.py"}
    assert stages <= rules.allowed.keys()
    assert tops <= rules.allowed.keys(), sorted(tops - rules.allowed.keys())
    assert {"lavra.inputs", "lavra.law", "lavra.checking", "lavra.render", "lavra.signing",
            "lavra.registry", "lavra.cli", "lavra.web"} <= stages
    assert rules.allowed["lavra.errors"] == frozenset()
    assert ("lavra.checking.content", "lavra.render.templatecheck") in rules.exceptions


def test_packages_import_only_what_their_docstrings_allow() -> None:
    problems = layering_violations()
    assert not problems, "\n".join(problems)


def test_no_engine_module_imports_a_pack() -> None:
    problems = pack_imports()
    assert not problems, "\n".join(problems)


def test_engine_modules_are_under_the_size_limit() -> None:
    offenders = long_modules()
    print("\n".join(offenders))
    assert not offenders, f"modules over {MAX_LINES} lines:\n" + "\n".join(offenders)


def test_engine_names_no_municipality() -> None:
    found = municipal_words()
    assert not found, "\n".join(found)


# ------------------------------------------------------- the checks catch a violation


def _copy_engine(tmp_path: Path) -> Path:
    root = tmp_path / "lavra"
    for path in ENGINE.rglob("*"):
        if path.is_file() and path.suffix in TEXT_SUFFIXES and "__pycache__" not in path.parts:
            target = root / path.relative_to(ENGINE)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return root


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


@pytest.mark.parametrize(
    ("where", "code", "expected"),
    [
        # a lower stage importing a higher one, at module level
        ("law/model.py", "from lavra.checking.report import Item\n",
         "lavra.law.model imports lavra.checking.report"),
        # inside a function
        ("inputs/pointers.py",
         "\n\ndef _late() -> None:\n    from lavra.registry.store import open_registry\n",
         "lavra.inputs.pointers imports lavra.registry.store"),
        # relative import into another stage
        ("signing/pki.py", "from ..documents import Engine\n",
         "lavra.signing.pki imports lavra.documents"),
        # ``from lavra import <stage>``
        ("render/pdf.py", "from lavra import issuing\n",
         "lavra.render.pdf imports lavra.issuing"),
        # the exception is narrow: another module of checking may not use it
        ("checking/report.py", "from lavra.render.templatecheck import check_templates\n",
         "lavra.checking.report imports lavra.render.templatecheck"),
        # a top-level module
        ("errors.py", "import lavra.textutil\n", "lavra.errors imports lavra.textutil"),
    ],
)
def test_a_layering_violation_is_caught(tmp_path: Path, where: str, code: str,
                                        expected: str) -> None:
    root = _copy_engine(tmp_path)
    assert layering_violations(root) == []
    _append(root / where, code)
    problems = layering_violations(root)
    assert any(expected in problem for problem in problems), problems


def test_type_checking_imports_are_exempt(tmp_path: Path) -> None:
    root = _copy_engine(tmp_path)
    _append(root / "law/model.py",
            "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from lavra.checking.report import Item\n")
    assert layering_violations(root) == []


def test_a_package_without_rules_is_caught(tmp_path: Path) -> None:
    root = _copy_engine(tmp_path)
    (root / "signing/__init__.py").write_text('"""Signing."""\n', encoding="utf-8")
    with pytest.raises(AssertionError, match="May import"):
        read_rules(root)


def test_pack_import_size_and_words_are_caught(tmp_path: Path) -> None:
    root = _copy_engine(tmp_path)
    _append(root / "render/glyphs.py", "\n\ndef _x() -> None:\n    import lavra_americana\n")
    _append(root / "law/params.py", "\n# " + "x\n# " * MAX_LINES)
    (root / "web/static/extra.css").write_text("/* Transporte Escolar */\n", encoding="utf-8")
    assert pack_imports(root) == [
        f"lavra/render/glyphs.py:{len((root / 'render/glyphs.py').read_text().splitlines())}: "
        "lavra.render.glyphs imports lavra_americana"
    ]
    assert [line.split(":")[0] for line in long_modules(root)] == ["lavra/law/params.py"]
    words = municipal_words(root)
    assert "lavra/web/static/extra.css:1: Escolar" in words
    assert any(w.startswith("lavra/render/glyphs.py:") and w.endswith("americana") for w in words)
