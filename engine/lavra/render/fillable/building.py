"""The fillable requerimento written as HTML whose form elements become AcroForm fields.

:func:`fillable_body` writes the restricted HTML body of a requerimento whose
``<input>``/``<select>``/``<textarea>`` elements WeasyPrint turns into AcroForm
fields (``write_pdf(pdf_forms=True)``). Each field is named by the JSON pointer of
the value it holds, without the leading slash (``veiculos/0/placa``): slashes
survive WeasyPrint and pypdf unchanged, while dots are the PDF separator of
hierarchical field names and would be split by viewers. The schema vocabulary it
reads is listed in :mod:`lavra.render.fillable.schema`; the way back, from a filled
PDF to JSON data, is :mod:`lavra.render.fillable.reading`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from babel.numbers import format_decimal
from markupsafe import Markup
from referencing import Registry

from lavra.errors import CitationError, ContentPackError, InputError, LavraError
from lavra.inputs import pointers
from lavra.render.fillable.remarks import REMARK_CSS, is_remark, remark_rows
from lavra.render.fillable.schema import (
    DOCUMENT_FLAG,
    ISO_DATE,
    SHARED_DESCRIPTION,
    DocumentEntry,
    FieldPath,
    Prop,
    Schema,
    as_schema,
    basis_of,
    document_checklist,
    field_name,
    inline_refs,
    is_array,
    is_document,
    is_object,
    items_of,
    leaf_kind,
    object_props,
    options_of,
    row_count,
    title_of,
    value_at,
)

__all__ = ["FILLABLE_CSS", "MAX_TABLE_COLUMNS", "YES_NO", "fillable_body"]

#: The radio states of a Sim/Não question: (state name, value, label).
YES_NO: tuple[tuple[str, bool, str], ...] = (("sim", True, "Sim"), ("nao", False, "Não"))
#: A list whose rows have more columns than this is laid out as one block per row
#: (a table that wide would not fit the width of an A4 page).
MAX_TABLE_COLUMNS = 4
_OF_ACT = re.compile(r"(.+), (d[ao]s? .+?)")
_FIRST_CLAUSE = re.compile(r";\s+|\.\s+(?=[A-ZÀ-Ý])")

#: Minimal stylesheet for the body; the renderer's frame may add its own.
FILLABLE_CSS = """
.avisos-preenchimento { border: 0.75pt solid #444; padding: 3pt 6pt; margin: 0 0 6pt 0; }
.requerimento-preenchivel table { width: 100%; border-collapse: collapse; margin: 0 0 6pt 0;
  table-layout: fixed; }
.requerimento-preenchivel th, .requerimento-preenchivel td {
  text-align: left; vertical-align: top; padding: 2pt 3pt; font-weight: normal;
  overflow-wrap: break-word; }
.requerimento-preenchivel tr { break-inside: avoid; }
.requerimento-preenchivel table.campos th { width: 38%; }
.requerimento-preenchivel input[type="text"], .requerimento-preenchivel select,
.requerimento-preenchivel textarea {
  width: 100%; height: 14pt; box-sizing: border-box; border: 0.5pt solid #444;
  font-size: 10pt; }
.requerimento-preenchivel textarea { height: 40pt; }
.requerimento-preenchivel input[type="checkbox"], .requerimento-preenchivel input[type="radio"] {
  display: inline-block; width: 10pt; height: 10pt; border: 0.5pt solid #444;
  vertical-align: middle; margin: 0 2pt 0 0; }
.requerimento-preenchivel input[type="radio"] { border-radius: 50%; }
.requerimento-preenchivel .simnao { white-space: nowrap; margin-right: 10pt; }
.requerimento-preenchivel .ajuda, .requerimento-preenchivel .fundamento,
.requerimento-preenchivel .condicao { font-size: 8.5pt; color: #333; }
.requerimento-preenchivel .ajuda { display: block; }
.requerimento-preenchivel table.linhas td:first-child,
.requerimento-preenchivel table.linhas th:first-child { width: 1.8em; }
.requerimento-preenchivel .documento { margin: 0 0 5pt 0; break-inside: avoid; }
.requerimento-preenchivel .documento p { margin: 0 0 2pt 0; }
.requerimento-preenchivel table.dados-documento { margin: 0; font-size: 8.5pt; }
.requerimento-preenchivel table.dados-documento textarea { height: 14pt; }
.requerimento-preenchivel table.dados-documento input[type="text"] { height: 20pt; }
.requerimento-preenchivel .condicao-grupo { font-weight: bold; margin: 6pt 0 3pt 0; }
.requerimento-preenchivel .fecho-requerimento { break-inside: avoid; margin-top: 14pt; }
.requerimento-preenchivel .fecho-requerimento .local-data { margin-top: 10pt; }
.requerimento-preenchivel .fecho-requerimento .linha { margin: 30pt 0 0 0; width: 80%;
  border-top: 0.6pt solid #000; padding-top: 2pt; text-align: left; }
""" + REMARK_CSS



# -------------------------------------------------------------------- HTML output


def _display(kind: str, value: Any) -> str:
    """A data value as the applicant sees it in the field."""
    if value is None or isinstance(value, Mapping | list):
        return ""
    if kind == "date" and isinstance(value, str) and ISO_DATE.fullmatch(value):
        try:
            return date.fromisoformat(value).strftime("%d/%m/%Y")
        except ValueError:
            return value
    if isinstance(value, bool):
        return "sim" if value else "não"
    if kind == "number" and isinstance(value, int | float):
        return str(format_decimal(value, format="#0.##########", locale="pt_BR"))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass
class _Builder:
    cite: Callable[[str], str]
    parts: list[Markup]
    quiet: bool = False
    """Inside the second and later rows of a list: help and basis were given in the first."""

    def emit(self, template: str, *args: Any) -> None:
        self.parts.append(Markup(template).format(*args))

    def citations(self, ids: Iterable[str]) -> str:
        texts: list[str] = []
        for citation in ids:
            try:
                texts.append(self.cite(citation))
            except LavraError:
                raise
            except Exception as exc:
                raise CitationError(f"Não foi possível redigir a citação “{citation}”.") from exc
        return compact_citations(texts)

    def basis_line(self, schema: Schema, where: str) -> None:
        ids = basis_of(schema, where)
        if ids:
            self.emit('<p class="fundamento">Fundamento: {}.</p>', self.citations(ids))

    # ---- widgets

    def widget(
        self,
        path: FieldPath,
        schema: Schema,
        value: Any,
        label: str,
        *,
        one_line: bool = False,
        mark: bool = False,
    ) -> Markup:
        name = field_name(path)
        kind = leaf_kind(schema)
        if one_line and kind == "text":
            kind = "string"
        if kind == "boolean" and not mark:
            # A Sim/Não question: two buttons of one radio group, so that "Não" is an
            # answer of its own and an unanswered question stays unanswered.
            buttons = [
                Markup(
                    '<span class="simnao"><input type="radio" name="{}" value="{}" '
                    'title="{} — {}"{}> {}</span>'
                ).format(
                    name, state, label, text, Markup(" checked") if value is answer else "", text
                )
                for state, answer, text in YES_NO
            ]
            return Markup("").join(buttons)
        if kind == "boolean":
            checked = Markup(" checked") if value is True else Markup("")
            return Markup('<input type="checkbox" name="{}" title="{}"{}>').format(
                name, label, checked
            )
        if kind == "enum":
            options = [Markup('<option value=""></option>')]
            for option, text in options_of(schema):
                selected = Markup(" selected") if value is not None and option == value else ""
                options.append(
                    Markup('<option value="{}"{}>{}</option>').format(str(option), selected, text)
                )
            return Markup('<select name="{}" title="{}">{}</select>').format(
                name, label, Markup("").join(options)
            )
        text = _display(kind, value)
        if kind == "text":
            return Markup('<textarea name="{}" title="{}">{}</textarea>').format(name, label, text)
        max_length = schema.get("maxLength")
        limit = Markup("")
        if (
            kind == "string"
            and isinstance(max_length, int)
            and "pattern" not in schema
            and "format" not in schema
        ):
            limit = Markup(' maxlength="{}"').format(max_length)
        return Markup('<input type="text" name="{}" value="{}" title="{}"{}>').format(
            name, text, label, limit
        )

    def field_row(self, path: FieldPath, prop: Prop, value: Any, label: str) -> Markup:
        kind = leaf_kind(prop.schema)
        mark = Markup(' <span class="obrigatorio">*</span>') if prop.required else Markup("")
        hint = " (dd/mm/aaaa)" if kind == "date" else ""
        help_parts = [] if self.quiet else [
            str(text)
            for text in (
                help_text(prop.schema, kind),
                _conditions_text(prop.conditions) if prop.conditions else None,
            )
            if isinstance(text, str) and text
        ]
        ids = () if self.quiet else basis_of(prop.schema, pointers.join(path))
        if ids:
            help_parts.append("Fundamento: " + self.citations(ids))
        help_html = Markup("")
        if help_parts:
            help_html = Markup('<span class="ajuda">{}</span>').format(
                ". ".join(_sentence(h) for h in help_parts)
            )
        title = title_of(prop.schema, prop.name)
        return Markup("<tr><th>{}{}{}</th><td>{}{}</td></tr>").format(
            title, hint, mark, self.widget(path, prop.schema, value, label), help_html
        )

    # ---- structure

    def object_body(
        self, schema: Schema, data: Any, path: FieldPath, level: int, label: tuple[str, ...]
    ) -> None:
        rows: list[Markup] = []

        def flush() -> None:
            if rows:
                self.emit('<table class="campos">{}</table>', Markup("").join(rows))
                rows.clear()

        for prop in object_props(schema, pointers.join(path) or "esquema"):
            sub_path = (*path, prop.name)
            value = value_at(data, prop.name)
            title = title_of(prop.schema, prop.name)
            if is_document(prop.schema):
                continue  # listed in the checklist
            if is_object(prop.schema):
                if not _has_fields(prop.schema):
                    continue  # only documents: all of them are in the checklist
                flush()
                self.group(prop, value, sub_path, level, (*label, title))
            elif is_array(prop.schema):
                flush()
                self.array(prop, value, sub_path, level, (*label, title))
            else:
                rows.append(self.field_row(sub_path, prop, value, " — ".join((*label, title))))
        flush()

    def heading(self, level: int, text: str) -> None:
        tag = f"h{min(level, 3)}"
        self.emit(f"<{tag}>{{}}</{tag}>", text)

    def group(
        self, prop: Prop, value: Any, path: FieldPath, level: int, label: tuple[str, ...]
    ) -> None:
        self.parts.append(Markup('<div class="grupo">'))
        self.heading(level, label[-1])
        self.intro(prop, pointers.join(path))
        self.object_body(prop.schema, value, path, level + 1, label)
        self.parts.append(Markup("</div>"))

    def intro(self, prop: Prop, where: str) -> None:
        if self.quiet:
            return
        description = help_text(prop.schema, "group")
        if description:
            self.emit('<p class="ajuda">{}</p>', description)
        if prop.conditions:
            self.emit('<p class="condicao">{}.</p>', _conditions_text(prop.conditions))
        self.basis_line(prop.schema, where)

    def array(
        self, prop: Prop, value: Any, path: FieldPath, level: int, label: tuple[str, ...]
    ) -> None:
        where = pointers.join(path)
        items = items_of(prop.schema, where)
        if is_document(items):
            return  # each row is a line of the checklist
        self.parts.append(Markup('<div class="lista">'))
        self.heading(level, label[-1])
        self.intro(prop, where)
        rows = row_count(prop.schema, value)
        item_title = title_of(items, label[-1]) if "title" in items else label[-1]
        columns = _columns(items, ()) if is_object(items) else [((), items, item_title)]
        if columns is not None and len(columns) > MAX_TABLE_COLUMNS:
            columns = None  # too wide for the page: one block of fields per row
        if columns is not None:
            header = Markup("").join(
                Markup("<th>{}{}</th>").format(
                    title, " (dd/mm/aaaa)" if leaf_kind(schema) == "date" else ""
                )
                for _, schema, title in columns
            )
            body: list[Markup] = [Markup("<tr><th>Nº</th>{}</tr>").format(header)]
            for index in range(rows):
                row_value = value_at(value, index)
                cells = [
                    self.widget(
                        (*path, index, *rel),
                        schema,
                        _deep(row_value, rel),
                        " — ".join((*label, str(index + 1), title)),
                    )
                    for rel, schema, title in columns
                ]
                body.append(
                    Markup("<tr><td>{}</td>{}</tr>").format(
                        index + 1, Markup("").join(Markup("<td>{}</td>").format(c) for c in cells)
                    )
                )
            self.emit('<table class="linhas">{}</table>', Markup("").join(body))
        else:
            quiet = self.quiet
            for index in range(rows):
                self.parts.append(Markup('<div class="item">'))
                self.heading(level + 1, f"{item_title} {index + 1}")
                self.quiet = quiet or index > 0
                self.object_body(
                    items,
                    value_at(value, index),
                    (*path, index),
                    level + 2,
                    (*label, str(index + 1)),
                )
                self.quiet = quiet
                self.parts.append(Markup("</div>"))
        self.parts.append(Markup("</div>"))

    def doc_widget(self, entry: DocumentEntry, path: FieldPath, prop: Prop, value: Any) -> Markup:
        title = title_of(prop.schema, prop.name)
        return self.widget(
            (*path, prop.name),
            prop.schema,
            value_at(value, prop.name),
            f"{entry.title} — {title}",
            one_line=True,
        )

    def documents(self, entries: Sequence[DocumentEntry], data: Any) -> None:
        if not entries:
            return
        self.parts.append(Markup('<div class="documentos">'))
        self.heading(2, "Documentos a anexar")
        self.emit(
            "<p>{}</p>",
            "Marque cada documento que acompanha este requerimento e informe o número, "
            "as datas de emissão e de validade e os demais dados pedidos.",
        )
        # Documents asked for in the same case are listed together under that case,
        # which is worded once; the cases in the order they first appear.
        cases: dict[tuple[str, ...], list[DocumentEntry]] = {}
        for entry in entries:
            cases.setdefault(entry.conditions, []).append(entry)
        for conditions, listed in cases.items():
            if conditions:
                self.emit('<p class="condicao-grupo">{}:</p>', _group_condition(conditions))
            for entry in listed:
                self.document(entry, data)
        self.parts.append(Markup("</div>"))

    def document(self, entry: DocumentEntry, data: Any) -> None:
        path: FieldPath = tuple(
            int(t) if pointers.is_index(t) else t for t in pointers.split(entry.pointer)
        )
        value = pointers.get(data, entry.pointer)
        props = object_props(entry.schema, entry.pointer)
        self.parts.append(Markup('<div class="documento">'))
        flag = next((p for p in props if p.name == DOCUMENT_FLAG), None)
        checkbox = Markup("")
        if flag is not None:
            # A tick box: the document is attached or it is not (nothing to answer "Não").
            checkbox = self.widget(
                (*path, DOCUMENT_FLAG),
                flag.schema,
                value_at(value, DOCUMENT_FLAG),
                entry.title,
                mark=True,
            ) + Markup(" ")
        status = ""
        if not entry.conditions:
            status = " (obrigatório)" if entry.required else " (se houver)"
        basis = Markup("")
        if entry.basis:
            basis = Markup(' <span class="fundamento">— {}.</span>').format(
                self.citations(entry.basis)
            )
        self.emit(
            '<p>{}<span class="rotulo">{}</span>{}{}</p>', checkbox, entry.title, status, basis
        )
        own = help_text(entry.schema, "document")
        if own:
            self.emit('<p class="ajuda">{}</p>', own)
        fields = [
            p
            for p in props
            if p.name != DOCUMENT_FLAG and not (is_object(p.schema) or is_array(p.schema))
        ]
        remarks = [p for p in fields if is_remark(p.schema)]
        details = [p for p in fields if p not in remarks]
        # All the data of the document in one row of a fixed table, each label above its
        # box: the row always fits the page width, whatever the number of fields. A
        # remark takes a row of its own below, across the table, as tall as its value.
        rows: list[Markup] = []
        if details:
            rows.append(Markup("<tr>{}</tr>").format(Markup("").join(
                Markup("<th>{}{}</th>").format(
                    title_of(p.schema, p.name),
                    " (dd/mm/aaaa)" if leaf_kind(p.schema) == "date" else "")
                for p in details)))
            rows.append(Markup("<tr>{}</tr>").format(Markup("").join(
                Markup("<td>{}</td>").format(self.doc_widget(entry, path, p, value))
                for p in details)))
        for remark in remarks:
            title = title_of(remark.schema, remark.name)
            rows.append(remark_rows(max(len(details), 1), title, field_name((
                *path, remark.name)), f"{entry.title} — {title}",
                _display("string", value_at(value, remark.name))))
        if rows:
            self.emit('<table class="dados-documento">{}</table>', Markup("").join(rows))
        self.parts.append(Markup("</div>"))

    def closing(self, signers: Sequence[str] = ()) -> None:
        """Place, date and signature lines for the applicant: one signature line for each
        of ``signers`` (the schema's ``x-assinantes``) when several sign."""
        self.parts.append(Markup('<div class="fecho-requerimento">'))
        we = "Declaramos" if signers else "Declaro"
        self.emit("<p>{}</p>", f"{we}, sob as penas da lei, que as informações prestadas são "
                  "verdadeiras.")
        self.emit('<p class="local-data">{}</p>',
                  "Local: ______________________________   Data: ____/____/________")
        for who in signers or ("",):
            line = "Assinatura da parte requerente ou de representante legal"
            self.emit('<p class="linha">{}</p>', f"{line} – {who}" if who else line)
            self.emit('<p class="nome">{}</p>', "Nome legível: " + "_" * 38)
        self.parts.append(Markup("</div>"))


def _group_condition(conditions: Sequence[str]) -> str:
    """The case of a group of documents: ``Exigidos se …`` for ``exigido se …``."""
    text = _conditions_text(conditions)
    for singular, plural in (("Exigido ", "Exigidos "), ("Aplicável ", "Aplicáveis ")):
        if text.startswith(singular):
            return plural + text[len(singular) :]
    return text


def compact_citations(texts: Sequence[str]) -> str:
    """Citations of one act named once: ``art. 7º, VI; art. 7º, X, da Lei nº 1/2000``.

    A citation is split at its last ``, da``/``, do`` (the act it belongs to); those of
    the same act, in the order given, share one mention of it. Citations that do not
    split are kept as they are.
    """
    groups: dict[str, list[str]] = {}
    for text in dict.fromkeys(texts):
        match = _OF_ACT.fullmatch(text)
        head, act = (match.group(1), match.group(2)) if match else (text, "")
        groups.setdefault(act, []).append(head)
    return "; ".join(
        "; ".join(heads) + (f", {act}" if act else "") for act, heads in groups.items()
    )


def help_text(schema: Schema, kind: str) -> str | None:
    """The help printed for a field or group (see ``x-ajuda`` in the schema module)."""
    given = schema.get("x-ajuda")
    if isinstance(given, str):
        return given.strip() or None
    description = schema.get("description")
    if not isinstance(description, str) or not description.strip():
        return None
    if schema.get(SHARED_DESCRIPTION) is not True:
        return description
    if kind in ("date", "group", "document"):
        return None  # the generic words of the definition (a date's format is printed)
    return _FIRST_CLAUSE.split(description.strip(), maxsplit=1)[0]


def _has_fields(schema: Schema) -> bool:
    """Whether an object has something to fill besides documents."""
    for prop in object_props(schema):
        if is_document(prop.schema):
            continue
        if not is_object(prop.schema) or _has_fields(prop.schema):
            return True
    return False


def _conditions_text(conditions: Sequence[str]) -> str:
    """Several conditions as one sentence: ``Exigido se A; ou se B``."""
    texts: list[str] = []
    for condition in dict.fromkeys(conditions):
        condition = condition.strip().rstrip(".")
        if texts:
            for verb in ("exigido ", "aplicável "):
                if condition.startswith(verb):
                    condition = condition[len(verb) :]
            condition = "ou " + condition
        texts.append(condition)
    return _sentence("; ".join(texts))


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:]


def _deep(value: Any, rel: Sequence[str | int]) -> Any:
    for key in rel:
        value = value_at(value, key)
    return value


def _columns(
    schema: Schema, rel: tuple[str, ...]
) -> list[tuple[tuple[str, ...], Schema, str]] | None:
    """Leaf columns of an array item, or None when it must be laid out as sub-sections."""
    columns: list[tuple[tuple[str, ...], Schema, str]] = []
    for prop in object_props(schema):
        if is_document(prop.schema) or is_array(prop.schema):
            return None
        if is_object(prop.schema):
            inner = _columns(prop.schema, (*rel, prop.name))
            if inner is None:
                return None
            columns.extend(inner)
        else:
            columns.append(((*rel, prop.name), prop.schema, title_of(prop.schema, prop.name)))
    return columns


def fillable_body(
    schema: Mapping[str, Any],
    data: Mapping[str, Any],
    *,
    cite: Callable[[str], str],
    registry: Registry[Any] | None = None,
    with_title: bool = True,
) -> str:
    """The HTML body of a fillable requerimento for ``schema``, prefilled from ``data``.

    ``schema`` has its ``$ref`` inlined already, or ``registry`` is given to inline
    them (:func:`inline_refs`); ``cite`` turns a citation id into its text. With
    ``with_title`` the schema's ``title`` opens the body as ``<h1>`` (leave it out
    when the page frame prints the title). Every value is escaped; the result is a
    plain ``str`` of trusted HTML (wrap it in ``Markup`` to embed it in a Jinja template,
    or use it as is). Render it with
    ``pdf_forms=True`` (and :data:`FILLABLE_CSS`, or the frame's own styles).
    """
    if not isinstance(data, Mapping):
        raise InputError("Os dados do requerimento devem ser um objeto JSON.", field="")
    root = as_schema(schema, "esquema")
    if registry is not None:
        root = inline_refs(root, registry)
    builder = _Builder(cite, [Markup('<div class="requerimento-preenchivel">')])
    try:
        if with_title:
            builder.heading(1, title_of(root, "Requerimento"))
        description = root.get("description")
        if isinstance(description, str) and description:
            builder.emit("<p>{}</p>", description)
        builder.basis_line(root, "esquema")
        builder.emit(
            '<p class="instrucoes">{}</p>',
            "Preencha os campos abaixo. Os campos marcados com * são obrigatórios; "
            "as datas seguem o formato dd/mm/aaaa.",
        )
        builder.object_body(root, data, (), 2, ())
        builder.documents(document_checklist(root, data), data)
        signers = root.get("x-assinantes")
        builder.closing([str(s) for s in signers] if isinstance(signers, list) else ())
    except LavraError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, RecursionError) as exc:
        raise ContentPackError(
            "O esquema do formulário não pôde ser convertido em formulário preenchível."
        ) from exc
    builder.parts.append(Markup("</div>"))
    # A plain str: a Markup would escape whatever str it is concatenated with.
    return str(Markup("\n").join(builder.parts))


