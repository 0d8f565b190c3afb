"""Small pt-BR text helpers shared by the engine (dates in messages)."""

from __future__ import annotations

from datetime import date


def format_date(value: date) -> str:
    """``29/11/2026``."""
    return value.strftime("%d/%m/%Y")
