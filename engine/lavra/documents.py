"""The document pipeline: data → schema → rules → completeness report → draft PDF/DOCX.

    engine = Engine.from_config()
    report = engine.check("alvara-taxi", data, on=date(2026, 11, 29))
    draft = engine.draft("alvara-taxi", data, docx=True)

A form's wording is a template written by staff: it is rendered (Jinja → HTML →
PDF/DOCX) in a warm worker process of :mod:`lavra.render.isolation`, within time, memory and
output limits (:data:`RENDER_LIMITS`); each worker keeps its own engine (templates,
fonts, CSS) between documents.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dateutil.relativedelta import relativedelta
from markupsafe import escape
from pypdf import PdfReader
from pypdf.errors import PyPdfError

from lavra.checking.checks import TEXT_REQUIREMENT, document_findings, run_checks, text_notices
from lavra.checking.cleaning import checked_values
from lavra.checking.computations import basis_cited_once, cited_by_law, cited_once, state_items
from lavra.checking.content import Content, FormSpec, loaded_content
from lavra.checking.report import Report, build_report
from lavra.config import Config, default_renderer, load_config
from lavra.errors import InputError, LavraError, ParameterError, RenderError
from lavra.inputs import pointers
from lavra.inputs.reading import (
    MAX_PDF_BYTES,
    TIMEZONE,
    check_date,
    check_values,
    maybe_date,
    today,
)
from lavra.inputs.schemas.validation import SchemaIssue, extra_issue, field_label, validate
from lavra.law.overlay import EMPTY_OVERLAY, StaffOverlay, overlay_parameters
from lavra.law.params import Parameters
from lavra.render.fillable.building import fillable_body
from lavra.render.fillable.finishing import finish_form
from lavra.render.fillable.reading import read_fields
from lavra.render.fillable.required_plan import with_required_objects
from lavra.render.fillable.schema import inline_refs
from lavra.render.glyphs import Coverage, coverage_of, undrawable
from lavra.render.isolation import Limits, MiB, TaskFailed, WorkerPool, default_pool
from lavra.render.pdf import LaidOutPdf, PageFrame, Renderer
from lavra.render.task import DocumentRenderer, Rendering, RenderJob, render_job, warm
from lavra.render.templatefailure import labelled

if TYPE_CHECKING:
    from lavra.checking.computations import History

FORM_ID_KEY = "/LavraFormulario"
#: Limits of rendering one document (a document takes well under a second).
#: A worker's first document also loads the pack (``startup``, not counted in ``timeout``).
RENDER_LIMITS = Limits(timeout=20.0, memory_bytes=1536 * MiB, output_bytes=64 * MiB, startup=120.0)


@dataclass(frozen=True)
class Prepared:
    """A form's data checked on a reference date, with the values the law computes."""

    form: FormSpec
    data: Mapping[str, Any]
    on: date
    report: Report
    computed: Mapping[str, Any]


@dataclass(frozen=True)
class Rendered:
    form: str
    report: Report
    pdf: bytes
    docx: bytes | None


@dataclass(frozen=True)
class ReadBack:
    form: str
    data: dict[str, Any]
    report: Report


class Engine:
    """The public face of lavra: check, draft, prefill and read forms of one content pack.

    ``pool``: the worker processes documents are rendered in (the process's shared pool
    by default; ``None`` renders in this process, as a worker itself does).
    ``staff_values``: the values staff registered over the pack's data (decreed days,
    yearly corrected values), asked for at every document; the issuer sets it to its
    registry's (:meth:`use_staff_values`). Without a registry, the pack's data alone.
    """

    def __init__(
        self,
        content: Content,
        *,
        pool: WorkerPool | bool | None = True,
        limits: Limits = RENDER_LIMITS,
    ) -> None:
        self.content = content
        self._pool = pool
        self.limits = limits
        self.staff_values: Callable[[], StaffOverlay] = lambda: EMPTY_OVERLAY
        self._parameters: tuple[StaffOverlay, Parameters] = (EMPTY_OVERLAY, content.parameters)
        #: Who lays out issued documents and drafts ("weasyprint" or "typst", lavra.config):
        #: Typst where the pack ships its page.
        self.final_renderer = default_renderer(content.root)
        self._inlined: dict[str, dict[str, Any]] = {}  # form schemas, $ref inlined (check)

    def use_staff_values(self, source: Callable[[], StaffOverlay]) -> None:
        """Read the staff values from ``source`` (the registry) for every document."""
        self.staff_values = source

    def parameters(self, overlay: StaffOverlay) -> Parameters:
        """The pack's parameters with the staff values of ``overlay`` (cached per overlay)."""
        cached, found = self._parameters
        if cached != overlay:
            found = overlay_parameters(self.content.parameters, overlay)
            self._parameters = (overlay, found)
        return found

    @classmethod
    def from_config(cls, config: Config | None = None) -> Engine:
        return cls(loaded_content((config or load_config()).pack_dir))

    def warm_up(self) -> int:
        """Start the render workers now and load the pack's renderer in each, so that the
        first preview or document a user asks for does not wait for them (``lavra
        serve`` calls it in the background). Returns how many workers are warm."""
        pool = default_pool() if self._pool is True else self._pool
        if not pool:
            _ = self.pages.renderer
            return 0
        try:
            return len(pool.warm(warm, self._pack, self.content.version, self.final_renderer,
                                 limits=self.limits))
        except (TaskFailed, OSError):  # no worker could start: the first task will say why
            return 0

    @cached_property
    def pages(self) -> DocumentRenderer:  # this process's templates and renderers
        return DocumentRenderer(self.content.root, self.content.laws)

    @property
    def renderer(self) -> Renderer:
        """The page renderer of this process (requerimentos are laid out here: their
        body is made by the engine from the schema, not by a staff template)."""
        return self.pages.renderer

    @property
    def assets_dir(self) -> Path:
        """The folder of the page frame, its CSS and the fonts every document is drawn with."""
        return self.content.root / "forms" / "_base"

    @cached_property
    def coverage(self) -> Coverage:
        """The characters every font of the pack draws (read once per engine)."""
        return coverage_of(self.assets_dir)

    def undrawable_issues(self, form: FormSpec, data: Mapping[str, Any]) -> list[SchemaIssue]:
        """An issue for each field holding characters no font of the pack draws."""
        found = undrawable(data, self.coverage)
        if not found:
            return []
        registry = self.content.registry
        return [
            extra_issue(
                item.pointer,
                "x-fonte",
                item.message(field_label(registry, form.schema_id, item.path)),
            )
            for item in found
        ]

    # ----------------------------------------------------------------- checking
    def reference_date(
        self, form: FormSpec, data: Mapping[str, Any], on: date | None,
        issued_on: date | None = None,
    ) -> date:
        """The date the law is applied on: given, else the form's own date field, else the
        day of issue (``issued_on``; default today)."""
        if on is not None:
            return on
        if form.reference_date_field:
            found = maybe_date(pointers.get(data, form.reference_date_field))
            if found is not None:
                return found
        return issued_on or today()

    def _date_source(
        self, form: FormSpec, data: Mapping[str, Any], on: date | None
    ) -> str | None:
        """Where the reference date came from: the option, the form's date field, or
        nowhere (today)."""
        if on is not None:
            return "/on"
        field = form.reference_date_field
        if field and maybe_date(pointers.get(data, field)) is not None:
            return field
        return None

    def prepare(
        self,
        form_id: str,
        data: Mapping[str, Any],
        on: date | None = None,
        *,
        history: History | None = None,
        example_values: bool = False,
        draft: bool = True,
        issued_on: date | None = None,
        issued_at: datetime | None = None,
        staff_values: StaffOverlay | None = None,
    ) -> Prepared:
        """Validate, run the checks and the computations of the form on the reference date.

        ``history`` gives the earlier documents the law looks at (repeat offences); without
        it the history is taken as empty. ``example_values`` lets the computations use the
        content pack's example tables (for ``lavra demo`` only: never for real issuance).
        ``issued_on`` is the date the document would be issued (today when omitted): a
        computation may depend on it (an auto issued after its appeal period ended).
        ``issued_at`` is the moment of issue (now when neither is given; its local date
        is then ``issued_on``): a signed act records no fact after it (an infraction at
        23:50 in an auto issued at 11:15). ``staff_values``: the staff values to read
        (default: :attr:`staff_values`, the registry the engine was given).
        """
        form = self.content.form(form_id)
        if not isinstance(data, Mapping):
            raise InputError("Os dados do formulário devem ser um objeto JSON.")
        # Cleaned the same way by any path (NFC, no invisible characters): cheap here.
        data = checked_values(dict(data))
        if on is not None:
            check_date(on, what="data de referência", field="/on")
        if issued_on is not None:
            check_date(issued_on, what="data de emissão", field="/issued_on")
        if issued_at is None and issued_on is None:
            issued_at = datetime.now(TIMEZONE)
        if issued_at is not None:
            issued_at = issued_at.astimezone(TIMEZONE)
            issued_on = issued_at.date()
        when = self.reference_date(form, data, on, issued_on)
        staff = self.staff_values() if staff_values is None else staff_values
        parameters = self.parameters(staff)
        fields = self.content.fields(form)
        issues = validate(self.content.registry, form.schema_id, data)
        findings = [
            *document_findings(fields, data, when),
            *run_checks(
                form.checks, data, when, parameters, self.content.check_rules
            ),
        ]
        try:
            computed = self._computed(form, when, parameters)
        except ParameterError as error:
            # No value in force on that date: the error names where the date came from.
            if error.field is not None:
                raise
            raise ParameterError(error.message, field=self._date_source(form, data, on)) from None
        if form.computations and not issues:
            from lavra.checking.computations import ComputeInput, find_computation

            request = ComputeInput(
                form_id=form.id,
                data=data,
                on=when,
                pack_dir=self.content.root,
                history=history,
                draft=draft,
                example_values=example_values,
                issued_on=issued_on or today(),
                issued_at=issued_at,
                staff_values=staff,
            )
            for name in form.computations:
                result = find_computation(self.content.pack, name)(request)
                computed.update(result.values)
                findings.extend(result.items)
        source = self._date_source(form, data, on) or form.reference_date_field or "/on"
        findings.extend(state_items(history, form.id, data, computed, when, source))
        issues = (*issues, *self.undrawable_issues(form, data))
        findings.extend(text_notices(self.content.laws, form.basis, fields, findings,
                                     computed))
        report = build_report(form.id, when, data, fields, issues, findings)
        return Prepared(form, data, when, report, computed)

    def check(
        self,
        form_id: str,
        data: Mapping[str, Any],
        on: date | None = None,
        *,
        history: History | None = None,
        example_values: bool = False, staff_values: StaffOverlay | None = None,
    ) -> Report:
        form = self.content.form(form_id)
        if form.fillable and isinstance(data, Mapping):
            # The objects its schema requires (checklists) are pending, not "não se aplica".
            if form.schema_id not in self._inlined:  # once per form: the content is fixed
                schema = self.content.registry.resolver().lookup(form.schema_id).contents
                self._inlined[form.schema_id] = inline_refs(schema, self.content.registry)
            data = with_required_objects(self._inlined[form.schema_id], data)
        return self.prepare(form_id, data, on, history=history, example_values=example_values,
                            staff_values=staff_values).report

    def _computed(self, form: FormSpec, on: date, parameters: Parameters) -> dict[str, Any]:
        computed: dict[str, Any] = {}
        if form.validity_parameter:
            value = parameters.value(form.validity_parameter, on)
            amount = int(value.value)
            steps = {
                "anos": relativedelta(years=amount),
                "meses": relativedelta(months=amount),
                "dias": relativedelta(days=amount),
            }
            if value.unit not in steps:
                raise RenderError(
                    f"Unidade de validade não suportada no parâmetro {value.name}: {value.unit}."
                )
            computed["validade_" + str(value.unit)] = amount
            try:
                computed["valido_ate"] = on + steps[str(value.unit)]
            except (ValueError, OverflowError):
                raise InputError(
                    f"A data de referência {on.isoformat()} somada à validade passa do último "
                    "ano do calendário.",
                    field="/on",
                ) from None
        return computed

    # ---------------------------------------------------------------- rendering
    def render_final(
        self,
        prepared: Prepared,
        *,
        number: str,
        code: str,
        url: str,
        qr_png: bytes,
        signer_name: str,
        docx: bool = True,
    ) -> tuple[LaidOutPdf, bytes | None]:
        """The final document: numbered, with its verification code and QR, ready to sign."""
        context = self._context(prepared, draft=False, number=number)
        context["autenticacao"] = {"codigo": code, "url": url}
        if context["assinante"] is not None:
            context["assinante"]["nome"] = signer_name
        frame = self._frame(prepared.form, draft=False, number=number, computed=prepared.computed)
        laid, docx_bytes = self._render(
            RenderJob(
                self._pack,
                self.content.version,
                prepared.form.id,
                False,
                context,
                frame,
                qr_png,
                docx,
                self.final_renderer,
            )
        )
        if not isinstance(laid, LaidOutPdf):
            raise RenderError("Não foi possível reservar o espaço da assinatura.")
        return laid, docx_bytes

    @cached_property
    def _pack(self) -> str:
        return str(self.content.root.resolve())

    def _render(self, job: RenderJob) -> Rendering:
        """The job rendered in a worker (or here, without a pool)."""
        pool = default_pool() if self._pool is True else self._pool
        form = self.content.forms[job.form]
        try:
            result: Rendering = (pool.run(render_job, job, limits=self.limits) if pool
                                 else self.pages.render(job))
        except TaskFailed as failure:
            raise RenderError(failure.describe(f"A geração do documento «{form.title}»")) from None
        except RenderError as error:  # a field the template names by its key: by its label
            raise labelled(error, lambda pointer: field_label(
                self.content.registry, form.schema_id, pointers.split(pointer)),
                form.title) from None
        return result

    def _context(self, prepared: Prepared, *, draft: bool, number: str | None) -> dict[str, Any]:
        form, content = prepared.form, self.content
        report_items = {item.field: item for item in prepared.report.items}
        documents = []
        for info in content.fields(form):
            if not info.document or "*" in info.pattern:
                continue
            item = report_items.get(info.pattern)
            if item is not None and item.status.value == "not_applicable":
                continue
            value = pointers.get(prepared.data, info.pattern) or {}
            documents.append(
                {
                    "titulo": info.title,
                    "apresentado": bool(value.get("apresentado"))
                    if isinstance(value, Mapping)
                    else False,
                    "data_emissao": value.get("data_emissao")
                    if isinstance(value, Mapping)
                    else None,
                    "validade": value.get("validade") if isinstance(value, Mapping) else None,
                    "fundamento": cited_by_law(info.basis, content.laws),
                }
            )
        signer: dict[str, str] | None = None
        if form.signer_role:
            signer = {"nome": "", "cargo": content.organization.roles.get(form.signer_role, "")}
        elif form.applicant_signer:
            person = pointers.get(prepared.data, form.applicant_signer) or {}
            if isinstance(person, Mapping):
                signer = {
                    "nome": str(person.get("nome", "")),
                    "cargo": str(person.get("cargo", "")),
                }
        return {
            "formulario": {
                "id": form.id,
                "titulo": form.title,
                "subtitulo": form.subtitle,
                "texto": form.wording,
                "fundamento": cited_once(form.basis, content.laws),
            },
            "dados": prepared.data,
            "orgao": content.organization.context(),
            "data_referencia": prepared.on,
            "calculado": basis_cited_once(prepared.computed, content.laws),
            "minuta": draft,
            "numero": number,
            "autenticacao": None,
            "assinante": signer,
            "documentos_exigidos": documents,
            "pendencias": [
                {
                    "mensagem": item.message,
                    "fundamento": cited_by_law(item.basis, content.laws),
                }
                for item in prepared.report.pending
            ],
            # Provisions in force without text this document relies on but does not apply.
            "sem_texto": [
                {"mensagem": item.message, "dispositivo": item.basis[0]}
                for item in prepared.report.items
                if item.requirement.startswith(TEXT_REQUIREMENT) and item.basis
            ],
        }

    def _frame(
        self,
        form: FormSpec,
        *,
        draft: bool,
        number: str | None,
        computed: Mapping[str, Any] | None = None,
    ) -> PageFrame:
        """The page frame; a computation may name the act (``titulo_documento``), e.g. an
        auto that is an "Advertência" when the law gives a written warning."""
        org = self.content.organization
        title = (computed or {}).get("titulo_documento") or form.title
        return PageFrame(
            municipio=org.municipio,
            orgao=form.issuing_body or org.orgao,
            titulo=str(title),
            minuta=draft,
            numero=number,
        )

    def draft(
        self,
        form_id: str,
        data: Mapping[str, Any],
        on: date | None = None,
        *,
        docx: bool = False,
        history: History | None = None,
        example_values: bool = False,
    ) -> Rendered:
        """A MINUTA: renders even incomplete data, lists what is pending, no number."""
        prepared = self.prepare(form_id, data, on, history=history, example_values=example_values)
        context = self._context(prepared, draft=True, number=None)
        frame = self._frame(prepared.form, draft=True, number=None, computed=prepared.computed)
        pdf, docx_bytes = self._render(
            RenderJob(
                self._pack,
                self.content.version,
                prepared.form.id,
                True,
                context,
                frame,
                None,
                docx,
                self.final_renderer,
            )
        )
        if not isinstance(pdf, bytes):
            raise RenderError("Não foi possível gerar o PDF: o gerador não devolveu dados.")
        return Rendered(form_id, prepared.report, pdf, docx_bytes)

    # ------------------------------------------------------- applicants' forms
    def prefill(self, form_id: str, data: Mapping[str, Any]) -> bytes:
        """A fillable AcroForm requerimento, prefilled, with the checklist of attachments."""
        form = self.content.form(form_id)
        if not form.fillable:
            raise InputError(
                f"O formulário «{form.title}» não é um requerimento preenchível pelo interessado."
            )
        data = check_values(dict(data))
        # The fields are drawn with one of the pack's fonts: the same rule as documents.
        for issue in self.undrawable_issues(form, data):
            raise InputError(issue.message, field=issue.pointer)
        schema = self.content.registry.resolver().lookup(form.schema_id).contents
        body = fillable_body(
            schema,
            data,
            cite=self.content.cite_short,
            registry=self.content.registry,
            with_title=False,
        )
        computed = self._prefill_computed(form, data)
        notes = computed.get("avisos_preenchimento") or ()
        if isinstance(notes, (list, tuple)) and notes:
            body = (
                '<div class="avisos-preenchimento">'
                + "".join(f"<p>{_escape(str(note))}</p>" for note in notes)
                + "</div>"
                + body
            )
        if form.subtitle:
            body = f'<p class="subtitulo">{_escape(form.subtitle)}</p>' + body
        frame = self._frame(form, draft=False, number=None, computed=computed)
        pdf = self.renderer.pdf(body, frame, fillable=True)
        # The form id in the document information, for ``read``: written by the same pass
        # that completes the fields.
        return finish_form(pdf, {FORM_ID_KEY: form.id})

    def _prefill_computed(self, form: FormSpec, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """What the form's computations say of the prefilled data, for the prefilled PDF:
        the act's own title (``titulo_documento``: a recurso to the authority the case
        names) and notes printed above the fields (``avisos_preenchimento``: the last day
        of a deadline). Nothing when the form has no computations or the data do not yet
        allow them (the applicant completes them)."""
        if not form.computations or not data:
            return {}
        try:
            return self.prepare(form.id, data).computed
        except LavraError:
            return {}

    def read(self, pdf: bytes, form_id: str | None = None, on: date | None = None) -> ReadBack:
        """Data typed into a prefilled requerimento, with its completeness report.

        The PDF comes from outside: its size is bounded, and what is read from its fields
        goes through the same input checks as a JSON file (control characters, sizes).
        """
        if len(pdf) > MAX_PDF_BYTES:
            raise InputError(
                f"O PDF excede o tamanho máximo de {MAX_PDF_BYTES // (1024 * 1024)} MiB."
            )
        found = form_id or _form_tag(pdf)
        if not found:
            raise InputError(
                "O PDF não é um requerimento preenchível do lavra: não identifica o "
                "formulário. Um documento emitido se confere pela verificação; para "
                "outro requerimento, informe o formulário."
            )
        form = self.content.form(found)
        schema = self.content.registry.resolver().lookup(form.schema_id).contents
        data = check_values(read_fields(pdf, schema, registry=self.content.registry))
        return ReadBack(form.id, data, self.check(form.id, data, on))


def _escape(text: str) -> str:
    return str(escape(text))


def _form_tag(pdf: bytes) -> str | None:
    try:
        info = PdfReader(io.BytesIO(pdf)).metadata
    except (PyPdfError, ValueError, KeyError, OSError):
        raise InputError("O arquivo enviado não é um PDF legível.") from None
    value = info.get(FORM_ID_KEY) if info else None
    return str(value) if value else None


__all__ = ["RENDER_LIMITS", "Engine", "LavraError", "Prepared", "ReadBack", "RenderJob", "Rendered"]

