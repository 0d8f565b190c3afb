"""The reasoned refusal of a requerimento, for both laws (form ``decisao-indeferimento``,
series IND): Lei nº 9.784/1999, art. 50, I, and the appeal that lies.

A requerimento that does not meet the law is not left unanswered with a report: the
administration decides it, and a decision that denies a right must be reasoned, "com
indicação dos fatos e dos fundamentos jurídicos" (Lei nº 9.784/1999, art. 50, I, applied
by the Município where its own law is silent, STJ, Súmula 633). This module makes that act.

Who decides. Both laws give the licensing to the SETRANSV (fretamento art. 2º, arts. 7º
    and 8º; escolar arts. 2º and 3º, § 1º), whose head is the Secretário Municipal de
    Transportes e Sistema Viário; "autoridade de trânsito" of fretamento art. 10, § 3º is
    read as the same Secretário (as in :mod:`lavra_americana.fretamento.autorizacoes`).
    The refusal of any requerimento of either law is therefore signed by the Secretário
    (``assinatura.papel`` ``secretario-transportes``), never by a field agent.
Which requerimento. ``/requerimento/formulario`` names a requerimento form of the pack
    (kind ``requerimento``; a recurso is decided by a decisão de recurso, not refused
    here); its title and law title the act ("no X ou Y": the subtitle is the case at
    hand). The protocol number is printed as given: requerimentos are filed, not issued,
    so the registry holds no entry of their own; the acts a requerimento names (the
    alvará to renew, to alter) are looked up in the registry by its own rules, which
    run here with the registry's history. The applicant named in the act must be one who
    signs the requerimento: with its data given, a CPF or CNPJ not written in it is
    *invalid* (the act refuses the request of the person who made it).
The motivos. When ``/requerimento/dados`` holds the requerimento as filed, the engine
    checks it by its own form (schema, checks and computations: the same completeness
    report the clerk sees) on the requerimento's own date (its reference date field,
    else the protocol date): what was met when filed is not lost by the administration's
    delay, the reading that protects the applicant. Each requirement the report finds
    pending or irregular becomes a numbered motivo, with its text and the provisions it
    cites (the requerimento form's own basis when the item cites none). A notice that a
    provision's text is not registered is never a motivo: the gap is the
    administration's, not the applicant's. Staff may add motivos the report cannot see
    (``/motivos_adicionais``), each with the provision it rests on — a provision of the
    requerimento's law, resolved in the pack. A refusal with no motivo is *invalid*:
    there is nothing to refuse (the requerimento is complete: it must be granted).
The appeal that lies (a reading per law, written in the deadline table too):
    - fretamento: art. 24 gives the appeal "da decisão do Secretário" to the Prefeito,
      "no mesmo prazo" of art. 23 (15 days), from the ciência; its words reach any decision
      of the Secretário, the refusal included, and 15 days protect the company more than
      the 10 of Lei nº 9.784/1999, art. 59, which yields to "disposição legal específica".
      Art. 23 (15 days from the infraction, to the Secretário) is the defence against a
      penalty and does not apply. The cassação reads art. 24 the same way.
    - transporte escolar, the inscription in the selection process
      (``requerimento-inscricao-escolar``): its refusal is an act of the selection, the
      stage art. 11 governs ("Do ato de escolha caberá recurso escrito dirigido ao
      Prefeito Municipal, no prazo de 5 (cinco) dias"): refusing the inscription is the
      choice that leaves the candidate out. Reading kept: 5 days, written, to the
      Prefeito, counted from the ciência of the refusal (for the candidate the refusal
      is known by it, as the result is known by its publication, deadline row
      ``transporte-escolar#art11``). Lei nº 9.784/1999, art. 59, yields to this
      "disposição legal específica" (issue 23, class 2: it used to say 10 days to the
      Secretário). :data:`STAGE_APPEALS`. The inscription *as condutor auxiliar*
      (``funcao`` ``auxiliar``, art. 9º, § 1º) is no stage of the selection: the
      auxiliary joins an alvará already granted, and no choice among candidates is made;
      its refusal takes the appeal of any other requerimento, below (class 2: it used to
      be given art. 11's 5 days, to the Prefeito).
    - transporte escolar, any other requerimento (renewal, transfer, change of vehicle,
      licences): arts. 25 and 26 give the appeal against penalties and art. 11 against
      the ato de escolha; such a refusal is neither, and the law gives it no appeal of
      its own. Lei nº 9.784/1999 applies: 10 days from the ciência (art. 59), addressed
      to the Secretário, who may reconsider within 5 days and otherwise forwards it to
      the Prefeito (art. 56, § 1º).
    The rule (the period, counted from the ciência) is printed, never a last day: the
    ciência comes after the signature, its line is left blank, and the registry counts
    the last day from the ciência recorded on the entry (deadline table rows
    ``fretamento#art24`` and ``lei-9784-1999#art59``); a ciência date typed in the data
    is *invalid*.
No future facts: the protocol cannot come after the decision, nor the requerimento's own
    date after its protocol; a decision or protocol dated after the moment of issue is
    *invalid*, and so is any ciência date typed in the data (the ciência is later).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lavra.checking.checks import TEXT_REQUIREMENT
from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    clean_text,
    in_legal_order,
    item_at,
    unique_items,
)
from lavra.checking.report import Item, Report, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.inputs.formats import unmask
from lavra.inputs.reading import date_range_problem
from lavra.law.model import Law, resolve
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import appeal_from_ciencia, data_of, date_at, fact_after_issue
from lavra_americana.comum.orgao import secretario
from lavra_americana.comum.sources import pack_root, statutory_context

if TYPE_CHECKING:
    from lavra.checking.checks import CheckSpec, Rule
    from lavra.checking.content import Content, FormSpec
    from lavra.law.params import Parameters

__all__ = [
    "CHECKS",
    "COMPUTATIONS",
    "FORM",
    "IMPLEMENTED",
    "clear_caches",
    "decisao_indeferimento",
    "motivos_indeferimento",
]

FORM = "decisao-indeferimento"
PROCEDURE = "lei-9784-1999"
MOTIVATION = f"{PROCEDURE}#art50_inc1"
EXPLICIT = f"{PROCEDURE}#art50_par1"
APPEAL = f"{PROCEDURE}#art56"
RECONSIDER = f"{PROCEDURE}#art56_par1"
APPEAL_DEADLINE = f"{PROCEDURE}#art59"
FRET = "fretamento"
ESC = "transporte-escolar"
FRET_APPEAL = f"{FRET}#art24"
SELECTION_APPEAL = f"{ESC}#art11"
INSCRIPTION = "requerimento-inscricao-escolar"
REQUEST_KIND = "requerimento"

FORM_FIELD = "/requerimento/formulario"
DATA_FIELD = "/requerimento/dados"
FILED_FIELD = "/requerimento/data_protocolo"
EXTRA_FIELD = "/motivos_adicionais"
DECISION_DATE = "/decisao/data"
CIENCIA_DATE = "/ciencia/data"

APPEALS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    FRET: (FRET_APPEAL, (FRET_APPEAL,)),
    ESC: (APPEAL_DEADLINE, (APPEAL, RECONSIDER, APPEAL_DEADLINE)),
}
"""By the requerimento's law: the deadline-table row of the appeal against a refusal and
the provisions the act cites for it."""

STAGE_APPEALS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    INSCRIPTION: (SELECTION_APPEAL, (SELECTION_APPEAL,)),
}
"""By the requerimento form, where its stage has an appeal of its own that prevails over
the law's default (:data:`APPEALS`): the inscription in the selection process of
transporte escolar, refused, takes the appeal of art. 11 (the module's doc)."""

IMPLEMENTED: tuple[str, ...] = (
    MOTIVATION, EXPLICIT, APPEAL, RECONSIDER, APPEAL_DEADLINE, FRET_APPEAL, SELECTION_APPEAL
)
"""Citations this computation applies (coverage): the reasoned refusal (Lei nº
9.784/1999, art. 50, I, and § 1º: each motivo explicit, with its provision), the appeal
against it (fretamento art. 24; for escolar, Lei nº 9.784/1999, arts. 56, § 1º, and
59). Every motivo cites, besides, the provision of the requerimento it applies."""


# ---------------------------------------------------------------- the requerimento


@lru_cache(maxsize=4)
def _content(root: Path) -> Content:
    """This pack's code over the data at ``root``, loaded once per process."""
    from lavra.checking.content import Content
    from lavra_americana import pacote

    return Content(pacote().at(root))


def clear_caches() -> None:
    """Forget the pack loaded to check requerimentos."""
    _content.cache_clear()


def requerimento_forms(content: Content) -> dict[str, FormSpec]:
    """The requerimentos of the pack a refusal may decide, by id (no recurso)."""
    return {
        fid: spec
        for fid, spec in content.forms.items()
        if spec.kind == REQUEST_KIND and fid.startswith("requerimento-")
    }


def _report(
    request: ComputeInput, content: Content, form: FormSpec, data: Mapping[str, Any], on: date
) -> Report:
    """The completeness report of the requerimento, as ``Engine.check`` gives it: every
    object its schema requires present (its checklist pending from the first screen)."""
    from lavra.documents import Engine
    from lavra.render.fillable.schema import inline_refs, with_required_objects

    schema = content.registry.resolver().lookup(form.schema_id).contents
    filled = with_required_objects(inline_refs(schema, content.registry), data)
    engine = Engine(content, pool=None)
    return engine.prepare(
        form.id,
        filled,
        on,
        history=request.history,
        example_values=request.example_values,
        draft=True,
        issued_on=request.issued_on,
        issued_at=request.issued_at,
        staff_values=request.staff_values,
    ).report


def _resolvable(laws: Mapping[str, Law], citation: str) -> bool:
    try:
        resolve(laws, citation)
    except LavraError:
        return False
    return True


def _motivo(
    laws: Mapping[str, Law], text: str, basis: Sequence[str], origin: str
) -> dict[str, Any]:
    cited = in_legal_order(basis, laws)
    return {
        "texto": text,
        "citacoes": cited,
        "fundamento": [short(laws, c) for c in cited],
        "origem": origin,
    }


_DATE_SHAPED = re.compile(r"^\d{4}-\d{2}-\d{2}")


def _mistyped_dates(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """``(pointer, problem)`` of each date in the requerimento's data that cannot be a date
    of the case (inexistent, or outside the accepted range): a typing error to correct,
    never a motivo of the refusal."""
    if isinstance(value, Mapping):
        for key, sub in value.items():
            yield from _mistyped_dates(sub, f"{path}/{pointers.escape(str(key))}")
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            yield from _mistyped_dates(sub, f"{path}/{index}")
    elif isinstance(value, str) and _DATE_SHAPED.match(value):
        try:
            day = date.fromisoformat(value[:10])
        except ValueError:
            yield path, f"a data {value[:10]} é inexistente"
            return
        problem = date_range_problem(day)
        if problem is not None:
            yield path, problem


def _typed_dates(
    spec: CheckSpec, pointer: str, value: Any, on: date, params: Parameters
) -> Iterator[Item]:
    """Check ``datas_do_requerimento``: each mistyped date of the requerimento's data is
    *invalid* at its field (run even when the decision's own data have other defects)."""
    for inner, problem in _mistyped_dates(value):
        yield item_at(
            pointer + inner,
            Status.INVALID,
            f"Nos dados do requerimento, {problem}: corrija o dado, erro de digitação que "
            "não é motivo de indeferimento.",
            *spec.basis,
        )


def motivos_indeferimento(
    request: ComputeInput, form: FormSpec, data: Mapping[str, Any], on: date
) -> tuple[list[dict[str, Any]], list[Item]]:
    """The motivos the requerimento's own report gives (module docstring), and the items
    that stop them from being known (the requerimento could not be checked)."""
    content = _content(pack_root(request.pack_dir))
    laws = content.laws
    try:
        report = _report(request, content, form, data, on)
    except LavraError as error:
        message = (
            f"Os dados do requerimento não puderam ser conferidos: {error.message} Corrija-os "
            "para que os motivos do indeferimento sejam apurados."
        )
        return [], [item_at(DATA_FIELD, Status.INVALID, message, MOTIVATION)]
    mistyped = dict(_mistyped_dates(data))
    motivos = []
    for item in report.pending:
        if item.requirement.startswith(TEXT_REQUIREMENT) or any(
            pointers.is_within(inner, item.field) for inner in mistyped
        ):
            continue
        basis = [c for c in item.basis if "#" in c and _resolvable(laws, c)]
        motivos.append(_motivo(laws, item.message, basis or list(form.basis), "requerimento"))
    return motivos, []


def _extra_motivos(
    data: Mapping[str, Any], laws: Mapping[str, Law], law_id: str
) -> tuple[list[dict[str, Any]], list[Item]]:
    """The motivos staff added, each resting on a provision of the requerimento's law."""
    listed = pointers.get(data, EXTRA_FIELD)
    motivos: list[dict[str, Any]] = []
    items: list[Item] = []
    for index, entry in enumerate(listed if isinstance(listed, list) else []):
        text = clean_text(entry.get("texto")) if isinstance(entry, Mapping) else None
        cited = clean_text(entry.get("dispositivo")) if isinstance(entry, Mapping) else None
        if text is None or cited is None:
            continue
        field = f"{EXTRA_FIELD}/{index}/dispositivo"
        problem = None
        if not _resolvable(laws, cited) or "#" not in cited:
            problem = (
                f"O fundamento «{cited}» do motivo {index + 1} não é um dispositivo das leis "
                "do sistema: indique a citação do artigo, parágrafo, inciso ou alínea em que "
                "o motivo se funda (ex.: fretamento#art10_inc1, transporte-escolar#art7_inc3)."
            )
        elif cited.partition("#")[0] != law_id:
            problem = (
                f"O fundamento do motivo {index + 1} ({short(laws, cited)}) não é da "
                f"{laws[law_id].short_title}, que rege o requerimento."
            )
        if problem is not None:
            items.append(item_at(field, Status.INVALID, problem, EXPLICIT))
            continue
        motivos.append(_motivo(laws, text, [cited], "secretaria"))
    return motivos, items


def _identifiers(value: Any) -> set[str]:
    """Every CPF and CNPJ written in the requerimento's data (any signer), unmasked."""
    if isinstance(value, Mapping):
        found = {
            unmask(v) for k, v in value.items() if k in ("cpf", "cnpj") and isinstance(v, str)
        }
        return found.union(*(_identifiers(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_identifiers(v) for v in value))
    return set()


def _applicant_items(data: Mapping[str, Any], dados: Mapping[str, Any]) -> list[Item]:
    """The applicant named in the act is one who signs the requerimento (class 7: the act
    refuses the request of the person who made it, no other)."""
    kind = pointers.get(data, "/requerente/tipo")
    pointer = "/requerente/cnpj" if kind == "pessoa_juridica" else "/requerente/cpf"
    given = clean_text(pointers.get(data, pointer))
    written = _identifiers(dados)
    if given is None or not written or unmask(given) in written:
        return []
    return [
        item_at(
            pointer,
            Status.INVALID,
            f"O requerente indicado ({given}) não é o do requerimento: o "
            f"{pointer.rsplit('/', 1)[1].upper()} não consta dos dados do requerimento.",
            MOTIVATION,
        )
    ]


# ---------------------------------------------------------------- dates and appeal


def _date_items(
    request: ComputeInput, data: Mapping[str, Any], on: date, own: date | None
) -> list[Item]:
    """No future facts: protocol ≤ decision ≤ issue, the requerimento's date ≤ protocol."""
    items = fact_after_issue(request, on, DECISION_DATE, "data da decisão", MOTIVATION)
    filed = date_at(data, FILED_FIELD)
    if filed is None:
        return items
    if filed > on:
        items.append(
            item_at(
                FILED_FIELD,
                Status.INVALID,
                f"O requerimento foi protocolado em {format_date(filed)}, depois da data da "
                f"decisão ({format_date(on)}): só se indefere o pedido já feito.",
                MOTIVATION,
            )
        )
    else:
        items.extend(
            fact_after_issue(request, filed, FILED_FIELD, "data do protocolo", MOTIVATION)
        )
    if own is not None and own > filed:
        items.append(
            item_at(
                DATA_FIELD,
                Status.INVALID,
                f"O requerimento está datado de {format_date(own)}, depois do seu protocolo "
                f"({format_date(filed)}).",
                MOTIVATION,
            )
        )
    return items


def _stage(form_id: str, dados: Any) -> str:
    """The requerimento's stage for the appeal: its form, save the auxiliary's
    inscription, which is no act of the selection (module docstring)."""
    if form_id == INSCRIPTION and isinstance(dados, Mapping) and (
        dados.get("funcao") == "auxiliar"
    ):
        return f"{form_id}#auxiliar"
    return form_id


def _appeal_rule(laws: Mapping[str, Law], law_id: str, form_id: str, secretary: str) -> str:
    if form_id == INSCRIPTION:
        return (
            "Desta decisão, ato do processo seletivo, cabe recurso escrito dirigido ao "
            "Prefeito Municipal, no prazo de 5 (cinco) dias contados da ciência da decisão "
            f"({short(laws, SELECTION_APPEAL)}); findo o prazo sem recurso, a decisão é "
            "havida como definitiva."
        )
    if law_id == FRET:
        return (
            "Desta decisão cabe recurso ao Prefeito Municipal, no prazo de 15 (quinze) dias "
            f"contados da ciência da decisão ({short(laws, FRET_APPEAL)}, que concede recurso "
            "ao Prefeito da decisão do Secretário no mesmo prazo do art. 23)."
        )
    return (
        "Desta decisão cabe recurso, por razões de legalidade e de mérito, no prazo de 10 "
        f"(dez) dias contados da ciência da decisão, dirigido ao {secretary}, que, se não a "
        "reconsiderar no prazo de 5 (cinco) dias, "
        "o encaminhará ao Prefeito Municipal (Lei nº 9.784/1999, arts. 56, § 1º, e "
        f"59, aplicada à falta de recurso próprio na {laws[ESC].short_title}, cujos arts. 25 "
        "e 26 regem o recurso contra penalidade)."
    )


# ---------------------------------------------------------------- the decision


def _pending(reason: str) -> dict[str, Any]:
    return {
        "requerimento": None,
        "motivos": [],
        "conferido_em": None,
        "recurso": None,
        "explicacao": reason,
        "fundamento": [],
        "titulo_documento": None,
        "subtitulo_documento": None,
    }


def _count_item(
    motivos: Sequence[Mapping[str, Any]], extra_items: Sequence[Item], *, checked: bool
) -> Item:
    """At least one motivo, each with its basis; none: nothing to refuse (*invalid*)."""
    if motivos:
        return item_at(
            "/motivos",
            Status.MET,
            f"{len(motivos)} motivo(s) de indeferimento, cada um com o seu fundamento "
            "(Lei nº 9.784/1999, art. 50, I).",
            MOTIVATION,
            EXPLICIT,
        )
    if extra_items:
        message = "Nenhum motivo de indeferimento com fundamento válido: corrija os motivos."
    elif checked:
        message = (
            "Nenhum motivo de indeferimento: não há o que indeferir. O requerimento, "
            "conferido pelas regras do seu formulário, atende aos requisitos verificados e "
            "deve ser deferido; acrescente o motivo, com o seu fundamento, se houver outro."
        )
    else:
        message = (
            "Nenhum motivo de indeferimento: não há o que indeferir. Informe os dados do "
            "requerimento, para que os requisitos não atendidos sejam apurados, ou "
            "acrescente o motivo com o seu fundamento."
        )
    return item_at("/motivos", Status.INVALID, message, MOTIVATION)


def decisao_indeferimento(request: ComputeInput) -> Computed:
    """The refusal of a requerimento (module docstring).

    ``values``: ``requerimento`` (``formulario``, ``titulo``, ``lei``, ``protocolo``,
    ``data_protocolo``, ``data_requerimento``), ``motivos`` (each ``numero``, ``texto``,
    ``fundamento`` as printed, ``citacoes``, ``origem``: ``requerimento`` or
    ``secretaria``), ``conferido_em`` (the date the requerimento was checked on, None
    without its data), ``recurso`` (``regra``, ``ultimo_dia``, ``explicacao``),
    ``explicacao``, ``fundamento``, ``titulo_documento``, ``subtitulo_documento``.
    """
    data = data_of(request)
    on = date_at(data, DECISION_DATE)
    if on is None:
        return Computed(_pending("Informe a data da decisão."))
    content = _content(pack_root(request.pack_dir))
    form = requerimento_forms(content).get(str(pointers.get(data, FORM_FIELD)))
    if form is None:
        message = "Indique o requerimento indeferido, entre os requerimentos do sistema."
        return Computed(
            _pending(message), (item_at(FORM_FIELD, Status.INVALID, message, MOTIVATION),)
        )
    context = statutory_context(request)
    laws = context.laws
    law_id = form.law
    filed = date_at(data, FILED_FIELD)
    dados = pointers.get(data, DATA_FIELD)
    own = checked_on = None
    motivos: list[dict[str, Any]] = []
    items: list[Item] = []
    checked = False
    if isinstance(dados, Mapping):
        own = date_at(dados, form.reference_date_field) if form.reference_date_field else None
        checked_on = own or filed or on
        motivos, found_items = motivos_indeferimento(request, form, dados, checked_on)
        items.extend(found_items)
        checked = not found_items
        items.extend(_applicant_items(data, dados))
    extra, extra_items = _extra_motivos(data, laws, law_id)
    items.extend(extra_items)
    motivos.extend(extra)
    for number, motivo in enumerate(motivos, start=1):
        motivo["numero"] = number
    items.extend(_date_items(request, data, on, own))
    items.append(_count_item(motivos, extra_items, checked=checked))
    stage = _stage(form.id, dados)
    appeal_row, appeal_basis = STAGE_APPEALS.get(stage) or APPEALS[law_id]
    appeal, appeal_items = appeal_from_ciencia(
        request, on, context, appeal_row, _appeal_rule(laws, law_id, stage, secretario(request)),
        CIENCIA_DATE
    )
    items.extend(appeal_items)
    cited = [c for m in motivos for c in m["citacoes"]]
    same = [c for c in appeal_basis if c.startswith(f"{law_id}#")]
    other = [c for c in appeal_basis if c not in same]
    fundamento = [MOTIVATION, EXPLICIT, *in_legal_order([*cited, *same], laws), *other]
    law_title = laws[law_id].short_title
    values = {
        "requerimento": {
            "formulario": form.id,
            "titulo": form.title,
            "lei": law_title,
            "protocolo": clean_text(pointers.get(data, "/requerimento/protocolo")),
            "data_protocolo": filed,
            "data_requerimento": own,
        },
        "motivos": motivos,
        "conferido_em": checked_on,
        "recurso": appeal,
        "explicacao": (
            f"Indeferimento do {form.title} ({law_title}), com {len(motivos)} motivo(s)."
        ),
        "fundamento": fundamento,
        "titulo_documento": "Decisão de Indeferimento de Requerimento",
        "subtitulo_documento": f"{form.title} ({law_title})",
    }
    return Computed(values, unique_items(items))


COMPUTATIONS: dict[str, Computation] = {"decisao_indeferimento": decisao_indeferimento}
"""The computation of this module a form may name under ``"calculos"``."""

CHECKS: dict[str, Rule] = {"datas_do_requerimento": _typed_dates}
"""The check of this module a form may name under ``"verificacoes"``."""
