"""Rendering one wording to a PDF/A (WeasyPrint) and to an editable DOCX (docxtpl).

The wording is the restricted HTML body produced by a form's template (see
:mod:`lavra.render.templating`). :class:`Renderer` puts it in the page frame:

- PDF: the body, sanitized (:func:`lavra.render.htmlblocks.sanitize`), goes inside a page with
  a running header (brasão, município, órgão, document number), a footer
  "Página x de y" (CSS counters) and, for a draft, a fixed diagonal "MINUTA" mark
  repeated on every page. The page CSS and fonts come from the assets dir
  (``forms/_base/`` of the content pack). Output is PDF/A-2b; a fillable form is a
  plain PDF with AcroForm fields.
- DOCX: the same body written as python-docx paragraphs and tables in a docxtpl subdoc,
  placed in ``modelo.docx``; header/footer variables are rendered with autoescaping.

Every resource WeasyPrint asks for goes through :class:`AssetFetcher`
(:mod:`lavra.render.weasyfetch`), which serves only files inside the assets dir
(:class:`lavra.render.assets.AssetPaths`): no other file, no network, no ``data:`` URL.
WeasyPrint is imported when the first :class:`Renderer` is made, not with this module:
a process that lays out only with Typst never loads it.

A :class:`Renderer` is made once per process (it keeps the CSS and ONE
``FontConfiguration``) and is not meant to be shared between threads.
"""

from __future__ import annotations

import html
import logging
import re
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

import docx
from docx.shared import Mm
from docxtpl import DocxTemplate, InlineImage
from jinja2.sandbox import SandboxedEnvironment
from lxml import etree  # type: ignore[import-untyped, unused-ignore]

from lavra.errors import ContentPackError, LavraError, RenderError
from lavra.render.fillable.building import FILLABLE_CSS
from lavra.render.htmlblocks import sanitize, write_docx

if TYPE_CHECKING:
    from lavra.render.weasyfetch import AssetFetcher

__all__ = [
    "CSS_FILE",
    "DOCX_BASE_FILE",
    "PDF_VARIANT",
    "AssetFetcher",
    "PageFrame",
    "Renderer",
]

LOGGER = logging.getLogger(__name__)

#: File names inside the assets dir.
CSS_FILE = "pagina.css"
DOCX_BASE_FILE = "modelo.docx"
#: PDF/A-2b: PDF 1.7, embedded TrueType subsets without the CIDSet that PDF/A-1 needs
#: (WeasyPrint writes CIDSet only for PDF <= 1.4), no transparency limits for the
#: grey watermark, and, unlike PDF/A-3, no arbitrary embedded files: WeasyPrint strips
#: non-PDF attachments for this variant.
PDF_VARIANT = "pdf/a-2b"

_LANG = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$")
_BRASAO_HEIGHT_MM = 14


@dataclass(frozen=True)
class PageFrame:
    """What surrounds the body on every page."""

    municipio: str
    orgao: str
    titulo: str
    minuta: bool = False
    numero: str | None = None  # as printed, with its series: "ALV-FRET nº 0001/2026"
    brasao: str | None = None  # file name of a PNG/JPEG inside the assets dir
    qr_png: bytes | None = None  # the verification QR code of an issued document


# An issued document reserves, at the end of its last page, an empty box where the
# signer draws the visible signature. Its size is fixed here; its place is read back
# from the laid-out page (WeasyPrint anchors) so the stamp never covers text.
SIGNATURE_ANCHOR = "lavra-reserva-assinatura"
SIGNATURE_BOX_MM = (126.0, 24.0)
_QR_URL = "lavra-memoria:qr.png"
_PT_PER_MM = 72 / 25.4
_PT_PER_PX = 0.75


@dataclass(frozen=True)
class LaidOutPdf:
    """A PDF ready to sign: where the signature box lies (PDF points, origin bottom-left)."""

    pdf: bytes
    signature_page: int
    signature_box: tuple[float, float, float, float]


class _BodyFragment:
    """The body built with python-docx, inserted by docxtpl through ``{{p corpo }}``.

    Like docxtpl's own ``Subdoc`` without a source document (which would need the
    optional ``docxcompose`` package): a blank python-docx document whose part is the
    template's, so styles resolve against ``modelo.docx``; its body XML, serialized by
    lxml, is what the placeholder paragraph becomes.
    """

    def __init__(self, template: DocxTemplate) -> None:
        self.document: Any = docx.Document()
        self.document._part = template.get_docx()._part

    def __html__(self) -> str:
        body = self.document.element.body
        if body.sectPr is not None:
            body.remove(body.sectPr)
        return "".join(etree.tostring(child, encoding="unicode") for child in body)

    def __str__(self) -> str:
        return self.__html__()


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


class Renderer:
    """Renders bodies to PDF and DOCX with the page frame of ``assets_dir``."""

    def __init__(self, assets_dir: Path) -> None:
        try:
            self.assets_dir = assets_dir.resolve(strict=True)
            css_text = (self.assets_dir / CSS_FILE).read_text(encoding="utf-8")
            self._docx_base = (self.assets_dir / DOCX_BASE_FILE).read_bytes()
        except (OSError, UnicodeDecodeError) as exc:
            raise ContentPackError(
                f"Arquivos da página-base ausentes ou ilegíveis em {assets_dir}: "
                f"são necessários {CSS_FILE} e {DOCX_BASE_FILE}."
            ) from exc
        # WeasyPrint is imported here, not with the module: a Typst worker never loads it.
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        from lavra.render.weasyfetch import AssetFetcher

        self.fetcher = AssetFetcher(self.assets_dir)
        self._base_url = self.assets_dir.as_uri() + "/"
        self._font_config = FontConfiguration()
        try:
            self._css = CSS(
                string=css_text,
                base_url=self._base_url,
                url_fetcher=self.fetcher,
                font_config=self._font_config,
            )
        except Exception as exc:
            raise ContentPackError(f"A folha de estilo {CSS_FILE} é inválida: {exc}") from exc
        # The engine's own layout of a fillable requerimento, after the pack's styles.
        self._form_css = CSS(string=FILLABLE_CSS, font_config=self._font_config)
        self._docx_env = SandboxedEnvironment(autoescape=True)

    # ------------------------------------------------------------------ PDF

    def page_html(self, content_html: str, frame: PageFrame, *, lang: str = "pt-BR") -> str:
        """The complete HTML page given to WeasyPrint (body sanitized)."""
        if not _LANG.match(lang):
            raise RenderError(f'Código de idioma inválido: "{lang[:40]}".')
        header = ['<div class="cabecalho">']
        if frame.brasao:
            self.fetcher.resolve_name(frame.brasao)
            header.append(f'<p class="brasao"><img src="{_esc(frame.brasao)}" alt=""></p>')
        header.append(f'<p class="municipio">{_esc(frame.municipio)}</p>')
        header.append(f'<p class="orgao">{_esc(frame.orgao)}</p>')
        if frame.numero:
            header.append(f'<p class="numero">{_esc(frame.numero)}</p>')
        if frame.minuta:
            header.append('<p class="aviso-minuta">MINUTA — documento sem valor oficial</p>')
        header.append("</div>")
        mark = '<div class="marca-minuta" aria-hidden="true">MINUTA</div>' if frame.minuta else ""
        closing = ""
        if frame.qr_png is not None:
            width, height = SIGNATURE_BOX_MM
            closing = (
                '<div class="fecho-emissao">'
                f'<img class="qr-verificacao" src="{_QR_URL}" alt="Código QR de verificação">'
                f'<div id="{SIGNATURE_ANCHOR}" class="reserva-assinatura" '
                f'style="width: {width}mm; height: {height}mm"></div></div>'
            )
        return (
            f'<!DOCTYPE html><html lang="{_esc(lang)}"><head><meta charset="utf-8">'
            f"<title>{_esc(frame.titulo)}</title></head><body>"
            f"{''.join(header)}{mark}"
            f'<h1 class="titulo-documento">{_esc(frame.titulo)}</h1>'
            f"{sanitize(content_html)}{closing}</body></html>"
        )

    def _fetcher_for(self, frame: PageFrame) -> AssetFetcher:
        if frame.qr_png is None:
            return self.fetcher
        from lavra.render.weasyfetch import AssetFetcher

        return AssetFetcher(self.assets_dir, {_QR_URL: frame.qr_png})

    def pdf_for_signing(
        self, content_html: str, frame: PageFrame, *, lang: str = "pt-BR"
    ) -> LaidOutPdf:
        """The PDF/A of an issued document and the place of its reserved signature box."""
        if frame.qr_png is None:
            raise RenderError("Documento a assinar sem código QR de verificação.")
        from weasyprint import HTML  # loaded by __init__ already

        page = self.page_html(content_html, frame, lang=lang)
        try:
            document = HTML(
                string=page, base_url=self._base_url, url_fetcher=self._fetcher_for(frame)
            ).render(font_config=self._font_config, stylesheets=[self._css])
            found = [
                (index, p)
                for index, p in enumerate(document.pages)
                if SIGNATURE_ANCHOR in p.anchors
            ]
            if not found:
                raise RenderError("Não foi possível reservar o espaço da assinatura.")
            index, laid = found[-1]
            # WeasyPrint 70 gives (x1, y1, x2, y2) in CSS px from the top-left corner;
            # earlier versions gave only (x, y): the box size is ours anyway.
            x_px, y_px = laid.anchors[SIGNATURE_ANCHOR][:2]
            height_pt = laid.height * _PT_PER_PX
            width_mm, box_mm = SIGNATURE_BOX_MM
            x1 = x_px * _PT_PER_PX
            top = height_pt - y_px * _PT_PER_PX
            box = (x1, top - box_mm * _PT_PER_MM, x1 + width_mm * _PT_PER_MM, top)
            result = document.write_pdf(pdf_variant=PDF_VARIANT)
        except LavraError:
            raise
        except Exception as exc:
            raise RenderError(f"Não foi possível gerar o PDF: {exc}") from exc
        if not isinstance(result, bytes):
            raise RenderError("Não foi possível gerar o PDF: o gerador não devolveu dados.")
        return LaidOutPdf(result, index, box)

    def pdf(
        self,
        content_html: str,
        frame: PageFrame,
        *,
        fillable: bool = False,
        lang: str = "pt-BR",
    ) -> bytes:
        """The document as PDF/A-2b bytes; ``fillable=True`` gives a plain PDF with
        AcroForm fields instead (AcroForms and PDF/A do not mix well)."""
        from weasyprint import HTML  # loaded by __init__ already

        page = self.page_html(content_html, frame, lang=lang)
        options: dict[str, Any] = {"pdf_forms": True} if fillable else {"pdf_variant": PDF_VARIANT}
        try:
            document = HTML(
                string=page, base_url=self._base_url, url_fetcher=self._fetcher_for(frame)
            )
            result = document.write_pdf(
                stylesheets=[self._css, self._form_css] if fillable else [self._css],
                font_config=self._font_config,
                **options,
            )
        except LavraError:
            raise
        except Exception as exc:
            raise RenderError(f"Não foi possível gerar o PDF: {exc}") from exc
        if not isinstance(result, bytes):
            raise RenderError("Não foi possível gerar o PDF: o gerador não devolveu dados.")
        return result

    # ------------------------------------------------------------------ DOCX

    def docx(self, content_html: str, frame: PageFrame) -> bytes:
        """The document as an editable DOCX built on ``modelo.docx``."""
        try:
            template = DocxTemplate(BytesIO(self._docx_base))
            body = _BodyFragment(template)
            write_docx(content_html, body.document)
            brasao: Any = ""
            if frame.brasao:
                image = self.fetcher.resolve_name(frame.brasao)
                brasao = InlineImage(template, str(image), height=Mm(_BRASAO_HEIGHT_MM))
            context = {
                "municipio": frame.municipio,
                "orgao": frame.orgao,
                "titulo": frame.titulo,
                "numero": frame.numero or "",
                "minuta": frame.minuta,
                "brasao": brasao,
                "corpo": body,
            }
            template.render(context, jinja_env=self._docx_env, autoescape=True)
            properties = template.docx.core_properties
            properties.title = frame.titulo
            properties.comments = "MINUTA — documento sem valor oficial" if frame.minuta else ""
            out = BytesIO()
            template.save(out)
        except LavraError:
            raise
        except Exception as exc:
            raise RenderError(f"Não foi possível gerar o DOCX: {exc}") from exc
        return out.getvalue()


def __getattr__(name: str) -> Any:
    """``AssetFetcher``, from :mod:`lavra.render.weasyfetch` (imports WeasyPrint) only when
    asked for."""
    if name == "AssetFetcher":
        from lavra.render.weasyfetch import AssetFetcher

        return AssetFetcher
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
