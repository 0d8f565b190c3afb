"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def pack_dir() -> Path:
    """The Americana content pack shipped in this repository."""
    return REPO
