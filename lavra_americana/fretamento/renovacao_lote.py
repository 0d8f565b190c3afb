"""The renewal run of the fretamento alvarás (art. 8º of Lei nº 4.419/2006), as a
:class:`lavra.batch.model.BatchRun`, and the computation of the
``notificacao-pendencias-renovacao-fretamento``.

``lavra batch renovacao-fretamento --vencendo-ate AAAA-MM-DD``: the Alvará de Licença
de Circulação lasts 5 years, "renovável por igual período, desde que a empresa ou
entidade se manifeste nesse sentido com 30 (trinta) dias de antecedência da data do
vencimento e apresente a documentação atualizada exigida pela SETRANSV na ocasião"
(art. 8º), and never beyond the vehicle's age limit (art. 10, I).

**Who comes due.** Every ``alvara-fretamento`` of the registry in force on the run's
date, not cancelled, whose vencimento is on or before ``--vencendo-ate`` and that is
not already renewed (no later alvará of the vehicle, not cancelled, renews it:
``/processo/renovacao`` naming it in ``/processo/alvara_anterior``), in the order of
their numbers. One alvará per vehicle (art. 8º, "para cada veículo"): the holder of
the run is the alvará, named by the company's CNPJ and the plate. With ``--entrada``,
the holders of the file in its order: CSV (header ``alvara,cnpj,razao_social``) or
JSON Lines with those keys; each must name an alvará of the registry due by the date
and held by that CNPJ. Sample: ``tests/data/renovacao-fretamento-entrada.csv``.

**The requests.** ``--pedidos``: JSON Lines, one
``requerimento-renovacao-alvara-fretamento`` per line, keyed by
``/alvara_anterior/numero``, or ``{"requerimento": {...}, "processo": "PA 1.234/2026",
"conferencia": {"responsavel": "...", "data": "AAAA-MM-DD"}}``: the administrative
process and the servant who checked the filing against art. 7º (the renewed alvará
says "atendidos os requisitos do art. 7º" only on that attestation, ``alvara.py``).

**What each holder gets.** The requerimento is judged by its own rules
(``renovacao.py``: the 30 days' notice of art. 8º, the updated documents of art. 7º,
the vehicle's age of art. 10, I) and the renewed alvará by the alvará's
(``alvara.py``); nothing is decided here that those rules do not say.

- complete, and the renewed alvará complete → the renewed ``alvara-fretamento``
  (``/processo/renovacao`` true, the previous alvará by its number with its series and
  its vencimento; from the day after that vencimento, for 5 years or to the vehicle's
  age limit), numbered in ``ALV-FRET`` and signed. A complete request without the
  servant's ``conferencia`` is refused in the summary (nothing is issued nor notified:
  the company did its part; the secretariat must attest and run the command again);
- incomplete or missing → the ``notificacao-pendencias-renovacao-fretamento``
  (``NOT-REN-FRET``), numbered and signed, each pending item with its basis and the
  last day to regularise (:func:`notificacao_pendencias_renovacao_fretamento`), and
  right after it, as a separate file (PDF/A-2 forbids embedding), the renewal
  requerimento prefilled with what the registry knows, fillable;
- a vehicle past its age limit at the start of the new period (the renewal
  requerimento's rule says so) → it cannot be renewed (art. 10, I): the summary says
  it (outcome ``não renovável``) and the company gets the same notice, stating the
  reason and that another vehicle needs a new alvará (art. 7º), without a requerimento
  to fill (there is nothing to renew);
- no manifestation within the 30 days of art. 8º (no request by then, or a request
  filed after) → the alvará does not renew: the notice says so (``situacao``
  ``fora_do_prazo``), lists no renewal documents, and names the remedy the law gives,
  a new requerimento instruído under art. 7º; the ``requerimento-alvara-fretamento``,
  prefilled with the company and the vehicle, goes with it instead of the renewal
  form (issue 23, class 3: the company was told the alvará "não se renova" and then
  invited to complete the renewal requerimento).

Why a notice of its own rather than the school one generalised: a form has one law,
one series and one wording; the school notice cites art. 13 of Lei nº 4.515/2007,
notifies a person (CPF, prontuário) and counts to the last business day of the year,
while this one notifies a company (CNPJ) under art. 8º of Lei nº 4.419/2006, with
another deadline, and has a case the school run lacks (the vehicle's age).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from lavra.batch.intake import FiledScope
from lavra.batch.model import (
    PlanContext,
    PlannedHolder,
    PlannedOutput,
    RunParameter,
    RunRequest,
)
from lavra.checking.cleaning import json_copy
from lavra.checking.computations import Computation, Computed, ComputeInput, item_at
from lavra.checking.report import Item, Report, Status
from lavra.errors import InputError, LavraError
from lavra.inputs import pointers
from lavra.inputs.formats import is_valid, unmask
from lavra.inputs.reading import maybe_date
from lavra.law.statutory import deadline_for
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.computing import data_of
from lavra_americana.comum.lote import (
    REFUSED,
    HolderFields,
    Wanted,
    as_held,
    ended_reason,
    number_key,
    pending_lines,
    plan_holders,
    reading_due,
    refused_for,
    unissuable,
)
from lavra_americana.comum.lote import read_entrada as read_holders
from lavra_americana.comum.lote import stem as file_stem
from lavra_americana.comum.lote_protocolos import notice_processo, requests_for
from lavra_americana.comum.sources import statutory_context
from lavra_americana.comum.validity import act_at
from lavra_americana.fretamento.renovacao_requisitos import carry

__all__ = [
    "COMPUTATIONS",
    "IMPLEMENTED",
    "RUN",
    "FretamentoRenewalRun",
    "Wanted",
    "notificacao_pendencias_renovacao_fretamento",
    "read_entrada",
]

LAW = "fretamento"
TERM, AGE = f"{LAW}#art8", f"{LAW}#art10_inc1"
REQUIREMENTS, UPDATED = f"{LAW}#art7", f"{LAW}#art10_par5"
ALVARA, REQUERIMENTO = "alvara-fretamento", "requerimento-renovacao-alvara-fretamento"
NEW_REQUEST = "requerimento-alvara-fretamento"
COMPANY = HolderFields("/empresa", "cnpj", "razao_social")
"""Where the alvará names the company that holds it."""
LATE = "fora_do_prazo"
NOTICE = "notificacao-pendencias-renovacao-fretamento"
RENEWED, NOTIFIED, NOT_RENEWABLE = "renovado", "notificado", "não renovável (art. 10, I)"

IMPLEMENTED: tuple[str, ...] = (TERM, AGE, REQUIREMENTS)
"""Who comes due and is renewed (art. 8º), the vehicle that cannot be (art. 10, I)."""


# ------------------------------------------------------------------ the computation
def _last_day(expiry: date, context: Any) -> date:
    """The last day to ask for the renewal: 30 days before the vencimento (art. 8º)."""
    return deadline_for(TERM, expiry, context=context).last_day


def notificacao_pendencias_renovacao_fretamento(request: ComputeInput) -> Computed:
    """``prazo_final`` (None when there is none) and ``prazo_explicacao``.

    - request filed in time but incomplete: until the alvará's vencimento. The law
      fixes no term to complete the "documentação atualizada" of a request made in
      time; the new period starts the day after the vencimento, so the documents are
      received up to it (the longest term the law allows, the reading that protects
      the company);
    - no request, the notice dated up to the 30th day before the vencimento: that day
      (art. 8º; ``fretamento#art8`` in ``prazos.json``);
    - no request and that day past, or a request filed after it: no term; the alvará
      does not renew, and the company must file a new requerimento (art. 7º);
    - vehicle past its age limit: no term; the alvará cannot be renewed (art. 10, I).

    A notice dated after the vencimento is *invalid*: there is no alvará left to renew.
    """
    data = data_of(request)
    context = statutory_context(request)
    laws = context.laws
    # Art. 8º counts from the vencimento the registry holds (issued or imported): a typed
    # validity that differs from it is *invalid* and the term is the registry's (issue
    # 22: a notice gave a last day one year late). A paper alvará the registry lacks:
    # the vencimento typed, as the requerimento reads it (fretamento.renovacao).
    found, checked = act_at(request.history, ALVARA, data, "/alvara", request.on,
                            "alvará a renovar", (TERM,), in_force=False, laws=laws)
    items: list[Item] = [] if found is None else checked
    expiry = (found.valid_until if found is not None and found.valid_until
              else maybe_date(pointers.get(data, "/alvara/valido_ate")))
    if expiry is None:
        return Computed({"prazo_final": None, "prazo_explicacao": None, LATE: False},
                        tuple(items))
    if request.on > expiry:
        items.append(item_at(
            "/data_notificacao", Status.INVALID,
            f"A notificação de {format_date(request.on)} é posterior ao vencimento do alvará "
            f"({format_date(expiry)}): não há mais alvará a renovar; a empresa deve "
            f"apresentar novo requerimento, instruído na forma do {short(laws, REQUIREMENTS)}.",
            TERM,
        ))
    try:
        last = _last_day(expiry, context)
    except LavraError as error:
        message = f"Não foi possível calcular o prazo da renovação: {error.message}"
        return Computed({"prazo_final": None, "prazo_explicacao": message, LATE: False},
                        (*items, item_at("/alvara/valido_ate", Status.MISSING, message, TERM)))
    situation = data.get("situacao")
    filed = maybe_date(data.get("data_requerimento"))
    lapsed = (
        f"O prazo para requerer a renovação terminou em {format_date(last)}, 30 (trinta) "
        f"dias antes do vencimento do alvará ({short(laws, TERM)}): sem a manifestação "
        "nesse prazo o alvará não se renova, e a continuidade do serviço depende de novo "
        f"requerimento, instruído na forma do {short(laws, REQUIREMENTS)}."
    )
    final: date | None
    late = False
    if situation == "idade_veiculo":
        final, text = None, (
            f"O alvará vale até {format_date(expiry)} e não se renova para este veículo "
            f"({short(laws, AGE)}): a idade conta-se pelo ano de fabricação."
        )
    elif situation in ("ausente", LATE) or filed is None:
        final = last if request.on <= last else None
        late = final is None
        text = lapsed if final is None else (
            f"A renovação deve ser requerida até {format_date(last)}, com 30 (trinta) dias "
            f"de antecedência do vencimento do alvará ({format_date(expiry)}), com a "
            f"documentação atualizada ({short(laws, TERM)})."
        )
    elif filed > last:
        final, text, late = None, lapsed, True
    else:
        final, text = expiry, (
            f"O requerimento foi apresentado no prazo ({short(laws, TERM)}); a lei não fixa "
            "prazo para completar a documentação atualizada, e o novo período começa no "
            "dia seguinte ao vencimento: as pendências podem ser sanadas até o último dia "
            f"de validade do alvará, {format_date(expiry)}."
        )
    if (situation == LATE) != late and situation != "idade_veiculo":
        items.append(item_at(
            "/situacao", Status.INVALID,
            lapsed.split(": ", 1)[0] + ": a situação é «requerimento fora do prazo»."
            if late else f"A renovação ainda pode ser requerida ({short(laws, TERM)}): a "
            "situação não é «requerimento fora do prazo».", TERM,
        ))
    return Computed({"prazo_final": final, "prazo_explicacao": text, LATE: late},
                    tuple(items))


COMPUTATIONS: dict[str, Computation] = {
    "notificacao_pendencias_renovacao_fretamento": notificacao_pendencias_renovacao_fretamento,
}


# ------------------------------------------------------------------ reading inputs
def read_entrada(path: Path) -> list[Wanted | tuple[int, str]]:
    """The holders of the file (columns ``alvara,cnpj,razao_social``), in order;
    (line, reason) for an unreadable line."""
    return read_holders(path, "cnpj", "razao_social")


# ------------------------------------------------------------------ deciding
@dataclass(frozen=True)
class Licence:
    printed: str
    cnpj: str
    expiry: date
    data: Mapping[str, Any]

    @property
    def holder(self) -> str:
        """The run's holder: the company and the vehicle (one alvará per vehicle)."""
        return f"{self.cnpj} {pointers.get(self.data, '/veiculo/placa') or ''}".strip()

    @property
    def name(self) -> str:
        return str(pointers.get(self.data, "/empresa/razao_social") or "")


def _prefill(lic: Licence) -> dict[str, Any]:
    """The renewal requerimento with what the registry knows of the alvará."""
    empresa, veiculo = lic.data.get("empresa", {}), lic.data.get("veiculo", {})
    return {
        "requerente": {k: empresa[k] for k in ("razao_social", "nome_fantasia", "cnpj",
                                               "endereco", "telefone") if k in empresa},
        "alvara_anterior": {"numero": lic.printed, "valido_ate": lic.expiry.isoformat()},
        "veiculo": {k: veiculo[k] for k in (
            "placa", "renavam", "marca_modelo", "tipo", "ano_fabricacao", "lotacao_sentados",
            "propriedade", "categoria_crlv", "numero_ordem") if k in veiculo},
    }


def renewed_alvara(lic: Licence, envelope: Mapping[str, Any]) -> dict[str, Any]:
    """The renewed alvará's data: the previous one's, updated by the request (the
    company's data, the vehicle's, the inspection), with the renewal's process."""
    req = envelope["requerimento"]
    data: dict[str, Any] = json_copy(dict(lic.data))
    empresa = {k: v for k, v in req.get("requerente", {}).items()
               if k in ("razao_social", "nome_fantasia", "cnpj", "endereco", "telefone")}
    data["empresa"] = {**data.get("empresa", {}), **empresa}
    data["veiculo"] = {**data.get("veiculo", {}), **req.get("veiculo", {})}
    inspection = pointers.get(req, "/documentos/inspecao_veicular")
    if isinstance(inspection, Mapping):
        data["inspecao_veicular"] = dict(inspection)
    carry(req, data)  # what the act prints from the request (renovacao_requisitos)
    filed = format_date(date.fromisoformat(req["data_requerimento"]))
    conferencia = dict(envelope.get("conferencia") or {})
    data["processo"] = {
        # without the process number, the request itself: the templates print "conforme
        # o processo {numero}", so the words must continue that sentence
        "numero": str(envelope.get("processo") or f"de renovação requerida em {filed}"),
        "data_requerimento": req["data_requerimento"],
        "renovacao": True,
        "alvara_anterior": lic.printed,
        "vencimento_alvara_anterior": lic.expiry.isoformat(),
        "conferencia_requerimento": {**conferencia, "completo": True},
    }
    return data


def late_notice(lic: Licence, filed: str | None) -> dict[str, Any]:
    """What the notice says when the 30 days of art. 8º have passed without a request:
    no renewal document is missing, the alvará does not renew; the one remedy is a new
    requerimento, instruído under art. 7º (module docstring)."""
    when = (f"O requerimento de renovação, protocolizado em "
            f"{format_date(date.fromisoformat(filed))}, veio depois" if filed
            else "Não houve manifestação de renovação até")
    return {
        "situacao": LATE,
        "pendencias": [{
            "documento": "Novo requerimento de Alvará de Licença de Circulação",
            "motivo": (
                f"{when} o 30º (trigésimo) dia anterior ao vencimento do alvará "
                f"({format_date(lic.expiry)}): o alvará não se renova. A continuidade do "
                "serviço com este veículo depende de novo requerimento, instruído com os "
                "documentos exigidos para a expedição do alvará."
            ),
            "dispositivos": [TERM, REQUIREMENTS],
        }],
    }


def new_request(lic: Licence) -> dict[str, Any]:
    """The requerimento of art. 7º, with the company and the vehicle the registry knows."""
    renewal = _prefill(lic)
    return {"categoria": "fretamento", "requerente": renewal["requerente"],
            "veiculos": [renewal["veiculo"]]}


def _past_age(report: Report) -> Item | None:
    """The requerimento's finding that the vehicle is past its age limit (art. 10, I)."""
    for item in report.pending:
        if item.status is Status.INVALID and AGE in item.basis:
            return item
    return None


class FretamentoRenewalRun:
    """``lavra batch renovacao-fretamento --vencendo-ate D`` (module docstring)."""

    name = "renovacao-fretamento"
    title = "Renovação dos Alvarás de Licença de Circulação (fretamento)"
    parameters = (RunParameter("vencendo_ate", "Alvarás que vencem até", "data",
                               "--vencendo-ate", "Renova os alvarás em vigor que vencem até "
                               "esta data."),)
    forms = (ALVARA, NOTICE)

    def key(self, request: RunRequest) -> str:
        until = request.option("vencendo_ate", "--vencendo-ate")
        return f"{self.name}:{until}"

    def _due(self, context: PlanContext, until: date) -> dict[str, Licence]:
        due: dict[str, Licence] = {}
        # From the licensing state: the alvarás in force and not yet renewed (nor
        # cassated, recalled...) whose last day comes by ``until``.
        # Its company and vehicle are those the state holds, not the act's (issue 22:
        # the school run renewed a transferred alvará for the cedente).
        on = context.request.on
        records = context.registry.licences(ALVARA, on=on, expiring=(on, until))
        for record, cnpj, data in as_held(context, ALVARA, records, COMPANY):
            if record.valid_until is not None:  # always: asked by its last day
                due[number_key(record.printed)] = Licence(
                    record.printed, cnpj, record.valid_until, data)
        return due

    def filed(self, request: RunRequest) -> FiledScope:
        """The requests filed online in the year before the run, up to its date
        (art. 8º asks for them 30 days ahead of a 5-year term: an older one renews no
        alvará due now; the reading chosen, the law giving no earliest day)."""
        return FiledScope(REQUERIMENTO, request.on - timedelta(days=366), request.on)

    def plan(self, context: PlanContext) -> Sequence[PlannedHolder]:
        until = maybe_date(str(context.request.option("vencendo_ate", "--vencendo-ate")))
        if until is None:
            raise InputError("Data inválida em --vencendo-ate.", field="/vencendo_ate")
        # One read scope: the alvarás due and every holder's decision read one snapshot,
        # and what the holders' checks look up is read for all of them at once.
        with context.registry.read_scope():
            due = self._due(context, until)
            # The requests filed online (filed), unless --pedidos gives a file.
            filed = requests_for(context, self.filed(context.request), due,
                                 lambda lic: lic.cnpj, conference="art. 7º com o art. 8º")
            with reading_due(context, ALVARA, due, lambda lic: lic.cnpj):
                return plan_holders(
                    context.request, due,
                    context.per_holder(lambda lic, envelope: notice_processo(
                        self._decide(context, lic, envelope), NOTICE, envelope)),
                    lambda wanted, lic: self._refusal(context, wanted, lic, until),
                    ("cnpj", "razao_social"), filed)

    @staticmethod
    def _refusal(context: PlanContext, wanted: Wanted, licence: Licence | None,
                 until: date) -> str | None:
        if not is_valid("cnpj", wanted.document):
            return f"CNPJ inválido: «{wanted.document}» (linha {wanted.line} da entrada)."
        if licence is None:
            return ended_reason(context, wanted, ALVARA) or (
                f"O alvará «{wanted.alvara}» não consta do registro como Alvará de "
                f"Licença de Circulação em vigor a vencer até {format_date(until)}, "
                f"nem já renovado (linha {wanted.line} da entrada).")
        if unmask(wanted.document) != licence.cnpj:
            return (f"O CNPJ da linha {wanted.line} não é o da empresa titular do alvará "
                    f"{licence.printed}.")
        return None

    def _decide(self, context: PlanContext, lic: Licence,
                envelope: Mapping[str, Any] | None) -> PlannedHolder:
        prefill = _prefill(lic)
        if envelope is None:
            report = context.check_request(REQUERIMENTO, prefill)
            return self._notice(context, lic, prefill, report, None)
        req = envelope["requerimento"]
        report = context.check_request(REQUERIMENTO, req)
        if not report.complete:
            return self._notice(context, lic, {**prefill, **req}, report,
                                req.get("data_requerimento"))
        conferencia = envelope.get("conferencia")
        if not isinstance(conferencia, Mapping) or not conferencia.get("responsavel") \
                or not conferencia.get("data"):
            return PlannedHolder(lic.holder, lic.name, REFUSED, reason=(
                f"O pedido de renovação do alvará {lic.printed} está completo, mas falta a "
                "conferência por servidor de que foi instruído com a documentação "
                "atualizada (art. 7º com o art. 8º): informe «conferencia» (responsável e "
                "data) na linha do pedido e repita o comando."))
        data = renewed_alvara(lic, envelope)
        alvara_report = context.check(ALVARA, data)
        if _past_age(alvara_report) is not None:  # the vehicle's age: the holder is told
            return self._notice(context, lic, {**prefill, **req}, alvara_report,
                                req.get("data_requerimento"))
        # Anything else the act lacks, with the request complete, is not the holder's to
        # supply: refused before numbering, naming the document and the field.
        reason = unissuable(context.title(ALVARA), lic.name, lic.printed, alvara_report)
        if reason is not None:
            return PlannedHolder(lic.holder, lic.name, REFUSED, reason=reason)
        return PlannedHolder(lic.holder, lic.name, RENEWED, (
            PlannedOutput(ALVARA, data, f"alvara-{file_stem(lic.printed)}.pdf",
                          context.series(ALVARA)),))

    @staticmethod
    def _notice(context: PlanContext, lic: Licence, prefill: Mapping[str, Any],
                report: Report, filed: str | None) -> PlannedHolder:
        stem = file_stem(lic.printed)
        age = _past_age(report)
        if age is not None:
            situation = "idade_veiculo"
            pending = [{"documento": "Idade do veículo", "motivo": age.message[:1000],
                        "dispositivos": [AGE]}]
        else:
            situation = "ausente" if filed is None else "incompleto"
            pending = pending_lines(report, LAW, TERM, leave_out=(AGE,)) or [{
                "documento": "Requerimento de renovação", "motivo": "Requerimento incompleto.",
                "dispositivos": [TERM]}]
        data: dict[str, Any] = {
            "destinatario": {"razao_social": lic.name,
                             "cnpj": pointers.get(lic.data, "/empresa/cnpj")},
            "alvara": {"numero": lic.printed.replace(" nº ", " "),
                       "valido_ate": lic.expiry.isoformat()},
            "veiculo": {"placa": pointers.get(lic.data, "/veiculo/placa")},
            "situacao": situation,
            "pendencias": pending,
            "data_notificacao": context.request.on.isoformat(),
        }
        if filed is not None:
            data["data_requerimento"] = filed
        late = age is None and context.prepare(NOTICE, data).computed.get(LATE) is True
        if late:
            data = {**data, **late_notice(lic, filed)}
        notice = PlannedOutput(NOTICE, data, f"notificacao-{stem}.pdf", context.series(NOTICE))
        refused = refused_for(context, lic.holder, lic.name, lic.printed, [notice])
        if refused is not None:
            return refused
        if age is not None:
            return PlannedHolder(lic.holder, lic.name, NOT_RENEWABLE, (notice,))
        if late:
            return PlannedHolder(lic.holder, lic.name, NOTIFIED, (
                notice, PlannedOutput(NEW_REQUEST, new_request(lic), f"requerimento-{stem}.pdf")))
        return PlannedHolder(lic.holder, lic.name, NOTIFIED, (
            notice, PlannedOutput(REQUERIMENTO, dict(prefill), f"requerimento-{stem}.pdf")))

    def link(self, holder: PlannedHolder, printed: tuple[str | None, ...]) -> PlannedHolder:
        """Nothing to link: each holder gets one numbered document."""
        return holder


RUN = FretamentoRenewalRun()
