"""The titles of the organ's posts, as forms/orgao.json names them: the one place a city
that renames a post changes. The templates read them as ``orgao.papeis[...]``; the pack's
Python reads them here (:func:`cargo`, :func:`secretario`), so a sentence built in Python
names the post exactly as the templates do. Implements no provision.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from lavra.checking.computations import ComputeInput
from lavra.errors import ContentPackError

__all__ = ["IMPLEMENTED", "SECRETARY", "cargo", "clear_cache", "secretaria", "secretario"]

IMPLEMENTED: tuple[str, ...] = ()
"""Loading only: no provision."""

SECRETARY = "secretario-transportes"
"""The role of forms/orgao.json whose holder decides in the Secretaria."""


@lru_cache(maxsize=8)
def _roles(root: Path) -> dict[str, str]:
    path = root / "forms" / "orgao.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return {name: str(role["cargo"]) for name, role in raw["papeis"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ContentPackError(
            f"forms/orgao.json: não foi possível ler os cargos dos papéis ({error})."
        ) from None


def cargo(source: Path | ComputeInput, role: str) -> str:
    """The title of ``role`` (a key of ``papeis`` in forms/orgao.json)."""
    root = Path(source.pack_dir if isinstance(source, ComputeInput) else source).resolve()
    try:
        return _roles(root)[role]
    except KeyError:
        raise ContentPackError(f"forms/orgao.json: falta o papel «{role}».") from None


def secretario(source: Path | ComputeInput) -> str:
    """The Secretário's title ("Secretário Municipal de Transportes e Sistema Viário")."""
    return cargo(source, SECRETARY)


@lru_cache(maxsize=8)
def _organ(root: Path) -> str:
    try:
        raw = json.loads((root / "forms" / "orgao.json").read_text(encoding="utf-8"))
        return str(raw["orgao"]).split(" – ")[0]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ContentPackError(
            f"forms/orgao.json: não foi possível ler o nome do órgão ({error})."
        ) from None


def secretaria(source: Path | ComputeInput) -> str:
    """The organ's name without its sigla ("Secretaria de Transportes e Sistema Viário"),
    from ``orgao`` in forms/orgao.json."""
    return _organ(Path(source.pack_dir if isinstance(source, ComputeInput) else source).resolve())


def clear_cache() -> None:
    """Forget the titles read (after forms/orgao.json was edited)."""
    _roles.cache_clear()
    _organ.cache_clear()
