"""Rendering one document in a worker: template → HTML → PDF (and DOCX).

A form's wording is a template written by staff, so it is rendered in a warm worker
process of :mod:`lavra.render.isolation` (see :meth:`lavra.documents.Engine.draft`). What the
worker needs is small: the pack's laws (for citations), its templates and its page
frame; :class:`DocumentRenderer` holds them, and each worker keeps one per pack
between documents (:func:`render_job`). The data, already checked and computed by the
caller, travel in a :class:`RenderJob`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lavra.render.typstpdf import TypstRenderer

from lavra.errors import RenderError
from lavra.law.model import Law, load_laws, resolve
from lavra.render.isolation import start_clock
from lavra.render.mentions import full_first_mention
from lavra.render.pdf import LaidOutPdf, PageFrame, Renderer
from lavra.render.templating import StaffSandbox, make_environment, render_template
from lavra.textutil import act_titles as read_act_titles

__all__ = ["DocumentRenderer", "RenderJob", "Rendering", "render_job", "warm"]

LOGGER = logging.getLogger(__name__)

#: The template every document starts from (it includes the form's own wording).
FRAME_TEMPLATE = "documento.html"

#: The PDF (laid out for signing when the job has a QR code) and the DOCX.
Rendering = tuple[bytes | LaidOutPdf, bytes | None]


@dataclass(frozen=True)
class RenderJob:
    """What a worker needs to render one document of a pack."""

    pack: str
    version: str
    form: str
    draft: bool
    context: dict[str, Any]
    frame: PageFrame
    qr_png: bytes | None
    docx: bool
    renderer: str = "weasyprint"  # of the PDF (issued or draft): "weasyprint" or "typst"


class DocumentRenderer:
    """The templates and the page renderer of one pack."""

    def __init__(self, root: Path, laws: Mapping[str, Law]) -> None:
        self.root = root
        self.laws = laws
        #: What a citation resolved to, by citation and part: the pack's laws do not
        #: change under a renderer, and every document cites the same articles. Only
        #: citations that resolve are kept (so at most the pack's fragments); a wrong
        #: one raises its error each time.
        self._citations: dict[tuple[str, bool], str] = {}

    def _cited(self, citation: str, text: bool) -> str:
        if not isinstance(citation, str):
            found = resolve(self.laws, citation)
            return (found.text or "") if text else found.reference
        known = self._citations.get((citation, text))
        if known is None:
            found = resolve(self.laws, citation)
            known = (found.text or "") if text else found.reference
            self._citations[(citation, text)] = known
        return known

    def _cite(self, citation: str) -> str:
        return self._cited(citation, False)

    def _cite_text(self, citation: str) -> str:
        return self._cited(citation, True)

    def _environment(self, draft: bool) -> StaffSandbox:
        return make_environment(
            [self.root / "forms", self.root / "forms" / "_modelos"],
            cite=self._cite,
            cite_text=self._cite_text,
            act_titles=self.act_titles,
            draft=draft,
        )

    @cached_property
    def act_titles(self) -> dict[str, str]:
        """Series → the title of the form issuing it (the ``ato`` filter's labels)."""
        return read_act_titles(self.root)

    @cached_property
    def draft_env(self) -> StaffSandbox:
        return self._environment(True)

    @cached_property
    def final_env(self) -> StaffSandbox:
        return self._environment(False)

    @cached_property
    def renderer(self) -> Renderer:
        return Renderer(self.root / "forms" / "_base")

    @cached_property
    def typst(self) -> TypstRenderer:
        from lavra.render.typstpdf import TypstRenderer

        return TypstRenderer(self.root / "forms" / "_base")

    def laid_out(self, body: str, frame: PageFrame, renderer: str) -> LaidOutPdf:
        """An issued document laid out for signing by ``renderer``. A wording Typst cannot
        lay out falls back to WeasyPrint (logged): the document is issued all the same."""
        if renderer == "typst":
            try:
                return self.typst.pdf_for_signing(body, frame)
            except RenderError as error:
                LOGGER.warning("Typst não gerou o documento; usado o WeasyPrint: %s", error)
        return self.renderer.pdf_for_signing(body, frame)

    def draft_pdf(self, body: str, frame: PageFrame, renderer: str) -> bytes:
        """A draft laid out by ``renderer`` (the same fallback to WeasyPrint)."""
        if renderer == "typst" and frame.minuta:
            try:
                return self.typst.pdf(body, frame)
            except RenderError as error:
                LOGGER.warning("Typst não gerou a minuta; usado o WeasyPrint: %s", error)
        return self.renderer.pdf(body, frame)

    def report_pdf(self, body: str, frame: PageFrame) -> bytes:
        """A staff report that is no act (a batch run's summary), laid out by Typst
        whichever renderer the documents use: it is read, not signed or compared with an
        act, and WeasyPrint's time grows with its rows (about 15 ms each, against a
        fraction of a millisecond). WeasyPrint lays it out only when the pack has no
        Typst page, or Typst fails on it (logged). What Typst memoized of the report is
        let go at once (:meth:`TypstRenderer.forget`): the web server's memory comes
        back after each run."""
        from lavra.render.typstpdf import PAGE_FILE

        if (self.root / "forms" / "_base" / PAGE_FILE).is_file():
            typst = self.typst
            try:
                return typst.report(body, frame)
            except RenderError as error:
                LOGGER.warning("Typst não gerou o relatório; usado o WeasyPrint: %s", error)
            finally:  # a report is laid out once: what Typst memoized of it goes
                typst.forget()
        return self.renderer.pdf(body, frame)

    def render(self, job: RenderJob) -> Rendering:
        env = self.draft_env if job.draft else self.final_env
        body = full_first_mention(render_template(env, FRAME_TEMPLATE, job.context), self.laws)
        if job.qr_png is not None:
            pdf: bytes | LaidOutPdf = self.laid_out(
                body, replace(job.frame, qr_png=job.qr_png), job.renderer
            )
        else:
            pdf = self.draft_pdf(body, job.frame, job.renderer)
        return pdf, (self.renderer.docx(body, job.frame) if job.docx else None)


#: The renderer a worker keeps warm, by (pack, version).
_WARM: dict[tuple[str, str], DocumentRenderer] = {}


def _warm_renderer(pack: str, version: str, renderer: str = "weasyprint") -> DocumentRenderer:
    key = (pack, version)
    found = _WARM.get(key)
    if found is None:
        _WARM.clear()
        root = Path(pack)
        found = DocumentRenderer(root, load_laws(root))
        _ = found.renderer  # fonts and CSS, before the task's clock starts
        _ = found.draft_env, found.final_env
        _WARM[key] = found
    if renderer == "typst":
        _ = found.typst  # the warm compiler of issued documents
    return found


def warm(pack: str, version: str, renderer: str = "weasyprint") -> int:
    """Runs in a worker: load the pack's renderer (and ``renderer``'s, for issued
    documents) now, so that the first document a user asks for does not wait for it.
    Returns the worker's process id."""
    import os

    _warm_renderer(pack, version, renderer)
    return os.getpid()


def render_job(job: RenderJob) -> Rendering:
    """Runs in a worker: the job rendered with the pack's renderer kept from earlier jobs."""
    found = _warm_renderer(job.pack, job.version, job.renderer)
    start_clock()
    return found.render(job)
