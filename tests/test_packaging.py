"""The distributions: the repository's wheel (engine + Americana pack) and the engine's own.

The wheels are built for real (``pip wheel``) and opened: a city installs one of them,
not a checkout. ``.ci/run`` also installs both in clean virtual environments and runs
``lavra demo`` outside the repository.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parent.parent
MUNICIPAL = re.compile(rb"americana|setransv|fretamento|escolar", re.IGNORECASE)


def _build(source: Path, out: Path) -> zipfile.ZipFile:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(source)],
        check=True,
        capture_output=True,
        stdin=subprocess.DEVNULL,
    )
    [wheel] = out.glob("*.whl")
    return zipfile.ZipFile(wheel)


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, zipfile.ZipFile]:
    root = tmp_path_factory.mktemp("wheels")
    # Built from a copy: setuptools builds in the source tree, and a build/ folder left
    # there by an earlier build would put modules that no longer exist into the wheel.
    source = root / "fonte"
    shutil.copytree(
        REPO,
        source,
        symlinks=True,
        ignore=shutil.ignore_patterns(
            ".git", "build", "*.egg-info", "__pycache__", ".mypy_cache", ".ruff_cache", "out"
        ),
    )
    return {
        "lavra": _build(source, root / "lavra"),
        "motor": _build(source / "engine", root / "motor"),
    }


def _requirements() -> list[str]:
    lines = (REPO / "engine" / "requirements.txt").read_text(encoding="utf-8").splitlines()
    return [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]


def _metadata(wheel: zipfile.ZipFile, name: str) -> str:
    [path] = [n for n in wheel.namelist() if n.endswith(".dist-info/" + name)]
    return wheel.read(path).decode("utf-8")


def test_the_repository_wheel_ships_the_engine_and_the_whole_pack(
    wheels: dict[str, zipfile.ZipFile],
) -> None:
    names = set(wheels["lavra"].namelist())
    shipped = {
        n.removeprefix("lavra_americana/")
        for n in names
        if n.startswith("lavra_americana/") and not n.endswith(".py")
    }
    for folder in ("legal_text", "schemas", "forms"):
        in_repo = {
            p.relative_to(REPO).as_posix()
            for p in (REPO / folder).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        }
        assert in_repo and in_repo <= shipped, sorted(in_repo - shipped)[:5]
    assert "lavra/cli/main.py" in names and "lavra/law/pack_schemas/_pacote/prazos.json" in names
    assert "lavra/registry/migrations/script.py.mako" in names
    assert "lavra/web/templates/base.html" in names and "lavra/web/static/lavra.css" in names
    entry_points = _metadata(wheels["lavra"], "entry_points.txt")
    assert "[lavra.pacotes]\namericana = lavra_americana:pacote" in entry_points
    assert "lavra = lavra.cli.main:main" in entry_points


def test_the_engine_wheel_carries_no_municipality(wheels: dict[str, zipfile.ZipFile]) -> None:
    wheel = wheels["motor"]
    names = wheel.namelist()
    assert any(n == "lavra/documents.py" for n in names)
    assert not [n for n in names if not n.startswith(("lavra/", "lavra_engine-"))]
    assert "lavra/law/pack_schemas/_pacote/parametros.json" in names
    named = [n for n in names if n.startswith("lavra/") and MUNICIPAL.search(wheel.read(n))]
    assert named == []
    assert "lavra.pacotes" not in _metadata(wheel, "entry_points.txt")


def _normalized(requirement: str) -> str:
    return str(Requirement(requirement)).lower()


def test_both_wheels_require_the_one_list_of_dependencies(
    wheels: dict[str, zipfile.ZipFile],
) -> None:
    for wheel in wheels.values():
        required = [
            line.removeprefix("Requires-Dist: ")
            for line in _metadata(wheel, "METADATA").splitlines()
            if line.startswith("Requires-Dist: ") and "extra ==" not in line
        ]
        # Compared as requirements: the metadata writes "typst<0.16,>=0.15" for the
        # requirements file's "typst>=0.15,<0.16".
        assert {_normalized(r) for r in required} == {_normalized(r) for r in _requirements()}
