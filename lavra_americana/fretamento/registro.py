"""The company's registration at SETRANSV, Lei nº 4.419/2006 (fretamento), art. 2º,
§ 1º: "Somente poderão operar os serviços de que tratam a presente lei as pessoas
jurídicas com fins lucrativos que estiverem devidamente registradas na SETRANSV e
inscritas no Cadastro de Atividades da Secretaria de Fazenda do Município de
Americana".

``certidao_registro_fretamento`` (form ``certidao-registro-fretamento``, series
``CRE-FRET``, signed by the Secretário) — the certificate of that registration. It
certifies the razão social, the CNPJ (check digits checked by the schema), the legal
nature and that the company has a profit purpose, its inscription in the municipal
Cadastro de Atividades (number), the address of its seat and its legal
representative. Complete only when

- the company is a legal person *with* a profit purpose (``fins_lucrativos`` false is
  *invalid*: § 1º admits no other);
- a company with its seat in another municipality also shows its registration in the
  fretamento activity there or with another supervising body (art. 2º, § 2º; the
  schema requires it);
- a servant checked the documents after the request and not after the registration,
  and the registration is not after the moment of issue (a signed act records what
  has happened);
- the company holds no other registration in force, unless this certificate
  replaces it (``/substitui``, e.g. a new razão social, seat or representative): one
  registration per company, as the licensing state keeps it (group
  :data:`PER_COMPANY`). The replaced certificate must be in the registry, in force and
  of the same CNPJ.

Validity. The law gives the registration no term. The reading kept: the registration
has no fixed validity; it stands while it is not cancelled (``lavra cancelar``) nor
replaced by a new certificate, and the certificate says so. Tying it to the alvará's
5 years (art. 8º) would invent a term the law does not give, and the company's other
conditions are checked again at each alvará and renewal (art. 7º, and art. 8º,
"documentação atualizada"), where the certificate is read from the registry.

What the alvará reads (:func:`registration_items`). Art. 7º issues the Alvará de
Licença de Circulação to companies that, "além de atender aos dispositivos constantes
do art. 2º", file the requerimento; so the ALV-FRET asks the licensing state whether the
company holds a registration in force on the alvará's first day. A registration
granted before lavra existed, and not imported, is attested by a servant
(``/empresa/registro_setransv``: its number, who checked it and when), and the alvará
prints that it rests on that attestation. A number typed in lavra's own series
(CRE-FRET) must be in the registry. Without a registry (a draft) nothing is asked:
only the registry knows.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from lavra.checking.computations import (
    Computation,
    Computed,
    ComputeInput,
    History,
    clean_text,
    in_legal_order,
    item_at,
    licensing,
    unique_items,
)
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.inputs.formats import mask_cpf_cnpj
from lavra.law.model import Law
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import after_issue, data_of, date_at
from lavra_americana.comum.guards import held_items, series_of, standing_items
from lavra_americana.comum.sources import statutory_context
from lavra_americana.fretamento.estado import REGISTERED

__all__ = ["COMPUTATIONS", "FORM", "IMPLEMENTED", "PER_COMPANY", "REGISTRATION",
           "certidao_registro_fretamento", "registration_items"]

FORM = "certidao-registro-fretamento"
PER_COMPANY = REGISTERED
"""One registration in force per company (the licensing state's per-holder group)."""
COMPETENCE = "fretamento#art2"
REGISTRATION = "fretamento#art2_par1"
ELSEWHERE = "fretamento#art2_par2"
REQUIREMENTS = "fretamento#art7"

IMPLEMENTED: tuple[str, ...] = (REGISTRATION, ELSEWHERE)
"""Citations these rules apply (coverage): the registration certified on its
conditions (art. 2º, § 1º; § 2º for a seat elsewhere) and read by the alvará."""

REGISTERED_ON = "/registro/data"
CHECKED_ON = "/conferencia/data"
FILED_ON = "/processo/data_requerimento"
REPLACED = "/substitui/numero"

VALIDITY_TEXT = (
    "A Lei nº 4.419/2006 não fixa prazo de validade para o registro: ele vale enquanto "
    "não for cancelado nem substituído por nova certidão. Os requisitos do art. 7º são "
    "conferidos novamente a cada expedição e renovação do Alvará de Licença de "
    "Circulação."
)


def _same_cnpj(a: Any, b: Any) -> bool:
    def digits(value: Any) -> str:
        return "".join(c for c in str(value or "") if c.isalnum()).upper()

    return digits(a) == digits(b) != ""


def _dates(request: ComputeInput, data: Mapping[str, Any], on: date) -> list[Item]:
    items = after_issue(on, request.issued_on, REGISTERED_ON, "data do registro", REGISTRATION)
    checked, filed = date_at(data, CHECKED_ON), date_at(data, FILED_ON)
    if checked is not None and checked > on:
        items.append(item_at(
            CHECKED_ON, Status.INVALID,
            f"A conferência dos documentos ({format_date(checked)}) é posterior ao registro "
            f"({format_date(on)}): a empresa é registrada depois de conferida.", REGISTRATION))
    if checked is not None and filed is not None and checked < filed:
        items.append(item_at(
            CHECKED_ON, Status.INVALID,
            f"A conferência dos documentos ({format_date(checked)}) é anterior ao "
            f"requerimento ({format_date(filed)}).", REGISTRATION))
    return items


def _replaced(
    request: ComputeInput, data: Mapping[str, Any], on: date, laws: Mapping[str, Law]
) -> tuple[str | None, list[Item]]:
    """The certificate this one replaces, as the registry prints it, and its items."""
    wanted = clean_text(pointers.get(data, REPLACED))
    if wanted is None:
        return None, []
    view, items = standing_items(
        request.history, wanted, on, kind=FORM, what="certidão de registro",
        field=REPLACED, basis=(REGISTRATION,), laws=laws, feminine=True,
    )
    if view is None:
        if not items and licensing(request.history) is not None:
            items.append(item_at(
                REPLACED, Status.INVALID,
                f"A certidão {wanted} não consta do registro: só se substitui a certidão "
                "que o registro guarda (uma anterior ao sistema entra pela importação do "
                "cadastro).", REGISTRATION))
        return wanted, items
    if not _same_cnpj(view.holder, pointers.get(data, "/empresa/cnpj")):
        items.append(item_at(
            REPLACED, Status.INVALID,
            f"A certidão {view.printed} é de "
            f"{view.holder_name or mask_cpf_cnpj(view.holder or '')}, não da "
            f"empresa desta certidão: cada empresa substitui o próprio registro "
            f"({short(laws, REGISTRATION)}).", REGISTRATION))
    return view.printed, items


def certidao_registro_fretamento(request: ComputeInput) -> Computed:
    """The certificate of registration at SETRANSV (art. 2º, § 1º).

    ``values``: ``substitui_impresso`` (the certificate replaced, as the registry prints
    it), ``vigencia`` (the sentence on its validity), ``fundamento``; ``pendente`` while
    the date of the registration is unknown.
    """
    data = data_of(request)
    on = date_at(data, REGISTERED_ON)
    if on is None:
        return Computed({"pendente": "Informe a data do registro.", "fundamento": []})
    laws = statutory_context(request).laws
    items = _dates(request, data, on)
    if pointers.get(data, "/empresa/fins_lucrativos") is False:
        items.append(item_at(
            "/empresa/fins_lucrativos", Status.INVALID,
            "Somente as pessoas jurídicas com fins lucrativos podem ser registradas para "
            f"operar os serviços de fretamento ({short(laws, REGISTRATION)}).", REGISTRATION))
    replaced, replaced_items = _replaced(request, data, on, laws)
    items.extend(replaced_items)
    items.extend(held_items(
        request.history, on, cpf_cnpj=pointers.get(data, "/empresa/cnpj"), group=PER_COMPANY,
        allowed=[replaced] if replaced else [], who="A empresa", field="/empresa/cnpj",
        basis=(REGISTRATION,), laws=laws,
    ))
    cited = [COMPETENCE, REGISTRATION]
    if pointers.get(data, "/empresa/sede_em_americana") is False:
        cited.append(ELSEWHERE)
    values = {
        "substitui_impresso": replaced,
        "vigencia": VALIDITY_TEXT,
        "pendente": None,
        "fundamento": in_legal_order(cited, laws),
    }
    return Computed(values, unique_items(items))


# ---------------------------------------------------------------- read by the alvará


def registration_items(
    history: History | None, data: Mapping[str, Any], on: date, laws: Mapping[str, Law],
    *, base: str = "/empresa",
) -> tuple[str | None, list[Item]]:
    """What the alvará prints of the company's registration (art. 2º, § 1º, with art.
    7º caput) on ``on``, and its item.

    The registration in force the licensing state holds for the CNPJ at
    ``{base}/cnpj`` wins; else the number typed at ``{base}/registro_setransv/numero``:
    in lavra's series it must be in the state and in force; outside it, a servant's
    ``conferencia`` (who, when, not after ``on``) attests a registration from before
    lavra. Without the state (no registry) the typed registration is printed as typed
    (or as attested) and its absence is not asked: only the registry knows."""
    field = f"{base}/registro_setransv"
    ref = short(laws, REGISTRATION)
    typed = clean_text(pointers.get(data, f"{field}/numero"))
    state = licensing(history)
    tracked = state is not None and state.tracks(FORM)
    cnpj = clean_text(pointers.get(data, f"{base}/cnpj"))
    if state is not None and tracked and cnpj is not None:
        held = state.holder_licences(cnpj, on, kind=FORM)  # not the company's whole fleet
        if held:
            printed = held[-1].printed
            return printed, [item_at(field, Status.MET,
                                     f"Empresa registrada na SETRANSV: {printed} ({ref}).",
                                     REGISTRATION)]
    series = series_of(FORM) or "CRE-FRET"
    if tracked and typed is not None and typed.upper().startswith(series.upper()):
        return typed, _in_series(history, typed, on, f"{field}/numero", laws)
    attested = _attested(data, field, typed, on, ref)
    if attested is not None:
        return attested
    if not tracked:
        return (None if typed is None else f"nº {typed}"), []
    return None, [item_at(
        field, Status.MISSING,
        "A empresa não tem registro na SETRANSV em vigor no registro do lavra: somente as "
        "pessoas jurídicas devidamente registradas na SETRANSV podem operar o fretamento "
        f"({ref}), e o alvará se expede a quem atende ao art. 2º ({short(laws, REQUIREMENTS)}). "
        "Emita antes a Certidão de Registro (CRE-FRET) ou, para registro anterior ao "
        "sistema, informe o número e quem o conferiu, e em que data.",
        REGISTRATION, REQUIREMENTS)]


def _in_series(history: History | None, typed: str, on: date, field: str,
               laws: Mapping[str, Law]) -> list[Item]:
    """A certificate typed in lavra's series: in the state, in force, of this company."""
    view, items = standing_items(
        history, typed, on, kind=FORM, what="certidão de registro", field=field,
        basis=(REGISTRATION,), laws=laws, feminine=True,
    )
    if view is not None and not items:  # in force, but not among the company's
        items = [item_at(
            field, Status.INVALID,
            f"A certidão {view.printed} é de "
            f"{view.holder_name or mask_cpf_cnpj(view.holder or '')}, não da "
            f"empresa deste alvará ({short(laws, REGISTRATION)}).", REGISTRATION)]
    return items


def _attested(data: Mapping[str, Any], field: str, typed: str | None, on: date,
              ref: str) -> tuple[str, list[Item]] | None:
    """A registration from before lavra, attested by a servant (who, when); None when
    the data do not attest one."""
    who = clean_text(pointers.get(data, f"{field}/conferencia/responsavel"))
    checked = date_at(data, f"{field}/conferencia/data")
    if typed is None or who is None or checked is None:
        return None
    if checked > on:
        return typed, [item_at(
            f"{field}/conferencia/data", Status.INVALID,
            f"A conferência do registro ({format_date(checked)}) é posterior à "
            f"expedição do alvará ({format_date(on)}): o ato registra fato já "
            "ocorrido.", REGISTRATION)]
    printed = f"nº {typed}, anterior ao sistema, conferido por {who}, em {format_date(checked)}"
    return printed, [item_at(
        field, Status.MET,
        f"Registro na SETRANSV {printed}, atestado por servidor: não consta do registro "
        f"do lavra ({ref}).", REGISTRATION)]


COMPUTATIONS: dict[str, Computation] = {
    "certidao_registro_fretamento": certidao_registro_fretamento,
}
"""The computation of this module a form may name under ``"calculos"``."""
