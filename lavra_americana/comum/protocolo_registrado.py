"""A protocol of lavra's own series typed in an act is one the registry holds (issue
22, § 3: "a number typed in one of lavra's own series must be in the registry").

The acts that answer a requerimento cite its protocol. A requerimento filed online has
a protocol of lavra's series, "PROT nº 0001/2026", which the registry holds with the
form filed, the CPF/CNPJ and the processo it opened: typed in an act, it must be one of
them, and of the requerimento the act answers (:data:`FILED_AS`). A requerimento filed
on paper, at the Prefeitura's protocol, keeps its own number without series ("nº
4.321/2026"): lavra holds no register of it, and the act prints it as typed, without
the series (the templates' ``numero_ato``: "protocolo nº 4.321/2026"). A number that
begins with the series but is not of its form ("PROT 2026/005678", the year first) is
neither: it is refused, naming the form the series takes.

Reading where no law speaks: this is a rule of the registry, not of Lei nº 4.419/2006
nor Lei nº 4.515/2007 — the items cite no article. Without a registry (a draft of the
form's example) nothing is looked up.
"""

from __future__ import annotations

from collections.abc import Mapping

from lavra.checking.computations import Computed, ComputeInput, clean_text, filings
from lavra.checking.report import Item
from lavra.inputs import pointers
from lavra.textutil import act_series
from lavra_americana.comum.computing import data_of, form_title, invalid

__all__ = ["COMPUTATIONS", "FILED_AS", "IMPLEMENTED", "LISTED", "POINTERS", "SERIES"]

IMPLEMENTED: tuple[str, ...] = ()
"""A registry rule (module doc): no provision."""

SERIES = "PROT"
"""lavra's protocol series (:data:`lavra.filing.PROTOCOL_SERIES`)."""

POINTERS: Mapping[str, str] = {
    "autorizacao-publicidade-escolar": "/requerimento/protocolo",
    "decisao-indeferimento": "/requerimento/protocolo",
    "decisao-recurso-secretario": "/recurso/numero_protocolo",
    "decisao-recurso-prefeito": "/recurso/numero_protocolo",
    "recurso-classificacao": "/recorrente/protocolo_inscricao",
    "termo-substituicao-veiculo-escolar": "/protocolo_requerimento",
}
"""Form → where its data hold the protocol of the requerimento it answers or cites."""

LISTED: Mapping[str, tuple[str, str]] = {
    "edital-resultado-classificacao": ("/candidatos", "protocolo"),
}
"""Form → (its list, the key of each entry holding a protocol): the result edital lists
the protocol of every inscrição it classifies; each is checked as one typed alone."""

FILED_AS: Mapping[str, tuple[str, ...]] = {
    "autorizacao-publicidade-escolar": ("requerimento-licenca-publicidade",),
    "edital-resultado-classificacao": ("requerimento-inscricao-escolar",),
    "recurso-classificacao": ("requerimento-inscricao-escolar",),
    "termo-substituicao-veiculo-escolar": ("requerimento-troca-veiculo-escolar",),
}
"""Form → the requerimentos whose protocol it may cite (absent: any filing)."""

SHAPE = "PROT nº 0001/2026"


def protocol_items(request: ComputeInput) -> list[Item]:
    """*Invalid* when a protocol typed is of lavra's series and the registry does not
    hold it, holds it for another requerimento, or is not of the series' form."""
    data = data_of(request)
    pointer = POINTERS.get(request.form_id)
    if pointer is not None:
        return _checked(request, pointer, pointers.get(data, pointer))
    listed = LISTED.get(request.form_id)
    if listed is None:
        return []
    rows, key = listed
    entries = pointers.get(data, rows)
    items: list[Item] = []
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        if isinstance(entry, Mapping):
            items += _checked(request, f"{rows}/{index}/{key}", entry.get(key))
    return items


def _checked(request: ComputeInput, pointer: str, value: object) -> list[Item]:
    """The items of one protocol typed at ``pointer`` (:func:`protocol_items`)."""
    typed = clean_text(value)
    if typed is None:
        return []
    requirement = pointers.dotted(pointer) + ".registro"
    if act_series(typed) != SERIES:
        if typed.upper().startswith(SERIES):
            return [invalid(requirement, pointer, (
                f"O protocolo «{typed}» não tem a forma dos protocolos do sistema "
                f"({SHAPE}: número/ano). Informe-o como consta do comprovante de "
                "protocolo; um protocolo em papel informa-se sem a série."))]
        return []  # a paper protocol: printed as typed, without series
    history = filings(request.history)
    if history is None:
        return []
    found = history.filing(typed)
    if found is None:
        return [invalid(requirement, pointer, (
            f"O protocolo «{typed}» não consta do registro de protocolos do sistema. "
            "Informe o protocolo do requerimento como consta do comprovante; um "
            "requerimento protocolado em papel informa-se pelo número do protocolo em "
            "papel, sem a série."))]
    expected = FILED_AS.get(request.form_id)
    if expected is not None and found.form not in expected:
        # The other requerimento by its title (a person reads it), never its form id.
        title = form_title(request.pack_dir, found.form)
        other = f"de outro requerimento ({title})" if title else "de outro requerimento"
        return [invalid(requirement, pointer, (
            f"O protocolo {found.protocol} é {other}, não do que este ato decide."))]
    return []


def protocolo_registrado(request: ComputeInput) -> Computed:
    """The computation the forms of :data:`POINTERS` and :data:`LISTED` name (module
    doc)."""
    return Computed({}, tuple(protocol_items(request)))


COMPUTATIONS = {"protocolo_registrado": protocolo_registrado}
