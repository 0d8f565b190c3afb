"""Filing a requerimento online: the check, the protocol number and the sealed receipt.

    desk = FilingDesk(issuer)
    filed, pdf = desk.file(form_id, data, cpf_cnpj="...", name="...", attachments=(...))

The requerimento is checked as the public page checks it (the completeness report);
what the report leaves pending does not stop the filing: an administrative request is
received as it comes, and the receipt lists what is pending (see :meth:`FilingDesk.file`).
The receipt (comprovante de protocolo) carries the protocol number, when it was filed
(the secretariat's time zone), who filed it (CPF/CNPJ masked), a summary of the data,
the attachments with their sizes and SHA-256, and a verification code checkable on the
public verification page; it is PAdES-sealed with the key of the pack's protocol role
(the system's seal, as SEI's recibo eletrônico de protocolo is the system's own).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from jinja2.sandbox import SandboxedEnvironment

from lavra.errors import ConfigError, InputError
from lavra.inputs.formats import mask_cnpj, mask_cpf
from lavra.inputs.pointers import escape
from lavra.registry.filings import Attachment, Filed, FilingInput, Filings
from lavra.registry.records import LOCAL_TZ, Built, normalize_cpf_cnpj
from lavra.render.fillable.schema import options_of
from lavra.signing.verification import new_code, qr_png, verification_url

__all__ = ["PROTOCOL_ROLE", "PROTOCOL_SERIES", "RECEIPT_FORM", "AppealQuery", "FilingDesk",
           "mask_doc"]

#: lavra's own protocol series ("PROT nº 0001/2026"), numbered like the acts' series.
PROTOCOL_SERIES = "PROT"
#: The form id the receipt is recorded under in the registry.
RECEIPT_FORM = "comprovante-protocolo"
#: The pack's signature role whose key seals the receipts (the system's seal).
PROTOCOL_ROLE = "protocolo"
RECEIPT_TITLE = "Comprovante de protocolo"
_SUMMARY_ROWS = 60
_QR_URL = "lavra-memoria:qr.png"

_TEMPLATE = """<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">
<title>{{ titulo }} {{ protocolo }}</title><style>
@page { size: A4; margin: 18mm 16mm 30mm 16mm; }
body { font-family: "DejaVu Sans", sans-serif; font-size: 9.5pt; }
h1 { font-size: 14pt; margin: 0 0 2mm 0; } h2 { font-size: 11pt; margin: 5mm 0 1mm 0; }
table { border-collapse: collapse; width: 100%; }
td, th { border: 0.4pt solid #888; padding: 1mm 1.5mm; vertical-align: top; text-align: left; }
.hash { font-family: "DejaVu Sans Mono", monospace; font-size: 7pt; word-break: break-all; }
.qr { float: right; width: 28mm; }
</style></head><body>
<img class="qr" src="{{ qr }}" alt="">
<p>{{ orgao }}</p>
<h1>{{ titulo }}</h1>
<p><strong>Protocolo:</strong> {{ protocolo }}<br>
<strong>Recebido em:</strong> {{ quando }} (horário de Brasília)<br>
<strong>Requerimento:</strong> {{ formulario }}<br>
<strong>Requerente:</strong> {{ nome }} — {{ documento }}<br>
{% if licenca %}<strong>Licença a que se refere:</strong> {{ licenca }}<br>{% endif %}
<strong>Situação:</strong> recebido</p>
{% if pendencias %}<h2>Pendências apontadas no recebimento</h2>
<p>O requerimento foi recebido com as pendências abaixo (Lei nº 9.784/1999, art. 6º,
parágrafo único: é vedada a recusa imotivada de documentos). A Secretaria poderá
intimar o requerente a supri-las.</p>
<ul>{% for p in pendencias %}<li>{{ p }}</li>{% endfor %}</ul>
{% else %}<p>O relatório de completude não apontou pendências no recebimento.</p>{% endif %}
<h2>Documentos anexados</h2>
{% if anexos %}<ol>{% for a in anexos %}<li><p>{{ a.item }}<br>
Arquivo: {{ a.name }} ({{ a.tipo }}), {{ a.tamanho }}<br>
<span class="hash">SHA-256: {{ a.sha256 }}</span></p></li>{% endfor %}</ol>
{% else %}<p>Nenhum documento anexado.</p>{% endif %}
<h2>Resumo dos dados informados</h2>
<table>{% for k, v in resumo %}<tr><th>{{ k }}</th><td>{{ v }}</td></tr>{% endfor %}</table>
<h2>Verificação</h2>
<p>Código de verificação: <strong>{{ codigo }}</strong><br>
Confira a autenticidade em {{ url }}</p>
<p>Documento selado eletronicamente pelo sistema de protocolo da {{ orgao }}.</p>
</body></html>"""


@dataclass(frozen=True)
class AppealQuery:
    """A recurso filed from the tracking page, as the pack's builder reads it
    (:attr:`lavra.pack.ContentPack.appeals`): the appealed act (form, data, printed
    number, its date as the registry records it — ``act_issued_on`` is the record's
    reference date, which the checks of the decision compare the typed date with, not
    the moment it was signed —, the ciência's day, what its form computed on issue), the
    deadline it is filed under (its citation and last day), who files it (the
    protocol's filer), the reasons, the day."""

    act_form: str
    act_data: Mapping[str, Any]
    act_printed: str
    act_issued_on: date
    ciencia_on: date
    citation: str
    last_day: date
    cpf_cnpj: str
    name: str
    reasons: str
    on: date
    act_computed: Mapping[str, Any] = field(default_factory=dict)


def mask_doc(doc: str) -> str:
    """A CPF or CNPJ as the receipt and the public pages show it: the middle digits
    only (``***.539.359-**``; ``65.563.***/****-05``), as gov.br masks them."""
    digits = normalize_cpf_cnpj(doc)
    if len(digits) == 11:
        shown = mask_cpf(digits)
        return "***" + shown[3:12] + "**"
    shown = mask_cnpj(digits)
    return shown[:7] + "***/****-" + shown[-2:]


def _size(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KiB".replace(".", ",")
    return f"{size / (1024 * 1024):.1f} MiB".replace(".", ",")


def _summary(data: Mapping[str, Any], titles: Mapping[str, str],
             shapes: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str]]:
    """The data's leaves as (label, value), CPFs and CNPJs masked, at most 60 rows.

    A value shows as the form shows it (:func:`_shown`): a date dd/mm/aaaa, an option by
    its label, yes/no as sim/não (``shapes``: each field's schema by its pattern).

    The label is the field's title from the form's schema, qualified by its groups'
    titles (``Veículo › Placa``; a list's entry adds ``(item 2)``), as the completeness
    report names fields; a group without a title is left out, and a key the schema does
    not title is shown by its name."""
    rows: list[tuple[str, str]] = []
    _leaves(data, "", (), _Labels(titles, shapes), rows)
    return rows[:_SUMMARY_ROWS]


_HELP = re.compile(r"\s*\(ex\.:[^)]*\)")
"""A help example in a field's title ("Número do auto (ex.: AIE-ESC nº 0001/2026)"): it
guides who fills the form; the receipt states what was filed, so it leaves it out."""


def _without_help(title: str) -> str:
    """A field's title without its help example (:data:`_HELP`)."""
    return _HELP.sub("", title).strip() or title


@dataclass(frozen=True)
class _Labels:
    """What the schema says of each field for the summary: titles and schemas by pattern."""

    titles: Mapping[str, str]
    shapes: Mapping[str, Mapping[str, Any]]


def _shown(value: Any, shape: Mapping[str, Any]) -> str:
    """A leaf as the form shows it: sim/não, an option's label, a date dd/mm/aaaa."""
    if isinstance(value, bool):
        return "sim" if value else "não"
    for option, label in options_of(dict(shape)):
        if option == value:
            return label
    if shape.get("format") == "date" and isinstance(value, str):
        try:
            return date.fromisoformat(value).strftime("%d/%m/%Y")
        except ValueError:
            return value
    return str(value)


def _leaves(value: Any, pattern: str, label: tuple[str, ...], labels: _Labels,
            rows: list[tuple[str, str]], key: str = "") -> None:
    if len(rows) >= _SUMMARY_ROWS:
        return
    if isinstance(value, Mapping):
        for name, child in value.items():
            name = str(name)
            child_pattern = f"{pattern}/{escape(name)}"
            title = labels.titles.get(child_pattern)
            shown = title or ("" if isinstance(child, Mapping) else name.replace("_", " "))
            _leaves(child, child_pattern, (*label, shown) if shown else label, labels, rows,
                    name)
    elif isinstance(value, list):
        for index, entry in enumerate(value, 1):
            head = f"{label[-1]} (item {index})" if label else f"Item {index}"
            _leaves(entry, f"{pattern}/*", (*label[:-1], head), labels, rows, key)
    elif value is None or value == "":
        return
    else:
        text = _shown(value, labels.shapes.get(pattern, {}))
        if key in ("cpf", "cnpj"):
            try:
                text = mask_doc(text)
            except InputError:
                text = "(ilegível)"
        rows.append((" › ".join(label) or key, text))


@dataclass(frozen=True)
class _Receipt:
    protocol: str
    filed_at: datetime
    form_title: str
    name: str
    doc: str
    licence: str | None
    pending: tuple[str, ...]
    attachments: tuple[tuple[Attachment, str], ...]
    data: Mapping[str, Any]
    titles: Mapping[str, str]
    shapes: Mapping[str, Mapping[str, Any]]


class FilingDesk:
    """Receives requerimentos over an issuer (its engine, registry, signers, config)."""

    def __init__(self, issuer: Any, *, series: str = PROTOCOL_SERIES,
                 role: str = PROTOCOL_ROLE) -> None:
        self.issuer = issuer
        self.series = series
        self.role = role
        self.filings = Filings(issuer.registry)

    def pending(self, form_id: str, data: Mapping[str, Any]) -> tuple[str, ...]:
        """What the completeness report leaves pending, as the receipt lists it."""
        report = self.issuer.engine.check(form_id, dict(data))
        return tuple(item.message for item in report.items if item.pending)

    def file(self, form_id: str, data: Mapping[str, Any], *, cpf_cnpj: str, name: str,
             attachments: Sequence[Attachment], item_titles: Mapping[str, str],
             licence: str | None = None, limits: Mapping[str, int] | None = None,
             token: str | None = None, now: datetime | None = None,
             processo: str | None = None) -> tuple[Filed, bytes | None]:
        """Protocol the requerimento; the filing and its sealed receipt's PDF.

        ``processo``: the processo the filing joins (a recurso, that of the act it
        appeals); None: the protocol opens its own.

        ``token``: the idempotency token of the page it was sent from; a second filing
        with it returns the first, and None for the PDF (nothing was sealed again).

        Reading chosen: a requerimento is filed even when the report leaves items
        pending. Lei nº 9.784/1999, art. 6º, parágrafo único, forbids the
        Administration to refuse to receive documents without reason and has the
        servant guide the person to supply what is missing; the receipt lists what is
        pending, and asking for it is the staff's act that follows (art. 39)."""
        engine = self.issuer.engine
        form = engine.content.form(form_id)
        if not form.fillable:
            raise InputError(f"O formulário «{form.title}» não é um requerimento.")
        if self.role not in engine.content.organization.roles:
            raise ConfigError(
                f"O pacote de conteúdo não declara o papel «{self.role}», cuja chave sela "
                "os comprovantes de protocolo.")
        pending = self.pending(form_id, data)
        entry = FilingInput(series=self.series, form=form_id, data=dict(data),
                            cpf_cnpj=cpf_cnpj, name=name, attachments=tuple(attachments),
                            pending=pending, licence=licence, token=token,
                            processo=processo, title=form.title, **dict(limits or {}))
        code = new_code()
        files: dict[str, bytes] = {}
        fields = engine.content.fields(form)
        titles = {field.pattern: _without_help(field.title) for field in fields
                  if field.title}
        shapes = {field.pattern: field.schema for field in fields}

        def build(number: int, printed: str, moment: datetime) -> Built:
            receipt = _Receipt(
                protocol=printed, filed_at=moment, form_title=form.title,
                name=" ".join(name.split()), doc=mask_doc(cpf_cnpj), licence=licence,
                pending=pending,
                attachments=tuple((a, item_titles.get(a.item, a.item)) for a in attachments),
                data=data, titles=titles, shapes=shapes)
            pdf = self._seal(self._render(receipt, code), printed, moment)
            files["pdf"] = pdf.pdf
            return Built(
                pdf=pdf.pdf, docx=None, data={"protocolo": printed, "formulario": form_id},
                computed={"titulo_documento": RECEIPT_TITLE}, reference_date=
                moment.astimezone(LOCAL_TZ).date(), verification_code=code,
                signer_subject=pdf.signer_subject, signer_serial=pdf.signer_serial,
                pack_version=engine.content.version, cpf_cnpj=cpf_cnpj, placa=None,
                issued_at=moment)

        filed = self.filings.file(entry, build, receipt_form=RECEIPT_FORM, now=now)
        return filed, files.get("pdf")

    def _render(self, receipt: _Receipt, code: str) -> bytes:
        from weasyprint import HTML

        from lavra.render.mentions import full_first_mention
        from lavra.render.pdf import AssetFetcher

        organization = self.issuer.engine.content.organization
        url = verification_url(self.issuer.config.verification_url, code)
        html = SandboxedEnvironment(autoescape=True).from_string(_TEMPLATE).render(
            titulo=RECEIPT_TITLE, protocolo=receipt.protocol,
            quando=receipt.filed_at.astimezone(LOCAL_TZ).strftime("%d/%m/%Y, às %H:%M:%S"),
            formulario=receipt.form_title, nome=receipt.name, documento=receipt.doc,
            licenca=receipt.licence, pendencias=receipt.pending,
            anexos=[{"item": title, "name": a.name, "tipo": a.content_type,
                     "tamanho": _size(a.size), "sha256": a.sha256}
                    for a, title in receipt.attachments],
            resumo=_summary(receipt.data, receipt.titles, receipt.shapes), codigo=code, url=url,
            orgao=organization.orgao,
            qr=_QR_URL)
        html = full_first_mention(html, self.issuer.engine.content.laws)
        fetcher = AssetFetcher(self.issuer.engine.assets_dir, {_QR_URL: qr_png(url)})
        pdf: bytes = HTML(string=html, url_fetcher=fetcher).write_pdf()
        return pdf

    def _seal(self, pdf: bytes, printed: str, moment: datetime) -> Any:
        signer, signer_name = self.issuer.signers.get(self.role)
        organization = self.issuer.engine.content.organization
        return signer.sign(
            pdf, signer_name=signer_name, field_box=None,
            reason=f"{RECEIPT_TITLE} {printed}",
            location=f"{organization.cidade} – {organization.uf}", signing_time=moment)
