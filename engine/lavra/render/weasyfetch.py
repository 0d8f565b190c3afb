"""WeasyPrint's URL fetcher of the renderer: the files of :class:`AssetPaths` only.

Imported only where WeasyPrint lays out a page (:class:`lavra.render.pdf.Renderer`):
importing this module imports WeasyPrint.
"""

from __future__ import annotations

import logging
import mimetypes
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from weasyprint.urls import URLFetcher, URLFetcherResponse

from lavra.errors import RenderError
from lavra.render.assets import _SERVED_TYPES, AssetPaths

__all__ = ["AssetFetcher"]

LOGGER = logging.getLogger("lavra.render.pdf")


class AssetFetcher(URLFetcher, AssetPaths):  # type: ignore[misc]
    """A WeasyPrint URL fetcher that serves only the files of :class:`AssetPaths`:
    any other URL raises, so WeasyPrint skips the resource."""

    def __init__(self, assets_dir: Path, memory: Mapping[str, bytes] | None = None) -> None:
        URLFetcher.__init__(
            self,
            timeout=5,
            allowed_protocols=("file",),
            allow_redirects=False,
            fail_on_errors=False,
        )
        AssetPaths.__init__(self, assets_dir, memory)

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        if url in self.memory:
            return URLFetcherResponse(
                url, body=self.memory[url], headers={"Content-Type": "image/png"}
            )
        try:
            path = self.resolve(url)
        except RenderError:
            LOGGER.warning("Recurso recusado pelo filtro de URLs: %s", url[:200])
            raise
        media_type = _SERVED_TYPES.get(path.suffix.lower()) or (
            mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        )
        return URLFetcherResponse(
            path.as_uri(), body=path.read_bytes(), headers={"Content-Type": media_type}
        )
