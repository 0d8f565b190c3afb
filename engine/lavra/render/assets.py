"""The files a page may use: only those inside the pack's assets dir.

:class:`AssetPaths` holds the checks both renderers apply to every resource a page
names (WeasyPrint through :class:`lavra.render.weasyfetch.AssetFetcher`, Typst through
its own file reader). It imports neither renderer: a Typst worker does not load
WeasyPrint (half a second of CPU and tens of MiB per process) to check a path.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from lavra.errors import RenderError

__all__ = ["AssetPaths"]

#: Extensions the fetcher serves, with their media type.
_SERVED_TYPES = {
    ".css": "text/css",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
}
_MAX_ASSET_BYTES = 16 * 1024 * 1024


class AssetPaths:
    """The files inside ``assets_dir`` a page may use (and PNG images held in memory).

    Refused (:class:`RenderError`): any scheme but ``file``
    (``http``, ``https``, ``data``, ``ftp`` ...), a host, a query, ``..`` segments, a
    path that resolves (symlinks followed) outside the assets dir, a file type not in
    the list, a file larger than 16 MiB.
    """

    def __init__(self, assets_dir: Path, memory: Mapping[str, bytes] | None = None) -> None:
        self.root = assets_dir.resolve(strict=True)
        # PNG images made by the engine for this document only (the QR code).
        self.memory = dict(memory or {})

    def resolve(self, url: str) -> Path:
        """The file of ``url`` inside the assets dir, or :class:`RenderError`."""
        refused = RenderError(f"Recurso recusado (fora dos arquivos da página): {url[:200]}")
        try:
            parts = urlsplit(url)
        except ValueError as exc:
            raise refused from exc
        if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
            raise refused
        if parts.query:
            raise refused
        raw_path = unquote(parts.path)
        if "\x00" in raw_path or ".." in raw_path.replace("\\", "/").split("/"):
            raise refused
        try:
            candidate = Path(url2pathname(parts.path))
            resolved = candidate.resolve(strict=True)
        except (OSError, ValueError, RuntimeError) as exc:
            raise refused from exc
        if not (candidate.is_absolute() and candidate.is_relative_to(self.root)):
            raise refused
        if not resolved.is_relative_to(self.root) or not resolved.is_file():
            raise refused
        if resolved.suffix.lower() not in _SERVED_TYPES:
            raise refused
        if resolved.stat().st_size > _MAX_ASSET_BYTES:
            raise refused
        return resolved

    def resolve_name(self, name: str) -> Path:
        """A file named relative to the assets dir (e.g. the brasão), checked like a URL."""
        if not name or name.startswith(("/", "\\")) or ":" in name:
            raise RenderError(f'Arquivo de imagem inválido: "{name[:200]}".')
        try:
            return self.resolve((self.root / name).as_uri())
        except RenderError as exc:
            raise RenderError(
                f'Arquivo de imagem "{name[:200]}" não encontrado entre os arquivos da página.'
            ) from exc
