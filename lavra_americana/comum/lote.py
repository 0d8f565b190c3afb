"""What the pack's renewal runs share (``transporte_escolar/renovacao_lote.py``,
``fretamento/renovacao_lote.py``): the holders file and the requests file keyed by the
alvará renewed, the plan's loop over them, the printed numbers compared, the pending
items of a report as lines of a notice, the file stem of a holder's outputs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from lavra.batch.inputs import read_lines
from lavra.batch.model import PlanContext, PlannedHolder, PlannedOutput, RunRequest
from lavra.checking.cleaning import json_copy
from lavra.checking.report import Item, Report
from lavra.errors import InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.formats import mask_cnpj, mask_cpf, unmask
from lavra.registry.effects import LicenceStatus
from lavra.registry.identifiers import plate_forms
from lavra.registry.licences_of_acts import active_licences_of
from lavra.registry.records import IssuedRecord

__all__ = [
    "HELD",
    "IMPLEMENTED",
    "REFUSED",
    "UNKNOWN",
    "HolderFields",
    "Pedido",
    "Requests",
    "Wanted",
    "as_held",
    "ended_reason",
    "number_key",
    "pending_lines",
    "plan_holders",
    "read_entrada",
    "read_pedidos",
    "refused_for",
    "same_vehicle",
    "stem",
    "unissuable",
]

REFUSED = "recusado"
HELD = "retido"
"""The envelope's key of a request the run may not take yet, with the pt-BR reason
(``lote_protocolos``: a filing whose documents staff have not accepted): its holder is
refused with that reason, nothing issued nor notified."""
PROTOCOL = "protocolo"
"""The envelope's key of a request filed online: its protocol number."""
UNKNOWN = "\0"
"""The start of the key of a request whose alvará is not known (never a number's)."""
L = TypeVar("L")

IMPLEMENTED: tuple[str, ...] = ()
"""Helpers only: the runs cite their own articles."""


def number_key(text: object) -> str:
    """A printed number compared: case, spaces and the "nº" do not matter
    (``ALV-FRET nº 0007/2021`` is ``ALV-FRET 0007/2021``)."""
    bare = re.sub(r"\s+", " ", str(text or "")).strip().upper()
    return re.sub(r"\s+N[º°O]\.?\s+", " ", bare)


@dataclass(frozen=True)
class HolderFields:
    """Where a licence's data name its holder: the object (``/titular``), its document
    and name keys, and the keys of the data that belong to that holder alone (the school
    conductor's ``prontuario``), which do not pass to another one."""

    at: str
    document: str
    name: str
    personal: tuple[str, ...] = ()
    driver: str | None = None
    """The party's key of its CNH when the holder is the licence's driver (the school
    conductor's ``cnh``): a new holder's is the state's driver (``LicenceView``)."""


def as_held(context: PlanContext, kind: str, records: Iterable[IssuedRecord],
            fields: HolderFields) -> list[tuple[IssuedRecord, str, dict[str, Any]]]:
    """Each licence ``records`` grant (of ``kind``), with the holder's document and its
    data as the licensing state holds it, not as the act was issued (issue 22): after a
    transfer the cessionário is the holder, after a change of vehicle the vehicle is
    the substitute, and the holder's name is the last one registered. What the state
    does not know of a new holder or vehicle (the cedente's address and prontuário;
    the replaced vehicle's RENAVAM, model...) is left out, never carried to the one
    that took its place: the renewal request supplies it. A new holder who drives
    (``fields.driver``) has the CNH of the state's driver: the cessionário's, which the
    transfer recorded. The facts the state keeps of the licence (``LicenceView.facts``:
    the vehicle's type and municipality, the holder's inscription, as the pack's effects
    declare them beside their articles) are set in the data as the state holds them: the
    substitute's, the cessionário's. One indexed read of the licences ``records``
    granted (by the acts' ids), however many others of the kind the registry holds."""
    records = list(records)
    views = {number_key(view.printed): view
             for view in active_licences_of(context.registry, kind, (r.id for r in records))}
    held: list[tuple[IssuedRecord, str, dict[str, Any]]] = []
    for record in records:
        data = json_copy(dict(record.data))
        view = views.get(number_key(record.printed))
        document = unmask(record.cpf_cnpj or "")
        if view is not None and view.holder:
            party = data.get(fields.at.strip("/"))
            party = dict(party) if isinstance(party, Mapping) else {}
            if unmask(str(party.get(fields.document) or "")) != view.holder:
                document = view.holder
                party = {fields.document: (mask_cpf if len(document) == 11
                                           else mask_cnpj)(document)}
                for key in fields.personal:
                    data.pop(key, None)
                if fields.driver and view.driver_cnh:  # the cessionário's, as recorded
                    party[fields.driver] = {"numero": view.driver_cnh}
            if view.holder_name:
                party[fields.name] = view.holder_name
            data[fields.at.strip("/")] = party
        if view is not None and view.placa:
            vehicle = data.get("veiculo")
            placa = vehicle.get("placa") if isinstance(vehicle, Mapping) else None
            if not isinstance(placa, str) or not same_vehicle(placa, view.placa):
                data["veiculo"] = {"placa": view.placa}
        if view is not None:
            for pointer, value in view.facts:
                _set(data, pointer, value)
        held.append((record, document, data))
    return held


def _set(data: dict[str, Any], pointer: str, value: Any) -> None:
    """``value`` at ``pointer`` in ``data``, creating the objects on its way (a value
    that is not an object on the way is replaced: the state's fact wins)."""
    *path, last = pointers.split(pointer)
    here = data
    for token in path:
        found = here.get(token)
        if not isinstance(found, dict):
            found = dict(found) if isinstance(found, Mapping) else {}
            here[token] = found
        here = found
    here[last] = value


def same_vehicle(one: object, other: object) -> bool:
    """Whether two plates are one vehicle's, as typed or held, old or Mercosul form."""
    try:
        return bool(set(plate_forms(str(one))) & set(plate_forms(str(other))))
    except LavraError:  # not a plate: not the vehicle
        return False


def stem(printed: str) -> str:
    """The file stem of a holder's outputs: its alvará's number, ASCII only
    (``ALV-FRET-0007-2021``)."""
    return re.sub(r"[^A-Za-z0-9]+", "-", number_key(printed)).strip("-")


@dataclass(frozen=True)
class Pedido:
    """One renewal request: its order (the line of ``--pedidos``, or the position of a
    request filed online among those of the run), and the envelope (the requerimento's
    data under ``requerimento``, with what the run adds to it)."""

    line: int
    envelope: Mapping[str, Any]
    replaced: tuple[Pedido, ...] = ()
    """Earlier requests of the same alvará, replaced by this one."""
    protocol: str | None = None
    """The protocol number of a request filed online (None: a line of ``--pedidos``)."""

    @property
    def holder(self) -> str:
        """The request as the summary's holder column names it when no holder took it."""
        return f"protocolo {self.protocol}" if self.protocol else f"pedido da linha {self.line}"

    @property
    def of(self) -> str:
        """``da linha 3 dos pedidos`` / ``do protocolo PROT nº 0001/2026``."""
        return f"do protocolo {self.protocol}" if self.protocol else (
            f"da linha {self.line} dos pedidos")


def read_pedidos(path: Path | None) -> dict[str, Pedido]:
    """The renewal requests of ``--pedidos`` by the number of the alvará they renew
    (``/alvara_anterior/numero``; the last line wins). A line is the requerimento's
    data, or ``{"requerimento": {...}, ...}`` with what the run adds to it.

    A line refused by the reader (repeated field, ``NaN``, not an object...) refuses
    the whole run, naming the line: its holder cannot be known, and planning the run
    without it would notify as missing a request that was filed."""
    if path is None:
        return {}
    found: dict[str, Pedido] = {}
    for read in read_lines(path, "/pedidos"):
        if read.problem is not None:
            raise InputError(f"{read.problem} Nada foi emitido: corrija essa linha.",
                             field="/pedidos")
        row = read.row
        if row is None or not isinstance(row.get("requerimento", row), Mapping):
            raise InputError(f"A linha {read.number} dos pedidos não "
                             "traz o requerimento como um objeto JSON.", field="/pedidos")
        envelope = row if "requerimento" in row else {"requerimento": row}
        number = pointers.get(envelope["requerimento"], "/alvara_anterior/numero")
        key = number_key(number)
        earlier = found.get(key)
        replaced = () if earlier is None else (*earlier.replaced, replace(earlier, replaced=()))
        found[key] = Pedido(read.number, envelope, replaced)
    return found


MISSING_PREFIXES = ("Documento não apresentado: ", "Não informado: ")
"""How the report words a field the schema requires and the data lack: the reason
first, the field's label after it (``lavra.checking.report``). Every other message
puts the subject first ("Veículo de placa X, fabricado em 2012: em ... conta 14 anos";
"CNH: Não pode ficar em branco.")."""

#: How the report words a required datum left blank (``lavra.checking.report``), as
#: against "Documento não apresentado: …" for a document.
DATA_MISSING = "Não informado:"


def pending_lines(
    report: Report, law: str, default: str, *, leave_out: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """The report's pending items as a notice lists them: the document, why, and the
    articles of ``law`` it rests on (``default`` when the item cites none of them).
    Items citing a provision of ``leave_out`` are not listed: the notice states them in
    a section of their own (a remedy that is no document, issue 23, class 3)."""
    lines = []
    for item in report.pending:
        if any(c in leave_out for c in item.basis):
            continue
        basis = [c for c in item.basis if c.startswith(f"{law}#")] or [default]
        # The notice prints the document (or the subject) and, beside it, the reason.
        # A missing field reads "Documento não apresentado: Atestado ...", reason first;
        # every other message reads "subject: reason" (they were swapped, class 3).
        head, _, tail = item.message.partition(": ")
        if not tail or " " in item.requirement:
            reason, document = item.message, item.requirement
        elif item.message.startswith(MISSING_PREFIXES):
            reason, document = head, tail
        else:
            document, reason = head, tail
            reason = reason[:1].upper() + reason[1:]
        line = {"documento": document.strip().rstrip(".")[:300],
                "motivo": (reason.strip().rstrip(".") + ".")[:1000],
                "dispositivos": basis[:8]}
        if item.message.startswith(DATA_MISSING):
            # a datum the request left blank (its date, a plate) is not a document the
            # holder must bring: the notice lists it apart, as data to complete
            line["natureza"] = "dado"
        lines.append(line)
    return lines[:40]


@dataclass(frozen=True)
class Wanted:
    """One holder line of ``--entrada``: the alvará's number, the holder's document
    (CPF or CNPJ) and name, as the file gives them."""

    line: int
    alvara: str
    document: str
    name: str


def ended_reason(context: PlanContext, wanted: Wanted, kind: str) -> str | None:
    """Why the alvará of an ``--entrada`` line is not among those due, when the licensing
    state holds it ended (cassado, revogado, recolhido, vago...): its status, with the
    act that ended it (issue 22: the run renewed a cassated alvará; an ended licence has
    nothing left to renew). None when the state does not hold it ended."""
    view = context.registry.licence_by_number(wanted.alvara, kind)
    if view is None or view.status in (LicenceStatus.ACTIVE, LicenceStatus.RENEWED):
        return None
    return (f"O alvará {view.printed} não se renova: está "
            f"{view.describe(context.request.on)} (linha {wanted.line} da entrada).")


def read_entrada(path: Path, document: str, name: str) -> list[Wanted | tuple[int, str]]:
    """The holders of the file, in order, from its columns ``alvara``, ``document`` and
    ``name``; (line, reason) for an unreadable line."""
    found: list[Wanted | tuple[int, str]] = []
    for read in read_lines(path, "/entrada"):
        line, row = read.number, read.row
        if read.problem is not None or row is None:
            found.append((line, read.problem or f"Linha {line} da entrada ilegível."))
            continue
        if not row.get("alvara"):
            found.append((line, f"Linha {line} da entrada sem o campo «alvara»."))
            continue
        found.append(Wanted(line, number_key(row.get("alvara")), str(row.get(document) or ""),
                            str(row.get(name) or "")))
    return found


def reading_due(context: PlanContext, form: str, due: Mapping[str, Any],
                holder: Callable[[Any], str]) -> AbstractContextManager[None]:
    """:meth:`PlanContext.reading` for a renewal plan: the alvarás ``due`` (of ``form``,
    each with its ``printed`` number and registry ``data``) read ahead with their
    licences, the licences of their holders (``holder``: the CPF or CNPJ of one) and of
    their vehicles."""
    licences = list(due.values())
    return context.reading(
        acts=[(form, lic.printed) for lic in licences],
        holders=[holder(lic) for lic in licences],
        placas=[str(pointers.get(lic.data, "/veiculo/placa") or "") for lic in licences])


def plan_holders(
    request: RunRequest,
    due: Mapping[str, L],
    decide: Callable[[L, Mapping[str, Any] | None], PlannedHolder],
    refusal: Callable[[Wanted, L | None], str | None],
    columns: tuple[str, str],
    filed: Requests | None = None,
) -> list[PlannedHolder]:
    """Each holder's outputs, in input order: the licences ``due`` (by number key) in
    their order, or those of ``--entrada`` (its ``columns``: the holder's document and
    name), each refused with ``refusal``'s reason or decided with its request: those
    ``filed`` online when given (``lote_protocolos``), else those of ``--pedidos``."""
    if filed is None:
        filed = Requests(read_pedidos(request.pedidos))
    pedidos = filed.by_key
    used: set[str] = set()

    def envelope(key: str) -> Mapping[str, Any] | None:
        found = pedidos.get(key)
        if found is None:
            return None
        used.add(key)
        return found.envelope

    def decided(licence: L, key: str) -> PlannedHolder:
        """The holder decided with its request; refused, with the request's reason,
        while the request is held (``HELD``: its documents not yet accepted by staff)."""
        found = envelope(key)
        planned = decide(licence, found)
        held = None if found is None else found.get(HELD)
        if not held:
            # a request filed online: the run's items hold its filing while pending, so
            # that staff do not prepare a second act for it (lavra.registry.filing_holds)
            protocol = None if found is None else found.get(PROTOCOL)
            return replace(planned, filing=str(protocol)) if protocol and planned.outputs \
                else planned
        return replace(planned, outcome=REFUSED, outputs=(), reason=str(held))

    planned: list[PlannedHolder] = []
    if request.entrada is None:
        planned = [decided(licence, key) for key, licence in due.items()]
        return planned + _unmatched(pedidos, used, filed.refused)
    for wanted in read_entrada(request.entrada, *columns):
        if isinstance(wanted, tuple):
            planned.append(PlannedHolder(f"linha {wanted[0]}", "", REFUSED, reason=wanted[1]))
            continue
        licence = due.get(wanted.alvara)
        reason = refusal(wanted, licence)
        if reason is not None or licence is None:
            holder = unmask(wanted.document) or f"linha {wanted.line}"
            planned.append(PlannedHolder(holder, wanted.name, REFUSED, reason=reason))
            continue
        planned.append(decided(licence, wanted.alvara))
    return planned + _unmatched(pedidos, used, filed.refused)


@dataclass(frozen=True)
class Requests:
    """The requests of a run by the number key of the alvará each renews, and those
    refused before any holder could take them (order, refused row): a filed request
    the strict reader refuses, or one whose requerente is not the alvará's holder."""

    by_key: Mapping[str, Pedido]
    refused: tuple[tuple[int, PlannedHolder], ...] = ()


def _unmatched(pedidos: Mapping[str, Pedido], used: set[str],
               refused: Sequence[tuple[int, PlannedHolder]] = ()) -> list[PlannedHolder]:
    """The requests no holder of the run took, each refused with its reason (a request
    is never dropped without a word), after the holders, in the order of their lines
    (or of their filing): one replaced by a later request of the same alvará, one whose
    alvará no holder has, and the ``refused``."""
    found: list[tuple[int, PlannedHolder]] = list(refused)
    for key, pedido in pedidos.items():
        number = "(não informado)" if not key or key.startswith(UNKNOWN) else key
        later = (f"do protocolo {pedido.protocol}, protocolado depois" if pedido.protocol
                 else f"da linha {pedido.line}")
        found.extend((old.line, PlannedHolder(
            old.holder, "", REFUSED,
            reason=(f"O pedido {old.of}, do alvará «{number}», foi substituído pelo "
                    f"{later}, do mesmo alvará: só o último pedido de cada alvará é "
                    "considerado."),
        )) for old in pedido.replaced)
        if key in used:
            continue
        found.append((pedido.line, PlannedHolder(
            pedido.holder, "", REFUSED,
            reason=(f"O pedido {pedido.of} renova o alvará «{number}», "
                    "que não é de nenhum titular desta execução (não consta do registro "
                    "como a renovar, foi recusado na entrada ou não está nela): o pedido "
                    "não foi considerado."),
        )))
    return [holder for _, holder in sorted(found, key=lambda pair: pair[0])]


# ------------------------------------------------------------------ refused at planning
_REASON_FIRST = ("Não informado", "Documento não apresentado", "Campo obrigatório não informado",
                 "Não pode ficar em branco", "Não se aplica")
"""The reasons a report writes before the field (``Não informado: Titular › CPF.``)."""
_LABEL_FIRST = ("Deve ", "Formato inválido", "Valor não permitido", "Não pode ficar em branco",
                "Há itens repetidos", "A lista ", "Não atende", "Os dados atendem")
"""The validator's reasons written after the field (``Titular › Prontuário: Deve ser um
texto.``, :mod:`lavra.inputs.schemas.validation`)."""


def _staff_line(item: Item) -> str:
    """One pending item as staff read it: the field named, then what is wrong, whichever
    order the message has («Não informado: Grupo › Campo» and «Grupo › Campo: Deve ser
    um texto» both become «campo «Grupo › Campo»: …»). A rule's sentence, which names
    its field in its own words, is kept as written (never a JSON pointer)."""
    head, _, tail = item.message.strip().rstrip(".").partition(": ")
    head, tail = head.strip(), tail.strip()
    label, what = "", ""
    if tail and head.startswith(_REASON_FIRST) and len(tail) <= 160 and ". " not in tail:
        label, what = tail, head
    elif tail and tail.startswith(_LABEL_FIRST) and len(head) <= 160 and ". " not in head:
        label, what = head, tail
    if not label:
        return item.message.strip().rstrip(".")
    return f"campo «{label}»: {what[:1].lower()}{what[1:]}"


def unissuable(title: str, name: str, printed: str,
               pending: Report | Sequence[Item]) -> str | None:
    """Why the document ``title`` of holder ``name`` (the alvará ``printed`` renewed)
    cannot be issued, from its completeness report or pending items (None when it
    can): the reason of a row refused at planning, before any number is reserved."""
    pending = list(pending.pending if isinstance(pending, Report) else pending)
    if not pending:
        return None
    lines = "; ".join(_staff_line(item) for item in pending[:8])
    more = f"; e mais {len(pending) - 8} pendência(s)" if len(pending) > 8 else ""
    return (f"{title} de {name} (renovação do {printed}) não pode ser emitido: {lines}{more}. "
            "Nenhum número foi reservado para este titular; corrija os dados e execute "
            "de novo.")[:4000]


def refused_for(context: PlanContext, holder: str, name: str, printed: str,
                outputs: list[PlannedOutput]) -> PlannedHolder | None:
    """A refused row when a numbered output's data fail its act's completeness check
    (run on the run's date of issue, as the workers will); None when all pass."""
    for out in outputs:
        if out.series is None:
            continue
        reason = unissuable(context.title(out.form), name, printed,
                            context.check(out.form, out.data))
        if reason is not None:
            return PlannedHolder(holder, name, REFUSED, reason=reason)
    return None
