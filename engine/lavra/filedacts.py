"""«Preparar ato»: from a filed requerimento, the draft of the act that decides it.

The pack declares, per requerimento form, the acts that may decide it
(:attr:`lavra.pack.ContentPack.filed_acts`): each an :class:`ActChoice` naming the
act's form, how staff read the choice, whether it refuses the request, and ``build``,
which makes the act's data from the request and the licence state
(:class:`ActSource`). :func:`prepare_act` stores that data as a draft (whatever the
completeness report says: staff complete and read it before it is signed), forwards it
to the signer role the act's form requires, and links it to the filing, in one
transaction, refused while a batch run holds the filing (its item pending:
:mod:`lavra.registry.filing_holds`; nothing is then written); when the draft is
issued the filing becomes ``decidido`` with that act
(:func:`lavra.registry.filing_status.settle`).

An act that grants (``refusal`` false) is not prepared while an attachment stands
refused: what is missing must be supplied first. A refusal may be prepared at any time.

**A next instance** (``after``). Some acts decide a request only in part: the decision
on a recurso that the authority does not reconsider and forwards to the superior one
(Lei nº 9.784/1999, art. 56, § 1º). Issued, it decides the filing like any act; the
choice whose ``after`` accepts that act (its form and data) is then offered on the
decided filing; its draft is linked to the filing, which stays decided by the earlier
act until the superior authority's act is issued and decides it in turn. Choices
without ``after`` are offered only before a decision.

**Several acts for one request** (``build_all``). Some requests are decided by one act
per item (an alvará per vehicle): ``build_all`` makes the data of each, in the request's
order. The first draft is linked to the filing and decides it when issued; the others
are drafts of the same processo forwarded to the same signer in the same transaction,
each issued (or discarded) on its own. With ``item_at`` and ``processo_at`` (where each
act's data names its item, the vehicle's plate, and the processo), preparing again (the
first draft discarded) drafts only the items that no draft from the filing still holds,
open or issued into an act not cancelled (:mod:`lavra.registry.drafted_items`): the
others are not drafted twice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from lavra.errors import ContentPackError, InputError
from lavra.inputs import pointers
from lavra.registry.drafts import Draft
from lavra.registry.filing_status import FilingStatus
from lavra.registry.inbox import Case, Inbox, Review
from lavra.registry.licensing import LicenceView
from lavra.registry.records import LOCAL_TZ, IssuedRecord
from lavra.registry.store import Registry

__all__ = ["ActChoice", "ActSource", "FiledRequest", "choices_for", "decided_by",
           "prepare_act", "source_of"]


@dataclass(frozen=True)
class FiledRequest:
    """The requerimento as filed: its protocol, the processo it opened (its PA once
    linked), the form, the data, who filed it, the day (secretariat's calendar) and the
    licence it names."""

    protocol: str
    processo: str
    form: str
    data: Mapping[str, Any]
    cpf_cnpj: str
    name: str
    filed_on: date
    licence: str | None


@dataclass(frozen=True)
class ActSource:
    """What ``build`` reads: the request, the licence it names as the licence state
    holds it (and the data of the act that granted it), and the day of the act."""

    request: FiledRequest
    licence: LicenceView | None
    licence_data: Mapping[str, Any] | None
    on: date
    decided: IssuedRecord | None = None
    """The act that decided the filing and forwarded it to the instance of the act
    being prepared (:attr:`ActChoice.after`); None before a decision."""
    reviews: tuple[Review, ...] = ()
    """The staff's reviews of the request's attachments in the inbox, oldest first."""
    attachments: int = 0
    """How many documents the request stands on (those sent again replace the first)."""
    registry: Registry | None = None
    """The registry, for what it knows beyond the licence (an earlier act of a vehicle,
    a contract of the company); None when the act is built without one."""


@dataclass(frozen=True)
class ActChoice:
    """An act the pack maps for a requerimento (module docstring)."""

    form: str
    label: str
    build: Callable[[ActSource], dict[str, Any]]
    refusal: bool = False
    licence_at: str | None = None
    """The JSON pointer of the request's data naming the licence (its printed number),
    read when the filing names none."""
    after: Callable[[str, Mapping[str, Any]], bool] | None = None
    """``after(form, data)`` of the act that decided the filing: true when that act
    forwarded the request to the instance this act decides in (module docstring). None:
    the act decides a filing not yet decided."""
    build_all: Callable[[ActSource], tuple[dict[str, Any], ...]] | None = None
    """Several acts decide the request together, one per item (module docstring); when
    given, it is read instead of ``build``."""
    item_at: str | None = None
    """With ``build_all``: the JSON pointer of each act's item in its data (the plate);
    with ``processo_at``, preparing again drafts only the items not yet drafted."""
    processo_at: str | None = None
    """With ``item_at``: the JSON pointer of the processo's number in each act's data."""


def choices_for(acts: Mapping[str, tuple[ActChoice, ...]], form: str,
                decided: IssuedRecord | None = None) -> tuple[ActChoice, ...]:
    """The acts offered for a filing of ``form``: before a decision, those without
    ``after``; once decided by the act ``decided`` (its form and data), those whose
    ``after`` accepts it (module docstring)."""
    if decided is None:
        return tuple(c for c in acts.get(form, ()) if c.after is None)
    return tuple(c for c in acts.get(form, ())
                 if c.after is not None and c.after(decided.form, decided.data))


def decided_by(registry: Registry, case: Case) -> IssuedRecord | None:
    """The act that decided ``case``, or None while undecided (or when that act was
    cancelled: it forwards nothing)."""
    if case.status is not FilingStatus.DECIDED or case.act_id is None:
        return None
    record = registry.get_by_id(case.act_id)
    return None if record is None or record.cancelled else record


def source_of(registry: Registry, case: Case, on: date,
              licence_at: str | None = None) -> ActSource:
    filed = case.filed
    licence = data = None
    named = filed.licence
    if not named and licence_at:
        found = pointers.get(filed.data, licence_at)
        named = found if isinstance(found, str) and found.strip() else None
    if named:
        licence = registry.licence_by_number(named)
        if licence is not None and licence.document_id is not None:
            record = registry.get_by_id(licence.document_id)
            data = None if record is None else record.data
    request = FiledRequest(
        # The act names the processo as the municipality knows it: the PA once staff
        # linked it (lavra.registry.processos), else the protocol's number; either joins
        # the same processo.
        protocol=filed.protocol, processo=filed.pa or filed.processo, form=filed.form,
        data=filed.data,
        cpf_cnpj=filed.cpf_cnpj, name=filed.name,
        filed_on=filed.filed_at.astimezone(LOCAL_TZ).date(), licence=named)
    standing = sum(1 for a in filed.attachments if case.replacement(a) is None)
    return ActSource(request, licence, data, on, decided_by(registry, case),
                     reviews=case.reviews, attachments=standing, registry=registry)


def _refuse_another_holder(source: ActSource, choice: ActChoice) -> None:
    """An act that grants on a licence (a renewal) only for the licence's holder: the
    CPF/CNPJ that filed the request, as the renewal run selects holders. The message
    does not say whose the licence is. The one check of who filed: a pack's ``build``
    may check another rule, that the holder the act's data names (typed in the
    request) is the licence's, which the filer holding it does not ensure. A licence
    the registry holds without a holder is not the filer's either: refused alike."""
    licence = source.licence
    if choice.refusal or licence is None:
        return
    if licence.holder is None or licence.holder != source.request.cpf_cnpj:
        raise InputError(
            f"{licence.printed} não está em nome do requerente do protocolo "
            f"{source.request.protocol} (CPF/CNPJ de quem o protocolou): «{choice.label}» "
            "só se prepara para o titular. Prepare o indeferimento, se for o caso.",
            field=choice.licence_at or "/licenca")


def prepare_act(registry: Registry, case: Case, choice: ActChoice, *, signer_role: str,
                title: str, on: date, by: str) -> Draft:
    """Build the act's data, store it as a draft forwarded to ``signer_role``, and link
    it to the filing. Refused for a decided filing, for one whose act is already
    prepared in a draft still open, and (an act that grants) while pendente."""
    decided = decided_by(registry, case)
    if choice.after is None and case.status is FilingStatus.DECIDED:
        raise InputError(f"O protocolo {case.filed.protocol} já foi decidido.",
                         field="/protocolo")
    if choice.after is not None and (
            decided is None or not choice.after(decided.form, decided.data)):
        raise InputError(
            f"«{choice.label}» só se prepara depois da decisão que encaminha o "
            f"protocolo {case.filed.protocol} a esta instância.", field="/ato")
    if case.draft_id is not None:
        current = registry.draft(case.draft_id)
        if current is not None and not current.status.final:
            raise InputError(
                f"O ato deste protocolo já está preparado na minuta nº {current.id} "
                f"({current.status.label}). Abra a minuta ou descarte-a antes de preparar "
                "outro ato.", field="/ato")
    if case.refused and not choice.refusal:
        raise InputError(
            "Há documentos recusados aguardando complementação: o ato que defere o "
            "pedido só pode ser preparado depois de aceitos. Prepare o indeferimento, se "
            "for o caso.", field="/ato")
    try:
        source = source_of(registry, case, on, choice.licence_at)
        _refuse_another_holder(source, choice)
        acts = (choice.build_all(source) if choice.build_all is not None
                else (choice.build(source),))
    except (KeyError, TypeError, ValueError) as error:
        raise ContentPackError(
            f"O pacote de conteúdo não conseguiu preparar «{choice.label}» a partir do "
            f"protocolo {case.filed.protocol}.") from error
    if not acts:
        raise ContentPackError(f"O pacote de conteúdo não preparou nenhum ato "
                               f"«{choice.label}» a partir do protocolo {case.filed.protocol}.")
    titles = ((title,) if len(acts) == 1 else
              tuple(f"{title} ({i} de {len(acts)})" for i in range(1, len(acts) + 1)))
    # one transaction under the filing's row lock: refused (nothing written) while a
    # batch run holds the filing or another draft of it is open (registry.filing_holds)
    return Inbox(registry).prepare(case.filed.id, choice.form, acts[0], title=titles[0],
                                   signer_role=signer_role, by=by,
                                   reopen=choice.after is not None,
                                   more=tuple(zip(titles[1:], acts[1:], strict=True)),
                                   item_at=choice.item_at, processo_at=choice.processo_at)
