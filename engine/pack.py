"""Locating the content pack: legal_text/, schemas/ and forms/ of one municipality."""

from __future__ import annotations

import os
from pathlib import Path

from lavra.errors import ContentPackError

PACK_ENV = "LAVRA_PACK"
PACK_FOLDERS = ("legal_text", "schemas", "forms")


def checked_pack_dir(root: Path) -> Path:
    """``root`` when it holds the three folders of a content pack, else ContentPackError."""
    missing = [name for name in PACK_FOLDERS if not (root / name).is_dir()]
    if missing:
        raise ContentPackError(
            f"Pacote de conteúdo não encontrado em {root}: faltam as pastas "
            f"{', '.join(missing)}. Indique-o pela variável {PACK_ENV} ou pela chave "
            "«pacote» da configuração."
        )
    return root


def default_pack_dir() -> Path:
    """The pack named by ``LAVRA_PACK``, else the one beside the engine's source."""
    named = os.environ.get(PACK_ENV)
    return checked_pack_dir(Path(named) if named else Path(__file__).resolve().parent.parent)
